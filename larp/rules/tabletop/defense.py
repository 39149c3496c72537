"""A tabletop target's defense: aborting to a defense with Willpower, dodges, blocks and
parries, and the riposte (000 "Defensive Maneuvers", "Aborting Actions"; 004 "Target
Defends"). Part of :mod:`larp.rules.tabletop.combat`.
"""

from __future__ import annotations

from dataclasses import dataclass

from larp.rules.damage import Weapon
from larp.rules.explain import Explanation, RulesError
from larp.rules.health import HealthTrack
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.actions import slot_dice
from larp.rules.tabletop.dice import (
    DEFAULT_DIFFICULTY,
    DiceRoll,
    bounded_difficulty,
    check_difficulty,
    roll_step,
)
from larp.rules.tabletop.maneuvers import Maneuver, Profile
from larp.rules.tabletop.combatants import (
    _DEFENSE,
    _DAMAGE,
    _HEALTH,
    Fighter,
    Circumstances,
    DefenseChoice,
    Attack,
    _Dice,
    _count,
    _level,
)
from larp.rules.tabletop.wounds import (
    _soak_and_mark,
)

def _abort(defense: DefenseChoice, t: Fighter, profile: Profile, roller: _Dice,
           steps: Explanation) -> tuple[DefenseChoice | None, bool]:
    """The Willpower roll or point to abort to a defense (000 "Aborting Actions"; 004 "Aborting to Defense")."""
    rule = '000 "Aborting Actions"' if profile.key != "dark_ages" else '004 "Aborting to Defense"'
    if defense.abort == "point":
        if t.willpower_points is not None and t.willpower_points < 1:
            raise RulesError(f"{t.name} has no Willpower point left to spend.", field="defense.abort")
        steps.add(f"{t.name} spends a Willpower point to abort to a {defense.maneuver}.", rule)
        return defense, True
    wp = roller.roll("abort", t.willpower, DEFAULT_DIFFICULTY, who=t.name)
    roll_step(wp, f"{t.name}'s Willpower roll to abort", steps, rule)
    if wp.net == 0:
        steps.add(f"The Willpower roll fails: {t.name} must carry out the declared action and cannot "
                  f"{defense.maneuver}.", rule)
        return None, False
    return defense, False


@dataclass
class _DefensePlan:
    """A defense checked before the attack roll, rolled only if the attack succeeds."""

    name: str
    source: str
    pool: int
    difficulty: int
    steps: Explanation


def _plan_defense(defense: DefenseChoice, attack: Attack, m: Maneuver, card: Weapon | None, profile: Profile,
                  settings: ChronicleSettings) -> _DefensePlan:
    """Check the target's defense and work out its pool and difficulty (000 "Defensive Maneuvers"; 004
    "Defensive Maneuvers"), before any die is rolled, so bad input changes nothing."""
    t = attack.target
    sit = profile.situation
    if t.wound_penalty is None:
        raise RulesError(f"{t.name} can take no action and cannot defend.", field="defense.maneuver")
    if defense.maneuver == "escape":
        attr, ability, d_name, d_source = "Strength", "Brawl", "resisted Strength + Brawl", m.source
    else:
        d = profile.maneuver(defense.maneuver, "defense.maneuver")
        if d.kind != "defensive":
            raise RulesError(f"{d.name} is not a defense (block, dodge or parry).", field="defense.maneuver")
        attr, ability, d_name, d_source = d.attribute, d.abilities[0], d.name.lower(), d.source
        if m.kind not in d.against:
            raise RulesError(f"A {d_name} cannot stop a {m.kind} attack ({d_source}).", field="defense.maneuver")
    attack_type = card.damage_type if card and m.damage_type == "weapon" else m.damage_type
    uses_weapon = card is not None and m.kind == "close"
    extra: list[tuple[int, str, str]] = []
    if defense.maneuver == "block":
        protected = t.discipline("Fortitude") > 0 or bool(t.armor)
        if attack_type in ("lethal", "aggravated", "power") and not protected:
            raise RulesError(f"{t.name} cannot block a lethal or aggravated attack without Fortitude or armor "
                             f"({d_source}).", field="defense.maneuver")
        if uses_weapon and sit.block_melee_at_brawl and t.ability("Brawl") < sit.block_melee_at_brawl:
            raise RulesError(f"Only brawling attacks can be blocked; Brawl {sit.block_melee_at_brawl} or more "
                             f"may block a melee weapon ({d_source}).", field="defense.maneuver")
    if defense.maneuver == "parry":
        blade = t.weapon_card()
        if blade is None or not blade.melee:
            raise RulesError(f"{t.name} has no melee weapon to parry with.", field="defense.maneuver")
        if not uses_weapon and sit.parry_brawl_difficulty:
            extra.append((sit.parry_brawl_difficulty, "A weapon parrying a brawling attack", d_source))
    if defense.dodge_modifiers:
        if defense.maneuver != "dodge" or not profile.dodge_modifiers:
            raise RulesError("Dodge modifiers are the Dark Ages dodge table's.", field="defense.dodge_modifiers")
        for key in defense.dodge_modifiers:
            row = profile.dodge_modifiers.get(key)
            if row is None:
                raise RulesError(f"There is no dodge modifier {key!r} ({', '.join(profile.dodge_modifiers)}).",
                                 field="defense.dodge_modifiers")
            if row.kind != m.kind:
                raise RulesError(f"\"{row.label}\" applies to {row.kind} attacks only.",
                                 field="defense.dodge_modifiers")
            extra.append((row.difficulty, row.label, '004 "Dodge Modifiers"'))
    _count(defense.attackers, "defense.attackers", 1, 20)
    if defense.attackers > 1:
        extra.append((min(defense.attackers - 1, sit.opponents_max), f"{defense.attackers} attackers",
                      '000 "Multiple Opponents"'))
    if m.has("strafing") and defense.maneuver == "dodge":
        extra.append((sit.strafing_dodge_difficulty, "Dodging strafing", '000 "Strafing"'))
    steps = Explanation()
    attr_dots, ability_dots = t.attribute(attr), t.ability(ability)
    pool = attr_dots + ability_dots
    steps.add(f"{t.name} defends with a {d_name}: {attr} {attr_dots} + {ability} {ability_dots} = {pool} dice.",
              d_source)
    pool, slot_step = slot_dice(pool, defense.slot, settings, t.name)
    if slot_step:
        steps.extend([slot_step])
    if t.wound_penalty:
        pool -= t.wound_penalty
        steps.add(f"{t.name} is {_level(t.track)}: wound penalty -{t.wound_penalty} ({pool}).", _HEALTH)
    if attr == "Dexterity":
        armor_dice, why = t.armor_penalty(profile)
        if armor_dice:
            pool -= armor_dice
            steps.add(f"Armor ({why}): -{armor_dice} from a Dexterity pool ({pool}).", '000 "Armor Chart"')
    difficulty = DEFAULT_DIFFICULTY
    if defense.difficulty is not None:
        difficulty = check_difficulty(defense.difficulty, "defense.difficulty")
        steps.add(f"The narrator sets the defense difficulty: {difficulty}.", "Narrator")
    else:
        for value, text, rule in extra:
            if value:
                difficulty += value
                steps.add(f"{text}: {value:+d} defense difficulty ({difficulty}).", rule)
        difficulty = bounded_difficulty(difficulty, steps, "The defense difficulty")
    return _DefensePlan(d_name, d_source, pool, difficulty, steps)


def _defend(plan: _DefensePlan, t: Fighter, roller: _Dice, steps: Explanation) -> DiceRoll | None:
    """Roll the planned defense (after an attack that succeeded)."""
    steps.extend(plan.steps.steps())
    if plan.pool <= 0:
        steps.add(f"{t.name} has no dice left to {plan.name}: the defense fails.", _DEFENSE)
        return None
    result = roller.roll("defense", plan.pool, plan.difficulty, who=t.name)
    roll_step(result, f"{t.name}'s {plan.name} roll", steps, plan.source)
    return result


def _riposte(attack: Attack, card: Weapon | None, margin: int, roller: _Dice, settings: ChronicleSettings,
             steps: Explanation) -> HealthTrack:
    """A parry that beats a Brawl attack with a lethal weapon hurts the attacker (000, 003 "Parry")."""
    a, t = attack.attacker, attack.target
    weapon = t.weapon_card()
    if card is not None or weapon is None or weapon.damage_type != "lethal" or weapon.strength_bonus is None:
        return a.track
    strength = t.attribute("Strength")
    pool = strength + weapon.strength_bonus + margin
    steps.add(f"{t.name} parries a Brawl attack with a {weapon.name} and rolls {margin} more success(es): "
              f"{a.name} is hurt: Strength {strength} + {weapon.strength_bonus} + {margin} = {pool} damage dice.",
              '000 "Parry"')
    roll = roller.roll("riposte_damage", pool, DEFAULT_DIFFICULTY, can_botch=False, who=t.name)
    roll_step(roll, "Damage roll", steps, _DAMAGE)
    _, track, _ = _soak_and_mark(roll.net, weapon.damage_type, a, weapon, Circumstances(), roller, settings, steps,
                                 soak_roll="riposte_soak")
    return track


