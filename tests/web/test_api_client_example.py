"""The README's worked client (issue 21): tests/examples/api_client.py against a live ``larp serve``."""

from __future__ import annotations

import os
import subprocess
import sys

from larp.db import bind, db, sqlite_url
from larp.models import Character, GameSession, Ruling
from tests.servers import ROOT, Server
from tests.support import empty_postgres


def test_the_worked_client_runs_against_a_live_server(tmp_path):
    """Issue 21, "A worked client": with a personal API token the script opens a game session, rules
    a challenge between two stored characters, applies damage and reads a player's state; the record
    names the token as the narrator and Vivienne carries the two lethal of step 3."""
    url = os.environ.get("LARP_TEST_DATABASE_URL")
    if url:
        empty_postgres(url)
    else:
        url = sqlite_url(tmp_path / "instance" / "larp.sqlite3")
    server = Server(tmp_path / "instance", url if url.startswith("postgres") else None, threads=2)
    try:
        server.wait()
        bind(url)
        with db.connection_context():
            from larp.services.accounts import create_user
            from larp.services.api_tokens import create_token

            owner = create_user("botmaker", "Bot Maker", "organiser", "correct horse battery")
            _, token = create_token(owner, "Example client", "organiser")
            sessions_before = GameSession.select().count()
        run = subprocess.run([sys.executable, str(ROOT / "tests" / "examples" / "api_client.py")], cwd=ROOT,
                             env=dict(os.environ, LARP_URL=f"http://{server.host}:{server.port}", LARP_TOKEN=token),
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "Opened game session" in run.stdout and "Vivienne now:" in run.stdout
        with db.connection_context():
            assert GameSession.select().count() == sessions_before + 1
            vivienne = Character.get(Character.name == "Vivienne Ashcombe")
            assert vivienne.damage_lethal == 2
            kinds = [r.kind for r in Ruling.select().where(Ruling.narrator_name == "Example client").order_by(Ruling.id)]
            assert kinds[0] == "session" and "challenge" in kinds and kinds[-1] == "damage"
        assert f"{vivienne.damage_lethal} lethal" in run.stdout
    finally:
        server.stop()
        if not db.is_closed():
            db.close()
