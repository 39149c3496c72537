"""Fixtures of the web tests: an app on a fresh database with the demo chronicle loaded (built by
:func:`tests.support.make_test_app`), its test client, CLI runner, login helper and a connection."""

from __future__ import annotations

import pytest

from larp.db import db
from tests.support import AuthActions, make_test_app


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


@pytest.fixture
def auth(client):
    return AuthActions(client)


@pytest.fixture
def dbconn(app):
    """An open database connection for tests that query models directly."""
    with db.connection_context():
        yield db
