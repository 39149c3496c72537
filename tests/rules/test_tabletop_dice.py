"""Tests of tabletop dice (000 "Combat Systems", "Soak", "Damage Types"; chronicle setting tabletop_botch)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.dice import DiceNeeded, check_difficulty, resisted_roll, roll_dice


def test_ones_cancel_successes():
    """000 "Soak" (Liselle): 1, 9, 9, 7 against 6: three successes, the 1 cancels one, two left."""
    roll = roll_dice(4, 6, dice=[1, 9, 9, 7], can_botch=False)
    assert (roll.successes, roll.ones, roll.net, roll.botch) == (3, 1, 2, False)
    assert "1, 9, 9, 7" in roll.describe("Soak roll")


def test_automatic_successes_count_after_the_ones():
    """000 "Bashing Damage" (Kincaid): 8, 6, 7, 9 plus two automatic successes for Potence: six."""
    roll = roll_dice(4, 6, dice=[8, 6, 7, 9], automatic=2, can_botch=False)
    assert roll.net == 6


def test_an_action_roll_with_no_success_and_a_one_botches():
    """000 "Stage Two: Attack" names the botch; tabletop_botch default: no success rolled and at least one 1."""
    assert roll_dice(3, 6, dice=[1, 3, 4]).botch
    cancelled = roll_dice(3, 6, dice=[1, 8, 4])
    assert (cancelled.net, cancelled.botch) == (0, False)


def test_more_ones_than_successes_botches_under_the_other_reading():
    """Chronicle setting tabletop_botch = more_ones: 1, 1, 8 is a botch (two 1s, one success)."""
    settings = ChronicleSettings.from_overrides({"tabletop_botch": "more_ones"})
    assert roll_dice(3, 6, dice=[1, 1, 8], settings=settings).botch
    assert not roll_dice(3, 6, dice=[1, 1, 8]).botch


def test_damage_and_soak_rolls_never_botch():
    """000 "Damage Types": damage effect rolls cannot botch; "Soak": soak rolls may not botch, only fail."""
    roll = roll_dice(3, 6, dice=[1, 1, 1], can_botch=False)
    assert (roll.net, roll.botch) == (0, False)


@pytest.mark.parametrize("difficulty", [11, 1, 0, "6", True])
def test_impossible_difficulties_are_refused(difficulty):
    """Issue 9: a difficulty is 2 to 10 as the books use it; difficulty 11 names the field."""
    with pytest.raises(RulesError) as err:
        roll_dice(3, difficulty, dice=[5, 6, 7])
    assert err.value.field == "difficulty"
    with pytest.raises(RulesError):
        check_difficulty(difficulty)


def test_wrong_number_of_dice_names_the_roll():
    """Every die is shown: the faces given must match the pool."""
    with pytest.raises(RulesError) as err:
        roll_dice(4, 6, dice=[5, 6], roll="attack")
    assert err.value.field == "dice.attack"
    with pytest.raises(RulesError):
        roll_dice(2, 6, dice=[0, 11])


def test_dice_needed_says_how_many_to_roll():
    """Dice rolled at the table: with no faces and no random source the roll asks for them."""
    with pytest.raises(DiceNeeded) as err:
        roll_dice(5, 7, roll="damage", who="Kincaid")
    assert (err.value.pool, err.value.difficulty, err.value.field) == (5, 7, "dice.damage")
    assert "5 dice" in err.value.message


def test_dice_from_the_random_source_are_shown():
    """An injected random source rolls the dice; the same seed gives the same roll."""
    a = roll_dice(6, 6, rng=random.Random(3))
    b = roll_dice(6, 6, rng=random.Random(3))
    assert a == b and len(a.dice) == 6 and all(1 <= d <= 10 for d in a.dice)


def test_resisted_roll_more_successes_wins():
    """000 "Hold": resisted Strength + Brawl, the subject stays held until she rolls more successes."""
    result = resisted_roll(3, 3, dice={"active": [8, 8, 2], "passive": [9, 3, 3]})
    assert (result.winner, result.margin) == ("active", 1)
    tie = resisted_roll(2, 2, dice={"active": [8, 2], "passive": [9, 3]})
    assert tie.winner == "tie"


@given(st.lists(st.integers(1, 10), min_size=0, max_size=20), st.integers(2, 10), st.integers(0, 5))
def test_net_successes_are_never_negative(faces, difficulty, automatic):
    """Invariant: 1s cancel successes but never push a roll below zero; automatic successes always count."""
    roll = roll_dice(len(faces), difficulty, dice=faces, automatic=automatic, can_botch=False)
    assert roll.net >= automatic
    assert roll.net <= len(faces) + automatic
