"""Issue 33 item 2 on screen: the organisers' queue (plain forms and htmx partials) and the "Ask to
spend experience" section (the cost and the unspent total shown before sending)."""

from __future__ import annotations

import re

from larp.db import db
from larp.models import Character, SpendRequest
from larp.services.chronicles import get_chronicle
from larp.services.experience import record_experience

RAPIDITY = {"kind": "power", "discipline": "Celerity", "name": "Rapidity"}


def vivienne(app, earned: str = "10") -> int:
    with app.test_request_context(), db.connection_context():
        character = Character.get(Character.name == "Vivienne Ashcombe")
        record_experience(get_chronicle(), None, character.id, "earned", earned, "test award")
        return character.id


def test_price_shown_before_sending_then_asked(app, client, auth):
    """The section prices Celerity 3 (6 XP, unspent 10 -> 4) before anything is stored; asking stores
    it; a prerequisite missing is refused at once with why (422, nothing stored)."""
    cid = vivienne(app)
    auth.login("boss", "organiser")
    page = client.get(f"/my/characters/{cid}/spend", query_string=RAPIDITY)
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "Celerity: Rapidity (Intermediate, in-clan)" in text
    assert 'id="spend-after">4<' in text and "6 XP" in text
    with db.connection_context():
        assert SpendRequest.select().count() == 0
    asked = client.post(f"/my/characters/{cid}/spend", data={**RAPIDITY, "note": "for the chase"})
    assert asked.status_code == 303
    refused = client.post(f"/my/characters/{cid}/spend",
                          data={"kind": "power", "discipline": "Dominate", "name": "Forgetful Mind"},
                          headers={"HX-Request": "true"})
    assert refused.status_code == 422 and "needs a Basic power of Dominate first" in refused.get_data(as_text=True)
    with db.connection_context():
        assert [s.note for s in SpendRequest.select()] == ["for the chase"]


def test_queue_approve_refuse_plain_and_htmx(app, client, auth):
    """The queue lists what waits; Approve (plain: 303 back to the queue) spends it; the asker cannot
    approve his own (403 on the queue, with why); Refuse without a reason is 422."""
    cid = vivienne(app)
    auth.login("asker", "organiser")
    client.post(f"/my/characters/{cid}/spend", data=RAPIDITY)
    client.post(f"/my/characters/{cid}/spend", data={"kind": "willpower"})
    with db.connection_context():
        first, second = [s.id for s in SpendRequest.select().order_by(SpendRequest.id)]
    own = client.post(f"/spends/{first}/approve", headers={"HX-Request": "true"})
    assert own.status_code == 403 and "own request" in own.get_data(as_text=True)
    auth.logout()
    auth.login("boss", "organiser")
    queue = client.get("/spends").get_data(as_text=True)
    assert "Celerity: Rapidity" in queue and "Vivienne Ashcombe" in queue
    # The top bar's count beside the phone's Menu: the number, "2 waiting" for a screen reader.
    assert re.search(r'id="waiting-menu"[^>]*><span aria-hidden="true">2</span><span class="visually-hidden">2 waiting<',
                     queue)
    hub = client.get("/organise").get_data(as_text=True)  # which list waits (a new user's report)
    assert re.search(r'<strong>Experience requests <span class="badge queue-count">2 waiting</span>', hub)
    assert client.post(f"/spends/{first}/approve").status_code == 303
    assert client.post(f"/spends/{second}/refuse", data={"reason": ""}, headers={"HX-Request": "true"}).status_code == 422
    answer = client.post(f"/spends/{second}/refuse", data={"reason": "Earn it in play."}, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and "Refused #" in answer.get_data(as_text=True)
    assert "<html" not in answer.get_data(as_text=True)
    # The top bar's count follows the answer out of band (it said "2 waiting" until a reload before).
    oob = re.search(r'<span id="waiting-menu"[^>]*hx-swap-oob="true"[^>]*>', answer.get_data(as_text=True))
    assert oob and "hidden" in oob.group(0) and 'id="waiting-nav"' in answer.get_data(as_text=True)
    with db.connection_context():
        assert [s.state for s in SpendRequest.select().order_by(SpendRequest.id)] == ["approved", "refused"]
    undone = client.post(f"/spends/{first}/undo", headers={"HX-Request": "true"})
    assert undone.status_code == 200 and "undone" in undone.get_data(as_text=True)


def test_narrators_do_not_reach_spends(app, client, auth):
    cid = vivienne(app)
    auth.login("narrator1", "narrator")
    assert client.get("/spends").status_code == 403
    # Not his character: 404, as for a player (nothing said about whether it exists).
    assert client.get(f"/my/characters/{cid}/spend").status_code == 404
    assert client.post(f"/my/characters/{cid}/spend", data=RAPIDITY).status_code == 404


def test_a_player_asks_for_his_own_only_and_sees_the_answer(app, client, auth):
    """A player's page holds the section; he asks for his own character, never for another's (404),
    never reaches the queue or an approval (403); the refusal's reason shows on his page."""
    from larp.services.players import player_notices
    from tests.support import make_player

    cid = vivienne(app)
    with db.connection_context():
        mine = Character.get_by_id(cid)
        other = Character.get(Character.name == "Konrad Vale")
    make_player(app, mine)
    auth.login("player1", "player")
    page = client.get(f"/my/characters/{cid}").get_data(as_text=True)
    assert 'id="spend-section"' in page and "Celerity: Rapidity (Intermediate, in-clan) · 6 XP" in page
    assert client.get(f"/my/characters/{other.id}/spend", query_string=RAPIDITY).status_code == 404
    assert client.post(f"/my/characters/{other.id}/spend", data={"kind": "willpower"}).status_code == 404
    assert client.post(f"/my/characters/{cid}/spend", data=RAPIDITY).status_code == 303
    with db.connection_context():
        asked = SpendRequest.get()
    assert client.get("/spends").status_code == 403
    assert client.post(f"/spends/{asked.id}/approve").status_code == 403
    auth.logout()
    auth.login("boss", "organiser")
    client.post(f"/spends/{asked.id}/refuse", data={"reason": "Not before the next story."})
    auth.logout()
    auth.login("player1", "player")
    page = client.get(f"/my/characters/{cid}").get_data(as_text=True)
    assert "Refused" in page and "Not before the next story." in page
    with db.connection_context():
        assert player_notices(mine)[0][1] == "refused"


def test_a_change_asked_tells_the_player_what_to_do(app, client, auth):
    """A new user's report: "Ask for a change" left the player a Withdraw button and nothing else to go on; his
    page now says to withdraw and ask again as the organisers say."""
    from tests.support import make_player

    cid = vivienne(app)
    with db.connection_context():
        mine = Character.get_by_id(cid)
    make_player(app, mine)
    auth.login("player1", "player")
    assert client.post(f"/my/characters/{cid}/spend", data=RAPIDITY).status_code == 303
    with db.connection_context():
        asked = SpendRequest.get()
    auth.logout()
    auth.login("boss", "organiser")
    client.post(f"/spends/{asked.id}/change", data={"reason": "Swiftness first, please."})
    auth.logout()
    auth.login("player1", "player")
    page = client.get(f"/my/characters/{cid}").get_data(as_text=True)
    assert "Swiftness first, please." in page
    assert "withdraw this request, then ask again above as they say" in page


def test_the_next_on_the_sheet_list_leaves_out_what_is_waiting_for_an_organiser(app, client, auth):
    """Asked for Willpower, the player's one-tap list no longer offers Willpower (asking it again would be
    refused as asked twice); once the request is answered, it is offered again."""
    cid = vivienne(app)
    auth.login("boss", "organiser")

    def offered() -> list[str]:
        page = client.get(f"/my/characters/{cid}/spend").get_data(as_text=True)
        listed = re.search(r'<ul class="spend-suggestions">(.*?)</ul>', page, re.S)
        return re.findall(r'<button type="submit" class="secondary">([^<]*?) · ', listed.group(1) if listed else "")

    before = offered()
    assert any(item.startswith("Permanent Willpower") for item in before), before
    assert client.post(f"/my/characters/{cid}/spend", data={"kind": "willpower"}).status_code == 303
    assert not any(item.startswith("Permanent Willpower") for item in offered())
    with db.connection_context():
        asked = SpendRequest.get()
    client.post(f"/spends/{asked.id}/refuse", data={"reason": "Not tonight."})
    assert any(item.startswith("Permanent Willpower") for item in offered())


def test_an_approval_undone_in_history_reads_in_the_readers_language(app, client, auth):
    """Issue 36: the app's own answer to a request whose approval was undone from History is said in the reader's
    language on the queue and on the player's page (an organiser's own answer stays as he wrote it)."""
    from larp.services.history import undo_ruling

    from tests.support import make_player

    cid = vivienne(app)
    with app.app_context(), db.connection_context():
        make_player(app, Character.get_by_id(cid))
    auth.login("player1", "player")
    assert client.post(f"/my/characters/{cid}/spend", data={"kind": "willpower"}).status_code == 303
    with db.connection_context():
        asked = SpendRequest.get()
    auth.logout()
    auth.login("boss", "organiser")
    assert client.post(f"/spends/{asked.id}/approve").status_code == 303
    with app.test_request_context(), db.connection_context():
        from larp.models import User

        approved = SpendRequest.get_by_id(asked.id)
        undo_ruling(get_chronicle(), User.get(User.username == "boss"), approved.ruling_id)
    english = client.get("/spends").get_data(as_text=True)
    assert f"Approval undone in History (ruling #{approved.ruling_id})." in english
    portuguese = client.get(f"/my/characters/{cid}/spend", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert f"Aprovação desfeita no Histórico (decisão nº\u00a0{approved.ruling_id})." in portuguese
    assert "Approval undone" not in portuguese


def test_the_sheet_editor_says_what_waiting_requests_ask_for(app, client, auth):
    """New user 11: the organiser logged a spend on the sheet editor while a player's request for the same points
    waited, and the approval was then refused. The editor's Experience section says how much waiting requests ask
    for, with the way to the queue; with none waiting it says nothing."""
    cid = vivienne(app)
    auth.login("boss", "organiser")
    assert "experience-waiting" not in client.get(f"/characters/{cid}/edit").get_data(as_text=True)
    client.post(f"/my/characters/{cid}/spend", data=RAPIDITY)
    page = client.get(f"/characters/{cid}/edit").get_data(as_text=True)
    assert "6 of it is asked for in 1 waiting request: approve or refuse it before spending it here." in page
    assert 'href="/spends"' in page[page.index('id="experience-waiting"'):]
