"""Grapevine details that must survive both ways (issue 27 items 2 to 8), one small file each, and what
the export and `larp backup` say: what Grapevine has no place for, and a full disk."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from larp.grapevine import parse_grapevine, write_grapevine
from larp.grapevine.dates import date_order, parse_grapevine_date
from larp.models import Character, ExperienceEntry
from tests.web.test_grapevine_both_ways import cli_import, gex

on_sqlite = not os.environ.get("LARP_TEST_DATABASE_URL")
TRACK = ("Healthy", "Healthy", "Bruised", "Bruised", "Bruised", "Wounded", "Wounded", "Incapacitated")


def one(*records: str):
    """The first character of a file of ``records`` (and the file)."""
    parsed = parse_grapevine(gex(*records), standard_track=TRACK)
    return parsed.characters[0], parsed


def again(record):
    """``record`` written by our export and read back."""
    return parse_grapevine(write_grapevine([record], TRACK), standard_track=TRACK).characters[0]


# --- dates, decided once per file ----------------------------------------------------------------


@pytest.mark.parametrize("dates, order, said", [
    (["14/2/2010", "5/2/2010"], "day first", "'14/2/2010' has a first number over 12"),
    (["2/14/2010", "5/2/2010"], "month first", "'2/14/2010' has a second number over 12"),
    (["5/2/2010", "6/3/2011 1:00:00 PM"], "month first", "no date in the file shows its order"),
])
def test_a_file_s_day_month_order_is_decided_once_from_all_its_dates(dates, order, said):
    """Issue 27 item 3: a first number over 12 proves day first, a second over 12 month first, no
    proof is month first (US Windows); the sentence says which and why, and 5/2/2010 is read by it."""
    decided = date_order(dates)
    assert decided.order == order and said in decided.reason
    assert parse_grapevine_date("5/2/2010", decided).month == (2 if order == "day first" else 5)


def test_a_file_with_proofs_of_both_orders_is_reported_and_each_proof_read_by_itself():
    """Issue 27 item 3: 14/2/2010 and 2/14/2010 in one file: said, each read by its own proof."""
    decided = date_order(["14/2/2010", "2/14/2010", "5/2/2010"])
    assert decided.mixed and "both orders" in decided.reason
    assert parse_grapevine_date("14/2/2010", decided) == parse_grapevine_date("2/14/2010", decided)
    assert parse_grapevine_date("5/2/2010", decided).month == 5


def test_every_date_of_a_day_first_file_is_read_day_first_and_written_in_one_order():
    """Issue 27 item 3: the entry of 5/2/2010 in a file holding 14/2/2010 is the 5th of February (the
    old reader made it the 2nd of May); the export writes every date month first, kept ones too."""
    record, parsed = one('<vampire name="A" startdate="14/2/2010" lastmodified="5/2/2010">'
                         '<experience><entry date="5/2/2010" change="1" type="0" reason="x"/></experience>'
                         '<boon type="Trivial" partner="B" date="13/3/2010"/></vampire>')
    assert parsed.date_order.order == "day first" and parsed.problems[0].startswith("Dates read day first")
    assert record.experience[0].date.month == 2 and record.kept["attributes"]["startdate"] == "2/14/2010"
    assert record.kept["boons"][0]["attributes"]["date"] == "3/13/2010"
    written = write_grapevine([record], TRACK).decode("cp1252")
    assert "5/2/2010" not in written and 'date="2/5/2010"' in written and 'startdate="2/14/2010"' in written


# --- experience ----------------------------------------------------------------------------------


def test_experience_keeps_half_points_zero_lines_signs_and_set_entries_as_they_are():
    """Issue 27 item 2: 0.5 stays 0.5 (a European "0,25" is a quarter, never "not a number"), a
    zero-point comment stays, "set earned" and "set unspent" stay types 2 and 5 and are written back
    as such, with Grapevine's running totals."""
    record, _ = one('<vampire name="A"><experience earned="3.25" unspent="1">'
                    '<entry date="1/2/2010" change="0.5" type="0" reason="half"/>'
                    '<entry date="1/3/2010" change="0,25" type="0" reason="quarter"/>'
                    '<entry date="1/4/2010" change="0" type="6" reason="a note"/>'
                    '<entry date="1/5/2010" change="3.25" type="2" reason="set"/>'
                    '<entry date="1/6/2010" change="1" type="5" reason="set"/></experience></vampire>')
    assert [(x.kind, x.amount) for x in record.experience] == [
        ("earned", Decimal("0.5")), ("earned", Decimal("0.25")), ("comment", Decimal(0)),
        ("set_earned", Decimal("3.25")), ("set_unspent", Decimal(1))]
    assert not any("not a number" in p for p in record.problems) and not any("total" in p for p in record.problems)
    assert [(x.kind, x.amount) for x in again(record).experience] == [(x.kind, x.amount) for x in record.experience]
    written = write_grapevine([record], TRACK).decode("cp1252")
    assert 'change="3.25" type="2" reason="set" earned="3.25" unspent="0.75"' in written
    assert '<experience unspent="1" earned="3.25">' in written


def test_an_experience_amount_that_cannot_be_kept_exactly_is_said():
    """Grapevine keeps a single-precision number: "0.3333333" is kept to two places, and the report
    says so; text that is no number at all is said to be so, in those words, and 0 used."""
    record, _ = one('<vampire name="A"><experience><entry date="1/2/2010" change="0.3333333" type="0" reason="x"/>'
                    '<entry date="1/2/2010" change="lots" type="0" reason="y"/></experience></vampire>')
    assert [x.amount for x in record.experience] == [Decimal("0.33"), Decimal(0)]
    assert "Experience: the change 0.3333333 kept as 0.33 (points are kept to 2 decimal places)." in record.problems
    assert "Experience: the change 'lots' cannot be read as experience points; 0 used." in record.problems


def test_the_log_takes_decimal_points_and_the_api_schema_says_so(client, auth, dbconn):
    """Issue 27 item 2: the log's form and a sheet edit's cost take 0.5; the API document says a decimal."""
    auth.login("boss", "organiser")
    character = Character.select().first()
    response = client.post(f"/characters/{character.id}/experience",
                           data={"kind": "earned", "amount": "0.5", "what": "Costume"})
    assert response.status_code == 303
    assert ExperienceEntry.get(ExperienceEntry.what == "Costume").amount == Decimal("0.5")
    refused = client.post(f"/characters/{character.id}/experience",
                          data={"kind": "earned", "amount": "0.125", "what": "Too fine"})
    assert "at most 2 decimal places" in refused.get_data(as_text=True)
    schema = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["CharacterUpdate"]
    assert schema["properties"]["xp_spent"]["type"] == "number"
    version = client.get(f"/api/v1/characters/{character.id}").get_json()["version"]
    answer = client.patch(f"/api/v1/characters/{character.id}", json={"version": version, "notes": "Bought",
                                                                      "xp_spent": 1.5})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert ExperienceEntry.select().where(ExperienceEntry.character == character).order_by(
        ExperienceEntry.id.desc()).first().amount == Decimal("1.5")


# --- text, names, status, clans, pools ---------------------------------------------------------


def test_text_outside_windows_1252_survives_every_name_and_note():
    """Issue 27 item 4: → Ж and an emoji in a name, a Trait, a note, the biography and a boon come back;
    the file stays Windows-1252 (references where it cannot hold them), and a literal "&#8594;" typed
    in the notes stays literal."""
    record, _ = one('<vampire name="&#1046;&#8594;A" clan="Tremere"><traitlist name="Physical">'
                    '<trait name="Quick&#8594;" note="&#1046;"/></traitlist>'
                    '<boon partner="&#1041;"><description><![CDATA[owes &#128007;]]></description></boon>'
                    '<biography><![CDATA[born &#1046;&#8594;]]></biography>'
                    '<notes><![CDATA[&#8594; &#1046; &#129415; and &#38;#8594; typed]]></notes></vampire>')
    assert record.name == "Ж→A" and record.sheet.notes == "→ Ж 🦇 and &#8594; typed"
    back = again(record)
    assert back.name == "Ж→A" and back.sheet.notes == "→ Ж 🦇 and &#8594; typed"
    assert back.kept["biography"] == "born Ж→" and back.kept["boons"][0]["description"] == "owes 🐇"
    assert back.kept["boons"][0]["attributes"]["partner"] == "Б"
    assert back.sheet.traits["physical"][0].name == "Quick→"
    written = write_grapevine([record], TRACK)
    written.decode("cp1252")  # Windows-1252 throughout
    assert b"&#38;#8594; typed" in written and b"&#129415;" in written


def test_two_entries_of_one_name_stay_two_with_their_own_notes_and_values():
    """Issue 27 item 5: two Phobia with different notes, two Merits with different costs, two Quick the
    sheet counts as Quick x2: each comes back as the file listed it, in its place."""
    record, _ = one('<vampire name="A"><traitlist name="Physical"><trait name="Quick" note="dex"/>'
                    '<trait name="Brawny"/><trait name="Quick" note="wits"/></traitlist>'
                    '<traitlist name="Derangements"><trait name="Phobia" note="spiders"/>'
                    '<trait name="Phobia" note="fire"/></traitlist>'
                    '<traitlist name="Merits"><trait name="Luck" val="2"/><trait name="Luck" val="3-4"/></traitlist>'
                    '</vampire>')
    assert record.sheet.derangements == ["Phobia", "Phobia"] and record.sheet.traits["physical"][0].count == 2
    written = write_grapevine([record], TRACK).decode("cp1252")
    for entry in ('<trait name="Quick" note="dex"/>\r\n      <trait name="Brawny"/>\r\n      <trait name="Quick" '
                  'note="wits"/>', '<trait name="Phobia" note="spiders"/>\r\n      <trait name="Phobia" note="fire"/>',
                  '<trait name="Luck" val="2"/>\r\n      <trait name="Luck" val="3-4"/>'):
        assert entry in written, entry


def test_values_the_file_did_not_have_are_not_written_back_as_facts():
    """Issue 27 item 5: no Willpower, blood, Path, status or health chart in the file: none written back
    (the report lists them as missing); once the organiser sets Willpower, it is written."""
    record, _ = one('<vampire name="A" clan="Brujah" generation="12"/>')
    assert any(line.startswith("Willpower: not in the file") for line in record.missing)
    written = write_grapevine([record], TRACK).decode("cp1252")
    for attribute in ("willpower=", "blood=", "path=", "pathtraits=", "status="):
        assert attribute not in written, attribute
    assert "Health Levels" not in written
    record.sheet.willpower_permanent = 3
    assert 'willpower="3"' in write_grapevine([record], TRACK).decode("cp1252")


def test_a_ghoul_s_and_a_mortal_s_free_text_clan_come_back():
    """Issue 27 item 7: a mortal's or ghoul's clan is Grapevine's association (its MortalClass keeps it);
    a ghoul written as Grapevine's <vampire clan="Ghoul"> keeps it in larpclan, which Grapevine ignores."""
    mortal, _ = one('<mortal name="M" association="Ventrue (Ghoul)" blood="3"/>')
    assert (mortal.sheet.creature, mortal.sheet.clan) == ("ghoul", "Ventrue (Ghoul)")
    assert 'association="Ventrue (Ghoul)"' in write_grapevine([mortal], TRACK).decode("cp1252")
    ghoul, _ = one('<vampire name="G" clan="Ghoul" blood="2"/>')
    ghoul.sheet.clan = "Ventrue retainer"
    back = again(ghoul)
    assert (back.sheet.creature, back.sheet.clan) == ("ghoul", "Ventrue retainer")


def test_current_above_permanent_is_kept_and_reported():
    """Issue 27 item 8: blood 12 of 10 is said, not clamped silently, and written back."""
    record, _ = one('<vampire name="A" clan="Brujah" generation="13" blood="10" tempblood="12" willpower="3"/>')
    assert record.sheet.blood_current == 12
    assert "Current blood 12 is above the pool of 10; kept as in the file." in record.problems
    assert again(record).sheet.blood_current == 12


def test_inactive_is_retired_both_ways_on_creation_and_on_update(client, auth, runner, tmp_path, dbconn):
    """Issue 27 item 6: an Inactive character comes in retired, an Active one already here is retired by
    an Inactive file (the report says so), and a retired one is written back as Inactive."""
    output = cli_import(runner, tmp_path, "a.gex", gex('<vampire name="Ann" status="Inactive"/>',
                                                       '<vampire name="Bo" status="Active"/>'))
    assert "Will be retired (Grapevine status Inactive)" in output
    assert Character.get(Character.name == "Ann").retired_at is not None
    assert Character.get(Character.name == "Bo").retired_at is None
    output = cli_import(runner, tmp_path, "b.gex", gex('<vampire name="Bo" status="Inactive"/>'))
    assert "Will be retired" in output and Character.get(Character.name == "Bo").retired_at is not None
    target = tmp_path / "out.gex"
    assert runner.invoke(args=["export-grapevine", str(target), "--character", "Ann"]).exit_code == 0
    assert parse_grapevine(target.read_bytes()).characters[0].play_status == "Inactive"


def test_an_unsorted_list_keeps_its_order():
    """Issue 27 item 8: Disciplines and Equipment (Grapevine does not sort them) come back in the file's
    order, entries larp keeps aside (a journal, a power of no known level) in their places."""
    record, _ = one('<vampire name="A"><traitlist name="Disciplines" abc="no" atomic="yes" display="5">'
                    '<trait name="Celerity: Swiftness" val="6" note="int."/><trait name="Anarch: Give em Hell"/>'
                    '<trait name="Auspex: Heightened Senses" val="3" note="basic"/></traitlist>'
                    '<traitlist name="Equipment"><trait name="Journal"/><trait name="Knife"/>'
                    '<trait name="Vest" note="+0, 2 Armor Levels, Heavy"/><trait name="Pistol" note="+2, 2 Lethal, Loud"/>'
                    '</traitlist></vampire>')
    root = write_grapevine([record], TRACK).decode("cp1252")
    assert root.index("Celerity: Swiftness") < root.index("Anarch: Give em Hell") < root.index("Auspex: Heightened")
    assert root.index('"Journal"') < root.index('"Knife"') < root.index('"Vest"') < root.index('"Pistol"')


# --- what the export says, what the download is -------------------------------------------------


def test_the_export_says_what_grapevine_has_no_place_for(client, auth, runner, tmp_path, dbconn):
    """Issue 27 item 7: the CLI and the page before the download name what is not written: current
    damage, tabletop ratings, narrator notes, contact details; the download says its charset."""
    auth.login("boss", "organiser")
    character = Character.select().order_by(Character.name).first()
    Character.update(damage_lethal=2, tabletop={"Strength": 3}, narrator_notes="Secret",
                     player_contact="p@example.org").where(Character.id == character.id).execute()
    target = tmp_path / "out.gex"
    result = runner.invoke(args=["export-grapevine", str(target), "--character", character.name])
    assert result.exit_code == 0, result.output
    for text in ("Not written, Grapevine has no place for it:", f"Current damage ({character.name}: 2 lethal)",
                 f"Tabletop ratings: {character.name}.", f"Narrator notes (they stay in this chronicle): {character.name}.",
                 f"Players' contact details (they stay in this chronicle): {character.name}."):
        assert text in result.output, text
    page = client.get(f"/characters/{character.id}/grapevine").get_data(as_text=True)
    assert "Not in the file: Grapevine has no place for it" in page and "2 lethal" in page
    board = client.get("/board/grapevine").get_data(as_text=True)
    assert "Narrator notes (they stay in this chronicle)" in board and "/board/export.gex" in board
    download = client.get(f"/characters/{character.id}/grapevine.gex")
    assert download.headers["Content-Type"] == "application/xml; charset=windows-1252"
    assert download.data.startswith(b'<?xml version="1.0" encoding="windows-1252"?>')


@pytest.mark.skipif(not on_sqlite, reason="larp backup copies an SQLite file (PostgreSQL: pg_dump)")
def test_backup_on_a_full_disk_says_so_and_exits_1(runner, tmp_path, monkeypatch):
    """Issue 27 item 8: the disk fills during the copy: "The disk is full: the backup was not written",
    exit 1, no traceback, and no half-written file left behind."""
    from larp.services import backup

    real = sqlite3.connect

    class FillsTheDisk(sqlite3.Connection):
        """The live database, whose copy fills the disk half-way: a part written, then SQLite's error."""

        def backup(self, target, **kwargs):
            target.execute("CREATE TABLE half (x)")
            target.commit()
            raise sqlite3.OperationalError("database or disk is full")

    def connect(path, *args, **kwargs):
        if str(path).endswith("copy.sqlite3"):
            return real(path, *args, **kwargs)
        return real(path, *args, factory=FillsTheDisk, **kwargs)

    monkeypatch.setattr(backup.sqlite3, "connect", connect)
    target = tmp_path / "copy.sqlite3"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 1, (result.output, result.exception)
    assert result.output.strip() == "Error: The disk is full: the backup was not written."
    assert "Traceback" not in result.output and not target.exists()


def _can_mount() -> bool:
    from tests.web.test_disk_trouble import CAN_MOUNT

    return CAN_MOUNT


@pytest.mark.skipif(not on_sqlite or not _can_mount(), reason="needs to mount a tmpfs (root with the capability)")
def test_backup_onto_a_really_full_disk(runner, tmp_path):
    """The real thing: `larp backup` into a 64 kB tmpfs (the database is larger) ends with the sentence
    and exit 1, and leaves nothing on the full disk."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], check=True)
    try:
        result = runner.invoke(args=["backup", str(folder / "copy.sqlite3")])
        assert result.exit_code == 1, result.output
        assert "The disk is full: the backup was not written." in result.output and "Traceback" not in result.output
        assert list(Path(folder).iterdir()) == []
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)
