"""Issue 30 item 5: the order of a turn's actions, from the API and from a plain panel (002 "Order of
Challenges"; LotNR order of challenges, Celerity's Alacrity, Swiftness and Legerity; met-reference 3.1, 3.3)."""

from __future__ import annotations

import re


def test_the_api_answers_the_order_with_its_reasons(client, auth, dbconn):
    """Dana (9 Traits, Alacrity) attacks Ferris (11 Traits), Gil (7) acts without a challenge: Dana pre-empts and
    goes first although Ferris has more Traits, then Ferris, Gil's action with no challenge last; each step cites
    its rule. A participant named twice is refused naming the field."""
    auth.login()
    answer = client.post("/api/v1/turn-order", json={"participants": [
        {"name": "Gil", "traits": 7},
        {"name": "Ferris", "traits": 11, "target": "Dana"},
        {"name": "Dana", "traits": 9, "celerity": 1, "target": "Ferris"}]})
    assert answer.status_code == 200, answer.get_json()
    order = answer.get_json()["order"]
    assert [(s["actor"], s["kind"]) for s in order["slots"]] == [
        ("Dana", "pre-empt"), ("Ferris", "normal"), ("Gil", "no challenge")]
    assert any("Alacrity" in s["rule"] for s in order["steps"])
    twice = client.post("/api/v1/turn-order", json={"participants": [{"name": "Gil", "traits": 7},
                                                                      {"name": "Gil", "traits": 3}]})
    assert twice.status_code == 422 and twice.get_json()["field"] == "participants[1].name"


def test_the_panel_orders_the_turn_without_script(client, auth, dbconn):
    """The panel is a plain GET form: the same three people give the same order with its reasons on the page; an
    unreadable Traits count is refused on the row that holds it."""
    auth.login()
    assert 'name="p0_name"' in client.get("/turn-order").get_data(as_text=True)
    page = client.get("/turn-order", query_string={
        "p0_name": "Gil", "p0_traits": "7", "p1_name": "Ferris", "p1_traits": "11", "p1_target": "Dana",
        "p2_name": "Dana", "p2_traits": "9", "p2_celerity": "1", "p2_target": "Ferris"})
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    slots = re.findall(r"<li><strong>(\d+)\.</strong> (\w+) — ([\w -]+)", body)
    assert [(a, k) for _p, a, k in slots] == [("Dana", "pre-empt"), ("Ferris", "normal"), ("Gil", "no challenge")]
    assert "Alacrity" in body
    bad = client.get("/turn-order", query_string={"p0_name": "Gil", "p0_traits": "many"})
    assert bad.status_code == 422 and 'name="p0_traits" inputmode="numeric" size="3" value="many" aria-invalid="true"' in \
        bad.get_data(as_text=True)


def test_t23_both_hands_on_the_panel(client, auth, dbconn):
    """met-reference T23 (LotNR Celerity, "Two-Gun Mojo") on the panel: Legerity (Celerity 4) with a weapon in
    each hand is four actions, two a hand; both hands give one extra action whatever the Celerity (Celerity 0:
    two actions, one a hand); the steps say why."""
    auth.login()
    page = client.get("/turn-order", query_string={
        "p0_name": "Dana", "p0_traits": "9", "p0_celerity": "4", "p0_both_hands": "on",
        "p1_name": "Gil", "p1_traits": "7", "p1_both_hands": "on"}).get_data(as_text=True)
    assert "<strong>Dana</strong>: 4 actions, 2 with the primary hand and 2 with the other." in page
    assert "<strong>Gil</strong>: 2 actions, 1 with the primary hand and 1 with the other." in page
    assert "only one whatever his Celerity" in page
