"""The scenes of tonight's game session (issue 30 item 4): a plain page to open a scene, join one, see its
turn and say "next turn"; the bar the challenge screen and the combat board show with the narrator's scene.

Which scene a narrator is in is kept in his session (``stored_scene``): the screens put its id in their
forms (``scene_id``), so each ruling is recorded with the scene and its turn
(:mod:`larp.services.stored_scenes`).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext

from larp.htmx import render
from larp.models import StoredScene
from larp.services import ServiceError
from larp.services.chronicles import chronicle_settings, get_chronicle, open_game_session
from larp.services.stored_scenes import close_scene, create_scene, get_scene, next_turn, open_scenes
from larp.web.auth import role_required

bp = Blueprint("scenes", __name__)

#: The narrator's scene in his session: ``{"id": scene id, "chronicle": chronicle id}``.
SESSION_KEY = "stored_scene"


def current_scene() -> StoredScene | None:
    """The scene the narrator joined, while it is open in tonight's game session (else ``None``)."""
    kept = session.get(SESSION_KEY)
    chronicle = get_chronicle()
    if not isinstance(kept, dict) or kept.get("chronicle") != chronicle.id:
        return None
    try:
        return get_scene(chronicle, kept.get("id"))
    except ServiceError:
        return None


def _page(status: int = 200, error: ServiceError | None = None, form: Any = None):
    chronicle = get_chronicle()
    return render("scenes/page.html", "scenes/page.html", status=status, chronicle=chronicle,
                  game_session=open_game_session(chronicle), scenes=open_scenes(chronicle), mine=current_scene(),
                  error=error, form=form or {}, rule_on=chronicle_settings(chronicle)["one_physical_challenge_per_turn"])


def _back(default: str):
    """Where to go after an action: the screen it was pressed on (a same-site path), else ``default``."""
    target = request.form.get("back") or ""
    if target.startswith("/") and not target.startswith("//"):
        return redirect(target, code=303)
    return redirect(default, code=303)


@bp.route("/scenes")
@role_required("organiser", "narrator")
def scenes_page():
    """Tonight's scenes with their turn: open one, join one, say "next turn", close one."""
    return _page()


@bp.route("/scenes", methods=["POST"])
@role_required("organiser", "narrator")
def open_scene():
    """Open a scene in tonight's game session and join it. A missing or taken name: 422/409 on the page."""
    chronicle = get_chronicle()
    try:
        scene = create_scene(chronicle, request.form.get("name"))
    except ServiceError as exc:
        return _page(exc.status, error=exc, form=request.form)
    session[SESSION_KEY] = {"id": scene.id, "chronicle": chronicle.id}
    flash(gettext("You are in the scene “%(name)s”, turn %(turn)s.", name=scene.name, turn=scene.turn))
    return redirect(url_for("scenes.scenes_page"), code=303)


@bp.route("/scenes/<int:scene_id>/join", methods=["POST"])
@role_required("organiser", "narrator")
def join_scene(scene_id: int):
    """Join a scene: the screens record each ruling with it and its turn."""
    chronicle = get_chronicle()
    try:
        scene = get_scene(chronicle, scene_id)
    except ServiceError as exc:
        return _page(exc.status, error=exc)
    session[SESSION_KEY] = {"id": scene.id, "chronicle": chronicle.id}
    flash(gettext("You are in the scene “%(name)s”, turn %(turn)s.", name=scene.name, turn=scene.turn))
    return _back(url_for("scenes.scenes_page"))


@bp.route("/scenes/leave", methods=["POST"])
@role_required("organiser", "narrator")
def leave_scene():
    """Leave the scene (rulings are then recorded without one)."""
    session.pop(SESSION_KEY, None)
    flash(gettext("You are in no scene: rulings are recorded without one."))
    return _back(url_for("scenes.scenes_page"))


@bp.route("/scenes/<int:scene_id>/next-turn", methods=["POST"])
@role_required("organiser", "narrator")
def advance(scene_id: int):
    """Next turn (any narrator in the scene). ``turn`` is the turn the page showed: pressed twice at once
    by two narrators, the scene advances once (met-reference 3.1: one challenge per target per turn)."""
    try:
        scene, moved = next_turn(get_chronicle(), scene_id, request.form.get("turn"))
    except ServiceError as exc:
        return _page(exc.status, error=exc)
    flash(gettext("“%(name)s”: turn %(turn)s.", name=scene.name, turn=scene.turn) if moved else
          gettext("“%(name)s” was already moved on by another narrator: it is turn %(turn)s.", name=scene.name,
                  turn=scene.turn))
    return _back(url_for("scenes.scenes_page"))


@bp.route("/scenes/<int:scene_id>/close", methods=["POST"])
@role_required("organiser", "narrator")
def close(scene_id: int):
    """Close a scene (its rulings keep their scene and turn)."""
    try:
        scene = close_scene(get_chronicle(), scene_id)
    except ServiceError as exc:
        return _page(exc.status, error=exc)
    flash(gettext("The scene “%(name)s” is closed.", name=scene.name))
    return redirect(url_for("scenes.scenes_page"), code=303)
