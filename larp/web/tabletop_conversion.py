"""The character sheet's "Convert from tabletop" (issue 30 item 7): each converted value shown before it is
saved (:mod:`larp.services.tabletop_conversion`)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, request, url_for
from flask_babel import lazy_gettext as _l, gettext

from larp.htmx import render
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle
from larp.services.tabletop_conversion import apply_conversion, preview_conversion
from larp.sheet_checks import SheetError
from larp.web import inputs
from larp.web.auth import role_required

bp = Blueprint("tabletop_conversion", __name__)

LABELS = {"willpower_permanent": _l("Willpower (permanent)"), "morality_rating": _l("Humanity or Path")}


def _page(character_id: int, status: int = 200, error: ServiceError | None = None):
    chronicle = get_chronicle()
    try:
        preview = preview_conversion(chronicle, character_id)
    except ServiceError as exc:
        if exc.status == 404:
            abort(404)
        return render("sheets/convert.html", "sheets/convert.html", status=exc.status, chronicle=chronicle,
                      preview=None, error=exc, character_id=character_id, labels=LABELS)
    return render("sheets/convert.html", "sheets/convert.html", status=status, chronicle=chronicle, preview=preview,
                  error=error, character_id=character_id, labels=LABELS)


@bp.route("/characters/<int:character_id>/convert-tabletop")
@role_required("organiser", "narrator")
def preview(character_id: int):
    """The character's tabletop ratings converted to live values, each shown; nothing is saved."""
    return _page(character_id)


@bp.route("/characters/<int:character_id>/convert-tabletop", methods=["POST"])
@role_required("organiser", "narrator")
def save(character_id: int):
    """Save the converted Willpower and Humanity or Path (one recorded sheet change); a character changed since
    the preview is refused (409) and the page shows the values again."""
    try:
        version = inputs.whole(request.form, "version", low=0, required=True)
        character, record = apply_conversion(get_chronicle(), g.user, character_id, version)
    except SheetError as exc:  # before ServiceError, which a sheet's refusal also is
        return _page(character_id, 422, ServiceError(str(exc), field="tabletop"))
    except ServiceError as exc:
        if exc.status == 404:
            abort(404)
        return _page(character_id, exc.status, exc)
    flash(gettext("Converted from tabletop: %(what)s", what=record.summary.split(': ', 1)[-1]) if record else
          gettext("Nothing changed: the sheet already had the converted values."))
    return redirect(url_for("sheets.edit", character_id=character.id) + "#tabletop", code=303)
