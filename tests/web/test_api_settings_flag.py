"""One meaning for settings on every stateless endpoint (issue 21): the documented defaults, or with
``use_chronicle_settings: true`` the chronicle's stored settings, then the ``settings`` overrides."""

from __future__ import annotations

import pytest

from larp.models import ChronicleSetting
from larp.services.chronicles import get_chronicle
from larp.web import api_between, api_challenges, api_characters, api_combat, api_health, api_record, api_tabletop  # noqa: F401 - they document the API
from larp.web.api import openapi_document

T8 = {  # met-reference T8 (tests/web/test_api_combat.py)
    "defender": {"name": "Dana", "traits": 7, "bid": ["Quick", "Wiry", "Tough", "Brawny"], "throw": "scissors",
                 "attack": {"action": "strike"}},
    "attackers": [{"name": f"A{i}", "traits": 7, "bid": ["Brawny"], "throw": t}
                  for i, t in enumerate(("rock", "scissors", "paper", "paper"), 1)],
}
STRAY = {  # tests/web/test_api_combat.py::test_setting_overrides_are_named
    "firer": {"name": "Shooter", "traits": 8, "bid": ["Steady"]}, "weapon": "pistol", "target": "Konrad",
    "firer_throw": "rock",
    "bystanders": [{"name": n, "traits": 3, "bid": ["Quick"], "throw": "scissors", "firer_throw": "rock"}
                   for n in ("Pim", "Lys")]}
STATIC_TIE = {  # a static challenge tied with Traits equal to the difficulty: a draw, or a success (static_equal_tie)
    "kind": "static", "category": "mental", "difficulty": 6,
    "challenger": {"name": "Favian", "traits": 6, "bid": ["Clever"]},
    "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]}

#: Per stateless endpoint: a body, and a stored setting (key, value) that changes its answer.
CASES = {
    "/challenges/rule": (STATIC_TIE, ("static_equal_tie", "succeed")),
    "/mass-challenges/rule": (T8, ("bruised_levels", 1)),
    "/firing-into-groups/rule": (STRAY, ("stray_round_stops_at_first_hit", False)),
    "/damage": ({"damage": {"damage_type": "bashing", "levels": 5}}, ("vampire_bashing_minimum_one", False)),
    "/healing": ({"track": {"bashing": 2}, "kind": "bashing", "levels": 2, "blood": 5}, ("bruised_levels", 1)),
    "/feeding": ({"drinker": {"name": "Anselm", "blood": 3, "blood_max": 10},
                  "victim": {"name": "Walter", "track": {"creature": "mortal"}}, "blood": 3}, ("bruised_levels", 1)),
    "/blood": ({"track": {"lethal": 3}, "blood": 0, "reason": "rising"}, ("bruised_levels", 1)),
    "/tabletop/roll": ({"pool": 3, "dice": [1, 1, 6]}, ("tabletop_botch", "more_ones")),
    "/tabletop/initiative": ({"combatants": [{"name": "Ross", "dexterity": 4, "wits": 2, "die": 9}]},
                             ("tabletop_initiative", "fixed")),
    "/tabletop/attack": ({"maneuver": "strike",
                          "attacker": {"name": "A", "attributes": {"Strength": 2, "Dexterity": 3, "Stamina": 2},
                                       "abilities": {"Brawl": 2}},
                          "target": {"name": "B", "attributes": {"Strength": 2, "Dexterity": 2, "Stamina": 2}},
                          "dice": {"attack": [8, 9, 10, 8, 9]}},
                         ("tabletop_profile", "dark_ages")),
    "/tabletop/ambush": ({"attacker": {"name": "A", "attributes": {"Dexterity": 4, "Wits": 3}, "abilities": {"Stealth": 3}},
                          "target": {"name": "B", "attributes": {"Perception": 2}, "abilities": {"Alertness": 1}},
                          "dice": {"stealth": [8, 9, 7, 2, 3, 10, 6], "alertness": [7, 2, 3],
                                   "preparation": [8, 2, 3, 4, 5, 6]}},
                         ("tabletop_profile", "dark_ages")),
}


def test_every_stateless_endpoint_is_checked_and_documents_the_flag():
    """Issue 21: every endpoint that takes settings takes the flag too, with the same documented meaning,
    and every one of them is in this file's cases."""
    document = openapi_document()
    stateless = sorted(path for path, ops in document["paths"].items()
                       for op in ops.values() if op.get("x-stateless"))
    assert stateless == sorted(CASES)
    for path in stateless:
        operation = document["paths"][path]["post"]
        assert "use_chronicle_settings" in operation["description"]


@pytest.mark.parametrize("path", sorted(CASES))
def test_the_flag_starts_from_the_chronicles_settings(path, client, auth, dbconn):
    """Issue 21: without the flag a stored setting is ignored (the defaults rule); with it, the answer is
    the one the same setting sent as an override gives; an override sent with the flag wins."""
    auth.login()
    body, (key, value) = CASES[path]
    url = "/api/v1" + path
    default = client.post(url, json=body)
    assert default.status_code == 200, default.get_json()
    explicit = client.post(url, json={**body, "settings": {key: value}}).get_json()
    assert explicit != default.get_json(), f"{key} should change the answer of {path}"
    ChronicleSetting.create(chronicle=get_chronicle(), key=key, value=value)
    assert client.post(url, json=body).get_json() == default.get_json()
    assert client.post(url, json={**body, "use_chronicle_settings": True}).get_json() == explicit
    assert client.post(url, json={**body, "use_chronicle_settings": False}).get_json() == default.get_json()
    refused = client.post(url, json={**body, "use_chronicle_settings": "yes"})
    assert refused.status_code == 422 and refused.get_json()["field"] == "use_chronicle_settings"
