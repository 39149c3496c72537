"""The ``larp`` commands that need the app and are about its people: ``login-link`` and ``create-user``,
and :func:`register_commands`, which puts them and the data commands (:mod:`larp.cli_data`) on
``app.cli`` (the app factory calls it; :mod:`larp.cli` adds the same commands to ``larp``).
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from flask_babel import gettext, ngettext

from larp.cli_data import (backup_command, chosen_chronicle, chronicle_option, demo_downtime_command, export_command,
                           export_grapevine_command, import_command, import_grapevine, said)
from larp.db import db


def login_link_lines(base_urls: list[str], username: str | None = None) -> list[str]:
    """The lines that give a one-time login link for ``username`` (else the first organiser, made if
    there is none) at each of ``base_urls``, valid ``LOGIN_LINK_HOURS`` hours.

    Raises:
        click.ClickException: no user called ``username``.
    """
    from larp.models import User
    from larp.services.accounts import create_login_link, ensure_first_organiser
    from larp.web.terms import term

    if username:
        user = User.get_or_none(User.username == username.strip().lower())
        if user is None:
            raise click.ClickException(gettext("There is no user called %(username)s.", username=username))
    else:
        user = ensure_first_organiser()
    token = create_login_link(user, hours=current_app.config["LOGIN_LINK_HOURS"])
    hours = current_app.config["LOGIN_LINK_HOURS"]
    lines = [ngettext("One-time login link for %(username)s (%(role)s), valid %(num)s hour:",
                      "One-time login link for %(username)s (%(role)s), valid %(num)s hours:", hours,
                      username=user.username, role=term(user.role))]
    lines += [f"    {base}/login/link/{token}" for base in base_urls]
    lines.append(gettext("Open it once, then set a password on the Account page."))
    return lines


#: Where ``larp serve`` writes the addresses it serves on, for ``larp login-link`` to read.
SERVING_FILE = "serving.json"
DEFAULT_BASE_URL = "http://127.0.0.1:8080"


def record_serving(instance_path: str, bases: list[str]) -> None:
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
        for line in login_link_lines(bases, username):
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
    from larp.web.terms import term

    role = role or ("organiser" if admin else "narrator")
    with db.connection_context():
        several = Chronicle.select().limit(2).count() > 1
        chronicle = None if admin and chronicle_name is None and several else \
            chosen_chronicle(chronicle_name, required=False)
        try:
            user = create_user(username, display_name, role, password, chronicle=chronicle, admin=admin)
        except ServiceError as exc:
            raise click.ClickException(said(exc.message)) from None
    if chronicle is None and admin:
        click.echo(gettext("Created administrator %(username)s, in no chronicle yet: the Chronicles page "
                           "(/admin/chronicles) creates chronicles and appoints their people, him too.",
                           username=user.username))
        return
    if chronicle is None:
        click.echo(gettext("Created %(role)s %(username)s (in no chronicle yet).", role=term(role), username=user.username))
    elif admin:
        click.echo(gettext("Created %(role)s %(username)s in “%(chronicle)s”, an administrator of the install.",
                           role=term(role), username=user.username, chronicle=chronicle.name))
    else:
        click.echo(gettext("Created %(role)s %(username)s in “%(chronicle)s”.", role=term(role), username=user.username,
                           chronicle=chronicle.name))


#: Commands that need the app; registered on ``app.cli`` so that both ``larp``
#: (FlaskGroup lists the app's commands) and Flask's test CLI runner see them.
APP_COMMANDS = (login_link, create_user_command, import_grapevine, export_grapevine_command, export_command, import_command, backup_command,
                demo_downtime_command)


def register_commands(app) -> None:
    """Add the app-level commands to ``app.cli`` (Flask's test CLI runner invokes them there)."""
    for command in APP_COMMANDS:
        app.cli.add_command(command)
