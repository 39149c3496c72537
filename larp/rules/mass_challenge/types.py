"""A mass challenge's inputs and ruling: the attackers (hand to hand or at range), the
defender, each pair's result and the whole ruling (002 "Mass Combat"; LotNR Mob Scene,
met-reference 3.2). Part of :mod:`larp.rules.mass_challenge`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from larp.rules.challenge import (
    Category,
    ChallengeOptions,
    ChallengeRuling,
    Contestant,
    Outcome,
    TestCall,
    Throw,
)
from larp.rules.hits import Attack, Body
from larp.rules.pairs import SeveralRuling

R_MASS = '002 "Mass Combat"'
R_MOB = "LotNR Mob Scene (met-reference 3.2)"
R_INTENSITY = '002 "Mass Combat"; LotNR Potence: Intensity (met-reference 3.4)'

#: 002 "Mass Combat": "a maximum of five characters can engage the same target in hand
#: to hand combat and another 5 ... with range weapons".
MAX_PER_RANGE = 5


class Range(StrEnum):
    """How an attacker engages the target (002 "Mass Combat")."""

    HAND_TO_HAND = "hand_to_hand"
    RANGED = "ranged"

    @property
    def label(self) -> str:
        """"hand to hand" or "at range", for the explanation."""
        return "hand to hand" if self is Range.HAND_TO_HAND else "at range"




@dataclass(frozen=True)
class Attacker:
    """One attacker in a mass challenge.

    Attributes:
        side: the attacker as a challenger: name, current Traits, his bid (one
            Trait, more if Wounded), powers, lead, Ability levels left...
            ``side.weapon`` is filled from ``attack.weapon`` when left out.
        range: hand to hand or ranged (five of each at most).
        attack: how his hit does damage; a ranged attacker needs a ranged weapon.
        throw: his sign; not needed when the defender relents to him.
        tests: the later tests of his pair, in order (overbids, retests), as in
            :class:`~larp.rules.challenge.TestCall`: challenger = this attacker,
            defender = the target.
        strength: hand to hand: the pair is a challenge of strength for the
            defender, so Might, Puissance and the strength Bomb apply (the
            narrator judges; never at range).
        celerity: the Celerity level he has active this round (0: none):
            Alacrity pre-empts; Rapidity's Bomb needs at least 3.
        body: what damage does to him.
    """

    side: Contestant
    range: Range = Range.HAND_TO_HAND
    attack: Attack = Attack()
    throw: Throw | None = None
    tests: tuple[TestCall, ...] = ()
    strength: bool = True
    celerity: int = 0
    body: Body = Body()


@dataclass(frozen=True)
class Defender:
    """The target of a mass challenge.

    Attributes:
        side: the target as the defender of every pair. ``side.bid`` holds
            every Trait he risks, in the order of the attackers he defends
            against (one each, more if Wounded; ``"Potence"`` once with Intensity).
        throw: his one sign, compared with every attacker's.
        relents_to: names of the attackers he relents to (he must, when he
            lacks the Traits to defend against all of them).
        attack: his counter-attack on an attacker who loses; ``None`` to defend only.
        injures: names of the losing attackers he injures (at most one per
            action); empty: the first losers in initiative order.
        celerity: the Celerity level he has active this round (0: none):
            Swiftness (2) and Legerity (4) give extra actions, Rapidity (3) the
            speed Bomb, Alacrity (1) pre-empts.
        body: what damage does to him.
    """

    side: Contestant
    throw: Throw | None = None
    relents_to: tuple[str, ...] = ()
    attack: Attack | None = None
    injures: tuple[str, ...] = ()
    celerity: int = 0
    body: Body = Body()


@dataclass(frozen=True)
class MassChallenge:
    """A mass challenge: one defender, up to five attackers hand to hand and five at range.

    Attributes:
        defender: the target.
        attackers: the attackers, in the order the narrator lists them (that
            order breaks ties of initiative and assigns the defender's bids).
        category: the Traits' category (Physical for combat).
        sense: the sense every pair depends on, as the narrator names it (``""``: none): a side
            with Acute Sense for it is two Traits up (LotNR Acute Sense, met-reference 1.3).
    """

    defender: Defender
    attackers: tuple[Attacker, ...]
    category: Category = Category.PHYSICAL
    sense: str = ""




@dataclass(frozen=True)
class PairResult:
    """One attacker's challenge against the defender.

    Attributes:
        attacker: his name.
        range: hand to hand or ranged.
        relented: the defender relented to him.
        made: ``False`` when the defender dropped before the simultaneous challenge.
        outcome: ``CHALLENGER`` (the attacker won), ``DEFENDER`` or ``DRAW``;
            ``None`` when not made.
        attacker_throw: his first sign.
        defender_throw: the defender's sign as it counts against him (the
            strength Bomb may count as Paper).
        injured: the defender's counter-attack lands on him.
        ruling: the pair's challenge ruling (``None`` when not made).
        options: what each side of the pair may still call (retests, overbids).
    """

    attacker: str
    range: Range
    relented: bool
    made: bool
    outcome: Outcome | None
    attacker_throw: Throw | None = None
    defender_throw: Throw | None = None
    injured: bool = False
    ruling: ChallengeRuling | None = None
    options: ChallengeOptions | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"attacker": self.attacker, "range": self.range.value, "relented": self.relented,
                "made": self.made, "outcome": self.outcome.value if self.outcome else None,
                "attacker_throw": self.attacker_throw.value if self.attacker_throw else None,
                "defender_throw": self.defender_throw.value if self.defender_throw else None,
                "injured": self.injured, "ruling": self.ruling.to_dict() if self.ruling else None,
                "options": self.options.to_dict() if self.options else None}




@dataclass(frozen=True, kw_only=True)
class MassRuling(SeveralRuling):
    """The ruling on a mass challenge: the hits, tracks, Traits lost, spendings, steps, summary,
    pending attackers (their pair waits for its forced darkness retest) and armor left of
    :class:`~larp.rules.pairs.SeveralRuling`, and

    Attributes:
        pairs: each attacker's challenge, in the attackers' order.
        actions: the defender's actions this turn (how many he may injure).
    """

    pairs: tuple[PairResult, ...]
    actions: int

    def pair(self, attacker: str) -> PairResult:
        """The result of ``attacker``'s challenge."""
        return next(p for p in self.pairs if p.attacker == attacker)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the record and the API use this)."""
        return self.several_dict({"pairs": [p.to_dict() for p in self.pairs]}, {"actions": self.actions})


