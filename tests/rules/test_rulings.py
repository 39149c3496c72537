"""Tests of the rulings' composition (issue 15, larp/rules/rulings and larp/rules/scene.py): the
people as they stand tonight and the scene make every ruling the same way, with all its consequences."""

from __future__ import annotations

import random

import pytest

from larp.rules.challenge import Category, Health, Kind, Lead, Outcome
from larp.rules.darkness import DarknessLevel, DarknessSource
from larp.rules.explain import RulesError
from larp.rules.fortitude import FortitudeTest
from larp.rules.rulings import (
    Choice,
    HandDamage,
    OneOnOne,
    Person,
    Side,
    rule_damage_by_hand,
    rule_one_on_one,
    rule_static,
)
from larp.rules.rulings.people import (
    check_can_act,
    lead_for,
    person_track,
    sight_reductions,
)
from larp.rules.scene import RangeBand, Scene, SideScene, Worn, best_armor, scene_from_dict
from larp.rules.settings import ChronicleSettings
from larp.rules.simple_test import SimpleTest
from larp.rules.challenge import Throw

SETTINGS = ChronicleSettings.defaults()


def person(name: str, traits=("Brawny", "Brawny", "Quick", "Tough"), **kw) -> Person:
    return Person(name=name, traits={"physical": tuple(traits)}, **kw)


def first(ct: str, dt: str) -> dict:
    return {"call": "test", "challenger_throw": ct, "defender_throw": dt}


def test_mettle_adds_a_healthy_level_to_the_track():
    """met-reference 3.5: Fortitude's Mettle adds one Healthy level, by the power's name or by Fortitude 2."""
    assert person_track(person("A"), SETTINGS).levels[:3] == ("Healthy", "Healthy", "Bruised")
    for who in (person("A", powers=frozenset({"mettle"})), person("A", disciplines={"Fortitude": 2})):
        assert person_track(who, SETTINGS).levels[:3] == ("Healthy",) * 3


def test_sight_powers_are_active_from_the_sheet_unless_turned_off():
    """002 "Darkness" (data/darkness.toml, met-reference 6.1): a sight power the sheet holds reduces the
    penalty by default; the scene turns it off or on for one ruling; a Shroud's caster sees through it."""
    lys = person("Lys", powers=frozenset({"eyes of the beast"}))
    assert sight_reductions(lys, SideScene()) == ("eyes_of_the_beast",)
    assert sight_reductions(lys, SideScene(sight={"eyes_of_the_beast": False})) == ()
    assert sight_reductions(person("P"), SideScene(sight={"heightened_senses": True})) == ("heightened_senses",)
    assert sight_reductions(person("I"), SideScene(shroud_caster=True)) == ("own_shroud",)


def test_armor_does_not_stack():
    """met-reference 3.7 (Dark Epics): armor does not stack: the piece with the most levels left counts."""
    assert best_armor((Worn("ballistic_vest"), Worn("plate"))) == Worn("plate")
    assert best_armor((Worn("plate", 0), Worn("ballistic_vest"))) == Worn("ballistic_vest")
    assert best_armor(()) is None
    with pytest.raises(RulesError):
        best_armor((Worn("plate", 4),))


def test_the_lead_comes_from_the_trait_unless_given():
    """met-reference 1.1 (data/trait_leads.toml): a strength Trait tests strength, Intensity's Potence too;
    an explicit lead wins; outside Physical challenges the lead is "other"."""
    assert lead_for(Choice(bid=("Brawny",)), Category.PHYSICAL) is Lead.STRENGTH
    assert lead_for(Choice(bid=("Quick",)), Category.PHYSICAL) is Lead.SPEED
    assert lead_for(Choice(bid=("Potence",)), Category.PHYSICAL) is Lead.STRENGTH
    assert lead_for(Choice(bid=("Brawny",), lead=Lead.OTHER), Category.PHYSICAL) is Lead.OTHER
    assert lead_for(Choice(bid=("Brawny",)), Category.SOCIAL) is Lead.OTHER


def test_who_cannot_act_is_refused_naming_the_side():
    """LotNR Health (met-reference 4.1) and 000 "Stake Through Heart": Incapacitated, torpid or staked
    characters take part in no challenge."""
    for who in (person("A", lethal=7), person("A", condition="torpor"), person("A", staked=True)):
        with pytest.raises(RulesError) as err:
            check_can_act(who, person_track(who, SETTINGS), "defender")
        assert err.value.field == "defender"


def test_a_one_on_one_computes_every_consequence():
    """002 "Ties", LotNR Retests (met-reference 2.1), 002 "Damage and Healing": a Wounded defender
    risks two Traits (the tool picks the second, from what he has most of), retests with Brawl and loses
    again: he loses both Traits and a Brawl level; the winner's bare-handed blow is halved for a vampire,
    at least one level, and lands on his track."""
    a = Side(person("Anna"), Choice(bid=("Quick",)))
    b = Side(person("Ben", abilities={"Brawl": 2}, lethal=5), Choice(bid=("Tough",)))
    one = OneOnOne(Category.PHYSICAL, a, b, tests=(first("rock", "scissors"), {
        "call": "retest", "by": "defender", "source": "ability:Brawl", "challenger_throw": "paper",
        "defender_throw": "rock"}))
    result = rule_one_on_one(one, Scene(), SETTINGS, random.Random(1))
    assert result.challenge.defender.bid == ("Tough", "Brawny")
    ben = result.consequences.of("Ben")
    assert ben.lost_in("physical") == ("Tough", "Brawny") and ben.abilities == (("Brawl", 1),)
    assert ben.track is not None and ben.track.lethal == 5 and ben.track.bashing == 1
    assert result.consequences.of("Anna").empty
    assert result.summary == "Anna wins: Ben loses Tough, Brawny and takes 1 bashing."


def test_the_scene_puts_darkness_on_one_side_only():
    """002 "Darkness" and LotNR Shroud of Night (met-reference 6.1): one contestant inside a Shroud of
    Night, the other outside: only he is two Traits down and must retest a win."""
    a = Side(person("Inside"), Choice(bid=("Quick",)))
    b = Side(person("Outside"), Choice(bid=("Quick",)))
    scene = Scene(sides={"Inside": SideScene(darkness=DarknessLevel.TOTAL, darkness_source=DarknessSource.SHROUD)})
    result = rule_one_on_one(OneOnOne(Category.PHYSICAL, a, b, tests=(first("rock", "scissors"),)), scene, SETTINGS)
    assert result.ruling is None and result.options.forced_retest.value == "challenger"
    assert result.needs_decision
    assert any("Inside is in total darkness (Shroud of Night)" in s.text for s in result.steps)
    assert not any(s.text.startswith("Outside is in") for s in result.steps)


def test_full_auto_adds_a_level_within_five_feet_of_the_scene():
    """met-reference 3.7: Full-Auto adds a level within five feet when the clip is emptied (issue 30); the scene's
    range band says how far."""
    smg = Person("Gunner", traits={"physical": ("Quick", "Steady")}, weapon="smg")
    target = person("Target", creature="mortal")
    one = OneOnOne(Category.PHYSICAL, Side(smg, Choice(bid=("Quick",), full_auto=True)),
                   Side(target, Choice(bid=("Quick",))), action="weapon", tests=(first("rock", "scissors"),))
    far = rule_one_on_one(one, Scene(range=RangeBand.FAR), SETTINGS)
    close = rule_one_on_one(one, Scene(range=RangeBand.CLOSE), SETTINGS)
    assert close.hits[0].levels == far.hits[0].levels + 1
    assert any("Full-Auto, the clip emptied within five feet" in s.text for s in close.steps)


def test_armor_piercing_rounds_and_fire_ignore_armor_by_hand():
    """met-reference 3.7 (Armor-Piercing) and 000 "Armor" (not fire or sunlight): damage by hand on a
    character in plate: plate takes 3 of 4 lethal; armor-piercing rounds or fire go straight through."""
    knight = Person("Knight", creature="mortal", armor=(Worn("plate"),))
    plain = rule_damage_by_hand(knight, HandDamage("lethal", 4), None, SETTINGS)
    assert plain.taken.parts == (("lethal", 1),) and plain.consequences.of("Knight").armor_left == (("plate", 0),)
    piercing = rule_damage_by_hand(knight, HandDamage("lethal", 4, armor_piercing=True), None, SETTINGS)
    assert piercing.taken.parts == (("lethal", 4),)
    assert any("Armor-Piercing" in s.text for s in piercing.taken.steps)
    fire = rule_damage_by_hand(knight, HandDamage("aggravated", 2, source="fire"), None, SETTINGS)
    assert fire.taken.parts == (("lethal", 2),) and any("does not protect against fire" in s.text
                                                        for s in fire.taken.steps)
    used_up = rule_damage_by_hand(knight, HandDamage("lethal", 2), Scene(sides={"Knight": SideScene(
        armor=(Worn("plate", 0),))}), SETTINGS)
    assert used_up.taken.parts == (("lethal", 2),) and any("used up" in s.text for s in used_up.taken.steps)


def test_a_fortitude_test_by_hand_spends_a_stamina_trait():
    """met-reference 3.5 and T21: Resilience with a stamina Trait spent: the Trait he has most of among the
    stamina-related ones (data/trait_leads.toml) is lost for the game session."""
    who = Person("Aldous", traits={"physical": ("Enduring", "Enduring", "Resilient", "Tough")},
                 disciplines={"Fortitude": 3})
    test = FortitudeTest(SimpleTest(Throw.ROCK, Throw.ROCK), stamina_trait_spent=True)
    result = rule_damage_by_hand(who, HandDamage("aggravated", 2, resilience=test, stamina=True), None, SETTINGS)
    assert result.stamina_trait == "Enduring"
    assert result.consequences.of("Aldous").traits_lost == (("physical", "Enduring"),)
    assert result.health.track.aggravated == 1 and result.health.track.lethal == 1


def test_a_static_challenge_is_against_a_narrator():
    """LotNR Static Challenges (met-reference 1.6): the narrator's difficulty decides a tie; a defender
    given is refused."""
    who = Side(person("Ruth", traits=("Steady",) * 7), Choice(bid=("Steady",)))
    one = OneOnOne(Category.PHYSICAL, who, kind=Kind.STATIC, action="other", difficulty=8,
                   tests=(first("rock", "rock"),))
    result = rule_static(one, Scene(), SETTINGS)
    assert result.ruling.outcome.value == "failure" and result.consequences.of("Ruth").lost_in("physical") == ("Steady",)
    with pytest.raises(RulesError):
        rule_static(OneOnOne(Category.PHYSICAL, who, who, kind=Kind.STATIC, difficulty=8), Scene(), SETTINGS)


def test_scene_from_dict_names_the_bad_field():
    """The scene is plain data read from JSON: an unknown darkness, armor or cover is refused by field."""
    scene = scene_from_dict({"darkness": "total", "range": "close", "sides": {"B": {"armor": "plate", "cover": 1}}})
    assert scene.darkness_for("B") == (DarknessLevel.TOTAL, DarknessSource.NATURAL)
    assert scene.side("B").armor == (Worn("plate"),) and scene.range_for("A") is RangeBand.CLOSE
    for bad, field in (({"darkness": "pitch"}, "scene.darkness"), ({"sides": {"B": {"armor": "tin"}}}, "scene.sides.B.armor"),
                       ({"sides": {"B": {"cover": 9}}}, "scene.sides.B.cover"), ({"weather": 1}, "scene.weather")):
        with pytest.raises(RulesError) as err:
            scene_from_dict(bad)
        assert err.value.field == field


def test_a_wounded_person_given_outright_keeps_his_level():
    """LotNR Health (met-reference 4.1): the stateless API may give the wound level instead of the damage."""
    a = Side(person("Anna"), Choice(bid=("Quick",)))
    b = Side(Person("Ben", traits={"physical": ("Tough", "Quick")}, health=Health.WOUNDED), Choice(bid=("Tough",)))
    result = rule_one_on_one(OneOnOne(Category.PHYSICAL, a, b, tests=(first("rock", "rock"),)), Scene(), SETTINGS)
    assert result.challenge.defender.health is Health.WOUNDED and len(result.challenge.defender.bid) == 2


def test_the_rulings_damage_is_the_number_that_landed():
    """Issue 30 (oddities): a ruling's ``damage`` says what the hit dealt, as ``hits`` does: a submachine gun
    emptied within five feet deals its card's 2 levels plus Full-Auto's (met-reference 3.7): 3 in both, in the
    ruling and in its JSON."""
    smg = Person("Gunner", traits={"physical": ("Quick", "Steady")}, weapon="smg")
    one = OneOnOne(Category.PHYSICAL, Side(smg, Choice(bid=("Quick",), full_auto=True)),
                   Side(person("Target", creature="mortal"), Choice(bid=("Quick",))), action="weapon",
                   tests=(first("rock", "scissors"),))
    result = rule_one_on_one(one, Scene(range=RangeBand.CLOSE))
    assert result.hits[0].levels == 3
    assert [d.levels for d in result.ruling.damage] == [3]
    data = result.to_dict()
    assert data["damage"][0]["levels"] == data["hits"][0]["levels"] == 3
    assert result.ruling.damage[0].rule.endswith("with its additions")


def test_willpower_spent_against_wounds_is_in_the_rulings_spent():
    """Issue 30 (oddities); LotNR Willpower (met-reference 2.1, 4.1): a Willpower Trait spent to ignore the
    wounds for this turn is in ``ruling.spent`` as it is in the consequences, beside what the challenge spent
    (a Brawl retest here)."""
    hurt = person("Ann", lethal=5, willpower=2, abilities={"Brawl": 1})
    one = OneOnOne(Category.PHYSICAL, Side(hurt, Choice(bid=("Quick",), ignore_wounds=True)),
                   Side(person("Bo"), Choice(bid=("Quick",))),
                   tests=(first("rock", "paper"), {"call": "retest", "by": "challenger", "source": "ability:Brawl",
                                                  "challenger_throw": "rock", "defender_throw": "scissors"}))
    result = rule_one_on_one(one)
    spent = result.ruling.spent_by(Outcome.CHALLENGER)
    assert (spent.willpower, dict(spent.abilities)) == (1, {"Brawl": 1})
    assert result.to_dict()["spent"]["challenger"]["willpower"] == 1
    assert result.consequences.of("Ann").willpower == 1


def test_a_specialisation_needs_a_level_of_its_ability_left_tonight():
    """Issue 30 (oddities); LotNR Abilities, specialisations (met-reference 1.3: "+1"): the bonus Trait comes with
    using the Ability, so a character with no level of it left tonight gets none. Ann (Melee: Fencing) counts
    4 + 1 = 5 with a Melee level left and wins the tie against Bo's 4; with Melee spent, 4: a draw, and the step
    says why. Named outright, the same; given by a narrator for a sheet that names no specialisation, it
    stands."""
    def tie(ann: Person, spec) -> object:
        one = OneOnOne(Category.PHYSICAL, Side(ann, Choice(bid=("Quick",), specialisation=spec)),
                       Side(person("Bo"), Choice(bid=("Quick",))), tests=(first("rock", "rock"),))
        return rule_one_on_one(one).ruling

    fencer = person("Ann", abilities={"Melee": 1}, specialisations={"Melee": ("Fencing",)})
    assert tie(fencer, True).totals[Outcome.CHALLENGER] == 5 and tie(fencer, True).outcome is Outcome.CHALLENGER
    spent = person("Ann", abilities={"Melee": 0}, specialisations={"Melee": ("Fencing",)})
    ruling = tie(spent, True)
    assert ruling.totals[Outcome.CHALLENGER] == 4 and ruling.outcome is Outcome.DRAW
    assert any("no level of Melee left tonight" in s.text for s in ruling.steps)
    assert tie(person("Ann", abilities={"Brawl": 2}), "Melee").totals[Outcome.CHALLENGER] == 4
    assert tie(person("Ann"), True).totals[Outcome.CHALLENGER] == 5


def test_no_might_at_range_whatever_the_card():
    """Issue 30 (oddities); LotNR Potence: Might (met-reference 3.4): "not at range and not for throwing". A club
    (not marked ranged) used past twenty feet (a thrown club, or a narrator's range) is a ranged attack: the
    Might retest is refused; hand to hand it is allowed."""
    brute = person("Ann", powers=frozenset({"might"}), weapon="club")
    one = OneOnOne(Category.PHYSICAL, Side(brute, Choice(bid=("Brawny",))), Side(person("Bo"), Choice(bid=("Quick",))),
                   action="weapon", tests=(first("rock", "paper"), {"call": "retest", "by": "challenger",
                                                                    "source": "might", "challenger_throw": "rock",
                                                                    "defender_throw": "scissors"}))
    with pytest.raises(RulesError) as err:
        rule_one_on_one(one, Scene(range=RangeBand.FAR))
    assert "beyond reach" in err.value.message
    assert rule_one_on_one(one, Scene(range=RangeBand.HAND_TO_HAND)).ruling.outcome is Outcome.CHALLENGER



NINE = ("Brawny", "Quick", "Tough", "Wiry", "Agile", "Nimble", "Steady", "Robust", "Lithe")


def _tie_against_ben(anna: Person):
    """Anna bids Brawny against Ben (the first 8 of NINE, bidding Quick); both throw Rock."""
    return rule_one_on_one(OneOnOne(Category.PHYSICAL, Side(anna, Choice(bid=("Brawny",))),
                                    Side(person("Ben", NINE[:8]), Choice(bid=("Quick",))),
                                    tests=(first("rock", "rock"),)), Scene(), SETTINGS)


def test_a_discipline_level_holds_the_powers_below_it_endurance():
    """met-reference T11 and 3.5 (LotNR Endurance, Fortitude 1): a Wounded vampire with Endurance takes only the
    Bruised penalty. Anna, 9 Physical and Fortitude 1 given by its level (no power named, as the stateless API's
    body gives it), Wounded, ties Ben (8): she risks one Trait, counts 9 - 1 = 8 against 8, a draw, and both lose
    their bid (002 "Ties"). Before, only a named "endurance" counted: she risked two Traits and lost the tie."""
    result = _tie_against_ben(person("Anna", NINE, lethal=5, disciplines={"Fortitude": 1}))
    assert result.ruling.outcome is Outcome.DRAW
    assert result.consequences.of("Anna").lost_in("physical") == ("Brawny",)
    assert result.consequences.of("Ben").lost_in("physical") == ("Quick",)
    assert result.consequences.of("Ben").track is None


def test_a_discipline_level_holds_the_powers_below_it_puissance():
    """LotNR Puissance (met-reference 3.4, T11, 8.2 #18): Potence 5 holds Puissance, which wins ties in tests of
    strength; a Wounded side with it compares Traits. Anna (Potence 5 by level, 9 Physical, Wounded) ties Ben (8):
    9 against 8, she wins; her blow is 1 + 1 (Puissance) bashing, halved for the vampire Ben: 1 level on his
    track, and he loses Quick. Before, her Potence gave Puissance's damage but not its ties: Ben won."""
    result = _tie_against_ben(person("Anna", NINE, lethal=5, disciplines={"Potence": 5}))
    assert result.ruling.outcome is Outcome.CHALLENGER
    ben = result.consequences.of("Ben")
    assert ben.lost_in("physical") == ("Quick",) and ben.track.bashing == 1
    assert result.consequences.of("Anna").empty


def test_the_stateless_body_fortitude_gives_endurance():
    """The stateless reader (the API's ``body.fortitude``) reaches the same rule: a Wounded side with Fortitude 1
    counts as Bruised (LotNR Endurance, met-reference 3.5), bids one Trait and draws 8 against 8."""
    from larp.rules.rulings.parsing import one_on_one_from_dict

    data = {"category": "physical", "tests": [first("rock", "rock")],
            "challenger": {"name": "Ann", "traits": 9, "bid": ["Brawny"],
                           "body": {"creature": "vampire", "fortitude": 1, "lethal": 5}},
            "defender": {"name": "Bo", "traits": 8, "bid": ["Quick"]}}
    one, scene = one_on_one_from_dict(data)
    result = rule_one_on_one(one, scene, SETTINGS)
    assert result.ruling.outcome is Outcome.DRAW
    assert result.consequences.of("Ann").lost_in("physical") == ("Brawny",)


def test_endurance_lets_an_incapacitated_vampire_fight_with_the_bruised_penalty():
    """met-reference 3.5 (LotNR Endurance): "No wound penalties beyond Bruised until torpor or Final Death. When
    Wounded or Incapacitated you just take the Bruised penalty" (as :func:`larp.rules.fortitude.endurance_level`
    says). Anna, Incapacitated (7 lethal) with Fortitude 1, 9 Physical, ties Ben (8): she is not refused, risks one
    Trait, counts 9 - 1 = 8 against 8, a draw, and both lose their bid. Without Endurance she is refused (LotNR
    Health: no challenges until a level is healed)."""
    result = _tie_against_ben(person("Anna", NINE, lethal=7, disciplines={"Fortitude": 1}))
    assert result.ruling.outcome is Outcome.DRAW
    assert result.consequences.of("Anna").lost_in("physical") == ("Brawny",)
    assert result.consequences.of("Ben").lost_in("physical") == ("Quick",)
    assert any("Incapacitated but has Endurance" in s.text for s in result.steps)
    with pytest.raises(RulesError) as err:
        _tie_against_ben(person("Anna", NINE, lethal=7))
    assert err.value.field == "challenger"
