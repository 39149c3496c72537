"""Between-game actions in the JSON API (issue 33 items 3 and 6): a player's token reads and writes only his
own characters' actions; an organiser's reads all of the chronicle and answers; a narrator's is refused."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from larp.db import db
from larp.models import Character, GameSession
from larp.services.accounts import create_user
from larp.services.api_tokens import create_token
from tests.support import make_player


def char(name: str) -> Character:
    """The stored character called ``name``, read now."""
    with db.connection_context():
        return Character.get(Character.name == name)


@pytest.fixture
def tokens(app):
    """Bearer headers of player1 (Konrad Vale), player2 (Lys Moreau), an organiser and a narrator; game
    session 1 a week ahead (coming, open for actions)."""
    with db.connection_context():
        GameSession.update(date=date.today() + timedelta(days=7)).execute()
    one, two = make_player(app, char("Konrad Vale"), "player1"), make_player(app, char("Lys Moreau"), "player2")
    with app.app_context(), db.connection_context():
        made = {"player1": create_token(one, "Phone", "player")[1], "player2": create_token(two, "Phone", "player")[1],
                "organiser": create_token(create_user("org1", "Olga", "organiser", "correct horse"), "Bot", "organiser")[1],
                "narrator": create_token(create_user("nar1", "Nate", "narrator", "correct horse"), "Bot", "narrator")[1]}
    return {who: {"Authorization": f"Bearer {token}"} for who, token in made.items()}


def test_a_players_token_sees_and_writes_only_his_own(client, tokens):
    """Player 1 writes for Konrad and lists his own; player 2 gets 404 writing for Konrad or listing Konrad's,
    and his own list is empty; the organiser lists both and answers; player 1 reads the answer."""
    konrad, lys = char("Konrad Vale"), char("Lys Moreau")
    written = client.post("/api/v1/between-game-actions", json={"character_id": konrad.id, "text": "Konrad's secret"},
                          headers={**tokens["player1"], "Idempotency-Key": "k-1"})
    assert written.status_code == 200, written.get_json()
    action = written.get_json()["action"]
    assert written.get_json()["written"] and action["state"] == "waiting" and action["game_session"] == 1
    again = client.post("/api/v1/between-game-actions", json={"character_id": konrad.id, "text": "Konrad's secret"},
                        headers={**tokens["player1"], "Idempotency-Key": "k-1"})
    assert again.get_json()["written"] is False and again.get_json()["action"]["id"] == action["id"]
    client.post("/api/v1/between-game-actions", json={"character_id": lys.id, "text": "Lys's plan"}, headers=tokens["player2"])
    mine = client.get("/api/v1/between-game-actions", headers=tokens["player1"]).get_json()
    assert [a["text"] for a in mine["actions"]] == ["Konrad's secret"] and mine["window"]["open"]
    assert mine["window"]["per_session"] == 3 and mine["window"]["cutoff_hours"] == 48
    theirs = client.get("/api/v1/between-game-actions", headers=tokens["player2"]).get_json()
    assert [a["text"] for a in theirs["actions"]] == ["Lys's plan"]
    for response in (client.get(f"/api/v1/between-game-actions?character_id={konrad.id}", headers=tokens["player2"]),
                     client.post("/api/v1/between-game-actions", json={"character_id": konrad.id, "text": "x"},
                                 headers=tokens["player2"])):
        assert response.status_code == 404 and "Konrad's secret" not in response.get_data(as_text=True)
    refused = client.post(f"/api/v1/between-game-actions/{action['id']}/answer", json={"answer": "x", "version": 1},
                          headers=tokens["player1"])
    assert refused.status_code == 403
    everything = client.get("/api/v1/between-game-actions", headers=tokens["organiser"]).get_json()
    assert sorted(a["text"] for a in everything["actions"]) == ["Konrad's secret", "Lys's plan"]
    answered = client.post(f"/api/v1/between-game-actions/{action['id']}/answer",
                           json={"answer": "Granted.", "version": action["version"]}, headers=tokens["organiser"])
    assert answered.status_code == 200 and answered.get_json()["state"] == "answered"
    huge = client.post(f"/api/v1/between-game-actions/{action['id']}/answer",  # a version no column holds: 422
                       json={"answer": "x", "version": 2 ** 70}, headers=tokens["organiser"])
    assert huge.status_code == 422 and huge.get_json()["field"] == "version"
    stale = client.post(f"/api/v1/between-game-actions/{action['id']}/answer",
                        json={"answer": "Again", "version": action["version"]}, headers=tokens["organiser"])
    assert stale.status_code == 409
    read = client.get("/api/v1/between-game-actions", headers=tokens["player1"]).get_json()["actions"][0]
    assert (read["answer"], read["answered_by"], read["state"]) == ("Granted.", "Bot", "answered")  # a token writes as its name


def test_a_narrators_token_is_refused_and_players_reach_no_other_call(client, tokens):
    """Narrators never see between-game actions (403); a player's token still reaches no other API call."""
    assert client.get("/api/v1/between-game-actions", headers=tokens["narrator"]).status_code == 403
    assert client.post("/api/v1/between-game-actions", json={"character_id": 2, "text": "x"},
                       headers=tokens["narrator"]).status_code == 403
    assert client.get("/api/v1/characters", headers=tokens["player1"]).status_code == 403
    assert client.get("/api/v1/rulings", headers=tokens["player1"]).status_code == 403
