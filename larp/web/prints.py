"""Printed character sheets (issue 34): the print list, the pages the browser prints, and
"these were printed".

Organisers only. The print page records nothing (a GET); once the sheets have come out of the
printer, its "Mark as printed" form (a POST) remembers the print and its editions.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlparse

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from larp.models import utcnow
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle
from larp.services.printing import (BATCHES, PAPERS, batch_characters, mark_printed, paper_of, print_list,
                                    read_printed, sheets_to_print)
from larp.web.auth import role_required
from larp.web.cards import LOOPBACK_HOSTS, card_base_url

bp = Blueprint("prints", __name__)


def _list_page(status: int = 200, error: ServiceError | None = None):
    chronicle = get_chronicle()
    rows = print_list(chronicle)
    changed = len(_batch(chronicle, "changed"))
    tonight = len(_batch(chronicle, "tonight"))
    return render_template("prints/list.html", chronicle=chronicle, rows=rows, changed=changed, tonight=tonight,
                           error=error, paper=paper_of(chronicle), papers=PAPERS, batches=BATCHES), status


def _batch(chronicle, key: str) -> list:
    # The characters of a batch, or none (for its button's count).
    try:
        return batch_characters(chronicle, key, None)
    except ServiceError:
        return []


@bp.route("/sheets")
@role_required("organiser")
def print_list_page():
    """Every character in play with his sheet's edition and last print; print a selection, or every
    sheet changed since its last print."""
    return _list_page()


@bp.route("/sheets/print")
@role_required("organiser")
def print_sheets():
    """The printed sheets of one print job, laid out for the chronicle's paper (``sheet_paper``).

    Query: ``batch`` a batch's key (``changed``: every sheet changed since its last print), else the
    ticked ``character`` ids; ``paper`` ``a4`` or ``letter`` for this job only; ``narrator_notes=1``
    for an organiser's copy with the narrator notes. Nothing to print: the print list with the
    message (422, or 409 when no sheet changed).
    """
    chronicle = get_chronicle()
    batch = request.args.get("batch") or None
    chosen = None if batch else request.args.getlist("character")
    paper = paper_of(chronicle, request.args.get("paper"))
    narrator_copy = request.args.get("narrator_notes") == "1"
    base_url, configured = card_base_url(chronicle)
    as_of = utcnow().replace(microsecond=0)
    try:
        sheets = sheets_to_print(chronicle, batch, chosen, base_url, as_of, narrator_copy)
    except ServiceError as exc:
        return _list_page(exc.status, error=exc)
    here = dict(batch=batch, character=chosen or None, paper=paper,
                narrator_notes="1" if narrator_copy else None)
    return render_template(
        "prints/sheets.html", chronicle=chronicle, sheets=sheets, paper=paper, papers=PAPERS, as_of=as_of,
        base_url=base_url, configured=configured, narrator_copy=narrator_copy,
        batch_label=BATCHES[batch].label if batch else None,
        loopback=(urlparse(base_url).hostname or "") in LOOPBACK_HOSTS,
        paper_urls={key: url_for("prints.print_sheets", **{**here, "paper": key}) for key in PAPERS},
        copy_url=url_for("prints.print_sheets", **{**here, "narrator_notes": None if narrator_copy else "1"}))


@bp.route("/sheets/printed", methods=["POST"])
@role_required("organiser")
def printed():
    """Remember that the sheets of a print job came out of the printer: each ``printed`` value is
    ``<character id>:<edition>``; ``as_of`` the time stamped on them (ISO 8601, UTC). A damaged form:
    the print list with the message (422)."""
    chronicle = get_chronicle()
    try:
        pairs = read_printed(request.form.getlist("printed"))
        try:
            at = datetime.fromisoformat(request.form.get("as_of", ""))
        except ValueError:
            raise ServiceError(gettext("The print job's time is damaged: print the sheets again from the print list."),
                               field="as_of") from None
        if at.tzinfo is not None or at > utcnow() + timedelta(minutes=5):
            raise ServiceError(gettext("The print job's time is not a time of this server: print the sheets again."),
                               field="as_of")
        marked = mark_printed(chronicle, pairs, at)
    except ServiceError as exc:
        return _list_page(exc.status, error=exc)
    count = len(pairs)
    flash(ngettext("Marked %(num)s sheet as printed.", "Marked %(num)s sheets as printed.", count)
          + (" " + gettext("%(count)s had a later print already, which stays.", count=count - marked)
             if marked < count else ""))
    return redirect(url_for("prints.print_list_page"), code=303)
