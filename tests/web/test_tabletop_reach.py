"""Issue 37 item 12: what the rules core had and no screen or API reached, now reached: Final Death
by massive trauma, the extras' four-level track, the ambush and the Kiss at the tabletop."""

from __future__ import annotations

import re

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


# ---------------------------------------------------------------- extras' four-level track (000 optional rule)

EXTRA = ["Healthy", "Hurt", "Maimed", "Incapacitated"]


def test_the_sheet_editor_gives_a_character_the_extras_track_and_takes_it_back(client, auth, dbconn):
    """000 "Optional Rule: Extras": the editor's "Health track" choice stores the four levels; three
    levels of damage leave the extra Incapacitated, the fourth dead; "the chronicle's track" clears it."""
    from tests.web.sheet_fixtures import seen_of

    auth.login("boss", "organiser")
    kon = char("Konrad Vale")
    page = client.get(f"/characters/{kon.id}/edit").get_data(as_text=True)
    assert 'name="health_track"' in page
    identity = {"name": kon.name, "creature": kon.creature, "generation": str(kon.generation or ""),
                "morality_name": kon.morality_name, "morality_rating": str(kon.morality_rating),
                "willpower_permanent": str(kon.willpower_permanent), "clan": kon.clan or "", "sect": kon.sect or ""}
    response = client.post(f"/characters/{kon.id}/sheet/identity",
                           data={"seen": seen_of(page, "identity"), **identity, "health_track": "extra"})
    assert response.status_code == 303, response.get_data(as_text=True)[:600]
    assert char("Konrad Vale").health_levels == EXTRA
    client.post(f"/characters/{kon.id}/damage", data={"damage_type": "lethal", "levels": "3"})
    assert character_state(char("Konrad Vale"), None, chronicle_settings(kon.chronicle)).health.state() == "Incapacitated"
    page = client.get(f"/characters/{kon.id}/edit").get_data(as_text=True)
    assert '<option value="extra" selected>' in page
    response = client.post(f"/characters/{kon.id}/sheet/identity",
                           data={"seen": seen_of(page, "identity"), **identity, "health_track": "chronicle"})
    assert response.status_code == 303
    assert not char("Konrad Vale").health_levels


def test_make_copies_with_the_extras_track_from_the_editor_and_the_api(client, auth, dbconn):
    auth.login("boss", "organiser")
    kon = char("Konrad Vale")
    response = client.post(f"/characters/{kon.id}/copy", data={"name": "Thug", "count": "2", "scene_extra": "on",
                                                               "extra_track": "on"})
    assert response.status_code == 303
    assert [c.health_levels for c in Character.select().where(Character.name.in_(["Thug 1", "Thug 2"]))] == [EXTRA] * 2
    plain = client.post(f"/characters/{kon.id}/copy", data={"name": "Guard", "count": "1"})
    assert plain.status_code == 303 and not char("Guard").health_levels
    answer = client.post(f"/api/v1/characters/{kon.id}/copy", json={"name": "Ghoul", "count": 1, "extra_track": True})
    assert answer.status_code == 201, answer.get_json()
    assert char("Ghoul").health_levels == EXTRA


# ---------------------------------------------------------------- the ambush (000, 004 "Ambush")

def _start(client, names=("Konrad Vale", "Vivienne Ashcombe")):
    from larp.models import TabletopCombat

    keys = [str(char(n).id) for n in names]
    assert client.post("/tabletop/start", data={"characters": keys}, headers=HX).status_code == 200
    return keys, TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()


def test_an_ambush_on_the_tabletop_screen_is_ruled_recorded_and_gives_the_free_attack_its_dice(client, auth, dbconn):
    """000 "Ambush": Konrad's Dexterity + Stealth against Vivienne's Perception + Alertness, dice
    rolled at the table; the extra successes are the free attack's dice, pre-filled on the attack form."""
    auth.login()
    (kon, viv), row = _start(client)
    page = client.get("/tabletop").get_data(as_text=True)
    assert "An ambush" in page and 'name="ambusher"' in page
    from larp.services.tabletop_fighters import fighter_for

    settings = chronicle_settings(char("Konrad Vale").chronicle)
    ambusher, target = fighter_for(char("Konrad Vale"), settings), fighter_for(char("Vivienne Ashcombe"), settings)
    stealth = ambusher.attribute("Dexterity") + ambusher.ability("Stealth")
    alertness = target.attribute("Perception") + target.ability("Alertness")
    asked = client.post(f"/tabletop/{row.id}/ambush", headers=HX, data={
        "version": row.version, "ambusher": kon, "ambush_target": viv, "cover": "on", "dice_mode": "table"})
    assert asked.status_code == 422 and f"{stealth} dice" in asked.get_data(as_text=True)
    response = client.post(f"/tabletop/{row.id}/ambush", headers=HX, data={
        "version": row.version, "ambusher": kon, "ambush_target": viv, "cover": "on", "dice_mode": "table",
        "dice-stealth": " ".join(["9"] * stealth), "dice-alertness": " ".join(["2"] * alertness)})
    text = response.get_data(as_text=True)
    assert response.status_code == 200, text[:800]
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    outcome = ruling.outcome
    assert ruling.inputs["ambusher"] == kon and outcome["rolls"]["stealth"]["rolled"] == "at the table"
    margin = outcome["rolls"]["stealth"]["net"] - outcome["rolls"]["alertness"]["net"]
    assert outcome["attack_dice"] == margin == stealth and outcome["outcome"] == "free_attack"
    assert ruling.summary.startswith("Konrad Vale ambushes Vivienne Ashcombe")
    # Initiative, then Konrad's free attack: the attack form carries the ambush's dice.
    version = type(row).get_by_id(row.id).version
    assert client.post(f"/tabletop/{row.id}/initiative", headers=HX, data={
        "version": version, f"die-{kon}": "10", f"die-{viv}": "1"}).status_code == 200
    version = type(row).get_by_id(row.id).version
    assert client.post(f"/tabletop/{row.id}/declare", headers=HX, data={
        "version": version, "fighter": [viv, kon], f"{kon}-actions": "1", f"{viv}-actions": "1"}).status_code == 200
    page = client.get("/tabletop").get_data(as_text=True)
    assert f'name="ambush_dice" value="{stealth}"' in page


def test_a_dark_ages_ambush_without_cover_is_refused_and_changes_nothing(client, auth, dbconn):
    """004 "Ambush": preparing an ambush needs proper cover; the refusal is shown at the ambush form."""
    from larp.models import Chronicle, ChronicleSetting

    auth.login()
    ChronicleSetting.create(chronicle=Chronicle.select().first(), key="tabletop_profile", value="dark_ages")
    (kon, viv), row = _start(client)
    rulings = Ruling.select().count()
    response = client.post(f"/tabletop/{row.id}/ambush", headers=HX, data={
        "version": row.version, "ambusher": kon, "ambush_target": viv})
    assert response.status_code == 422
    assert "needs proper cover" in response.get_data(as_text=True)
    assert 'name="cover" value="on" >' in response.get_data(as_text=True)  # left unticked, as sent
    assert Ruling.select().count() == rulings
    done = client.post(f"/tabletop/{row.id}/ambush", headers=HX, data={
        "version": row.version, "ambusher": kon, "ambush_target": viv, "cover": "on"})
    assert done.status_code == 200
    assert Ruling.select().order_by(Ruling.id.desc()).get().outcome["rolls"]["preparation"]


def test_the_api_rules_an_ambush_by_profile(client, auth, dbconn):
    auth.login()
    attacker = {"name": "Kincaid", "attributes": {"Dexterity": 4, "Wits": 3}, "abilities": {"Stealth": 3}}
    target = {"name": "Guard", "creature": "mortal", "attributes": {"Perception": 2}, "abilities": {"Alertness": 1}}
    data = client.post("/api/v1/tabletop/ambush", json={
        "attacker": attacker, "target": target,
        "dice": {"stealth": [8, 9, 7, 2, 3, 10, 6], "alertness": [7, 2, 3]}}).get_json()
    assert data["outcome"] == "free_attack" and data["attack_dice"] == 4  # 5 successes less 1
    refused = client.post("/api/v1/tabletop/ambush", json={"attacker": attacker, "target": target, "in_combat": True})
    assert refused.status_code == 422 and refused.get_json()["field"] == "target"
    dark = client.post("/api/v1/tabletop/ambush", json={"attacker": attacker, "target": target, "cover": False,
                                                          "settings": {"tabletop_profile": "dark_ages"}})
    assert dark.status_code == 422 and dark.get_json()["field"] == "cover"


# ---------------------------------------------------------------- the Kiss (000, 003, 004 "Bite")

def test_the_kiss_at_the_tabletop_connects_without_damage_then_the_vampire_drinks(client, auth, dbconn):
    """004 "Bite": after a bear hug, the Kiss on the following turn (the bite's roll, no health level);
    then, as his action, the vampire drains the victim by the feeding rule: each blood point a level of
    lethal to a mortal, into his pool. Drinking from someone not Kissed is refused, changing nothing."""
    from larp.models import Chronicle, ChronicleSetting, TabletopCombat

    ChronicleSetting.create(chronicle=Chronicle.select().first(), key="tabletop_profile", value="dark_ages")
    auth.login()
    lys, ruth = str(char("Lys Moreau").id), str(char("Ruth Calder").id)
    Character.update(blood_current=2).where(Character.id == int(lys)).execute()

    def step(path, **fields):
        row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
        return client.post(f"/tabletop/{row.id}/{path}", data={"version": row.version, **fields}, headers=HX)

    client.post("/tabletop/start", data={"characters": [lys, ruth]}, headers=HX)
    step("initiative", **{f"die-{lys}": "9", f"die-{ruth}": "1"})
    step("declare", fighter=[ruth, lys])
    assert step("attack", attacker=lys, target=ruth, maneuver="bear_hug",
                **{"dice-attack": "8 2 2 2 2", "dice-damage": "2 2 2", "dice-soak": "2 2"}).status_code == 200
    step("other", attacker=ruth, note="struggles")
    step("next")
    step("initiative", **{f"die-{lys}": "9", f"die-{ruth}": "1"})
    step("declare", fighter=[ruth, lys], **{f"{lys}-actions": "2"})
    refused = step("drink", attacker=lys, victim=ruth, blood="1")
    assert refused.status_code == 422 and "the Kiss comes first" in refused.get_data(as_text=True)
    response = step("attack", attacker=lys, target=ruth, maneuver="kiss", **{"dice-attack": "8 8 2 2 2 2"})
    assert response.status_code == 200, response.get_data(as_text=True)[:600]
    kiss = Ruling.select().order_by(Ruling.id.desc()).get()
    assert kiss.outcome["hit"] and kiss.outcome["levels"] == 0
    assert Character.get_by_id(int(ruth)).damage_lethal == 0
    step("other", attacker=ruth, note="swoons")
    page = client.get("/tabletop").get_data(as_text=True)
    assert "The Kiss: drink from" in page
    room = Character.get_by_id(int(lys)).blood_max - 2
    assert f"Lys Moreau's pool has room for {room} blood points; at most 3 a turn." in page
    assert re.search(rf'name="blood" min="1" max="{room}"', page)
    drunk = step("drink", attacker=lys, victim=ruth, blood="2")
    assert drunk.status_code == 200, drunk.get_data(as_text=True)[:600]
    assert Character.get_by_id(int(ruth)).damage_lethal == 2
    assert Character.get_by_id(int(lys)).blood_current == 4
    assert Ruling.select().order_by(Ruling.id.desc()).get().kind == "feeding"


def test_the_api_resolves_a_kiss_as_a_bite_without_damage(client, auth, dbconn):
    auth.login()
    vampire = {"name": "Lys", "attributes": {"Strength": 2, "Dexterity": 3, "Stamina": 2}, "abilities": {"Brawl": 2}}
    mortal = {"name": "Ruth", "creature": "mortal", "attributes": {"Strength": 2, "Dexterity": 3, "Stamina": 2}}
    data = client.post("/api/v1/tabletop/attack", json={
        "maneuver": "kiss", "attacker": vampire, "target": mortal, "circumstances": {"prior_hold": "hold"},
        "dice": {"attack": [8, 8, 2, 2, 2, 2]}}).get_json()
    assert data["hit"] and data["levels"] == 0 and data["target_track"]["lethal"] == 0
