"""One refusal type (issue 29 item 4): the rules core's refusal is the services' refusal, so a screen or the API
shows it where the narrator looks, with its field, without a service translating it by hand."""

from __future__ import annotations

from larp.models import Character, Ruling
from larp.rules.explain import RulesError
from larp.services import ServiceError


def test_a_rules_refusal_is_a_service_refusal_with_its_field_and_status():
    """What every view catches (``except ServiceError``) catches the rules core's refusals too, as 422."""
    try:
        raise RulesError("Darkness is none, partial or total.", field="scene.darkness")
    except ServiceError as exc:
        assert (exc.message, exc.field, exc.status) == ("Darkness is none, partial or total.", "scene.darkness", 422)
    assert issubclass(RulesError, ValueError)  # callers that read it as a bad value still do


def test_a_rules_refusal_reaches_the_board_and_the_api_naming_its_field(client, auth, dbconn):
    """A scene the rules cannot read (its darkness "dim"), no longer translated by the services: the stored API
    answers 422 naming the field; nothing is recorded."""
    auth.login()
    ids = {c.name: c.id for c in Character.select()}
    response = client.post("/api/v1/mass-challenges", json={
        "target": {"character_id": ids["Konrad Vale"], "throw": "rock"},
        "attackers": [{"character_id": ids["Vivienne Ashcombe"], "throw": "paper"}],
        "scene": {"darkness": "dim"}})
    assert response.status_code == 422
    body = response.get_json()
    assert body["field"].startswith("scene") and "dim" not in (body["field"] or "")
    assert Ruling.select().count() == 0
