"""Tests of the challenge played once through its phases: the state it leaves, the options still open and
the ruling both read from that one state (LotNR Overbidding, Retests, met-reference 1.5, 2.1; seed 002
"Darkness")."""

import pytest

from larp.rules.challenge import (
    Call,
    Category,
    Challenge,
    Contestant,
    Outcome,
    Throw,
    challenge_options,
    open_options,
    play_script,
    rule_challenge,
    rule_outcome,
)
from larp.rules.challenge import TestCall as TCall
from larp.rules.darkness import Darkness, DarknessLevel
from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings

C, D = Outcome.CHALLENGER, Outcome.DEFENDER
R, P = Throw.ROCK, Throw.PAPER
SETTINGS = ChronicleSettings.defaults()


def lost_first_test() -> Challenge:
    """Sam (Quick x2, Brawny, Nimble, Wiry; 5 Physical) bids Quick and loses the first test to Juan (2 Traits)."""
    sam = Contestant("Sam", 5, ("Quick",), held=("Quick", "Quick", "Brawny", "Nimble", "Wiry"),
                     abilities={"Brawl": 1}, willpower=1)
    juan = Contestant("Juan", 2, ("Brawny",))
    return Challenge(Category.PHYSICAL, sam, juan, tests=(TCall(Call.TEST, R, P),))


def test_the_options_and_the_ruling_come_from_one_playing():
    """LotNR Overbidding and Retests (met-reference 1.5, 2.1): after Sam loses the first test, the options (his
    Brawl retest, an overbid that the ratio allows, the Traits he may still risk in it) and the ruling are read
    from the one state the script left; ruling on it changes nothing, so both can be read in either order."""
    state = play_script(lost_first_test(), SETTINGS)
    options = open_options(state)
    assert options.current is D
    assert options.side(C).retests == ("ability:Brawl",)
    assert options.side(C).may_overbid and options.side(C).overbid_makes_test  # 5 less Quick, 4 against 2
    assert state.sides[C].free_traits() == ("Brawny", "Nimble", "Quick", "Wiry")  # the other Quick, never the one bid
    ruling = rule_outcome(state)
    assert ruling.outcome is D and ruling.lost_by(C) == ("Quick",)
    assert open_options(state) == options  # the ruling left the state as it was
    assert rule_outcome(state) == ruling
    assert options == challenge_options(lost_first_test(), SETTINGS)
    assert ruling == rule_challenge(lost_first_test(), SETTINGS)


def test_a_forced_darkness_retest_keeps_the_state_open():
    """002 "Darkness": A, in total darkness, wins the first test: the state says the script cannot end until the
    forced retest, whose side the options name; ruling on it now is refused."""
    blind = Contestant("A", 9, ("Quick",), darkness=Darkness(DarknessLevel.TOTAL))
    state = play_script(Challenge(Category.PHYSICAL, blind, Contestant("B", 8, ("Brawny",)),
                                  tests=(TCall(Call.TEST, P, R),)), SETTINGS)
    assert state.decided is C and not state.can_end
    assert open_options(state).forced_retest is C
    with pytest.raises(RulesError) as err:
        rule_outcome(state)
    assert err.value.field == "tests"
