"""Importing Grapevine files (organisers): upload, preview, confirm."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from larp.i18n import summary_text
from larp.services import ServiceError, read_number
from larp.services.chronicles import get_chronicle
from larp.services.imports import apply_import, discard_pending, pending_preview, stash_upload
from larp.web.auth import role_required

bp = Blueprint("imports", __name__)


@bp.route("/import", methods=["GET", "POST"])
@role_required("organiser")
def upload():
    """Upload a Grapevine 3 XML file (.gex or .gv3); show what importing it would do."""
    chronicle = get_chronicle()
    if request.method == "GET":
        return render_template("imports/upload.html", chronicle=chronicle, error=None)
    upload_file = request.files.get("file")
    data = upload_file.read() if upload_file else b""
    filename = (upload_file.filename if upload_file else "") or "upload.gex"
    if upload_file and upload_file.filename and not data:  # chosen, but nothing in it (new user 12)
        error = ServiceError(gettext("The file “%(name)s” is empty: nothing to import. Choose the Grapevine file "
                                     "again, or save it again from Grapevine.", name=upload_file.filename), field="file")
        return render_template("imports/upload.html", chronicle=chronicle, error=error), error.status
    try:
        token, preview = stash_upload(chronicle, g.user, filename, data, bool(request.form.get("include_contact")),
                                      current_app.config["GRAPEVINE_MAX_BYTES"])
    except ServiceError as exc:
        return render_template("imports/upload.html", chronicle=chronicle, error=exc), exc.status
    return redirect(url_for("imports.preview", token=token), code=303)


@bp.route("/import/<token>", methods=["GET", "POST"])
@role_required("organiser")
def preview(token: str):
    """The preview of an uploaded file; POST applies the ticked characters in one transaction."""
    chronicle = get_chronicle()
    try:
        pending, preview = pending_preview(chronicle, g.user, token)
    except ServiceError as exc:
        return render_template("errors/error.html", chronicle=chronicle, title=gettext("Import not found"),
                               message=exc.message), exc.status
    error = None
    if request.method == "POST":
        try:
            selected = {read_number(v, "selected", low=0, high=len(preview.lines), required=True)
                        for v in request.form.getlist("selected")}
            record = apply_import(chronicle, g.user, preview, selected)
        except ServiceError as exc:
            error = exc
        else:
            discard_pending(pending)
            flash(summary_text(record))
            return redirect(url_for("characters.list_characters"), code=303)
    return render_template("imports/preview.html", chronicle=chronicle, preview=preview, report=preview.report(),
                           token=token, pending=pending, error=error), (error.status if error else 200)
