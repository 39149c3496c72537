"""Schema truth (issue 21): the OpenAPI document's request schemas name exactly the fields the
parsers read, so the hand-written document cannot drift from the code.

Each documented body is sent through the real endpoint with its JSON objects wrapped so that every
key a parser asks for (``get``, ``[]``, ``in``, ``pop``) is noted, whether or not the body holds it.
Then, for every object of the body, the keys read must be documented properties of its schema
(nothing read that the document does not name), and every documented property must have been read
(nothing documented that no parser reads), unless the parser went through the object as a whole
(a copy: its keys are read from the copy, which this cannot follow).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from larp.web import api as api_module
from larp.web import (api_between, api_challenges, api_characters, api_combat, api_health, api_record,  # noqa: F401
                      api_tabletop)
from larp.web import api_webhooks  # noqa: F401 - issue 35
from larp.web import api_checkin  # noqa: F401 - issue 32
from larp.web import api_scenes  # noqa: F401 - issue 30 item 4
from larp.web import api_frenzy  # noqa: F401 - issue 30 item 8
from larp.web import api_spends  # noqa: F401 - issue 33 item 2
from larp.web import api_between_game_actions  # noqa: F401 - issue 33 item 3
from larp.web.api import openapi_document
from tests.web.test_api_settings_flag import CASES

MODULES = (api_between, api_challenges, api_characters, api_combat, api_health, api_record, api_tabletop,
           api_webhooks, api_checkin, api_scenes, api_frenzy, api_spends,
           api_between_game_actions)


class Reading(dict):
    """A JSON object that notes every key a parser asks it for, at its place in the body."""

    def __init__(self, data: dict, path: tuple, log: set):
        super().__init__({k: wrap(v, path + (k,), log) for k, v in data.items()})
        self._path, self._log = path, log

    def _note(self, key):
        self._log.add((self._path, key))

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self._note(key)
        return super().__contains__(key)

    def pop(self, key, *default):
        self._note(key)
        return super().pop(key, *default)

    # Going through every key (a copy, a check for unknown fields, storing the inputs) reads no
    # key in particular: the object is marked, and only the first direction is checked for it.
    def _whole(self):
        self._log.add((self._path, ITERATED))

    def items(self):
        self._whole()
        return super().items()

    def keys(self):
        self._whole()
        return super().keys()

    def values(self):
        self._whole()
        return super().values()

    def __iter__(self):
        self._whole()
        return super().__iter__()


#: The note of an object gone through as a whole.
ITERATED = object()


def wrap(value: Any, path: tuple, log: set) -> Any:
    if isinstance(value, dict):
        return Reading(value, path, log)
    if isinstance(value, list):
        return [wrap(v, path + ("[]",), log) for v in value]
    return value


def resolve(schema: dict, schemas: dict) -> dict:
    """``schema`` with its $ref followed and allOf/oneOf objects merged."""
    if "$ref" in schema:
        return resolve(schemas[schema["$ref"].rsplit("/", 1)[-1]], schemas)
    merged = dict(schema)
    for part in schema.get("allOf", []) + [s for s in schema.get("oneOf", []) if s.get("type") != "null"]:
        part = resolve(part, schemas)
        merged["properties"] = {**merged.get("properties", {}), **part.get("properties", {})}
        if part.get("additionalProperties"):
            merged["additionalProperties"] = part["additionalProperties"]
    return merged


def schema_at(root: dict, path: tuple, schemas: dict) -> dict | None:
    """The schema of the body's object at ``path`` (None: undocumented)."""
    node = resolve(root, schemas)
    for step in path:
        if step == "[]":
            node = node.get("items")
        elif step in node.get("properties", {}):
            node = node["properties"][step]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return None
        if node is None:
            return None
        node = resolve(node, schemas)
    return node


def objects_in(value: Any, path: tuple = ()) -> list[tuple]:
    """The path of every JSON object in a body."""
    found = [path] if isinstance(value, dict) else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += objects_in(item, path + (key,))
    elif isinstance(value, list):
        for item in value:
            found += objects_in(item, path + ("[]",))
    return found


STORED = {"category": "physical", "defender_action": "strike",
          "challenger": {"bid": "Quick"}, "defender": {"bid": "Brawny"},
          "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]}

#: Operation (path, method) to the bodies sent for it (the stateless ones: tests/web/test_api_settings_flag.py).
BODIES: dict[tuple[str, str], list[dict]] = {(path, "post"): [body] for path, (body, _) in CASES.items()}
BODIES.update({
    ("/challenges", "post"): [STORED, {**STORED, "challenger": {"bid": "Quick", "armor": "chain", "armor_left": 1},
                                       "defender": {"bid": "Brawny", "armor": "chain", "armor_left": 1}},
                              {"kind": "static", "category": "mental", "difficulty": 5, "challenger": {"bid": "Clever"},
                               "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]}],
    ("/characters", "post"): [{"name": "Schema Truth", "creature": "mortal"}],
    ("/characters/{character_id}/damage", "post"): [{"damage_type": "lethal", "levels": 1}, {  # the tests asked for
        "damage_type": "aggravated", "levels": 1, "resistance": True, "resistance_player": "rock",
        "resistance_narrator": "paper", "resilience": True, "resilience_player": "rock", "resilience_narrator": "paper",
        "armor": "chain", "armor_left": 1}],
    ("/characters/{character_id}/heal", "post"): [{"kind": "bashing", "levels": 1}],
    ("/characters/{character_id}/blood", "post"): [{"blood": 1, "reason": "rising"}],
    ("/characters/{character_id}/destroy", "post"): [{"means": "beheading"}],
    ("/tabletop/attack", "post"): [CASES["/tabletop/attack"][0], {  # issue 37: circumstances and defense too
        **CASES["/tabletop/attack"][0], "circumstances": {"range": "short"},
        "defense": {"maneuver": "dodge", "actions": {}}, "dice": {}}],
    ("/characters/{character_id}/treated", "post"): [{"treated": True}],
    ("/game-sessions", "post"): [{"date": "2099-01-01", "closing": 1}],
    ("/characters/{character_id}/torpor", "post"): [{"cause": "voluntary", "on": "2026-01-01"}],
    ("/characters/{character_id}/wake", "post"): [{"first_night": "2026-01-01", "last_night": "2026-01-01",
                                                   "player_throw": "rock", "narrator_throw": "rock", "dice": [3]}],
    ("/characters/{character_id}/feed", "post"): [{"blood": 1}],
    ("/characters/{character_id}/feed-on", "post"): [{"victim": 1, "blood": 1}],
    ("/characters/{character_id}/healing-nights", "post"): [{"levels": 1, "medical_care": True}],
    ("/scenes", "post"): [{"name": "Schema truth"}],
    ("/characters/{character_id}/virtue-test", "post"): [{"virtue": "self_control", "stimulus": 3}],
    ("/turn-order", "post"): [{"participants": [{"name": "Dana", "traits": 9, "celerity": 1, "target": "Ferris",
                                                 "surprised": False, "simultaneous": False},
                                                {"name": "Ferris", "traits": 11}]}],
    ("/scenes/{scene_id}/next-turn", "post"): [{"turn": 1}],
    ("/webhooks", "post"): [{"name": "Schema truth", "url": "https://example.org/hook", "events": ["final_death"],
                             "privacy": "public", "format": "json", "local_network": False}],
    ("/check-ins", "post"): [{"character_id": 2, "game_session": 1}, {"card": "GX3UT8"}],  # issue 32
    ("/check-ins/{character_id}/undo", "post"): [{"game_session": 1}],
    ("/spend-requests", "post"): [{"character_id": 2, "kind": "trait", "category": "physical", "name": "Quick",  # issue 33
                                   "discipline": "", "level": None, "tier": "", "traits": None, "key": "",
                                   "note": "", "for_player": "Ann"}],
    ("/spend-requests/price", "post"): [{"character_id": 2, "kind": "willpower", "name": "", "category": "",
                                         "discipline": "", "level": None, "tier": "", "traits": None, "key": ""}],
    ("/between-game-actions", "post"): [{"character_id": 2, "text": "Schema truth"}],  # issue 33 item 3
    ("/between-game-actions/{action_id}/answer", "post"): [{"answer": "Schema truth", "version": 1}],
})


def test_every_documented_body_is_checked():
    """Every operation whose documented body names its fields is sent above (a new endpoint must be too)."""
    document = openapi_document()
    schemas = document["components"]["schemas"]
    with_fields = set()
    for path, ops in document["paths"].items():
        for method, op in ops.items():
            schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if schema and resolve(schema, schemas).get("properties"):
                with_fields.add((path, method))
    assert with_fields - set(BODIES) == NOT_SENT


#: Bodies this check does not send, and why.
NOT_SENT = {
    ("/characters/{character_id}", "patch"),  # the sheet editor's own checks (tests/web/test_api_characters.py)
    ("/characters/{character_id}/copy", "post"),
    ("/mass-challenges", "post"), ("/firing-into-groups", "post"),  # stored forms of the two stateless ones
    ("/webhooks/{webhook_id}", "patch"),  # a PATCH (this check posts): tests/web/test_webhooks.py sends it
    # issue 33: a request to answer must exist first; tests/web/test_spend_requests_api.py sends them
    ("/spend-requests/{request_id}/refuse", "post"), ("/spend-requests/{request_id}/change", "post"),
}


def _send(client, path: str, body: dict, ids: dict) -> None:
    if path == "/challenges":
        body = {**body, "challenger": {**body["challenger"], "character_id": ids["Vivienne"]}}
        if "defender" in body:
            body["defender"] = {**body["defender"], "character_id": ids["Konrad"]}
    who = ids["Marcus"] if path.endswith("treated") else ids["Konrad"]
    if "{scene_id}" in path:
        from larp.services.chronicles import get_chronicle
        from larp.services.stored_scenes import create_scene

        path = path.replace("{scene_id}", str(create_scene(get_chronicle(), "Truth").id))
    if path == "/between-game-actions":  # issue 33 item 3
        body = {**body, "character_id": ids["Konrad"]}
    if "{action_id}" in path:  # an action to answer (issue 33 item 3), entered by an organiser
        from larp.models import Character
        from larp.services.between_game_actions import write_action
        from larp.services.chronicles import get_chronicle

        action, _ = write_action(get_chronicle(), Character.get_by_id(ids["Konrad"]), None, "Truth", organiser=True)
        path = path.replace("{action_id}", str(action.id))
    client.post("/api/v1" + path.replace("{character_id}", str(who)), json=body)


@pytest.mark.parametrize("operation", sorted(BODIES), ids=lambda op: op[0])
def test_the_documented_body_is_what_the_parsers_read(operation, client, auth, dbconn, monkeypatch):
    """Issue 21, "Schema truth": keys read = documented properties, object by object."""
    from larp.models import Character

    auth.login("truth", "organiser")
    ids = {c.name.split()[0]: c.id for c in Character.select()}
    document = openapi_document()
    schemas = document["components"]["schemas"]
    path, method = operation
    root = document["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    log: set = set()
    original = api_module.json_body
    for module in MODULES:
        monkeypatch.setattr(module, "json_body", lambda: wrap(original(), (), log))
    read: dict[tuple, set] = {}
    bodies = BODIES[operation]
    for body in bodies:
        _send(client, path, body, ids)
    iterated = {where for where, key in log if key is ITERATED}
    for where, key in log:
        if key is not ITERATED:
            read.setdefault(where, set()).add(key)
    assert read or iterated, "the endpoint read nothing through json_body"
    problems = []
    for where in sorted({p for body in bodies for p in objects_in(body)} | set(read), key=len):
        schema = schema_at(root, where, schemas)
        if schema is None or not schema.get("properties") or schema.get("additionalProperties") not in (None, False):
            continue  # a map by name (sides, abilities) or an object the document leaves open
        documented, keys = set(schema["properties"]), read.get(where, set())
        if keys - documented:
            problems.append(f"{'.'.join(where) or 'body'}: read but not documented: {sorted(keys - documented)}")
        if documented - keys and where not in iterated:
            problems.append(f"{'.'.join(where) or 'body'}: documented but never read: {sorted(documented - keys)}")
    assert not problems, "\n".join(problems)


def _loose(schema: Any, where: str, schemas: dict, seen: set, found: list) -> None:
    """Collect the objects of a response schema that say nothing of their fields (a bare
    ``{"type": "object"}``): one left open on purpose says so with ``additionalProperties: true``."""
    if not isinstance(schema, dict):
        return
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            _loose(schemas[name], name, schemas, seen, found)
        return
    if schema.get("type") == "object" and not schema.get("properties") and "additionalProperties" not in schema:
        found.append(where)
    for name, sub in schema.get("properties", {}).items():
        _loose(sub, f"{where}.{name}", schemas, seen, found)
    if isinstance(schema.get("additionalProperties"), dict):
        _loose(schema["additionalProperties"], f"{where}{{}}", schemas, seen, found)
    _loose(schema.get("items"), f"{where}[]", schemas, seen, found)
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in schema.get(key, []):
            _loose(sub, where, schemas, seen, found)


def test_every_response_schema_names_its_fields():
    """Issue 21: the response check (tests/web/api_conformance.py) means something only if the document
    says what each answer holds: no response object is a bare {"type": "object"}; the few whose keys are
    the rules core's by kind of ruling (inputs, outcome, figures) say so with additionalProperties."""
    document = openapi_document()
    found: list[str] = []
    seen: set[str] = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                assert schema is not None, (method, path, status)
                _loose(schema, f"{method.upper()} {path} {status}", document["components"]["schemas"], seen, found)
    assert found == []


def test_the_response_check_catches_drift(client, auth):
    """Issue 21: every /api/v1 answer a test gets is checked against the document (ConformingClient); the
    check refuses an answer with a field the schema does not have, a missing field, and an undocumented
    status, and passes the real answer."""
    from tests.web.api_conformance import ResponseDrift, check_api_response

    auth.login("organiser1", "organiser")
    answer = client.get("/api/v1/game-sessions")
    assert answer.status_code == 200
    check_api_response("GET", "/api/v1/game-sessions", answer)
    body = answer.get_json()
    for wrong in ({**body, "extra": 1}, {}, {"game_sessions": [{**body["game_sessions"][0], "number": "one"}]}):
        answer.set_data(json.dumps(wrong))
        with pytest.raises(ResponseDrift):
            check_api_response("GET", "/api/v1/game-sessions", answer)
    answer.status_code = 418
    with pytest.raises(ResponseDrift, match="does not document"):
        check_api_response("GET", "/api/v1/game-sessions", answer)
