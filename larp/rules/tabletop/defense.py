"""A tabletop target's defense: aborting to a defense with Willpower, dodges, blocks and
parries, checked before the attack roll and rolled after it, their successes subtracted
first, and the riposte (000 "Defensive Maneuvers", "Aborting Actions"; 004 "Target Defends").

Part of :mod:`larp.rules.tabletop.combat`: :func:`prepare_defense` and :func:`subtract_defense`
are phases over the :class:`.attack_state.AttackState`.
"""

from __future__ import annotations

from larp.rules.explain import N_, Explanation, Phrase, RulesError
from larp.rules.health import HealthTrack
from larp.rules.tabletop.actions import slot_dice
from larp.rules.tabletop.attack_state import AttackState, DefensePlan
from larp.rules.tabletop.combatants import (
    R_DAMAGE,
    R_DEFENSE,
    R_HEALTH,
    Circumstances,
    DefenseChoice,
    Effect,
    check_count,
    tabletop_level,
)
from larp.rules.tabletop.dice import (
    DEFAULT_DIFFICULTY,
    DiceRoll,
    bounded_difficulty,
    check_difficulty,
    roll_step,
)
from larp.rules.tabletop.situation import blinded_defense
from larp.rules.tabletop.wounds import soak_and_mark

R_SHARED = '004 "Dodging"'


def prepare_defense(state: AttackState) -> None:
    """Check the target's defense before any die is rolled (so bad input changes nothing), and
    make the Willpower roll or spend the point to abort to it, which comes before the attack
    roll (000 "Defensive Maneuvers", "Aborting Actions"; 004 "Aborting to Defense"). Under Dark
    Ages a hold that goes on is resisted with Strength + Brawl, not a declared defense (004
    "Bear Hug/Clinch"). No defense is planned against an automatic hit.

    Raises:
        RulesError: a defense the target cannot make, naming the field (``defense.maneuver``...).
    """
    m, t = state.maneuver, state.attack.target
    defense = state.defense
    if state.continuing and state.profile.key == "dark_ages":
        if defense is not None:
            raise RulesError(Phrase.message(N_("Against a %(name)s that goes on, %(name2)s resists with Strength + "
                                               "Brawl, not a %(maneuver)s."),
                                            name=m.name.lower(), name2=t.name, maneuver=defense.maneuver),
                             field="defense.maneuver")
        defense = DefenseChoice("escape")
    if defense is not None and defense.maneuver == "passive_parry":
        state.defense = None  # no roll and no action: it raised the attack's difficulty (004)
        return
    if defense is not None and defense.shared is not None:
        _check_shared(state, defense)
    elif defense is not None and not state.automatic:
        state.plan = _plan(state, defense)
    if defense is not None and defense.abort:
        if defense.abort not in ("roll", "point"):
            raise RulesError(Phrase.message(N_("Abort by a Willpower roll or by spending a Willpower point.")),
                             field="defense.abort")
        defense, willpower_spent = _abort(state, defense)
        if willpower_spent:
            state.effects.append(Effect(t.key, "willpower_spent", Phrase.message(
                N_("%(name)s spends a Willpower point to abort."), name=t.name)))
    state.defense = defense


def subtract_defense(state: AttackState) -> None:
    """Roll the planned defense after an attack that succeeded; its successes are subtracted
    first, and the attack must keep at least one. A hold broken, or an attack cancelled, ends
    the attack; a parry that beats a Brawl attack with a lethal weapon hurts the attacker (000
    "Defensive Maneuvers", "Parry"; 004 "Target Defends")."""
    defense, plan = state.defense, state.plan
    m, a, t, steps = state.maneuver, state.attack.attacker, state.attack.target, state.steps
    if defense is not None and defense.shared is not None and not state.automatic:
        got = defense.shared
        gives = Phrase.message(N_("%(name)s gives this attack %(n)s of the successes of the one dodge roll made this "
                                  "turn."), name=t.name, n=got)
        steps.add(gives, R_SHARED)
        state.effects.append(Effect(t.key, "dodge_shared", gives, count=got))
    else:
        if defense is None or plan is None:
            return
        state.defense_roll = roll = _roll(state, plan)
        if roll is None:
            return
        got = roll.net
    net = state.net
    left = net - got
    if defense.maneuver == "escape":
        if left < 0:
            steps.add(N_("%(name)s breaks the %(maneuver)s."), m.source, name=t.name, maneuver=Phrase.term(m.name.lower()))
            broken = Phrase.message(N_("%(name)s breaks free of %(holder)s's %(maneuver)s."), name=t.name, holder=a.name,
                                    maneuver=Phrase.term(m.name.lower()))
            state.effects.append(Effect(t.key, "hold_broken", broken))
            state.missed = broken
            return
    if left <= 0:
        steps.add(N_("%(name)s's %(n)s defense success(es) cancel the attack's %(net)s: the attack misses."), R_DEFENSE,
                  name=t.name, n=got, net=net)
        if defense.maneuver == "parry" and left < 0:
            state.attacker_track = _riposte(state, -left)
        state.missed = Phrase.message(N_("%(name)s avoids %(attacker)s's %(maneuver)s."), name=t.name, attacker=a.name,
                                      maneuver=Phrase.term(m.name.lower()))
        return
    steps.add(N_("%(name)s's %(n)s defense success(es) leave %(left)s of %(net)s."), R_DEFENSE, name=t.name, n=got,
              left=left, net=net)
    state.net = left


def _check_shared(state: AttackState, defense: DefenseChoice) -> None:
    """Dark Ages: a defender facing several attacks may divide the successes of one Dexterity +
    Dodge roll between the attackers (004 "Dodging"; the roll: :mod:`.shared_dodge`).

    Raises:
        RulesError: outside the Dark Ages profile, not a dodge, or not a whole number of successes.
    """
    if state.profile.key != "dark_ages" or defense.maneuver != "dodge":
        raise RulesError(Phrase.message(N_("Dividing one dodge roll's successes between attackers is the Dark Ages "
                                           "dodge (004).")),
                         field="defense.shared")
    check_count(defense.shared, "defense.shared", 0, 30)
    if state.attack.target.wound_penalty is None:
        raise RulesError(Phrase.message(N_("%(name)s can take no action and cannot defend."),
                                        name=state.attack.target.name),
                         field="defense.maneuver")


def _abort(state: AttackState, defense: DefenseChoice) -> tuple[DefenseChoice | None, bool]:
    """The Willpower roll or point to abort to a defense (000 "Aborting Actions"; 004 "Aborting to Defense")."""
    t, steps = state.attack.target, state.steps
    rule = '000 "Aborting Actions"' if state.profile.key != "dark_ages" else '004 "Aborting to Defense"'
    if defense.abort == "point":
        if t.willpower_points is not None and t.willpower_points < 1:
            raise RulesError(Phrase.message(N_("%(name)s has no Willpower point left to spend."), name=t.name),
                             field="defense.abort")
        steps.add(N_("%(name)s spends a Willpower point to abort to a %(maneuver)s."), rule, name=t.name,
                  maneuver=Phrase.term(defense.maneuver))
        return defense, True
    wp = state.roller.roll("abort", t.willpower, DEFAULT_DIFFICULTY, who=t.name)
    roll_step(wp, Phrase.message(N_("%(name)s's Willpower roll to abort"), name=t.name), steps, rule)
    if wp.net == 0:
        steps.add(N_("The Willpower roll fails: %(name)s must carry out the declared action and cannot %(maneuver)s."),
                  rule, name=t.name, maneuver=Phrase.term(defense.maneuver))
        return None, False
    return defense, False


def _plan(state: AttackState, defense: DefenseChoice) -> DefensePlan:
    """The target's defense checked, with its pool and difficulty (000 "Defensive Maneuvers"; 004
    "Defensive Maneuvers")."""
    t, m, profile = state.attack.target, state.maneuver, state.profile
    if t.wound_penalty is None:
        raise RulesError(Phrase.message(N_("%(name)s can take no action and cannot defend."), name=t.name),
                         field="defense.maneuver")
    if defense.maneuver == "escape":
        attr, ability, d_name, d_source = "Strength", "Brawl", N_("resisted Strength + Brawl"), m.source
    else:
        d = profile.maneuver(defense.maneuver, "defense.maneuver")
        if d.kind != "defensive":
            raise RulesError(Phrase.message(N_("%(name)s is not a defense (block, dodge or parry)."), name=d.name),
                             field="defense.maneuver")
        attr, ability, d_name, d_source = d.attribute, d.abilities[0], d.name.lower(), d.source
        if m.kind not in d.against:
            raise RulesError(Phrase.message(N_("A %(d_name)s cannot stop a %(kind)s attack (%(d_source)s)."),
                                            d_name=d_name, kind=m.kind, d_source=d_source), field="defense.maneuver")
    extra = _defense_difficulties(state, defense, d_source)
    steps = Explanation()
    attr_dots, ability_dots = t.attribute(attr), t.ability(ability)
    pool = attr_dots + ability_dots
    steps.add(N_("%(name)s defends with a %(defense)s: %(attribute)s %(attribute_dots)s + %(ability)s %(ability_dots)s = "
                 "%(n)s dice."), d_source, name=t.name, defense=Phrase.term(d_name), attribute=Phrase.term(attr),
              attribute_dots=attr_dots, ability=ability, ability_dots=ability_dots, n=pool)
    pool, slot_step = slot_dice(pool, defense.slot, state.settings, t.name)
    if slot_step:
        steps.extend([slot_step])
    if t.wound_penalty:
        pool -= t.wound_penalty
        steps.add(N_("%(name)s is %(level)s: wound penalty -%(penalty)s (%(pool)s)."), R_HEALTH, name=t.name,
                  level=Phrase.term(tabletop_level(t.track)), penalty=t.wound_penalty, pool=pool)
    if attr == "Dexterity":
        armor_dice, why = t.armor_penalty(profile)
        if armor_dice:
            pool -= armor_dice
            steps.add(N_("Armor (%(why)s): -%(n)s from a Dexterity pool (%(pool)s)."), '000 "Armor Chart"', why=why,
                      n=armor_dice, pool=pool)
    difficulty = DEFAULT_DIFFICULTY
    if defense.difficulty is not None:
        difficulty = check_difficulty(defense.difficulty, "defense.difficulty")
        steps.add(N_("The narrator sets the defense difficulty: %(difficulty)s."), "Narrator", difficulty=difficulty)
    else:
        for value, text, rule in extra:
            if value:
                difficulty += value
                steps.add(N_("%(what)s: %(change)s defense difficulty (%(difficulty)s)."), rule, what=text,
                          change=f"{value:+d}", difficulty=difficulty)
        difficulty = bounded_difficulty(difficulty, steps, Phrase.message(N_("The defense difficulty")))
    return DefensePlan(d_name, d_source, pool, difficulty, steps)


def _defense_difficulties(state: AttackState, defense: DefenseChoice, d_source: str) -> list[tuple[int, str, str]]:
    """What the defense may meet (a block needs Fortitude or armor against lethal harm, and Brawl
    against a weapon; a parry needs a blade), and what adds to its difficulty (a blade against
    a brawler, the Dark Ages dodge table, several attackers, strafing) (000 "Defensive
    Maneuvers", "Multiple Opponents", "Strafing"; 004 "Dodge Modifiers")."""
    t, m, card, profile = state.attack.target, state.maneuver, state.card, state.profile
    sit = profile.situation
    attack_type = card.damage_type if card and m.damage_type == "weapon" else m.damage_type
    uses_weapon = card is not None and m.kind == "close"
    extra: list[tuple[int, str, str]] = []
    if defense.maneuver == "block":
        protected = t.discipline("Fortitude") > 0 or bool(t.armor)
        if attack_type in ("lethal", "aggravated", "power") and not protected:
            raise RulesError(Phrase.message(N_("%(name)s cannot block a lethal or aggravated attack without "
                                               "Fortitude or armor (%(d_source)s)."), name=t.name, d_source=d_source),
                             field="defense.maneuver")
        if uses_weapon and sit.block_melee_at_brawl and t.ability("Brawl") < sit.block_melee_at_brawl:
            raise RulesError(Phrase.message(N_("Only brawling attacks can be blocked; Brawl "
                                               "%(block_melee_at_brawl)s or more may block a melee weapon "
                                               "(%(d_source)s)."),
                                            block_melee_at_brawl=sit.block_melee_at_brawl, d_source=d_source),
                             field="defense.maneuver")
    if defense.maneuver == "parry":
        blade = t.weapon_card()
        if defense.with_shield:
            if t.shield is None:
                raise RulesError(Phrase.message(N_("%(name)s has no shield to parry with."), name=t.name),
                                 field="defense.with_shield")
        elif blade is None or not blade.melee:
            raise RulesError(Phrase.message(N_("%(name)s has no melee weapon to parry with (parry with the shield).")
                                            if t.shield else N_("%(name)s has no melee weapon to parry with."),
                                            name=t.name), field="defense.maneuver")
        if not uses_weapon and sit.parry_brawl_difficulty and not defense.with_shield:
            extra.append((sit.parry_brawl_difficulty, Phrase.message(N_("A weapon parrying a brawling attack")), d_source))
    if defense.dodge_modifiers:
        if defense.maneuver != "dodge" or not profile.dodge_modifiers:
            raise RulesError(Phrase.message(N_("Dodge modifiers are the Dark Ages dodge table's.")),
                             field="defense.dodge_modifiers")
        for key in defense.dodge_modifiers:
            row = profile.dodge_modifiers.get(key)
            if row is None:
                raise RulesError(Phrase.message(N_("There is no dodge modifier %(key)s (%(value)s)."),
                                                key=repr(key), value=', '.join(profile.dodge_modifiers)),
                                 field="defense.dodge_modifiers")
            if row.kind != m.kind:
                raise RulesError(Phrase.message(N_("\"%(label)s\" applies to %(kind)s attacks only."),
                                                label=row.label, kind=row.kind),
                                 field="defense.dodge_modifiers")
            extra.append((row.difficulty, Phrase.term(row.label), '004 "Dodge Modifiers"'))
    check_count(defense.attackers, "defense.attackers", 1, 20)
    if defense.attackers > 1:
        extra.append((min(defense.attackers - 1, sit.opponents_max),
                      Phrase.message(N_("%(n)s attackers"), n=defense.attackers), '000 "Multiple Opponents"'))
    if m.has("strafing") and defense.maneuver == "dodge":
        extra.append((sit.strafing_dodge_difficulty, Phrase.message(N_("Dodging strafing")), '000 "Strafing"'))
    blind = blinded_defense(state)
    if blind[0]:
        extra.append(blind)
    return extra


def _roll(state: AttackState, plan: DefensePlan) -> DiceRoll | None:
    """Roll the planned defense (after an attack that succeeded; 000 "Defensive Maneuvers")."""
    t, steps = state.attack.target, state.steps
    steps.extend(plan.steps.steps())
    if plan.pool <= 0:
        steps.add(N_("%(name)s has no dice left to %(defense)s: the defense fails."), R_DEFENSE, name=t.name,
                  defense=Phrase.term(plan.name))
        return None
    result = state.roller.roll("defense", plan.pool, plan.difficulty, who=t.name)
    roll_step(result, Phrase.message(N_("%(name)s's %(defense)s roll"), name=t.name, defense=Phrase.term(plan.name)),
              steps, plan.source)
    return result


def _riposte(state: AttackState, margin: int) -> HealthTrack:
    """A parry that beats a Brawl attack with a lethal weapon hurts the attacker (000, 003 "Parry")."""
    a, t, steps = state.attack.attacker, state.attack.target, state.steps
    weapon = t.weapon_card()
    if state.card is not None or weapon is None or weapon.damage_type != "lethal" or weapon.strength_bonus is None:
        return a.track
    if state.defense is not None and state.defense.with_shield:
        return a.track  # a shield stops the blow; only a lethal blade cuts the brawler
    strength = t.attribute("Strength")
    pool = strength + weapon.strength_bonus + margin
    steps.add(N_("%(name)s parries a Brawl attack with a %(weapon)s and rolls %(margin)s more success(es): %(attacker)s is "
                 "hurt: Strength %(strength)s + %(bonus)s + %(margin)s = %(n)s damage dice."), '000 "Parry"', name=t.name,
              weapon=Phrase.term(weapon.name), margin=margin, attacker=a.name, strength=strength,
              bonus=weapon.strength_bonus, n=pool)
    roll = state.roller.roll("riposte_damage", pool, DEFAULT_DIFFICULTY, can_botch=False, who=t.name)
    roll_step(roll, Phrase.message(N_("Damage roll")), steps, R_DAMAGE)
    _, track, _ = soak_and_mark(roll.net, weapon.damage_type, a, weapon, Circumstances(), state.roller,
                                state.settings, steps, soak_roll="riposte_soak")
    return track
