"""The scripts' words (issue 36): a page that is not in English carries them in its ``js-words`` meta element, in
its reader's language; an English page carries none (its scripts hold the English: no extra bytes)."""

from __future__ import annotations

import html
import json
import re

from larp.models import Character


def words_of(page: str) -> dict | None:
    found = re.search(r"<meta name=\"js-words\" content='(.*?)'>", page, re.S)
    return json.loads(html.unescape(found.group(1))) if found else None


def test_a_portuguese_page_carries_the_scripts_words_and_an_english_one_none(client, auth, dbconn):
    auth.login()
    assert words_of(client.get("/challenge", headers={"Accept-Language": "en"}).get_data(as_text=True)) is None
    words = words_of(client.get("/challenge", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True))
    assert words["recorded_as"] == "Registrado como decisão nº\u00a0%(id)s"
    assert words["lost_not_recorded"] == "Não registrado: toque de novo."
    spanish = words_of(client.get("/challenge", headers={"Accept-Language": "es"}).get_data(as_text=True))
    assert spanish["try_again"] == "Inténtalo de nuevo en un momento."


def test_the_card_page_carries_the_changed_lines_words(client, dbconn):
    token = Character.get(Character.name == "Konrad Vale").card_token
    words = words_of(client.get(f"/c/{token.lower()}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True))
    assert words["changed"] == "Mudou: %(what)s"
    assert words["kind_bashing"] == "contusão"
    assert (words["traits_lost_one"], words["traits_lost_many"]) == ("%(n)s Característica perdida",
                                                                      "%(n)s Características perdidas")
    assert words_of(client.get(f"/c/{token.lower()}", headers={"Accept-Language": "en"}).get_data(as_text=True)) is None
