"""The organiser's chronicle settings page (issue 3: settings shown to and editable by organisers)."""

from __future__ import annotations

from larp.models import ChronicleSetting, Ruling
from larp.services.chronicles import chronicle_settings, get_chronicle


def test_narrators_cannot_change_settings(client, auth, dbconn):
    auth.login("narrator1", "narrator")
    assert client.get("/settings").status_code == 403
    assert client.post("/settings", data={"bruised_levels": "2"}).status_code == 403
    assert ChronicleSetting.select().count() == 0


def test_organiser_sees_defaults_with_sources_and_changes_one(client, auth, dbconn):
    auth.login("boss", "organiser")
    page = client.get("/settings").get_data(as_text=True)
    assert "Bruised health levels" in page
    assert "met-reference 8.2 #1" in page
    response = client.post("/settings", data={"bruised_levels": "2"})
    assert response.status_code == 303
    assert chronicle_settings(get_chronicle())["bruised_levels"] == 2
    record = Ruling.get(Ruling.kind == "settings")
    assert record.outcome == {"bruised_levels": {"from": 3, "to": 2}}
    assert record.narrator.username == "boss"
    # Back to the default removes the override.
    client.post("/settings", data={"bruised_levels": "3"})
    assert ChronicleSetting.select().count() == 0


def test_invalid_value_is_refused_next_to_its_field(client, auth, dbconn):
    auth.login("boss", "organiser")
    response = client.post("/settings", data={"bruised_levels": "many"})
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "Bruised health levels: &#39;many&#39; is not a whole number" in body
    assert "Nothing was saved" in body
    assert ChronicleSetting.select().count() == 0
    assert client.post("/settings", data={"bruised_levels": "9"}).status_code == 422


def test_checkbox_settings_turn_off_and_on(client, auth, dbconn):
    auth.login("boss", "organiser")
    client.post("/settings", data={"vampire_bashing_minimum_one": ["off"]})
    assert chronicle_settings(get_chronicle())["vampire_bashing_minimum_one"] is False
    client.post("/settings", data={"vampire_bashing_minimum_one": ["off", "on"]})
    assert chronicle_settings(get_chronicle())["vampire_bashing_minimum_one"] is True
    assert ChronicleSetting.select().count() == 0


def test_not_a_number_is_refused_not_a_server_error(client, auth, dbconn):
    auth.login("boss", "organiser")
    for bad in ("nan", "inf", "-inf"):
        response = client.post("/settings", data={"overbid_ratio": bad})
        assert response.status_code == 422
        assert "is not a number" in response.get_data(as_text=True)
    assert ChronicleSetting.select().count() == 0


def test_a_number_too_long_is_said_too_large_not_not_a_number(client, auth, dbconn):
    """New user 12: twenty digits in a setting said "'99999999999999999999' is not a whole number". A number
    written in digits is refused for its size: "must be at most" its maximum (720 hours; an overbid ratio 10)."""
    auth.login("boss", "organiser")
    response = client.post("/settings", data={"between_game_actions_cutoff_hours": "9" * 20})
    body = response.get_data(as_text=True)
    assert response.status_code == 422 and "must be at most 720" in body and "is not a whole number" not in body
    response = client.post("/settings", data={"overbid_ratio": "9" * 30})
    body = response.get_data(as_text=True)
    assert response.status_code == 422 and "must be at most 10" in body and "is not a number" not in body
    assert ChronicleSetting.select().count() == 0


def test_a_decimal_comma_is_read_as_the_decimal_point(client, auth, dbconn):
    """A chronicle writing Portuguese or Spanish types the overbid ratio as "1,5": stored as 1.5."""
    auth.login("boss", "organiser")
    assert client.post("/settings", data={"overbid_ratio": "1,5"}).status_code in (200, 302, 303)
    assert chronicle_settings(get_chronicle())["overbid_ratio"] == 1.5
