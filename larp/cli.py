"""The ``larp`` command line (Flask's ``FlaskGroup`` around the app factory).

``larp serve`` runs the app through waitress (a production WSGI server that
also runs on Windows laptops); ``larp run``, ``larp routes`` and
``larp shell`` come with Flask. The commands that need the app are :mod:`larp.cli_commands` and
:mod:`larp.cli_data`.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import click
from flask.cli import FlaskGroup
from flask_babel import gettext, ngettext

from larp.cli_commands import APP_COMMANDS, login_link_lines, record_serving
from larp.db import db
from larp.serving import CONNECTION_LIMIT


def _restores_an_export(ctx: click.Context | None) -> bool:
    """Whether this command is `larp import` of a file that is a chronicle export this larp reads: on
    a new install it makes the database (the export takes the place of the demo the first start
    loads). Any other command, or an import of a file that is no export, creates nothing."""
    if ctx is None or ctx.info_name != "import" or not ctx.params.get("file"):
        return False
    from larp.services import ServiceError
    from larp.services.transfer import check_format

    try:
        check_format(json.loads(Path(ctx.params["file"]).read_bytes().decode("utf-8-sig")))
    except (OSError, ValueError, RecursionError, ServiceError):
        return False
    return True


def _make_app():
    from larp import create_app
    from larp.schema import SchemaError

    from larp.tables import TableError

    try:
        # Restoring an export on a new install makes the database without the demo: the export is
        # the install's chronicle, and a demo loaded only to be replaced would be noise.
        restoring = _restores_an_export(click.get_current_context(silent=True))
        return create_app(create_database=restoring, load_demo=not restoring)
    except SchemaError as exc:
        raise click.ClickException(exc.message) from None
    except TableError as exc:  # a rules table under data/ is malformed: say which, start nothing
        raise click.ClickException(gettext("a rules table is broken: %(why)s", why=exc)) from None


class LarpGroup(FlaskGroup):
    """Flask's command group, with every larp command registered on the group itself, so that
    ``larp --help`` and looking up a command never open (or create) a database: only running a
    command that needs the app does."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The group's own commands (``serve``, ``db``, the app commands, and Flask's ``run``, ``shell``, ``routes``)."""
        return sorted(self.commands)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command ``name``, found without loading the app."""
        return click.Group.get_command(self, ctx, name)


def lan_address() -> str | None:
    """This machine's address on the local network, if it has one (no traffic is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def _to_environment(variable: str):
    """A click callback that puts an option's value in the environment at once: the app
    is built while the command is looked up, before the group's own code runs."""

    def callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        if value:
            os.environ[variable] = value
        return value

    return callback


@click.group(cls=LarpGroup, create_app=_make_app)
@click.option("--database", "database_url", default=None, metavar="URL", is_eager=True, expose_value=False,
              callback=_to_environment("LARP_DATABASE_URL"),
              help="The database every command uses (default: SQLite in the instance folder; "
                   "also LARP_DATABASE_URL).")
@click.option("--instance", "instance_path", default=None, type=click.Path(file_okay=False), is_eager=True,
              expose_value=False, callback=_to_environment("LARP_INSTANCE_PATH"),
              help="The instance folder (default ./instance; also LARP_INSTANCE_PATH).")
def main() -> None:
    """larp: adjudication for Mind's Eye Theatre vampire LARPs.

    Give --database (or --instance) before the command so that it works on the
    same data as the running server: `larp --database URL login-link`.
    """


#: ``larp serve``'s worker threads unless ``--threads`` says otherwise (one pooled database connection each).
SERVE_THREADS = 8


@main.command("serve", with_appcontext=False)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets tablets on the event network connect.")
@click.option("--port", default=8080, show_default=True, type=int)
@click.option("--database", "database_url", default=None,
              help="Database URL (default: SQLite in the instance folder); postgresql://... for PostgreSQL. "
                   "Give the same URL to the other commands: larp --database URL login-link.")
@click.option("--threads", default=SERVE_THREADS, show_default=True, type=int, help="Worker threads.")
@click.option("--empty", is_flag=True,
              help="Start with an empty chronicle (named on the first page) instead of the demo; "
                   "an untouched demo is replaced.")
@click.option("--connection-limit", default=CONNECTION_LIMIT, show_default=True, type=click.IntRange(10), metavar="N",
              help="Open connections at most; when full, a newcomer takes the place of an idle connection of "
                   "the address holding the most.")
def serve(host: str, port: int, database_url: str | None, threads: int, empty: bool, connection_limit: int) -> None:
    """Serve the app with waitress. The first start creates the database, loads the
    demo chronicle (or, with --empty, an empty one) and prints a one-time login link
    for the first organiser. Connections held open without a request give way to
    newcomers (larp/serving.py), so no phone on the network can hold the server."""
    from larp import create_app, serving
    from larp.services.accounts import ensure_first_organiser, organiser_needs_console_link

    from larp.schema import SchemaError
    from larp.tables import TableError

    from larp.db import READ_ONLY, keep_wal_index, write_blocker

    if database_url:
        os.environ["LARP_DATABASE_URL"] = database_url
    try:
        # One PostgreSQL connection per waitress thread, and one for the webhook worker (issue 35).
        app = create_app(create_database=True, start_empty=empty, database_pool=threads + 1)
    except SchemaError as exc:
        raise click.ClickException(exc.message) from None
    except TableError as exc:  # a rules table under data/ is malformed: say which, start nothing
        raise click.ClickException(gettext("a rules table is broken: %(why)s", why=exc)) from None
    except OSError as exc:  # the instance folder (database, secret key) cannot be made or written
        raise click.ClickException(gettext(
            "larp cannot write %(what)s: %(why)s. Start it where it may write (--instance FOLDER), or free some disk "
            "space.", what=exc.filename or gettext("its instance folder"), why=exc.strerror or exc)) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    bases = [f"http://{shown}:{port}"]
    lan = lan_address()
    if host in ("0.0.0.0", "::") and lan:
        bases.append(f"http://{lan}:{port}")
    # Held while the server runs: SQLite's WAL files stay, so reads go on if the disk fills up.
    app.extensions["larp.wal_keeper"] = keep_wal_index(app.config["DATABASE_URL"])
    with app.app_context(), db.connection_context():
        _read_in_the_only_chronicle()
        blocker = write_blocker(db)
        click.echo(gettext("larp: instance folder %(folder)s", folder=app.instance_path))
        if blocker is not None:
            why = gettext("its files are read-only") if blocker == READ_ONLY else gettext("the disk is full")
            click.echo(gettext("larp: the database cannot be written (%(why)s): serving it READ-ONLY. Characters, cards "
                               "and the record can be read; every change is refused until it can be written again.",
                               why=why))
        else:
            ensure_first_organiser()
        click.echo(gettext("larp: serving on %(addresses)s", addresses=", ".join(bases)))
        record_serving(app.instance_path, bases)
        if blocker is None and organiser_needs_console_link():
            for line in login_link_lines(bases):
                click.echo(line)
    from larp.webhooks.worker import start_worker

    worker = start_worker(app) if blocker is None else None  # issue 35: events go out after their commit
    try:
        serving.serve(app, host=host, port=port, threads=threads, ident="larp", connection_limit=connection_limit)
    finally:
        if worker is not None:
            worker.stop()


def _read_in_the_only_chronicle() -> None:
    """``larp serve``'s lines in the language of the install's chronicle when it has only one (its
    setting ``language``), else English (:func:`larp.i18n.console_language`)."""
    from larp.i18n import read_in_chronicle
    from larp.models import Chronicle

    chronicles = list(Chronicle.select().order_by(Chronicle.id).limit(2))
    if len(chronicles) == 1:
        read_in_chronicle(chronicles[0])


for _command in APP_COMMANDS:
    main.add_command(_command)


def _database_url() -> str:
    from pathlib import Path

    from larp import config as larp_config

    return larp_config.environment_overrides(Path(larp_config.default_instance_path()))["DATABASE_URL"]


@main.group("db", cls=click.Group)
def db_group() -> None:
    """The database schema, for organisers who upgrade by hand. `larp serve` and every other
    command upgrade the database themselves before they do anything else."""


@db_group.command("status")
def db_status() -> None:
    """Show the database, the migrations applied to it and those pending. Changes nothing.
    Exits 1 when a migration is pending (so a deployment script can check it)."""
    from larp.db import bind, redacted, sqlite_path
    from larp.schema import inspect_schema

    url = _database_url()
    click.echo(gettext("Database: %(database)s", database=redacted(url)))
    path = sqlite_path(url) if url.startswith("sqlite") else None
    if url.startswith("sqlite") and (path is None or not path.exists()):
        raise click.ClickException(gettext("There is no larp database at %(path)s.", path=path))
    database = bind(url)
    with db.connection_context():
        state = inspect_schema(database)
        applied = _applied_times(database) if not state.legacy else {}
    if state.empty:
        raise click.ClickException(gettext("The database holds no larp chronicle (larp serve creates one)."))
    if state.legacy:
        click.echo(gettext("Made before migrations existed (commit 676dabd's schema): the next command to open it "
                           "records it as 0001_initial."))
    for name in state.applied:
        mark = "?" if name in state.unknown else "x"
        click.echo(f"  [{mark}] {name}  " + gettext("applied %(time)s", time=applied.get(name, "")))
    for name in state.pending:
        click.echo(f"  [ ] {name}  " + gettext("pending"))
    if state.unknown:
        raise click.ClickException(gettext("This database was upgraded by a newer larp (%(migrations)s): install that "
                                           "version.", migrations=", ".join(state.unknown)))
    if state.pending or state.legacy:
        click.echo(ngettext("%(num)s migration pending: run `larp db upgrade` (or start larp serve).",
                            "%(num)s migrations pending: run `larp db upgrade` (or start larp serve).", len(state.pending)))
        raise SystemExit(1)
    click.echo(gettext("Up to date."))


def _applied_times(database) -> dict[str, str]:
    from larp.schema import HISTORY_TABLE

    rows = database.execute_sql(f'SELECT name, applied FROM "{HISTORY_TABLE}"').fetchall()
    return {name: str(applied)[:19] for name, applied in rows}


@db_group.command("upgrade")
def db_upgrade() -> None:
    """Apply the pending migrations (an SQLite file is first copied beside itself). A failed
    migration is rolled back and a database newer than this larp is refused, untouched."""
    from larp.db import prepare_database, redacted
    from larp.schema import SchemaError

    url = _database_url()
    click.echo(gettext("Database: %(database)s", database=redacted(url)))
    try:
        report = prepare_database(url, create=False)
    except SchemaError as exc:
        raise click.ClickException(exc.message) from None
    for line in report.lines():
        click.echo(line[0].upper() + line[1:] + ".")
    if not report.changed:
        click.echo(gettext("Already up to date: nothing to do."))
