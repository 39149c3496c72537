"""Tests of the tabletop options a chronicle chooses (issue 17): multiple actions read three ways, the V20
profile's dodge, the stake's threshold and what rising from torpor heals (000, 001, 003, 004)."""

from __future__ import annotations

import pytest

from larp.rules.explain import RulesError
from larp.rules.health import HealthTrack, live_levels, new_track
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import Defender, soak_damage
from larp.rules.tabletop.actions import ActionSlot, multiple_action_pools, slot_dice
from larp.rules.tabletop.combat import Attack, DefenseChoice, Fighter, resolve_attack
from larp.rules.tabletop.maneuvers import profile_for
from larp.rules.torpor import wake_track

ATTRS = ("Strength", "Dexterity", "Stamina", "Charisma", "Manipulation", "Appearance", "Perception",
         "Intelligence", "Wits")


def setting(**values) -> ChronicleSettings:
    return ChronicleSettings.from_overrides(values)


def fighter(key: str, **ratings) -> Fighter:
    attributes = {a: ratings.pop(a, 2) for a in ATTRS}
    return Fighter(key, key.capitalize(), new_track(), attributes, ratings.pop("abilities", {}), **ratings)


def test_every_action_from_the_smallest_pool_the_house_reading():
    """House reading (tabletop_multiple_actions = smallest_cumulative) of 000 "Multiple Actions" with 003's
    smallest pool: pools of 7 and 9, two actions: the first 7 - 2 = 5 dice, the second 7 - 3 = 4."""
    pools = multiple_action_pools([7, 9], setting(tabletop_multiple_actions="smallest_cumulative"))
    assert [p.dice for p in pools] == [5, 4]
    assert all(p.step.setting == "tabletop_multiple_actions" for p in pools)
    cumulative = multiple_action_pools([7, 9])  # 000: 7 - 2 = 5, 9 - 3 = 6
    assert [p.dice for p in cumulative] == [5, 6]


def test_the_v20_pool_split_freely_between_actions():
    """003 "Multiple Actions" (tabletop_multiple_actions = split_free): the smallest pool (7) divided as the
    player chooses, 5 and 2 rather than 4 and 3; more than the pool in all is refused; no choice: evenly."""
    free = setting(tabletop_multiple_actions="split_free")
    assert [p.dice for p in multiple_action_pools([7, 9], free, shares=[5, 2])] == [5, 2]
    assert [p.dice for p in multiple_action_pools([7, 9], free)] == [4, 3]
    with pytest.raises(RulesError) as err:
        slot_dice(9, ActionSlot(2, 1, split_dice=7, shares=(5, 3)), free)
    assert err.value.field == "actions.shares"


def test_the_v20_profile_dodges_with_athletics():
    """003 "Dodge": "A Dexterity + Athletics maneuver" (tabletop_profile = v20); the revised profile (000)
    dodges with Dexterity + Dodge."""
    v20 = setting(tabletop_profile="v20")
    assert profile_for(v20).maneuvers["dodge"].abilities == ("Athletics",)
    attacker = fighter("a", Dexterity=3, abilities={"Brawl": 2})
    target = fighter("t", Dexterity=3, abilities={"Athletics": 2, "Dodge": 0})
    attack = Attack("strike", attacker, target, defense=DefenseChoice("dodge"))
    ruling = resolve_attack(attack, v20, dice={"attack": [8, 8, 2, 2, 2], "defense": [8, 8, 2, 2, 2]})
    assert ruling.defense_roll.pool == 5 and not ruling.hit  # Dexterity 3 + Athletics 2
    revised = resolve_attack(attack, dice={"attack": [8, 8, 2, 2, 2], "defense": [8, 8, 2]})
    assert revised.defense_roll.pool == 3  # Dexterity 3 + Dodge 0


def test_a_stake_needs_three_levels_after_soak_or_three_successes_before_it():
    """000 "Stake Through Heart" ("inflicts at least three health levels", default) against 000 "Melee
    Weapons Chart" (the stake: "score three successes"; tabletop_stake_rule = damage_successes): four
    damage successes, two soaked."""
    vampire = Defender("vampire", stamina=2)
    after = soak_damage(4, "lethal", vampire, weapon_key="stake", stake_at_heart=True, dice=[9, 9])
    assert after.past_soak == 2 and not after.staked
    before = soak_damage(4, "lethal", vampire, weapon_key="stake", stake_at_heart=True, dice=[9, 9],
                         settings=setting(tabletop_stake_rule="damage_successes"))
    assert before.staked and any(s.setting == "tabletop_stake_rule" for s in before.steps)


@pytest.mark.parametrize("reading, marked", [("to_crippled", 6), ("one_level", 7), ("nothing", 7)])
def test_what_rising_from_torpor_heals(reading, marked):
    """000 "Torpor": a vampire who rises "is considered Crippled"; what that heals is the setting
    awakening_heals (default to_crippled: 8 lethal healed down to Crippled's 6; one_level: the blood
    point heals one; nothing: he keeps his damage, at worst Incapacitated)."""
    track = HealthTrack(live_levels(ChronicleSettings.defaults()), lethal=8, condition="torpor")
    risen, steps = wake_track(track, "Anselm", setting(awakening_heals=reading))
    assert (risen.condition, risen.marked) == ("active", marked)
    assert steps[-1].setting == "awakening_heals"
