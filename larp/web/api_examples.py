"""A worked example for every operation of the JSON API, in its OpenAPI document (issue 28).

Each example is a call that succeeds on the demo chronicle after ``larp demo-downtime`` (a fresh
install: Vivienne Ashcombe is character 1, Konrad Vale 2, Lys Moreau 3, Teodor Brandt 4, Ines
Castellano 5, Aldous Whitmore 6, Pim Halloran 7, Marcus Hale 8, Ruth Calder 9, Sister Agathe 10),
made by an organiser's token; a date in an example stands for the day it is sent, and the key
``order-0001`` is one the same account sent before (``Idempotency-Key``). ``path`` gives the path
parameters, ``query`` the query, ``body`` the JSON body, and ``after`` the examples it follows (the
restore of a character retired by the retire example). The test suite sends every example and
requires its success (tests/web/test_api_fuzz.py), so none goes stale unnoticed.

:func:`with_examples` puts them into the document: a body's ``example`` and each path and query
parameter's ``example``.
"""

from __future__ import annotations

import copy
from typing import Any

#: The stateless mass challenge of met-reference T8: four attackers on Dana, who bids four Traits.
_T8 = {
    "defender": {"name": "Dana", "traits": 7, "bid": ["Quick", "Wiry", "Tough", "Brawny"], "throw": "scissors",
                 "attack": {"action": "strike"}},
    "attackers": [{"name": f"A{i}", "traits": 7, "bid": ["Brawny"], "throw": t}
                  for i, t in enumerate(("rock", "scissors", "paper", "paper"), 1)],
}

#: (path, method) to the example call: ``path`` parameters, ``query``, ``body``.
EXAMPLES: dict[tuple[str, str], dict[str, Any]] = {
    ("/blood", "post"): {"body": {"name": "Anselm", "track": {"lethal": 3}, "blood": 0, "reason": "rising"}},
    ("/board", "get"): {},
    ("/challenges", "post"): {"body": {
        "category": "physical", "defender_action": "strike",
        "challenger": {"character_id": 1, "bid": "Quick"}, "defender": {"character_id": 2, "bid": "Brawny"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]}},
    ("/challenges/rule", "post"): {"body": {
        "category": "physical", "defender_action": "strike",
        "challenger": {"name": "Favian", "traits": 6, "bid": ["Quick"]},
        "defender": {"name": "Dana", "held": ["Brawny", "Quick", "Tough", "Tough", "Wiry"], "bid": ["Brawny"]},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]}},
    ("/characters", "get"): {"query": {"q": "Vale"}},
    ("/characters", "post"): {"body": {"name": "Selene Marsh", "creature": "vampire", "clan": "Toreador",
                                       "generation": 12}},
    ("/characters/{character_id}", "get"): {"path": {"character_id": 2}},
    ("/characters/{character_id}", "patch"): {"path": {"character_id": 2},
                                              "body": {"narrator_notes": "Seen at the docks."}},
    ("/characters/{character_id}/blood", "post"): {"path": {"character_id": 2}, "body": {"blood": 1, "reason": "rising"}},
    ("/characters/{character_id}/card", "get"): {"path": {"character_id": 2}},
    ("/characters/{character_id}/card/revoke", "post"): {"path": {"character_id": 2}, "body": {}},
    ("/characters/{character_id}/card/rotate", "post"): {"path": {"character_id": 2}, "body": {}},
    ("/characters/{character_id}/copy", "post"): {"path": {"character_id": 2},
                                                  "body": {"name": "Thug", "count": 2, "scene_extra": True}},
    ("/characters/{character_id}/damage", "post"): {"path": {"character_id": 2},
                                                    "body": {"damage_type": "lethal", "levels": 2}},
    ("/characters/{character_id}/destroy", "post"): {"path": {"character_id": 9}, "body": {"means": "massive_trauma"}},
    ("/characters/{character_id}/feed", "post"): {"path": {"character_id": 5}, "body": {"blood": 3}},
    # Konrad's pool starts full (the demo's), and a vampire drinks no more than it holds: he calls for blood first.
    ("/characters/{character_id}/feed-on", "post"): {"path": {"character_id": 2}, "body": {"victim": 9, "blood": 1},
                                                     "after": [("/characters/{character_id}/blood", "post")]},
    ("/characters/{character_id}/heal", "post"): {"path": {"character_id": 6}, "body": {"kind": "aggravated", "levels": 1}},
    ("/characters/{character_id}/healing-nights", "post"): {"path": {"character_id": 6}, "body": {"levels": 1}},
    ("/characters/{character_id}/restore", "post"): {"path": {"character_id": 4}, "body": {},
                                                     "after": [("/characters/{character_id}/retire", "post")]},
    ("/characters/{character_id}/retire", "post"): {"path": {"character_id": 4}, "body": {}},
    ("/characters/{character_id}/torpor", "post"): {"path": {"character_id": 4},
                                                    "body": {"cause": "voluntary", "on": "2026-12-04"}},
    ("/characters/{character_id}/treated", "post"): {"path": {"character_id": 8}, "body": {"treated": True}},
    ("/characters/{character_id}/wake", "post"): {"path": {"character_id": 7}, "body": {
        "first_night": "2026-12-04", "player_throw": "rock", "narrator_throw": "scissors"}},
    ("/chronicles", "get"): {},
    ("/damage", "post"): {"body": {"name": "Dana", "track": {"creature": "vampire"},
                                   "damage": {"damage_type": "lethal", "levels": 3}, "fortitude": 1}},
    ("/feeding", "post"): {"body": {"drinker": {"name": "Anselm", "blood": 3, "blood_max": 10},
                                    "victim": {"name": "Walter", "track": {"creature": "mortal"}}, "blood": 3}},
    ("/firing-into-groups", "post"): {"body": {
        "firer": {"character_id": 9, "weapon": "pistol"}, "target_id": 2,
        "bystanders": [{"character_id": 3, "throw": "scissors", "firer_throw": "rock"}]}},
    ("/firing-into-groups/rule", "post"): {"body": {
        "firer": {"name": "Shooter", "traits": 8, "bid": ["Steady", "Quick", "Alert"]}, "weapon": "shotgun",
        "target": "Konrad", "firer_throw": "rock", "range": "far",
        "bystanders": [{"name": n, "traits": 5, "bid": ["Quick"], "throw": t}
                       for n, t in (("A", "scissors"), ("B", "scissors"), ("C", "paper"))]}},
    ("/game-sessions", "get"): {},
    ("/game-sessions", "post"): {"body": {"date": "2026-12-04", "closing": 2}},
    ("/healing", "post"): {"body": {"name": "Dana", "track": {"bashing": 2}, "kind": "bashing", "levels": 2,
                                    "blood": 5}},
    ("/mass-challenges", "post"): {"body": {
        "target": {"character_id": 2, "throw": "scissors"},
        "attackers": [{"character_id": 4, "throw": "rock", "weapon": "knife"}, {"character_id": 3, "throw": "rock"}]}},
    ("/mass-challenges/rule", "post"): {"body": _T8},
    ("/rulings", "get"): {"query": {"character_id": 2, "limit": 10}},
    ("/rulings/by-token/{token}", "get"): {"path": {"token": "order-0001"}},
    ("/rulings/{ruling_id}", "get"): {"path": {"ruling_id": 1}},
    ("/rulings/{ruling_id}/undo", "post"): {"path": {"ruling_id": 8}, "body": {}},
    ("/webhooks", "get"): {},
    ("/webhooks", "post"): {"body": {"name": "Staff channel", "url": "https://discord.com/api/webhooks/123/abc",
                                     "events": ["ruling_recorded", "final_death"], "privacy": "staff"}},
    ("/scenes", "get"): {"after": [("/scenes", "post")]},
    ("/scenes", "post"): {"body": {"name": "Main hall"}},
    ("/characters/{character_id}/virtue-test", "post"): {"path": {"character_id": 2}, "body": {
        "virtue": "courage", "stimulus": "lighter", "throw": "rock", "narrator_throw": "scissors"}},
    ("/turn-order", "post"): {"body": {"participants": [
        {"name": "Dana", "traits": 9, "celerity": 1, "target": "Ferris"},
        {"name": "Ferris", "traits": 11, "target": "Dana", "simultaneous": False},
        {"name": "Gil", "traits": 7}]}},
    ("/scenes/{scene_id}/next-turn", "post"): {"path": {"scene_id": 1}, "body": {"turn": 1},
                                               "after": [("/scenes", "post")]},
    ("/webhooks/{webhook_id}", "get"): {"path": {"webhook_id": 1}, "after": [("/webhooks", "post")]},
    ("/webhooks/{webhook_id}", "patch"): {"path": {"webhook_id": 1}, "body": {"enabled": False},
                                          "after": [("/webhooks", "post")]},
    ("/webhooks/{webhook_id}", "delete"): {"path": {"webhook_id": 1}, "after": [("/webhooks", "post")]},
    ("/webhooks/{webhook_id}/secret", "post"): {"path": {"webhook_id": 1}, "body": {},
                                                "after": [("/webhooks", "post")]},
    ("/webhooks/{webhook_id}/test", "post"): {"path": {"webhook_id": 1}, "body": {},
                                              "after": [("/webhooks", "post")]},
    ("/check-ins", "get"): {},
    ("/check-ins", "post"): {"body": {"character_id": 2}},
    ("/check-ins/{character_id}/undo", "post"): {"path": {"character_id": 2}, "body": {},
                                                 "after": [("/check-ins", "post")]},
    ("/game-sessions/{number}/attendance", "get"): {"path": {"number": 2}},
    ("/game-sessions/{number}/attendance", "post"): {"path": {"number": 2}, "body": {},
                                                     "after": [("/check-ins", "post")]},
    ("/my/characters", "get"): {},  # issue 33: the caller's own characters (an organiser's token: none)
    # Issue 33 item 2: Konrad Vale (2) checked in and given attendance experience (1), then a Physical
    # Trait (1) written down for his player by the organiser; request 1 is that one.
    ("/spend-requests", "get"): {"query": {"state": "asked"}},
    ("/spend-requests/price", "post"): {"body": {"character_id": 2, "kind": "willpower"}},
    ("/spend-requests", "post"): {"body": {"character_id": 2, "kind": "trait", "category": "physical",
                                           "name": "Quick", "note": "After the chase", "for_player": "Ann"},
                                  "after": [("/game-sessions/{number}/attendance", "post")]},
    ("/spend-requests/{request_id}", "get"): {"path": {"request_id": 1}, "after": [("/spend-requests", "post")]},
    ("/spend-requests/{request_id}/approve", "post"): {"path": {"request_id": 1}, "body": {},
                                                       "after": [("/spend-requests", "post")]},
    ("/spend-requests/{request_id}/refuse", "post"): {"path": {"request_id": 1}, "body": {"reason": "Not yet."},
                                                      "after": [("/spend-requests", "post")]},
    ("/spend-requests/{request_id}/change", "post"): {"path": {"request_id": 1}, "body": {"reason": "Which one?"},
                                                      "after": [("/spend-requests", "post")]},
    ("/spend-requests/{request_id}/undo", "post"): {"path": {"request_id": 1}, "body": {},
                                                    "after": [("/spend-requests/{request_id}/approve", "post")]},
    ("/spend-requests/{request_id}/withdraw", "post"): {"path": {"request_id": 1}, "body": {},
                                                        "after": [("/spend-requests", "post")]},
    ("/tabletop/attack", "post"): None,  # documented inline (api_tabletop)
    ("/tabletop/ambush", "post"): None,
    ("/tabletop/initiative", "post"): None,
    ("/tabletop/roll", "post"): None,
    # Issue 33 item 3: between-game actions (the organiser's token enters one handed in late, then answers it).
    ("/between-game-actions", "get"): {"query": {"character_id": 2}},
    ("/between-game-actions", "post"): {"body": {"character_id": 2, "text": "Konrad watches the docks for the Sabbat pack."}},
    ("/between-game-actions/{action_id}/answer", "post"): {
        "path": {"action_id": 1}, "body": {"answer": "Their haven is under pier 9.", "version": 1},
        "after": [("/between-game-actions", "post")]},
}


def example_call(document: dict[str, Any], path: str, method: str) -> dict[str, Any]:
    """The documented example of an operation of ``document`` (as :func:`with_examples` put it there):
    ``path`` parameters, ``query``, ``body`` (``None`` when it takes none) and the operations whose
    examples come first (``after``)."""
    operation = document["paths"][path][method]
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    call: dict[str, Any] = {"path": {}, "query": {}, "body": copy.deepcopy(content.get("example")),
                            "after": list((EXAMPLES.get((path, method)) or {}).get("after", []))}
    for parameter in operation.get("parameters", []):
        if "example" in parameter:
            call["path" if parameter.get("in") == "path" else "query"][parameter["name"]] = parameter["example"]
    return call


def with_examples(paths: dict[str, dict[str, dict[str, Any]]]) -> dict[str, dict[str, dict[str, Any]]]:
    """``paths`` (the document's operations) with each one's example (:data:`EXAMPLES`): its body's
    ``example``, and the ``example`` of each of its path and query parameters. An operation listed
    as ``None`` keeps the example it documents itself."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for path, ops in paths.items():
        out[path] = {}
        for method, op in ops.items():
            example = EXAMPLES.get((path, method))
            if not example:
                out[path][method] = op
                continue
            op = dict(op)
            values = {**example.get("path", {}), **example.get("query", {})}
            if values:
                op["parameters"] = [dict(p, example=values[p["name"]]) if p.get("name") in values else p
                                    for p in op.get("parameters", [])]
            if "body" in example and "requestBody" in op:
                body = copy.deepcopy(op["requestBody"])
                content = body.setdefault("content", {}).setdefault("application/json", {})
                content["example"] = copy.deepcopy(example["body"])
                op["requestBody"] = body
            out[path][method] = op
    return out
