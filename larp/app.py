"""The application factory."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import click
from flask import Flask, abort, g, request, session
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from larp import config as larp_config
from larp.csrf import csrf
from larp.change_stamp import change_stamp
from larp.db import MAX_ID, db, prepare_database, sqlite_path
from larp.htmx import htmx, is_partial, landing
from larp.i18n import N_, init_i18n
from larp.paths import resource_dir
from larp.table_check import load_all_tables
from larp.wire import init_wire

#: Content-Security-Policy: no inline script or style, no eval (stack-notes 6.5).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


def create_app(test_config: dict[str, Any] | None = None, *, create_database: bool = False,
               start_empty: bool = False, database_pool: int = 0, load_demo: bool = True) -> Flask:
    """Build the Flask app.

    Args:
        test_config: configuration that replaces the instance config file
            (tests pass ``DATABASE_URL``, ``SECRET_KEY``, ``INSTANCE_PATH``...).
            ``RANDOM_SOURCE`` (a callable returning an object with
            ``choice``) injects the randomness of narrator throws.
            ``BEHIND_PROXY`` (or ``LARP_BEHIND_PROXY=1``) trusts one proxy
            hop's ``X-Forwarded-*`` headers (werkzeug ``ProxyFix``).
            ``CREATE_DATABASE`` true is the same as ``create_database``.
            ``START_EMPTY`` true (``larp serve --empty``): a new install starts
            with an empty chronicle, and an untouched demo is replaced by one
            (:func:`larp.services.chronicles.start_empty`).
        create_database: whether a database that does not exist yet may be
            created (``larp serve``); every other command refuses to make one.
        start_empty: the same as ``START_EMPTY`` (``larp serve --empty``).
        database_pool: PostgreSQL connections kept open between requests
            (``larp serve``: one per worker thread; 0: a connection per request).
        load_demo: false when this start restores a chronicle export (``larp import`` on a new
            install): the demo is not loaded just to be replaced.

    Before anything else the database is brought to the current schema
    (:func:`larp.db.prepare_database`: pending migrations, after a copy of an
    SQLite file), and what was applied is printed. The first start creates
    the instance folder, its secret key, the schema and, unless ``LOAD_DEMO``
    is false or ``START_EMPTY`` true, the demo chronicle (saying so on the console).

    Raises:
        larp.tables.TableError: a rules table under ``data/`` is missing or malformed (names the
            file and the entry); nothing is started.
        larp.schema.SchemaError: the database is missing (and may not be
            created), newer than this code, or could not be upgraded; nothing
            was changed.
    """
    instance_path = None
    if test_config and test_config.get("INSTANCE_PATH"):
        instance_path = str(test_config["INSTANCE_PATH"])
    app = LarpFlask(
        "larp",
        instance_path=instance_path or larp_config.default_instance_path(),
        instance_relative_config=True,
        template_folder=str(resource_dir("templates")),
        static_folder=str(resource_dir("static")),
    )
    app.config.from_mapping(larp_config.DEFAULTS)
    # Every rules table loaded and checked now: a malformed file under data/ stops the start with a
    # message naming the file and the entry, never a ruling at the table (issue 29 item 5).
    load_all_tables()
    instance = Path(app.instance_path)
    overrides = larp_config.environment_overrides(instance)
    if test_config is not None:
        overrides.update(test_config)
    create = create_database or bool(overrides.get("CREATE_DATABASE"))
    # The schema first, before anything is written into the instance folder: a command run
    # in the wrong folder must not leave a new instance there.
    report = prepare_database(overrides["DATABASE_URL"], create=create, pool=database_pool)
    if report.changed:
        for line in report.lines():
            click.echo(f"larp: {line}", err=True)
    app.extensions["larp.schema"] = report
    # Issue 29 item 6: on SQLite a request's user is read again only after a commit (larp.change_stamp).
    url = overrides["DATABASE_URL"]
    app.extensions["larp.change_stamp"] = change_stamp(sqlite_path(url)) if url.startswith("sqlite") else None
    if test_config is None:
        app.config.from_pyfile(str(larp_config.instance_config_file(instance)))
    else:
        instance.mkdir(parents=True, exist_ok=True)
    app.config.update(overrides)
    app.config.setdefault("RANDOM_SOURCE", random.SystemRandom)

    if start_empty:
        app.config["START_EMPTY"] = True
    if app.config.get("START_EMPTY"):
        from datetime import date

        from larp.services.chronicles import start_empty

        with db.connection_context():
            _, said = start_empty(date.today())
        click.echo(f"larp: {said}", err=True)
    elif app.config.get("LOAD_DEMO") and load_demo:
        from larp.services.demo import ensure_demo_chronicle

        with db.connection_context():
            loaded = ensure_demo_chronicle()
        if loaded is not None:
            click.echo(f"larp: loaded the demo chronicle “{loaded.name}” (start with `larp serve --empty` "
                       "for an empty one; an organiser can remove the demo under Organise)", err=True)

    from larp.web import cards, scope

    cards.mount_nothing_changed(app)  # innermost: the card poll's 204 before Flask (issue 29)
    scope.mount(app)  # inside ProxyFix: the forwarded prefix first, then the chronicle's
    if app.config.get("BEHIND_PROXY"):
        # Only when told: trusting X-Forwarded-* from anyone would let a client fake HTTPS or its address.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_prefix=1)  # type: ignore[method-assign]
    app.url_map.converters["int"] = BoundedIntConverter
    htmx.init_app(app)
    app.add_template_global(landing, "landing")
    csrf.init_app(app)
    init_wire(app)
    _sync_functions_once(app)
    init_i18n(app)  # the reader's language (issue 36): Flask-Babel, catalogues in larp/translations
    _register_database_hooks(app)
    _register_security_headers(app)

    from larp.cli_commands import register_commands
    from larp.web import register_blueprints

    register_blueprints(app)
    scope.install(app)
    register_commands(app)
    return app


class LarpFlask(Flask):
    """Flask, with URLs that name the request's chronicle (:mod:`larp.web.scope`)."""

    def url_for(self, endpoint: str, **values: Any) -> str:
        """``url_for``, keeping the chronicle's prefix off what belongs to no chronicle."""
        from larp.web.scope import chronicle_url_for

        return chronicle_url_for(self, endpoint, **values)


def digits_up_to(limit: int) -> str:
    """A regular expression matching exactly the decimal numbers 0 to ``limit`` (leading zeros allowed)."""
    text = str(limit)
    options = [rf"\d{{1,{len(text) - 1}}}"] if len(text) > 1 else []
    for i, digit in enumerate(text):
        if digit != "0":
            below = "0" if digit == "1" else f"[0-{int(digit) - 1}]"
            rest = len(text) - i - 1
            options.append(text[:i] + below + (rf"\d{{{rest}}}" if rest else ""))
    options.append(text)
    return "(?:" + "|".join(options) + ")"


class BoundedIntConverter(IntegerConverter):
    """``<int:...>`` in every route, refusing ids the database cannot hold (a plain 404, not a 500).

    The bound is in the path's pattern, not only in the conversion: werkzeug answers a number
    its conversion refuses with a 405 when another method's rule has the same path (a PATCH of
    character 99999999999 would say "method not allowed" instead of "not found")."""

    regex = digits_up_to(MAX_ID)

    def __init__(self, map, *args, **kwargs):  # noqa: A002 - werkzeug's signature
        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)


def _register_database_hooks(app: Flask) -> None:
    @app.before_request
    def _refuse_unstorable_text():
        # A form or query value no database takes even to compare with (a NUL: PostgreSQL refuses
        # the whole query) is refused here, once, naming the field, before any view reads it.
        from larp.models import unstorable_reason

        # werkzeug parses a form only from these two types: any other request has none to check.
        sources = (request.args, request.form) if request.mimetype in _FORM_TYPES else (request.args,)
        for source in sources:
            for key, value in source.items(multi=True):
                why = unstorable_reason(key) or unstorable_reason(value)
                if why:
                    if is_partial() and source is request.form:
                        return _unstorable_in_place(key)
                    abort(400, description=f"The field “{key[:40]}” {why}: type it again without it.")
        return None

    @app.before_request
    def _connect() -> None:
        # The connection is opened by the request's first query (peewee's autoconnect), not before: a
        # request that reads nothing (its user remembered, larp.services.session_user) takes none from
        # the pool (issue 29 item 6). Remember whether one was open already, so that a connection
        # opened around the request (CLI, tests) is left open for its owner.
        g._db_was_open = not db.is_closed()

    @app.teardown_request
    def _close(exc: BaseException | None) -> None:
        if not g.get("_db_was_open", True) and not db.is_closed():
            db.close()


#: The refusal of a form's text no database takes, said at the top of the form (``%(field)s``: the label).
UNSTORABLE_IN_FORM = N_("%(field)s: the text holds something invisible that cannot be stored (a paste can "
                        "bring it). Type it again without it.")


def _unstorable_in_place(key: str):
    """An htmx form holding text no database takes (new-user test 12, finding 9): refused where the
    user is, as every other bad value is. The form is not replaced (what was typed stays): the
    message goes in at the top of the form that sent it (``HX-Retarget: closest form``, relative to
    the requesting element, htmx 2), with the status 422 the app's htmx configuration swaps, and
    app.js names the field as the page labels it (``data-field``: the input's name) and marks it."""
    from flask import make_response, render_template
    from flask_babel import gettext
    from markupsafe import Markup, escape

    # The sentence is translated whole, the label's slot kept as markup for app.js to fill.
    label = Markup('<q class="field-label">%s</q>') % gettext("this box")
    message = Markup(escape(gettext(UNSTORABLE_IN_FORM))) % {"field": label}
    response = make_response(render_template("errors/_unstorable.html", field=key[:200], message=message), 422)
    response.headers["HX-Retarget"] = "closest form"
    response.headers["HX-Reswap"] = "afterbegin"
    response.headers["Vary"] = "HX-Request"
    return response


#: The request bodies werkzeug reads a form from (``request.form`` is empty for every other one).
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

#: The answers that carry no content (RFC 9110: 204 No Content, 304 Not Modified).
_NO_CONTENT = (204, 304)

#: The headers every document gets (a view's own value of one is kept).
_DOCUMENT_HEADERS = (("Content-Security-Policy", CSP), ("Referrer-Policy", "same-origin"),
                     ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"))


def _register_security_headers(app: Flask) -> None:
    @app.after_request
    def _headers(response):
        if response.status_code in _NO_CONTENT:
            # No content, no document: none of these headers applies to it (issue 29: a game night's
            # phones get this answer 200 times a second, and each header costs the server).
            return response
        headers = response.headers
        present = {name.lower() for name in headers.keys()}  # one look at what the view set (issue 29)

        def add(name: str, value: str) -> None:
            if name.lower() not in present:
                headers.add(name, value)

        add("X-Content-Type-Options", "nosniff")
        static = request.endpoint == "static"
        if static and response.mimetype in ("text/css", "text/javascript"):
            # A stylesheet or script is not a document: the page's policy governs it.
            return response
        for name, value in _DOCUMENT_HEADERS:
            add(name, value)
        # Static files never touch the session: no "Vary: Cookie" or new cookie on files everyone shares.
        if not static and (g.get("user") is not None or session.get("user_id")):
            # Character pages must not linger in a shared tablet's cache.
            add("Cache-Control", "no-store")
        return response


def _sync_functions_once(app: Flask) -> None:
    """Flask asks, of every view and every before/after/teardown function on every request, whether it
    is a coroutine function (``ensure_sync``: ``inspect.iscoroutinefunction``, 13 times a page here).
    The answer never changes for a function: ask once per function (issue 29 item 6, a light request)."""
    asked = app.ensure_sync
    answers: dict[Any, Any] = {}

    def ensure_sync(func):
        try:
            return answers[func]
        except KeyError:
            answers[func] = sync = asked(func)
            return sync
        except TypeError:  # a callable that cannot be a key
            return asked(func)

    app.ensure_sync = ensure_sync  # type: ignore[method-assign]
