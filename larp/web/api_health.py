"""Damage and healing endpoints of the JSON API (issue 5).

Stateless: ``POST /api/v1/damage`` and ``POST /api/v1/healing`` take a
described character (its track, creature, Fortitude, blood...) and return the
new track with the explanation, touching no stored data. Stateful:
``POST /api/v1/characters/<id>/damage`` and ``.../heal`` change a stored
character (with the version check that keeps concurrent changes).
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import current_app, g, jsonify

from larp.rules.healing import heal_aggravated, heal_automatically, heal_with_blood
from larp.rules.health import HealthTrack, health_views, new_track
from larp.rules.rulings import rule_damage_by_hand
from larp.rules.rulings.parsing import person_from_track
from larp.rules.settings import ChronicleSettings
from larp.services.characters import character_state, get_character
from larp.services.chronicles import chronicle_settings, get_chronicle
from larp.services.health import DamageRequest, damage_character, heal_character
from larp.web.api import SCHEMAS, ApiError, bp, documented, json_body

SCHEMAS.update({
    "Track": {
        "type": "object",
        "description": "A health track. Leave out `levels` for the chronicle's default live track.",
        "properties": {
            "levels": {"type": "array", "items": {"type": "string"}},
            "aggravated": {"type": "integer", "minimum": 0}, "lethal": {"type": "integer", "minimum": 0},
            "bashing": {"type": "integer", "minimum": 0},
            "condition": {"type": "string", "enum": ["active", "unconscious", "torpor", "final_death", "dead"]},
            "staked": {"type": "boolean"},
            "creature": {"type": "string", "enum": ["vampire", "ghoul", "mortal"]},
        },
    },
    "DamageInput": {
        "type": "object",
        "properties": {
            "damage_type": {"type": "string", "enum": ["bashing", "lethal", "aggravated"]},
            "levels": {"type": "integer", "minimum": 0},
            "weapon": {"type": "string", "description": "A live armory key; its card gives the damage."},
            "bite": {"type": "boolean"}, "firearm": {"type": "boolean"}, "head_shot": {"type": "boolean"},
            "source": {"type": "string", "enum": ["other", "fire", "sunlight"]},
            "attacker_potence": {"type": "integer", "minimum": 0},
            "lethal_by_prowess": {"type": "boolean"},
            "resistance": {"type": "boolean"}, "resilience": {"type": "boolean"}, "stamina": {"type": "boolean"},
            "resistance_player": {"type": "string"}, "resistance_narrator": {"type": "string"},
            "resilience_player": {"type": "string"}, "resilience_narrator": {"type": "string"},
            "high_caliber_player": {"type": "string", "enum": ["rock", "paper", "scissors", "random"],
                                    "description": "The High-Caliber simple test as thrown at the table "
                                                   "(left out or random: drawn by the app, and the ruling says so)."},
            "high_caliber_narrator": {"type": "string", "enum": ["rock", "paper", "scissors", "random"]},
            "armor": {"description": "The armor he wears for this ruling: a live armory key (\"none\": none); "
                                     "left out: the sheet's."},
            "armor_left": {"type": "integer", "minimum": 0, "description": "The armor's levels left (used up: 0)."},
            "armor_piercing": {"type": "boolean", "description": "Armor-piercing rounds: armor is ignored."},
            "killing_blow": {"type": "boolean", "description": "A killing blow declared on a vampire in torpor "
                                                                "after a won Physical Challenge (Dark Epics; acts "
                                                                "under the setting dark_epics_killing_blow)."},
        },
    },
})

TRACK_RESPONSE = {"200": {"description": "The new track, both views and the explanation.",
                          "content": {"application/json": {"schema": {"type": "object"}}}}}


def _track(data: Any, settings: ChronicleSettings) -> HealthTrack:
    if data is None:
        return new_track("vampire", settings)
    if not isinstance(data, Mapping):
        raise ApiError("track must be an object.", "track", 422)
    creature = str(data.get("creature") or "vampire")
    base = new_track(creature, settings) if not data.get("levels") else None
    try:
        return HealthTrack.from_dict({"levels": list(base.levels) if base else data["levels"], **{
            k: v for k, v in data.items() if k != "levels"}, "creature": creature})
    except (KeyError, TypeError) as exc:
        raise ApiError(f"track is malformed ({exc}).", "track", 422) from None


DAMAGE_FIELDS = {"damage_type", "levels", "weapon", "bite", "firearm", "head_shot", "source", "attacker_potence",
                 "lethal_by_prowess", "resistance", "resilience", "stamina", "resistance_player",
                 "resistance_narrator", "resilience_player", "resilience_narrator", "armor", "armor_left",
                 "armor_piercing", "killing_blow", "high_caliber_player", "high_caliber_narrator"}


def _only(data: Mapping[str, Any], allowed: set[str], where: str = "") -> None:
    """Refuse fields the endpoint does not know (a typo must not be silently ignored)."""
    unknown = sorted(set(data) - allowed)
    if unknown:
        name = f"{where}.{unknown[0]}" if where else unknown[0]
        raise ApiError(f"Unknown field {unknown[0]!r}; the fields are: {', '.join(sorted(allowed))}.", name, 422)


def _settings(data: dict) -> ChronicleSettings:
    overrides = data.pop("settings", None) or {}
    if not isinstance(overrides, dict):
        raise ApiError("settings must be an object of setting keys to values.", "settings", 422)
    return ChronicleSettings.from_overrides(overrides)


@bp.post("/damage")
@documented("/damage", "post", {
    "summary": "Apply damage to a described character (stateless)",
    "description": "002 \"Damage and Healing\": firearms against vampires, halving, Fortitude, armor, then the "
                   "track (unconscious, torpor, Final Death); the same rules core entry point as damage by hand on "
                   "a stored character. Body: `track` (leave out its `levels` for the chronicle's track, with "
                   "Mettle's Healthy level at Fortitude 2), `fortitude`, `powers` (mettle...), `armor` and "
                   "`armor_left` (what he wears), `name`, `damage` (DamageInput), optional `settings`.",
    "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object", "properties": {
        "track": {"$ref": "#/components/schemas/Track"}, "fortitude": {"type": "integer", "minimum": 0},
        "powers": {"type": "array", "items": {"type": "string"}},
        "armor": {"description": "A live armory key, a list of keys, or objects {armor, left}."},
        "armor_left": {"type": "integer", "minimum": 0},
        "name": {"type": "string", "description": "His name, for the explanation."},
        "damage": {"$ref": "#/components/schemas/DamageInput"}, "settings": {"type": "object"}}}}}},
    "responses": TRACK_RESPONSE,
})
def damage_stateless():
    """Damage on a described character (:func:`larp.rules.rulings.rule_damage_by_hand`); nothing is stored."""
    data = json_body()
    _only(data, {"track", "fortitude", "powers", "armor", "armor_left", "name", "damage", "settings"})
    settings = _settings(data)
    raw = data.get("damage") or {}
    if not isinstance(raw, Mapping):
        raise ApiError("damage must be an object.", "damage", 422)
    _only(raw, DAMAGE_FIELDS - {"armor", "armor_left"}, "damage")
    request = DamageRequest.from_mapping(raw)
    rng = current_app.config["RANDOM_SOURCE"]()
    fortitude = data.get("fortitude", 0)
    if isinstance(fortitude, bool) or not isinstance(fortitude, int) or fortitude < 0:
        raise ApiError("fortitude must be a whole number of at least 0.", "fortitude", 422)
    name = data.get("name") or "The character"
    if not isinstance(name, str):
        raise ApiError("name must be a text.", "name", 422)
    person = person_from_track(data.get("track"), fortitude, name.strip() or "The character", data.get("armor"),
                               data.get("armor_left"), data.get("powers"), settings)
    result = rule_damage_by_hand(person, request.hand(rng), None, settings, rng)
    return jsonify(taken=result.taken.to_dict(), health=result.health.to_dict(), views=health_views(result.health.track),
                   summary=result.summary, consequences=result.consequences.to_dict(),
                   stamina_trait=result.stamina_trait)


@bp.post("/healing")
@documented("/healing", "post", {
    "summary": "Heal a described vampire with blood (stateless)",
    "description": "002 \"Damage and Healing\": one blood point heals two bashing or one lethal; aggravated one "
                   "level a night for three blood points and one Willpower (or the chronicle's agg_heal_model). "
                   "Body: `track`, `kind` (bashing, lethal, aggravated, automatic), `levels`, `blood`, "
                   "`blood_per_turn`, `willpower`, optional `settings`.",
    "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object", "properties": {
        "track": {"$ref": "#/components/schemas/Track"},
        "kind": {"type": "string", "enum": ["bashing", "lethal", "aggravated", "automatic"]},
        "levels": {"type": "integer", "minimum": 1}, "blood": {"type": "integer", "minimum": 0},
        "blood_per_turn": {"type": "integer", "minimum": 1}, "willpower": {"type": "integer", "minimum": 0},
        "settings": {"type": "object"}}}}}},
    "responses": TRACK_RESPONSE,
})
def healing_stateless():
    """Healing on a described track; nothing is stored."""
    data = json_body()
    _only(data, {"track", "kind", "levels", "blood", "blood_per_turn", "willpower", "settings"})
    settings = _settings(data)
    track = _track(data.get("track"), settings)
    values = {}
    for key, default in (("levels", 1), ("blood", 0), ("blood_per_turn", 1), ("willpower", 0)):
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ApiError(f"{key} must be a whole number of at least 0.", key, 422)
        values[key] = value
    kind = data.get("kind", "bashing")
    if kind == "automatic":
        result = heal_automatically(track, values["blood"], values["blood_per_turn"], settings)
    elif kind == "aggravated":
        result = heal_aggravated(track, values["levels"], values["blood"], values["willpower"], settings)
    elif kind in ("bashing", "lethal"):
        result = heal_with_blood(track, kind, values["levels"], values["blood"], values["blood_per_turn"], settings)
    else:
        raise ApiError("kind is bashing, lethal, aggravated or automatic.", "kind", 422)
    return jsonify(healing=result.to_dict(), views=health_views(result.track))


def _character_payload(character_id: int) -> dict:
    chronicle = get_chronicle()
    character = get_character(chronicle, character_id)
    state = character_state(character, None, chronicle_settings(chronicle))
    return {"id": character.id, "name": character.name, "version": character.version,
            "blood_current": character.blood_current, "willpower_current": character.willpower_current,
            "health": state.health.to_dict(), "level": state.health.state()}


@bp.post("/characters/<int:character_id>/damage")
@documented("/characters/{character_id}/damage", "post", {
    "summary": "Apply damage to a stored character (stateful)",
    "parameters": [{"name": "character_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
    "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DamageInput"}}}},
    "responses": {"201": {"description": "Applied and recorded.", "content": {"application/json": {"schema": {"type": "object"}}}}},
})
def damage_stateful(character_id: int):
    """Damage a stored character; concurrent changes are never lost (version check and retry)."""
    data = json_body()
    _only(data, DAMAGE_FIELDS)
    record, character, track = damage_character(get_chronicle(), g.user, character_id, DamageRequest.from_mapping(data),
                                                current_app.config["RANDOM_SOURCE"]())
    payload = {"id": character.id, "name": character.name, "version": character.version,
               "blood_current": character.blood_current, "willpower_current": character.willpower_current,
               "health": track.to_dict(), "level": track.state()}
    return jsonify(ruling_id=record.id, summary=record.summary, steps=record.steps, character=payload), 201


@bp.post("/characters/<int:character_id>/heal")
@documented("/characters/{character_id}/heal", "post", {
    "summary": "Heal a stored vampire with blood (stateful)",
    "parameters": [{"name": "character_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
    "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object", "properties": {
        "kind": {"type": "string", "enum": ["bashing", "lethal", "aggravated", "automatic"]},
        "levels": {"type": "integer", "minimum": 1}}}}}},
    "responses": {"201": {"description": "Applied and recorded.", "content": {"application/json": {"schema": {"type": "object"}}}}},
})
def heal_stateful(character_id: int):
    """Heal a stored vampire (002 "Damage and Healing")."""
    data = json_body()
    _only(data, {"kind", "levels"})
    record = heal_character(get_chronicle(), g.user, character_id, str(data.get("kind", "")), data.get("levels", 1))
    return jsonify(ruling_id=record.id, summary=record.summary, steps=record.steps,
                   character=_character_payload(character_id)), 201
