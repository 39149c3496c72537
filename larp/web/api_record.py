"""The record and character cards in the JSON API (issue 21).

- ``GET /rulings`` (filter by character and game session, a page at a time), ``GET /rulings/{id}``,
  ``GET /rulings/by-token/{key}``, ``POST /rulings/{id}/undo`` (organisers): the record pages'
  and the history's undo (:mod:`larp.services.history`).
- ``GET /characters/{id}/card``, ``POST .../card/rotate``, ``POST .../card/revoke`` (organisers):
  the card list's buttons (:mod:`larp.services.cards`).
"""

from __future__ import annotations

from typing import Any

from flask import g, jsonify, request

from larp.i18n import steps_for_reader, summary_text
from larp.models import Ruling, RulingCharacter, utcnow
from larp.rules.explain import N_, Phrase
from larp.services.cards import card_url, revoke_card, rotate_card
from larp.services.characters import get_character
from larp.services.chronicles import chronicle_settings, get_chronicle
from larp.services.history import find_rulings, undo_own_recent, undo_ruling
from larp.services.records import AlreadyRecorded, current_submission, ruling_for_token
from larp.web import inputs
from larp.web.scope import chronicle_page
from larp.web.api import IDEMPOTENCY_PARAMETER, SCHEMAS, ApiError, json_body
from larp.web.api_routes import api_route
from larp.web.api_between import organisers_only
from larp.web.api_responses import NO_BODY

_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
#: The most rulings one page of ``GET /rulings`` gives.
MAX_PAGE = 200

SCHEMAS.update({
    "RecordEntry": {"type": "object", "required": ["id", "kind", "summary", "created_at", "narrator", "game_session",
                                                   "undone_at", "characters", "url"], "properties": {
        "id": {"type": "integer"}, "kind": {"type": "string"}, "summary": {"type": "string"},
        "created_at": {"type": "string", "description": "UTC, ISO 8601."},
        "narrator": {"type": "string", "description": "Who made it: an account's name, or an API token's name."},
        "game_session": {"type": ["integer", "null"]},
        "undone_at": {"type": ["string", "null"]},
        "characters": {"type": "array", "items": {"type": "object", "required": ["id", "name", "role"],
                                                  "additionalProperties": False, "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"}, "role": {"type": "string"}}}},
        "url": {"type": "string", "description": "The ruling's page."},
        "inputs": {"type": "object", "additionalProperties": True,
                   "description": "What the ruling was asked (with the full ruling only; keys by kind)."},
        "outcome": {"type": "object", "additionalProperties": True,
                    "description": "What it decided (with the full ruling only; keys by kind)."},
        "steps": {"type": "array", "items": {"$ref": "#/components/schemas/Step"}}},
        "additionalProperties": False},
    "Card": {"type": "object", "required": ["character_id", "name", "short_code", "card_token", "url"],
             "additionalProperties": False, "properties": {
        "character_id": {"type": "integer"}, "name": {"type": "string"}, "short_code": {"type": "string"},
        "card_token": {"type": ["string", "null"], "description": "null: revoked, the card opens nothing."},
        "url": {"type": ["string", "null"], "description": "What the card's QR code opens (card_base_url)."}}},
})


def _time(moment) -> str | None:
    return moment.isoformat(timespec="seconds") + "Z" if moment else None


def ruling_payload(ruling: Ruling, full: bool = False) -> dict[str, Any]:
    """A ruling of the record as JSON (``full``: with its inputs, outcome and steps)."""
    links = RulingCharacter.select().where(RulingCharacter.ruling == ruling).order_by(RulingCharacter.id)
    body = {"id": ruling.id, "kind": ruling.kind, "summary": summary_text(ruling), "created_at": _time(ruling.created_at),
            "narrator": ruling.narrator_label,
            "game_session": ruling.game_session.number if ruling.game_session_id else None,
            "undone_at": _time(ruling.undone_at),
            "characters": [{"id": l.character_id, "name": l.character.name, "role": l.role} for l in links],
            "url": chronicle_page(ruling.chronicle_id, "rulings.show", ruling_id=ruling.id)}
    if full:
        body.update(inputs=ruling.inputs, outcome=ruling.outcome, steps=steps_for_reader(ruling.steps))
    return body


def _query_id(name: str) -> int | None:
    return inputs.whole(request.args, name, low=1, status=400)


@api_route("get", "/rulings", {
    "summary": "The record: rulings, newest first",
    "description": "Filter by `character_id` and by `game_session` (its number); page with `before` (the last "
                   "id of the page before) and `limit` (at most 200).",
    "parameters": [
        {"name": "character_id", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {"name": "game_session", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {"name": "before", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 50}}],
    "responses": {"200": {"description": "A page of the record.", "content": {"application/json": {
        "schema": {"type": "object", "properties": {"rulings": {"type": "array", "items": {
            "$ref": "#/components/schemas/RecordEntry"}}}},
        "example": {"rulings": [{"id": 41, "kind": "damage", "summary": "Konrad Vale takes 2 lethal",
                                 "created_at": "2026-11-29T21:14:03Z", "narrator": "Roll It bridge",
                                 "game_session": 3, "undone_at": None,
                                 "characters": [{"id": 2, "name": "Konrad Vale", "role": "subject"}],
                                 "url": "/rulings/41"}]}}}},
                  "400": {"description": "A filter that is not a whole number.", **_ERROR}},
})
def list_rulings_api():
    """A page of the record (:func:`larp.services.history.find_rulings`)."""
    limit = inputs.whole(request.args, "limit", 50, low=1, high=MAX_PAGE, status=400)
    rulings = find_rulings(get_chronicle(), _query_id("character_id"), _query_id("game_session"),
                           _query_id("before"), limit)
    return jsonify(rulings=[ruling_payload(r) for r in rulings])


@api_route("get", "/rulings/<int:ruling_id>", {
    "summary": "One ruling with its inputs, outcome and explanation",
    "responses": {"200": {"description": "The ruling.", "content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/RecordEntry"}}}},
                  "404": {"description": "No such ruling in this chronicle.", **_ERROR}},
})
def read_ruling_api(ruling_id: int):
    """One ruling of the chronicle (404 when unknown)."""
    ruling = Ruling.get_or_none((Ruling.id == ruling_id) & (Ruling.chronicle == get_chronicle()))
    if ruling is None:
        raise ApiError(Phrase.message(N_("There is no such ruling in this chronicle.")), "ruling_id", 404)
    return jsonify(ruling_payload(ruling, full=True))


@api_route("get", "/rulings/by-token/<token>", {
    "summary": "Was a call with this Idempotency-Key recorded?",
    "description": "After a lost reply: 200 with the ruling it recorded, or 404 when nothing was recorded with "
                   "it (it is safe to send the call again).",
    "parameters": [{"name": "token", "in": "path", "required": True, "schema": IDEMPOTENCY_PARAMETER["schema"]}],
    "responses": {"200": {"description": "The ruling recorded with it.", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/RecordEntry"}}}},
                  "404": {"description": "Nothing recorded with it.", **_ERROR}},
})
def ruling_by_token_api(token: str):
    """The ruling recorded with the one-time key ``token`` (issue 13) by the token's owner in this
    chronicle (issue 28: keys are his own there), or 404."""
    ruling = ruling_for_token(token, get_chronicle(), g.user.id)
    if ruling is None:
        raise ApiError(Phrase.message(N_("Nothing was recorded with this key: it is safe to send "
                                         "the call again.")), "token", 404)
    return jsonify(ruling_payload(ruling, full=True))


@api_route("post", "/rulings/<int:ruling_id>/undo", {
    "summary": "Undo a ruling (organisers; a narrator his own challenge within the minute)",
    "description": "As the history's Undo: every character it touched is put back as he was before it, the "
                   "Traits and Abilities it spent come back, torpor records it started go; only while it is "
                   "the latest change to each of them. Recorded as a ruling of kind \"undo\". A narrator (or "
                   "a narrator's token) may undo only a challenge his account recorded, within 90 seconds, as "
                   "the challenge screen's Undo.",
    "requestBody": NO_BODY,
    "responses": {"201": {"description": "Undone; the undo's ruling.", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/RecordEntry"}}}},
                  "403": {"description": "Not an organiser.", **_ERROR},
                  "404": {"description": "No such ruling in this chronicle.", **_ERROR},
                  "409": {"description": "Already undone, not undoable, or not the latest change (the error "
                                         "names the later change).", **_ERROR}},
})
def undo_ruling_api(ruling_id: int):
    """Undo a ruling: organisers any (:func:`larp.services.history.undo_ruling`), a narrator his own
    recent challenge (:func:`larp.services.history.undo_own_recent`), as the web app allows."""
    if request.get_data():
        data = json_body()
        if data:
            raise ApiError(Phrase.message(N_("Unknown field %(data)s; this endpoint takes none."),
                                          data=repr(sorted(data)[0])), sorted(data)[0], 422)
    if g.user.role == "organiser":
        record = undo_ruling(get_chronicle(), g.user, ruling_id)
    else:
        record = undo_own_recent(get_chronicle(), g.user, ruling_id, utcnow())
    return jsonify(ruling_payload(record, full=True)), 201


def _card(character) -> dict[str, Any]:
    base = chronicle_settings(get_chronicle())["card_base_url"] or request.host_url.rstrip("/")
    return {"character_id": character.id, "name": character.name, "short_code": character.short_code,
            "card_token": character.card_token,
            "url": card_url(base, character.card_token) if character.card_token else None}


_CARD_RESPONSES = {"200": {"description": "The card.", "content": {"application/json": {"schema": {
    "$ref": "#/components/schemas/Card"}}}},
                   "403": {"description": "Not an organiser.", **_ERROR},
                   "404": {"description": "Unknown character.", **_ERROR}}


SCHEMAS["CardChanged"] = {**SCHEMAS["Card"], "required": [*SCHEMAS["Card"]["required"], "ruling_id"],
                          "properties": {**SCHEMAS["Card"]["properties"], "ruling_id": {
                              "type": "integer", "description": "The ruling that recorded the change."}}}


def _card_change_responses(done: str) -> dict[str, Any]:
    return {"201": {"description": done, "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/CardChanged"}}}},
            "403": _CARD_RESPONSES["403"], "404": _CARD_RESPONSES["404"]}


@api_route("get", "/characters/<int:character_id>/card", {
    "summary": "A character's card token and the address its QR code opens (organisers)",
    "responses": _CARD_RESPONSES})
def read_card_api(character_id: int):
    """The character's card token and link (organisers: it opens the player's page)."""
    organisers_only()
    return jsonify(_card(get_character(get_chronicle(), character_id)))


def _card_changed(character, ruling_id: int | None):
    return jsonify({**_card(character), "ruling_id": ruling_id}), 201


@api_route("post", "/characters/<int:character_id>/card/rotate", {
    "summary": "Issue a new card token: the old printed card stops working (organisers)",
    "description": "Recorded as a ruling of kind `card_rotated` (the record never shows the token). The same "
                   "Idempotency-Key again rotates nothing: it is a 409 naming that ruling, and it cannot show "
                   "the token again; GET /characters/{character_id}/card reads the one that works.",
    "requestBody": NO_BODY,
    "responses": _card_change_responses("Rotated and recorded: the new card token.")})
def rotate_card_api(character_id: int):
    """Rotate the card token (:func:`larp.services.cards.rotate_card`), once per Idempotency-Key."""
    organisers_only()
    try:
        character = rotate_card(get_chronicle(), character_id, g.user)
    except AlreadyRecorded as exc:
        exc.message += (" The card token it issued is not shown again here: GET /api/v1/characters/"
                        f"{character_id}/card reads the one that works.")
        raise
    return _card_changed(character, current_submission().ruling_id)


@api_route("post", "/characters/<int:character_id>/card/revoke", {
    "summary": "Revoke the card token: the printed card opens nothing (organisers)",
    "description": "Recorded as a ruling of kind `card_revoked`; the same Idempotency-Key again is a 409 "
                   "naming it.",
    "requestBody": NO_BODY,
    "responses": _card_change_responses("Revoked and recorded.")})
def revoke_card_api(character_id: int):
    """Revoke the card token (:func:`larp.services.cards.revoke_card`), once per Idempotency-Key."""
    organisers_only()
    character = revoke_card(get_chronicle(), character_id, g.user)
    return _card_changed(character, current_submission().ruling_id)
