"""One decorator that routes an endpoint of the JSON API and documents it, its path written once.

The API's modules (``larp/web/api_*.py``) put :func:`api_route` on each endpoint instead of the
blueprint's route and :func:`larp.web.api.documented` one above the other: the path is Flask's
(``/characters/<int:character_id>/wake``) and its OpenAPI form (``/characters/{character_id}/wake``) is
derived from it, so the documented path is always the one served.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from larp.web.api import bp, documented

_CONVERTED = re.compile(r"<(?:\w+:)?(\w+)>")


def openapi_path(path: str) -> str:
    """Flask's ``path`` as OpenAPI writes it: each ``<int:name>`` (or ``<name>``) becomes ``{name}``."""
    return _CONVERTED.sub(r"{\1}", path)


def api_route(method: str, path: str, operation: dict[str, Any]) -> Callable:
    """Serve the view on ``method`` (``"get"``, ``"post"``, ``"patch"``, ``"delete"``) at ``path`` (Flask's form)
    on the API's blueprint, and register ``operation`` (an OpenAPI operation object) for it by
    :func:`larp.web.api.documented` at the same path in OpenAPI's form."""

    def decorator(view: Callable) -> Callable:
        return bp.route(path, methods=[method.upper()])(documented(openapi_path(path), method, operation)(view))

    return decorator
