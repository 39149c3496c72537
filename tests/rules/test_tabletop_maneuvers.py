"""Tests of the maneuver tables (data/maneuvers.toml: 000 "Close Combat Maneuvers Table", "Ranged Combat
Maneuvers Table", "Targeting", "Cover", "Range"; 003; 004 "Combat Complications")."""

import copy

import pytest

from larp.rules.explain import RulesError
from larp.rules.tabletop import maneuvers
from larp.rules.tabletop.maneuvers import tabletop_profile
from larp.tables import TableError, load_toml


def test_revised_tables_match_000():
    """000 tables: bite +1 accuracy Str+1 aggravated; kick +1 difficulty Str+1; automatic fire +10/+2;
    three-round burst +2/+1; range 4/6/8; cover +1/+2/+3; targeting +1/+2/+3 with +0/+1/+2 damage."""
    p = tabletop_profile("revised")
    bite, kick = p.maneuvers["bite"], p.maneuvers["kick"]
    assert (bite.accuracy, bite.damage_bonus, bite.damage_type) == (1, 1, "aggravated")
    assert (kick.difficulty, kick.damage_bonus) == (1, 1)
    assert (p.maneuvers["automatic_fire"].accuracy, p.maneuvers["automatic_fire"].difficulty) == (10, 2)
    assert (p.maneuvers["three_round_burst"].accuracy, p.maneuvers["three_round_burst"].difficulty) == (2, 1)
    assert dict(p.ranges) == {"point_blank": 4, "short": 6, "long": 8}
    assert dict(p.cover) == {"light": 1, "good": 2, "superior": 3}
    assert [(s.difficulty, s.damage) for s in p.target_sizes.values()] == [(1, 0), (2, 1), (3, 2)]
    assert p.maneuvers["tackle"].has("knockdown") and p.maneuvers["clinch"].has("carries_over")


def test_dark_ages_tables_match_004():
    """004: bear hug and grapple; claw +1 accuracy; bite after bear hug, grapple or tackle; target sizes
    large to tiny; the dodge modifiers table; the maneuvers 004 does not give come from 000."""
    p = tabletop_profile("dark_ages")
    assert {"bear_hug", "grapple", "strike", "weapon_strike", "tackle"} <= set(p.maneuvers)
    assert "automatic_fire" not in p.maneuvers and "hold" not in p.maneuvers
    assert p.maneuvers["claw"].accuracy == 1
    assert p.maneuvers["bite"].needs_hold == ("bear_hug", "grapple", "tackle")
    assert list(p.target_sizes) == ["large", "medium", "small", "tiny"]
    assert p.target_sizes["tiny"].no_stake_damage
    assert p.dodge_modifiers["full_cover_half_step"].difficulty == -4
    assert p.situation.rear_dice == 1 and p.situation.immobilized == "damage_dice"


def test_unknown_profile_and_maneuver():
    """A profile and a maneuver the tables do not have are refused, naming the field."""
    with pytest.raises(RulesError) as err:
        tabletop_profile("werewolf")
    assert err.value.field == "profile"
    with pytest.raises(RulesError) as err:
        tabletop_profile("revised").maneuver("haymaker")
    assert err.value.field == "maneuver"


def test_a_malformed_table_fails_naming_the_entry(monkeypatch):
    """Tables are validated on load: a bad entry fails naming the file and the entry."""
    raw = copy.deepcopy(load_toml("maneuvers.toml"))
    raw["revised"]["maneuvers"]["kick"]["damage"] = "lots"
    monkeypatch.setattr(maneuvers, "load_toml", lambda name: raw)
    tabletop_profile.cache_clear()
    try:
        with pytest.raises(TableError) as err:
            tabletop_profile("revised")
        assert "maneuvers.toml [revised.maneuvers.kick]" in str(err.value)
    finally:
        monkeypatch.undo()
        tabletop_profile.cache_clear()
