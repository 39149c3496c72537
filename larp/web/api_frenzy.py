"""The Virtue Test in the JSON API (issue 30 item 8): rule it on a stored character and set his state, "in
frenzy" or "in Rötschreck" (:mod:`larp.services.frenzy_state`)."""

from __future__ import annotations

from flask import current_app, g, jsonify

from larp.rules.explain import N_, Phrase
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle
from larp.services.frenzy_state import run_virtue_test
from larp.rules.challenge.types import BASIC_THROWS, Throw
from larp.rules.frenzy import Purpose, Virtue
from larp.web.inputs import enum_schema
from larp.web.api import json_body
from larp.web.api_routes import api_route, json_request
from larp.web.api_responses import INT, STR, shape

_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
_SIGN = {**enum_schema(Throw, only=BASIC_THROWS, random=True), "description": "Left out: drawn."}
KEYS = {"virtue", "purpose", "stimulus", "throw", "narrator_throw", "retest", "retest_throw", "retest_narrator_throw",
        "hunger", "relent", "fend_off", "trigger_removed"}


@api_route("post", "/characters/<int:character_id>/virtue-test", {
    "summary": "A Virtue Test against frenzy or Rötschreck, and the state it leaves him in",
    "description": "A static test of Self-Control or Instinct (frenzy from hunger or provocation) or Courage (the "
                   "Rötschreck: fire, sunlight) against the stimulus's Traits (LotNR Virtue Tests, met-reference "
                   "1.6, T15, T26). His Virtue, Willpower and Blood Traits are the stored ones. The character's "
                   "state (`frenzy`: \"frenzy\", \"rotschreck\" or \"\") and the Willpower spent are written and "
                   "the ruling recorded; later challenges read the state (no wound penalty in frenzy). The "
                   "Negative Trait the player picks, a temporary derangement and the Virtue Trait lost for the "
                   "game session are named in the ruling for the sheet.",
    "requestBody": json_request({
        "type": "object", "required": ["virtue"], "additionalProperties": False, "properties": {
            "virtue": enum_schema(Virtue),
            "purpose": {**enum_schema(Purpose), "description": "Resist a stimulus (default) "
                                                                                    "or end the frenzy he is in."},
            "stimulus": {"type": ["integer", "string"], "description": "Its Traits as the narrator sets them, or a "
                                                                      "key of data/frenzy.toml (physical_provocation, "
                                                                      "direct_sunlight...)."},
            "throw": _SIGN, "narrator_throw": _SIGN,
            "retest": {"type": "boolean", "description": "Risks a Virtue Trait for a retest."},
            "retest_throw": _SIGN, "retest_narrator_throw": _SIGN,
            "hunger": {"type": "boolean", "description": "The stimulus is hunger (a ravenous vampire: one harder)."},
            "relent": {"type": "boolean", "description": "He does not attempt the test."},
            "fend_off": {"type": "boolean", "description": "Spends a Willpower Trait to hold it off ten minutes."},
            "trigger_removed": {"type": "boolean", "description": "Ending a frenzy: the trigger is gone (free)."}}}),
    "responses": {"201": {"description": "Ruled, applied and recorded.", "content": {"application/json": {
                      "schema": shape({"ruling_id": INT, "frenzy": STR, "willpower": INT,
                                       "ruling": {"type": "object", "additionalProperties": True,
                                                  "description": "The Virtue Test's ruling (outcome, condition, "
                                                                 "difficulty, Negative Traits to choose from, steps)."}})}}},
                  "404": {"description": "Unknown character.", **_ERROR},
                  "409": {"description": "No game session is open, or the call was recorded already.", **_ERROR}},
})
def virtue_test_api(character_id: int):
    """Rule a Virtue Test on a stored character (:func:`larp.services.frenzy_state.run_virtue_test`)."""
    data = json_body()
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise ServiceError(Phrase.message(N_("Unknown field %(unknown)s."), unknown=repr(unknown[0])), field=unknown[0])
    character, record, ruling = run_virtue_test(get_chronicle(), g.user, character_id, data,
                                                current_app.config["RANDOM_SOURCE"]())
    return jsonify(ruling_id=record.id, frenzy=character.frenzy, willpower=character.willpower_current,
                   ruling=ruling.to_dict()), 201
