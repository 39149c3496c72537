"""Tests of frenzy and Rötschreck (LotNR Virtue Tests, Self-Control/Instinct, Courage, Frenzy, Rötschreck;
met-reference 1.6, T15, T26; larp/rules/frenzy.py) and of sunlight (LotNR Sunlight; larp/rules/sunlight.py)."""

from __future__ import annotations

import pytest

from larp.rules.challenge import Modifier, Outcome, Throw
from larp.rules.explain import RulesError
from larp.rules.frenzy import Purpose, Virtue, VirtueTest, frenzy_tables, rule_virtue_test
from larp.rules.rulings import HandDamage, Person, rule_damage_by_hand
from larp.rules.settings import ChronicleSettings
from larp.rules.sunlight import sunlight_exposure

R, P, S = Throw.ROCK, Throw.PAPER, Throw.SCISSORS


def self_control(traits=2, stimulus=2, throw=R, narrator=R, **kw) -> VirtueTest:
    return VirtueTest("Arithon", Virtue.SELF_CONTROL, traits, stimulus, throw, narrator, **kw)


def courage(traits=2, stimulus="house_fire", throw=P, narrator=S, **kw) -> VirtueTest:
    return VirtueTest("Cassandra", Virtue.COURAGE, traits, stimulus, throw, narrator, **kw)


def test_t15_no_blood_no_self_control_a_tie_is_frenzy_and_a_negative_trait():
    """met-reference T15; LotNR Self-Control/Instinct (Arithon's example): out of blood, Arithon "effectively has
    no Self-Control"; harassed (a 2-Trait stimulus) he ties the static test: 0 against 2, he enters frenzy and
    gains the permanent Negative Social Trait Callous or Condescending (his choice). No Trait was risked."""
    ruling = rule_virtue_test(self_control(traits=2, stimulus="harassed", blood=0))
    assert (ruling.outcome, ruling.condition, ruling.counted, ruling.difficulty) == (Outcome.FAILURE, "frenzy", 0, 2)
    assert (ruling.negative_traits, ruling.negative_category) == (("Callous", "Condescending"), "social")
    assert ruling.virtue_lost == 0 and ruling.derangement is False
    assert any("no more Self-Control Traits than Blood Traits: 0 of 2" in s.text for s in ruling.steps)


def test_full_of_blood_arithon_ties_a_three_trait_provocation_and_frenzies_but_wins_by_the_sign():
    """LotNR Self-Control/Instinct (Arithon, later): attacked from surprise, a three-Trait provocation; "If he
    wins, he manages to control himself ... If he ties, his Self-Control of two Traits is insufficient"."""
    tie = rule_virtue_test(self_control(stimulus="physical_provocation", blood=10))
    assert (tie.outcome, tie.condition, tie.difficulty, tie.counted) == (Outcome.FAILURE, "frenzy", 3, 2)
    win = rule_virtue_test(self_control(stimulus="physical_provocation", throw=P, narrator=R, blood=10))
    assert (win.outcome, win.condition, win.immune) == (Outcome.SUCCESS, "", True)
    assert win.negative_traits == ()
    more = rule_virtue_test(self_control(traits=4, stimulus=3, blood=10))
    assert more.outcome is Outcome.SUCCESS  # a tie, 4 against 3


def test_courage_against_a_house_fire_rotschreck_and_the_retest():
    """LotNR Courage (the burning haven): Cassandra (Courage 2) loses to the Storyteller's Scissors, risks a Courage
    Trait, ties the retest, and with two Traits against the fire's four she enters Rötschreck, gains a Negative
    Trait (Cowardly or Submissive) and a temporary derangement. John Slime wins his retest: he holds, and loses a
    Courage Trait for the evening."""
    cassandra = rule_virtue_test(courage(retest=(R, R)))
    assert (cassandra.outcome, cassandra.condition) == (Outcome.FAILURE, "rotschreck")
    assert cassandra.negative_traits == ("Cowardly", "Submissive") and cassandra.derangement
    assert [t[2] for t in cassandra.tests] == [Outcome.FAILURE, Outcome.FAILURE]
    john = rule_virtue_test(courage(retest=(R, S)))
    assert (john.outcome, john.condition, john.virtue_lost, john.derangement) == (Outcome.SUCCESS, "", 1, False)


def test_ravenous_hunger_is_one_trait_harder():
    """LotNR Blood Traits: "If you have two or fewer Blood Traits, you are ravenous, and your difficulty to resist
    frenzy due to hunger goes up by one Trait": the sight of blood (2) is 3 at two Blood Traits; a provocation is
    not hunger and stays 2."""
    assert rule_virtue_test(self_control(traits=3, stimulus="sight_of_blood", blood=2)).difficulty == 3
    assert rule_virtue_test(self_control(traits=3, stimulus="sight_of_blood", blood=6)).difficulty == 2
    assert rule_virtue_test(self_control(traits=3, stimulus="harassed", blood=2)).difficulty == 2


def test_wound_penalties_do_not_touch_a_virtue_test_and_equal_counts_follow_the_setting():
    """001 "Note" (wound penalties do not apply to most Virtue checks); met-reference 1.6 and static_equal_tie:
    a tie at 2 against 2 fails by default and holds under "succeed"; the test has no wound input at all."""
    assert rule_virtue_test(self_control()).outcome is Outcome.FAILURE
    lenient = ChronicleSettings.from_overrides({"static_equal_tie": "succeed"})
    assert rule_virtue_test(self_control(), lenient).outcome is Outcome.SUCCESS
    flaw = rule_virtue_test(self_control(traits=3, penalties=(Modifier("Short Fuse", 1),)))
    assert flaw.counted == 2 and flaw.outcome is Outcome.FAILURE


def test_declining_the_test_and_willpower():
    """LotNR Self-Control: not required, and only a failed attempt brings the Negative Trait; Courage: "You must
    make a Courage challenge", so declining it is losing it; a Willpower Trait holds the frenzy off ten minutes;
    a retest needs a Virtue Trait to risk; a won test cannot be retested."""
    gives_in = rule_virtue_test(self_control(relent=True))
    assert (gives_in.condition, gives_in.negative_traits) == ("frenzy", ())
    assert rule_virtue_test(courage(relent=True)).negative_traits == ("Cowardly", "Submissive")
    held = rule_virtue_test(self_control(fend_off=True, willpower=1))
    assert (held.outcome, held.condition, held.willpower_spent) == (None, "", 1)
    with pytest.raises(RulesError) as err:
        rule_virtue_test(self_control(fend_off=True, willpower=0))
    assert err.value.field == "fend_off"
    with pytest.raises(RulesError) as err:
        rule_virtue_test(self_control(traits=0, retest=(R, S)))
    assert err.value.field == "retest"
    with pytest.raises(RulesError) as err:
        rule_virtue_test(self_control(throw=P, retest=(R, S)))
    assert err.value.field == "retest"


def test_ending_a_frenzy():
    """LotNR Frenzy: once in frenzy, a Willpower Trait buys a static Self-Control test to get a hold of himself;
    the test is free once the trigger is removed; lost, the frenzy goes on (and the Negative Trait comes)."""
    ended = rule_virtue_test(self_control(throw=P, purpose=Purpose.END, willpower=1))
    assert (ended.outcome, ended.condition, ended.willpower_spent) == (Outcome.SUCCESS, "", 1)
    free = rule_virtue_test(self_control(throw=P, purpose=Purpose.END, trigger_removed=True))
    assert free.willpower_spent == 0
    goes_on = rule_virtue_test(self_control(throw=S, purpose=Purpose.END, trigger_removed=True))
    assert goes_on.condition == "frenzy"
    with pytest.raises(RulesError) as err:
        rule_virtue_test(self_control(purpose=Purpose.END, willpower=0))
    assert err.value.field == "willpower"


def test_instinct_always_frenzies_unless_more_than_double():
    """LotNR Instinct: "you always enter frenzy, unless you have more Instinct than double the rating of the
    frenzy shown on the table, in which case, you may choose"."""
    assert rule_virtue_test(VirtueTest("Z", Virtue.INSTINCT, 4, 2)).condition == "frenzy"
    assert rule_virtue_test(VirtueTest("Z", Virtue.INSTINCT, 5, 2)).condition == ""
    assert rule_virtue_test(VirtueTest("Z", Virtue.INSTINCT, 5, 2, relent=True)).condition == "frenzy"


def test_the_tables_are_lotnrs():
    """LotNR Self-Control/Instinct and Courage difficulty tables (data/frenzy.toml)."""
    tables = frenzy_tables()
    assert tables.self_control.stimuli["physical_provocation"].traits == 3
    assert tables.courage.stimuli["direct_sunlight"].traits == 5
    assert tables.courage.stimuli["obscured_sunlight"].traits == 2
    with pytest.raises(RulesError) as err:
        rule_virtue_test(self_control(stimulus="a rude look"))
    assert err.value.field == "stimulus"


# ----- sunlight (T26) -----------------------------------------------------------------------------------------


def test_t26_sunlight_per_turn_and_the_courage_test():
    """met-reference T26 (LotNR Sunlight): indirect sunlight 1 aggravated level a turn, direct 3 a turn, and a
    static Courage test: against obscured sunlight's 2 Traits or direct sunlight's 5."""
    assert (sunlight_exposure("indirect").levels, sunlight_exposure("indirect").courage_difficulty) == (1, 2)
    two = sunlight_exposure("direct", 2)
    assert (two.levels, two.courage_difficulty, two.courage_stimulus) == (6, 5, "direct_sunlight")
    ruling = rule_virtue_test(VirtueTest("Ida", Virtue.COURAGE, 4, two.courage_stimulus, R, R))
    assert (ruling.outcome, ruling.condition) == (Outcome.FAILURE, "rotschreck")  # 4 against 5


def test_sunlight_by_hand_is_aggravated_by_its_exposure():
    """Issue 30 (oddities); LotNR Sunlight and 000 "Aggravated Damage": sunlight alone is refused (its exposure is
    needed), it is never 1 bashing; a turn of direct sunlight marks 3 aggravated on a vampire and asks for the
    Courage test; a mortal ignores it; fire by hand is aggravated."""
    with pytest.raises(RulesError) as err:
        rule_damage_by_hand(Person("Ida"), HandDamage(source="sunlight"))
    assert err.value.field == "exposure"
    burnt = rule_damage_by_hand(Person("Ida"), HandDamage(source="sunlight", exposure="direct"))
    assert burnt.health.track.aggravated == 3 and burnt.health.track.bashing == 0
    assert burnt.courage_difficulty == 5 and "Courage test against 5 Traits" in burnt.summary
    mortal = rule_damage_by_hand(Person("Ann", creature="mortal"), HandDamage(source="sunlight", exposure="direct"))
    assert mortal.health.track.marked == 0 and mortal.courage_difficulty is None
    fire = rule_damage_by_hand(Person("Ida"), HandDamage(damage_type="bashing", levels=2, source="fire"))
    assert fire.health.track.aggravated == 2


# ----- the condition in the challenges that follow ------------------------------------------------------------


def test_in_frenzy_no_wound_penalty_holds_him_back():
    """LotNR Frenzy: "A frenzied character does not suffer penalties from wounds until reaching torpor or Final
    Death". Wounded Ann ties Bo at 6 Traits each: out of frenzy she loses the tie (and risks two Traits); in
    frenzy it is a draw on one Trait each. Incapacitated, in frenzy she still fights; a narrator's Social
    challenge against her in frenzy needs no Trait from her."""
    from larp.rules.challenge import Category, Challenge, Contestant, Health, rule_challenge
    from larp.rules.challenge import TestCall as TCall
    from larp.rules.rulings import Choice, OneOnOne, Side, rule_one_on_one
    from larp.rules.rulings.people import check_can_act, person_track

    def tie(frenzy: str, bid=("Quick", "Wiry")):
        ann = Contestant("Ann", 6, bid, health=Health.WOUNDED, frenzy=frenzy)
        return rule_challenge(Challenge(Category.PHYSICAL, ann, Contestant("Bo", 6, ("Brawny",)),
                                        tests=(TCall(challenger_throw=R, defender_throw=R),)))

    assert tie("").outcome is Outcome.DEFENDER
    calm = tie("frenzy", bid=("Quick",))
    assert calm.outcome is Outcome.DRAW and any("in frenzy and suffers no wound penalty" in s.text for s in calm.steps)
    dying = Person("Ann", traits={"physical": ("Quick",) * 6}, lethal=7)
    with pytest.raises(RulesError):
        check_can_act(dying, person_track(dying, ChronicleSettings.defaults()), "challenger")
    raging = Person("Ann", traits={"physical": ("Quick",) * 6}, lethal=7, frenzy="frenzy")
    check_can_act(raging, person_track(raging, ChronicleSettings.defaults()), "challenger")
    talk = OneOnOne(Category.SOCIAL, Side(Person("Bo", traits={"social": ("Calm",) * 5}), Choice(bid=("Calm",))),
                    Side(Person("Ann", traits={"social": ("Witty",) * 3}, frenzy="frenzy"), Choice()), action="other",
                    tests=({"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"},))
    ruled = rule_one_on_one(talk)
    assert ruled.ruling.outcome is Outcome.CHALLENGER and ruled.ruling.lost_by(Outcome.DEFENDER) == ()
