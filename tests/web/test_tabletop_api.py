"""The stateless tabletop JSON endpoints (issue 9): roll, initiative, attack; replay; 422 naming the field."""

from __future__ import annotations

import pytest

from larp.models import Character, Ruling

KINCAID = {"name": "Kincaid", "attributes": {"Strength": 4, "Dexterity": 4, "Stamina": 4, "Wits": 3},
           "abilities": {"Firearms": 3, "Brawl": 2}, "disciplines": {"Potence": 2, "Fortitude": 1},
           "weapon": "assault_rifle"}
ELDER = {"name": "The elder", "attributes": {"Strength": 3, "Dexterity": 3, "Stamina": 4},
         "disciplines": {"Fortitude": 3}}


@pytest.fixture
def api(client, auth, dbconn):
    auth.login()
    return lambda path, body: client.post(f"/api/v1/tabletop/{path}", json=body)


def stored():
    return (Ruling.select().count(),
            sorted((c.id, c.version, c.damage_bashing, c.damage_lethal, c.damage_aggravated) for c in Character.select()))


def test_the_api_needs_a_login(client):
    assert client.post("/api/v1/tabletop/roll", json={"pool": 3}).status_code == 401


def test_roll_liselles_soak(api):
    """000 "Soak": 1, 9, 9, 7 against 6: the 1 cancels a success, two left; soak never botches."""
    data = api("roll", {"pool": 4, "kind": "soak", "dice": [1, 9, 9, 7]}).get_json()
    assert data["roll"]["net"] == 2 and data["roll"]["botch"] is False
    assert data["steps"][0]["text"].startswith("Soak roll 1, 9, 9, 7 against difficulty 6")


def test_drawn_dice_are_echoed(api):
    """Dice not given come from the app's random source and are echoed die by die."""
    data = api("roll", {"pool": 5, "difficulty": 7}).get_json()["roll"]
    assert len(data["dice"]) == 5 and all(1 <= d <= 10 for d in data["dice"])
    assert data["successes"] == sum(1 for d in data["dice"] if d >= 7)


@pytest.mark.parametrize("body, field", [
    ({"pool": 3, "difficulty": 11}, "difficulty"),
    ({"pool": 3, "dice": [1, 2]}, "dice.roll"),
    ({"pool": -1}, "pool"),
    ({"pool": 3, "kind": "fate"}, "kind"),
    ({"pool": 3, "settings": {"tabletop_botch": "sometimes"}}, "settings.tabletop_botch"),
])
def test_roll_bad_input_names_the_field(api, body, field):
    """Issue 9: 422 naming the field (difficulty 11 is impossible)."""
    response = api("roll", body)
    assert response.status_code == 422
    assert response.get_json()["field"] == field


def test_initiative_ross_and_angela(api):
    """001 "Finding Initiative": Ross 6 + 9 = 15 goes before Angela 7 + 5 = 12; Angela declares first."""
    data = api("initiative", {"combatants": [{"name": "Ross", "dexterity": 4, "wits": 2, "die": 9},
                                             {"name": "Angela", "dexterity": 3, "wits": 4, "die": 5}]}).get_json()
    assert [(r["name"], r["rating"], r["score"], r["index"]) for r in data["order"]] == [
        ("Ross", 6, 15, 0), ("Angela", 7, 12, 1)]
    assert data["declaring_order"] == ["Angela", "Ross"]


def test_initiative_of_stored_characters_and_bad_dice(api, dbconn):
    """Stored characters bring Dexterity, Wits and the wound penalty; a die of 11 names its combatant."""
    konrad = Character.get(Character.name == "Konrad Vale").id
    data = api("initiative", {"combatants": [{"character_id": konrad, "die": 3}]}).get_json()
    assert data["order"][0]["score"] == 4 + 3 + 3
    response = api("initiative", {"combatants": [{"name": "A", "dexterity": 2, "wits": 2, "die": 11}]})
    assert response.status_code == 422 and response.get_json()["field"] == "combatants.0.die"


def test_attack_kincaids_automatic_fire_and_replay(api):
    """000 "Automatic Fire": 17 dice against 8, six successes, 12 damage dice; the answer's dice replay it."""
    body = {"maneuver": "automatic_fire", "attacker": KINCAID, "target": ELDER,
            "dice": {"attack": [8, 9, 10, 8, 9, 8, 2, 3, 4, 5, 6, 7, 7, 2, 3, 4, 5]}}
    data = api("attack", body).get_json()
    assert (data["attack_pool"], data["attack_difficulty"], data["net_successes"], data["damage_pool"]) == (17, 8, 6, 12)
    assert len(data["dice"]["damage"]) == 12
    assert data["health"]["target"]["tabletop"]["level"]
    again = api("attack", {**body, "dice": data["dice"]}).get_json()
    # The damage dice were drawn the first time and given the second: the answers say so (issue 17).
    import json

    assert "rolled by the app" in json.dumps(data) and "rolled by the app" not in json.dumps(again)
    assert json.loads(json.dumps(data).replace("rolled by the app", "rolled at the table").replace(
        '"rolled": "by the app"', '"rolled": "at the table"')) == again


def test_attack_on_stored_characters_changes_nothing(api, dbconn):
    """A stateless attack may read stored characters (Lys's Feral Claws) but never writes."""
    lys = Character.get(Character.name == "Lys Moreau").id
    konrad = Character.get(Character.name == "Konrad Vale").id
    before = stored()
    data = api("attack", {"maneuver": "claw", "attacker": {"character_id": lys}, "target": {"character_id": konrad},
                          "dice": {"attack": [8, 2, 2, 2, 2], "damage": [8, 8, 2, 2], "soak": [2]}}).get_json()
    assert data["target_track"]["aggravated"] == 2
    assert any("Feral Claws" in s["text"] for s in data["steps"])
    assert stored() == before


@pytest.mark.parametrize("change, field", [
    ({"maneuver": "bite"}, "circumstances.prior_hold"),
    ({"maneuver": "strike", "circumstances": {"difficulty": 11}}, "circumstances.difficulty"),
    ({"maneuver": "strike", "circumstances": {"range": "far"}}, "circumstances.range"),
    ({"maneuver": "strike", "circumstances": {"flank": "yes"}}, "circumstances.flank"),
    ({"maneuver": "claw"}, "maneuver"),
    ({"maneuver": "haymaker"}, "maneuver"),
    ({"maneuver": "automatic_fire", "attacker": {**KINCAID, "weapon": "pistol_light"}}, "attacker.weapon"),
    ({"maneuver": "strike", "target": {"attributes": {}}}, "target.attributes"),
    ({"maneuver": "strike", "defense": {"maneuver": "parry"}}, "defense.maneuver"),
    ({"maneuver": "strike", "dice": {"attack": [8]}}, "dice.attack"),
    ({"maneuver": "strike", "dice": {"luck": [8]}}, "dice.luck"),
    ({"maneuver": "strike", "attacker": {"character_id": 99999}}, "attacker.character_id"),
])
def test_attack_bad_input_names_the_field(api, change, field):
    """Issue 9: a bite without a prior hold, difficulty 11, a maneuver the character cannot use: 422 naming
    the field as a path in the request."""
    body = {"attacker": KINCAID, "target": ELDER, **change}
    response = api("attack", body)
    assert response.status_code in (404, 422), response.get_json()
    assert response.get_json()["field"] == field


def test_dark_ages_profile_by_setting(api):
    """004 "Blindsiding": +1 die from the rear (000 gives +2); the profile is a chronicle setting."""
    body = {"maneuver": "strike", "attacker": KINCAID, "target": ELDER, "circumstances": {"rear": True},
            "dice": {"attack": [2] * 7}}
    revised = api("attack", {**body, "dice": {"attack": [2] * 8}}).get_json()
    dark = api("attack", {**body, "settings": {"tabletop_profile": "dark_ages"}}).get_json()
    assert (revised["attack_pool"], dark["attack_pool"]) == (8, 7)
    assert dark["profile"] == "dark_ages"


def test_openapi_documents_the_tabletop_endpoints(client, auth, dbconn):
    """The three endpoints appear in /api/v1/openapi.json with their request schemas."""
    auth.login()
    doc = client.get("/api/v1/openapi.json").get_json()
    for path in ("/tabletop/roll", "/tabletop/initiative", "/tabletop/attack"):
        op = doc["paths"][path]["post"]
        assert op["requestBody"]["content"]["application/json"]["schema"]["type"] == "object"
        assert "422" in op["responses"]
    assert "TabletopFighter" in doc["components"]["schemas"]
