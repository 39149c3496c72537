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


@pytest.fixture(scope="session", autouse=True)
def cheap_password_hashes():
    """scrypt at n=2**10 instead of werkzeug's 2**15 for the apps the tests run in their own process:
    the same algorithm and checks, 32 times less work for each of the suite's thousand logins (the
    served apps of tests/e2e and tests/web/test_concurrency.py keep the full cost;
    test_password_cost.py checks it)."""
    from larp.services import passwords

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(passwords, "METHOD", "scrypt:1024:8:1")
        yield
