"""Check-in in the JSON API (issue 32 item 7): the same rules as the desk, one-time keys, tonight's roster,
a game session's attendance and "award now"."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from larp.models import Character, CheckIn, ExperienceEntry, Ruling
from larp.services.accounts import create_user
from larp.services.api_tokens import create_token


@pytest.fixture
def api(client, dbconn):
    """Call the API with an organiser's token; ``role="narrator"`` with a narrator's."""
    owner = create_user("boss", "Boss", "organiser", "correct horse")
    tokens = {role: create_token(owner, f"Door bot ({role})", role)[1] for role in ("organiser", "narrator")}

    def call(method: str, path: str, body=None, role: str = "organiser", key: str | None = None):
        headers = {"Authorization": f"Bearer {tokens[role]}"}
        if key:
            headers["Idempotency-Key"] = key
        return client.open("/api/v1" + path, method=method, json=body if method != "GET" else None, headers=headers)

    return call


def test_check_in_roster_attendance_and_award_through_the_api(api):
    """Issue 32 item 7: check in by id and by card, the roster counts them, "award now" gives each one line,
    the attendance lists them with their experience; a second check-in is the 200 no-op."""
    konrad = Character.get(Character.name == "Konrad Vale")
    first = api("POST", "/check-ins", {"character_id": konrad.id}, key="door-0001")
    assert first.status_code == 201, first.get_json()
    body = first.get_json()
    assert body["already"] is False and body["check_in"]["how"] == "api" and body["tonight"]["count"] == 1
    assert body["check_in"]["by"].startswith("Door bot") and body["game_session"] == 1
    lys = Character.get(Character.name == "Lys Moreau")
    by_card = api("POST", "/check-ins", {"card": f"http://laptop/C/{lys.card_token}"}, role="narrator")
    assert by_card.status_code == 201 and by_card.get_json()["check_in"]["name"] == "Lys Moreau"
    again = api("POST", "/check-ins", {"card": konrad.short_code})
    assert again.status_code == 200 and again.get_json()["already"] is True and again.get_json()["ruling_id"] is None
    roster = api("GET", "/check-ins").get_json()
    assert roster["tonight"] == {"count": 2, "total": 10}
    assert [c["name"] for c in roster["checked_in"]] == ["Konrad Vale", "Lys Moreau"]
    assert len(roster["expected"]) == 8
    given = api("POST", "/game-sessions/1/attendance", {}, key="award-0001")
    assert given.status_code == 200 and sorted(g["name"] for g in given.json["given"]) == ["Konrad Vale", "Lys Moreau"]
    assert api("POST", "/game-sessions/1/attendance", {}).get_json() == {"given": []}
    assert ExperienceEntry.select().where(ExperienceEntry.what == "attending game session 1").count() == 2
    attendance = api("GET", "/game-sessions/1/attendance").get_json()
    assert [(a["name"], a["experience"]) for a in attendance["attended"]] == [("Konrad Vale", "1"), ("Lys Moreau", "1")]
    assert api("POST", "/game-sessions/1/attendance", {}, role="narrator").status_code == 403


def test_one_time_keys_and_undo(api):
    """Issue 32 item 7: the same Idempotency-Key again is refused naming the ruling (nothing twice); an undo
    takes him off tonight's roster, and undoing again is refused."""
    konrad = Character.get(Character.name == "Konrad Vale")
    first = api("POST", "/check-ins", {"character_id": konrad.id}, key="door-0002")
    repeat = api("POST", "/check-ins", {"character_id": konrad.id}, key="door-0002")
    assert repeat.status_code == 409 and repeat.get_json()["ruling_id"] == first.get_json()["ruling_id"]
    undone = api("POST", f"/check-ins/{konrad.id}/undo", {}, key="undo-0001")
    assert undone.status_code == 201 and undone.get_json()["check_in"] is None
    assert undone.get_json()["tonight"]["count"] == 0
    assert CheckIn.select().count() == 0
    assert api("POST", f"/check-ins/{konrad.id}/undo", {}, key="undo-0001").status_code == 409  # the key
    twice = api("POST", f"/check-ins/{konrad.id}/undo", {})
    assert twice.status_code == 409 and "not checked in" in twice.get_json()["error"]
    assert Ruling.select().where(Ruling.kind == "check_in_undone").count() == 1


def test_the_api_refuses_as_the_desk_does(api):
    """Issue 32 item 7: the door's refusals, a stale game session, bad input: 4xx naming the problem,
    nothing recorded."""
    Character.update(retired_at=date(2026, 1, 1)).where(Character.name == "Lys Moreau").execute()
    lys = Character.get(Character.name == "Lys Moreau")
    retired = api("POST", "/check-ins", {"character_id": lys.id})
    assert retired.status_code == 409 and "is retired" in retired.get_json()["error"]
    stale = api("POST", "/check-ins", {"character_id": 2, "game_session": 5})
    assert stale.status_code == 409 and stale.get_json()["field"] == "game_session"
    assert api("POST", "/check-ins", {}).status_code == 422
    assert api("POST", "/check-ins", {"character_id": 2, "card": "X"}).status_code == 422
    assert api("POST", "/check-ins", {"card": "Konrad"}).status_code == 404  # names are the desk's, not the API's
    assert api("POST", "/check-ins", {"character_id": 9999}).status_code == 404
    assert api("POST", "/check-ins", {"character_id": 2, "how": "card"}).status_code == 422
    assert api("GET", "/game-sessions/9/attendance").status_code == 404
    assert CheckIn.select().count() == 0
