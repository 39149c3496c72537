"""Error pages: every error is a readable page (or fragment), never a stack trace."""

from __future__ import annotations

import json

import peewee
from flask import Flask, jsonify, redirect, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.routing import RequestRedirect

from larp.db import BUSY, FULL, READ_ONLY, database_trouble, db
from larp.htmx import is_partial, refresh_response
from larp.models import UnstorableText
from larp.rules.explain import RulesError

#: What a narrator reads when the database cannot take a change (503), by :func:`larp.db.database_trouble`.
TROUBLE = {
    BUSY: ("Try again in a moment",
           "The database is busy with an import: try again in a moment. Nothing was recorded."),
    FULL: ("The server's disk is full",
           "The server's disk is full, so nothing was recorded. Reading still works. Free some space on "
           "the server (tell the organiser), then do it again."),
    READ_ONLY: ("The database is read-only",
                "The database cannot be written on this server (its files are read-only), so nothing was "
                "recorded. Reading still works. Tell the organiser."),
}
UNREACHABLE_MESSAGE = ("The server cannot reach its database just now, so nothing was done. "
                       "Try again in a moment, and tell the organiser if it goes on.")


def error_response(message: str, field: str | None, status: int):
    """The API's JSON error body ``{"error": ..., "field": ...}`` with its status (issue 21)."""
    return jsonify(error=message, field=field), status


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def page_above(app: Flask, path: str) -> str | None:
    """The nearest address above ``path`` (dropping its last parts one by one) that answers a GET,
    or ``None`` (then "/" is not one either)."""
    adapter = app.url_map.bind("localhost")
    parts = path.rstrip("/").split("/")
    while len(parts) > 1:
        parts.pop()
        candidate = "/".join(parts) or "/"
        try:
            adapter.match(candidate, method="GET")
        except RequestRedirect:
            return candidate
        except HTTPException:
            continue
        return candidate
    return None


def register(app: Flask) -> None:
    """Install the error handlers on ``app``."""

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError):
        """A missing or stale CSRF token: 403, and htmx reloads the page to get a fresh one."""
        message = "This page was open too long or came from elsewhere. Reload it and try again."
        if _wants_json():
            return jsonify(error=message, field="csrf_token"), 403
        if is_partial():
            return refresh_response(message, 403)
        return render_template("errors/error.html", title="Please reload", message=message), 403

    def refusal(title: str, message: str, status: int, field: str | None = None, retry: bool = False):
        if _wants_json():
            response = jsonify(error=message, field=field)
        else:
            template = "errors/_error.html" if is_partial() else "errors/error.html"
            response = app.make_response(render_template(template, title=title, message=message, retry=retry))
        response.status_code = status
        if retry:
            response.headers["Retry-After"] = "2"
            if is_partial():
                # The screen stays as it is (the form keeps what was entered) and says to tap again.
                response.headers["HX-Reswap"] = "none"
                response.headers["HX-Trigger"] = json.dumps(
                    {"larp:retry": {"message": f"{message} What you entered is still here: tap the same button again."}})
        return response

    @app.errorhandler(UnstorableText)
    def unstorable(exc: UnstorableText):
        """A text too long for its field (or not storable): 422 naming the field; the transaction was rolled back."""
        return refusal("Too long", exc.message, 422, exc.field)

    @app.errorhandler(RulesError)
    def rules_error(exc: RulesError):
        """Input the rules cannot read (a number that is not one...) that reached no form: 422 naming the field."""
        return refusal("Please check the form", exc.message, 422, exc.field)

    @app.errorhandler(peewee.PeeweeException)
    def database_error(exc: Exception):
        """The database cannot take the request (busy, disk full, read-only, unreachable): 503 with
        ``Retry-After``, saying that nothing was recorded; any other database error is a bug (500)."""
        trouble = database_trouble(exc, db)
        if trouble is None:
            return unexpected(exc)
        app.logger.warning("Database %s: %s", trouble, exc)
        title, message = TROUBLE.get(trouble, ("Try again in a moment", UNREACHABLE_MESSAGE))
        return refusal(title, message, 503, retry=True)

    @app.errorhandler(MethodNotAllowed)
    def method_not_allowed(exc: MethodNotAllowed):
        """A GET of a form's POST-only address (a reload after a refused form, Enter in the address
        bar): 303 to the nearest page above it (``/characters/5/undo`` → ``/characters/5``), where the
        form lives; the API and other methods keep the plain 405."""
        if request.method in ("GET", "HEAD") and not _wants_json():
            page = page_above(app, request.path)
            if page is not None:  # under the server's prefix and the chronicle's (/chronicles/<id>)
                return redirect(request.script_root + page, code=303)
        return http_error(exc)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        """Any HTTP error as a readable page, fragment or JSON body (under /api/)."""
        if _wants_json():
            return jsonify(error=exc.description or exc.name), exc.code
        template = "errors/_error.html" if is_partial() else "errors/error.html"
        return render_template(template, title=exc.name, message=exc.description or ""), exc.code

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        """A bug: logged, and a 500 asking to check the record (a change may or may not have been made)."""
        if isinstance(exc, HTTPException):  # pragma: no cover - handled above
            return http_error(exc)
        app.logger.exception("Unexpected error")
        message = ("Something went wrong on the server. Look at the record before trying again, "
                   "and tell the organiser.")
        if _wants_json():
            return jsonify(error=message), 500
        template = "errors/_error.html" if is_partial() else "errors/error.html"
        return render_template(template, title="Server error", message=message), 500
