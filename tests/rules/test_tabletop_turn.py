"""Tests of the combat turn's state: order of actions, declarations, defenses, holds, conditions
(000 "Stage One: Initiative", "Multiple Actions", "Aborting Actions"; 004 "Multiple Actions", "Aborting to Defense")."""

import pytest

from larp.rules.explain import RulesError
from larp.rules.tabletop.combat import Effect
from larp.rules.tabletop.initiative import Entrant, roll_initiative
from larp.rules.tabletop.maneuvers import tabletop_profile
from larp.rules.tabletop.declarations import declare
from larp.rules.tabletop.turn import Combat, Declaration, apply_effects, begin_turn, new_combat, next_turn, take_action, \
    use_defense

REVISED = tabletop_profile("revised")
DARK_AGES = tabletop_profile("dark_ages")


def started(declarations, scores=None, celerity=None, profile=REVISED):
    """A combat of A, B, C (initiative A 20, B 15, C 10 unless given) with ``declarations`` made."""
    combat = new_combat([("a", "A"), ("b", "B"), ("c", "C")])
    scores = scores or {"a": 10, "b": 9, "c": 8}
    initiative = roll_initiative([Entrant(k, k.upper(), 5, 5) for k in ("a", "b", "c")], dice=scores)
    combat, _ = begin_turn(combat, initiative)
    combat, _ = declare(combat, declarations, celerity or {}, profile)
    return combat


def test_first_actions_in_order_then_all_second_actions_before_any_third():
    """000: multiple actions occur at the end of the turn in order of initiative; 004: all second actions
    take place before any third."""
    combat = started({"a": Declaration(actions=3), "b": Declaration(actions=2), "c": Declaration()})
    assert [(s.who, s.number) for s in combat.queue()] == [("a", 1), ("b", 1), ("c", 1), ("a", 2), ("b", 2), ("a", 3)]


def test_celerity_actions_come_at_the_end_without_penalty():
    """000: actions gained through Celerity occur at the end of the turn, in order of initiative, with no
    dice lost."""
    combat = started({"b": Declaration(actions=1, celerity=2)}, celerity={"b": 2})
    assert [(s.who, s.number) for s in combat.queue()] == [("a", 1), ("b", 1), ("c", 1), ("b", 2), ("b", 3)]
    combat = take_action(combat, "b", "b acts")
    slot = combat.action_slot("b")
    assert slot.celerity


def test_celerity_beyond_the_rating_is_refused():
    """004 "Preliminaries": extra actions up to the Celerity rating."""
    with pytest.raises(RulesError) as err:
        started({"b": Declaration(celerity=2)}, celerity={"b": 1})
    assert err.value.field == "b.celerity"


def test_delayers_wait_and_then_go_by_initiative():
    """000: a delayer may act at any time after her order; two delayers acting together: the higher
    initiative first."""
    combat = started({"a": Declaration(delay=True), "b": Declaration(delay=True)})
    assert combat.waiting() == ["a", "b"]
    assert [s.who for s in combat.queue()] == ["c", "a", "b"]
    combat = take_action(combat, "b", "b interrupts")
    assert combat.waiting() == ["a"]


def test_a_multiple_action_counts_dice_from_the_actions_used():
    """000 (Liselle): three actions; the claw is action 1 (three dice off), the dodges actions 2 and 3."""
    combat = started({"a": Declaration(actions=3, defenses=2)})
    assert combat.declaration("a").offense == 1
    first = combat.action_slot("a")
    assert (first.total, first.number) == (3, 1)
    combat = take_action(combat, "a", "claw")
    combat = use_defense(combat, "a", False, REVISED)
    assert combat.action_slot("a", defense=True).number == 3
    combat = use_defense(combat, "a", False, REVISED)
    with pytest.raises(RulesError):
        use_defense(combat, "a", False, REVISED)


def test_aborting_only_before_acting_in_revised_but_with_any_action_left_in_dark_ages():
    """000 "Aborting Actions": as long as the character hasn't acted; 004 "Aborting to Defense": provided
    he has an action remaining this turn."""
    for profile, after_acting in ((REVISED, False), (DARK_AGES, True)):
        combat = started({"b": Declaration(actions=2)}, profile=profile)
        assert combat.defense_options("b", profile) == {"declared": False, "abort": True}
        combat = take_action(combat, "b", "b acts")
        assert combat.defense_options("b", profile)["abort"] is after_acting
    combat = started({"b": Declaration()})
    combat = use_defense(combat, "b", True, REVISED)
    assert combat.offense_left("b") == 0 and combat.aborted["b"] == 1
    with pytest.raises(RulesError) as err:
        use_defense(combat, "b", True, REVISED)
    assert err.value.field == "defense.abort"


def test_full_defense_keeps_defending():
    """000: a turn spent defending: defense after defense, none of them staged in the order."""
    combat = started({"c": Declaration(full_defense=True)})
    assert "c" not in [s.who for s in combat.queue()]
    for number in (1, 2, 3):
        assert combat.action_slot("c", defense=True).number == number
        combat = use_defense(combat, "c", False, REVISED)


def test_a_bite_follows_a_hold_made_in_an_earlier_turn():
    """000 "Bite": on the turn following the successful hold."""
    combat = started({})
    combat = apply_effects(combat, [Effect("a", "holds", "A holds B", target="b", maneuver="hold")])
    assert combat.prior_hold("a", "b") is None
    assert [h.maneuver for h in combat.held_by("b")] == ["hold"]
    combat = next_turn(combat)
    assert combat.prior_hold("a", "b") == "hold"
    combat = apply_effects(combat, [Effect("b", "hold_broken", "B breaks free")])
    assert combat.prior_hold("a", "b") is None


def test_a_dazed_fighter_sits_out_the_next_turn():
    """000 "Dazed": the target must spend her next available turn shaking off the attack's effects."""
    combat = started({})
    combat = apply_effects(combat, [Effect("c", "dazed", "C is dazed")])
    combat = next_turn(combat)
    initiative = roll_initiative([Entrant(k, k.upper(), 5, 5) for k in ("a", "b", "c")], dice={"a": 5, "b": 5, "c": 5})
    combat, steps = begin_turn(combat, initiative)
    assert "c" in combat.out and any(s.rule == '000 "Dazed"' for s in steps)


def test_getting_up_spends_the_first_action():
    """000 "Knockdown": on a failed roll, the subject spends her next action climbing to her feet."""
    combat = started({})
    combat = apply_effects(combat, [Effect("a", "rising", "A gets up")])
    combat = next_turn(combat)
    initiative = roll_initiative([Entrant(k, k.upper(), 5, 5) for k in ("a", "b", "c")], dice={"a": 9, "b": 5, "c": 5})
    combat, _ = begin_turn(combat, initiative)
    combat, steps = declare(combat, {"a": Declaration(actions=2)}, {}, REVISED)
    assert combat.offense_left("a") == 1
    assert any("getting up" in s.text for s in steps)


def test_choosing_fighters():
    """Issue 9: a tabletop combat is for 2 to 6 characters."""
    with pytest.raises(RulesError) as err:
        new_combat([("a", "A")])
    assert err.value.field == "characters"
    with pytest.raises(RulesError):
        new_combat([(str(i), str(i)) for i in range(7)])


def test_the_state_survives_a_round_trip_through_json():
    """The screen keeps the turn as plain JSON, so a reload loses nothing."""
    combat = started({"a": Declaration(actions=2, maneuver="strike", target="b")})
    combat = apply_effects(take_action(combat, "a", "A strikes"), [Effect("a", "holds", "", target="b", maneuver="hold")])
    assert Combat.from_dict(combat.to_dict()).to_dict() == combat.to_dict()
    with pytest.raises(RulesError):
        Combat.from_dict({"nonsense": True})
