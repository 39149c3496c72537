"""The organiser's board between game sessions (issue 7): torpor, healing nights, the next
game session, the chronicle export; and each character's history with undo."""

from __future__ import annotations

import json
from datetime import date

from flask import (
    Blueprint,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)

from flask_babel import gettext, ngettext

from larp.i18n import N_, session_label, summary_text
from larp.models import Torpor
from larp.rules.explain import Phrase
from larp.rules.torpor import TORPOR_CAUSES
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle
from larp.services.downtime import apply_healing_nights, build_between_sessions, set_treated
from larp.services.history import timeline, undo_ruling
from larp.services.records import ruling_in
from larp.services.sessions import close_and_open, extras_removed_opening
from larp.services.sheets import scene_extras
from larp.services.torpor import attempt_wake, feed_character, record_torpor
from larp.services.transfer import export_chronicle
from larp.web import inputs
from larp.web.auth import role_required
from larp.web.characters import character_or_refusal
from larp.web.downloads import attachment, file_slug

bp = Blueprint("between_sessions", __name__)


def _date(name: str, default: date | None = None) -> date:
    return inputs.day(request.form, name, default)


def _int(name: str, default: int | None = None) -> int | None:
    return inputs.whole(request.form, name, default)


def _page(error: ServiceError | None = None, target: str = ""):
    chronicle = get_chronicle()
    board = build_between_sessions(chronicle)
    status = error.status if error else 200
    # The waking just tried (``woke``: its ruling), shown with its steps and their sources at the top of the
    # board (new-user test 12, finding 8), as every other ruling shows its reasoning.
    woke = ruling_in(chronicle, request.args.get("woke")) if error is None else None
    return render_template("between_sessions/page.html", chronicle=chronicle, board=board, error=error, target=target,
                           woke=woke if woke is not None and woke.kind == "wake" else None,
                           causes=TORPOR_CAUSES, today=date.today(), form=request.form,
                           extras=scene_extras(chronicle),
                           in_force=lambda key: Phrase.term(board.settings.label(key))), status  # said as the reader reads


@bp.route("/board")
@role_required("organiser")
def page():
    """The board for the open game session: torpor, healing, mortals, everyone at a glance."""
    return _page()


def _act(target: str, action):
    """Run ``action`` (a service call returning a flash text); 303 back to the board on
    success, the board with the message at ``target`` and the error's status otherwise
    (a repeated form, or one whose page showed the character otherwise: 409, see
    :mod:`larp.web.submissions`)."""
    try:
        message = action()
    except ServiceError as exc:
        return _page(exc, target)
    # Closing a game session says so inside its own panel, where the board opens (issue 18), not at the
    # top of the page above the anchor.
    flash(message, "session" if target == "session" else "message")
    return redirect(url_for("between_sessions.page") + (f"#{target}" if target else ""), code=303)


def _record(target: str, record):
    """Run ``record`` (a service call returning the ruling it records) as :func:`_act` does, flashing the
    ruling's summary."""
    return _act(target, lambda: gettext("%(summary)s.", summary=summary_text(record())))


def _ticked(tick: str, what: str) -> None:
    """Refuse a form whose confirming tick is not ticked (the browser does not enforce it: the
    button stays tappable and the answer names the tick).

    Raises:
        ServiceError: 422 (field ``confirm``) naming the tick ``tick``.
    """
    if not request.form.get("confirm"):
        raise ServiceError(gettext("Tick “%(tick)s” to %(what)s; nothing was changed.", tick=tick, what=gettext(what)),
                           field="confirm")


@bp.route("/board/next-session", methods=["POST"])
@role_required("organiser")
def next_session():
    """Close the open game session and open the next on the date given."""
    def action():
        closing = _int("closing")
        if closing is not None:
            _ticked(gettext("Yes, game session %(number)s is over", number=closing), N_("close it"))
        new, refreshed = close_and_open(get_chronicle(), g.user, _date("date"), closing=closing)
        removed = extras_removed_opening(new)
        opened = ngettext("%(session)s is open. %(num)s character refreshed.",
                          "%(session)s is open. %(num)s characters refreshed.", len(refreshed), session=session_label(new))
        if removed:
            return gettext("%(opened)s Scene extras removed: %(names)s.", opened=opened, names=", ".join(removed))
        return opened
    return _act("session", action)


@bp.route("/board/torpor", methods=["POST"])
@role_required("organiser")
def torpor():
    """Record a torpor: a vampire already in torpor from damage, or one entering it now."""
    return _record(f"char-{request.form.get('character', '')}",
                   lambda: record_torpor(get_chronicle(), g.user, request.form.get("character"),
                                         request.form.get("cause", ""), _date("on", date.today())))


def _dice(name: str) -> list[int] | None:
    """Dice entered as rolled at the table ("8 3 1", commas allowed), or ``None`` when empty (:func:`inputs.dice`)."""
    return inputs.dice(request.form, name)


@bp.route("/board/characters/<int:character_id>/wake", methods=["POST"])
@role_required("organiser")
def wake(character_id: int):
    """Try to wake a torpid vampire on a night, or each night of a range while blood lasts (000 "Torpor";
    :func:`larp.services.torpor.attempt_wake`). 303 back to the board with the ruling's steps and their sources
    in view at the top of the board (``woke``, ``#wake-result``) and the link to its record; a refusal is
    shown on the character's line, nothing changed."""
    try:
        first = _date("first_night")
        last = _date("last_night", first)
        ruling = attempt_wake(get_chronicle(), g.user, character_id, current_app.config["RANDOM_SOURCE"](),
                              first_night=first, last_night=last,
                              player_throw=request.form.get("player_throw", "random"),
                              narrator_throw=request.form.get("narrator_throw", "random"),
                              dice=_dice("dice"))
    except ServiceError as exc:
        return _page(exc, f"char-{character_id}")
    return redirect(url_for("between_sessions.page", woke=ruling.id) + "#wake-result", code=303)


@bp.route("/board/characters/<int:character_id>/feed", methods=["POST"])
@role_required("organiser")
def feed(character_id: int):
    """Record blood given to a vampire (reported feeding, or blood placed in a torpid mouth)."""
    return _record(f"char-{character_id}",
                   lambda: feed_character(get_chronicle(), g.user, character_id, _int("blood", 0), date.today()))


@bp.route("/board/characters/<int:character_id>/treated", methods=["POST"])
@role_required("organiser")
def treated(character_id: int):
    """Tick or untick a mortal's medical treatment (000 "Mortal's Healing Times")."""
    return _record(f"char-{character_id}",
                   lambda: set_treated(get_chronicle(), g.user, character_id, request.form.get("medical_care") == "on"))


@bp.route("/board/characters/<int:character_id>/heal", methods=["POST"])
@role_required("organiser")
def heal(character_id: int):
    """Apply the planned healing: aggravated levels for a vampire, time for a mortal or ghoul."""
    return _record(f"char-{character_id}",
                   lambda: apply_healing_nights(get_chronicle(), g.user, character_id, _int("levels"),
                                                True if request.form.get("medical_care") == "on" else None))


@bp.route("/board/export")
@role_required("organiser")
def export():
    """Download the whole chronicle as a JSON file (users are not in it)."""
    chronicle = get_chronicle()
    data = export_chronicle(chronicle)
    return attachment(json.dumps(data, ensure_ascii=False, indent=1),
                      f"{file_slug(chronicle.name)}-{date.today().isoformat()}.json", mimetype="application/json")


@bp.route("/board/export.gex")
@role_required("organiser")
def export_grapevine_file():
    """Download every character of the chronicle (the retired ones as Grapevine's "Inactive") as a
    Grapevine 3 exchange file (issue 20; :func:`larp.services.grapevine_export.export_grapevine`)."""
    from larp.services.grapevine_export import CONTENT_TYPE, export_grapevine

    chronicle = get_chronicle()
    return attachment(export_grapevine(chronicle), file_slug(chronicle.name, "characters") + ".gex", content_type=CONTENT_TYPE)


@bp.route("/board/grapevine")
@role_required("organiser")
def grapevine_page():
    """Before the download of every character for Grapevine: what the file holds and what Grapevine
    has no place for, whose (issue 27)."""
    from larp.models import Character
    from larp.services.grapevine_export import left_out

    chronicle = get_chronicle()
    everyone = list(Character.select().where(Character.chronicle == chronicle).order_by(Character.name))
    return render_template("grapevine/export.html", what=chronicle.name, count=len(everyone),
                           missing=left_out(everyone), download=url_for("between_sessions.export_grapevine_file"),
                           back=url_for("between_sessions.page"))


@bp.route("/characters/<int:character_id>/history")
@role_required("organiser", "narrator")
def history(character_id: int):
    """A character's timeline: every ruling that touched him, who made it, when, what changed."""
    return _history(character_id)


def _history(character_id: int, error: ServiceError | None = None):
    chronicle = get_chronicle()
    character, refusal = character_or_refusal(chronicle, character_id)
    if refusal:
        return refusal
    torpors = list(Torpor.select().where(Torpor.character == character).order_by(Torpor.id.desc()))
    return render_template("between_sessions/history.html", chronicle=chronicle, character=character,
                           entries=timeline(character), torpors=torpors, error=error), (error.status if error else 200)


@bp.route("/characters/<int:character_id>/undo", methods=["POST"])
@role_required("organiser")
def undo(character_id: int):
    """Undo the last change to a character (organisers); a clear 409 when it is not the last."""
    try:
        _ticked(gettext("Undo #%(id)s", id=request.form.get('ruling', '').strip()), N_("undo it"))
        record = undo_ruling(get_chronicle(), g.user, request.form.get("ruling"))
    except ServiceError as exc:
        return _history(character_id, exc)
    flash(summary_text(record) + ".")
    return redirect(url_for("between_sessions.history", character_id=character_id), code=303)
