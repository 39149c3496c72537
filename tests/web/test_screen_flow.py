"""The challenge screen's flow at a live event (issue 18): undo for a minute, scene chips that keep the
form, each side's bid preselected, the scene's characters and two scans making a challenge."""

from __future__ import annotations

import datetime as dt
import re

from larp.models import Character, Ruling, TraitLoss
from tests.web.test_challenge_web import post


def checked(body: str, name: str, value: str) -> bool:
    """Whether the radio ``name`` = ``value`` is checked in ``body``."""
    return re.search(rf'name="{name}" value="{re.escape(value)}"[^>]*\bchecked', body) is not None


def cid(name: str) -> int:
    return Character.get(Character.name == name).id


def static_win(client) -> Ruling:
    """Ruth wins a static Mental challenge against 2 Traits: no retest or overbid is left, so Resolve records."""
    response = post(client, record=False, kind="static", category="mental", action="other",
                    challenger=cid("Ruth Calder"), challenger_bid="Shrewd", challenger_throw="rock",
                    defender_throw="scissors", difficulty="2")
    assert response.status_code == 303, response.get_data(as_text=True)
    assert response.headers["Location"].endswith("#ruling")
    return Ruling.get(Ruling.kind == "challenge")


def test_a_challenge_without_a_call_left_records_on_resolve_and_its_narrator_may_undo_it(client, auth, dbconn):
    """Issue 18 "records on Resolve, with undo in view for a minute"; LotNR Static Challenges: Ruth's win is
    recorded by the one Resolve; the screen showing it offers "Undo ruling #1"; the undo puts her Shrewd back
    and is recorded as an undo."""
    auth.login()
    ruling = static_win(client)
    assert [(l.character.name, l.name) for l in TraitLoss.select()] == []  # a static win loses no Trait
    page = client.get(f"/challenge?ruling={ruling.id}&challenger={cid('Ruth Calder')}&kind=static&category=mental")
    assert f"Undo ruling #{ruling.id}" in page.get_data(as_text=True)
    response = client.post("/challenge/undo", data={"undo": ruling.id, "kind": "static", "category": "mental",
                                                    "challenger": cid("Ruth Calder")}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert f"Undo of #{ruling.id}" in response.get_data(as_text=True)
    assert Ruling.get_by_id(ruling.id).undone_at is not None
    assert Ruling.select().where(Ruling.kind == "undo").count() == 1


def test_undo_is_refused_to_another_narrator_and_after_the_minute(client, auth, dbconn):
    """Issue 18: the screen's Undo is the recording narrator's, for a minute (90 s with a slow tap's grace);
    another narrator gets a 403 and a late tap a 409 naming the history, and nothing is undone."""
    auth.login()
    ruling = static_win(client)
    client.post("/logout")
    auth.login("narrator2")
    response = client.post("/challenge/undo", data={"undo": ruling.id}, headers={"HX-Request": "true"})
    assert response.status_code == 403 and "another narrator" in response.get_data(as_text=True)
    client.post("/logout")
    auth.login()
    Ruling.update(created_at=ruling.created_at - dt.timedelta(seconds=91)).where(Ruling.id == ruling.id).execute()
    response = client.post("/challenge/undo", data={"undo": ruling.id}, headers={"HX-Request": "true"})
    assert response.status_code == 409 and "more than 90 seconds old" in response.get_data(as_text=True)
    assert Ruling.get_by_id(ruling.id).undone_at is None and Ruling.select().count() == 1
    page = client.get(f"/challenge?ruling={ruling.id}").get_data(as_text=True)
    assert "Undo ruling" not in page  # out of the minute, the button is gone


def test_a_scene_chip_keeps_the_bids_throws_and_typed_call(client, auth, dbconn):
    """Issue 18 "Nothing typed is lost": tapping Partial dark posts the form to /challenge/scene, which
    writes nothing and gives the screen back with Nimble, Paper and "Clumsy" kept and the scene partly dark;
    the address bar gets the scene and the sides, never the CSRF token."""
    auth.login()
    viv, kon = cid("Vivienne Ashcombe"), cid("Konrad Vale")
    response = client.post("/challenge/scene", headers={"HX-Request": "true"}, data={
        "challenger": viv, "defender": kon, "category": "physical", "kind": "contested", "darkness": "none",
        "set_darkness": "partial", "challenger_bid": "Nimble", "challenger_throw": "paper",
        "challenger_calls_negative": "Clumsy", "csrf_token": "x"})
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and response.headers["HX-Retarget"] == "#main"
    assert checked(body, "challenger_bid", "Nimble") and checked(body, "challenger_throw", "paper")
    assert 'value="Clumsy"' in body and "Partial darkness in this scene" in body
    url = response.headers["HX-Replace-Url"]
    assert "darkness=partial" in url and f"challenger={viv}" in url and "csrf" not in url and "Nimble" not in url
    assert Ruling.select().count() == 0
    # Social and back: the Physical bid comes back with the category.
    body = client.post("/challenge/scene", headers={"HX-Request": "true"}, data={
        "challenger": viv, "defender": kon, "category": "social", "kind": "contested", "set_category": "physical",
        "challenger_bid": "Charming", "challenger_bid_physical": "Nimble"}).get_data(as_text=True)
    assert checked(body, "challenger_bid", "Nimble")
    assert 'name="challenger_bid_social" value="Charming"' in body


def test_each_side_bids_the_trait_he_has_most_of_tonight(client, auth, dbconn):
    """Issue 18 "Each side's bid Trait is preselected: one the character still has tonight, most plentiful
    first": Vivienne starts on Quick (x2 of her 5 Physical Traits); once both Quick are lost she starts on
    Graceful, the first of those left."""
    auth.login()
    viv, kon = cid("Vivienne Ashcombe"), cid("Konrad Vale")
    body = client.get(f"/challenge?challenger={viv}&defender={kon}").get_data(as_text=True)
    side = body[body.index('id="side-challenger"'):body.index('id="side-defender"')]
    assert checked(side, "challenger_bid", "Quick") and len(re.findall(r'name="challenger_bid"[^>]*checked', side)) == 1
    for _ in range(2):
        post(client, challenger=viv, defender=kon, category="physical", action="strike", defender_action="defend",
             challenger_bid="Quick", defender_bid="Brawny", challenger_throw="rock", defender_throw="paper")
    assert [l.name for l in TraitLoss.select().where(TraitLoss.character == viv)] == ["Quick", "Quick"]
    body = client.get(f"/challenge?challenger={viv}&defender={kon}").get_data(as_text=True)
    side = body[body.index('id="side-challenger"'):body.index('id="side-defender"')]
    assert checked(side, "challenger_bid", "Graceful") and not checked(side, "challenger_bid", "Quick")


def test_two_scans_make_a_challenge_and_the_ruled_stay_in_the_scene(client, auth, dbconn):
    """Issue 18 "Scanning chains": a narrator scans Vivienne's card, then Konrad's: Konrad's page links
    "Vivienne Ashcombe challenges Konrad Vale" (both sides filled) and the reverse; a player (no login) sees
    neither. The characters scanned are one tap away in the challenge screen's pickers."""
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    kon = Character.get(Character.name == "Konrad Vale")
    assert "challenges" not in client.get(f"/c/{kon.card_token}").get_data(as_text=True)
    auth.login()
    first = client.get(f"/c/{viv.card_token}").get_data(as_text=True)
    assert "scan-chain" not in first
    body = client.get(f"/c/{kon.card_token}").get_data(as_text=True)
    assert f'href="/challenge?challenger={viv.id}&amp;defender={kon.id}">Vivienne Ashcombe challenges Konrad Vale' in body
    assert f'href="/challenge?challenger={kon.id}&amp;defender={viv.id}">Konrad Vale challenges Vivienne Ashcombe' in body
    screen = client.get("/challenge").get_data(as_text=True)
    picker = screen[screen.index('id="side-challenger"'):screen.index('id="side-defender"')]
    assert picker.index("Konrad Vale") < picker.index("Vivienne Ashcombe")  # the most recent first
    assert f'href="/challenge?category=physical&amp;kind=contested&amp;challenger={kon.id}"' in picker


def test_the_screen_is_told_when_a_side_changed(client, auth, dbconn):
    """Issue 18 "told before, not after": the screen's poll answers 204 while Konrad is as drawn, and a
    warning naming him once a ruling changed him (his fingerprint moved), with the redraw that keeps the form."""
    auth.login()
    viv, kon = cid("Vivienne Ashcombe"), cid("Konrad Vale")
    body = client.get(f"/challenge?challenger={viv}&defender={kon}").get_data(as_text=True)
    url = re.search(r'class="stale-watch" hx-get="([^"]+)"', body).group(1).replace("&amp;", "&")
    assert client.get(url).status_code == 204
    post(client, challenger=viv, defender=kon, category="physical", action="strike", defender_action="defend",
         challenger_bid="Quick", defender_bid="Brawny", challenger_throw="rock", defender_throw="scissors")
    response = client.get(url)
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and "Konrad Vale changed since this screen was drawn" in text
    assert "Vivienne Ashcombe" not in text  # the winner lost nothing: her fingerprint is the same
    assert 'formaction="/challenge/scene"' in text


def test_the_characters_ruled_on_are_one_tap_away_on_the_combat_board(client, auth, dbconn):
    """Issue 18 "in every picker, on the challenge screen and the combat board": after a challenge between
    Vivienne and Konrad, the board's target picker offers both; tapping Konrad makes him the target, and
    Vivienne is then offered as an attacker (hand to hand)."""
    auth.login()
    viv, kon = cid("Vivienne Ashcombe"), cid("Konrad Vale")
    post(client, challenger=viv, defender=kon, category="physical", action="strike", defender_action="defend",
         challenger_bid="Quick", defender_bid="Brawny", challenger_throw="rock", defender_throw="scissors")
    board = client.get("/combat").get_data(as_text=True)
    assert f'value="set:target:{kon}"' in board and f'value="set:target:{viv}"' in board
    body = client.post("/combat", data={"step": f"set:target:{kon}"}, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'name="target" value="%d"' % kon in body
    assert f'value="pick:{viv}:hand_to_hand"' in body and f'value="set:target:{viv}"' not in body


def join_form(body: str) -> dict[str, list[str]]:
    """The hidden fields and the button of the card page's "joins the attack" form, as a plain browser posts them."""
    form = body[body.index('class="scan-join"'):]
    form = form[:form.index("</form>")]
    data: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form):
        data.setdefault(name, []).append(value)
    step = re.search(r'name="step" value="([^"]+)"', form).group(1)
    data["step"] = [step]
    return data


def test_a_card_scanned_while_a_mass_challenge_is_set_up_joins_the_attack(client, auth, dbconn):
    """Issue 18 "a third scan during a mass challenge adds an attacker": the board has Teodor as the target
    and Lys attacking; Konrad's card page then offers "Konrad Vale joins the attack on Teodor Brandt", and its
    plain form (no JavaScript) adds him hand to hand and lands on the board (303) with Lys and her weapon
    kept. Lys's own card, already on the board, offers no such thing; nor does a player's view."""
    teo, lys = cid("Teodor Brandt"), cid("Lys Moreau")
    kon = Character.get(Character.name == "Konrad Vale")
    auth.login()
    client.post("/combat", data={"step": f"set:target:{teo}"})
    client.post("/combat", data={"target": teo, "step": f"pick:{lys}:hand_to_hand"})
    client.post("/combat", data={"target": teo, "a": lys, f"a{lys}_weapon": "knife", "step": "enter"})
    assert "joins the attack" not in client.get(f"/c/{Character.get_by_id(lys).card_token}").get_data(as_text=True)
    body = client.get(f"/c/{kon.card_token}").get_data(as_text=True)
    assert "Konrad Vale joins the attack on Teodor Brandt" in body
    data = join_form(body)
    assert data["step"] == [f"pick:{kon.id}:hand_to_hand"] and data[f"a{lys}_weapon"] == ["knife"]
    response = client.post("/combat", data=data)
    assert response.status_code == 303
    board = client.get(response.headers["Location"]).get_data(as_text=True)
    assert re.findall(r'<input type="hidden" name="a" value="(\d+)">', board) == [str(lys), str(kon.id)]
    assert f'name="target" value="{teo}"' in board
    assert re.search(rf'name="a{lys}_weapon".*?value="knife" selected', board, re.S)
    with client.application.test_client() as player:  # no login: the player's own view
        assert "joins the attack" not in player.get(f"/c/{kon.card_token}").get_data(as_text=True)


def test_all_of_the_scene_attack_in_one_tap(client, auth, dbconn):
    """Issue 18 "fewer taps" on the combat board: with Teodor the target and Konrad, Lys and Marcus scanned in
    this scene, one button adds all three hand to hand (002 "Mass Combat": at most 5 hand to hand, so it
    offers at most the room left)."""
    auth.login()
    names = ("Konrad Vale", "Lys Moreau", "Marcus Hale")
    for name in names:
        client.get(f"/c/{Character.get(Character.name == name).card_token}")
    teo = cid("Teodor Brandt")
    body = client.post("/combat", data={"step": f"set:target:{teo}"}, headers={"HX-Request": "true"}).get_data(as_text=True)
    step = re.search(r'name="step" value="(pick:[\d,]+:hand_to_hand)"[^>]*>All of them attack \(3\)', body).group(1)
    body = client.post("/combat", data={"target": teo, "step": step}, headers={"HX-Request": "true"}).get_data(as_text=True)
    ids = re.findall(r'<input type="hidden" name="a" value="(\d+)">', body)
    assert sorted(ids) == sorted(str(cid(n)) for n in names)
    assert "All of them attack" not in body
