"""Tests of live damage, the armory and Fortitude (002 "Damage and Healing"; met-reference 3.4, 3.5, 3.7)."""

import random

import pytest

from larp.rules.challenge import Throw
from larp.rules.damage import (
    Damage,
    Strike,
    Target,
    armor,
    armory,
    damage_taken,
    strike_damage,
    weapon,
)
from larp.rules.explain import RulesError
from larp.rules.fortitude import FortitudeTest, endurance_level, invoke_aegis
from larp.rules.health import apply_damage, new_track
from larp.rules.settings import ChronicleSettings
from larp.rules.simple_test import SimpleTest

DEFAULT = ChronicleSettings.defaults()
WIN = SimpleTest(Throw.ROCK, Throw.SCISSORS)
TIE = SimpleTest(Throw.PAPER, Throw.PAPER)
LOSS = SimpleTest(Throw.SCISSORS, Throw.ROCK)


def take(strike, target=Target(), settings=DEFAULT, **kw):
    """The damage ``target`` takes from ``strike`` (both steps of the live pipeline)."""
    return damage_taken(strike_damage(strike, settings), target, settings, **kw)


# ---------------------------------------------------------------- the armory

def test_lotnr_weapon_cards_are_data():
    """met-reference 3.7: knife 2 / Short / 1 (Speed); shotgun 3 / Loud / 2, Spray 3, Mass-Trauma."""
    knife = weapon("knife")
    assert (knife.bonus_traits, knife.negative_traits, knife.damage, knife.damage_type) == (2, ("Short",), 1, "lethal")
    assert knife.has("Speed")
    shotgun = weapon("shotgun")
    assert (shotgun.bonus_traits, shotgun.damage, shotgun.spray) == (3, 2, 3)
    assert shotgun.has("Mass-Trauma") and shotgun.firearm
    assert armor("plate").rating == 3 and armor("plate").negative_traits == ("Heavy", "Clumsy")


def test_tabletop_charts_are_data():
    """000 "Melee Weapons Chart", "Ranged Weapons Chart", "Armor Chart"."""
    assert weapon("axe", "tabletop").strength_bonus == 3
    assert weapon("revolver_heavy", "tabletop").damage == 6
    assert weapon("crossbow", "tabletop").bashing_vs_kindred and not weapon("crossbow", "tabletop").firearm
    chart = [a for a in armory("tabletop").armor.values() if a.key.startswith("class_")]
    assert [(a.rating, a.penalty) for a in chart] == [(1, 0), (2, 1), (3, 1), (4, 2), (5, 3)]


def test_unknown_weapon_names_the_field():
    """House style: an unknown weapon is a RulesError naming the field."""
    with pytest.raises(RulesError) as err:
        strike_damage(Strike(weapon="lightsaber"))
    assert err.value.field == "weapon"


# ---------------------------------------------------------------- strikes

def test_bare_handed_strike_one_bashing_minimum_one_for_vampires():
    """002 "Damage and Healing": bare-handed strikes inflict one level of bashing; LotNR halves it for a
    vampire with a minimum of one (setting vampire_bashing_minimum_one, default on)."""
    ruling = take(Strike())
    assert ruling.parts == (("bashing", 1),)
    assert any(s.setting == "vampire_bashing_minimum_one" and "at least one" in s.text for s in ruling.steps)


def test_bare_handed_strike_halved_to_zero_without_the_minimum():
    """000 "Bashing Damage": halved, rounded down, no minimum when the chronicle turns the setting off."""
    off = ChronicleSettings.from_overrides({"vampire_bashing_minimum_one": False})
    assert take(Strike(), settings=off).levels == 0
    assert take(Strike(), Target(creature="mortal")).parts == (("bashing", 1),)


def test_firearms_against_vampires_bashing_not_halved():
    """002 "Damage and Healing": firearms against vampires do bashing damage, and it is not halved."""
    ruling = take(Strike(weapon="pistol"))
    assert ruling.parts == (("bashing", 2),)
    assert any("not halved" in s.text for s in ruling.steps)


def test_firearms_to_the_head_lethal():
    """002 "Damage and Healing": firearms aimed at the head do lethal damage to vampires."""
    assert take(Strike(weapon="pistol", head_shot=True)).parts == (("lethal", 2),)
    assert take(Strike(weapon="pistol"), Target(creature="mortal")).parts == (("lethal", 2),)


def test_firearms_against_vampires_setting_in_the_live_game():
    """Setting firearms_against_vampires: Laws of the Night's cards make a pistol's 2 levels lethal
    (met-reference 3.7, T5); the tabletop charts' reading halves the body shot (000 "Bashing Damage";
    2 bashing to 1); seed 002's reading stays the live default."""
    lotnr = ChronicleSettings.from_overrides({"firearms_against_vampires": "lotnr"})
    charts = ChronicleSettings.from_overrides({"firearms_against_vampires": "tabletop_charts"})
    assert take(Strike(weapon="pistol"), settings=lotnr).parts == (("lethal", 2),)
    assert take(Strike(weapon="pistol"), settings=charts).parts == (("bashing", 1),)
    assert take(Strike(weapon="pistol", head_shot=True), settings=charts).parts == (("lethal", 2),)
    assert take(Strike(weapon="pistol")).parts == (("bashing", 2),)


def test_head_shot_without_firearm_is_refused():
    """002 "Damage and Healing": only firearms change damage when aimed at the head."""
    with pytest.raises(RulesError) as err:
        strike_damage(Strike(weapon="knife", head_shot=True))
    assert err.value.field == "head_shot"


def test_bite_one_aggravated_lethal_to_mortals():
    """002 "Damage and Healing": a bite inflicts one level of aggravated damage; 001: lethal to mortals."""
    assert take(Strike(bite=True)).parts == (("aggravated", 1),)
    assert take(Strike(bite=True), Target(creature="mortal")).parts == (("lethal", 1),)


def test_prowess_makes_bare_hands_lethal():
    """002 "Damage and Healing": with Prowess the striker can choose lethal damage."""
    assert take(Strike(potence=1, lethal_by_prowess=True)).parts == (("lethal", 1),)
    assert take(Strike(weapon="club", potence=1, lethal_by_prowess=True)).parts == (("lethal", 1),)
    with pytest.raises(RulesError):
        strike_damage(Strike(lethal_by_prowess=True))
    with pytest.raises(RulesError):
        strike_damage(Strike(weapon="knife", potence=1, lethal_by_prowess=True))


def test_puissance_mass_trauma_full_auto_add_a_level():
    """met-reference 3.4, 3.7: +1 level for Puissance, Mass-Trauma (a single target within five feet, issue 16),
    Full-Auto within five feet when the clip is emptied (issue 30)."""
    assert strike_damage(Strike(weapon="knife", potence=5)).levels == 2
    assert strike_damage(Strike(weapon="pistol", potence=5)).levels == 2  # strength does not matter
    assert strike_damage(Strike(weapon="shotgun", close_range=True)).levels == 3
    assert strike_damage(Strike(weapon="smg")).levels == 2
    assert strike_damage(Strike(weapon="smg", close_range=True, full_auto=True)).levels == 3


def test_full_auto_needs_the_clip_emptied():
    """Issue 30 (oddities); LotNR Fully Automatic (met-reference 3.7): "+1 level at five feet, then an action to
    reload": the level comes with emptying the clip, not with any submachine-gun hit within five feet. A single
    burst up close deals the card's 2; emptied up close, 3 and a reload; emptied beyond five feet, 2; a weapon
    without Full-Auto cannot fire on full auto."""
    plain = strike_damage(Strike(weapon="smg", close_range=True))
    assert plain.levels == 2 and not any("Full-Auto" in s.text for s in plain.steps)
    emptied = strike_damage(Strike(weapon="smg", close_range=True, full_auto=True))
    assert emptied.levels == 3 and any("then an action to reload" in s.text for s in emptied.steps)
    far = strike_damage(Strike(weapon="smg", full_auto=True))
    assert far.levels == 2 and any("only within five feet" in s.text for s in far.steps)
    with pytest.raises(RulesError) as err:
        strike_damage(Strike(weapon="pistol", full_auto=True))
    assert err.value.field == "full_auto"


def test_high_caliber_win_adds_a_level_tie_by_setting():
    """met-reference 3.7, 8.2 #11: High-Caliber +1 level on a won simple test; a tie only under Dark Epics."""
    assert strike_damage(Strike(weapon="heavy_pistol", high_caliber_test=WIN)).levels == 3
    assert strike_damage(Strike(weapon="heavy_pistol", high_caliber_test=TIE)).levels == 2
    de = ChronicleSettings.from_overrides({"high_caliber_tie_counts": True})
    damage = strike_damage(Strike(weapon="heavy_pistol", high_caliber_test=TIE), de)
    assert damage.levels == 3 and damage.steps[-1].setting == "high_caliber_tie_counts"


def test_high_caliber_test_drawn_from_random_source():
    """met-reference 3.7: the simple test's throws come from the injected random source, repeatably."""
    first = strike_damage(Strike(weapon="heavy_pistol"), rng=random.Random(7))
    assert first == strike_damage(Strike(weapon="heavy_pistol"), rng=random.Random(7))
    with pytest.raises(RulesError) as err:
        strike_damage(Strike(weapon="heavy_pistol"))
    assert err.value.field == "high_caliber_test"


def test_staking_two_simple_tests_won_or_tied():
    """met-reference 3.7 (Staking): win or tie two simple tests in a row after a hit; 000: paralysed."""
    damage = strike_damage(Strike(weapon="stake", stake_attempt=True, staking_tests=(TIE, WIN)))
    assert damage.stake
    ruling = damage_taken(damage, Target()).apply_to(new_track(), who="Dracos")
    assert ruling.staked and ruling.track.lethal == 1
    assert not strike_damage(Strike(weapon="stake", stake_attempt=True, staking_tests=(WIN, LOSS))).stake
    with pytest.raises(RulesError):
        strike_damage(Strike(weapon="knife", stake_attempt=True, staking_tests=(WIN, WIN)))


# ---------------------------------------------------------------- armor

def test_armor_levels_lost_first():
    """met-reference 3.7: armor acts as extra health levels, lost first."""
    ruling = take(Strike(weapon="ax"), Target(armor="chain", armor_left=1))
    assert ruling.parts == (("lethal", 1),) and ruling.armor_left == 0
    ruling = take(Strike(weapon="ax"), Target(armor="plate"))
    assert ruling.parts == () and ruling.armor_left == 1
    assert ruling.apply_to(new_track()).track.marked == 0


def test_armor_does_not_stop_fire_or_armor_piercing():
    """000 "Armor": armor does not protect against fire; met-reference 3.7: Armor-Piercing ignores armor."""
    fire = damage_taken(Damage(2, "aggravated", source="fire"), Target(armor="plate"))
    assert fire.parts == (("aggravated", 2),) and fire.armor_left == 3
    piercing = damage_taken(Damage(2, "lethal", armor_piercing=True), Target(armor="plate"))
    assert piercing.parts == (("lethal", 2),)


def test_sunlight_does_not_harm_mortals():
    """000 "Aggravated Damage": mortals may ignore sunlight."""
    ruling = damage_taken(Damage(3, "aggravated", source="sunlight"), Target(creature="mortal"))
    assert ruling.parts == ()
    assert ruling.apply_to(new_track("mortal")).track.marked == 0


# ---------------------------------------------------------------- T9 through the pipeline

def test_t9_dracos_through_the_pipeline():
    """met-reference T9: kick 1 bashing, two shots, knife with Potence: Incapacitated after the fourth hit."""
    track = new_track()
    strikes = [Strike(), Strike(weapon="pistol", head_shot=True), Strike(weapon="pistol", head_shot=True),
               Strike(weapon="knife", potence=5)]
    states = []
    for strike in strikes:
        track = damage_taken(strike_damage(strike), Target()).apply_to(track, who="Dracos").track
        states.append(track.state())
    assert states == ["Healthy", "Bruised", "Wounded", "Incapacitated"]
    assert (track.bashing, track.lethal) == (1, 6)


# ---------------------------------------------------------------- Fortitude

def test_t21_resilience_tie_after_stamina_trait():
    """met-reference T21: 2 aggravated; the player spends a stamina Trait and ties: 1 aggravated + 1 lethal."""
    ruling = damage_taken(Damage(2, "aggravated"), Target(fortitude=3),
                          resilience_test=FortitudeTest(TIE, stamina_trait_spent=True))
    assert ruling.parts == (("aggravated", 1), ("lethal", 1))
    track = ruling.apply_to(new_track()).track
    assert (track.aggravated, track.lethal) == (1, 1)


def test_resilience_tie_without_stamina_trait_fails():
    """met-reference 3.5 (Resilience): without spending a stamina Trait only a win reduces the damage."""
    ruling = damage_taken(Damage(2, "aggravated"), Target(fortitude=3), resilience_test=FortitudeTest(TIE))
    assert ruling.parts == (("aggravated", 2),)
    with pytest.raises(RulesError) as err:
        damage_taken(Damage(2, "aggravated"), Target(fortitude=2), resilience_test=FortitudeTest(WIN))
    assert err.value.field == "fortitude"


def test_resistance_removes_one_level():
    """met-reference 3.5 (Resistance): a successful simple test removes one level of lethal or bashing."""
    ruling = damage_taken(Damage(2, "lethal"), Target(fortitude=4), resistance=FortitudeTest(WIN))
    assert ruling.parts == (("lethal", 1),)
    assert damage_taken(Damage(2, "lethal"), Target(fortitude=4), resistance=FortitudeTest(LOSS)).levels == 2
    with pytest.raises(RulesError):
        damage_taken(Damage(1, "aggravated"), Target(fortitude=5), resistance=FortitudeTest(WIN))


def test_t22_aegis_cancels_a_killing_turn():
    """met-reference T22: Aegis declared in the turn the character would die removes all damage from that
    turn, for 1 permanent Willpower or 3 permanent Physical Traits."""
    start = apply_damage(new_track(), "lethal", 6).track
    killed = apply_damage(start, "aggravated", 3, settings=ChronicleSettings.from_overrides(
        {"below_incapacitated_model": "lotnr"})).track
    assert killed.condition == "final_death"
    ruling = invoke_aegis(start, killed, fortitude=5, payment="physical_traits")
    assert ruling.track == start and ruling.immune_for_rest_of_turn
    assert ruling.cost == "3 permanent Physical Traits"
    with pytest.raises(RulesError):
        invoke_aegis(start, killed, fortitude=4, payment="willpower")
    with pytest.raises(RulesError):
        invoke_aegis(killed, killed, fortitude=5, payment="willpower")


def test_endurance_only_bruised_penalty():
    """met-reference 3.5 (Endurance), T11: a Wounded character with Endurance is treated as Bruised."""
    wounded = apply_damage(new_track(), "lethal", 5).track
    assert endurance_level(wounded, 1) == "Bruised"
    assert endurance_level(wounded, 0) == "Wounded"
