"""Character sheets in the JSON API (issue 14): list, read, create, update, copy, retire, restore,
with the sheet editor's validator and history."""

from __future__ import annotations

import pytest

from larp.models import Character, Ruling
from larp.web.api import openapi_document
from tests.web.sheet_fixtures import FULL


@pytest.fixture
def api(client, auth):
    auth.login("boss", "organiser")
    return client


def test_every_field_round_trips_through_create_read_and_update(api, dbconn):
    """Issue 14 "Done when": a sheet with every field is created, read back equal, changed field
    by field with PATCH, and read back with the changes; each change is in the history."""
    created = api.post("/api/v1/characters", json=FULL)
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    assert body["sheet"] == FULL and body["card_issued"] and body["short_code"]
    cid = body["id"]
    read = api.get(f"/api/v1/characters/{cid}").get_json()
    assert read["sheet"] == FULL and read["state"]["willpower_current"] == FULL["willpower_permanent"]
    changed = {**FULL, "name": "Mara Quill-Vance", "abilities": {"Brawl": 4}, "specialisations": {},
               "traits": {"physical": [{"name": "Quick", "count": 3}], "social": [], "mental": []},
               "weapons": [{"key": "pistol", "note": ""}], "armor": [], "merits": [], "virtues": {"Courage": 5},
               "scene_extra": True}
    patched = api.patch(f"/api/v1/characters/{cid}", json={**changed, "version": read["version"]})
    assert patched.status_code == 200, patched.get_json()
    expected = {**changed, "weapons": [{"name": "Pistol", "key": "pistol", "bonus_traits": 2, "damage": 2,
                                        "damage_type": "lethal", "negative_traits": ["Loud"], "specials": [],
                                        "kind": "firearm", "note": ""}]}
    assert api.get(f"/api/v1/characters/{cid}").get_json()["sheet"] == expected
    history = api.get(f"/characters/{cid}/history").get_data(as_text=True)
    assert "Ability Brawl: 3 → 4" in history and "Name: Mara Quill → Mara Quill-Vance" in history


def test_list_copy_retire_restore(api, dbconn):
    """The list leaves retired characters out (and lists them with retired=true); copies get their
    own codes and no card; retire and restore answer the character."""
    konrad = Character.get(Character.name == "Konrad Vale")
    names = [c["name"] for c in api.get("/api/v1/characters").get_json()["characters"]]
    assert "Konrad Vale" in names and len(names) == 10
    copies = api.post(f"/api/v1/characters/{konrad.id}/copy", json={"name": "Ghoul", "count": 2,
                                                                     "scene_extra": True})
    assert copies.status_code == 201
    made = copies.get_json()["characters"]
    assert [c["sheet"]["name"] for c in made] == ["Ghoul 1", "Ghoul 2"]
    assert all(not c["card_issued"] and c["sheet"]["scene_extra"] for c in made)
    retired = api.post(f"/api/v1/characters/{konrad.id}/retire", json={})
    assert retired.status_code == 200 and retired.get_json()["retired_at"]
    assert "Konrad Vale" not in [c["name"] for c in api.get("/api/v1/characters").get_json()["characters"]]
    assert [c["name"] for c in api.get("/api/v1/characters?retired=true").get_json()["characters"]] == ["Konrad Vale"]
    assert api.post(f"/api/v1/characters/{konrad.id}/retire", json={}).status_code == 409
    restored = api.post(f"/api/v1/characters/{konrad.id}/restore", json={})
    assert restored.status_code == 200 and restored.get_json()["retired_at"] is None


@pytest.mark.parametrize("body, field", [
    ({"name": ""}, "name"),
    ({"name": "Vivienne Ashcombe"}, "name"),
    ({"name": "X", "creature": "werewolf"}, "creature"),
    ({"name": "X", "generation": 16}, "generation"),
    ({"name": "X", "traits": {"physical": [{"name": "Quick", "count": 0}]}}, "traits.physical.0.count"),
    ({"name": "X", "powers": [{"discipline": "Celerity", "power": "Flight"}]}, "powers.0"),
    ({"name": "X", "merits": [{"key": "lucky", "cost": 1}]}, "merits.0.cost"),
    ({"name": "X", "armor": [{"name": "Shield", "rating": 2, "covers": ["tail"]}]}, "armor.0.covers"),
    ({"name": "X", "weapons": [{"key": "lightsaber"}]}, "weapons.0"),
])
def test_invalid_sheets_are_refused_naming_the_field_and_nothing_is_stored(api, dbconn, body, field):
    """Issue 14 bad input through the API: the same validator as the editor; a 4xx naming the
    field, every problem listed, no character created."""
    before = (Character.select().count(), Ruling.select().count())
    response = api.post("/api/v1/characters", json=body)
    assert response.status_code in (409, 422)
    assert response.get_json()["field"] == field and response.get_json()["error"]
    assert (Character.select().count(), Ruling.select().count()) == before


def test_a_stale_update_is_refused(api, dbconn):
    """An update that sends the version it read is refused when the character changed since."""
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    api.patch(f"/api/v1/characters/{viv.id}", json={"notes": "first"})
    response = api.patch(f"/api/v1/characters/{viv.id}", json={"notes": "second", "version": viv.version})
    assert response.status_code == 409 and response.get_json()["field"] == "version"
    assert Character.get_by_id(viv.id).notes == "first"
    assert api.patch(f"/api/v1/characters/{viv.id}", json={"blood_current": 1}).status_code == 422


def test_the_endpoints_are_in_the_openapi_document():
    """Issue 14: the character endpoints are documented (and so fuzzed by test_api_fuzz)."""
    paths = openapi_document()["paths"]
    assert set(paths["/characters"]) == {"get", "post"}
    assert set(paths["/characters/{character_id}"]) == {"get", "patch"}
    for action in ("copy", "retire", "restore"):
        assert "post" in paths[f"/characters/{{character_id}}/{action}"]


def test_a_vampire_created_with_no_generation_is_13th_and_full(api, dbconn, auth):
    """As the form preselects it (LotNR character creation): a vampire sent without a generation is of
    the 13th, with the table's 10 blood points, all of them in his pool; an explicit null stays none. A
    narrator is told that creating characters is the organisers'."""
    made = api.post("/api/v1/characters", json={"name": "Api Andy"}).get_json()
    stored = Character.get_by_id(made["id"])
    assert (stored.generation, stored.blood_max, stored.blood_current) == (13, 10, 10)
    ghoulish = api.post("/api/v1/characters", json={"name": "No Gen", "generation": None}).get_json()
    assert Character.get_by_id(ghoulish["id"]).generation is None
    auth.logout()
    auth.login()
    refused = api.post("/api/v1/characters", json={"name": "Narrated"})
    assert refused.status_code == 403 and refused.get_json()["error"] == "Only an organiser creates characters."
