"""Rulings that match the books (issue 16): overbids, retests, the Bomb, surprise, darkness, mass combat
and firing into groups. Each test names the item of the issue and its source (seed 002 section, LotNR or
Dark Epics via met-reference); each failed before the change it tests."""

from __future__ import annotations

from dataclasses import replace

import pytest

from larp.rules.challenge import (
    Call,
    Category,
    Challenge,
    Contestant,
    Health,
    Lead,
    Outcome,
    Power,
    Throw,
    Weapon,
    allowed_throws,
    bids_required,
    challenge_options,
    rule_challenge,
)
from larp.rules.challenge import TestCall as TCall
from larp.rules.darkness import Darkness, DarknessLevel, DarknessSource
from larp.rules.explain import RulesError
from larp.rules.firing_into_groups import Bystander, Fire, ShotIntoGroup, fire_of, play_shot_into_group
from larp.rules.mass_challenge import Attacker, Defender, MassChallenge, play_mass_challenge
from larp.rules.rulings import Choice, OneOnOne, Person, Side, rule_firing_into_groups, rule_one_on_one
from larp.rules.rulings.firing_into_groups import BystanderSide, FiringIntoGroupsCall
from larp.rules.scene import RangeBand, Scene, SideScene
from larp.rules.settings import ChronicleSettings

R, P, S, B = Throw.ROCK, Throw.PAPER, Throw.SCISSORS, Throw.BOMB
C, D = Outcome.CHALLENGER, Outcome.DEFENDER
PHYSICAL = Category.PHYSICAL


def settings(**overrides) -> ChronicleSettings:
    return ChronicleSettings.from_overrides(overrides)


def first(ct: Throw, dt: Throw) -> TCall:
    return TCall(Call.TEST, ct, dt)


def fight(c: Contestant, d: Contestant, *tests: TCall, **kw) -> Challenge:
    return Challenge(PHYSICAL, c, d, tests=tuple(tests), **kw)


def texts(steps) -> str:
    return " ".join(s.text for s in steps)


def person(name: str, physical: int = 8, trait: str = "Quick", **kw) -> Person:
    return Person(name=name, traits={"physical": (trait,) * physical, "mental": ("Clever",) * 4}, **kw)


# ----- 1. The overbid ratio counts the caller's Traits without the bid Trait just lost -----------------------


@pytest.mark.parametrize("traits, makes", [(12, False), (13, True)])
def test_1_overbid_counts_the_callers_traits_without_the_trait_he_just_lost(traits, makes):
    """Issue 16 item 1; LotNR Overbidding (met-reference 1.5): the caller risks "a new Trait (the original one has
    already been lost)", so the double-Traits check counts his Traits without it: 12 Physical Traits after
    losing his bid against 6 count 11 (< 12, no new test); 13 count 12 (a new test)."""
    opts = challenge_options(fight(Contestant("Anton", traits, ("Brawny",)), Contestant("Bea", 6, ("Quick",)),
                                   first(R, P)))
    assert opts.side(C).may_overbid
    assert opts.side(C).overbid_makes_test is makes
    assert f"counts {traits - 1} Traits against Bea's 6" in opts.side(C).overbid_note


@pytest.mark.parametrize("traits, makes", [(14, False), (15, True)])
def test_1_in_darkness_the_penalty_comes_off_too(traits, makes):
    """Issue 16 item 1; 002 "Darkness" (two Traits down for ties and overbids) with LotNR Overbidding: 15 Traits
    in partial darkness, less the bid Trait lost and the two-Trait penalty, count 12 against 6."""
    dark = Darkness(DarknessLevel.PARTIAL)
    opts = challenge_options(fight(Contestant("Anton", traits, ("Brawny",), darkness=dark),
                                   Contestant("Bea", 6, ("Quick",)), first(R, P)))
    assert opts.side(C).overbid_makes_test is makes


def test_1_the_step_no_longer_counts_a_trait_it_calls_lost_and_the_old_reading_is_a_setting():
    """Issue 16 item 1: the explanation says the lost Trait no longer counts (it said it "stays lost" while
    counting it); the setting overbid_counts_lost_bid restores that reading (12 against 6: a new test)."""
    refused = rule_challenge(fight(Contestant("Anton", 12, ("Brawny",)), Contestant("Bea", 6, ("Quick",)),
                                   first(R, P), TCall(Call.OVERBID, by=C, trait="Tough")))
    text = texts(refused.steps)
    assert "Anton has lost Brawny in this challenge; it no longer counts." in text
    assert "Anton counts 11 Traits against Bea's 6; an overbid needs twice as many, 12: 1 short. No new test" in text
    assert "stays lost" not in text
    counted = challenge_options(fight(Contestant("Anton", 12, ("Brawny",)), Contestant("Bea", 6, ("Quick",)),
                                      first(R, P)), settings(overbid_counts_lost_bid=True))
    assert counted.side(C).overbid_makes_test


# ----- 2. Being Wounded never forbids the call; the double-Traits test still decides ---------------------------


def test_2_a_wounded_caller_may_overbid_but_the_ratio_still_decides():
    """Issue 16 item 2; LotNR Health (met-reference 4.1): a Wounded character "may always attempt to overbid",
    so the call is always allowed, but the double-Traits test of LotNR Overbidding decides: 15 Traits after
    losing his two bid Traits count 13 against 6 (a new test); 8 count 6 (none). The setting
    wounded_overbid_skips_ratio restores the old reading (always a new test)."""
    strong = challenge_options(fight(Contestant("Anton", 15, ("Brawny", "Tough"), health=Health.WOUNDED),
                                     Contestant("Bea", 6, ("Quick",)), first(R, P)))
    weak = fight(Contestant("Anton", 8, ("Brawny", "Tough"), health=Health.WOUNDED), Contestant("Bea", 6, ("Quick",)),
                 first(R, P))
    assert strong.side(C).overbid_makes_test
    assert challenge_options(weak).side(C).may_overbid
    assert not challenge_options(weak).side(C).overbid_makes_test
    assert challenge_options(weak, settings(wounded_overbid_skips_ratio=True)).side(C).overbid_makes_test


# ----- 3. Might retests brawling and melee feats of strength only ------------------------------------------------


def pistol() -> Weapon:
    return Weapon("Pistol", 2, "lethal", 2, ranged=True)


def test_3_might_never_retests_a_firearm_shot_whatever_trait_was_bid():
    """Issue 16 item 3; LotNR Potence: Might (met-reference 3.4): "not at range and not for throwing": a shooter
    leading with Brawny is not offered Might, and a call for it is refused; nor is a target defending against
    the shot. A brawl keeps it."""
    mighty = dict(powers=frozenset({Power.MIGHT}), lead=Lead.STRENGTH)
    shot = fight(Contestant("Anton", 8, ("Brawny",), weapon=pistol(), **mighty), Contestant("Bea", 6, ("Quick",)),
                 first(R, P), action="weapon")
    assert "might" not in challenge_options(shot).side(C).retests
    with pytest.raises(RulesError) as err:
        rule_challenge(shot.__class__(**{**shot.__dict__, "tests": shot.tests + (
            TCall(Call.RETEST, P, R, by=C, source="might"),)}))
    assert "never a firearm shot" in err.value.message
    shot_at = fight(Contestant("Anton", 8, ("Quick",), weapon=pistol()), Contestant("Bea", 6, ("Brawny",), **mighty),
                    first(P, R), action="weapon")
    assert "might" not in challenge_options(shot_at).side(D).retests
    brawl = fight(Contestant("Anton", 8, ("Brawny",), **mighty), Contestant("Bea", 6, ("Quick",)), first(R, P))
    assert "might" in challenge_options(brawl).side(C).retests


def test_3_a_thrown_object_and_the_armorys_firearms_are_ranged():
    """Issue 16 item 3 (met-reference 3.4): a thrown object is no feat of strength either; a stored character's
    pistol is ranged by the armory's card, so the rulings path refuses Might the same way."""
    thrown = Weapon("Brick", 0, "bashing", 1, ranged=True)
    toss = fight(Contestant("Anton", 8, ("Brawny",), weapon=thrown, powers=frozenset({Power.MIGHT}),
                            lead=Lead.STRENGTH), Contestant("Bea", 6, ("Quick",)), first(R, P), action="weapon")
    assert "might" not in challenge_options(toss).side(C).retests
    anton = person("Anton", trait="Brawny", powers=frozenset({"might"}), weapon="pistol")
    ruled = rule_one_on_one(OneOnOne(PHYSICAL, Side(anton, Choice(bid=("Brawny",))), Side(person("Bea"), Choice(bid=("Quick",))),
                                     action="weapon", tests=({"call": "test", "challenger_throw": "rock",
                                                              "defender_throw": "paper"},)))
    assert "might" not in ruled.options.side(C).retests


# ----- 4. Total darkness: every success of a blind side is retested, even when both are blind ----------------


def test_4_both_sides_blind_still_retest_each_success_by_default():
    """Issue 16 item 4; 002 "Darkness": a character in total darkness "must automatically retest any successful
    action once", whatever the other side suffers; Dark Epics' reading (no forced retest when both are blind,
    met-reference 6.1) is the setting both_blind_forced_retest = no_retest."""
    dark = Darkness(DarknessLevel.TOTAL)
    both = fight(Contestant("Anton", 8, ("Brawny",), darkness=dark), Contestant("Bea", 6, ("Quick",), darkness=dark),
                 first(P, R))
    opts = challenge_options(both)
    assert opts.forced_retest is C
    step = next(s for s in rule_challenge(both.__class__(**{**both.__dict__, "tests": both.tests + (
        TCall(Call.FORCED_RETEST, P, R, by=C),)})).steps if s.setting == "both_blind_forced_retest")
    assert step.rule == '002 "Darkness"' and "still retested once" in step.text
    assert challenge_options(both, settings(both_blind_forced_retest="no_retest")).forced_retest is None


# ----- 5. What reduces darkness: Concentration, Acute Sense; Blindfighting by setting -------------------------


def _tie_in_the_dark(mara: Person, scene: Scene, **kw):
    one = OneOnOne(PHYSICAL, Side(mara, Choice(bid=("Quick",))), Side(person("Bo", 8, "Tough"), Choice(bid=("Tough",))),
                   tests=({"call": "test", "challenger_throw": "rock", "defender_throw": "rock"},))
    return rule_one_on_one(one, scene, **kw)


@pytest.mark.parametrize("merit", ["concentration", "acute_sense"])
def test_5_concentration_and_acute_sense_reduce_the_penalty(merit):
    """Issue 16 item 5; 002 "Darkness" (its lists are missing; data/darkness.toml): under the setting
    darkness_merits = one_trait (the tool's reading before issue 30, kept as a choice), the Merit Concentration
    or Acute Sense on the sheet removes one penalty Trait in natural darkness: Mara's 9 Traits count 8 (7 without
    it), a draw against Bo's 8; the narrator may turn it off for the ruling; inside a Shroud of Night it does
    nothing (only the powers LotNR names pierce it). The LotNR default: tests/rules/test_darkness.py."""
    one = settings(darkness_merits="one_trait")
    dark = Scene(sides={"Mara": SideScene(darkness=DarknessLevel.PARTIAL)})
    with_merit = _tie_in_the_dark(person("Mara", 9, qualities=frozenset({merit})), dark, settings=one)
    assert with_merit.ruling.totals[C] == 8 and with_merit.ruling.outcome is Outcome.DRAW
    assert _tie_in_the_dark(person("Mara", 9), dark, settings=one).ruling.totals[C] == 7
    off = Scene(sides={"Mara": SideScene(darkness=DarknessLevel.PARTIAL, sight={merit: False})})
    assert _tie_in_the_dark(person("Mara", 9, qualities=frozenset({merit})), off, settings=one).ruling.totals[C] == 7
    shroud = Scene(sides={"Mara": SideScene(darkness=DarknessLevel.PARTIAL, darkness_source=DarknessSource.SHROUD)})
    assert _tie_in_the_dark(person("Mara", 9, qualities=frozenset({merit})), shroud,
                            settings=one).ruling.totals[C] == 7


def test_5_blindfighting_removes_penalty_traits_unless_the_setting_gives_it_only_the_retest():
    """Issue 16 item 5; Dark Epics p.49 (met-reference 6.1): each Blindfighting level removes one penalty Trait
    (the default, as before); the setting blindfighting_retest_only (002: "an added valid retest") removes
    none: Mara's 9 Traits count 9 in partial darkness with Blindfighting x2, or 7 under the setting."""
    mara = person("Mara", 9, abilities={"Blindfighting": 2})
    dark = Scene(sides={"Mara": SideScene(darkness=DarknessLevel.PARTIAL)})
    assert _tie_in_the_dark(mara, dark).ruling.totals[C] == 9
    only = _tie_in_the_dark(mara, dark, settings=settings(blindfighting_retest_only=True))
    assert only.ruling.totals[C] == 7
    assert any(s.setting == "blindfighting_retest_only" for s in only.steps)


# ----- 6. Mass-Trauma: a single target within five feet only ------------------------------------------------------


def _shotgun_hit(band: RangeBand | None):
    shooter = person("Anton", weapon="shotgun")
    one = OneOnOne(PHYSICAL, Side(shooter, Choice(bid=("Quick",))), Side(person("Bea", 6, creature="mortal"), Choice(bid=("Quick",))),
                   action="weapon", tests=({"call": "test", "challenger_throw": "paper", "defender_throw": "rock"},))
    return rule_one_on_one(one, Scene(range=band)).hits[0]


def test_6_mass_trauma_adds_its_level_only_to_a_single_target_within_five_feet():
    """Issue 16 item 6; LotNR weapons (met-reference 3.7, T24): the shotgun's Mass-Trauma level is for a single
    target within five feet: 3 lethal on a mortal there, the card's 2 at ten feet or when nobody said."""
    assert _shotgun_hit(RangeBand.CLOSE).taken == (("lethal", 3),)
    assert _shotgun_hit(RangeBand.NEAR).taken == (("lethal", 2),)
    assert _shotgun_hit(None).taken == (("lethal", 2),)


def test_6_spray_victims_take_the_cards_damage_as_applied():
    """Issue 16 item 6; met-reference T24: a shotgun's Spray at three people 25 feet away; the two hit take the
    card's 2 levels each on their tracks (mortals: lethal), never Mass-Trauma's third."""
    firing = FiringIntoGroupsCall(firer=Side(person("Anton", weapon="shotgun")), target="Konrad", firer_throw="rock",
                    bystanders=tuple(BystanderSide(Side(person(n, 5, creature="mortal")), throw=t)
                                     for n, t in (("A", "scissors"), ("B", "scissors"), ("C", "paper"))))
    ruled = rule_firing_into_groups(firing, Scene(range=RangeBand.FAR))
    assert ruled.ruling.fire is Fire.GROUP
    assert [(h.target, h.taken) for h in ruled.ruling.hits] == [("A", (("lethal", 2),)), ("B", (("lethal", 2),))]
    assert [ruled.consequences.of(n).track.lethal for n in ("A", "B")] == [2, 2]
    assert ruled.consequences.of("C").track is None


# ----- 7. Spray needs distance --------------------------------------------------------------------------------


def test_7_a_spray_needs_its_distance_closer_it_is_one_shot():
    """Issue 16 item 7; met-reference 6.2 (LotNR Spray): a deliberate Spray from a shotgun reaches targets more
    than twenty feet away, from a submachine gun beyond ten feet; closer (or at a range not said), it is an
    ordinary single-target shot. Dark Epics (setting spray_limits): more than five feet, three targets at most.
    (Issue 30 item 2: a missed blast or burst is a mass challenge at any range under 002's reading, the default;
    the distances are a deliberate Spray's, and every Spray's under the LotNR and Dark Epics readings.)"""
    assert fire_of("shotgun", band=RangeBand.MID, deliberate=True) is Fire.SINGLE
    assert fire_of("shotgun", band=RangeBand.FAR, deliberate=True) is Fire.GROUP
    assert fire_of("shotgun", deliberate=True) is Fire.SINGLE
    assert fire_of("smg", band=RangeBand.NEAR, deliberate=True) is Fire.SINGLE
    assert fire_of("smg", band=RangeBand.MID, deliberate=True) is Fire.GROUP
    lotnr = settings(spray_limits="lotnr")
    assert fire_of("shotgun", band=RangeBand.MID, settings=lotnr) is Fire.SINGLE
    de = settings(spray_limits="dark_epics")
    assert fire_of("shotgun", band=RangeBand.NEAR, settings=de) is Fire.GROUP
    assert fire_of("smg", band=RangeBand.CLOSE, settings=de) is Fire.SINGLE
    five = tuple(Bystander(Contestant(n, 5, ("Quick",)), throw=S) for n in "ABCDE")
    lotnr_reach = play_shot_into_group(ShotIntoGroup(Contestant("Ruth", 8, ("Steady",) * 5), "smg", "Konrad", five,
                                            firer_throw=R, range=RangeBand.FAR))
    assert [b.tested for b in lotnr_reach.bystanders] == [True] * 5
    dark_epics = play_shot_into_group(ShotIntoGroup(Contestant("Ruth", 8, ("Steady",) * 3), "smg", "Konrad", five,
                                           firer_throw=R, range=RangeBand.FAR), de)
    assert [b.tested for b in dark_epics.bystanders] == [True, True, True, False, False]


def test_7_the_bystanders_screen_path_reads_the_range_from_the_scene():
    """Issue 16 item 7 (met-reference 6.2): through the rulings entry point, a shotgun's deliberate Spray at a
    group fifteen feet away makes single tests, closest first; the step says why. Issue 30 item 2: missed, the
    same blast is one mass challenge (002's reading of spray_limits, the default)."""
    firing = FiringIntoGroupsCall(firer=Side(person("Anton", weapon="shotgun")), target="Konrad", deliberate_spray=True,
                    bystanders=(BystanderSide(Side(person("A", 5)), throw="scissors", firer_throw="rock"),))
    ruled = rule_firing_into_groups(firing, Scene(range=RangeBand.MID))
    assert ruled.ruling.fire is Fire.SINGLE
    assert "sprays only at targets more than 20 feet away" in texts(ruled.ruling.steps)
    missed = rule_firing_into_groups(replace(firing, deliberate_spray=False, firer_throw="rock"), Scene(range=RangeBand.MID))
    assert missed.ruling.fire is Fire.GROUP


# ----- 8. Bystander tests cost nothing unless a setting says so ------------------------------------------------


def _two_near(**kw) -> ShotIntoGroup:
    return ShotIntoGroup(Contestant("Ruth", 0, ()), "pistol", "Konrad",
                     (Bystander(Contestant("Pim", 5, ("Quick",)), throw=P, firer_throw=R),
                      Bystander(Contestant("Lys", 5, ("Nimble",)), throw=S, firer_throw=R)), **kw)


def test_8_a_firer_with_no_traits_left_still_has_the_bystanders_tested():
    """Issue 16 item 8; 002 "Firing Guns into Groups of People": "have the firer perform a test against each
    person": a test, so Ruth, who spent her last Physical Trait on the missed shot, still has Pim and Lys
    tested; Lys is hit and takes the damage; nobody loses a Trait."""
    ruling = play_shot_into_group(_two_near())
    assert [(b.name, b.tested, b.hit) for b in ruling.bystanders] == [("Pim", True, False), ("Lys", True, True)]
    assert ruling.traits_lost == {}
    assert any(s.setting == "stray_tests_cost_firer" and "risks no Trait" in s.text for s in ruling.steps)


def test_8_the_settings_make_the_firer_and_the_bystanders_pay():
    """Issue 16 item 8: under stray_tests_cost_firer the firer risks a Trait in each test (Ruth has none left:
    refused); under stray_hit_costs_bystander the bystander hit loses the Trait bid."""
    with pytest.raises(RulesError):
        play_shot_into_group(_two_near(), settings(stray_tests_cost_firer=True))
    ruling = play_shot_into_group(_two_near(), settings(stray_hit_costs_bystander=True))
    assert ruling.traits_lost == {"Lys": ("Nimble",)}


# ----- 9. One Physical challenge per target per turn (Dark Epics) ------------------------------------------------


def _six_hand_to_hand() -> MassChallenge:
    return MassChallenge(Defender(Contestant("Dana", 9, ("Quick",) * 6), R),
                         tuple(Attacker(Contestant(f"A{i}", 5, ("Brawny",)), throw=S) for i in range(6)))


def test_9_a_sixth_attacker_waits_or_picks_another_target():
    """Issue 16 item 9; 002 "Mass Combat": "a maximum of five characters can engage the same target in hand to
    hand": the sixth waits, or picks another target (not "another challenge"); with Dark Epics' one Physical
    challenge per target per turn (setting), the sixth waits for the next turn."""
    with pytest.raises(RulesError) as err:
        play_mass_challenge(_six_hand_to_hand())
    assert "A5 would be the 6th. A5 waits, or picks another target." in err.value.message
    assert "another challenge" not in err.value.message
    with pytest.raises(RulesError) as err:
        play_mass_challenge(_six_hand_to_hand(), settings(one_physical_challenge_per_turn=True))
    assert "waits for the next turn" in err.value.message


def test_9_one_physical_challenge_per_turn_forbids_the_surprise_second_challenge():
    """Issue 16 item 9; Dark Epics p.71 (met-reference 3.1): a character is subject to at most one Physical
    challenge a turn, so under that setting a challenger who surprised his target and lost gets no second
    challenge (LotNR Surprise gives one otherwise, item 12)."""
    surprise = fight(Contestant("Anton", 8, ("Brawny",)), Contestant("Bea", 6, ("Quick",)), first(R, P),
                     surprised=True)
    assert challenge_options(surprise).side(C).may_second_challenge
    opts = challenge_options(surprise, settings(one_physical_challenge_per_turn=True))
    assert not opts.side(C).may_second_challenge


# ----- 10. Intensity against a mob -------------------------------------------------------------------------------


def _intensity_mob() -> MassChallenge:
    dana = Contestant("Dana", 6, ("Potence", "Quick"), powers=frozenset({Power.INTENSITY}), lead=Lead.SPEED)
    return MassChallenge(Defender(dana, R), (Attacker(Contestant("A1", 5, ("Quick",)), throw=S),
                                             Attacker(Contestant("A2", 5, ("Quick",)), throw=R)))


def test_10_a_mobs_target_uses_intensity_against_any_attackers():
    """Issue 16 item 10; 002 "Mass Combat": the target bids "one less than this if he has Intensity from
    Potence", with no condition: Dana, leading with Quick, bids Potence and one real Trait against two
    attackers; Potence is never lost. The strength-only reading (LotNR Intensity) is the setting."""
    ruling = play_mass_challenge(_intensity_mob())
    assert "Potence" not in ruling.traits_lost.get("Dana", ())
    assert any(s.setting == "intensity_in_mobs" for s in ruling.steps)
    with pytest.raises(RulesError) as err:
        play_mass_challenge(_intensity_mob(), settings(intensity_in_mobs="strength"))
    assert err.value.field == "defender.bid"


# ----- 11. The Bomb exists only when announced before the challenge ----------------------------------------------


def test_11_the_bomb_needs_its_announcement_before_the_challenge():
    """Issue 16 item 11; LotNR Vigor (met-reference 1.2): "You must state before the Physical Challenge that you
    can use it": Teodor's Bomb is refused unannounced; announced, it is allowed and the step says so."""
    vigor = dict(powers=frozenset({Power.VIGOR}), lead=Lead.STRENGTH)
    silent = fight(Contestant("Teodor", 8, ("Brawny",), **vigor), Contestant("Bea", 6, ("Quick",)), first(B, P))
    assert B not in allowed_throws(silent, C)
    with pytest.raises(RulesError) as err:
        rule_challenge(silent)
    assert "not announced before the challenge" in err.value.message
    told = fight(Contestant("Teodor", 8, ("Brawny",), bomb_announced=True, **vigor), Contestant("Bea", 6, ("Quick",)),
                 first(B, P))
    ruling = rule_challenge(told)
    assert ruling.outcome is C
    assert "Teodor announces before the challenge that Teodor can throw the Bomb (Vigor)." in texts(ruling.steps)


# ----- 12. Surprise: a second challenge after a lost first test -------------------------------------------------


def test_12_a_challenger_who_surprised_and_lost_may_risk_another_trait_for_a_second_challenge():
    """Issue 16 item 12; LotNR Surprise (met-reference 3.1): "If the challenger loses that test, they may call a
    second challenge by risking another Trait; normal rules then resume": Anton loses Brawny on the first test,
    risks Tough and wins the second: Bea takes the blow and loses Quick."""
    tests = (first(R, P), TCall(Call.SECOND_CHALLENGE, P, R, by=C, trait="Tough"))
    ruling = rule_challenge(fight(Contestant("Anton", 8, ("Brawny",)), Contestant("Bea", 6, ("Quick",)), *tests,
                                  surprised=True))
    assert ruling.outcome is C
    assert ruling.lost_by(C) == ("Brawny",) and ruling.lost_by(D) == ("Quick",)
    assert [(d.target, d.levels) for d in ruling.damage] == [(D, 1)]
    assert any(s.rule == "LotNR Surprise (met-reference 3.1)" and "second challenge" in s.text for s in ruling.steps)


def test_12_after_the_second_challenge_the_normal_rules_resume():
    """Issue 16 item 12 (met-reference 3.1): once the second challenge is called, the defender is no longer
    surprised: her win lands her declared counter-attack; no second challenge without surprise."""
    tests = (first(R, P), TCall(Call.SECOND_CHALLENGE, R, P, by=C, trait="Tough"))
    ruling = rule_challenge(fight(Contestant("Anton", 8, ("Brawny",)), Contestant("Bea", 6, ("Quick",)), *tests,
                                  surprised=True, defender_action="strike"))
    assert ruling.outcome is D and [(d.target, d.levels) for d in ruling.damage] == [(C, 1)]
    plain = fight(Contestant("Anton", 8, ("Brawny",)), Contestant("Bea", 6, ("Quick",)), first(R, P))
    assert not challenge_options(plain).side(C).may_second_challenge
    with pytest.raises(RulesError):
        rule_challenge(plain.__class__(**{**plain.__dict__, "tests": plain.tests + (tests[1],)}))


# ----- 13. Weapons and hands: Speed, Ambidextrous, Two-Weapon --------------------------------------------------


def test_13_a_speed_weapon_with_melee_pre_empts_a_clumsy_one():
    """Issue 16 item 13; LotNR weapons: Speed (met-reference 3.7) and 002 "Challenges" (no simultaneous attack
    when one side can pre-empt): Anton's knife (Speed, with Melee) pre-empts Bea's club (Clumsy): her win stops
    the attack but her counter-attack does not land. Dark Epics' +1 Trait instead is the setting."""
    anton = person("Anton", 6, weapon="knife", abilities={"Melee": 2})
    bea = person("Bea", 6, weapon="club")
    one = OneOnOne(PHYSICAL, Side(anton, Choice(bid=("Quick",))), Side(bea, Choice(bid=("Quick",))),
                   action="weapon", defender_action="weapon",
                   tests=({"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},))
    ruled = rule_one_on_one(one)
    assert ruled.ruling.outcome is D and ruled.hits == ()
    assert any(s.setting == "speed_weapon_model" and "pre-empts" in s.text for s in ruled.steps)
    dark_epics = rule_one_on_one(one, settings=settings(speed_weapon_model="dark_epics"))
    assert [h.target for h in dark_epics.hits] == ["Anton"]
    tie = rule_one_on_one(OneOnOne(**{**one.__dict__, "tests": (
        {"call": "test", "challenger_throw": "rock", "defender_throw": "rock"},)}),
        settings=settings(speed_weapon_model="dark_epics"))
    assert tie.ruling.totals[C] == 6 + 2 + 1  # Traits, the knife's bonus, Speed


@pytest.mark.parametrize("kw, qualities, specs, risked", [
    ({"off_hand": True}, (), {}, 3),
    ({"off_hand": True}, ("ambidextrous",), {}, 1),
    ({"off_hand": True}, (), {"Melee": ("Two-Weapon (Florentine)",)}, 2),
    ({"both_hands": True}, ("ambidextrous",), {}, 2),
])
def test_13_the_off_hand_ambidextrous_and_two_weapon_from_the_sheet(kw, qualities, specs, risked):
    """Issue 16 item 13; LotNR off hand (met-reference 3.8): the off hand risks two more Traits; Ambidextrous
    removes that, but fighting with both hands costs two Traits a hand; the Two-Weapon (Florentine)
    specialisation removes one penalty Trait. Read from the sheet (Merits by key, specialisations)."""
    anton = person("Anton", 6, qualities=frozenset(qualities), specialisations=specs)
    one = OneOnOne(PHYSICAL, Side(anton, Choice(bid=("Quick",), **kw)), Side(person("Bea", 6), Choice(bid=("Quick",))),
                   tests=({"call": "test", "challenger_throw": "paper", "defender_throw": "rock"},))
    assert len(rule_one_on_one(one).challenge.challenger.bid) == risked


def test_13_ambidextrous_given_in_the_request_wins_over_the_sheet():
    """Issue 16 item 13 (met-reference 3.8): the request may say Ambidextrous outright (the stateless API)."""
    c = Contestant("Anton", 6, ("Quick",), off_hand=True, ambidextrous=True)
    assert bids_required(fight(c, Contestant("Bea", 6, ("Quick",))))[C] == 1
