"""Personal API tokens (issue 21): made on the Account page, shown once, stored as a hash, used with
``Authorization: Bearer``, listed with their last use, revocable, expiring, role-limited, and named
as the narrator in the record."""

from __future__ import annotations

import hashlib
import re
from datetime import date, datetime, timedelta

from larp.db import db
from larp.models import ApiToken, Character, Ruling, User, utcnow

CHALLENGE = {  # the stored challenge of test_api_challenges: Konrad retests with Brawl and wins
    "category": "physical", "defender_action": "strike",
    "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"},
              {"call": "retest", "by": "defender", "source": "ability:Brawl",
               "challenger_throw": "rock", "defender_throw": "paper"}],
}


def make_token(client, auth, name="Discord bot", role="narrator", expires_on="", username="narrator1",
               user_role="narrator") -> str:
    """Log in, make a token on the Account page, log out again; the raw token shown once."""
    auth.login(username, user_role)
    page = client.post("/account/tokens", data={"name": name, "role": role, "expires_on": expires_on})
    assert page.status_code == 200, page.get_data(as_text=True)
    raw = re.search(r'<code class="link-text">([^<]+)</code>', page.get_data(as_text=True)).group(1)
    auth.logout()
    client.delete_cookie("session")
    return raw


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


def test_a_token_is_shown_once_stored_as_a_hash_and_listed_with_its_last_use(client, auth, dbconn):
    """Issue 21: shown once, only the SHA-256 kept; the Account page lists it with its last use."""
    raw = make_token(client, auth)
    row = ApiToken.get()
    assert row.token_hash == hashlib.sha256(raw.encode()).hexdigest() and raw not in str(row.__data__)
    assert row.last_used_at is None
    fresh = client.get("/api/v1/characters", headers=bearer(raw))
    assert fresh.status_code == 200 and fresh.get_json()
    assert "Set-Cookie" not in fresh.headers  # a program's call neither reads nor gets a session
    assert ApiToken.get_by_id(row.id).last_used_at is not None
    auth.login()
    page = client.get("/account").get_data(as_text=True)
    assert "Discord bot" in page and "last used" in page and raw not in page


def test_no_token_or_a_wrong_one_is_refused(client, dbconn):
    """Issue 21: without a session or a valid token the API answers 401 naming the header."""
    assert client.get("/api/v1/characters").status_code == 401
    wrong = client.get("/api/v1/characters", headers=bearer("not-a-token"))
    assert wrong.status_code == 401 and wrong.get_json()["field"] == "Authorization"


def test_the_openapi_document_is_public_and_nothing_else_is(client, dbconn):
    """Issue 21: the OpenAPI document holds no data, so a program reads it without logging in (even with a
    bad token); every operation it lists still answers 401 without a token."""
    for headers in ({}, bearer("not-a-token")):
        document = client.get("/api/v1/openapi.json", headers=headers)
        assert document.status_code == 200 and document.get_json()["openapi"] == "3.1.0"
        assert "Set-Cookie" not in document.headers
    paths = document.get_json()["paths"]
    assert "/characters" in paths and "security" in paths["/characters"]["get"]
    assert client.get("/api/v1/characters").status_code == 401
    assert client.get("/api/v1/board", headers=bearer("not-a-token")).status_code == 401
    assert client.post("/api/v1/openapi.json", json={}).status_code == 405


def test_a_revoked_token_is_refused_at_once(client, auth, dbconn):
    """Issue 21: revocable; the next call after revocation is a 401."""
    raw = make_token(client, auth)
    assert client.get("/api/v1/characters", headers=bearer(raw)).status_code == 200
    auth.login()
    token_id = ApiToken.get().id
    assert client.post(f"/account/tokens/{token_id}/revoke").status_code == 303
    auth.logout()
    client.delete_cookie("session")
    assert client.get("/api/v1/characters", headers=bearer(raw)).status_code == 401
    assert ApiToken.get_by_id(token_id).revoked_at is not None


def test_a_double_tap_makes_one_token_and_revokes_once(client, auth, dbconn):
    """Issue 21 (issue 19's one-time form token): the token forms carry a request_token; the same "Make a
    token" form twice makes one token, and the second answer says it was made and its secret shown once
    (revoke and make another); the same revoke form twice revokes once. The record names both, never the
    token."""
    auth.login()
    page = client.get("/account").get_data(as_text=True)
    once = re.search(r'name="request_token" value="([^"]+)"', page.split('id="api-tokens"')[1]).group(1)
    form = {"name": "Roll It bridge", "role": "narrator", "expires_on": "", "request_token": once}
    first = client.post("/account/tokens", data=form)
    raw = re.search(r'<code class="link-text">([^<]+)</code>', first.get_data(as_text=True)).group(1)
    again = client.post("/account/tokens", data=form)
    text = again.get_data(as_text=True)
    assert again.status_code == 409 and "already made" in text and "shown only that once" in text
    assert "revoke it below and make another" in text and raw not in text and "link-text" not in text
    assert ApiToken.select().count() == 1
    made = Ruling.get(Ruling.request_token == once)
    assert made.kind == "api_token_made" and "Roll It bridge" in made.summary and raw not in str(made.__data__)
    page = client.get("/account").get_data(as_text=True)
    revoke = re.search(r'/revoke">\s*<input[^>]+>\s*<input type="hidden" name="request_token" value="([^"]+)"',
                       page).group(1)
    token_id = ApiToken.get().id
    assert client.post(f"/account/tokens/{token_id}/revoke", data={"request_token": revoke}).status_code == 303
    revoked_at = ApiToken.get_by_id(token_id).revoked_at
    twice = client.post(f"/account/tokens/{token_id}/revoke", data={"request_token": revoke})
    assert twice.status_code == 409 and "already revoked" in twice.get_data(as_text=True)
    assert ApiToken.get_by_id(token_id).revoked_at == revoked_at
    assert [r.kind for r in Ruling.select().where(Ruling.kind.startswith("api_token")).order_by(Ruling.id)] \
        == ["api_token_made", "api_token_revoked"]


def test_someone_elses_token_cannot_be_revoked(client, auth, dbconn):
    """Issue 21: a narrator revokes only his own tokens (404 otherwise, the token keeps working)."""
    raw = make_token(client, auth, username="organiser1", user_role="organiser")
    auth.login("narrator2", "narrator")
    assert client.post(f"/account/tokens/{ApiToken.get().id}/revoke").status_code == 404
    auth.logout()
    client.delete_cookie("session")
    assert client.get("/api/v1/characters", headers=bearer(raw)).status_code == 200


def test_an_expired_token_is_refused(client, auth, dbconn):
    """Issue 21: optional expiry; the token works through its last day and not after."""
    raw = make_token(client, auth, expires_on=date.today().isoformat())
    assert client.get("/api/v1/characters", headers=bearer(raw)).status_code == 200
    ApiToken.update(expires_at=utcnow() - timedelta(seconds=1)).execute()
    assert client.get("/api/v1/characters", headers=bearer(raw)).status_code == 401


def test_a_past_expiry_or_an_empty_name_is_refused_at_the_field(client, auth, dbconn):
    """Issue 21: bad input is a 422 naming the field, and no token is made."""
    auth.login()
    past = client.post("/account/tokens", data={"name": "bot", "role": "narrator",
                                                "expires_on": (date.today() - timedelta(days=1)).isoformat()})
    assert past.status_code == 422 and "expiry date has passed" in past.get_data(as_text=True)
    assert client.post("/account/tokens", data={"name": " ", "role": "narrator"}).status_code == 422
    assert ApiToken.select().count() == 0


def test_two_live_tokens_of_one_person_never_share_a_name(client, auth, dbconn):
    """The record names a token's rulings by the token's name: a second live "Roll bot" is refused at
    the field (409); once the first is revoked the name is free again."""
    auth.login()
    assert client.post("/account/tokens", data={"name": "Roll bot", "role": "narrator"}).status_code == 200
    clash = client.post("/account/tokens", data={"name": "Roll bot", "role": "narrator"})
    assert clash.status_code == 409 and "token named “Roll bot” already" in clash.get_data(as_text=True)
    assert ApiToken.select().count() == 1
    ApiToken.update(revoked_at=datetime(2026, 1, 1)).execute()
    assert client.post("/account/tokens", data={"name": "Roll bot", "role": "narrator"}).status_code == 200
    assert ApiToken.select().count() == 2


def test_a_narrator_cannot_make_an_organisers_token(client, auth, dbconn):
    """Issue 21: a role no higher than one's own (403, nothing made)."""
    auth.login()
    refused = client.post("/account/tokens", data={"name": "bot", "role": "organiser"})
    assert refused.status_code == 403 and ApiToken.select().count() == 0


def test_a_narrators_token_of_an_organiser_gets_a_narrators_rights(client, auth, dbconn):
    """Issue 21: the same authorisation walk as the web routes, with the token's role: an organiser's
    narrator token may not create a character (organisers only, larp.services.sheets), his organiser
    token may."""
    narrow = make_token(client, auth, role="narrator", username="organiser1", user_role="organiser")
    wide = make_token(client, auth, name="Website", role="organiser", username="organiser1", user_role="organiser")
    sheet = {"name": "Token Made", "creature": "mortal"}
    refused = client.post("/api/v1/characters", json=sheet, headers=bearer(narrow))
    assert refused.status_code == 403 and not Character.select().where(Character.name == "Token Made").exists()
    made = client.post("/api/v1/characters", json=sheet, headers=bearer(wide))
    assert made.status_code == 201
    assert User.get(User.username == "organiser1").role == "organiser"  # the account is untouched


def test_a_token_loses_what_its_owner_loses(client, auth, dbconn):
    """Issue 21: a token of a deactivated account is refused."""
    raw = make_token(client, auth)
    User.update(active=False).where(User.username == "narrator1").execute()
    assert client.get("/api/v1/characters", headers=bearer(raw)).status_code == 401


def test_the_record_names_the_token_as_the_narrator(client, auth, dbconn):
    """Issue 21: every call with a token is recorded with the token's name as the narrator (and the
    owner's account behind it)."""
    raw = make_token(client, auth, name="Roll It bridge")
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    kon = Character.get(Character.name == "Konrad Vale")
    body = {**CHALLENGE, "challenger": {"character_id": viv.id, "bid": "Quick"},
            "defender": {"character_id": kon.id, "bid": "Brawny"}}
    response = client.post("/api/v1/challenges", json=body, headers={**bearer(raw), "Idempotency-Key": "tok-1"})
    assert response.status_code == 201, response.get_json()
    ruling = Ruling.get_by_id(response.get_json()["ruling_id"])
    assert ruling.narrator_name == "Roll It bridge"
    assert ruling.narrator.username == "narrator1"
    assert User.get(User.username == "narrator1").display_name == "Narrator1"
    auth.login()
    assert "Roll It bridge" in client.get(f"/rulings/{ruling.id}").get_data(as_text=True)


def test_the_session_cookie_still_works_and_web_pages_ignore_a_bearer_header(client, auth, dbconn):
    """Issue 21: the app's own pages keep the session cookie; a token opens no web page."""
    raw = make_token(client, auth)
    assert client.get("/account", headers=bearer(raw)).status_code == 302  # to the login page
    auth.login()
    assert client.get("/api/v1/characters").status_code == 200


def test_deactivation_ends_tokens_for_good(client, auth, dbconn):
    """Issue 28 item 6: deactivating an account (Users page) ends its API tokens as it ends its
    sessions, and reactivating it gives none of them back: the account page lists them as revoked,
    and a new token must be made."""
    raw = make_token(client, auth)
    assert client.get("/api/v1/characters", headers=bearer(raw)).status_code == 200
    narrator = User.get(User.username == "narrator1")
    auth.login("boss", "organiser")
    assert client.post(f"/users/{narrator.id}/deactivate").status_code == 303
    assert client.get("/api/v1/characters", headers=bearer(raw)).status_code == 401
    assert client.post(f"/users/{narrator.id}/activate").status_code == 303
    assert User.get_by_id(narrator.id).active
    assert client.get("/api/v1/characters", headers=bearer(raw)).status_code == 401
    assert ApiToken.get(ApiToken.user == narrator).revoked_at is not None
    fresh = make_token(client, auth)  # he makes a new one, which works
    assert client.get("/api/v1/characters", headers=bearer(fresh)).status_code == 200


def test_deactivation_ends_unused_login_links_for_good(client, auth, dbconn):
    """Issue 28 item 6 (the same rule for login links): a link made before the deactivation does not
    log the reactivated account in; a new one does."""
    from larp.services.accounts import create_login_link, set_user_active

    auth.login("boss", "organiser")  # the accounts are made on demand
    auth.login("narrator1", "narrator")
    auth.logout()
    narrator, boss = User.get(User.username == "narrator1"), User.get(User.username == "boss")
    link = create_login_link(narrator)
    set_user_active(boss, narrator.id, False)
    set_user_active(boss, narrator.id, True)
    assert client.get(f"/login/link/{link}").status_code == 404
    assert client.get(f"/login/link/{create_login_link(narrator)}").status_code == 303
