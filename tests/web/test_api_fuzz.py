"""Fuzzing the JSON API from its own OpenAPI document (schemathesis): whatever a client sends, the
answer is a ruling or a 4xx naming the problem, never a server error, and every documented endpoint
exists."""

from __future__ import annotations

import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from larp.web import api_between, api_challenges, api_characters, api_combat, api_health, api_record, api_tabletop  # noqa: F401 - they document the API
from larp.web import api_webhooks  # noqa: F401 - it documents the API (issue 35)
from larp.web.api import openapi_document

OPERATIONS = [result.ok() for result in schemathesis.openapi.from_dict(openapi_document()).get_all_operations()]


@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
def test_no_input_makes_a_server_error(operation, client, dbconn):
    """Issue 3, 21: whatever a program sends with its API token (an organiser's: every endpoint is
    open to it), the answer is a ruling or a 4xx naming the problem."""
    from larp.services.accounts import create_user
    from larp.services.api_tokens import create_token

    _, token = create_token(create_user("fuzzer", "Fuzzer", "organiser", "correct horse"), "Fuzz bot", "organiser")
    headers = {"Authorization": f"Bearer {token}"}
    statuses: list[int] = []

    @settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy())
    def send(case):
        response = client.open("/api/v1" + case.formatted_path, method=case.method,
                               query_string=case.query or None,
                               data=None if case.method == "GET" else json.dumps(case.body, default=str),
                               content_type="application/json", headers=headers)
        statuses.append(response.status_code)
        assert response.status_code < 500, (case.body, response.get_data(as_text=True)[:500])
        if response.status_code >= 400:
            assert response.get_json()["error"]

    send()
    assert 401 not in statuses and 405 not in statuses  # the token works, and the documented route exists
