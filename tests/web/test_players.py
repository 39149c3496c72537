"""Players in the app (issue 33 item 1): the player's role, his link to his characters, his pages."""

from __future__ import annotations

import pytest

from larp.db import db
from larp.models import Character, Chronicle, Membership, User
from larp.models.players import CharacterPlayer
from larp.services import ServiceError
from larp.services.memberships import ROLE_RANK
from larp.services.players import characters_of_player, own_character
from tests.support import AuthActions, make_player


def _two_characters():
    with db.connection_context():
        chronicle = Chronicle.get(Chronicle.is_demo == True)  # noqa: E712
        first, second = list(Character.select().where(Character.chronicle == chronicle).order_by(Character.id).limit(2))
        return first, second


def test_the_player_role_ranks_below_a_narrator():
    assert "player" in User.ROLES and "player" not in User.STAFF_ROLES
    assert ROLE_RANK["player"] < ROLE_RANK["narrator"] < ROLE_RANK["organiser"]


def test_a_player_is_linked_once_and_is_a_member_with_the_player_role(app):
    mine, _ = _two_characters()
    user = make_player(app, mine)
    again = make_player(app, mine)
    with db.connection_context():
        assert again.id == user.id
        assert CharacterPlayer.select().where(CharacterPlayer.user == user.id).count() == 1
        assert Membership.get(Membership.user == user.id).role == "player"


def test_own_character_finds_only_his(app):
    mine, other = _two_characters()
    user = make_player(app, mine)
    with app.test_request_context(), db.connection_context():
        assert own_character(user, mine.id).id == mine.id
        assert [c.id for c in characters_of_player(user)] == [mine.id]
        for wanted in (other.id, 999999, "x", None):
            with pytest.raises(ServiceError) as refused:
                own_character(user, wanted)
            assert refused.value.status == 404
            assert refused.value.message == "There is no such character among yours."


def test_the_player_logs_in_and_reads_his_own_character_only(app, client):
    mine, other = _two_characters()
    make_player(app, mine)
    assert AuthActions(client).login("player1", "player").status_code == 303
    home = client.get("/")
    assert home.status_code == 303 and home.headers["Location"].endswith("/my")
    listing = client.get("/my").get_data(as_text=True)
    assert mine.name in listing and other.name not in listing
    page = client.get(f"/my/characters/{mine.id}")
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and mine.name in body and "Experience" in body and "Health" in body
    assert "My characters" in body and "Organise" not in body and "Challenge</a>" not in body
    refused = client.get(f"/my/characters/{other.id}")
    assert refused.status_code == 404 and other.name not in refused.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/challenge", "/characters", "/users", "/settings", "/rulings", "/cards",
                                  "/account/tokens"])
def test_organisers_and_narrators_pages_refuse_a_player(app, client, path):
    mine, _ = _two_characters()
    make_player(app, mine)
    AuthActions(client).login("player1", "player")
    response = client.get(path) if path != "/account/tokens" else client.post(path, data={"name": "x", "role": "narrator"})
    assert response.status_code in (403, 404, 405), f"{path}: {response.status_code}"


def test_a_player_scanning_his_card_sees_the_players_view_not_the_narrators(app, client):
    mine, _ = _two_characters()
    make_player(app, mine)
    AuthActions(client).login("player1", "player")
    page = client.get(f"/c/{mine.card_token}")
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and mine.name in body
    assert "Start a challenge" not in body and "Damage and healing" not in body and "/challenge" not in body


def test_staff_role_lists_and_appointments_refuse_the_player_role(app, client):
    AuthActions(client).login("org", "organiser")
    made = client.post("/users", data={"username": "pp", "display_name": "P", "role": "player", "password": "correct horse"})
    assert made.status_code == 422
    with db.connection_context():
        assert not User.select().where(User.username == "pp").exists()


def test_pending_counts_and_notices_read_the_request_services_when_they_exist(app, monkeypatch):
    import sys
    import types

    from larp.services import players

    mine, _ = _two_characters()
    fake = types.ModuleType("larp.services.fake_requests")
    fake.pending_count = lambda chronicle: 3
    fake.player_notices = lambda character: [("Raise Dominate: waiting", "waiting"), ("Odd", "weird")]
    monkeypatch.setitem(sys.modules, "larp.services.fake_requests", fake)
    monkeypatch.setattr(players, "REQUEST_SERVICES", {"fake": "larp.services.fake_requests",
                                                      "absent": "larp.services.no_such_requests"})
    with db.connection_context():
        assert players.pending_counts(mine.chronicle) == {"fake": 3}
        assert players.player_notices(mine) == [("Raise Dominate: waiting", "waiting"), ("Odd", "answered")]
