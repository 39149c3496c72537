"""Between-game actions in the JSON API (issue 33 items 3 and 6).

A player's token (or session) reads and writes only his own characters' actions
(:func:`larp.services.players.own_character`: any other character is a 404, whether it exists or not);
an organiser's reads every action of the chronicle, writes one for any character (the cutoff does not
bind him; the limit does) and answers. Narrators are refused (403): between-game actions are the
player's and the organisers' only. Every call goes through :mod:`larp.services.between_game_actions`,
the functions the screens call.
"""

from __future__ import annotations

from typing import Any

from flask import g, jsonify, request

from larp.models import ACTION_MAX_CHARS, BetweenGameAction, GameSession
from larp.rules.explain import N_, Phrase
from larp.services.between_game_actions import (ActionWindow, action_window, answer_action, find_action,
                                                write_action)
from larp.services.characters import get_character
from larp.services.chronicles import get_chronicle
from larp.services.players import characters_of_player, own_character
from larp.web import inputs
from larp.web.api import IDEMPOTENCY_HEADER, PLAYER_ENDPOINTS, SCHEMAS, ApiError, json_body
from larp.web.api_routes import api_route, json_request
from larp.web.api_responses import BOOL, INT, NULL_STR, STR, nullable, ref, shape

_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
_TEXT = {"type": "string", "minLength": 1, "maxLength": ACTION_MAX_CHARS}
_STATE = {"type": "string", "enum": ["waiting", "answered", "withdrawn"]}
SCHEMAS.update({
    "BetweenGameAction": shape({
        "id": INT, "character_id": INT, "character": STR, "game_session": INT, "state": _STATE, "text": STR,
        "author": STR, "written_at": STR, "edited_at": NULL_STR, "withdrawn_at": NULL_STR, "answer": STR,
        "answered_by": STR, "answered_at": NULL_STR, "version": INT}),
    "BetweenGameActionWindow": shape({
        "game_session": nullable(INT), "open": BOOL, "closes_at": NULL_STR, "per_session": INT,
        "cutoff_hours": INT, "reason": STR}),
})
_ORGANISERS_AND_PLAYERS = {"description": "A narrator's token or session: between-game actions are the players' "
                                          "and the organisers' only.", **_ERROR}
_NOT_YOURS = {"description": "No such character in this chronicle (for a player: among his own).", **_ERROR}
_IDEMPOTENCY = {"$ref": "#/components/parameters/IdempotencyKey"}


def _when(moment) -> str | None:
    return moment.isoformat(timespec="seconds") + "Z" if moment is not None else None


def action_payload(action: BetweenGameAction) -> dict[str, Any]:
    """A between-game action as JSON (times in UTC)."""
    return {"id": action.id, "character_id": action.character_id, "character": action.character.name,
            "game_session": action.game_session.number, "state": action.state, "text": action.text,
            "author": action.author_name, "written_at": _when(action.written_at), "edited_at": _when(action.edited_at),
            "withdrawn_at": _when(action.withdrawn_at), "answer": action.answer, "answered_by": action.answered_by_name,
            "answered_at": _when(action.answered_at), "version": action.version}


def window_payload(window: ActionWindow) -> dict[str, Any]:
    """Where between-game actions stand: the coming game session, open or not, until when, how many."""
    return {"game_session": window.session.number if window.session else None, "open": window.open,
            "closes_at": _when(window.closes_at), "per_session": window.per_session,
            "cutoff_hours": window.cutoff_hours, "reason": window.reason}


def _organiser() -> bool:
    if g.user.role == "organiser":
        return True
    if g.user.role == "player":
        return False
    raise ApiError(Phrase.message(N_("Between-game actions are the players' and the organisers' only.")), None, 403)


@api_route("get", "/between-game-actions", {
    "summary": "Between-game actions: a player's own, or (organisers) every one of the chronicle",
    "description": "A player's token sees his own characters' actions and the organisers' answers; an "
                   "organiser's sees every action of the chronicle. `window` says whether players may write now, "
                   "for which game session (the open one, while its date is today or later), until when (UTC; "
                   "setting `between_game_actions_cutoff_hours`) and how many per character "
                   "(`between_game_actions_per_session`). Newest game session first, then in the order written.",
    "parameters": [
        {"name": "game_session", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1},
         "description": "Only this game session's actions."},
        {"name": "character_id", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1},
         "description": "Only this character's actions (a player: one of his)."},
    ],
    "responses": {"200": {"description": "The actions.", "content": {"application/json": {"schema": shape({
        "window": ref("BetweenGameActionWindow"),
        "actions": {"type": "array", "items": ref("BetweenGameAction")}})}}},
        "403": _ORGANISERS_AND_PLAYERS, "404": _NOT_YOURS},
})
def between_game_actions_list():
    """The caller's between-game actions (a player's own; an organiser's: all of the chronicle)."""
    chronicle = get_chronicle()
    organiser = _organiser()
    query = (BetweenGameAction.select(BetweenGameAction, GameSession).join(GameSession)
             .where(BetweenGameAction.chronicle == chronicle))
    character_id = inputs.picked(request.args)
    number = inputs.whole(request.args, "game_session", low=1)
    if character_id is not None:
        character = (get_character(chronicle, character_id, "character_id") if organiser
                     else own_character(g.user, character_id))
        query = query.where(BetweenGameAction.character == character)
    elif not organiser:
        query = query.where(BetweenGameAction.character.in_([c.id for c in characters_of_player(g.user)]))
    if number is not None:
        query = query.where(GameSession.number == number)
    rows = list(query.order_by(GameSession.number.desc(), BetweenGameAction.written_at, BetweenGameAction.id))
    return jsonify(window=window_payload(action_window(chronicle)), actions=[action_payload(a) for a in rows])


@api_route("post", "/between-game-actions", {
    "summary": "Write a between-game action for the coming game session",
    "description": "A player writes for one of his characters, until the cutoff and within the limit (chronicle "
                   "settings); an organiser may enter one for any character after the cutoff (handed in late), "
                   "within the limit. The same `Idempotency-Key` again for the same character writes nothing and "
                   "answers the action it wrote (`written` false).",
    "parameters": [_IDEMPOTENCY],
    "requestBody": json_request(shape({
        "character_id": {"type": "integer", "minimum": 1, "description": "The character (a player: one of his)."},
        "text": {**_TEXT, "description": "What the character does (a few lines)."}})),
    "responses": {"200": {"description": "The action written (or the key's earlier one).",
                          "content": {"application/json": {"schema": shape({
                              "written": BOOL, "action": ref("BetweenGameAction")})}}},
                  "403": _ORGANISERS_AND_PLAYERS, "404": _NOT_YOURS,
                  "409": {"description": "No game session is coming, the cutoff passed, the character takes no "
                                         "actions (retired, a scene extra, Final Death), or the limit is reached.",
                          **_ERROR}},
})
def between_game_actions_write():
    """Write a between-game action (:func:`larp.services.between_game_actions.write_action`)."""
    chronicle = get_chronicle()
    organiser = _organiser()
    data = json_body()
    character_id = inputs.picked(data, json=True, required=True)
    character = get_character(chronicle, character_id, "character_id") if organiser else own_character(g.user, character_id)
    action, written = write_action(chronicle, character, g.user, data.get("text"), organiser=organiser,
                                   request_token=request.headers.get(IDEMPOTENCY_HEADER))
    return jsonify(written=written, action=action_payload(action))


@api_route("post", "/between-game-actions/<int:action_id>/answer", {
    "summary": "Answer a between-game action (organisers)",
    "description": "Only the character's player(s) and the organisers read the answer. `version` is the action's "
                   "version the caller read: if the player changed it, or another organiser answered, since, "
                   "nothing is saved (409), so the same call sent twice saves once. Answering again rewrites the "
                   "answer. Records no ruling: the action itself is the record.",
    "x-records-nothing": True,
    "requestBody": json_request(shape({
        "answer": {**_TEXT, "description": "The organisers' answer."},
        "version": {"type": "integer", "minimum": 1, "description": "The action's version as read."}})),
    "responses": {"200": {"description": "The action answered.",
                          "content": {"application/json": {"schema": ref("BetweenGameAction")}}},
                  "403": {"description": "Not an organiser.", **_ERROR},
                  "409": {"description": "Withdrawn by the player, or changed since it was read.", **_ERROR}},
})
def between_game_actions_answer(action_id: int):
    """An organiser answers (:func:`larp.services.between_game_actions.answer_action`)."""
    chronicle = get_chronicle()
    if g.user.role != "organiser":
        raise ApiError(Phrase.message(N_("Only organisers answer between-game actions.")), None, 403)
    data = json_body()
    find_action(chronicle, action_id)
    version = inputs.whole(data, "version", low=1, json=True, required=True)
    action = answer_action(chronicle, g.user, action_id, data.get("answer"), version)
    return jsonify(action_payload(action))


PLAYER_ENDPOINTS.update({"api.between_game_actions_list", "api.between_game_actions_write"})
