"""The mass combat and firing-into-groups API (issue 4): stateless rulings, stateful rulings on stored
characters, OpenAPI, errors naming the field and changing nothing."""

from __future__ import annotations

import pytest

from larp.models import Character, Ruling, RulingCharacter, TraitLoss

T8 = {  # met-reference T8: Scissors against Rock, Scissors, Paper, Paper, one Trait bid per attacker.
    "defender": {"name": "Dana", "traits": 7, "bid": ["Quick", "Wiry", "Tough", "Brawny"], "throw": "scissors",
                 "attack": {"action": "strike"}},
    "attackers": [{"name": f"A{i}", "traits": 7, "bid": ["Brawny"], "throw": t}
                  for i, t in enumerate(("rock", "scissors", "paper", "paper"), 1)],
}
T24 = {  # met-reference T24: a shotgun's Spray at three people 25 ft away, the shooter bids 3 Traits, one wins.
    "firer": {"name": "Shooter", "traits": 8, "bid": ["Steady", "Quick", "Alert"]}, "weapon": "shotgun",
    "target": "Konrad", "firer_throw": "rock", "range": "far",
    "bystanders": [{"name": n, "traits": 5, "bid": ["Quick"], "throw": t}
                   for n, t in (("A", "scissors"), ("B", "scissors"), ("C", "paper"))],
}


def snapshot():
    return (Ruling.select().count(), TraitLoss.select().count(), RulingCharacter.select().count(),
            sorted((c.id, c.version, c.damage_bashing, c.damage_lethal, c.condition) for c in Character.select()))


@pytest.fixture
def ids(dbconn):
    return {c.name.split()[0]: c.id for c in Character.select()}


def test_the_api_needs_a_login(client):
    assert client.post("/api/v1/mass-challenges/rule", json=T8).status_code == 401
    assert client.post("/api/v1/firing-into-groups/rule", json=T24).status_code == 401


def test_stateless_t8(client, auth, dbconn):
    """met-reference T8: loses to #1, draws with #2 (equal Traits), beats #3 and #4, injures only #3."""
    auth.login()
    before = snapshot()
    response = client.post("/api/v1/mass-challenges/rule", json=T8)
    assert response.status_code == 200
    ruling = response.get_json()["ruling"]
    assert [p["outcome"] for p in ruling["pairs"]] == ["challenger", "draw", "defender", "defender"]
    assert [p["attacker"] for p in ruling["pairs"] if p["injured"]] == ["A3"]
    assert ruling["traits_lost"]["Dana"] == ["Quick", "Wiry"]
    assert all(step["rule"] for step in ruling["steps"])
    assert snapshot() == before  # stateless


def test_stateless_t24(client, auth):
    """met-reference T24: two of three are hit and take the card's 2 levels each, as applied to their tracks
    (Mass-Trauma's level is for a single target within five feet: none for a spray victim; vampires, so the
    firearm's damage is bashing and not halved, 002); the shooter loses 1 Trait."""
    auth.login()
    ruling = client.post("/api/v1/firing-into-groups/rule", json=T24).get_json()["ruling"]
    assert ruling["fire"] == "group"
    assert [h["target"] for h in ruling["hits"]] == ["A", "B"]
    assert [h["taken"] for h in ruling["hits"]] == [[["bashing", 2]], [["bashing", 2]]]
    assert [ruling["tracks"][n]["bashing"] for n in ("A", "B", "C")] == [2, 2, 0]
    assert ruling["traits_lost"]["Shooter"] == ["Alert"]


def test_setting_overrides_are_named(client, auth):
    """stray_round_stops_at_first_hit: off, every bystander is tested, and the step says why before."""
    auth.login()
    shot = {"firer": {"name": "Ruth", "traits": 5, "bid": ["Steady", "Quick"]}, "weapon": "pistol",
            "target": "Konrad",
            "bystanders": [{"name": n, "traits": 3, "bid": ["Quick"], "throw": "scissors", "firer_throw": "rock"}
                           for n in ("Pim", "Lys")]}
    default = client.post("/api/v1/firing-into-groups/rule", json=shot).get_json()["ruling"]
    assert [b["tested"] for b in default["bystanders"]] == [True, False]
    assert any(s.get("setting") == "stray_round_stops_at_first_hit" for s in default["steps"])
    both = client.post("/api/v1/firing-into-groups/rule",
                       json={**shot, "settings": {"stray_round_stops_at_first_hit": False}}).get_json()["ruling"]
    assert [b["hit"] for b in both["bystanders"]] == [True, True]


@pytest.mark.parametrize("path,body,field,words", [
    ("/api/v1/mass-challenges/rule",
     {**T8, "attackers": [{"name": f"H{i}", "traits": 5, "bid": ["Quick"], "throw": "rock"} for i in range(6)]},
     "attackers[5].range", "At most 5"),
    ("/api/v1/mass-challenges/rule", {**T8, "attackers": T8["attackers"] + [{**T8["attackers"][0], "name": "Dana"}]},
     "attackers[4].name", "is the target"),
    ("/api/v1/firing-into-groups/rule", {**T24, "bystanders": T24["bystanders"] + [T24["bystanders"][0]]},
     "bystanders[3].name", "already listed"),
    ("/api/v1/firing-into-groups/rule",
     {**T24, "weapon": "pistol", "firer_throw": None, "excluded": ["Zed"], "extra_traits": ["Tough"],
      "bystanders": [{**b, "firer_throw": "rock"} for b in T24["bystanders"]]},
     "excluded", "Zed is not among the people near the target"),
])
def test_stateless_bad_input_names_the_field(client, auth, dbconn, path, body, field, words):
    """A sixth attacker, the target as an attacker, a bystander twice, excluded bystanders not near the target:
    a 422 naming the field, with the rule's words, and nothing stored changes."""
    auth.login()
    before = snapshot()
    response = client.post(path, json=body)
    assert response.status_code == 422
    assert response.get_json()["field"] == field and words in response.get_json()["error"]
    assert snapshot() == before


def test_stateful_mass_challenge_applies_and_records_once(client, auth, ids, dbconn):
    """002 "Mass Combat" on stored characters: one ruling of kind mass_combat, every character a participant,
    the damage on the tracks; the defender drops before the last result, which is recorded as not applied."""
    auth.login()
    Character.update(damage_lethal=6).where(Character.id == ids["Konrad"]).execute()
    body = {"target": {"character_id": ids["Konrad"], "throw": "scissors"},
            "attackers": [{"character_id": ids["Teodor"], "throw": "rock", "weapon": "knife"},
                          {"character_id": ids["Lys"], "throw": "rock"},
                          {"character_id": ids["Pim"], "throw": "rock"}]}
    response = client.post("/api/v1/mass-challenges", json=body)
    assert response.status_code == 201
    ruling = Ruling.get_by_id(response.get_json()["ruling_id"])
    assert ruling.kind == "mass_combat" and Ruling.select().count() == 1
    assert {rc.role for rc in ruling.participants} == {"target", "attacker, hand to hand"}
    hits = ruling.outcome["hits"]
    assert [h["applied"] for h in hits][-1] is False and "already dropped" in hits[-1]["note"]
    konrad = Character.get_by_id(ids["Konrad"])
    assert konrad.condition in ("torpor", "unconscious") and konrad.version == 2


def test_stateful_bad_input_changes_nothing(client, auth, ids, dbconn):
    auth.login()
    before = snapshot()
    five = [{"character_id": ids[n], "throw": "rock"} for n in ("Vivienne", "Lys", "Teodor", "Ines", "Aldous")]
    cases = [
        ({"target": {"character_id": ids["Konrad"], "throw": "rock"},
          "attackers": five + [{"character_id": ids["Pim"], "throw": "rock"}]}, 422, "attackers[5].range"),
        ({"target": {"character_id": ids["Konrad"], "throw": "rock"},
          "attackers": five[:1] + [{"character_id": ids["Konrad"], "throw": "rock"}]}, 422, "attackers[1]"),
        ({"target": {"character_id": ids["Konrad"], "throw": "rock"},
          "attackers": five[:1] + five[:1]}, 422, "attackers[1]"),
        ({"target": {"character_id": 9999, "throw": "rock"}, "attackers": five[:1]}, 404, "target"),
    ]
    for body, status, field in cases:
        response = client.post("/api/v1/mass-challenges", json=body)
        assert (response.status_code, response.get_json()["field"]) == (status, field), response.get_json()
    stray = {"firer": {"character_id": ids["Ruth"], "weapon": "pistol"}, "target_id": ids["Konrad"],
             "bystanders": [{"character_id": ids["Lys"], "throw": "rock", "firer_throw": "rock"},
                            {"character_id": ids["Lys"], "throw": "rock", "firer_throw": "rock"}]}
    response = client.post("/api/v1/firing-into-groups", json=stray)
    assert response.status_code == 422 and response.get_json()["field"] == "bystanders[1]"
    assert snapshot() == before


def test_stateful_stray_shot(client, auth, ids, dbconn):
    auth.login()
    stray = {"firer": {"character_id": ids["Ruth"], "weapon": "pistol"}, "target_id": ids["Konrad"],
             "bystanders": [{"character_id": ids["Lys"], "throw": "scissors", "firer_throw": "rock"}]}
    response = client.post("/api/v1/firing-into-groups", json=stray)
    assert response.status_code == 201
    assert response.get_json()["ruling"]["summary"] == "Ruth Calder's stray round hits Lys Moreau."
    assert Character.get_by_id(ids["Lys"]).damage_bashing == 2


def test_openapi_documents_the_endpoints(client, auth):
    auth.login()
    doc = client.get("/api/v1/openapi.json").get_json()
    for path in ("/mass-challenges/rule", "/firing-into-groups/rule", "/mass-challenges", "/firing-into-groups"):
        assert "post" in doc["paths"][path]
        assert "422" in doc["paths"][path]["post"]["responses"]
    for schema in ("MassChallenge", "MassRuling", "ShotIntoGroup", "ShotIntoGroupRuling", "Hit"):
        assert schema in doc["components"]["schemas"]


def test_a_pairs_options_name_the_retests_that_suit_as_the_board_offers_them(client, auth, dbconn):
    """Issue 29 item 3: the stateless mass challenge's pair options carry the Abilities that suit each side's
    retest (002 "Mass Combat"; data/retests.toml): the attacker striking bare-handed Brawl, the target
    defending Brawl and Dodge (null would say any Ability suits)."""
    auth.login()
    body = {"category": "physical",
            "defender": {"name": "Dana", "held": ["Brawny", "Quick", "Tough"], "bid": ["Brawny"], "throw": "scissors"},
            "attackers": [{"name": "A1", "traits": 7, "bid": ["Brawny"], "throw": "rock"}]}
    response = client.post("/api/v1/mass-challenges/rule", json=body)
    assert response.status_code == 200, response.get_json()
    sides = response.get_json()["ruling"]["pairs"][0]["options"]["sides"]
    assert sides["challenger"]["suitable_abilities"] == ["brawl"]
    assert sides["defender"]["suitable_abilities"] == ["brawl", "dodge"]
