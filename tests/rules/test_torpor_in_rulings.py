"""Torpor inside the rules core's consequences (issue 29 item 2): every ruling that puts a vampire in
torpor works out its cause, length and wake date from the game session's date it is given, and ends its
steps with them (met-reference 5.2; 000/001 "Torpor"; :func:`larp.rules.torpor.enter_torpor`).

The numbers are met-reference's worked examples: T9, Dracos, a vampire whose track is full up to
Incapacitated (7 levels marked) goes into torpor with the next lethal level; T20, MET Humanity 4
(tabletop 7 or 8) sleeps 1 week of real time.
"""

from __future__ import annotations

import random
from datetime import date
from types import SimpleNamespace

from larp.rules.health import HealthTrack, live_levels
from larp.rules.rulings import (
    HandDamage,
    Person,
    rule_blood_called_for,
    rule_damage_by_hand,
    rule_firing_into_groups,
    rule_healing,
    rule_mass_challenge,
    rule_one_on_one,
)
from larp.rules.rulings.parsing import (
    firing_into_groups_call_from_dict,
    mass_challenge_call_from_dict,
    one_on_one_from_dict,
)
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.combat import Attack, Fighter, resolve_attack
from larp.rules.tabletop.actions import ActionSlot
from larp.rules.tabletop.combatants import Circumstances
from larp.rules.torpor import GameNight

SETTINGS = ChronicleSettings.defaults()
NIGHT = GameNight(date(2026, 12, 5), 3)
WEEK_LATER = date(2026, 12, 12)  # T20: MET Humanity 4, one week
R_LIVE = "LotNR Torpor (met-reference 5.2)"
#: T9: Dracos at Incapacitated, one lethal level from torpor (1 bashing, 6 lethal marked).
DRACOS = {"creature": "vampire", "bashing": 1, "lethal": 6}


def assert_a_week(result, name: str, cause: str = "wounds") -> None:
    """T20 applied: the torpor in the consequences and the steps' end, as a narrator reads them."""
    torpor = result.consequences.of(name).torpor
    assert torpor is not None, f"{name} entered no torpor in the consequences"
    assert (torpor.cause, torpor.started_on, torpor.length, torpor.nights, torpor.wake_on) == (
        cause, NIGHT.on, "a week", 7, WEEK_LATER)
    assert result.consequences.of(name).torpor_cause == cause
    texts = [(s.text, s.rule) for s in result.steps]
    assert (f"Calendar time: {name} may try to wake from the night of 2026-12-12, for a blood point and a test.",
            R_LIVE) in texts
    assert texts[-1] == (f"That is 7 nights in torpor, from 2026-12-05 to 2026-12-12.", R_LIVE)
    assert result.to_dict()["consequences"][name]["torpor"]["wake_on"] == "2026-12-12"


def _view(result) -> SimpleNamespace:
    """A mass challenge's or stray shot's ruling read as the others: its steps are the engine ruling's."""
    return SimpleNamespace(consequences=result.consequences, steps=result.ruling.steps, to_dict=result.to_dict)


def test_damage_by_hand_t9_then_t20():
    """T9: the next lethal level puts Dracos in torpor; T20: at Humanity 4 for a week, to the night of
    the 12th from a game session on the 5th."""
    dracos = Person("Dracos", bashing=1, lethal=6, morality=4)
    result = rule_damage_by_hand(dracos, HandDamage("lethal", 1), None, SETTINGS, night=NIGHT)
    assert result.consequences.of("Dracos").track.condition == "torpor"
    assert_a_week(result, "Dracos")


def test_without_a_game_session_the_cause_is_given_and_no_length():
    """No game session known (none open): the core still says why, and works out no date."""
    dracos = Person("Dracos", bashing=1, lethal=6, morality=4)
    result = rule_damage_by_hand(dracos, HandDamage("lethal", 1), None, SETTINGS)
    assert result.consequences.of("Dracos").torpor_cause == "wounds"
    assert result.consequences.of("Dracos").torpor is None
    assert not any("may try to wake" in s.text for s in result.steps)


def test_a_vampire_already_in_torpor_enters_none_and_a_mortal_none():
    """Torpor is entered once; a mortal past Incapacitated dies (002 "Damage and Healing")."""
    torpid = Person("Dracos", lethal=8, condition="torpor", morality=4)
    result = rule_damage_by_hand(torpid, HandDamage("bashing", 1), None, SETTINGS, night=NIGHT)
    assert result.consequences.of("Dracos").torpor is None
    mortal = Person("Walter", creature="mortal", bashing=1, lethal=6, morality=4)
    result = rule_damage_by_hand(mortal, HandDamage("lethal", 1), None, SETTINGS, night=NIGHT)
    assert result.consequences.of("Walter").torpor is None


def test_one_on_one_the_knife_puts_the_loser_in_torpor():
    """A won weapon strike (a knife: lethal) on Dracos at Incapacitated (he spends a Willpower Trait to
    ignore his wounds and fight, LotNR Willpower)."""
    one, scene = one_on_one_from_dict({
        "category": "physical", "action": "weapon",
        "challenger": {"name": "Anna", "traits": 8, "bid": ["Quick"], "weapon": "knife"},
        "defender": {"name": "Dracos", "traits": 3, "bid": ["Brawny"], "body": DRACOS, "morality": 4,
                     "willpower": 1, "ignore_wounds": True},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]})
    result = rule_one_on_one(one, scene, SETTINGS, random.Random(1), night=NIGHT)
    assert_a_week(result, "Dracos")


def test_mass_challenge_a_blow_puts_the_target_in_torpor():
    """002 "Mass Combat": Dracos, Wounded one level short of T9's Incapacitated, loses to an ax (2 lethal)."""
    mass_call, scene = mass_challenge_call_from_dict({
        "defender": {"name": "Dracos", "traits": 3, "bid": ["Quick", "Wiry"], "throw": "scissors",
                     "body": {"creature": "vampire", "bashing": 1, "lethal": 5}, "morality": 4},
        "attackers": [{"name": "Anna", "traits": 7, "bid": ["Brawny"], "throw": "rock",
                       "attack": {"action": "weapon", "weapon": "ax"}}]}, SETTINGS)
    result = rule_mass_challenge(mass_call, scene, SETTINGS, random.Random(1), night=NIGHT)
    assert_a_week(_view(result), "Dracos")


def test_firing_into_groups_a_bullet_puts_a_bystander_in_torpor():
    """002 "Firing Guns into Groups of People", with bullets lethal (firearms_against_vampires "lotnr",
    met-reference 3.7, T5: a pistol's 2 lethal): Dracos, a bystander at Wounded, goes past Incapacitated."""
    settings = ChronicleSettings.from_overrides({"firearms_against_vampires": "lotnr"})
    firing, scene = firing_into_groups_call_from_dict({
        "firer": {"name": "Ruth", "traits": 5, "bid": ["Steady"]}, "weapon": "pistol", "target": "Konrad",
        "bystanders": [{"name": "Dracos", "traits": 3, "bid": ["Quick"], "throw": "scissors",
                        "firer_throw": "rock", "body": {"creature": "vampire", "lethal": 6}, "morality": 4}]},
        settings)
    result = rule_firing_into_groups(firing, scene, settings, random.Random(1), night=NIGHT)
    assert_a_week(_view(result), "Dracos")


def test_blood_called_for_blood_loss_torpor_and_feeding_wakes():
    """000 "Health Chart", "Torpor": with no blood, rising costs Dracos at Incapacitated a level, and he
    falls into torpor from blood loss, which a blood point fed to him ends (feeding_wakes_blood_torpor)."""
    dracos = Person("Dracos", bashing=1, lethal=6, morality=4, blood=0, blood_max=10)
    result = rule_blood_called_for(dracos, "rising", 1, SETTINGS, night=NIGHT)
    assert_a_week(result, "Dracos", "blood_loss")
    torpor = result.consequences.of("Dracos").torpor
    assert torpor.fed_wakes and any("rises as soon as someone feeds him" in s.text for s in result.steps)


def test_healing_with_an_empty_pool_is_blood_loss_torpor():
    """An Incapacitated vampire with no blood heals nothing and loses a level: torpor from blood loss."""
    dracos = Person("Dracos", bashing=1, lethal=6, morality=4, blood=0, blood_max=10)
    result = rule_healing(dracos, "automatic", 1, SETTINGS, night=NIGHT)
    assert_a_week(result, "Dracos", "blood_loss")


def test_game_sessions_count_from_the_session_the_torpor_began_in():
    """Dark Epics (torpor_time_scale "sessions"): a year is 12 game sessions after game session 3."""
    settings = ChronicleSettings.from_overrides({"torpor_time_scale": "sessions"})
    dracos = Person("Dracos", bashing=1, lethal=6, morality=3)
    torpor = rule_damage_by_hand(dracos, HandDamage("lethal", 1), None, settings,
                                 night=NIGHT).consequences.of("Dracos").torpor
    assert (torpor.length, torpor.nights, torpor.wake_on, torpor.sessions, torpor.wake_session) == (
        "a year", None, None, 12, 15)


def test_tabletop_attack_puts_the_target_in_torpor_by_the_tabletop_table():
    """000 "Torpor" (torpor_table "tabletop"): at Humanity 8 dots, a week; a lethal wound past
    Incapacitated (knife, 000 "Stage Three: Resolution"), rolled dice given."""
    settings = ChronicleSettings.from_overrides({"torpor_table": "tabletop"})
    levels = live_levels(settings)
    hurt = HealthTrack(levels=levels, creature="vampire", lethal=len(levels) - 1)
    attacker = Fighter("a", "Anna", HealthTrack(levels=levels, creature="mortal"),
                       {"Strength": 3, "Dexterity": 4, "Stamina": 2, "Wits": 2}, {"Melee": 3}, weapon="knife")
    target = Fighter("t", "Dracos", hurt, {"Strength": 2, "Dexterity": 1, "Stamina": 1, "Wits": 2},
                     morality=4, tabletop_morality=8)
    ruling = resolve_attack(Attack("weapon_strike", attacker, target, Circumstances(), ActionSlot()), settings,
                            rng=random.Random(3), night=NIGHT)
    assert ruling.target_track.condition == "torpor", ruling.summary
    torpor = ruling.torpor["t"]
    assert (torpor.table, torpor.rating, torpor.length, torpor.nights, torpor.wake_on) == (
        "tabletop", 8, "a week", 7, WEEK_LATER)
    assert ruling.steps[-1].text == "That is 7 nights in torpor, from 2026-12-05 to 2026-12-12."
    assert ruling.to_dict()["torpor"]["t"]["wake_on"] == "2026-12-12"
