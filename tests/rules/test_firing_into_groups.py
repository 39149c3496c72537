"""Tests of firing into groups (seed 002 "Firing Guns into Groups of People", sentence by sentence; Spray,
met-reference 6.2 and worked example T24)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from larp.rules.challenge import Call, Contestant, Outcome, Throw
from larp.rules.challenge import TestCall as TCall
from larp.rules.explain import RulesError
from larp.rules.firing_into_groups import (
    Bystander,
    Fire,
    ShotIntoGroup,
    fire_of,
    play_shot_into_group,
    shot_into_group_from_dict,
)
from larp.rules.mass_challenge import (
    Attack,
    Attacker,
    Body,
    Defender,
    MassChallenge,
    Range,
    play_mass_challenge,
)
from larp.rules.scene import RangeBand
from larp.rules.settings import ChronicleSettings

FIRER_TRAITS = ("Steady", "Quick", "Tireless", "Alert", "Nimble", "Wiry", "Tough", "Brawny")


def firer(bids: int = 1, traits: int = 8, **kw) -> Contestant:
    return Contestant("Ruth", traits, FIRER_TRAITS[:bids], **kw)


def near(name: str, throw: Throw = Throw.SCISSORS, firer_throw: Throw = Throw.ROCK, **kw) -> Bystander:
    return Bystander(Contestant(name, kw.pop("traits", 5), ("Quick",), abilities=kw.pop("abilities", {})),
                     throw=throw, firer_throw=firer_throw, **kw)


#: The firer risks a Trait in each test and a bystander hit loses his: the settings that restore the reading before
#: issue 16 (002 says "perform a test"; by default nobody risks a Trait).
COSTS = {"stray_tests_cost_firer": True, "stray_hit_costs_bystander": True}


def shot(weapon: str = "pistol", *people: Bystander, bids: int | None = None, **kw) -> ShotIntoGroup:
    kw.setdefault("range", RangeBand.FAR)  # met-reference T24's 25 feet: far enough for any Spray
    count = bids if bids is not None else len(people)
    return ShotIntoGroup(firer=kw.pop("firer", None) or firer(count), weapon=weapon, target="Konrad",
                     bystanders=tuple(people), **kw)


# ----- "When firing a gun at a target that is in proximity to bystanders there is a chance that if the firer
#        misses his target that someone else will get hit by the bullet."


def test_a_missed_shot_can_hit_someone_else():
    """002 "Firing Guns into Groups of People": "if the firer misses his target ... someone else will get hit by
    the bullet": Pim, a vampire beside Konrad, takes the pistol's 2 levels as bashing (firearms, not halved)."""
    ruling = play_shot_into_group(shot("pistol", near("Pim")))
    assert ruling.fire is Fire.SINGLE
    assert [h.target for h in ruling.hits] == ["Pim"]
    assert ruling.tracks["Pim"].bashing == 2
    assert ruling.summary == "Ruth's stray round hits Pim."


# ----- "This situation will most often occur during mass combat."


def test_a_ranged_attackers_miss_in_mass_combat_goes_into_the_melee():
    """002: "This situation will most often occur during mass combat": Ruth shoots at Konrad, who is fighting Lys
    hand to hand; Konrad wins against Ruth, and her stray round is tested against Lys, standing next to him."""
    fight = MassChallenge(
        Defender(Contestant("Konrad", 9, ("Brawny", "Tough")), Throw.ROCK),
        (Attacker(Contestant("Lys", 7, ("Quick",)), throw=Throw.ROCK),
         Attacker(Contestant("Ruth", 3, ("Steady",)), Range.RANGED, Attack("weapon", "pistol"), Throw.SCISSORS)))
    mass_ruling = play_mass_challenge(fight)
    assert mass_ruling.pair("Ruth").outcome is Outcome.DEFENDER  # the shot missed
    stray = play_shot_into_group(ShotIntoGroup(Contestant("Ruth", 2, ("Quick",)), "pistol", "Konrad",
                                      (near("Lys", Throw.SCISSORS, Throw.ROCK),)))
    assert [h.target for h in stray.hits] == ["Lys"]


# ----- "Have the firer perform a test against each person within three feet of the intended target (or down
#        range past the target) whenever he fails to hit, starting with those closest to the target."


def test_tests_start_with_the_closest_and_the_round_stops_in_the_first_hit():
    """002: "a test against each person within three feet ... starting with those closest to the target": Pim
    (closest) wins his test, Lys is hit, and the round stops in her: Agathe is not tested (setting
    stray_round_stops_at_first_hit, default on). With the firer risking a Trait per test (settings COSTS), he
    loses the one bid against Pim."""
    ruling = play_shot_into_group(shot("pistol", near("Pim", Throw.PAPER), near("Lys"), near("Agathe")),
                             ChronicleSettings.from_overrides(COSTS))
    assert [(b.name, b.tested, b.hit) for b in ruling.bystanders] == [
        ("Pim", True, False), ("Lys", True, True), ("Agathe", False, False)]
    assert ruling.result("Agathe").note == "the round stopped in Lys"
    stop = [s for s in ruling.steps if s.setting == "stray_round_stops_at_first_hit"]
    assert stop and "no test against Agathe" in stop[0].text
    assert ruling.traits_lost["Ruth"] == ("Steady",)  # lost to Pim; Tireless never risked


def test_with_the_setting_off_every_person_near_is_tested():
    """002: "a test against each person within three feet": with stray_round_stops_at_first_hit off, each test the
    firer wins is a hit; the tests are made in turn, so the Trait lost to Pim (settings COSTS) no longer counts
    against Agathe."""
    settings = ChronicleSettings.from_overrides({"stray_round_stops_at_first_hit": False, **COSTS})
    ruling = play_shot_into_group(shot("pistol", near("Pim", Throw.PAPER), near("Lys"),
                                  near("Agathe", Throw.ROCK, traits=6), firer=firer(3, traits=5)), settings)
    assert [b.hit for b in ruling.bystanders] == [False, True, False]
    assert all(b.tested for b in ruling.bystanders)
    agathe = ruling.result("Agathe").ruling
    # Rock against Rock: Ruth counts 4 (5 less Steady, lost to Pim) + 2 for the pistol = Agathe's 6: a draw.
    assert agathe.outcome is Outcome.DRAW
    assert (agathe.totals[Outcome.CHALLENGER], agathe.totals[Outcome.DEFENDER]) == (6, 6)
    assert ruling.traits_lost["Ruth"] == ("Steady", "Tireless")


def test_the_firer_must_bid_for_each_test():
    """002 "a test against each person": under the setting stray_tests_cost_firer each test is a challenge,
    one Trait a side (LotNR Initial Bid)."""
    with pytest.raises(RulesError) as err:
        play_shot_into_group(shot("pistol", near("Pim"), near("Lys"), bids=1), ChronicleSettings.from_overrides(COSTS))
    assert err.value.field == "firer.bid" and "2 Traits against 2 bystanders" in err.value.message


# ----- "If the firer wins the test then the bystander is hit and takes damage (the bystander may retest by
#        expending a Dodge Ability if he could see the attack coming, this up to storyteller/narrator discretion
#        to determine)."


def test_a_won_test_is_a_hit_with_the_weapons_damage():
    """002: "If the firer wins the test then the bystander is hit and takes damage": a mortal takes the pistol's
    2 lethal (met-reference 3.7), marked on his track."""
    mortal = replace(near("Ruth's neighbour"), body=Body(creature="mortal"))
    ruling = play_shot_into_group(shot("pistol", mortal))
    hit = ruling.hits[0]
    assert (hit.weapon, hit.damage_type, hit.levels, hit.taken) == ("Pistol", "lethal", 2, (("lethal", 2),))
    assert ruling.tracks["Ruth's neighbour"].lethal == 2


def test_a_bystander_who_saw_it_coming_may_retest_with_dodge():
    """002: "the bystander may retest by expending a Dodge Ability if he could see the attack coming": Lys loses
    the first test, expends Dodge, wins the retest and is not hit."""
    dodge = (TCall(Call.RETEST, Throw.ROCK, Throw.PAPER, by=Outcome.DEFENDER, source="ability:Dodge"),)
    lys = near("Lys", abilities={"Dodge": 3}, saw_it_coming=True, tests=dodge)
    ruling = play_shot_into_group(shot("pistol", lys))
    assert ruling.hits == () and ruling.result("Lys").outcome is Outcome.DEFENDER
    assert ruling.spent["Lys"].abilities == {"Dodge": 1}


def test_no_dodge_retest_when_the_narrator_rules_he_could_not_see_it():
    """002: "if he could see the attack coming, this up to storyteller/narrator discretion to determine": with the
    toggle off the Dodge retest is refused, and no other source retests a stray round."""
    dodge = (TCall(Call.RETEST, Throw.ROCK, Throw.PAPER, by=Outcome.DEFENDER, source="ability:Dodge"),)
    with pytest.raises(RulesError) as err:
        play_shot_into_group(shot("pistol", near("Lys", abilities={"Dodge": 3}, tests=dodge)))
    assert err.value.field == "bystanders[0].tests[0].source" and "could not see" in err.value.message
    brawl = (TCall(Call.RETEST, Throw.ROCK, Throw.PAPER, by=Outcome.DEFENDER, source="ability:Brawl"),)
    with pytest.raises(RulesError) as err:
        play_shot_into_group(shot("pistol", near("Lys", abilities={"Brawl": 3}, saw_it_coming=True, tests=brawl)))
    assert "only by expending Dodge" in err.value.message
    options = play_shot_into_group(shot("pistol", near("Lys", abilities={"Dodge": 3}))).result("Lys").options
    assert options.side(Outcome.DEFENDER).retests == ()


# ----- "In the event that the weapon is firing multiple rounds (a submachine gun or assault rifle) or has an
#        area effect (shotguns) then have the firer perform a mass challenge instead."


def test_t24_shotgun_spray_is_one_mass_challenge():
    """met-reference T24 and 002 "area effect (shotguns) ... perform a mass challenge instead": Spray at 3
    adjacent people 25 ft away, the shooter bids 3 Traits, one wins: two are hit and take the card's 2 levels each
    (Mass-Trauma's level is for a single target within five feet, never a spray victim), and the shooter loses
    1 Trait."""
    people = (near("A", Throw.SCISSORS), near("B", Throw.SCISSORS), near("C", Throw.PAPER))
    ruling = play_shot_into_group(shot("shotgun", *people, firer_throw=Throw.ROCK))
    assert ruling.fire is Fire.GROUP
    assert [h.target for h in ruling.hits] == ["A", "B"]
    assert [b.ruling.damage[0].levels for b in ruling.bystanders if b.hit] == [2, 2]
    assert [(h.levels, sum(n for _k, n in h.taken)) for h in ruling.hits] == [(2, 2), (2, 2)]  # applied
    assert ruling.traits_lost["Ruth"] == ("Tireless",)
    assert [b.firer_throw for b in ruling.bystanders] == [Throw.ROCK] * 3  # one sign against all


def test_a_spray_reaches_only_as_many_people_as_its_card():
    """met-reference 6.2: a shotgun's Spray reaches 3 people; the fourth is out of reach."""
    people = tuple(near(n) for n in ("A", "B", "C", "D"))
    ruling = play_shot_into_group(shot("shotgun", *people, bids=3, firer_throw=Throw.ROCK))
    assert [b.tested for b in ruling.bystanders] == [True, True, True, False]
    assert ruling.result("D").note == "out of the spray's reach"


def test_bursts_from_a_submachine_gun_are_a_mass_challenge_but_single_shots_are_not():
    """002: "firing multiple rounds (a submachine gun or assault rifle) ... a mass challenge instead", at targets
    far enough for the Spray (met-reference 6.2: a submachine gun beyond 10 feet, a shotgun beyond 20)."""
    far = RangeBand.FAR
    assert fire_of("smg", band=far) is Fire.GROUP and fire_of("smg", bursts=False, band=far) is Fire.SINGLE
    assert fire_of("shotgun", band=far) is Fire.GROUP and fire_of("shotgun", bursts=False, band=far) is Fire.GROUP
    assert fire_of("pistol", band=far) is Fire.SINGLE
    ruling = play_shot_into_group(shot("smg", near("A"), near("B", Throw.PAPER), firer_throw=Throw.ROCK))
    assert [b.hit for b in ruling.bystanders] == [True, False]


# ----- "To avoid this situation the firer may bid additional traits when firing to avoid bystanders if he
#        misses at a cost of one additional trait per bystander within three feet of his target (i.e. If five
#        bystanders are close to the target he would have to bid six traits to avoid hitting any of them if he
#        misses his target) or he could fire every other round without risking additional traits (by taking
#        careful aim)."


FIVE = tuple(near(n) for n in ("A", "B", "C", "D", "E"))


def test_five_bystanders_six_traits_in_all_and_nobody_is_hit():
    """002: "If five bystanders are close to the target he would have to bid six traits to avoid hitting any of
    them": five extra Traits (six in all) and no test is made; the extra Traits went with the missed shot."""
    extra = ("Quick", "Tireless", "Alert", "Nimble", "Wiry")
    ruling = play_shot_into_group(shot("pistol", *FIVE, bids=0, extra_traits=extra))
    assert not any(b.tested for b in ruling.bystanders) and all(b.excluded for b in ruling.bystanders)
    assert ruling.traits_lost["Ruth"] == extra
    assert any("5 extra Traits with the shot (6 in all) to avoid all of them" in s.text for s in ruling.steps)


def test_careful_aim_puts_nobody_at_risk_and_costs_no_trait():
    """002: "or he could fire every other round without risking additional traits (by taking careful aim)"."""
    ruling = play_shot_into_group(shot("pistol", *FIVE, bids=0, careful_aim=True))
    assert ruling.hits == () and ruling.traits_lost == {}
    assert all(b.note == "careful aim" for b in ruling.bystanders)


# ----- "These two options can only be taken when firing one shot at a time (not when firing shotguns or bursts
#        from automatic weapons)."


@pytest.mark.parametrize("weapon,kw,field", [
    ("shotgun", {"careful_aim": True}, "careful_aim"),
    ("smg", {"extra_traits": ("Quick",), "excluded": ("A",)}, "excluded"),
])
def test_the_options_are_only_for_single_shots(weapon, kw, field):
    """002: "These two options can only be taken when firing one shot at a time (not when firing shotguns or
    bursts from automatic weapons)"."""
    with pytest.raises(RulesError) as err:
        play_shot_into_group(shot(weapon, near("A"), firer_throw=Throw.ROCK, **kw))
    assert err.value.field == field and "one shot at a time" in err.value.message
    single = play_shot_into_group(shot("smg", near("A"), bids=0, bursts=False, careful_aim=True))
    assert single.fire is Fire.SINGLE and single.hits == ()


@pytest.mark.parametrize("weapon,band,kw", [
    ("shotgun", None, {"careful_aim": True}),
    ("shotgun", RangeBand.CLOSE, {"careful_aim": True}),
    ("shotgun", RangeBand.NEAR, {"extra_traits": ("Quick",), "excluded": ("A",)}),
    ("shotgun", RangeBand.MID, {"careful_aim": True}),
    ("smg", RangeBand.CLOSE, {"careful_aim": True}),
    ("smg", RangeBand.HAND_TO_HAND, {"extra_traits": ("Quick",), "excluded": ("A",)}),
])
def test_careful_aim_and_extra_traits_are_refused_with_a_blast_or_burst_at_any_range(weapon, band, kw):
    """Issue 30 item 2; 002 "Firing Guns into Groups of People": "These two options can only be taken when firing
    one shot at a time (not when firing shotguns or bursts from automatic weapons)", with no distance: under the
    default reading of spray_limits (002) a shotgun or a burst is refused at any range, the range not said
    included. LotNR's Spray distances (met-reference 6.2) no longer turn a close blast into a single shot."""
    with pytest.raises(RulesError) as err:
        play_shot_into_group(shot(weapon, near("A"), bids=0, range=band, **kw))
    assert "one shot at a time" in err.value.message
    assert ChronicleSettings.defaults()["spray_limits"] == "house_002"


@pytest.mark.parametrize("weapon,band", [("shotgun", None), ("shotgun", RangeBand.CLOSE), ("shotgun", RangeBand.MID),
                                         ("smg", RangeBand.CLOSE), ("smg", RangeBand.NEAR)])
def test_a_missed_blast_or_burst_is_one_mass_challenge_at_any_range(weapon, band):
    """Issue 30 item 2; 002 "Firing Guns into Groups of People": "In the event that the weapon is firing multiple
    rounds (a submachine gun or assault rifle) or has an area effect (shotguns) then have the firer perform a
    mass challenge instead": one sign against everyone near the target, at any range (setting spray_limits,
    default 002). A wins his pair (Paper against Rock), B loses and is hit."""
    ruling = play_shot_into_group(shot(weapon, near("A", Throw.PAPER), near("B"), range=band, firer_throw=Throw.ROCK))
    assert ruling.fire is Fire.GROUP
    assert [(b.name, b.tested, b.hit) for b in ruling.bystanders] == [("A", True, False), ("B", True, True)]
    assert [b.firer_throw for b in ruling.bystanders] == [Throw.ROCK, Throw.ROCK]
    decided = [s for s in ruling.steps if s.setting == "spray_limits"]
    assert decided and "whatever the range" in decided[0].text


def test_a_deliberate_spray_keeps_its_distances():
    """Issue 30 item 2; met-reference 6.2 and T24 (LotNR Spray): a deliberate Spray at a chosen group keeps its
    distances under 002's reading: a shotgun sprays only beyond twenty feet (T24's 25 feet: one mass challenge),
    a submachine gun beyond ten; closer, it is an ordinary single shot."""
    assert fire_of("shotgun", band=RangeBand.FAR, deliberate=True) is Fire.GROUP
    assert fire_of("shotgun", band=RangeBand.MID, deliberate=True) is Fire.SINGLE
    assert fire_of("smg", band=RangeBand.NEAR, deliberate=True) is Fire.SINGLE
    assert fire_of("smg", band=RangeBand.MID, deliberate=True) is Fire.GROUP
    assert fire_of("shotgun", band=RangeBand.MID) is Fire.GROUP  # the same blast, missed: a mass challenge (002)
    close = play_shot_into_group(shot("shotgun", near("A"), range=RangeBand.MID, deliberate_spray=True))
    assert close.fire is Fire.SINGLE and close.hits[0].target == "A"
    assert any("A deliberate Spray sprays only at targets more than 20 feet away" in s.text for s in close.steps)
    t24 = play_shot_into_group(shot("shotgun", near("A"), near("B"), near("C", Throw.PAPER), deliberate_spray=True,
                               firer_throw=Throw.ROCK))
    assert t24.fire is Fire.GROUP and [h.target for h in t24.hits] == ["A", "B"]
    with pytest.raises(RulesError) as err:
        play_shot_into_group(shot("pistol", near("A"), deliberate_spray=True))
    assert err.value.field == "deliberate_spray"


def test_under_lotnr_a_close_blast_is_still_a_single_shot():
    """Issue 30 item 2: the LotNR reading of spray_limits (met-reference 6.2) stays a choice: a shotgun within
    twenty feet, missed or deliberate, is an ordinary single shot, and careful aim is accepted with it."""
    lotnr = ChronicleSettings.from_overrides({"spray_limits": "lotnr"})
    assert fire_of("shotgun", band=RangeBand.CLOSE, settings=lotnr) is Fire.SINGLE
    ruling = play_shot_into_group(shot("shotgun", near("A"), bids=0, range=RangeBand.CLOSE, careful_aim=True), lotnr)
    assert ruling.fire is Fire.SINGLE and ruling.hits == () and ruling.result("A").note == "careful aim"


# ----- "If the firer does not have enough traits to bid for the first option (or doesn't want to bid a lot of
#        traits), he may choose to bid less traits to eliminate some bystanders from possibly being hit by stray
#        rounds (i.e. If five bystanders are close to the target he could choose to bid only three traits,
#        instead of six, and only have a chance of hitting three bystanders if he misses instead of all five)."


def test_three_traits_instead_of_six_leave_three_bystanders_at_risk():
    """002: "he could choose to bid only three traits, instead of six, and only have a chance of hitting three
    bystanders if he misses instead of all five": two extra Traits (three in all) exclude two; three are tested."""
    settings = ChronicleSettings.from_overrides({"stray_round_stops_at_first_hit": False})
    people = tuple(near(n, Throw.PAPER) for n in ("A", "B", "C", "D", "E"))  # all win: every test is made
    ruling = play_shot_into_group(shot("pistol", *people, bids=3, extra_traits=("Alert", "Nimble"),
                                  excluded=("B", "D")), settings)
    assert [b.name for b in ruling.bystanders if b.tested] == ["A", "C", "E"]
    assert any("(3 in all)" in s.text for s in ruling.steps)


# ----- "In this case he can actually say which specific bystanders he will not hit if he misses his target."


def test_he_names_the_bystanders_he_will_not_hit():
    """002: "he can actually say which specific bystanders he will not hit": the closest, A, is excluded, so the
    round goes to B; naming someone not near the target is refused, and so is naming one per extra Trait wrongly."""
    ruling = play_shot_into_group(shot("pistol", near("A"), near("B"), bids=1, extra_traits=("Alert",), excluded=("A",)))
    assert [h.target for h in ruling.hits] == ["B"]
    assert ruling.result("A").excluded and not ruling.result("A").tested
    with pytest.raises(RulesError) as err:
        play_shot_into_group(shot("pistol", near("A"), near("B"), bids=1, extra_traits=("Alert",), excluded=("Zed",)))
    assert err.value.field == "excluded" and "Zed is not among the people near the target" in err.value.message
    with pytest.raises(RulesError) as err:
        play_shot_into_group(shot("pistol", near("A"), near("B"), bids=1, extra_traits=("Alert",), excluded=()))
    assert err.value.field == "excluded"


# ----- bad input


def test_a_bystander_twice_the_target_or_the_firer_is_refused():
    """002: the people "within three feet of the intended target": each once, and neither the target nor the firer."""
    for people, message in (((near("A"), near("A")), "already listed"), ((near("Konrad"),), "is the target"),
                            ((near("Ruth"),), "fired the shot")):
        with pytest.raises(RulesError) as err:
            play_shot_into_group(shot("pistol", *people))
        assert message in err.value.message and err.value.field.startswith("bystanders[")


def test_json_reader():
    """The stateless API's input for a pistol's stray round (002)."""
    data = {"firer": {"name": "Ruth", "traits": 3, "bid": ["Steady", "Quick"]}, "weapon": "pistol",
            "target": "Konrad",
            "bystanders": [{"name": "Pim", "traits": 2, "bid": ["Nimble"], "throw": "paper", "firer_throw": "rock"},
                           {"name": "Lys", "traits": 7, "bid": ["Quick"], "throw": "rock", "firer_throw": "paper",
                            "saw_it_coming": True, "body": {"creature": "vampire", "bashing": 1}}]}
    ruling = play_shot_into_group(shot_into_group_from_dict(data))
    assert [h.target for h in ruling.hits] == ["Lys"] and ruling.tracks["Lys"].bashing == 3
    assert ruling.to_dict()["bystanders"][1]["hit"] is True
    with pytest.raises(RulesError) as err:
        shot_into_group_from_dict({**data, "careful_aim": "yes"})
    assert err.value.field == "careful_aim"
