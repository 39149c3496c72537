"""Shared fixtures: an app on a temporary SQLite file with the demo chronicle loaded."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from larp import create_app
from larp.db import db, sqlite_url

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def fresh_database_url(tmp_path: Path) -> str:
    """A new, empty database for one test: SQLite in ``tmp_path``, or the PostgreSQL database named
    by ``LARP_TEST_DATABASE_URL`` emptied first (to run the suite against PostgreSQL too)."""
    url = os.environ.get("LARP_TEST_DATABASE_URL")
    if not url:
        return sqlite_url(tmp_path / "test.db")
    from larp.db import bind, db
    from larp.models import MODELS

    bind(url)
    with db.connection_context():
        db.drop_tables(MODELS, safe=True, cascade=True)
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
        "RANDOM_SOURCE": lambda: random.Random(7),
    }
    config.update(overrides)
    return create_app(config)


@pytest.fixture
def app(tmp_path):
    app = make_test_app(tmp_path)
    yield app
    if not db.is_closed():
        db.close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


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


@pytest.fixture
def auth(client):
    return AuthActions(client)


@pytest.fixture
def dbconn(app):
    """An open database connection for tests that query models directly."""
    with db.connection_context():
        yield db
