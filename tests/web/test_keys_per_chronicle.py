"""One-time keys belong to their sender in his chronicle (issue 28 item 1).

An ``Idempotency-Key`` (or a form's one-time token) used in chronicle A was refused in chronicle B
with a 409 naming A's ruling (its id, summary and address): programs that number their keys
blocked each other, and a guessed key told B about A's rulings. A key is now the sender's own in
the chronicle he sends it in; a retry after his token is rotated is still recognised; the same key
with another call is a 422. Runs on SQLite and on PostgreSQL (``LARP_TEST_DATABASE_URL``).
"""

from __future__ import annotations

from datetime import date

import pytest

from larp.db import db
from larp.models import Character, Chronicle, Ruling
from larp.services.accounts import create_user
from larp.services.api_tokens import create_token, revoke_token
from larp.services.memberships import create_chronicle
from larp.services.sheets import new_character

PASSWORD = "correct horse"


@pytest.fixture
def two(app):
    """Chronicle A (the demo, organiser ``org_a`` and narrator ``narr_a``) and chronicle B (organiser
    ``org_b``, character Zed), each person with an organiser's or narrator's API token."""
    with db.connection_context():
        a = Chronicle.get(Chronicle.is_demo == True)  # noqa: E712
        b = create_chronicle("Nights of Brookhaven", date.today())
        people = {"org_a": create_user("org_a", "Otto", "organiser", PASSWORD, chronicle=a),
                  "narr_a": create_user("narr_a", "Nell", "narrator", PASSWORD, chronicle=a),
                  "org_b": create_user("org_b", "Bea", "organiser", PASSWORD, chronicle=b)}
        zed, _ = new_character(b, people["org_b"], {"name": "Zed Quillon"})
        konrad = Character.get((Character.chronicle == a) & (Character.name == "Konrad Vale"))
        tokens = {name: create_token(user, f"{name} bot", "narrator" if name == "narr_a" else "organiser")[1]
                  for name, user in people.items()}
    return {"a": a, "b": b, "people": people, "tokens": tokens, "zed": zed.id, "konrad": konrad.id}


def call(client, two, who: str, method: str, path: str, body=None, key: str | None = None, token: str | None = None):
    headers = {"Authorization": f"Bearer {token or two['tokens'][who]}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.open("/api/v1" + path, method=method, json=body, headers=headers)


def damage(client, two, who: str, character_id: int, key: str, levels: int = 1, token: str | None = None):
    return call(client, two, who, "POST", f"/characters/{character_id}/damage",
                {"damage_type": "lethal", "levels": levels}, key=key, token=token)


def lethal(character_id: int) -> int:
    with db.connection_context():
        return Character.get_by_id(character_id).damage_lethal


def test_a_key_used_in_one_chronicle_is_free_in_another_and_names_nothing_of_it(client, two):
    """Issue 28 item 1: A's organiser records "order-0001"; B's organiser sends the same key in B:
    his call is recorded (it was a 409 naming A's ruling, Konrad and his damage), and his own
    retry's refusal names only his own ruling."""
    first = damage(client, two, "org_a", two["konrad"], "order-0001")
    assert first.status_code == 201, first.get_json()
    in_b = damage(client, two, "org_b", two["zed"], "order-0001")
    assert in_b.status_code == 201, in_b.get_json()
    assert lethal(two["zed"]) == 1
    again = damage(client, two, "org_b", two["zed"], "order-0001")
    assert again.status_code == 409
    text = again.get_data(as_text=True)
    assert again.get_json()["ruling_id"] == in_b.get_json()["ruling_id"]
    assert "Konrad" not in text and f"#{first.get_json()['ruling_id']} " not in text
    assert lethal(two["zed"]) == 1


def test_a_key_is_looked_up_only_where_its_sender_used_it(client, two):
    """Issue 28 item 1: GET /rulings/by-token/{key} finds the caller's own ruling in the chronicle
    he asks in: B's organiser gets his, not A's; A's narrator, who never sent the key, gets a 404."""
    made_a = damage(client, two, "org_a", two["konrad"], "order-0002").get_json()["ruling_id"]
    made_b = damage(client, two, "org_b", two["zed"], "order-0002").get_json()["ruling_id"]
    assert call(client, two, "org_a", "GET", "/rulings/by-token/order-0002").get_json()["id"] == made_a
    assert call(client, two, "org_b", "GET", "/rulings/by-token/order-0002").get_json()["id"] == made_b
    assert call(client, two, "narr_a", "GET", "/rulings/by-token/order-0002").status_code == 404


def test_two_people_of_one_chronicle_may_use_the_same_key(client, two):
    """Issue 28 item 1: a key is its sender's: A's narrator's bot numbering its keys as A's organiser's
    does is not refused."""
    assert damage(client, two, "org_a", two["konrad"], "order-0003").status_code == 201
    before = lethal(two["konrad"])
    assert damage(client, two, "narr_a", two["konrad"], "order-0003").status_code == 201
    assert lethal(two["konrad"]) == before + 1


def test_a_retry_after_the_token_is_rotated_is_still_recognised(client, two):
    """Issue 28 item 1: the key is the account's, not the token's: the same call sent again with a new
    token of the same account (the old one revoked) is a 409 naming the first ruling, applied once."""
    first = damage(client, two, "org_a", two["konrad"], "order-0004")
    assert first.status_code == 201
    before = lethal(two["konrad"])
    with db.connection_context():
        owner = two["people"]["org_a"]
        for row in owner.api_tokens:
            revoke_token(owner, row.id)
        _, fresh = create_token(owner, "org_a bot, rotated", "organiser")
    assert damage(client, two, "org_a", two["konrad"], "order-0004").status_code == 401  # the old token is dead
    retry = damage(client, two, "org_a", two["konrad"], "order-0004", token=fresh)
    assert retry.status_code == 409 and retry.get_json()["ruling_id"] == first.get_json()["ruling_id"]
    assert lethal(two["konrad"]) == before


def test_the_same_key_with_another_body_is_a_422(client, two):
    """Issue 28 item 1: the same key from the same account with another body (or another endpoint) is
    not a retry: 422 naming the key, nothing applied; the very same call is still the 409."""
    assert damage(client, two, "org_a", two["konrad"], "order-0005").status_code == 201
    before = lethal(two["konrad"])
    with db.connection_context():
        rulings = Ruling.select().count()
    other = damage(client, two, "org_a", two["konrad"], "order-0005", levels=2)
    assert other.status_code == 422 and other.get_json()["field"] == "Idempotency-Key"
    assert "another call" in other.get_json()["error"]
    heal = call(client, two, "org_a", "POST", f"/characters/{two['konrad']}/heal", {"kind": "lethal", "levels": 1},
                key="order-0005")
    assert heal.status_code == 422
    assert damage(client, two, "org_a", two["konrad"], "order-0005").status_code == 409
    with db.connection_context():
        assert Ruling.select().count() == rulings
    assert lethal(two["konrad"]) == before


def test_a_form_token_of_one_chronicle_is_free_in_another(client, two):
    """Issue 28 item 1: a form's one-time token recorded in A does not refuse B's form with the same
    token (tokens are drawn per form, so only their scope matters), nor tell B anything of A."""
    from tests.support import AuthActions

    auth = AuthActions(client)
    auth.login("org_a", password=PASSWORD)
    assert client.post(f"/characters/{two['konrad']}/damage",
                       data={"damage_type": "lethal", "levels": "1", "request_token": "tap-1"}).status_code == 303
    auth.logout()
    auth.login("org_b", password=PASSWORD)
    answer = client.post(f"/characters/{two['zed']}/damage",
                         data={"damage_type": "lethal", "levels": "1", "request_token": "tap-1"})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
    assert lethal(two["zed"]) == 1
    found = client.get(f"/chronicles/{two['b'].id}/rulings/by-token/tap-1")
    assert found.status_code == 200 and found.get_json()["summary"].startswith("Zed")
