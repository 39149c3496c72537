"""The narrator's tabletop combat screen (issue 9): a turn on stored characters, persistence, bad input."""

from __future__ import annotations

import re

import pytest

from larp.models import Character, Ruling, RulingCharacter, TabletopCombat

HX = {"HX-Request": "true"}


def cid(name: str) -> str:
    return str(Character.get(Character.name == name).id)


def combat_row() -> TabletopCombat:
    return TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()


def snapshot():
    """Everything a tabletop step may change, to prove that refused input changes nothing."""
    row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).first()
    return (
        Ruling.select().count(),
        RulingCharacter.select().count(),
        sorted((c.id, c.version, c.damage_bashing, c.damage_lethal, c.damage_aggravated, c.willpower_current)
               for c in Character.select()),
        (row.version, row.state) if row else None,
    )


def step(client, path: str, htmx: bool = True, **fields):
    row = combat_row()
    data = {"version": row.version, **fields}
    return client.post(f"/tabletop/{row.id}/{path}", data=data, headers=HX if htmx else {})


@pytest.fixture
def konrad_and_vivienne(client, auth, dbconn):
    """Konrad Vale (Kincaid's numbers) and Vivienne Ashcombe (Veronica's), initiative rolled
    (Konrad 9 + 7 = 16, Vivienne 1 + 6 = 7), Konrad declares a strike on Vivienne."""
    auth.login()
    kon, viv = cid("Konrad Vale"), cid("Vivienne Ashcombe")
    assert client.post("/tabletop/start", data={"characters": [kon, viv]}, headers=HX).status_code == 200
    response = step(client, "initiative", **{f"die-{kon}": "9", f"die-{viv}": "1"})
    assert response.status_code == 200
    response = step(client, "declare", fighter=[viv, kon], **{f"{kon}-actions": "1", f"{kon}-maneuver": "strike",
                                                             f"{kon}-target": viv, f"{viv}-actions": "1"})
    assert response.status_code == 200
    return kon, viv


def test_screen_requires_login(client):
    response = client.get("/tabletop")
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_start_lists_the_chronicle_and_needs_two_to_six(client, auth, dbconn):
    """Issue 9: 2-6 characters chosen from the chronicle."""
    auth.login()
    page = client.get("/tabletop").get_data(as_text=True)
    assert "Start a combat" in page and "Lys Moreau" in page
    before = snapshot()
    response = client.post("/tabletop/start", data={"characters": [cid("Lys Moreau")]}, headers=HX)
    assert response.status_code == 422
    assert "Choose 2 to 6 characters" in response.get_data(as_text=True)
    assert snapshot() == before


def test_initiative_is_rolled_recorded_and_kept(client, auth, konrad_and_vivienne):
    """000 "Stage One: Initiative": Konrad Dexterity 4 + Wits 3 + 9 = 16 before Vivienne 3 + 3 + 1 = 7;
    the ruling is recorded (kind tabletop) and a reload shows the turn where it was."""
    kon, viv = konrad_and_vivienne
    ruling = Ruling.select().where(Ruling.kind == "tabletop").get()
    assert ruling.summary == "Tabletop turn 1: initiative"
    assert [e["score"] for e in ruling.outcome["order"]] == [16, 7]
    assert {rc.role for rc in ruling.participants} == {"fighter"}
    row = combat_row()
    assert row.state["phase"] == "act" and row.state["declarations"][kon]["maneuver"] == "strike"
    page = client.get("/tabletop").get_data(as_text=True)
    assert re.search(r'class="actor-name">Konrad Vale<', page)
    assert '<option value="strike" selected>' in page


def test_kincaid_strikes_veronica_on_the_screen(client, konrad_and_vivienne):
    """000 "Bashing Damage" on stored characters: 8, 6, 7, 9 plus Potence 2 = six levels; soak 3, 8: one;
    five bashing halved: two levels on Vivienne's health track, recorded; she is dazed next turn."""
    kon, viv = konrad_and_vivienne
    response = step(client, "attack", attacker=kon, target=viv, maneuver="strike", **{
        "dice-attack": "8 2 2 2 2 2 2", "dice-damage": "8 6 7 9", "dice-soak": "3 8"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Konrad Vale&#39;s strike hits Vivienne Ashcombe: 2 levels marked." in page
    vivienne = Character.get_by_id(int(viv))
    assert (vivienne.damage_bashing, vivienne.version) == (2, 2)
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.kind == "tabletop" and ruling.outcome["levels"] == 2
    assert ruling.inputs["dice"]["damage"] == [8, 6, 7, 9]
    assert any(s["rule"] == '000 "Bashing Damage"' and "halved" in s["text"] for s in ruling.steps)
    assert {(rc.character.id, rc.role, rc.before["damage_bashing"]) for rc in ruling.participants} == {
        (int(kon), "attacker", 0), (int(viv), "target", 0)}
    state = combat_row().state
    assert state["taken"] == {kon: 1}
    assert {"who": viv, "kind": "dazed", "turn": 2} in state["conditions"]
    assert re.search(r'class="actor-name">Vivienne Ashcombe<', page)


@pytest.mark.parametrize("fields, field_text", [
    ({"maneuver": "strike", "difficulty": "11"}, "Difficulty 11 is impossible"),
    ({"maneuver": "bite"}, "Bite needs a successful clinch, hold or tackle on Vivienne Ashcombe"),
    ({"maneuver": "claw"}, "Konrad Vale has no power that grows claws"),
    ({"maneuver": "automatic_fire"}, "Automatic fire needs a ranged weapon"),
    ({"maneuver": "strike", "defense": "parry", "defense_how": "roll"}, "Vivienne Ashcombe has no melee weapon to parry with"),
    ({"maneuver": "strike", "defense": "dodge"}, "Vivienne Ashcombe kept no defense for this turn: abort by Willpower instead."),
    ({"maneuver": "strike", "dice-attack": "8 8"}, "The attack roll is 7 dice; 2 results were given."),
])
def test_bad_input_is_shown_inline_and_changes_nothing(client, konrad_and_vivienne, fields, field_text):
    """Issue 9: difficulty 11, a maneuver the character cannot use, a bite without a prior hold: a clear
    message where the narrator is looking, 422, nothing changed."""
    kon, viv = konrad_and_vivienne
    before = snapshot()
    response = step(client, "attack", attacker=kon, target=viv, **fields)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_text in page.replace("&#39;", "'")
    assert "Nothing was changed" in page
    assert snapshot() == before


def test_dice_rolled_at_the_table_are_asked_for_one_roll_at_a_time(client, konrad_and_vivienne):
    """Dice rolled at the table: the screen asks for the next roll with its size and changes nothing
    until every roll is in."""
    kon, viv = konrad_and_vivienne
    before = snapshot()
    fields = dict(attacker=kon, target=viv, maneuver="strike", dice_mode="table")
    response = step(client, "attack", **fields, **{"dice-attack": "8 8 2 2 2 2 2"})
    assert response.status_code == 422
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert "Roll Konrad Vale's damage: 5 dice against difficulty 6" in page
    assert 'name="dice-attack" inputmode="numeric" autocomplete="off" value="8 8 2 2 2 2 2"' in page
    assert snapshot() == before
    response = step(client, "attack", **fields, **{"dice-attack": "8 8 2 2 2 2 2", "dice-damage": "2 2 2 2 2"})
    assert "Roll Vivienne Ashcombe's soak: 2 dice" in response.get_data(as_text=True).replace("&#39;", "'")
    response = step(client, "attack", **fields, **{"dice-attack": "8 8 2 2 2 2 2", "dice-damage": "2 2 2 2 2",
                                                   "dice-soak": "9 9"})
    assert response.status_code == 200
    assert Character.get_by_id(int(viv)).damage_bashing == 0  # two Potence levels, both soaked


def test_only_the_fighter_whose_turn_it_is_acts(client, konrad_and_vivienne):
    """000: actions are staged in order of initiative; Vivienne (7) waits for Konrad (16)."""
    kon, viv = konrad_and_vivienne
    before = snapshot()
    response = step(client, "attack", attacker=viv, target=kon, maneuver="strike")
    assert response.status_code == 422
    assert "cannot act now. It is Konrad Vale" in response.get_data(as_text=True).replace("&#39;", "'")
    assert snapshot() == before


def test_abort_by_spending_willpower(client, konrad_and_vivienne):
    """000 "Aborting Actions": Vivienne, who has not acted, aborts to a dodge by spending a Willpower point."""
    kon, viv = konrad_and_vivienne
    willpower = Character.get_by_id(int(viv)).willpower_current
    response = step(client, "attack", attacker=kon, target=viv, maneuver="strike", defense="dodge",
                    defense_how="point", **{"dice-attack": "8 2 2 2 2 2 2", "dice-defense": "9 9 9 9"})
    assert response.status_code == 200
    assert Character.get_by_id(int(viv)).willpower_current == willpower - 1
    state = combat_row().state
    assert state["aborted"] == {viv: 1}
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.outcome["hit"] is False
    assert [rc.before["willpower_current"] for rc in ruling.participants if rc.role == "target"] == [willpower]
    page = client.get("/tabletop").get_data(as_text=True)
    assert "Every action of turn 1 is done" in page  # her only action went to the dodge


def test_a_stale_form_is_refused(client, konrad_and_vivienne):
    """Two screens (or a double tap): the second post with the old version changes nothing (409)."""
    kon, viv = konrad_and_vivienne
    row = combat_row()
    assert step(client, "other", attacker=kon, note="moves behind the pillar").status_code == 200
    before = snapshot()
    response = client.post(f"/tabletop/{row.id}/other", data={"version": row.version, "attacker": kon}, headers=HX)
    assert response.status_code == 409
    assert snapshot() == before


def test_plain_posts_redirect_and_the_turn_goes_on(client, konrad_and_vivienne):
    """Without JavaScript every step redirects (303) to the screen; next turn starts with initiative."""
    kon, viv = konrad_and_vivienne
    response = step(client, "other", htmx=False, attacker=kon, note="reloads")
    assert response.status_code == 303 and response.headers["Location"].endswith("/tabletop")
    assert step(client, "other", htmx=False, attacker=viv).status_code == 303
    assert "Konrad Vale: reloads." in combat_row().state["log"]
    assert step(client, "next", htmx=False).status_code == 303
    assert combat_row().state["phase"] == "initiative" and combat_row().state["turn"] == 2
    assert step(client, "end", htmx=False).status_code == 303
    assert combat_row().ended_at is not None
    assert "Start a combat" in client.get("/tabletop").get_data(as_text=True)


def test_weapons_and_armor(client, konrad_and_vivienne):
    """000 charts: Konrad draws a knife (Strength + 1, lethal); Vivienne's Kevlar vest (3) adds to her soak."""
    kon, viv = konrad_and_vivienne
    response = step(client, "gear", **{f"{kon}-weapon": "knife", f"{kon}-armor": "", f"{viv}-weapon": "",
                                       f"{viv}-armor": "class_three"})
    assert response.status_code == 200
    assert combat_row().gear[viv] == {"weapon": None, "armor": "class_three"}
    response = step(client, "attack", attacker=kon, target=viv, maneuver="weapon_strike", **{
        "dice-attack": "8 2 2 2 2 2", "dice-damage": "8 8 8 8 8", "dice-soak": "2 2 2 2 2"})
    assert response.status_code == 200
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.outcome["soak"]["pool"] == 5 and ruling.outcome["damage_pool"] == 5
    assert Character.get_by_id(int(viv)).damage_lethal == 7  # 5 + Potence 2, none soaked
    bad = step(client, "gear", **{f"{kon}-weapon": "lightsaber"})
    assert bad.status_code == 422 and "no tabletop weapon" in bad.get_data(as_text=True)


def test_the_nav_links_the_screen(client, auth, dbconn):
    """The tabletop screen is one tap away from every page."""
    auth.login()
    page = client.get("/challenge").get_data(as_text=True)
    assert 'href="/tabletop"' in page


def test_dark_ages_bear_hug_then_bite_next_turn(client, auth, dbconn):
    """004 "Bite": after a successful bear hug, the bite may follow on the following turn (aggravated,
    Strength + 1); the profile is the chronicle setting tabletop_profile."""
    from larp.models import ChronicleSetting, Chronicle

    ChronicleSetting.create(chronicle=Chronicle.select().first(), key="tabletop_profile", value="dark_ages")
    auth.login()
    lys, ruth = cid("Lys Moreau"), cid("Ruth Calder")
    client.post("/tabletop/start", data={"characters": [lys, ruth]}, headers=HX)
    step(client, "initiative", **{f"die-{lys}": "9", f"die-{ruth}": "1"})
    step(client, "declare", fighter=[ruth, lys])
    response = step(client, "attack", attacker=lys, target=ruth, maneuver="bear_hug",
                    **{"dice-attack": "8 2 2 2 2", "dice-damage": "2 2 2", "dice-soak": "2 2"})
    assert response.status_code == 200
    assert combat_row().state["holds"] == [{"holder": lys, "target": ruth, "maneuver": "bear_hug", "turn": 1}]
    early = step(client, "attack", attacker=lys, target=ruth, maneuver="bite")
    assert early.status_code == 422  # Lys has no action left this turn
    step(client, "other", attacker=ruth, note="struggles")
    step(client, "next")
    step(client, "initiative", **{f"die-{lys}": "9", f"die-{ruth}": "1"})
    step(client, "declare", fighter=[ruth, lys])
    response = step(client, "attack", attacker=lys, target=ruth, maneuver="bite",
                    **{"dice-attack": "8 2 2 2 2 2 2 2", "dice-damage": "8 8 2 2"})
    assert response.status_code == 200, response.get_data(as_text=True)
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.outcome["attack_pool"] == 3 + 2 + 2 + 1  # Dex + Brawl + held target + bite accuracy
    assert any(s["rule"] == '004 "Stage Two: Attack"' for s in ruling.steps)
    ruth_row = Character.get_by_id(int(ruth))
    assert (ruth_row.damage_lethal, ruth_row.damage_aggravated) == (2, 0)  # a mortal takes it as lethal


def test_a_fighter_deleted_mid_combat_never_makes_the_screen_fail(client, auth, dbconn):
    """Issue 19 (found by the form fuzz): an organiser deleted a character while a narrator's tabletop
    combat had him as a fighter; every tabletop page answered 500 and the combat could not be ended.
    Deleting him ends that combat; one broken before (no such cleanup) gives the start screen with the
    reason, and a new combat takes its place."""
    from larp.models import TabletopCombat
    from larp.services.sheets import delete_character

    auth.login("boss", "organiser")
    fighters = [c for c in Character.select().order_by(Character.id) if {"Dexterity", "Wits", "Strength", "Stamina"}
                <= set(c.tabletop or {})][:3]
    client.post("/tabletop/start", data={"characters": [str(fighters[0].id), str(fighters[1].id)]})
    row = TabletopCombat.get(TabletopCombat.ended_at.is_null())
    # A combat broken the old way: its fighter's row removed behind its back.
    state = dict(row.state)
    state["fighters"] = [str(fighters[0].id), "999999"]
    state["names"] = {str(fighters[0].id): fighters[0].name, "999999": "Gone"}
    TabletopCombat.update(state=state).where(TabletopCombat.id == row.id).execute()
    page = client.get("/tabletop")
    assert page.status_code == 200 and "cannot go on" in page.get_data(as_text=True)
    assert client.post("/tabletop/start", data={"characters": [str(fighters[1].id), str(fighters[2].id)]}
                       ).status_code in (200, 303)
    current = TabletopCombat.get(TabletopCombat.ended_at.is_null())
    assert current.id != row.id and TabletopCombat.get_by_id(row.id).ended_at is not None
    # Deleting a fighter ends the combat he was in.
    from larp.models import User

    delete_character(current.chronicle, User.get(User.username == "boss"), fighters[2].id, confirmed=True)
    assert TabletopCombat.get_by_id(current.id).ended_at is not None
    assert client.get("/tabletop").status_code == 200
