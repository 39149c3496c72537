"""Tests of darkness (seed 002 "Darkness"; met-reference 6.1 and T16, T17; data/darkness.toml)."""

import pytest

from larp.paths import data_path
from larp.rules.challenge import (
    Call,
    Category,
    Challenge,
    Contestant,
    Lead,
    Outcome,
    Power,
    Throw,
    challenge_options,
    rule_challenge,
)
from larp.rules.challenge import TestCall as TCall
from larp.rules.darkness import (
    Darkness,
    DarknessLevel,
    DarknessSource,
    darkness_effect,
    darkness_table,
)
from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings

R, P, S = Throw.ROCK, Throw.PAPER, Throw.SCISSORS
C, D = Outcome.CHALLENGER, Outcome.DEFENDER
DEFAULTS = ChronicleSettings.defaults()
TOTAL = Darkness(DarknessLevel.TOTAL)
PARTIAL = Darkness(DarknessLevel.PARTIAL)


def first(ct, dt):
    return TCall(Call.TEST, ct, dt)


def forced(ct, dt):
    return TCall(Call.FORCED_RETEST, ct, dt)


def fight(a_dark, *tests, b_dark=Darkness(), a_traits=9, b_traits=8, a_abilities=None, **kw):
    a = Contestant("A", a_traits, ("Quick",), darkness=a_dark, abilities=a_abilities or {})
    b = Contestant("B", b_traits, ("Brawny",), darkness=b_dark)
    return Challenge(Category.PHYSICAL, a, b, tests=tuple(tests), **kw)


def test_the_table_says_002s_lists_are_missing():
    """002 "Darkness" announces two lists of reductions and both are missing: the data file says so and uses
    met-reference 6.1 as its defaults."""
    text = data_path("darkness.toml").read_text()
    assert "BOTH LISTS ARE" in text and "MISSING" in text and "met-reference 6.1" in text
    table = darkness_table()
    assert (table.partial, table.total, table.full_negation) == (2, 2, 4)
    assert {"blindfighting", "heightened_senses", "eyes_of_the_beast", "tongue_of_the_asp"} <= set(table.reductions)


def test_partial_darkness_two_traits_down_no_extra_traits_no_forced_retest():
    """002 "Darkness": partial darkness is two Traits down for ties and overbids (9 counts as 7), no extra Traits
    risked, and no forced retest."""
    ruling = rule_challenge(fight(PARTIAL, first(R, R)))
    assert ruling.outcome is D  # 7 against 8
    assert ruling.totals[C] == 7
    assert ruling.lost_by(C) == ("Quick",)  # one Trait bid, as usual
    assert rule_challenge(fight(PARTIAL, first(P, R))).outcome is C  # a win is not retested


def test_t16_total_darkness_forces_one_retest_of_a_win():
    """met-reference T16 (Dark Epics): A fights in absolute darkness, B can see; A wins the test: A must retest it
    once; the script without the forced retest is incomplete; the retest decides."""
    with pytest.raises(RulesError) as err:
        rule_challenge(fight(TOTAL, first(P, R)))
    assert err.value.field == "tests"
    assert challenge_options(fight(TOTAL, first(P, R))).forced_retest is C
    ruling = rule_challenge(fight(TOTAL, first(P, R), forced(R, P)))
    assert ruling.outcome is D
    assert [t.call for t in ruling.tests] == [Call.TEST, Call.FORCED_RETEST]
    with pytest.raises(RulesError):  # only once
        rule_challenge(fight(TOTAL, first(P, R), forced(P, R), forced(P, R)))
    with pytest.raises(RulesError) as err:  # the forced retest comes before anything else
        rule_challenge(fight(TOTAL, first(P, R), TCall(Call.RETEST, R, P, by=D, source="willpower")))
    assert err.value.field == "tests[1].call"


def test_t16_total_darkness_is_two_traits_down_and_blindfighting_removes_one():
    """met-reference T16 (Dark Epics p.49): in total darkness A's Traits count -2; with Blindfighting x1, -1."""
    assert rule_challenge(fight(TOTAL, first(R, R), a_traits=9)).totals[C] == 7  # B wins the tie: no retest
    ruling = rule_challenge(fight(TOTAL, first(R, R), a_traits=9, a_abilities={"Blindfighting": 1}))
    assert ruling.totals[C] == 8
    assert ruling.outcome is Outcome.DRAW


def test_t16_expending_blindfighting_skips_the_forced_retest():
    """met-reference T16 (Dark Epics p.49; 002 "an appropriate ability"): expending a Blindfighting level removes
    the forced retest for the turn; a level already expended this turn costs nothing more."""
    dark = Darkness(DarknessLevel.TOTAL, waive_retest="Blindfighting")
    ruling = rule_challenge(fight(dark, first(P, R), a_abilities={"Blindfighting": 1}))
    assert ruling.outcome is C
    assert ruling.spent_by(C).abilities == (("Blindfighting", 1),)
    paid = Darkness(DarknessLevel.TOTAL, waive_retest="Blindfighting", waived_this_turn=True)
    assert rule_challenge(fight(paid, first(P, R))).spent_by(C).abilities == ()
    with pytest.raises(RulesError) as err:
        rule_challenge(fight(dark, first(P, R), a_abilities={"Blindfighting": 0}))
    assert err.value.field == "challenger_darkness"
    with pytest.raises(RulesError):
        rule_challenge(fight(Darkness(DarknessLevel.TOTAL, waive_retest="Brawl"), first(P, R)))


def test_t16_no_forced_retest_when_both_are_blind():
    """met-reference T16 (Dark Epics p.71): if B also suffers the same darkness, no forced retest for either,
    under the setting ``both_blind_forced_retest`` = ``no_retest`` (002 "Darkness", the default, retests)."""
    ruling = rule_challenge(fight(TOTAL, first(P, R), b_dark=TOTAL),
                            ChronicleSettings.from_overrides({"both_blind_forced_retest": "no_retest"}))
    assert ruling.outcome is C
    assert any("no forced retest for either" in s.text for s in ruling.steps)


def test_t17_shroud_with_eyes_of_the_beast_is_one_trait_down_and_still_retests():
    """met-reference T17 (LotNR Shroud of Night): a victim with Eyes of the Beast is -1 (not -2); the forced
    retest still applies."""
    shroud = Darkness(DarknessLevel.TOTAL, DarknessSource.SHROUD, reductions=("eyes_of_the_beast",))
    with pytest.raises(RulesError):
        rule_challenge(fight(shroud, first(P, R)))
    ruling = rule_challenge(fight(shroud, first(P, R), forced(S, P)))
    assert ruling.outcome is C and ruling.totals[C] == 8


def test_reductions_worth_four_traits_remove_every_total_darkness_penalty():
    """002 "Darkness": reductions worth four Traits remove every total-darkness penalty, the forced retest
    included: Eyes of the Beast in natural darkness; or Blindfighting x3 plus Heightened Senses."""
    beast = Darkness(DarknessLevel.TOTAL, reductions=("eyes_of_the_beast",))
    ruling = rule_challenge(fight(beast, first(P, R)))
    assert ruling.outcome is C and ruling.totals[C] == 9
    senses = Darkness(DarknessLevel.TOTAL, reductions=("heightened_senses",))
    effect = darkness_effect(senses, {"Blindfighting": 3}, DEFAULTS, "A")
    assert (effect.penalty, effect.reduction, effect.forced_retest) == (0, 4, False)
    effect = darkness_effect(senses, {"Blindfighting": 2}, DEFAULTS, "A")
    assert (effect.penalty, effect.reduction, effect.forced_retest) == (0, 3, True)


def test_heightened_senses_in_natural_darkness_is_a_setting():
    """met-reference 8.2 #15 (hs_dark_reduction, default 1): Heightened Senses removes 1 penalty Trait in natural
    darkness; a chronicle may make it 2; inside Shroud of Night it is 1 (LotNR)."""
    senses = Darkness(DarknessLevel.PARTIAL, reductions=("heightened_senses",))
    assert darkness_effect(senses, {}, DEFAULTS).penalty == 1
    two = ChronicleSettings.from_overrides({"hs_dark_reduction": 2})
    effect = darkness_effect(senses, {}, two)
    assert effect.penalty == 0 and any(s.setting == "hs_dark_reduction" for s in effect.steps)
    shroud = Darkness(DarknessLevel.PARTIAL, DarknessSource.SHROUD, reductions=("heightened_senses",))
    assert darkness_effect(shroud, {}, two).penalty == 1


def test_tongue_of_the_asp_and_own_shroud():
    """met-reference 6.1: Tongue of the Asp is -1 penalty Trait in natural darkness only; the caster of a Shroud
    of Night sees through it."""
    asp = Darkness(DarknessLevel.TOTAL, reductions=("tongue_of_the_asp",))
    assert darkness_effect(asp, {}, DEFAULTS).penalty == 1
    assert darkness_effect(Darkness(DarknessLevel.TOTAL, DarknessSource.SHROUD, ("tongue_of_the_asp",)), {},
                           DEFAULTS).penalty == 2
    own = darkness_effect(Darkness(DarknessLevel.TOTAL, DarknessSource.SHROUD, ("own_shroud",)), {}, DEFAULTS)
    assert (own.penalty, own.forced_retest) == (0, False)


def test_unknown_reduction_is_an_error_naming_the_field():
    """data/darkness.toml: a reduction not in the table is a RulesError naming the side's darkness field."""
    with pytest.raises(RulesError) as err:
        rule_challenge(fight(Darkness(DarknessLevel.PARTIAL, reductions=("cat_eyes",)), first(R, R)))
    assert err.value.field == "challenger_darkness"


def test_darkness_scope_setting():
    """met-reference 8.2 #16 (darkness_scope; default all, 002 "a two trait penalty on all actions"): with
    'sight', a challenge not needing sight has no darkness penalty; with 'combat', only combat challenges."""
    assert rule_challenge(fight(PARTIAL, first(R, R), needs_sight=False)).outcome is D
    sight = ChronicleSettings.from_overrides({"darkness_scope": "sight"})
    ruling = rule_challenge(fight(PARTIAL, first(R, R), needs_sight=False), sight)
    assert ruling.outcome is C and any(s.setting == "darkness_scope" for s in ruling.steps)
    combat = ChronicleSettings.from_overrides({"darkness_scope": "combat"})
    talk = Challenge(Category.SOCIAL, Contestant("A", 9, ("Witty",), darkness=PARTIAL),
                     Contestant("B", 8, ("Dignified",)), action="other", tests=(first(R, R),))
    assert rule_challenge(talk, combat).outcome is C
    assert rule_challenge(talk).outcome is D


def test_blindfighting_is_a_valid_retest_in_darkness_only():
    """002 "Darkness": Blindfighting can be used as an added valid retest (in addition to Brawl...) in the dark;
    in the light it is not."""
    retest = TCall(Call.RETEST, P, R, by=C, source="ability:Blindfighting")
    brawl = TCall(Call.RETEST, R, P, by=C, source="ability:Brawl")
    abilities = {"Blindfighting": 2, "Brawl": 1}
    ruling = rule_challenge(fight(PARTIAL, first(R, P), brawl, retest, a_abilities=abilities))
    assert ruling.outcome is C
    assert ruling.spent_by(C).abilities == (("Blindfighting", 1), ("Brawl", 1))
    with pytest.raises(RulesError) as err:
        rule_challenge(fight(Darkness(), first(R, P), retest, a_abilities=abilities))
    assert "only in darkness" in err.value.message


def test_waiver_with_no_level_left_falls_back_to_the_forced_retest():
    """002 "Darkness" / Dark Epics p.49: the forced retest is skipped only by expending a level; a character who
    spent his last Blindfighting level on a retest must make the forced retest when he then wins."""
    dark = Darkness(DarknessLevel.TOTAL, waive_retest="Blindfighting")
    blind_retest = TCall(Call.RETEST, P, R, by=C, source="ability:Blindfighting")
    with pytest.raises(RulesError):
        rule_challenge(fight(dark, first(R, P), blind_retest, a_abilities={"Blindfighting": 1}))
    ruling = rule_challenge(fight(dark, first(R, P), blind_retest, forced(P, R), a_abilities={"Blindfighting": 1}))
    assert ruling.outcome is C
    assert ruling.spent_by(C).abilities == (("Blindfighting", 1),)
    assert any("no Blindfighting level left" in s.text for s in ruling.steps)


def test_might_in_total_darkness_still_gets_the_forced_retest():
    """LotNR Might (the last test of the challenge) and 002 "Darkness" (every success retested once, automatically):
    a Might retest won in total darkness is still retested once; nothing else may follow."""
    mighty = Contestant("A", 6, ("Brawny",), lead=Lead.STRENGTH, powers=frozenset({Power.MIGHT}), darkness=TOTAL)
    b = Contestant("B", 8, ("Quick",), abilities={"Brawl": 1})
    might = TCall(Call.RETEST, P, R, by=C, source="might")
    ruling = rule_challenge(Challenge(Category.PHYSICAL, mighty, b, tests=(first(R, P), might, forced(S, R))))
    assert ruling.outcome is D
    with pytest.raises(RulesError):
        rule_challenge(Challenge(Category.PHYSICAL, mighty, b, tests=(
            first(R, P), might, forced(S, P), TCall(Call.RETEST, P, R, by=D, source="ability:Brawl"))))


# ----- issue 30 item 3: Concentration and Acute Sense by LotNR (setting darkness_merits) ---------------------


def test_concentration_suffers_none_of_the_penalty_in_natural_darkness():
    """Issue 30 item 3; LotNR Merits, Concentration: "Whenever penalty Traits are assigned for some outside
    phenomenon ... you suffer none of the penalty" (setting darkness_merits, default lotnr): in total natural
    darkness A (9) counts 9 against B's 8 and wins the tie. The forced retest is no penalty Trait: it stays, and
    Concentration does not count toward the four Traits that would remove it. Inside a Shroud of Night it
    removes nothing."""
    total = Darkness(DarknessLevel.TOTAL, reductions=("concentration",))
    ruling_opts = challenge_options(fight(total, first(R, R)))
    assert ruling_opts.forced_retest is C
    ruling = rule_challenge(fight(total, first(R, R), forced(R, S)))
    assert ruling.totals[C] == 9 and ruling.outcome is C
    step = next(s for s in ruling.steps if s.setting == "darkness_merits")
    assert "removes 2 penalty Traits" in step.text and "not the forced retest" in step.text
    with_more = darkness_effect(Darkness(DarknessLevel.TOTAL, reductions=("concentration", "heightened_senses")),
                                {"Blindfighting": 1}, DEFAULTS, "A")
    assert (with_more.penalty, with_more.forced_retest) == (0, True)  # 1 + 1 counted toward 4, not Concentration
    shroud = darkness_effect(Darkness(DarknessLevel.PARTIAL, DarknessSource.SHROUD, ("concentration",)), {},
                             DEFAULTS, "A")
    assert shroud.penalty == 2


def test_the_tools_earlier_values_stay_a_choice():
    """Issue 30 item 3: darkness_merits = one_trait keeps the values before: Concentration and Acute Sense each
    remove one penalty Trait in natural darkness, and Acute Sense gives no bonus of its own."""
    one = ChronicleSettings.from_overrides({"darkness_merits": "one_trait"})
    for key in ("concentration", "acute_sense"):
        effect = darkness_effect(Darkness(DarknessLevel.TOTAL, reductions=(key,)), {}, one, "A")
        assert (effect.penalty, effect.forced_retest) == (1, True), key
    a = Contestant("A", 8, ("Quick",), acute_senses=frozenset({"hearing"}))
    b = Contestant("B", 8, ("Brawny",))
    heard = Challenge(Category.MENTAL, a, b, action="other", sense="hearing", tests=(first(R, R),))
    assert rule_challenge(heard, one).outcome is Outcome.DRAW


def test_acute_sense_is_two_traits_up_on_tests_of_its_sense_in_light_too():
    """Issue 30 item 3; LotNR Merits, Acute Sense: "In all tests with that sense, you are two Traits up on
    challenge-resolution" (met-reference 1.3 "Acute Senses (+2)"), for any sense, in light as in darkness, when
    the narrator names the sense the challenge depends on: A (8, Acute Sense: hearing) against B (9) in a
    hearing test counts 10 and wins the tie; in a sight test, or with no sense named, 8 and loses. In natural
    darkness the Merit itself removes no penalty Trait under LotNR: a sight test with Acute Sense (sight) in
    total darkness counts 8 - 2 + 2 = 8."""
    a = Contestant("A", 8, ("Quick",), acute_senses=frozenset({"hearing"}))
    b = Contestant("B", 9, ("Brawny",))

    def tie(sense, side=a):
        return rule_challenge(Challenge(Category.MENTAL, side, b, action="other", sense=sense, tests=(first(R, R),)))

    heard = tie("hearing")
    assert heard.totals[C] == 10 and heard.outcome is C
    assert any(s.setting == "darkness_merits" and "A is 2 Traits up" in s.text for s in heard.steps)
    assert tie("sight").totals[C] == 8 and tie("sight").outcome is D
    assert tie("").outcome is D
    eyes = Contestant("A", 8, ("Quick",), acute_senses=frozenset({"sight"}),
                      darkness=Darkness(DarknessLevel.TOTAL, reductions=("acute_sense",)))
    dark = tie("sight", eyes)
    assert dark.totals[C] == 8
    assert darkness_effect(Darkness(DarknessLevel.TOTAL, reductions=("acute_sense",)), {}, DEFAULTS).penalty == 2


def test_the_sense_is_read_from_the_words_a_sheet_uses():
    """Issue 30 item 3; LotNR Acute Sense ("specify which one"): the senses are data/senses.toml; a Merit's note
    "Keen ears and smell" names hearing and smell, "Sight" names sight; an unknown sense is refused with its field
    named, and a challenge names its sense by key."""
    from larp.rules.senses import sense_named, senses_in_note, senses_named

    assert senses_in_note("Keen ears and smell") == {"hearing", "smell"}
    assert senses_named(["Sight", "ears"]) == {"sight", "hearing"}
    assert sense_named("Sight") == "sight" and sense_named("") == ""
    with pytest.raises(RulesError) as err:
        sense_named("echolocation", "scene.sense")
    assert err.value.field == "scene.sense"
    a = Contestant("A", 8, ("Alert",), acute_senses=frozenset({"hearing"}))
    with pytest.raises(RulesError) as err:
        rule_challenge(Challenge(Category.MENTAL, a, Contestant("B", 9, ("Clever",)), action="other", sense="ears",
                                 tests=(first(R, R),)))
    assert err.value.field == "sense"


def test_every_ruling_reads_the_sense_from_the_scene():
    """Issue 30 item 3 (one composition path): the scene names the sense; a one-on-one challenge and each pair of
    a mass challenge give the side with Acute Sense for it two Traits up (LotNR Acute Sense)."""
    from larp.rules.rulings import Choice, MassChallengeCall, MassAttacker, MassTarget, OneOnOne, Person, Side, rule_mass_challenge, \
        rule_one_on_one
    from larp.rules.scene import Scene

    def person(name, n, **kw):
        return Person(name, traits={"mental": ("Alert",) * n, "physical": ("Quick",) * n}, **kw)

    ears = person("Ida", 8, acute_senses=frozenset({"hearing"}))
    one = OneOnOne(Category.MENTAL, Side(ears, Choice(bid=("Alert",))), Side(person("Bo", 9), Choice(bid=("Alert",))),
                   action="other", tests=({"call": "test", "challenger_throw": "rock", "defender_throw": "rock"},))
    assert rule_one_on_one(one, Scene(sense="hearing")).ruling.totals[C] == 10
    assert rule_one_on_one(one, Scene()).ruling.totals[C] == 8
    mass_call = MassChallengeCall(MassTarget(Side(ears, Choice(bid=("Quick",))), "rock"),
              (MassAttacker(Side(person("Bo", 9), Choice(bid=("Quick",))), throw="rock"),))
    assert rule_mass_challenge(mass_call, Scene(sense="hearing")).ruling.pair("Bo").ruling.totals[D] == 10


def test_no_step_promises_a_forced_retest_that_does_not_come():
    """Issue 30 (oddities); 002 "Darkness" and Dark Epics p.71 (setting both_blind_forced_retest = no_retest):
    when both sides suffer the same total darkness, no step says a success "is retested once"; the one that
    decides says there is none. With one side blind, the step says his success is retested."""
    no_retest = ChronicleSettings.from_overrides({"both_blind_forced_retest": "no_retest"})
    both = rule_challenge(fight(TOTAL, first(R, S), b_dark=TOTAL), no_retest)
    texts = [s.text for s in both.steps]
    assert not any("retested once" in t for t in texts), texts
    assert any("no forced retest for either" in t for t in texts)
    alone = challenge_options(fight(TOTAL, first(R, S)))
    assert alone.forced_retest is C
    one = rule_challenge(fight(TOTAL, first(R, S), forced(S, P)))
    assert any(t.text == "A is in total darkness: a success by A is retested once." for t in one.steps)
