"""Character sheets in the JSON API (issue 14): list, read, create, update, copy, retire, restore.

The same use cases as the sheet editor (:mod:`larp.services.sheets`), so the same
validator refuses the same values (``422`` with ``field`` naming the value, and
``errors`` listing every problem), every change is recorded in the character's
history, and an update that sends the ``version`` it read is refused (``409``)
when the character changed since. Organisers change everything; narrators only
weapons, armor and narrator notes, when the chronicle setting allows it.
"""

from __future__ import annotations

from typing import Any

from flask import g, jsonify, request

from larp.db import MAX_ID
from larp.i18n import said_if_phrase
from larp.models import Character
from larp.rules.explain import N_, Phrase
from larp.services.characters import find_characters, get_character
from larp.services.chronicles import get_chronicle
from larp.services.sheet_store import sheet_of
from larp.services.sheets import STATE_FIELDS, copy_character, edit_character, new_character, restore_character, \
    retire_character
from larp.sheet_checks import SheetError
from larp.rules.health.track import DAMAGE_TYPES
from larp.sheet_entries import CREATURES
from larp.web.inputs import enum_schema
from larp.web.api import SCHEMAS, ApiError, bp, json_body
from larp.web.api_routes import api_route, json_request
from larp.web.api_responses import BOOL, INT, NULL_STR, STR, ref, shape

_TEXT = {"type": "string"}
_COUNT = {"type": "integer", "minimum": 0}
_TRAITS = {"type": "object", "description": "Per category (physical, social, mental), the adjectives with counts.",
           "properties": {c: {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {
               "name": _TEXT, "count": {"type": "integer", "minimum": 1}}}} for c in ("physical", "social", "mental")}}
_SHEET_PROPERTIES: dict[str, Any] = {
    "name": {"type": "string", "maxLength": 120}, "creature": enum_schema(CREATURES),
    "player_name": _TEXT, "clan": _TEXT, "sect": _TEXT, "title": _TEXT,
    "generation": {"type": ["integer", "null"], "description": "A vampire's generation (4 to 15); null otherwise."},
    "morality_name": _TEXT, "morality_rating": _COUNT, "willpower_permanent": _COUNT,
    "blood_max": {"type": "integer", "minimum": 0, "description": "0: the generation table's pool."},
    "blood_per_turn": {"type": "integer", "minimum": 0, "description": "0: the generation table's."},
    "nature": _TEXT, "demeanor": _TEXT,
    "virtues": {"type": "object", "additionalProperties": _COUNT,
                "description": "Conscience, Self-Control, Courage, Conviction, Instinct: rating in Traits."},
    "traits": _TRAITS, "negative_traits": _TRAITS,
    "abilities": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}},
    "specialisations": {"type": "object", "additionalProperties": {"type": "array", "items": _TEXT}},
    "powers": {"type": "array", "items": {"type": "object", "required": ["discipline", "power"], "properties": {
        "discipline": _TEXT, "power": _TEXT, "level": {"type": "integer", "minimum": 1},
        "custom": {"type": "boolean", "description": "Not in data/disciplines.toml; else the table's level applies."}}}},
    "backgrounds": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}},
    "merits": {"type": "array", "items": {"$ref": "#/components/schemas/MeritFlaw"}},
    "flaws": {"type": "array", "items": {"$ref": "#/components/schemas/MeritFlaw"}},
    "derangements": {"type": "array", "items": _TEXT},
    "weapons": {"type": "array", "items": {"type": "object", "properties": {
        "key": {"type": "string", "description": "A live armory key (its card gives the numbers), or empty."},
        "name": _TEXT, "bonus_traits": _COUNT, "damage": {"type": "integer", "minimum": 1},
        "damage_type": enum_schema(DAMAGE_TYPES),
        "kind": {"type": "string", "enum": ["blade", "blunt", "firearm", "ranged"]},
        "specials": {"type": "array", "items": _TEXT}, "negative_traits": {"type": "array", "items": _TEXT},
        "note": _TEXT}}},
    "armor": {"type": "array", "items": {"type": "object", "properties": {
        "key": {"type": "string", "description": "A live armory key, or empty."}, "name": _TEXT,
        "rating": {"type": "integer", "minimum": 1, "description": "Extra health levels, lost first."},
        "covers": {"type": "array", "items": {"type": "string", "enum": ["head", "torso", "arms", "legs"]}},
        "negative_traits": {"type": "array", "items": _TEXT}, "note": _TEXT}}},
    "tabletop": {"type": "object", "additionalProperties": _COUNT, "description": "Tabletop ratings in dots."},
    "health_levels": {"type": "array", "items": _TEXT},
    "notes": _TEXT, "narrator_notes": _TEXT, "player_contact": _TEXT, "scene_extra": {"type": "boolean"},
}
SCHEMAS.update({
    "MeritFlaw": {"type": "object", "properties": {
        "key": {"type": "string", "description": "The id in data/merits_flaws.toml, or empty for a custom one."},
        "name": _TEXT, "cost": {"type": "integer", "minimum": 1}, "note": _TEXT}},
    "CharacterSheet": {"type": "object", "required": ["name"], "properties": _SHEET_PROPERTIES,
                       "additionalProperties": False},
    "CharacterUpdate": {"type": "object", "additionalProperties": False, "properties": {
        **_SHEET_PROPERTIES,
        "version": {"type": "integer", "description": "The version read; the update is refused if it changed."},
        "xp_spent": {"type": "number", "minimum": 0, "maximum": 1000, "multipleOf": 0.01,
                     "description": "Experience this change cost (logged), exact to two places: 2 or 0.5."}}},
    "Character": shape({
        "id": INT, "short_code": STR, "version": INT, "retired_at": NULL_STR, "card_issued": BOOL,
        "sheet": ref("CharacterSheet"),
        "state": shape({"condition": STR, "staked": BOOL, "weapon": STR, "willpower_current": INT,
                        "blood_current": INT, "damage": shape({"aggravated": INT, "lethal": INT, "bashing": INT})},
                       description="Tonight's state, changed by rulings (not by the sheet).")}),
    "CharacterLine": shape({"id": INT, "name": STR, "creature": STR, "clan": STR, "player_name": STR,
                            "short_code": STR, "version": INT, "scene_extra": BOOL, "retired": BOOL}),
})
_FORBIDDEN = {"description": "The role (or the token's) may not change this.", "content": {"application/json": {
    "schema": {"$ref": "#/components/schemas/Error"}}}}
_ID = [{"name": "character_id", "in": "path", "required": True,
        "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID}}]
_ONE = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Character"}}}}
_NOT_FOUND = {"description": "No such character.", "content": {"application/json": {
    "schema": {"$ref": "#/components/schemas/Error"}}}}


def character_payload(character: Character) -> dict[str, Any]:
    """A stored character as the API shows it: its sheet and tonight's state."""
    sheet = sheet_of(character).to_dict()
    for key in STATE_FIELDS:
        sheet.pop(key, None)
    return {
        "id": character.id, "short_code": character.short_code, "version": character.version,
        "retired_at": character.retired_at.isoformat() if character.retired_at else None,
        "card_issued": character.card_token is not None, "sheet": sheet,
        "state": {"condition": character.condition, "staked": character.staked, "weapon": character.weapon,
                  "willpower_current": character.willpower_current, "blood_current": character.blood_current,
                  "damage": {"aggravated": character.damage_aggravated, "lethal": character.damage_lethal,
                             "bashing": character.damage_bashing}},
    }


@bp.errorhandler(SheetError)
def _sheet_error(exc: SheetError):
    """An invalid sheet: the first problem as ``error`` and ``field``, and every one in ``errors``."""
    return jsonify(error=said_if_phrase(exc.message), field=exc.field,
                   errors=[{"field": field, "error": said_if_phrase(message)} for field, message in exc.errors]), 422


@api_route("get", "/characters", {
    "summary": "List the chronicle's characters",
    "parameters": [{"name": "retired", "in": "query", "schema": {"type": "boolean"},
                    "description": "List the retired characters instead of those in play."},
                   {"name": "q", "in": "query", "schema": {"type": "string"}, "description": "Name or card code."}],
    "responses": {"200": {"description": "id, name, creature, clan, player, card code, version.",
                          "content": {"application/json": {"schema": shape({"characters": {
                              "type": "array", "items": ref("CharacterLine")}})}}}},
})
def list_characters_api():
    """The characters in play (or ``retired=true``), by name."""
    retired = request.args.get("retired", "").lower() in ("1", "true", "yes")
    characters = find_characters(get_chronicle(), request.args.get("q", ""), limit=1000, retired=retired)
    return jsonify(characters=[{"id": c.id, "name": c.name, "creature": c.creature, "clan": c.clan,
                                "player_name": c.player_name, "short_code": c.short_code, "version": c.version,
                                "scene_extra": c.scene_extra, "retired": c.retired_at is not None}
                               for c in characters])


@api_route("post", "/characters", {
    "summary": "Create a character from a sheet",
    "description": "Every value is checked as the sheet editor checks it; the character gets a card code and a "
                   "card token. Recorded in its history.",
    "requestBody": json_request({"$ref": "#/components/schemas/CharacterSheet"}),
    "responses": {"201": {"description": "Created.", **_ONE}, "403": _FORBIDDEN,
                  "409": {"description": "A character of that name exists.", "content": {"application/json": {
                      "schema": {"$ref": "#/components/schemas/Error"}}}}},
})
def create_character_api():
    """Create a character (organisers)."""
    character, _ = new_character(get_chronicle(), g.user, json_body())
    return jsonify(character_payload(character)), 201


@api_route("get", "/characters/<int:character_id>", {
    "summary": "Read a character's sheet and state", "parameters": _ID,
    "responses": {"200": {"description": "The character.", **_ONE}, "404": _NOT_FOUND},
})
def read_character_api(character_id: int):
    """One character: the whole sheet, tonight's state, card code, version."""
    return jsonify(character_payload(get_character(get_chronicle(), character_id)))


@api_route("patch", "/characters/<int:character_id>", {
    "x-records-ruling": True,
    "summary": "Change fields of a character's sheet",
    "description": "Only the fields given change; each change is recorded with its value before and after. "
                   "Send `version` to refuse the change if someone changed the character since it was read.",
    "parameters": _ID,
    "requestBody": json_request({"$ref": "#/components/schemas/CharacterUpdate"}),
    "responses": {"200": {"description": "Changed (or nothing to change).", **_ONE}, "404": _NOT_FOUND,
                  "403": _FORBIDDEN,
                  "409": {"description": "Stale: the character changed since `version`.", "content": {
                      "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}},
})
def update_character_api(character_id: int):
    """Change a character's sheet; narrators only its weapons, armor and narrator notes (by setting)."""
    data = dict(json_body())
    version = data.pop("version", None)
    xp = data.pop("xp_spent", 0)
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise ApiError(Phrase.message(N_("version must be a whole number.")), "version", 422)
    unknown = [k for k in STATE_FIELDS if k in data]
    if unknown:
        raise ApiError(Phrase.message(N_("%(unknown)s is tonight's state, changed by rulings, not by the sheet."),
                                      unknown=unknown[0]), unknown[0], 422)
    character, _ = edit_character(get_chronicle(), g.user, character_id, data, expected_version=version,
                                  xp_spent=xp if isinstance(xp, (int, float)) and not isinstance(xp, bool) else -1)
    return jsonify(character_payload(character))


@api_route("post", "/characters/<int:character_id>/copy", {
    "summary": "Copy a character (scene extras)",
    "description": "`count` copies named `name` (one) or `name 1` to `name N`; each with its own card code and "
                   "no card token until its card is issued.",
    "parameters": _ID,
    "requestBody": json_request({
        "type": "object", "required": ["name"], "additionalProperties": False, "properties": {
            "name": {"type": "string", "maxLength": 110}, "count": {"type": "integer", "minimum": 1, "maximum": 30},
            "scene_extra": {"type": "boolean"},
            "extra_track": {"type": "boolean", "description": "Each copy gets the extras' four-level health "
                            "track: Hurt, Maimed, Incapacitated, then dead (000 \"Optional Rule: Extras\")."}}}),
    "responses": {"201": {"description": "The copies.", "content": {"application/json": {"schema": shape({
        "characters": {"type": "array", "items": ref("Character")}})}}}, "404": _NOT_FOUND, "403": _FORBIDDEN},
})
def copy_character_api(character_id: int):
    """Make copies of a character."""
    data = json_body()
    count = data.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int):
        raise ApiError(Phrase.message(N_("count must be a whole number.")), "count", 422)
    name = data.get("name", "")
    if not isinstance(name, str):
        raise ApiError(Phrase.message(N_("name must be text.")), "name", 422)
    copies = copy_character(get_chronicle(), g.user, character_id, name, count,
                            scene_extra=data.get("scene_extra") is True, extra_track=data.get("extra_track") is True)
    return jsonify(characters=[character_payload(c) for c in copies]), 201


def _in_or_out_of_play(summary: str, done: str, **more: Any) -> dict[str, Any]:
    """The OpenAPI operation of retiring a character or bringing him back (recorded, no body): ``summary``,
    ``done`` the description of its 200 answer, and ``more`` (a description)."""
    return {"x-records-ruling": True, "summary": summary, **more, "parameters": _ID,
            "requestBody": {"content": {"application/json": {"schema": {"type": "object", "additionalProperties": False,
                                                                       "properties": {}}}}},
            "responses": {"200": {"description": done, **_ONE}, "404": _NOT_FOUND, "403": _FORBIDDEN}}


@api_route("post", "/characters/<int:character_id>/retire", _in_or_out_of_play(
    "Retire a character (the player left)", "Retired.",
    description="Hidden from pickers, the board and the card sheet; kept in the record and history."))
def retire_character_api(character_id: int):
    """Retire a character."""
    return jsonify(character_payload(retire_character(get_chronicle(), g.user, character_id)))


@api_route("post", "/characters/<int:character_id>/restore",
           _in_or_out_of_play("Bring a retired character back into play", "Back in play."))
def restore_character_api(character_id: int):
    """Restore a retired character."""
    return jsonify(character_payload(restore_character(get_chronicle(), g.user, character_id)))
