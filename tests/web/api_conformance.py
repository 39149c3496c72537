"""Response truth (issue 21): every answer a test receives from ``/api/v1`` is checked against the
OpenAPI document, with schemathesis' response conformance check (jsonschema_rs underneath): its
status must be one the operation documents, and its body must match that response's schema.

:class:`ConformingClient` is the test client of every test app (tests/support.py), so the API
tests, the schema-truth test and the fuzz all check what they receive without asking.
"""

from __future__ import annotations

from functools import lru_cache

import schemathesis
from flask.testing import FlaskClient

API_PREFIX = "/api/v1"


@lru_cache(maxsize=1)
def api_schema():
    """The app's OpenAPI document loaded by schemathesis (once: the document is built at import)."""
    from larp.web.api import openapi_document

    return schemathesis.openapi.from_dict(openapi_document())


class ResponseDrift(AssertionError):
    """An API answer the document does not describe."""


def check_api_response(method: str, path: str, response) -> None:
    """Check one answer of ``method`` ``path`` (under :data:`API_PREFIX`) against its documented operation.

    A path no operation documents (the document itself, an unknown route) is not checked here.

    Raises:
        ResponseDrift: an undocumented status, or a body that does not match the documented schema.
    """
    __tracebackhide__ = True
    operation = api_schema().find_operation_by_path(method, path[len(API_PREFIX):])
    if operation is None:
        return
    if operation.responses.find_by_status_code(response.status_code) is None:
        raise ResponseDrift(f"{operation.label} answered {response.status_code}, which it does not document "
                            f"(documented: {', '.join(operation.responses.status_codes)}): "
                            f"{response.get_data(as_text=True)[:300]}")
    try:
        operation.validate_response(response)
    except Exception as exc:  # schemathesis' FailureGroup: say which operation and status
        raise ResponseDrift(f"{operation.label} {response.status_code}: {exc}") from None


class ConformingClient(FlaskClient):
    """Flask's test client, checking every ``/api/v1`` answer it receives (:func:`check_api_response`)."""

    def open(self, *args, **kwargs):
        """Send the request as Flask's client does, then check the answer if it is the API's."""
        __tracebackhide__ = True
        response = super().open(*args, **kwargs)
        request = response.request
        if request.path.startswith(API_PREFIX + "/"):
            check_api_response(request.method, request.path, response)
        return response
