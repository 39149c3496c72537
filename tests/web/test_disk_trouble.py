"""A full disk, read-only files, a busy database (issue 19 items 3 and 7): reads keep working, a write
that cannot be made is a clear 503 saying so (never a 500), and nothing is half-applied.

How each is made here:
- read-only: a read-only tmpfs mount holding a copy of the database when the tests may mount
  (root in a container with the capability), else a copy with its write permissions removed
  (which binds any user but root); engine-neutral: the connection set read-only
  (SQLite ``PRAGMA query_only``, PostgreSQL ``SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY``);
- a full disk: a tiny tmpfs filled to the last byte when the tests may mount, and everywhere
  SQLite's ``PRAGMA max_page_count`` pinned to the file's size with its last free bytes filled;
- busy: a second connection holding SQLite's write lock past a short busy timeout.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from larp.db import FULL, SQLITE_PRAGMAS, database_trouble, db, sqlite_url
from larp.models import Character, Ruling
from tests.support import make_test_app

on_sqlite = not os.environ.get("LARP_TEST_DATABASE_URL")
sqlite_only = pytest.mark.skipif(not on_sqlite, reason="SQLite files; the engine-neutral tests run on both")


def _can_mount() -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    probe = Path("/tmp") / f"larp-mount-probe-{os.getpid()}"
    probe.mkdir(exist_ok=True)
    ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(probe)],
                        capture_output=True).returncode == 0
    if ok:
        subprocess.run(["umount", str(probe)], check=True)
    probe.rmdir()
    return ok


CAN_MOUNT = on_sqlite and _can_mount()


@contextmanager
def tmpfs(folder: Path, size: str):
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        if not db.is_closed():
            db.close()
        subprocess.run(["umount", "-l", str(folder)], check=True)


def closed_copy(source_url: str, target: Path) -> None:
    """Copy the SQLite database at ``source_url`` to ``target`` as a cleanly closed file (no -wal, no -shm)."""
    if not db.is_closed():
        db.close()
    source = sqlite3.connect(source_url.removeprefix("sqlite:///"))
    dest = sqlite3.connect(str(target))
    source.backup(dest)
    dest.execute("PRAGMA journal_mode = wal")
    dest.close()
    source.close()
    for extra in ("-wal", "-shm"):
        assert not Path(f"{target}{extra}").exists()


@contextmanager
def read_only_copy(tmp_path: Path, source_url: str):
    """A read-only folder holding a cleanly closed copy of the database; yields its path."""
    folder = tmp_path / "readonly"
    if CAN_MOUNT:
        with tmpfs(folder, "16m"):
            closed_copy(source_url, folder / "larp.sqlite3")
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
            yield folder / "larp.sqlite3"
        return
    if os.geteuid() == 0:
        pytest.skip("root without mount privileges: nothing can make a file read-only for root")
    folder.mkdir()
    closed_copy(source_url, folder / "larp.sqlite3")
    (folder / "larp.sqlite3").chmod(0o444)
    folder.chmod(0o555)
    try:
        yield folder / "larp.sqlite3"
    finally:
        folder.chmod(0o755)


def login(client, username="boss", role="organiser"):
    from tests.support import AuthActions

    return AuthActions(client).login(username, role)




def reads_work(client, character: Character) -> None:
    """The character page, the player's card and the record all answer."""
    assert client.get(f"/characters/{character.id}").status_code == 200
    assert client.get(f"/C/{character.card_token}").status_code == 200
    assert client.get("/rulings").status_code == 200


def damage(client, character: Character, htmx=False):
    return client.post(f"/characters/{character.id}/damage", data={"damage_type": "lethal", "levels": "1"},
                       headers={"HX-Request": "true"} if htmx else {})


def reads_and_refuses_a_change(app, session_cookie: str, why: str) -> None:
    """With an organiser's session (made before the database was copied: logging in is not what these
    tests are about), every page reads, and a change (damage, plain and htmx) is a 503 saying ``why``,
    with nothing recorded. (Issue 28: the tests tried only a wrong password, a 401, so the 503 they
    promise was never shown.)"""
    client = app.test_client()
    client.set_cookie("session", session_cookie)
    with db.connection_context():
        character = Character.select().order_by(Character.id).first()
        before = counts()
    reads_work(client, character)
    for htmx in (False, True):
        response = damage(client, character, htmx=htmx)
        assert response.status_code == 503, response.get_data(as_text=True)[:300]
        assert why in response.get_data(as_text=True)
    with db.connection_context():
        assert counts() == before


def counts():
    return Ruling.select().count(), [(c.id, c.damage_lethal, c.version) for c in Character.select().order_by(Character.id)]


def test_no_connection_writes_when_it_opens_and_the_file_is_in_wal_mode(app, dbconn):
    """Issue 19 item 7: the per-connection pragmas write nothing (no ``journal_mode``); WAL is set once, in the file."""
    assert "journal_mode" not in SQLITE_PRAGMAS
    if on_sqlite:
        assert dbconn.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_read_only_connection_reads_and_refuses_writes_with_a_503_on_either_engine(app, client, dbconn):
    """Issue 19 item 7 (engine-neutral): writes refused by the database give a 503 that says the
    database is read-only, for pages, htmx fragments and the JSON API; reads answer 200."""
    login(client)
    character = Character.select().order_by(Character.id).first()
    before = counts()
    if on_sqlite:
        dbconn.execute_sql("PRAGMA query_only = 1")
    else:
        dbconn.execute_sql("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    reads_work(client, character)
    page = damage(client, character)
    assert page.status_code == 503 and page.headers["Retry-After"]
    assert "read-only" in page.get_data(as_text=True) and "nothing was recorded" in page.get_data(as_text=True)
    fragment = damage(client, character, htmx=True)
    assert fragment.status_code == 503 and "<html" not in fragment.get_data(as_text=True)
    api = client.post(f"/api/v1/characters/{character.id}/damage", json={"levels": 1})
    assert api.status_code == 503 and "read-only" in api.get_json()["error"]
    assert counts() == before


@sqlite_only
def test_a_full_disk_keeps_reads_and_says_the_disk_is_full(app, client, dbconn):
    """Issue 19 item 7: the database may not grow (``max_page_count`` at its size, its last free space
    filled): a ruling is a 503 "disk is full", every read still answers, nothing is half-applied."""
    login(client)
    character = Character.select().order_by(Character.id).first()
    before = counts()
    pages = dbconn.execute_sql("PRAGMA page_count").fetchone()[0]
    dbconn.execute_sql(f"PRAGMA max_page_count = {pages}")
    filler = character.chronicle  # (one chronicle per install: the filler rulings go into it)
    size = 4000
    while size:  # take every free byte the pages still have, so the next ruling needs a new page
        try:
            with dbconn.atomic():
                Ruling.create(chronicle=filler, kind="filler", summary="x" * size)
        except Exception as exc:  # peewee.OperationalError: database or disk is full
            assert database_trouble(exc) == FULL, exc
            size //= 2
    before = counts()
    reads_work(client, character)
    response = damage(client, character)
    assert response.status_code == 503
    assert "disk is full" in response.get_data(as_text=True)
    assert counts() == before


@pytest.mark.skipif(not CAN_MOUNT, reason="needs to mount a tmpfs (root with the capability)")
def test_a_really_full_disk_after_a_restart_still_reads(tmp_path):
    """Issue 19 item 7, the real thing: a cleanly closed database on a tmpfs filled to the last byte.
    SQLite cannot make the WAL index there, so the normal open fails even to read; larp reopens the
    file read-only, pages answer, and a write is a 503 saying the disk is full."""
    source = make_test_app(tmp_path / "source")
    source_url = source.config["DATABASE_URL"]
    cookie_client = source.test_client()
    assert login(cookie_client).status_code == 303  # the organiser's session, made before the disk filled up
    folder = tmp_path / "full"
    with tmpfs(folder, "8m"):
        closed_copy(source_url, folder / "larp.sqlite3")
        try:
            with open(folder / "filler", "wb") as fh:
                while True:
                    fh.write(b"\0" * 65536)
                    fh.flush()
        except OSError:  # no space left on device: the disk is full to the last byte
            pass
        app = make_test_app(tmp_path / "app", DATABASE_URL=sqlite_url(folder / "larp.sqlite3"))
        reads_and_refuses_a_change(app, cookie_client.get_cookie("session").value, "disk is full")


@sqlite_only
def test_a_read_only_copy_is_served_read_only(tmp_path, app):
    """Issue 19 item 7: a copy of the database on read-only files (a clean copy: no -wal, no -shm):
    every page reads, every change is a 503 saying the files are read-only, the file is untouched."""
    source = app.test_client()
    assert login(source).status_code == 303  # the organiser's session, made before the copy
    session_cookie = source.get_cookie("session").value
    with read_only_copy(tmp_path, app.config["DATABASE_URL"]) as path:
        before = path.read_bytes()
        ro_app = make_test_app(tmp_path / "ro", DATABASE_URL=sqlite_url(path), LOAD_DEMO=True)
        reads_and_refuses_a_change(ro_app, session_cookie, "read-only")
        assert path.read_bytes() == before


@sqlite_only
def test_larp_serve_on_read_only_files_starts_with_a_clear_message(tmp_path, app, monkeypatch):
    """Issue 19 item 7: `larp serve` where the database is read-only: one plain line saying it serves
    read-only, then it serves (no traceback, no login link it could not store)."""
    from click.testing import CliRunner

    from larp import serving
    from larp.cli import main

    served = []
    monkeypatch.setattr(serving, "serve", lambda app, **kw: served.append(kw))
    with read_only_copy(tmp_path, app.config["DATABASE_URL"]) as path:
        instance = tmp_path / "instance-ro"
        instance.mkdir()
        (instance / "config.py").write_text("SECRET_KEY = 'x'\n")
        result = CliRunner().invoke(main, ["serve", "--port", "1"], catch_exceptions=False,
                                    env={"LARP_INSTANCE_PATH": str(instance),
                                         "LARP_DATABASE_URL": sqlite_url(path)})
    assert result.exit_code == 0, result.output
    assert "serving it READ-ONLY" in result.output and "read-only" in result.output
    assert "Traceback" not in result.output and "login link" not in result.output.lower()
    assert served


@sqlite_only
def test_a_ruling_that_waits_for_a_long_import_is_a_503_try_again(tmp_path):
    """Issue 19 item 3: while another connection holds the write lock (a long import) past the busy
    timeout, a ruling answers 503 "busy with an import: try again in a moment" (htmx: a fragment),
    never a 500 "database is locked"; nothing is recorded."""
    app = make_test_app(tmp_path)
    database_url = app.config["DATABASE_URL"]
    db.obj._timeout = 0.2  # the busy timeout, seconds (10 s in production)
    client = app.test_client()
    login(client)
    with db.connection_context():
        character = Character.select().order_by(Character.id).first()
        before = counts()
    holder = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        response = damage(client, character, htmx=True)
        assert response.status_code == 503
        body = response.get_data(as_text=True)
        assert "busy with an import" in body and "try again in a moment" in body and "<html" not in body
        # htmx leaves the screen as it is (the form keeps its input) and shows the retry banner.
        assert response.headers["HX-Reswap"] == "none"
        assert "tap the same button again" in json.loads(response.headers["HX-Trigger"])["larp:retry"]["message"]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with db.connection_context():
        assert counts() == before
    assert damage(client, character).status_code in (200, 303)
