"""The player's own characters in the JSON API (issue 33 item 6, the token's part).

A player's API token (role "player", made on his Account page) reaches only the calls named in
:data:`larp.web.api.PLAYER_ENDPOINTS`; every other answers 403. ``GET /my/characters`` gives his own
characters, each as his pages show it (:mod:`larp.web.players`): the whole sheet without narrator notes
or contact details, tonight's health, blood and Willpower, the experience log and totals, and the
rulings his character was in with their steps (:mod:`larp.services.player_view`). Anyone's token may
call it: an organiser's or narrator's lists the characters he himself plays (often none).
"""

from __future__ import annotations

from typing import Any

from flask import g, jsonify

from larp.i18n import steps_for_reader
from larp.models import Character
from larp.rules.experience import points_text
from larp.services.characters import character_state
from larp.services.chronicles import chronicle_settings, get_chronicle, open_game_session
from larp.services.experience import experience_log
from larp.services.player_view import PRIVATE_FIELDS, rulings_of
from larp.services.players import characters_of_player
from larp.services.sheet_store import sheet_of
from larp.web.api import PLAYER_ENDPOINTS, SCHEMAS
from larp.web.api_routes import api_route
from larp.web.api_responses import BOOL, INT, STR, STEPS, ref, shape

SCHEMAS.update({
    "PlayerRuling": shape({"id": INT, "kind": STR, "created_at": STR, "summary": STR, "role": STR, "steps": STEPS,
                           "narrator": STR, "game_session": STR, "undone": BOOL},
                          description="A ruling the character was in, as his player reads it: never a "
                                      "narrator's notes or a player's contact details."),
    "ExperienceLine": shape({"kind": STR, "amount": STR, "what": STR, "game_session": {"type": ["integer", "null"]},
                             "created_at": STR}),
    "PlayerCharacter": shape({
        "id": INT, "name": STR, "short_code": STR, "retired": BOOL,
        "condition": STR, "staked": BOOL,
        "health": shape({"aggravated": INT, "lethal": INT, "bashing": INT, "levels": {"type": "array", "items": STR}}),
        "blood": shape({"current": INT, "max": INT}), "willpower": shape({"current": INT, "permanent": INT}),
        "sheet": {"type": "object", "additionalProperties": True,
                  "description": "The whole sheet as the export writes it (CharacterSheet), without narrator_notes "
                                 "and player_contact."},
        "experience": shape({"earned": STR, "spent": STR, "unspent": STR,
                             "log": {"type": "array", "items": ref("ExperienceLine")}}),
        "rulings": {"type": "array", "items": ref("PlayerRuling")},
    }, description="One of the player's own characters (issue 33)."),
})


def _sheet(character: Character) -> dict[str, Any]:
    data = sheet_of(character).to_dict()
    for name in PRIVATE_FIELDS:
        data.pop(name, None)
    return data


def player_character_payload(character: Character, state) -> dict[str, Any]:
    """``character`` as his player reads him in the API (schema ``PlayerCharacter``)."""
    log = experience_log(character)
    health = state.health
    return {
        "id": character.id, "name": character.name, "short_code": character.short_code,
        "retired": character.retired_at is not None, "condition": character.condition, "staked": bool(character.staked),
        "health": {"aggravated": health.aggravated, "lethal": health.lethal, "bashing": health.bashing,
                   "levels": list(health.levels)},
        "blood": {"current": character.blood_current, "max": character.blood_max},
        "willpower": {"current": character.willpower_current, "permanent": character.willpower_permanent},
        "sheet": _sheet(character),
        "experience": {"earned": points_text(log.earned), "spent": points_text(log.spent),
                       "unspent": points_text(log.unspent),
                       "log": [{"kind": e.kind, "amount": str(e.amount), "what": e.what,
                                "game_session": e.game_session.number if e.game_session_id else None,
                                "created_at": e.created_at.isoformat(timespec="seconds") + "Z"} for e in log.entries]},
        "rulings": [{"id": r.id, "kind": r.kind, "created_at": r.created_at.isoformat(timespec="seconds") + "Z",
                     "summary": r.summary, "role": r.role, "steps": steps_for_reader(r.steps), "narrator": r.narrator,
                     "game_session": r.game_session, "undone": r.undone} for r in rulings_of(character)],
    }


@api_route("get", "/my/characters", {
    "summary": "The caller's own characters (a player's token): whole sheet, tonight's state, experience, rulings",
    "description": "The characters linked to the token's account in this chronicle (issue 33), each with his whole "
                   "sheet (never narrator notes or contact details), his health, blood and Willpower as they stand "
                   "in the open game session, his experience log and totals, and the rulings he was in with their "
                   "steps. A player's token reaches this call and no call for organisers and narrators (403). "
                   "An organiser's or narrator's token lists the characters its account plays (often none).",
    "responses": {"200": {"description": "His characters, by name.", "content": {"application/json": {"schema": shape({
        "characters": {"type": "array", "items": ref("PlayerCharacter")}})}}}},
})
def my_characters_api():
    """The caller's own characters (:func:`larp.services.players.characters_of_player`), as JSON."""
    chronicle = get_chronicle()
    session, settings = open_game_session(chronicle), chronicle_settings(chronicle)
    return jsonify(characters=[player_character_payload(c, character_state(c, session, settings))
                               for c in characters_of_player(g.user)])


PLAYER_ENDPOINTS.add("api.my_characters_api")
