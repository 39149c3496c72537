"""The challenge API (issue 3): stateless ruling, stateful ruling on stored characters, OpenAPI."""

from __future__ import annotations

import re

import pytest

from larp.models import AbilitySpend, Character, Ruling, TraitLoss

T5 = {  # met-reference T5: Daron (pistol, Wily) against Michael (Quick); Daron retests with Firearms and wins.
    "category": "physical", "action": "weapon",
    "challenger": {"name": "Daron", "traits": 7, "bid": ["Wily"], "category": "mental",
                   "weapon": {"name": "pistol", "bonus": 2, "damage_type": "lethal", "levels": 2},
                   "abilities": {"Firearms": 2}},
    "defender": {"name": "Michael", "traits": 8, "bid": ["Quick"]},
    "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
              {"call": "retest", "by": "challenger", "source": "ability:Firearms",
               "challenger_throw": "scissors", "defender_throw": "paper"}],
}


def test_api_needs_login(client):
    response = client.post("/api/v1/challenges/rule", json=T5)
    assert response.status_code == 401
    assert response.get_json()["error"].startswith("Log in")


def test_stateless_ruling_of_t5(client, auth, dbconn):
    """met-reference T5: Michael takes the pistol's 2 lethal; Daron loses Wily and one Firearms level."""
    auth.login()
    before = (Ruling.select().count(), TraitLoss.select().count())
    response = client.post("/api/v1/challenges/rule", json=T5)
    assert response.status_code == 200
    ruling = response.get_json()["ruling"]
    assert ruling["outcome"] == "challenger"
    assert ruling["traits_lost"]["challenger"] == ["Wily"]
    assert ruling["spent"]["challenger"]["abilities"] == {"Firearms": 1}
    assert ruling["damage"] == [{"target": "defender", "damage_type": "lethal", "levels": 2,
                                 "rule": "pistol card (met-reference 3.7)"}]
    assert all(step["rule"] for step in ruling["steps"])
    assert (Ruling.select().count(), TraitLoss.select().count()) == before  # stateless


def test_stateless_settings_override_is_named_in_the_explanation(client, auth):
    """LotNR overbid ratio 2 by default; a chronicle setting of 1.5 lets 14 against 8 make a new test (T3b)."""
    auth.login()
    challenge = {
        "category": "social", "action": "other",
        "challenger": {"name": "Favian", "traits": 14, "bid": ["Beguiling"]},
        "defender": {"name": "Endora", "traits": 8, "bid": ["Dignified"]},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
                  {"call": "overbid", "by": "challenger", "trait": "Seductive",
                   "challenger_throw": "paper", "defender_throw": "rock"}],
    }
    refused = {**challenge, "tests": [challenge["tests"][0], {"call": "overbid", "by": "challenger", "trait": "Seductive"}]}
    default = client.post("/api/v1/challenges/rule", json=refused).get_json()["ruling"]
    assert default["outcome"] == "defender"
    assert any(step.get("setting") == "overbid_ratio" or "2 times" in step["text"] for step in default["steps"])
    assert client.post("/api/v1/challenges/rule", json=challenge).get_json()["field"] == "tests[1].challenger_throw"
    looser = client.post("/api/v1/challenges/rule", json={**challenge, "settings": {"overbid_ratio": 1.5}}).get_json()
    assert looser["ruling"]["outcome"] == "challenger"
    assert any(step.get("setting") == "overbid_ratio" for step in looser["ruling"]["steps"])


@pytest.mark.parametrize(
    "change, field",
    [
        ({"tests": [{"call": "test", "challenger_throw": "lizard", "defender_throw": "rock"}]}, "tests[0].challenger_throw"),
        ({"tests": [{"call": "test", "challenger_throw": "bomb", "defender_throw": "rock"}]}, "tests[0].challenger_throw"),
        ({"category": "spiritual"}, "category"),
        ({"settings": {"overbid_ratio": "lots"}}, "settings.overbid_ratio"),  # a dotted path (issue 21)
        ({"tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
                    {"call": "retest", "by": "challenger", "source": "ability:Melee",
                     "challenger_throw": "rock", "defender_throw": "scissors"}]}, "tests[1].source"),
    ],
)
def test_stateless_bad_input_names_the_field(client, auth, change, field):
    auth.login()
    response = client.post("/api/v1/challenges/rule", json={**T5, **change})
    assert response.status_code == 422
    body = response.get_json()
    assert body["field"] == field, body
    assert body["error"]


def test_non_json_body_is_refused(client, auth):
    auth.login()
    response = client.post("/api/v1/challenges/rule", data={"category": "physical"})
    assert response.status_code == 415
    assert client.post("/api/v1/challenges/rule", data="[1, 2]", content_type="application/json").status_code == 400


def test_stateful_challenge_applies_retest_spend_and_damage(client, auth, dbconn):
    """A stored challenge: Konrad (Brawl 3) retests his loss with Brawl and wins; Vivienne loses Quick,
    Konrad keeps nothing of Brawny (the first test's Trait stays lost) and spends a Brawl level."""
    auth.login()
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    kon = Character.get(Character.name == "Konrad Vale")
    body = {
        "category": "physical",
        "challenger": {"character_id": viv.id, "bid": "Quick"},
        "defender": {"character_id": kon.id, "bid": "Brawny"},
        "defender_action": "strike",
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"},
                  {"call": "retest", "by": "defender", "source": "ability:Brawl",
                   "challenger_throw": "rock", "defender_throw": "paper"}],
    }
    response = client.post("/api/v1/challenges", json=body)
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    assert data["ruling"]["outcome"] == "defender"
    assert sorted((l.character.name, l.name) for l in TraitLoss.select()) == [
        ("Konrad Vale", "Brawny"), ("Vivienne Ashcombe", "Quick")]
    assert [(s.character.name, s.name, s.levels) for s in AbilitySpend.select()] == [("Konrad Vale", "Brawl", 1)]
    # Konrad declared a counter-attack and won: one level of bashing on Vivienne.
    assert Character.get_by_id(viv.id).damage_bashing == 1
    assert data["characters"]["challenger"]["health"]["bashing"] == 1
    assert data["characters"]["defender"]["traits_left"]["physical"] == 8


def test_stateful_refuses_a_retest_the_character_cannot_pay_for(client, auth, dbconn):
    auth.login()
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    ruth = Character.get(Character.name == "Ruth Calder")  # no Melee
    before = (Ruling.select().count(), TraitLoss.select().count(), AbilitySpend.select().count())
    response = client.post("/api/v1/challenges", json={
        "category": "physical",
        "challenger": {"character_id": viv.id, "bid": "Quick"},
        "defender": {"character_id": ruth.id, "bid": "Steady"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"},
                  {"call": "retest", "by": "defender", "source": "ability:Melee",
                   "challenger_throw": "rock", "defender_throw": "paper"}],
    })
    assert response.status_code == 422
    assert response.get_json()["field"] == "tests[1].source"
    assert (Ruling.select().count(), TraitLoss.select().count(), AbilitySpend.select().count()) == before


def test_openapi_describes_both_challenge_endpoints(client, auth):
    auth.login()
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    assert "post" in doc["paths"]["/challenges/rule"]
    assert "post" in doc["paths"]["/challenges"]
    assert doc["paths"]["/challenges/rule"]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"] \
        == "#/components/schemas/Challenge"
    for name in ("Challenge", "Contestant", "TestCall", "Ruling", "Error", "StoredChallenge"):
        assert name in doc["components"]["schemas"]


@pytest.mark.parametrize("path", ["/api/v1/challenges", "/api/v1/tabletop/roll", "/api/v1/mass-challenges/rule",
                                  "/api/v1/healing", "/api/v1/firing-into-groups/rule"])
def test_every_endpoint_refuses_an_unknown_field(client, auth, path):
    """A typo in a JSON body is a 422 naming it, never silently ignored (the documented schema decides)."""
    auth.login()
    response = client.post(path, json={"no_such_field": 1})
    assert response.status_code == 422
    assert response.get_json()["field"] == "no_such_field"


def test_every_documented_body_is_checked_for_unknown_fields_before_its_view(client, auth):
    """Issue 29 item 4: a body's fields are checked once, by the API's guard, against the operation's
    documented schema: every operation whose body is a closed object refuses a field it does not know with
    a 422 naming it, before its view runs (the path's ids need not exist: nothing is looked up)."""
    auth.login("organiser")
    doc = client.get("/api/v1/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    checked = []
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            schema = (operation.get("requestBody", {}).get("content", {}).get("application/json", {})
                      .get("schema", {}))
            schema = schemas[schema["$ref"].rsplit("/", 1)[-1]] if "$ref" in schema else schema
            if not schema.get("properties") or schema.get("additionalProperties", False) is not False:
                continue
            url = "/api/v1" + re.sub(r"\{[^}]+\}", "1", path)
            response = client.open(url, method=method.upper(), json={"no_such_field": 1})
            assert (response.status_code, response.get_json()["field"]) == (422, "no_such_field"), (method, path)
            checked.append((method, path))
    assert len(checked) >= 40  # every stateful and stateless operation with a body


def test_a_due_forced_retest_keeps_the_answers_shape(client, auth):
    """Issue 21; 002 "Darkness": A, alone in total darkness, wins, so his success is retested once. The answer
    has the same two top-level fields as a finished ruling: `ruling` (outcome null, the steps so far)
    and `options` with state "retest_due" naming A's side; throwing the retest finishes it."""
    auth.login()
    body = {"category": "physical", "scene": {"sides": {"A": {"darkness": "total"}}},
            "challenger": {"name": "A", "traits": 7, "bid": ["Quick"]},
            "defender": {"name": "B", "traits": 7, "bid": ["Brawny"]},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]}
    due = client.post("/api/v1/challenges/rule", json=body).get_json()
    done = client.post("/api/v1/challenges/rule", json={**body, "tests": [
        *body["tests"], {"call": "forced_retest", "by": "challenger", "challenger_throw": "rock",
                         "defender_throw": "paper"}]}).get_json()
    assert set(due) == set(done) == {"ruling", "options"}
    assert due["ruling"]["outcome"] is None and due["options"]["state"] == "retest_due"
    assert due["options"]["forced_retest"] == "challenger"
    assert set(done["ruling"]) <= set(due["ruling"]) | {"tests"} and due["ruling"]["steps"]
    assert done["options"]["state"] == "ruled" and done["ruling"]["outcome"] == "defender"


def test_the_document_names_the_narrators_side_in_static_challenges(client, auth):
    """Issue 21: in a static challenge the narrator's side is `defender`, and the schema says so."""
    auth.login()
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    assert "narrator's side is `defender`" in schemas["Challenge"]["properties"]["defender"]["description"]
    assert "narrator" in schemas["TestCall"]["properties"]["defender_throw"]["description"]
    answer = schemas["ChallengeAnswer"]
    assert answer["required"] == ["ruling", "options"]
    assert schemas["ChallengeOptions"]["properties"]["state"]["enum"] == ["ruled", "retest_due", "test_due"]


def test_both_apis_offer_the_overbid_traits_and_the_retests_that_suit_as_the_screen_does(client, auth, dbconn):
    """Issue 29 item 3: the options are the rules core's answer. Konrad loses a test to Vivienne (rock over
    scissors): the stored API's answer names the Traits he may still risk in an overbid (each held tonight once;
    LotNR Overbidding) and the Abilities that suit his retest defending bare-handed (Brawl, Dodge;
    data/retests.toml), the ones the challenge screen offers first; the stateless API answers the same way."""
    auth.login()
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    kon = Character.get(Character.name == "Konrad Vale")
    form = {"challenger": viv.id, "defender": kon.id, "category": "physical", "action": "strike",
            "challenger_bid": "Quick", "defender_bid": "Brawny", "challenger_throw": "rock", "defender_throw": "scissors"}
    screen = client.post("/challenge", data=form, headers={"HX-Request": "true"}).get_data(as_text=True)
    response = client.post("/api/v1/challenges", json={
        "category": "physical", "challenger": {"character_id": viv.id, "bid": "Quick"},
        "defender": {"character_id": kon.id, "bid": "Brawny"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]})
    assert response.status_code == 201, response.get_json()
    konrad = response.get_json()["options"]["sides"]["defender"]
    assert konrad["overbid_traits"] == ["Brawny", "Ferocious", "Quick", "Rugged", "Stalwart", "Tough", "Wiry"]
    assert konrad["suitable_abilities"] == ["brawl", "dodge"]
    offered_first = screen[screen.index('class="chips next-calls"'):screen.index("</fieldset>", screen.index("next-calls"))]
    assert 'value="ability:Brawl"' in offered_first and 'value="ability:Dodge"' in offered_first
    assert 'value="ability:Firearms"' not in offered_first and 'value="ability:Firearms"' in screen
    stateless = client.post("/api/v1/challenges/rule", json={
        "category": "physical", "challenger": {"name": "Vivienne", "traits": 6, "bid": ["Quick"]},
        "defender": {"name": "Konrad", "held": ["Brawny", "Brawny", "Tough", "Wiry"], "bid": ["Brawny"]},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]}).get_json()
    side = stateless["options"]["sides"]["defender"]
    assert side["overbid_traits"] == ["Brawny", "Tough", "Wiry"]  # one Brawny bid, the other still free
    assert side["suitable_abilities"] == ["brawl", "dodge"]
    assert stateless["options"]["sides"]["challenger"]["overbid_traits"] is None  # a count: no names to offer
