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


def test_every_kind_of_row_a_card_shows_moves_its_poll_whoever_writes_it(client, dbconn):
    """Issue 29: the poll reads the stored rows a screen shows (larp/services/live.py), so a change made
    by any path, here straight into the tables with no service (and no version moved on), is
    answered with the block at the next poll; and then 204 again. His notes are not on the card:
    changing them moves nothing."""
    from datetime import datetime

    from larp.models import Ability, AbilitySpend, ChronicleSetting, Equipment, GameSession, MeritFlaw, Power, Trait
    from larp.services.chronicles import open_game_session

    konrad = by_name("Konrad Vale")
    session = open_game_session(konrad.chronicle)
    url = poll_url(client.get(f"/C/{konrad.card_token}").get_data(as_text=True), "tonight-live")
    changes = [
        ("his row", lambda: Character.update(blood_current=Character.blood_current - 1).where(
            Character.id == konrad.id).execute()),
        ("a Trait's count", lambda: Trait.update(count=Trait.count + 1).where(
            Trait.id == Trait.select(Trait.id).where(Trait.character == konrad).limit(1)).execute()),
        ("an Ability's level", lambda: Ability.create(character=konrad, name="Occult", level=2)),
        ("a power", lambda: Power.create(character=konrad, discipline="Obfuscate", name="Cloak of Shadows", level=1)),
        ("a Merit", lambda: MeritFlaw.create(character=konrad, kind="merit", key="huge_size", name="Huge Size",
                                             cost=4)),
        ("armor worn", lambda: Equipment.create(character=konrad, kind="armor", key="ballistic_vest", name="Vest",
                                                rating=2)),
        ("an Ability level expended", lambda: AbilitySpend.create(character=konrad, game_session=session,
                                                                 name="Occult", levels=1)),
        ("a chronicle setting", lambda: ChronicleSetting.create(chronicle=konrad.chronicle, key="time_zone",
                                                                value="Europe/Lisbon")),
        ("the game session closed", lambda: GameSession.update(closed_at=datetime(2030, 1, 1)).where(
            GameSession.id == session.id).execute()),
    ]
    for what, change in changes:
        change()
        answer = client.get(url, headers={"HX-Request": "true"})
        assert answer.status_code == 200, what
        url = poll_url(answer.get_data(as_text=True), "tonight-live")
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 204, what
    Character.update(notes="Owes the Prince a boon.").where(Character.id == konrad.id).execute()
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 204


def test_a_change_made_while_the_card_page_is_drawn_shows_at_its_first_poll(client, dbconn, monkeypatch):
    """Issue 29: the page's fingerprint is read before what it shows, so a narrator's change landing while
    the page is being built is brought by the first poll (read after, the page would carry the new
    fingerprint with the old state and miss the change until the next one)."""
    import larp.web.cards as cards

    konrad = by_name("Konrad Vale")
    drawn = cards.character_state

    def drawn_then_changed(*args, **kwargs):
        state = drawn(*args, **kwargs)
        Character.update(damage_lethal=Character.damage_lethal + 2).where(Character.id == konrad.id).execute()
        return state

    monkeypatch.setattr(cards, "character_state", drawn_then_changed)
    page = client.get(f"/C/{konrad.card_token}").get_data(as_text=True)
    monkeypatch.setattr(cards, "character_state", drawn)
    assert page.count('class="box lethal"') == 0  # drawn before the blow
    changed = client.get(poll_url(page, "tonight-live"), headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert changed.get_data(as_text=True).count('class="box lethal"') == 2


def test_nothing_changed_is_answered_before_flask_and_everything_else_by_the_view(app, client, dbconn):
    """Issue 29: the card poll's 204 is given by larp.web.cards.NothingChanged before Flask builds a
    request (no session read, no cookie, none of a page's headers); a stale fingerprint, a malformed
    token and a plain page still reach the view."""
    konrad = by_name("Konrad Vale")
    url = poll_url(client.get(f"/C/{konrad.card_token}").get_data(as_text=True), "tonight-live")
    reached = []
    view = app.view_functions["cards.card_live"]
    app.view_functions["cards.card_live"] = lambda token: reached.append(token) or view(token)
    unchanged = client.get(url, headers={"HX-Request": "true"})
    assert unchanged.status_code == 204 and reached == []
    assert "Set-Cookie" not in unchanged.headers and "Vary" not in unchanged.headers
    assert client.get(url.replace("v=", "v=0"), headers={"HX-Request": "true"}).status_code == 200
    assert client.get(f"/c/{konrad.card_token[:-1]}/live?v=x", headers={"HX-Request": "true"}).status_code == 286
    assert len(reached) == 2


def test_a_poll_under_a_chronicle_the_user_is_not_in_is_refused_as_before(app, client, auth, dbconn):
    """Issue 22 stays true with the shortcut: a path naming a chronicle goes through the chronicle's
    scope, which answers a logged-in person who is not its member 404, unchanged fingerprint or not."""
    konrad = by_name("Konrad Vale")
    url = poll_url(client.get(f"/C/{konrad.card_token}").get_data(as_text=True), "tonight-live")
    auth.login()
    other = konrad.chronicle_id + 1000
    assert client.get(f"/chronicles/{other}{url}", headers={"HX-Request": "true"}).status_code == 404
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 204
