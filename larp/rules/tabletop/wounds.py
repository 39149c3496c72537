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
        steps.add(N_("Only one target in the strafed area: half the %(n)s success(es) affect him: %(share)s."), m.source,
                  n=net, share=share)
        return share
    leftover = net % c.strafe_targets
    if c.strafe_extra > leftover or (net < c.strafe_targets and c.strafe_extra > 1):
        raise RulesError(Phrase.message(N_("Only %(leftover)s leftover success(es) to assign, one a target when there "
                                           "are fewer successes than targets.") if net < c.strafe_targets
                                        else N_("Only %(leftover)s leftover success(es) to assign."), leftover=leftover),
                         field="strafe_extra")
    share = net // c.strafe_targets + c.strafe_extra
    if c.strafe_extra:
        steps.add(N_("%(n)s success(es) divided evenly among %(targets)s targets, plus %(extra)s leftover: %(share)s for "
                     "this one."), m.source, n=net, targets=c.strafe_targets, extra=c.strafe_extra, share=share)
    else:
        steps.add(N_("%(n)s success(es) divided evenly among %(targets)s targets: %(share)s for this one."), m.source,
                  n=net, targets=c.strafe_targets, share=share)
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
        steps.add(N_("Damage: Strength %(strength)s + %(bonus)s (%(weapon)s) = %(n)s dice."),
                  '001 "Quick Combat Summary Chart"' if card.archery else '000 "Melee Weapons Chart"', strength=strength,
                  bonus=card.strength_bonus, weapon=Phrase.term(card.name), n=pool)
    elif card is not None and m.damage == "weapon":
        pool = card.damage
        if card.firearm and settings["tabletop_firearm_damage"] == "levels":
            steps.add(Phrase.message(N_("Damage: the %(weapon)s's rating, %(n)s, is applied as health levels without a roll."),
                                     weapon=Phrase.term(card.name), n=pool),
                      '001 "Quick Combat Summary Chart"', setting="tabletop_firearm_damage")
            return 0, 0, pool
        steps.add(N_("Damage: the %(weapon)s's %(n)s dice."), '000 "Ranged Weapons Chart"',
                  "tabletop_firearm_damage" if card.firearm else None, weapon=Phrase.term(card.name), n=pool)
    else:
        strength = a.attribute("Strength")
        pool = strength + m.damage_bonus
        said = dict(strength=strength, bonus=m.damage_bonus, n=pool, power=claw_power or "")
        if m.damage_bonus:
            steps.add(N_("Damage: Strength %(strength)s + %(bonus)s = %(n)s dice (%(power)s).") if claw_power else
                      N_("Damage: Strength %(strength)s + %(bonus)s = %(n)s dice."), m.source, **said)
        else:
            steps.add(N_("Damage: Strength %(strength)s = %(n)s dice (%(power)s).") if claw_power else
                      N_("Damage: Strength %(strength)s = %(n)s dice."), m.source, **said)
    extra = net - 1
    if extra > 0:
        if m.has("thrown") and not sit.thrown_extra_successes:
            steps.add(N_("Thrown weapon: the %(n)s extra success(es) add no damage."), '004 "Determine Damage"', n=extra)
        else:
            pool += extra
            steps.add(N_("%(n)s success(es) beyond the first: +%(n)s damage dice (%(pool)s)."), R_RESOLUTION, n=extra,
                      pool=pool)
    size_key = profile.called_shots[c.called_shot] if c.called_shot else c.target_size
    if size_key:
        size = profile.target_sizes[size_key]
        if size.damage and c.stake and size.no_stake_damage:
            steps.add(Phrase.message(N_("The targeting bonus to damage does not apply to a staking attempt.")),
                      '004 "Targeting"')
        elif size.damage:
            pool += size.damage
            steps.add(N_("%(size)s: +%(n)s damage dice (%(pool)s)."),
                      '000 "Targeting"' if profile.key != "dark_ages" else '004 "Targeting"', size=Phrase.term(size.label),
                      n=size.damage, pool=pool)
    if (c.target_immobilized or t.track.staked) and sit.immobilized == "damage_dice":
        pool += sit.immobilized_damage_dice
        steps.add(N_("%(name)s is completely immobilized: +%(n)s damage dice (%(pool)s)."), '004 "Immobilized Targets"',
                  name=t.name, n=sit.immobilized_damage_dice, pool=pool)
    if strength_based and a.wound_penalty:
        pool -= a.wound_penalty
        steps.add(N_("Wound penalties apply to Strength damage: -%(penalty)s (%(pool)s)."), '001 "Note"',
                  penalty=a.wound_penalty, pool=pool)
    if pool < 1:
        steps.add(Phrase.message(N_("A damage pool is never below one die once the attack hits: 1 die.")), R_DAMAGE)
        pool = 1
    potence = a.discipline("Potence") if strength_based else 0
    if potence:
        steps.add(N_("Potence %(n)s: %(n)s automatic success(es) on the damage roll."), '000 "Bashing Damage"', n=potence)
    return pool, potence, None


def attack_damage_type(base_type: str, card: Weapon | None, c: Circumstances, steps: Explanation) -> str:
    """Fire and sunlight do aggravated damage (000 "Damage Types": "Fire, sunlight ... are considered
    aggravated damage"); blunt weapons aimed at the head do lethal damage (000 "Melee Weapons Chart")."""
    if c.source in ("fire", "sunlight"):
        if base_type != "aggravated":
            steps.add(Phrase.message(N_("The fire does aggravated damage.") if c.source == "fire" else
                                     N_("The sunlight does aggravated damage.")), '000 "Damage Types"')
        return "aggravated"
    if card is not None and card.blunt and base_type == "bashing" and c.called_shot == "head":
        steps.add(Phrase.message(N_("A blunt weapon aimed at the head does lethal damage.")), '000 "Melee Weapons Chart"')
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


def damage_line(who: str, track: HealthTrack) -> Phrase:
    """Where the damage leaves him, said once with both sets of level names labelled: the tabletop
    chart's level and penalty, and the live track's level for the same damage (met-reference 4.3)."""
    view = tabletop_view(track)
    penalty = view["dice_penalty"]
    dice = (Phrase.message(N_("no action possible")) if penalty is None else
            Phrase.message(N_("-%(n)s dice to actions"), n=abs(penalty)) if penalty else
            Phrase.message(N_("no dice penalty")))
    live = standing(track)
    said = dict(name=who, level=Phrase.term(view["level"]), dice=dice)
    if live.lower() != view["level"].lower():
        return Phrase.message(N_("%(name)s is now %(level)s on the tabletop Health chart (%(dice)s); on the live track the "
                                 "same damage is %(live)s."), live=Phrase.term(live), **said)
    return Phrase.message(N_("%(name)s is now %(level)s on the tabletop Health chart (%(dice)s)."), **said)


def knock_down(who: Fighter, track: HealthTrack, m: Maneuver, avoid_roll: str, rise_roll: str, roller: DiceRoller,
               settings: ChronicleSettings, steps: Explanation, effects: list[Effect],
               unbalance: bool = False) -> HealthTrack:
    """Dexterity + Athletics to stay up, then to rise (000 "Sweep", "Tackle", "Knockdown")."""
    if track.condition != "active":
        return track
    pool = who.attribute("Dexterity") + who.ability("Athletics")
    stay = roller.roll(avoid_roll, pool, m.knockdown_difficulty, can_botch=False, who=who.name)
    roll_step(stay, Phrase.message(N_("%(name)s's Dexterity + Athletics to stay up"), name=who.name), steps, m.source)
    if stay.net:
        steps.add(N_("%(name)s keeps his feet."), m.source, name=who.name)
        if unbalance:
            steps.add(N_("%(name)s is unbalanced: +1 difficulty to his actions next turn."), '000 "Tackle"', name=who.name)
            effects.append(Effect(who.key, "unbalanced", Phrase.message(
                N_("%(name)s is unbalanced: +1 difficulty next turn."), name=who.name)))
        return track
    steps.add(N_("%(name)s is knocked down."), R_KNOCKDOWN, name=who.name)
    effects.append(Effect(who.key, "knocked_down", Phrase.message(N_("%(name)s is knocked down."), name=who.name)))
    rise = roller.roll(rise_roll, pool, DEFAULT_DIFFICULTY, who=who.name)
    roll_step(rise, Phrase.message(N_("%(name)s's Dexterity + Athletics to get up"), name=who.name), steps, R_KNOCKDOWN)
    if rise.net:
        steps.add(N_("%(name)s is back on his feet at once, his initiative reduced by two next turn."), R_KNOCKDOWN,
                  name=who.name)
        effects.append(Effect(who.key, "slowed", Phrase.message(
            N_("%(name)s: initiative -2 next turn (rose from a knockdown)."), name=who.name)))
        return track
    steps.add(N_("%(name)s spends his next action climbing to his feet, if he chooses to rise."), R_KNOCKDOWN,
              name=who.name)
    effects.append(Effect(who.key, "rising", Phrase.message(N_("%(name)s spends his next action getting up."),
                                                            name=who.name)))
    if rise.botch:
        steps.add(Phrase.message(N_("A botch: %(name)s lands hard and takes an automatic level of bashing damage."),
                                 name=who.name), '003 "Knockdown"', setting="tabletop_botch")
        health = apply_damage(track, "bashing", 1, who.name, settings, game="tabletop")
        steps.extend(marking_details(health.steps[1:], who.name))
        steps.add(damage_line(who.name, health.track), R_HEALTH)
        return health.track
    return track


