"""The chronicle's webhooks in the JSON API (issue 35; organisers only).

- ``GET /webhooks``, ``GET /webhooks/{id}``: each webhook with its URL masked (never whole) and how
  its deliveries stand;
- ``POST /webhooks`` (201): make one; the answer carries its signing secret, the only time it is shown;
- ``PATCH /webhooks/{id}``, ``DELETE /webhooks/{id}``, ``POST /webhooks/{id}/secret``: change,
  delete, new secret;
- ``POST /webhooks/{id}/test``: send a sample event now and answer what the receiver said.

Every change calls the settings page's service (:mod:`larp.services.webhooks`) and is recorded as
a ruling carrying the call's ``Idempotency-Key``: the same key again is a 409 naming that ruling.
"""

from __future__ import annotations

from flask import current_app, g, jsonify

from larp.services.chronicles import get_chronicle
from larp.services.records import current_submission
from larp.services.webhooks import (change_secret, create_webhook, delete_webhook, get_webhook, send_test,
                                    update_webhook, webhook_views)
from larp.web.api import SCHEMAS, json_body
from larp.web.api_routes import api_route, json_request
from larp.web.api_between import organisers_only
from larp.web.api_responses import BOOL, INT, NO_BODY, NULL_INT, NULL_STR, STR, ref, shape
from larp.web.webhooks import site_root
from larp.webhooks.kinds import EVENTS
from larp.webhooks.outbox import Policy

_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
_EVENTS = {"type": "array", "items": {"type": "string", "enum": list(EVENTS)},
           "description": "The events sent (a public webhook takes only final_death, game_session, check_in)."}
_PRIVACY = {"type": "string", "enum": ["staff", "public"],
            "description": "staff: everything but narrator notes and players' contact details; public: only what "
                           "a player could see of another character."}
_FORMAT = {"type": "string", "enum": ["auto", "discord", "json"],
           "description": "auto: Discord's message format for a Discord channel webhook's URL, else signed JSON."}
_FIELDS = {"name": {"type": "string", "minLength": 1, "maxLength": 60}, "url": {
    "type": "string", "description": "http(s). A secret: never shown whole again, never exported."},
    "events": _EVENTS, "privacy": _PRIVACY, "format": _FORMAT,
    "local_network": {"type": "boolean", "description": "Allow a loopback, private or link-local address (a bot on "
                                                        "the event's own network)."}}

SCHEMAS.update({
    "Webhook": shape({
        "id": INT, "name": STR, "url": {"type": "string", "description": "Masked: scheme, host, last four characters."},
        "format": _FORMAT, "sends_as": {"type": "string", "enum": ["discord", "json"]}, "privacy": _PRIVACY,
        "events": _EVENTS, "local_network": BOOL, "enabled": BOOL,
        "status": {"type": "string", "enum": ["ok", "waiting", "failing", "paused", "stopped"]},
        "stopped_reason": NULL_STR, "pending": INT, "failed": INT, "delivered": INT,
        "last_delivered_at": NULL_STR, "last_error": NULL_STR, "last_error_at": NULL_STR, "created_at": STR}),
    "WebhookTest": shape({
        "ok": BOOL, "status": NULL_INT, "reason": STR, "answer": {"type": "string", "description": "The start of "
                                                                  "what the receiver said."},
        "error": NULL_STR, "seconds": {"type": "number"}, "format": {"type": "string", "enum": ["discord", "json"]},
        "meaning": {"type": "string", "description": "What such an answer would mean for the events."}}),
})
_ONE = {"content": {"application/json": {"schema": shape({"webhook": ref("Webhook")}, {"ruling_id": NULL_INT})}}}
_WITH_SECRET = {"content": {"application/json": {"schema": shape({
    "webhook": ref("Webhook"), "ruling_id": INT,
    "secret": {"type": "string", "description": "The signing secret (X-Larp-Signature-256): shown this once."}})}}}
_ORGANISERS = {"403": {"description": "Not an organiser.", **_ERROR}}


def _allow_local() -> bool:
    return bool(current_app.config.get("WEBHOOKS_LOCAL_NETWORK", True))


def _one(hook, status: int = 200, **more):
    return jsonify(webhook=webhook_views(get_chronicle(), only=hook)[0].to_dict(), **more), status


def _ruling_id() -> int | None:
    current = current_submission()
    return current.ruling_id if current is not None else None


@api_route("get", "/webhooks", {
    "summary": "The chronicle's webhooks (organisers)",
    "responses": {"200": {"description": "Every webhook, URLs masked.", "content": {"application/json": {"schema": shape(
        {"webhooks": {"type": "array", "items": ref("Webhook")}})}}}, **_ORGANISERS},
})
def list_webhooks_api():
    """Every webhook of the chronicle with its deliveries' state (organisers)."""
    organisers_only()
    return jsonify(webhooks=[view.to_dict() for view in webhook_views(get_chronicle())])


@api_route("post", "/webhooks", {
    "summary": "Make a webhook (organisers)",
    "description": "Events go to it as they happen, after their commit, in order, at least once (each with its "
                   "event id), retried for a day. The answer carries the signing secret, shown this once.",
    "requestBody": json_request({"type": "object", "required": ["name", "url", "events"],
                                 "additionalProperties": False, "properties": _FIELDS},
        example={"name": "Staff channel", "url": "https://discord.com/api/webhooks/123/abc",
                 "events": ["ruling_recorded", "final_death"], "privacy": "staff"}),
    "responses": {"201": {"description": "Made.", **_WITH_SECRET}, **_ORGANISERS,
                  "409": {"description": "A webhook of that name exists.", **_ERROR}},
})
def create_webhook_api():
    """Make a webhook (:func:`larp.services.webhooks.create_webhook`)."""
    organisers_only()
    hook, secret = create_webhook(get_chronicle(), g.user, json_body(), site_url=site_root(),
                                  allow_local=_allow_local())
    return _one(hook, 201, secret=secret, ruling_id=_ruling_id())


@api_route("get", "/webhooks/<int:webhook_id>", {
    "summary": "One webhook (organisers)", 
    "responses": {"200": {"description": "The webhook, its URL masked.", **_ONE}, **_ORGANISERS},
})
def get_webhook_api(webhook_id: int):
    """One webhook of the chronicle (organisers)."""
    organisers_only()
    return _one(get_webhook(get_chronicle(), webhook_id))


@api_route("patch", "/webhooks/<int:webhook_id>", {
    "summary": "Change a webhook (organisers)",
    "description": "Any of its fields; `enabled` false pauses it (nothing is queued meanwhile), true resumes a "
                   "paused or stopped one. `ruling_id` is null when nothing changed.",
    "x-records-ruling": True,
    "requestBody": json_request({"type": "object", "additionalProperties": False,
                                 "properties": {**_FIELDS, "enabled": {"type": "boolean"}}}, example={"enabled": True}),
    "responses": {"200": {"description": "Changed.", **_ONE}, **_ORGANISERS},
})
def update_webhook_api(webhook_id: int):
    """Change a webhook (:func:`larp.services.webhooks.update_webhook`)."""
    organisers_only()
    hook = update_webhook(get_chronicle(), g.user, webhook_id, json_body(), allow_local=_allow_local())
    return _one(hook, ruling_id=_ruling_id())


@api_route("delete", "/webhooks/<int:webhook_id>", {
    "summary": "Delete a webhook (organisers)",
    "description": "Its events not yet sent go with it. It takes no body.",
    "x-records-ruling": True,
    "responses": {"200": {"description": "Deleted.", "content": {"application/json": {"schema": shape(
        {"deleted": INT, "ruling_id": INT})}}}, **_ORGANISERS},
})
def delete_webhook_api(webhook_id: int):
    """Delete a webhook (:func:`larp.services.webhooks.delete_webhook`)."""
    organisers_only()
    record = delete_webhook(get_chronicle(), g.user, webhook_id)
    return jsonify(deleted=record.outcome["webhook_id"], ruling_id=record.id)


@api_route("post", "/webhooks/<int:webhook_id>/secret", {
    "summary": "A new signing secret (organisers)",
    "description": "The old one stops signing at once; the new one is in this answer only.",
    "x-records-ruling": True, "requestBody": NO_BODY,
    "responses": {"200": {"description": "The new secret.", **_WITH_SECRET}, **_ORGANISERS},
})
def webhook_secret_api(webhook_id: int):
    """Give a webhook a new signing secret (:func:`larp.services.webhooks.change_secret`)."""
    organisers_only()
    hook, secret = change_secret(get_chronicle(), g.user, webhook_id)
    return _one(hook, secret=secret, ruling_id=_ruling_id())


@api_route("post", "/webhooks/<int:webhook_id>/test", {
    "summary": "Send a webhook a sample event now (organisers)",
    "description": "With every check a delivery has (address, timeout, no redirect); `\"test\": true` in the "
                   "event. Nothing is queued or recorded (so it takes no Idempotency-Key).",
    "x-records-nothing": True, "requestBody": NO_BODY,
    "responses": {"200": {"description": "What it answered.", "content": {"application/json": {
        "schema": ref("WebhookTest")}}}, **_ORGANISERS},
})
def test_webhook_api(webhook_id: int):
    """Send a sample event (:func:`larp.services.webhooks.send_test`)."""
    organisers_only()
    result = send_test(get_chronicle(), webhook_id, Policy.from_config(current_app.config))
    return jsonify(result.to_dict())
