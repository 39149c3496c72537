"""The record: every ruling with its inputs, outcome and explanation."""

from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, abort, flash, g, jsonify, redirect, render_template, url_for
from flask_babel import gettext

from larp.models import Ruling, RulingCharacter, utcnow
from larp.i18n import said_if_phrase
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle
from larp.services.history import SCREEN_UNDO_KINDS, UNDO_WINDOW_SECONDS, find_rulings, undo_own_recent
from larp.services.records import ruling_for_token
from larp.services.stored_scenes import scene_of_ruling
from larp.web.auth import role_required
from larp.web.screen_answer import respond, result_in_view

bp = Blueprint("rulings", __name__)


@bp.route("/rulings")
@role_required("organiser", "narrator")
def list_rulings():
    """The latest 200 rulings of the chronicle, newest first."""
    chronicle = get_chronicle()
    return render_template("rulings/list.html", chronicle=chronicle, rulings=find_rulings(chronicle))


@bp.route("/rulings/<int:ruling_id>")
@role_required("organiser", "narrator")
def show(ruling_id: int):
    """One ruling: summary, steps with their rules, inputs, the stored scene and turn it was made in (404 if
    unknown)."""
    chronicle = get_chronicle()
    ruling = Ruling.get_or_none((Ruling.id == ruling_id) & (Ruling.chronicle == chronicle))
    if ruling is None:
        abort(404, gettext("There is no such ruling in this chronicle."))
    participants = list(RulingCharacter.select().where(RulingCharacter.ruling == ruling))
    return render_template("rulings/show.html", chronicle=chronicle, ruling=ruling, participants=participants,
                           scene=scene_of_ruling(ruling), undo_seconds=UNDO_WINDOW_SECONDS,
                           board=board_of_ruling(ruling, {link.character_id for link in participants}))


def _person(value: Any) -> tuple[int | None, str]:
    """A person of a ruling's stored inputs (``{"id", "name"}``) as his id and name."""
    value = value if isinstance(value, dict) else {}
    return (value.get("id") if isinstance(value.get("id"), int) else None), str(value.get("name") or "")


def board_of_ruling(ruling: Ruling, present: set[int]) -> dict[str, Any] | None:
    """The way back from a fight's ruling to the screen that made it (new user 10): for a mass challenge the
    combat board, for a stray shot the stray-shot screen, drawn again from the ruling's stored inputs with
    the same people (the target and the attackers with their range and weapon; the firer, his gun, the
    target missed and the bystanders, closest first) and the recorded ruling shown (``ruling``), its result in
    view. ``present``: the ids of the characters still in the chronicle and in the ruling (a deleted
    character's link is gone with him).

    Returns ``None`` for any other kind of ruling, else ``{"screen": "combat" | "stray", "url": the address or
    None, "gone": names no longer in the chronicle}``: ``url`` is ``None`` when the person the screen is built
    around (the target; the firer or the target missed) is gone, since the screen cannot stand without him;
    someone else gone is left off the screen and named. Reads nothing: the stored inputs and ``present``."""
    inputs = ruling.inputs if isinstance(ruling.inputs, dict) else {}
    if ruling.kind == "mass_combat":
        screen, keys, list_key, prefix, endpoint = "combat", ("target",), "attackers", "a", "combat_board.board"
    elif ruling.kind == "firing_into_group":
        screen, keys, list_key, prefix, endpoint = "stray", ("firer", "target"), "bystanders", "b", "stray_shot.page"
    else:
        return None
    gone: list[str] = []
    query: dict[str, Any] = {}
    for key in keys:
        cid, name = _person(inputs.get(key))
        if cid in present:
            query[key] = cid
        else:
            gone.append(name)
    rows = []
    for row in inputs.get(list_key) or []:
        cid, name = _person(row)
        if cid not in present:
            gone.append(name)
            continue
        rows.append(cid)
        if screen == "combat":
            for field in ("range", "weapon"):
                if row.get(field):
                    query[f"a{cid}_{field}"] = row[field]
    query[prefix] = rows
    if screen == "combat" and inputs.get("counter") == "weapon" and (inputs.get("target") or {}).get("weapon"):
        query.update(target_counter="weapon", target_weapon=inputs["target"]["weapon"])
    if screen == "stray" and inputs.get("weapon"):
        query["firer_weapon"] = inputs["weapon"]
    scene = inputs.get("scene") if isinstance(inputs.get("scene"), dict) else {}
    for key in ("darkness", "range", "sense"):  # the scene it was fought in (new user 13: the dark was lost)
        if scene.get(key) and scene[key] != "none":
            query[key] = scene[key]
    whole = all(key in query for key in keys)
    url = url_for(endpoint, ruling=ruling.id, _anchor="combat-result", **query) if whole else None
    return {"screen": screen, "url": url, "gone": [name for name in gone if name]}


@bp.route("/rulings/<int:ruling_id>/undo", methods=["POST"])
@role_required("organiser", "narrator")
def undo(ruling_id: int):
    """Undo a challenge, fight or stray shot from its own page while the screen's Undo would still take it
    (:data:`UNDO_WINDOW_SECONDS` after it was recorded; the narrator who recorded it, or an organiser): a
    narrator whose phone reloaded the screen, or who looked at a sheet meanwhile, still has it (new user 11).
    Everyone is as before it (:func:`larp.services.history.undo_own_recent`); a refusal (404, 403 another
    narrator's, 409 too late or no longer the last change of someone in it) is said on the page, nothing
    changed."""
    chronicle = get_chronicle()
    try:
        undone = undo_own_recent(chronicle, g.user, ruling_id, utcnow())
    except ServiceError as exc:
        flash(said_if_phrase(exc.message), "error")
        return redirect(url_for("rulings.show", ruling_id=ruling_id), code=303)
    flash(gettext("Ruling #%(id)s undone as #%(undo)s: everyone is as before it.", id=ruling_id, undo=undone.id))
    return redirect(url_for("rulings.show", ruling_id=ruling_id), code=303)


@bp.route("/rulings/by-token/<token>")
@role_required("organiser", "narrator")
def by_token(token: str):
    """Whether the form or API call with the one-time token ``token`` was recorded (issue 19,
    item 2): JSON ``{"id", "summary", "kind", "created_at", "url"}`` of its ruling, or a 404
    ``{"error"}`` when nothing was recorded with it (yet) by this user in this chronicle (issue 28). Read-only: a screen that lost the
    reply to a form asks this before it offers to send it again."""
    ruling = ruling_for_token(token, get_chronicle(), g.user.id)  # his own, in this chronicle
    if ruling is None:
        return jsonify(error=gettext("Nothing was recorded with this token: it is safe to send the form again.")), 404
    return jsonify(id=ruling.id, summary=ruling.summary, kind=ruling.kind,
                   created_at=ruling.created_at.isoformat(timespec="seconds") + "Z",
                   url=url_for("rulings.show", ruling_id=ruling.id))


#: A board's step that undoes the ruling it has just recorded ("undo:<ruling id>").
UNDO_STEP = "undo:"


@bp.app_template_global()
def undo_open(ruling) -> bool:
    """Template global: whether the person looking may still take ``ruling`` back from the screen that
    recorded it (its Undo button): one of :data:`SCREEN_UNDO_KINDS`, not undone, recorded less than
    :data:`UNDO_WINDOW_SECONDS` ago, by him (an organiser: by anyone). The service checks it again."""
    user = g.get("user")
    if ruling is None or user is None or getattr(ruling, "undone_at", None) is not None:
        return False
    if ruling.kind not in SCREEN_UNDO_KINDS or (user.role != "organiser" and ruling.narrator_id != user.id):
        return False
    return (utcnow() - ruling.created_at).total_seconds() <= UNDO_WINDOW_SECONDS


@bp.app_template_global()
def undo_note(ruling) -> str:
    """Template global: why the person looking sees no Undo under a recorded fight or stray shot (wave 9), in
    one short line, or "" when he sees it (:func:`undo_open`) or there is nothing to undo (undone already, or a
    kind no screen takes back). Another narrator's ruling: only the narrator who recorded it or an organiser
    may undo it; after :data:`UNDO_WINDOW_SECONDS`, an organiser undoes it from the character's history."""
    if ruling is None or g.get("user") is None or ruling.undone_at is not None or ruling.kind not in SCREEN_UNDO_KINDS:
        return ""
    if undo_open(ruling):
        return ""
    if (utcnow() - ruling.created_at).total_seconds() > UNDO_WINDOW_SECONDS:
        return gettext("Ruling #%(id)s is more than %(seconds)s seconds old: an organiser can undo it with History, "
                       "on the character's page.", id=ruling.id, seconds=UNDO_WINDOW_SECONDS)
    if ruling.narrator_label:
        return gettext("Only %(narrator)s, who recorded it, or an organiser may undo ruling #%(id)s.",
                       narrator=ruling.narrator_label, id=ruling.id)
    return gettext("Only the narrator who recorded it or an organiser may undo ruling #%(id)s.", id=ruling.id)


def undo_from_board(step: str, context: Callable[..., dict[str, Any]], full: str, partial: str,
                    whole_form: bool = False):
    """The Undo button of the combat board's or the stray-shot screen's recorded ruling (``step``
    "undo:<ruling id>"): the ruling undone as the history page would, everyone as before it
    (:func:`larp.services.history.undo_own_recent`), and the screen drawn again by ``context`` (the board's
    context maker, given ``undone``: the undo's record, or ``undo_error``: why not) in ``full`` or ``partial``,
    the answer in view (:func:`larp.web.screen_answer.result_in_view`). A refusal (404 no such ruling, 403
    another narrator's, 409 too late or no longer the last change of someone in it) is said where the result
    was, with its status; nothing is changed then."""
    try:
        drawn = context(undone=undo_own_recent(get_chronicle(), g.user, step[len(UNDO_STEP):], utcnow()))
    except ServiceError as exc:
        drawn = context(undo_error=exc)
    status = drawn["undo_error"].status if drawn.get("undo_error") else 200
    return result_in_view(respond(full, partial, status=status, **drawn), whole_form=whole_form)
