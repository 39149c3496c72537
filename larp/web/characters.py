"""Characters for narrators: the list, one character, the card-code jump."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from larp.htmx import render
from larp.models import Character, Ruling, RulingCharacter
from larp.services import ServiceError
from larp.services.characters import character_state, find_characters, get_character, normalise_code
from larp.services.chronicles import chronicle_settings, current_game_session, get_chronicle
from larp.web.auth import role_required

bp = Blueprint("characters", __name__)


@bp.route("/characters")
@role_required("organiser", "narrator")
def list_characters():
    """All characters of the chronicle, filtered by ``q`` (name or card code)."""
    chronicle = get_chronicle()
    query = request.args.get("q", "")
    characters = find_characters(chronicle, query, limit=500)
    return render("characters/list.html", "characters/list.html", chronicle=chronicle,
                  characters=characters, query=query)


@bp.route("/characters/<int:character_id>")
@role_required("organiser", "narrator")
def show(character_id: int):
    """One character as it stands in the open game session, with recent rulings."""
    chronicle = get_chronicle()
    try:
        character = get_character(chronicle, character_id)
    except ServiceError as exc:
        return render_template("errors/error.html", title="Unknown character", message=exc.message,
                               chronicle=chronicle), exc.status
    try:
        game_session = current_game_session(chronicle)
    except ServiceError:
        game_session = None
    state = character_state(character, game_session, chronicle_settings(chronicle))
    rulings = (
        Ruling.select()
        .join(RulingCharacter)
        .where(RulingCharacter.character == character)
        .order_by(Ruling.id.desc())
        .limit(10)
    )
    return render_template("characters/show.html", chronicle=chronicle, state=state, rulings=list(rulings))


@bp.route("/code")
@role_required("organiser", "narrator")
def by_code():
    """Jump to the character whose card code was typed in the box on every narrator screen."""
    chronicle = get_chronicle()
    code = normalise_code(request.args.get("code", ""))
    character = Character.get_or_none((Character.chronicle == chronicle) & (Character.short_code == code))
    if character is None:
        message = f"No character has the card code “{code}”." if code else "Type the code printed on the card."
        return render_template("errors/error.html", title="Unknown card code", message=message,
                               chronicle=chronicle), 404
    return redirect(url_for("characters.show", character_id=character.id), code=303)
