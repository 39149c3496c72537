"""Pre-emption in a one-on-one challenge (issue 37 item 1): a defender may answer with a simultaneous attack only
when neither side can pre-empt, or their pre-empts cancel out (seed 002 "Challenges", "Order of Challenges";
LotNR Alacrity, met-reference 3.3). Before issue 37 only a Speed weapon's pre-empt was checked."""

from __future__ import annotations

import pytest

from larp.rules.challenge import Call, Category, Challenge, Contestant, Outcome, Throw, rule_challenge
from larp.rules.challenge import TestCall as TCall
from larp.rules.challenge.parsing import challenge_from_dict
from larp.rules.explain import RulesError
from larp.rules.order import alacrity_level
from larp.rules.rulings import Choice, OneOnOne, Person, Side, rule_one_on_one

C, D = Outcome.CHALLENGER, Outcome.DEFENDER


def counter(attacker_celerity: int, defender_celerity: int, **kw) -> Challenge:
    """Anton strikes Bea, who strikes back in the same test; Bea's paper beats Anton's rock."""
    anton = Contestant("Anton", 8, bid=("Quick",), celerity=attacker_celerity)
    bea = Contestant("Bea", 8, bid=("Quick",), celerity=defender_celerity)
    return Challenge(Category.PHYSICAL, anton, bea, action="strike", defender_action="strike",
                     tests=(TCall(Call.TEST, Throw.ROCK, Throw.PAPER),), **kw)


def hurt(ruling) -> list[tuple[Outcome, int]]:
    return [(d.target, d.levels) for d in ruling.damage]


def test_neither_pre_empts_the_counter_attack_lands():
    """002 "Challenges": neither side can pre-empt: one test, the winner hits, so Bea's counter-attack lands."""
    assert hurt(rule_challenge(counter(0, 0))) == [(C, 1)]


def test_the_attackers_alacrity_stops_the_counter_attack():
    """002 "Challenges"; LotNR Alacrity (met-reference 3.3): Anton has Celerity 1 active and pre-empts Bea: no
    simultaneous counter-attack, so Bea's win only stops the strike."""
    ruling = rule_challenge(counter(1, 0))
    assert ruling.outcome is D and hurt(ruling) == []
    assert any("Anton's Alacrity (Celerity 1) pre-empts Bea" in s.text and "Alacrity" in s.rule
               for s in ruling.steps)


def test_the_defenders_alacrity_makes_the_counter_its_own_challenge():
    """002 "Order of Challenges": Bea pre-empts with Celerity 2 against Anton's 1 (the highest Celerity first), so
    her attack is a challenge of its own, resolved first; in Anton's challenge her win only stops the strike."""
    ruling = rule_challenge(counter(1, 2))
    assert hurt(ruling) == []
    assert any("Bea's Alacrity (Celerity 2) pre-empts Anton" in s.text and "its own" in s.text
               for s in ruling.steps)


@pytest.mark.parametrize("level", [1, 3])
def test_equal_pre_empts_cancel_out_and_the_counter_lands(level):
    """002 "Challenges" ("or their pre-empts cancel each other out"): equal Celerity, the counter-attack lands."""
    assert hurt(rule_challenge(counter(level, level))) == [(C, 1)]


def test_a_surprised_defender_has_no_alacrity_in_the_first_challenge():
    """LotNR Surprise (met-reference 3.1): a surprised defender cannot use Celerity in the first challenge, and
    that challenge can only harm him: his win only stops the attack, whatever his Celerity."""
    ruling = rule_challenge(counter(0, 2, surprised=True))
    assert hurt(ruling) == []
    assert not any("Alacrity" in s.text for s in ruling.steps)
    assert alacrity_level(2, surprised=True) == 0 and alacrity_level(2) == 2 and alacrity_level(0) == 0


def test_alacrity_counts_only_in_physical_challenges():
    """LotNR Alacrity (met-reference 3.3) pre-empts a physical action only: in a mental challenge it changes
    nothing (there is no counter-attack to stop there either)."""
    anton = Contestant("Anton", 8, bid=("Clever",), celerity=3)
    bea = Contestant("Bea", 8, bid=("Clever",))
    ruling = rule_challenge(Challenge(Category.MENTAL, anton, bea, action="other",
                                      tests=(TCall(Call.TEST, Throw.ROCK, Throw.PAPER),)))
    assert not any("Alacrity" in s.text for s in ruling.steps)


def test_the_celerity_active_is_checked_and_read_from_json():
    """A Celerity level outside 0..5 is refused, naming the field; the stateless API's script carries it."""
    with pytest.raises(RulesError) as err:
        rule_challenge(counter(6, 0))
    assert err.value.field == "challenger_celerity"
    script = challenge_from_dict({
        "category": "physical", "action": "strike", "defender_action": "strike",
        "challenger": {"name": "Anton", "traits": 8, "bid": ["Quick"], "celerity": 1},
        "defender": {"name": "Bea", "traits": 8, "bid": ["Quick"]},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]})
    assert script.challenger.celerity == 1 and hurt(rule_challenge(script)) == []


def test_a_stored_character_pre_empts_only_with_celerity_active():
    """002 "Challenges" through the one-on-one ruling: Anton holds Celerity 2; with it active (Blood spent) he
    pre-empts Bea's counter-attack; not active (0), Bea's counter lands; not said (``None``), the powers he holds
    count as active (the stateless API's person)."""
    anton = Person(name="Anton", traits={"physical": ("Quick",) * 8}, disciplines={"Celerity": 2})
    bea = Person(name="Bea", traits={"physical": ("Quick",) * 8})

    def ruled(celerity):
        one = OneOnOne(Category.PHYSICAL, Side(anton, Choice(bid=("Quick",), celerity=celerity)),
                       Side(bea, Choice(bid=("Quick",))), action="strike", defender_action="strike",
                       tests=({"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},))
        return [h.target for h in rule_one_on_one(one).hits]

    assert ruled(2) == [] and ruled(None) == []
    assert ruled(0) == ["Anton"]
