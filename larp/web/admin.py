"""The install's chronicles, for its administrators (issue 22): create, rename, archive, delete,
and appoint each chronicle's organisers. Belongs to no chronicle (:data:`larp.web.scope.UNSCOPED`)."""

from __future__ import annotations

import functools
import json
from datetime import date
from typing import Callable

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext
from peewee import fn

from larp.db import as_id
from larp.htmx import render
from larp.models import Character, Chronicle, Membership, User
from larp.services import ServiceError
from larp.services.memberships import (add_member, create_chronicle, delete_chronicle, members_by_chronicle, staff_role,
                                       rename_chronicle, set_archived)
from larp.web.auth import login_required
from larp.web.downloads import attachment, file_slug

bp = Blueprint("admin", __name__, url_prefix="/admin")


def admin_required(view: Callable) -> Callable:
    """Only an administrator of the install (``User.is_admin``); anyone else logged in gets 404,
    as if the pages did not exist."""

    @functools.wraps(view)
    @login_required
    def wrapped(*args, **kwargs):
        if not g.user.is_admin:
            abort(404)
        return view(*args, **kwargs)

    return wrapped


def _chronicle(chronicle_id: int) -> Chronicle:
    chronicle = Chronicle.get_or_none(Chronicle.id == chronicle_id)
    if chronicle is None:
        abort(404)
    return chronicle


def _page(status: int = 200, error: ServiceError | None = None, error_for: int | None = None,
          issued: dict | None = None, managing: bool = False):
    # ``managing``: the refused form was one of "Rename, archive or delete", which then stays open
    # with its message, so the administrator sees what to correct where he typed it.
    chronicles = list(Chronicle.select().order_by(Chronicle.archived_at.is_null(False), Chronicle.name))
    counts = {row.chronicle_id: row.n for row in Character.select(Character.chronicle, fn.COUNT(Character.id).alias("n"))
              .where(Character.retired_at.is_null()).group_by(Character.chronicle)}
    everyone = members_by_chronicle()
    people = {c.id: everyone.get(c.id, []) for c in chronicles}
    mine = {m.chronicle_id for m in Membership.select(Membership.chronicle).where(Membership.user == g.user.id)}
    return render("admin/chronicles.html", "admin/chronicles.html", status=status, chronicles=chronicles,
                  counts=counts, people=people, mine=mine, error=error, error_for=error_for, issued=issued,
                  managing=managing, shown=as_id(request.args.get("shown")),
                  roles=User.STAFF_ROLES)


def _done(chronicle: Chronicle, message: str):
    """A 303 back to the Chronicles page at ``chronicle``'s panel, which says ``message`` itself (a
    message at the top of the page would be scrolled past by the jump to the panel)."""
    flash(message, "chronicle")
    return redirect(url_for("admin.chronicles", shown=chronicle.id) + f"#chronicle-{chronicle.id}", code=303)


@bp.route("/chronicles", methods=["GET"])
@admin_required
def chronicles():
    """Every chronicle of the install with its characters and people, and the forms that keep them.
    Query ``shown``: the chronicle whose panel shows the message of what was just done to it."""
    return _page()


@bp.route("/chronicles", methods=["POST"])
@admin_required
def create():
    """A new chronicle (form ``name``; game session 1 opens today). The administrator becomes its
    first organiser unless he ticks ``not_member``; he can appoint others below."""
    try:
        chronicle = create_chronicle(request.form.get("name", ""), date.today(),
                                     None if request.form.get("not_member") else g.user)
    except ServiceError as exc:
        return _page(exc.status, error=exc)
    return _done(chronicle, gettext("Created the chronicle %(name)s. Appoint its organisers here.", name=chronicle.name))


@bp.route("/chronicles/<int:chronicle_id>/rename", methods=["POST"])
@admin_required
def rename(chronicle_id: int):
    """Rename a chronicle (form ``name``)."""
    chronicle = _chronicle(chronicle_id)
    try:
        chronicle = rename_chronicle(chronicle, request.form.get("name", ""))
    except ServiceError as exc:
        return _page(exc.status, error=exc, error_for=chronicle_id, managing=True)
    return _done(chronicle, gettext("The chronicle is now called %(name)s.", name=chronicle.name))


@bp.route("/chronicles/<int:chronicle_id>/archive", methods=["POST"])
@admin_required
def archive(chronicle_id: int):
    """Archive a chronicle (form ``archived`` "1"), or restore it ("0"): archived, it is kept
    whole but off every switcher, and its people cannot open it."""
    chronicle = set_archived(_chronicle(chronicle_id), request.form.get("archived") == "1")
    return _done(chronicle, gettext("%(name)s is archived.", name=chronicle.name) if chronicle.archived_at
                 else gettext("%(name)s is restored.", name=chronicle.name))


@bp.route("/chronicles/<int:chronicle_id>/export")
@admin_required
def export(chronicle_id: int):
    """Download a chronicle as the JSON file ``larp import`` reads (before deleting it)."""
    from larp.services.transfer import export_chronicle

    chronicle = _chronicle(chronicle_id)
    return attachment(json.dumps(export_chronicle(chronicle), ensure_ascii=False, indent=1),
                      f"{file_slug(chronicle.name)}-{date.today().isoformat()}.json", mimetype="application/json")


@bp.route("/chronicles/<int:chronicle_id>/delete", methods=["POST"])
@admin_required
def delete(chronicle_id: int):
    """Delete a chronicle and everything in it, for good (form ``confirm_name``: its name, typed).
    The page offers its export first. Its people's accounts stay."""
    chronicle = _chronicle(chronicle_id)
    try:
        delete_chronicle(chronicle, request.form.get("confirm_name", ""))
    except ServiceError as exc:
        return _page(exc.status, error=exc, error_for=chronicle_id, managing=True)
    flash(gettext("Deleted the chronicle %(name)s and everything in it.", name=chronicle.name))
    return redirect(url_for("admin.chronicles"), code=303)


@bp.route("/chronicles/<int:chronicle_id>/appoint", methods=["POST"])
@admin_required
def appoint(chronicle_id: int):
    """Appoint someone to a chronicle: form ``username``, ``role`` (organiser by default, or
    narrator). An account of that name joins the chronicle with that role; when there is none,
    it is made (``display_name``, no password) and a one-time login link is shown, once, on the
    page (not redirected, so the link never travels in the session cookie)."""
    from flask import current_app

    from larp.services.accounts import create_login_link, create_user

    chronicle = _chronicle(chronicle_id)
    name = (request.form.get("username", "") or "").strip().lower()[:60]
    role = request.form.get("role") or "organiser"
    try:
        staff_role(role)  # an administrator appoints organisers and narrators, never players
        user = User.get_or_none(User.username == name) if name else None
        if user is None:
            user = create_user(name, request.form.get("display_name", ""), role, None, chronicle=chronicle)
            token = create_login_link(user, hours=current_app.config["LOGIN_LINK_HOURS"])
            issued = {"user": user, "chronicle": chronicle, "hours": current_app.config["LOGIN_LINK_HOURS"],
                      "link": url_for("auth.login_link", token=token, _external=True)}
            return _page(issued=issued)
        add_member(chronicle, user, role)
    except ServiceError as exc:
        return _page(exc.status, error=exc, error_for=chronicle_id)
    return _done(chronicle, gettext("%(username)s is now an organiser of %(name)s.", username=user.username,
                                     name=chronicle.name) if role == "organiser"
                 else gettext("%(username)s is now a narrator of %(name)s.", username=user.username, name=chronicle.name))
