"""New-user test 9, finding 6: English left in Portuguese pages. The check-in desk's clan counts name the
mortals and ghouls in the reader's language ("Mortais 1", not "Mortals 1"), and numbers inside translated
texts are written the locale's way: the sheet editor's "No máximo 20.000 caracteres" (not 20,000), the
settings page's defaults "Padrão: 2" and "Padrão: 0,5" (not 2.0 and 0.5)."""

from __future__ import annotations

import html
import re

import pytest

from larp.db import db
from larp.models import Character
from tests.web.test_webhooks import hook, receiver  # noqa: F401 - a receiving server (a fixture)

PT = {"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}


@pytest.fixture
def organiser(client, auth):
    auth.login("boss", "organiser")
    return client


def _text(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", response.get_data(as_text=True)))


def test_the_desk_counts_mortals_and_ghouls_in_portuguese(organiser):
    with db.connection_context():
        mortal = Character.select().where(Character.creature == "mortal").first()
        ghoul = Character.select().where(Character.creature == "ghoul").first()
    for character in (mortal, ghoul):
        answer = organiser.post("/checkin", data={"session": "1", "character": str(character.id)},
                                headers={"HX-Request": "true", "HX-Target": "desk-work", **PT})
        assert answer.status_code == 200
    roster = organiser.get("/checkin/roster", headers=PT)
    clans = re.search(r'class="desk-clans">(.*?)</p>', roster.get_data(as_text=True), re.S).group(1)
    clans = re.sub(r"<[^>]+>", "", clans)
    assert "Mortais 1" in clans and "Carniçais 1" in clans, clans
    assert "Mortals" not in clans and "Ghouls" not in clans
    english = organiser.get("/checkin/roster")  # the English desk keeps its words
    assert "Mortals 1" in _text(english) and "Ghouls 1" in _text(english)


def test_the_sheet_editor_writes_its_limits_the_portuguese_way(organiser):
    with db.connection_context():
        character = Character.select().first()
    page = _text(organiser.get(f"/characters/{character.id}/edit", headers=PT))
    assert "No máximo 20.000 caracteres." in page
    assert "20,000" not in page
    assert "At most 20,000 characters." in _text(organiser.get(f"/characters/{character.id}/edit"))


def test_the_settings_defaults_are_written_the_portuguese_way(organiser):
    page = organiser.get("/settings", headers=PT).get_data(as_text=True)
    block = lambda key: _text_of(page.split(f'id="setting-{key}"')[1].split('class="setting')[0])  # noqa: E731
    assert "Padrão: 2 ·" in block("overbid_ratio"), block("overbid_ratio")  # 2.0, a whole number
    assert "Padrão: 1 ·" in block("attendance_experience")
    assert not re.search(r"Padrão: \d+\.\d", _text_of(page))
    assert 'name="overbid_ratio" value="2"' in page  # the box holds a whole number as 2, not 2.0
    english = organiser.get("/settings").get_data(as_text=True)
    assert "Default: 2 ·" in _text_of(english.split('id="setting-overbid_ratio"')[1].split('class="setting')[0])


def _text_of(markup: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", markup)))


def test_a_webhook_tests_answer_time_is_written_the_portuguese_way(organiser, receiver):
    with db.connection_context():
        made = hook(receiver, "/pt", events=["final_death"], fmt="auto")
    page = organiser.post(f"/settings/webhooks/{made.id}/test", headers=PT).get_data(as_text=True)
    tested = _text_of(page[page.index('webhook-test" role='):][:1200])
    seconds = re.search(r"em (\S+) s:", tested)
    assert seconds, tested
    assert "." not in seconds.group(1), seconds.group(1)  # 0,01 (or 0), never 0.01


def test_the_experience_refusal_gives_its_examples_the_portuguese_way(organiser):
    """The log reads 0,5 as half a point, so its refusal gives 0,5 as the example, not 0.5."""
    with db.connection_context():
        character = Character.select().first()
    refused = _text_of(organiser.post(f"/characters/{character.id}/experience", headers=PT, data={
        "kind": "earned", "amount": "meio", "what": "Teste"}).get_data(as_text=True))
    assert "como 2, 12 ou 0,5." in refused, refused[:600]
    assert "0.5" not in refused
    logged = organiser.post(f"/characters/{character.id}/experience", headers=PT, data={
        "kind": "earned", "amount": "0,5", "what": "Meio ponto"})
    assert logged.status_code == 303  # as it says: 0,5 is read
    # A spend past what is left says its numbers the Portuguese way too.
    over = _text_of(organiser.post(f"/characters/{character.id}/experience", headers=PT, data={
        "kind": "spent", "amount": "2", "what": "Briga"}).get_data(as_text=True))
    assert "0,5 de experiência não gasta: gastar 2 deixaria -1,5" in over, over[over.find("Nada foi"):][:300]
