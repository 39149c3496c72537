"""Tests of tabletop initiative (000 "Stage One: Initiative"; 001 "Finding Initiative"; 004 "Stage One")."""

import random

import pytest

from larp.rules.explain import RulesError
from larp.rules.tabletop.initiative import Entrant, delayed_order, roll_initiative


def test_ross_and_angela():
    """001 "Finding Initiative": Ross Dexterity 4 + Wits 2 = 6, rolls 9: 15; Angela 3 + 4 = 7, rolls 5: 12.
    Ross goes first and Angela second; declarations in reverse order, so Angela declares first (000)."""
    order = roll_initiative([Entrant("r", "Ross", 4, 2), Entrant("a", "Angela", 3, 4)], dice={"r": 9, "a": 5})
    ross, angela = order.entries
    assert (ross.name, ross.rating, ross.die, ross.score, ross.rank) == ("Ross", 6, 9, 15, 1)
    assert (angela.name, angela.rating, angela.die, angela.score, angela.rank) == ("Angela", 7, 5, 12, 2)
    assert [e.name for e in order.declaring_order()] == ["Angela", "Ross"]
    assert any("Ross: Dexterity 4 + Wits 2 = rating 6; die 9: initiative 15." == s.text for s in order.steps)


def test_equal_scores_go_to_the_higher_rating():
    """000: if two characters get the same total, the one with the higher initiative rating goes first."""
    order = roll_initiative([Entrant("a", "A", 2, 2), Entrant("b", "B", 3, 3)], dice={"a": 8, "b": 6})
    assert [e.name for e in order.entries] == ["B", "A"]
    assert [e.rank for e in order.entries] == [1, 2]
    assert any("higher rating" in s.text for s in order.steps)


def test_equal_scores_and_ratings_act_simultaneously():
    """000: if initiative ratings are also the same, the two characters act simultaneously."""
    order = roll_initiative([Entrant("a", "A", 3, 3), Entrant("b", "B", 2, 4)], dice={"a": 4, "b": 4})
    assert [e.rank for e in order.entries] == [1, 1]
    assert any("simultaneously" in s.text for s in order.steps)


def test_wound_penalties_subtract_from_the_rating():
    """000: wound penalties subtract directly from a character's initiative rating (Wounded: -2)."""
    order = roll_initiative([Entrant("a", "A", 3, 3, wound_penalty=2)], dice={"a": 5})
    assert (order.entries[0].rating, order.entries[0].score) == (4, 9)


def test_knockdown_modifier_and_characters_who_cannot_act():
    """000 "Knockdown": initiative -2 the turn after rising; 000 "Health Chart": Incapacitated does nothing."""
    order = roll_initiative([Entrant("a", "A", 3, 3, modifier=-2, modifier_reason="rose"),
                             Entrant("b", "B", 3, 3, wound_penalty=None)], dice={"a": 5})
    assert order.entries[0].score == 9
    assert order.out == (("b", "B"),)


def test_delayers_acting_together_go_by_initiative_score():
    """000 and 004 "Delayed action": two delayers acting at the same point: the higher initiative first."""
    order = roll_initiative([Entrant("a", "A", 2, 2), Entrant("b", "B", 3, 3), Entrant("c", "C", 1, 1)],
                            dice={"a": 9, "b": 9, "c": 1})
    assert delayed_order(["c", "a", "b"], order) == ("b", "a", "c")


def test_a_missing_die_needs_a_random_source():
    """Dice rolled at the table or by the app: every die is shown; none invented."""
    with pytest.raises(RulesError) as err:
        roll_initiative([Entrant("a", "A", 3, 3)])
    assert err.value.field == "dice.a"
    rolled = roll_initiative([Entrant("a", "A", 3, 3)], rng=random.Random(1))
    assert 1 <= rolled.entries[0].die <= 10


def test_bad_dice_and_lists_are_refused():
    """A die shows 1 to 10; a character is listed once."""
    with pytest.raises(RulesError):
        roll_initiative([Entrant("a", "A", 3, 3)], dice={"a": 11})
    with pytest.raises(RulesError) as err:
        roll_initiative([Entrant("a", "A", 3, 3), Entrant("a", "A", 3, 3)], dice={"a": 5})
    assert err.value.field == "characters"
