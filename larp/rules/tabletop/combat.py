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
riposte_soak) or from ``rng``; with neither, the roll raises
:class:`~larp.rules.tabletop.dice.DiceNeeded` naming it, and nothing is decided.

The pieces: :mod:`.combatants` (inputs, outputs, shared helpers), :mod:`.defense`,
:mod:`.wounds` (damage, soak, knockdown) and :mod:`.escape_and_ambush`; every name
they define is importable from here too.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Mapping, Sequence

from larp.rules.explain import Explanation, RulesError, plural
from larp.rules.health import CONDITION_LABELS, HealthTrack, tabletop_dice_penalty
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import DiceSource
from larp.rules.tabletop.actions import slot_dice
from larp.rules.tabletop.dice import (
    DEFAULT_DIFFICULTY,
    DiceRoll,
    bounded_difficulty,
    check_difficulty,
    roll_step,
)
from larp.rules.tabletop.maneuvers import Maneuver, Profile, profile_for
from larp.rules.tabletop.combatants import (
    RANGES,
    CALLED_SHOTS,
    _ATTACK,
    _RESOLUTION,
    _DEFENSE,
    _DAMAGE,
    _HEALTH,
    DARK_AGES_CITATIONS,
    Fighter,
    Circumstances,
    DefenseChoice,
    Attack,
    Effect,
    AttackRuling,
    _Dice,
    _plus,
    _count,
    _maneuver_weapon,
    _state,
    _level,
    _claw_type,
)
from larp.rules.tabletop.defense import (
    _abort,
    _plan_defense,
    _defend,
    _riposte,
)
from larp.rules.tabletop.wounds import (
    _strafe_share,
    _damage_pool,
    _damage_type,
    _soak_and_mark,
    _knockdown,
)
from larp.rules.tabletop.combatants import (  # re-exported: the attack's public names live here too
    DICE_KEYS,
)
from larp.rules.tabletop.escape_and_ambush import (  # re-exported: the attack's public names live here too
    EscapeRuling,
    resolve_escape,
    AmbushRuling,
    resolve_ambush,
)

def _check_attack(attack: Attack, profile: Profile, m: Maneuver) -> None:
    a, t, c = attack.attacker, attack.target, attack.circumstances
    if m.kind == "defensive":
        raise RulesError(f"{m.name} is a defense: choose it as the target's defense, not as an attack.",
                         field="maneuver")
    if a.key == t.key:
        raise RulesError(f"{a.name} cannot attack themself: choose another target.", field="target")
    if a.wound_penalty is None:
        raise RulesError(f"{a.name} can take no action ({_state(a.track)}).", field="attacker")
    if t.track.destroyed:
        raise RulesError(f"{t.name} is {CONDITION_LABELS[t.track.condition].lower()}: nothing left to attack.",
                         field="target")
    if m.has("vampire_only") and a.creature != "vampire":
        raise RulesError(f"Only vampires can use {m.name}: {a.name} is a {a.creature}.", field="maneuver")
    if m.needs_hold and c.prior_hold not in m.needs_hold:
        held = [profile.maneuvers[k].name.lower() for k in m.needs_hold]
        names = ", ".join(held[:-1]) + f" or {held[-1]}" if len(held) > 1 else held[0]
        raise RulesError(f"{m.name} needs a successful {names} on {t.name} in an earlier turn first "
                         f"({m.source}).", field="prior_hold")
    if c.range not in RANGES:
        raise RulesError("Range is point_blank, short or long.", field="range")
    for name, value in (("cover", c.cover), ("attacker_cover", c.attacker_cover)):
        if value is not None and value not in profile.cover:
            raise RulesError(f"Cover is one of {', '.join(profile.cover)}.", field=name)
    if c.target_size is not None and c.target_size not in profile.target_sizes:
        raise RulesError(f"Target size is one of {', '.join(profile.target_sizes)}.", field="target_size")
    if c.called_shot is not None and c.called_shot not in CALLED_SHOTS:
        raise RulesError("A called shot is at the head or the heart.", field="called_shot")
    if c.called_shot and c.target_size:
        raise RulesError("Give a called shot or a target size, not both.", field="target_size")
    if m.has("no_targeting") and (c.called_shot or c.target_size):
        raise RulesError(f"{m.name} cannot target a specific part of the body ({m.source}).", field="called_shot")
    if m.kind == "ranged" and c.blind:
        raise RulesError("Ranged attacks cannot be made blind or in pitch darkness "
                         "(000 \"Blind Fighting/Fire\"; 004 \"Blind Fighting\").", field="blind")
    if m.kind == "close" and (c.cover or c.attacker_cover):
        raise RulesError("Cover changes ranged attacks only (000 \"Cover\").", field="cover")
    if m.has("needs_clip_half_full") and not c.clip_half_full:
        raise RulesError(f"{m.name} needs a clip at least half full ({m.source}).", field="clip_half_full")
    _count(c.opponents, "opponents", 1, 20)
    _count(c.aim_turns, "aim_turns", 0, 10)
    _count(c.strafe_targets, "strafe_targets", 1, 10)
    _count(c.strafe_extra, "strafe_extra", 0, 10)
    _count(c.ambush_dice, "ambush_dice", 0, 20)
    _count(c.extra_dice, "extra_dice", -20, 20)
    _count(c.extra_difficulty, "extra_difficulty", -8, 8)
    if c.difficulty is not None:
        check_difficulty(c.difficulty)
    if c.aim_turns and not m.has("single_shot"):
        raise RulesError(f"Aiming adds dice to a single shot, not to {m.name.lower()} (000 \"Aiming\").",
                         field="aim_turns")
    if c.scope and not c.aim_turns:
        raise RulesError("A scope adds dice on the first turn of aiming: aim at least one turn.", field="scope")
    if (c.strafe_targets > 1 or c.strafe_extra) and not m.has("strafing"):
        raise RulesError("Targets in the area are for strafing only.", field="strafe_targets")
    if c.off_hand and not m.has("off_hand"):
        raise RulesError("The off hand's penalty is for firing two weapons.", field="off_hand")
    slot = attack.slot
    slot.check()
    if m.has("multiple") and slot.total < 2 and not slot.celerity:
        raise RulesError(f"{m.name} is a multiple action: declare at least two actions ({m.source}).",
                         field="actions.total")


# ---------------------------------------------------------------- the attack

def resolve_attack(attack: Attack, settings: ChronicleSettings | None = None, *,
                   dice: Mapping[str, Sequence[int]] | None = None, rng: DiceSource | None = None) -> AttackRuling:
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

    Args:
        dice: faces by roll name (see ``DICE_KEYS``); rolls not given come from ``rng``.

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field (a
            maneuver the attacker cannot use, a bite without a prior hold, a
            difficulty outside 2..10, a wrong number of dice...).
        DiceNeeded: a roll has no faces and there is no random source.
    """
    settings = settings or ChronicleSettings.defaults()
    steps = Explanation()
    roller = _Dice(dice, rng, settings, steps)
    ruling = _resolve(attack, settings, roller, steps)
    cited = ruling.steps
    if profile_for(settings).key == "dark_ages":
        cited = tuple(replace(s, rule=DARK_AGES_CITATIONS.get(s.rule, s.rule)) for s in cited)
    return replace(ruling, steps=cited, dice=MappingProxyType(dict(roller.made)))


def _resolve(attack: Attack, settings: ChronicleSettings, roller: _Dice, steps: Explanation) -> AttackRuling:
    profile = profile_for(settings)
    m = profile.maneuver(attack.maneuver)
    a, t, c = attack.attacker, attack.target, attack.circumstances
    _check_attack(attack, profile, m)
    card = _maneuver_weapon(m, a)
    sit = profile.situation
    effects: list[Effect] = []

    # -- damage type and claws first: a character without claws cannot claw
    claw_power = None
    if m.damage_type == "power":
        base_type, claw_power = _claw_type(m, a)
    elif m.damage_type == "weapon" or (m.weapon == "optional" and card is not None):
        base_type = card.damage_type if card else "bashing"
    else:
        base_type = m.damage_type
    if m.has("multiple") and m.key == "multiple_shots" and card is not None:
        rate = card.details.get("rate")
        if isinstance(rate, int) and attack.slot.total > rate:
            raise RulesError(f"A {card.name} fires at most {rate} shots a turn (000 \"Multiple Shots\").",
                             field="actions.total")
    if c.stake and (card is None or not card.has("Staking") or c.called_shot != "heart"):
        raise RulesError("Staking needs a stake (or crossbow) aimed at the heart (000 \"Stake Through Heart\").",
                         field="stake")

    # -- the attack pool
    ability = m.abilities[0]
    if len(m.abilities) > 1:
        ability = m.abilities[1] if card is not None else m.abilities[0]
    attr_dots = a.attribute(m.attribute)
    ability_dots = a.ability(ability)
    base = attr_dots + ability_dots
    what = f" ({card.name})" if card else ""
    steps.add(f"{a.name} uses {m.name}{what} against {t.name}.", m.source)
    if ability_dots:
        steps.add(f"Attack pool: {m.attribute} {attr_dots} + {ability} {ability_dots} = {base} dice.", _ATTACK)
    else:
        steps.add(f"Attack pool: no {ability}, so {m.attribute} alone: {base} dice.", _ATTACK)
    pool, slot_step = slot_dice(base, attack.slot, settings, a.name)
    if slot_step:
        steps.extend([slot_step])
    pool = _plus(steps, pool, m.accuracy, f"{m.name}'s accuracy", m.source)
    if c.flank or c.rear:
        if profile.key == "dark_ages":
            if c.blindside_spotted:
                steps.add(f"{t.name} spotted the blindside: no extra die.", '004 "Blindsiding"')
            else:
                pool = _plus(steps, pool, sit.flank_dice, "Blindsiding (flank or rear)", '004 "Blindsiding"')
        else:
            extra = sit.rear_dice if c.rear else sit.flank_dice
            pool = _plus(steps, pool, extra, "Attack from the rear" if c.rear else "Attack from the flank",
                         '000 "Flank and Rear Attacks"')
    if c.target_held:
        pool = _plus(steps, pool, sit.held_target_dice, f"{t.name} is held but struggling",
                     '000 "Immobilization"' if profile.key != "dark_ages" else '004 "Immobilized Targets"')
    if c.target_blinded:
        pool = _plus(steps, pool, sit.blinded_target_dice, f"{t.name} is blinded", '000 "Blinded"')
    if c.aim_turns:
        perception = a.attribute("Perception")
        if ability_dots < 1:
            raise RulesError(f"Aiming needs {ability} 1 or better; {a.name} has none (000 \"Aiming\").",
                             field="aim_turns")
        aimed = min(c.aim_turns, perception)
        pool = _plus(steps, pool, aimed, f"{plural(c.aim_turns, 'turn')} aiming, at most Perception {perception}",
                     '000 "Aiming"')
        if c.scope:
            if not sit.scope_dice:
                raise RulesError("This profile has no scopes.", field="scope")
            pool = _plus(steps, pool, sit.scope_dice, "A scope on the first turn of aiming", '000 "Aiming"')
    pool = _plus(steps, pool, c.ambush_dice, "Extra successes from the ambush", '000 "Ambush"')
    pool = _plus(steps, pool, c.extra_dice, "The narrator's modifier", "Narrator")
    penalty = a.wound_penalty or 0
    if penalty:
        pool -= penalty
        steps.add(f"{a.name} is {_level(a.track)} on the tabletop chart: wound penalty -{penalty} ({pool}).", _HEALTH)
    elif a.ignore_wounds and tabletop_dice_penalty(a.track) != 0:
        steps.add(f"{a.name} spent a Willpower point this turn: no wound penalty, though he is "
                  f"{_level(a.track)} on the tabletop chart.", "LotNR Willpower (met-reference 2.1, 4.1)")
    if m.attribute == "Dexterity":
        armor_dice, why = a.armor_penalty(profile)
        if armor_dice:
            pool -= armor_dice
            steps.add(f"Armor ({why}): -{armor_dice} from a Dexterity pool ({pool}).",
                      '000 "Armor Chart"' if profile.key != "dark_ages" else '004 "Armor"')
    if pool <= 0:
        if penalty and pool + penalty > 0:  # the wounds took the last dice, not the multiple actions
            raise RulesError(f"{a.name}'s wounds ({_level(a.track)}, -{penalty}) leave his attack pool at {pool} dice: "
                             f"the action cannot be attempted (000 \"Health Chart\"). A Willpower point spent this "
                             f"turn ignores the wound penalty (LotNR Willpower).", field="actions")
        raise RulesError(f"{a.name}'s attack pool comes to {pool} dice: the action cannot be attempted "
                         f"(004 \"Multiple Actions\").", field="actions")

    # -- the difficulty
    if c.difficulty is not None:
        difficulty = c.difficulty
        steps.add(f"The narrator sets the difficulty: {difficulty}.", "Narrator")
    else:
        difficulty = _attack_difficulty(m, a, c, profile, steps)

    # -- the target completely immobilized, or a clinch going on
    continuing = m.has("carries_over") and c.prior_hold == m.key and m.damage != "none"
    automatic = False
    if (c.target_immobilized or t.track.staked) and sit.immobilized == "automatic_hit":
        automatic = True
        steps.add(f"{t.name} is completely immobilized: the attack hits automatically.", '000 "Immobilization"')
    elif continuing and profile.key != "dark_ages":
        automatic = True
        steps.add(f"The {m.name.lower()} goes on: {a.name} inflicts Strength damage automatically.", m.source)

    # -- abort to a defense: the Willpower roll comes before the attack roll
    defense = attack.defense
    if continuing and profile.key == "dark_ages":
        if defense is not None:
            raise RulesError(f"Against a {m.name.lower()} that goes on, {t.name} resists with Strength + Brawl, "
                             f"not a {defense.maneuver}.", field="defense.maneuver")
        defense = DefenseChoice("escape")
    plan = None
    if defense is not None and not automatic:
        plan = _plan_defense(defense, attack, m, card, profile, settings)
    willpower_spent = False
    if defense is not None and defense.abort:
        if defense.abort not in ("roll", "point"):
            raise RulesError("Abort by a Willpower roll or by spending a Willpower point.", field="defense.abort")
        defense, willpower_spent = _abort(defense, t, profile, roller, steps)
        if willpower_spent:
            effects.append(Effect(t.key, "willpower_spent", f"{t.name} spends a Willpower point to abort."))

    if automatic:
        attack_roll = None
        net = 1
    else:
        attack_roll = roller.roll("attack", pool, difficulty, who=a.name)
        roll_step(attack_roll, f"{a.name}'s attack roll", steps, _ATTACK)
    if attack_roll is not None and attack_roll.botch:
        steps.add("A botch: the attack fails and something nasty happens (a jam, a broken blade, an ally "
                  "hit): the narrator describes it.", _ATTACK, setting="tabletop_botch")
        effects.append(Effect(a.key, "botch", f"{a.name} botched the attack: the narrator describes what goes wrong."))
        return _miss(attack, m, pool, difficulty, attack_roll, None, 0, effects, steps,
                     f"{a.name} botches {m.name.lower()} against {t.name}.")
    if attack_roll is not None:
        net = attack_roll.net
        if net == 0:
            steps.add(f"No successes: {a.name} misses.", _ATTACK)
            return _miss(attack, m, pool, difficulty, attack_roll, None, 0, effects, steps,
                         f"{a.name}'s {m.name.lower()} misses {t.name}.")

    # -- the defense subtracts first
    defense_roll = None
    attacker_track = a.track
    if defense is not None and plan is not None:
        defense_roll = _defend(plan, t, roller, steps)
        if defense_roll is not None:
            left = net - defense_roll.net
            if defense.maneuver == "escape":
                if left < 0:
                    steps.add(f"{t.name} breaks the {m.name.lower()}.", m.source)
                    effects.append(Effect(t.key, "hold_broken", f"{t.name} breaks free of {a.name}'s {m.name.lower()}."))
                    return _miss(attack, m, pool, difficulty, attack_roll, defense_roll, 0, effects, steps,
                                 f"{t.name} breaks free of {a.name}'s {m.name.lower()}.")
            if left <= 0:
                steps.add(f"{t.name}'s {defense_roll.net} defense success(es) cancel the attack's {net}: "
                          f"the attack misses.", _DEFENSE)
                if defense.maneuver == "parry" and left < 0:
                    attacker_track = _riposte(attack, card, -left, roller, settings, steps)
                return _miss(attack, m, pool, difficulty, attack_roll, defense_roll, 0, effects, steps,
                             f"{t.name} avoids {a.name}'s {m.name.lower()}.", attacker_track)
            steps.add(f"{t.name}'s {defense_roll.net} defense success(es) leave {left} of {net}.", _DEFENSE)
            net = left

    # -- strafing divides the successes among the targets
    if m.has("strafing"):
        net = _strafe_share(net, c, steps, m)
        if net == 0:
            return _miss(attack, m, pool, difficulty, attack_roll, defense_roll, 0, effects, steps,
                         f"{a.name}'s strafing leaves {t.name} unhurt.")

    steps.add(f"The attack hits with {net} net success(es).", _RESOLUTION)
    if m.has("holds"):
        verb = {"hold": "holds", "grapple": "grapples", "clinch": "clinches with", "bear_hug": "crushes",
                "tackle": "tackles"}.get(m.key, "holds")
        effects.append(Effect(a.key, "holds", f"{a.name} {verb} {t.name}: a bite may follow next turn.",
                              target=t.key, maneuver=m.key))
        if m.damage == "none":
            steps.add(f"{t.name} is held until his next action, then both roll resisted Strength + Brawl; he stays "
                      f"immobilized until he rolls more successes.", m.source)
    if m.has("empties_clip"):
        effects.append(Effect(a.key, "empties_clip", f"{a.name}'s clip is empty."))

    # -- damage
    target_track = t.track
    damage_pool = 0
    damage_roll = None
    soak = None
    levels = 0
    if m.damage == "none":
        steps.add(f"{m.name} does no damage.", m.source)
    else:
        damage_pool, automatic_successes, levels_direct = _damage_pool(m, a, t, c, card, net, profile, settings,
                                                                       steps, claw_power)
        if levels_direct is not None:
            inflicted = levels_direct
        else:
            damage_roll = roller.roll("damage", damage_pool, DEFAULT_DIFFICULTY, can_botch=False,
                                      automatic=automatic_successes, who=a.name)
            roll_step(damage_roll, "Damage roll", steps, _DAMAGE)
            if damage_roll.net == 0 and damage_roll.ones and not damage_roll.successes:
                steps.add("Damage rolls cannot botch: the attack glances harmlessly off.", _DAMAGE)
            inflicted = damage_roll.net
        if m.has("disarm") and inflicted > t.attribute("Strength"):
            steps.add(f"{inflicted} damage success(es) exceed {t.name}'s Strength ({t.attribute('Strength')}): "
                      f"{t.name} is disarmed and takes no damage.", m.source)
            effects.append(Effect(t.key, "disarmed", f"{t.name} is disarmed."))
            inflicted = 0
        kind = _damage_type(base_type, card, c, steps)
        soak, target_track, levels = _soak_and_mark(inflicted, kind, t, card, c, roller, settings, steps)
        if soak is not None:
            if soak.dazed:
                effects.append(Effect(t.key, "dazed", f"{t.name} is dazed and spends the next turn shaking it off."))
            if soak.armor_destroyed:
                effects.append(Effect(t.key, "armor_destroyed", f"{t.name}'s armor is destroyed."))
            if soak.staked:
                effects.append(Effect(t.key, "staked", f"{t.name} is staked: paralysed until the stake is removed."))

    # -- knockdown
    if m.has("knockdown") and not target_track.destroyed:
        target_track = _knockdown(t, target_track, m, "knockdown", "rise", roller, settings, steps, effects,
                                  unbalance=m.has("unbalances"))
    if m.has("both_knockdown") and not attacker_track.destroyed:
        attacker_track = _knockdown(a, attacker_track, m, "knockdown_attacker", "rise_attacker", roller, settings,
                                    steps, effects)

    summary = f"{a.name}'s {m.name.lower()} hits {t.name}"
    if m.damage != "none":
        summary += f": {plural(levels, 'level')} marked" if levels else ": no damage gets through"
    return AttackRuling(m.key, a.key, t.key, pool, difficulty, attack_roll, defense_roll, net, True, damage_pool,
                        damage_roll, soak, levels, target_track, attacker_track, tuple(effects), steps.steps(),
                        summary + ".")


def _miss(attack: Attack, m: Maneuver, pool: int, difficulty: int, attack_roll: DiceRoll | None,
          defense_roll: DiceRoll | None, net: int, effects: list[Effect], steps: Explanation, summary: str,
          attacker_track: HealthTrack | None = None) -> AttackRuling:
    return AttackRuling(m.key, attack.attacker.key, attack.target.key, pool, difficulty, attack_roll, defense_roll,
                        net, False, 0, None, None, 0, attack.target.track, attacker_track or attack.attacker.track,
                        tuple(effects), steps.steps(), summary)


def _attack_difficulty(m: Maneuver, a: Fighter, c: Circumstances, profile: Profile, steps: Explanation) -> int:
    """The attack's difficulty from the base, the range and the modifiers (000 "Maneuver Characteristics")."""
    sit = profile.situation
    if m.kind == "ranged":
        difficulty = profile.ranges[c.range]
        steps.add(f"{c.range.replace('_', ' ').capitalize()} range: difficulty {difficulty}.", '000 "Range"')
    else:
        difficulty = DEFAULT_DIFFICULTY
        steps.add(f"Base difficulty {difficulty}.", '000 "Maneuver Characteristics"')
    parts: list[tuple[int, str, str]] = [(m.difficulty, m.name, m.source)]
    size_key = profile.called_shots[c.called_shot] if c.called_shot else c.target_size
    if size_key:
        size = profile.target_sizes[size_key]
        aim = f"aimed at the {c.called_shot}" if c.called_shot else "targeting"
        parts.append((size.difficulty, f"{size.label}, {aim}",
                      '000 "Targeting"' if profile.key != "dark_ages" else '004 "Targeting"'))
    if c.cover:
        parts.append((profile.cover[c.cover], f"{c.cover.capitalize()} cover", '000 "Cover"'))
    if c.attacker_cover:
        parts.append((max(0, profile.cover[c.attacker_cover] - 1), f"Firing back from {c.attacker_cover} cover",
                      '000 "Cover"'))
    if c.opponents > 1:
        extra = min(c.opponents - 1, sit.opponents_max)
        parts.append((extra, f"{c.opponents} opponents (at most +{sit.opponents_max})", '000 "Multiple Opponents"'))
    if c.blind:
        parts.append((sit.blind_difficulty, "Fighting blind", '000 "Blind Fighting/Fire"'))
    if c.off_hand and not a.ambidextrous:
        parts.append((sit.off_hand_difficulty, "The off hand", '000 "Two Weapons"'))
    if c.unbalanced:
        parts.append((1, "Unbalanced by last turn's tackle", '000 "Tackle"'))
    if c.extra_difficulty:
        parts.append((c.extra_difficulty, "The narrator's modifier", "Narrator"))
    for value, text, rule in parts:
        if value:
            difficulty += value
            steps.add(f"{text}: {value:+d} difficulty ({difficulty}).", rule)
    return bounded_difficulty(difficulty, steps, "The attack's difficulty")


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
