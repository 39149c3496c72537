"""What every test run does first: with ``LARP_TEST_DATABASE_URL`` set, check that the PostgreSQL
database answers. The web fixtures are in ``tests/web/conftest.py`` and what tests and benchmarks
share in ``tests/support.py``: ``tests/rules`` runs without Flask, peewee or a database."""

from __future__ import annotations

import os

import pytest


def pytest_sessionstart(session):
    """With ``LARP_TEST_DATABASE_URL`` set, the suite runs on that PostgreSQL database, or not at
    all: a server that cannot be reached (or a missing driver) stops the run with an error, never
    a silent fallback to SQLite or a skip (issue 13: CI runs both engines)."""
    url = os.environ.get("LARP_TEST_DATABASE_URL")
    if not url:
        return
    from larp.db import make_database

    try:
        database = make_database(url)
        database.connect()
        database.close()
    except Exception as exc:  # noqa: BLE001 - whatever it is, the run must stop here
        raise pytest.UsageError(f"LARP_TEST_DATABASE_URL is set, but that database cannot be reached: "
                                f"{type(exc).__name__}: {exc}".strip()) from None
