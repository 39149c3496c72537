"""The organisers' rulings in the reader's language (issue 36 item 1): a sheet edit, a character retired
and brought back, a card revoked, a game session closed with its refreshes, a chronicle setting changed.
Each is recorded, then read on its page (/rulings/<id>) and in the character's history with
``Accept-Language: pt-BR`` (Portuguese word for word), with ``en`` (exactly the English the record
keeps) and in the pseudo-locale (no English word left bare; names and Traits are the chronicle's).

The rulings are recorded through the services in an app context of their own; the pages are read
outside it (Flask-Babel keeps a request's locale on its app context, which an outer one would share).
"""

from __future__ import annotations

import html
import re
from datetime import timedelta

from larp.db import db
from larp.models import Character, Chronicle, GameSession, Ruling, User
from larp.services.cards import revoke_card
from larp.services.sessions import close_and_open
from larp.services.settings import update_settings
from larp.services.sheet_store import sheet_of
from larp.services.sheets import edit_character, restore_character, retire_character
from tests.i18n_support import PSEUDO_HEADERS, bare_english
from tests.support import AuthActions
from tests.web.test_i18n_pages import pseudo_app  # noqa: F401 - the pseudo-locale app fixture
from tests.web.test_i18n_rulings_more import EN, PT, ruling_words


def history_words(page: str) -> list[str]:
    """The summaries and the changes listed on a character's history page."""
    heads = re.findall(r'<p class="timeline-head">.*?<a [^>]*>#\d+ (.*?)</a>', page, re.S)
    changes = re.findall(r'<p class="timeline-changes">(.*?)</p>', page, re.S)
    return [html.unescape(text) for text in heads + changes]


def organiser_client(app):
    """A client logged in as the organiser "boss", and that user."""
    client = app.test_client()
    AuthActions(client).login("boss", "organiser")
    with app.app_context(), db.connection_context():
        return client, User.get(User.username == "boss")


def record_organisers_rulings(app, boss: User) -> dict[str, int]:
    """Konrad's sheet edited (Brawny ×2 → ×3, Academics added, Brawl gone), Lys retired and brought back,
    Ruth's card revoked, a chronicle setting changed (Willpower back a week) and the game session closed a
    fortnight later, Konrad a Willpower down: the rulings' ids, and Konrad's and Lys's."""
    with app.app_context(), db.connection_context():
        chronicle = Chronicle.get()
        konrad = Character.get(Character.name == "Konrad Vale")
        lys = Character.get(Character.name == "Lys Moreau")
        ruth = Character.get(Character.name == "Ruth Calder")
        sheet = sheet_of(konrad).to_dict()
        traits = sheet["traits"]
        brawny = next(t for t in traits["physical"] if t["name"] == "Brawny")
        assert brawny["count"] == 2
        brawny["count"] = 3
        abilities = {name: level for name, level in sheet["abilities"].items() if name != "Brawl"}
        _, edit = edit_character(chronicle, boss, konrad.id, {"traits": traits,
                                                              "abilities": {**abilities, "Academics": 1}})
        retire_character(chronicle, boss, lys.id)
        restore_character(chronicle, boss, lys.id)
        revoke_card(chronicle, ruth.id, boss)
        settings = update_settings(chronicle, boss, {"wp_refresh": "de_weekly"})
        # Konrad spent a Willpower tonight (as a retest would): the closing gives it back.
        Character.update(willpower_current=Character.willpower_current - 1).where(Character.id == konrad.id).execute()
        last = GameSession.select().order_by(GameSession.number.desc()).first()
        close_and_open(chronicle, boss, last.date + timedelta(days=14))
        ids = {kind: Ruling.select().where(Ruling.kind == kind).order_by(Ruling.id.desc()).first().id
               for kind in ("retire", "restore", "card_revoked", "session")}
        refresh = (Ruling.select().where((Ruling.kind == "refresh") & Ruling.summary.startswith("Konrad Vale"))
                   .first())
        return {**ids, "sheet": edit.id, "settings": settings.id, "refresh": refresh.id, "konrad": konrad.id,
                "lys": lys.id}


def test_an_organisers_rulings_read_in_portuguese_and_in_english(app):
    client, boss = organiser_client(app)
    ids = record_organisers_rulings(app, boss)

    english = ruling_words(client.get(f"/rulings/{ids['sheet']}", headers=EN).get_data(as_text=True))
    assert english == ("Konrad Vale's sheet: Physical Trait Brawny: ×2 → ×3; Ability Brawl: 3 → —; "
                       "Ability Academics: — → 1",
                       ["Physical Trait Brawny: ×2 → ×3", "Ability Brawl: 3 → —", "Ability Academics: — → 1"])
    assert ruling_words(client.get(f"/rulings/{ids['sheet']}", headers=PT).get_data(as_text=True)) == (
        "Ficha de Konrad Vale: Característica Física Brawny: ×2 → ×3; Habilidade Brawl: 3 → —; "
        "Habilidade Academics: — → 1",
        ["Característica Física Brawny: ×2 → ×3", "Habilidade Brawl: 3 → —", "Habilidade Academics: — → 1"])

    assert ruling_words(client.get(f"/rulings/{ids['retire']}", headers=PT).get_data(as_text=True)) == (
        "Lys Moreau aposentado.",
        ["Lys Moreau é aposentado: oculto das listas de escolha, do quadro e da folha de cartões."])
    assert ruling_words(client.get(f"/rulings/{ids['retire']}", headers=EN).get_data(as_text=True)) == (
        "Lys Moreau retired.", ["Lys Moreau is retired: hidden from pickers, the board and the card sheet."])
    assert ruling_words(client.get(f"/rulings/{ids['restore']}", headers=PT).get_data(as_text=True)) == (
        "Lys Moreau de volta ao jogo.", ["Lys Moreau voltou ao jogo."])
    assert ruling_words(client.get(f"/rulings/{ids['card_revoked']}", headers=PT).get_data(as_text=True)) == (
        "Ruth Calder: cartão revogado; o cartão impresso não abre mais nada",
        ["Ruth Calder: cartão revogado; o cartão impresso não abre mais nada."])

    summary, steps = ruling_words(client.get(f"/rulings/{ids['settings']}", headers=PT).get_data(as_text=True))
    assert summary.startswith("Configurações da crônica alteradas: "), summary
    summary, steps = ruling_words(client.get(f"/rulings/{ids['settings']}", headers=EN).get_data(as_text=True))
    assert summary.startswith("Chronicle settings changed: "), summary

    summary, steps = ruling_words(client.get(f"/rulings/{ids['session']}", headers=PT).get_data(as_text=True))
    assert re.fullmatch(r"Sessão de jogo 1 fechada; Sessão de jogo 2 \(\d\d/\d\d/\d{4}\) aberta", summary), summary
    assert steps[0] == "1 personagem renovado.", steps  # Konrad only: the others had lost nothing
    summary, steps = ruling_words(client.get(f"/rulings/{ids['session']}", headers=EN).get_data(as_text=True))
    assert re.fullmatch(r"Game session 1 closed; Game session 2 \(\d{4}-\d\d-\d\d\) opened", summary), summary
    assert steps[0] == "1 character refreshed.", steps

    summary, steps = ruling_words(client.get(f"/rulings/{ids['refresh']}", headers=PT).get_data(as_text=True))
    assert re.fullmatch(r"Konrad Vale: renovação para a Sessão de jogo 2 \(\d\d/\d\d/\d{4}\)", summary), summary
    assert any(re.fullmatch(r"Força de Vontade \d+ → \d+ de \d+ \(2 semanas completas entre as datas de jogo\)\. "
                            r"A Força de Vontade extra por satisfazer a Natureza não é modelada\.", step)
               for step in steps), steps

    history = history_words(client.get(f"/characters/{ids['konrad']}/history", headers=PT).get_data(as_text=True))
    assert "Ficha de Konrad Vale: Característica Física Brawny: ×2 → ×3; Habilidade Brawl: 3 → —; " \
           "Habilidade Academics: — → 1" in history, history
    assert "Característica Física Brawny: ×2 → ×3 · Habilidade Brawl: 3 → — · Habilidade Academics: — → 1" in history
    history = history_words(client.get(f"/characters/{ids['konrad']}/history", headers=EN).get_data(as_text=True))
    assert "Physical Trait Brawny: ×2 → ×3 · Ability Brawl: 3 → — · Ability Academics: — → 1" in history, history
    lys = history_words(client.get(f"/characters/{ids['lys']}/history", headers=PT).get_data(as_text=True))
    assert {"Lys Moreau aposentado.", "Lys Moreau de volta ao jogo."} <= set(lys), lys


def test_the_english_record_is_kept_as_it_was(app):
    """The record itself keeps the English sentences, word for word as before issue 36, and the phrases."""
    _client, boss = organiser_client(app)
    ids = record_organisers_rulings(app, boss)
    with app.app_context(), db.connection_context():
        edit = Ruling.get_by_id(ids["sheet"])
        assert edit.summary_said and all(step.get("said") for step in edit.steps)
        assert edit.outcome["changes"][0] == {
            "field": "traits.physical.Brawny", "label": "Physical Trait Brawny", "before": "×2", "after": "×3",
            "said": edit.steps[0]["said"]}
        assert Ruling.get_by_id(ids["card_revoked"]).steps[0]["text"] == (
            "Ruth Calder: card revoked; the printed card opens nothing.")


def test_an_organisers_rulings_leave_no_english_bare_in_the_pseudo_locale(pseudo_app):
    client, boss = organiser_client(pseudo_app)
    ids = record_organisers_rulings(pseudo_app, boss)
    names = ["Konrad", "Vale", "Lys", "Moreau", "Ruth", "Calder", "Brawny", "Brawl", "Academics"]
    for kind in ("sheet", "retire", "restore", "card_revoked", "session", "refresh"):
        summary, steps = ruling_words(client.get(f"/rulings/{ids[kind]}", headers=PSEUDO_HEADERS).get_data(as_text=True))
        left = [text for text in [summary, *steps] if bare_english(f"<p>{html.escape(text)}</p>", allow=names)]
        assert not left, (kind, left)
