"""Between game sessions, the record and cards in the JSON API (issue 21), with API tokens: each
endpoint with good input (the same outcome as the board's form, tests/web/test_between_sessions_web.py) and bad
input (a 4xx naming the field, nothing changed), the Idempotency-Key, and the organisers-only walk."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from larp.models import Character, GameSession, Ruling, Torpor, User
from larp.services.accounts import create_user
from larp.services.api_tokens import create_token
from larp.services.chronicles import get_chronicle

def today():
    """The date now, read at each use: a module-level date goes stale when the suite runs across midnight."""
    return date.today()


@pytest.fixture
def downtime(app, dbconn):
    """The demo chronicle a fortnight after game session 1 (larp.services.demo.apply_downtime_demo)."""
    from larp.services.demo import apply_downtime_demo

    apply_downtime_demo(get_chronicle(), today())
    return get_chronicle()


@pytest.fixture
def api(client, dbconn):
    """Call the API with an organiser's token ("Board bot"); ``api(..., role="narrator")`` with a
    narrator's."""
    owner = create_user("boss", "Boss", "organiser", "correct horse")
    tokens = {role: create_token(owner, f"Board bot ({role})", role)[1] for role in ("organiser", "narrator")}

    def call(method: str, path: str, body=None, role: str = "organiser", key: str | None = None):
        headers = {"Authorization": f"Bearer {tokens[role]}"}
        if key:
            headers["Idempotency-Key"] = key
        return client.open("/api/v1" + path, method=method, json=body, headers=headers)

    return call


def char(name: str) -> Character:
    return Character.get(Character.name == name)


def snapshot() -> tuple:
    """What a refused call must leave as it was."""
    return (GameSession.select().count(), Ruling.select().count(), Torpor.select().count(),
            tuple((c.damage_aggravated, c.damage_lethal, c.damage_bashing, c.condition, c.blood_current,
                   c.willpower_current, c.version, c.card_token) for c in Character.select().order_by(Character.id)))


def test_the_board_summary_is_the_boards(api, downtime):
    """The board's read model (larp.services.downtime.build_between_sessions): Pim may wake, Ines sleeps a year
    unless fed (blood loss), Aldous has aggravated damage to heal, Marcus (a ghoul) is hurt."""
    data = api("GET", "/board").get_json()
    assert data["game_session"]["number"] == 2 and data["previous"]["number"] == 1 and data["nights"] == 14
    torpor = {line["name"]: line["status"] for line in data["torpor"]}
    assert torpor["Pim Halloran"] == "may_wake" and torpor["Ines Castellano"] == "fed_wakes"
    assert [line["name"] for line in data["healing"]] == ["Aldous Whitmore"]
    assert data["healing"][0]["plan"]["levels"] == 1
    assert "Marcus Hale" in [line["name"] for line in data["mortals"]]


def test_narrators_tokens_do_not_do_the_boards_work(api, downtime):
    """The board is for organisers (larp.web.between_sessions's role_required), so is its API: 403, nothing changed."""
    before = snapshot()
    pim = char("Pim Halloran")
    for method, path, body in (("GET", "/board", None), ("POST", "/game-sessions", {"date": today().isoformat()}),
                               ("POST", f"/characters/{pim.id}/wake", {"first_night": today().isoformat()}),
                               ("POST", f"/characters/{pim.id}/feed", {"blood": 1}),
                               ("GET", f"/characters/{pim.id}/card", None)):
        assert api(method, path, body, role="narrator").status_code == 403, path
    assert snapshot() == before
    assert api("GET", "/game-sessions", role="narrator").status_code == 200


def test_opening_the_next_game_session_once(api, downtime):
    """LotNR (met-reference 5.1): closing game session 2 and opening 3 refreshes everyone; the same call
    with the same Idempotency-Key (its `closing` now stale too) is the repeated key's 409 naming the
    ruling, checked first; a stale `closing` under a new key is "already closed"; nothing changes."""
    body = {"date": (today() + timedelta(days=14)).isoformat(), "closing": 2}
    opened = api("POST", "/game-sessions", body, key="open-3")
    assert opened.status_code == 201, opened.get_json()
    data = opened.get_json()
    assert data["game_session"]["number"] == 3 and data["refreshed"]
    assert Ruling.get_by_id(data["ruling_id"]).narrator_name == "Board bot (organiser)"
    before = snapshot()
    again = api("POST", "/game-sessions", body, key="open-3")
    assert again.status_code == 409 and again.get_json()["ruling_id"] == data["ruling_id"]
    assert again.get_json()["field"] == "Idempotency-Key"
    stale = api("POST", "/game-sessions", body, key="open-3b")
    assert stale.status_code == 409 and stale.get_json()["field"] == "session"
    assert snapshot() == before
    sessions = api("GET", "/game-sessions").get_json()["game_sessions"]
    assert [(s["number"], s["open"]) for s in sessions] == [(3, True), (2, False), (1, False)]


@pytest.mark.parametrize("body,field", [
    ({"date": "soon"}, "date"), ({}, "date"), ({"date": "2000-01-01"}, "date"),
    ({"date": "2099-01-01", "closing": "two"}, "closing"), ({"date": "2099-01-01", "when": 1}, "when")])
def test_bad_game_session_input_names_the_field(api, downtime, body, field):
    """Bad input: a 4xx naming the field (a date before the last game session included), nothing changed."""
    before = snapshot()
    response = api("POST", "/game-sessions", body)
    assert 400 <= response.status_code < 500 and response.get_json()["field"] == field, response.get_json()
    assert snapshot() == before


def test_torpor_then_waking_with_entered_throws(api, downtime):
    """000 "Torpor" and met-reference T20: Teodor's unrecorded torpor gets its record (Humanity 3: a
    year); Pim, a week after his wounds, spends a blood point and Rock beats Scissors: he rises."""
    teodor = char("Teodor Brandt")
    Character.update(condition="torpor").where(Character.id == teodor.id).execute()
    recorded = api("POST", f"/characters/{teodor.id}/torpor", {"cause": "wounds", "on": today().isoformat()})
    assert recorded.status_code == 201, recorded.get_json()
    assert Torpor.get(Torpor.character == teodor).length == "a year"
    pim = char("Pim Halloran")
    woke = api("POST", f"/characters/{pim.id}/wake", {"first_night": today().isoformat(), "player_throw": "rock",
                                                     "narrator_throw": "scissors"}, key="wake-pim")
    assert woke.status_code == 201, woke.get_json()
    assert woke.get_json()["character"]["condition"] == "active" and woke.get_json()["character"]["blood_current"] == 10
    assert Torpor.get(Torpor.character == pim).end_reason == "woke"


@pytest.mark.parametrize("path,body,field", [
    ("torpor", {"cause": "sleepy"}, "cause"), ("torpor", {"cause": "wounds", "on": "yesterday"}, "on"),
    ("wake", {"first_night": "today+2"}, "last_night"),
    ("wake", {"first_night": "today", "player_throw": "lizard"}, "player_throw"),
    ("wake", {"first_night": "today", "dice": [11]}, "dice[0]"),
    ("feed", {"blood": 0}, "blood"), ("feed", {"blood": "2"}, "blood"),
    ("healing-nights", {"levels": "one"}, "levels"), ("treated", {"treated": "yes"}, "treated")])
def test_bad_between_session_input_names_the_field(api, downtime, path, body, field):
    """Each between-session endpoint refuses bad input with a 4xx naming the field, changing nothing."""
    target = char("Teodor Brandt" if path == "torpor" else "Marcus Hale" if path == "treated" else "Pim Halloran")
    if path == "torpor":
        Character.update(condition="torpor").where(Character.id == target.id).execute()
    nights = {"today": today(), "today+2": today() + timedelta(days=2)}  # dates read now, not at collection
    body = {key: nights[value].isoformat() if key == "first_night" else value for key, value in body.items()}
    before = snapshot()
    response = api("POST", f"/characters/{target.id}/{path}", body)
    assert 400 <= response.status_code < 500 and response.get_json()["field"] == field, response.get_json()
    assert snapshot() == before


def test_feeding_wakes_a_blood_loss_torpor(api, downtime):
    """000/001 "Torpor" (feeding_wakes_blood_torpor): fed two blood points, Ines rises."""
    ines = char("Ines Castellano")
    response = api("POST", f"/characters/{ines.id}/feed", {"blood": 2})
    assert response.status_code == 201
    assert response.get_json()["character"]["condition"] == "active"
    assert char("Ines Castellano").blood_current == 2


def test_healing_nights_for_a_vampire_and_a_ghoul(api, downtime):
    """002 "Damage and Healing": Aldous heals one aggravated level for three blood and a Willpower;
    000 "Mortal's Healing Times": the fortnight heals Marcus (a ghoul) entirely; a second heal for
    Aldous is refused (not enough blood) and changes nothing."""
    aldous, marcus = char("Aldous Whitmore"), char("Marcus Hale")
    assert api("POST", f"/characters/{aldous.id}/healing-nights", {"levels": 1}).status_code == 201
    aldous = char("Aldous Whitmore")
    assert (aldous.damage_aggravated, aldous.blood_current, aldous.willpower_current) == (1, 1, 6)
    before = snapshot()
    refused = api("POST", f"/characters/{aldous.id}/healing-nights", {"levels": 1})
    assert refused.status_code == 422 and "not enough blood" in refused.get_json()["error"]
    assert snapshot() == before
    assert api("POST", f"/characters/{marcus.id}/healing-nights", {}).status_code == 201
    assert (char("Marcus Hale").damage_lethal, char("Marcus Hale").damage_bashing) == (0, 0)


def test_the_record_filters_reads_and_undoes(api, downtime):
    """The record: filtered by character and by game session, one ruling in full, and undo of the
    latest change (larp.services.history.undo_ruling); a second undo is a 409 naming the field."""
    aldous = char("Aldous Whitmore")
    healed = api("POST", f"/characters/{aldous.id}/healing-nights", {"levels": 1}).get_json()
    mine = api("GET", f"/rulings?character_id={aldous.id}").get_json()["rulings"]
    assert mine[0]["id"] == healed["ruling_id"] and all(
        aldous.id in [c["id"] for c in r["characters"]] for r in mine)
    assert mine[0]["narrator"] == "Board bot (organiser)"
    in_two = api("GET", "/rulings?game_session=2").get_json()["rulings"]
    assert in_two and all(r["game_session"] == 2 for r in in_two)
    assert api("GET", "/rulings?game_session=99").get_json()["rulings"] == []
    assert api("GET", "/rulings?character_id=x").status_code == 400
    full = api("GET", f"/rulings/{healed['ruling_id']}").get_json()
    assert full["kind"] == "healing" and full["steps"]
    assert api("GET", "/rulings/999999").status_code == 404
    undone = api("POST", f"/rulings/{healed['ruling_id']}/undo", {}, key="undo-1")
    assert undone.status_code == 201 and undone.get_json()["kind"] == "undo"
    assert char("Aldous Whitmore").damage_aggravated == aldous.damage_aggravated
    again = api("POST", f"/rulings/{healed['ruling_id']}/undo", {})
    assert again.status_code == 409 and again.get_json()["field"] == "ruling"
    by_key = api("GET", "/rulings/by-token/undo-1").get_json()
    assert by_key["id"] == undone.get_json()["id"]
    assert api("GET", "/rulings/by-token/never-sent").status_code == 404


def test_a_characters_card_token_for_organisers(api, client, downtime):
    """The card list's buttons: read, rotate (the old card stops opening) and revoke (opens nothing),
    each recorded as a ruling that names the change in plain words and never holds the token."""
    konrad = char("Konrad Vale")
    card = api("GET", f"/characters/{konrad.id}/card").get_json()
    assert card["card_token"] == konrad.card_token and card["url"].endswith("/C/" + konrad.card_token.upper())
    rotated = api("POST", f"/characters/{konrad.id}/card/rotate", {}, key="rotate-1")
    assert rotated.status_code == 201
    rotated = rotated.get_json()
    assert rotated["card_token"] != card["card_token"]
    assert client.get(f"/c/{card['card_token']}").status_code == 404
    assert client.get(f"/c/{rotated['card_token']}").status_code == 200
    record = api("GET", f"/rulings/{rotated['ruling_id']}").get_json()
    assert record["kind"] == "card_rotated" and record["narrator"] == "Board bot (organiser)"
    assert rotated["card_token"] not in str(record) and card["card_token"] not in str(record)
    revoked = api("POST", f"/characters/{konrad.id}/card/revoke", {}).get_json()
    assert revoked["card_token"] is None and revoked["url"] is None
    assert Ruling.get_by_id(revoked["ruling_id"]).kind == "card_revoked"
    assert api("GET", "/characters/999999/card").status_code == 404
    assert User.get(User.username == "boss").role == "organiser"


def test_a_card_rotated_twice_with_one_key_rotates_once(api, client, downtime):
    """Issue 21 (the hardening issue's one-time key): the same rotate again is the repeated key's 409 naming
    the first ruling and saying the token is not shown again; the card keeps the token of the first call,
    and so does a repeated revoke (nothing changed). A card change does not block undoing his last wound."""
    konrad = char("Konrad Vale")
    hurt = api("POST", f"/characters/{konrad.id}/damage", {"damage_type": "bashing", "levels": 1}).get_json()
    first = api("POST", f"/characters/{konrad.id}/card/rotate", {}, key="rotate-2").get_json()
    before = snapshot()
    again = api("POST", f"/characters/{konrad.id}/card/rotate", {}, key="rotate-2")
    assert again.status_code == 409 and again.get_json()["ruling_id"] == first["ruling_id"]
    assert again.get_json()["field"] == "Idempotency-Key" and "not shown again" in again.get_json()["error"]
    assert first["card_token"] not in again.get_data(as_text=True)
    assert snapshot() == before and char("Konrad Vale").card_token == first["card_token"]
    revoked = api("POST", f"/characters/{konrad.id}/card/revoke", {}, key="revoke-2").get_json()
    assert api("POST", f"/characters/{konrad.id}/card/revoke", {}, key="revoke-2").get_json()["ruling_id"] \
        == revoked["ruling_id"]
    assert api("POST", "/characters/999999/card/rotate", {}, key="rotate-3").status_code == 404
    assert api("POST", f"/rulings/{first['ruling_id']}/undo", {}).status_code == 409  # not undoable
    undone = api("POST", f"/rulings/{hurt['ruling_id']}/undo", {})
    assert undone.status_code == 201, undone.get_json()


def test_every_call_that_records_takes_the_idempotency_key(api, downtime):
    """Issue 21: every mutating endpoint that records a ruling documents the Idempotency-Key (card tokens'
    included); a sheet change sent twice with one key is applied once (409 naming it); the key with another
    change is a 422 (issue 28 item 1)."""
    from larp.web.api import openapi_document

    without = sorted(f"{method.upper()} {path}" for path, ops in openapi_document()["paths"].items()
                     for method, op in ops.items() if method != "get" and not op.get("x-stateless")
                     and not op.get("x-records-nothing")  # a webhook's test send (issue 35)
                     and {"$ref": "#/components/parameters/IdempotencyKey"} not in op.get("parameters", []))
    assert without == []
    konrad = char("Konrad Vale")
    first = api("PATCH", f"/characters/{konrad.id}", {"narrator_notes": "Seen at the docks."}, key="patch-1")
    assert first.status_code == 200, first.get_json()
    again = api("PATCH", f"/characters/{konrad.id}", {"narrator_notes": "Seen at the docks."}, key="patch-1")
    assert again.status_code == 409 and again.get_json()["field"] == "Idempotency-Key"
    other = api("PATCH", f"/characters/{konrad.id}", {"narrator_notes": "Seen at the docks twice."}, key="patch-1")
    assert other.status_code == 422 and other.get_json()["field"] == "Idempotency-Key"  # not a retry (issue 28)
    assert char("Konrad Vale").narrator_notes == "Seen at the docks."


def test_a_narrators_token_undoes_only_his_own_recent_challenge(api, downtime):
    """Issue 18's challenge-screen Undo through the API: a narrator's token undoes a challenge his account
    recorded within the minute; a ruling that is not a challenge (the organiser's healing) is refused (404)."""
    viv, kon = char("Vivienne Ashcombe"), char("Konrad Vale")
    made = api("POST", "/challenges", {"category": "mental", "challenger": {"character_id": viv.id, "bid": "Clever"},
                                       "defender": {"character_id": kon.id, "bid": "Cunning"},
                                       "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]},
               role="narrator")
    assert made.status_code == 201, made.get_json()
    undone = api("POST", f"/rulings/{made.get_json()['ruling_id']}/undo", {}, role="narrator")
    assert undone.status_code == 201 and undone.get_json()["kind"] == "undo"
    aldous = char("Aldous Whitmore")
    healed = api("POST", f"/characters/{aldous.id}/healing-nights", {"levels": 1}).get_json()
    refused = api("POST", f"/rulings/{healed['ruling_id']}/undo", {}, role="narrator")
    assert refused.status_code == 404 and refused.get_json()["field"] == "ruling"
    assert char("Aldous Whitmore").damage_aggravated == aldous.damage_aggravated - 1
