"""Game night at the door (issue 32): check-in, tonight's roster, attendance and its experience.

A character is checked in for the open game session (one :class:`larp.models.CheckIn` row a character
and game session, recorded as a ruling of kind ``check_in``); a mistaken check-in is undone (the row
goes, a ruling of kind ``check_in_undone`` says so and the check-in's ruling is marked undone). Who may
be checked in is the rules core's decision (:func:`larp.rules.check_in.at_the_door`).

When the game session closes (or an organiser awards it early), every character checked in gets the
attendance experience of the chronicle setting ``attendance_experience``, written to his experience
log by the app's one writer of a line (:func:`larp.services.experience.write_experience_line`), at most
once per character and game session (:class:`larp.models.AttendanceAward`).

Check-then-write, on both engines:

- **check-in and undo**: the chronicle row is read ``FOR SHARE`` on PostgreSQL (check-ins at two
  desks do not wait on each other, but a game session being closed, which locks the row ``FOR NO KEY
  UPDATE``, waits for them and they for it: a check-in never lands in a game session closed meanwhile).
  "Is he checked in already?" is the unique index on (game session, character): the row is inserted
  in a savepoint before anything is recorded; on PostgreSQL a second desk's insert of the same pair
  waits for the first transaction and then fails, and is answered as the no-op "already checked in"
  (its savepoint rolled back, nothing recorded). SQLite's ``BEGIN IMMEDIATE`` transaction serialises
  every writer, so the second desk finds the row before inserting.
- **attendance experience**: the award is claimed by inserting its :class:`AttendanceAward` row in a
  savepoint, *before* the experience line is written; the unique index on (game session, character)
  is the check. On PostgreSQL a second transaction inserting the same pair waits for the first to end
  and then fails with a unique violation (its savepoint is rolled back, that character is skipped);
  on SQLite the second writer starts only after the first committed and finds its row. "Award now"
  also locks the chronicle row first, as closing a game session does, so the two never interleave.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from flask_babel import gettext
from peewee import IntegrityError, fn

from larp.db import as_id, db, for_update, is_postgres
from larp.i18n import session_label
from larp.models import AttendanceAward, Character, CheckIn, Chronicle, GameSession, Ruling, User, utcnow
from larp.rules.check_in import RULE, Arrival, DoorDecision, at_the_door, attendance_amount, attendance_step
from larp.rules.experience import points_text
from larp.rules.explain import N_, Phrase, RulesError, phrase_step, plural
from larp.services import ServiceError
from larp.services.cards import UNKNOWN_CARD
from larp.services.characters import find_characters, get_character, normalise_code
from larp.services.chronicles import chronicle_settings, open_game_session
from larp.services.experience import write_experience_line
from larp.services.records import record_ruling, refuse_if_recorded
from larp.webhooks.outbox import announce_check_in

#: The record's kinds for the door (its log is read from them).
CHECK_IN, CHECK_IN_UNDONE = "check_in", "check_in_undone"
DOOR_KINDS = (CHECK_IN, CHECK_IN_UNDONE)
#: How a character was found at the door (``CheckIn.how``), as the log says it.
HOW_WORDS = {"card": Phrase.message(N_("by card")), "code": Phrase.message(N_("by code")),
             "name": Phrase.message(N_("by name")), "api": Phrase.message(N_("by the API")),
             "self": Phrase.message(N_("by his player, from his own page"))}  # "self": issue 33 item 4
#: The most lines of the desk's log shown.
LOG_LINES = 30
#: A card's address as a scanner types it: ``.../c/<token>`` or ``.../C/<token>/E12`` (a printed sheet).
_CARD_ADDRESS = re.compile(r"/[cC]/([A-Za-z2-7]{32})(?:/[Ee][0-9]+)?/?(?:[?#].*)?$")
_TOKEN = re.compile(r"[A-Za-z2-7]{32}")


def _no_open_session() -> ServiceError:
    return ServiceError(gettext("No game session is open: open tonight's game session on the board (Between game "
                                "sessions) before checking anyone in."), field="game_session", status=409)


def _lock_door(chronicle: Chronicle) -> None:
    """Take the door's lock on the chronicle row (see the module docstring): ``FOR SHARE`` on PostgreSQL
    inside a transaction; nothing on SQLite, whose ``BEGIN IMMEDIATE`` already serialises writers."""
    if is_postgres() and db.in_transaction():
        list(Chronicle.select(Chronicle.id).where(Chronicle.id == chronicle.id).for_update("FOR SHARE"))


def _session_tonight(chronicle: Chronicle, expected_number: Any = None) -> GameSession:
    """The open game session, which must be game session ``expected_number`` when the form named one.

    Raises:
        ServiceError: 409 none is open, or another one than the form showed.
    """
    session = open_game_session(chronicle)
    if session is None:
        raise _no_open_session()
    wanted = as_id(expected_number) if expected_number not in (None, "") else None
    if expected_number not in (None, "") and wanted != session.number:
        raise ServiceError(gettext("Game session %(number)s is no longer open (%(session)s is): nothing was "
                                   "recorded. Look again and check in for tonight's.", number=expected_number,
                                   session=session_label(session)), field="game_session", status=409)
    return session


def door_decision(character: Character) -> DoorDecision:
    """Whether ``character`` may be checked in and how the roster marks him
    (:func:`larp.rules.check_in.at_the_door`)."""
    return at_the_door(Arrival(character.name, character.condition, character.retired_at is not None,
                               bool(character.scene_extra), character.creature))


@dataclass
class Tonight:
    """How many are checked in tonight, of how many the door expects (characters with a player, in
    play, not extras, not destroyed, plus anyone else checked in)."""

    count: int
    total: int


def _expected_query(chronicle: Chronicle):
    return Character.select().where(
        (Character.chronicle == chronicle) & Character.retired_at.is_null() & ~Character.scene_extra
        & (Character.player_name != "") & Character.condition.not_in(("final_death", "dead")))


def tonight_counts(chronicle: Chronicle, session: GameSession) -> Tonight:
    """Checked in for ``session``, and the door's total (one query each)."""
    here = CheckIn.select(CheckIn.character).where(CheckIn.game_session == session)
    count = here.count()
    others = _expected_query(chronicle).where(Character.id.not_in(here)).count()
    return Tonight(count, count + others)


@dataclass
class CheckInResult:
    """What a check-in (or an undo) did: the character, his check-in (``None`` after an undo), whether he
    was checked in already (nothing recorded), the ruling recorded, the marks the roster shows, and
    tonight's counts."""

    character: Character
    check_in: CheckIn | None
    already: bool
    ruling: Ruling | None
    marks: tuple[str, ...]
    tonight: Tonight
    session: GameSession


def check_in(chronicle: Chronicle, user: User | None, character_id: Any, how: str = "name",
             session_number: Any = None) -> CheckInResult:
    """Check ``character_id`` in for the open game session, as ``user`` at the door, in one transaction.

    A character already checked in tonight is a no-op that says so (``already``: nothing recorded).

    Args:
        how: "card" (a scanned card), "code", "name" or "api" (:data:`larp.models.CheckIn.HOW`).
        session_number: the game session the desk showed open (default: whichever is open).

    Raises:
        AlreadyRecorded: 409 the same form or call again (its one-time key is recorded).
        ServiceError: 404 no such character; 409 no game session open, or another than the desk showed;
            409 a character the door refuses (retired, a scene extra, Final Death or dead: the message says
            which, :func:`larp.rules.check_in.at_the_door`); 422 an unknown ``how``.
    """
    if how not in CheckIn.HOW:
        raise ServiceError(Phrase.message(N_("How the character was found is one of: %(names)s."),
                                          names=', '.join(CheckIn.HOW)), field="how")
    with db.atomic():
        refuse_if_recorded()
        _lock_door(chronicle)
        character = get_character(chronicle, character_id)
        session = _session_tonight(chronicle, session_number)
        decision = door_decision(character)
        earlier = CheckIn.get_or_none((CheckIn.game_session == session) & (CheckIn.character == character))
        if earlier is not None:
            return CheckInResult(character, earlier, True, None, decision.marks, tonight_counts(chronicle, session),
                                 session)
        if not decision.allowed:
            raise ServiceError(decision.refusal, field="character", status=409)
        now = utcnow()
        try:
            with db.atomic():  # a savepoint: the unique index is the exact check (see the module docstring)
                row = CheckIn.create(chronicle=chronicle, game_session=session, character=character,
                                     checked_in_at=now, user=user, user_name=user.display_name if user else "",
                                     how=how)
        except IntegrityError:
            # Another desk checked him in a moment ago (PostgreSQL: its insert committed while ours
            # waited on the index): the same no-op as a second check-in, nothing recorded here.
            earlier = CheckIn.get((CheckIn.game_session == session) & (CheckIn.character == character))
            return CheckInResult(character, earlier, True, None, decision.marks, tonight_counts(chronicle, session),
                                 session)
        label = session_said(session)
        marks = [Phrase.term(mark) for mark in decision.marks]
        if marks:
            summary = Phrase.message(N_("%(name)s checked in for %(session)s (%(marks)s)"), name=character.name,
                                     session=label, marks=marks)
            step = phrase_step(N_("%(name)s checked in at the door %(how)s for %(session)s (%(marks)s)."), RULE,
                               name=character.name, how=HOW_WORDS[how], session=label, marks=marks)
        else:
            summary = Phrase.message(N_("%(name)s checked in for %(session)s"), name=character.name, session=label)
            step = phrase_step(N_("%(name)s checked in at the door %(how)s for %(session)s."), RULE,
                               name=character.name, how=HOW_WORDS[how], session=label)
        record = record_ruling(
            chronicle, user, CHECK_IN, summary, [step], [(character, "subject")], game_session=session,
            inputs={"how": how}, outcome={"marks": list(decision.marks)})
        row.ruling = record
        row.save()
        announce_check_in(character, session, user, occurred_at=now)  # issue 35: its webhook event, in this transaction
        return CheckInResult(character, row, False, record, decision.marks, tonight_counts(chronicle, session),
                             session)


def standing(chronicle: Chronicle, character_id: Any) -> CheckInResult | None:
    """How ``character_id`` stands at the door for the open game session, as a check-in that found him
    checked in already (``already``), or ``None`` when no game session is open or he is not checked in:
    the answer to a form sent twice (its one-time key recorded the first). Reads only.

    Raises:
        ServiceError: 404 no such character.
    """
    character = get_character(chronicle, character_id)
    session = open_game_session(chronicle)
    row = CheckIn.get_or_none((CheckIn.game_session == session) & (CheckIn.character == character)) \
        if session is not None else None
    if row is None:
        return None
    return CheckInResult(character, row, True, None, door_decision(character).marks,
                         tonight_counts(chronicle, session), session)


def undo_check_in(chronicle: Chronicle, user: User | None, character_id: Any,
                  session_number: Any = None) -> CheckInResult:
    """Undo ``character_id``'s check-in for the open game session (a mistake at the door), in one
    transaction: his check-in goes, its ruling is marked undone, and a ruling of kind
    ``check_in_undone`` records the undo.

    Raises:
        AlreadyRecorded: 409 the same form or call again.
        ServiceError: 404 no such character; 409 no game session open (or another than the desk showed),
            he is not checked in tonight, or his attendance experience was given already (take the line
            back from his experience log first: undo its ruling in his History).
    """
    with db.atomic():
        refuse_if_recorded()
        _lock_door(chronicle)
        character = get_character(chronicle, character_id)
        session = _session_tonight(chronicle, session_number)
        row = CheckIn.get_or_none((CheckIn.game_session == session) & (CheckIn.character == character))
        if row is None:
            raise ServiceError(gettext("%(name)s is not checked in for %(session)s: nothing to undo.",
                                       name=character.name, session=session_label(session)),
                               field="character", status=409)
        if AttendanceAward.select().where((AttendanceAward.game_session == session)
                                          & (AttendanceAward.character == character)).exists():
            raise ServiceError(gettext("%(name)s's attendance experience for %(session)s was given already: undo "
                                       "that line of his experience log (his History) first.", name=character.name,
                                       session=session_label(session)), field="character", status=409)
        now = utcnow()
        record = record_ruling(
            chronicle, user, CHECK_IN_UNDONE,
            Phrase.message(N_("%(name)s's check-in for %(session)s undone"), name=character.name,
                           session=session_said(session)),
            [phrase_step(N_("%(name)s's check-in at %(time)s UTC was a mistake: undone."), RULE, name=character.name,
                         time=f"{row.checked_in_at:%H:%M}")], [(character, "subject")], game_session=session,
            inputs={"check_in_ruling": row.ruling_id}, outcome={"undone": row.ruling_id})
        if row.ruling_id is not None:
            Ruling.update(undone_at=now, undone_by=user).where(Ruling.id == row.ruling_id).execute()
        row.delete_instance()
        return CheckInResult(character, None, False, record, (), tonight_counts(chronicle, session), session)


def session_said(session: GameSession) -> Phrase:
    """``session.label`` ("Game session 3 (2026-11-29)") as a phrase the reader's language says."""
    return Phrase.message(N_("Game session %(number)s (%(date)s)"), number=session.number,
                          date=Phrase.day(session.date))


# ---------------------------------------------------------------- finding who arrives


@dataclass
class Found:
    """What the desk's text found: the one character to check in at once (a scan, an exact card code, or
    the only name that matches), else the candidates for one tap each; ``how`` says how he was found."""

    character: Character | None
    candidates: list[Character] = field(default_factory=list)
    how: str = "name"
    #: The candidates already checked in for the open game session (ids): the desk says so, no button.
    checked_in: set[int] = field(default_factory=set)
    #: More names match than the desk lists: type more of the name.
    more: bool = False


def card_token_in(text: str) -> str | None:
    """The card token in what a desk's scanner typed: a card's address (``http://.../C/<token>``, with a
    printed sheet's ``/E12`` too) or the bare 32-character token; ``None`` for anything else."""
    text = (text or "").strip()
    match = _CARD_ADDRESS.search(text)
    if match:
        return match.group(1).upper()
    return text.upper() if _TOKEN.fullmatch(text) else None


#: A game session argument not given: the function reads the open one itself.
UNREAD: Any = object()


def find_arrival(chronicle: Chronicle, text: str, limit: int = 8, session: GameSession | None = UNREAD) -> Found:
    """Who the desk's text names: a scanned card (its address or token: always that one character, a
    scan always checks in), a card code typed whole, or the letters of a name or of his player's name, accents
    and case aside (:func:`larp.services.characters.find_characters`; its matches are offered one tap each, even
    one alone: the desk shows him before checking him in, at most ``limit``, with ``more`` when others match
    too, and ``checked_in`` naming those already checked in tonight). Retired characters are not offered.
    ``session``: the open game session (``None``: none is open) when the caller has read it already, so
    that a search reads it once (the desk's form needs it too); else it is read here when needed.

    Raises:
        ServiceError: 404 a card that opens no character of this chronicle (unknown, revoked, another
            chronicle's), with the card page's own words.
    """
    token = card_token_in(text)
    if token is not None:
        character = Character.get_or_none((Character.card_token == token) & (Character.chronicle == chronicle))
        if character is None:
            raise ServiceError(gettext(UNKNOWN_CARD), field="q", status=404)
        return Found(character, [character], "card")
    code = normalise_code(text)
    if code:
        by_code = Character.get_or_none((Character.chronicle == chronicle) & (Character.short_code == code)
                                        & Character.retired_at.is_null())
        if by_code is not None:
            return Found(by_code, [by_code], "code")
    candidates = find_characters(chronicle, text, limit=limit + 1) if (text or "").strip() else []
    more, candidates = len(candidates) > limit, candidates[:limit]
    if not candidates:
        session = None
    elif session is UNREAD:
        session = open_game_session(chronicle)
    checked_in = set() if session is None else {row.character_id for row in CheckIn.select(CheckIn.character).where(
        (CheckIn.game_session == session) & CheckIn.character.in_([c.id for c in candidates]))}
    return Found(candidates[0] if len(candidates) == 1 else None, candidates, "name", checked_in, more)


# ---------------------------------------------------------------- tonight in the pickers


# ---------------------------------------------------------------- tonight's roster


@dataclass
class RosterLine:
    """A character checked in: his check-in (who, when, how) and the marks beside him ("in torpor")."""

    character: Character
    check_in: CheckIn
    marks: tuple[str, ...]


@dataclass
class Roster:
    """Tonight at the door: who is checked in (by name), who is expected and not here yet, counts by clan
    (or creature), the desk's log (the door's rulings, newest first) and the fingerprint of it all."""

    session: GameSession | None
    here: list[RosterLine]
    missing: list[Character]
    by_clan: list[tuple[str, int]]
    log: list[Ruling]
    fingerprint: str

    @property
    def tonight(self) -> Tonight:
        """The counts the desk shows ("12 of 31 tonight")."""
        return Tonight(len(self.here), len(self.here) + len(self.missing))


def roster_fingerprint(chronicle: Chronicle, session: GameSession | None = UNREAD) -> str:
    """What changes whenever the roster does (a game session opened, a check-in, an undo): the open game
    session and its latest door ruling, in two indexed queries (one when the caller gives ``session``, the
    open game session or ``None``, read already). Two desks poll it every few seconds."""
    session = open_game_session(chronicle) if session is UNREAD else session
    if session is None:
        return "closed"
    latest = (Ruling.select(fn.MAX(Ruling.id)).where((Ruling.game_session == session)
                                                     & Ruling.kind.in_(DOOR_KINDS)).scalar())
    return f"{session.id}-{latest or 0}"


#: The roster's groups that are not a vampire's clan, by creature: the desk shows them in the reader's language
#: (templates/checkin/_roster.html translates exactly these; a clan's own name is shown as written).
NOT_A_CLAN = {"mortal": N_("Mortals"), "ghoul": N_("Ghouls")}


def _clan(character: Character) -> str:
    if character.creature == "vampire":
        return character.clan or N_("No clan given")
    return NOT_A_CLAN.get(character.creature, character.creature.capitalize() + "s")


def tonight_roster(chronicle: Chronicle, session: GameSession | None = UNREAD) -> Roster:
    """The roster of the open game session (empty lists when none is open); ``session``: that game session
    (``None``: none is open) when the caller has read it already, else it is read here."""
    session = open_game_session(chronicle) if session is UNREAD else session
    fingerprint = roster_fingerprint(chronicle, session=session)
    if session is None:
        return Roster(None, [], [], [], [], fingerprint)
    rows = list(CheckIn.select(CheckIn, Character).join(Character)
                .where(CheckIn.game_session == session).order_by(Character.name))
    here = [RosterLine(row.character, row, door_decision(row.character).marks) for row in rows]
    ids = [row.character_id for row in rows]
    seen = set(ids)
    missing = [c for c in _expected_query(chronicle).order_by(Character.name) if c.id not in seen]
    clans = Counter(_clan(line.character) for line in here)
    log = list(Ruling.select().where((Ruling.game_session == session) & Ruling.kind.in_(DOOR_KINDS))
               .order_by(Ruling.id.desc()).limit(LOG_LINES))
    return Roster(session, here, missing, sorted(clans.items(), key=lambda kv: (-kv[1], kv[0])), log, fingerprint)


# ---------------------------------------------------------------- attendance


@dataclass
class AttendanceLine:
    """One character at a game session: his check-in and the attendance experience given (``None``:
    not yet)."""

    character: Character
    check_in: CheckIn
    award: AttendanceAward | None

    @property
    def experience(self) -> str | None:
        """The experience given, as a person writes it ("1", "0.5"), or ``None``."""
        return points_text(self.award.amount) if self.award is not None else None


def session_attendance(chronicle: Chronicle, number: Any) -> tuple[GameSession, list[AttendanceLine]]:
    """Who attended game session ``number`` of ``chronicle`` (checked in), by name, with the attendance
    experience each was given.

    Raises:
        ServiceError: 404 no such game session.
    """
    wanted = as_id(number)
    session = GameSession.get_or_none((GameSession.chronicle == chronicle) & (GameSession.number == wanted)) \
        if wanted is not None else None
    if session is None:
        raise ServiceError(Phrase.message(N_("There is no such game session "
                                             "in this chronicle.")), field="game_session", status=404)
    return session, _attendance_of(session)


def _attendance_of(session: GameSession) -> list[AttendanceLine]:
    rows = list(CheckIn.select(CheckIn, Character).join(Character)
                .where(CheckIn.game_session == session).order_by(Character.name))
    awards = {a.character_id: a for a in AttendanceAward.select().where(AttendanceAward.game_session == session)}
    return [AttendanceLine(row.character, row, awards.get(row.character_id)) for row in rows]


def recent_attendance(chronicle: Chronicle, sessions: int = 4) -> list[tuple[GameSession, list[AttendanceLine]]]:
    """The last ``sessions`` game sessions (newest first), each with who attended (the board's panel)."""
    latest = list(GameSession.select().where(GameSession.chronicle == chronicle)
                  .order_by(GameSession.number.desc()).limit(sessions))
    return [(session, _attendance_of(session)) for session in latest]


def sessions_attended(character: Character) -> list[AttendanceLine]:
    """Every game session ``character`` was checked in for, newest first, with the experience given."""
    rows = list(CheckIn.select(CheckIn, GameSession).join(GameSession)
                .where(CheckIn.character == character).order_by(GameSession.number.desc()))
    awards = {a.game_session_id: a for a in AttendanceAward.select().where(AttendanceAward.character == character)}
    return [AttendanceLine(character, row, awards.get(row.game_session_id)) for row in rows]


def award_attendance(chronicle: Chronicle, user: User | None, session: GameSession) -> list[AttendanceAward]:
    """Give every character checked in for ``session`` his attendance experience (the setting
    ``attendance_experience``; 0: none is given), inside the caller's transaction: one line of his
    experience log each (a ruling of kind "experience", in ``session``), never twice for the same
    character and game session (see the module docstring for why that holds when two desks or two
    processes close at once). Characters are taken in id order, as every use case locks them.

    Returns:
        The awards made now (those given before are left alone).

    Raises:
        ServiceError: 422 a stored setting that is not an amount of experience points.
    """
    try:
        amount = attendance_amount(chronicle_settings(chronicle)["attendance_experience"])
    except RulesError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    if amount == 0:
        return []
    given = {c for (c,) in AttendanceAward.select(AttendanceAward.character)
             .where(AttendanceAward.game_session == session).tuples()}
    rows = [row for row in CheckIn.select(CheckIn, Character).join(Character)
            .where(CheckIn.game_session == session).order_by(Character.id) if row.character_id not in given]
    made: list[AttendanceAward] = []
    for row in rows:
        try:
            with db.atomic():  # the claim: a savepoint, so losing it leaves the transaction usable
                award = AttendanceAward.create(chronicle=chronicle, game_session=session, character=row.character,
                                               amount=amount, awarded_at=utcnow())
        except IntegrityError:
            continue  # given by another transaction that committed meanwhile
        character = row.character
        step = attendance_step(character.name, amount, session.number)
        award.entry = write_experience_line(chronicle, user, character, session, "earned", amount,
                                            f"attending game session {session.number}", steps=[step.to_record()],
                                            what_said=Phrase.message(N_("attending game session %(number)s"),
                                                                     number=session.number))
        award.save()
        made.append(award)
    return made


def attendance_closing_step(made: list[AttendanceAward]) -> dict[str, str]:
    """The closing ruling's step for the attendance experience given as the game session closed."""
    amounts = sorted({points_text(a.amount) for a in made})
    each = Phrase.message(N_("%(first)s or %(second)s"), first=amounts[0], second=amounts[1]) if len(amounts) == 2 \
        else " or ".join(amounts)
    return phrase_step(N_("Attendance experience given to %(characters)s checked in (%(each)s each)."), RULE,
                       "attendance_experience", characters=Phrase.counted(len(made), "%(n)s character",
                                                                          "%(n)s characters"), each=each).to_record()


def award_now(chronicle: Chronicle, organiser: User | None, session_number: Any = None) -> list[AttendanceAward]:
    """An organiser's "award now": the attendance experience of game session ``session_number`` (default:
    the open one) given at once to everyone checked in who has not had it, in one transaction
    (:func:`award_attendance`). Closing the game session later gives it to those checked in since.

    Raises:
        AlreadyRecorded: 409 the same form or call again.
        ServiceError: 404 no such game session; 409 none is open (and none was named); 409 attendance
            experience is off (the setting is 0).
    """
    with db.atomic():
        refuse_if_recorded()
        # Check-then-write: the chronicle row, as closing a game session locks it (FOR NO KEY UPDATE on
        # PostgreSQL; SQLite's BEGIN IMMEDIATE serialises), then the awards' unique index (award_attendance).
        list(for_update(Chronicle.select(Chronicle.id).where(Chronicle.id == chronicle.id)))
        if session_number in (None, ""):
            session = open_game_session(chronicle)
            if session is None:
                raise _no_open_session()
        else:
            session, _lines = session_attendance(chronicle, session_number)
        if attendance_amount_of(chronicle) == 0:
            raise ServiceError(gettext("Attendance experience is off (the chronicle setting “Experience for attending a "
                                       "game session” is 0): nothing to give."), field="attendance_experience",
                               status=409)
        return award_attendance(chronicle, organiser, session)


def attendance_amount_of(chronicle: Chronicle) -> Decimal:
    """The chronicle's attendance experience (setting ``attendance_experience``), exact; 0 when it is off
    or the stored value is not an amount."""
    try:
        return attendance_amount(chronicle_settings(chronicle)["attendance_experience"])
    except RulesError:
        return Decimal(0)


def checked_in_at(chronicle: Chronicle, character: Character) -> CheckIn | None:
    """``character``'s check-in for the open game session, if any."""
    return (CheckIn.select().join(GameSession)
            .where((CheckIn.character == character) & (GameSession.chronicle == chronicle)
                   & GameSession.closed_at.is_null()).first())


def when_text(moment: datetime | None) -> str:
    """A stored time as the API gives it (UTC, ISO 8601 with ``Z``), or ``None``."""
    return moment.isoformat(timespec="seconds") + "Z" if moment else None
