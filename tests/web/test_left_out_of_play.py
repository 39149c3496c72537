"""New-user test 12, finding 7: a character the rules core's condition rules refuse (in torpor, Final Death...)
is left out of "All of them attack" and of the "Recently in play" chips on the challenge screen, the combat
board and the stray-shot screen; one line says how many were left out and why (the core's own words)."""

from __future__ import annotations

import re

from larp.models import Character

FIGHTERS = ("Konrad Vale", "Lys Moreau", "Marcus Hale", "Aldous Whitmore")


def _scanned_with_one_in_torpor(client, auth):
    """Konrad, Lys, Marcus and Aldous scanned (recently in play); Aldous then in torpor."""
    auth.login()
    for name in FIGHTERS:
        client.get(f"/c/{Character.get(Character.name == name).card_token}")
    Character.update(condition="torpor").where(Character.name == "Aldous Whitmore").execute()
    return {name: Character.get(Character.name == name).id for name in FIGHTERS + ("Teodor Brandt",)}


def _chips(body: str) -> str:
    start = body.index('class="chips in-scene"')
    return body[start:body.index("</div>", start)]


LEFT_OUT = "1 left out: Aldous Whitmore is in torpor and cannot take part in a challenge."


def test_all_of_them_attack_leaves_out_a_character_in_torpor_and_says_why(client, auth, dbconn):
    ids = _scanned_with_one_in_torpor(client, auth)
    body = client.post("/combat", data={"step": f"set:target:{ids['Teodor Brandt']}"},
                       headers={"HX-Request": "true"}).get_data(as_text=True)
    step = re.search(r'name="step" value="(pick:[\d,]+:hand_to_hand)"[^>]*>All of them attack \((\d)\)', body)
    assert step.group(2) == "3"
    assert sorted(step.group(1).split(":")[1].split(",")) == sorted(
        str(ids[n]) for n in ("Konrad Vale", "Lys Moreau", "Marcus Hale"))
    chips = _chips(body)
    assert "Aldous Whitmore</button>" not in chips and LEFT_OUT in chips


def test_recently_in_play_on_the_challenge_screen_and_the_pickers_leave_him_out(client, auth, dbconn):
    ids = _scanned_with_one_in_torpor(client, auth)
    page = client.get(f"/challenge?challenger={ids['Teodor Brandt']}").get_data(as_text=True)
    chips = _chips(page)
    assert "Konrad Vale</a>" in chips and "Aldous Whitmore</a>" not in chips and LEFT_OUT in chips
    for address in ("/combat", "/combat/bystanders"):
        chips = _chips(client.get(address).get_data(as_text=True))
        assert "Konrad Vale</button>" in chips and "Aldous Whitmore</button>" not in chips and LEFT_OUT in chips, address
