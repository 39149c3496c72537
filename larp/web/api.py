"""The JSON API under ``/api/v1``, and its OpenAPI document.

Every endpoint but the OpenAPI document (``/api/v1/openapi.json``, public) needs an organiser or narrator: a program sends a personal API token
(``Authorization: Bearer``, issue 21; :mod:`larp.services.api_tokens`), acting with the token's
role and recorded under the token's name; the web app's own pages use the session cookie. A
bearer request reads no cookie, and no browser sends the header on its own, so it needs no CSRF
token; a cookie request is exempt only because its body must be JSON (below). A stateful call (one that records a ruling) may send an
``Idempotency-Key`` header: the ruling is recorded with it, and the same key
again is a 409 naming that ruling, so a client can retry after a lost reply
without applying anything twice. Requests with a body must be ``application/json``: a
browser cannot send that cross-site without a CORS preflight, which this app
never grants, so the API is exempt from the form CSRF token. Errors are 4xx
JSON ``{"error": "...", "field": "..."}`` naming the bad field.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from flask import Blueprint, g, jsonify, request

from larp.i18n import said_if_phrase
from larp.models import first_unstorable, utcnow
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import GameNight
from larp.services import ServiceError, read_json
from larp.services.records import MAX_TOKEN_LENGTH
from larp.web.errors import error_response
from larp.web.inputs import day, only
from larp.web.submissions import IDEMPOTENCY_HEADER

bp = Blueprint("api", __name__, url_prefix="/api/v1")

#: OpenAPI operations registered by :func:`documented`: path -> method -> operation.
OPERATIONS: dict[str, dict[str, dict[str, Any]]] = {}
#: Shared schemas (``components.schemas``).
SCHEMAS: dict[str, dict[str, Any]] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {"type": "string", "description": "What is wrong, for the person at the screen."},
            "field": {"type": ["string", "null"], "description": "The input at fault, as a dotted path."},
            "ruling_id": {"type": "integer", "description": "With a 409 for a repeated Idempotency-Key: "
                                                            "the ruling recorded the first time."},
            "ruling_url": {"type": "string", "description": "That ruling's page."},
        },
    },
    "Step": {
        "type": "object",
        "required": ["text", "rule"],
        "properties": {
            "text": {"type": "string"},
            "rule": {"type": "string", "description": "The rule applied, e.g. 002 \"Ties\"."},
            "setting": {"type": "string", "description": "The chronicle setting that decided this step."},
        },
    },
}


#: The header a stateful call may send (components.parameters.IdempotencyKey).
IDEMPOTENCY_PARAMETER: dict[str, Any] = {
    "name": IDEMPOTENCY_HEADER,
    "in": "header",
    "required": False,
    "description": "A one-time key chosen by the client for this call (1 to 64 visible ASCII characters, e.g. "
                   "a random UUID). The ruling is recorded with it; the same call again with the same key is "
                   "refused with a 409 naming the ruling recorded the first time, so a call whose reply was lost "
                   "can be retried safely (also with another token of the same account). A key is the account's "
                   "own in the chronicle: another account, or another chronicle, may use the same key. The same "
                   "key with another call (another body, path or method) is a 422. "
                   "GET /rulings/by-token/{key} says whether it was recorded.",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_TOKEN_LENGTH, "pattern": "^[!-~]+$"},
}


class ApiError(ServiceError):
    """A refused API request (becomes ``{"error", "field"}`` with ``status``): the one refusal shape
    (:class:`larp.services.ServiceError`: message, field, status) with 400 as its default status."""

    def __init__(self, message: str, field: str | None = None, status: int = 400):
        super().__init__(message, field, status)


#: Endpoints open without logging in: the OpenAPI document describes the API and holds no data.
PUBLIC_ENDPOINTS = frozenset({"api.openapi"})
#: Endpoints a player's token or session reaches (issue 33): his own characters and requests only;
#: each module adds its own (``PLAYER_ENDPOINTS.add("api.my_characters_api")``), and every such view
#: finds the characters through :func:`larp.services.players.own_character` or ``characters_of_player``.
PLAYER_ENDPOINTS: set[str] = {"api.list_chronicles_api"}


@bp.before_request
def _guard():
    if request.endpoint in PUBLIC_ENDPOINTS:
        return None
    if g.get("bearer_refused"):
        return error_response("This API token is unknown, revoked or expired (Account page: make a new one).",
                              "Authorization", 401)
    if g.get("user") is None:
        return error_response(Phrase.message(N_("Log in first: send Authorization: Bearer <token> (a personal API "
                                                "token from the Account page), or use the web app's session.")), None, 401)
    if g.user.role not in ("organiser", "narrator") and request.endpoint not in PLAYER_ENDPOINTS:  # a player (issue 33)
        return error_response(Phrase.message(N_("A player's token reaches only his own characters and his requests "
                                                "(GET /my/characters, the experience spends): this call is for organisers "
                                                "and narrators.")), None, 403)
    writes = request.method in ("POST", "PUT", "PATCH", "DELETE")
    # A body must say it is JSON (a cross-site form cannot, so this also keeps a logged-in browser's
    # session from being used by another site); a DELETE without a body has nothing to say, and no
    # form can send one.
    bodiless_delete = request.method == "DELETE" and not request.content_length and not request.get_data(cache=True)
    if writes and not request.is_json and not bodiless_delete:
        return error_response(Phrase.message(N_("Send the body as JSON (Content-Type: application/json).")), None, 415)
    allowed = _documented_fields(request.endpoint)
    try:
        body = _parsed_body() if writes else None
    except ApiError as exc:  # nested too deep, or not JSON at all: said once, here (issue 28 item 4)
        return error_response(exc.message, exc.field, exc.status)
    if allowed is not None and isinstance(body, dict):
        try:
            only(body, allowed)  # the input layer's one refusal of a field the endpoint does not know
        except ServiceError as exc:
            return error_response(exc.message, exc.field, exc.status)
    return None


#: Endpoint name ("api.tabletop_roll") to its documented operation.
_BY_ENDPOINT: dict[str, dict[str, Any]] = {}


@lru_cache(maxsize=None)
def _documented_fields(endpoint: str | None) -> frozenset[str] | None:
    """The top-level fields the endpoint's documented request body allows (``None``: not checked),
    worked out once per endpoint (the documentation is complete once the app's modules are imported).

    A typo in a JSON body is refused with a 422 naming it, rather than silently ignored.
    """
    operation = _BY_ENDPOINT.get(endpoint or "")
    if not operation:
        return None
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    if "$ref" in schema:
        schema = SCHEMAS.get(schema["$ref"].rsplit("/", 1)[-1], {})
    properties = schema.get("properties")
    if not properties or schema.get("additionalProperties"):
        return None
    return frozenset(properties)


@bp.errorhandler(ApiError)
def _api_error(exc: ApiError):
    return error_response(exc.message, exc.field, exc.status)


@bp.errorhandler(ServiceError)
def _service_error(exc: ServiceError):
    from larp.services.records import AlreadyRecorded
    from larp.web.scope import chronicle_page

    if isinstance(exc, AlreadyRecorded):
        field = IDEMPOTENCY_HEADER if request.headers.get(IDEMPOTENCY_HEADER) else exc.field
        return jsonify(error=said_if_phrase(exc.message), field=field, ruling_id=exc.ruling.id,
                       ruling_url=chronicle_page(exc.ruling.chronicle_id, "rulings.show", ruling_id=exc.ruling.id)), exc.status
    return error_response(exc.message, exc.field, exc.status)


@bp.errorhandler(RulesError)
def _rules_error(exc: RulesError):
    return error_response(exc.message, exc.field, 422)


def _parsed_body() -> Any:
    """The request's body parsed as JSON, once a request (``None`` when it is empty), by the app's
    one reader of outside JSON (:func:`larp.services.read_json`: at most 64 levels deep).

    Raises:
        ApiError: 400 naming the body: not UTF-8, not JSON, or nested too deep.
    """
    if "_api_body" not in g:
        raw = request.get_data(cache=True)
        try:
            g._api_body = (read_json(raw, None, label="The body") if raw.strip() else None), None
        except ServiceError as exc:
            g._api_body = None, ApiError(exc.message, exc.field, exc.status)
    value, refusal = g._api_body
    if refusal is not None:
        raise refusal
    return value


def json_body() -> dict[str, Any]:
    """The request's JSON object.

    Raises:
        ApiError: 400 when the body is not valid JSON, nested too deep, or not an object; 422 naming
            the place of a text no database takes (a NUL character, an unpaired surrogate).
    """
    data = _parsed_body()
    if not isinstance(data, dict):
        raise ApiError(Phrase.message(N_("The body must be a JSON object.")), None, 400)
    # Parsed from valid UTF-8, a text can hold a NUL or an unpaired surrogate only through a \u escape (or a raw
    # NUL): a body with neither needs no walk (issue 29: a light request).
    raw = request.get_data(cache=True)
    bad = first_unstorable(data) if b"\\u" in raw or b"\x00" in raw else None
    if bad is not None:
        raise ApiError(Phrase.message(N_("`%(where)s` %(why)s."), where=bad[0], why=bad[1]), bad[0], 422)
    return data


#: The two fields every stateless endpoint takes, with one meaning everywhere (issue 21).
SETTINGS_FIELDS: dict[str, dict[str, Any]] = {
    "settings": {"type": "object", "additionalProperties": True,
                 "description": "Chronicle setting overrides, key to value (data/settings/*.toml), applied on top "
                                "of the documented defaults, or of the chronicle's stored settings when "
                                "`use_chronicle_settings` is true. An unknown key or a bad value is a 422 naming "
                                "`settings.<key>`."},
    "use_chronicle_settings": {"type": "boolean", "default": False,
                               "description": "Start from the chronicle's stored settings instead of the "
                                              "documented defaults (then apply `settings`)."},
}
#: What the document says of settings on every stateless endpoint.
SETTINGS_RULE = ("Settings: the documented defaults, or the chronicle's stored settings with "
                 "`use_chronicle_settings: true`, then the `settings` overrides; the same on every stateless "
                 "endpoint.")


#: The game session's date, on every stateless ruling that can put a vampire in torpor (issue 29).
NIGHT_FIELDS: dict[str, dict[str, Any]] = {
    "game_session_date": {"type": "string", "format": "date",
                          "description": "The game session's date (YYYY-MM-DD), from which a torpor the ruling "
                                         "begins is dated: its wake date and length in nights (met-reference "
                                         "5.2). Left out: today (UTC)."},
}
#: A stateless character's Humanity or Path, where the ruling can put him in torpor (issue 29).
MORALITY_FIELD: dict[str, Any] = {
    "type": "integer", "minimum": 0, "maximum": 5,
    "description": "Humanity or Path in MET Traits (0-5): how long a torpor the ruling puts him in lasts "
                   "(met-reference 5.2, the chronicle's `torpor_table`). Left out: 0, the longest."}


def request_night(data: dict[str, Any]) -> GameNight:
    """The game session a stateless ruling happens in, taking ``game_session_date`` out of ``data``
    (:data:`NIGHT_FIELDS`; left out: today, UTC): it dates a torpor the ruling begins.

    Raises:
        ServiceError: 422 naming ``game_session_date`` when it is not a date (YYYY-MM-DD).
    """
    return GameNight(day({"game_session_date": data.pop("game_session_date", None)}, "game_session_date",
                         utcnow().date()))


def request_settings(data: dict[str, Any]) -> ChronicleSettings:
    """The settings a stateless call rules with, taking ``settings`` and ``use_chronicle_settings``
    out of ``data``: the defaults (or, with the flag, the chronicle's stored settings,
    :func:`larp.services.chronicles.chronicle_settings`), then the overrides.

    Raises:
        ApiError: 422 naming ``settings``, ``settings.<key>`` or ``use_chronicle_settings``.
    """
    from larp.services.chronicles import chronicle_settings, get_chronicle

    overrides = data.pop("settings", None)
    use_chronicle = data.pop("use_chronicle_settings", False)
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise ApiError(Phrase.message(N_("settings must be an object of setting keys to values.")), "settings", 422)
    if not isinstance(use_chronicle, bool):
        raise ApiError(Phrase.message(N_("use_chronicle_settings must be true "
                                         "or false.")), "use_chronicle_settings", 422)
    base = dict(chronicle_settings(get_chronicle()).values) if use_chronicle else {}
    try:
        return ChronicleSettings.from_overrides({**base, **overrides})
    except RulesError as exc:
        raise ApiError(exc.message, f"settings.{exc.field}" if exc.field else "settings", 422) from None


def _body_schema(operation: dict[str, Any]) -> dict[str, Any]:
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    if "$ref" in schema:
        schema = SCHEMAS.get(schema["$ref"].rsplit("/", 1)[-1], {})
    return schema


def documented(path: str, method: str, operation: dict[str, Any]) -> Callable:
    """Register ``operation`` (an OpenAPI operation object) for ``method`` on ``path``.

    A request body with a ``settings`` field is a stateless endpoint's: its two settings fields
    get their one documented meaning (:data:`SETTINGS_FIELDS`), and its description says so.
    """

    def decorator(view: Callable) -> Callable:
        op = dict(operation)
        body = _body_schema(op)
        if "settings" in body.get("properties", {}):
            body["properties"].update(SETTINGS_FIELDS)
            op["description"] = (op.get("description", "") + " " + SETTINGS_RULE).strip()
            op["x-stateless"] = True
        op.setdefault("operationId", view.__name__)
        op.setdefault("security", [{"bearer": []}, {"session": []}])
        responses = op.setdefault("responses", {})
        common = [("401", "Not logged in, or the API token is unknown, revoked or expired."),
                  ("422", "Invalid input; the error names the field."),
                  ("503", "The database cannot take the request now (busy, disk full, read-only, unreachable): "
                          "nothing was recorded; try again.")]
        several = ("the token's user is in several chronicles and the path names none "
                   "(use /api/v1/chronicles/{chronicle_id}/...)")
        if method.lower() != "get":  # what _guard and json_body refuse before the endpoint's own checks
            common += [("400", f"The body is not a JSON object (or nests more than 64 levels deep), or {several}."),
                       ("415", "The body is not sent as JSON (Content-Type: application/json).")]
        elif path != "/openapi.json":
            common.append(("400", several[0].upper() + several[1:] + "."))
        if path != "/openapi.json":  # issue 33: what _guard answers a player's token or session
            common.append(("403", "A player's token or session: the calls for organisers and narrators refuse it "
                                  "(a player reaches GET /my/characters)."))
        if "{" in path:  # a path parameter naming nothing stored (or not a number)
            common.append(("404", "No such " + path.split("{", 1)[1].split("}", 1)[0].replace("_id", "").replace("_", " ")
                           + " in this chronicle."))
        for code, text in common:
            responses.setdefault(code, {"description": text, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}})
        if "201" in responses or op.get("x-records-ruling"):  # it records a ruling: it takes the one-time key
            op["parameters"] = [*op.get("parameters", []), {"$ref": "#/components/parameters/IdempotencyKey"}]
            repeat = "The Idempotency-Key was already recorded: the error names that ruling (ruling_id), nothing was applied."
            conflict = responses.setdefault("409", {"description": repeat, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}})
            if conflict["description"] != repeat:
                conflict["description"] += " Or: " + repeat[0].lower() + repeat[1:]
        OPERATIONS.setdefault(path, {})[method.lower()] = op
        _BY_ENDPOINT[f"{bp.name}.{view.__name__}"] = op
        return view

    return decorator


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document describing every registered endpoint, each with a worked example
    (:mod:`larp.web.api_examples`)."""
    from larp.web.api_examples import with_examples

    return {
        "openapi": "3.1.0",
        "info": {
            "title": "larp API",
            "version": "1",
            "description": "Adjudication of Mind's Eye Theatre challenges, damage and healing, and the work "
                           "between game sessions. Send `Authorization: Bearer <token>` (a personal API token "
                           "from the Account page). Stateless endpoints (x-stateless) take a complete "
                           "description and touch no stored data; they rule with the documented defaults, or "
                           "the chronicle's stored settings with `use_chronicle_settings: true`, then the "
                           "`settings` overrides. Stateful endpoints apply a ruling to the chronicle's "
                           "characters and record it (201), taking an `Idempotency-Key`. Errors are 4xx "
                           "`{error, field}`. Several chronicles on one server: every path is also at "
                           "`/api/v1/chronicles/{chronicle_id}/...` (the second server below), which a token "
                           "whose user is in several chronicles must use (400 otherwise); a chronicle the "
                           "token's user is not in answers 404, and in each chronicle the token's role is "
                           "at most its user's role there. Every operation has an example that works on the demo chronicle "
                           "after `larp demo-downtime` (its dates stand for the day it is sent).",
        },
        "servers": [{"url": "/api/v1"},
                    {"url": "/api/v1/chronicles/{chronicle_id}", "description": "In one chronicle (several on the server).",
                     "variables": {"chronicle_id": {"default": "1", "description": "The chronicle's id."}}}],
        "paths": with_examples({path: dict(ops) for path, ops in sorted(OPERATIONS.items())}),
        "components": {
            "schemas": SCHEMAS,
            "parameters": {"IdempotencyKey": IDEMPOTENCY_PARAMETER},
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "A personal API token, made on the Account page (shown once). It acts "
                                          "with the role chosen for it (no higher than its owner's), and the "
                                          "record names it as the narrator of what it does."},
                "session": {"type": "apiKey", "in": "cookie", "name": "session",
                            "description": "The web app's own session (its pages' JavaScript)."}},
        },
    }


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI document of this API (public: it describes the endpoints and holds no data; every
    endpoint it lists still needs a token or a session)."""
    return jsonify(openapi_document())
