"""Tabletop rules that worked before issue 37 but that no test checked ("Works, but no test checks it").
Each test was seen to fail against a deliberate bug in the rule it names, then the rule was restored."""

from __future__ import annotations

import random

import pytest

from larp.rules.explain import RulesError
from larp.rules.health import HealthTrack, new_track
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.actions import ActionSlot
from larp.rules.tabletop.combat import Attack, Circumstances, DefenseChoice, resolve_attack

from tests.rules.tabletop_fighters import fighter, hits, texts

DARK_AGES = ChronicleSettings.from_overrides({"tabletop_profile": "dark_ages"})


def test_no_ability_rolls_the_attribute_alone():
    """000 "Stage Two: Attack": "if your character doesn't have points in the necessary Ability, simply default to
    the Attribute": Dexterity 3 and no Brawl strike with 3 dice."""
    ruling = resolve_attack(Attack("strike", fighter("a", Dexterity=3), fighter("t")), dice={"attack": [2, 2, 2]})
    assert ruling.attack_pool == 3
    assert "no Brawl, so Dexterity alone: 3 dice" in texts(ruling)


@pytest.mark.parametrize("attackers, difficulty", [(1, 6), (3, 8), (5, 10), (9, 10)])
def test_defending_against_several_attackers_is_harder(attackers, difficulty):
    """000 "Multiple Opponents" ("any actions, including defensive ones, versus multiple attackers still suffer
    difficulty penalties"): +1 to the dodge's difficulty for each attacker after the first, at most +4."""
    dodge = DefenseChoice("dodge", attackers=attackers)
    ruling = resolve_attack(Attack("strike", fighter("a", abilities={"Brawl": 2}), fighter("t", abilities={"Dodge": 2}),
                                   defense=dodge), dice={"attack": hits(1, 4), "defense": [2] * 4, "damage": [2] * 2})
    assert ruling.defense_roll.difficulty == difficulty


def test_the_several_attackers_penalty_stops_at_four():
    """000 "Multiple Opponents" ("to a maximum of +4"), seen below the cap of 10: a Dark Ages dodge against an
    unarmed attacker (-1, 004 "Dodge Modifiers") among nine attackers is 6 + 4 - 1 = 9, not 10."""
    dodge = DefenseChoice("dodge", attackers=9, dodge_modifiers=("attacker_unarmed",))
    ruling = resolve_attack(Attack("strike", fighter("a", abilities={"Brawl": 2}), fighter("t", abilities={"Dodge": 2}),
                                   defense=dodge), DARK_AGES,
                            dice={"attack": hits(1, 4), "defense": [2] * 4, "damage": [2] * 2})
    assert ruling.defense_roll.difficulty == 9


def test_disarm_is_at_plus_one_and_disarms_past_the_targets_strength():
    """000 "Disarm": an attack at +1 difficulty (7); if the damage successes exceed the opponent's Strength, no
    damage but disarmed; successes equal to his Strength do damage as usual."""
    duelist = fighter("a", Strength=3, abilities={"Melee": 3}, weapon="sword")
    target = fighter("t", Strength=2, Stamina=1, weapon="knife")
    disarmed = resolve_attack(Attack("disarm", duelist, target),
                              dice={"attack": hits(1, 5, face=7), "damage": hits(3, 5)})
    assert disarmed.attack_difficulty == 7
    assert disarmed.has("disarmed", "t") and disarmed.levels == 0 and disarmed.target_track.marked == 0
    kept = resolve_attack(Attack("disarm", duelist, target),
                          dice={"attack": hits(1, 5, face=7), "damage": hits(2, 5), "soak": [2]})
    assert not kept.has("disarmed") and kept.target_track.lethal == 2


@pytest.mark.parametrize("target_cover, own_cover, difficulty", [
    ("good", None, 8),     # behind a wall: +2
    (None, "good", 7),     # firing back from behind a wall: one lower than +2
    (None, "light", 6),    # from lying prone: +1 listed, so no penalty
    ("good", "light", 8),  # 000's example: the prone character fires at the one behind the wall, +2
    ("light", "good", 8),  # and the one behind the wall at the prone one, also +2
])
def test_firing_back_from_cover_is_one_lower_and_both_covers_add(target_cover, own_cover, difficulty):
    """000 "Cover": firearms attacks by a defender under cover are one lower than listed; "difficulties for
    combatants who are both under cover are cumulative" (the prone one and the one behind a wall: both +2)."""
    shooter = fighter("s", abilities={"Firearms": 2}, weapon="pistol_light")
    ruling = resolve_attack(Attack("shoot", shooter, fighter("t"), Circumstances(cover=target_cover,
                                                                                attacker_cover=own_cover)),
                            dice={"attack": [2] * 4})
    assert ruling.attack_difficulty == difficulty


def test_multiple_shots_stop_at_the_rate_of_fire():
    """000 "Multiple Shots": "The attacker can fire a number of shots up to the weapon's full rate of fire": a heavy
    pistol (rate 3) fires three shots, not four."""
    shooter = fighter("s", Dexterity=4, abilities={"Firearms": 4}, weapon="pistol_heavy")
    three = resolve_attack(Attack("multiple_shots", shooter, fighter("t"), slot=ActionSlot(3, 1)),
                           dice={"attack": [2] * 5})
    assert three.attack_pool == 8 - 3
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("multiple_shots", shooter, fighter("t"), slot=ActionSlot(4, 1)),
                       dice={"attack": [2] * 4})
    assert err.value.field == "actions.total" and "at most 3 shots" in err.value.message


def strafe(net: int, targets: int, extra: int = 0, defense: DefenseChoice | None = None, defense_dice=None):
    gunner = fighter("g", Dexterity=3, abilities={"Firearms": 3}, weapon="smg_small")
    dice = {"attack": hits(net, 16)}
    if defense_dice is not None:
        dice["defense"] = defense_dice
    return resolve_attack(Attack("strafing", gunner, fighter("t"),
                                 Circumstances(strafe_targets=targets, strafe_extra=extra), defense=defense),
                          dice=dice, rng=random.Random(37))


def test_strafing_divides_evenly_and_assigns_the_leftovers():
    """000 "Strafing": the successes divided evenly among the targets in the area (7 among 3: 2 each), the leftover
    assigned as the attacker likes (1 more to this one), never more leftovers than there are."""
    assert strafe(7, 3).net_successes == 2
    plus = strafe(7, 3, extra=1)
    assert plus.net_successes == 3
    assert "7 success(es) divided evenly among 3 targets, plus 1 leftover: 3 for this one." in texts(plus)
    with pytest.raises(RulesError) as err:
        strafe(7, 3, extra=2)
    assert err.value.field == "strafe_extra"


def test_strafing_with_fewer_successes_than_targets_gives_one_each():
    """000 "Strafing": "If fewer successes are rolled than there are targets, only one may be assigned per target
    until they are all allocated": two successes among three targets, one to this target, never two."""
    assert strafe(2, 3, extra=1).net_successes == 1
    with pytest.raises(RulesError) as err:
        strafe(2, 3, extra=2)
    assert err.value.field == "strafe_extra"


def test_dodging_strafing_is_at_plus_one():
    """000 "Strafing": "Dodge rolls against strafing are at +1 difficulty"."""
    ruling = strafe(7, 1, defense=DefenseChoice("dodge"), defense_dice=[2, 2])
    assert ruling.defense_roll.difficulty == 7


@pytest.mark.parametrize("ambidextrous, difficulty", [(False, 7), (True, 6)])
def test_the_off_hand_is_at_plus_one_unless_ambidextrous(ambidextrous, difficulty):
    """000 "Two Weapons": "the attacker suffers +1 difficulty for her off-hand (unless she's ambidextrous)"."""
    shooter = fighter("s", abilities={"Firearms": 3}, weapon="pistol_light", ambidextrous=ambidextrous)
    ruling = resolve_attack(Attack("two_weapons", shooter, fighter("t"), Circumstances(off_hand=True),
                                   slot=ActionSlot(2, 2)), dice={"attack": [2] * 2})
    assert ruling.attack_difficulty == difficulty


def test_dark_ages_blocks_bashing_melee_only_from_brawl_three():
    """004 "Blocking": only brawling attacks that cause bashing damage can be blocked; the Storyteller may allow
    Brawl 3 or more to block bashing melee attacks (a club). The revised profile blocks any bashing close attack."""
    clubber = fighter("a", abilities={"Melee": 2}, weapon="club")
    novice, skilled = fighter("t", abilities={"Brawl": 2}), fighter("t", abilities={"Brawl": 3})
    dice = {"attack": hits(1, 4), "defense": hits(1, 5)}
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("weapon_strike", clubber, novice, defense=DefenseChoice("block")), DARK_AGES,
                       dice={"attack": hits(1, 4), "defense": hits(1, 4)})
    assert err.value.field == "defense.maneuver" and "Brawl 3" in err.value.message
    assert not resolve_attack(Attack("weapon_strike", clubber, skilled, defense=DefenseChoice("block")), DARK_AGES,
                              dice=dice).hit
    assert not resolve_attack(Attack("weapon_strike", clubber, novice, defense=DefenseChoice("block")),
                              dice={"attack": hits(1, 4), "defense": hits(1, 4)}).hit


def test_dark_ages_parries_a_brawler_with_a_weapon_at_plus_one():
    """004 "Parrying": a weapon parrying a brawling attack is at +1 difficulty (shields excluded); the revised
    profile has no such penalty."""
    boxer = fighter("a", abilities={"Brawl": 2})
    swordsman = fighter("t", abilities={"Melee": 3}, weapon="sword")
    dice = {"attack": hits(1, 3), "defense": [2] * 5, "damage": [2] * 2}
    dark = resolve_attack(Attack("strike", boxer, swordsman, defense=DefenseChoice("parry")), DARK_AGES, dice=dice)
    revised = resolve_attack(Attack("strike", boxer, swordsman, defense=DefenseChoice("parry")), dice=dice)
    assert (dark.defense_roll.difficulty, revised.defense_roll.difficulty) == (7, 6)


def test_a_tiny_targets_damage_does_not_apply_to_a_stake():
    """004 "Targeted Attacks": a tiny target (the heart) adds +2 damage, "Not applicable in a staking attempt": a
    Strength 4 hunter's stake at the heart rolls Strength 4 + 1, not + 2 more."""
    hunter = fighter("h", Strength=4, abilities={"Melee": 3}, weapon="stake")
    staking = resolve_attack(Attack("weapon_strike", hunter, fighter("t", Stamina=1),
                                    Circumstances(called_shot="heart", stake=True)), DARK_AGES,
                             dice={"attack": hits(1, 5, face=9), "damage": [2] * 5, "soak": []})
    assert staking.damage_pool == 4 + 1
    assert "does not apply to a staking attempt" in texts(staking)
    eye = resolve_attack(Attack("weapon_strike", hunter, fighter("t", Stamina=1), Circumstances(target_size="tiny")),
                         DARK_AGES, dice={"attack": hits(1, 5, face=9), "damage": [2] * 7, "soak": []})
    assert eye.damage_pool == 4 + 1 + 2


def test_wound_penalties_take_action_dice_but_not_soak_nor_the_willpower_roll_to_abort():
    """001 "Note": dice pool penalties from health level loss apply only to actions, not to soak or the Willpower
    roll to abort: a Wounded (-2) target aborts with all 5 Willpower dice, dodges with Dexterity 3 + Dodge 3 - 2 = 4
    and soaks with Stamina 3 + Fortitude 1 = 4."""
    wounded = HealthTrack(levels=new_track().levels, lethal=4)
    target = fighter("t", Dexterity=3, Stamina=3, abilities={"Dodge": 3}, disciplines={"Fortitude": 1},
                     track=wounded, willpower=5)
    ruling = resolve_attack(Attack("strike", fighter("a", Strength=4, abilities={"Brawl": 3}), target,
                                   defense=DefenseChoice("dodge", abort="roll")),
                            dice={"abort": hits(1, 5), "attack": hits(3, 5), "defense": [2] * 4,
                                  "damage": hits(2, 6), "soak": [2] * 4})
    assert ruling.dice["abort"] and len(ruling.dice["abort"]) == 5
    assert ruling.defense_roll.pool == 4
    assert ruling.soak.pool == 4


def test_wound_penalties_take_strength_damage_dice_but_not_a_firearms():
    """001 "Note": "The health level penalties do apply to damage rolls for Strength-based attacks, but not for
    mechanical weapons like firearms": a Wounded (-2) Strength 4 punch rolls 4 - 2 = 2 damage dice; a Wounded
    shooter's light pistol keeps its 4."""
    wounded = HealthTrack(levels=new_track().levels, lethal=4)
    boxer = fighter("a", Strength=4, Dexterity=3, abilities={"Brawl": 3}, track=wounded)
    punch = resolve_attack(Attack("strike", boxer, fighter("t", Stamina=0)),
                           dice={"attack": hits(1, 4), "damage": [2] * 2})
    assert punch.damage_pool == 2
    shooter = fighter("s", Dexterity=3, abilities={"Firearms": 3}, weapon="pistol_light", track=wounded)
    shot = resolve_attack(Attack("shoot", shooter, fighter("t", Stamina=0)),
                          dice={"attack": hits(1, 4), "damage": [2] * 4})
    assert shot.damage_pool == 4
