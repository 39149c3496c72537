"""The ``larp`` command line (Flask's ``FlaskGroup`` around the app factory).

``larp serve`` runs the app through waitress (a production WSGI server that
also runs on Windows laptops); ``larp run``, ``larp routes`` and
``larp shell`` come with Flask.
"""

from __future__ import annotations

import os
import socket

import click
from flask import current_app
from flask.cli import FlaskGroup, with_appcontext

from larp.db import db


def _make_app():
    from larp import create_app

    return create_app()


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


@click.group(cls=FlaskGroup, create_app=_make_app)
def main() -> None:
    """larp: adjudication for Mind's Eye Theatre vampire LARPs."""


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets tablets on the event network connect.")
@click.option("--port", default=8080, show_default=True, type=int)
@click.option("--database", "database_url", default=None,
              help="Database URL (default: SQLite in the instance folder); postgresql://... for PostgreSQL.")
@click.option("--threads", default=8, show_default=True, type=int, help="Worker threads.")
def serve(host: str, port: int, database_url: str | None, threads: int) -> None:
    """Serve the app with waitress. The first start creates the database, loads the
    demo chronicle and prints a one-time login link for the first organiser."""
    import waitress

    from larp import create_app
    from larp.services.accounts import ensure_first_organiser, organiser_needs_console_link

    if database_url:
        os.environ["LARP_DATABASE_URL"] = database_url
    app = create_app()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    bases = [f"http://{shown}:{port}"]
    lan = lan_address()
    if host in ("0.0.0.0", "::") and lan:
        bases.append(f"http://{lan}:{port}")
    with app.app_context(), db.connection_context():
        ensure_first_organiser()
        click.echo(f"larp: instance folder {app.instance_path}")
        click.echo(f"larp: serving on {', '.join(bases)}")
        if organiser_needs_console_link():
            for line in _login_link_lines(bases):
                click.echo(line)
    waitress.serve(app, host=host, port=port, threads=threads, ident="larp")


@main.command("login-link")
@click.argument("username", required=False)
@click.option("--base-url", default="http://127.0.0.1:8080", show_default=True)
@with_appcontext
def login_link(username: str | None, base_url: str) -> None:
    """Print a one-time login link (for USERNAME, else the first organiser)."""
    with db.connection_context():
        for line in _login_link_lines([base_url.rstrip("/")], username):
            click.echo(line)


@main.command("create-user")
@click.argument("username")
@click.option("--role", type=click.Choice(["organiser", "narrator"]), default="narrator", show_default=True)
@click.option("--name", "display_name", default="", help="Name shown on screen.")
@click.password_option(help="Password (asked twice if not given).")
@with_appcontext
def create_user_command(username: str, role: str, display_name: str, password: str) -> None:
    """Create an organiser or narrator account."""
    from larp.services import ServiceError
    from larp.services.accounts import create_user

    with db.connection_context():
        try:
            user = create_user(username, display_name, role, password)
        except ServiceError as exc:
            raise click.ClickException(exc.message) from None
    click.echo(f"Created {user.role} {user.username}.")
