"""Several chronicles on one server (issue 22): nobody reaches a chronicle he does not belong to.

Chronicle A is the demo; chronicle B is made beside it with its own organiser, characters and
record. The walks below go over every route of ``app.url_map`` (pages, forms, htmx partials and
the JSON API), with B's ids in the path, the query and the form, both at the short paths and at
``/chronicles/<B>/...``, as A's narrator, A's organiser and an administrator who is not in B.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from larp.db import db
from larp.models import Character, Chronicle, Membership, Ruling, User
from larp.services.accounts import create_user
from larp.services.api_tokens import create_token
from larp.services.memberships import create_chronicle
from larp.services.sheets import new_character
from tests.support import AuthActions
from tests.web.test_security import every_request

PASSWORD = "correct horse"
B_NAMES = ("Zed Quillon", "Yara Mistwood")


@pytest.fixture
def two(app):
    """Chronicle A (the demo) and chronicle B, with: ``org_b`` (organiser of B only), ``narr_a``
    (narrator of A), ``org_a`` (organiser of A), ``admin`` (administrator, organiser of A, not in B)."""
    with db.connection_context():
        a = Chronicle.get(Chronicle.is_demo == True)  # noqa: E712
        b = create_chronicle("Nights of Brookhaven", date.today())
        people = {
            "org_b": create_user("org_b", "Bea", "organiser", PASSWORD, chronicle=b),
            "narr_a": create_user("narr_a", "Nell", "narrator", PASSWORD, chronicle=a),
            "org_a": create_user("org_a", "Otto", "organiser", PASSWORD, chronicle=a),
            "admin": create_user("admin", "Ada", "organiser", PASSWORD, chronicle=a, admin=True),
        }
        zed, created = new_character(b, people["org_b"], {"name": B_NAMES[0]})
        yara, _ = new_character(b, people["org_b"], {"name": B_NAMES[1]})
        tokens = {name: create_token(user, f"{name} bot", "narrator" if name == "narr_a" else "organiser")[1]
                  for name, user in people.items()}
        return {"a": a.id, "b": b.id, "zed": zed, "yara": yara, "ruling": created.id, "tokens": tokens,
                "b_user": people["org_b"].id}


def _b_state():
    """What B holds, to check that nothing of it changed."""
    return (sorted((c.id, c.version, c.card_token, c.damage_lethal, c.blood_current, c.retired_at)
                   for c in Character.select().where(Character.chronicle == Chronicle.get(Chronicle.name == "Nights of Brookhaven"))),
            Ruling.select().join(Chronicle).where(Chronicle.name == "Nights of Brookhaven").count(),
            sorted((m.user_id, m.role) for m in Membership.select()))


def _with_b_ids(app, two, prefix: str):
    """Every request of the URL map with B's ids filled in, under ``prefix`` ("" or /chronicles/<B>)."""
    zed = two["zed"]
    values = {"character_id": zed.id, "ruling_id": two["ruling"], "user_id": two["b_user"], "token_id": 1,
              "combat_id": 1, "token": zed.card_token, "section": "notes"}
    adapter = app.url_map.bind("localhost")
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.startswith(("auth.", "admin.")):
            continue
        filled = {arg: values.get(arg, "1") for arg in rule.arguments}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            path = adapter.build(rule.endpoint, filled, method=method)
            if path.startswith("/api/v1"):
                path = path.replace("/api/v1", "/api/v1" + prefix, 1) if prefix else path
            else:
                path = prefix + path
            yield rule.endpoint, method, path


QUERY = "challenger={z}&defender={y}&target={z}&a={y}&character={z}&ruling={r}&code={code}"


def _form(two) -> dict:
    zed, yara = two["zed"], two["yara"]
    return {"character": zed.id, "challenger": zed.id, "defender": yara.id, "target": zed.id, "a": yara.id,
            "victim": yara.id, "damage_type": "lethal", "levels": "1", "name": "Stolen", "confirm": "yes",
            "confirm_name": zed.name, "role": "organiser", "username": "org_b", "kind": "bashing"}


#: Not a chronicle's page: what they answer does not depend on the chronicle.
PLAYER_CARD = {"cards.card_view", "cards.card_live", "players.claim"}  # issue 33: a claim needs the card and a code


@pytest.mark.parametrize("who", ["narr_a", "org_a", "admin"])
def test_no_page_form_or_api_path_reaches_another_chronicle(app, client, two, who):
    """As A's narrator, A's organiser and an administrator not in B: every route with B's ids,
    at B's URL (/chronicles/<B>/..., /api/v1/chronicles/<B>/...) is a 404, and at the short paths
    (which work in A) nothing answers with B's characters; nothing of B changes."""
    with db.connection_context():
        before = _b_state()
    AuthActions(client).login(who, "narrator", PASSWORD)
    token = two["tokens"][who]
    zed, yara = two["zed"], two["yara"]
    query = QUERY.format(z=zed.id, y=yara.id, r=two["ruling"], code=zed.short_code)
    leaks, not_404 = [], []
    for prefix in (f"/chronicles/{two['b']}", ""):
        for endpoint, method, path in _with_b_ids(app, two, prefix):
            api = path.startswith("/api/")
            for attempt in ("session", "token") if api else ("session",):
                headers = {"Authorization": f"Bearer {token}"} if attempt == "token" else {}
                if method == "GET":
                    response = client.get(f"{path}?{query}", headers=headers)
                elif api:
                    response = client.open(path, method=method, json={"character_id": zed.id}, headers=headers)
                else:
                    response = client.open(path, method=method, data=_form(two), headers=headers)
                body = response.get_data(as_text=True)
                if endpoint in PLAYER_CARD:
                    # The card is the key: anyone holding it sees the player's view, never the actions.
                    if response.status_code == 302:
                        leaks.append(f"{method} {path} sent {who} to {response.headers['Location']}")
                    elif 'action="' in body and "/damage" in body:
                        leaks.append(f"{method} {path} showed the narrator's actions of B's character")
                    continue
                if prefix and response.status_code != 404:
                    not_404.append(f"{attempt} {method} {path} ({endpoint}): {response.status_code}")
                if response.status_code < 400 and any(name in body for name in B_NAMES):
                    leaks.append(f"{attempt} {method} {path} ({endpoint}) showed B's character")
                if response.status_code in (301, 302, 303, 307, 308):
                    location = response.headers["Location"]
                    if f"/chronicles/{two['b']}" in location:
                        leaks.append(f"{method} {path} redirected into B: {location}")
    assert not_404 == [], "\n".join(not_404)
    assert leaks == [], "\n".join(leaks)
    with db.connection_context():
        assert _b_state() == before


def test_a_short_code_finds_only_the_own_chronicles_character(app, client, two):
    """Card codes are unique within a chronicle: B may hold the code of an A character, and a
    narrator of A typing it gets A's character; B's own code finds nothing for him."""
    with db.connection_context():
        vivienne = Character.get(Character.name == "Vivienne Ashcombe")
        Character.update(short_code=vivienne.short_code).where(Character.id == two["zed"].id).execute()
        zed_only = two["yara"].short_code
    AuthActions(client).login("narr_a", "narrator", PASSWORD)
    found = client.get(f"/chronicles/{two['a']}/code?code={vivienne.short_code}")
    assert found.status_code in (302, 303) and found.headers["Location"].endswith(f"/characters/{vivienne.id}")
    assert client.get(f"/code?code={zed_only}").headers["Location"].endswith(f"/chronicles/{two['a']}/code?code={zed_only}")
    missing = client.get(f"/chronicles/{two['a']}/code?code={zed_only}")
    assert B_NAMES[1] not in missing.get_data(as_text=True) and f"/characters/{two['yara'].id}" not in missing.headers.get("Location", "")


def test_a_member_of_both_switches_and_each_url_names_its_chronicle(app, client, two):
    """Someone in both chronicles gets the switcher; the short paths send him to the page in the
    chronicle he last worked in, with its id in the URL (on a server of several chronicles every
    page's URL names its chronicle); every link on the page keeps it; the
    record and the character list show only that chronicle's."""
    with db.connection_context():
        Membership.create(user=User.get(User.username == "narr_a").id, chronicle=two["b"], role="narrator")
    AuthActions(client).login("narr_a", "narrator", PASSWORD)
    a, b = two["a"], two["b"]
    first = client.get("/characters")
    assert first.status_code == 302 and first.headers["Location"].endswith(f"/chronicles/{a}/characters")
    page = client.get(f"/chronicles/{a}/characters").get_data(as_text=True)
    assert 'class="switcher"' in page and "Nights of Brookhaven" in page
    assert "Vivienne Ashcombe" in page and B_NAMES[0] not in page
    links = re.findall(r'(?:href|action|hx-get|hx-post)="(/[^"]*)"', page)
    scoped = [link for link in links if not link.startswith(("/static/", "/login", "/logout", "/account", "/chronicles/", "/c/"))]
    assert scoped == [], scoped  # every link of the chronicle names it
    # Switching: opening B's first page makes B the current chronicle.
    assert client.get(f"/chronicles/{b}/").status_code == 200
    again = client.get("/rulings")
    assert again.headers["Location"].endswith(f"/chronicles/{b}/rulings")
    record = client.get(f"/chronicles/{b}/rulings").get_data(as_text=True)
    assert B_NAMES[0] in record and "Vivienne Ashcombe" not in record
    # His role is per chronicle: make him B's organiser, and B's Users page opens while A's stays closed.
    with db.connection_context():
        Membership.update(role="organiser").where(Membership.chronicle == b).execute()
    assert client.get(f"/chronicles/{b}/users").status_code == 200
    assert client.get(f"/chronicles/{a}/users").status_code == 403


def test_a_token_names_its_chronicle_when_its_user_is_in_several(app, client, two):
    """The API: a token acts in its user's chronicles. With one chronicle the short paths work;
    with several the path must name one (400 otherwise), and a chronicle he is not in is a 404."""
    headers = {"Authorization": f"Bearer {two['tokens']['org_b']}"}
    listed = client.get("/api/v1/characters", headers=headers).get_json()
    assert sorted(c["name"] for c in listed["characters"]) == sorted(B_NAMES)
    assert client.get(f"/api/v1/chronicles/{two['a']}/characters", headers=headers).status_code == 404
    with db.connection_context():
        Membership.create(user=two["b_user"], chronicle=two["a"], role="narrator")
    listed = client.get("/api/v1/chronicles", headers=headers).get_json()["chronicles"]
    assert [(c["id"], c["role"]) for c in listed] == [(two["a"], "narrator"), (two["b"], "organiser")]
    several = client.get("/api/v1/characters", headers=headers)
    assert several.status_code == 400
    assert f"by id: {two['a']}: Nights of Ashford (demo); {two['b']}: Nights of Brookhaven" in several.get_json()["error"]
    in_a = client.get(f"/api/v1/chronicles/{two['a']}/characters", headers=headers).get_json()
    assert "Vivienne Ashcombe" in {c["name"] for c in in_a["characters"]}
    # His role in A is narrator: his organiser token acts as a narrator there (403 on an organiser's call).
    made = client.post(f"/api/v1/chronicles/{two['a']}/characters", json={"name": "Sneaky"}, headers=headers)
    assert made.status_code == 403
    assert client.post(f"/api/v1/chronicles/{two['b']}/characters", json={"name": "Welcome"}, headers=headers).status_code == 201


def test_the_administrator_keeps_the_chronicles(app, client, two):
    """An administrator creates a chronicle, appoints a new organiser (a one-time login link),
    renames, archives (its people are refused) and deletes it with its name typed; a plain
    organiser gets 404 on these pages."""
    auth = AuthActions(client)
    auth.login("org_a", "organiser", PASSWORD)
    assert client.get("/admin/chronicles").status_code == 404
    auth.logout()
    auth.login("admin", "organiser", PASSWORD)
    made = client.post("/admin/chronicles", data={"name": "Crossroads"})
    assert made.status_code == 303
    with db.connection_context():
        cross = Chronicle.get(Chronicle.name == "Crossroads")
    appointed = client.post(f"/admin/chronicles/{cross.id}/appoint", data={"username": "carla", "display_name": "Carla", "role": "organiser"})
    assert appointed.status_code == 200 and "/login/link/" in appointed.get_data(as_text=True)
    clash = client.post(f"/admin/chronicles/{cross.id}/rename", data={"name": "Nights of Brookhaven"})
    assert clash.status_code == 409
    # The refused form's panel stays open, with the message in it, where the name was typed.
    panel = re.search(rf'id="chronicle-{cross.id}".*?</li>', clash.get_data(as_text=True), re.S).group(0)
    assert "<details open>" in panel and panel.index('role="alert"') > panel.index("<details open>")
    assert client.post(f"/admin/chronicles/{cross.id}/rename", data={"name": "Crossroads by Night"}).status_code == 303
    client.post(f"/admin/chronicles/{cross.id}/archive", data={"archived": "1"})
    assert client.get(f"/chronicles/{cross.id}/characters").status_code == 404  # archived: refused to its members
    assert client.get(f"/admin/chronicles/{cross.id}/export").get_json()["chronicle"]["name"] == "Crossroads by Night"
    refused = client.post(f"/admin/chronicles/{cross.id}/delete", data={"confirm_name": "crossroads"})
    assert refused.status_code == 422
    with db.connection_context():
        assert Chronicle.get_or_none(Chronicle.id == cross.id) is not None
    assert client.post(f"/admin/chronicles/{cross.id}/delete", data={"confirm_name": "Crossroads by Night"}).status_code == 303
    with db.connection_context():
        assert Chronicle.get_or_none(Chronicle.id == cross.id) is None
        assert User.get(User.username == "carla").active  # the account stays


def test_an_organiser_manages_only_his_chronicles_people(app, client, two):
    """A's organiser lists only A's people, cannot act on B's organiser (404), and cannot take over
    someone who is also an organiser of B (403 on the login link), nor remove A's last organiser."""
    with db.connection_context():
        Membership.create(user=two["b_user"], chronicle=two["a"], role="narrator")
    AuthActions(client).login("org_a", "organiser", PASSWORD)
    page = client.get("/users", follow_redirects=True).get_data(as_text=True)
    assert "org_b" in page and "narr_a" in page
    assert client.post(f"/users/{two['b_user']}/login-link").status_code == 403
    assert client.post(f"/users/{two['b_user']}/deactivate").status_code == 403
    with db.connection_context():
        assert User.get_by_id(two["b_user"]).active
        outsider = create_user("b_only", "Bo", "narrator", PASSWORD, chronicle=Chronicle.get_by_id(two["b"]))
    assert client.post(f"/users/{outsider.id}/login-link").status_code == 404
    assert client.post(f"/users/{outsider.id}/remove", data={"confirm": "yes"}).status_code == 404
    unticked = client.post(f"/users/{two['b_user']}/remove")
    assert unticked.status_code == 422 and "to confirm" in unticked.get_data(as_text=True)
    with db.connection_context():
        assert Membership.select().where(Membership.user == two["b_user"]).count() == 2  # nothing changed
    assert client.post(f"/users/{two['b_user']}/remove", data={"confirm": "yes"}).status_code == 303  # out of A, still in B
    with db.connection_context():
        assert [m.chronicle_id for m in Membership.select().where(Membership.user == two["b_user"])] == [two["b"]]


def test_every_page_of_a_chronicle_opens_at_its_url_for_its_organiser(app, client, two):
    """The other side of the matrix: B's organiser opens every page of B at /chronicles/<B>/...
    (no 404, no 5xx), with B's characters on them and the links kept in B."""
    AuthActions(client).login("org_b", "organiser", PASSWORD)
    zed = two["zed"]
    real = {"character_id", "ruling_id", "token", "section"}  # the ids B really has
    adapter = app.url_map.bind("localhost")
    failures = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static" or rule.endpoint.startswith(("auth.", "admin.", "api.")):
            continue
        if set(rule.arguments) - real or rule.endpoint in ("imports.preview", "rulings.by_token", "characters.by_code"):
            continue
        if rule.endpoint.startswith("players."):  # a player's pages of his own characters (issue 33): 404 for anyone else's
            continue
        if rule.endpoint == "between_game_actions.player_actions":  # the same: his between-game actions (issue 33 item 3)
            continue
        values = {"character_id": zed.id, "ruling_id": two["ruling"], "token": zed.card_token, "section": "notes"}
        path = f"/chronicles/{two['b']}" + adapter.build(rule.endpoint, {a: values[a] for a in rule.arguments})
        response = client.get(path)
        if response.status_code == 404 or response.status_code >= 500:
            failures.append(f"GET {path} ({rule.endpoint}): {response.status_code}")
    assert failures == [], "\n".join(failures)
    page = client.get(f"/chronicles/{two['b']}/characters/{zed.id}").get_data(as_text=True)
    assert B_NAMES[0] in page and f'action="/chronicles/{two["b"]}/characters/{zed.id}/damage"' in page


def test_a_repeated_api_call_names_its_first_ruling_at_its_chronicles_address(app, client, two):
    """The same Idempotency-Key twice on "create a character" is "already recorded" (the first
    ruling, whose page names chronicle B), not "that name is taken"; nothing is created twice."""
    headers = {"Authorization": f"Bearer {two['tokens']['org_b']}", "Idempotency-Key": "bot-create-1"}
    first = client.post("/api/v1/characters", json={"name": "Welcome"}, headers=headers)
    assert first.status_code == 201
    again = client.post("/api/v1/characters", json={"name": "Welcome"}, headers=headers)
    body = again.get_json()
    assert again.status_code == 409 and body["field"] == "Idempotency-Key", body
    assert "(Welcome created). Nothing was recorded twice." in body["error"]  # one full stop, not ".)."
    with db.connection_context():
        ruling = Ruling.get(Ruling.request_token == "bot-create-1")
        assert Character.select().where(Character.name == "Welcome").count() == 1
    assert (body["ruling_id"], body["ruling_url"]) == (ruling.id, f"/chronicles/{two['b']}/rulings/{ruling.id}")
    listed = client.get("/api/v1/rulings", headers=headers).get_json()
    assert listed["rulings"][0]["url"] == f"/chronicles/{two['b']}/rulings/{ruling.id}"
    assert client.get(body["ruling_url"], headers=headers).status_code in (200, 302)


def test_someone_in_no_chronicle_is_offered_no_chronicles_pages(app, client, two):
    """A new account in no chronicle yet: the first page says whom to ask (404), and the top bar
    offers no Challenge, Combat or code box, which would all be 404s; his account page opens."""
    with db.connection_context():
        create_user("newcomer", "Nia", "narrator", PASSWORD, chronicle=None)
    AuthActions(client).login("newcomer", "narrator", PASSWORD)
    first = client.get("/")
    assert first.status_code == 404 and "ask an administrator" in first.get_data(as_text=True)
    account = client.get("/account")
    page = account.get_data(as_text=True)
    assert account.status_code == 200 and 'class="mainnav"' not in page and 'id="code-box"' not in page
    assert "Switch user" in page


def test_an_administrator_in_no_chronicle_is_told_where_he_stands(app, client, two):
    """An administrator made in no chronicle lands on the Chronicles page, which says he is in none yet
    and how to join one; his account page says so instead of a role."""
    with db.connection_context():
        create_user("keeper", "Kim", "organiser", PASSWORD, chronicle=None, admin=True)
    AuthActions(client).login("keeper", "organiser", PASSWORD)
    page = client.get("/", follow_redirects=True).get_data(as_text=True)
    assert "You are in no chronicle yet" in page and "by your user name, keeper" in page
    account = client.get("/account").get_data(as_text=True)
    assert "in no chronicle yet · administrator" in account
    made = client.post(f"/admin/chronicles/{two['b']}/appoint", data={"username": "newbie", "role": "organiser"})
    assert "newbie is now an organiser of Nights of Brookhaven" in made.get_data(as_text=True)


def _saved_as(response) -> str:
    """The file name a browser saves ``response`` as (RFC 6266: ``filename*`` wins), after checking the header
    is Latin-1, the only thing the server can write (waitress: a 500 otherwise)."""
    from werkzeug.http import parse_options_header

    header = response.headers["Content-Disposition"]
    header.encode("latin-1")
    assert re.search(r"(^|; )filename=[\x21-\x7e]+", header)  # the plain name, for a browser without RFC 6266
    kind, options = parse_options_header(header)  # werkzeug reads filename* as the browser does
    assert kind == "attachment"
    return options["filename"]


@pytest.mark.parametrize("name", ["Ночи Москвы", "東京の夜", "Noites de São Paulo 🦇 «Ж»"])
def test_a_chronicle_named_in_any_script_downloads(app, client, two, name):
    """New user 12: a chronicle whose name is outside Latin-1 downloaded as a 500 (the file name was written raw
    into the header). Every download (the admin's and the organiser's JSON, the Grapevine files) now says its name
    as RFC 6266's UTF-8 ``filename*`` beside an ASCII ``filename``, and the file itself is whole."""
    auth = AuthActions(client)
    auth.login("admin", "organiser", PASSWORD)
    assert client.post("/admin/chronicles", data={"name": name}).status_code == 303
    with db.connection_context():
        chronicle = Chronicle.get(Chronicle.name == name)
        new_character(chronicle, None, {"name": "Ана Смирнова"})
        character = Character.get(Character.chronicle == chronicle)
    today = date.today().isoformat()
    slug = {"Ночи Москвы": "ночи-москвы", "東京の夜": "東京の夜", "Noites de São Paulo 🦇 «Ж»": "noites-de-são-paulo-ж"}[name]
    admin = client.get(f"/admin/chronicles/{chronicle.id}/export")
    assert admin.status_code == 200 and admin.get_json()["chronicle"]["name"] == name
    assert _saved_as(admin) == f"{slug}-{today}.json"
    board = client.get(f"/chronicles/{chronicle.id}/board/export")
    assert board.status_code == 200 and _saved_as(board) == _saved_as(admin)
    everyone = client.get(f"/chronicles/{chronicle.id}/board/export.gex")
    assert everyone.status_code == 200 and _saved_as(everyone) == f"{slug}.gex"
    one = client.get(f"/chronicles/{chronicle.id}/characters/{character.id}/grapevine.gex")
    assert one.status_code == 200 and _saved_as(one) == "ана-смирнова.gex"
