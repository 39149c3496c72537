"""Between game sessions in the JSON API (issue 21): game sessions, torpor, waking, blood given,
healing nights, medical care, and the organiser's board.

Every mutating endpoint calls the very service function the board's form calls
(:mod:`larp.web.between_sessions`), so the same rules, checks, locks and record apply; each records a
ruling, so each takes the ``Idempotency-Key`` header. Organisers only, as the board is.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import current_app, g, jsonify

from larp.i18n import steps_for_reader, summary_text
from larp.models import GameSession, Ruling
from larp.rules.explain import N_, Phrase
from larp.services.characters import get_character
from larp.services.chronicles import get_chronicle
from larp.services.downtime import apply_healing_nights, build_between_sessions, set_treated
from larp.services.sessions import close_and_open
from larp.services.torpor import attempt_wake, feed_character, record_torpor
from larp.web import inputs
from larp.rules.challenge.types import BASIC_THROWS, Throw
from larp.rules.torpor import TORPOR_CAUSES
from larp.web.inputs import enum_schema
from larp.web.api import SCHEMAS, ApiError, json_body
from larp.web.api_routes import api_route, json_request
from larp.web.api_responses import BOOL, INT, NULL_INT, NULL_STR, STEPS, STR, nullable, ref, shape

_DATE = {"type": "string", "format": "date", "description": "YYYY-MM-DD"}
_THROW = {**enum_schema(Throw, only=BASIC_THROWS, random=True), "default": "random"}
_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}

_SESSION = shape({"number": INT, "date": _DATE, "open": BOOL, "opened_at": STR, "closed_at": NULL_STR})
SCHEMAS.update({
    "Recorded": shape({"ruling_id": INT, "summary": STR, "steps": STEPS},
                      {"character": ref("CharacterState")}),
    "CharacterState": shape({
        "id": INT, "name": STR, "version": INT, "condition": STR, "staked": BOOL, "treated": BOOL,
        "blood_current": INT, "willpower_current": INT,
        "damage": shape({k: INT for k in ("bashing", "lethal", "aggravated")})}),
    "GameSession": _SESSION,
})
_NULL_DATE = {"type": ["string", "null"], "format": "date"}
#: The board's lines (larp.services.downtime.build_between_sessions), each with the character's id and name.
_BOARD_LINES = {
    "torpor": shape({"id": INT, "name": STR, "status": STR, "cause": NULL_STR, "until": NULL_STR, "tried": INT,
                     "first_night": _NULL_DATE, "last_night": _NULL_DATE}),
    "healing": shape({"id": INT, "name": STR, "nights": INT, "aggravated": INT, "problem": NULL_STR,
                      "plan": nullable(shape({"levels": INT, "blood": INT, "willpower": INT, "rests": INT,
                                              "limited_by": NULL_STR}))}),
    "mortals": shape({"id": INT, "name": STR, "hours": NULL_INT, "heals_now": BOOL, "needs_care": BOOL,
                      "treated": BOOL, "problem": NULL_STR}),
    "everyone": shape({"id": INT, "name": STR, "condition": STR, "where": STR, "damage": STR}),
}


def organisers_only() -> None:
    """Refuse a narrator (or a narrator's token): the board's work is the organisers' (403)."""
    if g.user.role != "organiser":
        raise ApiError(Phrase.message(N_("Only organisers do this (the board's work between game "
                                         "sessions).")), None, 403)


_only, _date, _text = inputs.only, inputs.day, inputs.text  # the one input layer (issue 29 item 4)


def state_of(character) -> dict[str, Any]:
    """A stored character's changeable state (what the between-session calls change)."""
    return {"id": character.id, "name": character.name, "version": character.version,
            "condition": character.condition, "staked": character.staked, "treated": bool(character.treated),
            "blood_current": character.blood_current, "willpower_current": character.willpower_current,
            "damage": {"bashing": character.damage_bashing, "lethal": character.damage_lethal,
                       "aggravated": character.damage_aggravated}}


def _recorded(record: Ruling, character_id: int | None = None):
    body: dict[str, Any] = {"ruling_id": record.id, "summary": summary_text(record),
                            "steps": steps_for_reader(record.steps)}
    if character_id is not None:
        body["character"] = state_of(get_character(get_chronicle(), character_id))
    return jsonify(body), 201


def session_payload(session: GameSession) -> dict[str, Any]:
    """A game session as JSON."""
    return {"number": session.number, "date": session.date.isoformat(), "open": session.closed_at is None,
            "opened_at": session.opened_at.isoformat(timespec="seconds") + "Z",
            "closed_at": session.closed_at.isoformat(timespec="seconds") + "Z" if session.closed_at else None}


def _recorded_response(description: str) -> dict:
    return {"201": {"description": description, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Recorded"}}}},
            "403": {"description": "Not an organiser.", **_ERROR},
            "404": {"description": "Unknown character.", **_ERROR},
            "409": {"description": "The character changed meanwhile, or the state does not allow it.", **_ERROR}}


@api_route("get", "/game-sessions", {
    "summary": "The chronicle's game sessions, newest first",
    "responses": {"200": {"description": "Every game session.", "content": {"application/json": {"schema": shape({
        "game_sessions": {"type": "array", "items": ref("GameSession")}})}}}},
})
def list_game_sessions_api():
    """Every game session of the chronicle, newest first (organisers and narrators)."""
    sessions = GameSession.select().where(GameSession.chronicle == get_chronicle()).order_by(GameSession.number.desc())
    return jsonify(game_sessions=[session_payload(s) for s in sessions])


@api_route("post", "/game-sessions", {
    "summary": "Close the open game session and open the next (organisers)",
    "description": "The board's \"Open the next game session\": in one transaction the open game session (if "
                   "any) is closed and the next one opened on `date`; every character gets back what a new game "
                   "session gives back (lost Traits and spent Abilities, Willpower by wp_refresh, blood by "
                   "blood_refresh; LotNR, met-reference 5.1). `closing` is the number of the game session the "
                   "client believes open: if another was opened since, nothing is done (409).",
    "requestBody": json_request({"type": "object", "required": ["date"], "additionalProperties": False, "properties": {
            "date": _DATE, "closing": {"type": "integer", "description": "The open game session's number."}}},
        example={"date": "2026-12-13", "closing": 3}),
    "responses": {"201": {"description": "Opened; the session ruling and the characters refreshed.",
                          "content": {"application/json": {"schema": shape({
                              "ruling_id": INT, "game_session": ref("GameSession"),
                              "refreshed": {"type": "array", "items": STR}})}}},
                  "403": {"description": "Not an organiser.", **_ERROR},
                  "409": {"description": "`closing` is no longer the open game session.", **_ERROR}},
})
def open_game_session_api():
    """Close the open game session and open the next (:func:`larp.services.sessions.close_and_open`)."""
    organisers_only()
    data = json_body()
    closing = inputs.whole(data, "closing", low=1, json=True)
    new, refreshed = close_and_open(get_chronicle(), g.user, _date(data, "date"), closing=closing)
    ruling = Ruling.select().where((Ruling.game_session == new) & (Ruling.kind == "session")).order_by(Ruling.id).first()
    return jsonify(ruling_id=ruling.id, game_session=session_payload(new),
                   refreshed=[summary_text(r) for r in refreshed]), 201


@api_route("post", "/characters/<int:character_id>/torpor", {
    "summary": "Record a torpor (organisers)",
    "description": "A vampire already in torpor from damage gets his torpor record (cause wounds or blood_loss); "
                   "an active vampire enters torpor now (any cause; voluntary takes half the time). The torpor "
                   "table of the chronicle (torpor_table, by Humanity) says when he may try to wake "
                   "(met-reference 5.2; 000 \"Torpor\").",
    "requestBody": json_request({"type": "object", "required": ["cause"], "additionalProperties": False, "properties": {
            "cause": enum_schema(TORPOR_CAUSES),
            "on": {**_DATE, "description": "The night it began (default: today)."}}},
        example={"cause": "wounds", "on": "2026-11-29"}),
    "responses": _recorded_response("Recorded."),
})
def torpor_api(character_id: int):
    """Record a torpor (:func:`larp.services.torpor.record_torpor`)."""
    organisers_only()
    data = json_body()
    record = record_torpor(get_chronicle(), g.user, character_id, _text(data, "cause", ""),
                           _date(data, "on", date.today()))
    return _recorded(record, character_id)


@api_route("post", "/characters/<int:character_id>/wake", {
    "summary": "A torpid vampire tries to wake, a night or each night of a range (organisers)",
    "description": "One attempt a night from `first_night` to `last_night` until he rises or his blood runs "
                   "out; each costs a blood point (met-reference 5.2, T20; 000 \"Torpor\"). Throws (the live "
                   "simple test) may be given for a single night, else they are drawn; `dice` likewise for the "
                   "tabletop Awakening roll (wake_test). Nights after today are refused.",
    "requestBody": json_request({
        "type": "object", "required": ["first_night"], "additionalProperties": False, "properties": {
            "first_night": _DATE, "last_night": {**_DATE, "description": "Default: first_night."},
            "player_throw": _THROW, "narrator_throw": _THROW,
            "dice": {"type": "array", "maxItems": 20, "items": {"type": "integer", "minimum": 1, "maximum": 10}}}},
        example={"first_night": "2026-12-01", "player_throw": "rock", "narrator_throw": "scissors"}),
    "responses": _recorded_response("Tried and recorded."),
})
def wake_api(character_id: int):
    """Try to wake a torpid vampire (:func:`larp.services.torpor.attempt_wake`)."""
    organisers_only()
    data = json_body()
    first = _date(data, "first_night")
    dice = inputs.dice(data, "dice", json=True)
    record = attempt_wake(get_chronicle(), g.user, character_id, current_app.config["RANDOM_SOURCE"](),
                          first_night=first, last_night=_date(data, "last_night", first),
                          player_throw=_text(data, "player_throw", "random"),
                          narrator_throw=_text(data, "narrator_throw", "random"), dice=dice)
    return _recorded(record, character_id)


@api_route("post", "/characters/<int:character_id>/feed", {
    "summary": "Blood given to a vampire: feeding reported, or blood in a torpid mouth (organisers)",
    "description": "The pool fills up to its maximum; blood placed in the mouth of a vampire in torpor from "
                   "blood loss wakes him under feeding_wakes_blood_torpor (000/001 \"Torpor\"). Feeding on a "
                   "stored victim is POST /characters/{character_id}/feed-on.",
    "requestBody": json_request({"type": "object", "required": ["blood"], "additionalProperties": False, "properties": {
            "blood": {"type": "integer", "minimum": 1, "maximum": 50, "description": "Blood points."}}},
        example={"blood": 3}),
    "responses": _recorded_response("Recorded."),
})
def feed_api(character_id: int):
    """Record blood given to a vampire (:func:`larp.services.torpor.feed_character`)."""
    organisers_only()
    data = json_body()
    blood = inputs.whole(data, "blood", low=1, high=50, required=True, json=True)
    return _recorded(feed_character(get_chronicle(), g.user, character_id, blood, date.today()), character_id)


@api_route("post", "/characters/<int:character_id>/healing-nights", {
    "summary": "Heal over the nights since the previous game session (organisers)",
    "description": "The board's Heal: a vampire heals aggravated levels with blood and Willpower over the nights "
                   "left (agg_heal_model; 002 \"Damage and Healing\"), `levels` as planned (default: as many as "
                   "the plan allows); a mortal or ghoul heals by the time taken, treated or not (000 \"Mortal's "
                   "Healing Times\"), `medical_care` setting his tick first.",
    "requestBody": json_request({"type": "object", "additionalProperties": False, "properties": {
            "levels": {"type": "integer", "minimum": 1, "description": "A vampire's aggravated levels to heal."},
            "medical_care": {"type": "boolean", "description": "A mortal's or ghoul's treatment."}}},
        example={"levels": 1}),
    "responses": _recorded_response("Healed and recorded."),
})
def healing_nights_api(character_id: int):
    """Heal over the nights between game sessions (:func:`larp.services.downtime.apply_healing_nights`)."""
    organisers_only()
    data = json_body()
    care = inputs.flag(data, "medical_care", default=None)
    levels = inputs.whole(data, "levels", low=1, high=50, json=True)
    return _recorded(apply_healing_nights(get_chronicle(), g.user, character_id, levels, care), character_id)


@api_route("post", "/characters/<int:character_id>/treated", {
    "summary": "Set a mortal's or ghoul's medical treatment (organisers)",
    "description": "000 \"Mortal's Healing Times\": treated, lethal wounds past Hurt heal on the table; untreated "
                   "they worsen a level a day.",
    "requestBody": json_request({"type": "object", "required": ["treated"], "additionalProperties": False,
                                 "properties": {"treated": {"type": "boolean"}}}, example={"treated": True}),
    "responses": _recorded_response("Recorded."),
})
def treated_api(character_id: int):
    """Tick or untick a mortal's treatment (:func:`larp.services.downtime.set_treated`)."""
    organisers_only()
    data = json_body()
    treated = inputs.flag(data, "treated", required=True)
    return _recorded(set_treated(get_chronicle(), g.user, character_id, treated), character_id)


def _line(character, **extra) -> dict[str, Any]:
    return {"id": character.id, "name": character.name, **extra}


@api_route("get", "/board", {
    "summary": "The organiser's board: what the nights before the open game session call for (organisers)",
    "description": "The same summary the board page shows: the open and previous game sessions, the nights "
                   "between, vampires in torpor (status unrecorded, may_wake with the nights to try, fed_wakes, "
                   "sleeping, retired), vampires with aggravated damage and their healing plan, damaged mortals "
                   "and ghouls, and everyone's condition.",
    "responses": {"200": {"description": "The board.", "content": {"application/json": {"schema": {
        **shape({"game_session": nullable(ref("GameSession")), "previous": nullable(ref("GameSession")),
                 "nights": INT, "next_date": _DATE, "ready": INT,
                 **{name: {"type": "array", "items": line} for name, line in _BOARD_LINES.items()}})}}}},
                  "403": {"description": "Not an organiser.", **_ERROR}},
})
def board_api():
    """The board's summary (:func:`larp.services.downtime.build_between_sessions`, read only)."""
    organisers_only()
    board = build_between_sessions(get_chronicle())
    iso = lambda d: d.isoformat() if d else None  # noqa: E731
    return jsonify(
        game_session=session_payload(board.session) if board.session else None,
        previous=session_payload(board.previous) if board.previous else None,
        nights=board.nights, next_date=board.next_date.isoformat(), ready=board.ready_count,
        torpor=[_line(t.character, status=t.status, cause=t.cause, until=t.until, tried=t.tried,
                      first_night=iso(t.first_night), last_night=iso(t.last_night)) for t in board.torpor],
        healing=[_line(h.character, nights=h.nights, aggravated=h.track.aggravated, problem=h.problem,
                       plan=({"levels": h.plan.levels, "blood": h.plan.blood, "willpower": h.plan.willpower,
                              "rests": h.plan.rests, "limited_by": h.plan.limited_by} if h.plan else None))
                 for h in board.healing],
        mortals=[_line(m.character, hours=m.hours, heals_now=m.heals_now, needs_care=m.needs_care,
                       treated=bool(m.character.treated), problem=m.problem) for m in board.mortals],
        everyone=[_line(e.character, condition=e.condition, where=e.where, damage=e.damage) for e in board.everyone],
    )


@api_route("get", "/chronicles", {
    "summary": "The chronicles the token's user works in, with his role in each",
    "description": "Any of them is named in the path as `/api/v1/chronicles/{id}/...`; a user of only one "
                   "may also use the short paths. Archived chronicles are not listed (they are closed).",
    "responses": {"200": {"description": "His chronicles, by name.", "content": {"application/json": {
        "schema": shape({"chronicles": {"type": "array", "items": shape({
            "id": INT, "name": STR, "role": {"type": "string", "enum": ["narrator", "organiser", "player"]}})}})}}}},
})
def list_chronicles_api():
    """The chronicles of the calling user (a token's owner or the logged-in person), by name, with his
    role in each (issue 22)."""
    from larp.services.memberships import chronicles_of

    return jsonify(chronicles=[{"id": c.id, "name": c.name, "role": role} for c, role in chronicles_of(g.user)])
