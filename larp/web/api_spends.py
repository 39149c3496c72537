"""Experience spends with approval in the JSON API (issue 33 items 2 and 6).

Organisers list every request, approve, refuse, ask for a change and undo an approval; a player's
token (or a narrator who plays) sees, prices, asks and withdraws only for the characters linked to him
(anything else answers 404, saying nothing of whether it exists). Every call goes through the very
service functions the queue's and the player's forms call (:mod:`larp.services.spend_requests`), so
the same prices, refusals and locks apply; two approvals of the same request at once spend once (the
second answers 409).
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import g, jsonify, request

from larp.i18n import said_if_phrase, steps_for_reader
from larp.models import SpendRequest
from larp.rules.experience import points_text
from larp.rules.experience_purchase import KINDS, RITUAL_TIERS, Pricing
from larp.rules.explain import N_, Phrase
from larp.services import spend_requests as spends
from larp.services.chronicles import get_chronicle
from larp.services.players import characters_of_player
from larp.rules.challenge.types import Category
from larp.sheet_entries import CATEGORIES
from larp.web import inputs
from larp.web.inputs import enum_schema
from larp.web.api import PLAYER_ENDPOINTS, SCHEMAS, ApiError, json_body
from larp.web.api_routes import api_route, json_request
from larp.web.api_responses import INT, NO_BODY, NULL_INT, NULL_STR, STR, ref, shape

_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
#: The fields of what is asked (:class:`larp.rules.experience_purchase.PurchaseRequest`).
_WANTED = {
    "kind": {"type": "string", "enum": list(KINDS), "description": "What is bought: " + "; ".join(
        f"{k}: {v}" for k, v in KINDS.items()) + "."},
    "name": {"type": "string", "maxLength": 160, "description": "The Trait, Ability, Background, Merit, Flaw, "
             "Negative Trait, Derangement or Ritual; a power (a path's as \"Path of Blood: Blood Rage\")."},
    "category": {**enum_schema(Category, only=CATEGORIES, blank=True),
                 "description": "A Trait's or a Negative Trait's category."},
    "discipline": {"type": "string", "maxLength": 160, "description": "A power's or a Ritual's Discipline."},
    "level": {"type": ["integer", "null"], "minimum": 0, "maximum": 9,
              "description": "A power's level when it is not in data/disciplines.toml (6 Elder to 9 Methuselah)."},
    "tier": {"type": "string", "enum": ["", *RITUAL_TIERS], "description": "A Ritual's tier."},
    "traits": {"type": ["integer", "null"], "minimum": 0, "maximum": 9, "description": "A Merit's cost in Traits."},
    "key": {"type": "string", "maxLength": 160, "description": "A Merit's id in data/merits_flaws.toml."},
}
_REASON = {"type": "object", "additionalProperties": False, "required": ["reason"],
           "properties": {"reason": {"type": "string", "minLength": 1, "maxLength": spends.NOTE_MAX,
                                     "description": "What the player reads."}}}
SCHEMAS.update({
    "SpendRequest": shape({"id": INT, "character": shape({"id": INT, "name": STR}),
                           "request": {"type": "object", "additionalProperties": True}, "what": STR, "cost": STR,
                           "note": STR, "state": {"type": "string", "enum": list(SpendRequest.STATES)},
                           "answer": STR, "asked_by": STR, "answered_by": STR, "asked_at": NULL_STR,
                           "answered_at": NULL_STR, "ruling": NULL_INT, "undo_ruling": NULL_INT}),
    "SpendPrice": shape({"what": STR, "cost": STR, "unspent": STR, "unspent_after": STR, "allowed": {"type": "boolean"},
                         "in_clan": {"type": ["boolean", "null"]}, "settings": {"type": "array", "items": STR},
                         "refusals": {"type": "array", "items": shape({"code": STR, "text": STR})},
                         "steps": {"type": "array", "items": ref("Step")}}),
})
_NOT_HIS = {"description": "No such character, or (a player) not one of his.", **_ERROR}
_ONE = {"content": {"application/json": {"schema": ref("SpendRequest")}}}


def _price_json(priced: Pricing) -> dict[str, Any]:
    return {"what": said_if_phrase(priced.what), "cost": points_text(priced.cost),
            "unspent": points_text(priced.unspent), "unspent_after": points_text(priced.unspent_after),
            "allowed": priced.allowed, "in_clan": priced.in_clan, "settings": list(priced.cost_setting),
            "refusals": [{"code": r.code, "text": said_if_phrase(r.text)} for r in priced.refusals],
            "steps": steps_for_reader(priced.steps)}


def _organiser() -> None:
    if g.user.role != "organiser":
        raise ApiError(Phrase.message(N_("Only organisers answer requests to spend experience.")), None, 403)


def _wanted(data: Mapping[str, Any]) -> dict[str, Any]:
    return {key: data.get(key) for key in _WANTED}


@api_route("get", "/spend-requests", {
    "summary": "Requests to spend experience: an organiser's every one; a player's only his characters'",
    "description": "Oldest first. `state` filters (default: every state); `character_id` one character's.",
    "parameters": [{"name": "state", "in": "query", "required": False,
                    "schema": {"type": "string", "enum": list(SpendRequest.STATES)}},
                   {"name": "character_id", "in": "query", "required": False, "schema": {"type": "integer"}}],
    "responses": {"200": {"description": "The requests.", "content": {"application/json": {"schema": shape({
        "requests": {"type": "array", "items": ref("SpendRequest")}, "waiting": INT})}}},
        "403": {"description": "A narrator (who plays no character).", **_ERROR}},
})
def list_spends_api():
    """Requests to spend experience (:mod:`larp.services.spend_requests`)."""
    chronicle = get_chronicle()
    state = request.args.get("state")
    if state is not None and state not in SpendRequest.STATES:
        raise ApiError(Phrase.message(N_("`state` is one of %(names)s."),
                                      names=', '.join(SpendRequest.STATES)), "state", 422)
    query = SpendRequest.select().where(SpendRequest.chronicle == chronicle)
    if g.user.role != "organiser":
        query = query.where(SpendRequest.character.in_([c.id for c in characters_of_player(g.user)]))
    if state:
        query = query.where(SpendRequest.state == state)
    if request.args.get("character_id") is not None:
        query = query.where(SpendRequest.character == inputs.picked(request.args))
    rows = list(query.order_by(SpendRequest.asked_at, SpendRequest.id).limit(500))
    return jsonify(requests=[spends.request_json(s) for s in rows],
                   waiting=sum(1 for s in rows if s.state == "asked"))


@api_route("post", "/spend-requests/price", {
    "x-records-nothing": True,
    "summary": "The cost of a purchase and the unspent total after it, before asking (nothing stored)",
    "requestBody": json_request({
        "type": "object", "additionalProperties": False, "required": ["character_id", "kind"],
        "properties": {"character_id": INT, **_WANTED}}),
    "responses": {"200": {"description": "The price, with any refusal and why.",
                          "content": {"application/json": {"schema": ref("SpendPrice")}}},
                  "404": _NOT_HIS},
})
def price_spend_api():
    """Price a purchase (:func:`larp.services.spend_requests.price`)."""
    data = json_body()
    chronicle = get_chronicle()
    character = spends.visible_character(chronicle, g.user, inputs.picked(data, json=True))
    return jsonify(_price_json(spends.price(chronicle, character, spends.read_request(_wanted(data)))))


@api_route("post", "/spend-requests", {
    "summary": "Ask to spend experience (a player for his own characters; an organiser for any)",
    "description": "Refused at once with why (422, nothing stored) when the character cannot afford it or a "
                   "prerequisite is missing. `for_player` (organisers only): the name of a player without an "
                   "account who asked at the table; the request is then his, not the organiser's.",
    "requestBody": json_request({
        "type": "object", "additionalProperties": False, "required": ["character_id", "kind"],
        "properties": {"character_id": INT, **_WANTED,
                       "note": {"type": "string", "maxLength": spends.NOTE_MAX},
                       "for_player": {"type": "string", "maxLength": 120}}}),
    "responses": {"201": {"description": "Asked.", "content": {"application/json": {"schema": shape({
        "request": ref("SpendRequest"), "price": ref("SpendPrice")})}}},
                  "404": _NOT_HIS},
})
def ask_spend_api():
    """Ask (:func:`larp.services.spend_requests.ask_spend`)."""
    data = json_body()
    for_player = data.get("for_player")
    if for_player not in (None, "") and g.user.role != "organiser":
        raise ApiError(Phrase.message(N_("Only an organiser writes down a request for a player.")), "for_player", 403)
    spend, priced = spends.ask_spend(get_chronicle(), g.user,
                                     inputs.picked(data, json=True),
                                     _wanted(data), data.get("note"), for_player=for_player)
    return jsonify(request=spends.request_json(spend), price=_price_json(priced)), 201


@api_route("get", "/spend-requests/<int:request_id>", {
    "summary": "One request to spend experience (a player: only his characters')",
    "responses": {"200": {"description": "The request.", **_ONE}},
})
def get_spend_api(request_id: int):
    """One request (:func:`larp.services.spend_requests.get_request`)."""
    return jsonify(spends.request_json(spends.get_request(get_chronicle(), request_id, g.user)))


def _answer(action, request_id: int, *args):
    return jsonify(spends.request_json(action(get_chronicle(), g.user, request_id, *args)))


@api_route("post", "/spend-requests/<int:request_id>/approve", {
    "x-records-ruling": True,
    "summary": "Approve: the sheet changes and the experience is spent, in one transaction (organisers)",
    "description": "Recorded as one ruling of kind \"sheet\" (History, the Experience log, a new edition of the "
                   "printed sheet); the webhook event experience_approved is sent. Nobody approves his own "
                   "request (403). Two approvals at once: one spends, the other answers 409.",
    "requestBody": NO_BODY,
    "responses": {"200": {"description": "Approved.", **_ONE},
                  "403": {"description": "Not an organiser, or his own request.", **_ERROR},
                  "409": {"description": "No longer asked, or the rules refuse it now (why).", **_ERROR}},
})
def approve_spend_api(request_id: int):
    """Approve (:func:`larp.services.spend_requests.approve_request`)."""
    _organiser()
    json_body()
    return _answer(spends.approve_request, request_id)


def _answered_with_reason(summary: str, done: str) -> dict[str, Any]:
    """The OpenAPI operation of an organiser's answer that carries a reason the player reads (refuse, ask for a
    change): ``summary``, and ``done`` the description of its 200 answer."""
    return {"x-records-nothing": True, "summary": summary,
            "requestBody": json_request(_REASON),
            "responses": {"200": {"description": done, **_ONE}, "409": {"description": "No longer asked.", **_ERROR}}}


@api_route("post", "/spend-requests/<int:request_id>/refuse",
           _answered_with_reason("Refuse with a reason the player reads (organisers)", "Refused."))
def refuse_spend_api(request_id: int):
    """Refuse (:func:`larp.services.spend_requests.answer_request`)."""
    _organiser()
    return _answer(spends.answer_request, request_id, "refused", json_body().get("reason"))


@api_route("post", "/spend-requests/<int:request_id>/change",
           _answered_with_reason("Ask the player for a change, saying what (organisers)", "Change asked."))
def change_spend_api(request_id: int):
    """Ask for a change (:func:`larp.services.spend_requests.answer_request`)."""
    _organiser()
    return _answer(spends.answer_request, request_id, "change_asked", json_body().get("reason"))


@api_route("post", "/spend-requests/<int:request_id>/undo", {
    "x-records-ruling": True,
    "summary": "Undo an approval: the sheet back and the experience refunded (organisers)",
    "description": "Refused (409) with why while a purchase approved after it needs it, or when the sheet changed "
                   "since in what the approval wrote.",
    "requestBody": NO_BODY,
    "responses": {"200": {"description": "Undone.", **_ONE},
                  "409": {"description": "Not approved, needed by a later purchase, or the sheet changed.", **_ERROR}},
})
def undo_spend_api(request_id: int):
    """Undo an approval (:func:`larp.services.spend_requests.undo_approval`)."""
    _organiser()
    json_body()
    return _answer(spends.undo_approval, request_id)


@api_route("post", "/spend-requests/<int:request_id>/withdraw", {
    "x-records-nothing": True,
    "summary": "Withdraw a request while it waits (the player who asked, or an organiser)",
    "requestBody": NO_BODY,
    "responses": {"200": {"description": "Withdrawn.", **_ONE},
                  "409": {"description": "Already answered.", **_ERROR}},
})
def withdraw_spend_api(request_id: int):
    """Withdraw (:func:`larp.services.spend_requests.withdraw_request`)."""
    json_body()
    return _answer(spends.withdraw_request, request_id)


#: A player's token reaches these (each answers only for his own characters).
PLAYER_ENDPOINTS.update({"api.list_spends_api", "api.price_spend_api", "api.ask_spend_api", "api.get_spend_api",
                         "api.withdraw_spend_api"})
