"""Holds and clinches through the turns (issue 37 item 9): a held character takes no other action until he breaks
free (000 "Hold"); in a clinch both may only crush or try to break free (000 "Clinch"); 004's clinch in which both
crush each other ("Bear Hug/Clinch", variant)."""

from __future__ import annotations

import pytest

from larp.rules.explain import RulesError
from larp.rules.health import new_track
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.combat import Attack, Circumstances, Fighter, resolve_attack
from larp.rules.tabletop.holds import check_action, check_defense, resolve_clinch_turn
from larp.rules.tabletop.initiative import Entrant, roll_initiative
from larp.rules.tabletop.maneuvers import tabletop_profile
from larp.rules.tabletop.declarations import declare
from larp.rules.tabletop.turn import Combat, Hold, begin_turn, new_combat

DARK_AGES = ChronicleSettings.from_overrides({"tabletop_profile": "dark_ages"})
REVISED = tabletop_profile("revised")
ATTRS = ("Strength", "Dexterity", "Stamina", "Charisma", "Manipulation", "Appearance", "Perception",
         "Intelligence", "Wits")


def fighter(key: str, **ratings) -> Fighter:
    attributes = {a: ratings.pop(a, 2) for a in ATTRS}
    return Fighter(key, key.capitalize(), new_track(), attributes, ratings.pop("abilities", {"Brawl": 2}),
                   ratings.pop("disciplines", {}), **ratings)


def held(maneuver: str, profile=REVISED) -> Combat:
    """Ann has held Bob by ``maneuver`` since turn 1; turn 2's actions are under way; Cid looks on."""
    combat = new_combat([("a", "Ann"), ("b", "Bob"), ("c", "Cid")])
    combat = combat.__class__(**{**combat.__dict__, "turn": 2, "holds": (Hold("a", "b", maneuver, 1),)})
    order = roll_initiative([Entrant(k, k, 3, 3) for k in "abc"], dice={"a": 9, "b": 5, "c": 4})
    combat, _ = begin_turn(combat, order)
    combat, _ = declare(combat, {}, {}, profile)
    return combat


def test_a_held_character_takes_no_other_action_until_he_breaks_free():
    """000 "Hold": "the subject remains immobilized (able to take no other action) until she rolls more successes
    than the attacker does": Bob may neither strike nor dodge; Cid, who is not held, may act."""
    combat = held("hold")
    for maneuver, target in (("strike", "a"), ("kick", "c")):
        with pytest.raises(RulesError) as err:
            check_action(combat, "b", maneuver, target, REVISED)
        assert err.value.field == "maneuver" and "break" in err.value.message
    with pytest.raises(RulesError) as err:
        check_defense(combat, "b", REVISED)
    assert err.value.field == "defense.maneuver"
    assert check_action(combat, "c", "strike", "b", REVISED) is None
    check_defense(combat, "c", REVISED)


def test_in_a_clinch_both_may_only_crush_or_break_free():
    """000 "Clinch": "In each subsequent turn ... A combatant can inflict Strength damage automatically or attempt to
    escape the clinch. No other actions are allowed until one combatant breaks free"; 000 "Bite": the vampire who
    made the clinch may bite. Either side goes on with the clinch (its damage is automatic)."""
    combat = held("clinch")
    assert check_action(combat, "a", "clinch", "b", REVISED) == "clinch"
    assert check_action(combat, "b", "clinch", "a", REVISED) == "clinch"
    assert check_action(combat, "a", "bite", "b", REVISED) is None
    for who, maneuver, target in (("b", "bite", "a"), ("a", "strike", "b"), ("a", "clinch", "c"), ("b", "kick", "a")):
        with pytest.raises(RulesError) as err:
            check_action(combat, who, maneuver, target, REVISED)
        assert err.value.field == "maneuver", (who, maneuver)
    for who in "ab":
        with pytest.raises(RulesError):
            check_defense(combat, who, REVISED)


def test_the_clinched_one_inflicts_strength_damage_automatically():
    """000 "Clinch": Bob, clinched by Ann, inflicts his Strength damage automatically in a later turn (no roll)."""
    combat = held("clinch")
    prior = check_action(combat, "b", "clinch", "a", REVISED)
    ruling = resolve_attack(Attack("clinch", fighter("b", Strength=3), fighter("a", Stamina=0),
                                   Circumstances(prior_hold=prior)), dice={"damage": [8, 8, 2]})
    assert ruling.attack_roll is None and ruling.hit and ruling.damage_pool == 3


def test_a_bear_hug_goes_on_for_its_maker_only():
    """004 "Bear Hug/Clinch": in each subsequent round the hugger goes on (resisted Strength + Brawl); the one hugged
    can only try to break free."""
    combat = held("bear_hug", tabletop_profile("dark_ages"))
    profile = tabletop_profile("dark_ages")
    assert check_action(combat, "a", "bear_hug", "b", profile) == "bear_hug"
    with pytest.raises(RulesError):
        check_action(combat, "b", "bear_hug", "a", profile)


def test_dark_ages_clinch_both_crush_each_other():
    """004 "Bear Hug/Clinch", variant: clinch: "Both characters attempt to crush each other - Both suffer damage - The
    player with most successes decides if the attack continues or ends": resisted Strength + Brawl (Ann 2, Bob 1
    success), Ann's Strength 3 scores 2 on Bob, Bob's Strength 2 scores 1 on Ann; Ann decides."""
    ann, bob = fighter("a", Strength=3, Stamina=0), fighter("b", Strength=2, Stamina=0)
    ruling = resolve_clinch_turn(ann, bob, DARK_AGES, dice={
        "grip_a": [9, 9, 2, 2, 2], "grip_b": [9, 2, 2, 2], "damage_a": [8, 8, 2], "damage_b": [8, 2]})
    assert ruling.tracks["b"].bashing == 1 and ruling.tracks["a"].bashing == 0  # vampires halve bashing
    assert ruling.rolls["damage_a"].net == 2 and ruling.rolls["damage_b"].net == 1
    assert ruling.decides == "a"
    tie = resolve_clinch_turn(ann, bob, DARK_AGES, dice={
        "grip_a": [9, 2, 2, 2, 2], "grip_b": [9, 2, 2, 2], "damage_a": [2] * 3, "damage_b": [2] * 2})
    assert tie.decides is None and any("goes on" in s.text for s in tie.steps)


def test_the_mutual_clinch_is_its_own_turn_and_the_dark_ages_profiles():
    """004 "Bear Hug/Clinch": the first turn is the attack (a grip with Strength + Brawl); the clinch that goes on is
    resolved as both crushing each other, not as an attack; the revised profile has no such clinch."""
    ann, bob = fighter("a", Strength=3), fighter("b")
    grip = resolve_attack(Attack("clinch", ann, bob), DARK_AGES, dice={"attack": [9, 2, 2, 2, 2], "damage": [2] * 3,
                                                                       "soak": [2] * 2})
    assert grip.has("holds", "a")
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("clinch", ann, bob, Circumstances(prior_hold="clinch")), DARK_AGES,
                       dice={"attack": [2] * 5})
    assert err.value.field == "maneuver" and "resolve_clinch_turn" in err.value.message
    with pytest.raises(RulesError):
        resolve_clinch_turn(ann, bob, dice={"grip_a": [2] * 5, "grip_b": [2] * 4})
