"""Error pages: every error is a readable page (or fragment), never a stack trace."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from larp.htmx import is_partial, refresh_response


def _wants_json() -> bool:
    return request.path.startswith("/api/")


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
