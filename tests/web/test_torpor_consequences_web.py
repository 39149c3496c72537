"""Torpor inside the rules core's consequences (issue 29 item 2), through the app: the stored ruling's
steps and outcome, the torpor record and the stateless API answers show the torpor's cause, length
(nights) and wake date, the same the core worked out (met-reference 5.2; 000/001 "Torpor").

Worked examples: met-reference T9 (Dracos, 1 bashing and 6 lethal marked, is Incapacitated; the next
lethal level is torpor) and T20 (MET Humanity 4: one week of real time). Sister Agathe, a vampire of
the demo chronicle, has Humanity 4 and no Fortitude.
"""

from __future__ import annotations

from datetime import date, timedelta

from larp.models import Character, GameSession, Ruling, Torpor
from larp.rules.torpor import torpor_ends_on, torpor_table

WAKE = "2026-12-12"  # T20: a week after a game session on the 5th
DRACOS = {"creature": "vampire", "bashing": 1, "lethal": 6}  # T9: Incapacitated


def char(name: str) -> Character:
    return Character.get(Character.name == name)


def open_session() -> GameSession:
    return GameSession.get(GameSession.closed_at.is_null())


def assert_recorded_a_week(ruling: Ruling, name: str, cause: str = "wounds") -> None:
    """The record (steps, outcome) and the torpor row hold the core's torpor: T20, a week."""
    session = open_session()
    wake_on = session.date + timedelta(days=7)
    assert wake_on == torpor_ends_on(4, torpor_table("live"), 0, False, session.date)
    texts = [step["text"] for step in ruling.steps]
    assert f"{name} enters torpor on {session.date.isoformat()} ({cause.replace('_', ' ')})." in texts
    assert f"Calendar time: {name} may try to wake from the night of {wake_on.isoformat()}, for a blood point " \
           f"and a test." in texts
    assert f"That is 7 nights in torpor, from {session.date.isoformat()} to {wake_on.isoformat()}." in texts
    torpor = ruling.outcome["consequences"][name]["torpor"]
    assert (torpor["cause"], torpor["length"], torpor["nights"], torpor["wake_on"]) == (
        cause, "a week", 7, wake_on.isoformat())
    row = Torpor.get(Torpor.character == char(name))
    assert (row.cause, row.started_on, row.wake_on, row.length, row.ruling_id, row.game_session_id) == (
        cause, session.date, wake_on, "a week", ruling.id, session.id)


def test_damage_by_hand_on_the_screen_records_the_torpor_in_its_steps(client, auth, dbconn):
    """T9 then T20 on Sister Agathe, by the damage form: the ruling that puts her in torpor says until when."""
    auth.login()
    agathe = char("Sister Agathe")
    client.post(f"/characters/{agathe.id}/damage", data={"damage_type": "lethal", "levels": "7"})
    assert char("Sister Agathe").condition == "active" and not Torpor.select().exists()
    client.post(f"/characters/{agathe.id}/damage", data={"damage_type": "lethal", "levels": "1"})
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert char("Sister Agathe").condition == "torpor"
    assert_recorded_a_week(ruling, "Sister Agathe")
    page = client.get(f"/rulings/{ruling.id}").get_data(as_text=True)
    wake_on = (open_session().date + timedelta(days=7)).isoformat()
    assert f"may try to wake from the night of {wake_on}" in page and "7 nights in torpor" in page


def test_a_stored_challenge_records_the_torpor_it_begins(client, auth, dbconn):
    """A won ax blow (2 lethal, live armory) on Sister Agathe, Wounded one level short of T9's
    Incapacitated, by the stored challenge API: the record's steps and the answer carry her torpor."""
    auth.login()
    agathe, vivienne = char("Sister Agathe"), char("Vivienne Ashcombe")
    Character.update(damage_bashing=1, damage_lethal=5).where(Character.id == agathe.id).execute()
    response = client.post("/api/v1/challenges", json={
        "category": "physical", "action": "weapon",
        "challenger": {"character_id": vivienne.id, "bid": "Quick", "weapon": "ax"},
        "defender": {"character_id": agathe.id, "bid": "Wiry"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]})
    assert response.status_code in (200, 201), response.get_json()
    assert char("Sister Agathe").condition == "torpor"
    ruling = Ruling.get(Ruling.kind == "challenge")
    assert_recorded_a_week(ruling, "Sister Agathe")


def test_blood_called_for_records_blood_loss_torpor(client, auth, dbconn):
    """000 "Health Chart", "Torpor": rising with an empty pool at Incapacitated costs a level: torpor from
    blood loss, a week at Humanity 4, in the record."""
    auth.login()
    agathe = char("Sister Agathe")
    Character.update(damage_bashing=1, damage_lethal=6, blood_current=0).where(Character.id == agathe.id).execute()
    response = client.post(f"/api/v1/characters/{agathe.id}/blood", json={"blood": 1, "reason": "rising"})
    assert response.status_code in (200, 201), response.get_json()
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert_recorded_a_week(ruling, "Sister Agathe", "blood_loss")


def test_stateless_challenge_shows_the_torpor_length_and_wake_date(client, auth, dbconn):
    """The stateless API: the same consequences, dated by the game session's date sent with the call."""
    auth.login()
    before = Torpor.select().count()
    response = client.post("/api/v1/challenges/rule", json={
        "category": "physical", "action": "weapon", "game_session_date": "2026-12-05",
        "challenger": {"name": "Anna", "traits": 8, "bid": ["Quick"], "weapon": "knife"},
        "defender": {"name": "Dracos", "traits": 3, "bid": ["Brawny"], "body": DRACOS, "morality": 4,
                     "willpower": 1, "ignore_wounds": True},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]})
    assert response.status_code == 200, response.get_json()
    ruling = response.get_json()["ruling"]
    torpor = ruling["consequences"]["Dracos"]["torpor"]
    assert (torpor["cause"], torpor["started_on"], torpor["length"], torpor["nights"], torpor["wake_on"]) == (
        "wounds", "2026-12-05", "a week", 7, WAKE)
    assert ruling["steps"][-1] == {"text": f"That is 7 nights in torpor, from 2026-12-05 to {WAKE}.",
                                   "rule": "LotNR Torpor (met-reference 5.2)", "setting": "torpor_time_scale"}
    assert Torpor.select().count() == before  # stateless


def test_stateless_damage_blood_and_healing_show_the_torpor(client, auth):
    """T9 and T20 by the stateless damage, blood and healing endpoints; the game session's date left
    out is today."""
    auth.login()
    damage = client.post("/api/v1/damage", json={"name": "Dracos", "track": DRACOS, "morality": 4,
                                                 "game_session_date": "2026-12-05",
                                                 "damage": {"damage_type": "lethal", "levels": 1}}).get_json()
    assert damage["consequences"]["Dracos"]["torpor"]["wake_on"] == WAKE
    blood = client.post("/api/v1/blood", json={"name": "Dracos", "track": DRACOS, "morality": 4, "blood": 0,
                                               "reason": "rising", "game_session_date": "2026-12-05"}).get_json()
    torpor = blood["blood"]["consequences"]["Dracos"]["torpor"]
    assert (torpor["cause"], torpor["nights"], torpor["wake_on"], torpor["fed_wakes"]) == ("blood_loss", 7, WAKE, True)
    healing = client.post("/api/v1/healing", json={"name": "Dracos", "track": DRACOS, "morality": 4, "blood": 0,
                                                   "kind": "automatic"}).get_json()
    torpor = healing["healing"]["consequences"]["Dracos"]["torpor"]
    today = date.today()
    assert torpor["started_on"] in (today.isoformat(), (today + timedelta(days=1)).isoformat())  # UTC
    assert torpor["nights"] == 7


def test_bad_game_session_date_or_morality_names_the_field(client, auth):
    auth.login()
    body = {"name": "Dracos", "track": DRACOS, "damage": {"damage_type": "lethal", "levels": 1}}
    response = client.post("/api/v1/damage", json={**body, "game_session_date": "5 December"})
    assert response.status_code == 422 and response.get_json()["field"] == "game_session_date"
    response = client.post("/api/v1/damage", json={**body, "morality": 9})
    assert response.status_code == 422 and response.get_json()["field"] == "morality"


def test_a_stored_tabletop_attack_records_the_torpor_the_core_began(client, auth, dbconn):
    """000 "Stage Three: Resolution" on the tabletop screen: Konrad's knife (Strength + 1, lethal, Potence 2)
    marks eight lethal levels on Vivienne (Humanity 4, no soak success): past Incapacitated, torpor, a week
    by the live table, in the tabletop ruling's steps and its torpor record."""
    from larp.models import TabletopCombat

    auth.login()
    kon, viv = str(char("Konrad Vale").id), str(char("Vivienne Ashcombe").id)
    hx = {"HX-Request": "true"}

    def step(path: str, **fields):
        row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
        return client.post(f"/tabletop/{row.id}/{path}", data={"version": row.version, **fields}, headers=hx)

    assert client.post("/tabletop/start", data={"characters": [kon, viv]}, headers=hx).status_code == 200
    assert step("initiative", **{f"die-{kon}": "9", f"die-{viv}": "1"}).status_code == 200
    assert step("declare", fighter=[viv, kon], **{f"{kon}-actions": "1", f"{kon}-maneuver": "weapon_strike",
                                                 f"{kon}-target": viv, f"{viv}-actions": "1"}).status_code == 200
    assert step("gear", **{f"{kon}-weapon": "knife", f"{kon}-armor": "", f"{viv}-weapon": "",
                           f"{viv}-armor": ""}).status_code == 200
    response = step("attack", attacker=kon, target=viv, maneuver="weapon_strike", **{
        "dice-attack": "8 8 2 2 2 2", "dice-damage": "8 8 8 8 8 8", "dice-soak": "2 2"})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert char("Vivienne Ashcombe").condition == "torpor"
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.kind == "tabletop"
    session = open_session()
    wake_on = session.date + timedelta(days=7)
    assert ruling.outcome["torpor"][viv]["wake_on"] == wake_on.isoformat()
    assert ruling.steps[-1]["text"] == (f"That is 7 nights in torpor, from {session.date.isoformat()} to "
                                        f"{wake_on.isoformat()}.")
    row = Torpor.get(Torpor.character == int(viv))
    assert (row.cause, row.wake_on, row.length, row.ruling_id, row.game_session_id) == (
        "wounds", wake_on, "a week", ruling.id, session.id)


def test_stateless_mass_challenge_and_stray_shot_show_the_torpor(client, auth):
    """The combat board's and the stray-shot screen's stateless endpoints: Dracos one level short of T9's
    Incapacitated loses to an ax (2 lethal); a pistol's 2 lethal (firearms_against_vampires "lotnr",
    met-reference T5) on Dracos as a bystander. Both: a week from the 5th."""
    auth.login()
    wounded = {"creature": "vampire", "bashing": 1, "lethal": 5}
    mass = client.post("/api/v1/mass-challenges/rule", json={
        "game_session_date": "2026-12-05",
        "defender": {"name": "Dracos", "traits": 3, "bid": ["Quick", "Wiry"], "throw": "scissors", "body": wounded,
                     "morality": 4},
        "attackers": [{"name": "Anna", "traits": 7, "bid": ["Brawny"], "throw": "rock",
                       "attack": {"action": "weapon", "weapon": "ax"}}]})
    assert mass.status_code == 200, mass.get_json()
    ruling = mass.get_json()["ruling"]
    assert ruling["consequences"]["Dracos"]["torpor"]["wake_on"] == WAKE
    assert ruling["steps"][-1]["text"] == f"That is 7 nights in torpor, from 2026-12-05 to {WAKE}."
    shot = client.post("/api/v1/firing-into-groups/rule", json={
        "game_session_date": "2026-12-05", "settings": {"firearms_against_vampires": "lotnr"},
        "firer": {"name": "Ruth", "traits": 5, "bid": ["Steady"]}, "weapon": "pistol", "target": "Konrad",
        "bystanders": [{"name": "Dracos", "traits": 3, "bid": ["Quick"], "throw": "scissors", "firer_throw": "rock",
                        "body": {"creature": "vampire", "lethal": 6}, "morality": 4}]})
    assert shot.status_code == 200, shot.get_json()
    torpor = shot.get_json()["ruling"]["consequences"]["Dracos"]["torpor"]
    assert (torpor["nights"], torpor["wake_on"]) == (7, WAKE)
