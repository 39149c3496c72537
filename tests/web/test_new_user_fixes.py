"""What a new user's first try found (fixes branch): the Notes limit shown and checked, the
field's words in errors and the record, confirming ticks the server checks and names, scene
extras removed as the game session closes, and a reload of a refused form's address."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from larp.models import Character, GameSession, Ruling
from larp.services.chronicles import get_chronicle
from larp.services.history import KIND_LABELS
from larp.services.records import record_ruling
from larp.sheet_checks import TEXT_LIMITS
from tests.web.test_sheet_editor import create, save

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def organiser(client, auth):
    auth.login("boss", "organiser")
    return client


def test_notes_show_their_limit_and_a_longer_text_is_refused_by_name(organiser, dbconn):
    """Developers' guide (bad input gets a clear error where the user is): the Notes field says its
    limit (20,000 characters, the column's size), the form enforces it, and the server refuses one
    character more naming Notes, saving nothing."""
    character = create(organiser)
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    assert f'name="notes" rows="4" maxlength="{TEXT_LIMITS["notes"]}"' in page
    assert "At most 20,000 characters." in page
    response = save(organiser, character, "notes", {"notes": "x" * (TEXT_LIMITS["notes"] + 1), "narrator_notes": ""})
    assert response.status_code == 422
    assert "Notes: at most 20,000 characters, not 20,001." in response.get_data(as_text=True)
    assert Character.get_by_id(character.id).notes == ""


def test_sheet_errors_name_fields_in_the_editor_s_words(organiser, dbconn):
    """House style (the field's words): out-of-range Willpower and blood pool are refused naming
    "Permanent Willpower" and "Blood pool", as the form labels them, not the column names."""
    response = organiser.post("/characters/new", data={"name": "Anya Vey", "creature": "vampire",
                                                       "willpower_permanent": "99", "blood_max": "99"})
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Permanent Willpower must be from 0 to 20, not 99." in body
    assert "Blood pool must be from 0 to 50, not 99." in body
    assert "Willpower permanent" not in body and "Blood max" not in body


def test_the_record_names_every_kind_of_ruling_in_words(organiser, dbconn):
    """House style (the field's words): the record list and a ruling's page say "Mass combat", not
    "mass_combat"; every kind a service records has its words in KIND_LABELS."""
    ruling = record_ruling(get_chronicle(), None, "mass_combat", "Three against Konrad", [],
                           [(Character.get(Character.name == "Konrad Vale"), "target")])
    listing = organiser.get("/rulings").get_data(as_text=True)
    shown = organiser.get(f"/rulings/{ruling.id}").get_data(as_text=True)
    assert '<span class="kind">Mass combat</span>' in listing and "mass_combat" not in listing
    assert "<dd>Mass combat</dd>" in shown
    recorded = set()
    for path in (ROOT / "larp").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        recorded |= set(re.findall(r'record_ruling\(\s*chronicle, \w+, "(\w+)"', text))
        recorded |= set(re.findall(r'^KIND = "(\w+)"', text, flags=re.M))
    assert {"mass_combat", "firing_into_group", "tabletop", "session"} <= recorded
    assert recorded - set(KIND_LABELS) == set()


def test_undo_without_its_tick_is_refused_next_to_the_button(organiser, dbconn):
    """Developers' guide (every form works without JavaScript): the undo button is not blocked by
    the browser; untick it and the server refuses, naming the tick beside the button, and undoes
    nothing."""
    character = create(organiser)
    assert save(organiser, character, "notes", {"notes": "Sire unknown.", "narrator_notes": ""}).status_code == 303
    edit = Ruling.get(Ruling.kind == "sheet")
    history = organiser.get(f"/characters/{character.id}/history").get_data(as_text=True)
    assert f"Tick “Undo #{edit.id}” first" in history and 'class="confirm-first"' in history
    response = organiser.post(f"/characters/{character.id}/undo", data={"ruling": edit.id})
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert f'id="undo-confirm-error">Tick “Undo #{edit.id}” to undo it; nothing was changed.' in body
    assert Ruling.get_by_id(edit.id).undone_at is None and Character.get_by_id(character.id).notes == "Sire unknown."


def test_closing_removes_the_scene_extras_and_says_so_first(organiser, dbconn):
    """README step 4 (scene extras last one game session): the close form names the extras that go;
    untick and the server refuses naming the tick; ticked, the game session closes, the extras and
    the rulings only they were in go, and the answer names them."""
    konrad = Character.get(Character.name == "Konrad Vale")
    organiser.post(f"/characters/{konrad.id}/copy", data={"name": "Thug", "count": "2", "scene_extra": "on"})
    open_now = GameSession.get(GameSession.closed_at.is_null())
    board = organiser.get("/board").get_data(as_text=True)
    assert "Closing also removes the 2 scene extras (Thug 1, Thug 2)" in board
    fields = {"date": open_now.date.isoformat(), "closing": str(open_now.number)}
    refused = organiser.post("/board/next-session", data=fields)
    assert refused.status_code == 422
    assert f"Tick “Yes, game session {open_now.number} is over” to close it" in refused.get_data(as_text=True)
    assert GameSession.get_by_id(open_now.id).closed_at is None
    assert Character.select().where(Character.scene_extra).count() == 2
    closed = organiser.post("/board/next-session", data={**fields, "confirm": "yes"}, follow_redirects=True)
    assert "Scene extras removed: Thug 1, Thug 2." in closed.get_data(as_text=True)
    assert GameSession.get_by_id(open_now.id).closed_at is not None
    assert not Character.select().where(Character.name.startswith("Thug")).exists()
    assert not Ruling.select().where(Ruling.kind == "created").exists()  # only theirs: gone


def test_the_card_sheet_says_not_issued_yet_or_revoked_as_it_is(organiser, dbconn):
    """Issue 12's card sheet, said truly: a copy whose card was never issued prints "not issued yet",
    a revoked card "revoked"; issuing it again clears the revocation."""
    konrad, lys = Character.get(Character.name == "Konrad Vale"), Character.get(Character.name == "Lys Moreau")
    organiser.post(f"/characters/{konrad.id}/copy", data={"name": "Thug", "count": "2"})
    thug = Character.get(Character.name == "Thug 1")
    assert organiser.post(f"/cards/{lys.id}/revoke").status_code == 303
    sheet = organiser.get(f"/cards/sheet?character={thug.id}&character={lys.id}").get_data(as_text=True)
    thug_card = sheet[sheet.index(">Thug 1<"):][:700]
    lys_card = sheet[sheet.index(">Lys Moreau<"):][:700]
    assert "No card link: not issued yet." in thug_card and "revoked" not in thug_card
    assert "No card link: revoked." in lys_card
    listing = organiser.get("/cards").get_data(as_text=True)
    assert "no card issued yet" in listing and "card revoked" in listing
    organiser.post(f"/cards/{lys.id}/rotate")
    assert Character.get_by_id(lys.id).card_revoked_at is None


def test_the_heal_form_offers_the_damage_the_character_has(organiser, dbconn):
    """002 "Damage and Healing" (the order damage heals): a vampire with only lethal marked finds
    Lethal chosen in the Heal with blood form, not Bashing."""
    vivienne = Character.get(Character.name == "Vivienne Ashcombe")
    Character.update(damage_lethal=2, damage_bashing=0, damage_aggravated=0).where(Character.id == vivienne.id).execute()
    page = organiser.get(f"/characters/{vivienne.id}").get_data(as_text=True)
    heal = page[page.index("<h3>Heal with blood</h3>"):][:1500]
    assert '<input type="radio" name="kind" value="lethal" checked>' in heal
    assert '<input type="radio" name="kind" value="bashing" >' in heal


@pytest.mark.parametrize("path, page", [
    ("/characters/{id}/undo", "/characters/{id}"),
    ("/characters/{id}/sheet/notes", "/characters/{id}"),
    ("/board/next-session", "/board"),
    ("/characters/extras/remove", "/characters"),
])
def test_a_get_of_a_form_s_address_goes_to_the_page_above(organiser, dbconn, path, page):
    """Developers' guide (never a 500, a clear answer where the user is): reloading a refused form's
    address, or pressing Enter in the address bar, is a GET of a POST-only URL; it is sent to the page
    the form lives on instead of "Method Not Allowed". The API keeps its 405."""
    konrad = Character.get(Character.name == "Konrad Vale")
    response = organiser.get(path.format(id=konrad.id))
    assert response.status_code == 303
    assert response.headers["Location"] == page.format(id=konrad.id)
    assert organiser.get(response.headers["Location"]).status_code == 200
    api = organiser.get(f"/api/v1/characters/{konrad.id}/torpor")
    assert api.status_code == 405 and api.is_json
    # At the chronicle's own URL (issue 22) the page above keeps the chronicle.
    chronicle = konrad.chronicle_id
    named = organiser.get(f"/chronicles/{chronicle}" + path.format(id=konrad.id))
    assert named.status_code == 303 and named.headers["Location"] == f"/chronicles/{chronicle}" + page.format(id=konrad.id)
