"""The Virtue Test screen (issue 30 item 8): a plain form on a character's page that rules a test against
frenzy or Rötschreck and sets his state (:mod:`larp.services.frenzy_state`)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, g, redirect, request, url_for
from flask_babel import lazy_gettext as _l

from larp.htmx import render
from larp.rules.frenzy import frenzy_tables
from larp.services import ServiceError
from larp.services.characters import get_character
from larp.services.chronicles import get_chronicle
from larp.services.frenzy_state import run_virtue_test
from larp.web.auth import role_required

bp = Blueprint("virtue_tests", __name__)

VIRTUES = (("self_control", _l("Self-Control (frenzy)")), ("instinct", _l("Instinct (frenzy)")),
           ("courage", _l("Courage (Rötschreck)")))


def _page(character_id: int, status: int = 200, error: ServiceError | None = None):
    chronicle = get_chronicle()
    try:
        character = get_character(chronicle, character_id)
    except ServiceError:
        abort(404)
    tables = frenzy_tables()
    stimuli = [(key, row.label, row.traits, table.virtue)
               for table in (tables.self_control, tables.courage) for key, row in table.stimuli.items()]
    return render("characters/virtue_test.html", "characters/virtue_test.html", status=status, chronicle=chronicle,
                  character=character, virtues=VIRTUES, stimuli=stimuli, error=error,
                  form=request.form if request.method == "POST" else request.args)


@bp.route("/characters/<int:character_id>/virtue-test")
@role_required("organiser", "narrator")
def form(character_id: int):
    """The Virtue Test form for one character (his Virtues, Willpower and blood are read from the sheet)."""
    return _page(character_id)


@bp.route("/characters/<int:character_id>/virtue-test", methods=["POST"])
@role_required("organiser", "narrator")
def run(character_id: int):
    """Rule the test and set his state; a refusal shows the form again with the reason (nothing written)."""
    try:
        character, record, _ruling = run_virtue_test(get_chronicle(), g.user, character_id, request.form,
                                                     current_app.config["RANDOM_SOURCE"](),
                                                     request.form.get("request_token") or None)
    except ServiceError as exc:
        if exc.status == 404:
            abort(404)
        return _page(character_id, exc.status, exc)
    return redirect(url_for("characters.show", character_id=character.id, ruling=record.id), code=303)
