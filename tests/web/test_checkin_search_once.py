"""The check-in desk's name search reads the open game session once a request (s7): the same row says who of the
names is checked in already and which game session the "Check in" forms are for."""

from __future__ import annotations

import re

import pytest

from larp.models import Character
from tests.web.test_one_call_per_tap import statements  # noqa: F401 - every SQL statement sent, in order


def _session_reads(seen: list[str]) -> int:
    """The statements that read the game session table (the open one is looked up there)."""
    return len([sql for sql in seen if re.search(r'FROM "gamesession"', sql, re.I)])


@pytest.mark.parametrize("htmx", [True, False])
def test_a_name_search_reads_the_open_game_session_once(client, auth, dbconn, statements, htmx):
    """Letters several names hold ("a"): the candidates come with Konrad marked as checked in already (he was),
    the forms for game session 1, and one read of the game session for it all (active search and a plain
    browser's whole desk alike)."""
    auth.login("nara", "narrator")
    konrad = Character.get(Character.name == "Konrad Vale")
    assert client.post("/checkin", data={"session": "1", "character": konrad.id, "how": "name"}).status_code == 200
    statements.clear()
    page = client.get("/checkin/find?q=a", headers={"HX-Request": "true"} if htmx else {}).get_data(as_text=True)
    assert "Konrad Vale is checked in already." in page and "Check in Pim Halloran" in page
    assert 'name="session" value="1"' in page
    assert _session_reads(statements) == 1, "\n".join(s[:120] for s in statements if "gamesession" in s.lower())


def test_a_roster_poll_reads_the_open_game_session_once(client, auth, dbconn, statements):
    """A desk's poll with an old fingerprint gets the roster (Konrad here), reading the game session once for the
    fingerprint, the roster and the page; unchanged, 204 with the same one read."""
    auth.login("nara", "narrator")
    konrad = Character.get(Character.name == "Konrad Vale")
    client.post("/checkin", data={"session": "1", "character": konrad.id, "how": "name"})
    statements.clear()
    polled = client.get("/checkin/roster?v=old", headers={"HX-Request": "true"})
    assert polled.status_code == 200 and "Konrad Vale" in polled.get_data(as_text=True)
    assert _session_reads(statements) == 1
    now = re.search(r'/checkin/roster\?v=([^"&]+)', polled.get_data(as_text=True)).group(1)
    statements.clear()
    assert client.get(f"/checkin/roster?v={now}", headers={"HX-Request": "true"}).status_code == 204
    assert _session_reads(statements) == 1
