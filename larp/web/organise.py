"""The organiser's hub: one page with every organiser tool; naming a new chronicle, removing
the demo and importing a chronicle export (issue 14)."""

from __future__ import annotations

from datetime import date

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, url_for

from larp.services import ServiceError, read_json
from larp.services.chronicles import get_chronicle, name_chronicle, remove_demo, untouched_demo
from larp.web.auth import role_required

bp = Blueprint("organise", __name__)

#: The organiser's tools, in the order shown: (endpoint, title, what it is for).
TOOLS = (
    ("sheets.create", "New character", "Build a character's sheet from nothing: Traits, Abilities, Disciplines, equipment."),
    ("characters.list_characters", "Characters", "Every sheet: edit, copy (scene extras), retire, restore, delete."),
    ("checkin.desk", "Check-in desk", "Game night at the door: scan cards, tonight's roster, who attended."),
    ("spends.queue", "Experience requests", "Players' requests to spend experience: approve, refuse, ask for a change, undo."),
    ("between_sessions.page", "Between game sessions", "Torpor, healing nights, refresh, the next game date, export and backup."),
    ("cards.list_cards", "Character cards", "Print QR-coded cards, rotate or revoke a lost card, set the card address."),
    ("prints.print_list_page", "Print character sheets", "Whole sheets for the players, with their edition: a selection, or every sheet changed since its last print."),
    ("accounts.users", "Users", "This chronicle's narrators and organisers, one-time login links."),
    ("imports.upload", "Import from Grapevine", "Bring characters in from Grapevine 3 XML files, with a preview."),
    ("organise.import_export", "Import a chronicle export", "A file written by larp export or the board's download."),
    ("settings.edit", "Chronicle settings", "The house rules where the books disagree, with their defaults and sources; webhooks to Discord."),
)
TOOLS += (("between_game_actions.organiser_list", "Between-game actions",  # issue 33 item 3
           "What players write their characters do before the coming game session: answer each, privately."),)


@bp.route("/organise")
@role_required("organiser")
def hub():
    """Links to every organiser tool that this installation has, and the demo's removal."""
    chronicle = get_chronicle()
    tools = [(url_for(endpoint), title, text) for endpoint, title, text in TOOLS
             if endpoint in current_app.view_functions]
    if g.user.is_admin:
        tools.append((url_for("admin.chronicles"), "Chronicles (administrator)",
                      "Every chronicle of this server: create, rename, archive, delete, appoint its people."))
    return render_template("organise/hub.html", chronicle=chronicle, tools=tools, error=None)


@bp.route("/start", methods=["GET", "POST"])
@role_required("organiser")
def start():
    """The first page of an empty chronicle: its name and the date of its first game session."""
    chronicle = get_chronicle()
    if not chronicle.needs_name:
        return redirect(url_for("index"), code=303)
    error = None
    if request.method == "POST":
        try:
            first = date.fromisoformat(request.form.get("first_game") or "") if request.form.get("first_game") else None
        except ValueError:
            error = ServiceError("Give the date as 2026-12-13.", field="first_game")
        else:
            try:
                chronicle = name_chronicle(chronicle, request.form.get("name", ""), first)
            except ServiceError as exc:
                error = exc
            else:
                flash(f"“{chronicle.name}” is ready. Create its characters: New character, or import them.")
                return redirect(url_for("organise.hub"), code=303)
    return render_template("organise/start.html", chronicle=chronicle, error=error, form=request.form,
                           today=date.today()), (error.status if error else 200)


@bp.route("/organise/remove-demo", methods=["POST"])
@role_required("organiser")
def remove_demo_chronicle():
    """Delete the demo chronicle (after a confirmation) and start an empty one in its place."""
    chronicle = get_chronicle()
    try:
        empty = remove_demo(chronicle, bool(request.form.get("confirm")), date.today())
    except ServiceError as exc:
        tools = [(url_for(endpoint), title, text) for endpoint, title, text in TOOLS
                 if endpoint in current_app.view_functions]
        return render_template("organise/hub.html", chronicle=chronicle, tools=tools, error=exc), exc.status
    flash("The demo is removed. Name your chronicle.")
    return redirect(page_of(empty.id, "organise.start"), code=303)


def page_of(chronicle_id: int, endpoint: str) -> str:
    """The URL of ``endpoint``'s page in chronicle ``chronicle_id`` (``/chronicles/<id>/...``): where
    to go after this request's chronicle was replaced by another (a new id) or a new one was made."""
    from larp.web.scope import member_url

    base = member_url(chronicle_id).split("?", 1)[0].removesuffix(request.path)
    return base + url_for(endpoint)[len(request.script_root):]


@bp.route("/organise/import", methods=["GET", "POST"])
@role_required("organiser")
def import_export():
    """Import a chronicle export (JSON), by the rule of :func:`larp.services.transfer.import_chronicle`:
    it takes this chronicle's place when this one is the untouched demo or unused and empty, or when
    "replace" is ticked and its name typed (its members kept); otherwise it becomes a new chronicle,
    which only an administrator may make (403 for a plain organiser), organised by the importer."""
    from larp.services.transfer import import_chronicle, replaceable

    chronicle = get_chronicle()
    error = None
    if request.method == "POST":
        upload = request.files.get("file")
        replace = bool(request.form.get("replace"))
        try:
            raw = upload.read() if upload else b""
            if not raw:
                raise ServiceError("Choose the export file (.json) to import.", field="file")
            if raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<" or b"GVBE" in raw[:8]:
                raise ServiceError("This is a Grapevine file, not a larp chronicle export: bring it in with "
                                   "Organise → Import from Grapevine.", field="file", status=422)
            data = read_json(raw, "file", label="This file", status=422)
            if replace and request.form.get("confirm_name", "").strip() != chronicle.name:
                raise ServiceError(f"To replace “{chronicle.name}”, type its name exactly.", field="confirm_name")
            imported, notes = import_chronicle(data, replace=chronicle if replace else None, into=chronicle,
                                               organisers=[g.user], may_create=bool(g.user.is_admin))
        except ServiceError as exc:
            error = exc
        else:
            flash(f"Imported “{imported.name}”. " + " ".join(notes))
            return redirect(page_of(imported.id, "organise.hub"), code=303)
    return render_template("organise/import.html", chronicle=chronicle, error=error,
                           replaceable=replaceable(chronicle), untouched=untouched_demo(chronicle),
                           may_create=bool(g.user.is_admin)), \
        (error.status if error else 200)
