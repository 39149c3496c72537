"""What every test run does first: with ``LARP_TEST_DATABASE_URL`` set, check that the PostgreSQL
database answers, and give each pytest-xdist worker a database of its own. The web fixtures are in
``tests/web/conftest.py`` and what tests and benchmarks share in ``tests/support.py``:
``tests/rules`` runs without Flask, peewee or a database."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

import pytest

#: The database the run was given, before a worker's own replaced it in the environment.
_GIVEN: dict[str, str] = {}


def pytest_sessionstart(session):
    """With ``LARP_TEST_DATABASE_URL`` set, the suite runs on that PostgreSQL database, or not at
    all: a server that cannot be reached (or a missing driver) stops the run with an error, never
    a silent fallback to SQLite or a skip (issue 13: CI runs both engines).

    Under pytest-xdist each worker runs on its own database beside that one, made afresh
    (``<name>_gw0``, ``<name>_gw1``, ...; dropped at the end): the tests empty and fill their
    database, and test files on two workers must not share one."""
    url = os.environ.get("LARP_TEST_DATABASE_URL")
    if not url:
        return
    from larp.db import make_database

    try:
        database = make_database(url)
        database.connect()
    except Exception as exc:  # noqa: BLE001 - whatever it is, the run must stop here
        raise pytest.UsageError(f"LARP_TEST_DATABASE_URL is set, but that database cannot be reached: "
                                f"{type(exc).__name__}: {exc}".strip()) from None
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    try:
        if worker:
            own = worker_database_url(url, worker)
            name = urlsplit(own).path.lstrip("/")
            database.execute_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            database.execute_sql(f'CREATE DATABASE "{name}"')
            _GIVEN["url"] = url
            os.environ["LARP_TEST_DATABASE_URL"] = own
    finally:
        database.close()


def pytest_sessionfinish(session):
    """Drop the worker's own database (see :func:`pytest_sessionstart`)."""
    if "url" not in _GIVEN:
        return
    from larp.db import make_database

    own = os.environ["LARP_TEST_DATABASE_URL"]
    database = make_database(_GIVEN["url"])
    database.connect()
    try:
        database.execute_sql(f'DROP DATABASE IF EXISTS "{urlsplit(own).path.lstrip("/")}" WITH (FORCE)')
    finally:
        database.close()
        os.environ["LARP_TEST_DATABASE_URL"] = _GIVEN.pop("url")


def worker_database_url(url: str, worker: str) -> str:
    """``url`` naming the database ``<its database>_<worker>`` on the same server."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"{parts.path.rstrip('/')}_{worker}"))
