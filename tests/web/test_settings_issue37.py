"""Issue 37 items 13 and 14 and the tabletop settings on the settings page: shown, editable per
chronicle, the darkness lists as one table (a row per power, natural and Shroud columns)."""

from __future__ import annotations

from larp.models import Ruling
from larp.rules.settings import setting_definitions
from larp.services.chronicles import chronicle_settings, get_chronicle

NEW_TABLETOP = ("tabletop_crossbow_damage", "tabletop_passive_parry_difficulty", "tabletop_celerity_blood",
                "tabletop_blindside_roll", "tabletop_blunt_vital_lethal", "dark_ages_fire_soak")


def test_the_page_shows_every_new_setting_and_the_darkness_table(client, auth, dbconn):
    auth.login("boss", "organiser")
    page = client.get("/settings").get_data(as_text=True)
    darkness = [k for k, d in setting_definitions().items() if d.family == "darkness_lists"]
    for key in (*NEW_TABLETOP, "mortal_bashing_aftereffects", *darkness):
        assert key in setting_definitions(), key
        assert f'name="{key}"' in page, key
    assert 'class="darkness-lists"' in page
    assert "<th scope=\"row\">Tenebrous Form (Obtenebration)</th>" in page


def test_a_darkness_value_and_the_optional_rule_are_saved_per_chronicle(client, auth, dbconn):
    auth.login("boss", "organiser")
    response = client.post("/settings", data={"darkness_blindfighting_natural": "2",
                                              "mortal_bashing_aftereffects": "on",
                                              "tabletop_passive_parry_difficulty": "2"})
    assert response.status_code == 303
    settings = chronicle_settings(get_chronicle())
    assert settings["darkness_blindfighting_natural"] == 2 and settings["mortal_bashing_aftereffects"] is True
    assert settings["tabletop_passive_parry_difficulty"] == 2
    rulings = Ruling.select().count()
    refused = client.post("/settings", data={"darkness_tenebrous_form_shroud": "9"})
    assert refused.status_code == 422
    assert "Tenebrous Form (Obtenebration) in a Shroud of Night:" in refused.get_data(as_text=True)
    assert chronicle_settings(get_chronicle())["darkness_tenebrous_form_shroud"] == \
        setting_definitions()["darkness_tenebrous_form_shroud"].default
    assert Ruling.select().count() == rulings
