"""Mass challenge and firing-into-groups endpoints of the JSON API (issue 4).

- ``POST /api/v1/mass-challenges/rule``: stateless. A complete mass challenge
  in (the target, up to five attackers hand to hand and five at range, signs,
  retests), the ruling out; nothing is read from or written to the database.
- ``POST /api/v1/firing-into-groups/rule``: stateless. A missed shot and the
  people near the target in, the ruling on each bystander out.
- ``POST /api/v1/mass-challenges`` and ``POST /api/v1/firing-into-groups``:
  stateful. The same between stored characters, applied and recorded as ONE
  ruling, like the combat board does.
"""

from __future__ import annotations

from flask import current_app, g, jsonify

from larp.rules.rulings import rule_firing_into_groups, rule_mass_challenge
from larp.rules.rulings.parsing import mass_challenge_call_from_dict, firing_into_groups_call_from_dict
from larp.services.chronicles import get_chronicle
from larp.services.firing_into_groups import run_firing_into_groups
from larp.services.mass_challenge import run_mass_challenge
from larp.rules.challenge.types import Category, Throw
from larp.rules.darkness import DarknessLevel, DarknessSource
from larp.rules.firing_into_groups.types import Fire
from larp.rules.mass_challenge.types import Range
from larp.rules.scene import RangeBand
from larp.sheet_entries import CATEGORIES
from larp.web.combat_requests import firing_into_groups_request_from_json, mass_request_from_json
from larp.web.inputs import enum_schema
from larp.web.api import NIGHT_FIELDS, SCHEMAS, json_body, request_night, request_settings
from larp.web.api_routes import api_route, json_request
from larp.web.api_responses import BOOL, CONSEQUENCES, COUNTS, INT, NULL_STR, STR, by_name, nullable, ref, shape
from larp.web.api_challenges import ATTACK, BODY, SCENE, SCENE_ID, SENSE, SIDE_SCENE

#: The same body object as the one-on-one challenge's, in the mass challenge's words.
_BODY = {**BODY, "description": "Damage already marked and what changes damage."}
_ATTACK = ATTACK  # the same attack object as the one-on-one challenge (staking and High-Caliber included)
_THROW = enum_schema(Throw)
_SETTINGS = {"type": "object", "description": "Chronicle setting overrides (key to value)."}
DELIBERATE_SPRAY = {"type": "boolean", "description": "The firer sprays the group on purpose: LotNR's distances apply "
                                                      "(met-reference 6.2, T24); left out: a missed shot, a blast or "
                                                      "burst being one mass challenge at any range (002)."}

#: What mass challenges and stray shots give by character name.
_BY_NAME = {
    "tracks": by_name(ref("TrackState"), "By name: the tracks the ruling changed."),
    "traits_lost": by_name({"type": "array", "items": STR}, "By name: the Traits lost."),
    "spent": by_name(shape({"abilities": COUNTS, "merits": COUNTS, "willpower": INT}),
                     "By name: the Abilities, Merits and Willpower spent."),
    "armor_left": by_name(COUNTS, "By name: armor key to the levels left."),
    "consequences": CONSEQUENCES,
}
SCHEMAS.update({
    "MassDefender": {"allOf": [{"$ref": "#/components/schemas/Contestant"}, {"type": "object", "properties": {
        "throw": _THROW,
        "relents_to": {"type": "array", "items": {"type": "string"}, "description": "Attackers' names."},
        "attack": {"oneOf": [_ATTACK, {"type": "null"}], "description": "His counter-attack; null: defends only."},
        "injures": {"type": "array", "items": {"type": "string"}},
        "celerity": {"type": "integer", "minimum": 0, "maximum": 5, "description": "Level active this round."},
        "body": _BODY, "scene": SIDE_SCENE}}],
        "description": "The target. `bid` holds one Trait per attacker he defends against (one fewer with "
                       "Intensity: bid \"Potence\" once)."},
    "MassAttacker": {"allOf": [{"$ref": "#/components/schemas/Contestant"}, {"type": "object", "properties": {
        "range": enum_schema(Range), "attack": _ATTACK, "throw": _THROW,
        "tests": {"type": "array", "items": {"$ref": "#/components/schemas/TestCall"},
                  "description": "The pair's later tests (retests, overbids); challenger = this attacker."},
        "strength": {"type": "boolean", "description": "Hand to hand: a challenge of strength for the target."},
        "celerity": {"type": "integer", "minimum": 0, "maximum": 5}, "body": _BODY, "scene": SIDE_SCENE}}]},
    "MassChallenge": {"type": "object", "required": ["defender", "attackers"], "properties": {
        "category": enum_schema(Category, only=CATEGORIES),
        "defender": {"$ref": "#/components/schemas/MassDefender"},
        "attackers": {"type": "array", "maxItems": 10, "items": {"$ref": "#/components/schemas/MassAttacker"},
                      "description": "At most five hand to hand and five ranged."},
        "sense": SENSE, "scene": SCENE, "settings": _SETTINGS, **NIGHT_FIELDS}},
    "MassRuling": {"type": "object", "required": ["summary", "pairs", "hits", "tracks", "steps"], "properties": {
        "summary": {"type": "string"},
        "pairs": {"type": "array", "items": {"type": "object", "properties": {
            "attacker": {"type": "string"}, "range": {"type": "string"}, "relented": {"type": "boolean"},
            "made": {"type": "boolean"}, "outcome": {"type": ["string", "null"]},
            "attacker_throw": {"type": ["string", "null"]}, "defender_throw": {"type": ["string", "null"]},
            "injured": {"type": "boolean"}, "ruling": nullable(ref("Ruling")),
            "options": nullable(ref("PairOptions"))}, "required": ["attacker", "made", "outcome", "ruling"]}},
        "hits": {"type": "array", "items": {"$ref": "#/components/schemas/Hit"}},
        **_BY_NAME,
        "actions": {"type": "integer"}, "pending": {"type": "array", "items": {"type": "string"}},
        "steps": {"type": "array", "items": {"$ref": "#/components/schemas/Step"}}}},
    "Bystander": {"allOf": [{"$ref": "#/components/schemas/Contestant"}, {"type": "object", "properties": {
        "throw": _THROW, "firer_throw": _THROW, "saw_it_coming": {"type": "boolean"},
        "tests": {"type": "array", "items": {"$ref": "#/components/schemas/TestCall"}}, "body": _BODY,
        "scene": SIDE_SCENE}}]},
    "ShotIntoGroup": {"type": "object", "required": ["firer", "weapon", "target", "bystanders"], "properties": {
        "firer": {"$ref": "#/components/schemas/Contestant"},
        "weapon": {"type": "string", "description": "The gun's live armory key."},
        "target": {"type": "string", "description": "The name of the character the shot missed."},
        "bystanders": {"type": "array", "items": {"$ref": "#/components/schemas/Bystander"},
                       "description": "The people near the target, closest first."},
        "firer_throw": _THROW, "bursts": {"type": "boolean"},
        "extra_traits": {"type": "array", "items": {"type": "string"}},
        "excluded": {"type": "array", "items": {"type": "string"}},
        "careful_aim": {"type": "boolean"}, "close_range": {"type": "boolean"},
        "range": {**enum_schema(RangeBand),
                  "description": "How far the group is from the firer: a Spray needs distance (met-reference 6.2)."},
        "deliberate_spray": DELIBERATE_SPRAY, "sense": SENSE, "scene": SCENE, "settings": _SETTINGS, **NIGHT_FIELDS}},
    "ShotIntoGroupRuling": {"type": "object", "required": ["summary", "fire", "bystanders", "hits", "tracks", "steps"], "properties": {
        "summary": {"type": "string"}, "fire": enum_schema(Fire),
        "bystanders": {"type": "array", "items": shape({
            "name": STR, "tested": BOOL, "excluded": BOOL, "note": STR, "outcome": NULL_STR, "hit": BOOL,
            "firer_throw": NULL_STR, "throw": NULL_STR, "ruling": nullable(ref("Ruling")),
            "options": nullable(ref("PairOptions"))})},
        "hits": {"type": "array", "items": {"$ref": "#/components/schemas/Hit"}},
        **_BY_NAME,
        "pending": {"type": "array", "items": {"type": "string"}},
        "steps": {"type": "array", "items": {"$ref": "#/components/schemas/Step"}}}},
    "StoredFighter": {"type": "object", "required": ["character_id"], "properties": {
        "character_id": {"type": "integer"}, "bid": {"type": "string", "description": "The lead Trait."},
        "throw": enum_schema(Throw, random=True),
        "range": enum_schema(Range), "weapon": {"type": "string"},
        "bite": {"type": "boolean"}, "lethal_by_prowess": {"type": "boolean"}, "head_shot": {"type": "boolean"},
        "strength": {"type": "boolean"}, "relented": {"type": "boolean"}, "celerity_active": {"type": "boolean"},
        "bomb_announced": {"type": "boolean", "description": "The Bomb was announced before the challenge."},
        "full_auto": {"type": "boolean", "description": "His Full-Auto weapon fired emptying the clip (met-reference 3.7)."},
        "counter": {"type": "string", "enum": ["defend", "strike", "bite", "weapon"]},
        "tests": {"type": "array", "items": {"$ref": "#/components/schemas/TestCall"}},
        "darkness": enum_schema(DarknessLevel, blank=True),
        "darkness_source": enum_schema(DarknessSource, blank=True),
        "sight_off": {"type": "boolean"}, "shroud_caster": {"type": "boolean"},
        "cover": {"type": "integer", "minimum": 0, "maximum": 6},
        "armor": {"description": "Worn for this ruling (a live armory key, or \"none\"); left out: the sheet's."},
        "armor_left": {"type": "integer", "minimum": 0}, "scene": SIDE_SCENE}},
})


_overrides = request_settings  # the one meaning of settings on every stateless endpoint (issue 21)


def _ok(schema: str, text: str) -> dict:
    return {"200": {"description": text, "content": {"application/json": {"schema": {
        "type": "object", "properties": {"ruling": {"$ref": schema}}}}}}}


def _created(schema: str) -> dict:
    error = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    return {
        "201": {"description": "Applied and recorded as one ruling.", "content": {"application/json": {"schema": {
            "type": "object", "properties": {"ruling_id": {"type": "integer"}, "ruling": {"$ref": schema}}}}}},
        "404": {"description": "Unknown character.", **error},
        "409": {"description": "No game session is open, a Trait is no longer available, or a character changed "
                               "meanwhile.", **error},
    }


@api_route("post", "/mass-challenges/rule", {
    "summary": "Rule on a mass challenge (stateless)",
    "description": "One target against up to five attackers hand to hand and five at range (002 \"Mass Combat\"): "
                   "his one sign against each attacker's, each pair by the normal rules with its retests, relented "
                   "challenges first, results applied in initiative order to the health tracks given. Touches no "
                   "stored data.",
    "requestBody": json_request({"$ref": "#/components/schemas/MassChallenge"}),
    "responses": _ok("#/components/schemas/MassRuling", "The ruling on every pair and the hits in order."),
})
def rule_mass_challenge_stateless():
    """Rule on the mass challenge in the body (002 "Mass Combat"; LotNR Mob Scene), writing nothing:
    the same rules core entry point as the combat board (:func:`larp.rules.rulings.rule_mass_challenge`)."""
    return _stateless(mass_challenge_call_from_dict, rule_mass_challenge)


def _stateless(read, rule):
    """A stateless ruling of the body: its settings and night, the call ``read`` finds in it (with the
    scene), and ``rule``'s answer (one rules core call); nothing is stored."""
    data = json_body()
    settings = _overrides(data)
    night = request_night(data)
    call, scene = read(data, settings)
    rng = current_app.config["RANDOM_SOURCE"]()
    return jsonify(ruling=rule(call, scene, settings, rng, night=night).to_dict())


@api_route("post", "/firing-into-groups/rule", {
    "summary": "Rule on a missed shot into a group of people (stateless)",
    "description": "The firer tests against each person near the target, closest first (002 \"Firing Guns into "
                   "Groups of People\"); bursts and shotguns make one mass challenge instead; extra Traits or "
                   "careful aim keep bystanders safe for single shots. Touches no stored data.",
    "requestBody": json_request({"$ref": "#/components/schemas/ShotIntoGroup"}),
    "responses": _ok("#/components/schemas/ShotIntoGroupRuling", "The ruling on each bystander and the hits."),
})
def rule_firing_into_groups_stateless():
    """Rule on the missed shot in the body (002 "Firing Guns into Groups of People"), writing nothing:
    the same rules core entry point as the stray-shot screen (:func:`larp.rules.rulings.rule_firing_into_groups`)."""
    return _stateless(firing_into_groups_call_from_dict, rule_firing_into_groups)


@api_route("post", "/mass-challenges", {
    "summary": "Run a mass challenge between stored characters (stateful)",
    "description": "Builds the mass challenge from what the chronicle knows about each character tonight, rules "
                   "on it and applies it in one transaction: Traits lost, Abilities expended, each health track, "
                   "and ONE record of kind mass_combat naming every character.",
    "requestBody": json_request({
        "type": "object", "required": ["target", "attackers"], "properties": {
            "target": {"$ref": "#/components/schemas/StoredFighter"},
            "attackers": {"type": "array", "items": {"$ref": "#/components/schemas/StoredFighter"}},
            "injures": {"type": "array", "items": {"type": "integer"}},
            "category": enum_schema(Category, only=CATEGORIES),
            "darkness": enum_schema(DarknessLevel),
            "darkness_source": enum_schema(DarknessSource),
            "range": enum_schema(RangeBand),
            "sense": SENSE, "scene": SCENE, "scene_id": SCENE_ID}}),
    "responses": _created("#/components/schemas/MassRuling"),
})
def run_mass_challenge_stateful():
    """Apply a mass challenge between stored characters and record it (002 "Mass Combat")."""
    result = run_mass_challenge(get_chronicle(), g.user, mass_request_from_json(json_body()),
                             current_app.config["RANDOM_SOURCE"]())
    return jsonify(ruling_id=result.record.id, ruling=result.record.outcome), 201


@api_route("post", "/firing-into-groups", {
    "summary": "Rule on a missed shot into a group of stored characters (stateful)",
    "description": "Applies the stray shot to the stored bystanders in one transaction and records ONE ruling of "
                   "kind firing_into_group naming the firer, the target missed and every bystander.",
    "requestBody": json_request({
        "type": "object", "required": ["firer", "target_id", "bystanders"], "properties": {
            "firer": {"$ref": "#/components/schemas/StoredFighter"}, "target_id": {"type": "integer"},
            "bystanders": {"type": "array", "items": {"type": "object", "properties": {
                "character_id": {"type": "integer"}, "throw": {"type": "string"},
                "firer_throw": {"type": "string"}, "saw_it_coming": {"type": "boolean"},
                "excluded": {"type": "boolean"}, "bid": {"type": "string"},
                "tests": {"type": "array", "items": {"$ref": "#/components/schemas/TestCall"}},
                "darkness": {"type": "string"}, "armor": {}, "armor_left": {"type": "integer"},
                "cover": {"type": "integer"}, "sight_off": {"type": "boolean"}, "scene": SIDE_SCENE}}},
            "bursts": {"type": "boolean"}, "careful_aim": {"type": "boolean"}, "close_range": {"type": "boolean"},
            "deliberate_spray": DELIBERATE_SPRAY, "sense": SENSE, "scene_id": SCENE_ID,
            "darkness": enum_schema(DarknessLevel),
            "darkness_source": enum_schema(DarknessSource),
            "range": enum_schema(RangeBand),
            "scene": SCENE}}),
    "responses": _created("#/components/schemas/ShotIntoGroupRuling"),
})
def run_firing_into_groups_stateful():
    """Apply a missed shot into a group of stored characters and record it (002)."""
    result = run_firing_into_groups(get_chronicle(), g.user, firing_into_groups_request_from_json(json_body()),
                            current_app.config["RANDOM_SOURCE"]())
    return jsonify(ruling_id=result.record.id, ruling=result.record.outcome), 201
