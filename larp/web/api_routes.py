"""One decorator that routes an endpoint of the JSON API and documents it, its path written once.

The API's modules (``larp/web/api_*.py``) put :func:`api_route` on each endpoint instead of the
blueprint's route and :func:`larp.web.api.documented` one above the other: the path is Flask's
(``/characters/<int:character_id>/wake``) and its OpenAPI form (``/characters/{character_id}/wake``) is
derived from it, so the documented path is always the one served; so are its path parameters (an
``<int:name>`` is a required integer ``name`` in the path), unless the operation documents one itself
(a narrower schema). A JSON request body is written with :func:`json_request`.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from larp.web.api import bp, documented

_CONVERTED = re.compile(r"<(?:(\w+):)?(\w+)>")


def openapi_path(path: str) -> str:
    """Flask's ``path`` as OpenAPI writes it: each ``<int:name>`` (or ``<name>``) becomes ``{name}``."""
    return _CONVERTED.sub(r"{\2}", path)


def path_parameters(path: str) -> list[dict[str, Any]]:
    """The OpenAPI path parameters of Flask's ``path``: each ``<int:name>`` a required integer, each other
    ``<name>`` a required string, in the path's order."""
    return [{"name": name, "in": "path", "required": True,
             "schema": {"type": "integer" if converter == "int" else "string"}}
            for converter, name in _CONVERTED.findall(path)]


def json_request(schema: dict[str, Any], example: Any = None, required: bool = True) -> dict[str, Any]:
    """An OpenAPI request body that is JSON: ``schema`` (a schema or a ``$ref``), with ``example`` when one is
    given; ``required`` False for a body a client may leave out."""
    content: dict[str, Any] = {"schema": schema}
    if example is not None:
        content["example"] = example
    return {"required": required, "content": {"application/json": content}}


def _with_path_parameters(path: str, operation: dict[str, Any]) -> dict[str, Any]:
    """``operation`` with the path parameters of ``path`` it does not document itself, before its own
    (and before its request body and responses, where OpenAPI documents put them)."""
    own = operation.get("parameters", [])
    named = {p.get("name") for p in own if p.get("in") == "path"}
    derived = [p for p in path_parameters(path) if p["name"] not in named]
    if not derived:
        return operation
    if "parameters" in operation:
        return {**operation, "parameters": [*derived, *own]}
    keys = list(operation)
    at = next((i for i, k in enumerate(keys) if k in ("requestBody", "responses")), len(keys))
    items = list(operation.items())
    return dict(items[:at] + [("parameters", derived)] + items[at:])


def api_route(method: str, path: str, operation: dict[str, Any]) -> Callable:
    """Serve the view on ``method`` (``"get"``, ``"post"``, ``"patch"``, ``"delete"``) at ``path`` (Flask's form)
    on the API's blueprint, and register ``operation`` (an OpenAPI operation object) for it by
    :func:`larp.web.api.documented` at the same path in OpenAPI's form, with the path's parameters
    (:func:`path_parameters`) it does not document itself."""

    def decorator(view: Callable) -> Callable:
        documented_op = _with_path_parameters(path, operation)
        return bp.route(path, methods=[method.upper()])(documented(openapi_path(path), method, documented_op)(view))

    return decorator
