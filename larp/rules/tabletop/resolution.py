"""Stage Three of a tabletop attack: strafing's share of the successes, what a hit starts
(holds, an empty clip), the damage rolled, soaked and marked, knockdowns, and the ruling
(000 "Stage Three: Resolution", "Soak", "Applying Damage"; 004 "Apply Attack Damage").

Part of :mod:`larp.rules.tabletop.combat`: :func:`share_strafing`, :func:`land_hit`,
:func:`deal_damage` and :func:`knock_down_after_hit` are phases over the
:class:`.attack_state.AttackState`; :func:`attack_ruling` is what it comes to.
"""

from __future__ import annotations

from dataclasses import replace

from larp.rules.explain import N_, Phrase, levels
from larp.rules.tabletop.attack_state import AttackState
from larp.rules.tabletop.combatants import R_DAMAGE, R_RESOLUTION, AttackRuling, Effect
from larp.rules.tabletop.dice import DEFAULT_DIFFICULTY, roll_step
from larp.rules.tabletop.situation import lasting_injury, soaking_target, vital_blow_type
from larp.rules.tabletop.wounds import attack_damage_type, damage_dice, knock_down, soak_and_mark, strafe_share


#: What a hold does to its target, by the maneuver's key ("Ann clinches with Bob: a bite may follow next turn").
_HOLDS = {
    "hold": N_("%(name)s holds %(target)s: a bite may follow next turn."),
    "grapple": N_("%(name)s grapples %(target)s: a bite may follow next turn."),
    "clinch": N_("%(name)s clinches with %(target)s: a bite may follow next turn."),
    "bear_hug": N_("%(name)s crushes %(target)s: a bite may follow next turn."),
    "tackle": N_("%(name)s tackles %(target)s: a bite may follow next turn."),
}


def share_strafing(state: AttackState) -> None:
    """Strafing divides the successes among the targets in the area; a target with no share is
    unhurt and the attack ends for him (000 "Strafing")."""
    if not state.maneuver.has("strafing"):
        return
    state.net = strafe_share(state.net, state.attack.circumstances, state.steps, state.maneuver)
    if state.net == 0:
        state.missed = Phrase.message(N_("%(name)s's strafing leaves %(target)s unhurt."), name=state.attack.attacker.name,
                                      target=state.attack.target.name)


def land_hit(state: AttackState) -> None:
    """The attack hits: a hold, clinch, grapple, bear hug or tackle holds the target (a bite may
    follow next turn); automatic fire empties the clip (000 "Stage Three: Resolution", "Hold",
    "Clinch", "Automatic Fire")."""
    m, a, t, steps = state.maneuver, state.attack.attacker, state.attack.target, state.steps
    steps.add(N_("The attack hits with %(n)s net success(es)."), R_RESOLUTION, n=state.net)
    if m.has("holds"):
        held = _HOLDS.get(m.key, _HOLDS["hold"])
        state.effects.append(Effect(a.key, "holds", Phrase.message(held, name=a.name, target=t.name),
                                    target=t.key, maneuver=m.key))
        if m.damage == "none":
            steps.add(N_("%(name)s is held until his next action, then both roll resisted Strength + Brawl; he stays "
                         "immobilized until he rolls more successes."), m.source, name=t.name)
    if m.has("empties_clip"):
        state.effects.append(Effect(a.key, "empties_clip", Phrase.message(N_("%(name)s's clip is empty."), name=a.name)))


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
        steps.add(N_("%(maneuver)s does no damage."), m.source, maneuver=Phrase.term(m.name))
        return
    dice_card = card
    if card is not None and card.archery and card.strength_bonus is None \
            and state.settings["tabletop_crossbow_damage"] == "strength":
        dice_card = replace(card, strength_bonus=0)
        steps.add(Phrase.message(N_("The %(weapon)s does Strength damage, as a bow."), weapon=Phrase.term(card.name)),
                  '001 "Quick Combat Summary Chart"', setting="tabletop_crossbow_damage")
    state.damage_pool, automatic_successes, levels_direct = damage_dice(
        m, a, t, c, dice_card, state.net, state.profile, state.settings, steps, state.claw_power)
    if levels_direct is not None:
        inflicted = levels_direct
    else:
        state.damage_roll = roll = state.roller.roll("damage", state.damage_pool, DEFAULT_DIFFICULTY,
                                                     can_botch=False, automatic=automatic_successes, who=a.name)
        roll_step(roll, Phrase.message(N_("Damage roll")), steps, R_DAMAGE)
        if roll.net == 0 and roll.ones and not roll.successes:
            steps.add(Phrase.message(N_("Damage rolls cannot botch: the attack glances harmlessly off.")), R_DAMAGE)
        inflicted = roll.net
    if m.has("disarm") and inflicted > t.attribute("Strength"):
        steps.add(N_("%(n)s damage success(es) exceed %(name)s's Strength (%(strength)s): %(name)s is disarmed and takes "
                     "no damage."), m.source, n=inflicted, name=t.name, strength=t.attribute('Strength'))
        state.effects.append(Effect(t.key, "disarmed", Phrase.message(N_("%(name)s is disarmed."), name=t.name)))
        inflicted = 0
    kind = vital_blow_type(state, attack_damage_type(state.base_type, card, c, steps))
    soak, state.target_track, state.levels = soak_and_mark(inflicted, kind, soaking_target(state), card, c,
                                                            state.roller, state.settings, steps)
    state.soak = soak
    if soak is not None:
        if soak.dazed:
            state.effects.append(Effect(t.key, "dazed", Phrase.message(
                N_("%(name)s is dazed and spends the next turn shaking it off."), name=t.name)))
        if soak.armor_destroyed:
            state.effects.append(Effect(t.key, "armor_destroyed", Phrase.message(N_("%(name)s's armor is destroyed."),
                                                                                 name=t.name)))
        if soak.staked:
            state.effects.append(Effect(t.key, "staked", Phrase.message(
                N_("%(name)s is staked: paralysed until the stake is removed."), name=t.name)))
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
    said = dict(name=a.name, maneuver=Phrase.term(m.name.lower()), target=t.name)
    if m.damage == "none":
        summary = Phrase.message(N_("%(name)s's %(maneuver)s hits %(target)s."), **said)
    elif state.levels:
        summary = Phrase.message(N_("%(name)s's %(maneuver)s hits %(target)s: %(levels)s marked."),
                                 levels=levels(state.levels), **said)
    else:
        summary = Phrase.message(N_("%(name)s's %(maneuver)s hits %(target)s: no damage gets through."), **said)
    return AttackRuling(m.key, a.key, t.key, state.pool, state.difficulty, state.attack_roll, state.defense_roll,
                        state.net, True, state.damage_pool, state.damage_roll, state.soak, state.levels,
                        state.target_track, state.attacker_track, effects, steps, summary)
