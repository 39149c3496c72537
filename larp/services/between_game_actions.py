"""Between-game actions (issue 33 item 3): players write what their characters do before the coming
game session; organisers answer each one, privately.

**The coming game session** is the chronicle's open game session (the one "Between game sessions"
opened when it closed the last) as long as its night has not been held: its date is today or later
in the chronicle's time zone (setting ``time_zone``). Once its date has passed, the night was held and
no game session is coming until an organiser closes it and opens the next; the actions written for it
stay on its record. Between-game actions are written for the coming game session only.

**The rules a player meets** (chronicle settings, ``data/settings/between_game_actions.toml``; Laws of
the Night Revised is silent on both, so the defaults are ours): at most
``between_game_actions_per_session`` actions (default 3, withdrawn ones not counted) per character and
game session; written, edited and withdrawn until ``between_game_actions_cutoff_hours`` (default 48)
hours before the game session's date begins (midnight, chronicle's time zone). An organiser may enter
one after the cutoff (handed in late, on paper), within the same limit. An answered action is no longer
edited nor withdrawn (the answer stands on what it answered).

**Who sees them**: the character's player(s) and the chronicle's organisers; never narrators, never
another player. They are not rulings (the record of rulings is read by every narrator); the
:class:`larp.models.BetweenGameAction` rows are their record, kept on their game session and character.

Each mutation is one transaction. The per-session limit is a check-then-write (count, then insert),
made safe by locking the character's row first (``SELECT ... FOR NO KEY UPDATE`` on PostgreSQL, held
to the commit, so a second write for the same character waits and then counts the first; on SQLite the
``BEGIN IMMEDIATE`` transaction takes the database's write lock before the first read, which
serialises the two the same way). An edit, a withdrawal and an answer are one ``UPDATE ... WHERE
version = <the version the page showed>``: whichever commits second changes no row and is refused
(409), on both engines (PostgreSQL re-reads the row's version after the first commits).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from flask_babel import gettext, ngettext
from peewee import IntegrityError, fn

from larp.db import as_id, db, for_update
from larp.i18n import N_, format_moment, session_label
from larp.models import ACTION_MAX_CHARS, BetweenGameAction, Character, Chronicle, GameSession, User, utcnow
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError
from larp.services.chronicles import chronicle_settings, local_time, open_game_session


@dataclass(frozen=True)
class ActionWindow:
    """Where between-game actions stand for a chronicle at one moment.

    Attributes:
        session: the coming game session (``None``: none is coming).
        per_session: the most actions per character and game session (setting
            ``between_game_actions_per_session``; 0: switched off).
        cutoff_hours: hours before the game day's midnight that actions close (setting
            ``between_game_actions_cutoff_hours``).
        closes_at: when players can no longer write, edit or withdraw (UTC, naive), ``None`` with no session.
        open: players may write now.
        reason: why they may not ("" when open), in the players' words.
    """

    session: GameSession | None
    per_session: int
    cutoff_hours: int
    closes_at: datetime | None
    open: bool
    reason: str


def _zone_name(chronicle: Chronicle) -> str:
    return chronicle_settings(chronicle)["time_zone"]


def local_today(chronicle: Chronicle, now: datetime | None = None) -> date:
    """Today's date in the chronicle's time zone (``now``: UTC, naive; default the clock)."""
    return local_time(now or utcnow(), _zone_name(chronicle)).date()


def closes_at(session: GameSession, cutoff_hours: int, zone_name: str) -> datetime:
    """When players' between-game actions for ``session`` close: ``cutoff_hours`` hours before midnight
    at the start of its date in the time zone ``zone_name`` ("" the computer's own), as naive UTC."""
    midnight = datetime.combine(session.date, time())
    aware = midnight.replace(tzinfo=ZoneInfo(zone_name)) if zone_name else midnight.astimezone()
    return (aware - timedelta(hours=cutoff_hours)).astimezone(timezone.utc).replace(tzinfo=None)


def coming_game_session(chronicle: Chronicle, now: datetime | None = None) -> GameSession | None:
    """The chronicle's coming game session (see the module): the open one, if its date is today or later
    in the chronicle's time zone; ``None`` otherwise."""
    session = open_game_session(chronicle)
    if session is None or session.date < local_today(chronicle, now):
        return None
    return session


def action_window(chronicle: Chronicle, now: datetime | None = None) -> ActionWindow:
    """Whether players may write between-game actions now, for which game session, until when, how many."""
    settings = chronicle_settings(chronicle)
    per_session = int(settings["between_game_actions_per_session"])
    hours = int(settings["between_game_actions_cutoff_hours"])
    now = now or utcnow()
    session = coming_game_session(chronicle, now)
    if session is None:
        held = open_game_session(chronicle)
        reason = (gettext("No game session is coming: %(session)s was held; the organisers open the next one.",
                          session=session_label(held))
                  if held is not None else gettext("No game session is coming: the organisers open the next one."))
        return ActionWindow(None, per_session, hours, None, False, reason)
    closing = closes_at(session, hours, settings["time_zone"])
    if per_session == 0:
        return ActionWindow(session, 0, hours, closing, False, gettext("This chronicle takes no between-game actions."))
    if now >= closing:
        shown = format_moment(local_time(closing, settings["time_zone"]))
        return ActionWindow(session, per_session, hours, closing, False,
                            gettext("Between-game actions for %(session)s closed at %(time)s; ask an organiser to "
                                    "add a late one.", session=session_label(session), time=shown))
    return ActionWindow(session, per_session, hours, closing, True, "")


def clean_text(raw: Any, field: str = "text", what: str = N_("the action")) -> str:
    """``raw`` as a stored text: trimmed, not empty, at most :data:`ACTION_MAX_CHARS` characters.

    Raises:
        ServiceError: 422 naming ``field``.
    """
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        raise ServiceError(Phrase.message(N_("Write %(what)s as text."), what=Phrase.message(what)), field=field)
    text = raw.replace("\r\n", "\n").strip()
    if not text:
        raise ServiceError(gettext("Write %(what)s first: it is empty.", what=gettext(what)), field=field)
    if len(text) > ACTION_MAX_CHARS:
        said = N_("The answer is %(n)s characters long; at most %(most)s fit (a few lines).") if what == "the answer" \
            else N_("The action is %(n)s characters long; at most %(most)s fit (a few lines).")
        raise ServiceError(Phrase.message(said, n=len(text), most=ACTION_MAX_CHARS), field=field)
    return text


def _lock_character(character: Character) -> Character:
    """Read ``character`` again, locked to the end of the transaction (see the module)."""
    locked = for_update(Character.select().where(Character.id == character.id)).first()
    if locked is None:
        raise ServiceError(Phrase.message(N_("There is no such character.")), field="character", status=404)
    return locked


def _live_count(session: GameSession, character: Character) -> int:
    return (BetweenGameAction.select(fn.COUNT(BetweenGameAction.id))
            .where((BetweenGameAction.game_session == session) & (BetweenGameAction.character == character)
                   & BetweenGameAction.withdrawn_at.is_null()).scalar() or 0)


def write_action(chronicle: Chronicle, character: Character, author: User | None, raw_text: Any, *,
                 organiser: bool = False, request_token: str | None = None,
                 now: datetime | None = None) -> tuple[BetweenGameAction, bool]:
    """Write a between-game action of ``character`` for the coming game session, in one transaction.

    Args:
        character: a character of ``chronicle`` the caller may write for (the web layer checked: his
            player's own, or any for an organiser).
        author: who writes it (the player, or the organiser entering it).
        raw_text: the action (at most :data:`ACTION_MAX_CHARS` characters).
        organiser: the author is an organiser: the cutoff does not bind him (a late action handed in).
        request_token: the form's one-time token or the API call's ``Idempotency-Key``: the same token
            again for the same character writes nothing and gives back the action it wrote.
        now: the moment (UTC, naive; default the clock).

    Returns:
        The action and whether it was written now (``False``: the token's earlier one).

    Raises:
        ServiceError: 422 (field "text") empty or too long; 409 no game session coming, the cutoff passed
            (players), the character retired, a scene extra or in Final Death, or the per-session limit
            reached (setting ``between_game_actions_per_session``). Nothing is written.
    """
    text = clean_text(raw_text)
    with db.atomic():
        locked = _lock_character(character)  # the limit's check-then-write, see the module
        if request_token:
            earlier = (BetweenGameAction.select().where((BetweenGameAction.character == locked)
                                                        & (BetweenGameAction.request_token == request_token)).first())
            if earlier is not None:
                return earlier, False
        if locked.chronicle_id != chronicle.id:
            raise ServiceError(Phrase.message(N_("There is no such character.")), field="character", status=404)
        if locked.retired_at is not None or locked.scene_extra or locked.condition in ("final_death", "dead"):
            said = (N_("%(name)s is retired: he takes no between-game actions.") if locked.retired_at is not None else
                    N_("%(name)s is a scene extra: he takes no between-game actions.") if locked.scene_extra
                    else N_("%(name)s met Final Death: he takes no between-game actions."))
            raise ServiceError(Phrase.message(said, name=locked.name), field="character",
                               status=409)
        window = action_window(chronicle, now)
        if window.session is None:
            raise ServiceError(window.reason, field="game_session", status=409)
        if not window.open and not (organiser and window.per_session > 0):
            raise ServiceError(window.reason, field="game_session", status=409)
        written = _live_count(window.session, locked)
        if written >= window.per_session:
            raise ServiceError(ngettext("%(name)s has %(num)s between-game action for %(session)s, the chronicle's "
                                        "limit (%(most)s): edit or withdraw one first.",
                                        "%(name)s has %(num)s between-game actions for %(session)s, the chronicle's "
                                        "limit (%(most)s): edit or withdraw one first.", written, name=locked.name,
                                        session=session_label(window.session), most=window.per_session),
                               field="text", status=409)
        try:
            with db.atomic():
                action = BetweenGameAction.create(
                    chronicle=chronicle, game_session=window.session, character=locked, author=author,
                    author_name=author.display_name if author is not None else "", text=text,
                    written_at=now or utcnow(), request_token=request_token or None)
        except IntegrityError:  # the same token, sent twice at once: the character lock makes this rare
            earlier = (BetweenGameAction.select().where((BetweenGameAction.character == locked)
                                                        & (BetweenGameAction.request_token == request_token)).first())
            if earlier is None:
                raise
            return earlier, False
        return action, True


def find_action(chronicle: Chronicle, action_id: Any, character: Character | None = None) -> BetweenGameAction:
    """Between-game action ``action_id`` of ``chronicle`` (of ``character`` only, when given: a player's).

    Raises:
        ServiceError: 404 when there is none (said the same whether it exists for someone else or not).
    """
    query = BetweenGameAction.select().where((BetweenGameAction.chronicle == chronicle)
                                             & (BetweenGameAction.id == as_id(action_id)))
    if character is not None:
        query = query.where(BetweenGameAction.character == character)
    action = query.first()
    if action is None:
        raise ServiceError(gettext("There is no such between-game action."), field="action", status=404)
    return action


def _player_may_change(chronicle: Chronicle, action: BetweenGameAction, now: datetime | None) -> None:
    if action.withdrawn_at is not None:
        raise ServiceError(gettext("This between-game action was withdrawn."), field="action", status=409)
    if action.answered_at is not None:
        raise ServiceError(gettext("The organisers answered this between-game action: it stands as it was answered. "
                                   "Write a new one (or ask an organiser)."), field="action", status=409)
    window = action_window(chronicle, now)
    if window.session is None or window.session.id != action.game_session_id:
        raise ServiceError(gettext("This between-game action's game session is no longer coming."), field="action",
                           status=409)
    if not window.open:
        raise ServiceError(window.reason, field="action", status=409)


def _version(raw: Any) -> int:
    """The action's version a page showed (a whole number a database column holds: 1 to ``MAX_ID``)."""
    from larp.db import MAX_ID

    try:
        version = int(str(raw).strip())
    except (TypeError, ValueError):
        version = 0
    if not 1 <= version <= MAX_ID:  # an out-of-range number would not even bind on SQLite (a 500 once)
        raise ServiceError(Phrase.message(N_("The form did not say which version of the action it showed: reload "
                                             "the page.")),
                           field="version", status=422) from None
    return version


def _changed(action_id: int, version: int, **values: Any) -> None:
    """One ``UPDATE ... WHERE version = <seen>`` (see the module); 409 when another change came first."""
    rows = (BetweenGameAction.update(version=BetweenGameAction.version + 1, **values)
            .where((BetweenGameAction.id == action_id) & (BetweenGameAction.version == version)).execute())
    if rows != 1:
        raise ServiceError(gettext("This between-game action was changed since the page showed it (an edit, a "
                                   "withdrawal or an answer): nothing was changed. Read it again."), field="version",
                           status=409)


def edit_action(chronicle: Chronicle, character: Character, action_id: Any, raw_text: Any, version: Any, *,
                now: datetime | None = None) -> BetweenGameAction:
    """The player rewrites his character's between-game action, before the cutoff and unanswered.

    Args:
        character: the player's own character (checked by the web layer); the action must be his.
        version: the action's version the page showed.

    Raises:
        ServiceError: 404 not this character's action; 422 empty or too long text, or no version; 409
            withdrawn, answered, past the cutoff, its game session no longer coming, or changed since.
    """
    text = clean_text(raw_text)
    seen = _version(version)
    with db.atomic():
        _lock_character(character)
        action = find_action(chronicle, action_id, character)
        _player_may_change(chronicle, action, now)
        _changed(action.id, seen, text=text, edited_at=now or utcnow())
        return BetweenGameAction.get_by_id(action.id)


def withdraw_action(chronicle: Chronicle, character: Character, action_id: Any, version: Any, *,
                    now: datetime | None = None) -> BetweenGameAction:
    """The player withdraws his character's between-game action (kept on the record, marked withdrawn,
    no longer counted against the limit), before the cutoff and unanswered.

    Raises:
        ServiceError: as :func:`edit_action`.
    """
    seen = _version(version)
    with db.atomic():
        _lock_character(character)
        action = find_action(chronicle, action_id, character)
        _player_may_change(chronicle, action, now)
        _changed(action.id, seen, withdrawn_at=now or utcnow())
        return BetweenGameAction.get_by_id(action.id)


def answer_action(chronicle: Chronicle, organiser: User | None, action_id: Any, raw_answer: Any, version: Any, *,
                  now: datetime | None = None) -> BetweenGameAction:
    """An organiser answers a between-game action (or rewrites his answer), in one transaction. Only
    the character's player(s) and organisers read it.

    Raises:
        ServiceError: 404 no such action in ``chronicle``; 422 empty or too long answer, or no version;
            409 withdrawn, or changed since the page showed it (another organiser answered, the player
            edited it).
    """
    answer = clean_text(raw_answer, field="answer", what=N_("the answer"))
    seen = _version(version)
    with db.atomic():
        action = find_action(chronicle, action_id)
        if action.withdrawn_at is not None:
            raise ServiceError(gettext("The player withdrew this between-game action: it takes no answer."), field="action",
                               status=409)
        _changed(action.id, seen, answer=answer, answered_by=organiser,
                 answered_by_name=organiser.display_name if organiser is not None else "",
                 answered_at=now or utcnow())
        return BetweenGameAction.get_by_id(action.id)


def actions_of_character(character: Character, session: GameSession | None = None) -> list[BetweenGameAction]:
    """``character``'s between-game actions (of ``session`` only, when given), newest game session first,
    then in the order written."""
    query = (BetweenGameAction.select(BetweenGameAction, GameSession).join(GameSession)
             .where(BetweenGameAction.character == character))
    if session is not None:
        query = query.where(BetweenGameAction.game_session == session)
    return list(query.order_by(GameSession.number.desc(), BetweenGameAction.written_at, BetweenGameAction.id))


#: The order an organiser reads a game session's actions in: those waiting for an answer first.
_STATE_ORDER = {"waiting": 0, "answered": 1, "withdrawn": 2}


def session_actions(chronicle: Chronicle, session: GameSession) -> list[BetweenGameAction]:
    """Every between-game action of ``session``: waiting for an answer first, then answered, then
    withdrawn; by character name within each."""
    rows = list(BetweenGameAction.select(BetweenGameAction, Character).join(Character)
                .where((BetweenGameAction.chronicle == chronicle) & (BetweenGameAction.game_session == session))
                .order_by(Character.name, BetweenGameAction.written_at, BetweenGameAction.id))
    return sorted(rows, key=lambda a: _STATE_ORDER[a.state])


def sessions_with_actions(chronicle: Chronicle) -> list[GameSession]:
    """The chronicle's game sessions that have between-game actions, newest first."""
    return list(GameSession.select().where(GameSession.id.in_(
        BetweenGameAction.select(BetweenGameAction.game_session).where(BetweenGameAction.chronicle == chronicle)))
        .order_by(GameSession.number.desc()))


def session_to_answer(chronicle: Chronicle, number: Any = None) -> GameSession | None:
    """The game session the organisers' screen shows: number ``number``, else the open game session
    (coming, or held and not yet closed), else the latest.

    Raises:
        ServiceError: 404 when ``number`` names no game session of the chronicle.
    """
    if number not in (None, ""):
        session = (GameSession.select().where((GameSession.chronicle == chronicle)
                                               & (GameSession.number == as_id(number))).first())
        if session is None:
            raise ServiceError(Phrase.message(N_("There is no game session %(number)s."),
                                              number=number), field="session", status=404)
        return session
    return open_game_session(chronicle) or (GameSession.select().where(GameSession.chronicle == chronicle)
                                            .order_by(GameSession.number.desc()).first())


def pending_count(chronicle: Chronicle) -> int:
    """How many between-game actions of the open game session wait for the organisers' answer (the
    count organisers see in the top bar, issue 33 item 5, through
    :func:`larp.services.players.pending_counts`); 0 with no open game session. Actions of closed game
    sessions left unanswered are not counted: their night is over."""
    session = open_game_session(chronicle)
    if session is None:
        return 0
    return (BetweenGameAction.select(fn.COUNT(BetweenGameAction.id))
            .where((BetweenGameAction.game_session == session) & BetweenGameAction.withdrawn_at.is_null()
                   & BetweenGameAction.answered_at.is_null()).scalar() or 0)


def _gist(text: str, length: int = 40) -> str:
    line = " ".join(text.split())
    return line if len(line) <= length else line[:length - 1].rstrip() + "…"


def player_notices(character: Character) -> list[tuple[str, str]]:
    """The state of ``character``'s between-game actions for his player's badge (issue 33 item 5, through
    :func:`larp.services.players.player_notices`): for the latest game session he wrote any for, each
    action not withdrawn, newest first, as (text, "answered" or "waiting")."""
    latest = (BetweenGameAction.select(BetweenGameAction.game_session)
              .where((BetweenGameAction.character == character) & BetweenGameAction.withdrawn_at.is_null())
              .order_by(BetweenGameAction.game_session.desc()).first())
    if latest is None:
        return []
    rows = (BetweenGameAction.select().where((BetweenGameAction.character == character)
                                             & (BetweenGameAction.game_session == latest.game_session_id)
                                             & BetweenGameAction.withdrawn_at.is_null())
            .order_by(BetweenGameAction.id.desc()))
    return [(gettext("Between-game action “%(gist)s”: answered", gist=_gist(a.text)) if a.answered_at else
             gettext("Between-game action “%(gist)s”: waiting for an answer", gist=_gist(a.text)),
             "answered" if a.answered_at else "waiting") for a in rows]
