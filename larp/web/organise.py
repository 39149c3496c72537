"""The organiser's hub: one page with every organiser tool; naming a new chronicle, removing
the demo and importing a chronicle export (issue 14)."""

from __future__ import annotations

from datetime import date

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from larp.i18n import N_

from larp.services import ServiceError, read_json
from larp.services.chronicles import get_chronicle, name_chronicle, remove_demo, untouched_demo
from larp.web.auth import role_required

bp = Blueprint("organise", __name__)

#: The organiser's tools, in the order shown: (endpoint, title, what it is for).
TOOLS = (
    ("sheets.create", N_("New character"), N_("Build a character's sheet from nothing: Traits, Abilities, Disciplines, equipment.")),
    ("characters.list_characters", N_("Characters"), N_("Every sheet: edit, copy (scene extras), retire, restore, delete.")),
    ("checkin.desk", N_("Check-in desk"), N_("Game night at the door: scan cards, tonight's roster, who attended.")),
    ("spends.queue", N_("Experience requests"), N_("Players' requests to spend experience: approve, refuse, ask for a change, undo.")),
    ("between_sessions.page", N_("Between game sessions"), N_("Torpor, healing nights, refresh, the next game date, export and backup.")),
    ("cards.list_cards", N_("Character cards"), N_("Print QR-coded cards, rotate or revoke a lost card, set the card address.")),
    ("prints.print_list_page", N_("Print character sheets"), N_("Whole sheets for the players, with their edition: a selection, or every sheet changed since its last print.")),
    ("accounts.users", N_("Users"), N_("This chronicle's narrators and organisers, one-time login links.")),
    ("imports.upload", N_("Import from Grapevine"), N_("Bring characters in from Grapevine 3 XML files, with a preview.")),
    ("organise.import_export", N_("Import a chronicle export"), N_("A file written by larp export or the board's download.")),
    ("settings.edit", N_("Chronicle settings"), N_("The house rules where the books disagree, with their defaults and sources; webhooks to Discord.")),
)
TOOLS += (("between_game_actions.organiser_list", N_("Between-game actions"),  # issue 33 item 3
           N_("What players write their characters do before the coming game session: answer each, privately.")),)


def _waiting(chronicle) -> dict[str, int]:
    """What waits for an organiser, by the address of the tool that lists it (issue 33 item 5): the hub's
    tiles say which list the top bar's "N waiting" counts."""
    from larp.services.players import pending_counts

    counts = pending_counts(chronicle)
    lists = {"spend_requests": "spends.queue", "between_game_actions": "between_game_actions.organiser_list"}
    return {url_for(lists[kind]): n for kind, n in counts.items() if n and kind in lists
            and lists[kind] in current_app.view_functions}


def _tools() -> list[tuple[str, str, str]]:
    """The tiles of :data:`TOOLS` this installation has: (address, title, what it is for) in the reader's language."""
    return [(url_for(endpoint), gettext(title), gettext(text)) for endpoint, title, text in TOOLS
            if endpoint in current_app.view_functions]


@bp.route("/organise")
@role_required("organiser")
def hub():
    """Links to every organiser tool that this installation has, and the demo's removal."""
    chronicle = get_chronicle()
    tools = _tools()
    if g.user.is_admin:
        tools.append((url_for("admin.chronicles"), gettext("Chronicles (administrator)"),
                      gettext("Every chronicle of this server: create, rename, archive, delete, appoint its people.")))
    return render_template("organise/hub.html", chronicle=chronicle, tools=tools, error=None, waiting=_waiting(chronicle))


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
            error = ServiceError(gettext("Give the date as 2026-12-13."), field="first_game")
        else:
            try:
                chronicle = name_chronicle(chronicle, request.form.get("name", ""), first)
            except ServiceError as exc:
                error = exc
            else:
                flash(gettext("“%(chronicle)s” is ready. Create its characters: New character, or import them.",
                              chronicle=chronicle.name))
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
        return (render_template("organise/hub.html", chronicle=chronicle, tools=_tools(), error=exc,
                                waiting=_waiting(chronicle)), exc.status)
    flash(gettext("The demo is removed. Name your chronicle."))
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
                raise ServiceError(gettext("Choose the export file (.json) to import."), field="file")
            if raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<" or b"GVBE" in raw[:8]:
                raise ServiceError(gettext("This is a Grapevine file, not a larp chronicle export: bring it in with "
                                           "Organise → Import from Grapevine."), field="file", status=422)
            data = read_json(raw, "file", label="This file", status=422)
            if replace and request.form.get("confirm_name", "").strip() != chronicle.name:
                raise ServiceError(gettext("To replace “%(chronicle)s”, type its name exactly.", chronicle=chronicle.name),
                                   field="confirm_name")
            imported, notes = import_chronicle(data, replace=chronicle if replace else None, into=chronicle,
                                               organisers=[g.user], may_create=bool(g.user.is_admin))
        except ServiceError as exc:
            error = exc
        else:
            flash(gettext("Imported “%(chronicle)s”.", chronicle=imported.name) + " " + " ".join(notes))
            return redirect(page_of(imported.id, "organise.hub"), code=303)
    return render_template("organise/import.html", chronicle=chronicle, error=error,
                           replaceable=replaceable(chronicle), untouched=untouched_demo(chronicle),
                           may_create=bool(g.user.is_admin)), \
        (error.status if error else 200)
