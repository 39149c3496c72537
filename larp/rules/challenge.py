"""The trait-bid challenge: bids, throws, ties (seed 002 "Challenges", "Ties").

Plain data in, a :class:`ChallengeRuling` out. A challenge is between a
challenger and a defender, in one category of Traits. Each side bids Traits,
both throw rock, paper or scissors; the winner's stated outcome happens and
the loser's bid Traits are lost for the rest of the game session. A tied throw
is settled by comparing the Traits each side currently has in the category:
fewer loses, equal is a draw in which both sides lose their bids (002 "Ties").

Randomness is injected: :func:`random_throw` takes the random source, and
:func:`resolve_challenge` only ever sees the throws, so a stored ruling can be
replayed from its inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, Sequence

from larp.rules.explain import Explanation, RulesError, Step


class Category(StrEnum):
    """The three categories of Traits; all Traits in one challenge share one."""

    PHYSICAL = "physical"
    SOCIAL = "social"
    MENTAL = "mental"

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
    """Who won the challenge."""

    CHALLENGER = "challenger"
    DEFENDER = "defender"
    DRAW = "draw"


class RandomSource(Protocol):
    """What a random source must offer: ``random.Random`` and its seeded copies do."""

    def choice(self, seq: Sequence[Any]) -> Any:  # pragma: no cover - protocol
        ...


def parse_throw(value: str | Throw, field_name: str = "throw") -> Throw:
    """Read a throw from form or JSON text (``"rock"``, ``"Paper"``...).

    Raises:
        RulesError: the text names no throw; ``field`` is ``field_name``.
    """
    if isinstance(value, Throw):
        return value
    text = (value or "").strip().lower()
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
    make (add the Bomb only where a power grants it).
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
class Contestant:
    """One side of a challenge.

    Attributes:
        name: the character's name, for the explanation.
        traits: the Traits this side has in the challenge's category right now,
            in Traits: Traits lost earlier in this game session are already
            excluded; Traits bid in this challenge are still included, because
            they are not spent until the challenge is resolved (002 "Ties").
        bid: the names of the Traits bid (one, usually).
    """

    name: str
    traits: int
    bid: tuple[str, ...]


#: What a challenger can attempt, with its effect on a win (002 "Damage and Healing").
ACTIONS: dict[str, dict[str, Any]] = {
    "strike": {
        "label": "Bare-handed strike",
        "damage_type": "bashing",
        "levels": 1,
        "rule": '002 "Damage and Healing"',
        "text": "A bare-handed strike inflicts one level of bashing damage.",
    },
}


@dataclass(frozen=True)
class Challenge:
    """A challenge to resolve.

    Attributes:
        category: Physical, Social or Mental.
        challenger, defender: the two sides.
        action: what the challenger attempts, a key of :data:`ACTIONS`.
    """

    category: Category
    challenger: Contestant
    defender: Contestant
    action: str = "strike"


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
class ChallengeRuling:
    """The result of a challenge, with the steps that reached it."""

    outcome: Outcome
    challenger_throw: Throw
    defender_throw: Throw
    traits_lost: tuple[TraitsLost, ...]
    damage: tuple[DamageDealt, ...]
    steps: tuple[Step, ...]
    summary: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def lost_by(self, side: Outcome) -> tuple[str, ...]:
        """The Traits ``side`` loses in this ruling."""
        return tuple(t for loss in self.traits_lost if loss.side == side for t in loss.traits)

    def to_dict(self) -> dict[str, Any]:
        """The ruling as JSON-ready data (the record and the API use this)."""
        return {
            "outcome": self.outcome.value,
            "summary": self.summary,
            "throws": {
                "challenger": self.challenger_throw.value,
                "defender": self.defender_throw.value,
            },
            "traits_lost": {
                side.value: list(self.lost_by(side)) for side in (Outcome.CHALLENGER, Outcome.DEFENDER)
            },
            "damage": [
                {
                    "target": d.target.value,
                    "damage_type": d.damage_type,
                    "levels": d.levels,
                    "rule": d.rule,
                }
                for d in self.damage
            ],
            "steps": [s.to_dict() for s in self.steps],
            **self.extra,
        }


def _check(challenge: Challenge) -> None:
    if challenge.action not in ACTIONS:
        raise RulesError(f"Unknown action {challenge.action!r}.", field="action")
    for side_name, side in (("challenger", challenge.challenger), ("defender", challenge.defender)):
        if not side.bid:
            raise RulesError(f"The {side_name} must bid a Trait.", field=f"{side_name}_bid")
        if side.traits < len(side.bid):
            raise RulesError(
                f"{side.name} has only {side.traits} {challenge.category.label} Traits left "
                f"and cannot bid {len(side.bid)}.",
                field=f"{side_name}_bid",
            )


def resolve_challenge(challenge: Challenge, challenger_throw: Throw, defender_throw: Throw) -> ChallengeRuling:
    """Resolve one challenge from its bids and throws.

    Rules: the test is rock-paper-scissors (met-reference 1.2); the winner's
    outcome happens and the loser's bid Traits are lost for the game session
    (LotNR, met-reference 1.3); a tied throw compares the Traits each side has
    in the category, the Traits bid still counting, fewer loses and equal is a
    draw in which both lose their bids (002 "Ties"). A won strike inflicts one
    level of bashing damage on the defender (002 "Damage and Healing").

    Args:
        challenge: the two sides, the category and the action attempted.
        challenger_throw, defender_throw: the throws made (draw random ones
            with :func:`random_throw` before calling).

    Returns:
        The ruling: outcome, Traits lost per side, damage dealt, and the steps.

    Raises:
        RulesError: an unknown action, a side without a bid, or a bid of more
            Traits than the side has.
    """
    _check(challenge)
    steps = Explanation()
    c, d = challenge.challenger, challenge.defender
    action = ACTIONS[challenge.action]
    steps.add(
        f"{c.name} challenges {d.name} ({challenge.category.label}): {action['label'].lower()}. "
        f"{c.name} bids {', '.join(c.bid)}; {d.name} bids {', '.join(d.bid)}.",
        '002 "Challenges"',
    )
    result = compare_throws(challenger_throw, defender_throw)
    if result > 0:
        outcome = Outcome.CHALLENGER
        steps.add(f"{challenger_throw.label} beats {defender_throw.label}: {c.name} wins the test.",
                  "LotNR The Test (met-reference 1.2)")
    elif result < 0:
        outcome = Outcome.DEFENDER
        steps.add(f"{defender_throw.label} beats {challenger_throw.label}: {d.name} wins the test.",
                  "LotNR The Test (met-reference 1.2)")
    else:
        steps.add(
            f"Both throw {challenger_throw.label}: a tie. Compare current {challenge.category.label} "
            f"Traits; Traits bid still count until the challenge is resolved.",
            '002 "Ties"',
        )
        if c.traits > d.traits:
            outcome = Outcome.CHALLENGER
            steps.add(f"{c.name} has {c.traits} Traits against {d.name}'s {d.traits}: {c.name} wins the tie.",
                      '002 "Ties"')
        elif d.traits > c.traits:
            outcome = Outcome.DEFENDER
            steps.add(f"{d.name} has {d.traits} Traits against {c.name}'s {c.traits}: {d.name} wins the tie.",
                      '002 "Ties"')
        else:
            outcome = Outcome.DRAW
            steps.add(f"Both have {c.traits} Traits: a draw. Both sides lose the Traits they bid.",
                      '002 "Ties"')

    lost: list[TraitsLost] = []
    damage: list[DamageDealt] = []
    if outcome is Outcome.CHALLENGER:
        lost.append(TraitsLost(Outcome.DEFENDER, d.bid))
        steps.add(f"{d.name} loses {', '.join(d.bid)} for the rest of the game session.",
                  "LotNR Outcomes (met-reference 1.3)")
        damage.append(DamageDealt(Outcome.DEFENDER, action["damage_type"], action["levels"], action["rule"]))
        steps.add(f"{action['text']} {d.name} takes it.", action["rule"])
        summary = f"{c.name} wins: {d.name} loses {', '.join(d.bid)} and takes {action['levels']} {action['damage_type']}."
    elif outcome is Outcome.DEFENDER:
        lost.append(TraitsLost(Outcome.CHALLENGER, c.bid))
        steps.add(f"{c.name} loses {', '.join(c.bid)} for the rest of the game session; the strike misses.",
                  "LotNR Outcomes (met-reference 1.3)")
        summary = f"{d.name} wins: {c.name} loses {', '.join(c.bid)}."
    else:
        lost.append(TraitsLost(Outcome.CHALLENGER, c.bid))
        lost.append(TraitsLost(Outcome.DEFENDER, d.bid))
        summary = f"Draw: {c.name} loses {', '.join(c.bid)}, {d.name} loses {', '.join(d.bid)}."
    return ChallengeRuling(
        outcome=outcome,
        challenger_throw=challenger_throw,
        defender_throw=defender_throw,
        traits_lost=tuple(lost),
        damage=tuple(damage),
        steps=steps.steps(),
        summary=summary,
    )
