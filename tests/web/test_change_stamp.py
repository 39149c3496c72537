"""A request's user is remembered from one request to the next only until anything is committed to the
database, by any connection of any process (issue 29 item 6, a light request; larp.change_stamp).

Every other test of sessions and access runs through the same remembering (the test apps on SQLite keep
a change stamp, as ``larp serve`` does): these check what only another process can do, a change made
beside the server, and that a read alone changes nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from larp.db import sqlite_path
from tests.support import AuthActions

on_sqlite = not os.environ.get("LARP_TEST_DATABASE_URL")
sqlite_only = pytest.mark.skipif(not on_sqlite, reason="SQLite's WAL index; PostgreSQL reads the user every request")


def other_process(app, sql: str) -> None:
    """Run ``sql`` in another Python process on the app's SQLite file, committed (a second ``larp serve``,
    a command, or a tool beside the server)."""
    path = sqlite_path(app.config["DATABASE_URL"])
    script = ("import sqlite3, sys\n"
              "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
              "c.execute(sys.argv[2]).fetchall()\n"
              "c.close()\n")
    subprocess.run([sys.executable, "-c", script, str(path), sql], check=True, timeout=30)


def test_the_app_keeps_a_change_stamp_on_sqlite_and_none_on_postgresql(app):
    """The test apps remember the session user exactly where ``larp serve`` does: on SQLite in WAL mode."""
    assert (app.extensions["larp.change_stamp"] is not None) == on_sqlite


@sqlite_only
def test_a_commit_by_another_process_changes_the_stamp_and_a_read_does_not(app):
    stamp = app.extensions["larp.change_stamp"]
    before = stamp.read()
    other_process(app, 'SELECT count(*) FROM "user"')
    assert stamp.read() == before
    other_process(app, 'UPDATE "chronicle" SET name = name')  # a commit, even of nothing new
    assert stamp.read() != before


@sqlite_only
def test_log_out_everywhere_from_another_process_ends_the_session_at_the_next_request(app, client):
    """The user is remembered between requests (no query), and the first request after another process
    moved his session generation on is logged out."""
    AuthActions(client).login("nara", "narrator")
    assert client.get("/account").status_code == 200
    kept = len(app.extensions["larp.change_stamp"].kept)
    assert client.get("/account").status_code == 200
    assert kept >= 1 and len(app.extensions["larp.change_stamp"].kept) == kept  # answered from what was kept
    other_process(app, 'UPDATE "user" SET session_generation = session_generation + 1 WHERE username = \'nara\'')
    assert client.get("/account").status_code == 302


@sqlite_only
def test_a_deactivation_or_removal_from_the_chronicle_by_another_process_takes_effect_at_once(app, client):
    AuthActions(client).login("nara", "narrator")
    assert client.get("/characters").status_code == 200
    other_process(app, 'DELETE FROM "membership" WHERE user_id = (SELECT id FROM "user" WHERE username = \'nara\')')
    assert client.get("/characters").status_code == 404  # no chronicle of his: its pages are not found for him
    AuthActions(client).login("boss", "organiser")
    assert client.get("/account").status_code == 200
    other_process(app, 'UPDATE "user" SET active = 0 WHERE username = \'boss\'')
    assert client.get("/account").status_code == 302


@sqlite_only
def test_a_cards_poll_is_answered_from_what_was_kept_until_another_process_changes_him(app, client):
    """The player's card poll (the game night's 200 a second) reads the card's fingerprint once; with nothing
    committed since, the next polls are answered without a query; a wound marked by another process is seen
    at the next poll."""
    import re

    from larp.db import db
    from larp.models import Character

    with app.app_context(), db.connection_context():
        ruth = Character.get(Character.name == "Ruth Calder")
    page = client.get(f"/C/{ruth.card_token}").get_data(as_text=True)
    live = re.search(r'<div id="tonight-live"[^>]*hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    stamp = app.extensions["larp.change_stamp"]
    assert client.get(live).status_code == 204
    kept = stamp.kept.get(("card", ruth.card_token))
    assert kept is not None and kept[0] == stamp.read()
    assert client.get(live).status_code == 204 and stamp.kept[("card", ruth.card_token)] is kept  # no new read
    other_process(app, f'UPDATE "character" SET damage_lethal = damage_lethal + 1 WHERE id = {ruth.id}')
    assert client.get(live).status_code == 200  # the changed block, at once
