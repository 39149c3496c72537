"""Tests of the tabletop soak roll (000 "Soak", "Armor", "Bashing Damage", "Dazed"; 004 "Soak")."""

import random

import pytest

from larp.rules.explain import RulesError
from larp.rules.health import new_track
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import Defender, roll_soak, soak_damage, soak_pool


def test_veronica_soaks_kincaids_blow():
    """000 "Bashing Damage": Kincaid's 6 levels; Veronica soaks with Stamina 2, rolls 3 and 8: one success;
    5 levels of bashing, halved and rounded down: 2."""
    ruling = soak_damage(6, "bashing", Defender("vampire", stamina=2), dice=[3, 8], who="Veronica")
    assert (ruling.pool, ruling.roll.successes, ruling.roll.net) == (2, 1, 1)
    assert (ruling.past_soak, ruling.levels, ruling.damage_type) == (5, 2, "bashing")
    assert any("3, 8" in s.text for s in ruling.steps)
    assert any(s.rule == '000 "Bashing Damage"' and "halved" in s.text for s in ruling.steps)
    track = ruling.apply_to(new_track(), who="Veronica").track
    assert track.bashing == 2


def test_kincaid_soaks_veronicas_blow_halved_to_zero():
    """000 "Bashing Damage": 1 level; Kincaid's five dice (Stamina 4, Fortitude 1) come up 4, 5, 1, 9, 3:
    the 1 cancels the 9, no success; the one level is halved and rounded down to zero."""
    ruling = soak_damage(1, "bashing", Defender("vampire", stamina=4, fortitude=1), dice=[4, 5, 1, 9, 3],
                         who="Kincaid")
    assert ruling.pool == 5
    assert (ruling.roll.successes, ruling.roll.ones, ruling.roll.net) == (1, 1, 0)
    assert (ruling.past_soak, ruling.levels) == (1, 0)
    assert ruling.apply_to(new_track(), who="Kincaid").track.marked == 0


def test_liselle_soaks_the_knife():
    """000 "Soak" (Liselle): Stamina 3 + Fortitude 1, rolls 1, 9, 9, 7: the 1 cancels a success, two left;
    three lethal levels become one."""
    ruling = soak_damage(3, "lethal", Defender("vampire", stamina=3, fortitude=1), dice=[1, 9, 9, 7],
                         who="Liselle")
    assert (ruling.pool, ruling.roll.successes, ruling.roll.net, ruling.levels) == (4, 3, 2, 1)
    assert ruling.damage_type == "lethal"


def test_liselle_as_a_mortal_cannot_soak_lethal():
    """000 "Soak": had Liselle been merely human she could not soak the knife and takes all three levels."""
    ruling = soak_damage(3, "lethal", Defender("mortal", stamina=3, fortitude=1), who="Liselle")
    assert (ruling.pool, ruling.roll, ruling.levels) == (0, None, 3)
    assert any(s.rule == '004 "Soak" table' and "cannot be soaked" in s.text for s in ruling.steps)


def test_soak_pools_by_table():
    """000 "Soak": Stamina 3 and Fortitude 2 give five dice against bashing and lethal, two against
    aggravated; 004 table: no aggravated soak without Fortitude; mortals soak bashing with Stamina."""
    elder = Defender("vampire", stamina=3, fortitude=2)
    assert soak_pool(elder, "bashing")[0] == soak_pool(elder, "lethal")[0] == 5
    assert soak_pool(elder, "aggravated")[0] == 2
    assert soak_pool(elder, "aggravated", source="fire")[0] == 2
    assert soak_pool(Defender("vampire", stamina=3), "aggravated")[0] == 0
    assert soak_pool(Defender("mortal", stamina=3), "bashing")[0] == 3
    assert soak_pool(Defender("ghoul", stamina=2), "lethal")[0] == 0


def test_armor_adds_to_soak_but_not_against_fire():
    """000 "Armor": armor adds its rating against bashing, lethal and aggravated from teeth and claws,
    not against fire or sunlight."""
    vest = Defender("vampire", stamina=2, armor="class_three")
    assert soak_pool(vest, "lethal")[0] == 5
    assert soak_pool(vest, "aggravated")[0] == 3
    assert soak_pool(vest, "aggravated", source="sunlight")[0] == 0


def test_armor_destroyed_at_twice_its_rating():
    """000 "Armor": if the damage rolled in a single attack equals twice the armor's rating, it is destroyed."""
    shirt = Defender("vampire", stamina=1, armor="class_two")
    assert soak_damage(4, "lethal", shirt, dice=[1, 1, 1]).armor_destroyed
    assert not soak_damage(3, "lethal", shirt, dice=[1, 1, 1]).armor_destroyed


def test_dazed_past_stamina_plus_two_for_vampires():
    """000 "Dazed": damage past soak greater than Stamina (mortals) or Stamina + 2 (vampires) dazes."""
    assert soak_damage(3, "bashing", Defender("mortal", stamina=2), dice=[1, 1]).dazed
    assert not soak_damage(4, "bashing", Defender("vampire", stamina=2), dice=[1, 1]).dazed
    assert soak_damage(5, "bashing", Defender("vampire", stamina=2), dice=[1, 1]).dazed


def test_mortal_takes_aggravated_as_lethal_and_no_soak():
    """001 "Aggravated Damage": lethal damage is aggravated to mortals, who cannot soak it."""
    ruling = soak_damage(2, "aggravated", Defender("mortal", stamina=4))
    assert (ruling.damage_type, ruling.levels) == ("lethal", 2)


def test_firearm_bashing_not_halved_head_lethal():
    """002 "Damage and Healing" (firearms_against_vampires = house_002) with 000 "Ranged Weapons Chart":
    firearms do bashing to vampires, not halved; aimed at the head, lethal."""
    house = ChronicleSettings.from_overrides({"firearms_against_vampires": "house_002"})
    body = soak_damage(4, "lethal", Defender("vampire", stamina=1), weapon_key="pistol_light", dice=[2],
                       settings=house)
    assert (body.damage_type, body.levels) == ("bashing", 4)
    head = soak_damage(4, "lethal", Defender("vampire", stamina=1), weapon_key="pistol_light",
                       head_shot=True, dice=[2], settings=house)
    assert (head.damage_type, head.levels) == ("lethal", 4)
    bolt = soak_damage(4, "lethal", Defender("vampire", stamina=1), weapon_key="crossbow", dice=[2])
    assert (bolt.damage_type, bolt.levels) == ("bashing", 2)


def test_firearms_at_the_tabletop_follow_the_charts_unless_the_chronicle_says_otherwise():
    """Setting firearms_against_vampires (default by_profile): at the tabletop the charts' reading, bashing
    and halved on the body, lethal to the head (000 "Applying Damage", "Bashing Damage"); Laws of the
    Night's reading keeps the bullet lethal (met-reference 3.7, T5)."""
    body = soak_damage(4, "lethal", Defender("vampire", stamina=1), weapon_key="pistol_light", dice=[2])
    assert (body.damage_type, body.levels) == ("bashing", 2)
    assert any(s.setting == "firearms_against_vampires" for s in body.steps)
    head = soak_damage(4, "lethal", Defender("vampire", stamina=1), weapon_key="pistol_light",
                       head_shot=True, dice=[2])
    assert (head.damage_type, head.levels) == ("lethal", 4)
    lotnr = ChronicleSettings.from_overrides({"firearms_against_vampires": "lotnr"})
    bullet = soak_damage(4, "lethal", Defender("vampire", stamina=1), weapon_key="pistol_light", dice=[2],
                         settings=lotnr)
    assert (bullet.damage_type, bullet.levels) == ("lethal", 4)


def test_stake_through_the_heart_three_levels():
    """000 "Stake Through Heart": aimed at the heart, three levels of damage immobilize the vampire."""
    ruling = soak_damage(4, "lethal", Defender("vampire", stamina=1), weapon_key="stake", stake_at_heart=True,
                         dice=[9])
    assert ruling.past_soak == 3 and ruling.staked
    assert ruling.apply_to(new_track()).staked
    assert not soak_damage(3, "lethal", Defender("vampire", stamina=1), weapon_key="stake",
                           stake_at_heart=True, dice=[9]).staked
    with pytest.raises(RulesError):
        soak_damage(3, "lethal", Defender(), weapon_key="knife", stake_at_heart=True, dice=[9])


def test_dice_from_random_source_shown_in_steps():
    """000 "Soak": the dice come from the injected random source; every die is shown."""
    ruling = soak_damage(3, "lethal", Defender("vampire", stamina=3), rng=random.Random(42))
    again = soak_damage(3, "lethal", Defender("vampire", stamina=3), rng=random.Random(42))
    assert ruling.roll.dice == again.roll.dice and len(ruling.roll.dice) == 3
    assert any(", ".join(map(str, ruling.roll.dice)) in s.text for s in ruling.steps)


def test_bad_dice_name_the_field():
    """House style: wrong dice are a RulesError naming the field."""
    with pytest.raises(RulesError) as err:
        roll_soak(2, dice=[3])
    assert err.value.field == "dice"
    with pytest.raises(RulesError) as err:
        roll_soak(1, dice=[11])
    assert err.value.field == "dice"
    with pytest.raises(RulesError) as err:
        roll_soak(2)
    assert err.value.field == "dice"


def test_soak_cannot_botch():
    """000 "Soak": soak rolls may not botch, only fail: more 1s than successes leave zero."""
    roll = roll_soak(3, dice=[1, 1, 7])
    assert (roll.successes, roll.ones, roll.net) == (1, 2, 0)


def test_a_soak_die_equal_to_the_difficulty_is_a_success():
    """000 "Soak" (difficulty 6) and the dice rule (a die at or above the difficulty succeeds, 000 "Stage Two:
    Attack"): a 6 soaks; a 5 does not. A vampire's Stamina 4 + Fortitude 1 roll 6, 6, 5, 2, 3 against three levels
    of lethal damage: two successes, one level past soak (issue 30: no soak test rolled a 6)."""
    roll = roll_soak(5, dice=[6, 6, 5, 2, 3])
    assert (roll.successes, roll.net) == (2, 2)
    ruled = soak_damage(3, "lethal", Defender(stamina=4, fortitude=1), dice=[6, 6, 5, 2, 3])
    assert (ruled.past_soak, ruled.levels) == (1, 1)


def test_a_mortal_soaks_lethal_damage_with_his_armor_alone():
    """000 "Armor" ("armor protects against bashing, lethal and aggravated damage from teeth and claws") and
    000 "Soak" (a human soaks no lethal damage with Stamina): a mortal (Stamina 2) in a Class Three vest shot for
    4 lethal soaks with the vest's 3 dice alone, rolls 6, 7, 2 and takes 2 levels on his track; without the vest
    he takes all 4; the vest never soaks a burn, which is lethal to him (000 "Armor": not against fire)."""
    vested = Defender("mortal", stamina=2, armor="class_three")
    ruling = soak_damage(4, "lethal", vested, dice=[6, 7, 2], who="Guard")
    assert (ruling.pool, ruling.levels) == (3, 2)
    assert ruling.apply_to(new_track("mortal"), who="Guard").track.lethal == 2
    assert soak_damage(4, "lethal", Defender("mortal", stamina=2), who="Guard").levels == 4
    assert soak_pool(vested, "lethal", source="fire")[0] == 0


def test_below_incapacitated_at_the_tabletop_follows_000_and_the_live_game_002():
    """000 "Bashing Damage" ("If your character falls to Incapacitated due to bashing (or lethal) damage, then
    takes another level of bashing (or lethal) damage, she enters torpor") and 000 "Aggravated Damage" ("a
    vampire who loses his last health level due to aggravated damage meets Final Death"), against seed 002 in the
    live game (bashing below Incapacitated: unconscious; aggravated: torpor). The default of
    ``below_incapacitated_model`` keeps each game's source, as ``firearms_against_vampires`` does:
    - Incapacitated (7 lethal), 4 bashing at the tabletop, Stamina 1 rolls a 2: halved to 2, torpor;
    - Wounded (6 lethal), 2 aggravated at the tabletop with no Fortitude: Final Death;
    - the same tracks in the live game (``apply_damage``'s default): unconscious, then torpor;
    - a chronicle that chose seed 002 for both games keeps it at the tabletop too."""
    from dataclasses import replace

    from larp.rules.health import apply_damage

    incapacitated, wounded = replace(new_track(), lethal=7), replace(new_track(), lethal=6)
    beaten = soak_damage(4, "bashing", Defender("vampire", stamina=1), dice=[2], who="Dracos")
    assert beaten.levels == 2 and beaten.apply_to(incapacitated, who="Dracos").track.condition == "torpor"
    burned = soak_damage(2, "aggravated", Defender("vampire", stamina=3), who="Dracos")
    assert burned.levels == 2 and burned.apply_to(wounded, who="Dracos").track.condition == "final_death"
    assert apply_damage(incapacitated, "bashing", 2, "Dracos").track.condition == "unconscious"
    assert apply_damage(wounded, "aggravated", 2, "Dracos").track.condition == "torpor"
    house = ChronicleSettings.from_overrides({"below_incapacitated_model": "house_002"})
    assert beaten.apply_to(incapacitated, house, who="Dracos").track.condition == "unconscious"
    assert burned.apply_to(wounded, house, who="Dracos").track.condition == "torpor"
