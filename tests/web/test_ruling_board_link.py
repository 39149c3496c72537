"""A fight's ruling in the record links back to the screen that made it (new user 10): the combat board or the
stray-shot screen drawn again with the same people and the recorded ruling in view."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from larp.models import Character, Ruling


@pytest.fixture
def cast(dbconn):
    """Id and card code of each demo character, by first name."""
    return {c.name.split()[0]: (c.id, c.short_code) for c in Character.select()}


def _board_link(page: str, words: str) -> str | None:
    """The address of the record page's link named ``words``, or ``None``."""
    match = re.search(r'<a class="button secondary" href="([^"]+)">' + re.escape(words) + "</a>", page)
    return html.unescape(match.group(1)) if match else None


def _fight(client, cast) -> Ruling:
    """Konrad attacked by Vivienne hand to hand and Ruth at range with her pistol, recorded."""
    konrad, viv, ruth = cast["Konrad"], cast["Vivienne"], cast["Ruth"]
    response = client.post("/combat", data={
        "target": konrad[0], "a": [viv[0], ruth[0]], "target_throw": "rock", "step": "record",
        f"a{viv[0]}_throw": "paper", f"a{ruth[0]}_throw": "paper", f"a{ruth[0]}_range": "ranged",
        f"a{ruth[0]}_weapon": "pistol"})
    assert response.status_code == 303
    return Ruling.get(Ruling.kind == "mass_combat")


def test_a_fights_ruling_links_to_the_board_with_the_same_people(client, auth, cast):
    """The record page of a mass challenge has "Show on the combat board": the board with the target, the
    attackers in order with their range and weapon, and the recorded ruling in view."""
    auth.login()
    ruling = _fight(client, cast)
    konrad, viv, ruth = cast["Konrad"], cast["Vivienne"], cast["Ruth"]
    url = _board_link(client.get(f"/rulings/{ruling.id}").get_data(as_text=True), "Show on the combat board")
    assert url is not None
    address = urlsplit(url)
    query = parse_qs(address.query)
    assert address.path == "/combat" and address.fragment == "combat-result"
    assert query["target"] == [str(konrad[0])] and query["a"] == [str(viv[0]), str(ruth[0])]
    assert query[f"a{ruth[0]}_range"] == ["ranged"] and query[f"a{ruth[0]}_weapon"] == ["pistol"]
    assert query["ruling"] == [str(ruling.id)]
    board = client.get(url).get_data(as_text=True)
    assert html.escape(ruling.summary) in board and f'id="ruling-{ruling.id}"' in board
    assert re.search(rf'name="a{ruth[0]}_weapon"[^>]*>.*?<option value="pistol" selected', board, re.S)
    for language, words in (("pt-BR", "Mostrar na tela de combate"), ("es", "Mostrar en la pantalla de combate")):
        said = client.get(f"/rulings/{ruling.id}", headers={"Accept-Language": language}).get_data(as_text=True)
        assert _board_link(said, words) == url


def test_a_stray_shots_ruling_links_to_the_stray_shot_screen(client, auth, cast):
    """The record page of a stray shot has "Show on the stray-shot screen": the firer with his gun, the target
    missed and the bystanders closest first, the recorded ruling in view; no combat board link."""
    auth.login()
    ruth, konrad, lys, pim = cast["Ruth"], cast["Konrad"], cast["Lys"], cast["Pim"]
    data = {"firer": ruth[0], "target": konrad[0], "b": [pim[0], lys[0]], "firer_weapon": "pistol", "step": "record"}
    for pid in (pim[0], lys[0]):
        data.update({f"b{pid}_throw": "scissors", f"b{pid}_firer_throw": "rock"})
    assert client.post("/combat/bystanders", data=data).status_code == 303
    ruling = Ruling.get(Ruling.kind == "firing_into_group")
    page = client.get(f"/rulings/{ruling.id}").get_data(as_text=True)
    assert _board_link(page, "Show on the combat board") is None
    query = parse_qs(urlsplit(_board_link(page, "Show on the stray-shot screen")).query)
    assert query["firer"] == [str(ruth[0])] and query["target"] == [str(konrad[0])]
    assert query["b"] == [str(pim[0]), str(lys[0])] and query["firer_weapon"] == ["pistol"]
    screen = client.get(_board_link(page, "Show on the stray-shot screen")).get_data(as_text=True)
    assert f'id="ruling-{ruling.id}"' in screen


def test_someone_deleted_is_left_off_and_without_the_target_there_is_no_link(client, auth, cast):
    """An attacker deleted since: the link leaves him off and the page names him; the target deleted: the board
    cannot stand without him, so no link and the page says why. A plain challenge has no such link."""
    auth.login("organiser1", role="organiser")
    ruling = _fight(client, cast)
    viv, konrad = cast["Vivienne"], cast["Konrad"]
    response = client.post(f"/characters/{viv[0]}/delete", data={"confirm_name": "Vivienne Ashcombe"})
    assert response.status_code == 303
    page = client.get(f"/rulings/{ruling.id}").get_data(as_text=True)
    query = parse_qs(urlsplit(_board_link(page, "Show on the combat board")).query)
    assert query["a"] == [str(cast["Ruth"][0])]
    assert "Left off the screen, no longer in the chronicle: Vivienne Ashcombe." in page
    assert client.post(f"/characters/{konrad[0]}/delete", data={"confirm_name": "Konrad Vale"}).status_code == 303
    page = client.get(f"/rulings/{ruling.id}").get_data(as_text=True)
    assert _board_link(page, "Show on the combat board") is None
    assert "The combat board cannot show this fight again: its target is no longer in the chronicle." in page
    other = Ruling.create(chronicle=ruling.chronicle, kind="challenge", summary="A challenge", inputs={
        "challenger": {"id": cast["Ruth"][0], "name": "Ruth Calder"}})
    assert "Show on the" not in client.get(f"/rulings/{other.id}").get_data(as_text=True)


def test_a_fight_in_the_dark_reopens_in_the_dark(client, auth, cast):
    """New user 13: a fight recorded in partial darkness reopened from the record in the light. The link carries
    the scene it was fought in (its darkness), so the board shows it as it was."""
    auth.login()
    konrad, viv = cast["Konrad"], cast["Vivienne"]
    assert client.post("/combat", data={"target": konrad[0], "a": [viv[0]], "darkness": "partial", "step": "record",
                                        "target_throw": "rock", f"a{viv[0]}_throw": "paper"}).status_code == 303
    ruling = Ruling.get(Ruling.kind == "mass_combat")
    url = _board_link(client.get(f"/rulings/{ruling.id}").get_data(as_text=True), "Show on the combat board")
    assert parse_qs(urlsplit(url).query)["darkness"] == ["partial"]
    board = client.get(url).get_data(as_text=True)
    assert re.search(r'name="darkness" value="partial"[^>]*checked', board)
    _fight(client, cast)  # a fight in the light says nothing of darkness
    light = Ruling.select().where(Ruling.kind == "mass_combat").order_by(Ruling.id.desc()).get()
    assert light.inputs["scene"]["darkness"] == "none"
    url = _board_link(client.get(f"/rulings/{light.id}").get_data(as_text=True), "Show on the combat board")
    assert "darkness" not in parse_qs(urlsplit(url).query)
