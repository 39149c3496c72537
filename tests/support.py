"""What the web tests, the browser tests and the benchmarks share: an app on a fresh database with
the demo chronicle (:func:`make_test_app`), the test databases, and the path of ``shared/``.

A plain module (not a conftest), so that a benchmark imports it like any other; the fixtures
built on it are in ``tests/web/conftest.py``. It imports the database stack: the root conftest
and ``tests/rules`` never import it (``tests/test_project.py`` checks)."""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from datetime import date
from pathlib import Path

from jinja2 import BytecodeCache

from larp import create_app
from larp.db import bind, db, sqlite_url

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
#: Debian's Chromium, which the browser tests and the browser benchmarks drive (stack-notes 4.2).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

_TEMPLATE: dict[object, Path] = {}


def migrated_template() -> Path:
    """An SQLite file built once per test process by the migrations (never by ``create_tables``),
    that each test copies: every test database goes through the real upgrade path."""
    if "sqlite" not in _TEMPLATE:
        from larp.db import use_wal
        from larp.schema import upgrade

        folder = Path(tempfile.mkdtemp(prefix="larp-template-"))
        path = folder / "template.db"
        database = bind(sqlite_url(path))
        with db.connection_context():
            upgrade(database)
            use_wal(database)  # in the file: each copy is in WAL mode already, as the app leaves it
        database.close()
        _TEMPLATE["sqlite"] = path
    return _TEMPLATE["sqlite"]


def demo_template() -> Path:
    """:func:`migrated_template` with the demo chronicle loaded as the app's first start loads it
    (:func:`larp.services.demo.ensure_demo_chronicle`, game session 1 dated today), built once per
    test process and day: a test's app finds its demo there instead of writing it again."""
    key = ("demo", date.today())
    if key not in _TEMPLATE:
        from larp.services.demo import ensure_demo_chronicle

        path = migrated_template().with_name(f"demo-{key[1].isoformat()}.db")
        shutil.copyfile(migrated_template(), path)
        database = bind(sqlite_url(path))
        with db.connection_context():
            ensure_demo_chronicle(key[1])
        database.close()
        _TEMPLATE[key] = path
    return _TEMPLATE[key]


def empty_postgres(url: str) -> None:
    """Empty the PostgreSQL database at ``url``: drop every table (the next app start migrates it)."""
    database = bind(url)
    with db.connection_context():
        tables = database.get_tables()
        if tables:
            database.execute_sql("DROP TABLE " + ", ".join(f'"{t}"' for t in tables) + " CASCADE")


def fresh_database_url(tmp_path: Path, demo: bool = False) -> str:
    """A new database for one test, at the current schema with no rows (``demo``: with the demo
    chronicle's rows only): a copy of a migrated SQLite template in ``tmp_path``, or the PostgreSQL
    database named by ``LARP_TEST_DATABASE_URL`` (to run the suite against PostgreSQL too) put back
    to that state (:func:`reset_postgres`)."""
    url = os.environ.get("LARP_TEST_DATABASE_URL")
    if not url:
        tmp_path.mkdir(parents=True, exist_ok=True)
        path = tmp_path / "test.db"
        shutil.copyfile(demo_template() if demo else migrated_template(), path)
        return sqlite_url(path)
    return reset_postgres(url, demo)


#: The schema that keeps a copy of the demo chronicle's rows in a PostgreSQL test database.
DEMO_SNAPSHOT = "larp_test_demo"
_RESETS: dict[tuple, str] = {}
_RESET_DATABASES: dict[str, object] = {}


def reset_postgres(url: str, demo: bool = False) -> str:
    """Put the PostgreSQL database at ``url`` back to no rows (``demo``: the demo chronicle's rows
    as the app's first start writes them, kept in the schema :data:`DEMO_SNAPSHOT`), its id
    sequences back where they were, in one transaction; return ``url``. Every table is emptied
    with ``DELETE`` children first, which on a few rows is ten times quicker than ``TRUNCATE``.
    A database whose schema is not the current one has every table dropped instead, so that the
    app start migrates it (and loads the demo itself)."""
    from larp.db import make_database
    from larp.schema import inspect_schema

    database = _RESET_DATABASES.get(url) or _RESET_DATABASES.setdefault(url, make_database(url))
    database.connect(reuse_if_open=True)  # kept open between tests: a new connection costs more than the reset
    if inspect_schema(database).current:
        tables = tuple(t for t in database.get_tables() if t != "schema_migration")
        key = (url, tables, demo and date.today())
        if key not in _RESETS:
            db.initialize(database)  # the demo is written through the models
            _RESETS[key] = _postgres_reset_script(database, tables, demo)
        with database.atomic():
            database.execute_sql(_RESETS[key])
        return url
    empty_postgres(url)
    return url


def _postgres_reset_script(database, tables: tuple[str, ...], demo: bool) -> str:
    """The SQL that :func:`reset_postgres` runs for ``tables`` (for ``demo``, the snapshot is made
    here first: the tables emptied, the demo loaded, its rows and sequences copied)."""
    import graphlib

    from larp.services.demo import ensure_demo_chronicle

    rows = lambda sql: database.execute_sql(sql).fetchall()  # noqa: E731
    parents = {t: set() for t in tables}
    for child, parent in rows("SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint "
                              "WHERE contype = 'f' AND connamespace = 'public'::regnamespace"):
        child, parent = child.strip('"'), parent.strip('"')
        if child in parents and parent in parents and child != parent:
            parents[child].add(parent)
    order = list(graphlib.TopologicalSorter(parents).static_order())  # parents first
    sequences = [s for t, s in rows("SELECT table_name, pg_get_serial_sequence(quote_ident(table_name), column_name) "
                                    "FROM information_schema.columns WHERE table_schema = 'public' "
                                    "AND column_default LIKE 'nextval%%'") if t in parents]
    empty = [f'DELETE FROM "{t}"' for t in reversed(order)]
    empty += [f"SELECT setval('{s}', 1, false)" for s in sequences]
    if not demo:
        return ";\n".join(empty)
    with database.atomic():
        database.execute_sql(";\n".join(empty))
        ensure_demo_chronicle(date.today())
    script = list(empty[:len(order)])
    database.execute_sql(f"DROP SCHEMA IF EXISTS {DEMO_SNAPSHOT} CASCADE; CREATE SCHEMA {DEMO_SNAPSHOT}")
    for table in order:
        if rows(f'SELECT EXISTS (SELECT 1 FROM "{table}")')[0][0]:
            database.execute_sql(f'CREATE TABLE {DEMO_SNAPSHOT}."{table}" AS TABLE "{table}"')
            columns = ", ".join(f'"{c.name}"' for c in database.get_columns(table))
            script.append(f'INSERT INTO "{table}" ({columns}) SELECT {columns} FROM {DEMO_SNAPSHOT}."{table}"')
    for sequence in sequences:
        value, called = rows(f"SELECT last_value, is_called FROM {sequence}")[0]
        script.append(f"SELECT setval('{sequence}', {value}, {'true' if called else 'false'})")
    return ";\n".join(script)


def make_test_app(tmp_path: Path, **overrides):
    """An app on a fresh database with the demo chronicle, CSRF off, seeded randomness.

    The demo's rows come from a template (:func:`fresh_database_url`), so the app's start finds its
    chronicle there, as on any start after the first; with ``LOAD_DEMO`` false or ``START_EMPTY``
    the database starts with no rows. ``overrides`` are config keys (``DATABASE_URL`` among them)."""
    demo = overrides.get("LOAD_DEMO", True) and not overrides.get("START_EMPTY")
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": overrides.get("DATABASE_URL") or fresh_database_url(tmp_path, demo=demo),
        "INSTANCE_PATH": tmp_path / "instance",
        "WTF_CSRF_ENABLED": False,
        "LOAD_DEMO": True,
        "CREATE_DATABASE": True,
        "RANDOM_SOURCE": lambda: random.Random(7),
    }
    config.update(overrides)
    share_url_builders()
    app = create_app(config)
    app.jinja_env.bytecode_cache = TEMPLATE_CODE
    from tests.web.api_conformance import ConformingClient

    app.test_client_class = ConformingClient  # every /api/v1 answer is checked against the document
    return app


class SharedTemplateCode(BytecodeCache):
    """Jinja's bytecode cache, kept in memory for the apps of one test process: a template is
    compiled once, not once per test's app (about a third of a web test's time). Each entry is
    keyed by the template's name and the checksum of its source, as in any Jinja bytecode cache,
    and every test app has the same Jinja environment settings (``create_app``'s)."""

    def __init__(self):
        self._code: dict[tuple[str, str], object] = {}

    def load_bytecode(self, bucket) -> None:
        """Give ``bucket`` the code compiled before from the same source, if any."""
        bucket.code = self._code.get((bucket.key, bucket.checksum))

    def dump_bytecode(self, bucket) -> None:
        """Keep the code Jinja has just compiled into ``bucket``."""
        self._code[(bucket.key, bucket.checksum)] = bucket.code


TEMPLATE_CODE = SharedTemplateCode()


def share_url_builders() -> None:
    """Let the apps of this test process share werkzeug's URL builders: werkzeug compiles two
    Python functions for every route of every app (about half of building an app, which each web
    test does); here each is compiled once per distinct route. A builder is a plain function of
    the route's text and parts, bound to its rule when called, so sharing it changes nothing.
    Done only on the werkzeug release this was checked on (3.1): another builds them as usual."""
    from importlib.metadata import version

    from werkzeug.routing.rules import Rule

    if not version("werkzeug").startswith("3.1.") or getattr(Rule, "_larp_shared_builders", False):
        return
    compile_builder = Rule._compile_builder
    builders: dict[tuple, object] = {}

    def shared_builder(self, append_unknown: bool = True):
        if self.defaults:  # a default is built into the function: not shared
            return compile_builder(self, append_unknown)
        key = (self.rule, tuple(self._trace), append_unknown)
        if key not in builders:
            builders[key] = compile_builder(self, append_unknown)
        return builders[key]

    Rule._compile_builder = shared_builder
    Rule._larp_shared_builders = True


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


def make_player(app, character, username: str = "player1", password: str = "correct horse",
                display_name: str | None = None):
    """A player's account ``username`` (password ``password``) linked to ``character`` (issue 33),
    made on demand (an existing account is linked as it is); returns the user. Log in as him with
    ``AuthActions(client).login(username)`` (or ``.login(username, "player", password)``)."""
    from larp.models import Chronicle, User
    from larp.services.accounts import create_user
    from larp.services.players import link_player

    with app.app_context(), db.connection_context():
        chronicle = Chronicle.get_by_id(character.chronicle_id)
        user = User.get_or_none(User.username == username)
        if user is None:
            user = create_user(username, display_name or username.title(), "player", password, chronicle=chronicle)
        link_player(chronicle, character, user)
        return user


#: A browser test's or benchmark's check that a tap target is reachable where it is (issue 31): wholly inside the
#: viewport, and the tap at its middle reaches it (a sticky button over it would take the tap). A radio's or
#: checkbox's chip is its label. Evaluate it on the element (``locator.evaluate(REACHABLE)``).
REACHABLE = """e => {
  const b = e.getBoundingClientRect();
  if (b.top < -1 || b.bottom > innerHeight + 1) return false;  // a scroll may leave it a fraction of a pixel out
  const shown = e.closest('label') || e, r = shown.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (shown.contains(hit) || hit.contains(shown));
}"""
