"""Damage and healing endpoints of the JSON API (issue 5).

Stateless: ``POST /api/v1/damage`` and ``POST /api/v1/healing`` take a
described character (its track, creature, Fortitude, blood...) and return the
new track with the explanation, touching no stored data. Stateful:
``POST /api/v1/characters/<id>/damage`` and ``.../heal`` change a stored
character (with the version check that keeps concurrent changes).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from flask import current_app, g, jsonify

from larp.i18n import steps_for_reader, summary_text
from larp.rules.blood import BLOOD_CALLS
from larp.rules.health import HealthTrack, health_views
from larp.rules.rulings import rule_blood_called_for, rule_damage_by_hand, rule_feeding, rule_healing
from larp.rules.rulings.healing import GAMES, HEAL_KINDS
from larp.rules.rulings.parsing import morality_from, person_from_track
from larp.rules.rulings.people import Person, person_track
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import GameNight
from larp.services.adjudicate import (DESTROYING, BloodCalledFor, Damage, Feeding, Healing, Recorded, TrackAction,
                                      adjudicate)
from larp.services.chronicles import get_chronicle
from larp.services.health import DamageRequest
from larp.rules.challenge.types import BASIC_THROWS, Throw
from larp.rules.health.track import CONDITIONS, DAMAGE_TYPES
from larp.sheet_entries import CREATURES
from larp.web.inputs import enum_schema
from larp.web.api import MORALITY_FIELD, NIGHT_FIELDS, SCHEMAS, json_body, request_night, request_settings
from larp.web.api_routes import api_route, json_request
from larp.web import inputs
from larp.web.inputs import only as _only
from larp.web.api_responses import BOOL, CONSEQUENCES, INT, NULL_INT, NULL_STR, STEPS, STR, ref, shape

SCHEMAS.update({
    "Track": {
        "type": "object",
        "description": "A health track. Leave out `levels` for the chronicle's default live track.",
        "properties": {
            "levels": {"type": "array", "items": {"type": "string"}},
            "aggravated": {"type": "integer", "minimum": 0}, "lethal": {"type": "integer", "minimum": 0},
            "bashing": {"type": "integer", "minimum": 0},
            "condition": enum_schema(CONDITIONS),
            "staked": {"type": "boolean"},
            "creature": enum_schema(CREATURES),
        },
    },
    "DamageInput": {
        "type": "object",
        "properties": {
            "damage_type": enum_schema(DAMAGE_TYPES),
            "levels": {"type": "integer", "minimum": 0},
            "weapon": {"type": "string", "description": "A live armory key; its card gives the damage."},
            "bite": {"type": "boolean"}, "firearm": {"type": "boolean"}, "head_shot": {"type": "boolean"},
            "source": {"type": "string", "enum": ["other", "fire", "sunlight"]},
            "exposure": {"type": "string", "enum": ["", "indirect", "direct"],
                         "description": "Sunlight's exposure (with source sunlight, required): indirect is one "
                                        "aggravated level a turn, direct three (LotNR Sunlight, met-reference T26)."},
            "turns": {"type": "integer", "minimum": 1, "maximum": 60, "default": 1,
                      "description": "Turns in the sunlight."},
            "attacker_potence": {"type": "integer", "minimum": 0},
            "lethal_by_prowess": {"type": "boolean"},
            "resistance": {"type": "boolean"}, "resilience": {"type": "boolean"}, "stamina": {"type": "boolean"},
            "resistance_player": {"type": "string"}, "resistance_narrator": {"type": "string"},
            "resilience_player": {"type": "string"}, "resilience_narrator": {"type": "string"},
            "high_caliber_player": {**enum_schema(Throw, only=BASIC_THROWS, random=True),
                                    "description": "The High-Caliber simple test as thrown at the table "
                                                   "(left out or random: drawn by the app, and the ruling says so)."},
            "high_caliber_narrator": enum_schema(Throw, only=BASIC_THROWS, random=True),
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

def _answer(description: str, schema: dict) -> dict:
    return {"200": {"description": description, "content": {"application/json": {"schema": schema}}}}


DAMAGE_ANSWER = _answer("The damage taken, the new track, both views and the explanation.", shape({
    "taken": shape({"parts": {"type": "array", "items": {"type": "array", "items": {"type": ["string", "integer"]},
                                                         "minItems": 2, "maxItems": 2,
                                                         "description": "[damage type, levels]"}},
                    "armor_left": NULL_INT, "stake": BOOL, "steps": STEPS},
                   description="The damage after the target's kind, halving, Fortitude and armor."),
    "health": shape({"track": ref("TrackState"), "condition": STR, "staked": BOOL, "level": STR, "marked": INT,
                     "overflow": INT, "steps": STEPS}, description="The track after marking it."),
    "views": ref("HealthViews"), "summary": STR, "consequences": CONSEQUENCES, "stamina_trait": NULL_STR}))
HEALING_ANSWER = _answer("The healing, the new track, both views and the explanation.", shape({
    "healing": shape({"summary": STR, "steps": STEPS, "consequences": CONSEQUENCES, "track": ref("TrackState")},
                     closed=False, description="The healing ruling; its other fields are its figures."),
    "views": ref("HealthViews")}))
FEEDING_ANSWER = _answer("The feeding ruling.", shape({"feeding": ref("BloodRuling")}))
BLOOD_ANSWER = _answer("The ruling on the blood called for.", shape({"blood": ref("BloodRuling")}))
RECORDED = {"201": {"description": "Applied and recorded.", "content": {"application/json": {
    "schema": ref("HealthRecorded")}}}}


DAMAGE_FIELDS = {"damage_type", "levels", "weapon", "bite", "firearm", "head_shot", "source", "attacker_potence",
                 "lethal_by_prowess", "resistance", "resilience", "stamina", "resistance_player",
                 "resistance_narrator", "resilience_player", "resilience_narrator", "armor", "armor_left",
                 "armor_piercing", "killing_blow", "high_caliber_player", "high_caliber_narrator"}


_settings = request_settings  # the one meaning of settings on every stateless endpoint (issue 21)


@api_route("post", "/damage", {
    "summary": "Apply damage to a described character (stateless)",
    "description": "002 \"Damage and Healing\": firearms against vampires, halving, Fortitude, armor, then the "
                   "track (unconscious, torpor, Final Death); the same rules core entry point as damage by hand on "
                   "a stored character. Body: `track` (leave out its `levels` for the chronicle's track, with "
                   "Mettle's Healthy level at Fortitude 2), `fortitude`, `powers` (mettle...), `armor` and "
                   "`armor_left` (what he wears), `name`, `damage` (DamageInput), optional `settings`."
                   " A vampire it puts in torpor has it in `consequences` (cause, length in nights, wake date from `game_session_date` and `morality`).",
    "requestBody": json_request({"type": "object", "properties": {
        "track": {"$ref": "#/components/schemas/Track"}, "fortitude": {"type": "integer", "minimum": 0},
        "powers": {"type": "array", "items": {"type": "string"}},
        "armor": {"description": "A live armory key, a list of keys, or objects {armor, left}."},
        "armor_left": {"type": "integer", "minimum": 0},
        "name": {"type": "string", "description": "His name, for the explanation."},
        "morality": MORALITY_FIELD, **NIGHT_FIELDS,
        "damage": {"$ref": "#/components/schemas/DamageInput"}, "settings": {"type": "object"}}}),
    "responses": DAMAGE_ANSWER,
})
def damage_stateless():
    """Damage on a described character (:func:`larp.rules.rulings.rule_damage_by_hand`); nothing is stored."""
    data = json_body()
    settings = _settings(data)
    night = request_night(data)
    raw = inputs.obj(data, "damage")
    _only(raw, DAMAGE_FIELDS - {"armor", "armor_left"}, "damage")
    request = DamageRequest.from_mapping(raw)
    rng = current_app.config["RANDOM_SOURCE"]()
    fortitude = inputs.whole(data, "fortitude", 0, low=0, json=True)
    name = inputs.name(data, "The character")
    person = person_from_track(data.get("track"), fortitude, name, data.get("armor"),
                               data.get("armor_left"), data.get("powers"), settings, morality_from(data))
    result = rule_damage_by_hand(person, request.hand(rng), None, settings, rng, night=night)
    return jsonify(taken=result.taken.to_dict(), health=result.health.to_dict(), views=health_views(result.health.track),
                   summary=result.summary, consequences=result.consequences.to_dict(),
                   stamina_trait=result.stamina_trait)


def _pool(data: Mapping[str, Any], key: str, default: int, low: int = 0) -> int:
    """A JSON number of blood points, Willpower or levels, by the app's one number reader (at most 1000)."""
    return inputs.whole(data, key, default, low=low, high=1000, json=True)


def _described(data: Mapping[str, Any], settings: ChronicleSettings, name: str | None = None) -> Person:
    """A person described by ``track`` and pools (``blood``, ``blood_max``, ``blood_per_turn``,
    ``willpower``, ``agg_marked``), for the stateless blood and healing endpoints, named by ``name``
    (else the body's ``name``, else "The character", as the damage endpoint names him: one person
    reads as one person in every answer)."""
    if name is None:
        name = inputs.name(data, "The character")
    person = person_from_track(data.get("track"), 0, name, settings=settings)
    blood = _pool(data, "blood", 0)
    return replace(person, blood=blood, blood_max=_pool(data, "blood_max", max(blood, 10)),
                   blood_per_turn=_pool(data, "blood_per_turn", 1, 1), willpower=_pool(data, "willpower", 0),
                   agg_marked=_pool(data, "agg_marked", 0))


def _described_vampire(data: dict[str, Any], fields: set[str]) -> tuple[Person, ChronicleSettings, GameNight]:
    """The vampire a stateless healing or blood call describes (``track``, ``name``, the pools,
    ``morality``), the settings it rules with and its game session, from a body that may also hold
    ``fields``.

    Raises:
        ServiceError: 422 naming an unknown field or a bad value.
    """
    _only(data, {"track", "settings", "use_chronicle_settings", "name", *POOL_FIELDS, "morality", *NIGHT_FIELDS,
                 *fields})
    settings = _settings(data)
    night = request_night(data)
    return replace(_described(data, settings), morality=morality_from(data)), settings, night


POOL_FIELDS = {"blood": {"type": "integer", "minimum": 0}, "blood_max": {"type": "integer", "minimum": 0},
               "blood_per_turn": {"type": "integer", "minimum": 1}, "willpower": {"type": "integer", "minimum": 0},
               "agg_marked": {"type": "integer", "minimum": 0,
                              "description": "Blood Traits already put toward the aggravated wounds (lotnr_instalments)."}}


def _described_vampire_body(name: str, **fields: dict[str, Any]) -> dict[str, Any]:
    """The request body of a stateless call on a described vampire, as :func:`_described_vampire` reads it:
    ``track``, the pools, ``name`` (``name`` says what it is for), ``morality``, the game session's night and
    ``settings``, with the call's own ``fields`` (their schemas)."""
    return json_request({"type": "object", "properties": {
        "track": {"$ref": "#/components/schemas/Track"}, **fields, **POOL_FIELDS,
        "name": {"type": "string", "description": name},
        "morality": MORALITY_FIELD, **NIGHT_FIELDS, "settings": {"type": "object"}}})


@api_route("post", "/healing", {
    "summary": "Heal a described vampire with blood (stateless)",
    "description": "002 \"Damage and Healing\": one blood point heals two bashing or one lethal (one of either with "
                   "`game` tabletop: the tabletop profile's rate); aggravated one level a night for three blood "
                   "points and one Willpower (or the chronicle's agg_heal_model: with lotnr_instalments the Blood "
                   "Traits are put toward the wound and marked); automatic with an empty pool: a level lost, past "
                   "Incapacitated torpor from blood loss. Body: `track`, `kind` (bashing, lethal, aggravated, "
                   "automatic), `levels`, `blood`, `blood_max`, `blood_per_turn`, `willpower`, `agg_marked`, "
                   "`game`, optional `settings`. A vampire it puts in torpor has it in `consequences` (cause, length in nights, wake date from `game_session_date` and `morality`).",
    "requestBody": _described_vampire_body("His name, for the explanation (default: The character).",
                                           kind=enum_schema(HEAL_KINDS), levels={"type": "integer", "minimum": 1},
                                           game=enum_schema(GAMES)),
    "responses": HEALING_ANSWER,
})
def healing_stateless():
    """Healing on a described vampire (:func:`larp.rules.rulings.rule_healing`); nothing is stored."""
    data = json_body()
    person, settings, night = _described_vampire(data, {"kind", "levels", "game"})
    levels = _pool(data, "levels", 1, 1)
    game = inputs.one_of(data, "game", GAMES, "live")
    kind = inputs.one_of(data, "kind", HEAL_KINDS, "bashing")
    result = rule_healing(person, kind, levels, settings, game, night=night)
    track = result.consequences.of(person.name).track or person_track(person, settings)
    healing = {**result.to_dict(), "track": track.to_dict()}
    return jsonify(healing=healing, views=health_views(track))


@api_route("post", "/feeding", {
    "summary": "A vampire feeds on a described victim (stateless)",
    "description": "LotNR \"Blood\" (met-reference 3.7): each Blood Trait drained costs a mortal or ghoul a "
                   "level of lethal damage, at most three a turn; from a vampire the Blood Traits leave his pool. "
                   "The drinker drinks no more than his pool holds: the victim loses only that (`asked`, "
                   "`drained`), and a full pool is refused (422), unless the setting drain_past_full_pool lets "
                   "him drain on and lose the rest. Body: `drinker` ({name, blood, blood_max}), "
                   "`victim` ({name, track, blood, blood_max}), `blood` (Blood Traits drained), optional `settings`.",
    "requestBody": json_request({"type": "object", "properties": {
        "drinker": {"type": "object", "properties": {"name": {"type": "string"}, **POOL_FIELDS}},
        "victim": {"type": "object", "properties": {"name": {"type": "string"},
                                                    "track": {"$ref": "#/components/schemas/Track"}, **POOL_FIELDS}},
        "blood": {"type": "integer", "minimum": 1}, "settings": {"type": "object"}}}),
    "responses": FEEDING_ANSWER,
})
def feeding_stateless():
    """Feeding on a described victim (:func:`larp.rules.rulings.rule_feeding`); nothing is stored."""
    data = json_body()
    settings = _settings(data)
    people = []
    for key, default in (("drinker", "The vampire"), ("victim", "The victim")):
        raw = inputs.obj(data, key)
        _only(raw, {"name", "track", *POOL_FIELDS}, key)
        name = inputs.name(raw, default, field=f"{key}.name")
        people.append(_described({k: v for k, v in raw.items() if k != "name"}, settings, name))
    if people[0].name == people[1].name:
        people[1] = replace(people[1], name="The victim" if people[0].name != "The victim" else "The other")
    result = rule_feeding(people[0], people[1], _pool(data, "blood", 1, 1), settings)
    return jsonify(feeding=result.to_dict())


@api_route("post", "/blood", {
    "summary": "The rules call for blood from a described vampire (stateless)",
    "description": "000 \"Health Chart\", \"Torpor\" (met-reference 4.1): the pool pays what it holds; each blood "
                   "point it lacks costs a health level (setting empty_pool_wound); past Incapacitated that way "
                   "the vampire falls into torpor from blood loss. Body: `track`, `blood` (in the pool), `needed`, "
                   "`reason` (rising, discipline, healing, other), optional `settings`. A vampire it puts in torpor has it in `consequences` (cause, length in nights, wake date from `game_session_date` and `morality`).",
    "requestBody": _described_vampire_body("Her name, for the explanation (default: The character).",
                                           needed={"type": "integer", "minimum": 1}, reason=enum_schema(BLOOD_CALLS)),
    "responses": BLOOD_ANSWER,
})
def blood_stateless():
    """Blood called for from a described vampire (:func:`larp.rules.rulings.rule_blood_called_for`)."""
    data = json_body()
    person, settings, night = _described_vampire(data, {"needed", "reason"})
    reason = inputs.one_of(data, "reason", BLOOD_CALLS, "other")
    result = rule_blood_called_for(person, reason, _pool(data, "needed", 1, 1), settings, night=night)
    return jsonify(blood=result.to_dict())


def _recorded(recorded: Recorded, track: HealthTrack | None = None):
    """The stored API's answer to a single shot: the ruling and the character it is about, as the tap wrote
    him (not read again; ``track``: his track afterwards, default the one the tap wrote), 201."""
    character, track = recorded.character(), track or recorded.track()
    payload = {"id": character.id, "name": character.name, "version": character.version,
               "blood_current": character.blood_current, "willpower_current": character.willpower_current,
               "health": track.to_dict(), "level": track.state()}
    ruling = recorded.ruling
    return jsonify(ruling_id=ruling.id, summary=summary_text(ruling), steps=steps_for_reader(ruling.steps),
                   character=payload), 201


@api_route("post", "/characters/<int:character_id>/damage", {
    "summary": "Apply damage to a stored character (stateful)",
    "requestBody": json_request({"$ref": "#/components/schemas/DamageInput"}),
    "responses": RECORDED,
})
def damage_stateful(character_id: int):
    """Damage a stored character; concurrent changes are never lost (version check and retry)."""
    data = json_body()
    recorded = adjudicate(get_chronicle(), g.user, Damage(character_id, DamageRequest.from_mapping(data),
                                                          current_app.config["RANDOM_SOURCE"]()))
    return _recorded(recorded, recorded.result.health.track)


@api_route("post", "/characters/<int:character_id>/feed-on", {
    "summary": "A stored vampire feeds on a stored victim (stateful)",
    "description": "LotNR \"Blood\" (met-reference 3.7): each Blood Trait drained costs a mortal or ghoul a level "
                   "of lethal damage, at most three a turn; the drinker drinks no more than his pool holds and "
                   "the victim loses only that; a full pool is refused (422), unless the setting "
                   "drain_past_full_pool lets him drain on and lose the rest.",
    "requestBody": json_request({"type": "object",
        "required": ["victim"], "properties": {"victim": {"type": "integer", "description": "The victim's id."},
                                               "blood": {"type": "integer", "minimum": 1, "maximum": 20}}}),
    "responses": RECORDED,
})
def feed_on_stateful(character_id: int):
    """A stored vampire feeds on a stored victim."""
    data = json_body()
    return _recorded(adjudicate(get_chronicle(), g.user, Feeding(character_id, data.get("victim"),
                                                                 data.get("blood", 1))))


@api_route("post", "/characters/<int:character_id>/blood", {
    "summary": "The rules call for blood from a stored vampire (stateful)",
    "description": "000 \"Health Chart\", \"Torpor\": with an empty pool each blood point called for costs a "
                   "health level; past Incapacitated that way torpor from blood loss, recorded as such.",
    "requestBody": json_request({"type": "object", "properties": {
        "blood": {"type": "integer", "minimum": 1, "maximum": 50},
        "reason": enum_schema(BLOOD_CALLS)}}),
    "responses": RECORDED,
})
def blood_stateful(character_id: int):
    """Blood called for from a stored vampire."""
    data = json_body()
    reason = data.get("reason", "other")
    return _recorded(adjudicate(get_chronicle(), g.user, BloodCalledFor(character_id, data.get("blood", 1),
                                                                        reason if isinstance(reason, str) else "")))


@api_route("post", "/characters/<int:character_id>/destroy", {
    "summary": "The narrator destroys a stored character: Final Death for a vampire, death for a mortal (stateful)",
    "description": "002 \"Damage and Healing\": cutting off the head or tearing out the heart destroys any vampire; "
                   "000 \"Final Death\": massive trauma (burnt to ashes, crushed, torn apart) destroys only a vampire "
                   "Incapacitated or in torpor (422 otherwise), or a mortal or ghoul. Recorded; a character already "
                   "destroyed is refused (422).",
    "requestBody": json_request({"type": "object",
        "required": ["means"], "properties": {
            "means": enum_schema(DESTROYING.values())}}),
    "responses": RECORDED,
})
def destroy_stateful(character_id: int):
    """The narrator destroys a stored character (Final Death, massive trauma included)."""
    data = json_body()
    actions = {means_: action for action, means_ in DESTROYING.items()}
    means = inputs.one_of(data, "means", actions)
    return _recorded(adjudicate(get_chronicle(), g.user, TrackAction(character_id, actions[means])))


@api_route("post", "/characters/<int:character_id>/heal", {
    "summary": "Heal a stored vampire with blood (stateful)",
    "requestBody": json_request({"type": "object", "properties": {
        "kind": enum_schema(HEAL_KINDS),
        "levels": {"type": "integer", "minimum": 1},
        "game": {**enum_schema(GAMES),
                 "description": "tabletop: the tabletop profile's rate (one blood point a level)."}}}),
    "responses": RECORDED,
})
def heal_stateful(character_id: int):
    """Heal a stored vampire (002 "Damage and Healing")."""
    data = json_body()
    game = inputs.one_of(data, "game", GAMES, "live")
    return _recorded(adjudicate(get_chronicle(), g.user, Healing(character_id, str(data.get("kind", "")),
                                                                 data.get("levels", 1), game)))
