"""The screens in the readers' languages (issue 36 items 1 and 5): each translated screen rendered in the
pseudo-locale leaves no English word bare (tests/i18n_support.py), and reads in Portuguese and Spanish.

The words a page shows from the data are allowed: a character's name, his player's, the chronicle's, and
the sheet's own words (Trait adjectives, Abilities, Disciplines and powers stay as the chronicle wrote
them, issue 36 item 3).
"""

from __future__ import annotations

import re

import pytest

from larp.db import db
from larp.models import Ability, Character, Chronicle, Power, Trait
from larp.services.chronicles import get_chronicle, set_setting
from tests.i18n_support import PSEUDO_HEADERS, assert_translated, bare_english
from tests.support import AuthActions, make_test_app


@pytest.fixture
def pseudo_app(tmp_path):
    app = make_test_app(tmp_path, PSEUDO_LOCALE=True)
    yield app
    if not db.is_closed():
        db.close()


def sheet_words(character: Character) -> list[str]:
    """What a page may show of ``character`` as the chronicle wrote it."""
    words = [character.name, character.player_name, character.clan, character.chronicle.name,
             character.morality_name or ""]
    words += [t.name for t in Trait.select().where(Trait.character == character)]
    words += [a.name for a in Ability.select().where(Ability.character == character)]
    words += [f"{p.discipline} {p.name}" for p in Power.select().where(Power.character == character)]
    return words


def a_card(with_everything: bool = True) -> Character:
    """A demo character with a card, Traits, Abilities and Disciplines."""
    for character in Character.select().where(Character.card_token.is_null(False)).order_by(Character.id):
        if not with_everything or (Power.select().where(Power.character == character).exists()
                                   and Ability.select().where(Ability.character == character).exists()):
            return character
    raise AssertionError("the demo has no character with a card, Abilities and Disciplines")


def test_the_login_page_leaves_no_english_bare(pseudo_app):
    page = pseudo_app.test_client().get("/login", headers=PSEUDO_HEADERS)
    assert page.status_code == 200
    assert_translated(page, allow=["larp"])
    refused = pseudo_app.test_client().post("/login", data={"username": "nobody", "password": "x"},
                                            headers=PSEUDO_HEADERS)
    assert refused.status_code == 401
    assert_translated(refused, allow=["larp", "nobody"])


def test_the_top_bar_leaves_no_english_bare(pseudo_app):
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    html = client.get("/account", headers=PSEUDO_HEADERS).get_data(as_text=True)
    header = re.search(r'<header class="topbar">.*?</header>', html, re.S).group(0)
    with pseudo_app.app_context(), db.connection_context():
        chronicle = Chronicle.select().first().name
    left = bare_english(header, allow=["larp", "Boss", chronicle])
    assert not left, f"English left bare in the top bar: {sorted(set(left))}"


def test_the_players_card_page_leaves_no_english_bare(pseudo_app):
    with pseudo_app.app_context(), db.connection_context():
        character = a_card()
        allowed = sheet_words(character)
        token = character.card_token
    client = pseudo_app.test_client()
    assert_translated(client.get(f"/c/{token}", headers=PSEUDO_HEADERS), allow=allowed)
    assert_translated(client.get(f"/c/{token}/live", headers=PSEUDO_HEADERS), allow=allowed)
    assert_translated(client.get("/c/NOSUCHCARD", headers=PSEUDO_HEADERS), allow=["larp"])


def test_the_narrator_view_of_a_card_leaves_no_english_bare_in_its_own_words(pseudo_app):
    client = pseudo_app.test_client()
    AuthActions(client).login("nar", "narrator")
    with pseudo_app.app_context(), db.connection_context():
        character = a_card()
        allowed = sheet_words(character)
        token = character.card_token
    page = client.get(f"/c/{token}", headers=PSEUDO_HEADERS, follow_redirects=True)
    html = page.get_data(as_text=True)
    actions = re.search(r'<div class="actions-row">.*?</p>', html, re.S).group(0)
    assert not bare_english(actions, allow=allowed + ["Nar"])
    assert_translated(page, allow=allowed, within="tonight-live")


def test_a_card_reads_in_portuguese_and_spanish(client, dbconn):
    character = a_card()
    set_setting(get_chronicle(), "language", "pt_BR")
    page = client.get(f"/c/{character.card_token}").get_data(as_text=True)
    assert '<html lang="pt-BR">' in page
    assert "Características que restam esta noite" in page and "pontos de sangue" in page
    assert "Força de Vontade" in page and "Vitalidade" in page
    spanish = client.get(f"/c/{character.card_token}", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Características que restam esta noite" in spanish  # the chronicle's language, not the phone's
    set_setting(get_chronicle(), "language", "browser")
    spanish = client.get(f"/c/{character.card_token}", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Rasgos que quedan esta noche" in spanish and "puntos de sangre" in spanish
    missing = client.get("/c/NOSUCHCARD", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Esta tarjeta no abre nada" in missing


#: Rule sources a page cites by their English titles (the books' own names, as the record keeps them).
SOURCES = ['000 "Applying Damage"', 'LotNR "Blood"', '000 "Final Death"', "Dark Epics", "Grapevine", "XP"]


def test_the_challenge_screen_leaves_no_english_bare(pseudo_app):
    """Both sides picked, a contested Physical challenge: the head, the scene's chips, both sides and the
    action row. (A ruling's steps come from the rules core and stay English until they are message ids:
    see the issue note.)"""
    client = pseudo_app.test_client()
    AuthActions(client).login("nar", "narrator")
    with pseudo_app.app_context(), db.connection_context():
        challenger = a_card()
        defender = Character.select().where(Character.id != challenger.id, Character.retired_at.is_null()).first()
        allowed = sheet_words(challenger) + sheet_words(defender) + SOURCES
        from larp.rules.armory import armory

        live = armory("live")
        allowed += [item.name for item in list(live.weapons.values()) + list(live.armor.values())]
        ids = challenger.id, defender.id
    page = client.get(f"/challenge?challenger={ids[0]}&defender={ids[1]}", headers=PSEUDO_HEADERS)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    head = re.search(r'<div class="screen-head">.*?</div>', html, re.S).group(0)
    assert not bare_english(head, allow=allowed)
    chips = re.search(r'<div class="chip-rows">.*?(?=<input type="hidden" name="csrf_token")', html, re.S).group(0)
    assert not bare_english(chips, allow=allowed)
    summary = re.search(r'<summary[^>]*><span class="summary-text">.*?</summary>', html, re.S).group(0)
    assert not bare_english(summary, allow=allowed)
    scene = re.search(r'<div class="scene-turn-bar.*?</div>', html, re.S).group(0)
    assert not bare_english(scene, allow=allowed)
    for region in ("side-challenger", "side-defender"):
        assert_translated(page, allow=allowed, within=region)
    actions = re.search(r'<div class="action-row">.*?(?=<section id="ruling")', html, re.S).group(0)
    assert not bare_english(actions, allow=allowed)


def test_the_character_page_leaves_no_english_bare(pseudo_app):
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    with pseudo_app.app_context(), db.connection_context():
        character = a_card()
        allowed = sheet_words(character) + SOURCES + [character.nature or "", character.demeanor or ""]
        allowed += list((character.virtues or {}).keys()) + list(character.derangements or [])
        from larp.models import Background, MeritFlaw

        allowed += [b.name for b in Background.select().where(Background.character == character)]
        allowed += [m.name + " " + (m.note or "") for m in MeritFlaw.select().where(MeritFlaw.character == character)]
        allowed += [c.name for c in Character.select()]  # the victims a vampire may feed on
        from larp.rules.armory import armory

        live = armory("live")  # the armory's items: English names (not translated yet, see the note)
        allowed += [item.name for item in list(live.weapons.values()) + list(live.armor.values())]
        cid = character.id
    page = client.get(f"/characters/{cid}", headers=PSEUDO_HEADERS)
    assert page.status_code == 200
    for region in ("health-panel", "traits-tonight", "abilities-tonight", "attended"):
        assert_translated(page, allow=allowed, within=region)


def test_the_account_page_leaves_no_english_bare(pseudo_app):
    """The account page (password, language, API tokens), with a token made and a refused password."""
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    client.post("/account/tokens", data={"name": "Discord bot", "role": "narrator"})
    page = client.post("/account", data={"current": "wrong", "password": "short", "repeat": "short"},
                       headers=PSEUDO_HEADERS)
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    main = re.search(r'<main id="main">.*</main>', html, re.S).group(0)
    from larp.i18n import LANGUAGE_NAMES

    names = [word for name in LANGUAGE_NAMES.values() for word in re.split(r"[^A-Za-z]+", name)]
    left = bare_english(main, allow=["Boss", "boss", "Discord bot", "API", "larp"] + names)
    assert not left, f"English left bare on the account page: {sorted(set(left))}"


def test_error_pages_leave_no_english_bare(pseudo_app):
    """A page that does not exist and a refused page (werkzeug's own words, marked and translated); a
    view's own description of a refusal is translated where the view marked it (role_required's)."""
    client = pseudo_app.test_client()
    missing = client.get("/no/such/page", headers=PSEUDO_HEADERS)
    assert missing.status_code == 404
    assert_translated(missing, allow=["larp"])
    AuthActions(client).login("nar", "narrator")
    refused = client.get("/settings", headers=PSEUDO_HEADERS)
    assert refused.status_code == 403
    html = refused.get_data(as_text=True)
    main = re.search(r'<main id="main">.*</main>', html, re.S).group(0)
    assert not bare_english(main, allow=["larp"])


def test_an_error_page_in_portuguese_and_the_api_in_english(client):
    page = client.get("/no/such/page", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "Não encontrado" in page and "O endereço pedido não foi encontrado" in page
    english = client.get("/no/such/page").get_data(as_text=True)
    assert "Not Found" in english and "The requested URL was not found on the server." in english
    api = client.get("/api/v1/no-such-thing")
    assert api.status_code in (401, 404) and "Não" not in api.get_data(as_text=True)
