"""Logging in and out, and the decorators that guard every other view."""

from __future__ import annotations

import functools
import secrets
from typing import Callable
from urllib.parse import unquote, urlsplit

from itsdangerous import BadSignature, URLSafeSerializer
from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, session, url_for

from flask_babel import gettext

from larp.models import User
from larp.services import ServiceError
from larp.db import as_id
from larp.services.accounts import consume_login_link, end_sessions, log_in
from larp.services.session_user import session_user

bp = Blueprint("auth", __name__)


@bp.before_app_request
def load_logged_in_user() -> None:
    """Put the logged-in, active user (or ``None``) on ``g.user`` (nobody for static files, which
    must not read the session: reading it marks the response ``Vary: Cookie`` and re-sends the cookie).
    A session whose user's session generation has moved on (logout, a new password, deactivation,
    "log out everywhere") is ended."""
    if request.endpoint == "static":
        g.user = None
        return
    bearer = _bearer_token()
    if bearer is not None:
        # A program's call (issue 21): the token alone decides, the session cookie is not read
        # (nor re-sent). Only under /api/v1, whose JSON-only bodies need no CSRF token.
        from larp.services.api_tokens import token_user

        found = token_user(bearer)
        g.user, g.api_token = found if found else (None, None)
        g.bearer_refused = found is None
        return
    found = session_user(as_id(session.get("user_id")), session.get("generation"),
                         current_app.extensions.get("larp.change_stamp")) if "user_id" in session else None
    if found is None:
        if session.get("user_id") is not None:
            session.clear()
        g.user = None
        return
    # One query read him, his chronicles and roles (larp.services.session_user): the request's
    # scope (larp.web.scope) and the switcher take them from here.
    g.user = found.user
    g._my_chronicles = found.chronicles
    g._several_chronicles = found.several_chronicles


def _bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer ...`` header on an API request, else ``None``
    (web pages ignore the header: they work with the session cookie only)."""
    if request.blueprint != "api":
        return None
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token


def start_session(user: User, generation: int | None = None) -> None:
    """Log ``user`` in on this browser: a fresh session (no fixation) in the user's current
    session generation (or ``generation``, just moved on by this request)."""
    session.clear()
    session["user_id"] = user.id
    session["generation"] = user.session_generation if generation is None else generation
    session.permanent = True


def login_required(view: Callable) -> Callable:
    """Send anyone not logged in to the login page (htmx: a full redirect)."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if g.get("user") is None:
            if request.headers.get("HX-Request"):
                response = redirect(url_for("auth.login", next=request.script_root + request.full_path))
                response.headers["HX-Redirect"] = url_for("auth.login")
                return response
            return redirect(url_for("auth.login", next=request.script_root + request.full_path))
        return view(*args, **kwargs)

    return wrapped


def _refused_to(roles: tuple[str, ...]) -> str:
    """What a 403 says to someone whose role is not among ``roles``, in his language."""
    if set(roles) == {"organiser", "narrator"}:
        return gettext("This page is for organisers and narrators only. Ask an organiser if you need it.")
    if tuple(roles) == ("organiser",):
        return gettext("This page is for organisers only. Ask an organiser if you need it.")
    return gettext("This page is for %(roles)s only. Ask an organiser if you need it.",
                   roles=" and ".join(f"{r}s" for r in roles))


def role_required(*roles: str) -> Callable:
    """Allow only logged-in users with one of ``roles``; others get 403."""

    def decorator(view: Callable) -> Callable:
        @functools.wraps(view)
        @login_required
        def wrapped(*args, **kwargs):
            if g.user.role not in roles:
                abort(403, description=_refused_to(roles))
            return view(*args, **kwargs)

        return wrapped

    return decorator


def safe_next(target: str | None) -> str:
    """Where to go after logging in: ``target`` when it is a path on this site, else the home page.

    Only a relative path that parses to this host is kept, judged as given and after decoding: a
    browser drops tabs and newlines from a URL and reads a backslash as a slash, so ``/<tab>/evil.example/``
    (``/%09/evil.example/``) or ``/<backslash>evil.example`` would leave the site as ``//evil.example``.
    Anything with a control character, a space or a backslash, a scheme or a host, is refused.
    """
    home = url_for("index")
    if not target:
        return home
    for text in (target, unquote(target)):
        if any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F or ch == "\\" for ch in text):
            return home
        parts = urlsplit(text)
        if parts.scheme or parts.netloc or not text.startswith("/") or text.startswith("//"):
            return home
    return target


@bp.route("/login", methods=["GET", "POST"])
def login():
    """The login form (user name and password); on success, back where the user was going.

    Wrong name or password: 401; too many wrong passwords for the name, or from this
    address: 429 (``LOGIN_*`` settings; :mod:`larp.services.lockout`). A successful login
    leaves a signed device cookie, so that a lock others cause on the name does not apply to
    this browser.
    """
    error = None
    status = 200
    if request.method == "POST":
        config = current_app.config
        username = (request.form.get("username", "") or "").strip().lower()[:60]
        device = _device_of(username)
        try:
            user = log_in(
                username,
                request.form.get("password", ""),
                max_failures=config["LOGIN_LOCKOUT_FAILURES"],
                window_minutes=config["LOGIN_LOCKOUT_MINUTES"],
                address=request.remote_addr,
                device=device,
                address_failures=config["LOGIN_ADDRESS_FAILURES"],
                backoff_seconds=config["LOGIN_BACKOFF_SECONDS"],
            )
        except ServiceError as exc:
            error, status = exc.message, exc.status
        else:
            start_session(user)
            response = redirect(safe_next(request.args.get("next")), code=303)
            _remember_device(response, user.username, device)
            return response
    return render_template("auth/login.html", error=error), status


#: The cookie that marks a browser the account has logged in from (see :mod:`larp.services.lockout`).
DEVICE_COOKIE = "larp_device"


def _device_serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt="larp-device")


def _device_of(username: str) -> str | None:
    """This browser's device id, when its device cookie was signed for ``username``."""
    try:
        data = _device_serializer().loads(request.cookies.get(DEVICE_COOKIE, ""))
    except BadSignature:
        return None
    if isinstance(data, dict) and data.get("n") == username and isinstance(data.get("d"), str):
        return data["d"][:32]
    return None


def _remember_device(response, username: str, device: str | None) -> None:
    value = _device_serializer().dumps({"n": username, "d": device or secrets.token_urlsafe(16)})
    response.set_cookie(DEVICE_COOKIE, value, max_age=365 * 24 * 3600, httponly=True, samesite="Lax",
                        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))


@bp.route("/login/link/<token>")
def login_link(token: str):
    """Log in through a one-time link (printed on the server console or shown on the Users page).

    Invalid, used or expired: 404. A user with no password yet goes on to the
    Account page to set one.
    """
    try:
        user = consume_login_link(token)
    except ServiceError as exc:
        return render_template("errors/error.html", title=gettext("Login link not valid"), message=exc.message), 404
    start_session(user)
    flash(gettext("Logged in as %(name)s.", name=user.display_name))
    if not user.password_hash:
        flash(gettext("Set a password now: the login link worked only once."))
        return redirect(url_for("accounts.account"), code=303)
    return redirect(url_for("index"), code=303)


@bp.route("/logout", methods=["POST"])
def logout():
    """Log out (also the "switch user" button on shared tablets): every session of the user ends,
    so a copy of this browser's cookie, or the same account on another tablet, is logged out too."""
    if g.get("user") is not None:
        end_sessions(g.user)
    session.clear()
    return redirect(url_for("auth.login"), code=303)
