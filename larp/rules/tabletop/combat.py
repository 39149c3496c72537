"""One tabletop attack, from the dice pool to the health track (000 "Combat Turns" to "Applying Damage";
004 "Step-By-Step Combat Turn").

:func:`resolve_attack` takes the attacker, the target, the maneuver, the
situation and the target's defense, and returns an :class:`AttackRuling`: the
attack pool and difficulty, every die of every roll, the defense's successes
subtracted first, the damage pool (base plus net successes beyond the first,
never below one die once the attack hits), the damage roll (it cannot botch),
the soak roll and the levels marked on the target's health track through
:mod:`larp.rules.soak` and :func:`larp.rules.health.apply_damage`; and what
follows: dazed, knocked down, held, staked, disarmed, armor destroyed.

Dice come from ``dice`` (by roll name: attack, abort, defense, damage, soak,
knockdown, rise, knockdown_attacker, rise_attacker, riposte_damage,
riposte_soak, blindside) or from ``rng``; with neither, the roll raises
:class:`~larp.rules.tabletop.dice.DiceNeeded` naming it, and nothing is decided.

The attack is resolved in plain phases over one :class:`.attack_state.AttackState`
(:data:`ATTACK_PHASES`, in the order of 000 "Combat Turns"): :mod:`.attack` (Stage Two: the
maneuver checked, the pool, the difficulty, an automatic hit, the roll), :mod:`.defense`
(the abort and the defense, subtracted first) and :mod:`.resolution` (Stage Three: strafing,
holds, damage, soak, knockdown, the ruling). The other pieces: :mod:`.combatants` (inputs,
outputs, shared helpers), :mod:`.wounds` (damage dice, soak, knockdown) and
:mod:`.escape_and_ambush`; the public names are importable from here.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Callable, Mapping, Sequence

from larp.rules.explain import Explanation
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import DiceSource
from larp.rules.tabletop.attack import attack_difficulty, attack_pool, automatic_hit, declare_attack, roll_attack
from larp.rules.tabletop.attack_state import AttackState
from larp.rules.tabletop.combatants import (  # re-exported: the attack's public names live here too
    CALLED_SHOTS,
    DARK_AGES_CITATIONS,
    DICE_KEYS,
    RANGES,
    Attack,
    AttackRuling,
    Circumstances,
    DefenseChoice,
    DiceRoller,
    Effect,
    Fighter,
)
from larp.rules.tabletop.defense import prepare_defense, subtract_defense
from larp.rules.tabletop.escape_and_ambush import (  # re-exported: the attack's public names live here too
    AmbushRuling,
    EscapeRuling,
    resolve_ambush,
    resolve_escape,
)
from larp.rules.tabletop.maneuvers import profile_for
from larp.rules.tabletop.resolution import (
    attack_ruling,
    deal_damage,
    knock_down_after_hit,
    land_hit,
    share_strafing,
)
from larp.rules.torpor import GameNight, TorporClock, TorporStart

#: The phases of one attack, in order (000 "Combat Turns"; 004 "Step-By-Step Combat Turn"): the
#: abort's Willpower roll comes before the attack roll (000 "Aborting Actions"), the defense's
#: successes are subtracted first (000 "Defensive Maneuvers"). A phase that ends the attack
#: (a botch, a miss, the defense, strafing's share) sets ``state.missed``; the rest are skipped.
ATTACK_PHASES: tuple[Callable[[AttackState], None], ...] = (
    attack_pool,
    attack_difficulty,
    automatic_hit,
    prepare_defense,
    roll_attack,
    subtract_defense,
    share_strafing,
    land_hit,
    deal_damage,
    knock_down_after_hit,
)


def resolve_attack(attack: Attack, settings: ChronicleSettings | None = None, *,
                   dice: Mapping[str, Sequence[int]] | None = None, rng: DiceSource | None = None,
                   night: GameNight | None = None) -> AttackRuling:
    """Resolve one tabletop attack and mark its damage.

    Rules, in order (profile by ``tabletop_profile``):
        - The pool: Attribute + Ability (000 "Stage Two: Attack"; no Ability:
          the Attribute alone), the multiple-action rule
          (:func:`~larp.rules.tabletop.actions.slot_dice`), the maneuver's
          accuracy, flank or rear, a held or blinded target, aiming, the wound
          penalty (000 "Health Chart") and armor's Dexterity penalty (000
          "Armor Chart"). A pool at zero or below cannot act (004).
        - The difficulty: 6, or the range's (point blank 4, short 6, long 8),
          plus the maneuver, target size, cover, multiple opponents (+1 each
          after the first, at most +4), blindness, the off hand; kept within 2..10.
        - The roll: 1s cancel successes; a botch fails with something nasty
          (the narrator describes it). A completely immobilized target is hit
          automatically (000) or takes +2 damage dice (004).
        - The defense (block, dodge, parry; aborting by Willpower) subtracts its
          successes first; the attack must keep at least one (000 "Defensive Maneuvers").
          A parry that beats a Brawl attack with a lethal weapon hurts the attacker.
        - Damage: the base (Strength + bonus, or the weapon's dice) plus the net
          successes beyond the first (004: not for thrown weapons), never below
          one die once the attack hits; Potence adds automatic successes to
          Strength damage (000 "Bashing Damage"); the roll cannot botch.
        - Soak and the health track: :func:`larp.rules.soak.soak_damage` and
          :func:`larp.rules.health.apply_damage`; dazed, armor destroyed, staking.
        - Knockdown (sweep, tackle: 000 "Knockdown"), holds (clinch, hold,
          tackle, bear hug, grapple), disarm.
        - Issue 37 (:mod:`.situation`): a move before the attack within the allowance (000, 004
          "Movement"; 001: Wounded moves are actions of their own); weapon length (-1 die, 000);
          the gun's rounds and rate through the turn (000 "Ranged Weapons Chart"); bows and
          crossbows with Archery (001); blind fighting less the sight powers, for attacks and
          defenses (000 "Blind Fighting/Fire", "Blinded"); the Dark Ages blindside roll, passive
          parry, shared dodge, shields and the armor's Strength (004); an aim at an unprotected
          part ignoring the armor (000 "Armor Chart"); blunt blows at a vital part (setting
          ``tabletop_blunt_vital_lethal``); a mortal's lasting injury (setting
          ``mortal_bashing_aftereffects``).
        - A vampire the attack puts in torpor: its length and wake date from his Humanity or
          Path and the game session's date (met-reference 5.2; :func:`larp.rules.torpor.enter_torpor`),
          in ``torpor`` and at the end of the steps.

    Args:
        dice: faces by roll name (see ``DICE_KEYS``); rolls not given come from ``rng``.
        night: the game session the attack happens in (date and number); ``None``: not known,
            no torpor worked out.

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field (a
            maneuver the attacker cannot use, a bite without a prior hold, a
            difficulty outside 2..10, a wrong number of dice...).
        DiceNeeded: a roll has no faces and there is no random source.
    """
    settings = settings or ChronicleSettings.defaults()
    steps = Explanation()
    roller = DiceRoller(dice, rng, settings, steps)
    state = declare_attack(attack, settings, roller, steps)
    for phase in ATTACK_PHASES:
        phase(state)
        if state.missed is not None:
            break
    ruling = attack_ruling(state)
    cited = ruling.steps
    if profile_for(settings).key == "dark_ages":
        cited = tuple(replace(s, rule=DARK_AGES_CITATIONS.get(s.rule, s.rule)) for s in cited)
    torpor = _torpor_begun(attack, ruling, settings, night)
    cited += tuple(step for start in torpor.values() for step in start.steps)
    return replace(ruling, steps=cited, dice=MappingProxyType(dict(roller.made)), torpor=MappingProxyType(torpor))


def _torpor_begun(attack: Attack, ruling: AttackRuling, settings: ChronicleSettings,
                  night: GameNight | None) -> dict[str, TorporStart]:
    """The torpor of each vampire the attack newly puts in torpor (wounds), by fighter key."""
    fighters = ((attack.target, ruling.target_track), (attack.attacker, ruling.attacker_track))
    clock = TorporClock(settings, night, {f.name: (f.morality or 0, f.tabletop_morality) for f, _t in fighters})
    begun: dict[str, TorporStart] = {}
    for fighter, after in fighters:
        if after.is_vampire and after.condition == "torpor" and fighter.track.condition != "torpor":
            start = clock.start(fighter.name, "wounds")
            if start is not None:
                begun[fighter.key] = start
    return begun


__all__ = [
    "AmbushRuling",
    "Attack",
    "AttackRuling",
    "CALLED_SHOTS",
    "Circumstances",
    "DARK_AGES_CITATIONS",
    "DICE_KEYS",
    "DefenseChoice",
    "Effect",
    "EscapeRuling",
    "Fighter",
    "RANGES",
    "resolve_ambush",
    "resolve_attack",
    "resolve_escape",
]
