"""Issue 30 wiring: the rules' JSON readers read the inputs issue 30 added to the core (the sense a
challenge depends on, Acute Sense's senses, a specialisation by name, the frenzy a side is in, the sides
beyond reach, a deliberate Spray, a clip emptied on full auto), and each changes the ruling as the rule
says. Before this, each was refused as an unknown field."""

from __future__ import annotations

import pytest

from larp.rules.challenge import Outcome
from larp.rules.explain import RulesError
from larp.rules.rulings import rule_firing_into_groups, rule_one_on_one
from larp.rules.rulings.parsing import firing_into_groups_call_from_dict, one_on_one_from_dict
from larp.rules.settings import ChronicleSettings

SETTINGS = ChronicleSettings.from_overrides({})
TIE = [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]


def _tie(challenger: dict, defender: dict | None = None, **top) -> object:
    data = {"category": "mental", "action": "other", "tests": TIE,
            "challenger": {"name": "Ann", "traits": 8, "bid": ["Alert"], **challenger},
            "defender": {"name": "Bo", "traits": 9, "bid": ["Clever"], **(defender or {})}, **top}
    one, scene = one_on_one_from_dict(data)
    return rule_one_on_one(one, scene, SETTINGS).ruling


def test_the_sense_and_acute_senses_are_read_from_json():
    """LotNR Acute Sense (met-reference 1.3: "+2"): Ann (8, Acute Sense: hearing) against Bo (9) in a test of
    hearing counts 10 and wins the tie, whether the sense is given beside the challenge or in its scene; in a
    test of sight, or with no sense named, she counts 8 and loses. Two different senses are refused."""
    acute = {"acute_senses": ["Hearing"]}
    heard = _tie(acute, sense="hearing")
    assert heard.totals[Outcome.CHALLENGER] == 10 and heard.outcome is Outcome.CHALLENGER
    assert _tie(acute, scene={"sense": "ears"}).outcome is Outcome.CHALLENGER
    assert _tie(acute, sense="sight").outcome is Outcome.DEFENDER
    assert _tie(acute).totals[Outcome.CHALLENGER] == 8
    with pytest.raises(RulesError) as err:
        _tie(acute, sense="hearing", scene={"sense": "sight"})
    assert err.value.field == "sense"
    with pytest.raises(RulesError) as err:
        _tie({"acute_senses": ["echolocation"]}, sense="hearing")
    assert err.value.field == "challenger_acute_senses"


def test_a_specialisation_is_named_by_its_ability():
    """LotNR Abilities, specialisations (met-reference 1.3): named by its Ability, the bonus Trait comes while a
    level of it is left tonight: Ann counts 8 + 1 = 9 with Occult 1 left against Bo's 9; with no Occult left, 8,
    and Bo wins the tie."""
    named = _tie({"abilities": {"Occult": 1}, "specialisation": "Occult"})
    assert named.totals[Outcome.CHALLENGER] == 9
    spent = _tie({"abilities": {"Occult": 0}, "specialisation": "Occult"})
    assert spent.totals[Outcome.CHALLENGER] == 8 and spent.outcome is Outcome.DEFENDER
    with pytest.raises(RulesError) as err:
        _tie({"specialisation": 3})
    assert err.value.field == "challenger_specialisation"


def test_frenzy_is_read_and_lifts_wound_penalties():
    """LotNR Frenzy: in frenzy no wound penalty holds him back. Ann, Bruised (one Trait fewer on ties), counts 8
    - 1 = 7 against Bo's 9; in frenzy she counts 8. Rötschreck does not lift them; another state is refused."""
    bruised = {"traits": 8, "health": "bruised"}
    assert _tie(bruised).totals[Outcome.CHALLENGER] == 7
    assert _tie({**bruised, "frenzy": "frenzy"}).totals[Outcome.CHALLENGER] == 8
    assert _tie({**bruised, "frenzy": "rotschreck"}).totals[Outcome.CHALLENGER] == 7
    with pytest.raises(RulesError) as err:
        _tie({"frenzy": "berserk"})
    assert err.value.field == "challenger_frenzy"


def test_at_range_refuses_might_from_json():
    """LotNR Potence, Might (met-reference 3.4: "not at range"): a club swung by Ann with Might: the retest is
    allowed hand to hand; with ``at_range`` (the narrator says the sides are beyond reach) it is refused."""
    data = {"category": "physical", "action": "weapon",
            "challenger": {"name": "Ann", "traits": 8, "bid": ["Brawny"], "powers": ["might"], "weapon": "club"},
            "defender": {"name": "Bo", "traits": 8, "bid": ["Quick"]},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
                      {"call": "retest", "by": "challenger", "source": "might", "challenger_throw": "rock",
                       "defender_throw": "scissors"}]}
    one, scene = one_on_one_from_dict(data)
    assert rule_one_on_one(one, scene, SETTINGS).ruling.outcome is Outcome.CHALLENGER
    one, scene = one_on_one_from_dict({**data, "at_range": True})
    with pytest.raises(RulesError):
        rule_one_on_one(one, scene, SETTINGS)


def test_full_auto_is_read_from_the_attack():
    """met-reference 3.7 (LotNR Fully Automatic): a submachine gun's hit up close adds its level only when the
    clip is emptied (``attack.full_auto``)."""
    def hit(full_auto: bool) -> int:
        data = {"category": "physical", "action": "weapon", "scene": {"range": "close"},
                "challenger": {"name": "Gunner", "traits": 8, "bid": ["Quick"],
                               "attack": {"weapon": "smg", "full_auto": full_auto}},
                "defender": {"name": "Bo", "traits": 8, "bid": ["Quick"], "body": {"creature": "mortal"}},
                "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]}
        one, scene = one_on_one_from_dict(data)
        return rule_one_on_one(one, scene, SETTINGS).hits[0].levels

    assert hit(True) == hit(False) + 1


def test_deliberate_spray_is_read_from_json():
    """met-reference 6.2 and T24 (LotNR Spray): a shotgun's deliberate Spray at 10 to 20 feet (``mid``) is too
    close to spray: an ordinary single shot, and the step says so; the same blast missed is one mass challenge
    against the group (002). A pistol cannot spray."""
    def shot(weapon: str, deliberate: bool):
        data = {"firer": {"name": "Ruth", "traits": 6, "bid": ["Steady"]}, "weapon": weapon, "target": "Konrad",
                "range": "mid", "firer_throw": "rock", "deliberate_spray": deliberate,
                "bystanders": [{"name": "Pim", "traits": 2, "bid": ["Nimble"], "throw": "scissors",
                                "firer_throw": "rock"}]}
        call, scene = firing_into_groups_call_from_dict(data, SETTINGS)
        return rule_firing_into_groups(call, scene, SETTINGS)

    deliberate = shot("shotgun", True)
    assert deliberate.shot.deliberate_spray and not shot("shotgun", False).shot.deliberate_spray
    assert any("A deliberate Spray sprays only at targets more than 20 feet away" in s.text for s in deliberate.ruling.steps)
    assert deliberate.ruling.fire.value == "single" and shot("shotgun", False).ruling.fire.value == "group"
    with pytest.raises(RulesError) as err:
        shot("pistol", True)
    assert err.value.field == "deliberate_spray" and "Spray" in err.value.message
