"""Tests of multiple actions, Celerity and full defense (000 "Multiple Actions", "Defensive Maneuvers";
003 "Multiple Actions"; 004 "Multiple Actions")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.actions import ActionSlot, full_defense_pools, multiple_action_pools, slot_dice

SPLIT = ChronicleSettings.from_overrides({"tabletop_multiple_actions": "split_pool"})


def test_liselle_claws_then_dodges_twice():
    """000 "Defensive Maneuvers" (Liselle): claw Dexterity 3 + Brawl 2 reduced by three dice: 2; the first
    dodge (Dexterity 3 + Dodge 3) by four: 2; the final dodge by five: 1."""
    pools = multiple_action_pools([5, 6, 6], who="Liselle")
    assert [p.dice for p in pools] == [2, 2, 1]
    assert all(p.can_act for p in pools)
    assert pools[0].step.rule == '000 "Multiple Actions"' and pools[0].step.setting == "tabletop_multiple_actions"


def test_liselle_spends_a_whole_turn_dodging():
    """000 (Liselle): with Dexterity 3 and Dodge 3 she can dodge up to six attacks: 6, 5, 4, 3, 2, 1 dice."""
    assert full_defense_pools(6, 7) == (6, 5, 4, 3, 2, 1, 0)
    dice, step = slot_dice(6, ActionSlot(number=3, full_defense=True), who="Liselle")
    assert dice == 4 and step.rule == '000 "Defensive Maneuvers"'


def test_dark_ages_three_action_table():
    """004 "Multiple Actions", example with 3 actions: x - 3, x - 4, x - 5."""
    dark_ages = ChronicleSettings.from_overrides({"tabletop_profile": "dark_ages"})
    x = 8
    pools = multiple_action_pools([x, x, x], dark_ages)
    assert [p.dice for p in pools] == [x - 3, x - 4, x - 5]


def test_a_pool_at_zero_or_below_cannot_act():
    """004: if a dice pool is reduced to 0 or below, the character may not attempt the action."""
    pools = multiple_action_pools([4, 4, 3])
    assert [(p.dice, p.can_act) for p in pools] == [(1, True), (0, False), (0, False)]


def test_v20_divides_the_smallest_pool():
    """003 "Multiple Actions" (setting split_pool): the smallest pool (5) divided among three actions: 2, 2, 1."""
    pools = multiple_action_pools([5, 6, 6], SPLIT)
    assert [p.dice for p in pools] == [2, 2, 1]
    assert pools[0].step.rule == '003 "Multiple Actions"'


def test_celerity_actions_cost_no_dice():
    """000: Celerity allows multiple actions without the penalty; 004: they are not themselves split."""
    pools = multiple_action_pools([6], celerity=[6, 5])
    assert [p.dice for p in pools] == [6, 6, 5]
    assert [p.celerity for p in pools] == [False, True, True]


def test_impossible_slots_are_refused():
    """An action's place cannot exceed the actions declared."""
    with pytest.raises(RulesError) as err:
        slot_dice(5, ActionSlot(total=2, number=3))
    assert err.value.field == "actions.number"
    with pytest.raises(RulesError):
        multiple_action_pools([])


@given(st.lists(st.integers(0, 15), min_size=1, max_size=6), st.lists(st.integers(0, 15), max_size=3),
       st.sampled_from(["cumulative", "split_pool"]))
def test_a_dice_pool_never_goes_below_zero(pools, celerity, rule):
    """Invariant (issue 9): a dice pool never goes below zero dice, and an action with no dice cannot act."""
    settings = ChronicleSettings.from_overrides({"tabletop_multiple_actions": rule})
    for p in multiple_action_pools(pools, settings, celerity=celerity):
        assert p.dice >= 0
        assert p.can_act == (p.dice > 0)
        assert p.dice <= p.base


@given(st.integers(0, 15), st.integers(0, 20))
def test_full_defense_never_below_zero(pool, attacks):
    """Invariant: a full defense loses one die per defense and never goes below zero."""
    pools = full_defense_pools(pool, attacks)
    assert len(pools) == attacks and all(p >= 0 for p in pools)
    assert list(pools) == sorted(pools, reverse=True)
