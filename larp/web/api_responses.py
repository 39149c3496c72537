"""The OpenAPI document's shared answer shapes (issue 21): what the rules core's results and the
stored characters look like in a response, each with the fields it always has (``required``), so
the response check (tests/web/api_conformance.py) compares every answer with something definite.

An object whose keys are the core's own (a ruling's figures, the record's inputs and outcome,
which differ by kind of ruling) says so and is left open; every other shape lists its fields.
"""

from __future__ import annotations

from typing import Any

from larp.rules.health.track import CONDITIONS
from larp.rules.rulings.healing import GAMES
from larp.rules.torpor import TORPOR_CAUSES
from larp.sheet_entries import CREATURES
from larp.web.inputs import enum_schema
from larp.web.api import SCHEMAS
from larp.web.api_routes import json_request


def ref(name: str) -> dict[str, str]:
    """A ``$ref`` to the shared schema ``name``."""
    return {"$ref": f"#/components/schemas/{name}"}


def shape(required: dict[str, Any], optional: dict[str, Any] | None = None, closed: bool = True,
          description: str | None = None) -> dict[str, Any]:
    """An object schema: ``required`` fields always there, ``optional`` ones sometimes; ``closed``:
    no other field (an answer with one more field is drift)."""
    schema: dict[str, Any] = {"type": "object", "required": sorted(required),
                              "properties": {**required, **(optional or {})}}
    if closed:
        schema["additionalProperties"] = False
    if description:
        schema["description"] = description
    return schema


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or ``null``."""
    return {"oneOf": [schema, {"type": "null"}]}


def by_name(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """An object of character name (or side) to ``schema``."""
    return {"type": "object", "additionalProperties": schema, "description": description}


INT, STR, BOOL = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
NULL_STR, NULL_INT = {"type": ["string", "null"]}, {"type": ["integer", "null"]}
STEPS = {"type": "array", "items": ref("Step")}
COUNTS = {"type": "object", "additionalProperties": INT}
#: Figures the rules core adds by kind of ruling: their keys are the core's, not fixed here.
FIGURES = {"type": "object", "additionalProperties": True, "description": "The figures of this kind of ruling, "
                                                                         "as the rules core gives them."}

SCHEMAS.update({
    "TrackState": shape({
        "levels": {"type": "array", "items": STR}, "aggravated": INT, "lethal": INT, "bashing": INT,
        "condition": enum_schema(CONDITIONS),
        "staked": BOOL, "creature": enum_schema(CREATURES)},
        description="A health track as it stands (002 \"Damage and Healing\")."),
    "Consequence": shape({
        "traits_lost": {"type": "object", "additionalProperties": {"type": "array", "items": STR},
                        "description": "By category (physical, social, mental): the Traits lost."},
        "abilities": COUNTS, "willpower": INT, "merits": COUNTS,
        "track": nullable(ref("TrackState")), "armor_left": COUNTS,
        "blood": {"type": "integer", "description": "Blood points gained (positive) or spent (negative)."},
        "torpor_cause": NULL_STR, "agg_marked": NULL_INT, "torpor": nullable(ref("TorporEntered"))},
        description="What one ruling changes for one character (null track: not changed; null torpor: the "
                    "ruling puts him in no torpor, or no game-session date was known)."),
    "TorporEntered": shape({
        "cause": enum_schema(TORPOR_CAUSES),
        "started_on": {"type": "string", "format": "date", "description": "The game session's date."},
        "table": enum_schema(GAMES),
        "rating": {"type": "integer", "description": "Humanity or Path read from the table (its scale)."},
        "length": {"type": "string", "description": "The table's words (\"a week\")."},
        "nights": {"type": ["integer", "null"], "description": "Nights until he may try to wake (calendar time; "
                                                              "null when counted in game sessions)."},
        "wake_on": {"type": ["string", "null"], "format": "date",
                    "description": "The first night he may try to wake (calendar time)."},
        "sessions": NULL_INT, "wake_session": NULL_INT, "retired": BOOL, "fed_wakes": BOOL},
        description="A torpor the ruling puts a vampire into, worked out by the rules core (met-reference "
                    "5.2; 000/001 \"Torpor\"): its cause, length and wake date."),
    "Hit": shape({
        "by": STR, "target": STR, "action": STR, "weapon": NULL_STR, "damage_type": STR, "levels": INT,
        "taken": {"type": "array", "items": {"type": "array", "items": {"type": ["string", "integer"]}, "minItems": 2,
                                             "maxItems": 2, "description": "[damage type, levels]"}},
        "applied": BOOL, "condition": STR, "state": STR, "note": STR, "steps": STEPS,
        "tests": {"type": "array", "items": {"type": "object", "additionalProperties": True,
                                             "description": "A simple test of the damage (High-Caliber, Staking), "
                                                            "as the rules core records it."}}},
        description="Damage landed by one result, after the target's kind, halving, Fortitude and armor."),
    "HealthViews": shape({
        "creature": STR, "condition": STR, "condition_label": STR, "staked": BOOL,
        "live": shape({"boxes": {"type": "array", "items": shape({"level": STR, "mark": STR, "damage_type": NULL_STR,
                                                                  "current": BOOL})},
                       "level": STR, "marked": INT, "size": INT, "source": STR}),
        "tabletop": shape({"boxes": {"type": "array", "items": shape({"level": STR, "penalty": NULL_INT,
                                                                      "movement": STR, "mark": STR,
                                                                      "damage_type": NULL_STR})},
                           "level": STR, "dice_penalty": NULL_INT, "movement": STR,
                           "below": nullable(shape({"mark": STR, "damage_type": STR})),
                           "approximate": BOOL, "source": STR, "live_level": STR, "why": STR})},
        description="Both views of one track, the live game's and the tabletop Health chart."),
    "BloodRuling": shape({"summary": STR, "steps": STEPS, "consequences": by_name(ref("Consequence"), "By name.")},
                         closed=False, description="A ruling of the blood rules; its other fields are its figures."),
    "StoredHealth": shape({"id": INT, "name": STR, "version": INT, "blood_current": INT, "willpower_current": INT,
                           "health": ref("TrackState"), "level": STR},
                          description="A stored character's health after the change."),
    "HealthRecorded": shape({"ruling_id": INT, "summary": STR, "steps": STEPS, "character": ref("StoredHealth")},
                            description="Applied and recorded: the ruling and the character after it."),
})
CONSEQUENCES = by_name(ref("Consequence"), "By character name: what the ruling changes for him.")


#: The body of a call that takes none: ``{}`` (a JSON body still says it is JSON).
NO_BODY = json_request({"type": "object", "additionalProperties": False, "properties": {}}, example={},
                       required=False)

