"""Error pages: every error is a readable page (or fragment), never a stack trace."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from larp.htmx import is_partial, refresh_response


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _nul_field(value: Any, path: str) -> str | None:
    """The first field (dotted path) of a JSON value whose text holds a NUL character, if any."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(key, str) and "\x00" in key:
            return path or key
        found = _nul_field(item, f"{path}.{key}" if path else str(key))
        if found:
            return found
    return None


def register(app: Flask) -> None:
    """Install the error handlers on ``app``, and refuse text with a NUL character (400 naming the
    field): PostgreSQL cannot hold one in any text, so neither engine takes it."""

    @app.before_request
    def refuse_nul_characters():
        field = next((key for key, value in (request.view_args or {}).items()
                      if isinstance(value, str) and "\x00" in value), None)
        field = field or next((key for key, values in request.args.lists() if "\x00" in key
                               or any("\x00" in v for v in values)), None)
        if field is None and request.method != "GET":
            if request.is_json:
                field = _nul_field(request.get_json(silent=True), "")
            elif request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
                field = next((key for key, values in request.form.lists() if "\x00" in key
                              or any("\x00" in v for v in values)), None)
        if field is None:
            return None
        message = f"{field or 'The request'} holds a NUL character, which no field takes."
        if _wants_json():
            return jsonify(error=message, field=field), 400
        template = "errors/_error.html" if is_partial() else "errors/error.html"
        return render_template(template, title="Bad request", message=message), 400

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError):
        """A missing or stale CSRF token: 403, and htmx reloads the page to get a fresh one."""
        message = "This page was open too long or came from elsewhere. Reload it and try again."
        if _wants_json():
            return jsonify(error=message, field="csrf_token"), 403
        if is_partial():
            return refresh_response(message, 403)
        return render_template("errors/error.html", title="Please reload", message=message), 403

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
