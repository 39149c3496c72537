"""What a challenge's ruling says: Traits lost, damage dealt (before soak), what each
side spent, each test as ruled (:class:`ChallengeRuling`), and what each side may
still call (:class:`ChallengeOptions`) (met-reference 1.3, 1.5, 2.1).

Part of :mod:`larp.rules.challenge`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from larp.rules.challenge.types import SIDES, Call, Kind, Outcome, Throw
from larp.rules.explain import Step

@dataclass(frozen=True)
class TraitsLost:
    """Traits a side loses for the rest of the game session (LotNR Outcomes, met-reference 1.3)."""

    side: Outcome
    traits: tuple[str, ...]


@dataclass(frozen=True)
class DamageDealt:
    """Damage the ruling inflicts, before soak, halving or armor (002 "Damage and Healing";
    weapon cards, met-reference 3.7).

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
    """What a side spent in the challenge, gone for the game session (LotNR Retests,
    met-reference 2.1; 002 "Darkness").

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
    """One step of the test sequence as ruled (LotNR The Test, Overbidding, Retests;
    met-reference 1.2, 1.5, 2.1).

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
    """The result of a challenge, with the steps that reached it (LotNR Outcomes,
    met-reference 1.3; 002 "Challenges", "Ties").

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
        """The Traits ``side`` loses in this ruling (LotNR Outcomes, met-reference 1.3)."""
        return tuple(t for loss in self.traits_lost if loss.side == side for t in loss.traits)

    def spent_by(self, side: Outcome) -> Spent:
        """What ``side`` spent (an empty :class:`Spent` if nothing; LotNR Retests, met-reference 2.1)."""
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
        may_second_challenge: a challenger who surprised the defender and lost the
            test may risk another Trait for a second challenge (LotNR Surprise).
        narrator: these are the narrator's options (a static challenge: the narrator
            may overbid, LotNR Overbidding).
        overbid_traits: the Traits (by name, sorted, once each) the side may still risk in an
            overbid or a second challenge: those it holds tonight in the category it bids from,
            not lost earlier and not already at risk in this challenge (LotNR Overbidding,
            Surprise; met-reference 1.5, 3.1); ``None`` when the sheet's Traits are not named.
        suitable_abilities: the Abilities (lower case, sorted) that suit a retest by this side
            here (``data/retests.toml``: Brawl bare-handed, Melee with a hand weapon, Dodge
            defending...; LotNR Retests, met-reference 2.1, 3.6), which the screens offer first;
            ``None``: any Ability suits. The engine still accepts any Ability the narrator allows.
    """

    side: Outcome
    retests: tuple[str, ...] = ()
    may_overbid: bool = False
    overbid_makes_test: bool = False
    overbid_note: str = ""
    cancels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    may_second_challenge: bool = False
    narrator: bool = False
    overbid_traits: tuple[str, ...] | None = None
    suitable_abilities: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "retests": list(self.retests),
            "may_overbid": self.may_overbid,
            "overbid_makes_test": self.overbid_makes_test,
            "overbid_note": self.overbid_note,
            "cancels": {k: list(v) for k, v in self.cancels.items()},
            "may_second_challenge": self.may_second_challenge,
            "narrator": self.narrator,
            "overbid_traits": list(self.overbid_traits) if self.overbid_traits is not None else None,
            "suitable_abilities": list(self.suitable_abilities) if self.suitable_abilities is not None else None,
        }


@dataclass(frozen=True)
class ChallengeOptions:
    """Where a challenge stands after the tests so far, and what may follow (LotNR
    Overbidding, Retests; met-reference 1.5, 2.1; 002 "Darkness").

    Attributes:
        current: who is ahead (challenger, defender, draw), ``None`` before the
            first test or when a side relented.
        finished: nothing more may be called (Might was used, a side relented).
        forced_retest: the side that must now make its forced darkness retest.
        sides: the options of each side that is a character, and the narrator's
            of a static challenge (who may overbid).
    """

    current: Outcome | None
    finished: bool
    forced_retest: Outcome | None
    sides: tuple[SideOptions, ...]

    def side(self, side: Outcome) -> SideOptions:
        """The options of ``side`` (empty options for the narrator; met-reference 1.6)."""
        return next((s for s in self.sides if s.side == side), SideOptions(side))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "current": self.current.value if self.current else None,
            "finished": self.finished,
            "forced_retest": self.forced_retest.value if self.forced_retest else None,
            "sides": {s.side.value: s.to_dict() for s in self.sides},
        }


#: What :mod:`larp.rules.challenge` re-exports from this module.
__all__ = ["ChallengeOptions", "ChallengeRuling", "DamageDealt", "SideOptions", "Spent", "TestRecord", "TraitsLost"]
