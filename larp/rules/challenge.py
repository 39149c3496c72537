"""The trait-bid challenge: bids, throws, ties, overbids, retests, cancels
(seed 002 "Challenges", "Ties", "Darkness"; met-reference 1, 2, 3 and 8).

Plain data in, a :class:`ChallengeRuling` out. A :class:`Challenge` is a
complete script: the setup (category; contested, static or simple; both sides
with their current Traits, bid, bonus and penalty Traits, health, powers,
Ability levels and Willpower left this game session, darkness, relenting)
plus the ordered list of tests (:class:`TestCall`): the first throws, then
each overbid, retest (with any cancel) and forced darkness retest, with their
throws and who called them. :func:`rule_challenge` validates every step
against the rules (who may call it, whether they can pay, the limits) and
rules on the whole challenge; :func:`challenge_options` tells the UI what each
side may still do after the tests so far; :func:`challenge_from_dict` reads
the script from JSON-like data for the stateless API.

The rules in brief. Each side bids one Trait of the category, plus the extra
Traits it must risk (Wounded, Negative Trait calls, the off hand, a narrator's
difficulty); a side may relent before the test and loses the challenge but no
Traits. Rock, paper, scissors; the Bomb where Vigor (strength) or Rapidity
(speed) allows it. A tied throw compares the Traits each side has now, plus
bonus Traits (never bid), minus penalties (Bruised, moving, darkness); Traits
bid still count until the challenge is resolved; win-ties powers and wounds
come first; equal counts are a draw and both lose their bids (002 "Ties").
The loser of a test may overbid (risking a new Trait, at the chronicle's ratio)
or retest (an Ability level, Willpower, Might, a Merit); either way the Trait
lost on that test stays lost. The final loser loses the Traits still at risk.

Randomness is injected: the script carries the throws, and the narrator's
throws in static challenges and simple tests may be drawn from a random source
passed in, so a stored ruling can be replayed from its inputs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields, is_dataclass, replace
from enum import Enum, StrEnum
from typing import Any, Mapping, Protocol, Sequence

from larp.rules.darkness import (
    Darkness,
    DarknessEffect,
    DarknessLevel,
    DarknessSource,
    ability_named,
    darkness_effect,
)
from larp.rules.explain import Explanation, RulesError, Step
from larp.rules.health import DAMAGE_TYPES
from larp.rules.numbers import REQUIRED, whole_number
from larp.rules.settings import ChronicleSettings
from larp.tables import generation_row

# How the explanation cites its sources (../shared/seeds/README.md, met-reference).
R_BID = "LotNR Initial Bid (met-reference 1.1)"
R_RELENT = "LotNR Relenting (met-reference 1.1)"
R_TEST = "LotNR The Test (met-reference 1.2)"
R_BOMB = "LotNR Vigor and Rapidity: the Bomb (met-reference 1.2)"
R_OUTCOME = "LotNR Outcomes (met-reference 1.3)"
R_TIES = '002 "Ties"'
R_BONUS = "LotNR Bonus Traits (met-reference 1.3, 3.7)"
R_CAP = "LotNR generation table (met-reference 1.3)"
R_NEGATIVE = "LotNR Negative Traits (met-reference 1.4)"
R_OVERBID = "LotNR Overbidding (met-reference 1.5)"
R_STATIC = "LotNR Static Challenges and Simple Tests (met-reference 1.6)"
R_RETEST = "LotNR Retests (met-reference 2.1)"
R_RETEST_DE = "Dark Epics Retests (met-reference 2.2)"
R_COMBAT = "LotNR Combat (met-reference 3.1)"
R_SURPRISE = "LotNR Surprise (met-reference 3.1)"
R_PUISSANCE = "LotNR Potence: Puissance (met-reference 3.4)"
R_MIGHT = "LotNR Potence: Might (met-reference 3.4)"
R_INTENSITY = "LotNR Potence: Intensity (met-reference 3.4)"
R_FLEETNESS = "LotNR Celerity: Fleetness (met-reference 3.3, 8.2 #14)"
R_ENDURANCE = "LotNR Fortitude: Endurance (met-reference 3.5)"
R_MOVE = "LotNR three-step rule (met-reference 3.8)"
R_OFF_HAND = "LotNR off hand (met-reference 3.8)"
R_HEALTH = "LotNR Health (met-reference 4.1)"
R_WOUNDS_OLD = "Older MET health levels (met-reference 4.2)"
R_DARK = '002 "Darkness"'
R_DARK_DE = '002 "Darkness"; Dark Epics p.71 (met-reference 6.1)'
R_VIRTUE = "LotNR Virtue Tests (met-reference 1.5, 2.1)"


class Category(StrEnum):
    """The categories of Traits; all Traits in one challenge share one.

    ``VIRTUE`` is for Virtue Tests (Self-Control, Courage, Conscience), which
    are static challenges against a stimulus (LotNR Virtue Tests).
    """

    PHYSICAL = "physical"
    SOCIAL = "social"
    MENTAL = "mental"
    VIRTUE = "virtue"

    @property
    def label(self) -> str:
        """Capitalised name, as on a character sheet."""
        return self.value.capitalize()


class Throw(StrEnum):
    """A throw in the test. The Bomb exists only where a power allows it."""

    ROCK = "rock"
    PAPER = "paper"
    SCISSORS = "scissors"
    BOMB = "bomb"

    @property
    def label(self) -> str:
        """Capitalised name for display ("the Bomb" is a proper noun in play)."""
        return "Bomb" if self is Throw.BOMB else self.value.capitalize()


#: What each throw beats (met-reference 1.2; LotNR Vigor and Rapidity for the Bomb).
BEATS: dict[Throw, frozenset[Throw]] = {
    Throw.ROCK: frozenset({Throw.SCISSORS}),
    Throw.PAPER: frozenset({Throw.ROCK}),
    Throw.SCISSORS: frozenset({Throw.PAPER, Throw.BOMB}),
    Throw.BOMB: frozenset({Throw.ROCK, Throw.PAPER}),
}

BASIC_THROWS: tuple[Throw, ...] = (Throw.ROCK, Throw.PAPER, Throw.SCISSORS)


class Outcome(StrEnum):
    """Who won the challenge; also names a side (``CHALLENGER``, ``DEFENDER``).

    ``SUCCESS`` and ``FAILURE`` are the outcomes of static challenges and
    simple tests, where the other side is a narrator.
    """

    CHALLENGER = "challenger"
    DEFENDER = "defender"
    DRAW = "draw"
    SUCCESS = "success"
    FAILURE = "failure"


SIDES: tuple[Outcome, Outcome] = (Outcome.CHALLENGER, Outcome.DEFENDER)


class Kind(StrEnum):
    """Contested (two characters), static (against a narrator's difficulty in
    Traits) or a simple test (no Traits compared) (met-reference 1.6)."""

    CONTESTED = "contested"
    STATIC = "static"
    SIMPLE = "simple"


class Health(StrEnum):
    """A side's health state on the live track (LotNR Health, met-reference 4.1)."""

    HEALTHY = "healthy"
    BRUISED = "bruised"
    WOUNDED = "wounded"
    INCAPACITATED = "incapacitated"


class Power(StrEnum):
    """The Discipline powers that change a challenge (met-reference 3.3-3.5)."""

    VIGOR = "vigor"            # Potence 3: the Bomb in strength challenges
    RAPIDITY = "rapidity"      # Celerity 3: the Bomb in speed challenges
    PUISSANCE = "puissance"    # Potence 5: wins ties in tests of strength
    FLEETNESS = "fleetness"    # Celerity 5: wins ties in speed challenges
    MIGHT = "might"            # Potence 2: one free retest, the last test
    ENDURANCE = "endurance"    # Fortitude 1: wound penalties capped at Bruised
    INTENSITY = "intensity"    # Potence 4: may bid "Potence", never lost


#: The pseudo-Trait a character with Intensity may bid in strength challenges.
POTENCE_TRAIT = "Potence"


class Lead(StrEnum):
    """What a side's lead Trait tests: it sets which powers apply (BA, met-reference 1.1).

    Strength (Brawny, Ferocious...) opens Vigor, Puissance and Might; speed
    (Quick, Nimble...) opens Rapidity and Fleetness.
    """

    OTHER = "other"
    STRENGTH = "strength"
    SPEED = "speed"
    STAMINA = "stamina"


class Call(StrEnum):
    """A step in the test sequence."""

    TEST = "test"
    OVERBID = "overbid"
    RETEST = "retest"
    FORCED_RETEST = "forced_retest"


class RandomSource(Protocol):
    """What a random source must offer: ``random.Random`` and its seeded copies do."""

    def choice(self, seq: Sequence[Any]) -> Any:  # pragma: no cover - protocol
        """One element of ``seq``, drawn at random."""


def parse_throw(value: str | Throw, field_name: str = "throw") -> Throw:
    """Read a throw from form or JSON text (``"rock"``, ``"Paper"``...).

    Raises:
        RulesError: the text names no throw; ``field`` is ``field_name``.
    """
    if isinstance(value, Throw):
        return value
    if not isinstance(value, str):
        raise RulesError(f"{value!r} is not a throw: use rock, paper, scissors or bomb.", field=field_name)
    text = value.strip().lower()
    if not text:
        raise RulesError("Choose a throw: rock, paper or scissors.", field=field_name)
    try:
        return Throw(text)
    except ValueError:
        raise RulesError(
            f"{value!r} is not a throw: use rock, paper, scissors or bomb.", field=field_name
        ) from None


def random_throw(rng: RandomSource, allowed: Sequence[Throw] = BASIC_THROWS) -> Throw:
    """A narrator character's random throw, drawn from ``rng``.

    ``rng`` is injected (``random.Random(seed)`` in tests and replays), so the
    draw can be repeated. ``allowed`` is the set of throws the character may
    make (see :func:`allowed_throws`).
    """
    return rng.choice(list(allowed))


def compare_throws(first: Throw, second: Throw) -> int:
    """1 if ``first`` beats ``second``, -1 if it loses, 0 on a tie (same throw)."""
    if first == second:
        return 0
    if second in BEATS[first]:
        return 1
    if first in BEATS[second]:
        return -1
    raise AssertionError(f"no beats-table entry for {first} against {second}")  # table is total


@dataclass(frozen=True)
class Modifier:
    """Bonus or penalty Traits counted in ties and overbids, never bid.

    Attributes:
        source: what gives it ("cover", "Melee specialisation", "One Eye").
        traits: how many Traits, at least 0.
    """

    source: str
    traits: int


@dataclass(frozen=True)
class Weapon:
    """A weapon card (met-reference 3.7).

    Attributes:
        name: "pistol", "knife"...
        bonus: bonus Traits, counted in ties and overbids, never bid.
        damage_type: ``"bashing"``, ``"lethal"`` or ``"aggravated"``.
        levels: health levels on a hit, before soak or halving.
    """

    name: str
    bonus: int
    damage_type: str
    levels: int


@dataclass(frozen=True)
class Contestant:
    """One side of a challenge.

    Attributes:
        name: the character's name, for the explanation.
        traits: the Traits this side has in the challenge's category right now:
            Traits lost earlier in this game session are already excluded;
            Traits bid in this challenge are still included, because they are
            not spent until the challenge is resolved (002 "Ties").
        bid: the names of the Traits bid: one, plus every extra Trait the side
            must risk (see :func:`rule_challenge`). A character with Intensity
            may bid ``"Potence"`` for the first one in strength challenges.
        held: optional, the names of the Traits on the sheet in this category
            (a name repeated for "x2"); with it, bids are checked by name and
            ``traits`` must equal ``held`` minus ``lost_earlier``.
        lost_earlier: Traits lost earlier in this game session (names).
        declared: Traits declared in ties and overbids, if the player
            under-declares (never more than ``traits``; LotNR, met-reference 1.3).
        bonuses: bonus Traits (cover, specialisation, Merits...).
        penalties: other penalty Traits (One Eye...). Bruised, moving and
            darkness are computed from their own fields.
        weapon: the weapon used, if any (its bonus counts; its card sets damage).
        health: Healthy, Bruised, Wounded (Incapacitated takes part in no challenge).
        powers: powers active and relevant here.
        lead: what the lead Trait tests (strength, speed, stamina, other).
        category: the category this side bids from when it differs from the
            challenge's (a shooter with Firearms may bid Mental Traits, LotNR
            Bidding Weapon Traits, met-reference 1.1); ``None`` = the challenge's.
        abilities: Ability name to levels left this game session.
        willpower: Willpower Traits left.
        merits: retest Merit name to uses left (``{"Lucky": 2}``).
        generation: for the cap on Trait totals; ``None`` for no cap.
        steps_moved: steps taken this turn before acting (0 to 3).
        off_hand: attacking with the off hand (two more Traits risked).
        extra_bid: extra Traits a narrator's difficulty requires to be risked.
        relent: the side relents before the test.
        darkness: the darkness this side suffers.
    """

    name: str
    traits: int
    bid: tuple[str, ...] = ()
    held: tuple[str, ...] = ()
    lost_earlier: tuple[str, ...] = ()
    declared: int | None = None
    bonuses: tuple[Modifier, ...] = ()
    penalties: tuple[Modifier, ...] = ()
    weapon: Weapon | None = None
    health: Health = Health.HEALTHY
    powers: frozenset[Power] = frozenset()
    lead: Lead = Lead.OTHER
    category: Category | None = None
    abilities: Mapping[str, int] = field(default_factory=dict)
    willpower: int = 0
    merits: Mapping[str, int] = field(default_factory=dict)
    generation: int | None = None
    steps_moved: int = 0
    off_hand: bool = False
    extra_bid: int = 0
    relent: bool = False
    darkness: Darkness = Darkness()


@dataclass(frozen=True)
class NegativeCall:
    """A Negative Trait called during the bid (LotNR, met-reference 1.4).

    Attributes:
        by: the caller (``Outcome.CHALLENGER`` or ``Outcome.DEFENDER``).
        trait: the Negative Trait named.
        correct: whether the opponent has it (the narrator or the player says).
    """

    by: Outcome
    trait: str
    correct: bool


@dataclass(frozen=True)
class TestCall:
    """One step of the test sequence, in order.

    Attributes:
        call: ``test`` (the first throws, always first), ``overbid``,
            ``retest`` or ``forced_retest`` (total darkness, 002 "Darkness").
        challenger_throw, defender_throw: the throws of this test; absent for
            a refused overbid or a cancelled retest. In static challenges and
            simple tests the defender's throw is the narrator's and may be left
            out when a random source is passed.
        by: who calls an overbid or retest.
        source: a retest's source: ``"ability:Brawl"``, ``"willpower"``,
            ``"might"`` or ``"merit:Lucky"``.
        cancel: the source the opponent spends to cancel this retest, if any.
        trait: the new Trait risked by an overbid.
    """

    call: Call = Call.TEST
    challenger_throw: Throw | None = None
    defender_throw: Throw | None = None
    by: Outcome | None = None
    source: str = ""
    cancel: str = ""
    trait: str = ""


#: What a side can attempt, with its effect on a win (002 "Damage and Healing").
ACTIONS: dict[str, dict[str, Any]] = {
    "strike": {
        "label": "Bare-handed strike",
        "attack": True,
        "damage_type": "bashing",
        "levels": 1,
        "rule": '002 "Damage and Healing"',
        "text": "A bare-handed strike inflicts one level of bashing damage.",
    },
    "bite": {
        "label": "Bite",
        "attack": True,
        "damage_type": "aggravated",
        "levels": 1,
        "rule": '002 "Damage and Healing"',
        "text": "A vampire's bite inflicts one level of aggravated damage.",
    },
    "weapon": {
        "label": "Weapon attack",
        "attack": True,
        "damage_type": None,  # from the side's weapon card
        "levels": None,
        "rule": "the weapon's card (met-reference 3.7)",
        "text": "The weapon inflicts the damage on its card.",
    },
    "defend": {
        "label": "Defend (dodge or block)",
        "attack": False,
        "rule": R_COMBAT,
        "text": "The attack is avoided.",
    },
    "other": {
        "label": "Another stated outcome",
        "attack": False,
        "rule": R_BID,
        "text": "The winner's stated outcome happens.",
    },
}


@dataclass(frozen=True)
class Challenge:
    """A challenge to resolve: the setup and the script of its tests.

    Attributes:
        category: Physical, Social, Mental (or Virtue for a Virtue Test).
        challenger: the side that challenges (the player in static and simple).
        defender: the other side; ``None`` in static challenges and simple
            tests, where a narrator throws.
        action: what the challenger attempts, a key of :data:`ACTIONS`.
        kind: contested, static or simple.
        defender_action: what the defender declared (``defend``, or a
            counter-attack such as ``strike``: 002 "Challenges").
        difficulty: a static challenge's difficulty in Traits (used only for ties).
        needs_win: a simple test whose effect needs an outright win.
        needs_sight: the challenge needs sight (setting ``darkness_scope``).
        surprised: the defender is surprised (LotNR Surprise): this first
            challenge can only harm him, and he cannot use Celerity in it.
        negative_calls: Negative Trait calls made during the bid, in order.
        tests: the test sequence, first throws first.
    """

    category: Category
    challenger: Contestant
    defender: Contestant | None = None
    action: str = "strike"
    kind: Kind = Kind.CONTESTED
    defender_action: str = "defend"
    difficulty: int | None = None
    needs_win: bool = False
    needs_sight: bool = True
    surprised: bool = False
    negative_calls: tuple[NegativeCall, ...] = ()
    tests: tuple[TestCall, ...] = ()


@dataclass(frozen=True)
class TraitsLost:
    """Traits a side loses for the rest of the game session."""

    side: Outcome
    traits: tuple[str, ...]


@dataclass(frozen=True)
class DamageDealt:
    """Damage the ruling inflicts, before soak, halving or armor.

    Attributes:
        target: which side takes it.
        damage_type: ``"bashing"``, ``"lethal"`` or ``"aggravated"``.
        levels: health levels, at least 1.
        rule: the rule that sets the amount.
    """

    target: Outcome
    damage_type: str
    levels: int
    rule: str


@dataclass(frozen=True)
class Spent:
    """What a side spent in the challenge, gone for the game session.

    Attributes:
        side: challenger or defender.
        abilities: Ability name and levels expended (retests, cancels, darkness).
        willpower: Willpower Traits spent.
        merits: Merit name and uses spent.
    """

    side: Outcome
    abilities: tuple[tuple[str, int], ...] = ()
    willpower: int = 0
    merits: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"abilities": dict(self.abilities), "willpower": self.willpower, "merits": dict(self.merits)}


@dataclass(frozen=True)
class TestRecord:
    """One step of the test sequence as ruled.

    Attributes:
        call: test, overbid, retest or forced retest.
        by: who called it (``None`` for the first test).
        challenger_throw, defender_throw: the throws (``None`` if no new test was made).
        result: who was ahead after this step: challenger, defender or draw.
        made: ``False`` for a refused overbid or a cancelled retest.
        source, cancel, trait: as in :class:`TestCall`.
    """

    call: Call
    by: Outcome | None
    challenger_throw: Throw | None
    defender_throw: Throw | None
    result: Outcome
    made: bool = True
    source: str = ""
    cancel: str = ""
    trait: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "call": self.call.value,
            "by": self.by.value if self.by else None,
            "challenger_throw": self.challenger_throw.value if self.challenger_throw else None,
            "defender_throw": self.defender_throw.value if self.defender_throw else None,
            "result": self.result.value,
            "made": self.made,
            "source": self.source,
            "cancel": self.cancel,
            "trait": self.trait,
        }


@dataclass(frozen=True)
class ChallengeRuling:
    """The result of a challenge, with the steps that reached it.

    ``challenger_throw`` and ``defender_throw`` are the first test's throws
    (``None`` when a side relented); ``tests`` has every step. ``totals`` are
    the Traits each side counted for ties and overbids (the narrator's is the
    difficulty).
    """

    outcome: Outcome
    challenger_throw: Throw | None
    defender_throw: Throw | None
    traits_lost: tuple[TraitsLost, ...]
    damage: tuple[DamageDealt, ...]
    steps: tuple[Step, ...]
    summary: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    kind: Kind = Kind.CONTESTED
    tests: tuple[TestRecord, ...] = ()
    spent: tuple[Spent, ...] = ()
    totals: Mapping[Outcome, int] = field(default_factory=dict)

    def lost_by(self, side: Outcome) -> tuple[str, ...]:
        """The Traits ``side`` loses in this ruling."""
        return tuple(t for loss in self.traits_lost if loss.side == side for t in loss.traits)

    def spent_by(self, side: Outcome) -> Spent:
        """What ``side`` spent (an empty :class:`Spent` if nothing)."""
        return next((s for s in self.spent if s.side == side), Spent(side))

    def to_dict(self) -> dict[str, Any]:
        """The ruling as JSON-ready data (the record and the API use this)."""
        return {
            "outcome": self.outcome.value,
            "kind": self.kind.value,
            "summary": self.summary,
            "throws": {
                "challenger": self.challenger_throw.value if self.challenger_throw else None,
                "defender": self.defender_throw.value if self.defender_throw else None,
            },
            "traits_lost": {side.value: list(self.lost_by(side)) for side in SIDES},
            "spent": {side.value: self.spent_by(side).to_dict() for side in SIDES},
            "totals": {side.value: total for side, total in self.totals.items()},
            "damage": [
                {
                    "target": d.target.value,
                    "damage_type": d.damage_type,
                    "levels": d.levels,
                    "rule": d.rule,
                }
                for d in self.damage
            ],
            "tests": [t.to_dict() for t in self.tests],
            "steps": [s.to_dict() for s in self.steps],
            **self.extra,
        }


@dataclass(frozen=True)
class SideOptions:
    """What one side may do next (for the UI's buttons).

    Attributes:
        side: challenger or defender.
        retests: retest sources the side may call now, can pay for, and may
            use under the chronicle's limit (``"ability:Brawl"``, ``"willpower"``...).
        may_overbid: the side may call an overbid now (it lost the last test,
            has not overbid yet, and has a Trait left to risk).
        overbid_makes_test: the ratio is met (or the side is Wounded), so an
            overbid would make a new test.
        overbid_note: why not, or the ratio arithmetic.
        cancels: for each retest the opponent may call now, the sources this
            side could spend to cancel it.
    """

    side: Outcome
    retests: tuple[str, ...] = ()
    may_overbid: bool = False
    overbid_makes_test: bool = False
    overbid_note: str = ""
    cancels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "retests": list(self.retests),
            "may_overbid": self.may_overbid,
            "overbid_makes_test": self.overbid_makes_test,
            "overbid_note": self.overbid_note,
            "cancels": {k: list(v) for k, v in self.cancels.items()},
        }


@dataclass(frozen=True)
class ChallengeOptions:
    """Where a challenge stands after the tests so far, and what may follow.

    Attributes:
        current: who is ahead (challenger, defender, draw), ``None`` before the
            first test or when a side relented.
        finished: nothing more may be called (Might was used, a side relented).
        forced_retest: the side that must now make its forced darkness retest.
        sides: the options of each side that is a character (the narrator of
            a static challenge has none).
    """

    current: Outcome | None
    finished: bool
    forced_retest: Outcome | None
    sides: tuple[SideOptions, ...]

    def side(self, side: Outcome) -> SideOptions:
        """The options of ``side`` (empty options for the narrator)."""
        return next((s for s in self.sides if s.side == side), SideOptions(side))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "current": self.current.value if self.current else None,
            "finished": self.finished,
            "forced_retest": self.forced_retest.value if self.forced_retest else None,
            "sides": {s.side.value: s.to_dict() for s in self.sides},
        }


def _other(side: Outcome) -> Outcome:
    return Outcome.DEFENDER if side is Outcome.CHALLENGER else Outcome.CHALLENGER


def parse_source(text: str, field_name: str = "source") -> tuple[str, str]:
    """Read a retest source: ``(category, name)``.

    ``"ability:Brawl"`` gives ``("ability", "Brawl")``, ``"willpower"`` gives
    ``("willpower", "Willpower")``, ``"might"`` gives ``("power", "Might")``,
    ``"merit:Lucky"`` gives ``("merit", "Lucky")``. The categories are Dark
    Epics' (Abilities, Willpower, Merits, powers; met-reference 2.2).

    Raises:
        RulesError: the text names no source; ``field`` is ``field_name``.
    """
    text = (text or "").strip() if isinstance(text, str) else ""
    low = text.lower()
    if low == "willpower":
        return "willpower", "Willpower"
    if low in ("might", "power:might"):
        return "power", "Might"
    kind, sep, name = text.partition(":")
    if sep and kind.strip().lower() in ("ability", "merit") and name.strip():
        return kind.strip().lower(), name.strip()
    raise RulesError(
        f"{text!r} is not a retest source: use ability:<Name>, willpower, might or merit:<Name>.",
        field=field_name,
    )


def _source_key(category: str, name: str) -> str:
    return category if category == "willpower" else ("might" if category == "power" else f"{category}:{name}")


def _may_bomb(challenge: Challenge, side: Outcome) -> bool:
    con = challenge.challenger if side is Outcome.CHALLENGER else challenge.defender
    if con is None or challenge.category is not Category.PHYSICAL:
        return False
    if Power.VIGOR in con.powers and con.lead is Lead.STRENGTH:
        return True
    surprised = side is Outcome.DEFENDER and challenge.surprised
    return Power.RAPIDITY in con.powers and con.lead is Lead.SPEED and not surprised


def allowed_throws(challenge: Challenge, side: Outcome) -> tuple[Throw, ...]:
    """The throws ``side`` may make: rock, paper, scissors, and the Bomb with
    Vigor in a strength challenge or Rapidity in a speed challenge (LotNR,
    met-reference 1.2). A surprised defender cannot use Celerity (Rapidity) in
    the first challenge (LotNR Surprise). The narrator never has the Bomb."""
    return BASIC_THROWS + ((Throw.BOMB,) if _may_bomb(challenge, side) else ())


@dataclass
class _Side:
    """A side's state while the script is played (internal)."""

    key: Outcome
    con: Contestant | None  # None: the narrator
    name: str
    category: Category
    health: Health = Health.HEALTHY
    required: int | None = 1
    potence: bool = False
    total: int = 0
    standing: int = 0
    standing_why: list[str] = field(default_factory=list)
    at_risk: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    free: Counter | None = None
    spare: int = 0
    abilities_spent: Counter = field(default_factory=Counter)
    willpower_spent: int = 0
    merits_spent: Counter = field(default_factory=Counter)
    used: set[str] = field(default_factory=set)
    overbid_used: bool = False
    dark: DarknessEffect | None = None
    dark_forced: bool = False
    forced_done: bool = False
    unmatched: int = 0
    bid_safe: bool = False
    neg_bonus: int = 0
    terms: list[str] = field(default_factory=list)

    @property
    def prefix(self) -> str:
        return self.key.value


class _Run:
    """Plays a challenge script step by step (internal; see :func:`rule_challenge`)."""

    def __init__(self, challenge: Challenge, settings: ChronicleSettings, rng: RandomSource | None,
                 bids_only: bool = False):
        self.ch = challenge
        self.settings = settings
        self.rng = rng
        self.steps = Explanation()
        self.result: Outcome | None = None
        self.auto_winner: Outcome | None = None
        self.finished = False
        self.forced_due: Outcome | None = None
        self.records: list[TestRecord] = []
        self.totals_told = False
        self.sides: dict[Outcome, _Side] = {}
        self._setup(bids_only)

    # ----- setup -------------------------------------------------------------

    def _setup(self, bids_only: bool = False) -> None:
        ch = self.ch
        if not isinstance(ch.category, Category):
            raise RulesError(f"Unknown category {ch.category!r}.", field="category")
        for key, value in (("action", ch.action), ("defender_action", ch.defender_action)):
            if value not in ACTIONS:
                raise RulesError(f"Unknown action {value!r} (known: {', '.join(ACTIONS)}).", field=key)
        if ch.kind is Kind.CONTESTED:
            if ch.defender is None:
                raise RulesError("A contested challenge needs a defender.", field="defender")
            if ch.difficulty is not None:
                raise RulesError("Only a static challenge has a difficulty.", field="difficulty")
            if ch.category is Category.VIRTUE:
                raise RulesError("A Virtue Test is a static challenge against the stimulus.", field="kind")
        else:
            if ch.defender is not None:
                raise RulesError(f"A {ch.kind.value} challenge is against a narrator: leave out the defender.",
                                 field="defender")
            if ACTIONS[ch.action]["attack"]:
                raise RulesError(f"A {ch.kind.value} challenge has no opponent to hit: use the action 'other'.",
                                 field="action")
            if ch.surprised or ch.negative_calls:
                raise RulesError("Surprise and Negative Trait calls need two characters.",
                                 field="surprised" if ch.surprised else "negative_calls")
        if ch.kind is Kind.STATIC:
            if isinstance(ch.difficulty, bool) or not isinstance(ch.difficulty, int) or ch.difficulty < 0:
                raise RulesError("A static challenge needs a difficulty of at least 0 Traits.", field="difficulty")
        elif ch.kind is Kind.SIMPLE:
            if ch.difficulty is not None:
                raise RulesError("A simple test compares no Traits: no difficulty.", field="difficulty")
            if ch.category is Category.VIRTUE:
                raise RulesError("A Virtue Test is a static challenge against the stimulus.", field="kind")
        for key, con in ((Outcome.CHALLENGER, ch.challenger), (Outcome.DEFENDER, ch.defender)):
            if con is not None and not isinstance(con, Contestant):
                raise RulesError(f"The {key.value} is missing.", field=key.value)
        self._header()
        self.sides[Outcome.CHALLENGER] = self._contestant(Outcome.CHALLENGER, ch.challenger)
        if ch.defender is not None:
            self.sides[Outcome.DEFENDER] = self._contestant(Outcome.DEFENDER, ch.defender)
        else:
            self.sides[Outcome.DEFENDER] = _Side(Outcome.DEFENDER, None, "The narrator", ch.category,
                                                 required=0, total=ch.difficulty or 0)
        for side in self._characters():
            self._requirements(side)
        self._negative_calls()
        if bids_only:
            return
        for side in self._characters():
            self._check_bid(side)
        self._darkness()
        for side in self._characters():
            self._total(side)
            self._standing(side)
        self._relent()

    def _characters(self) -> list[_Side]:
        return [s for s in self.sides.values() if s.con is not None]

    def _header(self) -> None:
        ch, c = self.ch, self.ch.challenger
        action = ACTIONS[ch.action]

        def bids(con: Contestant) -> str:
            if con.relent and not con.bid:
                return f"{con.name} relents"
            return f"{con.name} bids {', '.join(con.bid) or 'no Trait'}"

        if ch.kind is Kind.CONTESTED:
            d = ch.defender
            assert d is not None
            text = (f"{c.name} challenges {d.name} ({ch.category.label}): {action['label'].lower()}. "
                    f"{bids(c)}; {bids(d)}.")
            if ch.defender_action != "defend":
                text += f" {d.name} answers: {ACTIONS[ch.defender_action]['label'].lower()}."
            self.steps.add(text, '002 "Challenges"')
        elif ch.kind is Kind.STATIC:
            self.steps.add(f"{c.name} makes a static {ch.category.label} challenge against a difficulty of "
                           f"{ch.difficulty} Traits; {bids(c)}.", R_STATIC)
        else:
            self.steps.add(f"{c.name} makes a simple test against a narrator"
                           + (" (the effect needs an outright win)." if ch.needs_win else "."), R_STATIC)

    def _contestant(self, key: Outcome, con: Contestant) -> _Side:
        p = key.value
        name = con.name.strip() if isinstance(con.name, str) else ""
        if not name:
            raise RulesError(f"The {p} needs a name.", field=f"{p}_name")
        for attr in ("traits", "willpower", "steps_moved", "extra_bid"):
            value = getattr(con, attr)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulesError(f"{name}: {attr} must be a whole number of at least 0.", field=f"{p}_{attr}")
        for attr in ("abilities", "merits"):
            for item, value in getattr(con, attr).items():
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise RulesError(f"{name}: {item} must have a whole number of at least 0 left.",
                                     field=f"{p}_{attr}")
        for attr in ("bonuses", "penalties"):
            for mod in getattr(con, attr):
                if isinstance(mod.traits, bool) or not isinstance(mod.traits, int) or mod.traits < 0:
                    raise RulesError(f"{name}: {mod.source} must be a whole number of Traits.", field=f"{p}_{attr}")
        for power in con.powers:
            if not isinstance(power, Power):
                raise RulesError(f"{name}: unknown power {power!r}.", field=f"{p}_powers")
        category = con.category or self.ch.category
        action = self.ch.action if key is Outcome.CHALLENGER else self.ch.defender_action
        if category is not self.ch.category and action != "weapon":
            raise RulesError(f"{name}: only an attacker with a weapon may bid from another category "
                             f"(LotNR Bidding Weapon Traits).", field=f"{p}_category")
        if action == "weapon" and con.weapon is None:
            raise RulesError(f"{name} attacks with a weapon: give its card.", field=f"{p}_weapon")
        if con.weapon is not None:
            w = con.weapon
            if w.damage_type not in DAMAGE_TYPES or isinstance(w.levels, bool) or not isinstance(w.levels, int) \
                    or w.levels < 1 or isinstance(w.bonus, bool) or not isinstance(w.bonus, int) or w.bonus < 0:
                raise RulesError(f"{name}: the weapon {w.name} needs bonus Traits (0+), a damage type "
                                 f"(bashing, lethal, aggravated) and at least 1 level.", field=f"{p}_weapon")
        if con.held or con.lost_earlier:
            held, lost = Counter(con.held), Counter(con.lost_earlier)
            if lost - held:
                raise RulesError(f"{name} cannot have lost {', '.join(sorted((lost - held).elements()))}: "
                                 f"not among the Traits held.", field=f"{p}_lost_earlier")
            left = sum((held - lost).values())
            if left != con.traits:
                raise RulesError(f"{name} has {left} {category.label} Traits left after those lost earlier "
                                 f"this game session, not {con.traits}.", field=f"{p}_traits")
        if con.declared is not None:
            if isinstance(con.declared, bool) or not isinstance(con.declared, int) or con.declared < 0:
                raise RulesError(f"{name}: declared Traits must be a whole number.", field=f"{p}_declared")
            if con.declared > con.traits:
                raise RulesError(f"{name} may under-declare but never over-declare: {con.declared} "
                                 f"declared, {con.traits} held (LotNR ties, met-reference 1.3).",
                                 field=f"{p}_declared")
        if con.health is Health.INCAPACITATED:
            raise RulesError(f"{name} is Incapacitated and takes part in no challenge until a health level "
                             f"is healed (LotNR Health, met-reference 4.1).", field=f"{p}_health")
        if con.steps_moved > 3 and category is Category.PHYSICAL:
            raise RulesError(f"{name} can move at most three steps and still act (LotNR three-step rule).",
                             field=f"{p}_steps_moved")
        health = con.health
        if health is Health.WOUNDED and Power.ENDURANCE in con.powers:
            health = Health.BRUISED
            self.steps.add(f"{name} is Wounded but has Endurance: only the Bruised penalty applies.", R_ENDURANCE)
        return _Side(key, con, name, category, health=health)

    def _requirements(self, side: _Side) -> None:
        con = side.con
        assert con is not None
        ch = self.ch
        if ch.kind is Kind.SIMPLE:
            side.required = None  # a simple test usually has no bid; any Traits bid are at risk
            return
        if con.relent:
            side.required = None
            return
        required = 0 if ch.category is Category.VIRTUE else 1
        if con.extra_bid:
            required += con.extra_bid
            self.steps.add(f"The narrator's difficulty makes {side.name} risk {con.extra_bid} more Trait(s).",
                           R_STATIC)
        if ch.category is not Category.VIRTUE:
            model = self.settings["wound_penalty_model"]
            if side.health is Health.WOUNDED or (model == "old_met" and side.health is Health.BRUISED):
                required += 1
                self.steps.add(f"{side.name} is {side.health.value.capitalize()} and must risk one more Trait.",
                               R_HEALTH if model == "lotnr" else R_WOUNDS_OLD, "wound_penalty_model")
        if con.off_hand:
            required += 2
            self.steps.add(f"{side.name} uses the off hand: two more Traits risked.", R_OFF_HAND)
        side.required = required
        potence = con.bid.count(POTENCE_TRAIT)
        if potence:
            if not (Power.INTENSITY in con.powers and ch.category is Category.PHYSICAL and con.lead is Lead.STRENGTH):
                raise RulesError(f"{side.name} may bid {POTENCE_TRAIT} only with Intensity, in a strength "
                                 f"challenge (LotNR Potence).", field=f"{side.prefix}_bid")
            if potence > 1:
                raise RulesError(f"{side.name} may bid {POTENCE_TRAIT} once.", field=f"{side.prefix}_bid")
            side.potence = True

    def _real_required(self, side: _Side) -> int:
        return (side.required or 0) - (1 if side.potence else 0)

    def _negative_calls(self) -> None:
        mode = self.settings["negative_trait_unmatched"]
        for index, call in enumerate(self.ch.negative_calls):
            where = f"negative_calls[{index}]"
            if call.by not in SIDES:
                raise RulesError("A Negative Trait call is made by the challenger or the defender.", field=where)
            if not isinstance(call.trait, str) or not call.trait.strip():
                raise RulesError("Name the Negative Trait called.", field=where)
            caller = self.sides[call.by]
            payer = self.sides[_other(call.by)] if call.correct else caller
            other = self.sides[_other(payer.key)]
            if payer.required is None:
                continue  # a relenting side risks nothing
            if call.correct:
                text = f"{caller.name} calls {call.trait} on {payer.name}, rightly"
            else:
                text = f"{caller.name} calls {call.trait}, which {other.name} does not have"
            if self._real_required(payer) + 1 <= payer.con.traits:
                payer.required += 1
                self.steps.add(f"{text}: {payer.name} must risk one more Trait.", R_NEGATIVE)
                continue
            payer.unmatched += 1
            if mode == "automatic_loss":
                self.steps.add(f"{text}, and {payer.name} has no Trait left to add: {payer.name} loses the "
                               f"challenge.", R_NEGATIVE, "negative_trait_unmatched")
                if self.auto_winner is None:
                    self.auto_winner = other.key
            elif payer.unmatched == 1:
                other.bid_safe = True
                self.steps.add(f"{text}, and {payer.name} has no Trait left to add: {other.name}'s bid is no "
                               f"longer at risk.", R_NEGATIVE, "negative_trait_unmatched")
            else:
                other.neg_bonus += 1
                self.steps.add(f"{text}, and {payer.name} still cannot add a Trait: {other.name} gains one "
                               f"Trait for ties and overbids.", R_NEGATIVE, "negative_trait_unmatched")

    def _check_bid(self, side: _Side) -> None:
        con = side.con
        assert con is not None
        p = side.prefix
        bid = [b.strip() if isinstance(b, str) else b for b in con.bid]
        if any(not isinstance(b, str) or not b for b in bid):
            raise RulesError(f"{side.name}: a Trait bid has no name.", field=f"{p}_bid")
        if con.relent:
            return
        real = [b for b in bid if not (side.potence and b == POTENCE_TRAIT)]
        if side.required is not None and len(bid) != side.required:
            if not bid:
                raise RulesError(f"The {p} must bid a Trait.", field=f"{p}_bid")
            raise RulesError(f"{side.name} must risk {side.required} Trait(s) here, not {len(bid)}.",
                             field=f"{p}_bid")
        if len(real) > con.traits:
            raise RulesError(
                f"{side.name} has only {con.traits} {side.category.label} Traits left "
                f"and cannot bid {len(real)}.",
                field=f"{p}_bid",
            )
        if con.held:
            free = Counter(con.held) - Counter(con.lost_earlier)
            for trait in real:
                if free[trait] < 1:
                    why = "lost it earlier this game session" if trait in con.lost_earlier else "does not have it"
                    raise RulesError(f"{side.name} cannot bid {trait}: {why}.", field=f"{p}_bid")
                free[trait] -= 1
            side.free = +free
        side.spare = con.traits - len(real)
        if side.potence:
            self.steps.add(f"{side.name} bids {POTENCE_TRAIT} with Intensity: it is never lost and does not "
                           f"count in ties.", R_INTENSITY)
        if side.bid_safe:
            side.at_risk = []
        else:
            side.at_risk = list(real)

    def _darkness(self) -> None:
        ch = self.ch
        scope = self.settings["darkness_scope"]
        attack = ACTIONS[ch.action]["attack"] or ACTIONS[ch.defender_action]["attack"]
        in_scope = scope == "all" or (scope == "sight" and ch.needs_sight) or (
            scope == "combat" and ch.category is Category.PHYSICAL and attack)
        for side in self._characters():
            dark = side.con.darkness
            if not isinstance(dark.level, DarknessLevel) or not isinstance(dark.source, DarknessSource):
                raise RulesError(f"{side.name}: unknown darkness level or source.", field=f"{side.prefix}_darkness")
            if dark.level is DarknessLevel.NONE:
                continue
            if not in_scope:
                self.steps.add(f"{side.name}'s darkness does not apply to this challenge "
                               f"({self.settings.label('darkness_scope')}).", R_DARK, "darkness_scope")
                continue
            if not any(step.setting == "darkness_scope" for step in self.steps.steps()):
                self.steps.add(f"Darkness applies here ({self.settings.label('darkness_scope')}).", R_DARK,
                               "darkness_scope")
            side.dark = darkness_effect(dark, self._abilities_left(side), self.settings, side.name,
                                        f"{side.prefix}_darkness")
            self.steps.extend(side.dark.steps)
            side.dark_forced = side.dark.forced_retest
            if dark.waive_retest and not dark.waived_this_turn:
                key = ability_named(side.con.abilities, dark.waive_retest)
                if key is None or side.con.abilities[key] < 1:
                    raise RulesError(f"{side.name} has no {dark.waive_retest} level left to expend against the "
                                     f"forced retest.", field=f"{side.prefix}_darkness")
        c, d = self.sides[Outcome.CHALLENGER], self.sides[Outcome.DEFENDER]
        if c.dark_forced and d.dark_forced:
            c.dark_forced = d.dark_forced = False
            self.steps.add("Both sides suffer the same total darkness: no forced retest for either.", R_DARK_DE)

    def _abilities_left(self, side: _Side) -> dict[str, int]:
        return {k: v - side.abilities_spent[k] for k, v in side.con.abilities.items()}

    def _total(self, side: _Side) -> None:
        con = side.con
        ch = self.ch
        if ch.kind is Kind.SIMPLE:
            return
        base = con.declared if con.declared is not None else con.traits
        terms = [f"{base} {side.category.label}" + (f" (declared of {con.traits})" if con.declared is not None else "")]
        total = base
        for mod in con.bonuses:
            total += mod.traits
            terms.append(f"+{mod.traits} {mod.source}")
        if con.weapon is not None and con.weapon.bonus:
            total += con.weapon.bonus
            terms.append(f"+{con.weapon.bonus} {con.weapon.name}")
        if side.neg_bonus:
            total += side.neg_bonus
            terms.append(f"+{side.neg_bonus} unmatched Negative Traits")
        for mod in con.penalties:
            total -= mod.traits
            terms.append(f"-{mod.traits} {mod.source}")
        if any(b.traits for b in con.bonuses) or (con.weapon is not None and con.weapon.bonus):
            self.steps.add(f"{side.name}'s bonus Traits count in ties and overbids but are never bid.", R_BONUS)
        if self.settings["wound_penalty_model"] == "lotnr" and side.health is Health.BRUISED \
                and ch.category is not Category.VIRTUE:
            total -= 1
            terms.append("-1 Bruised")
            self.steps.add(f"{side.name} is Bruised: one Trait down on ties.", R_HEALTH, "wound_penalty_model")
        if ch.category is Category.PHYSICAL and con.steps_moved >= 2:
            total -= 1
            terms.append("-1 moved")
            self.steps.add(f"{side.name} moved {con.steps_moved} steps: one Trait down.", R_MOVE)
        if side.dark is not None and side.dark.penalty:
            total -= side.dark.penalty
            terms.append(f"-{side.dark.penalty} darkness")
        if self.settings["trait_total_cap"] and con.generation is not None:
            row = generation_row(con.generation)
            if row is not None and total > 2 * row.max_traits:
                total = 2 * row.max_traits
                terms.append(f"capped at {total}")
                self.steps.add(f"{side.name} may claim at most twice the generation's Trait maximum: {total}.",
                               R_CAP, "trait_total_cap")
        side.total = max(0, total)
        side.terms = terms

    def _standing(self, side: _Side) -> None:
        con, ch = side.con, self.ch
        if ch.kind is Kind.SIMPLE:
            return
        physical = ch.category is Category.PHYSICAL
        if Power.PUISSANCE in con.powers and physical and con.lead is Lead.STRENGTH:
            side.standing += 1
            side.standing_why.append(f"{side.name} wins ties in tests of strength (Puissance)")
        surprised = side.key is Outcome.DEFENDER and ch.surprised
        if Power.FLEETNESS in con.powers and physical and con.lead is Lead.SPEED and not surprised:
            side.standing += 1
            side.standing_why.append(f"{side.name} wins ties in speed challenges (Fleetness)")
        if side.health is Health.WOUNDED and ch.category is not Category.VIRTUE:
            side.standing -= 1
            side.standing_why.append(f"{side.name} is Wounded and loses all ties")

    def _relent(self) -> None:
        relenting = [s for s in self._characters() if s.con.relent]
        if len(relenting) == 2:
            raise RulesError("Only one side can relent.", field="defender_relent")
        if relenting:
            side = relenting[0]
            self.auto_winner = _other(side.key)
            self.steps.add(f"{side.name} relents before the test: {side.name} loses the challenge and no Traits.",
                           R_RELENT)
        if self.auto_winner is not None and self.ch.tests:
            raise RulesError("No test is made: the challenge was decided before the test.", field="tests")

    # ----- the tests ---------------------------------------------------------

    def play(self, calls: Sequence[TestCall]) -> None:
        """Play ``calls`` in order, validating each (raises RulesError)."""
        for index, call in enumerate(calls):
            self._call(index, call)

    def _call(self, index: int, call: TestCall) -> None:
        f = f"tests[{index}]"
        if not isinstance(call, TestCall):
            raise RulesError("A test must say what is called.", field=f)
        if not isinstance(call.call, Call):
            raise RulesError(f"Unknown call {call.call!r}.", field=f"{f}.call")
        if self.auto_winner is not None:
            raise RulesError("No test is made: the challenge was decided before the test.", field="tests")
        if index == 0 and call.call is not Call.TEST:
            raise RulesError("The first test comes first: the first call must be 'test'.", field=f"{f}.call")
        if index > 0 and call.call is Call.TEST:
            raise RulesError("Only the first test is a plain test; later ones are overbids or retests.",
                             field=f"{f}.call")
        if self.finished and call.call is not Call.FORCED_RETEST:  # the darkness retest is automatic
            raise RulesError("Might was the last test of the challenge (LotNR Potence).", field=f)
        if self.forced_due is not None and call.call is not Call.FORCED_RETEST:
            raise RulesError(f"{self.sides[self.forced_due].name} won in total darkness and must first retest "
                             f"once (002 \"Darkness\").", field=f"{f}.call")
        if call.call is Call.TEST:
            self._judge(index, call, None)
        elif call.call is Call.FORCED_RETEST:
            side = self.forced_due
            if side is None:
                raise RulesError("No forced darkness retest is due here.", field=f"{f}.call")
            if call.by is not None and call.by is not side:
                raise RulesError(f"The forced retest is {self.sides[side].name}'s.", field=f"{f}.by")
            self.forced_due = None
            self.sides[side].forced_done = True
            self.steps.add(f"{self.sides[side].name} won in total darkness: the test is retested once.", R_DARK)
            self._judge(index, call, side)
        elif call.call is Call.OVERBID:
            self._overbid(index, call)
        else:
            self._retest(index, call)

    def _caller(self, index: int, call: TestCall) -> _Side:
        if call.by not in SIDES:
            raise RulesError("Say who calls it: challenger or defender.", field=f"tests[{index}].by")
        return self.sides[call.by]

    def _throws(self, index: int, call: TestCall) -> tuple[Throw, Throw]:
        f = f"tests[{index}]"
        if call.challenger_throw is None:
            raise RulesError(f"{self.sides[Outcome.CHALLENGER].name}'s throw is missing.",
                             field=f"{f}.challenger_throw")
        ct = parse_throw(call.challenger_throw, f"{f}.challenger_throw")
        narrator = self.sides[Outcome.DEFENDER].con is None
        if call.defender_throw is None:
            if narrator and self.rng is not None:
                dt = random_throw(self.rng)
                self.steps.add(f"The narrator throws {dt.label} (drawn at random).", R_STATIC)
            else:
                raise RulesError(f"{self.sides[Outcome.DEFENDER].name}'s throw is missing.",
                                 field=f"{f}.defender_throw")
        else:
            dt = parse_throw(call.defender_throw, f"{f}.defender_throw")
        for side, throw in ((Outcome.CHALLENGER, ct), (Outcome.DEFENDER, dt)):
            if throw is Throw.BOMB:
                if not _may_bomb(self.ch, side):
                    raise RulesError(f"{self.sides[side].name} cannot throw the Bomb: it needs Vigor in a strength "
                                     f"challenge or Rapidity in a speed challenge (and no surprise).",
                                     field=f"{f}.{side.value}_throw")
                self.steps.add(f"{self.sides[side].name} may throw the Bomb here.", R_BOMB)
        return ct, dt

    def _judge(self, index: int, call: TestCall, by: Outcome | None, **record: Any) -> None:
        ct, dt = self._throws(index, call)
        c, d = self.sides[Outcome.CHALLENGER], self.sides[Outcome.DEFENDER]
        result = compare_throws(ct, dt)
        if result > 0:
            winner = Outcome.CHALLENGER
            self.steps.add(f"{ct.label} beats {dt.label}: {c.name} wins the test.", R_TEST)
        elif result < 0:
            winner = Outcome.DEFENDER
            self.steps.add(f"{dt.label} beats {ct.label}: {d.name} wins the test.", R_TEST)
        elif self.ch.kind is Kind.SIMPLE:
            winner = Outcome.DEFENDER if self.ch.needs_win else Outcome.CHALLENGER
            self.steps.add(f"Both throw {ct.label}: a tie, which "
                           + ("fails: the effect needs a win." if self.ch.needs_win else "succeeds in a simple test."),
                           R_STATIC)
        else:
            winner = self._tie(ct)
        self.result = winner
        self.records.append(TestRecord(call.call, by, ct, dt, winner, **record))
        self._check_forced()

    def _tell_totals(self) -> None:
        if self.totals_told:
            return
        self.totals_told = True
        for side in self._characters():
            if len(side.terms) > 1:
                self.steps.add(f"{side.name} counts {side.total} Traits for ties and overbids: "
                               f"{', '.join(side.terms)}.", R_TIES)

    def _tie(self, throw: Throw) -> Outcome:
        c, d = self.sides[Outcome.CHALLENGER], self.sides[Outcome.DEFENDER]
        static = self.ch.kind is Kind.STATIC
        self.steps.add(
            f"Both throw {throw.label}: a tie. Compare current {self.ch.category.label} Traits"
            + (" against the narrator's difficulty" if static else "")
            + "; Traits bid still count until the challenge is resolved.",
            R_TIES,
        )
        why = "; ".join(c.standing_why + d.standing_why)
        rule = R_HEALTH if "Wounded" in why else (R_PUISSANCE if "Puissance" in why else R_FLEETNESS)
        if c.standing != d.standing:
            winner = Outcome.CHALLENGER if c.standing > d.standing else Outcome.DEFENDER
            self.steps.add(f"{why}: {self.sides[winner].name} wins the tie without comparing Traits.", rule)
            return winner
        if why:
            self.steps.add(f"{why}: these cancel out, so the Traits decide.", rule)
        self._tell_totals()
        if c.total > d.total:
            self.steps.add(f"{c.name} has {c.total} Traits against {d.name}'s {d.total}: {c.name} wins the tie.",
                           R_TIES)
            return Outcome.CHALLENGER
        if d.total > c.total:
            self.steps.add(f"{d.name} has {d.total} Traits against {c.name}'s {c.total}: {d.name} wins the tie.",
                           R_TIES)
            return Outcome.DEFENDER
        if static:
            if self.settings["static_equal_tie"] == "succeed":
                self.steps.add(f"{c.name}'s {c.total} Traits equal the difficulty: the attempt succeeds "
                               f"({self.settings.label('static_equal_tie')}).", R_TIES, "static_equal_tie")
                return Outcome.CHALLENGER
            self.steps.add(f"{c.name}'s {c.total} Traits equal the difficulty: a draw, so the attempt fails "
                           f"and the bid is lost.", R_TIES, "static_equal_tie")
            return Outcome.DRAW
        self.steps.add(f"Both have {c.total} Traits: a draw. Both sides lose the Traits they bid.", R_TIES)
        return Outcome.DRAW

    def _check_forced(self) -> None:
        winner = self.result
        if winner not in SIDES:
            return
        side = self.sides[winner]
        if not side.dark_forced or side.forced_done or side.con is None:
            return
        dark = side.con.darkness
        if dark.waive_retest:
            if dark.waived_this_turn:
                self.steps.add(f"{side.name} already expended {dark.waive_retest} this turn: no forced retest.",
                               R_DARK_DE)
            else:
                key = ability_named(side.con.abilities, dark.waive_retest)
                assert key is not None  # checked when the darkness was set up
                if self._abilities_left(side)[key] < 1:
                    self.steps.add(f"{side.name} has no {key} level left to expend: the forced retest applies.",
                                   R_DARK)
                    self.forced_due = winner
                    return
                side.abilities_spent[key] += 1
                self.steps.add(f"{side.name} expends a level of {key}: no forced retest of total darkness this "
                               f"turn.", R_DARK_DE)
            side.forced_done = True
            return
        self.forced_due = winner
        self.steps.add(f"{side.name} is in total darkness and won: the success must be retested once.", R_DARK)

    def _state_problem(self, side: _Side) -> str | None:
        if self.auto_winner is not None:
            return "The challenge was decided before the test."
        if self.result is None:
            return "The first test comes first."
        if self.finished:
            return "Might was the last test of the challenge."
        if self.forced_due is not None:
            return "The forced darkness retest comes first."
        if self.result is side.key:
            return f"{side.name} won the last test; only the side that lost it may call this."
        return None

    # ----- overbids ----------------------------------------------------------

    def _overbid_problem(self, side: _Side) -> str | None:
        """Why ``side`` may not call an overbid now (any Trait), or ``None``."""
        if self.ch.kind is Kind.SIMPLE:
            return "A simple test compares no Traits: no overbid."
        if self.ch.category is Category.VIRTUE:
            return "Overbids are forbidden on Virtue Tests (LotNR)."
        problem = self._state_problem(side)
        if problem:
            return problem
        if side.overbid_used:
            return f"{side.name} has already overbid in this challenge."
        if side.con is not None and (sum(side.free.values()) if side.free is not None else side.spare) < 1:
            return f"{side.name} has no Trait left to risk."
        return None

    def _overbid_trait_problem(self, side: _Side, trait: str) -> str | None:
        """Why ``side`` may not risk ``trait`` in an overbid, or ``None``."""
        if side.con is None:
            return "The narrator risks no Trait to overbid." if trait else None
        if not trait:
            return f"{side.name} must risk a new Trait to overbid (LotNR Overbidding)."
        if side.potence and trait == POTENCE_TRAIT:
            return f"{POTENCE_TRAIT} is already bid."
        if side.free is not None and side.free[trait] < 1:
            why = "lost earlier this game session" if trait in side.con.lost_earlier else "not a Trait left to risk"
            return f"{side.name} cannot risk {trait}: {why}."
        return None

    def _ratio(self, side: _Side) -> tuple[bool, str]:
        """Whether an overbid by ``side`` makes a new test, and the arithmetic."""
        other = self.sides[_other(side.key)]
        if side.health is Health.WOUNDED:
            return True, f"{side.name} is Wounded and may always overbid."
        ratio = float(self.settings["overbid_ratio"])
        need = ratio * other.total
        met = side.total >= need
        return met, (f"{side.name} has {side.total} Traits against {other.name}'s {other.total}: "
                     f"{'at least' if met else 'less than'} {ratio:g} times ({need:g}).")

    def _overbid(self, index: int, call: TestCall) -> None:
        f = f"tests[{index}]"
        side = self._caller(index, call)
        trait = call.trait.strip() if isinstance(call.trait, str) else ""
        problem = self._overbid_problem(side)
        if problem:
            raise RulesError(problem, field=f"{f}.by")
        problem = self._overbid_trait_problem(side, trait)
        if problem:
            raise RulesError(problem, field=f"{f}.trait")
        side.overbid_used = True
        self._tell_totals()
        met, text = self._ratio(side)
        lost_now = list(side.at_risk)
        side.lost += side.at_risk
        side.at_risk = []
        kept = f" {side.name}'s {', '.join(lost_now)} stays lost." if lost_now else ""
        risk = f"risks {trait} and " if trait else ""
        wounded = side.health is Health.WOUNDED
        if met:
            if side.con is not None:
                self._take(side, trait)
                side.at_risk = [trait]
            self.steps.add(f"{side.name} {risk}calls an overbid. {text} A new test is made.{kept}",
                           R_HEALTH if wounded else R_OVERBID, None if wounded else "overbid_ratio")
            self._judge(index, call, side.key, trait=trait)
            return
        if call.challenger_throw is not None or call.defender_throw is not None:
            raise RulesError(f"The overbid is refused ({text}): no new test is made, so give no throws.",
                             field=f"{f}.challenger_throw")
        self.steps.add(f"{side.name} {risk}calls an overbid. {text} No new test: the result stands.{kept}",
                       R_OVERBID, "overbid_ratio")
        if trait:
            if self.settings["overbid_trait_lost_on_refusal"]:
                self._take(side, trait)
                side.lost.append(trait)
                self.steps.add(f"{side.name} loses {trait} too.", R_OVERBID, "overbid_trait_lost_on_refusal")
            else:
                self.steps.add(f"{side.name} keeps {trait}: no test was made to risk it.", R_OVERBID,
                               "overbid_trait_lost_on_refusal")
        self.records.append(TestRecord(Call.OVERBID, side.key, None, None, self.result, made=False, trait=trait))

    def _take(self, side: _Side, trait: str) -> None:
        """Take ``trait`` out of the side's Traits free to risk."""
        if side.free is not None:
            side.free[trait] -= 1
        side.spare -= 1

    # ----- retests and cancels -----------------------------------------------

    def _payable(self, side: _Side, category: str, name: str) -> tuple[str | None, str]:
        """(problem, canonical name) for spending one unit of a source."""
        con = side.con
        if category == "ability":
            key = ability_named(con.abilities, name)
            if key is None:
                return f"{side.name} has no {name} Ability.", name
            if con.abilities[key] - side.abilities_spent[key] < 1:
                return f"{side.name} has no {key} levels left this game session.", key
            return None, key
        if category == "willpower":
            if con.willpower - side.willpower_spent < 1:
                return f"{side.name} has no Willpower left.", name
            return None, name
        if category == "merit":
            key = next((m for m in con.merits if m.lower() == name.lower()), None)
            if key is None:
                return f"{side.name} has no {name} Merit.", name
            if con.merits[key] - side.merits_spent[key] < 1:
                return f"{side.name} has no uses of {key} left.", key
            return None, key
        if Power.MIGHT not in con.powers:
            return f"{side.name} does not have Might (Potence).", name
        return None, name

    def _pay(self, side: _Side, category: str, name: str) -> None:
        if category == "ability":
            side.abilities_spent[name] += 1
        elif category == "willpower":
            side.willpower_spent += 1
        elif category == "merit":
            side.merits_spent[name] += 1

    def _retest_problem(self, side: _Side, category: str, name: str) -> tuple[str | None, str]:
        """(why ``side`` may not retest from this source now or ``None``, the source's canonical name)."""
        if side.con is None:
            return "The narrator has no retest sources.", name
        problem = self._state_problem(side)
        if problem:
            return problem, name
        problem, name = self._payable(side, category, name)
        if problem:
            return problem, name
        ch, con = self.ch, side.con
        if category == "ability" and name.lower() == "blindfighting" and side.dark is None:
            return "Blindfighting is a valid retest only in darkness (002 \"Darkness\").", name
        if category == "ability" and name.lower() == "dodge" and ch.kind is Kind.CONTESTED:
            opponent_action = ch.defender_action if side.key is Outcome.CHALLENGER else ch.action
            if not ACTIONS[opponent_action]["attack"]:
                return ("Dodge retests only when defending against an attack the character can see or sense "
                        "(met-reference 2.1, 3.6)."), name
        if category == "willpower" and self.settings["willpower_retest_scope"] == "defend_mental_social":
            if not (side.key is Outcome.DEFENDER and ch.kind is Kind.CONTESTED
                    and ch.category in (Category.MENTAL, Category.SOCIAL)):
                return (f"Willpower buys a retest only when defending against a Mental or Social challenge "
                        f"({self.settings.label('willpower_retest_scope')})."), name
        if category == "power" and not (ch.category is Category.PHYSICAL and con.lead is Lead.STRENGTH):
            return "Might works only in challenges of sheer strength (LotNR Potence).", name
        mode = self.settings["retest_limit_mode"]
        if mode == "per_source" and _source_key(category, name).lower() in side.used:
            return (f"{side.name} has already retested with {name} in this challenge "
                    f"({self.settings.label('retest_limit_mode')})."), name
        if mode == "per_category" and f"category:{category}" in side.used:
            return (f"{side.name} has already retested from the {category} category in this challenge "
                    f"({self.settings.label('retest_limit_mode')})."), name
        return None, name

    def _cancel_problem(self, side: _Side, retest: tuple[str, str], category: str, name: str) -> tuple[str | None, str]:
        """(why ``side`` may not cancel ``retest`` with this source or ``None``, the source's canonical name)."""
        if side.con is None:
            return "The narrator cannot cancel retests.", name
        if retest[0] == "power":
            return "Might is the last test of the challenge and cannot be cancelled (LotNR Potence).", name
        if retest[0] == "willpower" and not self.settings["willpower_retest_cancellable"]:
            return (f"A Willpower retest cannot be cancelled "
                    f"({self.settings.label('willpower_retest_cancellable')})."), name
        if category == "power":
            return "Might is a retest, not a cancel.", name
        problem, name = self._payable(side, category, name)
        if problem:
            return problem, name
        if self.settings["cancel_match_mode"] == "same_category" and category != retest[0]:
            return (f"A cancel must come from the same category as the retest "
                    f"({self.settings.label('cancel_match_mode')})."), name
        return None, name

    def _retest(self, index: int, call: TestCall) -> None:
        f = f"tests[{index}]"
        side = self._caller(index, call)
        category, name = parse_source(call.source, f"{f}.source")
        problem, name = self._retest_problem(side, category, name)
        if problem:
            raise RulesError(problem, field=f"{f}.source")
        label = _source_key(category, name)
        self._pay(side, category, name)
        side.used.add(label.lower())
        side.used.add(f"category:{category}")
        lost_now = list(side.at_risk)
        side.lost += side.at_risk
        side.at_risk = []
        what = {"ability": f"expends a level of {name}", "willpower": "spends a Willpower Trait",
                "merit": f"uses {name}", "power": "uses Might"}[category]
        kept = f" {side.name} still loses {', '.join(lost_now)}, lost on that test." if lost_now else ""
        if category == "willpower":
            setting = "willpower_retest_scope"
            rule = R_RETEST if self.settings[setting] == "defend_mental_social" else R_RETEST_DE
        else:
            setting = "retest_limit_mode"
            rule = R_RETEST if self.settings[setting] == "per_source" else R_RETEST_DE
        self.steps.add(f"{side.name} {what} to retest.{kept}", rule, setting)
        if call.cancel:
            other = self.sides[_other(side.key)]
            ccat, cname = parse_source(call.cancel, f"{f}.cancel")
            problem, cname = self._cancel_problem(other, (category, name), ccat, cname)
            if problem:
                raise RulesError(problem, field=f"{f}.cancel")
            if call.challenger_throw is not None or call.defender_throw is not None:
                raise RulesError("The retest is cancelled: no new test is made, so give no throws.",
                                 field=f"{f}.challenger_throw")
            self._pay(other, ccat, cname)
            self.steps.add(f"{other.name} cancels the retest with {cname}: the first result stands.",
                           R_RETEST if self.settings["cancel_match_mode"] == "conditions" else R_RETEST_DE,
                           "cancel_match_mode")
            self.records.append(TestRecord(Call.RETEST, side.key, None, None, self.result, made=False,
                                           source=label, cancel=_source_key(ccat, cname)))
            return
        if category == "power":
            self.finished = True
            self.steps.add("Might is the last test of the challenge.", R_MIGHT)
        self._judge(index, call, side.key, source=label)

    # ----- results -----------------------------------------------------------

    def _sources(self, side: _Side, with_might: bool) -> list[tuple[str, str]]:
        con = side.con
        out = [("ability", a) for a in con.abilities] + [("willpower", "Willpower")]
        out += [("merit", m) for m in con.merits]
        if with_might and Power.MIGHT in con.powers:
            out.append(("power", "Might"))
        return out

    def options(self) -> ChallengeOptions:
        """What each side may do next (see :func:`challenge_options`)."""
        done = self.auto_winner is not None or self.finished
        retests: dict[Outcome, list[tuple[str, str]]] = {
            side.key: [s for s in self._sources(side, True) if self._retest_problem(side, *s)[0] is None]
            for side in self._characters()
        }
        out = []
        for side in self._characters():
            problem = self._overbid_problem(side)
            makes, note = self._ratio(side) if problem is None else (False, problem)
            cancels: dict[str, tuple[str, ...]] = {}
            for retest in retests.get(_other(side.key), []):
                ok = tuple(_source_key(*c) for c in self._sources(side, False)
                           if self._cancel_problem(side, retest, *c)[0] is None)
                if ok:
                    cancels[_source_key(*retest)] = ok
            out.append(SideOptions(side.key, tuple(_source_key(*r) for r in retests[side.key]),
                                   problem is None, problem is None and makes, note, cancels))
        current = None if self.auto_winner is not None else self.result
        return ChallengeOptions(current, done, self.forced_due, tuple(out))

    def ruling(self) -> ChallengeRuling:
        """The final ruling (raises RulesError if the script is incomplete)."""
        ch = self.ch
        if self.forced_due is not None:
            raise RulesError(f"{self.sides[self.forced_due].name} won in total darkness: add the forced retest's "
                             f"throws.", field="tests")
        if self.auto_winner is None and self.result is None:
            raise RulesError("The challenge needs its first test's throws.", field="tests")
        winner = self.auto_winner if self.auto_winner is not None else self.result
        assert winner is not None
        relented = any(s.con.relent for s in self._characters())
        losers = list(SIDES) if winner is Outcome.DRAW else [_other(winner)]
        if not relented:
            for key in losers:
                side = self.sides[key]
                side.lost += side.at_risk
                side.at_risk = []
        c, d = self.sides[Outcome.CHALLENGER], self.sides[Outcome.DEFENDER]
        lost = tuple(TraitsLost(s.key, tuple(s.lost)) for s in (c, d) if s.lost)
        if winner is Outcome.DRAW and (c.lost or d.lost):
            self.steps.add("Draw: " + ", ".join(f"{s.name} loses {', '.join(s.lost)}" for s in (c, d) if s.lost)
                           + " for the rest of the game session.", R_TIES)
        else:
            for side in (c, d):
                if side.lost:
                    earlier = " (lost on a test it then retested or overbid)" if side.key == winner else ""
                    self.steps.add(f"{side.name} loses {', '.join(side.lost)} for the rest of the game "
                                   f"session{earlier}.", R_OUTCOME)
        damage: list[DamageDealt] = []
        if ch.kind is Kind.CONTESTED and winner in SIDES:
            damage = self._damage(winner)
        if ch.kind is Kind.CONTESTED:
            outcome = winner
            head = "Draw" if winner is Outcome.DRAW else f"{self.sides[winner].name} wins"
        else:
            outcome = Outcome.SUCCESS if winner is Outcome.CHALLENGER else Outcome.FAILURE
            head = f"{c.name} {'succeeds' if outcome is Outcome.SUCCESS else 'fails'}"
            self.steps.add(f"{c.name} {'succeeds' if outcome is Outcome.SUCCESS else 'fails'}.", R_STATIC)
        parts = []
        for s in (c, d):
            hurt = [f"takes {x.levels} {x.damage_type}" for x in damage if x.target is s.key]
            said = ([f"loses {', '.join(s.lost)}"] if s.lost else []) + hurt
            if said:
                parts.append(f"{s.name} {' and '.join(said)}")
        summary = head + (": " + ", ".join(parts) if parts else "") + "."
        spent = tuple(
            Spent(s.key, tuple(sorted((+s.abilities_spent).items())), s.willpower_spent,
                  tuple(sorted((+s.merits_spent).items())))
            for s in (c, d) if s.con is not None and (+s.abilities_spent or s.willpower_spent or +s.merits_spent)
        )
        totals = {} if ch.kind is Kind.SIMPLE else {Outcome.CHALLENGER: c.total, Outcome.DEFENDER: d.total}
        first = self.records[0] if self.records else None
        return ChallengeRuling(
            outcome=outcome,
            challenger_throw=first.challenger_throw if first else None,
            defender_throw=first.defender_throw if first else None,
            traits_lost=lost,
            damage=tuple(damage),
            steps=self.steps.steps(),
            summary=summary,
            kind=ch.kind,
            tests=tuple(self.records),
            spent=spent,
            totals=totals,
        )

    def _damage(self, winner: Outcome) -> list[DamageDealt]:
        ch = self.ch
        side, target = self.sides[winner], self.sides[_other(winner)]
        key = ch.action if winner is Outcome.CHALLENGER else ch.defender_action
        action = ACTIONS[key]
        if not action["attack"]:
            if winner is Outcome.DEFENDER and ACTIONS[ch.action]["attack"]:
                self.steps.add(f"{target.name}'s attack misses.", R_COMBAT)
            return []
        if winner is Outcome.DEFENDER:
            if ch.surprised:
                self.steps.add(f"{side.name} was surprised: this first challenge can only harm him, so his win "
                               f"only stops the attack.", R_SURPRISE)
                return []
            if self.settings["combat_resolution"] == "sequential":
                self.steps.add(f"{side.name}'s win stops the attack; the counter-attack is its own challenge "
                               f"({self.settings.label('combat_resolution')}).", R_COMBAT, "combat_resolution")
                return []
            self.steps.add(f"One test for both: the winner hits, so {side.name}'s counter-attack lands "
                           f"({self.settings.label('combat_resolution')}).", '002 "Challenges"', "combat_resolution")
        if key == "weapon":
            weapon = side.con.weapon
            assert weapon is not None
            hit = DamageDealt(target.key, weapon.damage_type, weapon.levels, f"{weapon.name} card (met-reference 3.7)")
            self.steps.add(f"The {weapon.name} inflicts {weapon.levels} level(s) of {weapon.damage_type} damage. "
                           f"{target.name} takes it.", hit.rule)
        else:
            hit = DamageDealt(target.key, action["damage_type"], action["levels"], action["rule"])
            self.steps.add(f"{action['text']} {target.name} takes it.", action["rule"])
        return [hit]


def rule_challenge(
    challenge: Challenge,
    settings: ChronicleSettings | None = None,
    rng: RandomSource | None = None,
) -> ChallengeRuling:
    """Rule on a complete challenge script.

    Bids (LotNR Initial Bid, met-reference 1.1): each side risks one Trait of
    the category (none in a simple test or a Virtue Test), plus one if Wounded
    (Bruised too under the older model, setting ``wound_penalty_model``), one
    per Negative Trait rightly called on it or wrongly called by it (a side
    that cannot add one: setting ``negative_trait_unmatched``), two for the
    off hand, and a narrator's extra difficulty. ``bid`` must hold exactly
    that many names, all Traits still held this game session. A side may
    relent before the test: it loses the challenge and no Traits.

    Tests: rock, paper, scissors; the Bomb only with Vigor (strength) or
    Rapidity (speed) (met-reference 1.2). A tied throw (002 "Ties"): a side
    that wins ties (Puissance in strength, Fleetness in speed) beats one that
    does not, a Wounded side loses ties (Endurance treats Wounded as Bruised),
    and when both or neither win ties, the Traits decide: current Traits (bids
    still count) plus bonus Traits (weapon, cover, specialisation; never bid)
    minus penalties (Bruised, two or three steps moved, darkness), capped at
    twice the generation's maximum (setting ``trait_total_cap``). Equal is a
    draw in which both lose their bids; in a static challenge the narrator's
    difficulty is the count (setting ``static_equal_tie``); in a simple test a
    tie succeeds unless the effect needs a win (met-reference 1.6).

    Overbids (LotNR Overbidding, 1.5): only the loser of the last test, once
    per challenge, risking a new Trait; a new test only if its Traits are at
    least ``overbid_ratio`` times the opponent's (Wounded: always); the Trait
    lost on the first test stays lost; a refused overbid's Trait per setting
    ``overbid_trait_lost_on_refusal``. A narrator may overbid in a static
    challenge. Retests (LotNR Retests, 2.1; Dark Epics, 2.2): only the loser of
    the last test, from an Ability level it still has (Blindfighting only in
    darkness; Dodge only against an attack), Willpower (setting
    ``willpower_retest_scope``), Might (strength; always the last test) or a
    Merit's use; once per source or per category (``retest_limit_mode``); the
    opponent may cancel by spending a matching source (``cancel_match_mode``;
    Willpower per ``willpower_retest_cancellable``; Might never); the retester
    still loses the Traits lost on the test it retests. Total darkness forces
    one retest of each side's first success unless the opponent is in the
    same darkness or an Ability level is expended (002 "Darkness",
    :mod:`larp.rules.darkness`, setting ``darkness_scope``).

    Outcome: the final loser loses the Traits still at risk (both on a draw).
    A won attack deals its damage (a bare-handed strike 1 bashing, a bite 1
    aggravated, a weapon its card); a defender who declared a counter-attack
    and wins hits back (setting ``combat_resolution``), unless surprised.

    Args:
        challenge: the setup and the tests, first test first.
        settings: the chronicle's settings (defaults if ``None``).
        rng: a random source for the narrator's throws left out of a static
            challenge or simple test.

    Returns:
        The ruling: outcome, Traits lost and resources spent per side, damage,
        each test, the totals compared and the steps.

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field
            (``challenger_bid``, ``tests[2].source``...): an unknown sign, the
            Bomb without its power, a wrong number of Traits bid or one lost
            earlier, a call by the wrong side, a retest from a source the
            character does not have or has nothing left of, a cancel that does
            not match, a missing forced retest, an incomplete script.
    """
    run = _Run(challenge, settings or ChronicleSettings.defaults(), rng)
    run.play(challenge.tests)
    return run.ruling()


def resolve_challenge(
    challenge: Challenge,
    challenger_throw: Throw,
    defender_throw: Throw,
    settings: ChronicleSettings | None = None,
) -> ChallengeRuling:
    """Resolve a challenge decided by one test: the simple case.

    The same rules as :func:`rule_challenge` with ``challenge.tests`` set to
    the one test ``(challenger_throw, defender_throw)``: rock-paper-scissors
    (met-reference 1.2); the winner's outcome happens and the loser's bid
    Traits are lost for the game session (met-reference 1.3); a tied throw
    compares Traits, bids still counting, fewer loses and equal is a draw in
    which both lose their bids (002 "Ties"). A won strike inflicts one level
    of bashing damage on the defender (002 "Damage and Healing").

    Args:
        challenge: the two sides, the category and the action attempted; its
            ``tests`` must be empty.
        challenger_throw, defender_throw: the throws made (draw random ones
            with :func:`random_throw` before calling).
        settings: the chronicle's settings (defaults if ``None``).

    Returns:
        The ruling: outcome, Traits lost per side, damage dealt, and the steps.

    Raises:
        RulesError: as :func:`rule_challenge`, e.g. an unknown action, a side
            without a bid, or a bid of more Traits than the side has.
    """
    if challenge.tests:
        raise RulesError("resolve_challenge takes the throws of a single test; use rule_challenge for a script.",
                         field="tests")
    script = replace(challenge, tests=(TestCall(Call.TEST, challenger_throw, defender_throw),))
    return rule_challenge(script, settings)


def challenge_options(challenge: Challenge, settings: ChronicleSettings | None = None) -> ChallengeOptions:
    """What each side may still do after the tests so far (for the UI's buttons).

    Plays ``challenge.tests`` (which may stop anywhere, even before the first
    test or before a forced retest), then lists for each character the retest
    sources it may call now, can pay for and may still use under
    ``retest_limit_mode``; whether it may overbid and whether the ratio would
    make a new test; and which of its sources could cancel each retest the
    opponent may call. Rules as :func:`rule_challenge`.

    Raises:
        RulesError: the tests so far are not legal (as :func:`rule_challenge`).
    """
    run = _Run(challenge, settings or ChronicleSettings.defaults(), None)
    run.play(challenge.tests)
    return run.options()


def play_challenge(
    challenge: Challenge, settings: ChronicleSettings | None = None, rng: RandomSource | None = None
) -> tuple[ChallengeOptions, ChallengeRuling | None, tuple[Step, ...]]:
    """Play the tests so far once: what may follow, the ruling if the script is complete, and the steps.

    The ruling is ``None`` while the script cannot end yet (a forced darkness
    retest is due, or the first test is missing); the steps then explain the
    challenge so far. Rules as :func:`rule_challenge` and :func:`challenge_options`.

    Raises:
        RulesError: the tests so far are not legal (as :func:`rule_challenge`).
    """
    run = _Run(challenge, settings or ChronicleSettings.defaults(), rng)
    run.play(challenge.tests)
    options = run.options()
    if run.forced_due is not None or (run.auto_winner is None and run.result is None):
        return options, None, run.steps.steps()
    ruling = run.ruling()
    return options, ruling, ruling.steps


def bids_required(challenge: Challenge, settings: ChronicleSettings | None = None) -> dict[Outcome, int | None]:
    """How many Traits each character side must bid, before any bid is checked.

    One, plus one if Wounded, one per Negative Trait rightly called on it or
    wrongly called by it, two for the off hand, and a narrator's extra
    difficulty (LotNR Initial Bid, met-reference 1.1); ``None`` for a side
    that relents or in a simple test (no bid). The UI uses it to pick the
    extra Traits a side risks; the narrator's side is not listed.

    Raises:
        RulesError: a setup the rules cannot adjudicate (as :func:`rule_challenge`).
    """
    run = _Run(challenge, settings or ChronicleSettings.defaults(), None, bids_only=True)
    return {side.key: side.required for side in run._characters()}


# ----- JSON-like data in and out ---------------------------------------------


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (frozenset, set)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def challenge_to_dict(challenge: Challenge) -> dict[str, Any]:
    """The challenge script as JSON-ready data; :func:`challenge_from_dict` reads it back."""
    return _plain(challenge)


def _known(data: Any, cls: type, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise RulesError(f"{where or 'The challenge'} must be an object.", field=where or "challenge")
    unknown = sorted(set(data) - {f.name for f in fields(cls)})
    if unknown:
        name = f"{where}_{unknown[0]}" if where else unknown[0]
        raise RulesError(f"Unknown field {unknown[0]!r}.", field=name)
    return data


def _enum(cls: type[StrEnum], value: Any, where: str) -> Any:
    if isinstance(value, cls):
        return value
    choices = ", ".join(m.value for m in cls)
    if not isinstance(value, str):
        raise RulesError(f"{value!r} is not one of: {choices}.", field=where)
    try:
        return cls(value.strip().lower())
    except ValueError:
        raise RulesError(f"{value!r} is not one of: {choices}.", field=where) from None


def _int(value: Any, where: str, optional: bool = False) -> int | None:
    return whole_number(value, where, low=0, default=None if optional else REQUIRED, text=False)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise RulesError("Give true or false.", field=where)
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RulesError("Give a text.", field=where)
    return value.strip()


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RulesError("Give a list of names.", field=where)
    return tuple(v.strip() for v in value)


def _levels(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise RulesError("Give an object of name to number.", field=where)
    return {str(k): _int(v, where) for k, v in value.items()}


def _side_from_dict(data: Any, side: str, sep: str = "_") -> Contestant:
    data = _known(data, Contestant, side)
    f = lambda key: f"{side}{sep}{key}"  # noqa: E731 - a field name, as the core names it
    held = _names(data.get("held", []), f("held"))
    lost = _names(data.get("lost_earlier", []), f("lost_earlier"))
    if "traits" in data:
        traits = _int(data["traits"], f("traits"))
    elif held:
        traits = sum((Counter(held) - Counter(lost)).values())
    else:
        raise RulesError(f"Give the {side}'s current Traits (or the Traits held).", field=f("traits"))
    kwargs: dict[str, Any] = {"name": _text(data.get("name", ""), f("name")), "traits": traits,
                              "bid": _names(data.get("bid", []), f("bid")), "held": held, "lost_earlier": lost}
    if "declared" in data:
        kwargs["declared"] = _int(data["declared"], f("declared"), optional=True)
    for key in ("bonuses", "penalties"):
        mods = data.get(key, [])
        if not isinstance(mods, list):
            raise RulesError("Give a list of {source, traits}.", field=f(key))
        kwargs[key] = tuple(
            Modifier(_text(_known(m, Modifier, f(key)).get("source", ""), f(key)), _int(m.get("traits"), f(key)))
            for m in mods
        )
    if data.get("weapon") is not None:
        w = _known(data["weapon"], Weapon, f("weapon"))
        kwargs["weapon"] = Weapon(_text(w.get("name", ""), f("weapon")), _int(w.get("bonus", 0), f("weapon")),
                                  _text(w.get("damage_type", ""), f("weapon")), _int(w.get("levels"), f("weapon")))
    if "health" in data:
        kwargs["health"] = _enum(Health, data["health"], f("health"))
    if "powers" in data:
        if not isinstance(data["powers"], (list, tuple)):
            raise RulesError("Give a list of powers.", field=f("powers"))
        kwargs["powers"] = frozenset(_enum(Power, p, f("powers")) for p in data["powers"])
    if "lead" in data:
        kwargs["lead"] = _enum(Lead, data["lead"], f("lead"))
    if data.get("category") is not None:
        kwargs["category"] = _enum(Category, data["category"], f("category"))
    for key in ("abilities", "merits"):
        if key in data:
            kwargs[key] = _levels(data[key], f(key))
    for key in ("willpower", "generation", "steps_moved", "extra_bid"):
        if key in data:
            kwargs[key] = _int(data[key], f(key), optional=key == "generation")
    for key in ("off_hand", "relent"):
        if key in data:
            kwargs[key] = _bool(data[key], f(key))
    if data.get("darkness") is not None:
        dk = _known(data["darkness"], Darkness, f("darkness"))
        kwargs["darkness"] = Darkness(
            level=_enum(DarknessLevel, dk.get("level", "none"), f("darkness")),
            source=_enum(DarknessSource, dk.get("source", "natural"), f("darkness")),
            reductions=_names(dk.get("reductions", []), f("darkness")),
            waive_retest=_text(dk.get("waive_retest", ""), f("darkness")),
            waived_this_turn=_bool(dk.get("waived_this_turn", False), f("darkness")),
        )
    return Contestant(**kwargs)


def _by(value: Any, where: str) -> Outcome | None:
    if value is None:
        return None
    side = _enum(Outcome, value, where)
    if side not in SIDES:
        raise RulesError("Give challenger or defender.", field=where)
    return side


def challenge_from_dict(data: Mapping[str, Any]) -> Challenge:
    """Read a challenge script from JSON-like data (the stateless API's input).

    The keys are the dataclass fields (:class:`Challenge`, :class:`Contestant`,
    :class:`TestCall`, :class:`NegativeCall`, :class:`Darkness`, :class:`Modifier`,
    :class:`Weapon`); enums are their values (``"physical"``, ``"rock"``...).
    A side may give ``held`` and ``lost_earlier`` and leave out ``traits``.
    ``action`` defaults to ``"strike"`` in a contested challenge and ``"other"``
    otherwise. The rules themselves are checked by :func:`rule_challenge`.
    An example (met-reference T5: a Firearms retest)::

        {"category": "physical", "action": "weapon",
         "challenger": {"name": "Daron", "traits": 7, "bid": ["Wily"], "category": "mental",
                        "weapon": {"name": "pistol", "bonus": 2, "damage_type": "lethal", "levels": 2},
                        "abilities": {"Firearms": 2}},
         "defender": {"name": "Michael", "traits": 8, "bid": ["Quick"]},
         "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
                   {"call": "retest", "by": "challenger", "source": "ability:Firearms",
                    "challenger_throw": "scissors", "defender_throw": "paper"}]}

    Raises:
        RulesError: a missing or malformed value, naming the field
            (``category``, ``challenger_bid``, ``tests[1].challenger_throw``...).
    """
    data = _known(data, Challenge, "")
    if "category" not in data:
        raise RulesError("Give the challenge's category.", field="category")
    kind = _enum(Kind, data.get("kind", "contested"), "kind")
    if data.get("challenger") is None:
        raise RulesError("Give the challenger.", field="challenger")
    calls = test_calls_from_list(data.get("tests", []), "tests")
    negatives = data.get("negative_calls", [])
    if not isinstance(negatives, list):
        raise RulesError("Give a list of Negative Trait calls.", field="negative_calls")
    calls_neg = []
    for index, raw in enumerate(negatives):
        where = f"negative_calls[{index}]"
        n = _known(raw, NegativeCall, where)
        by = _by(n.get("by"), where)
        if by is None:
            raise RulesError("Say who calls the Negative Trait.", field=where)
        calls_neg.append(NegativeCall(by, _text(n.get("trait", ""), where), _bool(n.get("correct"), where)))
    return Challenge(
        category=_enum(Category, data["category"], "category"),
        challenger=_side_from_dict(data["challenger"], "challenger"),
        defender=None if data.get("defender") is None else _side_from_dict(data["defender"], "defender"),
        action=_text(data.get("action", "strike" if kind is Kind.CONTESTED else "other"), "action"),
        kind=kind,
        defender_action=_text(data.get("defender_action", "defend"), "defender_action"),
        difficulty=_int(data.get("difficulty"), "difficulty", optional=True),
        needs_win=_bool(data.get("needs_win", False), "needs_win"),
        needs_sight=_bool(data.get("needs_sight", True), "needs_sight"),
        surprised=_bool(data.get("surprised", False), "surprised"),
        negative_calls=tuple(calls_neg),
        tests=tuple(calls),
    )


def contestant_from_dict(data: Mapping[str, Any], where: str) -> Contestant:
    """Read one side from JSON-like data (the keys of :class:`Contestant`).

    Used by the mass challenge and the shot into a group (:mod:`larp.rules.mass_combat`,
    :mod:`larp.rules.firing_into_groups`), whose sides are contestants too.
    A side may give ``held`` and ``lost_earlier`` and leave out ``traits``.

    Raises:
        RulesError: a missing or malformed value; ``field`` is ``<where>.<key>``.
    """
    return _side_from_dict(data, where, ".")


def test_calls_from_list(data: Any, where: str) -> tuple[TestCall, ...]:
    """Read a list of tests (the keys of :class:`TestCall`; throws as ``"rock"``...).

    Raises:
        RulesError: not a list, or a malformed test; ``field`` is ``<where>[i].<key>``.
    """
    if not isinstance(data, list):
        raise RulesError("Give a list of tests.", field=where)
    calls = []
    for index, raw in enumerate(data):
        at = f"{where}[{index}]"
        t = _known(raw, TestCall, at)
        throws = {}
        for key in ("challenger_throw", "defender_throw"):
            throws[key] = None if t.get(key) is None else parse_throw(t[key], f"{at}.{key}")
        calls.append(TestCall(
            call=_enum(Call, t.get("call", "test"), f"{at}.call"),
            by=_by(t.get("by"), f"{at}.by"),
            source=_text(t.get("source", ""), f"{at}.source"),
            cancel=_text(t.get("cancel", ""), f"{at}.cancel"),
            trait=_text(t.get("trait", ""), f"{at}.trait"),
            **throws,
        ))
    return tuple(calls)
