"""The organiser's pages in the readers' languages (issue 36 items 1, 4 and 5): the cards and their printed
sheet, the printed character sheets, the users, scenes, turn order, the character list, the card-code
look-up, between game sessions, the Grapevine export and import, organise, start and the chronicles'
administration each render in the pseudo-locale with no English word bare (tests/i18n_support.py), and a
few read in Portuguese and Spanish.

One app serves the whole module (the pages are read, and the few changes a test makes are its own). The
words a page shows from the data are allowed: the characters' and players' names, clans, the chronicle's
and the users' names, the sheet's own words (Trait adjectives, Abilities, Disciplines: issue 36 item 3).
"""

from __future__ import annotations

import io
import re

import pytest

from larp.db import db
from larp.models import Ability, Character, Chronicle, Power, Trait, User
from larp.rules import order as order_rules
from tests.i18n_support import PSEUDO_HEADERS, assert_translated, bare_english
from tests.support import SHARED, AuthActions, make_test_app

#: A book section's published English name that a hint cites ("002 “Order of Challenges”; LotNR").
SOURCES = ["Order of Challenges", "LotNR", "Dark Epics"]
#: The rules' sources a step cites, as the books name them (they stay English, like book titles).
ORDER_RULES = [value for name, value in vars(order_rules).items() if name.startswith("R_")]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_test_app(tmp_path_factory.mktemp("i18n-organiser"), PSEUDO_LOCALE=True)
    # A fortnight played (torpor by wounds and by blood loss, aggravated wounds, a hurt ghoul): the board and
    # the histories show all they can.
    played = app.test_cli_runner().invoke(args=["demo-downtime"])
    assert played.exit_code == 0, played.output
    yield app
    if not db.is_closed():
        db.close()


@pytest.fixture(scope="module")
def data_words(app) -> list[str]:
    """Every name the demo's data may put on these pages."""
    with app.app_context(), db.connection_context():
        words = ["larp", "Boss", "http", "localhost"]
        for c in Character.select():
            words += [c.name, c.player_name or "", c.clan or "", c.morality_name or "", c.short_code or ""]
        words += [t.name for t in Trait.select()] + [a.name for a in Ability.select()]
        words += [f"{p.discipline} {p.name}" for p in Power.select()]
        words += [c.name for c in Chronicle.select()]
        words += [w for u in User.select() for w in (u.username, u.display_name)]
    return words


@pytest.fixture(scope="module")
def organiser(app):
    client = app.test_client()
    AuthActions(client).login("boss", "organiser")
    return client


def first_characters(app, count: int = 2) -> list[int]:
    with app.app_context(), db.connection_context():
        return [c.id for c in Character.select().where(Character.retired_at.is_null()).order_by(Character.id).limit(count)]


def pseudo_page(client, address: str, status: int = 200):
    page = client.get(address, headers=PSEUDO_HEADERS)
    assert page.status_code == status, (address, page.status_code)
    return page


@pytest.mark.parametrize("address", ["/cards", "/cards/sheet?all=1", "/cards/sheet?all=1&paper=letter", "/users",
                                     "/scenes", "/characters", "/characters?retired=1", "/characters?q=zzzz"])
def test_the_organisers_lists_leave_no_english_bare(organiser, data_words, address):
    assert_translated(pseudo_page(organiser, address), allow=data_words)


def test_the_turn_order_and_its_result_leave_no_english_bare(organiser, data_words):
    assert_translated(pseudo_page(organiser, "/turn-order"), allow=data_words + SOURCES)
    ordered = pseudo_page(organiser, "/turn-order?p0_name=Ana&p0_traits=9&p0_target=Bruno"
                                     "&p1_name=Bruno&p1_traits=7&p1_simultaneous=on&p2_name=Caio&p2_traits=5&p2_celerity=1")
    assert "turn-order" in ordered.get_data(as_text=True)
    assert_translated(ordered, allow=data_words + SOURCES + ORDER_RULES + ["Ana", "Bruno", "Caio"])


def test_the_card_code_look_up_leaves_no_english_bare(organiser, data_words):
    assert_translated(pseudo_page(organiser, "/code?code=ZZZZZZ", 404), allow=data_words + ["ZZZZZZ"])
    assert_translated(pseudo_page(organiser, "/code", 404), allow=data_words)


def test_the_cards_read_in_portuguese_and_spanish(organiser):
    page = organiser.get("/cards/sheet?all=1&paper=letter", headers={"Accept-Language": "pt-BR"})
    html = page.get_data(as_text=True)
    assert "Cartões para imprimir" in html and "Escaneie com a câmera do celular" in html
    assert "Carta (EUA)" in html
    html = organiser.get("/cards", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Imprimir las tarjetas marcadas" in html and "Dirección en las tarjetas" in html
    html = organiser.get("/code?code=ZZZZZZ", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Ningún personaje tiene el código de tarjeta “ZZZZZZ”." in html


def test_the_scenes_page_with_a_scene_leaves_no_english_bare(app, organiser, data_words):
    opened = organiser.post("/scenes", data={"name": "Elysium"})
    assert opened.status_code == 303
    organiser.get("/scenes")  # the flash ("You are in the scene …") is another engineer's line
    page = pseudo_page(organiser, "/scenes")
    assert "Elysium" in page.get_data(as_text=True)
    assert_translated(page, allow=data_words + SOURCES + ["Elysium"])
    html = organiser.get("/scenes", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "(você está aqui)" in html and "Abrir uma cena" in html


def sheet_data_words(app) -> list[str]:
    """The words the chronicle wrote on its sheets (sect, title, notes, merits, weapons...): a printed
    sheet shows them as written."""
    from larp.services.sheet_store import sheet_of

    with app.app_context(), db.connection_context():
        words = []
        for character in Character.select():
            sheet = sheet_of(character)
            words += [sheet.sect, sheet.title, sheet.notes, sheet.nature, sheet.demeanor, character.narrator_notes or ""]
            words += [q.name + " " + (q.note or "") for q in sheet.merits + sheet.flaws] + list(sheet.derangements)
            words += [w.name + " " + (w.note or "") + " " + " ".join(w.negative_traits + w.specials) for w in sheet.weapons]
            words += [a.name + " " + (a.note or "") + " " + " ".join(a.negative_traits + a.covers) for a in sheet.armor]
            words += list(sheet.backgrounds) + [s for specs in sheet.specialisations.values() for s in specs]
    return words


@pytest.mark.parametrize("address", ["/sheets", "/sheets/print?character={0}", "/sheets/print?character={0}&character={1}"
                                     "&narrator_notes=1&paper=letter", "/board", "/board/grapevine",
                                     "/characters/{0}/grapevine", "/characters/{1}/grapevine",
                                     "/import", "/organise", "/organise/import"])
def test_the_organisers_tools_leave_no_english_bare(app, organiser, data_words, address):
    first, second = first_characters(app)
    page = pseudo_page(organiser, address.format(first, second))
    assert_translated(page, allow=data_words + sheet_data_words(app))


def test_the_grapevine_export_names_what_is_left_out_in_the_readers_language(app, organiser, data_words):
    first, _ = first_characters(app)
    with app.app_context(), db.connection_context():
        Character.update(damage_lethal=2, damage_bashing=1, staked=True).where(Character.id == first).execute()
        name = Character.get_by_id(first).name
    try:
        page = pseudo_page(organiser, f"/characters/{first}/grapevine")
        assert_translated(page, allow=data_words)
        html = organiser.get(f"/characters/{first}/grapevine", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
        assert f"Dano atual ({name}: 2 letal, 1 contusão): o Grapevine guarda só a tabela de vitalidade." in html
        assert f"Uma estaca: {name}." in html
        html = organiser.get(f"/characters/{first}/grapevine", headers={"Accept-Language": "es"}).get_data(as_text=True)
        assert f"Una estaca: {name}." in html
    finally:
        with app.app_context(), db.connection_context():
            Character.update(damage_lethal=0, damage_bashing=0, staked=False).where(Character.id == first).execute()


def test_the_first_page_of_an_empty_chronicle_leaves_no_english_bare(app, organiser, data_words):
    with app.app_context(), db.connection_context():
        Chronicle.update(needs_name=True).where(Chronicle.id == chronicle_id(app)).execute()
    try:
        assert_translated(pseudo_page(organiser, "/start"), allow=data_words)
        refused = organiser.post("/start", data={"name": "x", "first_game": "soon"}, headers=PSEUDO_HEADERS)
        assert refused.status_code == 422
        assert_translated(refused, allow=data_words)
    finally:
        with app.app_context(), db.connection_context():
            Chronicle.update(needs_name=False).where(Chronicle.id == chronicle_id(app)).execute()


def test_the_chronicles_administration_leaves_no_english_bare(app, organiser, data_words):
    with app.app_context(), db.connection_context():
        User.update(is_admin=True).where(User.username == "boss").execute()
    try:
        assert_translated(pseudo_page(organiser, "/admin/chronicles"), allow=data_words)
        assert_translated(pseudo_page(organiser, "/organise"), allow=data_words)
        appointed = organiser.post(f"/admin/chronicles/{chronicle_id(app)}/appoint", headers=PSEUDO_HEADERS,
                                   data={"username": "newcomer", "display_name": "Nova", "role": "narrator"})
        assert appointed.status_code == 200, appointed.status_code
        assert_translated(appointed, allow=data_words + ["newcomer", "Nova"])
        html = organiser.get("/admin/chronicles", headers={"Accept-Language": "es"}).get_data(as_text=True)
        assert "Crónicas de este servidor" in html and "Renombrar, archivar o borrar" in html
    finally:
        with app.app_context(), db.connection_context():
            User.update(is_admin=False).where(User.username == "boss").execute()


def chronicle_id(app) -> int:
    with app.app_context(), db.connection_context():
        return Chronicle.select().order_by(Chronicle.id).first().id


def armory_words() -> list[str]:
    """The armory's weapon and armor names (data/armory.toml), which an import report names as read."""
    from larp.rules.damage import armory

    table = armory()
    return [entry.name for group in (table.weapons, table.armor, table.helmets, table.shields) for entry in group.values()]


def grapevine_file_words(name: str) -> list[str]:
    """Every word of a Grapevine file: the report shows the file's own names and values as written."""
    text = (SHARED / "real-data" / "grapevine" / name).read_text(encoding="utf-8", errors="replace")
    return [text, text.lower()]


@pytest.mark.parametrize("name", ["one_of_each.gex", "value_for_everything.gex", "vampires_camarilla.gex"])
def test_the_grapevine_import_preview_leaves_no_english_bare(organiser, data_words, name):
    data = (SHARED / "real-data" / "grapevine" / name).read_bytes()
    uploaded = organiser.post("/import", data={"file": (io.BytesIO(data), name)}, content_type="multipart/form-data")
    assert uploaded.status_code == 303
    page = pseudo_page(organiser, uploaded.headers["Location"])
    assert_translated(page, allow=data_words + grapevine_file_words(name) + armory_words() + [name, "utf"])


# --- the console: a command speaks the language of the chronicle it works on ---------------------------


def test_the_commands_speak_the_chronicles_language(app, tmp_path):
    """The ``larp`` commands have no language option of their own: a command that works on one chronicle
    prints in that chronicle's language (its setting ``language``), else English (click's own words,
    "Usage", "Error:" and the --help texts, stay English)."""
    from larp.services.chronicles import set_setting

    first, _ = first_characters(app)
    with app.app_context(), db.connection_context():
        Character.update(damage_lethal=2, staked=True).where(Character.id == first).execute()
        name = Character.get_by_id(first).name
    runner = app.test_cli_runner()
    target = tmp_path / "out.gex"
    english = runner.invoke(args=["export-grapevine", str(target), "--character", name])
    assert english.exit_code == 0, english.output
    assert "Exported 1 character to" in english.output and f"A stake: {name}." in english.output
    try:
        with app.app_context(), db.connection_context():
            set_setting(Chronicle.get_by_id(chronicle_id(app)), "language", "pt_BR")
        portuguese = runner.invoke(args=["export-grapevine", str(target), "--character", name])
        assert portuguese.exit_code == 0, portuguese.output
        assert "1 personagem exportado para" in portuguese.output
        assert "Não gravado, o Grapevine não tem lugar para isto:" in portuguese.output
        assert f"Dano atual ({name}: 2 letal): o Grapevine guarda só a tabela de vitalidade." in portuguese.output
        assert f"Uma estaca: {name}." in portuguese.output
        file = str(SHARED / "real-data" / "grapevine" / "one_of_each.gex")
        previewed = runner.invoke(args=["import-grapevine", file], input="n\n")
        assert "1 a criar" not in previewed.output  # the file's two characters: "2 a criar"
        assert "2 a criar · 0 a atualizar (mesmo nome já na crônica) · 10 ignorados · 0 ilegíveis" in previewed.output
        assert "Importar one_of_each.gex?" in previewed.output and "Nada importado." in previewed.output
        assert "changeling: ignorado, só vampiros, carniçais e mortais são importados" in previewed.output
        with app.app_context(), db.connection_context():
            set_setting(Chronicle.get_by_id(chronicle_id(app)), "language", "es")
        spanish = runner.invoke(args=["create-user", "ines", "--password", "correct horse"])
        assert spanish.exit_code == 0, spanish.output
        assert "Creado narrador ines en “" in spanish.output
    finally:
        with app.app_context(), db.connection_context():
            set_setting(Chronicle.get_by_id(chronicle_id(app)), "language", "browser")
            Character.update(damage_lethal=0, staked=False).where(Character.id == first).execute()


def test_the_histories_leave_no_english_bare(app, organiser, data_words):
    from larp.models import Torpor

    with app.app_context(), db.connection_context():
        in_torpor = sorted({t.character_id for t in Torpor.select()})
        everyone = [c.id for c in Character.select()]
    assert in_torpor, "the demo's fortnight put nobody in torpor"
    for character_id in everyone:
        page = pseudo_page(organiser, f"/characters/{character_id}/history")
        left = bare_english(page.get_data(as_text=True), allow=data_words)  # each ruling's changes included
        assert not left, f"English left bare on character {character_id}'s history: {sorted(set(left))}"
    html = organiser.get(f"/characters/{in_torpor[0]}/history", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "Ferimentos desde" in html or "Perda de sangue desde" in html
    changes = re.findall(r'<p class="timeline-changes">(.*?)</p>', html, flags=re.S)
    assert changes and not any(re.search(r"\b(condition|active|blood|lethal|bashing)\b", c) for c in changes), changes
