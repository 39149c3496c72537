"""Security of every route (issue 6): authorisation everywhere, CSRF, caching, cookies, proxies."""

from __future__ import annotations

import re

import pytest

from larp.models import Character, Chronicle, User
from tests.support import AuthActions, make_test_app

#: The only endpoints anyone may reach without logging in. A new public route must be added
#: here on purpose; every other route is checked by the walk below automatically.
PUBLIC_ENDPOINTS = {
    "static",
    "auth.login",
    "auth.login_link",
    "auth.logout",  # logging out needs no login
    "cards.card_view",  # the card is the key: the player's view of one character
    "cards.card_live",  # the same card page's poll for a narrator's changes (issue 18)
    "api.openapi",  # the API's description holds no data (issue 21); every operation in it needs a token
    "players.claim",  # the card is the key, and a one-time claim code makes the account (issue 33)
}

#: Organiser-only endpoints: a narrator gets 403 (and nothing changes).
ORGANISER_ENDPOINTS = {
    "cards.list_cards", "cards.set_base_url", "cards.rotate", "cards.revoke", "cards.sheet",
    "accounts.users", "accounts.create", "accounts.deactivate", "accounts.activate", "accounts.login_link",
    "accounts.add_existing", "accounts.change_role", "accounts.remove",
}


def every_request(app):
    """(endpoint, method, path) for every route and method, arguments filled with dummies."""
    adapter = app.url_map.bind("localhost")
    for rule in app.url_map.iter_rules():
        values = {arg: "1" for arg in rule.arguments}  # fits int and string converters alike
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule.endpoint, method, adapter.build(rule.endpoint, values, method=method)


def refused(response) -> bool:
    if response.status_code in (401, 403):
        return True
    return response.status_code in (302, 303) and response.headers["Location"].split("?")[0].endswith("/login")


def test_public_allow_list_names_real_endpoints(app):
    """The allow-list must not rot: each entry is a registered endpoint."""
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    assert PUBLIC_ENDPOINTS <= endpoints
    assert ORGANISER_ENDPOINTS <= endpoints


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_every_non_public_route_refuses_an_anonymous_request(app, client, htmx):
    """Walks app.url_map: every route not on the allow-list, pages, htmx partials and any
    /api/ endpoint alike, answers an anonymous request with a redirect to login or 401/403."""
    headers = {"HX-Request": "true"} if htmx else {}
    checked, failures = [], []
    for endpoint, method, path in every_request(app):
        if endpoint in PUBLIC_ENDPOINTS:
            continue
        response = client.open(path, method=method, headers=headers)
        checked.append(endpoint)
        if not refused(response):
            failures.append(f"{method} {path} ({endpoint}) answered {response.status_code}")
        if htmx and response.status_code in (302, 303):
            assert response.headers.get("HX-Redirect", "").startswith("/login")
    assert failures == [], "\n".join(failures)
    # The walk really covered the narrator's and organiser's routes.
    assert {"challenges.resolve", "characters.show", "characters.by_code", "rulings.show",
            "accounts.account"} | ORGANISER_ENDPOINTS <= set(checked)


def test_narrator_is_refused_every_organiser_route(app, client, auth, dbconn):
    """Narrators adjudicate; cards and accounts are the organiser's (403, nothing changes)."""
    auth.login("narrator1", "narrator")
    before = sorted((c.id, c.card_token) for c in Character.select())
    users_before = sorted((u.username, u.active) for u in User.select())
    for endpoint, method, path in every_request(app):
        if endpoint in ORGANISER_ENDPOINTS:
            response = client.open(path, method=method, data={"username": "sneaky", "role": "organiser"})
            assert response.status_code == 403, (method, path)
    assert sorted((c.id, c.card_token) for c in Character.select()) == before
    assert sorted((u.username, u.active) for u in User.select()) == users_before


def test_only_an_administrator_reaches_the_chronicles_pages(app, client, auth, dbconn):
    """The install's chronicles are the administrators' (issue 22): an organiser who is not one
    gets 404 on every /admin route, and nothing changes."""
    auth.login("organiser9", "organiser")
    names = sorted(c.name for c in Chronicle.select())
    walked = 0
    for endpoint, method, path in every_request(app):
        if endpoint.startswith("admin."):
            walked += 1
            response = client.open(path, method=method, data={"name": "Hijacked", "username": "organiser9",
                                                              "confirm_name": names[0], "archived": "1"})
            assert response.status_code == 404, (method, path, response.status_code)
    assert walked >= 6 and sorted(c.name for c in Chronicle.select()) == names


def csrf_from(html: str) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


def test_state_changing_requests_need_the_csrf_token(tmp_path):
    """CSRF protection is on in a real configuration: a login, a plain form post and an htmx
    post without the token are refused (403) and change nothing; with it they work."""
    app = make_test_app(tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    from larp.db import db
    from larp.services.accounts import create_user

    with db.connection_context():
        create_user("org", "Org", "organiser", "correct horse")
        character = Character.select().order_by(Character.name).first()
    token_before = character.card_token

    refused_login = client.post("/login", data={"username": "org", "password": "correct horse"})
    assert refused_login.status_code == 403
    assert "Reload it and try again" in refused_login.get_data(as_text=True)

    page = client.get("/login").get_data(as_text=True)
    assert client.post("/login", data={"username": "org", "password": "correct horse",
                                       "csrf_token": csrf_from(page)}).status_code == 303
    token = csrf_from(client.get("/cards").get_data(as_text=True))

    plain = client.post(f"/cards/{character.id}/rotate")
    htmx = client.post(f"/cards/{character.id}/rotate", headers={"HX-Request": "true"})
    assert (plain.status_code, htmx.status_code) == (403, 403)
    assert htmx.headers.get("HX-Refresh") == "true"
    with db.connection_context():
        assert Character.get_by_id(character.id).card_token == token_before

    ok = client.post(f"/cards/{character.id}/rotate", headers={"HX-Request": "true", "X-CSRFToken": token})
    assert ok.status_code == 200
    assert "has a new card link" in ok.get_data(as_text=True)
    with db.connection_context():
        assert Character.get_by_id(character.id).card_token != token_before
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None  # the token does not expire during an event


def test_character_pages_and_cards_are_never_cached(client, auth, dbconn):
    """Shared tablets and phones: character pages and the card view answer no-store, and the
    Content-Security-Policy allows no inline script or style and no eval."""
    character = Character.get(Character.name == "Konrad Vale")
    anonymous = client.get(f"/c/{character.card_token}")
    missing = client.get("/c/NOTATOKEN")
    assert anonymous.headers["Cache-Control"] == "no-store"
    assert missing.headers["Cache-Control"] == "no-store"
    auth.login()
    for path in (f"/characters/{character.id}", f"/c/{character.card_token}", "/challenge"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-store"
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp


def test_proxy_headers_are_trusted_only_when_configured(tmp_path, monkeypatch):
    """X-Forwarded-Proto/-Host change the address on the cards only behind a proxy
    (LARP_BEHIND_PROXY=1); otherwise a client cannot fake them."""
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "larp.example.org"}

    def sheet_base(app) -> str:
        client = app.test_client()
        AuthActions(client).login("org", "organiser")
        page = client.get("/cards/sheet?all=1", headers=headers).get_data(as_text=True)
        return re.search(r"The QR codes lead to <code>([^<]+)</code>", page).group(1)

    assert sheet_base(make_test_app(tmp_path / "direct")) == "http://localhost"
    monkeypatch.setenv("LARP_BEHIND_PROXY", "1")
    proxied = make_test_app(tmp_path / "proxied")
    assert proxied.config["BEHIND_PROXY"] is True
    assert sheet_base(proxied) == "https://larp.example.org"


def test_session_cookie_is_secure_only_when_told(tmp_path, monkeypatch):
    """Plain HTTP on an event network needs a non-Secure cookie; LARP_SECURE_COOKIES=1 behind HTTPS."""

    def login_cookie(app) -> str:
        response = AuthActions(app.test_client()).login("org", "organiser")
        return response.headers["Set-Cookie"]

    plain = login_cookie(make_test_app(tmp_path / "plain"))
    assert "HttpOnly" in plain and "SameSite=Lax" in plain and "Secure" not in plain
    monkeypatch.setenv("LARP_SECURE_COOKIES", "1")
    assert "Secure" in login_cookie(make_test_app(tmp_path / "secure"))


@pytest.mark.parametrize("target", ["/%09/evil.example/", "//evil.example/", "/%5Cevil.example", "/\\evil.example",
                                    "https://evil.example/", "%2F%2Fevil.example", "/%0A/evil.example", " //evil.example",
                                    "javascript:alert(1)", "/%2509/evil.example", "evil.example"])
def test_login_never_redirects_off_the_site(client, auth, target):
    """Issue 19 item 5: ``/login?next=/%09/evil.example/`` answered ``Location: //evil.example/`` (the tab
    decoded, then dropped by the browser); only a relative path on this host is followed."""
    from larp.services.accounts import create_user
    from larp.db import db

    with db.connection_context():
        create_user("nara", "Nara", "narrator", "correct horse")
    response = client.post(f"/login?next={target}", data={"username": "nara", "password": "correct horse"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_login_follows_a_path_on_this_site(client):
    """Issue 19 item 5: a real next page (with its query) is still where the login goes."""
    from larp.services.accounts import create_user
    from larp.db import db

    with db.connection_context():
        create_user("nara", "Nara", "narrator", "correct horse")
    response = client.post("/login?next=/characters%3Fq%3DVi", data={"username": "nara", "password": "correct horse"})
    assert response.headers["Location"] == "/characters?q=Vi"
