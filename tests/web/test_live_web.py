"""Live state (issue 18): an open character page and a player's card page follow another narrator's
changes by polling a small endpoint that answers 204 while nothing changed."""

from __future__ import annotations

import re

from larp.models import Character


def by_name(name: str) -> Character:
    return Character.get(Character.name == name)


def poll_url(html: str, element_id: str) -> str:
    tag = re.search(rf'<div id="{element_id}"[^>]*>', html).group(0)
    assert 'hx-trigger="every 5s"' in tag, tag
    return re.search(r'hx-get="([^"]+)"', tag).group(1).replace("&amp;", "&")


def test_the_card_page_polls_and_gets_204_until_a_narrator_changes_the_character(client, auth, dbconn):
    """Issue 18 "Live state": the player's card page asks every 5 s; nothing changed is a 204 with no body;
    after a narrator's 2 lethal the answer is the new "tonight" block showing the marks, with a new question."""
    konrad = by_name("Konrad Vale")
    page = client.get(f"/C/{konrad.card_token}").get_data(as_text=True)
    url = poll_url(page, "tonight-live")
    assert url.startswith(f"/c/{konrad.card_token}/live?v=")
    unchanged = client.get(url, headers={"HX-Request": "true"})
    assert unchanged.status_code == 204 and unchanged.data == b""
    assert unchanged.headers["Cache-Control"] == "no-store"

    narrator = client.application.test_client()
    auth.__class__(narrator).login()
    response = narrator.post(f"/characters/{konrad.id}/damage", data={"damage_type": "lethal", "levels": "2"})
    assert response.status_code == 303

    changed = client.get(url, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    block = changed.get_data(as_text=True)
    assert block.count('class="box lethal"') == 2
    assert "<html" not in block and "narrator_notes" not in block
    new_url = poll_url(block, "tonight-live")
    assert new_url != url
    assert client.get(new_url, headers={"HX-Request": "true"}).status_code == 204


def test_traits_lost_in_a_ruling_change_the_answer_too(client, auth, dbconn):
    """Issue 18: Traits left tonight are part of what the card shows, so a lost Trait (kept against the game
    session, not on the character row) makes the next poll answer with the block."""
    from larp.models import TraitLoss
    from larp.services.chronicles import open_game_session

    konrad = by_name("Konrad Vale")
    url = poll_url(client.get(f"/C/{konrad.card_token}").get_data(as_text=True), "tonight-live")
    TraitLoss.create(character=konrad, game_session=open_game_session(konrad.chronicle), category="physical",
                     name="Brawny", count=1)
    changed = client.get(url, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert "Brawny ×2 <small>(1 lost)</small>" in changed.get_data(as_text=True)


def test_a_revoked_card_stops_the_polling(client, auth, dbconn):
    """Issue 18: once the organiser revokes the card, the poll answers 286 (htmx stops polling) with the
    card's message; a plain request gets the card's 404."""
    from larp.services.cards import UNKNOWN_CARD, revoke_card

    konrad = by_name("Konrad Vale")
    url = poll_url(client.get(f"/C/{konrad.card_token}").get_data(as_text=True), "tonight-live")
    revoke_card(konrad.chronicle, konrad.id)
    stopped = client.get(url, headers={"HX-Request": "true"})
    assert stopped.status_code == 286
    assert UNKNOWN_CARD in stopped.get_data(as_text=True)
    assert client.get(url).status_code == 404


def test_the_character_page_polls_for_what_it_shows_and_keeps_the_forms(client, auth, dbconn):
    """Issue 18: the narrator's character page asks every 5 s; 204 while nothing changed; after another
    narrator spends blood the answer carries the health, condition, Traits and Abilities blocks that the
    poller takes (hx-select-oob), never the forms."""
    auth.login()
    konrad = by_name("Konrad Vale")
    page = client.get(f"/characters/{konrad.id}").get_data(as_text=True)
    url = poll_url(page, "live-poll")
    tag = re.search(r'<div id="live-poll"[^>]*>', page).group(0)
    assert 'hx-select-oob="#health-condition,#health-state,#traits-tonight,#abilities-tonight"' in tag
    for block in ("health-condition", "health-state", "traits-tonight", "abilities-tonight"):
        assert f'id="{block}"' in page
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 204

    other = client.application.test_client()
    auth.__class__(other).login("narrator2")
    blood = konrad.blood_current
    other.post(f"/characters/{konrad.id}/heal", data={"kind": "bashing", "levels": "1"})  # nothing to heal: refused
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 204
    other.post(f"/characters/{konrad.id}/damage", data={"damage_type": "bashing", "levels": "2"})
    other.post(f"/characters/{konrad.id}/heal", data={"kind": "bashing", "levels": "1"})
    assert by_name("Konrad Vale").blood_current < blood
    changed = client.get(url, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    html = changed.get_data(as_text=True)
    assert f"{by_name('Konrad Vale').blood_current} / {konrad.blood_max} blood points" in html
    assert poll_url(html, "live-poll") != url


def test_the_character_poll_needs_a_narrator(client, dbconn):
    """Only narrators and organisers follow a character's page: an anonymous poll is sent to log in."""
    konrad = by_name("Konrad Vale")
    response = client.get(f"/characters/{konrad.id}/live?v=x", headers={"HX-Request": "true"})
    assert response.status_code in (302, 303) and "HX-Redirect" in response.headers
