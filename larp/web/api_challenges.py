"""Challenge endpoints of the JSON API (issue 3).

- ``POST /api/v1/challenges/rule``: stateless. A complete challenge in,
  the ruling and what may follow out; nothing is read from or written to
  the database (the settings are the documented defaults plus the request's).
- ``POST /api/v1/challenges``: stateful. A challenge between stored
  characters, applied and recorded like the narrator's screen does.
"""

from __future__ import annotations

from flask import current_app, g, jsonify

from larp.i18n import phrase_for_reader, steps_for_reader
from larp.rules.challenge import Kind
from larp.rules.rulings import rule_one_on_one, rule_static
from larp.rules.rulings.parsing import one_on_one_from_dict
from larp.web.combat_requests import request_from_json
from larp.services.challenges import characters_after, run_challenge
from larp.services.chronicles import get_chronicle
from larp.rules.challenge.types import BASIC_THROWS, Call, Category, Health, Kind, Lead, Outcome, SIDES, Throw
from larp.rules.darkness import DarknessLevel, DarknessSource
from larp.rules.health.track import DAMAGE_TYPES
from larp.rules.scene import RangeBand
from larp.sheet_entries import CATEGORIES, CREATURES
from larp.web.inputs import enum_schema
from larp.web.api import (MORALITY_FIELD, NIGHT_FIELDS, SCHEMAS, json_body, request_night,
                          request_settings)
from larp.web.api_responses import BOOL, CONSEQUENCES, COUNTS, INT, STR, by_name, ref, shape
from larp.web.api_routes import api_route, json_request

#: A side's part of the scene (:func:`larp.rules.scene.side_scene_from_dict`), the same object in every API.
SIDE_SCENE = {"type": "object", "description": "What differs for this side in the scene.", "properties": {
    "darkness": enum_schema(DarknessLevel),
    "darkness_source": enum_schema(DarknessSource),
    "shroud_caster": {"type": "boolean"},
    "sight": {"type": "object", "additionalProperties": {"type": "boolean"},
              "description": "Sight powers on or off (heightened_senses, eyes_of_the_beast...); not named: "
                             "active when the sheet holds them."},
    "cover": {"type": "integer", "minimum": 0, "maximum": 6},
    "armor": {"description": "Worn for this ruling: a live armory key, a list of keys, or objects "
                             "{armor, left}; [] for none. Armor does not stack: the best piece counts."},
    "weapon": {"type": ["string", "null"], "description": "The live armory key of what he carries; \"\": bare hands."},
    "range": enum_schema(RangeBand)}}
#: The stored scene a stateful ruling is made in (issue 30 item 4).
SCENE_ID = {"type": ["integer", "null"], "description": "The stored scene it happens in (GET /scenes): the ruling is "
                                                       "recorded with the scene and its turn, and one challenge per "
                                                       "target per turn is checked there (met-reference 3.1)."}
#: The sense a challenge depends on (data/senses.toml; words such as "ears" are read too).
SENSE = {"type": "string", "description": "The sense the challenge depends on: sight, hearing, smell, taste or touch "
                                          "(\"\": none named). A side with Acute Sense for it is two Traits up "
                                          "(LotNR Acute Sense, met-reference 1.3; setting darkness_merits)."}
#: The senses of a side's Acute Sense Merits.
ACUTE_SENSES = {"type": "array", "items": {"type": "string"},
                "description": "The senses of his Acute Sense Merits (sight, hearing, smell, taste, touch)."}
#: A side's specialisation: true, or the Ability's name.
SPECIALISATION = {"type": ["boolean", "string"],
                  "description": "An Ability specialisation applies (one bonus Trait while a level of the Ability is "
                                 "left tonight, LotNR Abilities): the Ability's name, or true for the one the sheet "
                                 "specialises."}
#: The condition the Virtue Test left a side in.
FRENZY = {"type": ["string", "null"], "enum": ["", "frenzy", "rotschreck", None],
          "description": "In frenzy (no wound penalty; need not risk a Trait against a Social challenge, LotNR Frenzy) "
                         "or in Rötschreck; \"\" or null: neither."}
SCENE = {"type": "object", "description": "The scene: darkness for everyone, the range, the sense the challenges "
                                          "depend on, and each side's part by name.",
         "properties": {"darkness": enum_schema(DarknessLevel), "sense": SENSE,
                        "darkness_source": enum_schema(DarknessSource),
                        "range": enum_schema(RangeBand),
                        "sides": {"type": "object", "additionalProperties": SIDE_SCENE}}}
BODY = {"type": "object", "description": "His kind, Fortitude (Mettle's Healthy level at 2), the armor he wears "
                                         "and the damage marked.", "properties": {
    "creature": enum_schema(CREATURES),
    "fortitude": {"type": "integer", "minimum": 0, "maximum": 5},
    "armor": {"type": ["string", "null"], "description": "A live armory key."},
    "armor_left": {"type": ["integer", "null"]},
    "bashing": {"type": "integer", "minimum": 0}, "lethal": {"type": "integer", "minimum": 0},
    "aggravated": {"type": "integer", "minimum": 0}}}
ATTACK = {"type": "object", "description": "What changes his damage.", "properties": {
    "action": {"type": "string", "enum": ["strike", "bite", "weapon"]},
    "weapon": {"type": ["string", "null"], "description": "A live armory key (knife, pistol, shotgun...)."},
    "potence": {"type": "integer", "minimum": 0}, "lethal_by_prowess": {"type": "boolean"},
    "head_shot": {"type": "boolean"}, "close_range": {"type": "boolean"},
    "stake": {"type": "boolean", "description": "A Staking weapon driven at the heart (met-reference 3.7)."},
    "full_auto": {"type": "boolean", "description": "A Full-Auto weapon fired emptying the clip: its extra level "
                                                    "within five feet (met-reference 3.7)."},
    "high_caliber_test": {"$ref": "#/components/schemas/SimpleTestThrows"},
    "staking_tests": {"type": "array", "maxItems": 2, "items": {"$ref": "#/components/schemas/SimpleTestThrows"},
                      "description": "The two staking tests as thrown at the table; left out: drawn by the app."}}}
#: A simple test as thrown at the table (issue 17); a test left out is drawn by the app and the ruling says so.
SIMPLE_TEST = {"type": "object", "required": ["player", "narrator"], "properties": {
    "player": enum_schema(Throw, only=BASIC_THROWS),
    "narrator": enum_schema(Throw, only=BASIC_THROWS)}}
#: The stored sides' throws for the simple tests after a hit ("random": drawn by the app).
DAMAGE_TEST_FIELDS = {f"{test}_{who}": enum_schema(Throw, only=BASIC_THROWS, random=True)
                      for test in ("high_caliber", "staking1", "staking2") for who in ("player", "narrator")}

THROW = enum_schema(Throw)
SCHEMAS.update({
    "SimpleTestThrows": SIMPLE_TEST,
    "Contestant": {
        "type": "object",
        "required": ["name", "bid"],
        "description": "One side. Give `traits` (current Traits in the category), or `held` and "
                       "`lost_earlier` (names; a name repeated for x2).",
        "properties": {
            "name": {"type": "string"},
            "traits": {"type": "integer", "minimum": 0},
            "bid": {"type": "array", "items": {"type": "string"},
                    "description": "One Trait plus every extra Trait the side must risk."},
            "held": {"type": "array", "items": {"type": "string"}},
            "lost_earlier": {"type": "array", "items": {"type": "string"}},
            "declared": {"type": ["integer", "null"]},
            "bonuses": {"type": "array", "items": {"$ref": "#/components/schemas/Modifier"}},
            "penalties": {"type": "array", "items": {"$ref": "#/components/schemas/Modifier"}},
            "weapon": {"description": "A live armory key (its card, specials and firearm rules), or a card "
                                      "{name, bonus, damage_type, levels}.",
                       "oneOf": [{"type": "string"}, {"type": "null"}, {"type": "object", "properties": {
                           "name": {"type": "string"}, "bonus": {"type": "integer"},
                           "damage_type": enum_schema(DAMAGE_TYPES),
                           "levels": {"type": "integer"},
                           "ranged": {"type": "boolean", "description": "Fired or thrown: no Might (LotNR)."},
                           "specials": {"type": "array", "items": {"type": "string"}},
                           "negative_traits": {"type": "array", "items": {"type": "string"}}}}]},
            "health": enum_schema(Health),
            "powers": {"type": "array", "items": {"type": "string"},
                       "description": "vigor, rapidity, puissance, fleetness, might, endurance, intensity; mettle; "
                                      "the sight powers (heightened senses, eyes of the beast...)."},
            "lead": {**enum_schema(Lead),
                     "description": "Left out: inferred from the first Trait bid (data/trait_leads.toml), as for "
                                    "stored characters."},
            "category": enum_schema(Category, only=CATEGORIES, null=True),
            "abilities": {"type": "object", "additionalProperties": {"type": "integer"},
                          "description": "Ability name to levels left this game session."},
            "willpower": {"type": "integer", "minimum": 0},
            "merits": {"type": "object", "additionalProperties": {"type": "integer"}},
            "generation": {"type": ["integer", "null"]},
            "steps_moved": {"type": "integer", "minimum": 0, "maximum": 3},
            "off_hand": {"type": "boolean"},
            "extra_bid": {"type": "integer", "minimum": 0},
            "relent": {"type": "boolean"},
            "darkness": {"type": ["object", "null"], "properties": {
                "level": enum_schema(DarknessLevel),
                "source": enum_schema(DarknessSource),
                "reductions": {"type": "array", "items": {"type": "string"}},
                "waive_retest": {"type": "string"},
                "waived_this_turn": {"type": "boolean"}}},
            "body": BODY,
            "attack": ATTACK,
            "ignore_wounds": {"type": "boolean", "description": "Spends a Willpower Trait: no wound penalties, "
                                                                "Incapacitated included, this turn (LotNR Willpower)."},
            "celerity": {"type": ["integer", "null"], "minimum": 0, "maximum": 5,
                         "description": "Celerity active this turn (Rapidity's Bomb needs 3); left out: the powers "
                                        "listed count as active."},
            "negative_traits": {"type": "array", "items": {"type": "string"}},
            "calls_negative": {"type": "string"},
            "specialisation": SPECIALISATION, "waive_darkness": {"type": "boolean"},
            "lethal_by_prowess": {"type": "boolean"}, "head_shot": {"type": "boolean"},
            "acute_senses": ACUTE_SENSES, "frenzy": FRENZY,
            "bomb_announced": {"type": "boolean", "description": "The Bomb was announced before the challenge "
                                                                 "(it exists only then, LotNR Vigor)."},
            "ambidextrous": {"type": "boolean", "description": "The Merit; left out: from qualities."},
            "two_weapon": {"type": "boolean", "description": "The Two-Weapon (Florentine) specialisation; left "
                                                             "out: from specialisations."},
            "both_hands": {"type": "boolean", "description": "Fighting with a weapon in each hand this turn."},
            "qualities": {"type": "array", "items": {"type": "string"},
                          "description": "Merit and Flaw keys (ambidextrous, acute_sense, concentration...)."},
            "specialisations": {"type": "object", "additionalProperties": {"type": "array",
                                                                            "items": {"type": "string"}}},
            "scene": SIDE_SCENE,
            "morality": MORALITY_FIELD,
        },
    },
    "Modifier": {"type": "object", "required": ["source", "traits"],
                 "properties": {"source": {"type": "string"}, "traits": {"type": "integer", "minimum": 0}}},
    "TestCall": {
        "type": "object",
        "properties": {
            "call": {**enum_schema(Call),
                     "description": "second_challenge: a challenger who surprised the defender and lost the "
                                    "test risks another Trait (LotNR Surprise)."},
            "challenger_throw": THROW,
            "defender_throw": {**THROW, "description": "In a static challenge or simple test: the narrator's "
                                                       "throw (left out: drawn at random)."},
            "by": {**enum_schema(Outcome, only=SIDES, null=True),
                   "description": "Who calls it; in a static challenge \"defender\" is the narrator."},
            "source": {"type": "string", "description": "ability:Brawl, willpower, might, merit:Lucky"},
            "cancel": {"type": "string"},
            "trait": {"type": "string", "description": "The new Trait an overbid or a second challenge risks."},
            "random": {"type": "array", "items": enum_schema(Outcome, only=SIDES),
                       "description": "The sides whose throw was drawn, as an answer's tests record them: a test "
                                      "sent back with it keeps the earlier draw."},
        },
    },
    "Challenge": {
        "type": "object",
        "required": ["category", "challenger"],
        "properties": {
            "category": enum_schema(Category),
            "kind": enum_schema(Kind),
            "challenger": {"$ref": "#/components/schemas/Contestant"},
            "defender": {"oneOf": [{"$ref": "#/components/schemas/Contestant"}, {"type": "null"}],
                         "description": "The other side. A static challenge or simple test (kind \"static\", "
                                        "\"simple\") has none: there the narrator's side is `defender` in every "
                                        "field (`difficulty` its Traits, `defender_throw` the narrator's throw, "
                                        "drawn at random when left out, outcome \"defender\" the difficulty "
                                        "holding, `options.sides` entry with `narrator: true`)."},
            "action": {"type": "string", "enum": ["strike", "bite", "weapon", "defend", "other"]},
            "defender_action": {"type": "string", "enum": ["strike", "bite", "weapon", "defend", "other"]},
            "difficulty": {"type": ["integer", "null"], "minimum": 0,
                           "description": "A static challenge's difficulty in Traits: the narrator's side."},
            "needs_win": {"type": "boolean"},
            "needs_sight": {"type": "boolean"},
            "surprised": {"type": "boolean"},
            "sense": SENSE,
            "at_range": {"type": "boolean", "description": "The sides are beyond reach of each other (more than five "
                                                          "feet): no Might whatever the card (LotNR Might); a scene "
                                                          "range of near, mid or far says so too."},
            "negative_calls": {"type": "array", "items": {"type": "object", "properties": {
                "by": enum_schema(Outcome, only=SIDES),
                "trait": {"type": "string"}, "correct": {"type": "boolean"}}}},
            "tests": {"type": "array", "items": {"$ref": "#/components/schemas/TestCall"}},
            "scene": SCENE,
            "settings": {"type": "object", "description": "Chronicle setting overrides (key to value)."},
            **NIGHT_FIELDS,
        },
    },
    "Ruling": {
        "type": "object",
        "properties": {
            "outcome": {**enum_schema(Outcome, null=True),
                        "description": "null while a test is due (options.state). In a static challenge the "
                                       "defender is the narrator's side."},
            "kind": {"type": ["string", "null"], "description": "null while a test is due."},
            "summary": {"type": "string"},
            "throws": {"type": "object", "additionalProperties": True,
                       "description": "By side: the throws of the tests, as the rules core records them."},
            "traits_lost": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
            "spent": by_name(shape({"abilities": COUNTS, "merits": COUNTS, "willpower": INT}),
                             "By side: the Abilities, Merits and Willpower it spent."),
            "totals": {"type": "object", "additionalProperties": True,
                       "description": "By side: the Traits counted on a tie or overbid."},
            "damage": {"type": "array", "items": shape({"target": STR, "damage_type": STR, "levels": INT, "rule": STR},
                                                        closed=False)},
            "tests": {"type": "array", "items": {"type": "object", "required": ["call"], "additionalProperties": True,
                                                 "properties": {"call": STR},
                                                 "description": "A test as ruled: its call, throws and result."}},
            "steps": {"type": "array", "items": {"$ref": "#/components/schemas/Step"}},
            "hits": {"type": "array", "items": ref("Hit"),
                     "description": "The damage landed, after the target's kind, halving, Fortitude and armor."},
            "consequences": {**CONSEQUENCES, "description": "By name: Traits lost, Abilities and Willpower "
                                                            "spent, the new track, the armor left."},
        },
        "required": ["outcome", "summary", "steps"],
    },
    "ChallengeOptions": {
        "type": "object", "required": ["state", "current", "finished", "forced_retest", "sides"],
        "properties": {
            "state": {"type": "string", "enum": ["ruled", "retest_due", "test_due"],
                      "description": "ruled: `ruling` is final for the tests sent; retest_due: a forced darkness "
                                     "retest must be thrown first (send it as a test with call forced_retest); "
                                     "test_due: the first test is missing."},
            "current": {"type": ["string", "null"], "description": "Who is ahead: challenger, defender or draw."},
            "finished": {"type": "boolean"},
            "forced_retest": {**enum_schema(Outcome, only=SIDES, null=True),
                              "description": "The side that won in total darkness and must retest."},
            "sides": by_name(shape({"retests": {"type": "array", "items": STR}, "may_overbid": BOOL,
                                    "overbid_makes_test": BOOL, "overbid_note": STR,
                                    "cancels": {"type": "object", "additionalProperties": {"type": "array",
                                                                                           "items": STR}},
                                    "may_second_challenge": BOOL, "narrator": BOOL,
                                    "overbid_traits": {
                                        "type": ["array", "null"], "items": STR,
                                        "description": "The Traits (by name, once each) it may still risk in an "
                                                       "overbid or a second challenge: held tonight in the category "
                                                       "it bids from, not already at risk (LotNR Overbidding); null "
                                                       "when its Traits are given only as a count."},
                                    "suitable_abilities": {
                                        "type": ["array", "null"], "items": STR,
                                        "description": "The Abilities (lower case) that suit its retest here "
                                                       "(Brawl bare-handed, Melee with a hand weapon, Firearms "
                                                       "shooting, Dodge defending, Blindfighting in darkness; LotNR "
                                                       "Retests), offered first; null: any Ability suits."}}),
                             "By side (challenger, defender): what it may still call.")}},
    "ChallengeAnswer": {
        "type": "object", "required": ["ruling", "options"],
        "properties": {"ruling": {"$ref": "#/components/schemas/Ruling"},
                       "options": {"$ref": "#/components/schemas/ChallengeOptions"}}},
    "StoredSide": {
        "type": "object",
        "required": ["character_id"],
        "properties": {
            "character_id": {"type": "integer"},
            "bid": {"type": "string", "description": "The lead Trait; extra Traits to risk are chosen by the tool."},
            "weapon": {"type": "string", "description": "A live armory key (knife, pistol...)."},
            "lead": enum_schema(Lead, blank=True),
            "steps_moved": {"type": "integer", "minimum": 0, "maximum": 3},
            "off_hand": {"type": "boolean"}, "relent": {"type": "boolean"},
            "cover": {"type": "integer", "minimum": 0, "maximum": 6}, "specialisation": SPECIALISATION,
            "full_auto": {"type": "boolean", "description": "His Full-Auto weapon fired emptying the clip: its extra "
                                                            "level within five feet (met-reference 3.7)."},
            "calls_negative": {"type": "string"}, "celerity_active": {"type": "boolean"},
            "waive_darkness": {"type": "boolean"}, "lethal_by_prowess": {"type": "boolean"},
            "head_shot": {"type": "boolean"}, "shroud_caster": {"type": "boolean"},
            "stake": {"type": "boolean", "description": "Drives his Staking weapon at the heart (met-reference 3.7)."},
            "ignore_wounds": {"type": "boolean", "description": "Spends a Willpower Trait: no wound penalties, "
                                                                "Incapacitated included, this turn (LotNR Willpower)."},
            **DAMAGE_TEST_FIELDS,
            "darkness": {**enum_schema(DarknessLevel, blank=True),
                         "description": "His own darkness; left out: the scene's."},
            "darkness_source": enum_schema(DarknessSource, blank=True),
            "sight_off": {"type": "boolean", "description": "His sight powers turned off for this ruling."},
            "armor": {"description": "Worn for this ruling (a live armory key, or \"none\"); left out: the sheet's."},
            "armor_left": {"type": "integer", "minimum": 0},
            "bomb_announced": {"type": "boolean", "description": "The Bomb was announced before the challenge."},
            "both_hands": {"type": "boolean", "description": "Fighting with a weapon in each hand this turn."},
            "bid_category": {**enum_schema(Category, only=CATEGORIES, blank=True),
                             "description": "Bid from this category (a shooter may bid Mental Traits, LotNR)."},
            "range": {**enum_schema(RangeBand),
                      "description": "His own range; left out: the challenge's."},
            "situation": {"type": "integer", "minimum": -3, "maximum": 3,
                          "description": "The narrator's bonus (+) or penalty (-) Traits for the situation."},
            "scene": SIDE_SCENE,
        },
    },
    "StoredChallenge": {
        "type": "object",
        "required": ["category", "challenger", "tests"],
        "properties": {
            "kind": enum_schema(Kind),
            "category": enum_schema(Category, only=CATEGORIES),
            "challenger": {"$ref": "#/components/schemas/StoredSide"},
            "defender": {"$ref": "#/components/schemas/StoredSide"},
            "action": {"type": "string"}, "defender_action": {"type": "string"},
            "difficulty": {"type": "integer"}, "extra_bid": {"type": "integer"}, "needs_win": {"type": "boolean"},
            "darkness": enum_schema(DarknessLevel),
            "darkness_source": enum_schema(DarknessSource),
            "range": enum_schema(RangeBand),
            "sense": SENSE,
            "scene": SCENE,
            "scene_id": SCENE_ID,
            "surprised": {"type": "boolean"},
            "tests": {"type": "array", "items": {"$ref": "#/components/schemas/TestCall"},
                      "description": "First throws first; a throw of \"random\" is drawn and recorded."},
            "request_token": {"type": "string", "maxLength": 64,
                              "description": "An idempotency key in the body, as before the Idempotency-Key header "
                                             "(which every stateful call takes, and which wins when both are sent): "
                                             "a second call with the same key is refused (409)."},
        },
    },
})
#: A mass challenge's pair or a bystander's options: the challenge options without `state`.
SCHEMAS["PairOptions"] = {
    **SCHEMAS["ChallengeOptions"], "required": ["current", "finished", "forced_retest", "sides"],
    "properties": {k: v for k, v in SCHEMAS["ChallengeOptions"]["properties"].items() if k != "state"},
    "additionalProperties": False}


#: The ruling's fields while no ruling can be made yet (the first test or a forced retest is due).
_PENDING = {"kind": None, "throws": {"challenger": None, "defender": None}, "traits_lost": {}, "spent": {},
            "totals": {}, "damage": [], "tests": [], "hits": [], "consequences": {}}


def challenge_answer(result) -> dict:
    """One shape for every answer of ``POST /challenges/rule`` (issue 21): ``ruling`` (a Ruling,
    ``outcome`` null while a test is due) and ``options``, whose ``state`` says which:
    "ruled", "retest_due" (a forced darkness retest must be thrown, ``options.forced_retest``
    names the side that must retest) or "test_due"."""
    options = result.options.to_dict()
    if result.ruling is None:
        ruling = {**_PENDING, "outcome": None, "summary": result.summary, "tests": list(result.tests),
                  "steps": steps_for_reader(result.steps)}
        options["state"] = "retest_due" if options.get("forced_retest") else "test_due"
    else:
        ruling = {**result.to_dict(), "summary": phrase_for_reader(result.summary),
                  "steps": steps_for_reader(result.steps)}
        options["state"] = "ruled"
    return {"ruling": ruling, "options": options}


def _json_response(schema: str) -> dict:
    return {"200": {"description": "The ruling.", "content": {"application/json": {"schema": {"$ref": schema}}}}}


@api_route("post", "/challenges/rule", {
    "summary": "Rule on a complete challenge (stateless)",
    "description": "Takes the participants' numbers and powers, bids, throws, retests, conditions and "
                   "setting overrides; returns the ruling with its explanation and what each side may still "
                   "call. Touches no stored data. Narrator throws left out of a static challenge or simple "
                   "test are drawn at random and shown in the ruling's tests.",
    "requestBody": json_request({"$ref": "#/components/schemas/Challenge"}),
    "responses": {"200": {"description": "The ruling and the options after it, always the same two fields: while "
                                         "a test is due `ruling.outcome` is null and `options.state` says which.",
                          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChallengeAnswer"}}}}},
})
def rule_stateless():
    """Rule on the challenge in the body (met-reference 1-3, 6.1; seed 002), writing nothing: the
    same rules core entry point as the stored flow (:func:`larp.rules.rulings.rule_one_on_one`)."""
    data = json_body()
    settings = request_settings(data)
    night = request_night(data)
    one, scene = one_on_one_from_dict(data)
    rng = current_app.config["RANDOM_SOURCE"]()
    rule = rule_one_on_one if one.kind is Kind.CONTESTED else rule_static
    result = rule(one, scene, settings, rng, night=night)
    return jsonify(challenge_answer(result))


@api_route("post", "/challenges", {
    "summary": "Run a challenge between stored characters (stateful)",
    "description": "Builds the challenge from what the chronicle knows about the characters tonight (Traits "
                   "left, wound level, powers, Ability levels and Willpower left, darkness reductions), rules "
                   "on the given tests, applies the ruling (Traits lost, Abilities expended, Willpower, damage) "
                   "and records it, in one transaction.",
    "requestBody": json_request({"$ref": "#/components/schemas/StoredChallenge"}),
    "responses": {
        "201": {"description": "Applied and recorded.", "content": {"application/json": {"schema": {
            **shape({"ruling_id": INT, "ruling": ref("Ruling"),
                     "characters": by_name(shape({"id": INT, "name": STR, "level": STR, "health": ref("TrackState"),
                                                  "traits_left": COUNTS, "willpower": INT}),
                                           "By side (challenger, defender): the character after the ruling."),
                     "options": {**ref("ChallengeOptions"),
                                 "description": "What each side could still have called after the tests sent "
                                                "(retests it can pay for, overbids with the Traits it may risk, the "
                                                "Abilities that suit a retest), as the screen offers it; the "
                                                "challenge is recorded as it stands (state \"ruled\")."}})}}}},
        "404": {"description": "Unknown character.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        "409": {"description": "A bid Trait is no longer available, no game session is open, or a character changed meanwhile.",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
    },
})
def run_stateful():
    """Apply a challenge between stored characters and record it (002 "Challenges", "Ties")."""
    chronicle = get_chronicle()
    request = request_from_json(json_body())
    result = run_challenge(chronicle, g.user, request, current_app.config["RANDOM_SOURCE"]())
    characters = characters_after(result)
    return jsonify(ruling_id=result.record.id, ruling=result.record.outcome, characters=characters,
                   options=challenge_answer(result.result)["options"]), 201
