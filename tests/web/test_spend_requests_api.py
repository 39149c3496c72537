"""Issue 33 items 2 and 6 in the JSON API: a player's token sees, prices, asks and withdraws only for
his own characters; organisers list, approve, refuse, ask for a change and undo."""

from __future__ import annotations

from larp.db import db
from larp.models import Character
from larp.services.accounts import create_user
from larp.services.api_tokens import create_token
from larp.services.chronicles import get_chronicle
from larp.services.experience import record_experience
from tests.support import make_player

RAPIDITY = {"kind": "power", "discipline": "Celerity", "name": "Rapidity"}


def tokens(app):
    """Vivienne with 10 experience; her player's token and an organiser's."""
    with app.test_request_context(), db.connection_context():
        vivienne = Character.get(Character.name == "Vivienne Ashcombe")
        konrad = Character.get(Character.name == "Konrad Vale")
        record_experience(get_chronicle(), None, vivienne.id, "earned", "10", "test award")
        record_experience(get_chronicle(), None, konrad.id, "earned", "10", "test award")
    player = make_player(app, vivienne)
    with app.test_request_context(), db.connection_context():
        _, mine = create_token(player, "Phone", "player")
        _, boss = create_token(create_user("boss", "Boss", "organiser", "correct horse"), "Desk", "organiser")
    return vivienne.id, konrad.id, {"Authorization": f"Bearer {mine}"}, {"Authorization": f"Bearer {boss}"}


def test_a_players_token_sees_only_his_own(app, client):
    vid, kid, player, boss = tokens(app)
    price = client.post("/api/v1/spend-requests/price", json={"character_id": vid, **RAPIDITY}, headers=player)
    assert price.status_code == 200
    assert price.get_json()["cost"] == "6" and price.get_json()["unspent_after"] == "4"
    assert client.post("/api/v1/spend-requests/price", json={"character_id": kid, **RAPIDITY},
                       headers=player).status_code == 404
    asked = client.post("/api/v1/spend-requests", json={"character_id": vid, **RAPIDITY, "note": "chase"},
                        headers=player)
    assert asked.status_code == 201 and asked.get_json()["request"]["state"] == "asked"
    theirs = client.post("/api/v1/spend-requests", json={"character_id": kid, "kind": "willpower"}, headers=boss)
    assert theirs.status_code == 201
    listed = client.get("/api/v1/spend-requests", headers=player).get_json()
    assert [r["character"]["id"] for r in listed["requests"]] == [vid]
    assert client.get(f"/api/v1/spend-requests/{theirs.get_json()['request']['id']}", headers=player).status_code == 404
    mine_id = asked.get_json()["request"]["id"]
    assert client.post(f"/api/v1/spend-requests/{mine_id}/approve", json={}, headers=player).status_code == 403
    assert client.get("/api/v1/characters", headers=player).status_code == 403  # the rest of the API: not his
    assert client.post("/api/v1/spend-requests", json={"character_id": vid, "kind": "willpower", "for_player": "X"},
                       headers=player).status_code == 403
    assert len(client.get("/api/v1/spend-requests", headers=boss).get_json()["requests"]) == 2


def test_organisers_approve_refuse_change_and_undo(app, client):
    vid, kid, player, boss = tokens(app)
    one = client.post("/api/v1/spend-requests", json={"character_id": vid, **RAPIDITY}, headers=player).get_json()
    two = client.post("/api/v1/spend-requests", json={"character_id": vid, "kind": "willpower"},
                      headers=player).get_json()
    three = client.post("/api/v1/spend-requests", json={"character_id": vid, "kind": "morality"},
                        headers=player).get_json()
    approved = client.post(f"/api/v1/spend-requests/{one['request']['id']}/approve", json={}, headers=boss)
    assert approved.status_code == 200 and approved.get_json()["state"] == "approved" and approved.get_json()["ruling"]
    again = client.post(f"/api/v1/spend-requests/{one['request']['id']}/approve", json={}, headers=boss)
    assert again.status_code == 409
    assert client.post(f"/api/v1/spend-requests/{two['request']['id']}/refuse", json={"reason": ""},
                       headers=boss).status_code == 422
    refused = client.post(f"/api/v1/spend-requests/{two['request']['id']}/refuse", json={"reason": "Not yet."},
                          headers=boss).get_json()
    assert refused["state"] == "refused" and refused["answer"] == "Not yet."
    changed = client.post(f"/api/v1/spend-requests/{three['request']['id']}/change", json={"reason": "Why?"},
                          headers=boss).get_json()
    assert changed["state"] == "change_asked"
    assert client.post(f"/api/v1/spend-requests/{three['request']['id']}/withdraw", json={},
                       headers=player).get_json()["state"] == "withdrawn"
    undone = client.post(f"/api/v1/spend-requests/{one['request']['id']}/undo", json={}, headers=boss)
    assert undone.status_code == 200 and undone.get_json()["state"] == "undone"
    waiting = client.get("/api/v1/spend-requests", query_string={"state": "asked"}, headers=boss).get_json()
    assert waiting["requests"] == [] and waiting["waiting"] == 0


def test_an_approval_sent_twice_with_one_key_is_applied_once(app, client):
    """The Idempotency-Key of an approval: the same key again answers 409 naming the ruling it recorded."""
    vid, _, player, boss = tokens(app)
    asked = client.post("/api/v1/spend-requests", json={"character_id": vid, **RAPIDITY}, headers=player).get_json()
    path = f"/api/v1/spend-requests/{asked['request']['id']}/approve"
    first = client.post(path, json={}, headers={**boss, "Idempotency-Key": "approve-1"})
    again = client.post(path, json={}, headers={**boss, "Idempotency-Key": "approve-1"})
    assert first.status_code == 200 and again.status_code == 409
    assert again.get_json().get("ruling_id") == first.get_json()["ruling"]


def test_a_price_reads_in_the_languages_accept_language_asks(app, client):
    """Issue 36: the price's words (what is bought, why it is refused) are English unless the call asks for
    another language; the keys never change."""
    vid, _kid, player, _boss = tokens(app)
    refused = {"character_id": vid, "kind": "power", "discipline": "Dominate", "name": "Forgetful Mind"}
    english = client.post("/api/v1/spend-requests/price", json=refused, headers=player).get_json()
    spanish = client.post("/api/v1/spend-requests/price", json=refused,
                          headers={**player, "Accept-Language": "es"}).get_json()
    assert english.keys() == spanish.keys() and not english["allowed"]
    assert "needs a Basic power of Dominate first" in " ".join(r["text"] for r in english["refusals"])
    assert english["refusals"][0]["code"] == spanish["refusals"][0]["code"]
    assert spanish["refusals"][0]["text"] != english["refusals"][0]["text"]
    assert "Dominate" in spanish["refusals"][0]["text"] and "needs" not in spanish["refusals"][0]["text"]
