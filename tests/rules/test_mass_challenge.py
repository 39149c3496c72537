"""Tests of mass combat (seed 002 "Mass Combat", sentence by sentence; LotNR Mob Scene,
met-reference 3.2 and worked example T8)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from larp.rules.challenge import Call, Contestant, Health, Lead, Outcome, Power, Throw
from larp.rules.challenge import TestCall as TCall
from larp.rules.explain import RulesError
from larp.rules.health import new_track
from larp.rules.mass_challenge import (
    Attack,
    Attacker,
    Body,
    Defender,
    MassChallenge,
    Range,
    actions_of,
    mass_challenge_from_dict,
    play_mass_challenge,
)

TRAITS = ("Brawny", "Ferocious", "Tough", "Quick", "Wiry", "Stalwart", "Rugged", "Nimble", "Lithe", "Agile",
          "Steady", "Tireless")


def defender(n_bid: int = 1, traits: int = 9, throw: Throw | None = Throw.ROCK, **kw) -> Defender:
    side = kw.pop("side", None) or Contestant("Dana", traits, TRAITS[:n_bid], lead=kw.pop("lead", Lead.STRENGTH),
                                             powers=kw.pop("powers", frozenset()),
                                             abilities=kw.pop("abilities", {}),
                                             bomb_announced=kw.pop("bomb_announced", False))
    return Defender(side=side, throw=throw, **kw)


def attacker(name: str, throw: Throw | None = Throw.SCISSORS, traits: int = 7, **kw) -> Attacker:
    return Attacker(side=Contestant(name, traits, ("Quick",), abilities=kw.pop("abilities", {}),
                                    powers=kw.pop("powers", frozenset())), throw=throw, **kw)


def ranged(name: str, throw: Throw | None = Throw.SCISSORS, traits: int = 7, weapon: str = "pistol", **kw) -> Attacker:
    return attacker(name, throw, traits, range=Range.RANGED, attack=Attack("weapon", weapon), **kw)


def mass(d: Defender, *attackers: Attacker) -> MassChallenge:
    return MassChallenge(defender=d, attackers=tuple(attackers))


# ----- "For sake of ease a maximum of five characters can engage the same target in hand to hand
#        combat and another 5 may engage the same target as well with range weapons."


def test_five_hand_to_hand_and_five_ranged_may_engage_one_target():
    """002 "Mass Combat": "a maximum of five characters can engage the same target in hand to hand combat and
    another 5 may engage the same target as well with range weapons": ten attackers, each pair ruled."""
    hands = [attacker(f"H{i}", Throw.SCISSORS) for i in range(5)]
    guns = [ranged(f"R{i}", Throw.SCISSORS) for i in range(5)]
    ruling = play_mass_challenge(mass(defender(10, traits=12), *hands, *guns))
    assert len(ruling.pairs) == 10
    assert all(p.made and p.outcome is Outcome.DEFENDER for p in ruling.pairs)  # Rock beats every Scissors
    assert ruling.steps[0].text.startswith("10 attack Dana: 5 hand to hand, 5 at range")


@pytest.mark.parametrize("sixth", [attacker("H5"), ranged("R5")])
def test_a_sixth_attacker_of_either_kind_is_refused(sixth):
    """002 "Mass Combat": "a maximum of five characters ... hand to hand ... and another 5 ... with range
    weapons": a sixth of either kind is refused with a message naming him."""
    hands = [attacker(f"H{i}") for i in range(5)]
    guns = [ranged(f"R{i}") for i in range(5)]
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(defender(11, traits=12), *hands, *guns, sixth))
    assert "At most 5" in err.value.message and sixth.side.name in err.value.message
    assert err.value.field == "attackers[10].range"


# ----- "The storyteller or narrator will count to three and everyone will point at who they are attacking."


def test_everyone_points_at_one_target_never_at_himself_and_never_twice():
    """002 "Mass Combat": "everyone will point at who they are attacking": a mass challenge has one target; the
    target cannot also be an attacker, and nobody points twice."""
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(defender(2), attacker("A"), attacker("Dana")))
    assert err.value.field == "attackers[1].name" and "target" in err.value.message
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(defender(2), attacker("A"), attacker("A")))
    assert err.value.field == "attackers[1].name" and "already an attacker" in err.value.message


# ----- "The defender must then bid a number of traits equal to the number of attackers he wishes to defend
#        against (or one less than this if he has "Intensity" from Potence)."


def test_the_defender_bids_one_trait_per_attacker_defended_against():
    """002 "Mass Combat": "The defender must then bid a number of traits equal to the number of attackers":
    three attackers, three Traits; two or four are refused."""
    three = (attacker("A"), attacker("B"), attacker("C"))
    ruling = play_mass_challenge(mass(defender(3), *three))
    headers = [p.ruling.steps[0].text for p in ruling.pairs]
    assert [h.split("Dana bids ")[1] for h in headers] == ["Brawny.", "Ferocious.", "Tough."]
    assert any("defends against 3 of 3 attackers and bids 3 Traits" in s.text for s in ruling.steps)
    for wrong in (2, 4):
        with pytest.raises(RulesError) as err:
            play_mass_challenge(mass(defender(wrong), *three))
        assert err.value.field == "defender.bid" and "must bid 3 Traits" in err.value.message


def test_each_attacker_gets_one_of_the_defenders_traits():
    """002 "Mass Combat" (one Trait per attacker) and "Traits are lost for each loss" (met-reference 3.2): each
    pair risks one of the defender's Traits; the two he loses are the ones bid against the winners."""
    ruling = play_mass_challenge(mass(defender(3, throw=Throw.SCISSORS), attacker("A", Throw.ROCK),
                                      attacker("B", Throw.PAPER), attacker("C", Throw.ROCK)))
    assert ruling.traits_lost["Dana"] == ("Brawny", "Tough")
    assert ruling.traits_lost["B"] == ("Quick",)


def test_intensity_bids_one_trait_fewer_and_potence_is_never_lost():
    """002 "Mass Combat": "(or one less than this if he has "Intensity" from Potence)": against three attackers
    he bids Potence and two Traits; losing all three he loses only the two real Traits."""
    d = Defender(side=Contestant("Dana", 9, ("Potence", "Brawny", "Tough"), lead=Lead.STRENGTH,
                                 powers=frozenset({Power.INTENSITY})), throw=Throw.SCISSORS)
    ruling = play_mass_challenge(mass(d, attacker("A", Throw.ROCK), attacker("B", Throw.ROCK),
                                      attacker("C", Throw.ROCK)))
    assert all(p.outcome is Outcome.CHALLENGER for p in ruling.pairs)
    assert ruling.traits_lost["Dana"] == ("Brawny", "Tough")
    assert any("Intensity" in s.text and s.rule.startswith('002 "Mass Combat"') for s in ruling.steps)
    without = replace(d, side=replace(d.side, powers=frozenset()))
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(without, attacker("A"), attacker("B"), attacker("C")))
    assert err.value.field == "defender.bid" and "Intensity" in err.value.message


def test_a_wounded_defender_risks_one_more_trait_in_each_pair():
    """LotNR Health (met-reference 4.1): Wounded, "must risk one extra Trait to attempt any challenge"; each pair
    is a normal challenge, so two attackers cost a Wounded defender four Traits."""
    side = Contestant("Dana", 9, TRAITS[:4], health=Health.WOUNDED)
    ruling = play_mass_challenge(mass(Defender(side, Throw.ROCK), attacker("A"), attacker("B")))
    assert all(p.outcome is Outcome.DEFENDER for p in ruling.pairs)
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(Defender(replace(side, bid=TRAITS[:2]), Throw.ROCK), attacker("A"), attacker("B")))
    assert "must bid 4 Traits" in err.value.message


# ----- "If not able to do this (due to lack of enough traits), he can choose who he defends against and whom
#        he will relent to."


def test_lacking_traits_he_must_choose_whom_he_relents_to():
    """002 "Mass Combat": "If not able to do this (due to lack of enough traits), he can choose who he defends
    against and whom he will relent to": two Traits against three attackers is refused until he relents to one."""
    three = (attacker("A"), attacker("B"), attacker("C"))
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(defender(3, traits=2), *three))
    assert err.value.field == "defender.relents_to"
    assert "has 2 Physical Traits left and cannot defend against 3 attackers" in err.value.message
    ruling = play_mass_challenge(mass(defender(2, traits=2, relents_to=("B",)), *three))
    assert ruling.pair("B").relented and ruling.pair("B").outcome is Outcome.CHALLENGER
    assert not ruling.pair("A").relented and ruling.pair("A").outcome is Outcome.DEFENDER


def test_relenting_to_an_attacker_not_in_the_fight_is_refused():
    """002 "Mass Combat": he chooses "whom he will relent to" among his attackers."""
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(defender(1, relents_to=("Zed",)), attacker("A"), attacker("B")))
    assert err.value.field == "defender.relents_to" and "Zed" in err.value.message


# ----- "The relented challenges will be resolved before any others."


def test_relented_challenges_are_resolved_first_whatever_the_initiative():
    """002 "Mass Combat": "The relented challenges will be resolved before any others": B (3 Traits, last in
    initiative) was relented to, so his hit lands before A's (8 Traits)."""
    d = defender(1, throw=Throw.SCISSORS, relents_to=("B",))
    ruling = play_mass_challenge(mass(d, attacker("A", Throw.ROCK, traits=8), attacker("B", Throw.ROCK, traits=3)))
    assert [h.by for h in ruling.hits] == ["B", "A"]
    assert ruling.pair("B").ruling.lost_by(Outcome.DEFENDER) == ()  # relenting loses no Traits (LotNR)
    assert ruling.hits[0].steps and ruling.hits[1].applied


def test_wounds_from_a_relented_blow_count_in_the_ties_that_follow():
    """Issue 30 item 1; 002 "Mass Combat" and LotNR "The Mob Scene" (met-reference 3.2): "the relented challenges
    are resolved first". Dana (5 Physical) relents to X, whose ax (2 lethal) leaves her Bruised, and bids against Y
    and Z (4 Traits each): both throws tie, and Bruised she counts 5 - 1 = 4 against 4: two draws (002 "Ties"),
    each side losing its bid. Judged at her health before the relented hit, she would win both ties 5 to 4."""
    d = defender(2, traits=5, throw=Throw.ROCK, relents_to=("X",))
    ruling = play_mass_challenge(mass(d, attacker("X", traits=4, attack=Attack("weapon", "ax")),
                                      attacker("Y", Throw.ROCK, traits=4), attacker("Z", Throw.ROCK, traits=4)))
    assert ruling.tracks["Dana"].lethal == 2 and ruling.tracks["Dana"].state() == "Bruised"
    for name in ("Y", "Z"):
        pair = ruling.pair(name)
        assert pair.outcome is Outcome.DRAW, name
        assert pair.ruling.totals == {Outcome.CHALLENGER: 4, Outcome.DEFENDER: 4}
        assert any("Dana is Bruised: one Trait down on ties." == s.text for s in pair.ruling.steps)
    assert ruling.traits_lost == {"Dana": ("Brawny", "Ferocious"), "Y": ("Quick",), "Z": ("Quick",)}


# ----- "If the defender survives, he and all remaining attackers then engage in a single simultaneous challenge."


def _hurt(bashing: int = 0, lethal: int = 0) -> Body:
    return Body(track=replace(new_track("vampire"), bashing=bashing, lethal=lethal))


def test_a_defender_who_drops_to_the_relented_challenges_faces_no_other():
    """002 "Mass Combat": "If the defender survives, he and all remaining attackers then engage in a single
    simultaneous challenge": Dana, at Wounded with 6 lethal, relents to a knife (1 lethal): Incapacitated;
    relented to a pistol too (2 bashing against a vampire, 002) she is knocked unconscious, and A's challenge is
    never made."""
    d = defender(1, throw=Throw.ROCK, relents_to=("K", "P"), body=_hurt(lethal=6))
    ruling = play_mass_challenge(mass(d, attacker("K", attack=Attack("weapon", "knife"), traits=9),
                                      ranged("P", traits=8), attacker("A", Throw.SCISSORS, traits=5)))
    assert ruling.tracks["Dana"].condition == "unconscious"
    assert ruling.pair("A").made is False and ruling.pair("A").outcome is None
    assert "Dana" not in ruling.traits_lost and "A" not in ruling.traits_lost
    assert any("the simultaneous challenge is not made" in s.text for s in ruling.steps)


def test_a_defender_who_survives_engages_all_the_others_at_once():
    """002 "Mass Combat": "If the defender survives, he and all remaining attackers then engage in a single
    simultaneous challenge": after one relented bare-handed strike she is Healthy and fights A and B."""
    ruling = play_mass_challenge(mass(defender(2, relents_to=("R",)), attacker("R"), attacker("A"), attacker("B")))
    assert ruling.pair("A").made and ruling.pair("B").made
    assert ruling.hits[0].by == "R" and ruling.hits[0].applied
    assert any("one simultaneous challenge" in s.text for s in ruling.steps)


# ----- "His sign is compared to all attackers and retests may then be performed (in this case the defender is
#        capable of using a "Might" retest from Potence against each individual engaging him in hand to hand
#        combat as long as it's a strength related challenge)."


def test_t8_one_sign_against_four():
    """met-reference T8 (LotNR mass_call) and 002 "His sign is compared to all attackers": Scissors against Rock,
    Scissors, Paper, Paper, one Trait bid per attacker: loses to #1 (Trait lost, #1's blow lands), ties #2 (equal
    Traits: a draw, both lose the bid), beats #3 and #4, and may injure only one of #3 or #4."""
    d = Defender(Contestant("Dana", 7, ("Brawny", "Tough", "Quick", "Wiry")), Throw.SCISSORS, attack=Attack())
    ruling = play_mass_challenge(mass(d, attacker("A1", Throw.ROCK), attacker("A2", Throw.SCISSORS),
                                      attacker("A3", Throw.PAPER), attacker("A4", Throw.PAPER)))
    outcomes = [p.outcome for p in ruling.pairs]
    assert outcomes == [Outcome.CHALLENGER, Outcome.DRAW, Outcome.DEFENDER, Outcome.DEFENDER]
    assert [p.defender_throw for p in ruling.pairs] == [Throw.SCISSORS] * 4
    assert ruling.traits_lost["Dana"] == ("Brawny", "Tough")  # lost to #1, drew with #2
    assert ruling.traits_lost["A2"] == ("Quick",)
    assert any("Both have 7 Traits: a draw" in s.text for s in ruling.pair("A2").ruling.steps)
    injured = [p.attacker for p in ruling.pairs if p.injured]
    assert injured == ["A3"]  # one of #3 and #4, the first in order
    assert sorted((h.by, h.target, h.applied) for h in ruling.hits) == [("A1", "Dana", True), ("Dana", "A3", True)]
    spared = [s.text for s in ruling.steps if "may injure 1 of them" in s.text]
    assert spared and "A4 is not hurt" in spared[0]


def test_t8_the_defender_may_choose_the_other_loser():
    """met-reference T8: "may injure only one of #3 or #4": he may choose #4, but not #1 (who won) or both."""
    base = Defender(Contestant("Dana", 7, ("Brawny", "Tough", "Quick", "Wiry")), Throw.SCISSORS, attack=Attack())
    four = (attacker("A1", Throw.ROCK), attacker("A2", Throw.SCISSORS), attacker("A3", Throw.PAPER),
            attacker("A4", Throw.PAPER))
    ruling = play_mass_challenge(mass(replace(base, injures=("A4",)), *four))
    assert [p.attacker for p in ruling.pairs if p.injured] == ["A4"]
    assert ruling.tracks["A4"].bashing == 1 and ruling.tracks["A3"].marked == 0
    for bad, why in ((("A1",), "did not lose"), (("A3", "A4"), "at most 1")):
        with pytest.raises(RulesError) as err:
            play_mass_challenge(mass(replace(base, injures=bad), *four))
        assert err.value.field == "defender.injures" and why in err.value.message


def test_might_retests_against_each_hand_to_hand_attacker_in_a_strength_challenge():
    """002 "Mass Combat": "the defender is capable of using a "Might" retest from Potence against each individual
    engaging him in hand to hand combat as long as it's a strength related challenge": one Might per pair."""
    d = defender(2, throw=Throw.SCISSORS, powers=frozenset({Power.MIGHT}))
    might = (TCall(Call.RETEST, Throw.ROCK, Throw.PAPER, by=Outcome.DEFENDER, source="might"),)
    ruling = play_mass_challenge(mass(d, attacker("A", Throw.ROCK, tests=might),
                                      attacker("B", Throw.ROCK, tests=might)))
    assert [p.outcome for p in ruling.pairs] == [Outcome.DEFENDER, Outcome.DEFENDER]
    assert all(any("Might is the last test" in s.text for s in p.ruling.steps) for p in ruling.pairs)


def test_no_might_at_range_nor_when_strength_does_not_apply():
    """002 "Mass Combat": Might "against each individual engaging him in hand to hand combat as long as it's a
    strength related challenge": refused against a ranged attacker and where the narrator rules strength out."""
    d = defender(1, throw=Throw.SCISSORS, powers=frozenset({Power.MIGHT}))
    might = (TCall(Call.RETEST, Throw.ROCK, Throw.PAPER, by=Outcome.DEFENDER, source="might"),)
    for who in (ranged("G", Throw.ROCK, tests=might), attacker("H", Throw.ROCK, tests=might, strength=False)):
        with pytest.raises(RulesError) as err:
            play_mass_challenge(mass(d, who))
        assert err.value.field == "attackers[0].tests[1].source" and "sheer strength" in err.value.message


def test_retests_are_counted_per_attacker():
    """LotNR Mob Scene (met-reference 2.1, 3.2): "Defender retests are counted per attacker": one Dodge level
    retests against A, and none is left for B."""
    d = defender(2, throw=Throw.SCISSORS, abilities={"Dodge": 1})
    dodge = (TCall(Call.RETEST, Throw.ROCK, Throw.PAPER, by=Outcome.DEFENDER, source="ability:Dodge"),)
    ruling = play_mass_challenge(mass(d, attacker("A", Throw.ROCK, tests=dodge), attacker("B", Throw.ROCK)))
    assert ruling.spent["Dana"].abilities == {"Dodge": 1}
    assert ruling.pair("B").options.side(Outcome.DEFENDER).retests == ()
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(d, attacker("A", Throw.ROCK, tests=dodge), attacker("B", Throw.ROCK, tests=dodge)))
    assert err.value.field == "attackers[1].tests[1].source" and "no Dodge levels left" in err.value.message


# ----- "In the event that the defender throws the strength bomb because he has "Vigor" and is fighting a mixed
#        group of hand to hand and ranged attackers it will be considered paper against the ranged attackers and
#        those hand to hand attackers that the strength bomb does not apply to (unless he also has the speed bomb
#        from "Rapidity" and has activated Celerity this round)."


def _bomb_fight(**kw) -> MassChallenge:
    d = defender(3, throw=Throw.BOMB, powers=frozenset({Power.VIGOR, Power.RAPIDITY}), bomb_announced=True, **kw)
    return mass(d, attacker("Fist", Throw.PAPER), ranged("Gun", Throw.PAPER),
                attacker("Dancer", Throw.PAPER, strength=False))


def test_the_strength_bomb_counts_as_paper_against_ranged_and_non_strength_attackers():
    """002 "Mass Combat": the strength Bomb "will be considered paper against the ranged attackers and those hand
    to hand attackers that the strength bomb does not apply to": it beats the fist's Paper, and ties the others'."""
    ruling = play_mass_challenge(_bomb_fight(celerity=0))
    assert ruling.pair("Fist").defender_throw is Throw.BOMB and ruling.pair("Fist").outcome is Outcome.DEFENDER
    for name in ("Gun", "Dancer"):
        assert ruling.pair(name).defender_throw is Throw.PAPER
        assert "Both throw Paper: a tie" in " ".join(s.text for s in ruling.pair(name).ruling.steps)
    texts = [s.text for s in ruling.steps if "counts as Paper" in s.text]
    assert len(texts) == 2 and "Gun (at range)" in texts[0]


def test_with_rapidity_and_celerity_active_the_bomb_stands_against_everyone():
    """002 "Mass Combat": "(unless he also has the speed bomb from "Rapidity" and has activated Celerity this
    round)": with Celerity 3 active the Bomb beats all three Papers."""
    ruling = play_mass_challenge(_bomb_fight(celerity=3))
    assert [p.defender_throw for p in ruling.pairs] == [Throw.BOMB] * 3
    assert [p.outcome for p in ruling.pairs] == [Outcome.DEFENDER] * 3
    assert any("speed Bomb" in s.text for s in ruling.steps)


def test_a_bomb_without_vigor_or_rapidity_is_refused():
    """LotNR Vigor and Rapidity (met-reference 1.2): no power, no Bomb."""
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(defender(1, throw=Throw.BOMB), attacker("A")))
    assert "cannot throw the Bomb" in err.value.message and err.value.field.startswith("attackers[0]")


# ----- LotNR Mob Scene where 002 is silent: injuries, order, dropping


def test_extra_actions_let_the_defender_injure_more_losers():
    """LotNR Mob Scene (met-reference 3.2): "Unless the defender has extra actions, they may injure only one
    attacker ... who lost": Swiftness (Celerity 2) gives a second action, so two of three losers are hurt."""
    d = defender(3, throw=Throw.ROCK, attack=Attack(), celerity=2)
    ruling = play_mass_challenge(mass(d, attacker("A"), attacker("B"), attacker("C")))
    assert ruling.actions == 2 == actions_of(2)
    assert [p.injured for p in ruling.pairs] == [True, True, False]
    assert sum(1 for h in ruling.hits if h.by == "Dana" and h.applied) == 2


def test_results_are_applied_in_order_and_a_dropped_defender_takes_no_more():
    """LotNR Mob Scene: "Results are applied in normal initiative order" and the issue's "the defender may drop
    before the last of them": Dana at 6 lethal is hit by A (9 Traits, knife: Incapacitated), by B (8 Traits,
    pistol, 2 bashing: unconscious), and C's hit (5 Traits) comes after she dropped, so it is recorded as not
    applied."""
    d = defender(3, throw=Throw.SCISSORS, body=_hurt(lethal=6))
    ruling = play_mass_challenge(mass(d, attacker("C", Throw.ROCK, traits=5),
                                      attacker("A", Throw.ROCK, traits=9, attack=Attack("weapon", "knife")),
                                      ranged("B", Throw.ROCK, traits=8)))
    assert [(h.by, h.applied) for h in ruling.hits] == [("A", True), ("B", True), ("C", False)]
    assert ruling.hits[1].condition == "unconscious" and ruling.tracks["Dana"].condition == "unconscious"
    assert "already dropped (unconscious)" in ruling.hits[2].note
    assert ruling.traits_lost["Dana"] == ("Brawny", "Ferocious", "Tough")  # the losses all stand


def test_equal_initiative_results_land_together():
    """LotNR order of challenges (met-reference 3.1): equal counts act at the same time, so both hits of two
    8-Trait attackers land even though the first already drops her: A's ax (2 lethal) sends Dana, at 6 lethal,
    into torpor, and B's blow, at the same moment, is applied too (issue 30: the test passed with no hit)."""
    d = defender(2, throw=Throw.SCISSORS, body=_hurt(lethal=6))
    ruling = play_mass_challenge(mass(d, attacker("A", Throw.ROCK, traits=8, attack=Attack("weapon", "ax")),
                                      attacker("B", Throw.ROCK, traits=8)))
    assert [(h.by, h.applied) for h in ruling.hits] == [("A", True), ("B", True)]
    assert ruling.hits[0].condition == "torpor" and ruling.tracks["Dana"].condition == "torpor"


def test_the_defenders_counter_attack_is_lost_if_he_drops_first():
    """LotNR Mob Scene: results in initiative order; Dana (5 Traits) acts after A (9 Traits), whose knife leaves
    her Incapacitated, out of the fight (LotNR Health), so her blow on B is not applied."""
    d = defender(2, traits=5, throw=Throw.SCISSORS, attack=Attack(), body=_hurt(lethal=6))
    ruling = play_mass_challenge(mass(d, attacker("A", Throw.ROCK, traits=9, attack=Attack("weapon", "knife")),
                                      attacker("B", Throw.PAPER, traits=3)))
    dana = [h for h in ruling.hits if h.by == "Dana"]
    assert len(dana) == 1 and not dana[0].applied and "out of the fight (Incapacitated)" in dana[0].note
    assert ruling.tracks["B"].marked == 0


def test_a_ranged_attacker_needs_a_ranged_weapon():
    """002 "Mass Combat": the second group engages "with range weapons"."""
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(defender(1), attacker("A", range=Range.RANGED)))
    assert err.value.field == "attackers[0].attack.weapon"
    with pytest.raises(RulesError) as err:
        play_mass_challenge(mass(defender(1), ranged("A", weapon="knife")))
    assert "hand-to-hand weapon" in err.value.message


def test_json_round_trip_of_t8():
    """met-reference T8 through the JSON reader (the stateless API's input)."""
    data = {"defender": {"name": "Dana", "traits": 9, "bid": ["Quick", "Wiry", "Tough", "Brawny"],
                         "throw": "scissors", "attack": {"action": "strike"}},
            "attackers": [{"name": f"A{i}", "traits": 7, "bid": ["Brawny"], "throw": t}
                          for i, t in enumerate(("rock", "scissors", "paper", "paper"), 1)]}
    ruling = play_mass_challenge(mass_challenge_from_dict(data))
    assert [p.outcome.value for p in ruling.pairs] == ["challenger", "defender", "defender", "defender"]
    assert ruling.to_dict()["pairs"][0]["attacker"] == "A1"
    with pytest.raises(RulesError) as err:
        mass_challenge_from_dict({**data, "attackers": [{**data["attackers"][0], "throw": "lizard"}]})
    assert err.value.field == "attackers[0].throw"


# ----- properties


@st.composite
def fights(draw):
    n = draw(st.integers(1, 5))
    traits = draw(st.integers(1, 10))
    intensity = draw(st.booleans())
    relent = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n))
    names = [f"A{i}" for i in range(n)]
    relents_to = tuple(names[i] for i in relent)
    defended = n - len(relents_to)
    real = max(defended - (1 if intensity and defended else 0), 0)
    if real > traits:  # he must relent to the rest: keep only as many as his Traits allow
        extra = [x for x in names if x not in relents_to][: real - traits]
        relents_to += tuple(extra)
        defended = n - len(relents_to)
        real = max(defended - (1 if intensity and defended else 0), 0)
    bid = (("Potence",) if intensity and defended else ()) + TRAITS[:real]
    celerity = draw(st.sampled_from([0, 2, 4]))
    throws = st.sampled_from([Throw.ROCK, Throw.PAPER, Throw.SCISSORS])
    attackers = tuple(Attacker(Contestant(name, draw(st.integers(1, 12)), ("Quick",)), throw=draw(throws))
                      for name in names)
    side = Contestant("Dana", max(traits, real), bid, lead=Lead.STRENGTH,
                      powers=frozenset({Power.INTENSITY}) if intensity else frozenset())
    d = Defender(side, draw(throws), relents_to=relents_to, attack=Attack() if draw(st.booleans()) else None,
                 celerity=celerity)
    return MassChallenge(d, attackers), defended, intensity and defended > 0


@hyp_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights())
def test_properties_of_every_mass_challenge(case):
    """Invariants a narrator relies on (002 "Mass Combat"; LotNR Mob Scene): with N attackers defended against
    the defender never risks more than N Traits (N-1 with Intensity); relented challenges always resolve before
    any other; the defender never injures more attackers than he has actions, and only ones who lost."""
    mass_challenge, defended, intensity = case
    ruling = play_mass_challenge(mass_challenge)
    cap = defended - (1 if intensity else 0)
    assert len(ruling.traits_lost.get("Dana", ())) <= cap
    assert "Potence" not in ruling.traits_lost.get("Dana", ())
    relented = set(mass_challenge.defender.relents_to)
    kinds = [h.by in relented for h in ruling.hits]
    assert kinds == sorted(kinds, reverse=True)  # every relented hit before any other
    by_defender = [h for h in ruling.hits if h.by == "Dana"]
    assert len(by_defender) <= ruling.actions == actions_of(mass_challenge.defender.celerity)
    assert all(ruling.pair(h.target).outcome is Outcome.DEFENDER for h in by_defender)
    assert all(p.relented == (p.attacker in relented) for p in ruling.pairs)


# ----- issue 15: each pair judged on the defender as he stands after the results before it


def test_the_mob_example_later_pairs_see_the_traits_lost_and_the_wounds():
    """Issue 15's worked example (002 "Mass Combat"; LotNR Mob Scene and order of challenges, met-reference
    3.1, 3.2; LotNR Health 4.1): a defender with 10 Traits loses to the first two attackers (9 and 8 Traits,
    so their results come first), each blow a level of bashing (halved, at least one: Bruised after two);
    on the third pair's tie he counts 10 - 2 - 1 = 7 against the attacker's 7: a draw."""
    d = Defender(Contestant("Dana", 10, TRAITS[:3]), Throw.SCISSORS)
    ruling = play_mass_challenge(mass(d, attacker("A", Throw.ROCK, traits=9), attacker("B", Throw.ROCK, traits=8),
                                      attacker("C", Throw.SCISSORS, traits=7)))
    third = ruling.pair("C").ruling
    assert third.totals[Outcome.DEFENDER] == 7 and ruling.pair("C").outcome is Outcome.DRAW
    assert any(s.text == "Dana counts 7 Traits for ties and overbids: 8 Physical, -1 Bruised." for s in third.steps)
    assert ruling.traits_lost["Dana"] == ("Brawny", "Ferocious", "Tough")  # two losses and the draw
    assert any(s.rule.startswith('002 "Mass Combat"; LotNR Mob Scene and order') for s in ruling.steps)


def test_equal_counts_are_judged_together():
    """LotNR order of challenges (met-reference 3.1): equal counts act at the same time, so neither of two
    7-Trait attackers' pairs is "earlier": both are judged on the defender as he stood (9 against 7)."""
    d = Defender(Contestant("Dana", 9, TRAITS[:2]), Throw.SCISSORS)
    ruling = play_mass_challenge(mass(d, attacker("A", Throw.ROCK), attacker("B", Throw.SCISSORS)))
    assert ruling.pair("B").ruling.totals[Outcome.DEFENDER] == 9 and ruling.pair("B").outcome is Outcome.DEFENDER


def test_a_defender_wounded_in_the_mob_risks_one_more_trait_in_the_later_pairs():
    """LotNR Health (met-reference 4.1): Wounded, "must risk one extra Trait to attempt any challenge".
    Dana stands Bruised (4 lethal); A's knife (9 Traits, first) makes her Wounded, so against B she risks
    a second Trait, the one she has left that is not bid (Quick), and loses both when B wins."""
    side = Contestant("Dana", 5, ("Brawny", "Ferocious"), held=("Brawny", "Ferocious", "Tough", "Quick", "Wiry"),
                      health=Health.BRUISED)
    d = Defender(side, Throw.SCISSORS, body=_hurt(lethal=4))
    ruling = play_mass_challenge(mass(d, attacker("A", Throw.ROCK, traits=9, attack=Attack("weapon", "knife")),
                                      attacker("B", Throw.ROCK, traits=8)))
    assert any(s.text == "Dana is now Wounded and risks one more Trait against B: Quick." for s in ruling.steps)
    assert ruling.traits_lost["Dana"] == ("Brawny", "Ferocious", "Quick")
    assert ruling.tracks["Dana"].lethal == 5 and ruling.tracks["Dana"].bashing == 1


def test_a_pair_waits_for_its_forced_darkness_retest():
    """002 "Darkness": an attacker who wins in total darkness, against a target who sees, must retest the
    win once; the mass challenge says which pair waits for it instead of refusing the whole fight."""
    from larp.rules.darkness import Darkness, DarknessLevel

    blind = Darkness(DarknessLevel.TOTAL)
    a = Attacker(side=Contestant("A", 7, ("Quick",), darkness=blind), throw=Throw.ROCK)
    ruling = play_mass_challenge(mass(defender(1, throw=Throw.SCISSORS), a))
    assert ruling.pending == ("A",) and ruling.pair("A").options.forced_retest is Outcome.CHALLENGER
    forced = (TCall(Call.FORCED_RETEST, Throw.ROCK, Throw.PAPER, by=Outcome.CHALLENGER),)
    decided = play_mass_challenge(mass(defender(1, throw=Throw.SCISSORS), replace(a, tests=forced)))
    assert decided.pending == () and decided.pair("A").outcome is Outcome.DEFENDER


def test_a_pairs_damage_is_what_its_hit_dealt():
    """Issue 30 (oddities); LotNR Potence: Puissance (met-reference 3.4): A's bare-handed strike with Puissance
    deals 1 + 1 = 2 levels; the pair's ruling says 2, as the hit does, not the bare strike's 1."""
    a = attacker("A", Throw.ROCK, traits=8, attack=Attack("strike", potence=5))
    ruling = play_mass_challenge(mass(defender(1, throw=Throw.SCISSORS), a))
    hit = next(h for h in ruling.hits if h.by == "A")
    assert hit.levels == 2
    assert [d.levels for d in ruling.pair("A").ruling.damage] == [2]
