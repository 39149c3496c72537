"""Torpor records: entering torpor, trying to wake, feeding a torpid vampire (issue 7;
rules in :mod:`larp.rules.torpor`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any, Sequence

from larp.db import db
from larp.models import Character, Chronicle, GameSession, Ruling, RulingCharacter, Torpor, User
from larp.rules.challenge import RandomSource, Throw, parse_throw
from larp.rules.explain import N_, Phrase, RulesError, plural
from larp.rules.settings import ChronicleSettings
from larp.rules.simple_test import SimpleTest, simple_test
from larp.rules.torpor import (
    CAUSE_LABELS,
    TORPOR_CAUSES,
    attempt_to_wake,
    enter_torpor,
    morality_dots,
)
from larp.services import ServiceError
from larp.services.adjudicate import GivenBlood, SingleShot, adjudicate
from larp.services.characters import character_state, get_character
from larp.services.chronicles import chronicle_settings, current_game_session
from larp.services.consequences import store_state
from larp.services.records import record_ruling
from larp.services.torpor_records import as_record, open_torpor, store_torpor, tabletop_morality

RANDOM = "random"
#: The most nights one request may try to wake on (a month and a bit).
MAX_NIGHTS = 45


def _track(character: Character, settings: ChronicleSettings, game_session: GameSession | None = None):
    return character_state(character, game_session, settings).health


def record_torpor(chronicle: Chronicle, user: User | None, character_id: Any, cause: str, on: date) -> Ruling:
    """Record that a vampire entered torpor on ``on`` from ``cause`` ("wounds",
    "blood_loss", "voluntary"), and when he may try to wake.

    A vampire already in torpor from damage (condition "torpor") without a
    record gets one (wounds or blood loss); an active vampire is put into
    torpor (any cause; a voluntary torpor takes half the time). Recorded as a
    ruling of kind "torpor".

    Raises:
        ServiceError: 404 unknown character; 422 not a vampire, destroyed, an
            unknown cause, voluntary torpor for one already in torpor; 409 a
            torpor already recorded or the character changed meanwhile.
    """
    if cause not in TORPOR_CAUSES:
        raise ServiceError(Phrase.message(N_("Choose why the vampire entered torpor: wounds, blood loss or "
                                             "voluntary.")), field="cause")
    if on > date.today():
        raise ServiceError(Phrase.message(N_("A torpor is recorded once it has begun: %(date)s has not come "
                                             "yet."), date=Phrase.day(on)),
                           field="on")
    with db.atomic():
        game_session = current_game_session(chronicle)
        settings = chronicle_settings(chronicle)
        character = get_character(chronicle, character_id)
        if character.creature != "vampire":
            raise ServiceError(Phrase.message(N_("%(name)s is not a vampire: mortals and ghouls have no torpor."),
                                              name=character.name),
                               field="character")
        if character.condition in ("final_death", "dead"):
            raise ServiceError(Phrase.message(N_("%(name)s is destroyed and cannot enter torpor."),
                                              name=character.name), field="character")
        existing = open_torpor(character)
        if existing is not None:
            raise ServiceError(Phrase.message(N_("%(name)s's torpor is already recorded (since %(date)s)."),
                                              name=character.name, date=Phrase.day(existing.started_on)),
                               field="character", status=409)
        if character.condition == "torpor" and cause == "voluntary":
            raise ServiceError(Phrase.message(N_("%(name)s is already in torpor from damage: record it as wounds."),
                                              name=character.name),
                               field="cause")
        record = record_ruling(chronicle, user, "torpor",
                               Phrase.message(N_("%(name)s enters torpor (%(cause)s)"), name=character.name,
                                              cause=Phrase.message(CAUSE_LABELS[cause])),
                               [], [(character, "subject")], game_session=game_session,
                               inputs={"cause": cause, "on": on.isoformat()})
        start = enter_torpor(cause, on, settings, met_rating=character.morality_rating,
                             tabletop_rating=tabletop_morality(character), who=character.name,
                             session=game_session.number)
        row = store_torpor(character, start, game_session, record)
        record.steps = [s.to_record() for s in start.steps]
        record.outcome = {"wake_on": start.wake_on.isoformat() if start.wake_on else None,
                          "wake_session": row.wake_session, "length": start.length, "retired": start.retired}
        record.save()
        if character.condition != "torpor":
            track = _track(character, settings, game_session)
            store_state(character, track=replace(track, condition="torpor"), ruling=record)
        return record


def wake_attempts(character: Character, torpor: Torpor):
    """The query of ``character``'s wake rulings (not undone) in ``torpor``: those recorded since it began. A
    night tried in an earlier torpor, since ended, is not tried in this one (new user 13). The board counts them
    and :func:`attempt_wake` refuses a night tried twice, both from here."""
    return (Ruling.select().join(RulingCharacter)
            .where((RulingCharacter.character == character) & (Ruling.kind == "wake") & Ruling.undone_at.is_null()
                   & (Ruling.created_at >= torpor.created_at)))


def _tried_nights(character: Character, torpor: Torpor) -> set[str]:
    """The nights ``character`` already tried to wake on in ``torpor`` (:func:`wake_attempts`)."""
    rows = wake_attempts(character, torpor)
    nights: set[str] = set()
    for ruling in rows:
        nights.update(ruling.inputs.get("nights", []))
    return nights


def _wake_test(player: str, narrator: str, rng: RandomSource) -> SimpleTest:
    """The static Mental challenge's throws: as thrown at the table, or drawn by the app for
    ``random`` (the test remembers which, for the record)."""
    def one(value: str, field: str) -> Throw | None:
        if (value or RANDOM).strip().lower() == RANDOM:
            return None
        try:
            throw = parse_throw(value, field)
        except RulesError as exc:
            raise ServiceError(exc.message, field=field) from None
        if throw is Throw.BOMB:
            raise ServiceError(Phrase.message(N_("No Bomb in a static challenge to wake.")), field=field)
        return throw

    return simple_test(one(player, "player_throw"), one(narrator, "narrator_throw"), rng, "player_throw")


def attempt_wake(chronicle: Chronicle, user: User | None, character_id: Any, rng: Any, *, first_night: date,
                 last_night: date | None = None, player_throw: str = RANDOM, narrator_throw: str = RANDOM,
                 dice: Sequence[int] | None = None, today: date | None = None) -> Ruling:
    """A torpid vampire tries to rise, one attempt a night from ``first_night`` to
    ``last_night`` (default: that night only), until he rises or his blood runs out;
    each attempt costs a blood point (met-reference 5.2, T20; 000 "Torpor").

    Throws (live test) are given for a single night or drawn from ``rng``;
    dice (tabletop Awakening roll) likewise. Recorded as one ruling of kind
    "wake" with every night's steps.

    Raises:
        ServiceError: 404 unknown character; 422 not in torpor, before his
            time, no blood, bad throws or dice, entered throws for several
            nights, a night that has not come yet (after ``today``, default the
            server's date), a range the wrong way round or too long; 409 a night
            already tried, no torpor record, or the character changed meanwhile.
    """
    return adjudicate(chronicle, user, Waking(character_id, rng, first_night, last_night, player_throw,
                                              narrator_throw, dice, today)).ruling


@dataclass
class WakeAttempts:
    """The nights a torpid vampire tried to wake (:func:`larp.rules.torpor.attempt_to_wake`, one a night).

    Attributes:
        summary: one sentence; steps: every night's steps (dicts); woke: he rose; attempts: each night's test;
        nights: the nights tried (ISO dates); blood: his blood pool after; track: his track after.
    """

    summary: str
    steps: list[dict]
    woke: bool
    attempts: list[dict]
    nights: list[str]
    blood: int
    track: Any

    def to_dict(self) -> dict[str, Any]:
        """The record's outcome."""
        return {"woke": self.woke, "attempts": self.attempts, "blood_current": self.blood}


@dataclass
class Waking(SingleShot):
    """A torpid vampire tries to rise, one attempt a night from ``first_night`` to ``last_night``, until he rises
    or his blood runs out (:func:`attempt_wake`; met-reference 5.2, T20; 000 "Torpor"). A single shot of
    :func:`larp.services.adjudicate.adjudicate`: one load, the core's attempt each night tried, one write."""

    character_id: Any
    rng: Any
    first_night: date
    last_night: date | None = None
    player_throw: str = RANDOM
    narrator_throw: str = RANDOM
    dice: Sequence[int] | None = None
    today: date | None = None
    kind = "wake"
    roles = ("subject",)
    game_session_needed = "first"

    def __post_init__(self):
        first_night, last_night = self.first_night, self.last_night or self.first_night
        self.last_night = last_night
        if last_night > (self.today or date.today()):
            raise ServiceError(Phrase.message(N_("An attempt to wake is recorded after the night: %(date)s "
                                                 "has not come yet."),
                                              date=Phrase.day(last_night)), field="last_night")
        if last_night < first_night:
            raise ServiceError(Phrase.message(N_("The last night comes before the first.")), field="last_night")
        if (last_night - first_night).days >= MAX_NIGHTS:
            raise ServiceError(Phrase.message(N_("Try at most %(MAX_NIGHTS)s nights at once."),
                                              MAX_NIGHTS=MAX_NIGHTS), field="last_night")
        self.several = last_night > first_night
        entered = any((v or RANDOM).strip().lower() != RANDOM for v in (self.player_throw, self.narrator_throw)) \
            or self.dice
        if self.several and entered:
            raise ServiceError(Phrase.message(N_("Throws or dice can be entered for one night only; leave them "
                                                 "random to try several nights.")), field="player_throw")

    def wanted(self):
        """The torpid vampire (:meth:`SingleShot.wanted`)."""
        return [("character", self.character_id)]

    def rule(self, people, states, settings, night):
        """Each night's attempt, by the core's :func:`larp.rules.torpor.attempt_to_wake` (:meth:`SingleShot.rule`)."""
        state = states[0]
        character, several, game_session = state.character, self.several, state.game_session
        if character.condition != "torpor":
            raise ServiceError(Phrase.message(N_("%(name)s is not in torpor: there is nothing to wake from."),
                                              name=character.name),
                               field="character")
        torpor = open_torpor(character)
        if torpor is None:
            raise ServiceError(Phrase.message(N_("%(name)s's torpor start is not recorded: record it first, so the "
                                                 "tool knows when he may wake."),
                                              name=character.name), field="character", status=409)
        tried = _tried_nights(character, torpor)
        # The Awakening roll rolls the Humanity or Path dots; without them, twice the MET Traits (met-reference T25).
        awakening_dice, converted = morality_dots(character.morality_rating, tabletop_morality(character))
        track = state.health
        blood = character.blood_current
        steps: list[dict] = [converted.to_record()] if converted and settings["wake_test"] != "live_static" else []
        attempts: list[dict] = []
        nights: list[str] = []
        night = self.first_night
        woke = False
        while night <= self.last_night and not woke:
            if night.isoformat() in tried and several:
                night += timedelta(days=1)
                continue
            if night.isoformat() in tried:
                raise ServiceError(Phrase.message(N_("%(name)s already tried to wake on the night of %(date)s."),
                                                  name=character.name, date=Phrase.day(night)),
                                   field="first_night", status=409)
            if several and blood < 1:
                break
            test = _wake_test(self.player_throw, self.narrator_throw, self.rng) \
                if settings["wake_test"] == "live_static" else None
            try:
                attempt = attempt_to_wake(as_record(torpor), track, blood, night, settings,
                                          session_number=game_session.number,
                                          mental_traits=state.available("mental"), test=test,
                                          awakening_dice=awakening_dice,
                                          dice=self.dice, rng=self.rng if self.dice is None else None,
                                          who=character.name)
            except RulesError as exc:
                if several and exc.field == "night":
                    night += timedelta(days=1)
                    continue
                raise ServiceError(exc.message, field=exc.field if exc.field != "night" else "first_night") from None
            steps.extend(s.to_record() for s in attempt.steps)
            attempts.append({"night": night.isoformat(), **attempt.test, "woke": attempt.woke})
            nights.append(night.isoformat())
            blood, track, woke = attempt.blood_current, attempt.track, attempt.woke
            night += timedelta(days=1)
        if not attempts:
            since = torpor.wake_on.isoformat() if torpor.wake_on else f"game session {torpor.wake_session}"
            raise ServiceError(Phrase.message(N_("%(name)s may not try to wake on any of those nights (from "
                                                 "%(since)s)."), name=character.name, since=since),
                               field="first_night")
        summary = Phrase.message(N_("%(name)s rises from torpor (%(nights)s tried)") if woke else
                                 N_("%(name)s stays in torpor (%(nights)s tried)"), name=character.name,
                                 nights=Phrase.counted(len(attempts), "%(n)s night", "%(n)s nights"))
        self.torpor, self.result_nights = torpor, nights
        return WakeAttempts(summary, steps, woke, attempts, nights, blood, track)

    def inputs(self, characters):
        """The nights tried and what was entered (:meth:`SingleShot.inputs`)."""
        return {"nights": self.result_nights, "player_throw": self.player_throw, "narrator_throw": self.narrator_throw,
                "dice": list(self.dice) if self.dice else None}

    def write(self, record, result, states, game_session):
        """His torpor ended if he rose, his track and blood (:meth:`SingleShot.write`)."""
        character = states[0].character
        if result.woke:
            self.torpor.ended_on = date.fromisoformat(result.nights[-1])
            self.torpor.end_reason = "woke"
            self.torpor.ended_by = record
            self.torpor.save()
        return {character.name: store_state(character, track=result.track, blood_current=result.blood, ruling=record)}


def feed_character(chronicle: Chronicle, user: User | None, character_id: Any, blood: int, on: date) -> Ruling:
    """Record blood a vampire took on ``on``: feeding the player reports, or blood
    placed in a torpid vampire's mouth, which ends a torpor from blood loss under
    ``feeding_wakes_blood_torpor`` (000/001 "Torpor"). Kind "feeding". The rules core's one
    entry point for blood given (:func:`larp.rules.rulings.rule_given_blood`), as on the
    character page: :func:`larp.services.adjudicate.adjudicate` on a :class:`larp.services.adjudicate.GivenBlood`.

    Raises:
        ServiceError: 404 unknown character; 422 not a vampire, destroyed,
            staked, or fewer than one blood point; 409 the character changed meanwhile.
    """
    return adjudicate(chronicle, user, GivenBlood(character_id, blood, on=on)).ruling
