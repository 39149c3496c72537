"""The explanations read as a narrator would say them (issue 16 item 15): a broad set of rulings through the
rules core's entry points, each step and summary scanned for the forbidden patterns ("1 Traits", "1 times",
"a Ax", "The character" in mid-sentence, a pronoun instead of the name, "(s)" plurals) and for the
contradictions the issue names (a hit called lethal, then bashing; a setting tag on a step no setting
decided; "tested against each ... in order" when every bystander is excluded)."""

from __future__ import annotations

import random
import re

import pytest

from larp.rules.challenge import Category, Kind, Lead
from larp.rules.darkness import DarknessLevel, DarknessSource
from larp.rules.explain import Step
from larp.rules.mass_challenge import Range
from larp.rules.rulings import (
    Choice,
    HandDamage,
    MassChallengeCall,
    MassAttacker,
    MassTarget,
    OneOnOne,
    Person,
    Side,
    rule_firing_into_groups,
    rule_damage_by_hand,
    rule_mass_challenge,
    rule_one_on_one,
    rule_static,
)
from larp.rules.rulings.firing_into_groups import BystanderSide, FiringIntoGroupsCall
from larp.rules.scene import RangeBand, Scene, SideScene, Worn
from larp.rules.settings import ChronicleSettings, setting_definitions

PHYSICAL = Category.PHYSICAL

FORBIDDEN = {
    "a count of one with a plural": re.compile(r"\b1 (Traits|levels|times|blood points|actions|attackers)\b"),
    "'(s)' for a plural": re.compile(r"\w\(s\)"),
    "'a' before a vowel": re.compile(r"\ba [AEIOU]\w"),
    "'The character' in mid-sentence": re.compile(r"[^.:;!?]\s+The character\b|\bthe character\b"),
    "a pronoun instead of the name": re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b"
                                                r"|\b(a|the) test it\b", re.IGNORECASE),
}


def person(name: str, physical: int = 8, trait: str = "Quick", **kw) -> Person:
    return Person(name=name, traits={"physical": (trait,) * physical, "mental": ("Clever",) * 5,
                                     "social": ("Charming",) * 4}, **kw)


def side(p: Person, *bid: str, **kw) -> Side:
    return Side(p, Choice(bid=bid or (p.traits["physical"][0],), **kw))


def throws(ct: str, dt: str, **kw) -> dict:
    return {"call": "test", "challenger_throw": ct, "defender_throw": dt, **kw}


def one(c: Side, d: Side, *tests: dict, **kw) -> OneOnOne:
    return OneOnOne(kw.pop("category", PHYSICAL), c, d, tests=tests, **kw)


def _rulings():
    """(label, steps, summary) for a broad set of rulings: weapons, darkness, overbids, retests, surprise, static
    challenges, mass challenges, stray shots, damage by hand."""
    rng = random.Random(16)
    anton, bea = person("Anton", 9, "Brawny", powers=frozenset({"might", "vigor"})), person("Bea", 7)
    shooter = person("Marcus", 6, weapon="pistol", abilities={"Firearms": 2})
    out = []

    def add(label, ruled):
        out.append((label, ruled))

    add("pistol hit on a vampire", lambda: rule_one_on_one(one(side(shooter), side(bea), throws("paper", "rock"),
                                                       action="weapon"), rng=rng))
    add("ax hit, Puissance", lambda: rule_one_on_one(one(side(person("Ines", 8, "Brawny", weapon="ax",
                                                             powers=frozenset({"puissance"}),
                                                             disciplines={"Potence": 5})),
                                                 side(person("Lys", 8, creature="mortal")),
                                                 throws("rock", "rock"), action="weapon"), rng=rng))
    add("shotgun within five feet", lambda: rule_one_on_one(one(side(person("Ruth", 6, weapon="shotgun")), side(bea),
                                                        throws("paper", "rock"), action="weapon"),
                                                    Scene(range=RangeBand.CLOSE), rng=rng))
    add("bare hands, counter-attack", lambda: rule_one_on_one(one(side(anton), side(bea), throws("rock", "paper"),
                                                          defender_action="strike"), rng=rng))
    add("bite", lambda: rule_one_on_one(one(side(anton), side(bea), throws("paper", "rock"), action="bite"), rng=rng))
    add("armor used up", lambda: rule_one_on_one(one(side(anton), side(person("Bea", 7, armor=(Worn("ballistic_vest", 0),))),
                                             throws("paper", "rock")), rng=rng))
    add("wounded overbid refused", lambda: rule_one_on_one(one(side(person("Anton", 8, lethal=5)), side(bea),
                                                       throws("rock", "paper"),
                                                       {"call": "overbid", "by": "challenger", "trait": "Quick"}),
                                                   rng=rng))
    add("overbid made", lambda: rule_one_on_one(one(side(person("Anton", 16)), side(person("Bea", 6)),
                                            throws("rock", "paper"),
                                            {"call": "overbid", "by": "challenger", "trait": "Quick",
                                             "challenger_throw": "paper", "defender_throw": "rock"}), rng=rng))
    add("retest and cancel", lambda: rule_one_on_one(one(side(person("Anton", 8, abilities={"Brawl": 1})),
                                                 side(person("Bea", 7, abilities={"Dodge": 1})),
                                                 throws("rock", "paper"),
                                                 {"call": "retest", "by": "challenger", "source": "ability:Brawl",
                                                  "cancel": "ability:Dodge"}), rng=rng))
    add("both blind, forced retests", lambda: rule_one_on_one(one(side(anton), side(bea), throws("paper", "rock"),
                                                          {"call": "forced_retest", "by": "challenger",
                                                           "challenger_throw": "rock", "defender_throw": "paper"},
                                                          {"call": "forced_retest", "by": "defender",
                                                           "challenger_throw": "rock", "defender_throw": "paper"}),
                                                      Scene(darkness=DarknessLevel.TOTAL), rng=rng))
    add("shroud, sight powers", lambda: rule_one_on_one(one(side(person("Pim", 8, powers=frozenset({"heightened senses"}))),
                                                    side(bea), throws("rock", "rock")),
                                                Scene(darkness=DarknessLevel.TOTAL,
                                                      darkness_source=DarknessSource.SHROUD,
                                                      sides={"Bea": SideScene(shroud_caster=True)}), rng=rng))
    add("partial dark, Concentration", lambda: rule_one_on_one(one(side(person("Ana", 9, qualities=frozenset(
        {"concentration"}), abilities={"Blindfighting": 1})), side(bea), throws("rock", "rock")),
        Scene(darkness=DarknessLevel.PARTIAL), rng=rng))
    add("surprise, second challenge", lambda: rule_one_on_one(one(side(anton), side(bea), throws("rock", "paper"),
                                                          {"call": "second_challenge", "by": "challenger",
                                                           "trait": "Brawny", "challenger_throw": "paper",
                                                           "defender_throw": "rock"}, surprised=True), rng=rng))
    add("surprise, defender wins", lambda: rule_one_on_one(one(side(anton), side(bea), throws("rock", "paper"),
                                                       surprised=True, defender_action="strike"), rng=rng))
    add("Bomb announced", lambda: rule_one_on_one(one(side(anton, "Brawny", lead=Lead.STRENGTH, bomb_announced=True),
                                              side(bea), throws("bomb", "paper")), rng=rng))
    add("off hand, Two-Weapon", lambda: rule_one_on_one(one(side(person("Ana", 9, specialisations={"Melee": (
        "Two-Weapon (Florentine)",)}), off_hand=True), side(bea), throws("paper", "rock")), rng=rng))
    add("Speed pre-empts", lambda: rule_one_on_one(one(side(person("Ana", 7, weapon="knife", abilities={"Melee": 1})),
                                               side(person("Bo", 7, weapon="club")), throws("rock", "paper"),
                                               action="weapon", defender_action="weapon"), rng=rng))
    add("Negative Trait called", lambda: rule_one_on_one(one(side(anton, calls_negative="Clumsy"),
                                                     side(person("Bea", 7, negative_traits={"physical": ("Clumsy",)})),
                                                     throws("rock", "scissors")), rng=rng))
    add("moved and covered", lambda: rule_one_on_one(one(side(anton, steps_moved=2), side(bea), throws("rock", "rock")),
                                             Scene(sides={"Bea": SideScene(cover=1)}), rng=rng))
    add("social challenge", lambda: rule_one_on_one(one(side(anton, "Charming"), side(bea, "Charming"),
                                                throws("rock", "rock"), category=Category.SOCIAL, action="other"),
                                            rng=rng))
    add("static, narrator overbids", lambda: rule_static(OneOnOne(Category.MENTAL, side(person("Ana", 4), "Clever"),
                                                          kind=Kind.STATIC, difficulty=10, action="other",
                                                          tests=(throws("paper", "rock"),
                                                                 {"call": "overbid", "by": "defender",
                                                                  "challenger_throw": "rock",
                                                                  "defender_throw": "paper"})), rng=rng))
    add("simple test", lambda: rule_static(OneOnOne(Category.MENTAL, side(person("Ana"), "Clever"), kind=Kind.SIMPLE,
                                            action="other", tests=(throws("rock", "rock"),)), rng=rng))
    mass_call = MassChallengeCall(MassTarget(side(person("Dana", 9, powers=frozenset({"intensity"}))), "scissors", "strike"),
              tuple(MassAttacker(side(person(n, 7)), throw=t) for n, t in
                    (("A1", "paper"), ("A2", "scissors"), ("A3", "rock"))) +
              (MassAttacker(side(person("G", 6, weapon="pistol")), Range.RANGED, "weapon", "paper"),))
    add("mass challenge with a counter-attack", lambda: rule_mass_challenge(mass_call, rng=rng))
    add("mass challenge in total darkness", lambda: rule_mass_challenge(MassChallengeCall(MassTarget(side(person("Dana", 9)), "rock"),
                                              (MassAttacker(side(person("A1", 7)), throw="scissors"),
                                               MassAttacker(side(person("A2", 7)), throw="scissors"))),
                                          Scene(darkness=DarknessLevel.TOTAL), rng=rng))
    add("mass challenge: the target drops", lambda: rule_mass_challenge(MassChallengeCall(MassTarget(side(person("Dana", 8, lethal=5)), "paper", "strike"),
                                                      tuple(MassAttacker(side(person(n, 7)), throw="scissors")
                                                            for n in ("A1", "A2", "A3"))), rng=rng))
    add("mass challenge: defender relents, Swiftness", lambda: rule_mass_challenge(MassChallengeCall(MassTarget(side(person(
        "Dana", 9, disciplines={"Celerity": 2}), celerity=2), "rock", "strike"),
        (MassAttacker(side(person("A1", 7)), throw="scissors"), MassAttacker(side(person("A2", 7)), throw="scissors"),
         MassAttacker(side(person("A3", 7)), relented=True))), rng=rng))
    near = tuple(BystanderSide(Side(person(n, 5)), throw=t, firer_throw="rock")
                 for n, t in (("Pim", "paper"), ("Lys", "scissors"), ("Agathe", "scissors")))
    add("stray pistol round", lambda: rule_firing_into_groups(FiringIntoGroupsCall(Side(person("Ruth", 4, weapon="pistol")), "Konrad", near),
                                              rng=rng))
    add("all excluded", lambda: rule_firing_into_groups(FiringIntoGroupsCall(Side(person("Ruth", 6, weapon="pistol")), "Konrad",
                                               tuple(BystanderSide(b.side, excluded=True) for b in near)), rng=rng))
    add("careful aim", lambda: rule_firing_into_groups(FiringIntoGroupsCall(Side(person("Ruth", 6, weapon="pistol")), "Konrad", near,
                                              careful_aim=True), rng=rng))
    add("shotgun spray", lambda: rule_firing_into_groups(FiringIntoGroupsCall(Side(person("Ruth", 6, weapon="shotgun")), "Konrad",
                                                tuple(BystanderSide(b.side, throw=b.throw) for b in near),
                                                firer_throw="rock"), Scene(range=RangeBand.FAR), rng=rng))
    add("shotgun too close to spray", lambda: rule_firing_into_groups(FiringIntoGroupsCall(Side(person("Ruth", 6, weapon="shotgun")), "Konrad",
                                                             near, deliberate_spray=True), Scene(range=RangeBand.MID),
                                                             rng=rng))
    add("missed shotgun blast up close", lambda: rule_firing_into_groups(FiringIntoGroupsCall(Side(person("Ruth", 6, weapon="shotgun")),
                                                                "Konrad", tuple(BystanderSide(b.side, throw=b.throw)
                                                                                for b in near), firer_throw="rock"),
                                                                Scene(range=RangeBand.CLOSE), rng=rng))
    add("damage by hand", lambda: rule_damage_by_hand(person("Bea", 7, lethal=6), HandDamage("lethal", 2), rng=rng))
    add("bashing by hand past Incapacitated", lambda: rule_damage_by_hand(person("Bea", 7, bashing=7),
                                                                  HandDamage("bashing", 2), rng=rng))
    add("a shotgun by hand", lambda: rule_damage_by_hand(person("Bea", 7), HandDamage(weapon="shotgun"), rng=rng))
    return out


def ruled(label: str) -> tuple[tuple[Step, ...], str]:
    """The steps and summary of the ruling called ``label`` (built when asked, so one that fails fails alone)."""
    made = dict(RULINGS)[label]()
    steps = made.steps if hasattr(made, "steps") else made.ruling.steps
    return tuple(steps), made.summary


RULINGS = _rulings()
LABELS = [label for label, _make in RULINGS]


@pytest.mark.parametrize("label", LABELS)
def test_15_no_forbidden_pattern_in_any_step_or_summary(label):
    """Issue 16 item 15: no "1 Traits", "1 times", "a Ax", "The character" in mid-sentence, "(s)", nor a pronoun
    the character may not use: the name instead (house-style: a step is a sentence a narrator reads aloud)."""
    steps, summary = ruled(label)
    for text in [s.text for s in steps] + [summary]:
        for what, pattern in FORBIDDEN.items():
            assert not pattern.search(text), f"{label}: {what}: {text!r}"


@pytest.mark.parametrize("label", LABELS)
def test_15_a_setting_tag_names_a_setting_and_no_step_contradicts_another(label):
    """Issue 16 item 15: a setting tag names a defined setting, on a step that says what the setting decided
    (its label or its effect, never a step of a rule no setting touches); no hit is called lethal and then taken
    as bashing (002 "Damage and Healing": firearms against vampires are bashing)."""
    steps, _summary = ruled(label)
    known = setting_definitions()
    for step in steps:
        assert isinstance(step, Step)
        if step.setting:
            assert step.setting in known, f"{label}: unknown setting {step.setting!r}"
    for called, taken in lethal_then_bashing(steps):
        between = [s.text for s in steps[called + 1:taken]]
        assert any(WHY_BASHING.search(t) for t in between), f"{label}: called lethal, then taken as bashing"


#: A step that says why a hit called lethal is taken as bashing (002 "Damage and Healing": firearms against
#: vampires; 000: the tabletop charts).
WHY_BASHING = re.compile(r"\bdo bashing damage\b")


def lethal_then_bashing(steps) -> list[tuple[int, int]]:
    """Each (step that calls a hit lethal, later step where its target takes bashing damage), by index: "Marcus
    hits with a Pistol: 2 levels of lethal damage by its card." then "Bea takes 2 levels of bashing damage"."""
    pairs = []
    texts = [s.text for s in steps]
    for i, text in enumerate(texts):
        if re.search(r"\d+ levels? of lethal damage", text):
            pairs.extend((i, j) for j in range(i + 1, len(texts))
                         if re.search(r"\b[A-Z]\w* takes \d+ levels? of bashing damage", texts[j]))
    return pairs


def test_15_the_lethal_then_bashing_check_finds_what_it_checks():
    """Issue 30 (tests that cannot fail): the check above matches the rules' own wording. In "pistol hit on a
    vampire" the card calls the hit lethal and Bea takes bashing, with the step that says why between them (002
    "Damage and Healing": firearms against vampires); without that step the check would fail."""
    steps, _summary = ruled("pistol hit on a vampire")
    pairs = lethal_then_bashing(steps)
    assert len(pairs) == 1
    called, taken = pairs[0]
    assert any(WHY_BASHING.search(s.text) for s in steps[called + 1:taken])


def test_15_no_tests_in_order_when_every_bystander_is_excluded():
    """Issue 16 item 15; 002 "Firing Guns into Groups of People": when extra Traits exclude every bystander (or
    the firer took careful aim), no test is made, so "tested against each of them in that order" is not said."""
    for label in ("all excluded", "careful aim"):
        assert not any("in that order" in s.text for s in ruled(label)[0]), label
    steps = ruled("stray pistol round")[0]
    assert any("in that order" in s.text for s in steps)


def test_15_a_pistol_hit_on_a_vampire_is_not_called_lethal_then_bashing():
    """Issue 16 item 15; 002 "Damage and Healing": the challenge step says the pistol hits; the damage steps say
    the card's lethal becomes bashing against a vampire, and the summary says what is taken."""
    steps, summary = ruled("pistol hit on a vampire")
    text = " ".join(s.text for s in steps)
    assert "Marcus's Pistol hits Bea." in text
    assert "takes it" not in text
    assert "Bea loses Quick and takes 2 bashing" in summary


def test_15_the_defaults_are_named_on_the_steps_they_decide():
    """Issue 16 item 15: a setting tag goes only on a step that a setting decided: the both-blind step names
    both_blind_forced_retest, the stray tests name stray_tests_cost_firer; a plain tie names none."""
    dark = ruled("both blind, forced retests")[0]
    assert any(s.setting == "both_blind_forced_retest" for s in dark)
    stray = ruled("stray pistol round")[0]
    assert any(s.setting == "stray_tests_cost_firer" for s in stray)
    social = ruled("social challenge")[0]
    assert all(s.setting in (None, "darkness_scope") for s in social if "tie" in s.text.lower())
    assert ChronicleSettings.defaults()["both_blind_forced_retest"] == "retest"
