"""Export, import and backup of a chronicle (issue 7): `larp export FILE`, `larp import FILE`,
`larp backup [PATH]` and the board's download."""

from __future__ import annotations

import os

import json
import random
import sqlite3
from datetime import date

import pytest

from larp.models import Character, Chronicle, GameSession, Ruling, Torpor, TraitLoss
from larp.services.chronicles import get_chronicle

TODAY = date.today()


@pytest.fixture
def busy(app, dbconn, client, auth):
    """The demo after a fortnight, then a game night: a challenge (a Trait lost, damage), a wake
    attempt, healing, an undo and a changed setting, so every part of the export has rows."""
    from larp.services.challenges import request_from_json, run_challenge
    from larp.services.demo import apply_downtime_demo

    apply_downtime_demo(get_chronicle(), TODAY)
    auth.login("boss", "organiser")
    chronicle = get_chronicle()
    vivienne = Character.get(Character.name == "Vivienne Ashcombe")
    konrad = Character.get(Character.name == "Konrad Vale")
    run_challenge(chronicle, None, request_from_json({
        "category": "physical", "challenger": {"character_id": vivienne.id, "bid": "Quick"},
        "defender": {"character_id": konrad.id, "bid": "Brawny"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"},
                  {"call": "retest", "by": "defender", "source": "ability:Dodge",
                   "challenger_throw": "rock", "defender_throw": "paper"}]}), random.Random(1))
    pim = Character.get(Character.name == "Pim Halloran")
    client.post(f"/board/characters/{pim.id}/wake", data={"first_night": TODAY.isoformat(),
                                                          "player_throw": "rock", "narrator_throw": "scissors"})
    aldous = Character.get(Character.name == "Aldous Whitmore")
    client.post(f"/board/characters/{aldous.id}/heal", data={"levels": "1"})
    healing = Ruling.get(Ruling.kind == "healing")
    client.post(f"/characters/{aldous.id}/undo", data={"ruling": healing.id, "confirm": "yes"})
    client.post("/settings", data={"bruised_levels": "2"})
    return chronicle


def run(runner, *args):
    """Invoke a `larp` command; return the click result."""
    return runner.invoke(args=list(args))


def test_export_wipe_import_gives_the_same_export(busy, runner, tmp_path, dbconn):
    """A round trip loses nothing: export, delete the chronicle, import, export again: the two
    files are equal (chronicle, settings, game sessions, characters with sheets, state, card
    tokens and codes, Traits lost, rulings with participants, torpor records)."""
    first = tmp_path / "first.json"
    result = run(runner, "export", str(first))
    assert result.exit_code == 0, result.output
    assert "users are not exported" in result.output
    data = json.loads(first.read_text())
    assert data["format_version"] == 2 and data["settings"] == {"bruised_levels": 2}
    assert len(data["characters"]) == 10 and data["torpors"] and data["trait_losses"]
    assert any(r["undone_at"] for r in data["rulings"]) and any(r["participants"] for r in data["rulings"])
    pim = next(c for c in data["characters"] if c["name"] == "Pim Halloran")
    assert pim["card_token"] and pim["short_code"] and pim["traits"] and pim["abilities"]

    get_chronicle().delete_instance(recursive=True)
    assert Character.select().count() == 0 and Torpor.select().count() == 0 and Ruling.select().count() == 0

    result = run(runner, "import", str(first))
    assert result.exit_code == 0, result.output
    second = tmp_path / "second.json"
    assert run(runner, "export", str(second)).exit_code == 0
    assert json.loads(second.read_text()) == data
    assert Torpor.get(Torpor.cause == "blood_loss").character.name == "Ines Castellano"


def test_import_of_a_newer_format_is_refused_and_changes_nothing(busy, runner, tmp_path, dbconn):
    """A file from a newer export format is refused with a clear message, and nothing changes, even with --replace."""
    path = tmp_path / "future.json"
    run(runner, "export", str(path))
    data = json.loads(path.read_text())
    data["format_version"] = 3
    path.write_text(json.dumps(data))
    counts = (Chronicle.select().count(), Character.select().count(), Ruling.select().count())
    result = run(runner, "import", "--replace", str(path))
    assert result.exit_code != 0
    assert "format 3 by a newer larp" in result.output and "Update larp" in result.output
    assert (Chronicle.select().count(), Character.select().count(), Ruling.select().count()) == counts


def test_import_refuses_an_existing_chronicle_unless_replacing(busy, runner, tmp_path, dbconn):
    """An import never silently merges: into an install running a played chronicle it is refused,
    with the way to replace it, unless --replace restores the file in its place (issue 14)."""
    path = tmp_path / "chronicle.json"
    run(runner, "export", str(path))
    result = run(runner, "import", str(path))
    assert result.exit_code != 0 and "already runs the chronicle “Nights of Ashford (demo)”" in result.output
    assert "larp import --replace FILE" in result.output and "larp export FILE" in result.output
    assert Chronicle.select().count() == 1
    replaced = run(runner, "import", "--replace", str(path))
    assert replaced.exit_code == 0, replaced.output
    assert Chronicle.select().count() == 1 and Character.select().count() == 10
    assert TraitLoss.select().count() == 2 and GameSession.select().count() == 2


def test_import_of_something_else_is_refused(runner, tmp_path, dbconn):
    """A JSON file that is not an export, or no JSON at all, gets a clear message."""
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"hello": "world"}))
    result = run(runner, "import", str(path))
    assert result.exit_code != 0 and "not a larp chronicle export" in result.output
    path.write_text("{not json")
    assert "not a readable JSON file" in run(runner, "import", str(path)).output


def test_board_download_is_the_export(busy, client):
    """The board's download is the same JSON export, as an attachment named by chronicle and date."""
    response = client.get("/board/export")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    assert response.headers["Content-Disposition"].endswith(f'-{TODAY.isoformat()}.json"')
    data = response.get_json(force=True)
    assert data["format"] == "larp-chronicle" and len(data["characters"]) == 10


def test_backup_is_a_consistent_sqlite_copy(busy, runner, tmp_path):
    """`larp backup` copies the live database with SQLite's backup API, never overwrites a file, and its help says how to restore."""
    target = tmp_path / "copy.sqlite3"
    result = run(runner, "backup", str(target))
    if os.environ.get("LARP_TEST_DATABASE_URL"):  # the suite on PostgreSQL: refused, with the way to do it
        assert result.exit_code == 1 and "pg_dump" in result.output
        return
    assert result.exit_code == 0, result.output
    with sqlite3.connect(target) as con:
        assert con.execute("select count(*) from character").fetchone()[0] == 10
        assert con.execute("select count(*) from torpor").fetchone()[0] == 2
    again = run(runner, "backup", str(target))
    assert again.exit_code != 0 and "already exists" in again.output
    help_text = run(runner, "backup", "--help").output
    assert "To restore: stop larp" in help_text and "larp.sqlite3-wal" in help_text


def test_an_import_where_the_narrators_have_no_account_keeps_their_names(busy, runner, tmp_path, dbconn, client):
    """Issue 19 item 9: `larp import` into an installation without the narrators' accounts dropped every
    ruling's narrator; the ruling keeps the narrator's name, shown on the record, linked to no account."""
    from larp.models import User

    path = tmp_path / "chronicle.json"
    assert run(runner, "export", str(path)).exit_code == 0
    by_boss = {r.id for r in Ruling.select().where(Ruling.narrator.is_null(False))}
    assert by_boss
    get_chronicle().delete_instance(recursive=True)
    User.update(username="someone-else").where(User.username == "boss").execute()
    result = run(runner, "import", str(path))
    assert result.exit_code == 0, result.output
    assert "No user here is called boss" in result.output
    kept = list(Ruling.select().where(Ruling.narrator_name == "Boss"))
    assert len(kept) == len(by_boss) and all(r.narrator_id is None for r in kept)
    page = client.get(f"/rulings/{kept[0].id}").get_data(as_text=True)
    assert "by Boss" in page
