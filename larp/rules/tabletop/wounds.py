"""A tabletop attack's damage: strafing shares, the damage pool, the damage type, soak
and marking, and knockdown (000 "Stage Three: Resolution", "Soak", "Knockdown";
004 "Apply Attack Damage"). Part of :mod:`larp.rules.tabletop.combat`.
"""

from __future__ import annotations


from larp.rules.damage import Weapon, damage_type_against, firearm_reading
from larp.rules.explain import N_, Explanation, Phrase, RulesError
from larp.rules.health import HealthTrack, apply_damage, standing, tabletop_view
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import Defender, SoakRuling, soak_damage, soak_difficulty, soak_pool
from larp.rules.tabletop.dice import (
    DEFAULT_DIFFICULTY,
    DiceNeeded,
    check_faces,
    roll_step,
)
from larp.rules.tabletop.maneuvers import Maneuver, Profile
from larp.rules.tabletop.combatants import (
    R_RESOLUTION,
    R_DAMAGE,
    R_HEALTH,
    R_KNOCKDOWN,
    Fighter,
    Circumstances,
    Effect,
    DiceRoller,
)

def strafe_share(net: int, c: Circumstances, steps: Explanation, m: Maneuver) -> int:
    """This target's share of strafing successes (000 "Strafing")."""
    if c.strafe_targets == 1:
        share = net // 2
        steps.add(f"Only one target in the strafed area: half the {net} success(es) affect him: {share}.", m.source)
        return share
    leftover = net % c.strafe_targets
    if c.strafe_extra > leftover or (net < c.strafe_targets and c.strafe_extra > 1):
        raise RulesError(Phrase.message(N_("Only %(leftover)s leftover success(es) to assign, one a target when there "
                                           "are fewer successes than targets.") if net < c.strafe_targets
                                        else N_("Only %(leftover)s leftover success(es) to assign."), leftover=leftover),
                         field="strafe_extra")
    share = net // c.strafe_targets + c.strafe_extra
    steps.add(f"{net} success(es) divided evenly among {c.strafe_targets} targets"
              + (f", plus {c.strafe_extra} leftover" if c.strafe_extra else "") + f": {share} for this one.",
              m.source)
    return share


def damage_dice(m: Maneuver, a: Fighter, t: Fighter, c: Circumstances, card: Weapon | None, net: int,
                profile: Profile, settings: ChronicleSettings, steps: Explanation,
                claw_power: str | None) -> tuple[int, int, int | None]:
    """The damage dice, automatic successes (Potence) and, for firearms read as levels, the levels:
    Strength + bonus or the weapon's dice, plus net successes beyond the first (not for thrown
    weapons under Dark Ages), targeting, an immobilized target, less wound penalties on Strength
    damage, never below one die (000 "Stage Three: Resolution", "Bashing Damage"; 001 "Quick
    Combat Summary Chart"; 004 "Determine Damage")."""
    sit = profile.situation
    strength_based = m.damage == "strength" or (card is not None and card.strength_bonus is not None)
    if card is not None and card.strength_bonus is not None and (m.damage == "weapon" or m.weapon == "optional"):
        strength = a.attribute("Strength")
        pool = strength + card.strength_bonus
        steps.add(f"Damage: Strength {strength} + {card.strength_bonus} ({card.name}) = {pool} dice.",
                  '001 "Quick Combat Summary Chart"' if card.archery else '000 "Melee Weapons Chart"')
    elif card is not None and m.damage == "weapon":
        pool = card.damage
        if card.firearm and settings["tabletop_firearm_damage"] == "levels":
            steps.add(f"Damage: the {card.name}'s rating, {pool}, is applied as health levels without a roll.",
                      '001 "Quick Combat Summary Chart"', setting="tabletop_firearm_damage")
            return 0, 0, pool
        steps.add(f"Damage: the {card.name}'s {pool} dice.", '000 "Ranged Weapons Chart"',
                  setting="tabletop_firearm_damage" if card.firearm else None)
    else:
        strength = a.attribute("Strength")
        pool = strength + m.damage_bonus
        bonus = f" + {m.damage_bonus}" if m.damage_bonus else ""
        how = f" ({claw_power})" if claw_power else ""
        steps.add(f"Damage: Strength {strength}{bonus} = {pool} dice{how}.", m.source)
    extra = net - 1
    if extra > 0:
        if m.has("thrown") and not sit.thrown_extra_successes:
            steps.add(f"Thrown weapon: the {extra} extra success(es) add no damage.", '004 "Determine Damage"')
        else:
            pool += extra
            steps.add(f"{extra} success(es) beyond the first: +{extra} damage dice ({pool}).", R_RESOLUTION)
    size_key = profile.called_shots[c.called_shot] if c.called_shot else c.target_size
    if size_key:
        size = profile.target_sizes[size_key]
        if size.damage and c.stake and size.no_stake_damage:
            steps.add("The targeting bonus to damage does not apply to a staking attempt.", '004 "Targeting"')
        elif size.damage:
            pool += size.damage
            steps.add(f"{size.label}: +{size.damage} damage dice ({pool}).",
                      '000 "Targeting"' if profile.key != "dark_ages" else '004 "Targeting"')
    if (c.target_immobilized or t.track.staked) and sit.immobilized == "damage_dice":
        pool += sit.immobilized_damage_dice
        steps.add(f"{t.name} is completely immobilized: +{sit.immobilized_damage_dice} damage dice ({pool}).",
                  '004 "Immobilized Targets"')
    if strength_based and a.wound_penalty:
        pool -= a.wound_penalty
        steps.add(f"Wound penalties apply to Strength damage: -{a.wound_penalty} ({pool}).", '001 "Note"')
    if pool < 1:
        steps.add("A damage pool is never below one die once the attack hits: 1 die.", R_DAMAGE)
        pool = 1
    potence = a.discipline("Potence") if strength_based else 0
    if potence:
        steps.add(f"Potence {potence}: {potence} automatic success(es) on the damage roll.", '000 "Bashing Damage"')
    return pool, potence, None


def attack_damage_type(base_type: str, card: Weapon | None, c: Circumstances, steps: Explanation) -> str:
    """Fire and sunlight do aggravated damage (000 "Damage Types": "Fire, sunlight ... are considered
    aggravated damage"); blunt weapons aimed at the head do lethal damage (000 "Melee Weapons Chart")."""
    if c.source in ("fire", "sunlight"):
        if base_type != "aggravated":
            steps.add(f"The {c.source} does aggravated damage.", '000 "Damage Types"')
        return "aggravated"
    if card is not None and card.blunt and base_type == "bashing" and c.called_shot == "head":
        steps.add("A blunt weapon aimed at the head does lethal damage.", '000 "Melee Weapons Chart"')
        return "lethal"
    return base_type


def soak_and_mark(levels: int, kind: str, t: Fighter, card: Weapon | None, c: Circumstances, roller: DiceRoller,
                  settings: ChronicleSettings, steps: Explanation,
                  soak_roll: str = "soak") -> tuple[SoakRuling | None, HealthTrack, int]:
    """Soak ``levels`` of ``kind`` and mark what is left on ``t``'s track (000 "Soak", "Damage
    Types", "Health Chart"; :func:`larp.rules.soak.soak_damage`). The damage's source
    (``c.source``: fire, sunlight) goes with it: only Fortitude soaks aggravated fire or
    sunlight, armor does not protect against them, and sunlight does not harm a mortal
    (000 "Soak", "Armor", "Aggravated Damage").

    Raises:
        DiceNeeded: the soak roll has no faces and there is no random source.
    """
    head_shot = c.called_shot == "head" or (c.called_shot == "heart" and card is not None
                                            and card.bashing_vs_kindred and not card.firearm)
    weapon_key = card.key if card is not None else None
    defender = Defender(creature=t.creature, stamina=t.attribute("Stamina"), fortitude=t.discipline("Fortitude"),
                        armor=t.armor, helmet=t.helmet, shield=t.shield)
    faces = roller.given.get(soak_roll)
    if levels and faces is None and roller.rng is None:
        taken, _ = damage_type_against(kind, t.creature, bashing_vs_kindred=bool(card and card.bashing_vs_kindred),
                                       firearm=bool(card and card.firearm), head_shot=head_shot,
                                       source=c.source, firearm_rule=firearm_reading(settings, "tabletop"))
        pool = soak_pool(defender, taken, c.source, settings=settings)[0] if taken else 0
        if pool:
            raise DiceNeeded(soak_roll, pool, soak_difficulty(), steps.steps(), t.name)
    if faces is not None:
        check_faces(faces, len(faces), f"dice.{soak_roll}")
    try:
        soak = soak_damage(levels, kind, defender, weapon_key=weapon_key, head_shot=head_shot, source=c.source,
                           stake_at_heart=c.stake, dice=faces, rng=roller.rng, who=t.name, settings=settings)
    except RulesError as exc:
        if exc.field == "dice":
            raise RulesError(exc.message, field=f"dice.{soak_roll}") from None
        raise
    if soak.roll is not None:
        roller.made[soak_roll] = soak.roll.dice
    if soak.levels == 0 and not soak.staked:
        steps.extend(soak.steps)
        return soak, t.track, 0
    health = soak.apply_to(t.track, settings, t.name)
    steps.extend(marking_details(health.steps, t.name))
    if health.marked:
        steps.add(damage_line(t.name, health.track), R_HEALTH)
    return soak, health.track, health.marked


def marking_details(steps, who: str) -> list:
    """The marking's steps without its own "takes ... and is now ..." lines (the soak already said what
    he takes, and :func:`damage_line` says where it leaves him, once): what is left is what the marking
    decided beyond that (torpor, Final Death, a stake, a mark made worse) (000 "Applying Damage";
    met-reference 4.1)."""
    def is_line(step) -> bool:
        text = step.text
        return step.rule == "LotNR Health (met-reference 4.1)" and (
            (text.startswith(f"{who} is ") and " and takes " in text)
            or (text.startswith(f"{who} takes ") and (" and is now " in text or " marked; " in text)))
    return [step for step in steps if not is_line(step)]


def damage_line(who: str, track: HealthTrack) -> str:
    """Where the damage leaves him, said once with both sets of level names labelled: the tabletop
    chart's level and penalty, and the live track's level for the same damage (met-reference 4.3)."""
    view = tabletop_view(track)
    penalty = view["dice_penalty"]
    dice_text = ("no action possible" if penalty is None else f"-{abs(penalty)} dice to actions" if penalty
                 else "no dice penalty")
    live = standing(track)
    text = f"{who} is now {view['level']} on the tabletop Health chart ({dice_text})"
    if live.lower() != view["level"].lower():
        text += f"; on the live track the same damage is {live}"
    return text + "."


def knock_down(who: Fighter, track: HealthTrack, m: Maneuver, avoid_roll: str, rise_roll: str, roller: DiceRoller,
               settings: ChronicleSettings, steps: Explanation, effects: list[Effect],
               unbalance: bool = False) -> HealthTrack:
    """Dexterity + Athletics to stay up, then to rise (000 "Sweep", "Tackle", "Knockdown")."""
    if track.condition != "active":
        return track
    pool = who.attribute("Dexterity") + who.ability("Athletics")
    stay = roller.roll(avoid_roll, pool, m.knockdown_difficulty, can_botch=False, who=who.name)
    roll_step(stay, f"{who.name}'s Dexterity + Athletics to stay up", steps, m.source)
    if stay.net:
        steps.add(f"{who.name} keeps his feet.", m.source)
        if unbalance:
            steps.add(f"{who.name} is unbalanced: +1 difficulty to his actions next turn.", '000 "Tackle"')
            effects.append(Effect(who.key, "unbalanced", f"{who.name} is unbalanced: +1 difficulty next turn."))
        return track
    steps.add(f"{who.name} is knocked down.", R_KNOCKDOWN)
    effects.append(Effect(who.key, "knocked_down", f"{who.name} is knocked down."))
    rise = roller.roll(rise_roll, pool, DEFAULT_DIFFICULTY, who=who.name)
    roll_step(rise, f"{who.name}'s Dexterity + Athletics to get up", steps, R_KNOCKDOWN)
    if rise.net:
        steps.add(f"{who.name} is back on his feet at once, his initiative reduced by two next turn.", R_KNOCKDOWN)
        effects.append(Effect(who.key, "slowed", f"{who.name}: initiative -2 next turn (rose from a knockdown)."))
        return track
    steps.add(f"{who.name} spends his next action climbing to his feet, if he chooses to rise.", R_KNOCKDOWN)
    effects.append(Effect(who.key, "rising", f"{who.name} spends his next action getting up."))
    if rise.botch:
        steps.add(f"A botch: {who.name} lands hard and takes an automatic level of bashing damage.",
                  '003 "Knockdown"', setting="tabletop_botch")
        health = apply_damage(track, "bashing", 1, who.name, settings)
        steps.extend(marking_details(health.steps[1:], who.name))
        steps.add(damage_line(who.name, health.track), R_HEALTH)
        return health.track
    return track


