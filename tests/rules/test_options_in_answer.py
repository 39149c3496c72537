"""The options still open are the rules core's answer (issue 29 item 3): the Traits a side may still risk in
an overbid and the Abilities that suit its retest come with the ruling, for the screens and both APIs alike."""

from __future__ import annotations

from larp.rules.challenge import Category, Outcome
from larp.rules.darkness import DarknessLevel
from larp.rules.rulings import Choice, OneOnOne, Person, Side, rule_one_on_one
from larp.rules.scene import Scene, SideScene
from larp.rules.settings import ChronicleSettings

SETTINGS = ChronicleSettings.defaults()


def side(name: str, bid: str, traits: tuple[str, ...], **kw) -> Side:
    return Side(Person(name=name, traits={"physical": traits, "mental": ("Clever",) * 3},
                       abilities={"Brawl": 2, "Melee": 1, "Dodge": 1, "Investigation": 1}, **kw),
                Choice(bid=(bid,)))


DANA = ("Brawny", "Quick", "Tough", "Tough", "Wiry")


def test_the_loser_is_offered_the_traits_he_may_still_risk_and_the_retests_that_suit():
    """Favian strikes Dana with a knife and wins the test (rock over scissors). Dana, behind, may overbid a
    Trait he still has free: not Brawny (bid), each other once (Tough x2 listed once) (LotNR Overbidding,
    met-reference 1.5); a knife attack suits Melee, Dana defending suits Dodge and Brawl (data/retests.toml)."""
    one = OneOnOne(category=Category.PHYSICAL, challenger=side("Favian", "Quick", ("Quick",) * 6),
                   defender=side("Dana", "Brawny", DANA), action="weapon",
                   tests=({"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"},))
    scene = Scene(sides={"Favian": SideScene(weapon="knife"), "Dana": SideScene(weapon="")})
    result = rule_one_on_one(one, scene, SETTINGS)
    dana, favian = result.options.side(Outcome.DEFENDER), result.options.side(Outcome.CHALLENGER)
    assert dana.overbid_traits == ("Quick", "Tough", "Wiry")
    assert favian.suitable_abilities is not None and "melee" in favian.suitable_abilities
    assert "brawl" not in favian.suitable_abilities
    assert dana.suitable_abilities is not None and {"brawl", "dodge"} <= set(dana.suitable_abilities)
    answer = result.options.to_dict()["sides"]["defender"]
    assert answer["overbid_traits"] == ["Quick", "Tough", "Wiry"]
    assert answer["suitable_abilities"] == list(dana.suitable_abilities)


def test_an_overbid_trait_is_not_offered_again_and_darkness_suits_blindfighting():
    """Dana overbids Tough and loses again: one Tough stays free, the other is at risk; in total darkness
    Blindfighting suits his retest too (Dark Epics Blindfighting, met-reference 6.1)."""
    one = OneOnOne(category=Category.PHYSICAL, challenger=side("Favian", "Quick", ("Quick",)),
                   defender=side("Dana", "Brawny", DANA), action="strike",
                   tests=({"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"},
                          {"call": "overbid", "by": "defender", "trait": "Tough", "challenger_throw": "rock",
                           "defender_throw": "scissors"}))
    scene = Scene(sides={"Dana": SideScene(darkness=DarknessLevel.PARTIAL)})
    dana = rule_one_on_one(one, scene, SETTINGS).options.side(Outcome.DEFENDER)
    assert dana.overbid_traits == ("Quick", "Tough", "Wiry")
    assert "blindfighting" in dana.suitable_abilities


def test_a_mental_challenge_suits_any_but_the_physical_abilities_and_counts_give_no_names():
    """A Mental challenge: the Abilities on his sheet but the purely physical ones suit; a side described by a
    count of Traits (the stateless API without names) has no names to offer: ``None``."""
    one = OneOnOne(category=Category.MENTAL,
                   challenger=Side(Person(name="Ruth", counts={"mental": 5},
                                          abilities={"Investigation": 2, "Brawl": 1}), Choice(bid=("Clever",))),
                   defender=side("Dana", "Clever", DANA), action="other",
                   tests=({"call": "test", "challenger_throw": "scissors", "defender_throw": "rock"},))
    result = rule_one_on_one(one, Scene(), SETTINGS)
    ruth = result.options.side(Outcome.CHALLENGER)
    assert ruth.suitable_abilities == ("investigation",)
    assert ruth.overbid_traits is None


def test_fortitude_says_which_powers_the_health_panel_offers():
    """LotNR Fortitude (met-reference 3.5): Resilience at 3, Resistance at 4 (each a simple test, a stamina
    Trait spent first makes a tie succeed), Aegis at 5; below 3 no test against the damage."""
    from larp.rules.fortitude import fortitude_powers

    assert [(f.tests, f.stamina, f.aegis) for f in map(fortitude_powers, range(6))] == [
        ((), False, False), ((), False, False), ((), False, False),
        (("resilience",), True, False), (("resistance", "resilience"), True, False),
        (("resistance", "resilience"), True, True)]
    assert fortitude_powers(4).to_dict()["tests"] == ["resistance", "resilience"]


def test_celerity_says_what_it_adds_when_active():
    """LotNR Celerity (met-reference 3.3): Swiftness (2) gives extra actions, Rapidity (3) the Bomb in speed
    challenges; Alacrity alone (1) adds neither."""
    from larp.rules.order import celerity_note

    assert [celerity_note(n) for n in range(5)] == ["", "", "extra actions", "extra actions, speed Bomb",
                                                    "extra actions, speed Bomb"]
