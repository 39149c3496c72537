"""The database schema: versioned migrations, applied before anything else touches the data.

The migrations are numbered files in :mod:`larp.migrations` (peewee's built-in
runner, ``playhouse.migrations``: ``up(migrator, db)`` per file, history in the
``schema_migration`` table). :func:`upgrade` brings a database to the newest one:

- a database that already has a history gets its pending migrations;
- a database made by commit 676dabd's ``create_tables`` (before migrations
  existed) is recognised by its tables and recorded as being at
  ``0001_initial`` without being rebuilt; one from an earlier development
  commit that lacks only columns or indexes of that schema gets them first;
- a database that holds a migration this code does not know (written by a
  newer larp) is refused, untouched;
- on SQLite the file is first copied beside itself (SQLite's backup API);
- every pending migration runs in **one** transaction, so a failed migration
  leaves the database as it was.

Two servers starting at once on one PostgreSQL database are safe: the
upgrade takes a transaction-level advisory lock and looks at the history
again inside it; on SQLite the ``BEGIN IMMEDIATE`` transaction serialises the
two in the same way.

:func:`schema_drift` compares the models with a migrated database, so a model
change without its migration fails the test suite.
"""

from __future__ import annotations

import importlib.util
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Iterator, Sequence

from peewee import Database, DatabaseProxy, Model, PostgresqlDatabase, SqliteDatabase
from playhouse.migrations import Runner
from playhouse.schema_diff import diff_models

#: Where the migration files live (inside the package, so an install carries them).
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: The history table (peewee's default name).
HISTORY_TABLE = "schema_migration"
#: The migration that stands for 676dabd's schema.
BASELINE = "0001_initial"
#: The key of the PostgreSQL advisory lock that serialises upgrades ("larp" in ASCII).
_ADVISORY_LOCK_KEY = 0x6C617270


class SchemaError(Exception):
    """The database cannot be brought to this code's schema; ``message`` says why and what to do.

    Raised before anything is changed (or after a rollback: nothing is changed).
    """

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NoDatabase(SchemaError):
    """There is no larp database where the command looked (and it may not create one)."""


@dataclass(frozen=True)
class SchemaState:
    """Where a database stands against the migrations of this code.

    ``applied``: the names in its history (in order); ``pending``: migrations
    of this code not yet applied; ``unknown``: applied names this code does
    not have (the database was upgraded by a newer larp); ``legacy``: it has
    larp's tables but no history (made before migrations existed); ``empty``:
    it holds no larp table at all.
    """

    applied: tuple[str, ...]
    pending: tuple[str, ...]
    unknown: tuple[str, ...]
    legacy: bool
    empty: bool

    @property
    def current(self) -> bool:
        """True when nothing is pending and the history is complete."""
        return not self.pending and not self.unknown and not self.legacy and not self.empty


@dataclass
class UpgradeReport:
    """What :func:`upgrade` did: the migrations applied, the baseline adopted, the backup written."""

    applied: list[str] = field(default_factory=list)
    adopted_baseline: bool = False
    repaired: list[str] = field(default_factory=list)
    backup: Path | None = None
    created: bool = False

    @property
    def changed(self) -> bool:
        """True when the database was changed."""
        return bool(self.applied or self.adopted_baseline)

    def lines(self) -> list[str]:
        """The report as sentences for the console."""
        out: list[str] = []
        if self.backup is not None:
            out.append(f"copied the database to {self.backup} before upgrading it")
        if self.adopted_baseline:
            out.append(f"recognised a database from before migrations as {BASELINE}")
        if self.repaired:
            out.append("added what that database lacked of it: " + ", ".join(self.repaired))
        if self.applied:
            verb = "created the database with" if self.created else "upgraded the database: applied"
            out.append(f"{verb} {', '.join(self.applied)}")
        return out


def _real(database: Database | DatabaseProxy) -> Database:
    if isinstance(database, DatabaseProxy):
        if database.obj is None:
            raise SchemaError("The database is not bound yet.")
        return database.obj
    return database


def _runner(database: Database, directory: Path) -> Runner:
    return Runner(database, str(directory), table_name=HISTORY_TABLE)


def migration_names(directory: Path = MIGRATIONS_DIR) -> list[str]:
    """The migrations of this code, in the order they apply (``0001_initial``, ...)."""
    return [m.name for m in _runner_files(directory)]


def _runner_files(directory: Path):
    from playhouse.migrations import Migration

    return Migration.load_directory(str(directory))


def _load(path: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"larp_migration_{name}", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def baseline_models(database: Database, directory: Path = MIGRATIONS_DIR) -> list[type[Model]]:
    """The frozen models of the baseline migration (676dabd's tables), bound to ``database``."""
    path = directory / f"{BASELINE}.py"
    return _load(str(path), BASELINE).frozen_models(database)


def _larp_tables(database: Database) -> set[str]:
    return set(database.get_tables()) - {HISTORY_TABLE}


def inspect_schema(database: Database | DatabaseProxy, directory: Path = MIGRATIONS_DIR) -> SchemaState:
    """Where ``database`` stands against the migrations in ``directory`` (changes nothing).

    The caller holds a connection.
    """
    database = _real(database)
    runner = _runner(database, directory)
    files = [m.name for m in runner.migrations()]
    has_history = runner.History.table_exists()
    applied = [m.name for m in runner.status() if m.applied] if has_history else []
    tables = _larp_tables(database)
    legacy = not has_history and bool(tables)
    empty = not has_history and not tables
    known = set(files)
    return SchemaState(
        applied=tuple(applied),
        pending=tuple(name for name in files if name not in set(applied)),
        unknown=tuple(name for name in applied if name not in known),
        legacy=legacy,
        empty=empty,
    )


def _refuse_newer(state: SchemaState) -> None:
    if state.unknown:
        raise SchemaError(
            "This database was upgraded by a newer version of larp: it has "
            f"{', '.join(state.unknown)}, which this version does not know. Install that version "
            "(or a newer one) to use it. The database was not changed."
        )


def _baseline_gaps(database: Database, directory: Path) -> list[str]:
    """What a database without history lacks of the baseline schema, as ``table.column`` names.

    Raises:
        SchemaError: it has tables, columns or indexes the baseline does not know, so it is
            not a larp database this code can adopt.
    """
    diff = diff_models(database, baseline_models(database, directory))
    if diff.drop_columns or diff.drop_indexes:
        extra = [f"{table}.{column}" for table, column in diff.drop_columns]
        extra += [idx.display("extra") for idx in diff.drop_indexes]
        raise SchemaError(
            "This database was not made by a released larp: it has " + ", ".join(extra)
            + ", which no version of larp creates. Export it with the version that made it "
            "(larp export) and import the file into a new database. The database was not changed."
        )
    gaps = [m._meta.table_name for m in diff.create_tables]
    gaps += [f"{f.model._meta.table_name}.{f.column_name}" for f in diff.add_columns]
    gaps += [idx.display("index") for idx in diff.add_indexes]
    return gaps


def _repair_baseline(database: Database, runner: Runner, directory: Path) -> list[str]:
    """Add what the baseline has and the database lacks (tables, columns, indexes)."""
    models = baseline_models(database, directory)
    diff = diff_models(database, models)
    migrator = runner.migrator
    database.create_tables(diff.create_tables)
    operations = [migrator.add_column(f.model._meta.table_name, f.column_name, f) for f in diff.add_columns]
    # add_column makes the index of a unique or indexed column itself.
    made = {(f.model._meta.table_name, (f.column_name,)) for f in diff.add_columns if f.index or f.unique}
    operations += [migrator.add_index(i.table, i.columns, i.unique)
                   for i in diff.add_indexes if i.columns and (i.table, tuple(i.columns)) not in made]
    if operations:
        from playhouse.migrate import migrate

        migrate(*operations)
    return ([m._meta.table_name for m in diff.create_tables]
            + [f"{f.model._meta.table_name}.{f.column_name}" for f in diff.add_columns])


def sqlite_file(database: Database) -> Path | None:
    """The file of an SQLite database (``None`` for other engines and in-memory databases)."""
    if isinstance(database, SqliteDatabase) and database.database not in ("", ":memory:"):
        return Path(database.database)
    return None


def backup_sqlite_file(source: Path, target: Path) -> Path:
    """Copy the SQLite database ``source`` to ``target`` with SQLite's online backup API
    (a consistent copy, safe while other connections write). Returns ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(str(source))
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return target


@contextmanager
def _sqlite_foreign_keys_off(database: Database) -> Iterator[None]:
    """SQLite rebuilds a table to alter it; with foreign keys on, dropping the old copy would
    cascade-delete its children. The pragma only changes outside a transaction, so it is
    turned off around the whole upgrade and the keys are checked before the commit."""
    if not isinstance(database, SqliteDatabase):
        yield
        return
    enabled = bool(database.pragma("foreign_keys"))
    if enabled:
        database.pragma("foreign_keys", 0)
    try:
        yield
    finally:
        if enabled:
            database.pragma("foreign_keys", 1)


def _lock_for_upgrade(database: Database) -> None:
    # Inside the transaction: a second server starting at the same moment waits here, then
    # finds the history already written. SQLite's BEGIN IMMEDIATE already serialises.
    if isinstance(database, PostgresqlDatabase):
        database.execute_sql("SELECT pg_advisory_xact_lock(%s)", (_ADVISORY_LOCK_KEY,))


def upgrade(
    database: Database | DatabaseProxy,
    *,
    create: bool = True,
    backup_dir: Path | None = None,
    directory: Path = MIGRATIONS_DIR,
    now: datetime | None = None,
) -> UpgradeReport:
    """Bring ``database`` to the newest migration (see the module docstring). The caller holds a connection.

    Args:
        create: whether an empty database may be given the schema (``larp serve`` and the tests);
            otherwise an empty database is refused.
        backup_dir: where the SQLite copy goes (default: beside the database file).
        directory: the migration files (tests point it elsewhere).
        now: the time stamped on the backup's name (default: the clock).

    Raises:
        SchemaError: the database is newer than this code, is empty and ``create`` is false,
            is not one this code can adopt, or a migration failed (rolled back: nothing changed).
    """
    database = _real(database)
    state = inspect_schema(database, directory)
    _refuse_newer(state)
    report = UpgradeReport()
    if state.current:
        return report
    if state.empty and not create:
        raise NoDatabase("The database holds no larp chronicle. Nothing was changed.")
    if state.legacy:
        _baseline_gaps(database, directory)  # refuses a foreign schema before any copy is made
    path = sqlite_file(database)
    if path is not None and not state.empty and path.exists():
        stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
        folder = backup_dir or path.parent
        report.backup = backup_sqlite_file(path, folder / f"{path.stem}-before-upgrade-{stamp}{path.suffix}")
    runner = _runner(database, directory)
    try:
        with _sqlite_foreign_keys_off(database), database.atomic():
            _lock_for_upgrade(database)
            state = inspect_schema(database, directory)  # again, under the lock
            _refuse_newer(state)
            runner.History.create_table(safe=True)
            pending = list(state.pending)
            if state.legacy:
                report.repaired = _repair_baseline(database, runner, directory)
                runner.History.create(name=BASELINE)
                report.adopted_baseline = True
                pending = [name for name in pending if name != BASELINE]
            report.created = state.empty
            files = {m.name: m.path for m in runner.migrations()}
            for name in pending:
                module = _load(files[name], name)
                module.up(runner.migrator, database)
                runner.History.create(name=name)
                report.applied.append(name)
            if isinstance(database, SqliteDatabase):
                broken = database.execute_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise SchemaError(f"The upgrade would break {len(broken)} references between rows.")
    except SchemaError as exc:
        raise SchemaError(f"{exc.message} The upgrade was rolled back: nothing was changed.") from None
    except Exception as exc:  # a migration failed: the transaction is rolled back
        raise SchemaError(
            f"The upgrade failed ({type(exc).__name__}: {exc}) and was rolled back: nothing was changed."
            + (f" A copy from before it is at {report.backup}." if report.backup else "")
        ) from exc
    return report


def schema_drift(database: Database | DatabaseProxy, models: Sequence[type[Model]]) -> list[str]:
    """How ``models`` and the tables of ``database`` differ, one line each (empty when they agree).

    Uses peewee's schema diff (tables, columns, indexes), plus column types, nullability and
    foreign keys on SQLite, where they can be read back exactly. The caller holds a connection.
    """
    database = _real(database)
    diff = diff_models(database, list(models))
    lines = str(diff).splitlines() if diff else []
    if isinstance(database, SqliteDatabase):
        lines += _sqlite_column_drift(database, models)
    return lines


def _sqlite_column_drift(database: SqliteDatabase, models: Sequence[type[Model]]) -> list[str]:
    """Types, NOT NULL and foreign keys of each column, against a scratch copy made from the models."""
    scratch = SqliteDatabase(":memory:")
    with scratch.bind_ctx(list(models)):
        scratch.create_tables(list(models))
        expected = {m._meta.table_name: _sqlite_columns(scratch, m._meta.table_name) for m in models}
    scratch.close()
    lines = []
    tables = set(database.get_tables())
    for table, columns in sorted(expected.items()):
        if table not in tables:
            continue  # reported by the schema diff
        actual = _sqlite_columns(database, table)
        for name in sorted(set(columns) & set(actual)):
            if columns[name] != actual[name]:
                lines.append(f"column {table}.{name}: models say {columns[name]}, database has {actual[name]}")
    return lines


def _sqlite_columns(database: SqliteDatabase, table: str) -> dict[str, tuple]:
    columns = {row[1]: (row[2].upper(), "NOT NULL" if row[3] else "NULL", "PK" if row[5] else "")
               for row in database.execute_sql(f'PRAGMA table_info("{table}")').fetchall()}
    for row in database.execute_sql(f'PRAGMA foreign_key_list("{table}")').fetchall():
        # (id, seq, table, from, to, on_update, on_delete, match)
        columns[row[3]] = columns[row[3]] + (f"-> {row[2]}.{row[4]} ON DELETE {row[6]}",)
    return columns
