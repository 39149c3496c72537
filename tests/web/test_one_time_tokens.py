"""One-time tokens (issue 19, item 2): every mutating form and API call is recorded once, a
repeat is a 409 naming the earlier ruling, and a screen can ask whether a token was recorded.
Runs on SQLite and on PostgreSQL (``LARP_TEST_DATABASE_URL``)."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from larp.models import Character, GameSession, Ruling
from larp.services.chronicles import get_chronicle

HX = {"HX-Request": "true"}


def char(name: str) -> Character:
    return Character.get(Character.name == name)


def counts() -> tuple:
    return (Ruling.select().count(), GameSession.select().count(),
            sorted((c.id, c.version, c.damage_lethal, c.damage_bashing, c.blood_current, c.weapon)
                   for c in Character.select()))


def tokens_in(html: str) -> list[str]:
    return re.findall(r'name="request_token" value="([^"]+)"', html)


def test_every_mutating_form_on_the_character_page_carries_a_fresh_token(client, auth, dbconn):
    """Issue 19 item 2: the damage, heal, act, equip (and Aegis) forms each carry their own
    one-time token, new each time the page is drawn, with the condition the page showed."""
    auth.login()
    viv = char("Vivienne Ashcombe")
    client.post(f"/characters/{viv.id}/act", data={"action": "blood", "blood": "1"})  # room in her pool to feed
    first = client.get(f"/characters/{viv.id}").get_data(as_text=True)
    second = client.get(f"/characters/{viv.id}").get_data(as_text=True)
    # damage, heal, equip, narrator actions, feeding on a victim (no Aegis without Fortitude 5)
    assert len(tokens_in(first)) == 5
    assert len(set(tokens_in(first))) == 5 and not set(tokens_in(first)) & set(tokens_in(second))
    assert first.count('name="seen_condition" value="active"') == 4  # equip relies on the weapon shown
    assert 'name="seen_weapon" value=""' in first


@pytest.mark.parametrize("path, fields", [
    ("damage", {"damage_type": "lethal", "levels": "1"}),
    ("heal", {"kind": "bashing", "levels": "1"}),
    ("act", {"action": "blood", "blood": "1"}),
])
def test_the_same_character_form_twice_is_recorded_once(client, auth, dbconn, path, fields):
    """A double tap or a retry after a lost reply: the second post of the same form is a 409
    naming the ruling recorded the first time, and changes nothing (issue 19 item 2)."""
    auth.login()
    konrad = char("Konrad Vale")
    if path == "heal":
        client.post(f"/characters/{konrad.id}/damage", data={"damage_type": "bashing", "levels": "3"})
    data = {**fields, "request_token": f"once-{path}"}
    assert client.post(f"/characters/{konrad.id}/{path}", data=data).status_code == 303
    recorded = Ruling.get(Ruling.request_token == f"once-{path}")
    before = counts()
    again = client.post(f"/characters/{konrad.id}/{path}", data=data, headers=HX)
    assert again.status_code == 409
    assert f"already recorded as ruling #{recorded.id} ({recorded.summary.rstrip('.')})" in again.get_data(as_text=True)
    assert counts() == before


def test_an_equip_form_is_stale_when_the_weapon_it_showed_changed(client, auth, dbconn):
    """A sheet edit is refused only when a field its form showed has changed (issue 13): two
    screens showing bare hands; the first gives him a knife, the second's club is refused."""
    auth.login()
    konrad = char("Konrad Vale")
    shown = {"seen_weapon": konrad.weapon}
    assert client.post(f"/characters/{konrad.id}/equip", data={**shown, "weapon": "knife",
                                                                "request_token": "eq-1"}).status_code == 303
    before = counts()
    stale = client.post(f"/characters/{konrad.id}/equip", data={**shown, "weapon": "club", "request_token": "eq-2"})
    assert stale.status_code == 409
    assert "now carries knife" in stale.get_data(as_text=True)
    assert counts() == before and char("Konrad Vale").weapon == "knife"


def test_closing_a_game_session_twice_is_recorded_once(client, auth, dbconn):
    """The board's close/open form sent twice: one new game session, the second post a 409
    naming the "session" ruling (issue 19 item 2)."""
    auth.login("boss", "organiser")
    fields = {"date": (date.today() + timedelta(days=7)).isoformat(), "confirm": "yes", "request_token": "close-1"}
    assert client.post("/board/next-session", data=fields).status_code == 303
    session_ruling = Ruling.get(Ruling.request_token == "close-1")
    assert session_ruling.kind == "session" and "opened" in session_ruling.summary
    before = counts()
    again = client.post("/board/next-session", data=fields)
    assert again.status_code == 409 and f"ruling #{session_ruling.id}" in again.get_data(as_text=True)
    assert counts() == before


def test_the_api_takes_an_idempotency_key(client, auth, dbconn):
    """A stateful API call with an Idempotency-Key is recorded with it; the same key again is a
    409 with the first ruling's id and address, and nothing is applied twice (issue 19 item 2)."""
    auth.login()
    konrad = char("Konrad Vale")
    headers = {"Idempotency-Key": "api-key-1"}
    first = client.post(f"/api/v1/characters/{konrad.id}/damage", json={"damage_type": "lethal", "levels": 1},
                        headers=headers)
    assert first.status_code == 201
    ruling_id = first.get_json()["ruling_id"]
    before = counts()
    again = client.post(f"/api/v1/characters/{konrad.id}/damage", json={"damage_type": "lethal", "levels": 1},
                        headers=headers)  # the same call again: a retry after a lost reply
    assert again.status_code == 409
    body = again.get_json()
    assert (body["ruling_id"], body["ruling_url"], body["field"]) == (ruling_id, f"/rulings/{ruling_id}",
                                                                      "Idempotency-Key")
    assert counts() == before
    bad = client.post(f"/api/v1/characters/{konrad.id}/damage", json={"levels": 1},
                      headers={"Idempotency-Key": "x" * 65})
    assert bad.status_code == 422 and bad.get_json()["field"] == "Idempotency-Key"
    assert counts() == before


def test_the_openapi_document_describes_the_idempotency_key(client, auth):
    """Every stateful operation (201: recorded) takes the Idempotency-Key header and documents its 409."""
    auth.login()
    document = client.get("/api/v1/openapi.json").get_json()
    parameter = document["components"]["parameters"]["IdempotencyKey"]
    assert (parameter["in"], parameter["name"], parameter["schema"]["maxLength"]) == ("header", "Idempotency-Key", 64)
    stateful = [(path, method, op) for path, ops in document["paths"].items() for method, op in ops.items()
                if "201" in op["responses"]]
    assert {path for path, _m, _o in stateful} >= {"/challenges", "/mass-challenges", "/firing-into-groups",
                                                   "/characters/{character_id}/damage",
                                                   "/characters/{character_id}/heal"}
    for path, _method, op in stateful:
        assert {"$ref": "#/components/parameters/IdempotencyKey"} in op["parameters"], path
        assert "Idempotency-Key" in op["responses"]["409"]["description"], path


def test_a_screen_can_ask_whether_its_token_was_recorded(client, auth, dbconn):
    """GET /rulings/by-token/<token> (issue 19 item 2, for issue 18's retry screen): the ruling's
    id, summary and address once recorded, a 404 before; only for logged-in narrators."""
    assert client.get("/rulings/by-token/lost-reply-1").status_code == 302  # to the login page
    auth.login()
    assert client.get("/rulings/by-token/lost-reply-1").status_code == 404
    konrad = char("Konrad Vale")
    client.post(f"/characters/{konrad.id}/damage", data={"damage_type": "lethal", "levels": "1",
                                                          "request_token": "lost-reply-1"})
    answer = client.get("/rulings/by-token/lost-reply-1")
    ruling = Ruling.get(Ruling.request_token == "lost-reply-1")
    assert answer.status_code == 200
    assert answer.get_json() | {"created_at": None} == {"id": ruling.id, "summary": ruling.summary, "kind": "damage",
                                                        "url": f"/rulings/{ruling.id}", "created_at": None}
    assert client.get("/rulings/by-token/" + "y" * 300).status_code == 404


def test_a_retried_use_case_keeps_the_token_on_its_ruling(app, dbconn, monkeypatch):
    """A use case rolled back by a conflict and run again records its ruling with the token
    (larp/services/records.py: the token follows the transaction that commits)."""
    from larp.services import adjudicate, health
    from larp.services.consequences import Conflict
    from larp.services.records import close_submission, open_submission

    calls = {"n": 0}
    real = adjudicate.apply_consequences

    def conflict_once(characters, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise Conflict(next(iter(characters)))
        return real(characters, *args, **kwargs)

    konrad = char("Konrad Vale")
    health.apply_damage_to(get_chronicle(), None, konrad.id, health.DamageRequest(damage_type="lethal", levels=1),
                           None)
    monkeypatch.setattr(adjudicate, "apply_consequences", conflict_once)
    handle = open_submission("retried-1")
    try:
        record = health.heal_character(get_chronicle(), None, konrad.id, "lethal", 1)
    finally:
        close_submission(handle)
    assert calls["n"] == 2
    assert Ruling.get(Ruling.request_token == "retried-1").id == record.id
    assert char("Konrad Vale").damage_lethal == 0


def test_a_tabletop_attack_sent_twice_is_recorded_once(client, auth, dbconn):
    """A tabletop form sent twice (a double tap on a slow network): the second is a 409 naming the
    attack's ruling, before the combat's own version check, and nothing changes (issue 19 item 2)."""
    from larp.models import TabletopCombat

    auth.login()
    kon, viv = str(char("Konrad Vale").id), str(char("Vivienne Ashcombe").id)
    assert client.post("/tabletop/start", data={"characters": [kon, viv]}, headers=HX).status_code == 200

    def step(path, **fields):
        row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
        return client.post(f"/tabletop/{row.id}/{path}", data={"version": row.version, **fields}, headers=HX)

    assert step("initiative", request_token="tt-init", **{f"die-{kon}": "9", f"die-{viv}": "1"}).status_code == 200
    assert step("declare", fighter=[viv, kon], **{f"{kon}-actions": "1", f"{kon}-maneuver": "strike",
                                                  f"{kon}-target": viv, f"{viv}-actions": "1"}).status_code == 200
    attack = {"attacker": kon, "target": viv, "maneuver": "strike", "dice-attack": "8 2 2 2 2 2 2",
              "dice-damage": "8 6 7 9", "dice-soak": "3 8", "request_token": "tt-attack"}
    row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
    assert step("attack", **attack).status_code == 200
    recorded = Ruling.get(Ruling.request_token == "tt-attack")
    before = counts()
    again = client.post(f"/tabletop/{row.id}/attack", data={"version": row.version, **attack}, headers=HX)
    assert again.status_code == 409
    assert f"already recorded as ruling #{recorded.id}" in again.get_data(as_text=True)
    assert counts() == before


@pytest.mark.parametrize("token", [" ", "  a b  ", "\t", "é" * 3, "x" * 65])
def test_a_blank_or_mangled_token_is_handled_as_none(client, auth, dbconn, token):
    """Found by the form fuzz: closing a game session with the token " " gave a 500 (the second
    ruling of the close hit the unique index with a token no lookup could find). A token that is
    not 1 to 64 visible ASCII characters is no token: the form is handled, nothing is stored."""
    auth.login("boss", "organiser")
    opening = date.today() + timedelta(days=14)
    response = client.post("/board/next-session", data={"request_token": token, "closing": "", "confirm": "yes",
                                                         "date": opening.isoformat()})
    assert response.status_code == 303
    assert GameSession.select().where(GameSession.date == opening).exists()
    assert not Ruling.select().where(Ruling.request_token == token).exists()


def test_a_rulings_page_says_where_to_undo_it_and_links_not_to_itself(client, auth, dbconn):
    """The record's page of a ruling points an organiser to the histories where it is undone (the undo
    lives there), and its "Recorded as" line does not link to the page it is on."""
    auth.login("boss", "organiser")
    konrad = char("Konrad Vale")
    client.post(f"/characters/{konrad.id}/damage", data={"damage_type": "lethal", "levels": "1"})
    ruling = Ruling.select().order_by(Ruling.id.desc()).first()
    page = client.get(f"/rulings/{ruling.id}").get_data(as_text=True)
    assert f'href="/characters/{konrad.id}/history">Konrad Vale</a>' in page and "To undo it" in page
    assert f'href="/rulings/{ruling.id}">Open the record' not in page
    auth.logout()
    auth.login()  # a narrator: undo is the organisers'
    assert "To undo it" not in client.get(f"/rulings/{ruling.id}").get_data(as_text=True)
