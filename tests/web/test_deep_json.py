"""Deeply nested JSON is refused naming the input, wherever JSON is read (issue 28 item 4).

100,000 nested brackets in an API body, a chronicle export uploaded on the web, or the sheet
editor's ``seen`` field gave a RecursionError, a 500. Every reader of outside JSON now goes through
:func:`larp.services.read_json`, which refuses text nested deeper than 64 levels with a 400 or a
422 naming the body or the field, and changes nothing.
"""

from __future__ import annotations

from io import BytesIO

import pytest

from larp.models import Character, Chronicle, Ruling
from larp.services import MAX_JSON_DEPTH
from tests.support import SHARED
from tests.web.sheet_fixtures import seen_of

DEEP = "[" * 100_000 + "]" * 100_000
#: Parsed by Python's json without complaint, and still deeper than anything this app writes.
RATHER_DEEP = "[" * 500 + "]" * 500
TOO_DEEP_BY_ONE = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)


def state():
    return (Ruling.select().count(), Chronicle.select().count(),
            sorted((c.id, c.version, c.damage_lethal, c.notes) for c in Character.select()))


def konrad() -> Character:
    return Character.get(Character.name == "Konrad Vale")


@pytest.fixture
def organiser(client, auth):
    auth.login("boss", "organiser")
    return client


@pytest.mark.parametrize("text", [DEEP, RATHER_DEEP, '{"settings": {"x": ' + TOO_DEEP_BY_ONE + "}}"],
                         ids=["100000", "500", "65-in-a-field"])
@pytest.mark.parametrize("path", ["/characters/{id}/damage", "/challenges/rule", "/challenges"])
def test_an_api_body_nested_too_deep_is_a_400_naming_the_body(organiser, dbconn, path, text):
    """Issue 28 item 4: a stateful and two stateless endpoints, given a body nested too deep: 400
    "The body nests ...", nothing recorded."""
    before = state()
    response = organiser.post("/api/v1" + path.format(id=konrad().id), data=text, content_type="application/json")
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert response.get_json()["error"].startswith("The body nests arrays and objects more than 64 levels")
    assert state() == before


def test_an_api_body_as_deep_as_the_app_allows_is_read(organiser, dbconn):
    """The limit is not lower than it says: 64 levels inside a body are read (and then refused for
    what they mean, naming the field), not for their depth."""
    inner = "[" * (MAX_JSON_DEPTH - 2) + "]" * (MAX_JSON_DEPTH - 2)
    response = organiser.post(f"/api/v1/characters/{konrad().id}/damage", data='{"levels": ' + inner + "}",
                              content_type="application/json")
    assert response.status_code == 422 and response.get_json()["field"] == "levels"


@pytest.mark.parametrize("text", [DEEP, RATHER_DEEP], ids=["100000", "500"])
def test_a_chronicle_export_nested_too_deep_is_refused_naming_the_file(organiser, dbconn, text):
    """Issue 28 item 4: Organise → Import a chronicle export with such a file: 422 at the file field."""
    before = state()
    response = organiser.post("/organise/import", data={"file": (BytesIO(text.encode()), "deep.json")},
                              content_type="multipart/form-data")
    assert response.status_code == 422
    assert "This file nests arrays and objects more than 64 levels" in response.get_data(as_text=True)
    assert state() == before


@pytest.mark.parametrize("text", [DEEP, RATHER_DEEP], ids=["100000", "500"])
def test_the_sheet_editors_seen_field_nested_too_deep_is_a_422_naming_it(organiser, dbconn, text):
    """Issue 28 item 4: the sheet editor's hidden ``seen`` field (what the page showed, for the stale
    check) with such text: 422 naming the field, the notes not saved; the page's own ``seen`` saves."""
    character = konrad()
    before = state()
    response = organiser.post(f"/characters/{character.id}/sheet/notes",
                              data={"notes": "changed", "narrator_notes": "", "seen": text})
    assert response.status_code == 422
    assert "The “seen” field nests arrays and objects" in response.get_data(as_text=True)
    assert state() == before
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    saved = organiser.post(f"/characters/{character.id}/sheet/notes",
                           data={"notes": "changed", "narrator_notes": "", "seen": seen_of(page, "notes")})
    assert saved.status_code == 303 and konrad().notes == "changed"


@pytest.mark.parametrize("path, extra", [("/challenge", {"step": "call"}), ("/combat", {"step": "retest"}),
                                         ("/combat/bystanders", {"step": "retest"})])
def test_a_fight_in_progress_nested_too_deep_is_a_4xx(organiser, dbconn, path, extra):
    """Issue 28 item 4: the screens' hidden ``tests_json`` (the challenge or fight in progress) with
    100,000 brackets: a refusal, never a 500, nothing recorded."""
    before = state()
    response = organiser.post(path, data={**extra, "tests_json": DEEP})
    assert 400 <= response.status_code < 500
    assert state() == before


@pytest.mark.parametrize("name", ["vampires_sabbat.gex", "value_for_everything.bin.gex"])
def test_a_grapevine_file_on_the_export_import_page_says_where_it_goes(organiser, dbconn, name):
    """A new user's mistake: a Grapevine file (XML or binary) on Organise → Import a chronicle export
    is refused with where to bring it (Import from Grapevine), not a JSON parser's words, and
    "Nothing was imported." is said once."""
    before = state()
    raw = (SHARED / "real-data" / "grapevine" / name).read_bytes()
    response = organiser.post("/organise/import", data={"file": (BytesIO(raw), name)},
                              content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "This is a Grapevine file" in page and "Import from Grapevine" in page and "JSON" not in page
    assert page.count("Nothing was imported.") == 1
    assert state() == before
