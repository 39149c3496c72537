"""Issue 37 item 12: what the rules core had and no screen or API reached, now reached: Final Death
by massive trauma, the extras' four-level track, the ambush and the Kiss at the tabletop."""

from __future__ import annotations

from larp.models import Character, Ruling
from larp.services.characters import character_state
from larp.services.chronicles import chronicle_settings

HX = {"HX-Request": "true"}


def char(name: str) -> Character:
    return Character.get(Character.name == name)


# ---------------------------------------------------------------- massive trauma (000 "Final Death")

def test_massive_trauma_destroys_only_an_incapacitated_or_torpid_vampire(client, auth, dbconn):
    """000 "Final Death": a vampire still on his feet is refused and nothing changes; Incapacitated
    (every level but the last marked) he meets Final Death, recorded."""
    auth.login()
    kon = char("Konrad Vale")
    rulings = Ruling.select().count()
    response = client.post(f"/characters/{kon.id}/act", data={"action": "massive_trauma"}, headers=HX)
    assert response.status_code == 422
    assert "only an incapacitated or torpid vampire" in response.get_data(as_text=True)
    assert char("Konrad Vale").condition == "active" and Ruling.select().count() == rulings
    size = len(character_state(kon, None, chronicle_settings(kon.chronicle)).health.levels)
    Character.update(damage_lethal=size - 1).where(Character.id == kon.id).execute()
    response = client.post(f"/characters/{kon.id}/act", data={"action": "massive_trauma"})
    assert response.status_code == 303
    assert char("Konrad Vale").condition == "final_death"
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.inputs["action"] == "massive_trauma" and '000 "Final Death"' in str(ruling.steps)


def test_the_health_panel_offers_massive_trauma(client, auth, dbconn):
    auth.login()
    page = client.get(f"/characters/{char('Konrad Vale').id}").get_data(as_text=True)
    assert 'value="massive_trauma"' in page


def test_the_api_destroys_by_massive_trauma_a_mortal_but_not_a_standing_vampire(client, auth, dbconn):
    """The API: a mortal may be destroyed by massive trauma at once; a vampire on his feet is a 422
    naming ``means``; an unknown means too; beheading any vampire."""
    auth.login()
    ruth, kon = char("Ruth Calder"), char("Konrad Vale")
    refused = client.post(f"/api/v1/characters/{kon.id}/destroy", json={"means": "massive_trauma"})
    assert refused.status_code == 422 and refused.get_json()["field"] == "means"
    assert client.post(f"/api/v1/characters/{kon.id}/destroy", json={"means": "fire"}).status_code == 422
    assert char("Konrad Vale").condition == "active"
    done = client.post(f"/api/v1/characters/{ruth.id}/destroy", json={"means": "massive_trauma"})
    assert done.status_code == 201, done.get_json()
    assert done.get_json()["character"]["health"]["condition"] == "dead"
    assert client.post(f"/api/v1/characters/{kon.id}/destroy", json={"means": "beheading"}).status_code == 201
    assert char("Konrad Vale").condition == "final_death"
