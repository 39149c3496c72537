"""Aiming across turns (issue 37 item 4; 000 and 003 "Aiming"): +1 die a turn up to Perception, Firearms 1 or more,
a scope's +2 on the first turn, nothing else while aiming, never at a target moving faster than a walk; the aim is
state the combat carries from turn to turn."""

from __future__ import annotations

import pytest

from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.aiming import aim, aim_for
from larp.rules.tabletop.combat import Attack, Circumstances, resolve_attack
from larp.rules.tabletop.initiative import Entrant, roll_initiative
from larp.rules.tabletop.maneuvers import tabletop_profile
from larp.rules.tabletop.declarations import declare
from larp.rules.tabletop.turn import Combat, begin_turn, new_combat, next_turn, take_action

from tests.rules.tabletop_fighters import fighter

DARK_AGES = ChronicleSettings.from_overrides({"tabletop_profile": "dark_ages"})


SNIPER = fighter("s", Dexterity=3, Perception=2, abilities={"Firearms": 2}, weapon="rifle")


def turn(combat: Combat | None = None) -> Combat:
    """The next turn's action phase (the first turn when ``combat`` is ``None``)."""
    combat = new_combat([("s", "Sam"), ("t", "Tom"), ("u", "Ula")]) if combat is None else next_turn(combat)
    order = roll_initiative([Entrant(k, k, 3, 3) for k in "stu"], dice={"s": 9, "t": 5, "u": 4})
    combat, _ = begin_turn(combat, order)
    combat, _ = declare(combat, {}, {}, tabletop_profile("revised"))
    return combat


def shot(combat: Combat, settings=None):
    turns, scope = aim_for(combat, "s", "t")
    return resolve_attack(Attack("shoot", SNIPER, fighter("t"), Circumstances(aim_turns=turns, scope=scope)), settings,
                          dice={"attack": [2] * (5 + min(turns, 2) + (2 if scope else 0))})


def test_each_turn_of_aiming_adds_a_die_up_to_perception():
    """000 "Aiming": one die a turn spent aiming, at most Perception (2): three turns give +2; the aim is carried
    from turn to turn."""
    combat = turn()
    for expected in (1, 2, 3):
        combat, ruling = aim(combat, SNIPER, "t")
        assert combat.carried.aims["s"].turns == expected
        combat = turn(combat)
    assert aim_for(combat, "s", "t") == (3, False)
    assert shot(combat).attack_pool == 5 + 2
    assert ruling.dice == 2 and "at most Perception 2" in ruling.steps[-1].text


def test_a_scope_adds_two_on_the_first_turn():
    """000 "Aiming": "A scope adds two more dice ... in the first turn of aiming": one turn with a scope, +1 +2."""
    combat, ruling = aim(turn(), SNIPER, "t", scope=True)
    assert ruling.dice == 3
    assert shot(turn(combat)).attack_pool == 5 + 1 + 2


def test_aiming_takes_the_whole_turn_and_anything_else_ends_it():
    """000 "Aiming": "The attacker may do nothing but aim during this time": he cannot aim after acting, and an action
    of any other kind (here a second turn's strike) drops the aim; the aimed shot spends it."""
    combat = turn()
    acted = take_action(combat, "s", "Sam punches.")
    with pytest.raises(RulesError) as err:
        aim(acted, SNIPER, "t")
    assert err.value.field == "aim"
    combat, _ = aim(combat, SNIPER, "t")
    assert combat.offense_left("s") == 0
    combat = turn(combat)
    assert "s" not in take_action(combat, "s", "Sam shoots.").carried.aims


def test_turning_to_another_target_starts_again():
    """000 "Aiming" (the turns spent aiming at this target): aiming at Ula after Tom starts from one turn."""
    combat, _ = aim(turn(), SNIPER, "t")
    combat, ruling = aim(turn(combat), SNIPER, "u")
    assert combat.carried.aims["s"].turns == 1 and "starts again" in ruling.steps[0].text
    assert aim_for(combat, "s", "t") == (0, False)


def test_no_aim_at_a_target_faster_than_a_walk_nor_without_firearms():
    """000 "Aiming": "it isn't possible to aim at a target that is moving faster than a walk"; "a character must have
    Firearms 1 or better"; a bow needs Archery instead (001); the Dark Ages profile has no scopes."""
    with pytest.raises(RulesError) as err:
        aim(turn(), SNIPER, "t", target_pace="run")
    assert err.value.field == "target_pace"
    with pytest.raises(RulesError) as err:
        aim(turn(), fighter("s", weapon="rifle"), "t")
    assert err.value.field == "aim" and "Firearms" in err.value.message
    archer = fighter("s", abilities={"Firearms": 3}, weapon="bow")
    with pytest.raises(RulesError) as err:
        aim(turn(), archer, "t")
    assert "Archery" in err.value.message
    aim(turn(), fighter("s", abilities={"Archery": 1}, weapon="bow"), "t")
    with pytest.raises(RulesError) as err:
        aim(turn(), fighter("s", abilities={"Archery": 1}, weapon="bow"), "t", DARK_AGES, scope=True)
    assert err.value.field == "scope"


def test_the_aim_survives_the_json_round_trip():
    """The aim is kept between requests as JSON (issue 37: state carried from turn to turn)."""
    combat, _ = aim(turn(), SNIPER, "t", scope=True)
    assert Combat.from_dict(combat.to_dict()).carried.aims == combat.carried.aims
