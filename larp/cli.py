"""The ``larp`` command line (Flask's ``FlaskGroup`` around the app factory).

``larp serve`` runs the app through waitress (a production WSGI server that
also runs on Windows laptops); ``larp run``, ``larp routes`` and
``larp shell`` come with Flask.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Callable

import click
from flask import current_app
from flask.cli import FlaskGroup, with_appcontext

from larp.db import db
from larp.rules.explain import plural
from larp.serving import CONNECTION_LIMIT


def _make_app():
    from larp import create_app
    from larp.schema import SchemaError

    try:
        return create_app()
    except SchemaError as exc:
        raise click.ClickException(exc.message) from None


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


def _login_link_lines(base_urls: list[str], username: str | None = None) -> list[str]:
    from larp.models import User
    from larp.services.accounts import create_login_link, ensure_first_organiser

    if username:
        user = User.get_or_none(User.username == username.strip().lower())
        if user is None:
            raise click.ClickException(f"There is no user called {username}.")
    else:
        user = ensure_first_organiser()
    token = create_login_link(user, hours=current_app.config["LOGIN_LINK_HOURS"])
    lines = [f"One-time login link for {user.username} ({user.role}), valid {current_app.config['LOGIN_LINK_HOURS']} hours:"]
    lines += [f"    {base}/login/link/{token}" for base in base_urls]
    lines.append("Open it once, then set a password on the Account page.")
    return lines


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

    from larp.db import READ_ONLY, keep_wal_index, write_blocker

    if database_url:
        os.environ["LARP_DATABASE_URL"] = database_url
    try:
        # One PostgreSQL connection per waitress thread, and one for the webhook worker (issue 35).
        app = create_app(create_database=True, start_empty=empty, database_pool=threads + 1)
    except SchemaError as exc:
        raise click.ClickException(exc.message) from None
    except OSError as exc:  # the instance folder (database, secret key) cannot be made or written
        raise click.ClickException(
            f"larp cannot write {exc.filename or 'its instance folder'}: {exc.strerror or exc}. Start it where it "
            "may write (--instance FOLDER), or free some disk space.") from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    bases = [f"http://{shown}:{port}"]
    lan = lan_address()
    if host in ("0.0.0.0", "::") and lan:
        bases.append(f"http://{lan}:{port}")
    # Held while the server runs: SQLite's WAL files stay, so reads go on if the disk fills up.
    app.extensions["larp.wal_keeper"] = keep_wal_index(app.config["DATABASE_URL"])
    with app.app_context(), db.connection_context():
        blocker = write_blocker(db)
        click.echo(f"larp: instance folder {app.instance_path}")
        if blocker is not None:
            why = ("its files are read-only" if blocker == READ_ONLY else "the disk is full")
            click.echo(f"larp: the database cannot be written ({why}): serving it READ-ONLY. Characters, cards "
                       "and the record can be read; every change is refused until it can be written again.")
        else:
            ensure_first_organiser()
        click.echo(f"larp: serving on {', '.join(bases)}")
        _record_serving(app.instance_path, bases)
        if blocker is None and organiser_needs_console_link():
            for line in _login_link_lines(bases):
                click.echo(line)
    from larp.webhooks.worker import start_worker

    worker = start_worker(app) if blocker is None else None  # issue 35: events go out after their commit
    try:
        serving.serve(app, host=host, port=port, threads=threads, ident="larp", connection_limit=connection_limit)
    finally:
        if worker is not None:
            worker.stop()


#: Where ``larp serve`` writes the addresses it serves on, for ``larp login-link`` to read.
SERVING_FILE = "serving.json"
DEFAULT_BASE_URL = "http://127.0.0.1:8080"


def _record_serving(instance_path: str, bases: list[str]) -> None:
    """Write the addresses ``larp serve`` answers on (loopback first, then the LAN address) to the instance folder."""
    path = Path(instance_path) / SERVING_FILE
    try:
        path.write_text(json.dumps({"bases": bases}), encoding="utf-8")
    except OSError:  # pragma: no cover - a read-only instance folder: login-link falls back to its default
        pass


def served_bases(instance_path: str) -> list[str]:
    """The addresses ``larp serve`` last announced for this instance folder (``serving.json``),
    or ``[]`` when no server has run here (or the file is unreadable)."""
    try:
        bases = json.loads((Path(instance_path) / SERVING_FILE).read_text(encoding="utf-8"))["bases"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    return [b for b in bases if isinstance(b, str) and b.startswith(("http://", "https://"))]


def chronicle_option(help_text: str = "The chronicle to work on (default: the install's only one).") -> Callable:
    """The ``--chronicle NAME`` option of the commands that work on one chronicle (issue 22)."""
    return click.option("--chronicle", "chronicle_name", default=None, metavar="NAME", help=help_text)


def chosen_chronicle(name: str | None, *, required: bool = True):
    """The chronicle called ``name``, or without a name the install's only chronicle.

    Returns ``None`` only when ``required`` is false and the install holds no chronicle.

    Raises:
        click.ClickException: no chronicle of that name, no chronicle at all, or several
            chronicles and no name (the message lists their names).
    """
    from larp.models import Chronicle
    from larp.services.transfer import chronicle_names

    def listed() -> str:
        return ", ".join(f"“{n}”" for n in chronicle_names())

    if name is not None:
        chronicle = Chronicle.get_or_none(Chronicle.name == name.strip())
        if chronicle is None:
            raise click.ClickException(f"There is no chronicle called “{name.strip()}”. The chronicles here: "
                                       f"{listed() or 'none'}.")
        return chronicle
    chronicles = list(Chronicle.select().order_by(Chronicle.id).limit(2))
    if not chronicles:
        if not required:
            return None
        raise click.ClickException("There is no chronicle yet: start the app with `larp serve` (the demo) or "
                                   "`larp serve --empty`.")
    if len(chronicles) > 1:
        raise click.ClickException(f"This install holds several chronicles: name one with --chronicle NAME "
                                   f"({listed()}).")
    return chronicles[0]


@click.command("login-link")
@click.argument("username", required=False)
@click.option("--base-url", default=None,
              help="The address in the link. Default: the addresses `larp serve` last announced for this "
                   f"instance folder (127.0.0.1 and, with --host 0.0.0.0, the LAN address), else {DEFAULT_BASE_URL}.")
@with_appcontext
def login_link(username: str | None, base_url: str | None) -> None:
    """Print a one-time login link (for USERNAME, else the first organiser), at the addresses the
    server announced when it started (so a tablet on the event network gets one it can open)."""
    bases = [base_url.rstrip("/")] if base_url else (served_bases(current_app.instance_path) or [DEFAULT_BASE_URL])
    with db.connection_context():
        for line in _login_link_lines(bases, username):
            click.echo(line)


@click.command("create-user")
@click.argument("username")
@click.option("--role", type=click.Choice(["organiser", "narrator"]), default=None,
              help="His role in the chronicle (default: narrator; organiser with --admin).")
@click.option("--name", "display_name", default="", help="Name shown on screen.")
@click.option("--admin", is_flag=True, help="Also an administrator of the install: creates, renames, archives "
                                             "and deletes chronicles and appoints their organisers.")
@chronicle_option("The chronicle he is a member of, with --role (default: the install's only one).")
@click.password_option(help="Password (asked twice if not given).")
@with_appcontext
def create_user_command(username: str, role: str | None, display_name: str, admin: bool, chronicle_name: str | None,
                        password: str) -> None:
    """Create an organiser or narrator account, a member of one chronicle (--chronicle NAME; the
    install's only one by default), and with --admin an administrator of the install. An
    administrator needs no chronicle: on an install of several, without --chronicle, he is in
    none yet and creates or joins them on the Chronicles page."""
    from larp.models import Chronicle
    from larp.services import ServiceError
    from larp.services.accounts import create_user

    role = role or ("organiser" if admin else "narrator")
    with db.connection_context():
        several = Chronicle.select().limit(2).count() > 1
        chronicle = None if admin and chronicle_name is None and several else \
            chosen_chronicle(chronicle_name, required=False)
        try:
            user = create_user(username, display_name, role, password, chronicle=chronicle, admin=admin)
        except ServiceError as exc:
            raise click.ClickException(exc.message) from None
    if chronicle is None and admin:
        click.echo(f"Created administrator {user.username}, in no chronicle yet: the Chronicles page "
                   "(/admin/chronicles) creates chronicles and appoints their people, him too.")
        return
    where = f" in “{chronicle.name}”" if chronicle is not None else " (in no chronicle yet)"
    click.echo(f"Created {role} {user.username}{where}" + (", an administrator of the install." if admin else "."))


@click.command("import-grapevine")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--include-contact", is_flag=True, help="Also import players' contact details.")
@click.option("--yes", is_flag=True, help="Import without asking after the preview.")
@chronicle_option("The chronicle the characters go into (default: the install's only one).")
@with_appcontext
def import_grapevine(files: tuple[str, ...], include_contact: bool, yes: bool, chronicle_name: str | None) -> None:
    """Import characters from Grapevine 3 XML files (.gex, .gv3) into one chronicle (--chronicle
    NAME): preview, then one transaction per file."""
    from larp.services.chronicles import scoped_to

    with db.connection_context():
        chronicle = chosen_chronicle(chronicle_name)
        with scoped_to(chronicle.id):
            _import_grapevine_files(chronicle, files, include_contact, yes)


def _import_grapevine_files(chronicle, files: tuple[str, ...], include_contact: bool, yes: bool) -> None:
    """Preview and import each Grapevine file into ``chronicle`` (``larp import-grapevine``); exit 1 if one failed."""
    from larp.services import ServiceError
    from larp.services.imports import apply_import, preview_file

    failed = False
    most = current_app.config["GRAPEVINE_MAX_BYTES"]
    for name in files:
        path = Path(name)
        try:
            if path.stat().st_size > most:  # refused before it is read into memory
                raise ServiceError(f"{path.name} is {path.stat().st_size / 1048576:.1f} MB; at most "
                                   f"{most / 1048576:.0f} MB is read (GRAPEVINE_MAX_BYTES).", field="file")
            preview = preview_file(chronicle, path.name, path.read_bytes(), include_contact, most)
        except ServiceError as exc:
            click.echo(f"{path.name}: {exc.message}", err=True)
            failed = True
            continue
        for line in preview.report().text_lines():  # the preview page's report, line for line
            click.echo(line)
        if not (preview.count("create") or preview.count("update")):
            continue
        if not yes and not click.confirm(f"Import {path.name}?", default=True):
            click.echo("Nothing imported.")
            continue
        try:
            record = apply_import(chronicle, None, preview)
        except ServiceError as exc:
            click.echo(f"{path.name}: {exc.message}", err=True)
            failed = True
            continue
        click.echo(record.summary)
    if failed:
        raise SystemExit(1)


@click.command("export-grapevine")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@click.option("--character", "characters", multiple=True, metavar="NAME_OR_CODE",
              help="Only this character (by name, any case, or card code); repeat for more. Default: everyone.")
@chronicle_option()
@with_appcontext
def export_grapevine_command(file: str, characters: tuple[str, ...], chronicle_name: str | None) -> None:
    """Write characters to FILE as a Grapevine 3 exchange file (.gex) that Grapevine reads: sheet,
    experience log, condition as Grapevine's status, what an import kept unused (issue 20).
    Contact details and narrator notes are not written. An unknown name or code writes nothing."""
    from larp.services import ServiceError
    from larp.services.chronicles import scoped_to
    from larp.models import Character
    from larp.services.grapevine_export import characters_named, export_grapevine, left_out

    with db.connection_context():
        chronicle = chosen_chronicle(chronicle_name)
        with scoped_to(chronicle.id):
            try:
                chosen = characters_named(chronicle, characters) if characters else None
            except ServiceError as exc:
                raise click.ClickException(exc.message) from None
            if chosen is None:
                chosen = list(Character.select().where(Character.chronicle == chronicle).order_by(Character.name))
            data = export_grapevine(chronicle, chosen)
            missing = left_out(chosen)
    try:
        with open(file, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise click.ClickException(_write_failure(exc, "the Grapevine file")) from None
    count = len(chosen)
    click.echo(f"Exported {plural(count, 'character')} to {file} (Grapevine 3 exchange file, Windows-1252).")
    if missing:
        click.echo("Not written, Grapevine has no place for it:")
        for line in missing:
            click.echo(f"  - {line}")


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@chronicle_option("The chronicle to export (default: the install's only one; with several, name it).")
@with_appcontext
def export_command(file: str, chronicle_name: str | None) -> None:
    """Write one whole chronicle (--chronicle NAME) to FILE as JSON: chronicle, settings, game
    sessions, characters with sheets, state, card tokens and codes, Traits lost, Ability levels
    expended, rulings with their characters, torpor records. Users are not exported."""
    import json

    from larp.services.chronicles import scoped_to
    from larp.services.transfer import export_chronicle

    with db.connection_context():
        chronicle = chosen_chronicle(chronicle_name)
        with scoped_to(chronicle.id):
            data = export_chronicle(chronicle)
    try:
        with open(file, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=1)
    except OSError as exc:
        raise click.ClickException(_write_failure(exc, "the export")) from None
    click.echo(f"Exported {data['chronicle']['name']}: {len(data['characters'])} characters, "
               f"{len(data['game_sessions'])} game sessions, {len(data['rulings'])} rulings to {file} "
               f"(format {data['format_version']}; users are not exported).")


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--replace", "replace", default=None, metavar="NAME",
              help="Delete the chronicle NAME and put the file in its place, keeping its members "
                   "(restore a backup).")
@with_appcontext
def import_command(file: str, replace: str | None) -> None:
    """Import a chronicle from FILE (written by `larp export`) in one transaction.

    The file becomes a new chronicle beside the others, whose organisers are the install's
    administrators; it replaces the install's only chronicle when that is the untouched demo
    (or an unused empty chronicle), and with --replace NAME the chronicle NAME (its members
    kept). It never mixes two: a chronicle of the file's name is refused unless replaced.
    Every character's values are checked as the sheet editor checks them. A file from a
    newer larp's export format is refused and nothing changes."""
    import json

    from larp.services import ServiceError
    from larp.services.transfer import import_chronicle

    from pathlib import Path

    most = current_app.config["CHRONICLE_MAX_BYTES"]
    try:
        size = Path(file).stat().st_size
        if size > most:  # refused before it is read into memory
            raise click.ClickException(f"{file} is {size / 1048576:.0f} MB; at most {most / 1048576:.0f} MB is read "
                                       "(CHRONICLE_MAX_BYTES). Nothing was imported.")
        text = Path(file).read_bytes().decode("utf-8-sig")
        data = json.loads(text, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise click.ClickException(f"{file} is not UTF-8 text, as every larp export is (is it the right file?). "
                                   "Nothing was imported.") from None
    except (OSError, ValueError) as exc:
        raise click.ClickException(f"{file} is not a readable JSON file: {str(exc)[:200]}. Nothing was imported.") from None
    except RecursionError:
        raise click.ClickException(f"{file} nests its JSON too deep to be a larp export. Nothing was imported.") from None
    with db.connection_context():
        try:
            chronicle, notes = import_chronicle(data, replace=replace)  # a new one: the administrators organise it
        except ServiceError as exc:
            raise click.ClickException(exc.message) from None
    click.echo(f"Imported {chronicle.name}: {len(data['characters'])} characters, {len(data['rulings'])} rulings.")
    for note in notes:
        click.echo(note)


def _write_failure(exc: BaseException, what: str) -> str:
    """Why a file was not written, in words (a full disk above all: issue 27), never a traceback."""
    import errno

    text = str(exc).lower()
    if getattr(exc, "errno", None) == errno.ENOSPC or "disk is full" in text or "no space left" in text:
        return f"The disk is full: {what} was not written."
    if getattr(exc, "errno", None) in (errno.EACCES, errno.EROFS, errno.EPERM):
        return f"Cannot write there ({getattr(exc, 'strerror', None) or exc}): {what} was not written."
    return f"{what[0].upper()}{what[1:]} was not written: {getattr(exc, 'strerror', None) or exc}."


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a larp export writes")


@click.command("backup", epilog=(
    "To restore: stop larp; move the instance folder's larp.sqlite3 aside together with its "
    "larp.sqlite3-wal and larp.sqlite3-shm files if present; copy the backup file to "
    "larp.sqlite3 in the instance folder; start larp again."))
@click.argument("path", required=False, type=click.Path(dir_okay=False))
@with_appcontext
def backup_command(path: str | None) -> None:
    """Copy the live SQLite database to PATH (default: backups/larp-<date-time>.sqlite3 in
    the instance folder) with SQLite's online backup API: a consistent copy, safe while
    the app is running."""
    from datetime import datetime
    from pathlib import Path

    import sqlite3

    from larp.services import ServiceError
    from larp.services.transfer import backup_sqlite

    target = Path(path) if path else (
        Path(current_app.instance_path) / "backups" / f"larp-{datetime.now():%Y%m%d-%H%M%S}.sqlite3")
    try:
        written = backup_sqlite(current_app.config["DATABASE_URL"], target)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from None
    except (OSError, sqlite3.Error) as exc:
        raise click.ClickException(_write_failure(exc, "the backup")) from None
    click.echo(f"Backed up the database to {written} ({written.stat().st_size} bytes).")
    click.echo("To restore it, stop larp and copy it over larp.sqlite3 in the instance folder "
               "(see larp backup --help).")


@click.command("demo-downtime")
@chronicle_option("The demo chronicle to play (default: the install's only one).")
@with_appcontext
def demo_downtime_command(chronicle_name: str | None) -> None:
    """Play a fortnight on the fresh demo chronicle (torpor, aggravated wounds, a hurt ghoul)
    and open game session 2 today, so the organiser's board has something to show."""
    from datetime import date

    from larp.services import ServiceError
    from larp.services.chronicles import scoped_to
    from larp.services.demo import apply_downtime_demo

    with db.connection_context():
        chronicle = chosen_chronicle(chronicle_name)
        try:
            with scoped_to(chronicle.id):
                apply_downtime_demo(chronicle, date.today())
        except ServiceError as exc:
            raise click.ClickException(exc.message) from None
    click.echo("Demo: game session 1 was a fortnight ago; game session 2 is open today. See /board.")


#: Commands that need the app; registered on ``app.cli`` so that both ``larp``
#: (FlaskGroup lists the app's commands) and Flask's test CLI runner see them.
APP_COMMANDS = (login_link, create_user_command, import_grapevine, export_grapevine_command, export_command, import_command, backup_command,
                demo_downtime_command)


def register_commands(app) -> None:
    """Add the app-level commands to ``app.cli`` (Flask's test CLI runner invokes them there)."""
    for command in APP_COMMANDS:
        app.cli.add_command(command)


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
    click.echo(f"Database: {redacted(url)}")
    path = sqlite_path(url) if url.startswith("sqlite") else None
    if url.startswith("sqlite") and (path is None or not path.exists()):
        raise click.ClickException(f"There is no larp database at {path}.")
    database = bind(url)
    with db.connection_context():
        state = inspect_schema(database)
        applied = _applied_times(database) if not state.legacy else {}
    if state.empty:
        raise click.ClickException("The database holds no larp chronicle (larp serve creates one).")
    if state.legacy:
        click.echo("Made before migrations existed (commit 676dabd's schema): the next command to open it "
                   "records it as 0001_initial.")
    for name in state.applied:
        mark = "?" if name in state.unknown else "x"
        click.echo(f"  [{mark}] {name}  applied {applied.get(name, '')}")
    for name in state.pending:
        click.echo(f"  [ ] {name}  pending")
    if state.unknown:
        raise click.ClickException(
            f"This database was upgraded by a newer larp ({', '.join(state.unknown)}): install that version.")
    if state.pending or state.legacy:
        click.echo(f"{plural(len(state.pending), 'migration')} pending: run `larp db upgrade` (or start larp serve).")
        raise SystemExit(1)
    click.echo("Up to date.")


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
    click.echo(f"Database: {redacted(url)}")
    try:
        report = prepare_database(url, create=False)
    except SchemaError as exc:
        raise click.ClickException(exc.message) from None
    for line in report.lines():
        click.echo(line[0].upper() + line[1:] + ".")
    if not report.changed:
        click.echo("Already up to date: nothing to do.")
