"""The organiser's hub: one page with every organiser tool."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, url_for

from larp.services.chronicles import get_chronicle
from larp.web.auth import role_required

bp = Blueprint("organise", __name__)

#: The organiser's tools, in the order shown: (endpoint, title, what it is for).
TOOLS = (
    ("board.page", "Between game sessions", "Torpor, healing nights, refresh, the next game date, export and backup."),
    ("cards.list_cards", "Character cards", "Print QR-coded cards, rotate or revoke a lost card, set the card address."),
    ("accounts.users", "Users", "Narrator and organiser accounts, one-time login links."),
    ("imports.upload", "Import from Grapevine", "Bring characters in from Grapevine 3 XML files, with a preview."),
    ("settings.edit", "Chronicle settings", "The house rules where the books disagree, with their defaults and sources."),
)


@bp.route("/organise")
@role_required("organiser")
def hub():
    """Links to every organiser tool that this installation has."""
    tools = [(url_for(endpoint), title, text) for endpoint, title, text in TOOLS
             if endpoint in current_app.view_functions]
    return render_template("organise/hub.html", chronicle=get_chronicle(), tools=tools)
