"""Stage Two of a tabletop attack: the maneuver and situation checked, the attack pool, the
difficulty, an automatic hit, and the attack roll (000 "Stage Two: Attack", "Maneuver
Characteristics", "Health Chart", "Armor Chart"; 004 "Step-By-Step Combat Turn").

Part of :mod:`larp.rules.tabletop.combat`: :func:`declare_attack` opens the
:class:`.attack_state.AttackState`; :func:`attack_pool`, :func:`attack_difficulty`,
:func:`automatic_hit` and :func:`roll_attack` are phases over it.
"""

from __future__ import annotations

from larp.rules.damage import SOURCES
from larp.rules.explain import N_, Explanation, Phrase, RulesError, turns
from larp.rules.health import CONDITION_LABELS, tabletop_dice_penalty
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.actions import slot_dice
from larp.rules.tabletop.attack_state import AttackState
from larp.rules.tabletop.combatants import (
    CALLED_SHOTS,
    R_ATTACK,
    R_HEALTH,
    RANGES,
    Attack,
    DiceRoller,
    Effect,
    add_dice,
    check_count,
    claw_type,
    fighter_state,
    maneuver_weapon,
    tabletop_level,
)
from larp.rules.tabletop.dice import DEFAULT_DIFFICULTY, bounded_difficulty, check_difficulty, roll_step
from larp.rules.tabletop.maneuvers import Maneuver, Profile, profile_for
from larp.rules.tabletop.situation import (
    blind_difficulty,
    blinded_target_dice,
    blindside_dice,
    check_blind_ranged,
    check_move,
    clip_half_full,
    fire,
    normalized,
    passive_parry,
    reach_dice,
)

#: A ranged attack's range as a step names it (000 "Range"), by the profile's range key.
_RANGES = {"point_blank": N_("Point blank range: difficulty %(difficulty)s."),
           "short": N_("Short range: difficulty %(difficulty)s."), "long": N_("Long range: difficulty %(difficulty)s.")}
#: The target's cover and the attacker's, by the profile's cover key (000 "Cover").
_COVERS = {"light": N_("Light cover"), "good": N_("Good cover"), "superior": N_("Superior cover")}
_FIRING_BACK = {"light": N_("Firing back from light cover"), "good": N_("Firing back from good cover"),
                "superior": N_("Firing back from superior cover")}


def declare_attack(attack: Attack, settings: ChronicleSettings, roller: DiceRoller,
                   steps: Explanation) -> AttackState:
    """Check the attack as declared and open its state: the maneuver is an attack the attacker
    can make on this target (vampires only, a hold first, claws), in a situation it allows
    (range, cover, targeting, aiming, strafing, the off hand, multiple actions, a full clip,
    a weapon's rate of fire, a stake at the heart), with the weapon it needs; and the damage
    type it deals (000 "Maneuver Characteristics", "Ranged Weapons Chart", "Stake Through
    Heart"; 004 "Step-By-Step Combat Turn").

    Raises:
        RulesError: what the rules cannot adjudicate, naming the field.
    """
    profile = profile_for(settings)
    m = profile.maneuver(attack.maneuver)
    attack = normalized(attack, profile)
    a, c = attack.attacker, attack.circumstances
    _check_fighters(attack, profile, m)
    _check_circumstances(attack, profile, m)
    card = maneuver_weapon(m, a)
    state = AttackState(attack, settings, profile, m, roller, steps, a.track, attack.target.track, attack.defense,
                        card=card)
    check_blind_ranged(state)
    if m.has("needs_clip_half_full") and not clip_half_full(state):
        raise RulesError(Phrase.message(N_("%(name)s needs a clip at least half full (%(source)s)."),
                                        name=m.name, source=m.source), field="clip_half_full")
    if m.has("mutual") and c.prior_hold == m.key:
        raise RulesError(Phrase.message(N_("A %(name)s that goes on is its own turn: both roll resisted Strength + "
                                           "Brawl and both take damage (resolve_clinch_turn; %(source)s)."),
                                        name=m.name.lower(), source=m.source), field="maneuver")
    # the damage type and claws first: a character without claws cannot claw
    if m.damage_type == "power":
        state.base_type, state.claw_power = claw_type(m, a)
    elif m.damage_type == "weapon" or (m.weapon == "optional" and card is not None):
        state.base_type = card.damage_type if card else "bashing"
    else:
        state.base_type = m.damage_type
    if m.has("multiple") and m.key == "multiple_shots" and card is not None:
        rate = card.details.get("rate")
        if isinstance(rate, int) and attack.slot.total > rate:
            raise RulesError(Phrase.message(N_("A %(name)s fires at most %(rate)s shots a turn (000 \"Multiple "
                                               "Shots\")."), name=card.name, rate=rate),
                             field="actions.total")
    if c.stake and (card is None or not card.has("Staking") or c.called_shot != "heart"):
        raise RulesError(Phrase.message(N_("Staking needs a stake (or crossbow) aimed at the heart (000 \"Stake "
                                           "Through Heart\").")),
                         field="stake")
    check_move(state)
    fire(state)
    return state


def _check_fighters(attack: Attack, profile: Profile, m: Maneuver) -> None:
    """The maneuver is an attack this attacker can make on this target (000 "Maneuver Characteristics")."""
    a, t, c = attack.attacker, attack.target, attack.circumstances
    if m.kind == "defensive":
        raise RulesError(Phrase.message(N_("%(name)s is a defense: choose it as the target's defense, not as an "
                                           "attack."), name=m.name),
                         field="maneuver")
    if a.key == t.key:
        raise RulesError(Phrase.message(N_("%(name)s cannot attack themself: choose another target."), name=a.name),
                         field="target")
    if a.wound_penalty is None:
        raise RulesError(Phrase.message(N_("%(name)s can take no action (%(value)s)."),
                                        name=a.name, value=fighter_state(a.track)), field="attacker")
    if t.track.destroyed:
        raise RulesError(Phrase.message(N_("%(name)s is %(value)s: nothing left to attack."),
                                        name=t.name, value=CONDITION_LABELS[t.track.condition].lower()),
                         field="target")
    if m.has("vampire_only") and a.creature != "vampire":
        raise RulesError(Phrase.message(N_("Only vampires can use %(name)s: %(name2)s is a %(creature)s."),
                                        name=m.name, name2=a.name, creature=a.creature), field="maneuver")
    if m.needs_hold and c.prior_hold not in m.needs_hold:
        held = [profile.maneuvers[k].name.lower() for k in m.needs_hold]
        names = ", ".join(held[:-1]) + f" or {held[-1]}" if len(held) > 1 else held[0]
        raise RulesError(Phrase.message(N_("%(name)s needs a successful %(names)s on %(name2)s in an earlier turn "
                                           "first (%(source)s)."),
                                        name=m.name, names=names, name2=t.name, source=m.source), field="prior_hold")


def _check_circumstances(attack: Attack, profile: Profile, m: Maneuver) -> None:
    """The situation is one the maneuver allows (000 "Range", "Cover", "Targeting", "Aiming",
    "Strafing", "Two Weapons"; 004 "Multiple Actions")."""
    c = attack.circumstances
    if c.range not in RANGES:
        raise RulesError(Phrase.message(N_("Range is point_blank, short or long.")), field="range")
    if c.source not in SOURCES:
        raise RulesError(Phrase.message(N_("The damage's source is one of %(value)s."), value=', '.join(SOURCES)),
                         field="source")
    for name, value in (("cover", c.cover), ("attacker_cover", c.attacker_cover)):
        if value is not None and value not in profile.cover:
            raise RulesError(Phrase.message(N_("Cover is one of %(value)s."), value=', '.join(profile.cover)),
                             field=name)
    if c.target_size is not None and c.target_size not in profile.target_sizes:
        raise RulesError(Phrase.message(N_("Target size is one of %(value)s."), value=', '.join(profile.target_sizes)),
                         field="target_size")
    if c.called_shot is not None and c.called_shot not in CALLED_SHOTS:
        raise RulesError(Phrase.message(N_("A called shot is at the head or the heart.")), field="called_shot")
    if c.called_shot and c.target_size:
        raise RulesError(Phrase.message(N_("Give a called shot or a target size, not both.")), field="target_size")
    if m.has("no_targeting") and (c.called_shot or c.target_size):
        raise RulesError(Phrase.message(N_("%(name)s cannot target a specific part of the body (%(source)s)."),
                                        name=m.name, source=m.source), field="called_shot")
    if m.kind == "close" and (c.cover or c.attacker_cover):
        raise RulesError(Phrase.message(N_("Cover changes ranged attacks only (000 \"Cover\").")), field="cover")
    check_count(c.opponents, "opponents", 1, 20)
    check_count(c.aim_turns, "aim_turns", 0, 10)
    check_count(c.strafe_targets, "strafe_targets", 1, 10)
    check_count(c.strafe_extra, "strafe_extra", 0, 10)
    check_count(c.ambush_dice, "ambush_dice", 0, 20)
    check_count(c.extra_dice, "extra_dice", -20, 20)
    check_count(c.extra_difficulty, "extra_difficulty", -8, 8)
    if c.difficulty is not None:
        check_difficulty(c.difficulty)
    if c.aim_turns and not m.has("single_shot"):
        raise RulesError(Phrase.message(N_("Aiming adds dice to a single shot, not to %(name)s (000 \"Aiming\")."),
                                        name=m.name.lower()),
                         field="aim_turns")
    if c.scope and not c.aim_turns:
        raise RulesError(Phrase.message(N_("A scope adds dice on the first turn of aiming: aim at least one turn.")),
                         field="scope")
    if (c.strafe_targets > 1 or c.strafe_extra) and not m.has("strafing"):
        raise RulesError(Phrase.message(N_("Targets in the area are for strafing only.")), field="strafe_targets")
    if c.off_hand and not m.has("off_hand"):
        raise RulesError(Phrase.message(N_("The off hand's penalty is for firing two weapons.")), field="off_hand")
    slot = attack.slot
    slot.check()
    if m.has("multiple") and slot.total < 2 and not slot.celerity:
        raise RulesError(Phrase.message(N_("%(name)s is a multiple action: declare at least two actions "
                                           "(%(source)s)."), name=m.name, source=m.source),
                         field="actions.total")


def attack_pool(state: AttackState) -> None:
    """Set the attack pool: Attribute + Ability (no Ability: the Attribute alone), the
    multiple-action rule, the maneuver's accuracy, the situation (flank, rear, a held or
    blinded target, aiming, a scope, an ambush, the narrator), the wound penalty and armor's
    Dexterity penalty (000 "Stage Two: Attack", "Health Chart", "Armor Chart"; 004
    "Blindsiding").

    Raises:
        RulesError: a pool at zero or below (the action cannot be attempted, 000 "Health
            Chart"; 004 "Multiple Actions"), or aiming without the Ability.
    """
    m, a, t = state.maneuver, state.attack.attacker, state.attack.target
    steps, card = state.steps, state.card
    ability = m.abilities[0]
    if len(m.abilities) > 1:
        ability = m.abilities[1] if card is not None else m.abilities[0]
    if card is not None and card.archery and m.kind == "ranged":
        ability = "Archery"  # bows and crossbows in every profile (001 "Quick Combat Summary Chart"; 004)
    attr_dots = a.attribute(m.attribute)
    ability_dots = a.ability(ability)
    base = attr_dots + ability_dots
    if card:
        steps.add(N_("%(name)s uses %(maneuver)s (%(weapon)s) against %(target)s."), m.source, name=a.name,
                  maneuver=Phrase.term(m.name), weapon=Phrase.term(card.name), target=t.name)
    else:
        steps.add(N_("%(name)s uses %(maneuver)s against %(target)s."), m.source, name=a.name,
                  maneuver=Phrase.term(m.name), target=t.name)
    if ability_dots:
        steps.add(N_("Attack pool: %(attribute)s %(attribute_dots)s + %(ability)s %(ability_dots)s = %(n)s dice."),
                  R_ATTACK, attribute=Phrase.term(m.attribute), attribute_dots=attr_dots, ability=ability,
                  ability_dots=ability_dots, n=base)
    else:
        steps.add(N_("Attack pool: no %(ability)s, so %(attribute)s alone: %(n)s dice."), R_ATTACK, ability=ability,
                  attribute=Phrase.term(m.attribute), n=base)
    pool, slot_step = slot_dice(base, state.attack.slot, state.settings, a.name)
    if slot_step:
        steps.extend([slot_step])
    pool = add_dice(steps, pool, m.accuracy, Phrase.message(N_("%(maneuver)s's accuracy"), maneuver=Phrase.term(m.name)),
                    m.source)
    pool = _situation_dice(state, pool, ability, ability_dots)
    penalty = a.wound_penalty or 0
    if penalty:
        pool -= penalty
        steps.add(N_("%(name)s is %(level)s on the tabletop chart: wound penalty -%(penalty)s (%(pool)s)."), R_HEALTH,
                  name=a.name, level=Phrase.term(tabletop_level(a.track)), penalty=penalty, pool=pool)
    elif a.ignore_wounds and tabletop_dice_penalty(a.track) != 0:
        steps.add(N_("%(name)s spent a Willpower point this turn: no wound penalty, though he is %(level)s on the "
                     "tabletop chart."), "LotNR Willpower (met-reference 2.1, 4.1)", name=a.name,
                  level=Phrase.term(tabletop_level(a.track)))
    if m.attribute == "Dexterity":
        armor_dice, why = a.armor_penalty(state.profile)
        if armor_dice:
            pool -= armor_dice
            steps.add(N_("Armor (%(why)s): -%(n)s from a Dexterity pool (%(pool)s)."),
                      '000 "Armor Chart"' if state.profile.key != "dark_ages" else '004 "Armor"', why=why, n=armor_dice,
                      pool=pool)
    if pool <= 0:
        if penalty and pool + penalty > 0:  # the wounds took the last dice, not the multiple actions
            raise RulesError(Phrase.message(N_("%(name)s's wounds (%(value)s, -%(penalty)s) leave his attack pool "
                                               "at %(pool)s dice: the action cannot be attempted (000 \"Health "
                                               "Chart\"). A Willpower point spent this turn ignores the wound "
                                               "penalty (LotNR Willpower)."),
                                            name=a.name, value=tabletop_level(a.track), penalty=penalty, pool=pool),
                             field="actions")
        raise RulesError(Phrase.message(N_("%(name)s's attack pool comes to %(pool)s dice: the action cannot be "
                                           "attempted (004 \"Multiple Actions\")."), name=a.name, pool=pool),
                         field="actions")
    state.pool = pool


def _situation_dice(state: AttackState, pool: int, ability: str, ability_dots: int) -> int:
    """The situation's dice: flank or rear (blindsiding), a held or blinded target, aiming and a
    scope, an ambush's successes, the narrator's modifier (000 "Flank and Rear Attacks",
    "Immobilization", "Blinded", "Aiming", "Ambush"; 004 "Blindsiding", "Immobilized Targets")."""
    profile, steps = state.profile, state.steps
    a, t, c = state.attack.attacker, state.attack.target, state.attack.circumstances
    sit = profile.situation
    if c.flank or c.rear:
        if profile.key == "dark_ages":
            pool = blindside_dice(state, pool)
        else:
            extra = sit.rear_dice if c.rear else sit.flank_dice
            pool = add_dice(steps, pool, extra, Phrase.message(N_("Attack from the rear") if c.rear else
                                                               N_("Attack from the flank")),
                            '000 "Flank and Rear Attacks"')
    if c.target_held:
        pool = add_dice(steps, pool, sit.held_target_dice, Phrase.message(N_("%(name)s is held but struggling"), name=t.name),
                        '000 "Immobilization"' if profile.key != "dark_ages" else '004 "Immobilized Targets"')
    pool = blinded_target_dice(state, pool)
    pool = reach_dice(state, pool)
    if c.aim_turns:
        perception = a.attribute("Perception")
        if ability_dots < 1:
            raise RulesError(Phrase.message(N_("Aiming needs %(ability)s 1 or better; %(name)s has none (000 "
                                               "\"Aiming\")."), ability=ability, name=a.name),
                             field="aim_turns")
        aimed = min(c.aim_turns, perception)
        pool = add_dice(steps, pool, aimed, Phrase.message(N_("%(turns)s aiming, at most Perception %(perception)s"),
                                                           turns=turns(c.aim_turns), perception=perception),
                        '000 "Aiming"')
        if c.scope:
            if not sit.scope_dice:
                raise RulesError(Phrase.message(N_("This profile has no scopes.")), field="scope")
            pool = add_dice(steps, pool, sit.scope_dice, Phrase.message(N_("A scope on the first turn of aiming")),
                            '000 "Aiming"')
    pool = add_dice(steps, pool, c.ambush_dice, Phrase.message(N_("Extra successes from the ambush")), '000 "Ambush"')
    return add_dice(steps, pool, c.extra_dice, Phrase.message(N_("The narrator's modifier")), "Narrator")


def attack_difficulty(state: AttackState) -> None:
    """Set the attack's difficulty: the narrator's, or 6 (ranged: the range's, point blank 4,
    short 6, long 8) plus the maneuver, targeting, cover, opponents past the first (at most +4),
    fighting blind, the off hand, being unbalanced and the narrator's modifier, kept within
    2..10 (000 "Maneuver Characteristics", "Range", "Targeting", "Cover", "Multiple Opponents")."""
    c = state.attack.circumstances
    if c.difficulty is not None:
        state.difficulty = c.difficulty
        state.steps.add(N_("The narrator sets the difficulty: %(difficulty)s."), "Narrator", difficulty=state.difficulty)
        return
    m, a, profile, steps = state.maneuver, state.attack.attacker, state.profile, state.steps
    sit = profile.situation
    if m.kind == "ranged":
        difficulty = profile.ranges[c.range]
        steps.add(_RANGES.get(c.range, N_("%(range)s range: difficulty %(difficulty)s.")), '000 "Range"',
                  range=c.range.replace('_', ' ').capitalize(), difficulty=difficulty)
    else:
        difficulty = DEFAULT_DIFFICULTY
        steps.add(N_("Base difficulty %(difficulty)s."), '000 "Maneuver Characteristics"', difficulty=difficulty)
    parts: list[tuple[int, Phrase, str]] = [(m.difficulty, Phrase.term(m.name), m.source)]
    size_key = profile.called_shots[c.called_shot] if c.called_shot else c.target_size
    if size_key:
        size = profile.target_sizes[size_key]
        aim = (Phrase.message(N_("%(size)s, aimed at the head"), size=Phrase.term(size.label)) if c.called_shot == "head" else
               Phrase.message(N_("%(size)s, aimed at the heart"), size=Phrase.term(size.label)) if c.called_shot == "heart" else
               Phrase.message(N_("%(size)s, aimed at the %(part)s"), size=Phrase.term(size.label), part=c.called_shot)
               if c.called_shot else Phrase.message(N_("%(size)s, targeting"), size=Phrase.term(size.label)))
        parts.append((size.difficulty, aim,
                      '000 "Targeting"' if profile.key != "dark_ages" else '004 "Targeting"'))
    if c.cover:
        parts.append((profile.cover[c.cover], Phrase.message(_COVERS.get(c.cover, N_("%(cover)s cover")),
                                                              cover=c.cover.capitalize()), '000 "Cover"'))
    if c.attacker_cover:
        parts.append((max(0, profile.cover[c.attacker_cover] - 1),
                      Phrase.message(_FIRING_BACK.get(c.attacker_cover, N_("Firing back from %(cover)s cover")),
                                     cover=c.attacker_cover), '000 "Cover"'))
    if c.opponents > 1:
        extra = min(c.opponents - 1, sit.opponents_max)
        parts.append((extra, Phrase.message(N_("%(n)s opponents (at most +%(most)s)"), n=c.opponents,
                                            most=sit.opponents_max), '000 "Multiple Opponents"'))
    if c.blind:
        parts.append(blind_difficulty(state))
    parry = passive_parry(state)
    if parry:
        parts.append(parry)
    if c.off_hand and not a.ambidextrous:
        parts.append((sit.off_hand_difficulty, Phrase.message(N_("The off hand")), '000 "Two Weapons"'))
    if c.unbalanced:
        parts.append((1, Phrase.message(N_("Unbalanced by last turn's tackle")), '000 "Tackle"'))
    if c.extra_difficulty:
        parts.append((c.extra_difficulty, Phrase.message(N_("The narrator's modifier")), "Narrator"))
    for value, text, rule in parts:
        if value:
            difficulty += value
            steps.add(N_("%(what)s: %(change)s difficulty (%(difficulty)s)."), rule, what=text, change=f"{value:+d}",
                      difficulty=difficulty)
    state.difficulty = bounded_difficulty(difficulty, steps, Phrase.message(N_("The attack's difficulty")))


def automatic_hit(state: AttackState) -> None:
    """A completely immobilized (or staked) target is hit without a roll where the profile says
    so (000 "Immobilization"); a clinch or hold that goes on inflicts Strength damage
    automatically (000 "Clinch", "Hold"; under Dark Ages the target resists instead, 004)."""
    m, a, t = state.maneuver, state.attack.attacker, state.attack.target
    c, profile = state.attack.circumstances, state.profile
    state.continuing = m.has("carries_over") and c.prior_hold == m.key and m.damage != "none"
    if (c.target_immobilized or t.track.staked) and profile.situation.immobilized == "automatic_hit":
        state.automatic = True
        state.steps.add(N_("%(name)s is completely immobilized: the attack hits automatically."), '000 "Immobilization"',
                        name=t.name)
    elif state.continuing and profile.key != "dark_ages":
        state.automatic = True
        state.steps.add(N_("The %(maneuver)s goes on: %(name)s inflicts Strength damage automatically."), m.source,
                        maneuver=Phrase.term(m.name.lower()), name=a.name)


def roll_attack(state: AttackState) -> None:
    """Roll the attack (one net success when it hits automatically): 1s cancel successes; a botch
    fails and the narrator describes what goes wrong; no successes is a miss, and the attack
    ends (000 "Stage Two: Attack"; setting ``tabletop_botch``)."""
    a, t, m, steps = state.attack.attacker, state.attack.target, state.maneuver, state.steps
    if state.automatic:
        state.net = 1
        return
    state.attack_roll = roll = state.roller.roll("attack", state.pool, state.difficulty, who=a.name)
    roll_step(roll, Phrase.message(N_("%(name)s's attack roll"), name=a.name), steps, R_ATTACK)
    if roll.botch:
        steps.add(Phrase.message(N_("A botch: the attack fails and something nasty happens (a jam, a broken blade, an ally "
                                    "hit): the narrator describes it.")), R_ATTACK, setting="tabletop_botch")
        state.effects.append(Effect(a.key, "botch", Phrase.message(
            N_("%(name)s botched the attack: the narrator describes what goes wrong."), name=a.name)))
        state.missed = Phrase.message(N_("%(name)s botches %(maneuver)s against %(target)s."), name=a.name,
                                      maneuver=Phrase.term(m.name.lower()), target=t.name)
        return
    state.net = roll.net
    if state.net == 0:
        steps.add(N_("No successes: %(name)s misses."), R_ATTACK, name=a.name)
        state.missed = Phrase.message(N_("%(name)s's %(maneuver)s misses %(target)s."), name=a.name,
                                      maneuver=Phrase.term(m.name.lower()), target=t.name)
