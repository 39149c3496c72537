"""The login lockout: wrong passwords cost whoever sends them, not the owner of the name (issue 19 item 6).

Three counts, each kept in one row per attempt window (:class:`larp.models.LoginFailure`):

- **per address** (the client's address, the proxy's ``X-Forwarded-For`` behind ``BEHIND_PROXY``):
  ``address_failures`` wrong passwords are free within the window; after that each further
  attempt from the address must wait twice as long as the one before (``backoff_seconds``,
  then 2, 4, ... up to the window), and an attempt during the wait is refused without being
  checked. Guessing costs the guesser time, whichever names he tries. As for the name's lock,
  the wait is only for browsers new to the name (issue 28 item 3): everyone behind an event's
  NAT shares one address, and a browser the account has logged in from before is checked
  (against its own count) during the wait, so one guesser on the network locks nobody out of
  his own tablet. Nobody is made to wait by holding a worker thread: a refusal says how long
  to wait, and answers at once.
- **per name**: ``name_failures`` wrong passwords within the window lock the name, even against
  the right password, for every browser the account has not logged in from. A real name's count
  is kept on its account's row (every address adds to it); a made-up name's on the address row,
  so from one address real and made-up names lock alike and the lock tells nothing.
- **per trusted device**: a browser where the account logged in before carries a signed device
  cookie (:mod:`larp.web.auth`); for it the name's lock does not apply, only its own count of
  ``name_failures``. So someone on the network locks the name for strangers, never for the
  owner's own tablet.

A made-up name costs the same scrypt check as a real one (a dummy hash), so the two are
refused in the same time. Rows are reused when their window is over; at most one per address
and one per account exists.

Check-then-write: the rows that guard a login (the address's, and the account's for a real
name) are made if missing and locked before anything is counted: ``SELECT ... FOR UPDATE`` on
PostgreSQL, which serialises simultaneous attempts from one address or for one account; on
SQLite the ``BEGIN IMMEDIATE`` transaction already serialises every login. Simultaneous wrong
passwords are therefore checked exactly ``name_failures`` times.

When the database cannot be written (a full disk, read-only files) the counts cannot be kept:
the password is still checked, and a right password still logs in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import peewee
from flask_babel import gettext, ngettext
from werkzeug.security import check_password_hash

from larp.db import FULL, READ_ONLY, database_trouble, db
from larp.models import LoginFailure, User, utcnow
from larp.services import ServiceError
from larp.services.passwords import dummy_hash

#: The most names an address row remembers (its back-off keeps the real number far lower).
_NAMES_KEPT = 200


@dataclass(frozen=True)
class LockoutRules:
    """The lockout's settings (``LOGIN_*`` in larp/config.py, where each is explained).

    Attributes:
        name_failures: wrong passwords for one name (or from one trusted device) that lock it.
        window_minutes: how long failures count, in minutes.
        address_failures: wrong passwords from one address before its back-off starts.
        backoff_seconds: the first wait of the back-off, in seconds (then doubled each time).
    """

    name_failures: int = 5
    window_minutes: int = 15
    address_failures: int = 20
    backoff_seconds: float = 1.0

    @property
    def window(self) -> timedelta:
        """The attempt window."""
        return timedelta(minutes=self.window_minutes)


def _locked(query):
    """``query`` locking its rows on PostgreSQL (see the module docstring), unchanged on SQLite."""
    return query.for_update() if isinstance(db.obj, peewee.PostgresqlDatabase) else query


def _row(scope: str, key: str, now: datetime, rules: LockoutRules) -> LoginFailure:
    """The (locked) row of ``scope``/``key``, made if missing and started afresh when its window is over."""
    LoginFailure.insert(scope=scope, key=key, window_start=now).on_conflict_ignore().execute()
    row = _locked(LoginFailure.select().where((LoginFailure.scope == scope) & (LoginFailure.key == key))).get()
    if row.window_start < now - rules.window:
        row.failures, row.names, row.devices, row.window_start, row.last_at = 0, {}, {}, now, None
    return row


def _wait(row: LoginFailure, now: datetime, rules: LockoutRules) -> int:
    """Seconds the address must still wait before its next attempt is checked (0: none)."""
    over = row.failures - rules.address_failures
    if over < 0 or row.last_at is None:
        return 0
    pause = min(rules.backoff_seconds * 2 ** min(over, 30), rules.window.total_seconds())
    left = (row.last_at + timedelta(seconds=pause) - now).total_seconds()
    return max(int(left + 0.999), 0)


def _password_matches(user: User | None, password: str) -> bool:
    if user is None or not user.password_hash:
        check_password_hash(dummy_hash(), password or "")  # the same cost as a real check
        return False
    return check_password_hash(user.password_hash, password or "")


def attempt_login(username: str, password: str, rules: LockoutRules = LockoutRules(), *,
                  address: str | None = None, device: str | None = None) -> User:
    """Check a password login against the lockout (see the module docstring) and count a failure.

    Args:
        username, password: as typed on the login form.
        rules: the lockout's settings.
        address: the client's address ("" or ``None`` when unknown: counted as one address).
        device: the id of this browser's device cookie when it was signed for this user name.

    Raises:
        ServiceError: 429 while the address must wait or the name (or this device) is locked,
            the message saying how long; 401 "Wrong user name or password." otherwise.
    """
    name = (username or "").strip().lower()[:60]
    now = utcnow()
    with db.atomic():
        user = User.get_or_none((User.username == name) & (User.active == True))  # noqa: E712
        rows = _rows(user, address, now, rules)
        if rows is not None:
            _refuse_if_locked(rows, name, device, now, rules)
        if _password_matches(user, password):
            if rows is not None and rows[1] is not None:
                _save(LoginFailure.delete().where(LoginFailure.id == rows[1].id))
            return user
        if rows is not None:
            _count_failure(rows, user, name, device, now)
    raise ServiceError(gettext("Wrong user name or password."), field="password", status=401)


def _rows(user: User | None, address: str | None, now: datetime, rules: LockoutRules):
    """(address row, account row or ``None``), locked; ``None`` when the database cannot be written."""
    try:
        with db.atomic():  # a savepoint: on a full disk only the bookkeeping is given up
            LoginFailure.delete().where((LoginFailure.window_start < now - rules.window)
                                        & ((LoginFailure.last_at.is_null()) | (LoginFailure.last_at < now - rules.window))
                                        ).execute()
            return (_row("address", (address or "unknown")[:64], now, rules),
                    _row("user", str(user.id), now, rules) if user is not None else None)
    except peewee.PeeweeException as exc:
        if database_trouble(exc, db) in (FULL, READ_ONLY):
            return None
        raise


def _refuse_if_locked(rows, name: str, device: str | None, now: datetime, rules: LockoutRules) -> None:
    by_address, by_user = rows
    wait = _wait(by_address, now, rules)
    trusted = device is not None and by_user is not None  # this browser logged in as this name before
    if wait and not trusted:
        raise ServiceError(ngettext("Too many wrong passwords from this network address: wait %(num)s second "
                                    "before the next try from this browser, or ask an organiser for a one-time "
                                    "login link.",
                                    "Too many wrong passwords from this network address: wait %(num)s seconds "
                                    "before the next try from this browser, or ask an organiser for a one-time "
                                    "login link.", wait), field="password", status=429)
    if trusted:
        failures = int((by_user.devices or {}).get(device, 0))
    elif by_user is not None:
        failures = by_user.failures
    else:
        failures = int((by_address.names or {}).get(name, 0))
    if failures >= rules.name_failures:
        raise ServiceError(gettext("Too many wrong passwords for %(name)s: wait %(minutes)s minutes, or ask an "
                                   "organiser for a one-time login link.", name=name, minutes=rules.window_minutes),
                           field="password", status=429)


def _count_failure(rows, user: User | None, name: str, device: str | None, now: datetime) -> None:
    by_address, by_user = rows
    by_address.failures += 1
    by_address.last_at = now
    if user is None and (name in by_address.names or len(by_address.names) < _NAMES_KEPT):
        by_address.names = {**by_address.names, name: int(by_address.names.get(name, 0)) + 1}
    _save(by_address)
    if by_user is not None:
        if device is not None:
            by_user.devices = {**(by_user.devices or {}), device: int((by_user.devices or {}).get(device, 0)) + 1}
        else:
            by_user.failures += 1
        by_user.last_at = now
        _save(by_user)


def _save(row_or_query) -> None:
    """Write a count (committed with the refusal); given up, not failed, when the disk refuses it."""
    try:
        with db.atomic():
            if isinstance(row_or_query, LoginFailure):
                row_or_query.save()
            else:
                row_or_query.execute()
    except peewee.PeeweeException as exc:
        if database_trouble(exc, db) not in (FULL, READ_ONLY):
            raise
