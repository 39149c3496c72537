"""Between-game actions on screen (issue 33 item 3): the player's section (write, change, withdraw, read the
answer), the organisers' screen (answer, enter a late one), who sees what, the cutoff and the limit as the
player meets them, with and without JavaScript (htmx partials and plain posts).

Runs on the demo chronicle; game session 1 (open) is moved a week ahead so that it is coming."""

from __future__ import annotations

import html
import re
from datetime import date, timedelta

import pytest

from larp.db import db
from larp.models import BetweenGameAction, Character, GameSession
from tests.support import AuthActions, make_player

HX = {"HX-Request": "true", "HX-Target": "between-game-actions"}


def char(name: str) -> Character:
    """The stored character called ``name``, read now."""
    with db.connection_context():
        return Character.get(Character.name == name)


def text_of(response) -> str:
    """The response's page without markup, spaces squeezed."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


@pytest.fixture
def coming(app):
    """Game session 1 a week ahead; Konrad Vale played by player1, Lys Moreau by player2."""
    with db.connection_context():
        GameSession.update(date=date.today() + timedelta(days=7)).execute()
    make_player(app, char("Konrad Vale"), "player1")
    make_player(app, char("Lys Moreau"), "player2")
    return app


def test_a_player_writes_an_organiser_answers_the_player_reads_it(coming, client):
    """The whole way without JavaScript: the player writes (303 to his page, the action shown, waiting); an
    organiser sees it on the screen and answers (303 back to it); the player reads the answer on his page."""
    konrad = char("Konrad Vale")
    auth = AuthActions(client)
    auth.login("player1", "player")
    written = client.post(f"/my/characters/{konrad.id}/actions", data={"text": "I hunt the docks for the Sabbat pack."})
    assert written.status_code == 303 and written.headers["Location"].endswith(f"/my/characters/{konrad.id}?bga=written#between-game-actions")
    page = text_of(client.get(written.headers["Location"]))
    assert "Between-game action written" in page.split("Between-game actions")[-1]  # in the section, in view and "For Game session 1 (" in page and ": 1 of 3 written" in page
    assert "I hunt the docks for the Sabbat pack." in page and "Waiting for an answer" in page
    auth.logout()
    auth.login("org1", "organiser")
    screen = text_of(client.get("/between-game-actions"))
    assert "Konrad Vale" in screen and "I hunt the docks for the Sabbat pack." in screen and "1 waiting" in screen
    with db.connection_context():
        action = BetweenGameAction.get()
    answered = client.post(f"/between-game-actions/{action.id}/answer",
                           data={"answer": "You find their haven under pier 9.", "version": action.version})
    assert answered.status_code == 303 and answered.headers["Location"].endswith(f"answered={action.id}#action-{action.id}")
    back = text_of(client.get(answered.headers["Location"]))
    assert "Answer saved: Konrad Vale’s player reads it on the character’s page." in back
    assert "0 waiting" in text_of(client.get("/between-game-actions"))
    history = text_of(client.get(f"/characters/{konrad.id}/history"))  # on the character's record (organisers)
    assert "Between-game actions" in history and "answered · I hunt the docks" in history
    auth.logout()
    auth.login("player1", "player")
    page = text_of(client.get(f"/my/characters/{konrad.id}"))
    assert "You find their haven under pier 9." in page and "Answered" in page and "Org1" in page
    assert "Between-game action “I hunt the docks for the Sabbat pack.”: answered" in page  # his badge (issue 33 item 5)


def test_htmx_gets_the_section_and_the_action_back(coming, client):
    """htmx posts answer with the part that changed: the player's whole section, one action on the screen;
    a refusal comes back in it with the reason beside the form (4xx, what was typed kept)."""
    konrad = char("Konrad Vale")
    auth = AuthActions(client)
    auth.login("player1", "player")
    part = client.post(f"/my/characters/{konrad.id}/actions", data={"text": "Feed at the opera."}, headers=HX)
    body = part.get_data(as_text=True)
    assert part.status_code == 200 and body.lstrip().startswith("<section") and "<html" not in body
    assert "Feed at the opera." in body and "Between-game action written" in body
    empty = client.post(f"/my/characters/{konrad.id}/actions", data={"text": "  "}, headers=HX)
    assert empty.status_code == 422 and "Write the action first: it is empty." in empty.get_data(as_text=True)
    with db.connection_context():
        action = BetweenGameAction.get()
    changed = client.post(f"/my/characters/{konrad.id}/actions/{action.id}",
                          data={"text": "Feed at the opera, box 5.", "version": action.version}, headers=HX)
    assert changed.status_code == 200 and "Feed at the opera, box 5." in changed.get_data(as_text=True)
    stale = client.post(f"/my/characters/{konrad.id}/actions/{action.id}",
                        data={"text": "Typed on an old page", "version": action.version}, headers=HX)
    assert stale.status_code == 409 and "Typed on an old page" in stale.get_data(as_text=True)
    auth.logout()
    auth.login("org1", "organiser")
    one = client.post(f"/between-game-actions/{action.id}/answer", data={"answer": "Yes.", "version": action.version},
                      headers={"HX-Request": "true", "HX-Target": f"action-{action.id}"})
    assert one.status_code == 409 and "changed since" in one.get_data(as_text=True)
    assert f'id="action-{action.id}"' in one.get_data(as_text=True) and "Yes." in one.get_data(as_text=True)
    ok = client.post(f"/between-game-actions/{action.id}/answer", data={"answer": "Yes.", "version": action.version + 1},
                     headers={"HX-Request": "true", "HX-Target": f"action-{action.id}"})
    assert ok.status_code == 200 and "Answer saved" in ok.get_data(as_text=True)


def test_another_player_and_a_narrator_never_see_them(coming, client):
    """Privacy: another player gets 404 for Konrad's actions (reading, writing, changing, withdrawing) and his
    page shows none of them; a narrator gets 403 for the organisers' screen. The organisers' answer is what
    the player reads, Konrad's narrator notes never (they are distinct)."""
    konrad, lys = char("Konrad Vale"), char("Lys Moreau")
    with db.connection_context():
        Character.update(narrator_notes="SECRET: the Prince's spy.").where(Character.id == konrad.id).execute()
    auth = AuthActions(client)
    auth.login("player1", "player")
    client.post(f"/my/characters/{konrad.id}/actions", data={"text": "Konrad's private plan."})
    with db.connection_context():
        action = BetweenGameAction.get()
    auth.logout()
    auth.login("player2", "player")
    for response in (client.get(f"/my/characters/{konrad.id}/actions"),
                     client.post(f"/my/characters/{konrad.id}/actions", data={"text": "Mine now"}),
                     client.post(f"/my/characters/{lys.id}/actions/{action.id}", data={"text": "x", "version": 1}),
                     client.post(f"/my/characters/{lys.id}/actions/{action.id}/withdraw", data={"version": 1}),
                     client.post(f"/between-game-actions/{action.id}/answer", data={"answer": "x", "version": 1}),
                     client.get("/between-game-actions")):
        assert response.status_code in (403, 404)
        assert "Konrad's private plan." not in response.get_data(as_text=True)
    assert "Konrad's private plan." not in client.get(f"/my/characters/{lys.id}").get_data(as_text=True)
    auth.logout()
    auth.login("narrator1", "narrator")
    assert client.get("/between-game-actions").status_code == 403
    history = client.get(f"/characters/{konrad.id}/history")  # the History is the narrators' too: not there
    assert history.status_code == 200 and "Konrad's private plan." not in history.get_data(as_text=True)
    assert client.post(f"/between-game-actions/{action.id}/answer", data={"answer": "x", "version": 1}).status_code == 403
    auth.logout()
    auth.login("org1", "organiser")
    client.post(f"/between-game-actions/{action.id}/answer", data={"answer": "Granted.", "version": 1})
    auth.logout()
    auth.login("player1", "player")
    page = client.get(f"/my/characters/{konrad.id}").get_data(as_text=True)
    assert "Granted." in page and "SECRET" not in page
    with db.connection_context():
        assert BetweenGameAction.get().text == "Konrad's private plan."


def test_the_cutoff_and_the_limit_as_the_player_meets_them(coming, client):
    """Past the cutoff (setting 720 hours: a week ahead is past it) the player's section says when actions
    closed and offers no form; a post is refused (409, the reason on the page, the text kept); an organiser
    enters a late one; at the limit the form gives way to what to do."""
    from larp.services.chronicles import set_setting

    konrad = char("Konrad Vale")
    auth = AuthActions(client)
    auth.login("player1", "player")
    for n in range(3):
        client.post(f"/my/characters/{konrad.id}/actions", data={"text": f"Plan {n}"})
    page = text_of(client.get(f"/my/characters/{konrad.id}"))
    assert "You have written the chronicle's 3: change or withdraw one to write another." in page
    refused = client.post(f"/my/characters/{konrad.id}/actions", data={"text": "Plan 4"})
    assert refused.status_code == 409 and "the chronicle's limit (3)" in text_of(refused)
    assert "Plan 4" in refused.get_data(as_text=True)
    with db.connection_context():
        set_setting(Character.get_by_id(konrad.id).chronicle, "between_game_actions_cutoff_hours", "720")
        first = BetweenGameAction.select().order_by(BetweenGameAction.id).first()
    closed = client.get(f"/my/characters/{konrad.id}")
    assert re.search(r"Between-game actions for Game session 1 \([0-9-]+\) closed at", text_of(closed))
    assert 'name="text"' not in closed.get_data(as_text=True)
    late = client.post(f"/my/characters/{konrad.id}/actions/{first.id}/withdraw", data={"version": first.version})
    assert late.status_code == 409 and "closed at" in text_of(late)
    auth.logout()
    auth.login("org1", "organiser")
    client.post(f"/between-game-actions/{first.id}/answer", data={"answer": "ok", "version": first.version})
    with db.connection_context():
        set_setting(Character.get_by_id(konrad.id).chronicle, "between_game_actions_per_session", "4")
    entered = client.post("/between-game-actions/late", data={"character": konrad.id, "text": "Handed in on paper"})
    assert entered.status_code == 303
    with db.connection_context():
        assert BetweenGameAction.select().where(BetweenGameAction.author_name == "Org1").count() == 1
    organisers = client.get("/between-game-actions").get_data(as_text=True)
    assert "Handed in on paper" in organisers
    # The organisers' page speaks to the organiser (new user 11 read "ask an organiser" there).
    assert "an organiser can still enter a late one here" in organisers and "ask an organiser" not in organisers


def test_the_organise_hub_links_the_screen(coming, client):
    """Organise lists "Between-game actions"; the count of those waiting reaches the top bar through
    larp.services.players.pending_counts (issue 33 item 5)."""
    from larp.services.chronicles import get_chronicle
    from larp.services.players import pending_counts

    auth = AuthActions(client)
    auth.login("player1", "player")
    client.post(f"/my/characters/{char('Konrad Vale').id}/actions", data={"text": "Hunt"})
    client.post(f"/my/characters/{char('Konrad Vale').id}/actions", data={"text": "Scout"})
    auth.logout()
    auth.login("org1", "organiser")
    assert "/between-game-actions" in client.get("/organise").get_data(as_text=True)
    with coming.test_request_context(), db.connection_context():
        assert pending_counts(get_chronicle())["between_game_actions"] == 2
        first = BetweenGameAction.select().order_by(BetweenGameAction.id).first()
    client.post(f"/between-game-actions/{first.id}/answer", data={"answer": "Done", "version": first.version})
    with coming.test_request_context(), db.connection_context():
        assert pending_counts(get_chronicle())["between_game_actions"] == 1
