"""The words of a challenge: categories, throws, outcomes, sides, powers, leads, calls,
and how the explanation cites its sources (met-reference 1-3; seed 002).

Part of :mod:`larp.rules.challenge` (the package's ``__init__`` says what is where).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol, Sequence

from larp.rules.explain import N_, Phrase, RulesError

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
R_ONE_PER_TURN = "Dark Epics p.71: one Physical challenge per target per turn (met-reference 3.1)"
R_SPEED = "LotNR weapons: Speed (met-reference 3.7); 002 \"Challenges\""
R_SPEED_DE = "Dark Epics weapons: Speed (met-reference 3.7)"
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
R_SPECIALISATION = "LotNR Abilities: specialisations (met-reference 1.3)"
R_FRENZY = "LotNR Frenzy (met-reference 4.1)"


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
    """A throw in the test. The Bomb exists only where a power allows it (LotNR The Test,
    Vigor and Rapidity; met-reference 1.2)."""

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
    simple tests, where the other side is a narrator (LotNR Outcomes, Static Challenges;
    met-reference 1.3, 1.6).
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
    """A step in the test sequence (LotNR The Test, Overbidding, Retests, Surprise;
    met-reference 1.2, 1.5, 2.1, 3.1; 002 "Darkness")."""

    TEST = "test"
    OVERBID = "overbid"
    RETEST = "retest"
    FORCED_RETEST = "forced_retest"
    SECOND_CHALLENGE = "second_challenge"


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
        raise RulesError(Phrase.message(N_("%(value)s is not a throw: use rock, paper, scissors or bomb."), value=repr(value)),
                         field=field_name)
    text = value.strip().lower()
    if not text:
        raise RulesError(Phrase.message(N_("Choose a throw: rock, paper or scissors.")), field=field_name)
    try:
        return Throw(text)
    except ValueError:
        raise RulesError(
            Phrase.message(N_("%(value)s is not a throw: use rock, paper, scissors or bomb."), value=repr(value)),
            field=field_name
        ) from None


def random_throw(rng: RandomSource, allowed: Sequence[Throw] = BASIC_THROWS) -> Throw:
    """A narrator character's random throw, drawn from ``rng``.

    ``rng`` is injected (``random.Random(seed)`` in tests and replays), so the
    draw can be repeated. ``allowed`` is the set of throws the character may
    make (see :func:`allowed_throws`).
    """
    return rng.choice(list(allowed))


def compare_throws(first: Throw, second: Throw) -> int:
    """1 if ``first`` beats ``second``, -1 if it loses, 0 on a tie (same throw) (LotNR The Test,
    met-reference 1.2; :data:`BEATS`)."""
    if first == second:
        return 0
    if second in BEATS[first]:
        return 1
    if first in BEATS[second]:
        return -1
    raise AssertionError(f"no beats-table entry for {first} against {second}")  # table is total


def other_side(side: Outcome) -> Outcome:
    """The opponent of ``side`` in a challenge: the defender's is the challenger, the challenger's
    the defender (LotNR Initial Bid, met-reference 1.1)."""
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
        Phrase.message(N_("%(value)s is not a retest source: use ability:<Name>, willpower, might or merit:<Name>."),
                       value=repr(text)),
        field=field_name,
    )


def source_key(category: str, name: str) -> str:
    """How a retest source is named in scripts and options: ``"willpower"``, ``"might"``,
    ``"ability:Brawl"``, ``"merit:Lucky"`` (Dark Epics' categories, met-reference 2.2)."""
    return category if category == "willpower" else ("might" if category == "power" else f"{category}:{name}")


#: What :mod:`larp.rules.challenge` re-exports from this module.
__all__ = ["BASIC_THROWS", "BEATS", "POTENCE_TRAIT", "R_BID", "R_BOMB", "R_BONUS", "R_CAP", "R_COMBAT", "R_DARK",
           "R_DARK_DE", "R_ENDURANCE", "R_FLEETNESS", "R_HEALTH", "R_INTENSITY", "R_MIGHT", "R_MOVE", "R_NEGATIVE",
           "R_OFF_HAND", "R_OUTCOME", "R_OVERBID", "R_PUISSANCE", "R_RELENT", "R_RETEST", "R_RETEST_DE", "R_STATIC",
           "R_ONE_PER_TURN", "R_SPEED", "R_SPEED_DE", "R_SURPRISE", "R_TEST", "R_TIES", "R_VIRTUE", "R_WOUNDS_OLD",
           "SIDES", "Call", "Category", "Health", "Kind", "Lead", "Outcome", "Power", "RandomSource", "Throw",
           "compare_throws", "parse_source", "parse_throw", "random_throw"]
