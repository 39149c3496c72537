"""Accounts: one's own password (Account page) and, for organisers, everyone's accounts (Users page)."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext

from larp.htmx import render
from larp.models import User
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError
from larp.services.accounts import (
    MIN_PASSWORD_LENGTH,
    change_password,
    create_login_link,
    create_user,
    end_sessions,
    get_user,
    set_user_active,
)
from larp.services.api_tokens import create_token, list_tokens, revoke_token
from larp.services.chronicles import get_chronicle
from larp.services.memberships import add_member, get_member, manages, members_of, remove_member, set_role, staff_role
from larp.web.scope import chronicle_or_none
from larp.services.records import AlreadyRecorded
from larp.web.auth import role_required, start_session

bp = Blueprint("accounts", __name__)


@bp.route("/account", methods=["GET", "POST"])
@role_required("organiser", "narrator", "player")
def account():
    """Set or change one's own password; "Log out everywhere".

    Form: ``current`` (only when a password is set), ``password``, ``repeat``.
    A refused change answers 422 with the message at the field and changes nothing.
    A new password ends every other session of the account (this one carries on).
    """
    error = None
    if request.method == "POST":
        try:
            change_password(g.user, request.form.get("current", ""), request.form.get("password", ""),
                            request.form.get("repeat", ""))
        except ServiceError as exc:
            error = exc
        else:
            start_session(User.get_by_id(g.user.id))  # this browser stays in; every other session ended
            flash(gettext("Your password is set. Every other device logged in as you is logged out."))
            return redirect(url_for("accounts.account"), code=303)
    return _account_page(error)


def _account_page(error: ServiceError | None = None, token_error: ServiceError | None = None,
                  issued: dict | None = None, language_error: ServiceError | None = None):
    refused = error or token_error or language_error
    status = refused.status if refused else 200
    roles = {"organiser": ("narrator", "organiser"), "narrator": ("narrator",)}.get(g.user.role, ("player",))
    return render_template("accounts/account.html", chronicle=chronicle_or_none(), error=error,
                           token_error=token_error, issued=issued, tokens=list_tokens(g.user), token_roles=roles,
                           min_length=MIN_PASSWORD_LENGTH, language_error=language_error), status


@bp.route("/account/tokens", methods=["POST"])
@role_required("organiser", "narrator", "player")
def create_api_token():
    """Make a personal API token (issue 21) and show it, once, on the page (not redirected, so
    the token never travels in the session cookie; only its SHA-256 is stored).

    Form: ``name`` (what the record shows as the narrator), ``role`` (no higher than one's own),
    ``expires_on`` (a date, or empty for none). Refused: 422 (403 for a higher role) with the
    message at the field, nothing made.
    """
    form = request.form
    try:
        row, raw = create_token(g.user, form.get("name", ""), form.get("role", ""), form.get("expires_on") or None,
                                chronicle=chronicle_or_none())
    except AlreadyRecorded as exc:  # a double tap: the first tap made it and showed it
        return _account_page(token_error=ServiceError(
            Phrase.message(N_("This token was already made (ruling #%(id)s: %(summary)s), and its secret was shown "
                              "only that once. If it was lost, revoke it below and make another."),
                           id=str(exc.ruling.id), summary=exc.ruling.summary), status=409))
    except ServiceError as exc:
        return _account_page(token_error=exc)
    return _account_page(issued={"token": row, "raw": raw})


@bp.route("/account/tokens/<int:token_id>/revoke", methods=["POST"])
@role_required("organiser", "narrator", "player")
def revoke_api_token(token_id: int):
    """Revoke one of one's own API tokens: its next call is refused (401)."""
    try:
        row = revoke_token(g.user, token_id, chronicle=chronicle_or_none())
    except AlreadyRecorded as exc:  # a double tap: the first tap revoked it
        return _account_page(token_error=ServiceError(
            Phrase.message(N_("This token was already revoked (ruling #%(id)s: %(summary)s)."),
                           id=str(exc.ruling.id), summary=exc.ruling.summary), status=409))
    except ServiceError as exc:
        return _account_page(token_error=exc)
    flash(gettext("The token “%(name)s” is revoked: programs using it are refused from now on.", name=row.name))
    return redirect(url_for("accounts.account"), code=303)


@bp.route("/account/logout-everywhere", methods=["POST"])
@role_required("organiser", "narrator", "player")
def logout_everywhere():
    """End every session of one's own account, on every device, this one included (a lost tablet,
    a cookie that may have been copied)."""
    end_sessions(g.user)
    session.clear()
    flash(gettext("You are logged out on every device. Log in again here."))
    return redirect(url_for("auth.login"), code=303)


def _users_page(status: int = 200, error: ServiceError | None = None, issued: dict | None = None,
                error_user: int | None = None):
    chronicle = get_chronicle()
    members = [{"user": u, "role": role, "manages": manages(g.user, u)} for u, role in members_of(chronicle)]
    members.sort(key=lambda m: (not m["user"].active, m["user"].username))
    return render("accounts/users.html", "accounts/users.html", status=status, chronicle=chronicle,
                  members=members, error=error, error_user=error_user, issued=issued, roles=("narrator", "organiser"),
                  min_length=MIN_PASSWORD_LENGTH, link_hours=current_app.config["LOGIN_LINK_HOURS"])


@bp.route("/users", methods=["GET"])
@role_required("organiser")
def users():
    """The chronicle's people (issue 22: only this chronicle's), a form to create an account or
    add an existing one, and per person: role, removal, deactivation and a one-time login link."""
    return _users_page()


@bp.route("/users", methods=["POST"])
@role_required("organiser")
def create():
    """Create a narrator or organiser account in this chronicle (password optional: without one,
    issue a login link)."""
    form = request.form
    try:
        user = create_user(form.get("username", ""), form.get("display_name", ""), staff_role(form.get("role", "")),
                           form.get("password") or None, chronicle=chronicle_or_none())
    except ServiceError as exc:
        return _users_page(exc.status, error=exc)
    if user.password_hash:
        flash(gettext("Created %(role)s %(username)s.", role=gettext(user.role), username=user.username))
    else:
        flash(gettext("Created %(role)s %(username)s. Give them a one-time login link to set a password.",
                      role=gettext(user.role), username=user.username))
    return redirect(url_for("accounts.users"), code=303)


@bp.route("/users/add", methods=["POST"])
@role_required("organiser")
def add_existing():
    """Add an account of this server (someone already in another chronicle) to this chronicle.

    Form: ``username``, ``role`` (narrator or organiser). Unknown name: 404 at the field.
    """
    form = request.form
    name = (form.get("username", "") or "").strip().lower()[:60]
    try:
        user = User.get_or_none(User.username == name) if name else None
        if user is None:
            raise ServiceError(Phrase.message(N_("There is no account called “%(name)s” on this server."),
                                              name=name), field="add_username",
                               status=404)
        add_member(get_chronicle(), user, staff_role(form.get("role", "")))
    except ServiceError as exc:
        return _users_page(exc.status, error=exc)
    flash(gettext("%(username)s is now an organiser of this chronicle.", username=user.username)
          if staff_role(form.get("role", "")) == "organiser"
          else gettext("%(username)s is now a narrator of this chronicle.", username=user.username))
    return redirect(url_for("accounts.users"), code=303)


@bp.route("/users/<int:user_id>/role", methods=["POST"])
@role_required("organiser")
def change_role(user_id: int):
    """Make a member of this chronicle a narrator or an organiser of it (form ``role``)."""
    chronicle = get_chronicle()
    try:
        user, _ = get_member(chronicle, user_id)
        wanted = request.form.get("role", "")
        set_role(chronicle, user, staff_role(wanted))
    except ServiceError as exc:
        return _users_page(exc.status, error=exc)
    flash(gettext("%(username)s is now an organiser of this chronicle.", username=user.username)
          if staff_role(wanted) == "organiser"
          else gettext("%(username)s is now a narrator of this chronicle.", username=user.username))
    return redirect(url_for("accounts.users"), code=303)


@bp.route("/users/<int:user_id>/remove", methods=["POST"])
@role_required("organiser")
def remove(user_id: int):
    """Take a member out of this chronicle (his account, and his other chronicles, stay). Form:
    ``confirm=yes`` (the tick beside the button); without it nothing changes (422 at the tick)."""
    chronicle = get_chronicle()
    try:
        user, _ = get_member(chronicle, user_id)
        if user.id == g.user.id:
            raise ServiceError(Phrase.message(N_("You cannot take yourself out of the chronicle: ask another "
                                                 "organiser.")), status=409)
        if request.form.get("confirm") != "yes":
            raise ServiceError(Phrase.message(N_("Tick “Yes, take %(display_name)s out” to confirm."),
                                              display_name=user.display_name), field="confirm")
        remove_member(chronicle, user)
    except ServiceError as exc:
        return _users_page(exc.status, error=exc, error_user=user_id)
    flash(gettext("%(username)s is no longer in this chronicle.", username=user.username))
    return redirect(url_for("accounts.users"), code=303)


@bp.route("/users/<int:user_id>/deactivate", methods=["POST"])
@role_required("organiser")
def deactivate(user_id: int):
    """Deactivate an account: it can no longer log in (its rulings stay in the record)."""
    return _set_active(user_id, False)


@bp.route("/users/<int:user_id>/activate", methods=["POST"])
@role_required("organiser")
def activate(user_id: int):
    """Let a deactivated account log in again."""
    return _set_active(user_id, True)


def _managed(user_id: int) -> User:
    """A member of this chronicle whose account the acting organiser may act on (404 when not a
    member, 403 when he is also in a chronicle the organiser does not run)."""
    user, _ = get_member(get_chronicle(), user_id)
    if not manages(g.user, user):
        raise ServiceError(Phrase.message(N_("%(username)s also works in a chronicle you do not organise: ask an "
                                             "administrator."), username=user.username),
                           status=403)
    return user


def _set_active(user_id: int, active: bool):
    try:
        set_user_active(g.user, _managed(user_id).id, active)
        user = get_user(user_id)
    except ServiceError as exc:
        return _users_page(exc.status, error=exc)
    flash(gettext("%(username)s is active.", username=user.username) if user.active
          else gettext("%(username)s is deactivated.", username=user.username))
    return redirect(url_for("accounts.users"), code=303)


@bp.route("/users/<int:user_id>/login-link", methods=["POST"])
@role_required("organiser")
def login_link(user_id: int):
    """Issue a one-time login link for an account of this chronicle and show it on screen, once.

    The page is answered directly (not redirected) so the link is never
    stored in the session cookie; only the token's SHA-256 is stored.
    """
    try:
        user = _managed(user_id)
        if not user.active:
            raise ServiceError(Phrase.message(N_("%(username)s is deactivated: activate the account first."),
                                              username=user.username), status=409)
    except ServiceError as exc:
        return _users_page(exc.status, error=exc)
    token = create_login_link(user, hours=current_app.config["LOGIN_LINK_HOURS"])
    link = url_for("auth.login_link", token=token, _external=True)
    return _users_page(issued={"user": user, "link": link})


@bp.route("/account/language", methods=["POST"])
@role_required("organiser", "narrator", "player")
def set_own_language():
    """Choose the language one reads the app in (issue 36 item 2); "" for the chronicle's default.

    Form: ``language`` (``en``, ``pt_BR``, ``es`` or ""). The answer is the account page, in the new
    language (a 303 to it); a language the app does not speak answers 422 with the message at the field.
    """
    from flask_babel import refresh

    from larp.services.languages import set_language

    try:
        chosen = set_language(g.user, request.form.get("language", ""))
    except ServiceError as exc:
        return _account_page(language_error=exc)
    g.user.language = chosen  # this request's copy too, so the message below is in the new language
    refresh()
    flash(gettext("Your language is saved: every page you open is now in it."))
    return redirect(url_for("accounts.account"), code=303)
