"""Importing Grapevine files through the upload page and the CLI (issue 8)."""

from __future__ import annotations


import pytest

from larp.models import Character, PendingImport, Ruling, Trait
from tests.support import SHARED

GRAPEVINE = SHARED / "real-data" / "grapevine"
NPC_FILES = ("vampires_camarilla.gex", "vampires_sabbat.gex", "vampires_other.gex")


def upload(client, name: str, data: bytes | None = None, **extra):
    from io import BytesIO

    payload = data if data is not None else (GRAPEVINE / name).read_bytes()
    return client.post("/import", data={"file": (BytesIO(payload), name), **extra},
                       content_type="multipart/form-data")


def test_only_organisers_import(client, auth, dbconn):
    auth.login("narrator1", "narrator")
    assert client.get("/import").status_code == 403
    assert upload(client, "vampires_camarilla.gex").status_code == 403
    assert PendingImport.select().count() == 0


def test_upload_preview_then_import_then_reimport_without_duplicates(client, auth, dbconn):
    auth.login("boss", "organiser")
    before = Character.select().count()
    response = upload(client, "vampires_camarilla.gex")
    assert response.status_code == 303
    preview_url = response.headers["Location"]
    page = client.get(preview_url).get_data(as_text=True)
    assert "50 to create · 0 to update" in page
    assert Character.select().count() == before  # the preview writes nothing

    response = client.post(preview_url, data={"selected": [str(i) for i in range(50)]})
    assert response.status_code == 303
    assert Character.select().count() == before + 50
    record = Ruling.get(Ruling.kind == "import")
    assert record.summary == "Imported vampires_camarilla.gex: 50 created, 0 updated."
    assert PendingImport.select().count() == 0
    assert client.get(preview_url).status_code == 404  # applied: gone

    # The same file again: every character is an update, none is duplicated.
    page = client.get(upload(client, "vampires_camarilla.gex").headers["Location"]).get_data(as_text=True)
    assert "0 to create · 50 to update" in page
    assert Character.select().count() == before + 50


def test_untick_characters_to_leave_them_out(client, auth, dbconn):
    auth.login("boss", "organiser")
    before = Character.select().count()
    preview_url = upload(client, "vampires_other.gex").headers["Location"]
    client.post(preview_url, data={"selected": ["0", "1"]})
    assert Character.select().count() == before + 2
    assert client.post(upload(client, "vampires_other.gex").headers["Location"], data={}).status_code == 422


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("value_for_everything.bin.gex", None, "save it again as XML"),
        ("broken.gex", (GRAPEVINE / "vampires_camarilla.gex").read_bytes()[:5000], "line"),
        ("empty.gex", b"", "The file “empty.gex” is empty: nothing to import"),  # new user 12: it was "Choose a file"
        ("other.xml", b"<?xml version='1.0'?><chronicle/>", "not a Grapevine file"),
    ],
)
def test_unreadable_files_get_a_clear_message_and_nothing_changes(client, auth, dbconn, name, data, message):
    auth.login("boss", "organiser")
    before = (Character.select().count(), Trait.select().count(), PendingImport.select().count())
    response = upload(client, name, data)
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert message in body
    assert "Nothing was imported" in body
    assert (Character.select().count(), Trait.select().count(), PendingImport.select().count()) == before


def test_cli_imports_all_three_npc_files(runner, dbconn):
    """All 216 NPC-library characters arrive through `larp import-grapevine`; a second run updates."""
    before = Character.select().count()
    ghouls = Character.select().where(Character.creature == "ghoul").count()
    paths = [str(GRAPEVINE / n) for n in NPC_FILES]
    result = runner.invoke(args=["import-grapevine", "--yes", *paths])
    assert result.exit_code == 0, result.output
    assert "vampires_sabbat.gex (" in result.output
    assert Character.select().count() == before + 216
    assert Character.select().where(Character.creature == "ghoul").count() == ghouls + 2
    again = runner.invoke(args=["import-grapevine", "--yes", *paths])
    assert again.exit_code == 0
    assert Character.select().count() == before + 216
    assert again.output.count(": 0 created,") == 3


def test_cli_refuses_the_binary_file_with_its_message(runner, dbconn):
    result = runner.invoke(args=["import-grapevine", "--yes", str(GRAPEVINE / "value_for_everything.bin.gex")])
    assert result.exit_code == 1
    assert "save it again as XML" in result.output


def test_stored_characters_match_the_parsed_files_exactly(runner, dbconn):
    """What is stored is what the file says: every imported character's Traits with counts,
    negative Traits, Abilities, powers, Willpower, blood, morality and generation."""
    from larp.grapevine import parse_grapevine
    from larp.services.sheet_store import sheet_of

    runner.invoke(args=["import-grapevine", "--yes", *[str(GRAPEVINE / n) for n in NPC_FILES]])
    checked = 0
    for name in NPC_FILES:
        for record in parse_grapevine((GRAPEVINE / name).read_bytes(), name).imported:
            stored = sheet_of(Character.get(Character.name == record.name))
            parsed = record.sheet

            def shape(sheet):
                return (
                    {c: sorted((t.name, t.count) for t in sheet.traits.get(c, [])) for c in ("physical", "social", "mental")},
                    {c: sorted((t.name, t.count) for t in sheet.negative_traits.get(c, [])) for c in ("physical", "social", "mental")},
                    sorted(sheet.abilities.items()),
                    sorted((p.discipline, p.power, p.level) for p in sheet.powers),
                    (sheet.willpower_permanent, sheet.willpower_current, sheet.blood_max, sheet.blood_current,
                     sheet.morality_name, sheet.morality_rating, sheet.generation, sheet.clan, sheet.sect, sheet.creature),
                )

            assert shape(stored) == shape(parsed), record.name
            checked += 1
    assert checked == 216
