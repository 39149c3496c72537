"""Stored scenes in the JSON API (issue 30 item 4): tonight's scenes with their turn, opening one, and
"next turn". A stored challenge, mass challenge or stray shot sent with ``scene_id`` is recorded with
the scene and its turn (:mod:`larp.services.stored_scenes`).
"""

from __future__ import annotations

from typing import Any

from flask import jsonify

from larp.models import StoredScene
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle
from larp.services.stored_scenes import create_scene, next_turn, open_scenes
from larp.web.api import SCHEMAS, json_body
from larp.web.api_routes import api_route, json_request
from larp.web.api_responses import BOOL, INT, STR, ref, shape

_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
SCHEMAS["StoredScene"] = shape({"id": INT, "name": STR, "turn": INT, "game_session": INT})


def scene_payload(scene: StoredScene) -> dict[str, Any]:
    """A scene as the API gives it: id, name, turn, and its game session's number."""
    return {"id": scene.id, "name": scene.name, "turn": scene.turn, "game_session": scene.game_session.number}



@api_route("get", "/scenes", {
    "summary": "Tonight's scenes and their turn",
    "description": "The open scenes of the open game session (none between game sessions), oldest first. A ruling "
                   "sent with `scene_id` is recorded with the scene and its turn.",
    "responses": {"200": {"description": "The open scenes.", "content": {"application/json": {"schema": shape({
        "scenes": {"type": "array", "items": ref("StoredScene")}})}}}},
})
def list_scenes_api():
    """The open scenes of tonight's game session (:func:`larp.services.stored_scenes.open_scenes`)."""
    return jsonify(scenes=[scene_payload(s) for s in open_scenes(get_chronicle())])


@api_route("post", "/scenes", {
    "summary": "Open a scene in tonight's game session",
    "description": "A scene every narrator of the chronicle shares, at turn 1 (issue 30; met-reference 3.1). Records "
                   "no ruling; sent twice, the name already taken is a 409.",
    "x-records-nothing": True,
    "requestBody": json_request({
        "type": "object", "required": ["name"], "additionalProperties": False,
        "properties": {"name": {"type": "string", "maxLength": 80, "description": "Where it happens."}}}),
    "responses": {"201": {"description": "Opened.", "content": {"application/json": {"schema": shape({
                      "scene": ref("StoredScene")})}}},
                  "409": {"description": "No game session is open, or it has a scene of that name.", **_ERROR}},
})
def open_scene_api():
    """Open a scene (:func:`larp.services.stored_scenes.create_scene`)."""
    data = json_body()
    return jsonify(scene=scene_payload(create_scene(get_chronicle(), data.get("name")))), 201


@api_route("post", "/scenes/<int:scene_id>/next-turn", {
    "summary": "Next turn in a scene (any narrator in it)",
    "x-records-nothing": True,
    "description": "Advances the scene's turn by one. `turn` is the turn the client saw: if another narrator has "
                   "advanced the scene since, nothing changes (`advanced` false), so two presses at once make one "
                   "turn. Celerity's actions count as turns for the one-challenge-per-turn rule (met-reference 3.1).",
    "requestBody": json_request({
        "type": "object", "additionalProperties": False,
        "properties": {"turn": {"type": "integer", "minimum": 1, "description": "The turn the client saw."}}}),
    "responses": {"200": {"description": "The scene after it.", "content": {"application/json": {"schema": shape({
                      "scene": ref("StoredScene"), "advanced": BOOL})}}},
                  "404": {"description": "No such scene.", **_ERROR},
                  "409": {"description": "The scene is closed or of an earlier game session.", **_ERROR}},
})
def next_turn_api(scene_id: int):
    """Next turn (:func:`larp.services.stored_scenes.next_turn`)."""
    data = json_body()
    scene, moved = next_turn(get_chronicle(), scene_id, data.get("turn"))
    return jsonify(scene=scene_payload(scene), advanced=moved)


_PARTICIPANT = {"type": "object", "required": ["name", "traits"], "additionalProperties": False, "properties": {
    "name": {"type": "string", "description": "Unique in the turn."},
    "traits": {"type": "integer", "minimum": 0, "description": "Current Traits in the category of his action."},
    "celerity": {"type": "integer", "minimum": 0, "maximum": 5,
                 "description": "Celerity active this turn: Alacrity (1) pre-empts, Swiftness (2) and Legerity (4) "
                                "give extra actions (LotNR Celerity, met-reference 3.3)."},
    "target": {"type": "string", "description": "Whom his action challenges; empty: an action with no challenge."},
    "surprised": {"type": "boolean", "description": "Unaware of the first attack: no Celerity in it (LotNR Surprise)."},
    "simultaneous": {"type": "boolean",
                     "description": "When attacked, answers with a simultaneous attack (one test, the winner hits; "
                                    "002 \"Challenges\"), which uses up his own action."}}}
SCHEMAS["TurnOrder"] = shape({
    "slots": {"type": "array", "items": shape({"position": INT, "actor": STR, "kind": STR, "target": STR,
                                                "answered_by": {"type": "array", "items": STR}})},
    "steps": {"type": "array", "items": ref("Step")}})


@api_route("post", "/turn-order", {
    "summary": "The order of a turn's actions, with its reasons",
    "description": "Who acts this turn (current Traits, Celerity active, whom each challenges, surprise, a "
                   "defender's simultaneous answer) in; the order out: pre-empts first (Alacrity; the higher "
                   "Celerity first, equal ones cancel), then the higher Traits first, equal counts at once, actions "
                   "with no challenge last, a defender's counter-strike in the attacker's test, then Swiftness and "
                   "Legerity actions (002 \"Order of Challenges\", LotNR, met-reference 3.1 and 3.3). Reads and "
                   "writes nothing.",
    "x-records-nothing": True,
    "requestBody": json_request({
        "type": "object", "required": ["participants"], "additionalProperties": False,
        "properties": {"participants": {"type": "array", "minItems": 1, "maxItems": 50, "items": _PARTICIPANT}}}),
    "responses": {"200": {"description": "The order.", "content": {"application/json": {"schema": shape({
        "order": ref("TurnOrder")})}}}},
})
def turn_order_api():
    """The order of the turn (:func:`larp.rules.order.order_of_actions`)."""
    from larp.rules.order import Participant, order_of_actions

    data = json_body()
    raw = data.get("participants")
    if not isinstance(raw, list) or not raw or len(raw) > 50:
        raise ServiceError(Phrase.message(N_("Give the people acting this turn: a list "
                                             "of 1 to 50 objects.")), field="participants")
    people = [Participant.from_dict(p, f"participants[{i}]") for i, p in enumerate(raw)]
    return jsonify(order=order_of_actions(people).to_dict())
