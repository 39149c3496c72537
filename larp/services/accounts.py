"""Accounts: organisers and narrators, passwords, one-time login links."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask_babel import gettext
from werkzeug.security import check_password_hash

from larp.db import as_id, db, lock_name
from larp.models import ApiToken, Chronicle, LoginLink, User, utcnow
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError, refuse_direction_controls
from larp.services.passwords import hash_password

FIRST_ORGANISER = "organiser"
MIN_PASSWORD_LENGTH = 8


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def ensure_first_organiser() -> User:
    """The first organiser account, created without a password if there is no user yet: an
    administrator of the install and an organiser of its first chronicle (issue 22).

    No default password exists anywhere: the account is entered through a
    one-time login link printed on the console (:func:`create_login_link`).
    """
    from larp.models import Membership

    with db.atomic():
        # Check-then-write: two servers starting at once on one new PostgreSQL database create one
        # organiser (an advisory lock, as there is no row yet; SQLite's BEGIN IMMEDIATE serialises).
        lock_name("first organiser")
        user = User.select().where(User.role == "organiser").order_by(User.id).first()
        if user is None:
            user = User.create(username=FIRST_ORGANISER, display_name="Organiser", role="organiser", is_admin=True)
            first = Chronicle.select().order_by(Chronicle.id).first()
            if first is not None:
                Membership.create(user=user, chronicle=first, role="organiser")
        return user


def organiser_needs_console_link() -> bool:
    """True while no organiser has set a password (so start-up prints a login link)."""
    return not User.select().where((User.role == "organiser") & User.password_hash.is_null(False)).exists()


def create_login_link(user: User, hours: int = 24) -> str:
    """A fresh one-time login token for ``user``, valid ``hours`` hours.

    Only its SHA-256 is stored; the raw token is returned once, to be shown.
    """
    token = secrets.token_urlsafe(32)
    with db.atomic():
        LoginLink.create(user=user, token_hash=_hash_token(token), expires_at=utcnow() + timedelta(hours=hours))
    return token


def consume_login_link(token: str) -> User:
    """The user a login link belongs to; the link is used up.

    Raises:
        ServiceError: 404 when the link is unknown, used or expired (one
            message for all three, so it reveals nothing).
    """
    refusal = ServiceError(
        # Read by a player as much as by an organiser: no server command here (the README gives
        # `larp login-link` to whoever runs the server; new user 11).
        Phrase.message(N_("This login link is not valid: it was already used or has expired. Ask an organiser for "
                          "a new one.")),
        status=404,
    )
    with db.atomic():
        link = LoginLink.get_or_none(LoginLink.token_hash == _hash_token(token or ""))
        if link is None or link.used_at is not None or link.expires_at < utcnow() or not link.user.active:
            raise refusal
        # Check-then-write: the UPDATE itself is the check. It locks the row, and on PostgreSQL a
        # second use at the same moment waits for the first, then finds used_at set and changes
        # nothing; on SQLite the BEGIN IMMEDIATE transaction already serialises the two.
        used = (LoginLink.update(used_at=utcnow())
                .where((LoginLink.id == link.id) & LoginLink.used_at.is_null()).execute())
        if used != 1:
            raise refusal
        return link.user


def log_in(username: str, password: str, max_failures: int = 5, window_minutes: int = 15, *,
           address: str | None = None, device: str | None = None, address_failures: int = 20,
           backoff_seconds: float = 1.0) -> User:
    """Check a password login against the lockout (:mod:`larp.services.lockout` says how it works).

    Args:
        username, password: as typed on the login form.
        max_failures: wrong passwords for one name (or from one trusted device) within
            ``window_minutes`` that lock it.
        window_minutes: the attempt window, in minutes.
        address: the client's address; ``address_failures`` wrong passwords from it are free in
            the window, then each attempt waits ``backoff_seconds`` doubled each time.
        device: this browser's device id when its device cookie was signed for this name (the
            name's lock does not apply to it, only its own count).

    While locked, even the right password is refused (an organiser's one-time login link still
    works). A successful login forgets the name's failures.

    Raises:
        ServiceError: 429 while the address waits or the name is locked; 401 for a wrong name or password.
    """
    from larp.services.lockout import LockoutRules, attempt_login

    rules = LockoutRules(max_failures, window_minutes, address_failures, backoff_seconds)
    return attempt_login(username, password, rules, address=address, device=device)


def end_sessions(user: User | int) -> int:
    """End every session of ``user`` (every device): its session generation moves on.

    A relative update, so two at once both count. Returns the new generation (the session
    that asked for it may carry on in it).
    """
    uid = user.id if isinstance(user, User) else user
    with db.atomic():
        User.update(session_generation=User.session_generation + 1).where(User.id == uid).execute()
        return User.select(User.session_generation).where(User.id == uid).scalar() or 0


def set_password(user: User, password: str) -> None:
    """Set ``user``'s password (werkzeug's scrypt hash); every session of the user ends.

    Raises:
        ServiceError: 422 when it is shorter than :data:`MIN_PASSWORD_LENGTH`.
    """
    if len(password or "") < MIN_PASSWORD_LENGTH:
        raise ServiceError(gettext("Use at least %(count)s characters.", count=MIN_PASSWORD_LENGTH), field="password")
    with db.atomic():
        User.update(password_hash=hash_password(password),
                    session_generation=User.session_generation + 1).where(User.id == user.id).execute()


def create_user(username: str, display_name: str, role: str, password: str | None = None, *,
                chronicle: Chronicle | None | bool = True, admin: bool = False) -> User:
    """Create an organiser's, a narrator's or a player's account, a member with ``role`` of ``chronicle``.

    Args:
        chronicle: the chronicle he works in; ``True`` (the default) the current one
            (:func:`larp.services.chronicles.current_chronicle`) when the install has any;
            ``None``: none yet (an administrator appoints him later).
        admin: also an administrator of the install (``larp create-user --admin``).

    Raises:
        ServiceError: 422 for an empty or malformed user name, an unknown
            role or a short password; 409 when the user name is taken.
    """
    name = (username or "").strip().lower()
    if not name or not all(ch.isalnum() or ch in "._-" for ch in name) or len(name) > 60:
        raise ServiceError(Phrase.message(N_("A user name is letters, digits, dots, dashes "
                                             "or underscores.")), field="username")
    if role not in User.ROLES:
        raise ServiceError(Phrase.message(N_("The role is organiser, narrator or player.")), field="role")
    refuse_direction_controls(display_name or "", Phrase.message(N_("Name shown")), field="display_name")
    if password is not None and len(password) < MIN_PASSWORD_LENGTH:
        raise ServiceError(gettext("Use at least %(count)s characters.", count=MIN_PASSWORD_LENGTH), field="password")
    with db.atomic():
        lock_name("user " + name)  # check-then-write: two organisers creating one name get a 409, not a 500
        if User.select().where(User.username == name).exists():
            raise ServiceError(Phrase.message(N_("The user name %(name)s is taken."),
                                              name=name), field="username", status=409)
        user = User.create(
            username=name,
            display_name=(display_name or "").strip() or name,
            role=role,
            password_hash=hash_password(password) if password else None,
            is_admin=admin,
        )
        if chronicle is True:
            from larp.services.chronicles import current_chronicle

            chronicle = current_chronicle() if Chronicle.select().exists() else None
        if chronicle is not None:
            from larp.models import Membership

            Membership.create(user=user, chronicle=chronicle, role=role)
        return user


def change_password(user: User, current: str, new: str, repeat: str) -> None:
    """Set ``user``'s own password from the Account page.

    ``current`` must match when the user already has a password (a user who
    came in through a login link and has none yet just sets one).

    Raises:
        ServiceError: 422 naming the field: the current password is wrong,
            the two new ones differ, or the new one is too short.
    """
    if user.password_hash and not check_password_hash(user.password_hash, current or ""):
        raise ServiceError(gettext("That is not your current password."), field="current")
    if (new or "") != (repeat or ""):
        raise ServiceError(gettext("The two new passwords differ: type the same one twice."), field="repeat")
    set_password(user, new)


def list_users() -> list[User]:
    """Every account: active ones first, then by user name."""
    return list(User.select().order_by(User.active.desc(), User.username))


def get_user(user_id: int | str | None) -> User:
    """The account ``user_id``.

    Raises:
        ServiceError: 404 when there is no such account.
    """
    uid = as_id(user_id)
    user = User.get_or_none(User.id == uid) if uid else None
    if user is None:
        raise ServiceError(Phrase.message(N_("There is no such account.")), status=404)
    return user


def set_user_active(actor: User, user_id: int | str, active: bool) -> User:
    """Deactivate (``active`` False) or reactivate an account; an organiser's action.

    A deactivated account cannot log in, and everything that let it in ends for good (issue 28
    item 6): every session (at its next click), its unused login links and its API tokens (revoked,
    as the Account page then lists them). Reactivating it gives none of them back: it logs in
    with its password or a new link, and makes new tokens. Its rulings stay in the record under
    its name.

    Raises:
        ServiceError: 404 unknown account; 409 when ``actor`` tries to
            deactivate their own account (so an active organiser always remains).
    """
    with db.atomic():
        user = get_user(user_id)
        # The acting organiser stays active, so an organiser always remains.
        if not active and user.id == actor.id:
            raise ServiceError(Phrase.message(N_("You cannot deactivate your own account: ask "
                                                 "another organiser.")), status=409)
        changes = {"active": active}
        if not active:
            now = utcnow()
            changes["session_generation"] = User.session_generation + 1
            ApiToken.update(revoked_at=now).where((ApiToken.user == user) & ApiToken.revoked_at.is_null()).execute()
            LoginLink.update(expires_at=now).where((LoginLink.user == user) & LoginLink.used_at.is_null()
                                                   & (LoginLink.expires_at > now)).execute()
        User.update(**changes).where(User.id == user.id).execute()
        return User.get_by_id(user.id)
