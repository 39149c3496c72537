"""The database: a peewee ``DatabaseProxy`` bound by the app factory.

SQLite in the instance folder is the embedded default (WAL journal, foreign
keys on, a busy timeout); a ``postgresql://`` URL selects PostgreSQL
(``pip install 'larp[postgres]'``). Connections are opened per request and
closed in teardown (peewee's framework-integration pattern).
"""

from __future__ import annotations

from pathlib import Path

import zlib

from peewee import Database, DatabaseProxy, PostgresqlDatabase
from playhouse.db_url import connect

db = DatabaseProxy()

#: Per-connection SQLite pragmas (stack-notes 2.3): WAL so readers never block
#: the writer, foreign keys enforced, NORMAL sync as SQLite advises with WAL.
SQLITE_PRAGMAS = {"journal_mode": "wal", "foreign_keys": 1, "synchronous": "normal", "cache_size": -16000}


def is_postgres() -> bool:
    """Whether the bound database is PostgreSQL (else SQLite)."""
    return isinstance(db.obj, PostgresqlDatabase)


# Check-then-write, the one rule for both engines (stack-notes 7.1): on SQLite every write
# transaction is BEGIN IMMEDIATE, which takes the database's write lock before the first read,
# so two writers never interleave. PostgreSQL runs READ COMMITTED, where a check followed by a
# write is only safe when the row that guards the change is locked first: the two helpers below
# lock it there (SELECT ... FOR NO KEY UPDATE, or an advisory lock for a thing that has no row) and do
# nothing on SQLite, where peewee's for_update() would raise.

def for_update(query):
    """``query`` with ``FOR NO KEY UPDATE`` on PostgreSQL inside a transaction (its rows stay
    locked against every other writer until the transaction ends, while inserts that merely
    refer to them, a ruling of the chronicle, a Trait lost by the character, pass: so no use
    case waits on another's foreign-key check in a circle); unchanged on SQLite (the
    ``BEGIN IMMEDIATE`` transaction already holds the lock) and outside a transaction (a read
    for a page locks nothing)."""
    return query.for_update("FOR NO KEY UPDATE") if is_postgres() and db.in_transaction() else query


#: The first key of the advisory locks taken by :func:`lock_name` ("LARP" in ASCII).
_NAME_LOCK_SPACE = 0x4C415250


def lock_name(name: str) -> None:
    """Serialise the transactions about ``name`` (a thing with no row to lock, such as a user
    name typed at the login form, or "the demo chronicle"): on PostgreSQL a transaction-level
    advisory lock held until commit or rollback; nothing on SQLite (see above). Call inside a
    transaction."""
    if is_postgres():
        key = zlib.crc32(name.encode("utf-8")) - 2**31  # a signed 32-bit key
        db.execute_sql("SELECT pg_advisory_xact_lock(%s, %s)", (_NAME_LOCK_SPACE, key))


def sqlite_url(path: Path) -> str:
    """The database URL of an SQLite file at ``path`` (absolute)."""
    return f"sqlite:///{path.resolve()}"


#: How long an idle pooled PostgreSQL connection is kept (seconds).
POOL_STALE_SECONDS = 300


def make_database(url: str, pool: int = 0) -> Database:
    """A peewee database for ``url``.

    SQLite URLs get the pragmas above, a 10 s busy timeout and IMMEDIATE
    transactions (so a read-modify-write takes the write lock at BEGIN).
    PostgreSQL with ``pool`` > 0 keeps up to that many connections open between
    requests (``playhouse.pool``): a new connection costs a server process and a
    password exchange, about 15 ms, on every request otherwise.

    Raises:
        ValueError: the URL names no supported database.
    """
    if url.startswith("sqlite"):
        return connect(url, pragmas=SQLITE_PRAGMAS, timeout=10, lock_type="IMMEDIATE")
    if pool > 0 and url.startswith(("postgres://", "postgresql://")):
        scheme, rest = url.split("://", 1)
        return connect(f"{scheme}+pool://{rest}", max_connections=pool, stale_timeout=POOL_STALE_SECONDS)
    return connect(url)


def bind(url: str, pool: int = 0) -> Database:
    """Bind the global proxy to a new database for ``url`` (see :func:`make_database`) and return it."""
    database = make_database(url, pool)
    db.initialize(database)
    return database


def prepare_database(url: str, *, create: bool, backup_dir: Path | None = None, pool: int = 0):
    """Bind the proxy to ``url`` and bring that database to the current schema.

    Every command that opens the database comes through here first (see
    :func:`larp.schema.upgrade`): pending migrations are applied (after a copy
    of an SQLite file is made beside it) and a database newer than this code
    is refused untouched. Returns the :class:`larp.schema.UpgradeReport`.

    Args:
        url: the database URL.
        create: whether a database that does not exist yet may be created (``larp serve``,
            the tests); every other command refuses to make one.
        backup_dir: where the SQLite copy goes (default: beside the database file).
        pool: PostgreSQL connections kept open between requests (0: none; see :func:`make_database`).

    Raises:
        larp.schema.NoDatabase: there is no database and ``create`` is false.
        larp.schema.SchemaError: it cannot be upgraded (the message says why; nothing was changed).
    """
    from larp.schema import NoDatabase, upgrade

    if url.startswith("sqlite") and not create:
        path = sqlite_path(url)
        if path is not None and not path.exists():
            raise NoDatabase(f"There is no larp database at {path}. Run this command where larp serve runs "
                              "(the folder that holds instance/), or give --instance or --database.")
    if url.startswith("sqlite") and create:
        path = sqlite_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    database = bind(url, pool)
    try:
        with db.connection_context():
            return upgrade(database, create=create, backup_dir=backup_dir)
    except NoDatabase:
        raise NoDatabase(f"The database {redacted(url)} holds no larp chronicle. Start larp serve on it "
                         "once, or give the --database of the running server.") from None


def sqlite_path(url: str) -> Path | None:
    """The file an ``sqlite:///`` URL names (``None`` for an in-memory database)."""
    name = url.split("://", 1)[1] if "://" in url else ""
    name = name[1:] if name.startswith("/") else name
    name = name.split("?", 1)[0]
    if name in ("", ":memory:"):
        return None
    return Path(name)


def redacted(url: str) -> str:
    """``url`` without its password, for messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}" if ":" in credentials else url
    return url


#: The largest row id the app accepts from a URL or a form (both databases store at least 32-bit ids).
MAX_ID = 2**31 - 1


def as_id(value: object) -> int | None:
    """``value`` as a row id (1 to :data:`MAX_ID`), or ``None`` when it cannot be one."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 1 <= number <= MAX_ID else None
