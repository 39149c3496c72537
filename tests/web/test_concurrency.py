"""Simultaneous narrators on two ``larp serve`` processes sharing one database (issue 13).

The servers start at the same moment on an empty database (PostgreSQL when
``LARP_TEST_DATABASE_URL`` is set, else one SQLite file in WAL mode), once for the
module, the way an organisation runs several behind a reverse proxy. Each scenario
sends 20, then 100, requests released together and spread over both servers.
What must hold on both engines: all damage lands; a Trait held once is lost once;
an Ability is spent exactly its levels; a login link logs in once; wrong passwords
for one name are checked exactly the lockout limit; the same form (or API key) is
recorded once; no 5xx.
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import urlencode

import pytest
from peewee import fn

from larp.db import bind, db, sqlite_url
from larp.models import AbilitySpend, Character, Chronicle, LoginFailure, LoginLink, Ruling, TraitLoss, User
from tests.servers import anonymous, at_once, call, log_in, start_servers
from tests.support import empty_postgres

SIZES = (20, 100)
LOCKOUT = 5  # LOGIN_LOCKOUT_FAILURES's default (larp/config.py)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Two servers started at once on one empty database, and the test process bound to it."""
    folder = tmp_path_factory.mktemp("two-servers")
    url = os.environ.get("LARP_TEST_DATABASE_URL")
    if url:
        empty_postgres(url)
    else:
        url = sqlite_url(folder / "instance" / "larp.sqlite3")
    servers = start_servers(2, folder / "instance", url if url.startswith("postgres") else None)
    try:
        yield servers, url
    finally:
        for server in servers:
            server.stop()
        if not db.is_closed():
            db.close()


@pytest.fixture
def database(cluster):
    """The shared database, open in the test process (other modules rebind the proxy)."""
    servers, url = cluster
    bind(url)
    with db.connection_context():
        yield servers


def narrator(servers, name: str):
    """A narrator account made for this scenario, logged in (the cookie works on both servers)."""
    from larp.services.accounts import create_user

    create_user(name, name.title(), "narrator", "correct horse battery")
    return log_in(servers[0], name, "correct horse battery")


def make_character(name: str, traits: dict[str, dict[str, int]] | None = None, health_levels: int = 0, **sheet):
    """A new mortal of the shared chronicle for one scenario, so runs never meet.

    ``traits``: category to {Trait: count}; ``health_levels``: a track that long. A hundred blows
    need more than a sheet may hold (25 of a Trait, the usual track), so those two are written
    to the stored rows after the sheet is made."""
    from larp.models import Trait
    from larp.services.sheet_store import create_character
    from larp.sheet import CharacterSheet

    traits = traits or {}
    listed = {category: list(names) for category, names in traits.items()}
    with db.atomic():
        character = create_character(Chronicle.get(), CharacterSheet.from_dict(
            {"name": name, "creature": "mortal", "traits": listed, **sheet}))
        for category, names in traits.items():
            for trait, count in names.items():
                Trait.update(count=count).where((Trait.character == character) & (Trait.category == category)
                                                & (Trait.name == trait)).execute()
        if health_levels:
            Character.update(health_levels=["Healthy"] * (health_levels - 1) + ["Incapacitated"]).where(
                Character.id == character.id).execute()
    return Character.get_by_id(character.id)


def post_json(session, path: str, body: dict):
    data = json.dumps(body).encode()
    return lambda i, server: call(server, "POST", path, body=data,
                                  headers=session.headers(**{"Content-Type": "application/json"}))


def statuses(replies) -> dict[int, int]:
    counts: dict[int, int] = {}
    for reply in replies:
        counts[reply.status] = counts.get(reply.status, 0) + 1
    return counts


def test_two_servers_starting_at_once_make_one_chronicle(database):
    """Both servers started together on an empty database: one schema, one demo chronicle,
    one first organiser, and both answer (larp/services/demo.py, larp/services/accounts.py)."""
    assert Chronicle.select().count() == 1
    assert User.select().where(User.role == "organiser").count() == 1
    assert Character.select().count() == 10  # the demo chronicle's ten characters
    for server in database:
        assert call(server, "GET", "/login").status == 200


@pytest.mark.parametrize("n", SIZES)
def test_simultaneous_damage_all_lands(database, n):
    """002 "Damage and Healing": damage from many narrators at once all lands, each blow on the
    track as it then stands (issue 13): n lethal levels, n rulings, no refusal."""
    session = narrator(database, f"damage{n}")
    target = make_character(f"Bystander {n}", health_levels=n + 6)
    replies = at_once(n, database, post_json(session, f"/api/v1/characters/{target.id}/damage",
                                             {"damage_type": "lethal", "levels": 1}))
    assert statuses(replies) == {201: n}
    target = Character.get_by_id(target.id)
    assert (target.damage_lethal, target.condition) == (n, "active")
    assert Ruling.select().where(Ruling.kind == "damage", Ruling.summary.startswith(target.name)).count() == n


@pytest.mark.parametrize("n", SIZES)
def test_a_trait_held_once_is_lost_once(database, n):
    """002 "Challenges": the loser loses the Trait he bid, for the game session. n challenges at
    once bid a Trait the challenger holds once and all lose: one is recorded, the others are
    refused because the Trait is gone (409), none is a 5xx."""
    session = narrator(database, f"bidder{n}")
    challenger = make_character(f"Bidder {n}", traits={"mental": {"Cunning": 1, "Clever": 1, "Shrewd": 1}})
    defender = make_character(f"Sage {n}", traits={"mental": {"Wise": 3, "Clever": 1}})
    replies = at_once(n, database, post_json(session, "/api/v1/challenges", {
        "category": "mental", "challenger": {"character_id": challenger.id, "bid": "Cunning"},
        "defender": {"character_id": defender.id, "bid": "Wise"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]}))
    assert statuses(replies) == {201: 1, 409: n - 1}
    lost = TraitLoss.select().where((TraitLoss.character == challenger) & (TraitLoss.name == "Cunning"))
    assert lost.count() == 1
    refusal = json.loads(next(r for r in replies if r.status == 409).body)
    assert "no Cunning left" in refusal["error"]


@pytest.mark.parametrize("n", SIZES)
def test_an_ability_is_spent_exactly_its_levels(database, n):
    """met-reference 2.1: each Ability level pays one retest a game session. n challenges at once
    each retest with Occult 3 (and lose again, costing a Clever of many): exactly 3 are recorded,
    Occult is spent 3 times, the rest are refused for want of it (4xx, no 5xx)."""
    session = narrator(database, f"scholar{n}")
    challenger = make_character(f"Scholar {n}", traits={"mental": {"Clever": n + 5}}, abilities={"Occult": 3})
    defender = make_character(f"Riddler {n}", traits={"mental": {"Wise": 3}})
    replies = at_once(n, database, post_json(session, "/api/v1/challenges", {
        "category": "mental", "challenger": {"character_id": challenger.id, "bid": "Clever"},
        "defender": {"character_id": defender.id, "bid": "Wise"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
                  {"call": "retest", "by": "challenger", "source": "ability:Occult",
                   "challenger_throw": "rock", "defender_throw": "paper"}]}))
    counts = statuses(replies)
    assert counts.get(201) == 3 and sum(counts.values()) == n
    assert all(400 <= status < 500 for status in counts if status != 201), counts
    spent = (AbilitySpend.select(fn.SUM(AbilitySpend.levels))
             .where((AbilitySpend.character == challenger) & (AbilitySpend.name == "Occult")).scalar())
    assert spent == 3
    assert TraitLoss.select().where(TraitLoss.character == challenger).count() == 3


@pytest.mark.parametrize("n", SIZES)
def test_a_login_link_logs_in_once(database, n):
    """A one-time login link opened n times at once (larp/services/accounts.py): one login, the
    others get the "not valid" page (404), and the link is marked used."""
    from larp.services.accounts import create_login_link, create_user

    user = create_user(f"linked{n}", "Linked", "narrator")
    token = create_login_link(user)
    replies = at_once(n, database, lambda i, server: call(server, "GET", f"/login/link/{token}"))
    assert statuses(replies) == {303: 1, 404: n - 1}
    assert LoginLink.get(LoginLink.user == user).used_at is not None


@pytest.mark.parametrize("n", SIZES)
def test_wrong_passwords_for_one_name_are_checked_exactly_the_lockout_limit(database, n):
    """The login lockout (larp/config.py LOGIN_LOCKOUT_FAILURES, 5 within 15 minutes; issue 19's
    design in larp/services/lockout.py): n wrong passwords at once for one name from a browser it
    never logged in from: exactly 5 are checked (401), the rest refused as locked (429)."""
    from larp.services.accounts import create_user

    name = f"target{n}"
    user = create_user(name, "Target", "narrator", "the right password")
    visitor = anonymous(database[0])
    body = urlencode({"csrf_token": visitor.csrf, "username": name, "password": "a wrong password"}).encode()
    replies = at_once(n, database, lambda i, server: call(server, "POST", "/login", body=body, headers=visitor.headers(
        **{"Content-Type": "application/x-www-form-urlencoded"})))
    assert statuses(replies) == {401: LOCKOUT, 429: n - LOCKOUT}
    # larp/services/lockout.py keeps one row per account and window, counting its failures.
    assert LoginFailure.get((LoginFailure.scope == "user") & (LoginFailure.key == str(user.id))).failures == LOCKOUT


@pytest.mark.parametrize("n", SIZES)
def test_the_same_form_sent_at_once_is_recorded_once(database, n):
    """Issue 19 item 2: one damage form (one request_token) posted n times at once, a double tap
    or a client retrying: one ruling, the other posts a 409 naming it, the damage applied once."""
    session = narrator(database, f"tapper{n}")
    target = make_character(f"Tapped {n}")
    page = call(database[1], "GET", f"/characters/{target.id}", headers=session.headers())
    csrf = re.search(rb'name="csrf_token" value="([^"]+)"', page.body).group(1).decode()
    if "set-cookie" in page.headers:  # the session now holds the CSRF secret
        session.cookie = page.headers["set-cookie"].split(";", 1)[0]
    body = urlencode({"csrf_token": csrf, "damage_type": "lethal", "levels": "1", "request_token": f"tap-{n}",
                      "seen_condition": "active", "seen_staked": "0"}).encode()
    replies = at_once(n, database, lambda i, server: call(server, "POST", f"/characters/{target.id}/damage", body=body,
                                                          headers=session.headers(**{
                                                              "Content-Type": "application/x-www-form-urlencoded"})))
    assert statuses(replies) == {303: 1, 409: n - 1}
    ruling = Ruling.get(Ruling.request_token == f"tap-{n}")
    assert f"already recorded as ruling #{ruling.id}".encode() in next(r for r in replies if r.status == 409).body
    assert Character.get_by_id(target.id).damage_lethal == 1


@pytest.mark.parametrize("n", SIZES)
def test_the_same_idempotency_key_at_once_is_recorded_once(database, n):
    """Issue 19 item 2 (and issue 13: never the 500 "duplicate key" on PostgreSQL): one challenge
    sent n times at once with one Idempotency-Key: one ruling, n - 1 answers 409 naming it."""
    session = narrator(database, f"retrier{n}")
    challenger = make_character(f"Retrier {n}", traits={"mental": {"Clever": n + 5}})
    defender = make_character(f"Waiter {n}", traits={"mental": {"Wise": 3}})
    data = json.dumps({"category": "mental", "challenger": {"character_id": challenger.id, "bid": "Clever"},
                       "defender": {"character_id": defender.id, "bid": "Wise"},
                       "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]}).encode()
    headers = session.headers(**{"Content-Type": "application/json", "Idempotency-Key": f"key-{n}"})
    replies = at_once(n, database, lambda i, server: call(server, "POST", "/api/v1/challenges", body=data,
                                                          headers=headers))
    assert statuses(replies) == {201: 1, 409: n - 1}
    first = json.loads(next(r for r in replies if r.status == 201).body)["ruling_id"]
    assert {json.loads(r.body)["ruling_id"] for r in replies if r.status == 409} == {first}
    assert TraitLoss.select().where(TraitLoss.character == challenger).count() == 1


@pytest.mark.parametrize("n", SIZES)
def test_closing_the_game_session_while_narrators_rule(database, n):
    """Two organisers close the game session while narrators keep damaging a character, all at
    once (larp/services/sessions.py locks the chronicle, then every character, like every other
    use case): one close lands, the other is told it was closed already (409), every blow lands,
    nobody waits for ever and nothing answers 5xx."""
    from datetime import date, timedelta

    from larp.models import GameSession
    from larp.services.accounts import create_user

    session = narrator(database, f"ruler{n}")
    create_user(f"closer{n}", "Closer", "organiser", "correct horse battery")
    organiser = log_in(database[1], f"closer{n}", "correct horse battery")
    board = call(database[1], "GET", "/board", headers=organiser.headers())
    csrf = re.search(rb'name="csrf_token" value="([^"]+)"', board.body).group(1).decode()
    if "set-cookie" in board.headers:
        organiser.cookie = board.headers["set-cookie"].split(";", 1)[0]
    open_now = GameSession.get(GameSession.closed_at.is_null())
    target = make_character(f"Brawler {n}", health_levels=n + 6)
    damage = post_json(session, f"/api/v1/characters/{target.id}/damage", {"damage_type": "lethal", "levels": 1})

    def request(i, server):
        if i in (0, n // 2):
            body = urlencode({"csrf_token": csrf, "date": (date.today() + timedelta(days=1)).isoformat(),
                              "closing": open_now.number, "confirm": "yes", "request_token": f"close-{n}-{i}"})
            return call(server, "POST", "/board/next-session", body=body.encode(), headers=organiser.headers(
                **{"Content-Type": "application/x-www-form-urlencoded"}))
        return damage(i, server)

    replies = at_once(n, database, request)
    assert statuses([replies[0], replies[n // 2]]) == {303: 1, 409: 1}
    assert statuses(r for i, r in enumerate(replies) if i not in (0, n // 2)) == {201: n - 2}
    assert GameSession.select().where(GameSession.number == open_now.number + 1).count() == 1
    assert Character.get_by_id(target.id).damage_lethal == n - 2


def test_who_may_work_is_asked_again_at_the_next_request_on_every_server(database):
    """Issue 29 ("A light request"): a server keeps its database connections and the session cookies
    it has checked between requests, yet logout, log out everywhere, a new password, deactivation,
    demotion, removal from the chronicle and token revocation, made anywhere (here by the test
    process, or by the other server), refuse the very next request on the second server, each one
    just after a request that was let in there."""
    from larp.models import Membership
    from larp.services.accounts import create_user, end_sessions, set_password
    from larp.services.api_tokens import create_token, revoke_token
    from larp.services.memberships import add_member, remove_member, set_role

    first, second = database
    chronicle = Chronicle.get()
    user = create_user("warden", "Warden", "organiser", "correct horse battery")

    def answer(path: str, session, **headers) -> int:
        return call(second, "GET", path, headers=session.headers(**headers) if session else headers).status

    def login() -> object:
        return log_in(first, "warden", "correct horse battery")

    session = login()
    assert answer("/cards", session) == 200  # an organiser's page, let in on the other server
    set_role(chronicle, user, "narrator")
    assert answer("/cards", session) == 403  # demoted: the narrator's refusal at once
    assert answer("/characters", session) == 200
    remove_member(chronicle, user)
    assert answer("/characters", session) == 404  # in no chronicle now: nothing of it is found
    add_member(chronicle, user, "organiser")
    assert answer("/cards", session) == 200

    end_sessions(user)  # "log out everywhere"
    assert answer("/characters", session) == 302
    session = login()
    assert answer("/characters", session) == 200
    set_password(user, "another correct horse")
    assert answer("/characters", session) == 302
    session = log_in(first, "warden", "another correct horse")
    assert answer("/characters", session) == 200
    User.update(active=False).where(User.id == user.id).execute()  # deactivated, the generation untouched
    assert answer("/characters", session) == 302
    User.update(active=True).where(User.id == user.id).execute()
    assert answer("/characters", session) == 200  # the same cookie again: only the account decided

    page = call(first, "GET", "/characters", headers=session.headers())
    csrf = re.search(rb'name="csrf-token" content="([^"]+)"|name="csrf_token" value="([^"]+)"', page.body)
    token = (csrf.group(1) or csrf.group(2)).decode()
    cookie = page.headers.get("set-cookie", session.cookie).split(";", 1)[0]
    logout = call(first, "POST", "/logout", body=urlencode({"csrf_token": token}).encode(), headers={
        "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    assert logout.status == 303
    assert answer("/characters", None, Cookie=cookie) == 302  # logged out on the first server

    row, raw = create_token(User.get_by_id(user.id), "scripts", "narrator")
    bearer = {"Authorization": f"Bearer {raw}"}
    assert call(second, "GET", "/api/v1/game-sessions", headers=bearer).status == 200
    revoke_token(User.get_by_id(user.id), row.id)
    assert call(second, "GET", "/api/v1/game-sessions", headers=bearer).status == 401
    assert Membership.select().where(Membership.user == user.id).count() == 1


def test_two_narrators_challenging_one_target_in_one_turn(database):
    """Issue 30 item 4 (Dark Epics p.71, met-reference 3.1; one_physical_challenge_per_turn on): 20 narrators'
    challengers start a Physical challenge on one target in the same turn of one stored scene, at once, on two
    servers: exactly one is recorded, the other 19 are refused with the rule (409), no 5xx, and the scene holds
    one challenge on him for the turn (larp/services/stored_scenes.py: the target's row, then the scene's, locked
    before the turn's challenges are read)."""
    from larp.models import ChronicleSetting, GameSession, SceneRuling, StoredScene

    n = 20
    session = narrator(database, "turnkeeper")
    chronicle = Chronicle.get()
    setting = ChronicleSetting.create(chronicle=chronicle, key="one_physical_challenge_per_turn", value=True)
    try:
        scene = StoredScene.create(chronicle=chronicle, name="Crowded hall",
                                   game_session=GameSession.get(GameSession.closed_at.is_null()))
        target = make_character("Beset One", traits={"physical": {"Tough": n + 5}})
        attackers = [make_character(f"Attacker {i}", traits={"physical": {"Quick": 2}}) for i in range(n)]

        def request(i, server):
            return post_json(session, "/api/v1/challenges", {
                "category": "physical", "scene_id": scene.id,
                "challenger": {"character_id": attackers[i].id, "bid": "Quick"},
                "defender": {"character_id": target.id, "bid": "Tough"},
                "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]})(i, server)

        replies = at_once(n, database, request)
        assert statuses(replies) == {201: 1, 409: n - 1}
        refusal = json.loads(next(r for r in replies if r.status == 409).body)
        assert "Dark Epics p.71" in refusal["error"] and refusal["field"] == "scene_id"
        assert SceneRuling.select().where((SceneRuling.scene == scene) & (SceneRuling.target == target)).count() == 1
    finally:
        setting.delete_instance()


def test_a_claim_code_sent_at_once_claims_once(database):
    """Issue 33 item 1: one claim code typed by 20 visitors at once on both servers (each making an
    account with it): one claim links the character, the 19 others are refused (422) and make no
    account; the code is used once (larp/services/players.py: the update is the check)."""
    from larp.models.players import CharacterPlayer, ClaimCode
    from larp.services.players import make_claim_code

    n = 20
    character = make_character("Claimed Once")
    code = make_claim_code(character.chronicle, character, None)
    visitors = [anonymous(database[i % len(database)]) for i in range(n)]
    replies = at_once(n, database, lambda i, server: call(
        server, "POST", f"/c/{character.card_token}/claim",
        body=urlencode({"csrf_token": visitors[i].csrf, "code": code, "username": f"claimer{i}",
                        "password": "correct horse battery"}).encode(),
        headers=visitors[i].headers(**{"Content-Type": "application/x-www-form-urlencoded"})))
    assert statuses(replies) == {303: 1, 422: n - 1}
    assert CharacterPlayer.select().where(CharacterPlayer.character == character.id).count() == 1
    assert User.select().where(User.username.startswith("claimer")).count() == 1
    assert ClaimCode.get(ClaimCode.character == character.id).used_by_id is not None
