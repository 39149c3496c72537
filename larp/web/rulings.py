"""The record: every ruling with its inputs, outcome and explanation."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from larp.models import Ruling, RulingCharacter
from larp.services.chronicles import get_chronicle
from larp.web.auth import role_required

bp = Blueprint("rulings", __name__)


@bp.route("/rulings")
@role_required("organiser", "narrator")
def list_rulings():
    """The latest 200 rulings of the chronicle, newest first."""
    chronicle = get_chronicle()
    rulings = Ruling.select().where(Ruling.chronicle == chronicle).order_by(Ruling.id.desc()).limit(200)
    return render_template("rulings/list.html", chronicle=chronicle, rulings=list(rulings))


@bp.route("/rulings/<int:ruling_id>")
@role_required("organiser", "narrator")
def show(ruling_id: int):
    """One ruling: summary, steps with their rules, inputs (404 if unknown)."""
    chronicle = get_chronicle()
    ruling = Ruling.get_or_none((Ruling.id == ruling_id) & (Ruling.chronicle == chronicle))
    if ruling is None:
        abort(404, "There is no such ruling in this chronicle.")
    participants = list(RulingCharacter.select().where(RulingCharacter.ruling == ruling))
    return render_template("rulings/show.html", chronicle=chronicle, ruling=ruling, participants=participants)
