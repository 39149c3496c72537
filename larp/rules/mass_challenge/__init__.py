"""The mass challenge: several attackers against one target (seed 002 "Mass Combat";
LotNR Mob Scene, met-reference 3.2).

Plain data in, a :class:`MassRuling` out. A :class:`MassChallenge` is the
defender (his Traits bid, one per attacker he defends against, his sign, whom
he relents to, his counter-attack) and up to five attackers hand to hand plus
five at range (each with his bid, sign, weapon and any retests of his pair).
:func:`play_mass_challenge` rules on it and applies the results in order to
the health tracks; :func:`mass_challenge_from_dict` reads it from JSON.

The rules, from 002 "Mass Combat" with LotNR where 002 is silent:

1. At most five characters engage one target hand to hand and five more with
   ranged weapons (002). A sixth of either kind is refused.
2. The defender bids a number of Traits equal to the number of attackers he
   defends against, one fewer with Potence's Intensity (the "Potence"
   pseudo-Trait stands for one of them in a strength challenge). Lacking the
   Traits, he chooses whom he defends against and to whom he relents (002).
   Each pair is otherwise a normal challenge (:mod:`larp.rules.challenge`), so
   a Wounded defender risks one more Trait in each (LotNR Health).
3. The relented challenges are resolved first (the relenting defender loses
   them and no Traits); if he survives them, he and all remaining attackers
   engage in one simultaneous challenge: his sign is compared with each
   attacker's, each pair by the normal tie rules (002 "Ties"), and then
   retests, counted per attacker (Might against each hand-to-hand attacker in
   a strength challenge) (002; LotNR Mob Scene).
4. A defender throwing the strength Bomb (Vigor) against a mixed group: it
   counts as Paper against the ranged attackers and the hand-to-hand
   attackers it does not apply to, unless he also has the speed Bomb
   (Rapidity) with Celerity active this round (002).
5. Traits are lost for each loss. Unless he has extra actions (Celerity's
   Swiftness and Legerity), the defender may injure only one attacker who
   lost (LotNR Mob Scene).
6. Results are applied in initiative order (:func:`larp.rules.order.order_of_actions`:
   pre-empts, then more Traits first, equal counts at the same time), the
   defender's extra actions after everyone's; the defender may drop (torpor,
   unconscious, Final Death) before the last of them, and results against a
   dropped defender, or by him, are then not applied (LotNR Mob Scene).

Damage goes through the damage rules (:mod:`larp.rules.damage`): the weapon's
card, Potence, firearms against vampires, halving, armor, then the health track.

What is where: :mod:`.types` (the inputs and the ruling), :mod:`.engine` (the rules),
:mod:`.parsing` (JSON in); the hits are :mod:`larp.rules.hits`, the pairs played in
order :mod:`larp.rules.pairs`. Every name is importable from ``larp.rules.mass_challenge``.
"""

from __future__ import annotations

from larp.rules.hits import (
    Attack,
    Body,
    Hit,
    weapon_card,
    track_of,
    can_fight,
    land_hit,
    attack_from_dict,
    body_from_dict,
)
from larp.rules.pairs import (
    Spending,
    play_pairs,
    add_spending,
    spendings,
    check_bid_names,
)
from larp.rules.mass_challenge.types import (
    R_MASS,
    R_MOB,
    R_INTENSITY,
    MAX_PER_RANGE,
    Range,
    Attacker,
    Defender,
    MassChallenge,
    PairResult,
    MassRuling,
)
from larp.rules.mass_challenge.engine import (
    actions_of,
    missed_hit,
    play_mass_challenge,
    defender_bid_count,
)
from larp.rules.mass_challenge.parsing import (
    mass_challenge_from_dict,
)

__all__ = [
    "Attack",
    "Body",
    "Hit",
    "weapon_card",
    "track_of",
    "can_fight",
    "land_hit",
    "attack_from_dict",
    "body_from_dict",
    "Spending",
    "play_pairs",
    "add_spending",
    "spendings",
    "check_bid_names",
    "R_MASS",
    "R_MOB",
    "R_INTENSITY",
    "MAX_PER_RANGE",
    "Range",
    "Attacker",
    "Defender",
    "MassChallenge",
    "PairResult",
    "MassRuling",
    "actions_of",
    "missed_hit",
    "play_mass_challenge",
    "defender_bid_count",
    "mass_challenge_from_dict",
]
