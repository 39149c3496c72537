"""One call per tap on the challenge screen (issue 29 item 1, the one-on-one challenge): the tap that ends a
challenge, and each tap before it, is one service call that loads the characters once and calls the rules
core once; the random throws that one call draws are the ones recorded."""

from __future__ import annotations

import pytest

from larp.models import Character, Ruling
from larp.services import challenges as challenge_service
from larp.services import characters as character_service
from tests.web.test_challenge_web import script_in_progress


def cid(name: str) -> int:
    return Character.get(Character.name == name).id


@pytest.fixture
def calls(monkeypatch):
    """Count the service's loads and its calls into the rules core (both entry points)."""
    counts = {"rules": 0, "loads": 0}

    def counting(real, key):
        def wrapper(*args, **kwargs):
            counts[key] += 1
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(challenge_service, "rule_one_on_one", counting(challenge_service.rule_one_on_one, "rules"))
    monkeypatch.setattr(challenge_service, "rule_static", counting(challenge_service.rule_static, "rules"))
    monkeypatch.setattr(challenge_service, "load_characters",
                        counting(character_service.load_characters, "loads"))
    return counts


def static(**extra) -> dict:
    """Ruth Calder's static Mental challenge against 2 Traits (LotNR Static Challenges, met-reference 1.6)."""
    return {"challenger": cid("Ruth Calder"), "kind": "static", "category": "mental", "action": "other",
            "difficulty": "2", "challenger_bid": "Shrewd", **extra}


def test_the_resolve_tap_that_ends_a_challenge_rules_once_and_records_the_throw_it_drew(client, auth, dbconn, calls):
    """Ruth wins at once (the narrator's throw left out is drawn): one load, one rules call, recorded with that
    very throw; her Trait stays hers (a static challenge won loses nothing)."""
    auth.login()
    response = client.post("/challenge", data=static(challenger_throw="paper"), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert calls == {"rules": 1, "loads": 1}
    ruling = Ruling.get()
    test = ruling.inputs["tests"][0]
    assert test["random"] == ["defender"] and test["defender_throw"] in ("rock", "paper", "scissors")
    # Paper beats the drawn rock and ties paper (5 Mental Traits against 2: hers); only scissors beats her.
    assert ruling.outcome["outcome"] == ("failure" if test["defender_throw"] == "scissors" else "success")
    assert script_in_progress(response.get_data(as_text=True)) is None


def test_a_call_tap_that_ends_it_rules_once(client, auth, dbconn, calls):
    """Ruth loses the static test, retests with Investigation (LotNR Retests) and wins: the resolve tap is one
    rules call and shows her retests; the call tap that ends it is one more, and records."""
    auth.login()
    form = static(challenger_throw="paper", defender_throw="scissors")
    body = client.post("/challenge", data=form, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert calls == {"rules": 1, "loads": 1} and Ruling.select().count() == 0
    assert 'name="next_source" value="ability:Investigation"' in body
    response = client.post("/challenge", data={
        **form, "step": "call", "tests_json": script_in_progress(body), "next_by": "challenger",
        "next_source": "ability:Investigation", "next_challenger_throw": "rock", "next_defender_throw": "scissors"},
        headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert calls == {"rules": 2, "loads": 2}
    ruling = Ruling.get()
    assert [t["call"] for t in ruling.inputs["tests"]] == ["test", "retest"]
    assert ruling.outcome["outcome"] == "success"


def test_the_record_tap_rules_once(client, auth, dbconn, calls):
    """Konrad loses to Vivienne and may retest: the narrator records it as it stands, in one rules call."""
    auth.login()
    form = {"challenger": cid("Vivienne Ashcombe"), "defender": cid("Konrad Vale"), "category": "physical",
            "action": "strike", "challenger_bid": "Quick", "defender_bid": "Brawny", "challenger_throw": "rock",
            "defender_throw": "scissors"}
    body = client.post("/challenge", data=form, headers={"HX-Request": "true"}).get_data(as_text=True)
    script = script_in_progress(body)
    assert script is not None and calls["rules"] == 1
    client.post("/challenge", data={**form, "step": "record", "tests_json": script}, headers={"HX-Request": "true"})
    assert calls == {"rules": 2, "loads": 2}
    assert Ruling.get().outcome["outcome"] == "challenger"
