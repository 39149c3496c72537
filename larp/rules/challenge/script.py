"""A challenge as the narrator describes it: the sides (:class:`Contestant`), the
weapon cards and bonus Traits, the Negative Trait calls, the test sequence
(:class:`TestCall`), what each side attempts (:data:`ACTIONS`) and the whole
script (:class:`Challenge`) (met-reference 1.1-1.6, 3.7; seed 002 "Challenges").

Part of :mod:`larp.rules.challenge`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from larp.rules.challenge.types import (
    R_BID,
    R_COMBAT,
    Call,
    Category,
    Health,
    Kind,
    Lead,
    Outcome,
    Power,
    Throw,
)
from larp.rules.darkness import Darkness

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
        ranged: fired or thrown (a firearm, a bow): never a feat of strength, so no
            Might (LotNR Potence, met-reference 3.4).
        specials: the card's special abilities (``"Speed"``...; met-reference 3.7).
        negative_traits: the card's Negative Traits (``"Clumsy"``...).
    """

    name: str
    bonus: int
    damage_type: str
    levels: int
    ranged: bool = False
    specials: tuple[str, ...] = ()
    negative_traits: tuple[str, ...] = ()

    def has(self, special: str) -> bool:
        """Whether the card has the special ability ``special`` (any case)."""
        return special.lower() in {s.lower() for s in self.specials}


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
        off_hand: attacking with the off hand (two more Traits risked, met-reference 3.8).
        ambidextrous: the Merit Ambidextrous: no off-hand penalty, but a character
            fighting with both hands still risks two Traits a hand (met-reference 3.8).
        two_weapon: the Two-Weapon (Florentine) specialisation: one off-hand penalty
            Trait fewer (met-reference 3.8).
        both_hands: fighting with a weapon in each hand this turn.
        risks_no_trait: a test rather than a challenge for this side: it bids and risks
            no Trait (and cannot overbid); ties still compare its Traits (002 "Firing
            Guns into Groups of People": "perform a test").
        bomb_announced: the side stated before the challenge that it can throw the
            Bomb (LotNR Vigor: "You must state before the Physical Challenge").
        extra_bid: extra Traits a narrator's difficulty requires to be risked.
        relent: the side relents before the test.
        darkness: the darkness this side suffers.
        celerity: the Celerity level active this turn (Blood spent), 0 to 5: Alacrity (1 or more)
            pre-empts the other side's physical action, so a defender may answer with a
            simultaneous attack only when neither side pre-empts or their levels are equal
            (002 "Challenges"; LotNR Alacrity, met-reference 3.3).
        specialisation: an Ability specialisation applies: the Ability's name (one bonus Trait
            in ties and overbids while the side has a level of that Ability left tonight; LotNR
            Abilities, met-reference 1.3), or ``True`` when the narrator gives it without naming
            the Ability; ``""`` none.
        frenzy: the side is in ``"frenzy"`` or ``"rotschreck"`` (``""``: neither;
            :mod:`larp.rules.frenzy`): in frenzy he suffers no wound penalty, and he need not risk a
            Trait when someone starts a Social challenge against him (LotNR Frenzy).
        acute_senses: the senses of the side's Acute Sense Merits (``"hearing"``...; keys of
            ``data/senses.toml``): two Traits up in a challenge that depends on one of them
            (LotNR Acute Sense, met-reference 1.3; setting ``darkness_merits``).
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
    ambidextrous: bool = False
    two_weapon: bool = False
    both_hands: bool = False
    bomb_announced: bool = False
    risks_no_trait: bool = False
    celerity: int = 0
    acute_senses: frozenset[str] = frozenset()
    specialisation: str | bool = ""
    frenzy: str = ""


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
            ``retest``, ``forced_retest`` (total darkness, 002 "Darkness") or
            ``second_challenge`` (a challenger who surprised the defender and lost
            the first test risks another Trait, LotNR Surprise).
        challenger_throw, defender_throw: the throws of this test; absent for
            a refused overbid or a cancelled retest. In static challenges and
            simple tests the defender's throw is the narrator's and may be left
            out when a random source is passed.
        by: who calls an overbid or retest.
        source: a retest's source: ``"ability:Brawl"``, ``"willpower"``,
            ``"might"`` or ``"merit:Lucky"``.
        cancel: the source the opponent spends to cancel this retest, if any.
        trait: the new Trait risked by an overbid or a second challenge.
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
        mass: one pair of a mass challenge (002 "Mass Combat": Intensity against any
            attacker, setting ``intensity_in_mobs``).
        at_range: the sides are beyond reach of each other (the scene's range: more than five feet),
            so an attack is a ranged one whatever its card says: no Might (LotNR Potence: "not at
            range and not for throwing", met-reference 3.4).
        sense: the sense the challenge depends on, as the narrator names it (a key of
            ``data/senses.toml``: ``"sight"``, ``"hearing"``...; ``""``: none named): a side with
            Acute Sense for it is two Traits up (LotNR Acute Sense, met-reference 1.3).
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
    mass: bool = False
    sense: str = ""
    at_range: bool = False


#: What :mod:`larp.rules.challenge` re-exports from this module.
__all__ = ["ACTIONS", "Challenge", "Contestant", "Modifier", "NegativeCall", "TestCall", "Weapon"]
