"""Schema migrations (issue 12): a chronicle's data survives every upgrade.

The fixture ``tests/fixtures/db-676dabd.sqlite3`` was made by commit 676dabd (the last commit
before migrations) with its ``create_tables``: the demo chronicle after ``demo-downtime``, a
challenge with a retest (Traits lost, an Ability level spent), healing, a changed setting, two
torpor records and two game sessions. ``db-676dabd.export.json`` is what 676dabd's
``larp export`` wrote from it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from peewee import CharField

from larp import create_app
from larp.cli import main
from larp.db import bind, db, sqlite_url
from larp.models import MODELS, Character, Ruling, Torpor, TraitLoss
from larp.schema import (
    BASELINE,
    HISTORY_TABLE,
    MIGRATIONS_DIR,
    SchemaError,
    inspect_schema,
    migration_names,
    schema_drift,
    upgrade,
)
from tests.support import AuthActions, empty_postgres, fresh_database_url
from tests.web.test_challenge_web import post

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD_DB = FIXTURES / "db-676dabd.sqlite3"
OLD_EXPORT = FIXTURES / "db-676dabd.export.json"
ROOT = Path(__file__).resolve().parents[2]

sqlite_only = pytest.mark.skipif(bool(os.environ.get("LARP_TEST_DATABASE_URL")),
                                 reason="runs on an SQLite file (the fixture is one); the engine-neutral tests run on both")


def old_instance(tmp_path: Path) -> Path:
    """An instance folder holding a copy of the 676dabd database as larp.sqlite3."""
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(OLD_DB, instance / "larp.sqlite3")
    return instance


def app_on(instance: Path, **config):
    settings = {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": sqlite_url(instance / "larp.sqlite3"),
                "INSTANCE_PATH": instance, "WTF_CSRF_ENABLED": False, "LOAD_DEMO": True,
                "RANDOM_SOURCE": lambda: random.Random(7)}
    settings.update(config)
    return create_app(settings)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def larp(*args: str, instance: Path, cwd: Path | None = None):
    """Run the ``larp`` command line in-process with the instance folder in the environment."""
    env = {"LARP_INSTANCE_PATH": str(instance), "LARP_DATABASE_URL": ""}
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


@sqlite_only
def test_the_676dabd_database_upgrades_and_keeps_everything(tmp_path):
    """The whole upgrade path on the fixture: recognised as 0001 without a rebuild, copied first,
    then a challenge, damage, the board and `larp export` work on it and nothing was lost."""
    instance = old_instance(tmp_path)
    before_rows = _row_counts(instance / "larp.sqlite3")
    app = app_on(instance)
    report = app.extensions["larp.schema"]
    assert report.adopted_baseline and report.repaired == []
    assert report.applied == [name for name in migration_names() if name != BASELINE]
    assert report.backup is not None and report.backup.parent == instance
    assert _logical_digest(report.backup) == _logical_digest(OLD_DB)

    # Nothing lost: the new export equals 676dabd's export of the same database.
    runner = app.test_cli_runner()
    exported = tmp_path / "after.json"
    result = runner.invoke(args=["export", str(exported)])
    assert result.exit_code == 0, result.output
    assert _comparable(json.loads(exported.read_text())) == _comparable(json.loads(OLD_EXPORT.read_text()))
    after_rows = {k: v for k, v in _row_counts(instance / "larp.sqlite3").items() if k != HISTORY_TABLE}
    assert {k: v for k, v in after_rows.items() if k in before_rows} == before_rows
    # Tables added since are empty, but for issue 22's memberships: every user of the fixture is a
    # member of its one chronicle with the role he had, and its organisers are administrators.
    assert all(v == 0 for k, v in after_rows.items() if k not in before_rows and k != "membership")
    con = sqlite3.connect(str(instance / "larp.sqlite3"))
    try:
        users = con.execute('SELECT id, role, is_admin FROM "user" ORDER BY id').fetchall()
        (chronicle,), = con.execute('SELECT id FROM "chronicle"').fetchall()
        members = con.execute("SELECT user_id, chronicle_id, role FROM membership ORDER BY user_id").fetchall()
    finally:
        con.close()
    assert users and members == [(uid, chronicle, role) for uid, role, _ in users]
    assert [bool(admin) for _, role, admin in users] == [role == "organiser" for _, role, _ in users]

    client = app.test_client()
    AuthActions(client).login("boss", "organiser", "correct horse")  # the fixture's organiser and password
    with db.connection_context():
        viv = Character.get(Character.name == "Vivienne Ashcombe")
        ines = Character.get(Character.name == "Ines Castellano")
        kon = Character.get(Character.name == "Konrad Vale")
        rulings = Ruling.select().count()
        losses = TraitLoss.select().count()
        assert Torpor.select().count() == 2
    # A challenge.
    response = post(client, challenger=viv.id, defender=kon.id, category="physical", action="strike",
                    defender_action="defend", challenger_bid="Graceful", defender_bid="Brawny",
                    challenger_throw="rock", defender_throw="scissors")
    assert response.status_code in (200, 303), response.get_data(as_text=True)[:500]
    # Damage by hand.
    response = client.post(f"/characters/{ines.id}/damage", data={"damage_type": "lethal", "levels": "1"})
    assert response.status_code in (200, 303), response.get_data(as_text=True)[:500]
    with db.connection_context():
        assert Ruling.select().count() == rulings + 2
        assert TraitLoss.select().count() == losses + 1
        assert Character.get_by_id(ines.id).damage_lethal == ines.damage_lethal + 1
    # The board, and the character page of a torpid vampire.
    board = client.get("/board")
    assert board.status_code == 200 and "Pim Halloran" in board.get_data(as_text=True)
    page = client.get(f"/characters/{ines.id}")
    assert page.status_code == 200 and "Ines Castellano" in page.get_data(as_text=True)
    record = client.get("/rulings")
    assert record.status_code == 200 and "Ines Castellano" in record.get_data(as_text=True)
    assert client.get(f"/characters/{ines.id}/history").status_code == 200


def _row_counts(path: Path) -> dict[str, int]:
    con = sqlite3.connect(str(path))
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                            "AND name NOT LIKE 'sqlite_%'")]
        return {t: con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}
    finally:
        con.close()


def _logical_digest(path: Path) -> str:
    con = sqlite3.connect(str(path))
    try:
        return hashlib.sha256("\n".join(con.iterdump()).encode()).hexdigest()
    finally:
        con.close()


def _comparable(export: dict) -> dict:
    """An export in format 1's shape: without what format 2 (issue 14) adds (the whole sheet,
    retirement, scene extras, the weapon in hand, the experience log; issue 20's data kept from a
    Grapevine import), nor the rulings' ``narrator_name`` (issue 19), nor what format 3 (issue 27) adds
    (blood marked, medical care, a card's revocation, the chronicle's archiving), nor issue 32's check-ins
    and attendance."""
    for ruling in export.get("rulings", []):
        ruling.pop("narrator_name", None)
    if export.get("format_version", 1) == 1:
        return export
    export["chronicle"].pop("archived_at", None)
    added = ("weapon", "nature", "demeanor", "virtues", "derangements", "retired_at", "scene_extra", "backgrounds",
             "merits_flaws", "equipment", "imported_unused", "agg_blood_marked", "treated", "card_revoked_at",
             "sheet_edition", "sheet_printed_at", "sheet_printed_edition",  # issue 34: the printed sheet
             "frenzy")  # issue 30 item 8
    out = {k: v for k, v in export.items()
           if k not in ("experience", "check_ins", "attendance", "scenes", "scene_rulings",
                        "spend_requests", "between_game_actions")}  # issues 32, 30, 33
    out["format_version"] = 1
    out["characters"] = []
    for character in export["characters"]:
        kept = {k: v for k, v in character.items() if k not in added}
        kept["abilities"] = [row[:2] for row in character["abilities"]]
        kept["powers"] = [row[:3] for row in character["powers"]]
        out["characters"].append(kept)
    return out


@sqlite_only
def test_the_backup_beside_the_file_is_the_database_before_the_upgrade(tmp_path):
    """On SQLite the file is copied beside itself before the upgrade touches it."""
    instance = old_instance(tmp_path)
    dump_before = _logical_digest(instance / "larp.sqlite3")
    report = app_on(instance).extensions["larp.schema"]
    assert report.backup.name.startswith("larp-before-upgrade-") and report.backup.suffix == ".sqlite3"
    assert _logical_digest(report.backup) == dump_before
    assert _logical_digest(instance / "larp.sqlite3") != dump_before  # the history table was added


@sqlite_only
def test_a_database_from_before_the_request_token_column_gets_it(tmp_path):
    """A database made one commit before Ruling.request_token (dc41b23) lacks only that column:
    it is given it, then recorded at 0001, and a ruling with a token can be stored."""
    instance = old_instance(tmp_path)
    con = sqlite3.connect(str(instance / "larp.sqlite3"))
    index = con.execute("SELECT name FROM sqlite_master WHERE type='index' AND tbl_name='ruling' "
                        "AND sql LIKE '%request_token%'").fetchone()
    con.execute(f'DROP INDEX "{index[0]}"')
    con.execute("ALTER TABLE ruling DROP COLUMN request_token")
    con.commit()
    con.close()
    report = app_on(instance).extensions["larp.schema"]
    assert report.adopted_baseline and report.repaired == ["ruling.request_token"]
    with db.connection_context():
        assert schema_drift(db, MODELS) == []
        ruling = Ruling.select().first()
        ruling.request_token = "abc"
        ruling.save()


@sqlite_only
def test_a_database_with_columns_no_larp_makes_is_refused_untouched(tmp_path):
    instance = old_instance(tmp_path)
    con = sqlite3.connect(str(instance / "larp.sqlite3"))
    con.execute("ALTER TABLE character ADD COLUMN mood TEXT")
    con.commit()
    con.close()
    before = digest(instance / "larp.sqlite3")
    with pytest.raises(SchemaError, match="character.mood"):
        app_on(instance)
    assert digest(instance / "larp.sqlite3") == before
    assert not list(instance.glob("*before-upgrade*"))


def test_a_database_newer_than_the_code_is_refused_untouched(tmp_path):
    """A migration in the history that this code does not have: refused, nothing changed."""
    url = fresh_database_url(tmp_path)
    database = bind(url)
    with db.connection_context():
        upgrade(database)
        database.execute_sql(f'INSERT INTO "{HISTORY_TABLE}" (name, applied) VALUES (%s, %s)'
                             .replace("%s", database.param), ("9999_from_the_future", "2030-01-01 00:00:00"))
        tables_before = sorted(database.get_tables())
    with pytest.raises(SchemaError, match="newer version of larp.*9999_from_the_future.*not changed"):
        create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": url, "INSTANCE_PATH": tmp_path / "i",
                    "LOAD_DEMO": True})
    database = bind(url)
    with db.connection_context():
        assert sorted(database.get_tables()) == tables_before
        assert not Character.table_exists() or Character.select().count() == 0  # no demo was loaded


def test_a_failed_migration_leaves_the_database_as_it_was(tmp_path):
    """Every pending migration runs in one transaction: the second one failing undoes the first."""
    url = fresh_database_url(tmp_path)
    database = bind(url)
    with db.connection_context():
        upgrade(database)
    migrations = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, migrations, ignore=shutil.ignore_patterns("__pycache__"))
    next_number = len(migration_names()) + 1
    (migrations / f"{next_number:04d}_add_mood.py").write_text(
        '"""Adds a column."""\nfrom peewee import TextField\n\n\n'
        "def up(migrator, db):\n    migrator.migrate(migrator.add_column('character', 'mood', TextField(default='')))\n")
    (migrations / f"{next_number + 1:04d}_broken.py").write_text(
        '"""Fails halfway."""\n\n\ndef up(migrator, db):\n'
        "    db.execute_sql('CREATE TABLE half_done (id INTEGER)')\n    raise RuntimeError('a bug in a migration')\n")
    with db.connection_context():
        with pytest.raises(SchemaError, match="a bug in a migration.*rolled back: nothing was changed"):
            upgrade(database, directory=migrations)
        assert "mood" not in [c.name for c in database.get_columns("character")]
        assert "half_done" not in database.get_tables()
        assert inspect_schema(database, migrations).pending == (f"{next_number:04d}_add_mood",
                                                                f"{next_number + 1:04d}_broken")
        assert inspect_schema(database).current


def test_the_models_and_the_migrations_agree(tmp_path):
    """The schema the migrations build is the schema the models describe (tables, columns,
    indexes; on SQLite also types, NOT NULL and foreign keys). A model change without its
    migration fails here."""
    database = bind(fresh_database_url(tmp_path))
    with db.connection_context():
        upgrade(database)
        assert schema_drift(database, MODELS) == []


def test_the_agreement_check_fails_on_a_model_change_without_migration(tmp_path):
    """The check above is not vacuous: a column added to a model, and (on SQLite) a changed
    column size, are both reported."""
    database = bind(fresh_database_url(tmp_path))
    field = CharField(max_length=40, default="")
    with db.connection_context():
        upgrade(database)
        Character._meta.add_field("nickname", field)
        try:
            assert "add column character.nickname" in schema_drift(database, MODELS)
        finally:
            Character._meta.remove_field("nickname")
        if database.__class__.__name__.startswith("Sqlite"):
            name_field = Character._meta.fields["name"]
            old = name_field.max_length
            name_field.max_length = 60
            try:
                drift = schema_drift(database, MODELS)
            finally:
                name_field.max_length = old
            assert any("character.name" in line and "VARCHAR(60)" in line for line in drift)
        assert schema_drift(database, MODELS) == []


@sqlite_only
def test_larp_db_status_and_upgrade_by_hand(tmp_path):
    """`larp db status` changes nothing and exits 1 while a migration is pending; `larp db upgrade`
    applies it (after the copy) and says what it did; then status is up to date."""
    instance = old_instance(tmp_path)
    before = digest(instance / "larp.sqlite3")
    status = larp("db", "status", instance=instance)
    assert status.exit_code == 1
    assert "Made before migrations existed" in status.output and "pending" in status.output
    assert digest(instance / "larp.sqlite3") == before
    result = larp("db", "upgrade", instance=instance)
    assert result.exit_code == 0, result.output
    assert "Recognised a database from before migrations as 0001_initial." in result.output
    assert "Copied the database to" in result.output
    status = larp("db", "status", instance=instance)
    assert status.exit_code == 0 and "Up to date." in status.output and "[x] 0001_initial" in status.output
    again = larp("db", "upgrade", instance=instance)
    assert again.exit_code == 0 and "Already up to date" in again.output


@sqlite_only
def test_commands_that_find_no_database_create_none(tmp_path):
    """Every command but `larp serve` (export, backup, import, import-grapevine, export-grapevine, create-user,
    login-link, demo-downtime, db upgrade, db status, routes) in a folder with no instance: the
    database it looked for is named, the exit code is not 0, and no instance folder appears."""
    instance = tmp_path / "instance"
    chronicle_file = tmp_path / "chronicle.json"
    chronicle_file.write_text("{}")
    grapevine_file = tmp_path / "chronicle.gex"
    grapevine_file.write_text("<?xml version='1.0'?><grapevine/>")
    commands = (["export", str(tmp_path / "out.json")], ["backup"], ["db", "upgrade"], ["db", "status"],
                ["login-link"], ["create-user", "someone", "--password", "long enough password"],
                ["import", str(chronicle_file)], ["import-grapevine", "--yes", str(grapevine_file)],
                ["export-grapevine", str(tmp_path / "out.gex")],
                ["demo-downtime"], ["routes"])
    from larp.cli_commands import APP_COMMANDS

    covered = {args[0] for args in commands}
    assert {command.name for command in APP_COMMANDS} <= covered, "add the new command to this test"
    for args in commands:
        result = larp(*args, instance=instance)
        assert result.exit_code != 0, args
        assert str(instance / "larp.sqlite3") in result.output, result.output
    assert not instance.exists()
    assert not (tmp_path / "out.json").exists()
    help_text = larp("--help", instance=instance)
    assert help_text.exit_code == 0 and "serve" in help_text.output and "export" in help_text.output
    assert not instance.exists()


@sqlite_only
def test_larp_import_restores_an_export_on_a_new_install(tmp_path):
    """Issue 27: a backup restores "on a fresh install with larp import": with no instance folder yet,
    `larp import` of a larp export makes the database without loading the demo first, and the
    export of the restored chronicle is the file again; a file that is no export still creates nothing
    (test_commands_that_find_no_database_create_none)."""
    source = tmp_path / "source"
    assert larp("import", str(OLD_EXPORT), instance=source).exit_code == 0
    exported = tmp_path / "exported.json"
    assert larp("export", str(exported), instance=source).exit_code == 0
    fresh = tmp_path / "fresh"
    result = larp("import", str(exported), instance=fresh)
    assert result.exit_code == 0, result.output
    assert "is a new chronicle" in result.output  # the export is the install's chronicle...
    assert "demo" not in result.output.replace("Nights of Ashford (demo)", "")  # ...no demo loaded to be replaced
    again = tmp_path / "again.json"
    assert larp("export", str(again), instance=fresh).exit_code == 0
    first, second = json.loads(exported.read_text()), json.loads(again.read_text())
    first.pop("exported_at", None), second.pop("exported_at", None)
    assert second == first and len(second["characters"]) == 10
    link = larp("login-link", instance=fresh)
    assert link.exit_code == 0 and "/login/link/" in link.output


@sqlite_only
def test_larp_serve_upgrades_first_and_prints_what_it_applied(tmp_path):
    """`larp serve` on the 676dabd database: the upgrade and its copy are printed before it serves."""
    instance = old_instance(tmp_path)
    env = dict(os.environ, LARP_INSTANCE_PATH=str(instance), PYTHONUNBUFFERED="1")
    env.pop("LARP_DATABASE_URL", None)
    from tests.servers import free_port

    process = subprocess.Popen([sys.executable, "-m", "larp", "serve", "--port", str(free_port())], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip())
            if "serving on" in line:
                break
    finally:
        process.terminate()
        process.wait(timeout=10)
    text = "\n".join(lines)
    assert "larp: copied the database to" in text
    assert "larp: recognised a database from before migrations as 0001_initial" in text
    assert text.index("recognised") < text.index("serving on")


def test_a_676dabd_database_on_either_engine_is_adopted_without_a_rebuild(tmp_path):
    """676dabd made its tables with create_tables on SQLite and PostgreSQL alike: such a database
    (no history table) is recorded at 0001 and its rows stay where they are."""
    from larp.schema import baseline_models

    url = os.environ.get("LARP_TEST_DATABASE_URL")
    if url:
        empty_postgres(url)  # start from nothing, as 676dabd did
    else:
        url = sqlite_url(tmp_path / "empty.db")
    database = bind(url)
    with db.connection_context():
        models = baseline_models(database)
        database.create_tables(models)
        chronicle = next(m for m in models if m._meta.table_name == "chronicle")
        chronicle.create(name="Old chronicle", created_at="2026-11-29 20:00:00")
        state = inspect_schema(database)
        assert state.legacy and not state.empty
        report = upgrade(database)
        assert report.adopted_baseline and report.repaired == []
        assert inspect_schema(database).current
        assert [row[0] for row in database.execute_sql("SELECT name FROM chronicle")] == ["Old chronicle"]
        assert schema_drift(database, MODELS) == []
