"""Where a challenge stands while its script is played: the state the phases read and change
(:class:`ChallengeState`, one :class:`SideState` a side) (met-reference 1-3; seed 002
"Challenges", "Ties", "Darkness").

Part of :mod:`larp.rules.challenge`. The phases are plain functions over this state, each in
the module named for it: :mod:`.bids` opens the challenge (what each side risks) and
:mod:`.totals` counts what each side claims in ties; :mod:`.test` makes a test (the throws,
ties, the forced darkness retest); :mod:`.overbid`, :mod:`.retest` and :mod:`.surprise` are the
calls of the side that lost the last test; :mod:`.outcome` rules on the whole challenge and
:mod:`.options` reads what each side may still call. :mod:`.engine` plays a script through them.

The state holds everything the options need (who is ahead, what each side has spent, used,
lost and may still risk, the forced retest due), so the options still open are read from it
by :func:`larp.rules.challenge.options.open_options` without playing the challenge again, and
ruling on it (:func:`larp.rules.challenge.outcome.rule_outcome`) leaves it unchanged.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from larp.rules.challenge.ruling import TestRecord
from larp.rules.challenge.script import Challenge, Contestant
from larp.rules.challenge.types import Category, Health, Outcome, RandomSource
from larp.rules.darkness import DarknessEffect
from larp.rules.explain import Explanation
from larp.rules.settings import ChronicleSettings


@dataclass
class SideState:
    """One side of a challenge while its script is played (LotNR Initial Bid, Overbidding,
    Retests; met-reference 1.1, 1.3, 1.5, 2.1).

    Attributes:
        key: challenger or defender.
        con: the character (``None``: the narrator of a static challenge or simple test).
        name: as the explanation names the side.
        category: the category it bids from.
        health: its health for this challenge (Wounded with Endurance counts as Bruised).
        required: Traits it must bid; ``None`` when it relents or in a simple test.
        potence: it bid "Potence" with Intensity (never lost, not counted in ties).
        total: Traits counted in ties and overbids (the narrator's: the difficulty).
        standing: win-ties powers less wound penalties (+1 Puissance or Fleetness, -1 Wounded).
        standing_why: the reasons for ``standing``, as sentences.
        at_risk: the Traits bid on the current test.
        lost: the Traits already lost in this challenge.
        free: when the Traits held are named: how many of each it may still risk.
        spare: how many Traits it may still risk (when they are not named).
        abilities_spent, willpower_spent, merits_spent: retests, cancels and darkness paid.
        used: retest sources and categories used (``"ability:brawl"``, ``"category:ability"``).
        overbid_used: it has overbid in this challenge.
        dark: the darkness it suffers, once it applies (002 "Darkness").
        dark_forced: a success of this side must be retested once (total darkness).
        forced_done: its forced retest was made or waived.
        unmatched: Negative Trait calls it could not match with a Trait.
        bid_safe: its bid is not at risk (an unmatched Negative Trait call, LotNR ch.5).
        neg_bonus: Traits gained in ties and overbids from further unmatched calls.
        terms: the arithmetic of ``total``, for the explanation.
    """

    key: Outcome
    con: Contestant | None
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
        """The side's name in field names (``challenger_bid``...; LotNR Initial Bid, met-reference 1.1)."""
        return self.key.value

    def abilities_left(self) -> dict[str, int]:
        """Ability levels the character has left, after those spent in this challenge on retests,
        cancels and darkness (LotNR Retests, met-reference 2.1; 002 "Darkness")."""
        assert self.con is not None  # the narrator has no Abilities
        return {k: v - self.abilities_spent[k] for k, v in self.con.abilities.items()}

    def traits_to_risk(self) -> int:
        """How many Traits the side may still risk in an overbid or a second challenge (LotNR
        Overbidding, Surprise; met-reference 1.5, 3.1)."""
        return sum(self.free.values()) if self.free is not None else self.spare

    def free_traits(self) -> tuple[str, ...] | None:
        """The names of the Traits the side may still risk (one name a Trait, sorted), or ``None``
        when the sheet's Traits were not named (only :attr:`spare` counts them) (LotNR
        Overbidding, met-reference 1.5: an overbid risks a new Trait)."""
        if self.free is None:
            return None
        return tuple(sorted((+self.free).elements()))


@dataclass
class ChallengeState:
    """A challenge while its script is played: its setup, both sides, and what the tests so far
    decided (met-reference 1.2-1.6, 2.1, 3.1; seed 002 "Darkness").

    Attributes:
        challenge: the script being played.
        settings: the chronicle's settings.
        rng: the random source for the narrator's throws left out (``None``: none drawn).
        steps: the explanation so far.
        sides: both sides by key (the defender is the narrator in static challenges and simple tests).
        result: who won the last test made (``None`` before the first test).
        auto_winner: who won before any test (a side relented, or an unmatched Negative Trait
            call under ``negative_trait_unmatched = automatic_loss``).
        finished: nothing more may be called (Might was the last test, LotNR Potence).
        forced_due: the side whose success must now be retested in total darkness.
        records: each test as ruled, in order.
        totals_told: the Traits each side counts have been explained.
        surprise_over: the second challenge after a lost surprise test was called: the normal
            rules resume (LotNR Surprise).
    """

    challenge: Challenge
    settings: ChronicleSettings
    rng: RandomSource | None = None
    steps: Explanation = field(default_factory=Explanation)
    sides: dict[Outcome, SideState] = field(default_factory=dict)
    result: Outcome | None = None
    auto_winner: Outcome | None = None
    finished: bool = False
    forced_due: Outcome | None = None
    records: list[TestRecord] = field(default_factory=list)
    totals_told: bool = False
    surprise_over: bool = False

    def characters(self) -> list[SideState]:
        """The sides that are characters, challenger first: not the narrator of a static
        challenge or simple test (LotNR Static Challenges, met-reference 1.6)."""
        return [s for s in self.sides.values() if s.con is not None]

    @property
    def decided(self) -> Outcome | None:
        """Who wins if the challenge ended now: the side that won before any test, else the
        winner of the last test (``Outcome.DRAW`` on a draw), ``None`` before the first test
        (LotNR Relenting, Outcomes; met-reference 1.1, 1.3)."""
        return self.auto_winner if self.auto_winner is not None else self.result

    @property
    def can_end(self) -> bool:
        """The script may end here: a test was made (or the challenge was decided before it) and
        no forced darkness retest is due (002 "Darkness")."""
        return self.forced_due is None and self.decided is not None


#: What :mod:`larp.rules.challenge` re-exports from this module.
__all__ = ["ChallengeState", "SideState"]
