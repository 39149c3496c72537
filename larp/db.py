"""The database: a peewee ``DatabaseProxy`` bound by the app factory.

SQLite in the instance folder is the embedded default (WAL journal, foreign
keys on, a busy timeout); a ``postgresql://`` URL selects PostgreSQL
(``pip install 'larp[postgres]'``). Connections are opened per request and
closed in teardown (peewee's framework-integration pattern).
"""

from __future__ import annotations

import functools
import os
import sqlite3
from datetime import date, datetime
from pathlib import Path
from typing import Sequence

import zlib

import peewee
from peewee import Database, DatabaseProxy, PostgresqlDatabase, SqliteDatabase
from playhouse.db_url import connect, parse
from playhouse.pool import _PooledSqliteDatabase

from larp.rules.numbers import MAX_ID as _MAX_ID, row_id

db = DatabaseProxy()

#: Per-connection SQLite pragmas (stack-notes 2.3): foreign keys enforced, NORMAL sync as SQLite
#: advises with WAL. None of them writes, so a connection opens on a full disk or read-only files.
#: WAL itself (readers never block the writer) is a property of the file, set once by
#: :func:`use_wal` when the database is prepared, not by every connection.
SQLITE_PRAGMAS = {"foreign_keys": 1, "synchronous": "normal", "cache_size": -16000}

#: Why a write cannot be made, as :func:`database_trouble` names it.
BUSY, FULL, READ_ONLY, UNREACHABLE = "busy", "full", "read_only", "unreachable"

#: SQLite errors on opening that mean "the files cannot be written", not "the data is broken".
_CANNOT_WRITE_ON_OPEN = ("SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_READONLY", "SQLITE_FULL", "SQLITE_PERM")
_PROBE = "SELECT count(*) FROM sqlite_master"


class LarpSqliteDatabase(SqliteDatabase):
    """peewee's SQLite database, which still reads when the files cannot be written.

    A WAL database needs its index file (``-shm``) to be read. When that file cannot be made or
    grown (a full disk, a read-only filesystem, a copy of the database on read-only media), the
    normal open fails even for a read. The connection is then reopened read-only: first
    ``mode=ro`` (works while the ``-wal``/``-shm`` files exist), else ``immutable=1`` when no
    ``-wal`` file holds changes (everything is in the main file, so nothing is missed). Writes
    on such a connection fail with ``SQLITE_READONLY``; :attr:`degraded` says why, for
    :func:`database_trouble`'s message.
    """

    #: ``FULL`` or ``READ_ONLY`` while connections are opened read-only, else ``None``.
    degraded: str | None = None

    def _connect(self):
        try:
            conn = super()._connect()
            try:
                conn.execute(_PROBE)  # maps the WAL index now, not at the page's first query
            except Exception:
                conn.close()
                raise
        except sqlite3.OperationalError as exc:
            name = getattr(exc, "sqlite_errorname", "") or ""
            path = sqlite_path(f"sqlite:///{self.database}")
            if path is None or not path.exists() or not name.startswith(_CANNOT_WRITE_ON_OPEN):
                raise
            conn = self._read_only_connection(path, exc)
            self.degraded = READ_ONLY if not _writable(path) else FULL
            return conn
        self.degraded = None
        return conn

    def _read_only_connection(self, path: Path, cause: sqlite3.OperationalError):
        uri = path.resolve().as_uri()
        wal = Path(f"{path}-wal")
        options = ["mode=ro"]
        if not (wal.exists() and wal.stat().st_size > 0):
            options.append("mode=ro&immutable=1")
        shared = {k: v for k, v in self.connect_params.items() if k == "check_same_thread"}
        for option in options:
            conn = sqlite3.connect(f"{uri}?{option}", uri=True, timeout=self._timeout, isolation_level=None, **shared)
            try:
                conn.execute(_PROBE)
                self._add_conn_hooks(conn)
                return conn
            except sqlite3.OperationalError:
                conn.close()
        raise cause


class LarpPooledSqliteDatabase(_PooledSqliteDatabase, LarpSqliteDatabase):
    """:class:`LarpSqliteDatabase` whose connections are kept open between requests (``larp serve``).

    A new SQLite connection costs about 0.4 ms a request before its first query is answered (the
    open, its pragmas, reading the schema again, the close; measured on this schema: 0.47 ms, against
    0.01 ms for a kept one): more than a plain Flask request's whole work (issue 29).

    A kept connection still sees every commit of every process at its next statement (each
    statement outside a transaction reads the newest data), so a logout or a new password in
    another ``larp serve`` takes effect at the next request all the same. That holds while no
    cursor outlives its request: a query read only halfway keeps its connection on the data as it
    was, so every query is read to its end (``list``, ``first``, ``get``, ``fetchall``). A
    transaction left open is rolled back when the connection is handed back (peewee's pool). A
    connection serves one request at a time, from whichever worker thread (``check_same_thread`` off).
    """


def _writable(path: Path) -> bool:
    """Whether the database's folder and file can be written (``access`` reports a read-only mount even to root)."""
    return os.access(path.parent, os.W_OK) and os.access(path, os.W_OK)


def database_trouble(exc: BaseException, database: Database | DatabaseProxy | None = None) -> str | None:
    """Why ``exc`` means the database cannot take the request now, or ``None`` for any other error.

    Returns:
        :data:`BUSY` (another transaction, such as a long import, holds the write lock past the
        busy timeout), :data:`FULL` (no disk space), :data:`READ_ONLY` (the files or the server
        refuse writes) or :data:`UNREACHABLE` (PostgreSQL cannot be reached).

    SQLite rolls a transaction back by itself after a full disk, so the ``atomic()`` block's own
    rollback then fails ("no transaction is active"): the error it replaced is looked at too.
    """
    seen = 0
    while exc is not None and seen < 5:
        trouble = _trouble(exc, database)
        if trouble is not None:
            return trouble
        exc, seen = exc.__context__, seen + 1
    return None


def _trouble(exc: BaseException, database: Database | DatabaseProxy | None) -> str | None:
    # peewee's own errors, and the drivers' (peewee keeps psycopg2's, which carry the SQLSTATE, as the
    # context of the error it raises in their place).
    if isinstance(exc, peewee.IntegrityError) or not (
            isinstance(exc, (peewee.PeeweeException, sqlite3.Error)) or hasattr(exc, "pgcode")):
        return None
    cause = exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else exc
    name = getattr(cause, "sqlite_errorname", "") or ""
    text = str(cause).lower()
    pgcode = getattr(cause, "pgcode", None) or ""
    real = database.obj if isinstance(database, DatabaseProxy) else database
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text or pgcode in ("55P03", "40P01"):
        return BUSY
    if name == "SQLITE_FULL" or "disk is full" in text or pgcode == "53100" or "no space left" in text:
        return FULL
    if name.startswith("SQLITE_READONLY") or "readonly database" in text or pgcode == "25006":
        return getattr(real, "degraded", None) or READ_ONLY
    if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN")):
        return getattr(real, "degraded", None) or (FULL if "shmsize" in name.lower() else READ_ONLY)
    if pgcode.startswith("08") or (not pgcode and "could not connect" in text) or "server closed" in text:
        return UNREACHABLE
    return None


def write_blocker(database: Database | DatabaseProxy) -> str | None:
    """Why the database cannot be written now (:data:`FULL` or :data:`READ_ONLY`), or ``None``.

    For SQLite: its files are read-only, or its disk has less than 1 MB free. The caller holds a
    connection. PostgreSQL is not checked here (a refused write says why when it happens).
    """
    import shutil

    real = database.obj if isinstance(database, DatabaseProxy) else database
    if not isinstance(real, SqliteDatabase):
        return None
    path = sqlite_path(f"sqlite:///{real.database}")
    if path is None:
        return None
    if getattr(real, "degraded", None):
        return real.degraded
    if not _writable(path):
        return READ_ONLY
    if shutil.disk_usage(path.parent).free < 1024 * 1024:
        return FULL
    return None


def bulk_insert(model, names: Sequence[str], rows: list[tuple]) -> None:
    """Insert many ``rows`` of ``model`` in few statements: each row a tuple of the values of the
    fields ``names``, in that order (every other field takes its default).

    peewee builds its SQL value by value, which costs about 20 microseconds a row; an import of a
    thousand characters has some 60,000 rows. The statement is written once: on SQLite run by
    ``executemany``, on PostgreSQL (a round trip per statement) by psycopg2's ``execute_values``,
    1,000 rows a statement. Each text is still checked by its field (lengths, NUL).
    Call inside a transaction.

    Raises:
        larp.models.UnstorableText: a text too long for its column (nothing of the call is kept
            once the transaction rolls back).
    """
    if not rows:
        return
    given = [model._meta.fields[name] for name in names]
    missing = [f for f in model._meta.sorted_fields if not f.primary_key and f.name not in names]
    fields = given + missing

    def complete(row: tuple) -> list:
        return [*row, *((f.default() if callable(f.default) else f.default) for f in missing)]

    real = db.obj
    sqlite = isinstance(real, SqliteDatabase)
    columns = ", ".join(f'"{f.column_name}"' for f in fields)
    # JSON goes through SQLite's json() as peewee's own JSONField writes it; PostgreSQL casts the text.
    marks = ", ".join(("json(?)" if sqlite else "%s::json") if isinstance(f, peewee.JSONField)
                      else ("?" if sqlite else "%s") for f in fields)
    converters = []
    for i, f in enumerate(fields):
        if isinstance(f, peewee.JSONField):
            converters.append((i, lambda v, f=f: None if v is None else f._dumps(v)))
        elif isinstance(f, (peewee.CharField, peewee.TextField)):
            converters.append((i, getattr(f, "checked", f.db_value)))
        elif sqlite and isinstance(f, (peewee.DateTimeField, peewee.DateField)):
            # as sqlite3's own adapter writes them (peewee reads them back)
            converters.append((i, lambda v: v.isoformat(" ") if isinstance(v, datetime)
                               else v.isoformat() if isinstance(v, date) else v))

    def adapted(row: tuple) -> list:
        values = complete(row)
        for i, convert in converters:
            values[i] = convert(values[i])
        return values

    table = f'INSERT INTO "{model._meta.table_name}" ({columns}) VALUES'
    with peewee.__exception_wrapper__:
        if sqlite:
            real.cursor().executemany(f"{table} ({marks})", [adapted(row) for row in rows])
        else:  # psycopg2: one statement of up to 1,000 rows per round trip
            from psycopg2.extras import execute_values

            execute_values(real.cursor(), f"{table} %s", [adapted(row) for row in rows], template=f"({marks})",
                           page_size=1000)


def use_wal(database: Database) -> None:
    """Put an SQLite database in WAL mode (readers never block the writer; stack-notes 2.3).

    The mode is kept in the file, so this is done once when the database is prepared, and skipped
    when the files cannot be written (the database is then only read)."""
    if not isinstance(database, SqliteDatabase) or getattr(database, "degraded", None):
        return
    if database.execute_sql("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        database.execute_sql("PRAGMA journal_mode = wal")


def keep_wal_index(url: str) -> sqlite3.Connection | None:
    """Open (and return) a connection to hold for the server's lifetime, for an SQLite ``url``.

    SQLite deletes the WAL files when the last connection closes and makes them again at the next
    open, which a full disk refuses. While this connection stays open they stay, so the app keeps
    reading when the disk fills up. ``None`` for PostgreSQL or when it cannot be opened.
    """
    path = sqlite_path(url) if url.startswith("sqlite") else None
    if path is None:
        return None
    try:
        keeper = sqlite3.connect(str(path), check_same_thread=False)
        keeper.execute(_PROBE)
    except sqlite3.Error:
        return None
    return keeper


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


#: How long an idle pooled connection is kept (seconds).
POOL_STALE_SECONDS = 300
#: How long a request waits for a pooled connection when every one is in use (seconds).
POOL_WAIT_SECONDS = 30


def make_database(url: str, pool: int = 0) -> Database:
    """A peewee database for ``url``.

    SQLite URLs get the pragmas above, a 10 s busy timeout and IMMEDIATE
    transactions (so a read-modify-write takes the write lock at BEGIN).
    With ``pool`` > 0 (``larp serve``: one per worker thread) up to that many
    connections are kept open between requests (``playhouse.pool``): a new
    PostgreSQL connection costs a server process and a password exchange, about
    15 ms, and a new SQLite one about 0.4 ms (:class:`LarpPooledSqliteDatabase`),
    on every request otherwise.

    Raises:
        ValueError: the URL names no supported database.
    """
    if url.startswith("sqlite"):
        parsed = parse(url)
        name = parsed.pop("database")
        busy_seconds = parsed.pop("timeout", 10)
        if pool > 0:
            database = LarpPooledSqliteDatabase(name, pragmas=SQLITE_PRAGMAS, lock_type="IMMEDIATE",
                                                max_connections=pool, stale_timeout=POOL_STALE_SECONDS,
                                                timeout=POOL_WAIT_SECONDS, check_same_thread=False, **parsed)
            database._timeout = busy_seconds  # the pool takes ``timeout`` as its own wait: the busy timeout set apart
            return database
        return LarpSqliteDatabase(name, pragmas=SQLITE_PRAGMAS, lock_type="IMMEDIATE", timeout=busy_seconds, **parsed)
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
                              "(the folder that holds instance/), or give the --instance or --database of the "
                              "running server; a new install starts with `larp serve` (or restores an export "
                              "with `larp import FILE`).")
    if url.startswith("sqlite") and create:
        path = sqlite_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    database = bind(url, pool)
    try:
        with db.connection_context():
            report = upgrade(database, create=create, backup_dir=backup_dir)
            use_wal(database)
            return report
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


def run_sql(sql: str, params: Sequence = ()):
    """Run ``sql`` on the bound database and return its cursor: for the few statements of every
    request (the session's user, the live poll), written once per process rather than built by
    peewee's query builder each time (about 0.1 ms a query; issue 29).

    ``sql`` uses ``?`` placeholders, made ``%s`` for PostgreSQL; names are double-quoted, which
    both engines read. Values come back as the driver gives them (SQLite: booleans as 0/1, times
    and JSON as text); :func:`model_from_row` converts a row as peewee does.
    """
    real = db.obj
    if real.param != "?":
        sql = _PARAM_STYLE.get(sql) or _PARAM_STYLE.setdefault(sql, sql.replace("?", real.param))
    return real.execute_sql(sql, params)


_PARAM_STYLE: dict[str, str] = {}


def model_from_row(model, names: Sequence[str], values: Sequence):
    """An instance of ``model`` from a row of :func:`run_sql` holding its fields ``names`` in order,
    each value converted by its field as peewee's own ``select`` would (nothing marked changed)."""
    instance = model(__no_default__=1)  # what peewee's own select makes, filled in one step
    instance.__data__ = {name: value if convert is None or value is None else convert(value)
                         for (name, convert), value in zip(_converters(model, tuple(names)), values)}
    return instance


#: Fields whose values both drivers give as peewee would keep them (numbers and texts).
_AS_GIVEN = (peewee.AutoField, peewee.IntegerField, peewee.CharField, peewee.TextField, peewee.ForeignKeyField)


@functools.lru_cache(maxsize=64)
def _converters(model, names: tuple[str, ...]) -> tuple[tuple[str, object], ...]:
    fields = model._meta.fields

    def converter(field):
        if isinstance(field, _AS_GIVEN):
            return None
        if type(field) is peewee.DateTimeField:
            return functools.partial(_stored_time, field)
        return field.python_value

    return tuple((name, converter(fields[name])) for name in names)


def _stored_time(field, value):
    """A stored time as peewee reads it, the way SQLite stores it read at C speed (peewee tries
    its formats one ``strptime`` after the other, about 10 microseconds)."""
    if isinstance(value, str) and value[10:11] in (" ", ""):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            moment = None
        if moment is not None and moment.tzinfo is None:
            return moment
    return field.python_value(value)


#: Row ids from URLs and forms are read by the one number reader (larp.rules.numbers).
MAX_ID = _MAX_ID
as_id = row_id
