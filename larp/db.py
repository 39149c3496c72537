"""The database: a peewee ``DatabaseProxy`` bound by the app factory.

SQLite in the instance folder is the embedded default (WAL journal, foreign
keys on, a busy timeout); a ``postgresql://`` URL selects PostgreSQL
(``pip install 'larp[postgres]'``). Connections are opened per request and
closed in teardown (peewee's framework-integration pattern).
"""

from __future__ import annotations

from pathlib import Path

from peewee import Database, DatabaseProxy
from playhouse.db_url import connect

db = DatabaseProxy()

#: Per-connection SQLite pragmas (stack-notes 2.3): WAL so readers never block
#: the writer, foreign keys enforced, NORMAL sync as SQLite advises with WAL.
SQLITE_PRAGMAS = {"journal_mode": "wal", "foreign_keys": 1, "synchronous": "normal", "cache_size": -16000}


def sqlite_url(path: Path) -> str:
    """The database URL of an SQLite file at ``path`` (absolute)."""
    return f"sqlite:///{path.resolve()}"


def make_database(url: str) -> Database:
    """A peewee database for ``url``.

    SQLite URLs get the pragmas above, a 10 s busy timeout and IMMEDIATE
    transactions (so a read-modify-write takes the write lock at BEGIN).

    Raises:
        ValueError: the URL names no supported database.
    """
    if url.startswith("sqlite"):
        return connect(url, pragmas=SQLITE_PRAGMAS, timeout=10, lock_type="IMMEDIATE")
    return connect(url)


def bind(url: str) -> Database:
    """Bind the global proxy to a new database for ``url`` and return it."""
    database = make_database(url)
    db.initialize(database)
    return database


def create_schema() -> None:
    """Create every table that does not exist yet (idempotent)."""
    from larp.models import MODELS

    with db.connection_context():
        db.create_tables(MODELS, safe=True)


#: The largest row id the app accepts from a URL or a form (both databases store at least 32-bit ids).
MAX_ID = 2**31 - 1


def as_id(value: object) -> int | None:
    """``value`` as a row id (1 to :data:`MAX_ID`), or ``None`` when it cannot be one."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 1 <= number <= MAX_ID else None
