"""Issue 30 item 8, the state: a Virtue Test on a stored character sets "in frenzy" or "in Rötschreck" by its
ruling (larp/rules/frenzy.py; LotNR Virtue Tests and Frenzy, met-reference 1.6, T15), the character's page shows
it, and later challenges read it (LotNR Frenzy: no wound penalty holds him back)."""

from __future__ import annotations

from larp.models import Character, Ruling, Trait, TraitLoss


def cid(name: str) -> int:
    return Character.get(Character.name == name).id


def trait(name: str, category: str) -> str:
    return Trait.select().where((Trait.character == cid(name)) & (Trait.category == category)
                                & (Trait.negative == False)).order_by(Trait.id).first().name  # noqa: E712


def tie_up(client) -> int:
    """Konrad's count on a Mental tie against Pim, less his Traits: his wound penalty (or none)."""
    response = client.post("/api/v1/challenges", json={
        "category": "mental",
        "challenger": {"character_id": cid("Konrad Vale"), "bid": trait("Konrad Vale", "mental")},
        "defender": {"character_id": cid("Pim Halloran"), "bid": trait("Pim Halloran", "mental")},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    TraitLoss.delete().execute()  # each tie starts with the Traits whole
    return body["ruling"]["totals"]["challenger"] - Ruling.get_by_id(body["ruling_id"]).inputs["challenger"]["traits"]


def test_a_lost_self_control_test_puts_him_in_frenzy_until_a_test_ends_it(client, auth, dbconn):
    """T15's shape: Konrad, Self-Control 3 against a stimulus of 5, Rock against Paper: he loses, and is in frenzy
    (the record names the Negative Traits to choose from). Bruised (three bashing), he counts one Trait fewer on a
    tie; in frenzy, none fewer. A test to end it with the trigger gone, won, ends it: the penalty is back."""
    auth.login()
    konrad = cid("Konrad Vale")
    Character.update(virtues={"Self-Control": 3, "Courage": 2}, damage_bashing=3, blood_current=8).where(
        Character.id == konrad).execute()
    assert tie_up(client) == -1
    page = client.get(f"/characters/{konrad}/virtue-test")
    assert page.status_code == 200 and "Self-Control (frenzy): 3" in page.get_data(as_text=True)
    lost = client.post(f"/characters/{konrad}/virtue-test", data={
        "purpose": "resist", "virtue": "self_control", "stimulus": "5", "throw": "rock", "narrator_throw": "paper"})
    assert lost.status_code == 303, lost.get_data(as_text=True)[:400]
    assert Character.get_by_id(konrad).frenzy == "frenzy"
    record = Ruling.select().order_by(Ruling.id.desc()).get()
    assert record.kind == "virtue_test" and record.outcome["condition"] == "frenzy"
    assert record.outcome["negative_traits"]
    shown = client.get(f"/characters/{konrad}").get_data(as_text=True)
    assert 'id="frenzy-state">In frenzy' in shown
    assert tie_up(client) == 0
    ended = client.post(f"/characters/{konrad}/virtue-test", data={
        "purpose": "end", "virtue": "self_control", "trigger_removed": "on", "throw": "rock",
        "narrator_throw": "scissors"})
    assert ended.status_code == 303
    assert Character.get_by_id(konrad).frenzy == ""
    assert tie_up(client) == -1


def test_a_refused_test_changes_nothing(client, auth, dbconn):
    """A test without a stimulus, or with a Virtue that is not one, is refused on the form (422), nothing written."""
    auth.login()
    konrad = cid("Konrad Vale")
    count = Ruling.select().count()
    for data in ({"purpose": "resist", "virtue": "self_control", "stimulus": ""},
                 {"purpose": "resist", "virtue": "patience", "stimulus": "3"}):
        response = client.post(f"/characters/{konrad}/virtue-test", data=data)
        assert response.status_code == 422
    assert Ruling.select().count() == count and Character.get_by_id(konrad).frenzy == ""


def test_the_api_sets_rotschreck_which_keeps_the_wound_penalty(client, auth, dbconn):
    """LotNR Rötschreck (met-reference T26): a Courage test against a torch (2 Traits) lost, through the API: the
    character is in Rötschreck; it is "identical to frenzy" only for its duration and the tests that end it, so
    Konrad, Bruised, still counts one Trait fewer on a tie."""
    auth.login()
    konrad = cid("Konrad Vale")
    Character.update(virtues={"Self-Control": 3, "Courage": 2}, damage_bashing=3).where(Character.id == konrad).execute()
    answer = client.post(f"/api/v1/characters/{konrad}/virtue-test", json={
        "virtue": "courage", "stimulus": "torch", "throw": "rock", "narrator_throw": "paper"})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["frenzy"] == "rotschreck" and answer.get_json()["ruling"]["condition"] == "rotschreck"
    assert Character.get_by_id(konrad).frenzy == "rotschreck"
    assert tie_up(client) == -1
