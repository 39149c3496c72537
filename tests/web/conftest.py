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
    stamp = app.extensions.get("larp.change_stamp")
    if stamp is not None:
        stamp.close()  # its connection and mapping now, not when the app is collected


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


def _narrators_own(values: dict) -> bool:
    """Whether a ruling's summary is the narrator's own text, not the app's: the chronicle's words, kept as
    written in every language. Told from the record's inputs: the summary is one of the values the ruling
    was given (a description typed in a field), or the ruling has neither inputs nor steps (nothing a rule
    decided: a summary written by hand, as the tests' own rulings "x" or "a scratch")."""
    summary, inputs = values.get("summary"), values.get("inputs") or {}
    if not inputs and not values.get("steps"):
        return True
    return isinstance(inputs, dict) and summary in [value for value in inputs.values() if isinstance(value, str)]


def _english_only(values: dict) -> list[str]:
    """What of a ruling about to be written is plain English: neither a phrase (a message id with its
    parameters) nor a fixed sentence that is itself a message of the catalogues (said through them when read);
    a summary that is the narrator's own text (:func:`_narrators_own`) is not."""
    from larp.i18n import catalogue

    messages = catalogue("pt_BR")
    own = values.get("summary_said") or values.get("summary") in messages or _narrators_own(values)
    left = [] if own else [f"summary {values.get('summary')!r}"]
    left += [f"step {step.get('text')!r}" for step in values.get("steps") or ()
             if not step.get("said") and step.get("text") not in messages]
    return left


@pytest.fixture(autouse=True)
def every_ruling_in_phrases(request):
    """Every ruling a web test records is written as phrases (issue 36 item 1): its summary and each step
    a message id with parameters, so that it reads in whoever's language opens it. The whole web suite is
    the tour of the kinds of rulings: a path that still writes English only fails the test that took it.
    (Rulings carried over from an earlier version's export are written by the import, not here, and keep
    their English.) A test that writes a plain ruling on purpose says so with ``english_ruling``."""
    if request.node.get_closest_marker("english_ruling"):
        yield
        return
    from larp.services import records

    original = records._create_ruling
    found: list[str] = []

    def checked(values, token, call_hash=None):
        found.extend(f"{values.get('kind')}: {what}" for what in _english_only(values))
        return original(values, token, call_hash)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(records, "_create_ruling", checked)
        yield
    assert not found, "rulings written in English only:\n" + "\n".join(dict.fromkeys(found))
