"""Names in bidirectional text (new-user test 12, finding 4): a right-to-left name is isolated where it
stands inside a line of other words (the check-in roster, the record), and direction controls are
refused in names (character, player, user, chronicle, scene) and taken out of an imported Grapevine
file with a note."""

from __future__ import annotations

import pytest

from larp.db import db
from larp.grapevine import parse_grapevine
from larp.models import Character, Chronicle, StoredScene, User
from larp.services import ServiceError

ARABIC = "ليلى العمري"
RLO, PDF = "\u202e", "\u202c"


@pytest.fixture
def organiser(client, auth):
    auth.login("boss", "organiser")
    return client


def renamed(old: str, new: str) -> Character:
    with db.connection_context():
        Character.update(name=new).where(Character.name == old).execute()
        return Character.get(Character.name == new)


def test_a_right_to_left_name_is_isolated_in_the_roster_and_a_latin_one_is_left_as_it_is(organiser, dbconn):
    """Finding 4 (a): "ليلى العمري 16:48, Organiser" read "16:48 ليلى العمري": the roster's name is in
    <bdi>, so the time stays after it; a Latin name, which cannot move the line, is not wrapped."""
    layla = renamed("Konrad Vale", ARABIC)
    pim = Character.get(Character.name == "Pim Halloran")
    for character in (layla, pim):
        response = organiser.post("/checkin", data={"session": "1", "q": character.short_code},
                                  headers={"HX-Request": "true", "HX-Target": "desk-work"})
        assert response.status_code == 200
    page = organiser.get("/checkin").get_data(as_text=True)
    assert f"<span><bdi>{ARABIC}</bdi> <small" in page
    assert "<span>Pim Halloran <small" in page


def test_a_right_to_left_name_inside_a_ruling_summary_is_isolated(organiser, dbconn):
    """Finding 4 (a), the record: a ruling's summary written as a sentence ("ليلى العمري's sheet: ...")
    isolates the name with FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE, in English and in Portuguese."""
    layla = renamed("Konrad Vale", ARABIC)
    page = organiser.get(f"/characters/{layla.id}/edit").get_data(as_text=True)
    from tests.web.sheet_fixtures import seen_of

    response = organiser.post(f"/characters/{layla.id}/sheet/notes", data={
        "notes": "x", "narrator_notes": "", "seen": seen_of(page, "notes")})
    assert response.status_code == 303
    record = organiser.get("/rulings").get_data(as_text=True)
    assert f"\u2068{ARABIC}\u2069" in record
    record_pt = organiser.get("/rulings", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert f"\u2068{ARABIC}\u2069" in record_pt


@pytest.mark.parametrize("field", ["name", "player_name"])
def test_direction_controls_in_a_character_or_player_name_are_refused_inline(organiser, dbconn, field):
    """Finding 4 (b): "Beatriz d'Ávila" + RLO "evil" PDF was accepted and shown as "live"; it is refused
    next to its field, naming the control, and nothing is made."""
    before = Character.select().count()
    data = {"name": "Beatriz", "creature": "vampire", "generation": "12", "morality_name": "Humanity",
            "morality_rating": "4", "willpower_permanent": "3"}
    data[field] = f"Beatriz d\u00b4\u00c1vila {RLO}evil{PDF}"
    response = organiser.post("/characters/new", data=data)
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "invisible direction control (U+202E, U+202C)" in body and f'id="err-{field}"' in body
    assert Character.select().count() == before
    # The marks U+200E and U+200F are allowed (larp.bidi).
    data[field] = "Beatriz \u200fd\u00c1vila"
    assert organiser.post("/characters/new", data=data).status_code == 303


def test_direction_controls_in_user_scene_and_chronicle_names_are_refused(organiser, dbconn):
    """Finding 4 (b): the Users page, a scene and a chronicle refuse a name with a direction control,
    naming the field as the page labels it; LRM/RLM pass."""
    response = organiser.post("/users", data={"username": "nara", "display_name": f"Nara {RLO}evil",
                                              "role": "narrator", "password": "long enough pass"})
    assert response.status_code == 422 and "Name shown holds an invisible direction control" in response.get_data(
        as_text=True)
    assert not User.select().where(User.username == "nara").exists()
    response = organiser.post("/scenes", data={"name": f"Hall \u2067A\u2069"})
    assert response.status_code == 422 and "Where it happens holds an invisible direction control (U+2067, U+2069)" in \
        response.get_data(as_text=True)
    assert not StoredScene.select().exists()
    from datetime import date

    from larp.services.memberships import create_chronicle

    with pytest.raises(ServiceError, match="direction control"):
        create_chronicle(f"Noites {RLO}x", date(2026, 12, 5))
    assert not Chronicle.select().where(Chronicle.name.contains("Noites")).exists()
    assert create_chronicle("Noites \u200edo Sul", date(2026, 12, 5)).name == "Noites \u200edo Sul"  # a mark passes


def test_a_grapevine_import_takes_direction_controls_out_of_names_with_a_note():
    """Finding 4 (b): an imported file is not refused whole: the controls are taken out of the name and
    the player's name, and the import's notes say so."""
    data = ('<?xml version="1.0" encoding="utf-8"?>\r\n<grapevine version="3">\r\n'
            f'<vampire name="Beatriz {RLO}evil{PDF}" player="Ana {RLO}x" clan="Toreador"></vampire>\r\n'
            '</grapevine>\r\n').encode("utf-8")
    character = parse_grapevine(data).characters[0]
    assert character.sheet.name == "Beatriz evil" and character.sheet.player_name == "Ana x"
    notes = [str(p) for p in character.problems]
    assert "The name: 2 invisible direction controls taken out (they would turn the text around the name)." in notes
    assert "Player: 1 invisible direction control taken out (it would turn the text around the name)." in notes
