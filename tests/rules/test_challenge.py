"""Tests of the challenge core (seed 002 "Challenges" and "Ties"; met-reference 1.2-1.3)."""

import random
from itertools import product

import pytest

from larp.rules.challenge import (
    BASIC_THROWS,
    Category,
    Challenge,
    Contestant,
    Outcome,
    Throw,
    compare_throws,
    parse_throw,
    random_throw,
    resolve_challenge,
)
from larp.rules.explain import RulesError


def make(ct=8, dt=8, cbid=("Quick",), dbid=("Brawny",)):
    return Challenge(
        category=Category.PHYSICAL,
        challenger=Contestant("Sam", ct, cbid),
        defender=Contestant("Juan", dt, dbid),
    )


EXPECTED = {
    # (challenger, defender): 1 challenger wins the test, -1 defender, 0 tie
    ("rock", "rock"): 0, ("rock", "paper"): -1, ("rock", "scissors"): 1,
    ("paper", "rock"): 1, ("paper", "paper"): 0, ("paper", "scissors"): -1,
    ("scissors", "rock"): -1, ("scissors", "paper"): 1, ("scissors", "scissors"): 0,
}


@pytest.mark.parametrize("pair", sorted(EXPECTED))
def test_every_pair_of_throws(pair):
    """met-reference 1.2: rock beats scissors, scissors beats paper, paper beats rock."""
    a, b = (Throw(x) for x in pair)
    assert compare_throws(a, b) == EXPECTED[pair]
    ruling = resolve_challenge(make(ct=9, dt=8), a, b)
    if EXPECTED[pair] == 1:
        assert ruling.outcome is Outcome.CHALLENGER
    elif EXPECTED[pair] == -1:
        assert ruling.outcome is Outcome.DEFENDER
    else:  # a tie: 9 Traits against 8, the challenger wins the tie
        assert ruling.outcome is Outcome.CHALLENGER


def test_bomb_beats_table():
    """met-reference T13: Bomb against Rock / Paper / Scissors / Bomb is win / win / lose / tie."""
    assert [compare_throws(Throw.BOMB, t) for t in (Throw.ROCK, Throw.PAPER, Throw.SCISSORS, Throw.BOMB)] == [1, 1, -1, 0]


def test_t1_tie_more_traits_wins():
    """met-reference T1 (LotNR tie): Sam 9 Physical, Juan 8, both Rock: Juan loses Brutal and a health level."""
    ch = Challenge(Category.PHYSICAL, Contestant("Sam", 9, ("Ferocious",)), Contestant("Juan", 8, ("Brutal",)))
    ruling = resolve_challenge(ch, Throw.ROCK, Throw.ROCK)
    assert ruling.outcome is Outcome.CHALLENGER
    assert ruling.lost_by(Outcome.DEFENDER) == ("Brutal",)
    assert ruling.lost_by(Outcome.CHALLENGER) == ()
    assert [(d.target, d.damage_type, d.levels) for d in ruling.damage] == [(Outcome.DEFENDER, "bashing", 1)]
    assert any("002" in s.rule and "Ties" in s.rule for s in ruling.steps)


def test_tie_fewer_traits_loses():
    """002 "Ties": on a tied throw, the side with fewer Traits loses."""
    ruling = resolve_challenge(make(ct=6, dt=7), Throw.PAPER, Throw.PAPER)
    assert ruling.outcome is Outcome.DEFENDER
    assert ruling.lost_by(Outcome.CHALLENGER) == ("Quick",)
    assert ruling.damage == ()


def test_t2_equal_traits_is_a_draw_both_lose_bids():
    """met-reference T2 / 002 "Ties": equal Traits is a draw, both lose their bids, nothing else happens."""
    ruling = resolve_challenge(make(ct=7, dt=7), Throw.SCISSORS, Throw.SCISSORS)
    assert ruling.outcome is Outcome.DRAW
    assert ruling.lost_by(Outcome.CHALLENGER) == ("Quick",)
    assert ruling.lost_by(Outcome.DEFENDER) == ("Brawny",)
    assert ruling.damage == ()
    assert "draw" in ruling.steps[-1].text.lower()


def test_bid_traits_still_count_for_ties():
    """002 "Ties": Traits bid are not spent until the challenge is resolved, so a side
    with exactly one Trait left still counts it."""
    ruling = resolve_challenge(make(ct=1, dt=1), Throw.ROCK, Throw.ROCK)
    assert ruling.outcome is Outcome.DRAW


def test_cannot_bid_more_than_held():
    with pytest.raises(RulesError) as err:
        resolve_challenge(make(ct=0), Throw.ROCK, Throw.PAPER)
    assert err.value.field == "challenger_bid"


def test_parse_throw_errors_name_the_field():
    assert parse_throw(" Paper ") is Throw.PAPER
    with pytest.raises(RulesError) as err:
        parse_throw("lizard", "defender_throw")
    assert err.value.field == "defender_throw"
    with pytest.raises(RulesError):
        parse_throw("", "challenger_throw")


def test_random_throw_is_injected_and_replayable():
    """A narrator's random throw comes from the injected source: the same seed gives the same throws."""
    first = [random_throw(random.Random(42)) for _ in range(5)]
    second = [random_throw(random.Random(42)) for _ in range(5)]
    assert first == second
    seen = {random_throw(random.Random(seed)) for seed in range(50)}
    assert seen == set(BASIC_THROWS)
