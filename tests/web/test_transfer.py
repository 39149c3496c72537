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

def today():
    """The date now, read at each use: a module-level date goes stale when the suite runs across midnight."""
    return date.today()


@pytest.fixture
def busy(app, dbconn, client, auth):
    """The demo after a fortnight, then a game night: a challenge (a Trait lost, damage), a wake
    attempt, healing, an undo and a changed setting, so every part of the export has rows."""
    from larp.web.combat_requests import request_from_json
    from larp.services.challenges import run_challenge
    from larp.services.demo import apply_downtime_demo

    apply_downtime_demo(get_chronicle(), today())
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
    client.post(f"/board/characters/{pim.id}/wake", data={"first_night": today().isoformat(),
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
    assert data["format_version"] == 3 and data["settings"] == {"bruised_levels": 2}
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
    data["format_version"] = 4
    path.write_text(json.dumps(data))
    counts = (Chronicle.select().count(), Character.select().count(), Ruling.select().count())
    result = run(runner, "import", "--replace", "Nights of Ashford (demo)", str(path))
    assert result.exit_code != 0
    assert "format 4 by a newer larp" in result.output and "Update larp" in result.output
    assert (Chronicle.select().count(), Character.select().count(), Ruling.select().count()) == counts


def test_import_refuses_a_name_clash_and_replace_name_keeps_the_members(busy, runner, tmp_path, dbconn):
    """Issue 22: an import never mixes two chronicles. A file whose chronicle has the name of one here
    is refused (409), saying how to replace it; `--replace NAME` deletes that chronicle and puts the
    file in its place, its members keeping their roles and its pages their address (its id: new user 12 found
    every open page a bare Not Found after a replace), and leaves the other chronicles alone."""
    from larp.models import Membership, User
    from larp.services.memberships import create_chronicle, role_in

    path = tmp_path / "chronicle.json"
    run(runner, "export", str(path))
    other = create_chronicle("Nights of Lyon", today())
    result = run(runner, "import", str(path))
    assert result.exit_code != 0 and "“Nights of Ashford (demo)” is already on this install" in result.output
    assert 'larp import --replace "Nights of Ashford (demo)" FILE' in result.output
    assert Chronicle.select().count() == 2
    boss = User.get(User.username == "boss")
    assert role_in(boss, busy) == "organiser"
    members = Membership.select().where(Membership.chronicle == busy.id).count()
    replaced = run(runner, "import", "--replace", "Nights of Ashford (demo)", str(path))
    assert replaced.exit_code == 0, replaced.output
    assert "its members keep their roles" in replaced.output
    new = Chronicle.get(Chronicle.name == "Nights of Ashford (demo)")
    assert new.id == busy.id and role_in(boss, new) == "organiser"
    assert Character.select().where(Character.chronicle == new).count() == 10
    assert TraitLoss.select().count() == 2 and GameSession.select().where(GameSession.chronicle == new).count() == 2
    assert Chronicle.get_by_id(other.id).name == "Nights of Lyon" and Chronicle.select().count() == 2
    assert Membership.select().where(Membership.chronicle == busy.id).count() == members
    missing = run(runner, "import", "--replace", "Nowhere", str(path))
    assert missing.exit_code != 0 and "no chronicle called “Nowhere”" in missing.output and "Nights of Lyon" in missing.output


def test_an_import_beside_a_played_chronicle_is_a_new_one_with_its_tokens_reissued(busy, runner, tmp_path, dbconn):
    """Issue 22: an import into an install whose chronicle is in use makes a NEW chronicle beside it
    (the played one untouched), organised by the install's administrators. Card codes are unique
    per chronicle, so the copy keeps them; card tokens open a character from any chronicle, so the
    copy's tokens that clash get new ones, and the output says whose cards to print again."""
    from larp.models import User
    from larp.services.memberships import role_in

    path = tmp_path / "copy.json"
    run(runner, "export", str(path))
    data = json.loads(path.read_text())
    data["chronicle"]["name"] = "Ashford, a copy"
    path.write_text(json.dumps(data))
    User.update(is_admin=True).where(User.username == "boss").execute()
    before = {c.short_code: c.card_token for c in Character.select().where(Character.chronicle == busy)}
    result = run(runner, "import", str(path))
    assert result.exit_code == 0, result.output
    assert "is a new chronicle, beside 1 other" in result.output
    assert "organisers are the install's administrators: boss" in result.output
    assert "10 card tokens" in result.output and "Print their cards again" in result.output
    copy = Chronicle.get(Chronicle.name == "Ashford, a copy")
    assert role_in(User.get(User.username == "boss"), copy) == "organiser"
    copied = {c.short_code: c.card_token for c in Character.select().where(Character.chronicle == copy)}
    assert set(copied) == set(before) and not set(copied.values()) & set(before.values())
    assert {c.short_code: c.card_token for c in Character.select().where(Character.chronicle == busy)} == before
    assert Ruling.select().where(Ruling.chronicle == busy).count() == len(data["rulings"])


def test_export_names_its_chronicle_when_there_are_several(busy, runner, tmp_path, dbconn):
    """Issue 22: `larp export --chronicle NAME` exports that chronicle; without it, an install of
    several chronicles gets an error listing their names, and no file."""
    from larp.services.memberships import create_chronicle

    create_chronicle("Nights of Lyon", today())
    path = tmp_path / "out.json"
    refused = run(runner, "export", str(path))
    assert refused.exit_code != 0 and "several chronicles" in refused.output
    assert "“Nights of Ashford (demo)”, “Nights of Lyon”" in refused.output and not path.exists()
    lyon = run(runner, "export", "--chronicle", "Nights of Lyon", str(path))
    assert lyon.exit_code == 0, lyon.output
    data = json.loads(path.read_text())
    assert data["chronicle"]["name"] == "Nights of Lyon" and data["characters"] == []
    assert run(runner, "export", "--chronicle", "Nights of Ashford (demo)", str(path)).exit_code == 0
    assert len(json.loads(path.read_text())["characters"]) == 10
    assert "no chronicle called “Paris”" in run(runner, "export", "--chronicle", "Paris", str(path)).output


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
    before = today()
    response = client.get("/board/export")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    assert response.headers["Content-Disposition"].endswith((f'-{before.isoformat()}.json', f'-{today().isoformat()}.json'))
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
    # An administrator organises the chronicle the import makes, so he can open it.
    User.update(username="someone-else", is_admin=True).where(User.username == "boss").execute()
    result = run(runner, "import", str(path))
    assert result.exit_code == 0, result.output
    assert "No user here is called boss" in result.output
    kept = list(Ruling.select().where(Ruling.narrator_name == "Boss"))
    assert len(kept) == len(by_boss) and all(r.narrator_id is None for r in kept)
    page = client.get(f"/rulings/{kept[0].id}").get_data(as_text=True)
    assert "by Boss" in page
