"""Personal API tokens (issue 21): create, list, revoke, and the lookup behind ``Authorization: Bearer``.

A token is ``secrets.token_urlsafe(32)`` (256 random bits) shown once; only its SHA-256 is stored
(:class:`larp.models.ApiToken`), so a copy of the database gives nobody a working token. A token
carries a role no higher than its owner's, and stops working when revoked, when it expires, or
when its owner is deactivated or loses the role.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import date, datetime, time, timedelta

from larp.db import as_id, db, for_update
from larp.models import ApiToken, Chronicle, User, utcnow
from larp.rules.explain import N_, Phrase, phrase_step
from larp.services import ServiceError
from larp.services.memberships import ROLE_RANK, highest_role  # a token's role may not outrank its owner's
from larp.services.records import check_submission, record_ruling
#: The longest token name (``ApiToken.name``).
MAX_NAME_LENGTH = 60
#: How often ``last_used_at`` is written for a busy token (one UPDATE a minute, not one a call).
LAST_USE_GRANULARITY = timedelta(minutes=1)


def hash_token(token: str) -> str:
    """The stored form of ``token``: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_token(user: User, name: str, role: str, expires_on: str | date | None = None,
                 today: date | None = None, chronicle: Chronicle | None = None) -> tuple[ApiToken, str]:
    """Create a token for ``user``; returns the row and the raw token (to show once, never stored).

    With ``chronicle`` (the Account page's form), the making is recorded in its record as a ruling
    of kind ``api_token_made`` (name and role, never the token), which carries the form's one-time
    token: the same form sent twice (a double tap) makes one token.

    Args:
        name: what the record shows as the narrator of the token's rulings (1 to 60 characters).
        role: "narrator" or "organiser", no higher than ``user``'s.
        expires_on: the last day it works (ISO date text or a date), or empty for no expiry;
            it stops working at the end of that day (UTC).
        today: the current date (UTC), for refusing a past expiry.

    Raises:
        ServiceError: 422 naming ``name``, ``role`` or ``expires_on``; 403 for a role above the owner's;
            409 (field ``name``) when another of his live tokens has that name.
        AlreadyRecorded: 409 naming the first ruling when this form made its token already.
    """
    name = (name or "").strip()
    if not name or len(name) > MAX_NAME_LENGTH:
        raise ServiceError(Phrase.message(N_("Give the token a name of 1 to %(MAX_NAME_LENGTH)s characters (the "
                                             "record shows it as the narrator)."),
                                          MAX_NAME_LENGTH=MAX_NAME_LENGTH), field="name", status=422)
    if role not in ROLE_RANK:
        raise ServiceError(Phrase.message(N_("The role is narrator or organiser.")), field="role", status=422)
    if ROLE_RANK[role] > ROLE_RANK.get(user.role, 0):
        raise ServiceError(Phrase.message(N_("A %(role)s cannot make an %(role_2)s's token: choose a role no "
                                             "higher than yours."), role=Phrase.term(user.role),
                                          role_2=Phrase.term(role)),
                           field="role", status=403)
    expires_at = None
    if expires_on:
        if isinstance(expires_on, str):
            try:
                expires_on = date.fromisoformat(expires_on.strip())
            except ValueError:
                raise ServiceError(Phrase.message(N_("The expiry is a date (YYYY-MM-DD), "
                                                     "or empty for none.")), field="expires_on",
                                   status=422) from None
        today = today or utcnow().date()
        if expires_on < today:
            raise ServiceError(Phrase.message(N_("The expiry date has passed: "
                                                 "choose today or later.")), field="expires_on", status=422)
        expires_at = datetime.combine(expires_on + timedelta(days=1), time.min)
    raw = secrets.token_urlsafe(32)
    with db.atomic():
        if chronicle is not None:
            check_submission([])  # a repeated form is refused before a second token exists
        # The record names a token's rulings by its name, so two live tokens of one person never
        # share one. Check-then-write made safe by locking the owner's row first (PostgreSQL:
        # FOR NO KEY UPDATE, so a second making waits and then sees the first; SQLite: the
        # BEGIN IMMEDIATE transaction already serialises every writer).
        list(for_update(User.select(User.id).where(User.id == user.id)))
        now = utcnow()
        clash = ApiToken.select().where((ApiToken.user == user) & (ApiToken.name == name)
                                        & ApiToken.revoked_at.is_null()
                                        & (ApiToken.expires_at.is_null() | (ApiToken.expires_at > now)))
        if clash.exists():
            raise ServiceError(Phrase.message(N_("You have a token named “%(name)s” already: the record could not "
                                                 "tell their rulings apart. Choose another name, or revoke that "
                                                 "one first."), name=name), field="name", status=409)
        row = ApiToken.create(user=user, name=name, role=role, token_hash=hash_token(raw), expires_at=expires_at)
        if chronicle is not None:
            # The ruling's unique one-time token is the exact check (two taps at once): the second
            # transaction's INSERT fails and takes its token row with it.
            made = (Phrase.message(N_("%(user)s made the API token “%(token)s” (%(role)s, until %(date)s)"),
                                   user=user.display_name, token=name, role=Phrase.term(role),
                                   date=expires_on.isoformat()) if expires_at else
                    Phrase.message(N_("%(user)s made the API token “%(token)s” (%(role)s)"), user=user.display_name,
                                   token=name, role=Phrase.term(role)))
            record_ruling(chronicle, user, "api_token_made", made,
                          [phrase_step(N_("A personal API token: shown once, stored only as its SHA-256."),
                                       "API tokens (issue 21)")], [],
                          inputs={"name": name, "role": role}, outcome={"token_id": row.id})
    return row, raw


def list_tokens(user: User) -> list[ApiToken]:
    """``user``'s tokens, newest first, revoked ones included (they say when)."""
    return list(ApiToken.select().where(ApiToken.user == user).order_by(ApiToken.id.desc()))


def revoke_token(user: User, token_id: object, chronicle: Chronicle | None = None) -> ApiToken:
    """Revoke one of ``user``'s tokens (at once: its next call is refused). With ``chronicle`` (the
    Account page's form) the revoking is recorded as a ruling of kind ``api_token_revoked``
    carrying the form's one-time token, as :func:`create_token`.

    Raises:
        ServiceError: 404 when ``user`` has no such token.
        AlreadyRecorded: 409 naming the first ruling when this form revoked it already.
    """
    with db.atomic():
        if chronicle is not None:
            check_submission([])
        row = ApiToken.get_or_none((ApiToken.id == as_id(token_id)) & (ApiToken.user == user))
        if row is None:
            raise ServiceError(Phrase.message(N_("No such token of yours.")), field="token", status=404)
        if row.revoked_at is None:
            # The UPDATE is its own check: revoking twice at once keeps the first time (and records once).
            revoked = ApiToken.update(revoked_at=utcnow()).where(
                (ApiToken.id == row.id) & ApiToken.revoked_at.is_null()).execute()
            if revoked and chronicle is not None:
                record_ruling(chronicle, user, "api_token_revoked",
                              Phrase.message(N_("%(user)s revoked the API token “%(token)s” (%(role)s)"),
                                             user=user.display_name, token=row.name, role=Phrase.term(row.role)),
                              [phrase_step(N_("Programs using it are refused from now on."), "API tokens (issue 21)")],
                              [], inputs={"token_id": row.id}, outcome={"revoked": row.id})
        return ApiToken.get_by_id(row.id)


def token_user(raw: str) -> tuple[User, ApiToken] | None:
    """The active user a bearer token acts for, with the token, or ``None`` when the token is
    unknown, revoked, expired, or its owner is deactivated or now ranks below it.

    The user returned is a copy carrying the token's role and, as its display name, the token's
    name (never saved): every role check of the web routes applies to the token's role, and a
    ruling recorded with it names the token as the narrator (its ``narrator`` is still the owner).
    The token's last use is noted (at most once a minute).
    """
    raw = (raw or "").strip()
    if not raw or len(raw) > 200 or not all("!" <= ch <= "~" for ch in raw):
        return None
    row = ApiToken.get_or_none(ApiToken.token_hash == hash_token(raw))
    now = utcnow()
    if row is None or row.revoked_at is not None or (row.expires_at is not None and row.expires_at <= now):
        return None
    owner = User.get_or_none((User.id == row.user_id) & (User.active == True))  # noqa: E712
    if owner is None or ROLE_RANK.get(highest_role(owner), 0) < ROLE_RANK.get(row.role, 99):
        return None
    if row.last_used_at is None or now - row.last_used_at >= LAST_USE_GRANULARITY:
        ApiToken.update(last_used_at=now).where(ApiToken.id == row.id).execute()
        row.last_used_at = now
    acting = User(**dict(owner.__data__))
    acting.role = row.role  # the web routes' role checks see the token's role
    acting.display_name = row.name  # the record names the token as the narrator (Ruling.save)
    acting._dirty.clear()
    acting.save = _not_saved  # type: ignore[method-assign]
    return acting, row


def _not_saved(*args, **kwargs):
    raise RuntimeError("A token's user is a copy with the token's role and name: it is never saved.")
