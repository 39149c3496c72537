"""Error pages: every error is a readable page (or fragment), never a stack trace."""

from __future__ import annotations

import json

import peewee
from flask import Flask, jsonify, redirect, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.routing import RequestRedirect

from larp.db import BUSY, FULL, READ_ONLY, database_trouble, db
from larp.htmx import is_partial, refresh_response
from larp.i18n import N_, said_if_phrase
from larp.models import UnstorableText
from larp.rules.explain import RulesError

#: What a narrator reads when the database cannot take a change (503), by :func:`larp.db.database_trouble`.
TROUBLE = {
    BUSY: (N_("Try again in a moment"),
           N_("The database is busy with an import: try again in a moment. Nothing was recorded.")),
    FULL: (N_("The server's disk is full"),
           N_("The server's disk is full, so nothing was recorded. Reading still works. Free some space on "
              "the server (tell the organiser), then do it again.")),
    READ_ONLY: (N_("The database is read-only"),
                N_("The database cannot be written on this server (its files are read-only), so nothing was "
                   "recorded. Reading still works. Tell the organiser.")),
}
UNREACHABLE_MESSAGE = N_("The server cannot reach its database just now, so nothing was done. "
                         "Try again in a moment, and tell the organiser if it goes on.")
#: The HTTP errors a reader meets, by status: werkzeug's name and its default description, marked for
#: the catalogues (issue 36). A view's own description (``abort(404, description=...)``) is its own.
HTTP_WORDS = {
    400: (N_("Bad Request"), N_("The browser (or proxy) sent a request that this server could not understand.")),
    403: (N_("Forbidden"), N_("You don't have the permission to access the requested resource. It is either "
                             "read-protected or not readable by the server.")),
    404: (N_("Not Found"), N_("The requested URL was not found on the server. If you entered the URL manually "
                             "please check your spelling and try again.")),
    405: (N_("Method Not Allowed"), N_("The method is not allowed for the requested URL.")),
    409: (N_("Conflict"), N_("A conflict happened while processing the request. The resource might have been "
                            "modified while the request was being processed.")),
    413: (N_("Request Entity Too Large"), N_("The data value transmitted exceeds the capacity limit.")),
    429: (N_("Too Many Requests"), N_("This user has exceeded an allotted request count. Try again later.")),
}


def error_response(message: str, field: str | None, status: int):
    """The API's JSON error body ``{"error": ..., "field": ...}`` with its status (issue 21); a refusal
    written as a phrase is said in the API's language (English unless ``Accept-Language`` asks for
    another, issue 36), its field name unchanged."""
    return jsonify(error=said_if_phrase(message), field=field), status


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
        message = gettext("This page was open too long or came from elsewhere. Reload it and try again.")
        if _wants_json():
            return jsonify(error=message, field="csrf_token"), 403
        if is_partial():
            return refresh_response(message, 403)
        return render_template("errors/error.html", title=gettext("Please reload"), message=message), 403

    def refusal(title: str, message: str, status: int, field: str | None = None, retry: bool = False):
        if _wants_json():
            response = jsonify(error=said_if_phrase(message), field=field)
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
                    {"larp:retry": {"message": gettext("%(message)s What you entered is still here: tap the same button "
                                                       "again.", message=message)}})
        return response

    @app.errorhandler(UnstorableText)
    def unstorable(exc: UnstorableText):
        """A text too long for its field (or not storable): 422 naming the field; the transaction was rolled back."""
        return refusal(gettext("Too long"), exc.message, 422, exc.field)

    @app.errorhandler(RulesError)
    def rules_error(exc: RulesError):
        """Input the rules cannot read (a number that is not one...) that reached no form: 422 naming the field."""
        return refusal(gettext("Please check the form"), exc.message, 422, exc.field)

    @app.errorhandler(peewee.PeeweeException)
    def database_error(exc: Exception):
        """The database cannot take the request (busy, disk full, read-only, unreachable): 503 with
        ``Retry-After``, saying that nothing was recorded; any other database error is a bug (500)."""
        trouble = database_trouble(exc, db)
        if trouble is None:
            return unexpected(exc)
        app.logger.warning("Database %s: %s", trouble, exc)
        title, message = TROUBLE.get(trouble, (N_("Try again in a moment"), UNREACHABLE_MESSAGE))
        return refusal(gettext(title), gettext(message), 503, retry=True)

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
        name, description = exc.name, exc.description or ""
        words = HTTP_WORDS.get(exc.code or 0)
        if words is not None:
            name = gettext(words[0])
            if description == type(exc).description:  # werkzeug's own words, not a view's
                description = gettext(words[1])
        if _wants_json():
            return jsonify(error=said_if_phrase(description or name)), exc.code
        template = "errors/_error.html" if is_partial() else "errors/error.html"
        return render_template(template, title=name, message=description), exc.code

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        """A bug: logged, and a 500 asking to check the record (a change may or may not have been made)."""
        if isinstance(exc, HTTPException):  # pragma: no cover - handled above
            return http_error(exc)
        app.logger.exception("Unexpected error")
        message = gettext("Something went wrong on the server. Look at the record before trying again, "
                          "and tell the organiser.")
        if _wants_json():
            return jsonify(error=message), 500
        template = "errors/_error.html" if is_partial() else "errors/error.html"
        return render_template(template, title=gettext("Server error"), message=message), 500
