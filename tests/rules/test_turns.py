"""One challenge per turn (Dark Epics p.71, met-reference 3.1; setting one_physical_challenge_per_turn): the
rule the stored scene applies to every narrator's challenges of a turn (issue 30 item 4)."""

from __future__ import annotations

import pytest

from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings
from larp.rules.turns import check_one_challenge_per_turn

ON = ChronicleSettings.from_overrides({"one_physical_challenge_per_turn": True})
OFF = ChronicleSettings.from_overrides({})


def test_one_challenge_of_each_category_per_target_per_turn():
    """DE p.71: "at most one Physical, one Mental and one Social challenge per turn": a second Physical is refused
    with the rule and what to do instead; a Mental after a Physical is allowed; a Virtue Test is not counted."""
    assert check_one_challenge_per_turn("Konrad", "physical", [], 3, ON).rule == "Dark Epics p.71 (met-reference 3.1)"
    with pytest.raises(RulesError) as err:
        check_one_challenge_per_turn("Konrad", "physical", ["mental", "physical"], 3, ON)
    assert err.value.field == "scene_id"
    assert "Konrad has already been the target of a Physical challenge in turn 3" in err.value.message
    assert "Several attackers share the one challenge" in err.value.message
    assert "Celerity's actions count as turns" in err.value.message
    assert check_one_challenge_per_turn("Konrad", "mental", ["physical"], 3, ON) is not None
    with pytest.raises(RulesError):
        check_one_challenge_per_turn("Konrad", "social", ["social"], 1, ON)
    assert check_one_challenge_per_turn("Konrad", "virtue", ["virtue"], 1, ON) is None


def test_off_by_default():
    """The setting's default is off (002 and LotNR say nothing of it): nothing is refused."""
    assert check_one_challenge_per_turn("Konrad", "physical", ["physical"], 1, OFF) is None
