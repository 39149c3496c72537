"""Tests of the order of challenges (seed 002 "Order of Challenges", "Challenges"; met-reference 3.1, 3.3, T7)."""

import pytest

from larp.rules.explain import RulesError
from larp.rules.order import Participant, order_of_actions


def test_t7_slower_defender_answers_in_the_faster_ones_test_and_uses_his_action():
    """met-reference T7 (LotNR order of challenges; 002 "Challenges"): Shane (8 Physical) acts before Michael (5);
    Michael answers with a simultaneous attack in Shane's test, and his own action is used up."""
    order = order_of_actions([Participant("Michael", 5, target="Shane", simultaneous=True),
                              Participant("Shane", 8, target="Michael")])
    assert order.actors() == [(1, "Shane", "normal")]
    assert order.slots[0].answered_by == ("Michael",)
    assert any("used up" in s.text and s.rule == '002 "Challenges"' for s in order.steps)


def test_higher_traits_act_first_equal_at_the_same_time_no_challenge_last():
    """LotNR order of challenges (met-reference 3.1): more current Traits act first; equal counts act together;
    actions with no challenge go last."""
    order = order_of_actions([Participant("A", 6, target="D"), Participant("B", 9, target="D"),
                              Participant("C", 6, target="B"), Participant("D", 12)])
    assert order.actors() == [(1, "B", "normal"), (2, "A", "normal"), (2, "C", "normal"), (3, "D", "no challenge")]


def test_alacrity_pre_empts_and_the_highest_celerity_goes_first():
    """002 "Order of Challenges"; LotNR Alacrity (met-reference 3.3): those who can pre-empt act first, whatever
    their Traits; between pre-empters the highest Celerity first."""
    order = order_of_actions([Participant("Strong", 12, target="Quick"), Participant("Quick", 3, celerity=1,
                                                                                   target="Strong"),
                              Participant("Quicker", 2, celerity=3, target="Strong")])
    assert [a for _, a, _ in order.actors()][:3] == ["Quicker", "Quick", "Strong"]
    assert order.actors()[0][2] == "pre-empt" and order.actors()[2][2] == "normal"


def test_equal_pre_empts_cancel_and_the_traits_decide():
    """002 "Order of Challenges" ("their pre-empts cancel each other out"): equal Celerity falls back to the
    ordinary order by Traits."""
    order = order_of_actions([Participant("A", 5, celerity=1, target="B"), Participant("B", 7, celerity=1,
                                                                                       target="A")])
    assert [a for _, a, _ in order.actors()] == ["B", "A"]
    assert any("cancel" in s.text for s in order.steps)


def test_simultaneous_attack_allowed_when_pre_empts_cancel():
    """002 "Challenges": the defender may answer with a simultaneous attack when neither can pre-empt or their
    pre-empts cancel out."""
    order = order_of_actions([Participant("A", 5, celerity=1, target="B"),
                              Participant("B", 7, celerity=1, simultaneous=True)])
    assert order.actors()[0][1] == "A" and order.slots[0].answered_by == ("B",)


@pytest.mark.parametrize("participants, reason", [
    ([Participant("A", 5, celerity=1, target="B"), Participant("B", 7, simultaneous=True)], "pre-empts"),
    ([Participant("A", 5, target="C"), Participant("B", 5, target="C"), Participant("C", 7, simultaneous=True)],
     "mass combat"),
    ([Participant("A", 5, target="B"), Participant("B", 7, simultaneous=True, surprised=True)], "surprised"),
    ([Participant("A", 5), Participant("B", 7, simultaneous=True)], "not attacked"),
])
def test_simultaneous_attack_refused(participants, reason):
    """002 "Challenges": no simultaneous attack when one side can pre-empt, in mass combat (002 "Mass Combat"),
    when surprised (LotNR Surprise), or with no attack to answer."""
    with pytest.raises(RulesError) as err:
        order_of_actions(participants)
    assert reason in err.value.message
    assert err.value.field.endswith(".simultaneous")


def test_surprised_character_cannot_pre_empt_in_the_first_challenge():
    """LotNR Surprise (met-reference 3.1, 3.3): a surprised character cannot use Celerity in the first challenge,
    so he acts by his Traits; his Swiftness action later in the turn stands."""
    order = order_of_actions([Participant("Ambusher", 4, target="Victim"),
                              Participant("Victim", 9, celerity=2, surprised=True, target="Ambusher")])
    assert order.actors() == [(1, "Victim", "normal"), (2, "Ambusher", "normal"), (3, "Victim", "Swiftness")]


def test_extra_actions_after_everyone_swiftness_before_legerity():
    """002 "Order of Challenges" (additional actions come after everyone's normal actions); LotNR Swiftness and
    Legerity (met-reference 3.3): Swiftness actions together, then Legerity actions."""
    order = order_of_actions([Participant("Fast", 3, celerity=4, target="Slow"),
                              Participant("Swift", 4, celerity=2, target="Slow"), Participant("Slow", 9)])
    assert order.actors() == [
        (1, "Fast", "pre-empt"), (2, "Swift", "pre-empt"), (3, "Slow", "no challenge"),
        (4, "Fast", "Swiftness"), (4, "Swift", "Swiftness"), (5, "Fast", "Legerity"),
    ]


def test_bad_participants_are_errors_naming_the_field():
    """Bad input is a RulesError naming the field."""
    with pytest.raises(RulesError) as err:
        order_of_actions([Participant("A", 5, target="Nobody")])
    assert err.value.field == "participants[0].target"
    with pytest.raises(RulesError) as err:
        order_of_actions([Participant("A", 5), Participant("A", 6)])
    assert err.value.field == "participants[1].name"
    with pytest.raises(RulesError) as err:
        order_of_actions([Participant("A", 5, celerity=6)])
    assert err.value.field == "participants[0].celerity"
    with pytest.raises(RulesError) as err:
        Participant.from_dict({"name": "A", "traits": 3, "speed": 2})
    assert err.value.field == "participant.speed"
    assert Participant.from_dict({"name": "A", "traits": 3, "celerity": 1}) == Participant("A", 3, celerity=1)
    order = order_of_actions([Participant.from_dict({"name": "A", "traits": 3, "target": "B"}),
                              Participant("B", 2)])
    assert order.to_dict()["slots"][0]["actor"] == "A"


def test_t23_two_hands_with_legerity_four_actions():
    """met-reference T23; LotNR "Two-Gun Mojo": "if you have Legerity good for two bonus actions and you're using
    both hands, you get your normal action, your two Celerity actions and your extra hand action, for a total of
    four actions ... split up to two actions with each hand; if you took an action or two to do other things,
    you'd split the remainder evenly. A leftover action is automatically applied to your primary hand." Both hands
    give one extra action only, whatever the Celerity."""
    from larp.rules.order import hand_actions

    legerity = hand_actions(4)
    assert (legerity.total, legerity.main_hand, legerity.off_hand) == (4, 2, 2)
    assert (hand_actions(4, other=1).main_hand, hand_actions(4, other=1).off_hand) == (2, 1)
    assert (hand_actions(2).total, hand_actions(2).main_hand, hand_actions(2).off_hand) == (3, 2, 1)
    assert (hand_actions(0).total, hand_actions(5).total) == (2, 4)
    assert (hand_actions(4, both_hands=False).total, hand_actions(4, both_hands=False).off_hand) == (3, 0)
    with pytest.raises(RulesError) as err:
        hand_actions(4, other=5)
    assert err.value.field == "other"
