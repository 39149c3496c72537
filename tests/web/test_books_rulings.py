"""Rulings that match the books, on stored characters and through the API (issue 17).

Each test names the source it checks; the rules core's own tests are under ``tests/rules``.
"""

from __future__ import annotations

from larp.models import Character, Ruling
from larp.services.chronicles import get_chronicle, set_setting


def char(name):
    return Character.get(Character.name == name)


def last_ruling():
    return Ruling.select().order_by(Ruling.id.desc()).get()


# ---------------------------------------------------------------- 1. the killing blow

def test_a_declared_killing_blow_destroys_a_torpid_vampire_on_the_form_and_the_api(client, auth, dbconn):
    """Dark Epics killing blow (met-reference 4.1, 5.3; setting dark_epics_killing_blow on): aggravated
    damage to a vampire in torpor destroys him only when the narrator declares the killing blow, which
    the damage form and the API both carry."""
    auth.login()
    set_setting(get_chronicle(), "dark_epics_killing_blow", True)
    agathe = char("Sister Agathe")
    Character.update(damage_lethal=8, condition="torpor").where(Character.id == agathe.id).execute()
    page = client.get(f"/characters/{agathe.id}").get_data(as_text=True)
    assert 'name="killing_blow"' in page
    client.post(f"/characters/{agathe.id}/damage", data={"damage_type": "aggravated", "levels": "1"})
    assert char("Sister Agathe").condition == "torpor"  # no killing blow: the fangs do not destroy him
    client.post(f"/characters/{agathe.id}/damage", data={"damage_type": "aggravated", "levels": "1",
                                                         "killing_blow": "on"})
    assert char("Sister Agathe").condition == "final_death"
    assert any(s.get("setting") == "dark_epics_killing_blow" and "killing blow" in s["text"]
               for s in last_ruling().steps)

    pim = char("Pim Halloran")
    Character.update(damage_lethal=8, condition="torpor").where(Character.id == pim.id).execute()
    response = client.post(f"/api/v1/characters/{pim.id}/damage",
                           json={"damage_type": "aggravated", "levels": 1, "killing_blow": True})
    assert response.status_code == 201
    assert char("Pim Halloran").condition == "final_death"

    stateless = client.post("/api/v1/damage", json={
        "track": {"lethal": 8, "condition": "torpor"}, "name": "Anselm",
        "damage": {"damage_type": "aggravated", "levels": 1, "killing_blow": True},
        "settings": {"dark_epics_killing_blow": True}}).get_json()
    assert stateless["health"]["track"]["condition"] == "final_death"
    refused = client.post("/api/v1/damage", json={
        "damage": {"damage_type": "aggravated", "levels": 1, "killing_blow": True},
        "settings": {"dark_epics_killing_blow": True}})
    assert refused.status_code == 422 and refused.get_json()["field"] == "killing_blow"
