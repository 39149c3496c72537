"""Fuzzing the JSON API from its own OpenAPI document (schemathesis): whatever a client sends, the
answer is a ruling or a 4xx naming the problem, never a server error, and every documented endpoint
exists.

Each operation is first sent its documented example (larp/web/api_examples.py: on the demo chronicle
after ``larp demo-downtime``), which must succeed and answer as documented (the test client checks
every answer against the document), so "the answer is a ruling" is shown for every operation; a
random run gave 18 of 40 operations no success at all (issue 28). Then 25 generated calls.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import date

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from larp.web import api_between, api_challenges, api_characters, api_combat, api_health, api_record, api_tabletop  # noqa: F401 - they document the API
from larp.web import api_webhooks  # noqa: F401 - it documents the API (issue 35)
from larp.web import api_checkin  # noqa: F401 - it documents the API (issue 32)
from larp.web import api_players  # noqa: F401 - it documents the API (issue 33)
from larp.web import api_spends  # noqa: F401 - it documents the API (issue 33 item 2)
from larp.web import api_between_game_actions  # noqa: F401 - issue 33 item 3
from larp.web.api import openapi_document
from larp.web.api_examples import example_call

OPERATIONS = [result.ok() for result in schemathesis.openapi.from_dict(openapi_document()).get_all_operations()]
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def dated_today(value):
    """``value`` with every date in it (``YYYY-MM-DD``) made today's: an example's dates stand for the
    day it is sent."""
    if isinstance(value, dict):
        return {key: dated_today(item) for key, item in value.items()}
    if isinstance(value, list):
        return [dated_today(item) for item in value]
    if isinstance(value, str) and _DATE.match(value):
        return date.today().isoformat()
    return value


@pytest.fixture
def organiser_token(client, dbconn):
    """The demo chronicle after a fortnight (larp demo-downtime), an organiser's token, and one call it
    made with the key ``order-0001`` (the examples' recorded key)."""
    from larp.services.accounts import create_user
    from larp.services.api_tokens import create_token
    from larp.services.chronicles import get_chronicle
    from larp.services.demo import apply_downtime_demo

    apply_downtime_demo(get_chronicle(), date.today())
    _, token = create_token(create_user("fuzzer", "Fuzzer", "organiser", "correct horse"), "Fuzz bot", "organiser")
    recorded = client.post("/api/v1/characters/9/damage", json={"damage_type": "bashing", "levels": 1},
                           headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "order-0001"})
    assert recorded.status_code == 201, recorded.get_json()
    return token


@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
def test_no_input_makes_a_server_error(operation, client, organiser_token):
    """Issue 3, 21, 28: the operation's documented example succeeds; then whatever a program sends with its
    API token (an organiser's: every endpoint is open to it), the answer is a ruling or a 4xx naming
    the problem."""
    headers = {"Authorization": f"Bearer {organiser_token}"}
    document = openapi_document()

    def send_example(path: str, method: str):
        example = example_call(document, path, method)
        for earlier in example["after"]:
            assert 200 <= send_example(*earlier).status_code < 300, earlier
        return client.open("/api/v1" + path.format(**example["path"]), method=method.upper(),
                           query_string=example["query"] or None,
                           json=dated_today(example["body"]) if method != "get" else None,
                           headers={**headers, **({"Idempotency-Key": str(uuid.uuid4())} if method != "get" else {})})

    sent = send_example(operation.path, operation.method.lower())
    assert 200 <= sent.status_code < 300, (operation.label, sent.get_data(as_text=True)[:500])
    statuses: list[int] = [sent.status_code]

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
    assert any(200 <= status < 300 for status in statuses)


def test_every_operation_has_an_example():
    """Issue 28: every operation of the document carries the example the test above sends first."""
    document = openapi_document()
    for path, ops in document["paths"].items():
        for method, op in ops.items():
            if method == "get" and path == "/openapi.json":
                continue
            call = example_call(document, path, method)
            assert set(call["path"]) == set(re.findall(r"{(\w+)}", path)), (method, path)
            if "requestBody" in op:
                assert call["body"] is not None, (method, path)
