"""One path for the single-shot rulings on stored characters (issue 29 item 1): damage by hand, healing,
feeding on a victim, blood called for, blood given, and the narrator's actions on a track (destruction, a
stake, coming round).

``adjudicate(chronicle, narrator, request) -> Recorded`` dispatches on the request's kind (one of the
:class:`SingleShot` classes below) and runs it on the runner the open-ended rulings share
(:func:`larp.services.one_tap.one_tap`): in one transaction (retried on a conflicting change), a repeated
form or API call is refused, the open game session found, the characters loaded ONCE
(:func:`larp.services.characters.load_characters`: two queries whatever their number), the rules core
called ONCE (the kind's :meth:`SingleShot.rule`), the ruling recorded and its consequences written. Nothing
is decided here: each kind only says which characters it needs, which core entry point answers it, and
what its record holds. A single shot is never left open, so it is always recorded.

The answer (:class:`Recorded`) carries the characters as stored afterwards and their tracks, so a screen or
the stored API answers without reading them again. The stateless API calls the same rules-core entry points on
the people it is given (:mod:`larp.web.api_health`). A use case that has loaded the characters in its own
transaction (the tabletop screen's combat) rules and records on that load: :func:`adjudicate_loaded`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from larp.models import Character, Chronicle, GameSession, Ruling, User
from larp.rules.challenge import RandomSource
from larp.rules.explain import N_, Phrase, Step
from larp.rules.health import HealthTrack, destroy, regain_consciousness, remove_stake, stake
from larp.rules.rulings import (
    HandDamage,
    Person,
    rule_blood_called_for,
    rule_damage_by_hand,
    rule_feeding,
    rule_given_blood,
    rule_healing,
)
from larp.rules.rulings.healing import HEAL_KINDS
from larp.rules.scene import Scene, SideScene
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import GameNight
from larp.services import ServiceError
from larp.services.characters import CharacterState, load_characters, person_of
from larp.services.chronicles import game_night, open_game_session
from larp.services.consequences import apply_consequences, store_track
from larp.services.one_tap import one_tap
from larp.services.records import record_ruling
from larp.services.torpor_records import as_record, open_torpor


@dataclass
class Recorded:
    """What one single-shot tap recorded.

    Attributes:
        ruling: the ruling written.
        result: the rules core's answer (its summary, steps, outcome and consequences).
        states: the characters as loaded before the ruling, in the request's order.
        characters: the characters as stored afterwards, by name.
        settings: the chronicle's settings the ruling was made under.
    """

    states: list[CharacterState]
    result: Any
    settings: ChronicleSettings | None = None
    ruling: Ruling | None = None
    characters: dict[str, Character] = field(default_factory=dict)

    def character(self, index: int = 0) -> Character:
        """The ``index``-th character of the request (0: the one the request is about), as stored afterwards."""
        name = self.states[index].character.name
        return self.characters.get(name, self.states[index].character)

    def track(self, index: int = 0) -> HealthTrack:
        """The ``index``-th character's health track after the ruling (the core's new track, else as loaded)."""
        state = self.states[index]
        consequences = getattr(self.result, "consequences", None)
        changed = consequences.of(state.character.name).track if consequences is not None else None
        new = getattr(self.result, "track", None) if consequences is None else None
        return changed or new or state.health  # type: ignore[return-value]

    def state_after(self, index: int = 0) -> CharacterState | None:
        """The ``index``-th character's state after the ruling, told from what the tap wrote (his row, his track)
        without reading him again, for the screen that shows it; ``None`` when the ruling changed his sheet
        for tonight (Traits lost, Ability levels expended): load him again then."""
        state = self.states[index]
        consequences = getattr(self.result, "consequences", None)
        mine = consequences.of(state.character.name) if consequences is not None else None
        if mine is not None and (mine.traits_lost or mine.abilities):
            return None
        return replace(state, character=self.character(index), health=self.track(index))


class SingleShot:
    """A single-shot ruling's kind: which characters it needs, its one rules-core call, and its record.

    Attributes:
        kind: the ruling's kind in the record ("damage", "healing", "feeding", "narrator").
        roles: each loaded character's part in it, in :meth:`wanted`'s order.
        refusal_field: the field a refusal of the rules core that names none (or the track) is shown on
            (``None``: as the core names it).
        game_session_needed: "optional" (recorded with the open game session, or between game sessions), or
            "first" (a game session must be open: 409 before anything else is checked).
    """

    kind = ""
    roles: tuple[str, ...] = ("target",)
    refusal_field: str | None = None
    game_session_needed = "optional"

    def wanted(self) -> list[tuple[str, Any]]:
        """The characters to load, as ``(form field, id)`` pairs."""
        raise NotImplementedError

    def rule(self, people: list[Person], states: list[CharacterState], settings: ChronicleSettings,
             night: GameNight | None) -> Any:
        """The ONE rules-core call: its answer has ``summary``, ``steps``, ``to_dict()`` and ``consequences``.

        Raises:
            larp.rules.explain.RulesError: what the rules refuse.
        """
        raise NotImplementedError

    def inputs(self, characters: list[Character]) -> dict[str, Any]:
        """What the record keeps of the request."""
        return {"characters": [c.id for c in characters]}

    def summary(self, result: Any) -> str:
        """The record's one sentence."""
        return result.summary

    def outcome(self, result: Any) -> dict[str, Any]:
        """The record's outcome."""
        return result.to_dict()

    def write(self, record: Ruling, result: Any, states: list[CharacterState],
              game_session: GameSession | None) -> dict[str, Character]:
        """Write the consequences the core computed (:func:`larp.services.consequences.apply_consequences`);
        the characters as stored afterwards, by name."""
        characters = {s.character.name: s.character for s in states}
        return apply_consequences(characters, game_session, record, result.consequences)


def _count(value: Any, field_name: str, high: int) -> int:
    """A number of levels or blood points from 1 to ``high`` (1 when left out)."""
    from larp.services import read_number

    return read_number(value if value not in (None, "") else 1, field_name, low=1, high=high, required=True)


class HandRequest(Protocol):
    """Damage by hand as the services read it (:class:`larp.services.health.DamageRequest`)."""

    scene: SideScene

    def hand(self, rng: RandomSource) -> HandDamage:
        """The damage as the rules core takes it (the Fortitude tests' throws drawn from ``rng`` if left out)."""

    def recorded(self) -> dict[str, Any]:
        """What the record keeps of the damage."""


@dataclass
class Damage(SingleShot):
    """Damage by hand on a stored character (:func:`larp.rules.rulings.rule_damage_by_hand`; 002 "Damage
    and Healing", 000 "Applying Damage", met-reference 3.5, 3.7, 4.1)."""

    character_id: Any
    request: HandRequest
    rng: RandomSource
    kind = "damage"

    def wanted(self):
        """The characters it loads (:meth:`SingleShot.wanted`)."""
        return [("character", self.character_id)]

    def rule(self, people, states, settings, night):
        """Its one rules-core call (:meth:`SingleShot.rule`)."""
        person = people[0]
        self.scene = Scene(sides={person.name: self.request.scene})
        result = rule_damage_by_hand(person, self.request.hand(self.rng), self.scene, settings, self.rng, night=night)
        if result.stamina_trait is not None and night is None:
            raise ServiceError(Phrase.message(N_("No game session is open to spend the stamina Trait in.")), status=409)
        return result

    def inputs(self, characters):
        """What its record keeps (:meth:`SingleShot.inputs`)."""
        return {"character": characters[0].id, "damage": self.request.recorded(), "scene": self.scene.to_dict()}


@dataclass
class Healing(SingleShot):
    """A stored vampire heals with blood (:func:`larp.rules.rulings.rule_healing`; 002 "Damage and Healing")."""

    character_id: Any
    heal: str
    levels: Any
    game: str = "live"
    kind = "healing"
    roles = ("healed",)
    refusal_field = "kind"

    def __post_init__(self):
        if self.heal not in HEAL_KINDS:
            raise ServiceError(Phrase.message(N_("Heal bashing, lethal, aggravated, or automatically.")), field="kind")
        self.levels = _count(self.levels, "levels", 20)

    def wanted(self):
        """The characters it loads (:meth:`SingleShot.wanted`)."""
        return [("character", self.character_id)]

    def rule(self, people, states, settings, night):
        """Its one rules-core call (:meth:`SingleShot.rule`)."""
        return rule_healing(people[0], self.heal, self.levels, settings, self.game, night=night)

    def inputs(self, characters):
        """What its record keeps (:meth:`SingleShot.inputs`)."""
        return {"character": self.character_id, "kind": self.heal, "levels": self.levels, "game": self.game,
                **super().inputs(characters)}


@dataclass
class Feeding(SingleShot):
    """A vampire feeds on a victim (:func:`larp.rules.rulings.rule_feeding`; LotNR "Blood", met-reference 3.7)."""

    drinker_id: Any
    victim_id: Any
    blood: Any
    kind = "feeding"
    roles = ("drinker", "victim")
    refusal_field = "character"

    def __post_init__(self):
        self.blood = _count(self.blood, "blood", 20)
        if str(self.drinker_id) == str(self.victim_id):
            raise ServiceError(Phrase.message(N_("A vampire does not feed on himself: choose "
                                                 "the victim.")), field="victim")

    def wanted(self):
        """The characters it loads (:meth:`SingleShot.wanted`)."""
        return [("character", self.drinker_id), ("victim", self.victim_id)]

    def rule(self, people, states, settings, night):
        """Its one rules-core call (:meth:`SingleShot.rule`)."""
        return rule_feeding(people[0], people[1], self.blood, settings)

    def inputs(self, characters):
        """What its record keeps (:meth:`SingleShot.inputs`)."""
        return {"drinker": self.drinker_id, "victim": self.victim_id, "blood": self.blood,
                **super().inputs(characters)}


@dataclass
class BloodCalledFor(SingleShot):
    """The rules call for blood from a stored vampire (:func:`larp.rules.rulings.rule_blood_called_for`;
    000 "Health Chart", "Torpor"): an empty pool costs a level a blood point, past Incapacitated torpor."""

    character_id: Any
    blood: Any
    reason: str = "other"
    kind = "narrator"
    refusal_field = "character"

    def __post_init__(self):
        self.raw = self.blood
        self.blood = _count(self.blood, "blood", 50)

    def wanted(self):
        """The characters it loads (:meth:`SingleShot.wanted`)."""
        return [("character", self.character_id)]

    def rule(self, people, states, settings, night):
        """Its one rules-core call (:meth:`SingleShot.rule`)."""
        return rule_blood_called_for(people[0], self.reason or "other", self.blood, settings, night=night)

    def inputs(self, characters):
        """What its record keeps (:meth:`SingleShot.inputs`)."""
        return {"character": self.character_id, "action": "blood", "blood": self.raw, "reason": self.reason,
                **super().inputs(characters)}


@dataclass
class GivenBlood(SingleShot):
    """Blood given to a stored vampire: swallowed until his pool is full, which may end a torpor from blood
    loss (:func:`larp.rules.rulings.rule_given_blood`; 000/001 "Torpor"). As the narrator's action on the
    character page (``on`` left out: kind "narrator"), or as feeding recorded on a date between game
    sessions (kind "feeding", which ends the torpor record then)."""

    character_id: Any
    blood: Any
    on: Any = None
    reason: str = "other"
    refusal_field = "character"

    def __post_init__(self):
        self.raw = self.blood
        if self.on is None:
            self.blood = _count(self.blood, "blood", 50)
            self.kind = "narrator"
        else:
            self.kind, self.roles, self.game_session_needed, self.refusal_field = "feeding", ("subject",), "first", None

    def wanted(self):
        """The characters it loads (:meth:`SingleShot.wanted`)."""
        return [("character", self.character_id)]

    def rule(self, people, states, settings, night):
        """Its one rules-core call (:meth:`SingleShot.rule`)."""
        self.torpor = open_torpor(states[0].character)
        return rule_given_blood(people[0], self.blood, settings, as_record(self.torpor) if self.torpor else None)

    def summary(self, result):
        """Its record's sentence (:meth:`SingleShot.summary`): feeding recorded on a date says it without the
        full stop ("Ines Castellano takes 2 blood points"), as a phrase."""
        if self.on is None:
            return result.summary
        template = (N_("%(name)s takes %(blood)s and rises from torpor") if result.outcome["woke"]
                    else N_("%(name)s takes %(blood)s"))
        return Phrase({"msg": template, "params": result.summary.data()["params"]})

    def inputs(self, characters):
        """What its record keeps (:meth:`SingleShot.inputs`)."""
        if self.on is None:
            return {"character": self.character_id, "action": "feed", "blood": self.raw, "reason": self.reason,
                    **super().inputs(characters)}
        return {"blood": self.blood, "on": self.on.isoformat()}

    def write(self, record, result, states, game_session):
        """What it writes after the record (:meth:`SingleShot.write`)."""
        from larp.models import Torpor

        after = super().write(record, result, states, game_session)
        if self.on is not None and result.outcome["woke"] and self.torpor is not None:
            torpor = Torpor.get_by_id(self.torpor.id)
            torpor.ended_on = max(self.on, torpor.started_on)
            torpor.end_reason = "fed"
            torpor.ended_by = record
            torpor.save()
        return after


#: The narrator actions that destroy, and the means each stands for (:data:`larp.rules.health.DESTRUCTION`).
DESTROYING = {"behead": "beheading", "heart": "heart_torn_out", "massive_trauma": "massive_trauma"}


@dataclass
class TrackAction(SingleShot):
    """A narrator's action on a stored character's track (:mod:`larp.rules.health`; 002 "Damage and
    Healing", 000 "Final Death"): ``behead``, ``heart``, ``massive_trauma`` (destruction), ``stake``,
    ``remove_stake``, ``wake`` (an unconscious vampire comes round)."""

    character_id: Any
    action: str
    blood: Any = None
    kind = "narrator"
    refusal_field = "action"

    def wanted(self):
        """The characters it loads (:meth:`SingleShot.wanted`)."""
        return [("character", self.character_id)]

    def rule(self, people, states, settings, night):
        """Its one rules-core call (:meth:`SingleShot.rule`)."""
        track, name = states[0].health, states[0].character.name
        self.name = name
        if self.action in DESTROYING:
            return destroy(track, DESTROYING[self.action], name)
        if self.action == "stake":
            return stake(track, name)
        if self.action == "remove_stake":
            return remove_stake(track, name)
        return regain_consciousness(track, name)

    def summary(self, result):
        """Its record's sentence (:meth:`SingleShot.summary`)."""
        if not result.steps:
            return f"{self.name}: {self.action}."
        last = result.steps[-1]
        return Phrase(last.said) if last.said else last.text  # the last step's phrase, said in the reader's language

    def inputs(self, characters):
        """What its record keeps (:meth:`SingleShot.inputs`)."""
        return {"character": characters[0].id, "action": self.action, "blood": self.blood}

    def outcome(self, result):
        """Its record's outcome (:meth:`SingleShot.outcome`)."""
        return {"track": result.track.to_dict(), "blood_current": None}

    def write(self, record, result, states, game_session):
        """What it writes after the record (:meth:`SingleShot.write`)."""
        character = states[0].character
        return {character.name: store_track(character, result.track, ruling=record)}


def adjudicate(chronicle: Chronicle, narrator: User | None, request: SingleShot,
               request_token: str | None = None) -> Recorded:
    """Rule on a single-shot ``request`` and record it, in one transaction (retried on a conflict): one load
    of its characters, one rules-core call (``request.rule``), the record and its consequences.

    Args:
        request: one of :class:`Damage`, :class:`Healing`, :class:`Feeding`, :class:`BloodCalledFor`,
            :class:`GivenBlood`, :class:`TrackAction`.
        request_token: the form's one-time token or the API's key (``None``: the one the request declared).

    Raises:
        ServiceError: 404 an unknown character; 422 what the rules core refuses (naming the field); 409 a
            repeated form or API call, a page that showed a character otherwise, no game session open where
            the kind needs one, or repeated conflicts.
    """
    def rule(game_session: GameSession | None, settings: ChronicleSettings) -> Recorded:
        return _ruled(request, load_characters(chronicle, request.wanted(), game_session, settings), settings,
                      game_session)

    def write(tap: Recorded, game_session: GameSession | None, _settings: ChronicleSettings) -> None:
        _write(chronicle, narrator, request, tap, game_session)

    return one_tap(chronicle, "always", request_token, rule, lambda _tap: True, write,
                   game_session_needed=request.game_session_needed)


def adjudicate_loaded(chronicle: Chronicle, narrator: User | None, request: SingleShot, states: list[CharacterState],
                      settings: ChronicleSettings) -> Recorded:
    """:func:`adjudicate` inside a use case that has loaded the characters already, in its transaction (the
    tabletop screen's healing and the Kiss's drink, whose combat loaded its fighters): ``states`` are
    ``request.wanted()``'s characters, read locked in this transaction. One rules-core call, the record and
    its consequences, with the open game session (if any).

    Raises:
        ServiceError: as :func:`adjudicate`.
    """
    game_session = open_game_session(chronicle)
    tap = _ruled(request, states, settings, game_session)
    _write(chronicle, narrator, request, tap, game_session)
    return tap


def _ruled(request: SingleShot, states: list[CharacterState], settings: ChronicleSettings,
           game_session: GameSession | None) -> Recorded:
    """The one rules-core call on the loaded ``states``; a refusal naming no field is shown on the kind's."""
    try:
        result = request.rule([person_of(s) for s in states], states, settings, game_night(game_session))
    except ServiceError as exc:
        if request.refusal_field is None or exc.field not in (None, "track"):
            raise
        raise ServiceError(exc.message, field=request.refusal_field, status=exc.status) from None
    return Recorded(states, result, settings)


def _write(chronicle: Chronicle, narrator: User | None, request: SingleShot, tap: Recorded,
           game_session: GameSession | None) -> None:
    """Record ``tap``'s ruling and write its consequences (the kind's :meth:`SingleShot.write`)."""
    characters = [s.character for s in tap.states]
    steps: list[Step] = list(tap.result.steps)
    tap.ruling = record_ruling(chronicle, narrator, request.kind, request.summary(tap.result), steps,
                               list(zip(characters, request.roles)), game_session=game_session,
                               inputs=request.inputs(characters), outcome=request.outcome(tap.result))
    tap.characters = request.write(tap.ruling, tap.result, tap.states, game_session)
