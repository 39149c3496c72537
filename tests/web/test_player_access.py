"""Issue 33 item 7: a player can never reach another character's sheet, an organiser's or narrator's
page, or another chronicle; and item 6's token part: a player's API token sees only his own characters.

Chronicle A is the demo, with the player ``pia`` playing its first character; chronicle B is made
beside it (``two`` of tests/web/test_chronicles_scope.py). The walks go over every route of
``app.url_map`` (pages, forms, htmx partials, the JSON API), with A's other character's ids and B's
ids in the path, the query and the form, at A's and B's URLs, with the session and with his token.
Run on both engines (the suite's PostgreSQL run).
"""

from __future__ import annotations

import pytest

from larp.db import db
from larp.models import Character, Chronicle, Membership, Ruling
from larp.models.players import CharacterPlayer
from larp.services.api_tokens import create_token
from tests.support import AuthActions, make_player
from tests.web.test_chronicles_scope import B_NAMES, PASSWORD, QUERY, _form, two  # noqa: F401 - ``two`` is a fixture
from tests.web.test_security import PUBLIC_ENDPOINTS

#: What a player may open, beside the public pages: his account, and (:func:`player_open`) his own pages under
#: ``/my`` and the API calls for players (``larp.web.api.PLAYER_ENDPOINTS``). The card pages are the card's key
#: (anyone holding it sees the player's view). Each of those must still show nothing of another character.
PLAYER_OPEN = {"accounts.account", "accounts.create_api_token", "accounts.revoke_api_token", "index"}


def player_open(app) -> set[str]:
    """The endpoints a player may open: :data:`PLAYER_OPEN`, every page under ``/my`` (the player's pages,
    issue 33's other items add theirs there) and every API call of ``PLAYER_ENDPOINTS``."""
    from larp.web.api import PLAYER_ENDPOINTS

    mine = {rule.endpoint for rule in app.url_map.iter_rules() if rule.rule == "/my" or rule.rule.startswith("/my/")}
    return PLAYER_OPEN | mine | PLAYER_ENDPOINTS
#: Never walked: they end his session (the walk would go on logged out).
LOGS_OUT = {"auth.logout", "accounts.logout_everywhere"}


@pytest.fixture
def pia(app, two):  # noqa: F811 - the fixture imported above
    """``pia``, a player of A's first character (``mine``), with a player's API token; ``other`` is
    A's second character."""
    with db.connection_context():
        a = Chronicle.get_by_id(two["a"])
        mine, other = list(Character.select().where(Character.chronicle == a).order_by(Character.id).limit(2))
    user = make_player(app, mine, username="pia", password=PASSWORD)
    with db.connection_context():
        token = create_token(user, "Pia's phone", "player")[1]
    return {"mine": mine, "other": other, "token": token, "user": user, **two}


def _state():
    """Everything of both chronicles a request could change (characters, rulings, memberships, links)."""
    return (sorted((c.id, c.version, c.card_token, c.damage_lethal, c.blood_current, c.retired_at, c.sheet_edition)
                   for c in Character.select()),
            Ruling.select().count(),
            sorted((m.user_id, m.chronicle_id, m.role) for m in Membership.select()),
            sorted((l.user_id, l.character_id) for l in CharacterPlayer.select()))


def _requests(app, values: dict, prefix: str):
    adapter = app.url_map.bind("localhost")
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint in LOGS_OUT:
            continue
        filled = {arg: values.get(arg, "1") for arg in rule.arguments}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            path = adapter.build(rule.endpoint, filled, method=method)
            if path.startswith("/api/v1"):
                path = path.replace("/api/v1", "/api/v1" + prefix, 1)
            elif not rule.endpoint.startswith(("auth.", "admin.")):
                path = prefix + path
            yield rule.endpoint, method, path


def _send(client, method: str, path: str, query: str, form: dict, headers: dict):
    if method == "GET":
        return client.get(f"{path}?{query}", headers=headers)
    if path.startswith("/api/"):
        return client.open(path, method=method, json={"character_id": form["character"]}, headers=headers)
    return client.open(path, method=method, data=form, headers=headers)


def test_a_player_reaches_no_other_character_no_staff_page_and_no_other_chronicle(app, client, pia):
    """As the player, with the session and with his token: every route with A's other character's ids
    (at A's URL) and with B's ids (at B's URL) is refused or shows nothing of them; only his own pages,
    his account and the card pages (the card is the key) answer; B's URLs are all 404; nothing changes."""
    other, zed, yara = pia["other"], pia["zed"], pia["yara"]
    with db.connection_context():
        before = _state()
    assert AuthActions(client).login("pia", "player", PASSWORD).status_code == 303
    hidden_a = (other.name,)
    allowed = player_open(app)
    opened, leaks, not_404 = set(), [], []
    for prefix, victim, second, names in ((f"/chronicles/{pia['a']}", other, other, hidden_a),
                                          (f"/chronicles/{pia['b']}", zed, yara, B_NAMES)):
        values = {"character_id": victim.id, "ruling_id": pia["ruling"], "user_id": pia["b_user"], "token_id": 1,
                  "combat_id": 1, "token": victim.card_token, "section": "notes", "user_id_": 1}
        query = QUERY.format(z=victim.id, y=second.id, r=pia["ruling"], code=victim.short_code)
        form = {**_form({"zed": victim, "yara": second}), "username": "pia", "code": "AAAAA-AAAAA"}
        in_b = victim is zed
        for endpoint, method, path in _requests(app, values, prefix):
            for attempt in ("session", "token") if path.startswith("/api/") else ("session",):
                headers = {"Authorization": f"Bearer {pia['token']}"} if attempt == "token" else {}
                response = _send(client, method, path, query, form, headers)
                body = response.get_data(as_text=True)
                status = response.status_code
                label = f"{attempt} {method} {path} ({endpoint}): {status}"
                if endpoint.startswith("cards.") and endpoint in PUBLIC_ENDPOINTS or endpoint == "players.claim":
                    # The card is the key: the player's view of that one character, never the narrator's actions.
                    if "Start a challenge" in body or "Damage and healing" in body:
                        leaks.append(f"{label} showed the narrator's actions")
                    continue
                if in_b and not path.startswith(("/login", "/admin", "/api/v1/openapi")) and status != 404:
                    not_404.append(label)
                if status < 400 and status not in (301, 302, 303, 307, 308):
                    if endpoint not in allowed and endpoint not in PUBLIC_ENDPOINTS:
                        leaks.append(f"{label} answered a player")
                    opened.add(endpoint)
                    if endpoint not in PUBLIC_ENDPOINTS and any(name in body for name in names):  # the API's
                        # description names the demo's characters in its examples: not a leak
                        leaks.append(f"{label} showed {names}")
                elif status in (301, 302, 303, 307, 308):
                    location = response.headers["Location"]
                    if f"/chronicles/{pia['b']}" in location or f"/{victim.id}" in location.split("?")[0]:
                        leaks.append(f"{label} redirected to {location}")
    assert not_404 == [], "\n".join(not_404)
    assert leaks == [], "\n".join(leaks)
    assert {"players.home", "accounts.account", "api.my_characters_api"} <= opened  # the walk did reach his pages
    with db.connection_context():
        after = _state()
    # His own account's token list may grow (the walk made one token); nothing of any chronicle changed.
    assert after == before


def test_his_own_pages_and_his_token_show_his_character_only(app, client, pia):
    mine, other = pia["mine"], pia["other"]
    AuthActions(client).login("pia", "player", PASSWORD)
    assert client.get(f"/chronicles/{pia['a']}/my/characters/{mine.id}").status_code == 200
    assert client.get(f"/chronicles/{pia['a']}/my/characters/{other.id}").status_code == 404
    assert client.get(f"/chronicles/{pia['b']}/my/characters/{mine.id}").status_code == 404
    headers = {"Authorization": f"Bearer {pia['token']}"}
    listed = client.get("/api/v1/my/characters", headers=headers)
    assert listed.status_code == 200
    characters = listed.get_json()["characters"]
    assert [c["id"] for c in characters] == [mine.id]
    assert "narrator_notes" not in characters[0]["sheet"] and "player_contact" not in characters[0]["sheet"]
    for path in ("/api/v1/characters", f"/api/v1/characters/{mine.id}", f"/api/v1/characters/{other.id}",
                 "/api/v1/rulings", "/api/v1/check-ins"):
        refused = client.get(path, headers=headers)
        assert refused.status_code == 403, path
        assert mine.name not in refused.get_data(as_text=True) and other.name not in refused.get_data(as_text=True)


def test_a_player_may_not_make_a_narrators_token(app, client, pia):
    AuthActions(client).login("pia", "player", PASSWORD)
    page = client.get("/account").get_data(as_text=True)
    assert '<option value="player">' in page and '<option value="narrator">' not in page
    made = client.post("/account/tokens", data={"name": "Sneaky", "role": "narrator"})
    assert made.status_code == 403
