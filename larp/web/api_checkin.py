"""Game night at the door in the JSON API (issue 32): check in, undo, tonight's roster, a game session's
attendance, and the organisers' "award now".

Every call goes through the very service functions the desk's forms call (:mod:`larp.services.checkins`),
so the same rules (who may be checked in, :func:`larp.rules.check_in.at_the_door`), locks and record
apply. A check-in and an undo record a ruling, so each takes the ``Idempotency-Key`` header (the same
key again is refused with 409 naming the ruling, nothing applied twice); a check-in of a character
checked in already answers 200 with ``already`` and records nothing.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import g, jsonify

from larp.models import CheckIn
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError
from larp.services.checkins import (CheckInResult, award_now, check_in, find_arrival, session_attendance,
                                    tonight_roster, undo_check_in, when_text)
from larp.services.chronicles import get_chronicle
from larp.web import inputs
from larp.web.api import SCHEMAS, ApiError, json_body
from larp.web.api_routes import api_route, json_request
from larp.web.api_between import organisers_only, session_payload
from larp.web.api_responses import BOOL, INT, NO_BODY, NULL_STR, STR, nullable, ref, shape

_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
_COUNTS = shape({"count": INT, "total": INT})
_SESSION_NUMBER = {"type": "integer", "minimum": 1,
                   "description": "The game session the client believes open: if another is open now, nothing "
                                  "is done (409). Default: whichever is open."}
SCHEMAS.update({
    "CheckIn": shape({"character_id": INT, "name": STR, "checked_in_at": STR, "by": STR,
                      "how": {"type": "string", "enum": list(CheckIn.HOW)},
                      "marks": {"type": "array", "items": STR}}),
    "CheckInResult": shape({"already": BOOL, "ruling_id": nullable(INT), "game_session": INT,
                            "check_in": nullable(ref("CheckIn")), "tonight": _COUNTS}),
})


_only = inputs.only


def _session_number(data: Mapping[str, Any]) -> int | None:
    return inputs.whole(data, "game_session", low=1, json=True)


def check_in_payload(row: CheckIn, marks: tuple[str, ...] | list[str] = ()) -> dict[str, Any]:
    """A check-in as JSON: who, when (UTC), by whom, how, and the roster's marks ("in torpor")."""
    return {"character_id": row.character_id, "name": row.character.name, "checked_in_at": when_text(row.checked_in_at),
            "by": row.user_name, "how": row.how, "marks": list(marks)}


def _result(result: CheckInResult, status: int):
    return jsonify(already=result.already, ruling_id=result.ruling.id if result.ruling else None,
                   game_session=result.session.number,
                   check_in=check_in_payload(result.check_in, result.marks) if result.check_in else None,
                   tonight={"count": result.tonight.count, "total": result.tonight.total}), status


@api_route("get", "/check-ins", {
    "summary": "Tonight's roster: who is checked in, who is expected and not here yet, counts by clan",
    "description": "For the open game session (`game_session` null and empty lists when none is open). Expected: "
                   "characters with a player, in play, not scene extras, not destroyed. `fingerprint` changes "
                   "whenever the roster does (a check-in, an undo, a game session opened).",
    "responses": {"200": {"description": "The roster.", "content": {"application/json": {"schema": shape({
        "game_session": nullable(INT), "tonight": _COUNTS, "fingerprint": STR,
        "checked_in": {"type": "array", "items": ref("CheckIn")},
        "expected": {"type": "array", "items": shape({"character_id": INT, "name": STR, "player_name": STR})},
        "by_clan": {"type": "array", "items": shape({"clan": STR, "count": INT})}})}}}},
})
def roster_api():
    """Tonight's roster (:func:`larp.services.checkins.tonight_roster`); narrators and organisers."""
    roster = tonight_roster(get_chronicle())
    return jsonify(game_session=roster.session.number if roster.session else None,
                   tonight={"count": roster.tonight.count, "total": roster.tonight.total},
                   fingerprint=roster.fingerprint,
                   checked_in=[check_in_payload(line.check_in, line.marks) for line in roster.here],
                   expected=[{"character_id": c.id, "name": c.name, "player_name": c.player_name}
                             for c in roster.missing],
                   by_clan=[{"clan": clan, "count": n} for clan, n in roster.by_clan])


@api_route("post", "/check-ins", {
    "summary": "Check a character in for the open game session",
    "description": "Name him by `character_id`, or by `card`: a scanned card's address or token, or his card "
                   "code. Refused (409, the error says why): a retired character, a scene extra, one in Final "
                   "Death or dead, no game session open. A character in torpor is checked in, marked "
                   "\"in torpor\". Checked in already: 200 with `already` true, nothing recorded.",
    "requestBody": json_request({"type": "object", "additionalProperties": False, "properties": {
            "character_id": {"type": "integer"},
            "card": {"type": "string", "maxLength": 300,
                     "description": "A card's address (…/C/<token>) or token, or a card code."},
            "game_session": _SESSION_NUMBER}}, example={"character_id": 2}),
    "responses": {"201": {"description": "Checked in and recorded.", "content": {"application/json": {
                      "schema": ref("CheckInResult")}}},
                  "200": {"description": "He was checked in already: nothing recorded.",
                          "content": {"application/json": {"schema": ref("CheckInResult")}}},
                  "404": {"description": "No such character, or a card that opens no character here.", **_ERROR},
                  "409": {"description": "The door refuses him (the error says why), no game session is open, "
                                         "or `game_session` is no longer the open one.", **_ERROR}},
})
def check_in_api():
    """Check a character in (:func:`larp.services.checkins.check_in`, how "api")."""
    data = json_body()
    chronicle = get_chronicle()
    character_id, card = data.get("character_id"), data.get("card")
    if (character_id is None) == (card is None):
        raise ApiError(Phrase.message(N_("Name the character by `character_id` or by "
                                         "`card` (one of the two).")), "character_id", 422)
    if card is not None:
        if not isinstance(card, str) or not card.strip() or len(card) > 300:
            raise ApiError(Phrase.message(N_("`card` is a card's address or token, or a card code.")), "card", 422)
        found = find_arrival(chronicle, card)
        if found.how == "name":  # the API takes no name: a program names characters exactly
            raise ServiceError(Phrase.message(N_("No card has that address, token or code.")), field="card", status=404)
        character_id = found.character.id
    else:
        character_id = inputs.picked(data, json=True)
    result = check_in(chronicle, g.user, character_id, how="api", session_number=_session_number(data))
    return _result(result, 200 if result.already else 201)


@api_route("post", "/check-ins/<int:character_id>/undo", {
    "summary": "Undo a mistaken check-in for the open game session",
    "description": "His check-in goes, its ruling is marked undone, and a ruling records the undo. Refused "
                   "(409): he is not checked in, or his attendance experience was given already.",
    "requestBody": json_request({"type": "object", "additionalProperties": False,
                                 "properties": {"game_session": _SESSION_NUMBER}}, example={}, required=False),
    "responses": {"201": {"description": "Undone and recorded.", "content": {"application/json": {
                      "schema": ref("CheckInResult")}}},
                  "409": {"description": "Not checked in, attendance experience given already, no game session "
                                         "open, or `game_session` is no longer the open one.", **_ERROR}},
})
def undo_check_in_api(character_id: int):
    """Undo a check-in (:func:`larp.services.checkins.undo_check_in`)."""
    data = json_body()
    return _result(undo_check_in(get_chronicle(), g.user, character_id, session_number=_session_number(data)), 201)


@api_route("get", "/game-sessions/<int:number>/attendance", {
    "summary": "Who attended a game session (checked in), with the attendance experience each was given",
    "responses": {"200": {"description": "The attendance.", "content": {"application/json": {"schema": shape({
        "game_session": ref("GameSession"),
        "attended": {"type": "array", "items": shape({
            "character_id": INT, "name": STR, "checked_in_at": STR, "by": STR, "how": STR,
            "experience": NULL_STR})}})}}}},
})
def attendance_api(number: int):
    """A game session's attendance (:func:`larp.services.checkins.session_attendance`)."""
    session, lines = session_attendance(get_chronicle(), number)
    return jsonify(game_session=session_payload(session),
                   attended=[{**{k: v for k, v in check_in_payload(line.check_in).items() if k != "marks"},
                              "experience": line.experience} for line in lines])


@api_route("post", "/game-sessions/<int:number>/attendance", {
    "summary": "Award now: give the game session's attendance experience to everyone checked in (organisers)",
    "description": "Each character checked in who has not had it gets the chronicle setting "
                   "attendance_experience (default 1; 0 is off: 409) as one line of his experience log; never "
                   "twice for the same character and game session. Closing the game session does the same.",
    "x-records-ruling": True,
    "requestBody": NO_BODY,
    "responses": {"200": {"description": "Given (an empty list: everyone had it).", "content": {"application/json": {
        "schema": shape({"given": {"type": "array", "items": shape({"character_id": INT, "name": STR,
                                                                   "experience": STR, "ruling_id": INT})}})}}},
                  "403": {"description": "Not an organiser.", **_ERROR},
                  "409": {"description": "Attendance experience is off (the setting is 0).", **_ERROR}},
})
def award_attendance_api(number: int):
    """An organiser's "award now" (:func:`larp.services.checkins.award_now`)."""
    organisers_only()
    _only(json_body(), set())
    made = award_now(get_chronicle(), g.user, number)
    from larp.rules.experience import points_text

    return jsonify(given=[{"character_id": a.character_id, "name": a.character.name,
                           "experience": points_text(a.amount), "ruling_id": a.entry.ruling_id} for a in made])
