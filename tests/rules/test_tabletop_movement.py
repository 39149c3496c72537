"""Movement at the tabletop (issue 37 item 2): allowances by profile, half the running distance and still acting,
each wound level's movement penalty, movement as an action, and a Wounded character who moves and attacks losing
dice (000, 003, 004 "Movement"; 000 "Health Chart"; 001 "Damage Explained")."""

from __future__ import annotations

import pytest

from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.actions import ActionSlot
from larp.rules.tabletop.aiming import aim
from larp.rules.tabletop.combat import Attack, Circumstances, resolve_attack
from larp.rules.tabletop.initiative import Entrant, roll_initiative
from larp.rules.tabletop.movement import movement_allowance, move, plan_move
from larp.rules.tabletop.declarations import declare
from larp.rules.tabletop.turn import begin_turn, new_combat
from larp.rules.tabletop.maneuvers import tabletop_profile

from tests.rules.tabletop_fighters import fighter

DARK_AGES = ChronicleSettings.from_overrides({"tabletop_profile": "dark_ages"})


def test_distances_by_dexterity_and_half_the_run_with_an_action():
    """000 "Movement" (the rulebook's distances: walk 7, jog 12 + Dexterity, run 20 + 3 x Dexterity): Dexterity 3
    walks 7, jogs 15, runs 29, and may move 14 yards (half the running distance) and still act."""
    allowance = movement_allowance(fighter(Dexterity=3))
    assert (allowance.walk, allowance.jog, allowance.run, allowance.with_action) == (7, 15, 29, 14)
    assert allowance.moves_and_attacks


def test_dark_ages_moves_its_walking_distance_and_still_acts():
    """004 "Action": "A player can move his walking speed and still attack"."""
    assert movement_allowance(fighter(Dexterity=3), DARK_AGES).with_action == 7


@pytest.mark.parametrize("damage, level, run, with_action, moves_and_attacks", [
    (2, "", 29, 14, True),                # Hurt: no movement hindrance
    (3, "Injured", 14, 7, True),          # halve the maximum running speed
    (4, "Wounded", 7, 3, False),          # may not run, may still walk; no move and attack without losing dice
    (5, "Mauled", 3, 1, False),           # hobble, three yards a turn
    (6, "Crippled", 1, 0, False),         # crawl, one yard a turn
    (7, "Incapacitated", 0, 0, False),    # incapable of movement
])
def test_each_wound_levels_movement_penalty(damage, level, run, with_action, moves_and_attacks):
    """000 "Health Chart", movement penalty column; 001 "Damage Explained" (Wounded)."""
    allowance = movement_allowance(fighter(damage=damage, Dexterity=3))
    assert (allowance.limit, allowance.run, allowance.with_action, allowance.moves_and_attacks) == \
        (level, run, with_action, moves_and_attacks)


def test_a_move_is_checked_against_the_allowance():
    """000 "Movement": 14 yards come with an action; 20 is an action of its own (a run); 30 is beyond Dexterity 3's
    run of 29; the pace is named (walk, jog, run; hobble and crawl when wounds cap it)."""
    f = fighter(Dexterity=3)
    assert plan_move(f, 14, with_action=True).pace == "jog"
    run = plan_move(f, 20)
    assert (run.pace, run.own_action) == ("run", True)
    with pytest.raises(RulesError) as err:
        plan_move(f, 20, with_action=True)
    assert err.value.field == "yards" and "action of its own" in err.value.message
    with pytest.raises(RulesError):
        plan_move(f, 30)
    assert plan_move(fighter(damage=5, Dexterity=3), 3).pace == "hobble"
    assert plan_move(fighter(damage=6, Dexterity=3), 1).pace == "crawl"


def test_moving_then_attacking():
    """000 "Movement": moving half the running distance and still attacking costs no dice; moving farther is an
    action of its own, so the attack must be one of a multiple action (and loses dice as such)."""
    a = fighter(Dexterity=3, abilities={"Brawl": 2})
    near = resolve_attack(Attack("strike", a, fighter("t"), Circumstances(moved_yards=14)), dice={"attack": [2] * 5})
    assert near.attack_pool == 5
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("strike", a, fighter("t"), Circumstances(moved_yards=20)), dice={"attack": [2] * 5})
    assert err.value.field == "moved_yards"
    far = resolve_attack(Attack("strike", a, fighter("t"), Circumstances(moved_yards=20), slot=ActionSlot(2, 2)),
                         dice={"attack": [2] * 2})
    assert far.attack_pool == 5 - 3


def test_a_wounded_character_who_moves_and_attacks_loses_dice():
    """001 "Damage Explained": a Wounded character "may not move, then attack; he always loses dice when moving and
    attacking in the same turn": even a step makes the move an action of its own, so a single attack is refused and
    the attack as the second of two actions loses 3 dice, beside the wound penalty (-2)."""
    wounded = fighter(damage=4, Dexterity=3, abilities={"Brawl": 3})
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("strike", wounded, fighter("t"), Circumstances(moved_yards=1)), dice={"attack": [2] * 4})
    assert err.value.field == "moved_yards" and "Wounded" in err.value.message
    ruling = resolve_attack(Attack("strike", wounded, fighter("t"), Circumstances(moved_yards=1),
                                   slot=ActionSlot(2, 2)), dice={"attack": [2]})
    assert ruling.attack_pool == 6 - 3 - 2
    standing = resolve_attack(Attack("strike", wounded, fighter("t")), dice={"attack": [2] * 4})
    assert standing.attack_pool == 6 - 2


def test_a_move_is_an_action_and_running_breaks_an_aim():
    """000 "Movement" (a move is an action of the turn) and "Aiming" (no one can aim at a target moving faster than
    a walk): the runner spends an action, and the aim at him is lost."""
    shooter = fighter("s", Perception=3, abilities={"Firearms": 2}, weapon="rifle")
    runner = fighter("r", Dexterity=3)
    combat = new_combat([("s", "S"), ("r", "R")])
    order = roll_initiative([Entrant("s", "S", 2, 2), Entrant("r", "R", 3, 3)], dice={"s": 5, "r": 5})
    combat, _ = begin_turn(combat, order)
    combat, _ = declare(combat, {}, {}, tabletop_profile("revised"))
    combat, _ = aim(combat, shooter, "r")
    assert combat.carried.aims["s"].turns == 1
    combat, ruling = move(combat, runner, 20)
    assert ruling.pace == "run" and combat.used["r"] == 1
    assert "s" not in combat.carried.aims
    assert any("can no longer aim" in s.text for s in ruling.steps)
