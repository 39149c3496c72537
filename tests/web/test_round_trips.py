"""A chronicle's data survives every trip (issue 27): Grapevine files in and out, a chronicle's own
export restored on a fresh install, on either engine.

- every XML file of ``../shared/real-data/grapevine/`` goes Grapevine -> larp -> ``larp export`` ->
  ``larp import`` on a fresh install -> ``larp export-grapevine``, and the file that comes back is
  compared with the original by the standard library's XML reader (``tests/grapevine_trip.py``);
- the "Done when" file: half points, a comment, "set" entries, day-first dates such as 14/2/2010 and
  5/2/2010, two "Phobia" with their own notes, → and Ж in the notes, a 600-character reason, an
  Inactive status, a ghoul's free-text clan, current Willpower above permanent and an unsorted list
  go the whole way and back into larp unchanged.

The property test of every shape a chronicle can take is ``test_chronicle_property.py``.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pytest

from larp.db import db
from tests.support import SHARED, make_test_app
from tests.grapevine_trip import compare, round_trip

GRAPEVINE = SHARED / "real-data" / "grapevine"
XML_FILES = sorted(p.name for p in GRAPEVINE.glob("*.gex") if not p.read_bytes().startswith(b"\x04\x00"))
#: Attributes Grapevine's own reader trims (XMLReaderClass: ``Value = Trim(...)``); ours trims them too.
TRIMMED = {("vampires_camarilla.gex", "Dhahran Shargat", "title"), ("vampires_camarilla.gex", "Korus Fayyum", "title")}


@pytest.fixture(autouse=True)
def _closed():
    yield
    if db.obj is not None and not db.is_closed():
        db.close()


def test_every_real_file_is_found():
    """The round trips below cover every XML file of the shared real data (the binary one is refused
    on import, with the way to re-save it)."""
    assert set(XML_FILES) == {"one_of_each.gex", "value_for_everything.gex", "vampire_default_categories.gex",
                              "vampires_camarilla.gex", "vampires_other.gex", "vampires_sabbat.gex"}


@pytest.mark.parametrize("name", XML_FILES)
def test_a_real_grapevine_file_comes_back_whole(tmp_path, name):
    """Issue 27 item 1: each real file through import-grapevine, export, import on a fresh install
    (whose export equals the first: the restore refused nothing, value_for_everything's zero-point
    comment included) and export-grapevine: every record larp reads (vampires, ghouls, mortals),
    every attribute, experience entry, list entry in its place and text comes back as written."""
    trip = round_trip(tmp_path, name, (GRAPEVINE / name).read_bytes())
    assert trip.second_export == trip.first_export
    result = compare(trip.original, trip.returned)
    assert result.records.same == result.records.total > 0
    trimmed = {d for d in result.attributes.differences
               if any(d.startswith(f"{who}: {key}=") for file, who, key in TRIMMED if file == name)}
    assert set(result.differences()) == trimmed
    assert result.attributes.same == result.attributes.total - len(trimmed)
    assert (result.entries.same, result.order.same, result.experience.same, result.texts.same) == (
        result.entries.total, result.order.total, result.experience.total, result.texts.total)


def test_the_value_for_everything_restore_is_no_longer_refused(tmp_path):
    """The issue's "Why": value_for_everything.gex holds a zero-point comment, which the app wrote and
    its own restore then refused ("amount must be a whole number from 1 to 1000, not 0")."""
    trip = round_trip(tmp_path, "value_for_everything.gex", (GRAPEVINE / "value_for_everything.gex").read_bytes())
    log = [(e["kind"], e["amount"]) for e in trip.second_export["experience"]]
    assert log == [("spent", "131"), ("comment", "0")]


# --- the "Done when" file ----------------------------------------------------------------------

LONG_REASON = ("Purchased " + ", ".join(f"Trait {i:03d}" for i in range(60)))[:600]
ILSE = (
    '<vampire name="Ilse Varga" nature="Architect" demeanor="Judge" clan="Tremere" sect="Camarilla" '
    'generation="10" blood="13" willpower="4" tempwillpower="6" conscience="2" selfcontrol="3" courage="3" '
    'path="Humanity" pathtraits="5" sire="Etrius" status="Inactive" startdate="14/2/2010" '
    'lastmodified="5/2/2010 18:21:12">'
    '<experience unspent="10.5" earned="14.5">'
    '<entry date="14/2/2010" change="0.5" type="0" reason="Half a point: costume" earned="0.5" unspent="0.5"/>'
    '<entry date="5/2/2010" change="0" type="6" reason="Spoke for the Tremere at court" earned="0.5" unspent="0.5"/>'
    f'<entry date="5/2/2010 9:00:00 PM" change="4" type="3" reason="{LONG_REASON}" earned="0.5" unspent="-3.5"/>'
    '<entry date="20/2/2010" change="14.5" type="2" reason="Earned total from the old sheet" earned="14.5" '
    'unspent="-3.5"/>'
    '<entry date="20/2/2010" change="10.5" type="5" reason="Unspent total from the old sheet" earned="14.5" '
    'unspent="10.5"/>'
    '</experience>'
    '<traitlist name="Physical" abc="yes" display="1"><trait name="Quick" val="2"/><trait name="Brawny"/>'
    '</traitlist>'
    '<traitlist name="Derangements" abc="yes" atomic="yes" negative="yes" display="5">'
    '<trait name="Phobia" note="spiders"/><trait name="Phobia" note="fire"/></traitlist>'
    '<traitlist name="Disciplines" abc="no" atomic="yes" display="5">'
    '<trait name="Thaumaturgy: Path of Blood: A Taste for Blood" val="3" note="basic"/>'
    '<trait name="Auspex: Heightened Senses" val="3" note="basic"/>'
    '<trait name="Thaumaturgy: Path of Blood: Blood Rage" val="3" note="basic"/></traitlist>'
    '<traitlist name="Merits" abc="yes" atomic="yes" display="4"><trait name="Acute Sense" note="hearing"/>'
    '<trait name="Acute Sense" val="1 or 3" note="sight"/></traitlist>'
    '<notes><![CDATA[Owes Etrius &#8594; a boon. &#1046; marks the chantry door &#129415;. Leeds &amp; York.]]>'
    '</notes>'
    '</vampire>'
)
BORIS = ('<vampire name="Boris" clan="Ghoul" larpclan="Ventrue retainer" blood="3" willpower="2" '
         'lastmodified="20/2/2010 10:00:00 PM"/>')


def shapes_file() -> bytes:
    return ('<?xml version="1.0"?>\r\n<grapevine version="3">\r\n' + ILSE + "\r\n" + BORIS
            + "\r\n</grapevine>\r\n").encode("cp1252")


def _larp_state(export: dict) -> dict[str, dict]:
    """What Grapevine can hold of each character of a chronicle export, by name: every field but the
    install's own (card code and token, the time of import, the version)."""
    lines: dict[str, list] = {}
    code = {c["short_code"]: c["name"] for c in export["characters"]}
    for entry in export["experience"]:
        lines.setdefault(code[entry["character"]], []).append((entry["kind"], entry["amount"], entry["what"],
                                                               entry["created_at"]))
    out = {}
    for c in export["characters"]:
        kept = dict(c["imported_unused"])
        state = {k: v for k, v in c.items() if k not in ("short_code", "card_token", "created_at", "updated_at",
                                                         "retired_at", "imported_unused")}
        out[c["name"]] = {**state, "kept": kept, "retired": c["retired_at"] is not None, "log": lines.get(c["name"])}
    return out


def test_done_when_a_file_of_every_shape_goes_the_whole_way_unchanged(tmp_path):
    """Issue 27 "Done when": the file goes Grapevine -> larp -> `larp export` -> `larp import` ->
    `larp export-grapevine` -> larp with nothing Grapevine can hold changed, and each shape is what it
    was at every step: 0.5 stays 0.5, the comment and the "set" entries stay what they are, the
    dates are read day first (the file's 14/2/2010 proves it) and written in one order, the two
    Phobia keep their notes, → and Ж survive, the 600-character reason is whole, Inactive is
    retired, the ghoul keeps his clan, Willpower 6 of 4 stays 6, the Disciplines keep their order."""
    trip = round_trip(tmp_path, "shapes.gex", shapes_file())
    assert "Dates read day first (day/month/year): '14/2/2010' has a first number over 12." in trip.outputs[0]
    assert "Will be retired (Grapevine status Inactive)" in trip.outputs[0]
    assert trip.second_export == trip.first_export
    first = _larp_state(trip.first_export)
    ilse, boris = first["Ilse Varga"], first["Boris"]
    assert ilse["log"] == [
        ("earned", "0.5", "Half a point: costume", "2010-02-14T00:00:00"),
        ("comment", "0", "Spoke for the Tremere at court", "2010-02-05T00:00:00"),
        ("spent", "4", LONG_REASON, "2010-02-05T21:00:00"),
        ("set_earned", "14.5", "Earned total from the old sheet", "2010-02-20T00:00:00"),
        ("set_unspent", "10.5", "Unspent total from the old sheet", "2010-02-20T00:00:00"),
    ]
    assert len(LONG_REASON) == 600
    assert ilse["retired"] and ilse["derangements"] == ["Phobia", "Phobia"]
    assert "Owes Etrius → a boon. Ж marks the chantry door 🦇." in ilse["notes"]
    assert "Leeds &amp; York" in ilse["notes"]  # CDATA is literal: only character references are read there
    assert (ilse["willpower_permanent"], ilse["willpower_current"]) == (4, 6)
    assert (boris["creature"], boris["clan"]) == ("ghoul", "Ventrue retainer")
    assert ilse["kept"]["attributes"]["startdate"] == "2/14/2010"  # read day first, written as Grapevine's US date

    returned = ET.fromstring(trip.returned)
    record = returned.find("vampire[@name='Ilse Varga']")
    assert record.get("status") == "Inactive" and record.get("lastmodified") == "2/5/2010 6:21:12 PM"
    assert [(e.get("type"), e.get("change"), e.get("earned"), e.get("unspent")) for e in record.iter("entry")] == [
        ("0", "0.5", "0.5", "0.5"), ("6", "0", "0.5", "0.5"), ("3", "4", "0.5", "-3.5"),
        ("2", "14.5", "14.5", "-3.5"), ("5", "10.5", "14.5", "10.5")]
    assert (record.find("experience").get("earned"), record.find("experience").get("unspent")) == ("14.5", "10.5")
    assert [(t.get("name"), t.get("note")) for t in record.find("traitlist[@name='Derangements']")] == [
        ("Phobia", "spiders"), ("Phobia", "fire")]
    assert [t.get("name") for t in record.find("traitlist[@name='Disciplines']")] == [
        "Thaumaturgy: Path of Blood: A Taste for Blood", "Auspex: Heightened Senses",
        "Thaumaturgy: Path of Blood: Blood Rage"]
    assert b"&#8594;" in trip.returned and b"&#1046;" in trip.returned and b"&#129415;" in trip.returned
    assert returned.find("vampire[@name='Boris']").get("larpclan") == "Ventrue retainer"
    boris_back = returned.find("vampire[@name='Boris']")
    # Not in the file, so not written as facts of it: his Path, his status, his health chart.
    assert (boris_back.get("path"), boris_back.get("status"), boris_back.find("traitlist[@name='Health Levels']")) == (
        None, None, None)

    # ... and back into larp, on a third install: nothing Grapevine can hold has changed.
    third = make_test_app(tmp_path / "third", LOAD_DEMO=False, START_EMPTY=True)
    back = tmp_path / "back.gex"
    back.write_bytes(trip.returned)
    result = third.test_cli_runner().invoke(args=["import-grapevine", "--yes", str(back)])
    assert result.exit_code == 0, result.output
    assert "Dates read month first (month/day/year): '2/20/2010 10:00:00 PM' has a second number" in result.output
    final = tmp_path / "final.json"
    assert third.test_cli_runner().invoke(args=["export", str(final)]).exit_code == 0
    assert _larp_state(json.loads(final.read_text(encoding="utf-8"))) == first


def test_the_experience_totals_are_exact_on_the_sheet(tmp_path, client, auth, dbconn):
    """Issue 27 item 2: the sheet's totals run the log as Grapevine runs it, in exact decimals: the
    shapes file's Ilse has earned 14.5 (set), unspent 10.5 (set), so 4 spent; her lines show as
    "+0.5", "comment", "earned set to 14.5"."""
    from larp.models import Character

    path = tmp_path / "shapes.gex"
    path.write_bytes(shapes_file())
    auth.login("boss", "organiser")
    result = client.application.test_cli_runner().invoke(args=["import-grapevine", "--yes", str(path)])
    assert result.exit_code == 0, result.output
    ilse = Character.get(Character.name == "Ilse Varga")
    page = client.get(f"/characters/{ilse.id}").get_data(as_text=True)
    assert "14.5 earned, 4 spent, 10.5 left" in page
    editor = client.get(f"/characters/{ilse.id}/edit").get_data(as_text=True)
    for shown in ("+0.5", "comment", "earned set to 14.5", "unspent set to 10.5", "14.5 earned · 4 spent · 10.5 left"):
        assert shown in editor, shown
    client.post(f"/characters/{ilse.id}/experience", data={"kind": "earned", "amount": "0.25", "what": "A quarter"})
    assert "14.75 earned, 4 spent, 10.75 left" in client.get(f"/characters/{ilse.id}").get_data(as_text=True)
    from larp.models import ExperienceEntry

    assert ExperienceEntry.select().where(ExperienceEntry.what == "A quarter").get().amount == Decimal("0.25")


def test_an_old_export_still_imports(tmp_path):
    """Format 1 (676dabd's ``tests/fixtures/db-676dabd.export.json``) is still read, and exported again
    as format 3 with its experience amounts as exact texts."""
    app = make_test_app(tmp_path / "app", LOAD_DEMO=False, START_EMPTY=True)
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "db-676dabd.export.json"
    result = app.test_cli_runner().invoke(args=["import", str(fixture)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "again.json"
    assert app.test_cli_runner().invoke(args=["export", str(out)]).exit_code == 0
    again = json.loads(out.read_text(encoding="utf-8"))
    old = json.loads(fixture.read_text(encoding="utf-8"))
    assert again["format_version"] == 3 and old["format_version"] == 1
    assert [c["name"] for c in again["characters"]] == [c["name"] for c in old["characters"]]
    assert len(again["rulings"]) == len(old["rulings"]) and len(again["torpors"]) == len(old["torpors"])
