"""Between game sessions: the organiser's board and healing over the nights between games (issue 7).

The board is read for the open game session (the next game, once the last one
is closed): who is in torpor and until when, who may try to wake, what
aggravated damage can heal in the nights since the previous game session and
for what, and which mortals and ghouls are still recovering.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from larp.db import db
from larp.models import Character, Chronicle, GameSession, Ruling, RulingCharacter, Torpor, User
from larp.rules.explain import N_, Phrase, RulesError, phrase_step, plural, without_stop
from larp.rules.healing import (
    AggravatedPlan,
    HealingRuling,
    MortalHealing,
    heal_mortal_over,
    mortal_healing_time,
    plan_aggravated_healing,
)
from larp.rules.healing.vampires import aggravated_levels
from larp.rules.health import CONDITION_LABELS, HealthTrack
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import CAUSE_LABELS, can_try_to_wake, is_retired
from larp.services import ServiceError
from larp.services.characters import character_state, get_character
from larp.services.chronicles import chronicle_settings, current_game_session, open_game_session
from larp.services.consequences import store_state
from larp.services.records import record_ruling
from larp.services.sessions import latest_game_session, nights_before, previous_game_session
from larp.services.torpor import MAX_NIGHTS, wake_attempts
from larp.services.torpor_records import as_record, open_torpor

#: Days suggested between two game sessions on the board's form (a fortnight).
DEFAULT_GAP_DAYS = 14


def _used(character: Character, session: GameSession, key: str) -> int:
    """Nights (or hours) of between-session healing already applied in ``session`` (not undone)."""
    rows = (Ruling.select(Ruling.inputs).join(RulingCharacter)
            .where((RulingCharacter.character == character) & (Ruling.game_session == session)
                   & (Ruling.kind == "healing") & Ruling.undone_at.is_null()))
    return sum(int(r.inputs.get(key, 0)) for r in rows)


def nights_left(character: Character, session: GameSession) -> int:
    """Nights of rest between the previous game session and ``session`` not yet used for
    aggravated healing by ``character``."""
    return max(0, nights_before(session) - _used(character, session, "nights"))


def hours_left(character: Character, session: GameSession) -> int:
    """Hours between the previous game session and ``session`` not yet used for a mortal's healing."""
    return max(0, nights_before(session) * 24 - _used(character, session, "hours"))


# ---------------------------------------------------------------- applying healing

def _healing_subject(chronicle: Chronicle,
                     character_id: Any) -> tuple[GameSession, ChronicleSettings, Character, HealthTrack]:
    """What healing between game sessions starts from: the game session in progress, the chronicle's
    settings, the character and his health track tonight (health levels; 002 "Damage and Healing").

    Raises:
        ServiceError: 409 no game session is open; 404 unknown character.
    """
    session = current_game_session(chronicle)
    settings = chronicle_settings(chronicle)
    character = get_character(chronicle, character_id)
    return session, settings, character, character_state(character, session, settings).health


def apply_aggravated_healing(chronicle: Chronicle, user: User | None, character_id: Any,
                             levels: int | None = None) -> Ruling:
    """Heal a vampire's aggravated damage over the nights since the previous game session,
    as planned (``levels``, default as many as his blood, Willpower and the nights allow),
    spending the blood and Willpower (``agg_heal_model``; 002 "Damage and Healing").
    Recorded as a ruling of kind "healing" that uses up those nights.

    Raises:
        ServiceError: 404 unknown character; 422 nothing to heal, a character
            who cannot heal (torpor, staked, not a vampire), more levels than
            the plan allows; 409 the character changed meanwhile.
    """
    with db.atomic():
        session, settings, character, track = _healing_subject(chronicle, character_id)
        if track.aggravated == 0:
            raise ServiceError(Phrase.message(N_("%(name)s has no aggravated damage to heal."),
                                              name=character.name), field="levels")
        nights = nights_left(character, session)
        marked = character.agg_blood_marked or 0
        best = plan_aggravated_healing(track, nights, character.blood_current, character.willpower_current,
                                       settings, who=character.name, marked=marked)
        plan = best if levels is None else plan_aggravated_healing(
            track, nights, character.blood_current, character.willpower_current, settings, levels=levels,
            who=character.name, marked=marked)
        if levels is not None and levels > best.levels:
            step = best.steps[-1]
            raise ServiceError(Phrase.message(N_("%(name)s can heal at most %(levels)s before %(session)s: %(words)s"),
                                              name=character.name,
                                              levels=Phrase.counted(best.levels, "%(n)s aggravated level",
                                                                    "%(n)s aggravated levels"),
                                              session=Phrase.message(N_("Game session %(number)s (%(date)s)"),
                                                                     number=session.number, date=Phrase.day(session.date)),
                                              words=Phrase(step.said) if step.said else step.text), field="levels")
        if plan.levels == 0:
            raise ServiceError(Phrase.message(N_("%(name)s can heal no aggravated damage now: %(words)s"),
                                              name=character.name,
                                              words=Phrase(plan.steps[-1].said) if plan.steps[-1].said
                                              else plan.steps[-1].text),
                               field="levels")
        record = record_ruling(
            chronicle, user, "healing",
            Phrase.message(N_("%(name)s heals %(levels)s between game sessions"), name=character.name,
                           levels=aggravated_levels(plan.levels)),
            plan.steps, [(character, "subject")], game_session=session,
            inputs={"between_sessions": True, "levels": plan.levels, "nights": plan.rests},
            outcome={"healed": {"aggravated": plan.levels}, "blood_spent": plan.blood,
                     "willpower_spent": plan.willpower, "per_rest": list(plan.per_rest)})
        store_state(character, track=plan.track, blood_current=character.blood_current - plan.blood,
                    willpower_current=character.willpower_current - plan.willpower, ruling=record,
                    agg_blood_marked=plan.marked_after if marked else None)
        return record


def apply_mortal_healing(chronicle: Chronicle, user: User | None, character_id: Any,
                         medical_care: bool | None = None) -> Ruling:
    """Heal a mortal or ghoul by the time since the previous game session (000 "Mortal's Healing
    Times"): treated (the tick per mortal, ``character.treated``; ``medical_care`` given: the tick is
    set to it first), every level heals on 000's table; untreated, a lethal wound past Hurt worsens a
    level a day and may kill him. Recorded as a ruling of kind "healing" that uses up the time taken.

    Raises:
        ServiceError: 404 unknown character; 422 a vampire, no damage, nothing healed or worsened in the
            time; 409 the character changed meanwhile.
    """
    with db.atomic():
        session, settings, character, track = _healing_subject(chronicle, character_id)
        if track.marked == 0:
            raise ServiceError(Phrase.message(N_("%(name)s has no damage to heal."),
                                              name=character.name), field="character")
        treated = bool(character.treated) if medical_care is None else bool(medical_care)
        hours = hours_left(character, session)
        healing = heal_mortal_over(track, hours, treated, who=character.name)
        if not healing.hours:
            raise ServiceError(Phrase.message(N_("%(name)s heals no level in the %(hours)s hours since the last "
                                                 "game session."), name=character.name, hours=hours),
                               field="character")
        record = record_ruling(
            chronicle, user, "healing", without_stop(Phrase(healing.steps[-1].said) if healing.steps[-1].said
                                                     else healing.steps[-1].text),
            healing.steps, [(character, "subject")], game_session=session,
            inputs={"between_sessions": True, "hours": healing.hours, "medical_care": treated},
            outcome={"healed": healing.healed, "track": healing.track.to_dict(), "hours": healing.hours})
        character = store_state(character, track=healing.track, ruling=record)
        if treated != bool(character.treated):
            Character.update(treated=treated).where(Character.id == character.id).execute()
        return record


def set_treated(chronicle: Chronicle, user: User | None, character_id: Any, treated: bool) -> Ruling:
    """Tick (or untick) a mortal's or ghoul's medical treatment (000 "Mortal's Healing Times": treated,
    lethal wounds past Hurt heal; untreated, they worsen a level a day). Recorded (kind "treatment"),
    so the history shows it and an undo takes it back.

    Raises:
        ServiceError: 404 unknown character; 422 a vampire (vampires heal with blood).
    """
    with db.atomic():
        character = get_character(chronicle, character_id)
        if character.creature == "vampire":
            raise ServiceError(Phrase.message(N_("%(name)s is a vampire and heals with blood."),
                                              name=character.name), field="character")
        record = record_ruling(chronicle, user, "treatment",
                               Phrase.message(N_("%(name)s is under medical care") if treated else
                                              N_("%(name)s is untreated"), name=character.name),
                               [phrase_step(N_("%(name)s is treated: lethal wounds past Hurt heal on the table.")
                                            if treated else
                                            N_("%(name)s is untreated: lethal wounds past Hurt worsen a level a day."),
                                            "000 \"Mortal's Healing Times\"", name=character.name)],
                               [(character, "subject")], game_session=open_game_session(chronicle),
                               inputs={"treated": treated})
        rows = (Character.update(treated=treated, version=Character.version + 1)
                .where((Character.id == character.id) & (Character.version == character.version)).execute())
        if rows != 1:
            raise ServiceError(Phrase.message(N_("%(name)s was changed by someone else a moment ago. Look again "
                                                 "and retry."), name=character.name),
                               status=409)
        return record



def apply_healing_nights(chronicle: Chronicle, user: User | None, character_id: Any, levels: int | None = None,
                         medical_care: bool | None = None) -> Ruling:
    """Apply the nights between game sessions to a character's wounds, as the board's Heal button
    does: a vampire heals aggravated levels with blood (:func:`apply_aggravated_healing`, ``levels``
    planned), a mortal or ghoul by the time taken (:func:`apply_mortal_healing`, ``medical_care``).

    Raises:
        ServiceError: as those two do (404 unknown character, 422 nothing to heal, 409 changed meanwhile).
    """
    from larp.services.characters import get_character

    if get_character(chronicle, character_id).creature == "vampire":
        return apply_aggravated_healing(chronicle, user, character_id, levels)
    return apply_mortal_healing(chronicle, user, character_id, medical_care)

# ---------------------------------------------------------------- the board

@dataclass
class TorporLine:
    """A vampire in torpor, as the board shows him.

    ``status``: "unrecorded" (torpor start not recorded), "retired", "fed_wakes"
    (blood loss: feeding wakes him), "may_wake" (his time has passed by the
    game), "sleeping".
    """

    character: Character
    torpor: Torpor | None
    status: str
    cause: str = ""
    until: str = ""
    tried: int = 0
    first_night: date | None = None
    last_night: date | None = None


@dataclass
class HealingLine:
    """A vampire with aggravated damage: what the nights before the game can heal (``plan``),
    or why nothing can (``problem``)."""

    character: Character
    track: HealthTrack
    nights: int
    plan: AggravatedPlan | None = None
    problem: str = ""


@dataclass
class MortalLine:
    """A damaged mortal or ghoul: time to heal with and without care, whether the time since the
    previous game session changes anything (``heals_now``), and what it does with his tick
    (``by_game``: healed, or worsened untreated; 000 "Mortal's Healing Times")."""

    character: Character
    track: HealthTrack
    hours: int
    untreated: MortalHealing | None
    treated: MortalHealing | None
    heals_now: bool
    needs_care: bool
    problem: str = ""
    by_game: HealingRuling | None = None


@dataclass
class StatusLine:
    """One character's state at a glance."""

    character: Character
    track: HealthTrack
    condition: str
    where: str

    @property
    def damage(self) -> str:
        """The damage marked, as "2 aggravated, 1 lethal" (empty when unhurt)."""
        return ", ".join(f"{n} {kind}" for kind, n in (("aggravated", self.track.aggravated),
                                                       ("lethal", self.track.lethal), ("bashing", self.track.bashing))
                         if n)


@dataclass
class BetweenSessions:
    """Everything the organiser's board shows for the open game session."""

    chronicle: Chronicle
    settings: ChronicleSettings
    session: GameSession | None
    previous: GameSession | None
    nights: int
    next_date: date
    torpor: list[TorporLine] = field(default_factory=list)
    healing: list[HealingLine] = field(default_factory=list)
    mortals: list[MortalLine] = field(default_factory=list)
    everyone: list[StatusLine] = field(default_factory=list)
    retired_count: int = 0

    @property
    def ready_count(self) -> int:
        """Characters active and unhurt."""
        return sum(1 for line in self.everyone if line.condition == "active" and line.track.marked == 0)


def _torpor_line(character: Character, session: GameSession, settings: ChronicleSettings) -> TorporLine:
    torpor = open_torpor(character)
    if torpor is None:
        return TorporLine(character, None, "unrecorded")
    record = as_record(torpor)
    if torpor.wake_session is not None:
        until = f"game session {torpor.wake_session}"
    else:
        until = torpor.wake_on.isoformat() if torpor.wake_on else "?"
    tried = wake_attempts(character, torpor).count()
    if torpor.wake_session is None and is_retired(torpor.wake_on, settings):
        status = "retired"
    elif can_try_to_wake(record, session.date, session.number):
        status = "may_wake"
        # Nightly attempts since the previous game (or since his time passed), up to the game itself.
        previous = previous_game_session(session)
        first = session.date - timedelta(days=min(nights_before(session), MAX_NIGHTS - 1)) if previous else session.date
        if previous is not None:
            first = max(first, previous.date + timedelta(days=1))
        if torpor.wake_on is not None:
            first = max(first, torpor.wake_on)
        line_nights = (min(first, session.date), session.date)
    elif torpor.cause == "blood_loss" and settings["feeding_wakes_blood_torpor"]:
        status = "fed_wakes"
    else:
        status = "sleeping"
    line = TorporLine(character, torpor, status, CAUSE_LABELS[torpor.cause], until, tried)
    if status == "may_wake":
        line.first_night, line.last_night = line_nights
    return line


def build_between_sessions(chronicle: Chronicle) -> BetweenSessions:
    """The organiser's board for the open game session (read only)."""
    settings = chronicle_settings(chronicle)
    session = open_game_session(chronicle)
    previous = previous_game_session(session) if session else latest_game_session(chronicle)
    nights = nights_before(session) if session else 0
    base = session.date if session else (previous.date if previous else date.today())
    board = BetweenSessions(chronicle, settings, session, previous, nights, base + timedelta(days=DEFAULT_GAP_DAYS))
    characters = list(Character.select().where((Character.chronicle == chronicle) & Character.retired_at.is_null())
                      .order_by(Character.name))  # retired characters are off the board (issue 14)
    for character in characters:
        track = character_state(character, session, settings).health
        where = CONDITION_LABELS.get(character.condition, character.condition) \
            if character.condition != "active" else track.state()
        board.everyone.append(StatusLine(character, track, character.condition, where))
        if session is None or track.destroyed:
            continue
        if character.creature == "vampire" and character.condition == "torpor":
            line = _torpor_line(character, session, settings)
            board.torpor.append(line)
            board.retired_count += line.status == "retired"
        elif character.creature == "vampire" and track.aggravated:
            nights_free = nights_left(character, session)
            line = HealingLine(character, track, nights_free)
            try:
                line.plan = plan_aggravated_healing(track, nights_free, character.blood_current,
                                                    character.willpower_current, settings, who=character.name,
                                                    marked=character.agg_blood_marked or 0)
            except RulesError as exc:
                line.problem = exc.message
            board.healing.append(line)
        elif character.creature != "vampire" and track.marked:
            hours = hours_left(character, session)
            try:
                untreated = mortal_healing_time(track, False, character.name)
                treated = mortal_healing_time(track, True, character.name)
            except RulesError as exc:
                board.mortals.append(MortalLine(character, track, hours, None, None, False, False, exc.message))
                continue
            needs_care = any(entry.needs_medical_care for entry in untreated.levels)
            by_game = heal_mortal_over(track, hours, bool(character.treated), character.name)
            board.mortals.append(MortalLine(character, track, hours, untreated, treated, bool(by_game.hours),
                                            needs_care, by_game=by_game))
    order = {"unrecorded": 0, "may_wake": 1, "fed_wakes": 2, "sleeping": 3, "retired": 4}
    board.torpor.sort(key=lambda line: (order[line.status], line.character.name))
    return board
