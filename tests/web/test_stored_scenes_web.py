"""Issue 30 item 4: the stored scene. A scene of the open game session shared by every narrator, its turn
advanced by any of them, each ruling recorded with its scene and turn, and ``one_physical_challenge_per_turn``
(Dark Epics p.71, met-reference 3.1) enforced against every narrator's challenges of the turn."""

from __future__ import annotations

import re

from larp.models import ChronicleSetting, Ruling, SceneRuling, StoredScene
from larp.services.chronicles import get_chronicle
from larp.services.stored_scenes import create_scene
from tests.web.test_senses_web import cid, trait


def rule_on() -> None:
    ChronicleSetting.create(chronicle=get_chronicle(), key="one_physical_challenge_per_turn", value=True)


def challenge(client, challenger: str, defender: str, scene_id=None, category: str = "physical"):
    body = {"category": category,
            "challenger": {"character_id": cid(challenger), "bid": trait(challenger, category)},
            "defender": {"character_id": cid(defender), "bid": trait(defender, category)},
            "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]}
    if scene_id is not None:
        body["scene_id"] = scene_id
    return client.post("/api/v1/challenges", json=body)


def test_a_second_challenge_on_one_target_in_a_turn_is_refused_with_the_rule(client, auth, dbconn):
    """Dark Epics p.71 (met-reference 3.1), setting on: Vivienne's Physical challenge on Konrad in turn 1 of the
    Main hall is recorded with the scene and the turn; Marcus's on Konrad in the same turn is refused (409) with
    the rule, that attackers share the one challenge and that Celerity's actions count as turns, and nothing is
    written; a Mental challenge on Konrad the same turn is allowed (one of each category); after "next turn",
    Marcus's Physical challenge is recorded at turn 2."""
    auth.login()
    rule_on()
    hall = create_scene(get_chronicle(), "Main hall")
    first = challenge(client, "Vivienne Ashcombe", "Konrad Vale", hall.id)
    assert first.status_code == 201, first.get_json()
    link = SceneRuling.get(SceneRuling.ruling == first.get_json()["ruling_id"])
    assert (link.scene_id, link.turn, link.target_id, link.category) == (hall.id, 1, cid("Konrad Vale"), "physical")
    rulings = Ruling.select().count()
    second = challenge(client, "Marcus Hale", "Konrad Vale", hall.id)
    assert second.status_code == 409 and second.get_json()["field"] == "scene_id"
    message = second.get_json()["error"]
    assert "Konrad Vale has already been the target of a Physical challenge in turn 1" in message
    assert "Dark Epics p.71" in message and "Celerity's actions count as turns" in message
    assert "mass challenge" in message
    assert Ruling.select().count() == rulings
    mental = challenge(client, "Marcus Hale", "Konrad Vale", hall.id, category="mental")
    assert mental.status_code == 201, mental.get_json()
    moved = client.post(f"/api/v1/scenes/{hall.id}/next-turn", json={"turn": 1})
    assert moved.status_code == 200 and moved.get_json() == {
        "scene": {"id": hall.id, "name": "Main hall", "turn": 2, "game_session": hall.game_session.number},
        "advanced": True}
    again = challenge(client, "Marcus Hale", "Konrad Vale", hall.id)
    assert again.status_code == 201, again.get_json()
    assert SceneRuling.get(SceneRuling.ruling == again.get_json()["ruling_id"]).turn == 2


def test_with_the_setting_off_or_without_a_scene_nothing_is_refused(client, auth, dbconn):
    """Setting off (the default: 002 and LotNR say nothing of it): two Physical challenges on Konrad in one turn
    are both recorded, each with the scene and turn; with the setting on but no scene, the rule cannot see the
    other narrators' challenges, so the ruling is recorded without a turn."""
    auth.login()
    hall = create_scene(get_chronicle(), "Crypt")
    assert challenge(client, "Vivienne Ashcombe", "Konrad Vale", hall.id).status_code == 201
    assert challenge(client, "Marcus Hale", "Konrad Vale", hall.id).status_code == 201
    assert SceneRuling.select().where((SceneRuling.scene == hall) & (SceneRuling.turn == 1)).count() == 2
    rule_on()
    loose = challenge(client, "Ruth Calder", "Konrad Vale")
    assert loose.status_code == 201 and not SceneRuling.select().where(
        SceneRuling.ruling == loose.get_json()["ruling_id"]).exists()


def test_a_mass_challenge_is_the_one_challenge_of_the_turn(client, auth, dbconn):
    """met-reference 3.1: several attackers share the one Physical challenge. A combat-board fight on Konrad in a
    scene is his Physical challenge of the turn: a one-on-one after it is refused, and so is a second fight on him
    from the combat board the same turn (the screen says why, nothing is written)."""
    auth.login()
    rule_on()
    hall = create_scene(get_chronicle(), "Docks")
    konrad, viv, ruth = cid("Konrad Vale"), cid("Vivienne Ashcombe"), cid("Ruth Calder")
    fight = {"target": konrad, "a": [viv], "target_throw": "rock", f"a{viv}_throw": "scissors", "step": "record",
             "scene_id": hall.id}
    response = client.post("/combat", data=fight)
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.kind == "mass_combat" and ruling.inputs["stored_scene"]["turn"] == 1
    assert challenge(client, "Marcus Hale", "Konrad Vale", hall.id).status_code == 409
    count = Ruling.select().count()
    again = client.post("/combat", data={**fight, "a": [ruth], f"a{ruth}_throw": "scissors"})
    assert again.status_code == 409
    assert "already been the target of a Physical challenge in turn 1" in again.get_data(as_text=True)
    assert Ruling.select().count() == count


def test_the_scenes_page_opens_joins_and_moves_the_turn(client, auth, dbconn):
    """The plain scenes page (no script): open a scene (you are in it), see its turn, "Next turn"; a second press
    with the turn the page showed (another narrator's, at the same moment) changes nothing and says so; the
    challenge screen then shows the scene and its turn and sends the scene's id with the challenge."""
    auth.login()
    opened = client.post("/scenes", data={"name": "Main hall"})
    assert opened.status_code == 303
    page = client.get("/scenes").get_data(as_text=True)
    hall = StoredScene.get(StoredScene.name == "Main hall")
    assert "Turn 1" in page and "(you are here)" in page
    assert client.post(f"/scenes/{hall.id}/next-turn", data={"turn": "1"}).status_code == 303
    late = client.post(f"/scenes/{hall.id}/next-turn", data={"turn": "1"}, follow_redirects=True)
    assert "already moved on by another narrator: it is turn 2" in late.get_data(as_text=True)
    assert StoredScene.get_by_id(hall.id).turn == 2
    screen = client.get("/challenge").get_data(as_text=True)
    assert re.search(rf'<input type="hidden" name="scene_id" value="{hall.id}" form="challenge-form">', screen)
    assert "Main hall" in screen and "Turn 2" in screen
    assert client.post("/scenes", data={"name": "Main hall"}).status_code == 409  # one name per game session
    assert client.post("/scenes", data={"name": "  "}).status_code == 422


def test_the_scenes_api(client, auth, dbconn):
    """GET /scenes lists tonight's open scenes with their turn; POST /scenes opens one; a name taken is a 409."""
    auth.login()
    made = client.post("/api/v1/scenes", json={"name": "Rooftop"})
    assert made.status_code == 201
    listed = client.get("/api/v1/scenes").get_json()["scenes"]
    assert [(s["name"], s["turn"]) for s in listed] == [("Rooftop", 1)]
    assert client.post("/api/v1/scenes", json={"name": "Rooftop"}).status_code == 409
    stale = client.post(f"/api/v1/scenes/{made.get_json()['scene']['id']}/next-turn", json={"turn": 5})
    assert stale.status_code == 200 and stale.get_json()["advanced"] is False
    assert client.post("/api/v1/scenes/99999/next-turn", json={}).status_code == 404


def test_the_screen_refuses_at_resolve_not_after_the_throws(client, auth, dbconn):
    """A new user's finding: with the setting on, a second Physical challenge on Konrad in the turn is refused
    at Resolve on the challenge screen (a tie that leaves retests open records nothing yet), with the rule,
    before the players throw for a result that would not count; nothing is written."""
    from tests.web.test_challenge_web import post

    auth.login()
    rule_on()
    hall = create_scene(get_chronicle(), "Gallery")
    assert challenge(client, "Vivienne Ashcombe", "Konrad Vale", hall.id).status_code == 201
    rulings = Ruling.select().count()
    response = post(client, record=False, challenger=cid("Marcus Hale"), defender=cid("Konrad Vale"),
                    category="physical", action="strike", defender_action="defend", scene_id=hall.id,
                    challenger_bid=trait("Marcus Hale", "physical"), defender_bid=trait("Konrad Vale", "physical"),
                    challenger_throw="rock", defender_throw="rock")
    body = response.get_data(as_text=True)
    assert response.status_code == 409 and "already been the target of a Physical challenge in turn 1" in body
    assert "So far:" not in body and Ruling.select().count() == rulings


def test_the_ruling_page_names_its_scene_and_turn(client, auth, dbconn):
    """A new user's finding: the scene and turn a ruling was made in are stored; its page says them."""
    auth.login()
    hall = create_scene(get_chronicle(), "Vestry")
    made = challenge(client, "Vivienne Ashcombe", "Konrad Vale", hall.id)
    page = client.get(f"/rulings/{made.get_json()['ruling_id']}").get_data(as_text=True)
    assert "<dt>Scene</dt><dd>Vestry, turn 1</dd>" in page
