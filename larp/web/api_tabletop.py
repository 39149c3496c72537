"""Stateless JSON endpoints for the tabletop combat turn (issue 9), on the API blueprint.

``POST /api/v1/tabletop/roll``, ``/tabletop/initiative`` and ``/tabletop/attack``
take a complete description and touch no stored data (a ``character_id`` only
reads a stored character). Dice may be given in the request (a replay, or dice
rolled at the table); the others are drawn from the app's random source, and
every die is echoed in the answer. Bad input is a 422 naming the field.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from flask import current_app, jsonify

from larp.rules.explain import N_, Explanation, Phrase, RulesError
from larp.rules.health import HealthTrack, health_views, new_track
from larp.rules.rulings.parsing import morality_from
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.actions import ActionSlot
from larp.rules.tabletop.combat import (Attack, Circumstances, DefenseChoice, Fighter, resolve_ambush,
                                        resolve_attack)
from larp.rules.tabletop.dice import check_difficulty, check_pool, roll_dice, roll_step
from larp.rules.tabletop.initiative import Entrant, roll_initiative
from larp.rules.tabletop.maneuvers import profile_for
from larp.sheet_entries import CREATURES
from larp.services.characters import get_character
from larp.services.chronicles import get_chronicle
from larp.services.tabletop_fighters import fighter_for
from larp.sheet_entries import CREATURES
from larp.web.inputs import enum_schema
from larp.web.api import (MORALITY_FIELD, NIGHT_FIELDS, SCHEMAS, ApiError, json_body, request_night,
                          request_settings)
from larp.web.api_routes import api_route, json_request
from larp.web import inputs
from larp.web.api_responses import BOOL, INT, STEPS, STR, by_name, nullable, ref, shape
_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}

SCHEMAS.update({
    "TabletopRoll": {
        "type": "object", "additionalProperties": False,
        "required": ["pool", "dice", "difficulty", "successes", "ones", "automatic", "net", "botch", "rolled"],
        "properties": {
            "rolled": {"type": ["string", "null"], "description": "\"by the app\" or \"at the table\"; null: no dice."},
            "pool": {"type": "integer"}, "dice": {"type": "array", "items": {"type": "integer"}},
            "difficulty": {"type": "integer"}, "successes": {"type": "integer"}, "ones": {"type": "integer"},
            "automatic": {"type": "integer"}, "net": {"type": "integer"}, "botch": {"type": "boolean"},
        },
    },
    "TabletopFighter": {
        "type": "object",
        "description": "A stored character by `character_id` (its sheet and health track are read, never "
                       "changed; `weapon` and `armor` may be added), or a fighter described in full.",
        "properties": {
            "character_id": {"type": "integer"},
            "name": {"type": "string"},
            "creature": enum_schema(CREATURES),
            "attributes": {"type": "object", "additionalProperties": {"type": "integer"},
                           "description": "Tabletop dots: Strength, Dexterity, Stamina, Perception, Wits..."},
            "abilities": {"type": "object", "additionalProperties": {"type": "integer"}},
            "disciplines": {"type": "object", "additionalProperties": {"type": "integer"},
                            "description": "Potence, Fortitude, Celerity... in dots"},
            "powers": {"type": "array", "items": {"type": "string"}, "description": "e.g. Feral Claws"},
            "weapon": {"type": ["string", "null"], "description": "A tabletop armory key (knife, assault_rifle...)"},
            "armor": {"type": ["string", "null"], "description": "A tabletop armory key (class_three...)"},
            "helmet": {"type": ["string", "null"], "description": "A tabletop helmet key (helm): adds to soak at "
                                                                  "the head only (004 \"Armor\")."},
            "shield": {"type": ["string", "null"], "description": "A tabletop shield key (buckler, shield): soaks "
                       "from the front and one flank, parries (004 \"Blindsiding\", \"Parrying\")."},
            "willpower": {"type": "integer"},
            "ignore_wounds": {"type": "boolean", "description": "He spent a Willpower point this turn: no wound "
                                                                "penalty, Incapacitated included (LotNR Willpower)."},
            "health": {"type": "object", "description": "Damage already marked: aggravated, lethal, bashing "
                                                         "(health levels), condition, staked."},
            "morality": MORALITY_FIELD,
        },
    },
})

#: Every field of :class:`~larp.rules.tabletop.combat.Circumstances` the API takes, documented (the
#: ``gun`` the stored combat carries is not one: rounds are counted on the tabletop screen).
CIRCUMSTANCES: dict[str, dict[str, Any]] = {
    "range": {"type": "string", "enum": ["point_blank", "short", "long"], "default": "short",
              "description": "Ranged attacks: 4, 6 or 8 (000 \"Range\")."},
    "cover": {"type": ["string", "null"], "description": "The target's cover: light, good, superior (000 \"Cover\")."},
    "attacker_cover": {"type": ["string", "null"], "description": "The attacker fires back from this cover."},
    "target_size": {"type": ["string", "null"], "description": "A targeting row: medium, small, precise/tiny, large."},
    "called_shot": {"type": ["string", "null"], "enum": ["head", "heart", None]},
    "stake": {"type": "boolean", "description": "A staking attempt at the heart."},
    "flank": {"type": "boolean"}, "rear": {"type": "boolean"},
    "blindside_spotted": {"type": "boolean", "description": "Dark Ages: the target is not blindsided."},
    "opponents": {"type": "integer", "minimum": 1, "description": "Opponents the attacker faces (+1 each past the first)."},
    "blind": {"type": "boolean", "description": "The attacker cannot see."},
    "target_blinded": {"type": "boolean"}, "target_held": {"type": "boolean"},
    "target_immobilized": {"type": "boolean"},
    "aim_turns": {"type": "integer", "minimum": 0, "description": "Turns spent aiming (+1 die each, up to Perception)."},
    "scope": {"type": "boolean"}, "off_hand": {"type": "boolean"},
    "strafe_targets": {"type": "integer", "minimum": 1}, "strafe_extra": {"type": "integer", "minimum": 0},
    "clip_half_full": {"type": "boolean", "default": True},
    "ambush_dice": {"type": "integer", "minimum": 0, "description": "Extra dice of a won ambush (/tabletop/ambush)."},
    "unbalanced": {"type": "boolean", "description": "The attacker was tackled last turn (+1)."},
    "prior_hold": {"type": ["string", "null"], "description": "The maneuver by which the attacker has held the target "
                                                              "since an earlier turn (clinch, hold, tackle...)."},
    "extra_dice": {"type": "integer"}, "extra_difficulty": {"type": "integer"},
    "difficulty": {"type": ["integer", "null"], "description": "The narrator sets the difficulty outright (2 to 10)."},
    "moved_yards": {"type": "integer", "minimum": 0, "description": "Yards the attacker moved this turn before "
                    "attacking: within his allowance free, farther a move of its own (000, 004 \"Movement\")."},
    "inside_reach": {"type": "boolean", "description": "Already inside the target's longer weapon: no die lost "
                                                       "(000 \"Weapon Length\")."},
    "aimed_part": {"type": ["string", "null"], "enum": ["head", "torso", "arms", "legs", None],
                   "description": "The part aimed at: armor that does not cover it does not soak; a helmet counts "
                                  "only at the head (000 \"Armor Chart\", 004 \"Armor\")."},
    "shield_side": {"type": "boolean", "description": "A flank attack from the side the target's shield covers "
                                                      "(004 \"Blindsiding\")."},
    "source": {"type": "string", "enum": ["other", "fire", "sunlight"], "default": "other",
               "description": "Fire and sunlight are aggravated to a vampire; only Fortitude soaks them and armor "
                              "does not protect (000 \"Damage Types\", \"Soak\", \"Armor\")."},
}
#: Circumstances the API does not take (carried by the stored combat).
_NOT_TAKEN = ("gun",)

_DICE_SCHEMA = {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}},
                "description": "Faces by roll: attack, abort, defense, damage, soak, knockdown, rise, "
                               "knockdown_attacker, rise_attacker, riposte_damage, riposte_soak. Rolls not "
                               "given are drawn; the answer's `dice` has every roll made (send it back to replay)."}


def _settings(body: dict[str, Any]) -> ChronicleSettings:
    """The one meaning of settings on every stateless endpoint (issue 21): defaults, or the
    chronicle's with ``use_chronicle_settings``, then ``settings``."""
    return request_settings(body)


def _int(body: Mapping[str, Any], key: str, default: Any, field: str | None = None) -> Any:
    return inputs.whole(body, key, default, field=field, json=True, label=f"`{key}`")


_bool, _object = inputs.flag, inputs.obj  # the one input layer (issue 29 item 4)


#: The kinds of roll, each with the rule it follows.
ROLL_RULES = {"action": '000 "Stage Two: Attack"', "damage": '000 "Damage Types"', "soak": '000 "Soak"'}


def _rng():
    return current_app.config["RANDOM_SOURCE"]()


def _track(spec: Mapping[str, Any], creature: str, settings: ChronicleSettings, field: str) -> HealthTrack:
    base = new_track(creature, settings)
    health = spec.get("health") or {}
    if not isinstance(health, dict):
        raise ApiError(Phrase.message(N_("`health` is an object: aggravated, lethal, "
                                         "bashing, condition, staked.")), f"{field}.health", 422)
    try:
        return HealthTrack(levels=base.levels, creature=creature,
                           **{k: health[k] for k in ("aggravated", "lethal", "bashing", "condition", "staked")
                              if k in health})
    except RulesError as exc:
        raise ApiError(exc.message, f"{field}.health.{exc.field}", 422) from None


def _fighter(body: Mapping[str, Any], side: str, settings: ChronicleSettings) -> Fighter:
    spec = _object(body, side)
    if not spec:
        raise ApiError(Phrase.message(N_("Describe the %(side)s."), side=side), side, 422)
    gear = {k: spec.get(k) for k in ("weapon", "armor", "helmet", "shield") if spec.get(k) is not None}
    for k, v in gear.items():
        if not isinstance(v, str):
            raise ApiError(Phrase.message(N_("`%(k)s` is an armory key."), k=k), f"{side}.{k}", 422)
    ignore_wounds = _bool(spec, "ignore_wounds", f"{side}.ignore_wounds")
    morality = morality_from(spec, f"{side}.morality")
    if "character_id" in spec:
        character = get_character(get_chronicle(), spec["character_id"], f"{side}.character_id")
        stored = fighter_for(character, settings, gear)
        return Fighter(**{**stored.__dict__, "key": side, "ignore_wounds": ignore_wounds,
                          "morality": stored.morality if morality is None else morality})
    creature = inputs.one_of(spec, "creature", CREATURES, "vampire", field=f"{side}.creature")
    maps = {}
    for key in ("attributes", "abilities", "disciplines"):
        maps[key] = _object(spec, key, f"{side}.{key}")
    if not maps["attributes"]:
        raise ApiError(Phrase.message(N_("Give the %(side)s's tabletop attributes (Strength, Dexterity, Stamina, "
                                         "Wits...)."), side=side),
                       f"{side}.attributes", 422)
    powers = spec.get("powers") or []
    if not isinstance(powers, list) or not all(isinstance(p, str) for p in powers):
        raise ApiError(Phrase.message(N_("`powers` is a list of power names.")), f"{side}.powers", 422)
    return Fighter(key=side, name=str(spec.get("name") or f"The {side}"),
                   track=_track(spec, creature, settings, side), powers=tuple(powers),
                   willpower=_int(spec, "willpower", 0, f"{side}.willpower"), weapon=gear.get("weapon"),
                   armor=gear.get("armor"), helmet=gear.get("helmet"), shield=gear.get("shield"),
                   ignore_wounds=ignore_wounds, morality=morality, **maps)


def _slot(spec: Mapping[str, Any], field: str) -> ActionSlot:
    return ActionSlot(total=_int(spec, "total", 1, f"{field}.total"), number=_int(spec, "number", 1, f"{field}.number"),
                      celerity=_bool(spec, "celerity", f"{field}.celerity"),
                      full_defense=_bool(spec, "full_defense", f"{field}.full_defense"),
                      split_dice=_int(spec, "split_dice", None, f"{field}.split_dice"),
                      shares=_shares(spec, f"{field}.shares"))


def _shares(spec: Mapping[str, Any], field: str) -> tuple[int, ...]:
    value = spec.get("shares", [])
    if not isinstance(value, list) or any(isinstance(n, bool) or not isinstance(n, int) for n in value):
        raise ApiError(Phrase.message(N_("`shares` is a list of dice, one per action.")), field, 422)
    return tuple(value)


def _circumstances(spec: Mapping[str, Any]) -> Circumstances:
    values: dict[str, Any] = {}
    defaults = Circumstances()
    for name, default in defaults.__dict__.items():
        if name in _NOT_TAKEN or name not in spec:
            continue
        value = spec[name]
        field = f"circumstances.{name}"
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ApiError(Phrase.message(N_("`%(name)s` must be true or false."), name=name), field, 422)
        elif isinstance(default, int) or name == "difficulty":
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ApiError(Phrase.message(N_("`%(name)s` must be a whole number."), name=name), field, 422)
        elif value is not None and not isinstance(value, str):
            raise ApiError(Phrase.message(N_("`%(name)s` must be text."), name=name), field, 422)
        values[name] = value
    unknown = sorted(set(spec) - (set(defaults.__dict__) - set(_NOT_TAKEN)))
    if unknown:
        raise ApiError(Phrase.message(N_("Unknown circumstance `%(unknown)s`."),
                                      unknown=unknown[0]), f"circumstances.{unknown[0]}", 422)
    return Circumstances(**values)


def _request_field(field: str | None) -> str | None:
    """The rules' field name as a dotted path in the request body (``difficulty`` -> ``circumstances.difficulty``)."""
    if field in Circumstances.__dataclass_fields__:
        return f"circumstances.{field}"
    if field == "weapon":
        return "attacker.weapon"
    return field


def _dice_map(body: Mapping[str, Any]) -> dict[str, list[int]]:
    dice = body.get("dice") or {}
    if not isinstance(dice, dict):
        raise ApiError(Phrase.message(N_("`dice` maps a roll name to its faces.")), "dice", 422)
    return dice


@api_route("post", "/tabletop/roll", {
    "summary": "Roll a tabletop dice pool against a difficulty",
    "description": "Successes at or above the difficulty, each 1 cancels one; action rolls can botch "
                   "(chronicle setting tabletop_botch), damage and soak rolls cannot (000 \"Damage Types\", "
                   "\"Soak\"). Automatic successes (Potence) count after the 1s.",
    "requestBody": json_request({
        "type": "object", "required": ["pool"],
        "properties": {
            "pool": {"type": "integer", "minimum": 0, "maximum": 60},
            "difficulty": {"type": "integer", "minimum": 2, "maximum": 10, "default": 6},
            "kind": {"type": "string", "enum": list(ROLL_RULES), "default": "action"},
            "automatic": {"type": "integer", "minimum": 0, "default": 0},
            "dice": {"type": "array", "items": {"type": "integer"}, "description": "The faces (a replay); drawn if omitted."},
            "settings": {"type": "object"},
        }}, example={"pool": 4, "difficulty": 6, "kind": "soak", "dice": [1, 9, 9, 7]}),
    "responses": {"200": {"description": "The roll, die by die.", "content": {"application/json": {"schema": {
        "type": "object", "properties": {"roll": {"$ref": "#/components/schemas/TabletopRoll"},
                                         "steps": {"type": "array", "items": {"$ref": "#/components/schemas/Step"}}}}}}}},
})
def tabletop_roll():
    """Roll a dice pool (stateless)."""
    body = json_body()
    settings = _settings(body)
    pool = body.get("pool")
    if pool is None:
        raise ApiError(Phrase.message(N_("Give the dice pool.")), "pool", 422)
    check_pool(pool)
    difficulty = check_difficulty(body.get("difficulty", 6))
    kind = inputs.one_of(body, "kind", ROLL_RULES, "action")
    automatic = inputs.whole(body, "automatic", 0, low=0, json=True, label="Automatic successes")
    dice = body.get("dice")
    result = roll_dice(pool, difficulty, dice=dice, rng=None if dice is not None else _rng(),
                       can_botch=kind == "action", automatic=automatic, settings=settings, roll="roll")
    steps = Explanation()
    rule = ROLL_RULES[kind]
    roll_step(result, f"{kind.capitalize()} roll", steps, rule)
    if kind != "action":
        steps.add(f"{kind.capitalize()} rolls cannot botch.", rule)
    return jsonify(roll=result.to_dict(), steps=[s.to_dict() for s in steps.steps()])


@api_route("post", "/tabletop/initiative", {
    "summary": "Roll tabletop initiative and give the acting and declaring order",
    "description": "Dexterity + Wits - wound penalty + one die; ties go to the higher rating, then act "
                   "simultaneously (same rank); declarations in reverse order (000 \"Stage One: Initiative\").",
    "requestBody": json_request({
        "type": "object", "required": ["combatants"],
        "properties": {"combatants": {"type": "array", "items": {"type": "object", "properties": {
            "character_id": {"type": "integer", "description": "Read Dexterity, Wits and the wound penalty from a stored character."},
            "name": {"type": "string"}, "dexterity": {"type": "integer"}, "wits": {"type": "integer"},
            "wound_penalty": {"type": ["integer", "null"], "description": "null: can take no action"},
            "modifier": {"type": "integer"}, "die": {"type": "integer", "minimum": 1, "maximum": 10},
            "ignore_wounds": {"type": "boolean", "description": "A Willpower point spent: no wound penalty "
                                                                "this turn (LotNR Willpower)."}}}},
            "settings": {"type": "object"}}},
        example={"combatants": [{"name": "Ross", "dexterity": 4, "wits": 2, "die": 9},
                                {"name": "Angela", "dexterity": 3, "wits": 4, "die": 5}]}),
    "responses": {"200": {"description": "The order, highest first, with every die.", "content": {"application/json": {
        "schema": shape({"order": {"type": "array", "items": shape({
                             "index": {"type": "integer", "description": "The combatant's place in the request."},
                             "name": STR, "rating": INT, "penalty": INT, "modifier": INT, "die": INT, "score": INT,
                             "rank": INT, "rolled": STR})},
                         "declaring_order": {"type": "array", "items": STR},
                         "out": {"type": "array", "items": shape({"key": STR, "name": STR}),
                                 "description": "Combatants out of the fight."},
                         "steps": STEPS})}}},
                  "404": {"description": "A stored combatant that is not in this chronicle.", **_ERROR}},
})
def tabletop_initiative():
    """Roll initiative (stateless)."""
    body = json_body()
    settings = _settings(body)
    combatants = body.get("combatants")
    if not isinstance(combatants, list) or not combatants:
        raise ApiError(Phrase.message(N_("Give the combatants as a list.")), "combatants", 422)
    entrants, dice = [], {}
    for index, spec in enumerate(combatants):
        field = f"combatants.{index}"
        if not isinstance(spec, dict):
            raise ApiError(Phrase.message(N_("Each combatant is an object.")), field, 422)
        key = str(index)
        if "character_id" in spec:
            character = get_character(get_chronicle(), spec["character_id"], f"{field}.character_id")
            stored = fighter_for(character, settings)
            try:
                dexterity, wits = stored.attribute("Dexterity"), stored.attribute("Wits")
            except RulesError as exc:
                raise ApiError(exc.message, f"{field}.character_id", 422) from None
            name = stored.name
            penalty = replace(stored, ignore_wounds=_bool(spec, "ignore_wounds", f"{field}.ignore_wounds")).wound_penalty
        else:
            name = str(spec.get("name") or f"Combatant {index + 1}")
            dexterity = _int(spec, "dexterity", None, f"{field}.dexterity")
            wits = _int(spec, "wits", None, f"{field}.wits")
            if dexterity is None or wits is None:
                raise ApiError(Phrase.message(N_("%(name)s: give dexterity and wits."),
                                              name=name), f"{field}.dexterity", 422)
            penalty = spec.get("wound_penalty", 0)
            if penalty is not None and (isinstance(penalty, bool) or not isinstance(penalty, int) or penalty < 0):
                raise ApiError(Phrase.message(N_("`wound_penalty` is dice (0 or "
                                                 "more), or null.")), f"{field}.wound_penalty", 422)
            if _bool(spec, "ignore_wounds", f"{field}.ignore_wounds"):
                penalty = 0
        modifier = _int(spec, "modifier", 0, f"{field}.modifier")
        if "die" in spec:
            dice[key] = spec["die"]
        entrants.append(Entrant(key, name, dexterity, wits, penalty, modifier))
    try:
        initiative = roll_initiative(entrants, dice=dice, rng=_rng(), settings=settings)
    except RulesError as exc:
        field = exc.field or "combatants"
        if field.startswith("dice."):
            field = f"combatants.{field.split('.', 1)[1]}.die"
        raise ApiError(exc.message, field, 422) from None
    data = initiative.to_dict()
    for row in data["order"]:
        row["index"] = int(row.pop("key"))
    return jsonify(data)


@api_route("post", "/tabletop/attack", {
    "summary": "Resolve a tabletop attack: pool, difficulty, defense, damage, soak and the health track",
    "description": "The maneuver (data/maneuvers.toml, by the chronicle's tabletop_profile) with its situation; "
                   "the defense subtracts its successes first; the damage pool is the base plus the net successes "
                   "beyond the first, never below one die; soak and damage go through the damage rules. Nothing "
                   "is stored: the answer gives the target's health track after the attack.",
    "requestBody": json_request({
        "type": "object", "required": ["maneuver", "attacker", "target"],
        "properties": {
            "maneuver": {"type": "string", "description": "strike, kick, bite, kiss (a bite that does no "
                                                          "damage), claw, clinch, hold, tackle, sweep, "
                                                          "disarm, weapon_strike, shoot, automatic_fire, "
                                                          "three_round_burst, strafing, two_weapons, multiple_shots, "
                                                          "throw (revised); bear_hug, grapple (dark_ages)"},
            "attacker": {"$ref": "#/components/schemas/TabletopFighter"},
            "target": {"$ref": "#/components/schemas/TabletopFighter"},
            "circumstances": {"type": "object", "description": "The situation of the attack (every key optional; "
                              "the defaults are a plain attack at short range).",
                              "properties": CIRCUMSTANCES},
            "actions": {"type": "object", "description": "Multiple actions: total, number, celerity, split_dice, "
                                                         "shares (the pool split freely: dice per action)",
                        "properties": {"total": {"type": "integer", "minimum": 1}, "number": {"type": "integer", "minimum": 1},
                                       "celerity": {"type": "boolean"}, "full_defense": {"type": "boolean"},
                                       "split_dice": {"type": ["integer", "null"], "minimum": 0},
                                       "shares": {"type": "array", "items": {"type": "integer", "minimum": 0}}}},
            "defense": {"type": "object", "description": "The target's defense.", "properties": {
                "maneuver": {"type": "string", "description": "dodge, block, parry; Dark Ages also passive_parry "
                             "(no roll, no action: the attack's difficulty rises, 004 \"Parrying\")."},
                "abort": {"type": ["string", "null"], "enum": ["roll", "point", None]},
                "attackers": {"type": "integer", "minimum": 1},
                "dodge_modifiers": {"type": "array", "items": {"type": "string"}},
                "difficulty": {"type": ["integer", "null"]},
                "with_shield": {"type": "boolean", "description": "He parries with his shield: no +1 against a "
                                                                  "brawler (004 \"Parrying\")."},
                "actions": {"type": "object", "description": "total, number, celerity, full_defense, split_dice, "
                                                             "shares"}}},
            "dice": _DICE_SCHEMA,
            "settings": {"type": "object", "description": "Chronicle settings to use instead of the chronicle's "
                                                          "(tabletop_profile, tabletop_multiple_actions...)"},
            **NIGHT_FIELDS,
        }},
        example={"maneuver": "automatic_fire",
                 "attacker": {"name": "Kincaid", "attributes": {"Strength": 4, "Dexterity": 4, "Stamina": 4},
                              "abilities": {"Firearms": 3}, "weapon": "assault_rifle"},
                 "target": {"name": "The elder", "attributes": {"Strength": 3, "Dexterity": 3, "Stamina": 4},
                            "disciplines": {"Fortitude": 3}},
                 "dice": {"attack": [8, 9, 10, 8, 9, 8, 2, 3, 4, 5, 6, 7, 7, 2, 3, 4, 5]}}),
    "responses": {"200": {"description": "The ruling with every die and the tracks after.", "content": {
        "application/json": {"schema": shape({
            "maneuver": STR, "attacker": STR, "target": STR, "attack_pool": INT, "attack_difficulty": INT,
            "attack_roll": nullable(ref("TabletopRoll")), "defense_roll": nullable(ref("TabletopRoll")),
            "net_successes": INT, "hit": BOOL, "damage_pool": INT, "damage_roll": nullable(ref("TabletopRoll")),
            "soak": nullable({"type": "object", "additionalProperties": True,
                              "description": "The soak roll and what it took off, as the rules core gives it."}),
            "levels": INT, "target_track": ref("TrackState"), "attacker_track": ref("TrackState"),
            "effects": {"type": "array", "items": {"type": "object", "additionalProperties": True,
                                                   "description": "A maneuver's effect (knockdown, hold...)."}},
            "summary": STR, "steps": STEPS, "dice": by_name({"type": "array", "items": INT}, "By roll: the dice."),
            "torpor": by_name(ref("TorporEntered"), "By side (attacker, target): the torpor the attack puts a "
                                                    "vampire in (met-reference 5.2)."),
            "profile": {"type": "string", "description": "The tabletop profile ruled with (tabletop_profile)."},
            "health": shape({"attacker": ref("HealthViews"), "target": ref("HealthViews")})})}}},
                  "404": {"description": "A stored fighter that is not in this chronicle.", **_ERROR}},
})
def tabletop_attack():
    """Resolve an attack (stateless)."""
    body = json_body()
    settings = _settings(body)
    night = request_night(body)
    maneuver = body.get("maneuver")
    if not isinstance(maneuver, str) or not maneuver:
        raise ApiError(Phrase.message(N_("Choose the maneuver.")), "maneuver", 422)
    attacker = _fighter(body, "attacker", settings)
    target = _fighter(body, "target", settings)
    defense = None
    spec = _object(body, "defense")
    if spec:
        modifiers = spec.get("dodge_modifiers") or []
        if not isinstance(modifiers, list):
            raise ApiError(Phrase.message(N_("`dodge_modifiers` is a list of keys.")), "defense.dodge_modifiers", 422)
        abort = spec.get("abort")
        defense = DefenseChoice(str(spec.get("maneuver", "")), _slot(_object(spec, "actions", "defense.actions"),
                                                                     "defense.actions"),
                                abort if abort is None else str(abort),
                                _int(spec, "attackers", 1, "defense.attackers"), tuple(str(m) for m in modifiers),
                                _int(spec, "difficulty", None, "defense.difficulty"),
                                with_shield=_bool(spec, "with_shield", "defense.with_shield"))
    attack = Attack(maneuver, attacker, target, _circumstances(_object(body, "circumstances")),
                    _slot(_object(body, "actions"), "actions"), defense)
    try:
        ruling = resolve_attack(attack, settings, dice=_dice_map(body), rng=_rng(), night=night)
    except RulesError as exc:
        raise ApiError(exc.message, _request_field(exc.field), 422) from None
    data = ruling.to_dict()
    data["profile"] = profile_for(settings).key
    data["health"] = {"attacker": health_views(ruling.attacker_track), "target": health_views(ruling.target_track)}
    return jsonify(data)


@api_route("post", "/tabletop/ambush", {
    "summary": "Resolve a tabletop ambush",
    "description": "By the chronicle's tabletop_profile. Revised (000 \"Ambush\"): the attacker's Dexterity + Stealth "
                   "resisted by the target's Perception + Alertness; more successes: a free attack with the extra "
                   "successes as extra dice (`attack_dice`, the attack's `circumstances.ambush_dice`); a tie: the "
                   "attacker strikes first, the target may defend; fewer: spotted. Dark Ages (004 \"Ambush\"): "
                   "preparing it needs `cover` and Wits + Stealth (6, roll `preparation`); the attacker then wins "
                   "initiative and the target has his Perception + Alertness (8) successes as dice the first turn "
                   "(`target_dice`). A target already `in_combat` cannot be ambushed (422). Nothing is stored.",
    "requestBody": json_request({
        "type": "object", "required": ["attacker", "target"],
        "properties": {
            "attacker": {"$ref": "#/components/schemas/TabletopFighter"},
            "target": {"$ref": "#/components/schemas/TabletopFighter"},
            "cover": {"type": "boolean", "default": True,
                      "description": "The ambusher has proper cover (needed under Dark Ages)."},
            "in_combat": {"type": "boolean", "default": False,
                          "description": "The target is already involved in combat."},
            "dice": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}},
                     "description": "Faces by roll: stealth, alertness, preparation (Dark Ages). Rolls not given "
                                    "are drawn."},
            "settings": {"type": "object", "description": "Chronicle settings to use instead of the chronicle's."},
        }},
        example={"attacker": {"name": "Kincaid", "attributes": {"Dexterity": 4, "Wits": 3},
                              "abilities": {"Stealth": 3}},
                 "target": {"name": "The guard", "attributes": {"Perception": 2, "Wits": 2},
                            "abilities": {"Alertness": 1}, "creature": "mortal"},
                 "dice": {"stealth": [8, 9, 7, 2, 3, 10, 6], "alertness": [7, 2, 3]}}),
    "responses": {"200": {"description": "The ambush's outcome with every die.", "content": {"application/json": {
        "schema": shape({"outcome": {"type": "string", "enum": ["free_attack", "first_strike", "spotted",
                                                                "ambushed", "not_prepared"]},
                         "attack_dice": INT, "target_dice": {"type": ["integer", "null"]},
                         "rolls": by_name(ref("TabletopRoll"), "By roll: the roll."), "steps": STEPS,
                         "dice": by_name({"type": "array", "items": INT}, "By roll: the dice."),
                         "profile": STR})}}},
                  "404": {"description": "A stored fighter that is not in this chronicle.", **_ERROR}},
})
def tabletop_ambush():
    """Resolve an ambush (stateless)."""
    body = json_body()
    settings = _settings(body)
    attacker = _fighter(body, "attacker", settings)
    target = _fighter(body, "target", settings)
    cover = inputs.flag(body, "cover", default=True)
    in_combat = inputs.flag(body, "in_combat")
    try:
        result = resolve_ambush(attacker, target, settings, dice=_dice_map(body), rng=_rng(), cover=cover,
                                in_combat=in_combat)
    except RulesError as exc:
        raise ApiError(exc.message, exc.field, 422) from None
    data = result.to_dict()
    data["dice"] = {k: list(v.dice) for k, v in result.rolls.items()}
    data["profile"] = profile_for(settings).key
    return jsonify(data)
