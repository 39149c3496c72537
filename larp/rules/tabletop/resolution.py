"""Stage Three of a tabletop attack: strafing's share of the successes, what a hit starts
(holds, an empty clip), the damage rolled, soaked and marked, knockdowns, and the ruling
(000 "Stage Three: Resolution", "Soak", "Applying Damage"; 004 "Apply Attack Damage").

Part of :mod:`larp.rules.tabletop.combat`: :func:`share_strafing`, :func:`land_hit`,
:func:`deal_damage` and :func:`knock_down_after_hit` are phases over the
:class:`.attack_state.AttackState`; :func:`attack_ruling` is what it comes to.
"""

from __future__ import annotations

from dataclasses import replace

from larp.rules.explain import plural
from larp.rules.tabletop.attack_state import AttackState
from larp.rules.tabletop.combatants import R_DAMAGE, R_RESOLUTION, AttackRuling, Effect
from larp.rules.tabletop.dice import DEFAULT_DIFFICULTY, roll_step
from larp.rules.tabletop.situation import lasting_injury, soaking_target, vital_blow_type
from larp.rules.tabletop.wounds import attack_damage_type, damage_dice, knock_down, soak_and_mark, strafe_share


def share_strafing(state: AttackState) -> None:
    """Strafing divides the successes among the targets in the area; a target with no share is
    unhurt and the attack ends for him (000 "Strafing")."""
    if not state.maneuver.has("strafing"):
        return
    state.net = strafe_share(state.net, state.attack.circumstances, state.steps, state.maneuver)
    if state.net == 0:
        state.missed = f"{state.attack.attacker.name}'s strafing leaves {state.attack.target.name} unhurt."


def land_hit(state: AttackState) -> None:
    """The attack hits: a hold, clinch, grapple, bear hug or tackle holds the target (a bite may
    follow next turn); automatic fire empties the clip (000 "Stage Three: Resolution", "Hold",
    "Clinch", "Automatic Fire")."""
    m, a, t, steps = state.maneuver, state.attack.attacker, state.attack.target, state.steps
    steps.add(f"The attack hits with {state.net} net success(es).", R_RESOLUTION)
    if m.has("holds"):
        verb = {"hold": "holds", "grapple": "grapples", "clinch": "clinches with", "bear_hug": "crushes",
                "tackle": "tackles"}.get(m.key, "holds")
        state.effects.append(Effect(a.key, "holds", f"{a.name} {verb} {t.name}: a bite may follow next turn.",
                                    target=t.key, maneuver=m.key))
        if m.damage == "none":
            steps.add(f"{t.name} is held until his next action, then both roll resisted Strength + Brawl; he stays "
                      f"immobilized until he rolls more successes.", m.source)
    if m.has("empties_clip"):
        state.effects.append(Effect(a.key, "empties_clip", f"{a.name}'s clip is empty."))


def deal_damage(state: AttackState) -> None:
    """Roll the damage (it cannot botch; firearms may be read as levels, setting
    ``tabletop_firearm_damage``; the crossbow's dice or Strength, ``tabletop_crossbow_damage``),
    disarm when the successes exceed the target's Strength, the damage type (a blunt weapon at the
    head, a blunt blow at a vital part by ``tabletop_blunt_vital_lethal``), then soak with the
    armor, helmet and shield that cover the blow and mark what is left on the target's track:
    dazed, armor destroyed, staked, a mortal's lasting injury (000 "Stage Three: Resolution",
    "Soak", "Disarm", "Armor Chart", "Lethal Damage", "Applying Damage"; 001 "Quick Combat Summary
    Chart"; 004 "Apply Attack Damage", "Blindsiding").

    Raises:
        DiceNeeded: a roll has no faces and there is no random source.
    """
    m, a, t, steps = state.maneuver, state.attack.attacker, state.attack.target, state.steps
    c, card = state.attack.circumstances, state.card
    if m.damage == "none":
        steps.add(f"{m.name} does no damage.", m.source)
        return
    dice_card = card
    if card is not None and card.archery and card.strength_bonus is None \
            and state.settings["tabletop_crossbow_damage"] == "strength":
        dice_card = replace(card, strength_bonus=0)
        steps.add(f"The {card.name} does Strength damage, as a bow.", '001 "Quick Combat Summary Chart"',
                  setting="tabletop_crossbow_damage")
    state.damage_pool, automatic_successes, levels_direct = damage_dice(
        m, a, t, c, dice_card, state.net, state.profile, state.settings, steps, state.claw_power)
    if levels_direct is not None:
        inflicted = levels_direct
    else:
        state.damage_roll = roll = state.roller.roll("damage", state.damage_pool, DEFAULT_DIFFICULTY,
                                                     can_botch=False, automatic=automatic_successes, who=a.name)
        roll_step(roll, "Damage roll", steps, R_DAMAGE)
        if roll.net == 0 and roll.ones and not roll.successes:
            steps.add("Damage rolls cannot botch: the attack glances harmlessly off.", R_DAMAGE)
        inflicted = roll.net
    if m.has("disarm") and inflicted > t.attribute("Strength"):
        steps.add(f"{inflicted} damage success(es) exceed {t.name}'s Strength ({t.attribute('Strength')}): "
                  f"{t.name} is disarmed and takes no damage.", m.source)
        state.effects.append(Effect(t.key, "disarmed", f"{t.name} is disarmed."))
        inflicted = 0
    kind = vital_blow_type(state, attack_damage_type(state.base_type, card, c, steps))
    soak, state.target_track, state.levels = soak_and_mark(inflicted, kind, soaking_target(state), card, c,
                                                            state.roller, state.settings, steps)
    state.soak = soak
    if soak is not None:
        if soak.dazed:
            state.effects.append(Effect(t.key, "dazed", f"{t.name} is dazed and spends the next turn shaking it off."))
        if soak.armor_destroyed:
            state.effects.append(Effect(t.key, "armor_destroyed", f"{t.name}'s armor is destroyed."))
        if soak.staked:
            state.effects.append(Effect(t.key, "staked", f"{t.name} is staked: paralysed until the stake is removed."))
    lasting_injury(state)


def knock_down_after_hit(state: AttackState) -> None:
    """A sweep or tackle may knock the target down (a tackle unbalances him when he keeps his
    feet), and some maneuvers risk the attacker too: Dexterity + Athletics to stay up, then to
    rise (000 "Knockdown", "Sweep", "Tackle")."""
    m, a, t = state.maneuver, state.attack.attacker, state.attack.target
    if m.has("knockdown") and not state.target_track.destroyed:
        state.target_track = knock_down(t, state.target_track, m, "knockdown", "rise", state.roller,
                                        state.settings, state.steps, state.effects, unbalance=m.has("unbalances"))
    if m.has("both_knockdown") and not state.attacker_track.destroyed:
        state.attacker_track = knock_down(a, state.attacker_track, m, "knockdown_attacker", "rise_attacker",
                                          state.roller, state.settings, state.steps, state.effects)


def attack_ruling(state: AttackState) -> AttackRuling:
    """What the attack comes to: a miss (no net successes, no damage, the target's track as it
    was; a parry's riposte on the attacker's) or a hit with its damage, the tracks after it,
    what follows and the steps (000 "Stage Three: Resolution"; 004 "Step-By-Step Combat Turn")."""
    m, a, t = state.maneuver, state.attack.attacker, state.attack.target
    effects, steps = tuple(state.effects), state.steps.steps()
    if state.missed is not None:
        return AttackRuling(m.key, a.key, t.key, state.pool, state.difficulty, state.attack_roll, state.defense_roll,
                            0, False, 0, None, None, 0, t.track, state.attacker_track, effects, steps, state.missed)
    summary = f"{a.name}'s {m.name.lower()} hits {t.name}"
    if m.damage != "none":
        summary += f": {plural(state.levels, 'level')} marked" if state.levels else ": no damage gets through"
    return AttackRuling(m.key, a.key, t.key, state.pool, state.difficulty, state.attack_roll, state.defense_roll,
                        state.net, True, state.damage_pool, state.damage_roll, state.soak, state.levels,
                        state.target_track, state.attacker_track, effects, steps, summary + ".")
