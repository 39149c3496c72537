"""Issue 37's per-attack, per-defense and per-fighter inputs on the tabletop screen: moved yards,
inside reach, the part aimed at, the shield's side, fire and sunlight; the passive parry and the
shield parry; helmets and shields among the gear."""

from __future__ import annotations

import pytest

from larp.models import Character, Chronicle, ChronicleSetting, Ruling, TabletopCombat

HX = {"HX-Request": "true"}


def cid(name: str) -> str:
    return str(Character.get(Character.name == name).id)


def step(client, path: str, **fields):
    row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
    return client.post(f"/tabletop/{row.id}/{path}", data={"version": row.version, **fields}, headers=HX)


def fight(client, actions: str = "1"):
    """Konrad Vale against Vivienne Ashcombe; Konrad acts first."""
    kon, viv = cid("Konrad Vale"), cid("Vivienne Ashcombe")
    assert client.post("/tabletop/start", data={"characters": [kon, viv]}, headers=HX).status_code == 200
    assert step(client, "initiative", **{f"die-{kon}": "9", f"die-{viv}": "1"}).status_code == 200
    assert step(client, "declare", fighter=[viv, kon], **{f"{kon}-actions": actions, f"{viv}-actions": "1",
                                                          f"{viv}-defenses": "1"}).status_code == 200
    return kon, viv


def at_the_table(client, **fields):
    """Send an attack with every die rolled at the table: each roll the screen asks for is given
    that many 8s (a success each)."""
    import re

    dice: dict[str, str] = {}
    for _ in range(8):
        response = step(client, "attack", dice_mode="table", **fields, **dice)
        if response.status_code != 422:
            return response
        text = response.get_data(as_text=True).replace("&#39;", "'")
        asked = re.search(r"Roll (?:[^<]*?'s )?(\w+): (\d+) dice against", text)
        assert asked, re.findall(r"<h3>[^<]*</h3>|<p>[^<]*</p>", text)
        dice[f"dice-{asked.group(1)}"] = " ".join(["8"] * int(asked.group(2)))
    raise AssertionError("too many rolls asked for")


def last() -> Ruling:
    return Ruling.select().order_by(Ruling.id.desc()).get()


def test_the_gear_takes_helmets_and_shields_apart_from_body_armor(client, auth, dbconn):
    auth.login()
    kon, viv = fight(client)
    page = client.get("/tabletop").get_data(as_text=True)
    assert f'name="{viv}-helmet"' in page and f'name="{viv}-shield"' in page and ">Buckler<" in page
    response = step(client, "gear", **{f"{kon}-weapon": "", f"{viv}-weapon": "", f"{viv}-helmet": "helm",
                                       f"{viv}-shield": "shield"})
    assert response.status_code == 200
    gear = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().gear
    assert gear[viv]["helmet"] == "helm" and gear[viv]["shield"] == "shield"
    refused = step(client, "gear", **{f"{viv}-weapon": "", f"{viv}-helmet": "crown"})
    assert refused.status_code == 422 and "no tabletop helmet" in refused.get_data(as_text=True)


def test_the_per_attack_inputs_reach_the_rules_and_the_record(client, auth, dbconn):
    """The screen's new inputs are passed to the rules and recorded: a blow aimed at the head of a
    helmeted target soaks with the helmet (004 "Armor"), one at the legs without it (000 "Armor Chart")."""
    auth.login()
    kon, viv = fight(client, actions="2")
    step(client, "gear", **{f"{kon}-weapon": "", f"{viv}-weapon": "", f"{viv}-helmet": "helm"})
    page = client.get("/tabletop").get_data(as_text=True)
    for name in ("moved_yards", "inside_reach", "aimed_part", "shield_side", "source", "with_shield"):
        assert f'name="{name}"' in page, name
    response = at_the_table(client, attacker=kon, target=viv, maneuver="strike", aimed_part="head",
                            moved_yards="2", inside_reach="on", source="other")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    head = last()
    assert head.inputs["circumstances"]["aimed_part"] == "head" and head.inputs["circumstances"]["moved_yards"] == 2
    assert head.inputs["circumstances"]["inside_reach"] is True and head.inputs["gear"][viv]["helmet"] == "helm"
    assert any("moves 2 yards" in s["text"] for s in head.steps)
    response = at_the_table(client, attacker=kon, target=viv, maneuver="strike", aimed_part="legs")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    legs = last()
    assert head.outcome["soak"]["pool"] == legs.outcome["soak"]["pool"] + 1  # the helm's +1


def test_fire_is_aggravated_to_a_vampire_from_the_screen(client, auth, dbconn):
    """000 "Damage Types": fire is aggravated to a vampire; the screen's "Damage from: Fire" says so."""
    auth.login()
    kon, viv = fight(client)
    response = step(client, "attack", attacker=kon, target=viv, maneuver="strike", source="fire")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    ruling = last()
    assert ruling.inputs["circumstances"]["source"] == "fire"
    if ruling.outcome["levels"]:
        assert Character.get_by_id(int(viv)).damage_aggravated == ruling.outcome["levels"]
    refused = step(client, "attack", attacker=kon, target=viv, maneuver="strike", source="acid")
    assert refused.status_code == 422


def test_a_dark_ages_passive_parry_spends_no_action_and_raises_the_difficulty(client, auth, dbconn):
    """004 "Parrying": the target announces a passive parry: no roll, no action, the attack's difficulty
    rises by the setting tabletop_passive_parry_difficulty."""
    ChronicleSetting.create(chronicle=Chronicle.select().first(), key="tabletop_profile", value="dark_ages")
    auth.login()
    kon, viv = fight(client)
    step(client, "gear", **{f"{kon}-weapon": "sword", f"{viv}-weapon": "sword"})
    page = client.get("/tabletop").get_data(as_text=True)
    assert 'value="passive_parry"' in page
    before = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().state
    response = step(client, "attack", attacker=kon, target=viv, maneuver="weapon_strike", defense="passive_parry")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    ruling = last()
    assert ruling.inputs["defense"] == "passive_parry" and ruling.outcome["defense_roll"] is None
    assert any("passive" in s["text"].lower() for s in ruling.steps)
    after = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().state
    assert after["used"].get(viv, 0) == before["used"].get(viv, 0)  # no action spent


def test_the_api_takes_helmets_shields_the_shield_parry_and_refuses_a_gun(client, auth, dbconn):
    """The stateless attack: a helmet soaks at the head only (004 "Armor"); ``with_shield`` is read;
    ``gun`` is not an input of the API (the stored combat carries it): 422 naming it."""
    auth.login()
    attacker = {"name": "A", "attributes": {"Strength": 3, "Dexterity": 3, "Stamina": 2}, "abilities": {"Brawl": 2}}
    target = {"name": "B", "attributes": {"Strength": 2, "Dexterity": 2, "Stamina": 2}, "helmet": "helm",
              "shield": "buckler"}

    def soak(part):
        data = client.post("/api/v1/tabletop/attack", json={
            "maneuver": "strike", "attacker": attacker, "target": target, "circumstances": {"aimed_part": part},
            "dice": {"attack": [8] * 5}}).get_json()
        return data["soak"]["pool"]

    assert soak("head") == soak("legs") + 1
    shielded = client.post("/api/v1/tabletop/attack", json={
        "maneuver": "strike", "attacker": attacker, "target": target,
        "defense": {"maneuver": "parry", "with_shield": True}, "settings": {"tabletop_profile": "dark_ages"}})
    assert shielded.status_code == 200, shielded.get_json()
    gun = client.post("/api/v1/tabletop/attack", json={"maneuver": "strike", "attacker": attacker, "target": target,
                                                        "circumstances": {"gun": "pistol"}})
    assert gun.status_code == 422 and gun.get_json()["field"] == "circumstances.gun"


def test_a_move_as_an_action_is_checked_recorded_and_moves_the_order_on(client, auth, dbconn):
    """000 "Movement": a move farther than the running distance is refused, changing nothing; one
    within it is his action, recorded with its pace."""
    auth.login()
    kon, viv = fight(client)
    before = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
    refused = step(client, "move", attacker=kon, yards="150")
    assert refused.status_code == 422 and "can move at most" in refused.get_data(as_text=True)
    assert TabletopCombat.get_by_id(before.id).version == before.version
    done = step(client, "move", attacker=kon, yards="5")
    assert done.status_code == 200, done.get_data(as_text=True)[:500]
    ruling = last()
    assert ruling.outcome["yards"] == 5 and ruling.outcome["own_action"] is True
    assert TabletopCombat.get_by_id(before.id).state["taken"][kon] == 1
    assert step(client, "move", attacker=kon, yards="5").status_code == 422  # his action is spent


def test_aiming_takes_the_turn_and_the_shot_gets_its_dice(client, auth, dbconn):
    """000 "Aiming": Ruth Calder (Firearms 3) aims a turn at Konrad; next turn her shot counts that
    turn of aiming without it being typed."""
    auth.login()
    ruth, kon = cid("Ruth Calder"), cid("Konrad Vale")
    assert client.post("/tabletop/start", data={"characters": [ruth, kon]}, headers=HX).status_code == 200
    step(client, "gear", **{f"{ruth}-weapon": "pistol_light", f"{kon}-weapon": ""})
    step(client, "initiative", **{f"die-{ruth}": "10", f"die-{kon}": "1"})
    step(client, "declare", fighter=[kon, ruth])
    response = step(client, "aim", attacker=ruth, aim_target=kon, target_pace="still")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().state["carried"]["aims"][ruth]["turns"] == 1
    step(client, "other", attacker=kon, note="waits")
    step(client, "next")
    step(client, "initiative", **{f"die-{ruth}": "10", f"die-{kon}": "1"})
    step(client, "declare", fighter=[kon, ruth])
    shot = step(client, "attack", attacker=ruth, target=kon, maneuver="shoot", aim_turns="0")
    assert shot.status_code == 200, shot.get_data(as_text=True)[:500]
    assert last().inputs["circumstances"]["aim_turns"] == 1


def test_an_effect_noted_for_the_end_of_the_turn_takes_effect_when_it_ends(client, auth, dbconn):
    """004 "Extended and Delayed Effects": noted for one turn later, it waits through the end of this
    turn and takes effect at the end of the next, recorded."""
    auth.login()
    kon, viv = fight(client)
    assert step(client, "schedule", who=viv, text="", turns="0").status_code == 422
    assert step(client, "schedule", who=viv, text="The poison acts", turns="1").status_code == 200
    rulings = Ruling.select().count()
    step(client, "next")
    assert Ruling.select().count() == rulings  # not due yet
    step(client, "initiative", **{f"die-{kon}": "9", f"die-{viv}": "1"})
    step(client, "declare", fighter=[viv, kon])
    assert "The poison acts (end of turn 2)" in client.get("/tabletop").get_data(as_text=True)
    assert step(client, "next").status_code == 200
    ruling = last()
    assert ruling.summary == "End of tabletop turn 2: 1 effect takes effect."
    assert "The poison acts" in ruling.steps[0]["text"]
    assert TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().state["carried"].get("pending") in ([], None)


def test_shots_spend_rounds_and_reloading_fills_the_clip(client, auth, dbconn):
    """000 "Ranged Weapons Chart", "Reloading": each shot from the screen spends a round of the light
    pistol's clip, counted in the combat; reloading is an action that fills it; a full gun is refused."""
    from larp.rules.damage import armory

    auth.login()
    ruth, kon = cid("Ruth Calder"), cid("Konrad Vale")
    clip = armory("tabletop").weapons["pistol_light"].clip
    assert client.post("/tabletop/start", data={"characters": [ruth, kon]}, headers=HX).status_code == 200
    step(client, "gear", **{f"{ruth}-weapon": "pistol_light", f"{kon}-weapon": ""})
    step(client, "initiative", **{f"die-{ruth}": "10", f"die-{kon}": "1"})
    step(client, "declare", fighter=[kon, ruth], **{f"{ruth}-actions": "2"})
    assert f"{clip} of {clip} rounds loaded" in client.get("/tabletop").get_data(as_text=True)
    full = step(client, "reload", attacker=ruth)
    assert full.status_code == 422 and "fully loaded" in full.get_data(as_text=True)
    shot = step(client, "attack", attacker=ruth, target=kon, maneuver="shoot")
    assert shot.status_code == 200, shot.get_data(as_text=True)[:500]
    assert last().inputs["circumstances"]["gun"]["weapon"] == "pistol_light"
    guns = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().state["carried"]["guns"]
    assert guns[ruth]["pistol_light"]["rounds"] == clip - 1
    step(client, "other", attacker=kon, note="ducks")
    assert f"{clip - 1} of {clip} rounds loaded" in client.get("/tabletop").get_data(as_text=True)
    assert step(client, "reload", attacker=ruth).status_code == 200
    assert last().outcome["gun"]["rounds"] == clip


def test_blood_raises_a_physical_attribute_for_the_attacks_and_leaves_the_pool(client, auth, dbconn):
    """004 "Spend Blood": Konrad (Strength 4, 9th generation: at most 5) burns a blood point for
    Strength: his pool loses one, the strike's damage pool gains one; beyond the maximum is refused,
    changing nothing."""
    auth.login()
    kon, viv = fight(client, actions="2")
    Character.update(blood_current=8).where(Character.id == int(kon)).execute()
    step(client, "gear", **{f"{kon}-weapon": "", f"{viv}-weapon": ""})
    plain = at_the_table(client, attacker=kon, target=viv, maneuver="strike")
    assert plain.status_code == 200
    before = last().outcome["damage_pool"] - last().outcome["net_successes"]  # Strength less one
    refused = step(client, "blood", fighter=kon, **{"raise-Strength": "9"})
    assert refused.status_code == 422 and Character.get_by_id(int(kon)).blood_current == 8
    done = step(client, "blood", fighter=kon, **{"raise-Strength": "1"})
    assert done.status_code == 200, done.get_data(as_text=True)[:500]
    assert Character.get_by_id(int(kon)).blood_current == 7 and last().outcome["blood"] == 1
    step(client, "other", attacker=viv, note="waits")
    boosted = at_the_table(client, attacker=kon, target=viv, maneuver="strike")
    assert boosted.status_code == 200, boosted.get_data(as_text=True)[:500]
    assert last().outcome["damage_pool"] - last().outcome["net_successes"] == before + 1


def test_a_dark_ages_dodge_roll_is_divided_among_the_attacks(client, auth, dbconn):
    """004 "Dodging": Vivienne spends her kept defense on one dodge roll against two attackers (+1
    difficulty); each attack then takes a share of its successes, never more than are left."""
    ChronicleSetting.create(chronicle=Chronicle.select().first(), key="tabletop_profile", value="dark_ages")
    auth.login()
    kon, viv = fight(client, actions="2")
    assert step(client, "dodge", who=viv, dodge_attackers="1").status_code == 422  # two attackers at least
    import re

    asked = step(client, "dodge", who=viv, dodge_attackers="2", dice_mode="table")
    pool = int(re.search(r"dodge: (\d+) dice against difficulty 7", asked.get_data(as_text=True)).group(1))
    rolled = step(client, "dodge", who=viv, dodge_attackers="2", **{"dice-dodge": " ".join(["9"] * pool)})
    assert rolled.status_code == 200, rolled.get_data(as_text=True)[:500]
    dodge = last()
    assert dodge.outcome["difficulty"] == 7
    successes = dodge.outcome["successes"]
    assert successes == pool
    state = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().state
    assert state["carried"]["dodges"][viv] == successes
    too_many = step(client, "attack", attacker=kon, target=viv, maneuver="strike", shared_dodge=str(successes + 1))
    assert too_many.status_code == 422
    given = min(successes, 1)
    attack = step(client, "attack", attacker=kon, target=viv, maneuver="strike", defense="dodge",
                  shared_dodge=str(given))
    assert attack.status_code == 200, attack.get_data(as_text=True)[:500]
    assert last().inputs["shared"] == given
    state = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().state
    assert state["carried"]["dodges"][viv] == successes - given


def test_a_dark_ages_clinch_turn_hurts_both_and_is_recorded(client, auth, dbconn):
    """004 "Bear Hug/Clinch" (variant): once Konrad's clinch holds Vivienne, a later turn is one tap:
    resisted Strength + Brawl, both take Strength damage on their tracks; someone in no clinch is refused."""
    ChronicleSetting.create(chronicle=Chronicle.select().first(), key="tabletop_profile", value="dark_ages")
    auth.login()
    kon, viv = fight(client)
    assert step(client, "clinch", attacker=kon).status_code == 422  # no clinch yet
    made = at_the_table(client, attacker=kon, target=viv, maneuver="clinch")
    assert made.status_code == 200, made.get_data(as_text=True)[:500]
    assert TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().state["holds"]
    step(client, "other", attacker=viv, note="struggles")
    step(client, "next")
    step(client, "initiative", **{f"die-{kon}": "9", f"die-{viv}": "1"})
    step(client, "declare", fighter=[viv, kon])
    assert "Clinch turn: both crush each other" in client.get("/tabletop").get_data(as_text=True)
    turn = step(client, "clinch", attacker=kon)
    assert turn.status_code == 200, turn.get_data(as_text=True)[:500]
    ruling = last()
    assert {"grip_a", "grip_b", "damage_a", "damage_b"} <= set(ruling.outcome["rolls"])
    for key in (kon, viv):
        stored = Character.get_by_id(int(key))
        track = ruling.outcome["tracks"][key]
        assert (stored.damage_bashing, stored.damage_lethal) == (track["bashing"], track["lethal"])


@pytest.mark.parametrize("profile, extra, cost", [("revised", 1, 1), ("dark_ages", 2, 2)])
def test_celeritys_extra_actions_cost_blood_at_the_declaration(client, auth, dbconn, profile, extra, cost):
    """004 "Activate Celerity" (setting tabletop_celerity_blood, by profile): Vivienne (Celerity 2)
    declares extra actions: one blood point a turn (revised, LotNR), one an action (Dark Ages), off
    her pool and recorded; more than her pool is refused, changing nothing."""
    ChronicleSetting.create(chronicle=Chronicle.select().first(), key="tabletop_profile", value=profile)
    auth.login()
    kon, viv = cid("Konrad Vale"), cid("Vivienne Ashcombe")
    Character.update(blood_current=1).where(Character.id == int(viv)).execute()
    assert client.post("/tabletop/start", data={"characters": [kon, viv]}, headers=HX).status_code == 200
    step(client, "initiative", **{f"die-{kon}": "1", f"die-{viv}": "9"})
    if cost > 1:
        refused = step(client, "declare", fighter=[kon, viv], **{f"{viv}-celerity": str(extra)})
        assert refused.status_code == 422 and Character.get_by_id(int(viv)).blood_current == 1
        Character.update(blood_current=5).where(Character.id == int(viv)).execute()
    done = step(client, "declare", fighter=[kon, viv], **{f"{viv}-celerity": str(extra)})
    assert done.status_code == 200, done.get_data(as_text=True)[:500]
    left = 1 if cost == 1 else 5
    assert Character.get_by_id(int(viv)).blood_current == left - cost
    assert last().outcome["paid"] == {viv: cost}


def test_a_held_fighter_may_only_try_to_break_free(client, auth, dbconn):
    """000 "Hold": once Konrad's hold has Vivienne, she can neither dodge nor strike until she breaks
    free (holds.check_defense, check_action); refused, nothing changed; breaking free stays open."""
    auth.login()
    kon, viv = fight(client)
    made = at_the_table(client, attacker=kon, target=viv, maneuver="hold")
    assert made.status_code == 200, made.get_data(as_text=True)[:500]
    assert TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().state["holds"]
    step(client, "next")
    step(client, "initiative", **{f"die-{kon}": "9", f"die-{viv}": "1"})
    step(client, "declare", fighter=[viv, kon], **{f"{viv}-defenses": "0"})
    before = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().version
    dodge = step(client, "attack", attacker=kon, target=viv, maneuver="strike", defense="dodge", defense_how="point")
    assert dodge.status_code == 422 and "can take no other action than breaking" in dodge.get_data(as_text=True)
    step(client, "other", attacker=kon, note="squeezes")
    strike = step(client, "attack", attacker=viv, target=kon, maneuver="strike")
    assert strike.status_code == 422 and "no other action until" in strike.get_data(as_text=True)
    assert TabletopCombat.select().order_by(TabletopCombat.id.desc()).get().version == before + 1  # the "other" only
    assert "Try to break free" in strike.get_data(as_text=True)
