"""Chronicles, their settings and their game sessions."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime, timezone
from typing import Any, Iterator
from zoneinfo import ZoneInfo

from flask_babel import gettext
from peewee import PostgresqlDatabase

from larp.db import db
from larp.models import Chronicle, ChronicleSetting, GameSession, Membership, User
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.settings import ChronicleSettings, setting_definitions
from larp.rules.torpor import GameNight
from larp.services import ServiceError


def get_chronicle(chronicle_id: int | None = None) -> Chronicle:
    """The chronicle ``chronicle_id``, or the current one (:func:`current_chronicle`) when ``None``.

    Every screen, command and endpoint asks this for the chronicle it works on.

    Raises:
        ServiceError: 404 when there is no such chronicle (or none at all).
    """
    if chronicle_id is None:
        return current_chronicle()
    chronicle = Chronicle.get_or_none(Chronicle.id == chronicle_id)
    if chronicle is None:
        raise ServiceError(Phrase.message(N_("There is no such chronicle.")), status=404)
    return chronicle


#: The chronicle this request or command works in (issue 22), set by the web layer from the URL
#: and the user's memberships (:mod:`larp.web.scope`) or by a command's ``--chronicle``.
#: ``NO_CHRONICLE``: the person is in no chronicle, so every chronicle's page is refused.
_scope: ContextVar[int | None] = ContextVar("larp_chronicle", default=None)
NO_CHRONICLE = 0
#: The scoped chronicle's row as the request read it with the user's memberships (issue 29: not
#: read again by every service of the request).
_scope_row: ContextVar[Chronicle | None] = ContextVar("larp_chronicle_row", default=None)


@contextmanager
def scoped_to(chronicle_id: int | None) -> Iterator[None]:
    """Within the block, :func:`current_chronicle` is chronicle ``chronicle_id`` (``NO_CHRONICLE``:
    none; ``None``: unscoped, as commands run on a one-chronicle install)."""
    token = _scope.set(chronicle_id)
    row_token = _scope_row.set(None)
    try:
        yield
    finally:
        _scope_row.reset(row_token)
        _scope.reset(token)


def set_scope(chronicle_id: int | None, chronicle: Chronicle | None = None) -> None:
    """Scope the rest of this context (one web request: Flask runs each in its own context) to
    chronicle ``chronicle_id`` (see :func:`scoped_to`); ``chronicle``: its row, when the caller has
    just read it (the request's scope), which :func:`current_chronicle` then returns as it is."""
    _scope.set(chronicle_id)
    _scope_row.set(chronicle if chronicle is not None and chronicle.id == chronicle_id else None)


def scoped_chronicle_id() -> int | None:
    """The id of the chronicle this request or command is scoped to, without reading it from the
    database (``None``: unscoped, or the person is in no chronicle)."""
    return _scope.get() or None


def current_chronicle() -> Chronicle:
    """The chronicle this request or command works in.

    Scoped (every web request, :mod:`larp.web.scope`; a command's ``--chronicle``): that
    chronicle (in a web request, its row as the request read it at its start). Unscoped (a
    command on an install, a test calling a service): the install's chronicle when it holds one;
    with several, the newest (the last created or imported).

    Raises:
        ServiceError: 404 when there is no such chronicle, the person is in none, or the
            install has none at all.
    """
    scope = _scope.get()
    if scope == NO_CHRONICLE:
        raise ServiceError(Phrase.message(N_("You are not in any chronicle yet: ask an administrator to add you to "
                                             "one.")), status=404)
    if scope is not None:
        chronicle = _scope_row.get()
        if chronicle is not None and chronicle.id == scope:
            return chronicle
        chronicle = Chronicle.get_or_none(Chronicle.id == scope)
        if chronicle is None:
            raise ServiceError(Phrase.message(N_("There is no such chronicle.")), status=404)
        return chronicle
    chronicle = Chronicle.select().order_by(Chronicle.id.desc()).first()
    if chronicle is None:
        raise ServiceError(Phrase.message(N_("There is no chronicle yet: start the app with `larp serve` (the "
                                             "demo) or `larp serve --empty`.")), status=404)
    return chronicle


def lock_chronicle(chronicle: Chronicle) -> Chronicle:
    """Inside a transaction, lock ``chronicle`` against concurrent writers until the commit.

    How a check-then-write on the whole chronicle (is the demo untouched? then
    replace it) is made safe: on PostgreSQL ``SELECT ... FOR UPDATE`` on the
    chronicle row, which every insert of a ruling, character or game session of
    the chronicle also needs (its foreign key takes a share lock on that row), so
    they wait for this transaction and whatever committed before it is seen; on
    SQLite the transaction is ``BEGIN IMMEDIATE`` (larp.db), which already
    serialises every writer. Returns the row as read under the lock.
    """
    query = Chronicle.select().where(Chronicle.id == chronicle.id)
    if isinstance(db.obj, PostgresqlDatabase):
        query = query.for_update()
    return query.get()


#: What the first page asks an organiser to replace.
EMPTY_CHRONICLE_NAME = "New chronicle"


def untouched_demo(chronicle: Chronicle) -> bool:
    """Whether ``chronicle`` is the demo exactly as the first ``larp serve`` loaded it.

    Untouched means all of: it was loaded as the demo (``is_demo``); it is the
    only chronicle of the install; no ruling of any kind was recorded in it (no
    challenge, damage, healing, sheet edit, character created, copied, retired or
    deleted, Grapevine import, undo...: each of these records one); no chronicle
    setting was changed; it has its one game session, still open; no tabletop
    combat was started; and no character changed since loading (all at version 1).
    Printing or re-issuing cards does not count: the demo's cards are no one's.
    """
    from larp.models import Character, Ruling, TabletopCombat

    if not chronicle.is_demo or Chronicle.select().where(Chronicle.id != chronicle.id).exists():
        return False
    sessions = list(GameSession.select().where(GameSession.chronicle == chronicle))
    return (
        not Ruling.select().where(Ruling.chronicle == chronicle).exists()
        and not ChronicleSetting.select().where(ChronicleSetting.chronicle == chronicle).exists()
        and len(sessions) == 1 and sessions[0].number == 1 and sessions[0].closed_at is None
        and not TabletopCombat.select().where(TabletopCombat.chronicle == chronicle).exists()
        and not Character.select().where((Character.chronicle == chronicle) & (Character.version != 1)).exists()
    )


def create_empty_chronicle(on: date) -> Chronicle:
    """A new empty chronicle waiting for its name (``larp serve --empty``, or the demo removed),
    with game session 1 open, dated ``on`` (call inside a transaction)."""
    name = EMPTY_CHRONICLE_NAME
    taken = {c.name for c in Chronicle.select(Chronicle.name)}
    number = 2
    while name in taken:
        name, number = f"{EMPTY_CHRONICLE_NAME} {number}", number + 1
    chronicle = Chronicle.create(name=name, needs_name=True)
    open_first_game_session(chronicle, on)
    return chronicle


def move_members(old: Chronicle, new: Chronicle) -> None:
    """Give ``new`` the members of ``old`` with the same roles (call inside the transaction that
    replaces ``old`` by ``new``: the demo removed, an import in the untouched demo's place)."""
    for row in Membership.select().where(Membership.chronicle == old.id):
        if not Membership.select().where((Membership.user == row.user_id) & (Membership.chronicle == new.id)).exists():
            Membership.create(user=row.user_id, chronicle=new.id, role=row.role)
    User.update(current_chronicle=new.id).where(User.current_chronicle == old.id).execute()


def start_empty(on: date) -> tuple[Chronicle | None, str]:
    """``larp serve --empty``: make the install's chronicle an empty one, if it may be.

    A new install (no chronicle) gets an empty chronicle; an untouched demo
    (:func:`untouched_demo`: the install's only chronicle) is replaced by one, which keeps the
    demo's members with their roles (the first organiser keeps his chronicle); any other
    chronicle, and an install of several, is kept.

    Returns:
        The empty chronicle made (``None`` when the chronicle was kept) and what
        happened, for the console.
    """
    with db.atomic():
        chronicles = list(Chronicle.select().order_by(Chronicle.id.desc()).limit(2))
        if not chronicles:
            return create_empty_chronicle(on), "started an empty chronicle: name it on the first page."
        if len(chronicles) > 1:
            return None, "--empty ignored: this install holds several chronicles, which are kept."
        current = lock_chronicle(chronicles[0])
        if current.needs_name:
            return None, "the chronicle is still unnamed: name it on the first page."
        if not untouched_demo(current):
            return None, (f"--empty ignored: this install already runs the chronicle “{current.name}”, "
                          "which is kept.")
        empty = create_empty_chronicle(on)
        move_members(current, empty)
        current.delete_instance(recursive=True)
        return empty, "replaced the untouched demo with an empty chronicle: name it on the first page."


def name_chronicle(chronicle: Chronicle, name: str, first_game: date | None = None) -> Chronicle:
    """Give the empty chronicle its name (the first page), and date its first game session.

    Args:
        name: 1 to 120 characters, not another chronicle's.
        first_game: the date of game session 1 (kept when ``None``); only while
            game session 1 is the only one.

    Raises:
        ServiceError: 422 an empty or too long name (field ``name``); 409 a name
            another chronicle has.
    """
    text = (name or "").strip()
    if not text:
        raise ServiceError(gettext("Give the chronicle a name."), field="name")
    if len(text) > 120:
        raise ServiceError(gettext("A chronicle's name has at most 120 characters."), field="name")
    with db.atomic():
        if Chronicle.select().where((Chronicle.name == text) & (Chronicle.id != chronicle.id)).exists():
            raise ServiceError(gettext("Another chronicle is called “%(name)s”.", name=text), field="name", status=409)
        Chronicle.update(name=text, needs_name=False).where(Chronicle.id == chronicle.id).execute()
        if first_game is not None:
            sessions = list(GameSession.select().where(GameSession.chronicle == chronicle))
            if len(sessions) == 1:
                GameSession.update(date=first_game).where(GameSession.id == sessions[0].id).execute()
        return Chronicle.get_by_id(chronicle.id)


def remove_demo(chronicle: Chronicle, confirmed: bool, on: date) -> Chronicle:
    """Delete the demo chronicle (its characters, rulings, game sessions, settings) and start an
    empty chronicle in its place, with game session 1 dated ``on``; the demo's members are its
    members, with the same roles (:func:`move_members`).

    Raises:
        ServiceError: 409 when ``chronicle`` is not the demo; 422 (field
            ``confirm``) without the confirmation.
    """
    if not chronicle.is_demo:
        raise ServiceError(gettext("Only the demo chronicle can be removed here."), status=409)
    if not confirmed:
        raise ServiceError(gettext("Tick the box to confirm that the demo and everything in it goes."), field="confirm")
    with db.atomic():
        demo = lock_chronicle(chronicle)
        empty = create_empty_chronicle(on)
        move_members(demo, empty)
        demo.delete_instance(recursive=True)
        return empty


def chronicle_settings(chronicle: Chronicle) -> ChronicleSettings:
    """The settings in force for ``chronicle``: defaults plus its stored overrides.

    A stored override that is no longer valid (a setting removed or changed
    type) is ignored rather than breaking every ruling.
    """
    overrides: dict[str, Any] = {}
    for row in ChronicleSetting.select().where(ChronicleSetting.chronicle == chronicle):
        try:
            ChronicleSettings.from_overrides({row.key: row.value})
        except RulesError:
            continue
        overrides[row.key] = row.value
    return ChronicleSettings.from_overrides(overrides)


def local_time(moment: datetime, zone_name: str) -> datetime:
    """``moment`` (as stored: naive UTC) in the time zone ``zone_name`` (chronicle setting
    ``time_zone``, data/settings/record.toml); "" is the computer's own time zone, with its
    daylight-saving rule for that moment."""
    aware = moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment
    return aware.astimezone(ZoneInfo(zone_name)) if zone_name else aware.astimezone()


def current_game_session(chronicle: Chronicle) -> GameSession:
    """The chronicle's open game session.

    Raises:
        ServiceError: 409 when no game session is open.
    """
    session = (
        GameSession.select()
        .where((GameSession.chronicle == chronicle) & (GameSession.closed_at.is_null()))
        .order_by(GameSession.number.desc())
        .first()
    )
    if session is None:
        raise ServiceError(Phrase.message(N_("No game session is open: an organiser opens the next one.")), status=409)
    return session


def open_game_session(chronicle: Chronicle) -> GameSession | None:
    """The chronicle's open game session, or ``None`` when none is open (for reads and records
    that may happen between game sessions)."""
    try:
        return current_game_session(chronicle)
    except ServiceError:
        return None


def game_night(game_session: GameSession | None) -> GameNight | None:
    """``game_session`` as the rules core's :class:`larp.rules.torpor.GameNight` (its date and number),
    which dates a torpor a ruling begins (met-reference 5.2); ``None`` when no game session is open."""
    return GameNight(game_session.date, game_session.number) if game_session is not None else None


def open_first_game_session(chronicle: Chronicle, on: date) -> GameSession:
    """Open game session 1 of a new chronicle, dated ``on``."""
    with db.atomic():
        return GameSession.create(chronicle=chronicle, number=1, date=on)


def set_setting(chronicle: Chronicle, key: str, raw: Any) -> Any:
    """Store ``chronicle``'s value for the setting ``key`` from form text or JSON ``raw``.

    The value is checked against the setting's definition in
    ``data/settings/*.toml``; the default value removes the override.
    Returns the value now in force.

    Raises:
        ServiceError: 404 for an unknown setting; 422 naming ``key`` when
            ``raw`` is not a valid value (the definition's message, e.g.
            "not a valid url value (a full address such as ...)").
    """
    definition = setting_definitions().get(key)
    if definition is None:
        raise ServiceError(Phrase.message(N_("There is no chronicle setting called %(key)s."),
                                          key=key), field=key, status=404)
    try:
        value = definition.coerce(raw)
    except RulesError as exc:
        raise ServiceError(exc.message, field=key) from None
    with db.atomic():
        ChronicleSetting.delete().where(
            (ChronicleSetting.chronicle == chronicle) & (ChronicleSetting.key == key)
        ).execute()
        if value != definition.coerce(definition.default):
            ChronicleSetting.create(chronicle=chronicle, key=key, value=value)
    return value
