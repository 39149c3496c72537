"""What the web tests, the browser tests and the benchmarks share: an app on a fresh database with
the demo chronicle (:func:`make_test_app`), the test databases, and the path of ``shared/``.

A plain module (not a conftest), so that a benchmark imports it like any other; the fixtures
built on it are in ``tests/web/conftest.py``. It imports the database stack: the root conftest
and ``tests/rules`` never import it (``tests/test_project.py`` checks)."""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from pathlib import Path

from larp import create_app
from larp.db import bind, db, sqlite_url

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
#: Debian's Chromium, which the browser tests and the browser benchmarks drive (stack-notes 4.2).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

_TEMPLATE: dict[object, Path] = {}


def migrated_template() -> Path:
    """An SQLite file built once per test process by the migrations (never by ``create_tables``),
    that each test copies: every test database goes through the real upgrade path."""
    if "sqlite" not in _TEMPLATE:
        from larp.schema import upgrade

        folder = Path(tempfile.mkdtemp(prefix="larp-template-"))
        path = folder / "template.db"
        database = bind(sqlite_url(path))
        with db.connection_context():
            upgrade(database)
        database.close()
        _TEMPLATE["sqlite"] = path
    return _TEMPLATE["sqlite"]


def empty_postgres(url: str) -> None:
    """Empty the PostgreSQL database at ``url``: drop every table (the next app start migrates it)."""
    database = bind(url)
    with db.connection_context():
        tables = database.get_tables()
        if tables:
            database.execute_sql("DROP TABLE " + ", ".join(f'"{t}"' for t in tables) + " CASCADE")


def fresh_database_url(tmp_path: Path) -> str:
    """A new database for one test, at the current schema with no rows: a copy of the migrated
    SQLite template in ``tmp_path``, or the PostgreSQL database named by ``LARP_TEST_DATABASE_URL``
    (to run the suite against PostgreSQL too) with every row deleted (or, when its schema is not
    the current one, every table dropped, so that the app start migrates it)."""
    url = os.environ.get("LARP_TEST_DATABASE_URL")
    if not url:
        tmp_path.mkdir(parents=True, exist_ok=True)
        path = tmp_path / "test.db"
        shutil.copyfile(migrated_template(), path)
        return sqlite_url(path)
    from larp.schema import inspect_schema

    database = bind(url)
    with db.connection_context():
        state = inspect_schema(database)
        if state.current:
            tables = [t for t in database.get_tables() if t != "schema_migration"]
            database.execute_sql("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " RESTART IDENTITY CASCADE")
            return url
    empty_postgres(url)
    return url


def make_test_app(tmp_path: Path, **overrides):
    """An app on a fresh database with the demo chronicle, CSRF off, seeded randomness."""
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": fresh_database_url(tmp_path),
        "INSTANCE_PATH": tmp_path / "instance",
        "WTF_CSRF_ENABLED": False,
        "LOAD_DEMO": True,
        "CREATE_DATABASE": True,
        "RANDOM_SOURCE": lambda: random.Random(7),
    }
    config.update(overrides)
    app = create_app(config)
    from tests.web.api_conformance import ConformingClient

    app.test_client_class = ConformingClient  # every /api/v1 answer is checked against the document
    return app


class AuthActions:
    """Log the test client in as a narrator or organiser (accounts made on demand)."""

    def __init__(self, client):
        self._client = client

    def login(self, username: str = "narrator1", role: str = "narrator", password: str = "correct horse"):
        from larp.models import User
        from larp.services.accounts import create_user

        with db.connection_context():
            if not User.select().where(User.username == username).exists():
                create_user(username, username.title(), role, password)
        return self._client.post("/login", data={"username": username, "password": password})

    def logout(self):
        return self._client.post("/logout")
