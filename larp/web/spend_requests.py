"""Experience spends with approval (issue 33 item 2): the organisers' queue and the player's "Ask to
spend experience" section. Thin handlers over :mod:`larp.services.spend_requests`; htmx gets the
partial, a plain request the whole page (every form works without JavaScript).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, g, redirect, request, url_for
from flask_babel import gettext

from larp.htmx import render
from larp.i18n import N_, format_number, said_as
from larp.models import Character
from larp.rules.experience_purchase import KINDS, RITUAL_TIERS
from larp.services import ServiceError
from larp.services import spend_requests as spends
from larp.services.chronicles import get_chronicle
from larp.services.experience import experience_log
from larp.web.auth import role_required

bp = Blueprint("spends", __name__)

#: What a request says when its approval was undone from the History page (larp.services.history.undo_ruling,
#: larp.services.spend_requests.undo_approval): stored in English as its ``answer``, said in the reader's language.
UNDONE_IN_HISTORY = N_("Approval undone in History (ruling #%(id)s).")


@bp.app_template_global()
def spend_answer(spend) -> str:
    """A request's answer as the queue and the player's list show it: the app's own words for an approval undone
    in History in the reader's language, an organiser's answer as he wrote it."""
    if spend.state == "undone" and spend.answer == UNDONE_IN_HISTORY % {"id": spend.ruling_id}:
        return gettext(UNDONE_IN_HISTORY, id=str(spend.ruling_id))
    return spend.answer

#: The fields of a request a form sends.
REQUEST_FIELDS = ("kind", "name", "category", "discipline", "level", "tier", "traits", "key")


def _queue_page(status: int = 200, error: ServiceError | None = None, done: str = "", form: Any = None):
    chronicle = get_chronicle()
    return render("spends/queue.html", "spends/_queue.html", status=status, chronicle=chronicle,
                  waiting=spends.queue(chronicle), answered=spends.recent_answers(chronicle), error=error,
                  done=done, form=form or {}, points=format_number, labels=spends.STATE_LABELS)


@bp.route("/spends")
@role_required("organiser")
def queue():
    """The organisers' queue: requests to spend experience waiting, oldest first, each with its cost,
    the character's unspent total and Approve / Refuse / Ask for a change; below, the latest answers
    (an approval can be undone there)."""
    return _queue_page()


def _answered(action, done: str, request_id: int, *args):
    chronicle = get_chronicle()
    try:
        spend = action(chronicle, g.user, request_id, *args)
    except ServiceError as exc:
        return _queue_page(exc.status, error=exc, form=request.form)
    message = gettext(done, id=spend.id, what=said_as(spend.what, spend.what_said), character=spend.character.name)
    if request.headers.get("HX-Request"):
        return _queue_page(done=message)
    flash(message)
    return redirect(url_for("spends.queue"), code=303)


@bp.route("/spends/<int:request_id>/approve", methods=["POST"])
@role_required("organiser")
def approve(request_id: int):
    """Approve: the sheet changes and the experience is spent (one transaction). Own request: 403;
    answered meanwhile or no longer affordable: 409, on the queue with why."""
    return _answered(spends.approve_request, N_("Approved #%(id)s: %(character)s, %(what)s."), request_id)


@bp.route("/spends/<int:request_id>/refuse", methods=["POST"])
@role_required("organiser")
def refuse(request_id: int):
    """Refuse with a reason (the player reads it). No reason: 422."""
    return _answered(spends.answer_request, N_("Refused #%(id)s: %(character)s, %(what)s."), request_id, "refused",
                     request.form.get("reason"))


@bp.route("/spends/<int:request_id>/change", methods=["POST"])
@role_required("organiser")
def ask_change(request_id: int):
    """Ask the player for a change, saying what (the player withdraws it and asks again)."""
    return _answered(spends.answer_request, N_("Change asked on #%(id)s: %(character)s, %(what)s."), request_id,
                     "change_asked", request.form.get("reason"))


@bp.route("/spends/<int:request_id>/undo", methods=["POST"])
@role_required("organiser")
def undo(request_id: int):
    """Undo an approval (the sheet and the experience back); refused with why while a later purchase
    needs it."""
    return _answered(spends.undo_approval, N_("Approval of #%(id)s undone: %(character)s, %(what)s."), request_id)


# ---------------------------------------------------------------- the player's side

def section_context(character: Character, form: Any = None, priced: Any = None,
                    error: ServiceError | None = None, done: str = "") -> dict[str, Any]:
    """What ``templates/players/_spend_section.html`` shows for ``character``: his unspent total,
    his requests, the kinds of purchase, a price shown before sending, the answer to the last tap."""
    log = experience_log(character)
    return {"character": character, "unspent": format_number(log.unspent), "earned": format_number(log.earned),
            "requests": spends.requests_of(character), "kinds": KINDS, "ritual_tiers": RITUAL_TIERS,
            "form": form or {}, "priced": priced, "error": error, "done": done, "points": format_number,
            "labels": spends.STATE_LABELS, "suggestions": spends.suggestions(get_chronicle(), character)}


def _section(character: Character, status: int = 200, **context: Any):
    return render("spends/ask.html", "players/_spend_section.html", status=status,
                  spend=section_context(character, **context), chronicle=get_chronicle())


def _character(character_id: int) -> Character:
    """The character the user may ask for (a player or a narrator who plays: only his own), else 404."""
    try:
        return spends.visible_character(get_chronicle(), g.user, character_id)
    except ServiceError as exc:
        abort(exc.status, description=exc.message)


def _form_request() -> dict[str, Any]:
    source = request.form if request.method == "POST" else request.args
    return {key: source.get(key, "") for key in REQUEST_FIELDS}


@bp.route("/my/characters/<int:character_id>/spend")
@role_required("player", "narrator", "organiser")
def price_page(character_id: int):
    """The cost of what the form names and the unspent total after it, before anything is sent
    (htmx: the section; plain: a page with the section). A refused one says why."""
    chronicle = get_chronicle()
    character = _character(character_id)
    wanted = _form_request()
    if not wanted["kind"]:
        return _section(character)
    try:
        priced = spends.price(chronicle, character, spends.read_request(wanted))
    except ServiceError as exc:
        return _section(character, exc.status, form=wanted, error=exc)
    return _section(character, form={**wanted, "note": request.args.get("note", "")}, priced=priced)


@bp.route("/my/characters/<int:character_id>/spend", methods=["POST"])
@role_required("player", "narrator", "organiser")
def ask(character_id: int):
    """Send the request. Refused at once with why (unaffordable, prerequisite missing): 422 on the
    section, nothing stored."""
    chronicle = get_chronicle()
    character = _character(character_id)
    wanted = _form_request()
    try:
        spend, _ = spends.ask_spend(chronicle, g.user, character.id, wanted, request.form.get("note"))
    except ServiceError as exc:
        return _section(character, exc.status, form={**wanted, "note": request.form.get("note", "")}, error=exc)
    message = gettext("Asked: %(what)s, %(points)s experience. An organiser answers it.",
                      what=said_as(spend.what, spend.what_said),
                      points=format_number(spend.cost))
    if request.headers.get("HX-Request"):
        return _section(character, done=message)
    flash(message)
    return redirect(_player_page(character.id), code=303)


@bp.route("/my/spends/<int:request_id>/withdraw", methods=["POST"])
@role_required("player", "narrator", "organiser")
def withdraw(request_id: int):
    """The player withdraws his request while it waits."""
    chronicle = get_chronicle()
    try:
        spend = spends.withdraw_request(chronicle, g.user, request_id)
    except ServiceError as exc:
        if exc.status == 404:
            abort(404, description=exc.message)
        spend = spends.get_request(chronicle, request_id, g.user)
        return _section(spend.character, exc.status, error=exc)
    if request.headers.get("HX-Request"):
        return _section(spend.character, done=gettext("Withdrawn: %(what)s.", what=said_as(spend.what, spend.what_said)))
    flash(gettext("Withdrawn: %(what)s.", what=said_as(spend.what, spend.what_said)))
    return redirect(_player_page(spend.character_id), code=303)


def _player_page(character_id: int) -> str:
    """The player's page of his character (i33a's ``players.character``), else the spend page."""
    try:
        return url_for("players.character", character_id=character_id)
    except Exception:  # noqa: BLE001 - werkzeug's BuildError: the player pages are not registered
        return url_for("spends.price_page", character_id=character_id)


def register(app) -> None:
    """The blueprint and the template global the player's page includes the section with."""
    app.register_blueprint(bp)
    app.add_template_global(section_context, "spend_section_context")
