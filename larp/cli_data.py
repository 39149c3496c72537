"""The ``larp`` commands that move a chronicle's data: ``import-grapevine``, ``export-grapevine``,
``export``, ``import``, ``backup`` and ``demo-downtime``, with the ``--chronicle`` option every
command that works on one chronicle shares (issue 22). :mod:`larp.cli` registers them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import click
from flask import current_app
from flask.cli import with_appcontext

from flask_babel import gettext, ngettext

from larp.db import db
from larp.rules.explain import Phrase


def said(value: object) -> str:
    """A line for the console in the command's language (:func:`larp.i18n.console_language`): a phrase
    said, anything else as it is."""
    from larp.i18n import phrase_for_reader

    return phrase_for_reader(value) if isinstance(value, Phrase) else str(value)


def chronicle_option(help_text: str = "The chronicle to work on (default: the install's only one).") -> Callable:
    """The ``--chronicle NAME`` option of the commands that work on one chronicle (issue 22)."""
    return click.option("--chronicle", "chronicle_name", default=None, metavar="NAME", help=help_text)


def chosen_chronicle(name: str | None, *, required: bool = True):
    """The chronicle called ``name``, or without a name the install's only chronicle; the command's
    lines are then in its language (the chronicle setting ``language``: :func:`larp.i18n.console_language`).

    Returns ``None`` only when ``required`` is false and the install holds no chronicle.

    Raises:
        click.ClickException: no chronicle of that name, no chronicle at all, or several
            chronicles and no name (the message lists their names).
    """
    from larp.i18n import read_in_chronicle
    from larp.models import Chronicle
    from larp.services.transfer import chronicle_names

    def listed() -> str:
        return ", ".join(f"“{n}”" for n in chronicle_names())

    if name is not None:
        chronicle = Chronicle.get_or_none(Chronicle.name == name.strip())
        if chronicle is None:
            raise click.ClickException(gettext("There is no chronicle called “%(name)s”. The chronicles here: %(names)s.",
                                               name=name.strip(), names=listed() or gettext("none")))
        read_in_chronicle(chronicle)
        return chronicle
    chronicles = list(Chronicle.select().order_by(Chronicle.id).limit(2))
    if not chronicles:
        if not required:
            return None
        raise click.ClickException(gettext("There is no chronicle yet: start the app with `larp serve` (the demo) "
                                           "or `larp serve --empty`."))
    if len(chronicles) > 1:
        raise click.ClickException(gettext("This install holds several chronicles: name one with --chronicle NAME "
                                           "(%(names)s).", names=listed()))
    read_in_chronicle(chronicles[0])
    return chronicles[0]


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
    from larp.i18n import summary_text
    from larp.services import ServiceError
    from larp.services.imports import apply_import, preview_file

    failed = False
    most = current_app.config["GRAPEVINE_MAX_BYTES"]
    for name in files:
        path = Path(name)
        try:
            if path.stat().st_size > most:  # refused before it is read into memory
                raise ServiceError(gettext("%(file)s is %(size)s MB; at most %(most)s MB is read (GRAPEVINE_MAX_BYTES).",
                                           file=path.name, size=_megabytes(path.stat().st_size, 1),
                                           most=_megabytes(most)), field="file")
            preview = preview_file(chronicle, path.name, path.read_bytes(), include_contact, most)
        except ServiceError as exc:
            click.echo(f"{path.name}: {said(exc.message)}", err=True)
            failed = True
            continue
        for line in preview.report().text_lines(said):  # the preview page's report, line for line
            click.echo(line)
        if not (preview.count("create") or preview.count("update")):
            continue
        if not yes and not click.confirm(gettext("Import %(file)s?", file=path.name), default=True):
            click.echo(gettext("Nothing imported."))
            continue
        try:
            record = apply_import(chronicle, None, preview)
        except ServiceError as exc:
            click.echo(f"{path.name}: {said(exc.message)}", err=True)
            failed = True
            continue
        click.echo(summary_text(record))
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
                raise click.ClickException(said(exc.message)) from None
            if chosen is None:
                chosen = list(Character.select().where(Character.chronicle == chronicle).order_by(Character.name))
            data = export_grapevine(chronicle, chosen)
            missing = left_out(chosen)
    try:
        with open(file, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise click.ClickException(_write_failure(exc, gettext("the Grapevine file"))) from None
    count = len(chosen)
    click.echo(ngettext("Exported %(num)s character to %(file)s (Grapevine 3 exchange file, Windows-1252).",
                        "Exported %(num)s characters to %(file)s (Grapevine 3 exchange file, Windows-1252).", count,
                        file=file))
    if missing:
        click.echo(gettext("Not written, Grapevine has no place for it:"))
        for line in missing:
            click.echo(f"  - {said(line)}")


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
        raise click.ClickException(_write_failure(exc, gettext("the export"))) from None
    click.echo(gettext("Exported %(chronicle)s: %(characters)s, %(sessions)s, %(rulings)s to %(file)s (format %(format)s; "
                       "users are not exported).", chronicle=data["chronicle"]["name"],
                       characters=ngettext("%(num)s character", "%(num)s characters", len(data["characters"])),
                       sessions=ngettext("%(num)s game session", "%(num)s game sessions", len(data["game_sessions"])),
                       rulings=ngettext("%(num)s ruling", "%(num)s rulings", len(data["rulings"])), file=file,
                       format=data["format_version"]))


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

    from larp.i18n import read_in_chronicle
    from larp.services import ServiceError
    from larp.services.transfer import import_chronicle

    from pathlib import Path

    most = current_app.config["CHRONICLE_MAX_BYTES"]
    try:
        size = Path(file).stat().st_size
        if size > most:  # refused before it is read into memory
            raise click.ClickException(gettext("%(file)s is %(size)s MB; at most %(most)s MB is read (CHRONICLE_MAX_BYTES). "
                                               "Nothing was imported.", file=file, size=_megabytes(size),
                                               most=_megabytes(most)))
        text = Path(file).read_bytes().decode("utf-8-sig")
        data = json.loads(text, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise click.ClickException(gettext("%(file)s is not UTF-8 text, as every larp export is (is it the right "
                                           "file?). Nothing was imported.", file=file)) from None
    except (OSError, ValueError) as exc:
        raise click.ClickException(gettext("%(file)s is not a readable JSON file: %(why)s. Nothing was imported.",
                                           file=file, why=str(exc)[:200])) from None
    except RecursionError:
        raise click.ClickException(gettext("%(file)s nests its JSON too deep to be a larp export. Nothing was "
                                           "imported.", file=file)) from None
    with db.connection_context():
        try:
            chronicle, notes = import_chronicle(data, replace=replace)  # a new one: the administrators organise it
        except ServiceError as exc:
            raise click.ClickException(said(exc.message)) from None
        read_in_chronicle(chronicle)  # the lines below in the imported chronicle's language
    click.echo(gettext("Imported %(chronicle)s: %(characters)s, %(rulings)s.", chronicle=chronicle.name,
                       characters=ngettext("%(num)s character", "%(num)s characters", len(data["characters"])),
                       rulings=ngettext("%(num)s ruling", "%(num)s rulings", len(data["rulings"]))))
    for note in notes:
        click.echo(said(note))


def _megabytes(size: int, places: int = 0) -> str:
    """``size`` (bytes) in megabytes, to ``places`` decimals."""
    return format(size / 1048576, f".{places}f")


def _write_failure(exc: BaseException, what: str) -> str:
    """Why a file was not written, in words (a full disk above all: issue 27), never a traceback.
    ``what`` names the file in the command's language ("the backup")."""
    import errno

    text = str(exc).lower()
    why = getattr(exc, "strerror", None) or exc
    if getattr(exc, "errno", None) == errno.ENOSPC or "disk is full" in text or "no space left" in text:
        return gettext("The disk is full: %(what)s was not written.", what=what)
    if getattr(exc, "errno", None) in (errno.EACCES, errno.EROFS, errno.EPERM):
        return gettext("Cannot write there (%(why)s): %(what)s was not written.", why=why, what=what)
    return gettext("%(what)s was not written: %(why)s.", what=what[:1].upper() + what[1:], why=why)


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
    from larp.services.backup import backup_sqlite

    target = Path(path) if path else (
        Path(current_app.instance_path) / "backups" / f"larp-{datetime.now():%Y%m%d-%H%M%S}.sqlite3")
    try:
        written = backup_sqlite(current_app.config["DATABASE_URL"], target)
    except ServiceError as exc:
        raise click.ClickException(said(exc.message)) from None
    except (OSError, sqlite3.Error) as exc:
        raise click.ClickException(_write_failure(exc, gettext("the backup"))) from None
    click.echo(gettext("Backed up the database to %(file)s (%(size)s bytes).", file=written, size=written.stat().st_size))
    click.echo(gettext("To restore it, stop larp and copy it over larp.sqlite3 in the instance folder "
                       "(see larp backup --help)."))


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
            raise click.ClickException(said(exc.message)) from None
    click.echo(gettext("Demo: game session 1 was a fortnight ago; game session 2 is open today. See /board."))
