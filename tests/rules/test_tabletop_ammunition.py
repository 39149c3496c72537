"""Ammunition, clips, shots through the turn, rate of fire and reloading (issue 37 item 3; 000 "Ranged Weapons
Chart", "Multiple Shots", "Three-Round Burst", "Automatic Fire", "Strafing", "Reloading"; 003 "Multiple Shots")."""

from __future__ import annotations

import random

import pytest

from larp.rules.damage import weapon
from larp.rules.explain import RulesError
from larp.rules.health import new_track
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.actions import ActionSlot
from larp.rules.tabletop.ammunition import gun_for, loaded, reload
from larp.rules.tabletop.carried import Gun
from larp.rules.tabletop.combat import Attack, Circumstances, Fighter, resolve_attack
from larp.rules.tabletop.initiative import Entrant, roll_initiative
from larp.rules.tabletop.maneuvers import tabletop_profile
from larp.rules.tabletop.declarations import declare
from larp.rules.tabletop.turn import Combat, Declaration, apply_effects, begin_turn, new_combat, next_turn

V20 = ChronicleSettings.from_overrides({"tabletop_profile": "v20"})
ATTRS = ("Strength", "Dexterity", "Stamina", "Charisma", "Manipulation", "Appearance", "Perception",
         "Intelligence", "Wits")


def fighter(key: str, **ratings) -> Fighter:
    attributes = {a: ratings.pop(a, 3) for a in ATTRS}
    return Fighter(key, key.capitalize(), new_track(), attributes, ratings.pop("abilities", {"Firearms": 3}), **ratings)


def started(actions: dict[str, int] | None = None, turns: int = 1) -> Combat:
    """A combat of the shooter "s" and two targets "t" and "u", in the action phase of turn ``turns``."""
    combat = new_combat([("s", "Sam"), ("t", "Tom"), ("u", "Ula")])
    for turn in range(turns):
        if turn:
            combat = next_turn(combat)
        order = roll_initiative([Entrant(k, k, 3, 3) for k in "stu"], dice={"s": 9, "t": 5, "u": 4})
        combat, _ = begin_turn(combat, order)
        combat, _ = declare(combat, {k: Declaration(actions=n) for k, n in (actions or {}).items()}, {},
                            tabletop_profile("revised"))
    return combat


def shoot(combat: Combat, shooter: Fighter, maneuver: str = "shoot", target: str = "t", slot=ActionSlot(),
          settings=None, **kw):
    """One attack with the gun as the combat carries it; the combat after its effects, and the ruling."""
    card = weapon(shooter.weapon, "tabletop")
    c = Circumstances(gun=gun_for(combat, shooter.key, card), **kw)
    ruling = resolve_attack(Attack(maneuver, shooter, fighter(target), c, slot=slot), settings,
                            rng=random.Random(37))
    return apply_effects(combat, ruling.effects), ruling


def test_clips_from_the_chart():
    """000 "Ranged Weapons Chart": "17+1" holds 18 (a round in the chamber), the crossbow 1; a bow has no clip."""
    assert weapon("pistol_light", "tabletop").clip == 18
    assert weapon("smg_small", "tabletop").clip == 31
    assert weapon("crossbow", "tabletop").clip == 1
    assert weapon("bow", "tabletop").clip is None
    assert loaded(weapon("revolver_heavy", "tabletop")) == Gun("revolver_heavy", 6)


def test_shots_are_counted_through_the_turn_up_to_the_rate():
    """000 "Ranged Weapons Chart": "Rate: The maximum number of bullets or three-round bursts the gun can fire in a
    single turn": a heavy pistol (rate 3) fires three shots in a turn, spending three of its eight rounds; the
    fourth is refused; the next turn counts again."""
    s = fighter("s", Dexterity=5, abilities={"Firearms": 5}, weapon="pistol_heavy")
    combat = started({"s": 4})
    for n in range(3):
        combat, ruling = shoot(combat, s, slot=ActionSlot(4, n + 1))
        assert ruling.has("fired", "s")
    assert combat.carried.gun("s", "pistol_heavy") == Gun("pistol_heavy", 5, 3, ("t",))
    with pytest.raises(RulesError) as err:
        shoot(combat, s, slot=ActionSlot(4, 4))
    assert err.value.field == "gun" and "at most 3 shots" in err.value.message
    assert next_turn(combat).carried.gun("s", "pistol_heavy").shots == 0


def test_a_burst_spends_three_rounds_and_counts_once():
    """000 "Three-Round Burst": "expends three shots from the weapon's clip"; the rate counts bursts, not bullets."""
    s = fighter("s", weapon="smg_small")
    combat, _ = shoot(started(), s, "three_round_burst")
    assert combat.carried.gun("s", "smg_small") == Gun("smg_small", 28, 1, ("t",))
    low = Circumstances(gun=Gun("smg_small", 2))
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("three_round_burst", s, fighter("t"), low), dice={"attack": [2] * 20})
    assert err.value.field == "gun"


def test_automatic_fire_needs_half_a_clip_and_empties_it():
    """000 "Automatic Fire": "permissible only if the weapon's clip is at least half-full"; it unloads the entire
    clip, and the rate does not apply to it: 16 of 31 rounds fire, 15 do not."""
    s = fighter("s", weapon="smg_small")
    combat = started()
    combat, ruling = shoot(combat.__class__(**{**combat.__dict__, "carried": combat.carried.with_gun(
        "s", Gun("smg_small", 16))}), s, "automatic_fire")
    assert ruling.has("empties_clip", "s")
    assert combat.carried.gun("s", "smg_small") == Gun("smg_small", 0, 0, ("t",))
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("automatic_fire", s, fighter("t"), Circumstances(gun=Gun("smg_small", 15))),
                       dice={"attack": [2] * 20})
    assert err.value.field == "clip_half_full" and "half full" in err.value.message


def test_strafing_empties_the_clip_and_an_empty_gun_must_reload():
    """000 "Strafing" empties the clip; an empty clip fires nothing until reloaded (000 "Reloading")."""
    s = fighter("s", weapon="assault_rifle")
    combat, _ = shoot(started(), s, "strafing", strafe_targets=2)
    assert combat.carried.gun("s", "assault_rifle").rounds == 0
    with pytest.raises(RulesError) as err:
        shoot(next_turn(combat), s)
    assert err.value.field == "gun" and "reload" in err.value.message


def test_reloading_is_an_action_and_the_crossbow_takes_five_turns():
    """000 "Reloading": one full turn, part of a multiple action if he likes; "Crossbows require five turns to
    reload" (000 "Ranged Weapons Chart"): loaded after the fifth turn of reloading, one a turn."""
    s = fighter("s", weapon="crossbow", abilities={"Archery": 2})
    combat, _ = shoot(started({"s": 2}), s, slot=ActionSlot(2, 1))
    assert combat.carried.gun("s", "crossbow").rounds == 0
    combat, first = reload(combat, "s", "crossbow")
    assert not first.loaded and combat.used["s"] == 1  # the shot was not taken through the turn here
    for turn in range(2, 6):
        combat = next_turn(combat)
        order = roll_initiative([Entrant(k, k, 3, 3) for k in "stu"], dice={"s": 9, "t": 5, "u": 4})
        combat, _ = begin_turn(combat, order)
        combat, _ = declare(combat, {"s": Declaration(actions=2)}, {}, tabletop_profile("revised"))
        combat, ruling = reload(combat, "s", "crossbow")
        if turn < 5:
            with pytest.raises(RulesError) as err:
                reload(combat, "s", "crossbow")
            assert err.value.field == "reload" and "this turn already" in err.value.message
    assert ruling.loaded and combat.carried.gun("s", "crossbow").rounds == 1
    assert "after 5 turns" in ruling.steps[-1].text


def test_a_pistol_reloads_in_one_action_and_a_bow_needs_none():
    """000 "Reloading": one turn; a bow's arrow is nocked as part of the shot (reload_turns 0)."""
    combat = started()
    combat = combat.__class__(**{**combat.__dict__, "carried": combat.carried.with_gun("s", Gun("pistol_light", 3))})
    combat, ruling = reload(combat, "s", "pistol_light")
    assert ruling.loaded and combat.carried.gun("s", "pistol_light").rounds == 18
    with pytest.raises(RulesError) as err:
        reload(started(), "s", "bow")
    assert err.value.field == "reload"


def test_v20_multiple_shots_go_at_different_targets():
    """003 "Multiple Shots": the shots are divided "at a similar number of targets" (the same target is for automatic
    fire and bursts): a second shot at Tom in the turn is refused, one at Ula is not. 000 allows both."""
    s = fighter("s", weapon="pistol_light")
    combat, _ = shoot(started({"s": 2}), s, "multiple_shots", slot=ActionSlot(2, 1), settings=V20)
    with pytest.raises(RulesError) as err:
        shoot(combat, s, "multiple_shots", slot=ActionSlot(2, 2), settings=V20)
    assert err.value.field == "target"
    shoot(combat, s, "multiple_shots", target="u", slot=ActionSlot(2, 2), settings=V20)
    shoot(combat, s, "multiple_shots", slot=ActionSlot(2, 2))


def test_the_guns_survive_the_json_round_trip():
    """The combat's carried state is JSON (the narrator's screen keeps it between requests)."""
    combat, _ = shoot(started(), fighter("s", weapon="pistol_light"))
    again = Combat.from_dict(combat.to_dict())
    assert again.carried.gun("s", "pistol_light") == Gun("pistol_light", 17, 1, ("t",))
    assert Combat.from_dict({**combat.to_dict(), "carried": None}).carried.guns == {}


def test_a_gun_state_that_is_not_one_is_refused():
    """000 "Ranged Weapons Chart": the gun's state is the weapon's own, as the combat carries it; anything else is a
    clear error naming the field, never a crash."""
    s = fighter("s", weapon="pistol_light")
    for gun in ("six rounds", Gun("rifle", 5)):
        with pytest.raises(RulesError) as err:
            resolve_attack(Attack("shoot", s, fighter("t"), Circumstances(gun=gun)), dice={"attack": [2] * 6})
        assert err.value.field == "gun"
