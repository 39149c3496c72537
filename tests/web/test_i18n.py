"""The app in its readers' languages (issue 36): whose language a request is read in, the account
page's choice, the card page, the API, dates and numbers in the reader's locale, and the
pseudo-locale check of English left bare (tests/i18n_support.py)."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from flask import render_template_string
from flask_babel import get_locale

from larp.i18n import LANGUAGE_NAMES, format_day, format_moment, format_number, pseudo
from larp.models import Character, User
from larp.services.chronicles import get_chronicle, set_setting
from tests.i18n_support import PSEUDO_HEADERS, assert_translated, bare_english
from tests.support import AuthActions, make_test_app

PT = {"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}


@pytest.fixture
def seen(app):
    """The locale of every request the app answers, in order (a hook added before the first request)."""
    locales: list[str] = []

    @app.after_request
    def _remember(response):
        locales.append(str(get_locale()))
        return response

    return locales


def chronicle_language(value: str) -> None:
    """Set the demo chronicle's default language (the chronicle setting ``language``)."""
    set_setting(get_chronicle(), "language", value)


def test_the_users_own_choice_wins_over_the_chronicle_and_the_browser(app, client, auth, dbconn, seen):
    auth.login("boss", "organiser")
    chronicle_language("es")
    client.get("/account", headers=PT)
    assert seen[-1] == "es"  # no choice of his own: the chronicle's, not his browser's
    answer = client.post("/account/language", data={"language": "pt_BR"}, headers={"Accept-Language": "en"})
    assert answer.status_code == 303 and User.get(User.username == "boss").language == "pt_BR"
    page = client.get("/account", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert seen[-1] == "pt_BR"
    assert '<html lang="pt-BR">' in page and "Seu idioma foi salvo" in page and "Salvar idioma" in page
    assert '<option value="pt_BR" lang="pt-BR" selected>' in page
    client.post("/account/language", data={"language": ""})  # back to none of his own
    client.get("/account", headers=PT)
    assert User.get(User.username == "boss").language == "" and seen[-1] == "es"


def test_a_language_the_app_does_not_speak_is_refused_at_the_field(client, auth, dbconn):
    auth.login("boss", "organiser")
    answer = client.post("/account/language", data={"language": "fr"}, headers=PT)
    text = answer.get_data(as_text=True)
    assert answer.status_code == 422 and User.get(User.username == "boss").language == ""
    assert 'class="field-error" role="alert">Não há o idioma “fr” aqui' in text
    assert client.post("/account/language", data={"language": "en_XA"}).status_code == 422  # tests only


def test_the_chronicles_default_else_the_browsers_language(client, auth, dbconn, seen):
    auth.login("nar", "narrator")
    seen.clear()
    client.get("/account", headers={"Accept-Language": "es-AR,es;q=0.9"})
    client.get("/account", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    client.get("/account", headers={"Accept-Language": "fr-FR,pt;q=0.8"})
    client.get("/account")
    assert seen == ["es", "en", "pt_BR", "en"]  # the chronicle's default: each reader's browser
    chronicle_language("pt_BR")
    client.get("/account", headers={"Accept-Language": "es"})
    assert seen[-1] == "pt_BR"


def test_the_card_page_follows_the_cards_chronicle_else_the_phone(client, dbconn, seen):
    token = Character.select().where(Character.card_token.is_null(False)).first().card_token
    assert client.get(f"/c/{token}", headers={"Accept-Language": "es"}).status_code == 200
    assert client.get(f"/c/{token}/live", headers={"Accept-Language": "es"}).status_code == 200
    assert seen == ["es", "es"]  # the chronicle leaves it to each reader: the phone's language
    chronicle_language("pt_BR")
    client.get(f"/c/{token}", headers={"Accept-Language": "es"})
    client.get(f"/c/{token}/live", headers={"Accept-Language": "es"})
    assert seen[2:] == ["pt_BR", "pt_BR"]


def test_the_api_answers_in_english_unless_accept_language_asks(client, auth, dbconn, seen):
    auth.login("boss", "organiser")
    chronicle_language("pt_BR")
    client.post("/account/language", data={"language": "es"})
    english = client.get("/api/v1/characters")
    asked = client.get("/api/v1/characters", headers=PT)
    assert [seen[-2], seen[-1]] == ["en", "pt_BR"]  # neither his choice nor the chronicle's
    assert english.status_code == asked.status_code == 200
    assert english.get_json() == asked.get_json()  # field names (and the data) never change


def test_dates_times_and_numbers_in_the_readers_locale(app, dbconn):
    set_setting(get_chronicle(), "time_zone", "America/Sao_Paulo")
    stored = datetime(2026, 12, 5, 23, 30)  # UTC, as the record stores it: 20:30 in São Paulo
    template = ("{{ t|local_time }}|{{ t|local_time('%H:%M') }}|{{ t|local_time('%d %b %H:%M') }}|"
                "{{ d|local_day }}|{{ n|number }}")
    shown = {}
    for header in ("en", "pt-BR", "es"):
        with app.test_request_context(headers={"Accept-Language": header}):
            shown[header] = render_template_string(template, t=stored, d=date(2026, 12, 5), n=2.5,
                                                   chronicle=get_chronicle())
    assert shown["en"] == "2026-12-05 20:30|20:30|05 Dec 20:30|2026-12-05|2.5"  # English keeps the record's shapes
    assert shown["pt-BR"] == "05/12/2026 20:30|20:30|5 de dez. 20:30|05/12/2026|2,5"
    assert shown["es"] == "5/12/26, 20:30|20:30|5 dic 20:30|5/12/26|2,5"
    with app.test_request_context():
        assert format_day(datetime(2026, 12, 5, 23, 30)) == "2026-12-05"  # a stored moment's day, as strftime gave
    with app.test_request_context(headers=PT):
        assert format_number(1234.5) == "1.234,5" and format_day(None) == ""
        assert format_day(datetime(2026, 12, 5, 23, 30)) == "05/12/2026"
        assert format_moment(datetime(2026, 1, 2, 3, 4), "%A") == "Friday"  # a shape of no locale's: as asked


def test_the_pseudo_locale_wraps_every_word_and_keeps_placeholders_and_tags():
    assert pseudo("%(count)s Traits") == "⟦%(count)s Ţŕáíţš⟧"
    assert pseudo('<a href="/x">Bid</a> {name} &amp; %s') == '⟦<a href="/x">Ɓíđ</a> {name} &amp; %s⟧'
    assert not bare_english("<p>" + pseudo("The Final Death of %(name)s") % {"name": "Ɗ"} + "</p>")
    assert bare_english("<p>" + pseudo("The Final Death of %(name)s") % {"name": "Konrad"} + "</p>") == ["Konrad"]


def test_the_language_section_leaves_no_english_bare_in_the_pseudo_locale(tmp_path):
    """Issue 36 item 5: the account page's language section, rendered in the pseudo-locale, has no
    English word a catalogue did not produce; the same section in English is caught."""
    app = make_test_app(tmp_path, PSEUDO_LOCALE=True)
    client = app.test_client()
    AuthActions(client).login("boss", "organiser")
    names = LANGUAGE_NAMES.values()  # each language in its own name, never translated
    assert_translated(client.get("/account", headers=PSEUDO_HEADERS), allow=names, within="language")
    english = client.get("/account", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert {"Save", "language", "chronicle"} <= set(bare_english(english, allow=names, within="language"))


def test_the_pseudo_locale_is_only_for_an_app_built_for_tests(client, auth):
    """An ordinary install never answers in the pseudo-locale, whatever a browser asks."""
    auth.login("boss", "organiser")
    page = client.get("/account", headers=PSEUDO_HEADERS).get_data(as_text=True)
    assert "Save language" in page and "⟦" not in page


def test_game_words_from_data_in_the_readers_language_and_a_chronicles_own_words_as_written(app):
    """The health levels, kinds of damage, conditions and categories the core keeps in English are shown
    with the glossary's words; a Discipline or a Trait adjective of the sheet stays as written."""
    template = "{{ 'Bruised'|term }}|{{ 'final_death'|term }}|{{ 'physical'|term|capitalize }}|{{ 'Obfuscate'|term }}"
    with app.test_request_context(headers=PT):
        assert render_template_string(template) == "Escoriado|Morte Final|Físico|Obfuscate"
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert render_template_string(template) == "Magullado|Muerte Definitiva|Físico|Obfuscate"
    with app.test_request_context():
        assert render_template_string(template) == "Bruised|Final Death|Physical|Obfuscate"

