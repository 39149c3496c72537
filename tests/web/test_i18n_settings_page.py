"""The chronicle settings page entirely in the reader's language (issue 36, wave 7): each setting's help
text and source come from the catalogue (larp.settings_messages extracts them), as do the section
headings, the darkness lists' table, the defaults and the webhooks' list.

Until both halves of the settings' translations are merged (i36-set-a: challenge, darkness_lists,
mass_combat, damage, health, healing, torpor, record, sessions; i36-set-b: the other families), the
Portuguese check reads the families of :data:`CHECKED_FAMILIES` only; set it to ``None`` to read them all.
"""

from __future__ import annotations

import html


from larp.db import db
from larp.i18n import catalogue
from larp.models import Chronicle, Ruling, Webhook
from larp.rules.settings import setting_definitions
from tests.i18n_support import PSEUDO_HEADERS, assert_translated, bare_english
from tests.support import AuthActions
from tests.web.test_i18n_pages import pseudo_app  # noqa: F401 - the app in the pseudo-locale (a fixture)

PT = {"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}
ES = {"Accept-Language": "es"}
#: The families i36-set-a translated (the other half, i36-set-b's, is merged by the lead).
SET_A_FAMILIES = {"challenge", "darkness_lists", "mass_combat", "damage", "health", "healing", "torpor", "record",
                  "sessions"}
#: The families whose help texts and sources the Portuguese and Spanish checks read (None: every family).
CHECKED_FAMILIES = None  # every family (i36-set-b's translations merged)


def _organiser_with_a_webhook(app):
    """A client logged in as the organiser "boss", whose chronicle has a Discord webhook; the page
    answering the webhook's creation (with its secret's panel); the names the page may show as they are
    (the user's, the webhook's, the app's, the chronicles')."""
    client = app.test_client()
    AuthActions(client).login("boss", "organiser")
    made = client.post("/settings/webhooks", headers=PSEUDO_HEADERS, data={
        "name": "Staff channel", "url": "https://discord.com/api/webhooks/1234/Token_abc",
        "events": ["ruling_recorded", "final_death"], "privacy": "staff", "format": "auto",
        "local_network": "off", "request_token": "tok-36"})
    assert made.status_code == 200
    with app.app_context(), db.connection_context():
        chronicles = [chronicle.name for chronicle in Chronicle.select()]
    return client, made, ["Boss", "Staff channel", "larp", *chronicles]


def test_the_settings_page_leaves_no_english_bare_in_the_pseudo_locale(pseudo_app):
    client, made, allow = _organiser_with_a_webhook(pseudo_app)
    assert_translated(made, allow=allow)  # the page with the new webhook's secret shown once
    page = client.get("/settings", headers=PSEUDO_HEADERS)
    assert page.status_code == 200
    assert_translated(page, allow=allow)
    text = html.unescape(page.get_data(as_text=True))
    with pseudo_app.app_context(), db.connection_context():
        definitions = list(setting_definitions().values())
    for d in definitions:
        assert d.help not in text and d.source not in text, f"{d.key}: its help or source is English"
    # the check can fail: a help text left bare is found
    bare = page.get_data(as_text=True).replace("<p class=\"hint\">", f"<p class=\"hint\">{definitions[0].help} ", 1)
    assert bare_english(bare, allow=allow)


def _said(language: str, message: str) -> str:
    entry = catalogue(language).get(message)
    assert entry is not None and entry.string, f"{language} has no translation of {message!r}"
    return entry.string


def test_the_settings_page_reads_in_portuguese_and_spanish(app):
    client, _made, _allow = _organiser_with_a_webhook(app)
    page = html.unescape(client.get("/settings", headers=PT).get_data(as_text=True))
    for phrase in ("Configurações da crônica", "Um sobrelance só leva a um novo teste se as Características",
                   "LotNR Overbidding (met-reference 1.5, 8.2 #3): pelo menos o dobro",
                   "Quantas caixas de Escoriado a trilha de vitalidade do jogo ao vivo tem.",
                   "Padrão: sim", "Padrão: não", "Fonte: Nenhuma fonte de regras: os narradores leem a hora",
                   "Características de penalidade por nível que Blindfighting remove na escuridão natural",
                   "Reduz a escuridão"):
        assert phrase in page, phrase
    with app.app_context(), db.connection_context():
        definitions = [d for d in setting_definitions().values()
                       if CHECKED_FAMILIES is None or d.family in CHECKED_FAMILIES]
    assert len(definitions) >= 50
    for d in definitions:
        for message in (d.help, d.source):
            said = _said("pt_BR", message)
            assert said in page and (said == message or message not in page), f"{d.key}: {message[:60]}"
    spanish = html.unescape(client.get("/settings", headers=ES).get_data(as_text=True))
    for d in definitions:
        assert _said("es", d.help) in spanish and d.help not in spanish, d.key
    assert "Por defecto: sí" in spanish and "con una sesión de juego por un mes" in spanish


def test_a_settings_change_reads_in_the_readers_language_and_keeps_its_english(app):
    """The record of a settings change: its summary and steps are phrases (the English as before), and its
    steps cite each setting's source, in the reader's language on the ruling's page."""
    client = app.test_client()
    AuthActions(client).login("boss", "organiser")
    saved = client.post("/settings", headers=PT, follow_redirects=True,
                        data={"bruised_levels": "2", "blindfighting_retest_only": "on", "static_equal_tie": "succeed"})
    assert "Configurações da crônica alteradas: Contagem igual num desafio estático" in html.unescape(
        saved.get_data(as_text=True))  # the flash
    with app.app_context(), db.connection_context():
        record = Ruling.select().where(Ruling.kind == "settings").get()
        definition = setting_definitions()["bruised_levels"]
    assert record.summary == ("Chronicle settings changed: Equal count in a static challenge, "
                              "Blindfighting gives only the retest, Bruised health levels")
    assert [step["text"] for step in record.steps] == [
        "Equal count in a static challenge: A draw: the attempt fails and the bid is lost (002 Ties) → "
        "The character succeeds and keeps the bid (house).",
        "Blindfighting gives only the retest: no → yes.", "Bruised health levels: 3 → 2."]
    page = html.unescape(client.get(f"/rulings/{record.id}", headers=PT).get_data(as_text=True))
    for phrase in ("Blindfighting dá só o reteste: não → sim.", "Níveis de vitalidade Escoriado: 3 → 2.",
                   _said("pt_BR", definition.source)):
        assert phrase in page, phrase
    assert definition.source not in page
    english = html.unescape(client.get(f"/rulings/{record.id}").get_data(as_text=True))
    assert "Blindfighting gives only the retest: no → yes." in english and definition.source in english


def test_a_webhooks_test_reads_in_the_readers_language(pseudo_app):
    """"Send a test" on the settings page's webhooks list: what the answer would mean for the events."""
    from tests.web.webhook_receiver import Receiver

    receiver = Receiver()
    try:
        client = pseudo_app.test_client()
        AuthActions(client).login("boss", "organiser")
        made = client.post("/settings/webhooks", headers=PSEUDO_HEADERS, data={
            "name": "Bot", "url": receiver.url("/bot"), "events": ["final_death"], "privacy": "staff",
            "format": "json", "local_network": "on", "request_token": "tok-36t"})
        assert made.status_code == 200
        with pseudo_app.app_context(), db.connection_context():
            hook_id = Webhook.get().id
        tested = client.post(f"/settings/webhooks/{hook_id}/test", headers=PSEUDO_HEADERS)
        assert tested.status_code == 200 and receiver.on("/bot")
        assert "it works" not in tested.get_data(as_text=True)
        with pseudo_app.app_context(), db.connection_context():
            chronicles = [chronicle.name for chronicle in Chronicle.select()]
        # the receiver's own words: the HTTP reason ("No Content")
        assert_translated(tested, allow=["Boss", "Bot", "larp", "No", "Content", *chronicles])
    finally:
        receiver.close()
