"""Rulings that match the books, on stored characters and through the API (issue 17).

Each test names the source it checks; the rules core's own tests are under ``tests/rules``.
"""

from __future__ import annotations

import re

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


# ---------------------------------------------------------------- 9. staking (and 8: the table's throws)

def post_challenge(client, **fields):
    """Resolve a challenge on the screen; record it as it stands if a retest could still follow."""
    import html
    import re

    response = client.post("/challenge", data=fields)
    match = re.search(r"name=\"tests_json\" value='([^']*)'", response.get_data(as_text=True))
    if match:
        response = client.post("/challenge", data={**fields, "step": "record",
                                                   "tests_json": html.unescape(match.group(1))})
    return response


def test_the_staking_attack_from_the_challenge_screen_with_the_tables_throws(client, auth, dbconn):
    """met-reference 3.7 Staking: after a hit with a Staking weapon, two simple tests won or tied in a
    row drive the stake home (000 "Stake Through Heart": paralysed). The tests may be entered as thrown
    at the table; the record says they were (issue 17 item 8)."""
    auth.login()
    kon, viv = char("Konrad Vale"), char("Vivienne Ashcombe")
    response = post_challenge(client, challenger=kon.id, defender=viv.id, category="physical", action="weapon",
                              challenger_bid="Brawny", defender_bid="Quick", challenger_throw="rock",
                              defender_throw="scissors", challenger_weapon="stake", challenger_stake="on",
                              challenger_staking1_player="rock", challenger_staking1_narrator="scissors",
                              challenger_staking2_player="paper", challenger_staking2_narrator="paper")
    assert response.status_code == 303
    assert char("Vivienne Ashcombe").staked
    record = last_ruling()
    staking = [s["text"] for s in record.steps if s["text"].startswith("Staking")]
    assert staking and "the stake goes through the heart" in staking[0] and "as thrown at the table" in staking[0]
    hit = record.outcome["hits"][0]
    assert [t["test"] for t in hit["tests"]] == ["staking", "staking"]
    assert all(t["drawn"] == [] for t in hit["tests"])


def test_the_staking_attack_through_the_api(client, auth, dbconn):
    """met-reference 3.7 Staking through the stateful and the stateless challenge API: a lost second
    test (scissors against rock) leaves the stake out of the heart; a test left out is drawn by the
    app and recorded as drawn."""
    auth.login()
    kon, ruth = char("Konrad Vale"), char("Sister Agathe")
    response = client.post("/api/v1/challenges", json={
        "category": "physical", "action": "weapon",
        "challenger": {"character_id": kon.id, "bid": "Brawny", "weapon": "stake", "stake": True,
                       "staking1_player": "rock", "staking1_narrator": "scissors",
                       "staking2_player": "scissors", "staking2_narrator": "rock"},
        "defender": {"character_id": ruth.id, "bid": "Wiry"},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]})
    assert response.status_code == 201, response.get_json()
    assert not char("Sister Agathe").staked
    assert any("the stake misses the heart" in s["text"] for s in last_ruling().steps)

    stateless = client.post("/api/v1/challenges/rule", json={
        "category": "physical", "action": "weapon",
        "challenger": {"name": "Anselm", "traits": 8, "bid": ["Brawny"], "weapon": "stake",
                       "attack": {"weapon": "stake", "stake": True,
                                  "staking_tests": [{"player": "rock", "narrator": "scissors"}]}},
        "defender": {"name": "Bertrand", "traits": 6, "bid": ["Quick"]},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"}]})
    assert stateless.status_code == 200, stateless.get_json()
    hit = stateless.get_json()["ruling"]["hits"][0]
    assert [t["drawn"] for t in hit["tests"]] == [[], ["player", "narrator"]]


# ---------------------------------------------------------------- 8. the table's own results

def test_the_damage_forms_simple_tests_may_be_entered_as_thrown(client, auth, dbconn):
    """met-reference 3.7 High-Caliber (a won simple test adds a level) and 3.5 Resistance: the tests the
    app would draw can be entered as thrown at the table; the record says which they were."""
    auth.login()
    agathe = char("Sister Agathe")
    client.post(f"/characters/{agathe.id}/damage", data={"weapon": "heavy_pistol", "head_shot": "on",
                                                         "high_caliber_player": "rock",
                                                         "high_caliber_narrator": "scissors"})
    assert char("Sister Agathe").damage_lethal == 3  # the card's 2 and the won test's 1
    step = next(s["text"] for s in last_ruling().steps if s["text"].startswith("High-Caliber"))
    assert "as thrown at the table" in step
    client.post(f"/characters/{agathe.id}/damage", data={"weapon": "heavy_pistol", "head_shot": "on"})
    step = next(s["text"] for s in last_ruling().steps if s["text"].startswith("High-Caliber"))
    assert "drawn by the app" in step
    aldous = char("Aldous Whitmore")  # Fortitude 5: Resistance's simple test
    page = client.get(f"/characters/{aldous.id}").get_data(as_text=True)
    assert 'name="resistance_player"' in page and 'name="resistance_narrator"' in page
    client.post(f"/characters/{aldous.id}/damage", data={"damage_type": "lethal", "levels": "2", "resistance": "on",
                                                         "resistance_player": "paper",
                                                         "resistance_narrator": "rock"})
    assert char("Aldous Whitmore").damage_lethal == 1  # the won test removes one level
    step = next(s["text"] for s in last_ruling().steps if s["text"].startswith("Resistance"))
    assert "as thrown at the table" in step


def test_the_awakening_roll_on_the_board_may_be_entered_as_rolled(client, auth, dbconn):
    """000 "Torpor" (setting wake_test = tabletop_awakening): the Awakening roll's dice may be entered as
    rolled at the table; the record says whether the table or the app rolled them."""
    from datetime import date

    from larp.services.demo import apply_downtime_demo

    apply_downtime_demo(get_chronicle(), date.today())
    set_setting(get_chronicle(), "wake_test", "tabletop_awakening")
    auth.login("boss", "organiser")
    pim = char("Pim Halloran")
    page = client.get("/board").get_data(as_text=True)
    assert 'name="dice"' in page
    dots = 8  # Humanity 4 MET Traits, no tabletop dots: 8 dice (met-reference T25)
    response = client.post(f"/board/characters/{pim.id}/wake", data={
        "first_night": date.today().isoformat(), "dice": " ".join(["2"] * (dots - 1) + ["9"])})
    assert response.status_code in (200, 303)
    wake = Ruling.get(Ruling.kind == "wake")
    assert wake.outcome["attempts"][0]["rolled"] == "at the table"
    assert any("rolled at the table" in s["text"] for s in wake.steps)
    assert char("Pim Halloran").condition == "active"


def test_tabletop_initiative_records_whether_the_table_rolled(client, auth, dbconn):
    """000 "Stage One: Initiative": initiative dice entered at the table or drawn; the record says which.
    Setting tabletop_initiative = fixed: Dexterity + Wits + 6, no roll."""
    from larp.rules.tabletop.initiative import Entrant, roll_initiative
    from larp.rules.settings import ChronicleSettings

    both = roll_initiative([Entrant("r", "Ross", 4, 2), Entrant("a", "Angela", 3, 4)], dice={"r": 9},
                           rng=__import__("random").Random(1))
    assert [e.rolled for e in both.entries if e.key == "r"] == ["table"]
    assert any(s.text == "Initiative dice rolled at the table: Ross." for s in both.steps)
    assert any(s.text == "Initiative dice rolled by the app: Angela." for s in both.steps)
    fixed = roll_initiative([Entrant("r", "Ross", 4, 2), Entrant("a", "Angela", 3, 4)],
                            settings=ChronicleSettings.from_overrides({"tabletop_initiative": "fixed"}))
    assert [(e.name, e.score, e.rolled) for e in fixed.entries] == [("Angela", 13, "fixed"), ("Ross", 12, "fixed")]


# ---------------------------------------------------------------- 4. Willpower against wounds

def test_willpower_lets_an_incapacitated_character_take_a_challenge(client, auth, dbconn):
    """LotNR Willpower (met-reference 2.1, 4.1): a Willpower Trait ignores every wound penalty, up to and
    including Incapacitated, for one turn. Without it the Incapacitated character's challenge is refused;
    with it he challenges as if unhurt, and the Trait is spent and recorded."""
    auth.login()
    agathe, viv = char("Sister Agathe"), char("Vivienne Ashcombe")
    Character.update(damage_lethal=7, willpower_current=2).where(Character.id == agathe.id).execute()
    fields = dict(challenger=agathe.id, defender=viv.id, category="physical", challenger_bid="Wiry",
                  defender_bid="Quick", challenger_throw="rock", defender_throw="scissors", action="strike")
    refused = client.post("/challenge", data=fields)
    assert refused.status_code == 422 and "Incapacitated" in refused.get_data(as_text=True)
    page = client.get(f"/challenge?challenger={agathe.id}&defender={viv.id}").get_data(as_text=True)
    assert 'name="challenger_ignore_wounds"' in page
    response = post_challenge(client, **fields, challenger_ignore_wounds="on")
    assert response.status_code == 303
    assert char("Sister Agathe").willpower_current == 1
    record = last_ruling()
    assert record.steps[0]["rule"].startswith("LotNR Willpower") and "Incapacitated" in record.steps[0]["text"]
    assert record.outcome["consequences"]["Sister Agathe"]["willpower"] == 1
    assert char("Vivienne Ashcombe").damage_bashing == 1

    api = client.post("/api/v1/challenges/rule", json={
        "category": "physical", "challenger": {"name": "A", "traits": 6, "bid": ["Quick"], "health": "wounded",
                                               "willpower": 1, "ignore_wounds": True},
        "defender": {"name": "B", "traits": 6, "bid": ["Brawny"]},
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "rock"}]}).get_json()
    assert api["ruling"]["outcome"] == "draw"  # Wounded would lose the tie; with Willpower: equal Traits
    assert api["ruling"]["consequences"]["A"]["willpower"] == 1


def test_willpower_saves_a_tabletop_pool_cut_to_nothing_by_wounds(client, auth, dbconn):
    """LotNR Willpower for the tabletop turn (met-reference 2.1; declared before the roll, 004
    "Preliminaries"): Vivienne, Crippled (-5 dice, 000 "Health Chart"), strikes with Dexterity 3 and no
    Brawl: 3 - 5 leaves nothing, and the refusal cites the wound rule. A Willpower point spent at
    initiative saves the pool (3 dice) and is recorded."""
    auth.login()
    kon, viv = char("Konrad Vale"), char("Vivienne Ashcombe")
    Character.update(damage_lethal=6, willpower_current=3).where(Character.id == viv.id).execute()
    client.post("/tabletop/start", data={"characters": [str(kon.id), str(viv.id)]})
    from larp.models import TabletopCombat

    def step(path, **fields):
        row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
        return client.post(f"/tabletop/{row.id}/{path}", data={"version": row.version, **fields},
                           headers={"HX-Request": "true"})

    step("initiative", **{f"die-{kon.id}": "1", f"die-{viv.id}": "10"})
    step("declare", fighter=[str(kon.id), str(viv.id)], **{f"{kon.id}-actions": "1", f"{viv.id}-actions": "1"})
    refused = step("attack", attacker=str(viv.id), target=str(kon.id), maneuver="strike")
    text = refused.get_data(as_text=True).replace("&#39;", "'").replace("&#34;", '"').replace("&quot;", '"')
    assert refused.status_code == 422
    assert '000 "Health Chart"' in text and "Multiple Actions" not in text
    step("next")
    response = step("initiative", **{f"die-{kon.id}": "1", f"die-{viv.id}": "10", f"willpower-{viv.id}": "on"})
    assert response.status_code == 200
    assert char("Vivienne Ashcombe").willpower_current == 2
    assert any("Willpower" in s["text"] for s in last_ruling().steps)
    step("declare", fighter=[str(kon.id), str(viv.id)], **{f"{kon.id}-actions": "1", f"{viv.id}-actions": "1"})
    response = step("attack", attacker=str(viv.id), target=str(kon.id), maneuver="strike",
                    **{"dice-attack": "2 2 2", "dice_mode": "table"})
    assert response.status_code == 200, response.get_data(as_text=True)[:400]
    assert last_ruling().outcome["attack_pool"] == 3


# ---------------------------------------------------------------- 2. feeding wounds the victim

def test_feeding_on_a_mortal_costs_him_a_lethal_level_a_blood_trait(client, auth, dbconn):
    """LotNR "Blood" (met-reference 3.7): each Blood Trait drained from a mortal or ghoul costs the victim
    a level of lethal damage, at most three a turn; the drinker drinks no more than his pool holds (LotNR
    generation table, met-reference 5.1; setting drain_past_full_pool off)."""
    auth.login()
    viv, ruth = char("Vivienne Ashcombe"), char("Ruth Calder")
    Character.update(blood_current=viv.blood_max - 5).where(Character.id == viv.id).execute()
    page = client.get(f"/characters/{viv.id}").get_data(as_text=True)
    assert "Feeds on a victim" in page and f'<option value="{ruth.id}">' in page
    response = client.post(f"/characters/{viv.id}/feed-on", data={"victim": ruth.id, "blood": "4"})
    assert response.status_code == 303
    assert char("Ruth Calder").damage_lethal == 4
    assert char("Vivienne Ashcombe").blood_current == viv.blood_max - 1  # all 4 fit in her pool
    record = last_ruling()
    assert record.kind == "feeding" and record.outcome["turns"] == 2  # three a turn at most
    assert any("costs Ruth Calder a level of lethal damage" in s["text"] for s in record.steps)

    kon, marcus = char("Konrad Vale"), char("Marcus Hale")
    Character.update(blood_current=0, blood_max=14).where(Character.id == kon.id).execute()
    response = client.post(f"/api/v1/characters/{kon.id}/feed-on", json={"victim": marcus.id, "blood": 8})
    assert response.status_code == 201
    assert char("Marcus Hale").condition == "dead"  # 8 lethal: past Incapacitated a ghoul dies (000 "Health")
    assert char("Konrad Vale").blood_current == 8

    stateless = client.post("/api/v1/feeding", json={
        "drinker": {"name": "Anselm", "blood": 3, "blood_max": 10},
        "victim": {"name": "Walter", "track": {"creature": "mortal"}}, "blood": 3}).get_json()
    assert stateless["feeding"]["victim_track"]["lethal"] == 3
    assert stateless["feeding"]["consequences"]["Anselm"]["blood"] == 3


# ---------------------------------------------------------------- 3. no blood left

def test_an_empty_pool_costs_a_level_and_past_incapacitated_blood_loss_torpor(client, auth, dbconn):
    """000 "Health Chart", "Torpor" (met-reference 4.1): a vampire with an empty pool loses a health
    level each time the rules call for blood (setting empty_pool_wound: lethal); past Incapacitated that
    way she falls into torpor from blood loss, recorded as such, so feeding her wakes her."""
    from larp.models import Torpor

    auth.login()
    viv = char("Vivienne Ashcombe")
    Character.update(blood_current=0, damage_lethal=6).where(Character.id == viv.id).execute()
    client.post(f"/characters/{viv.id}/act", data={"action": "blood", "reason": "rising", "blood": "1"})
    viv = char("Vivienne Ashcombe")
    assert (viv.damage_lethal, viv.condition) == (7, "active")  # Incapacitated
    client.post(f"/characters/{viv.id}/heal", data={"kind": "automatic"})  # healing calls for blood too
    viv = char("Vivienne Ashcombe")
    assert (viv.damage_lethal, viv.condition) == (8, "torpor")
    torpor = Torpor.get(Torpor.character == viv)
    assert torpor.cause == "blood_loss"
    assert any("torpor from blood loss" in s["text"] for s in last_ruling().steps)
    client.post(f"/characters/{viv.id}/act", data={"action": "feed", "blood": "1"})
    assert char("Vivienne Ashcombe").condition == "active"  # feeding_wakes_blood_torpor (default on)
    assert Torpor.get_by_id(torpor.id).ended_on is not None

    pim = char("Pim Halloran")
    Character.update(blood_current=0).where(Character.id == pim.id).execute()
    response = client.post(f"/api/v1/characters/{pim.id}/blood", json={"blood": 2, "reason": "discipline"})
    assert response.status_code == 201 and char("Pim Halloran").damage_lethal == 2
    stateless = client.post("/api/v1/blood", json={"track": {"lethal": 7}, "blood": 0, "reason": "rising"}).get_json()
    assert stateless["blood"]["blood_loss_torpor"] is True


# ---------------------------------------------------------------- 6. aggravated healing in instalments

def test_blood_traits_put_toward_an_aggravated_wound_over_several_nights(client, auth, dbconn):
    """LotNR "Blood" reading (agg_heal_model = lotnr_instalments; met-reference 5.1): three Blood Traits a
    level, built up over several nights and marked against the wound; it heals at the next sunset after
    the last, not tonight."""
    set_setting(get_chronicle(), "agg_heal_model", "lotnr_instalments")
    auth.login()
    kon = char("Konrad Vale")
    Character.update(damage_aggravated=1, blood_current=2).where(Character.id == kon.id).execute()
    client.post(f"/characters/{kon.id}/heal", data={"kind": "aggravated", "levels": "1"})
    kon = char("Konrad Vale")
    assert (kon.damage_aggravated, kon.blood_current, kon.agg_blood_marked) == (1, 0, 2)  # not healed tonight
    assert "2 of 3 marked" in last_ruling().steps[0]["text"]
    Character.update(blood_current=1).where(Character.id == kon.id).execute()
    client.post(f"/characters/{kon.id}/heal", data={"kind": "aggravated", "levels": "1"})
    kon = char("Konrad Vale")
    assert (kon.damage_aggravated, kon.blood_current, kon.agg_blood_marked) == (1, 0, 3)
    assert any("heal at the next sunset" in s["text"] for s in last_ruling().steps)


def test_a_fully_paid_aggravated_wound_heals_in_the_nights_before_the_next_game(client, auth, dbconn):
    """LotNR "Blood" reading (agg_heal_model = lotnr_instalments): the three Blood Traits already marked
    pay for the level; it heals at the next sunset, between the game sessions, for no more blood."""
    from datetime import date

    from larp.services.demo import apply_downtime_demo

    apply_downtime_demo(get_chronicle(), date.today())
    set_setting(get_chronicle(), "agg_heal_model", "lotnr_instalments")
    kon = char("Konrad Vale")
    Character.update(damage_aggravated=1, blood_current=0, agg_blood_marked=3).where(Character.id == kon.id).execute()
    auth.login("boss", "organiser")
    response = client.post(f"/board/characters/{kon.id}/heal", data={})
    assert response.status_code in (200, 303), response.get_data(as_text=True)[:300]
    kon = char("Konrad Vale")
    assert (kon.damage_aggravated, kon.blood_current, kon.agg_blood_marked) == (0, 0, 0)


# ---------------------------------------------------------------- 5. mortals' untreated wounds

def test_an_untreated_mortal_worsens_and_a_treated_one_heals_between_game_sessions(client, auth, dbconn):
    """000 "Mortal's Healing Times": a lethal wound worse than Hurt, left untreated, worsens by one level
    a day; treated (a tick per mortal, kept), it heals on the table (Injured one week, Hurt three days,
    Bruised one day). The healing line gives the time taken, not the hours available."""
    from datetime import date

    from larp.services.demo import apply_downtime_demo

    apply_downtime_demo(get_chronicle(), date.today())
    auth.login("boss", "organiser")
    ruth = char("Ruth Calder")
    Character.update(damage_lethal=3, damage_bashing=0, damage_aggravated=0).where(Character.id == ruth.id).execute()
    page = client.get("/board").get_data(as_text=True)
    line = page[page.index(f'id="char-{ruth.id}"'):][:2500]
    assert "untreated" in line and "dies of the untreated wound" in line  # 14 nights: dead on the fifth day
    response = client.post(f"/board/characters/{ruth.id}/treated", data={"medical_care": "on"})
    assert response.status_code in (200, 303)
    assert char("Ruth Calder").treated
    client.post(f"/board/characters/{ruth.id}/heal", data={})
    ruth = char("Ruth Calder")
    assert (ruth.damage_lethal, ruth.condition) == (0, "active")  # 7 + 3 + 1 = 11 days of the 14
    record = last_ruling()
    assert record.inputs["hours"] == 24 * 11 and record.inputs["medical_care"] is True
    assert "In 264 hours (of 336 available)" in record.summary

    marcus = char("Marcus Hale")
    Character.update(damage_lethal=3, damage_bashing=0, damage_aggravated=0, treated=False).where(
        Character.id == marcus.id).execute()
    client.post(f"/board/characters/{marcus.id}/heal", data={})
    assert char("Marcus Hale").condition == "dead"  # untreated: worse a level a day, dead on the fifth


# ---------------------------------------------------------------- 7. tabletop healing costs

def test_tabletop_healing_costs_follow_the_profile(client, auth, dbconn):
    """The tabletop profile's rate (data/maneuvers.toml blood_heals; 000 "Lethal Damage"): one blood point
    heals one level of bashing or lethal at the tabletop, where the live game heals two bashing (002)."""
    auth.login()
    kon, viv = char("Konrad Vale"), char("Vivienne Ashcombe")
    Character.update(damage_bashing=2, blood_current=5).where(Character.id == kon.id).execute()
    client.post("/tabletop/start", data={"characters": [str(kon.id), str(viv.id)]})
    from larp.models import TabletopCombat

    row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
    assert "Spend blood to heal" in client.get("/tabletop").get_data(as_text=True)
    response = client.post(f"/tabletop/{row.id}/heal", data={"version": row.version, "fighter": str(kon.id),
                                                            "kind": "bashing", "levels": "2"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 200
    kon = char("Konrad Vale")
    assert (kon.damage_bashing, kon.blood_current) == (0, 3)  # two blood points, not one
    Character.update(damage_bashing=2, blood_current=5).where(Character.id == kon.id).execute()
    client.post(f"/characters/{kon.id}/heal", data={"kind": "bashing", "levels": "2"})
    assert char("Konrad Vale").blood_current == 4  # the live game: one blood point for two bashing
    stateless = client.post("/api/v1/healing", json={"track": {"bashing": 2}, "kind": "bashing", "levels": 2,
                                                     "blood": 5, "game": "tabletop"}).get_json()
    assert stateless["healing"]["blood_spent"] == 2


# ---------------------------------------------------------------- 12. conversion where it is needed

def test_a_character_without_tabletop_dots_fights_and_sleeps_on_converted_ratings(client, auth, dbconn):
    """LotNR Converting Characters (met-reference 4.3, T25): a character with Traits but no tabletop dots
    gets converted ratings wherever a tabletop rule needs them, shown as converted: Pim's 2 Physical
    Traits give Dexterity 2, his 7 Mental Traits Wits 3 (initiative rating 5); his Humanity 4 Traits give
    8 dots on the tabletop torpor table (000 "Torpor": one week)."""
    from larp.models import TabletopCombat, Torpor

    auth.login()
    pim, kon = char("Pim Halloran"), char("Konrad Vale")
    Character.update(tabletop={}).where(Character.id == pim.id).execute()
    response = client.post("/tabletop/start", data={"characters": [str(pim.id), str(kon.id)]},
                           headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "Converted from the live sheet: Strength 2, from 2 Physical Traits" in response.get_data(as_text=True)
    row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
    client.post(f"/tabletop/{row.id}/initiative", data={"version": row.version, f"die-{pim.id}": "5",
                                                        f"die-{kon.id}": "5"})
    record = last_ruling()
    entry = next(e for e in record.outcome["order"] if e["key"] == str(pim.id))
    assert (entry["rating"], entry["score"]) == (5, 10)
    assert any("converted from the live sheet" in s["text"] and "Pim Halloran" in s["text"] for s in record.steps)

    set_setting(get_chronicle(), "torpor_table", "tabletop")
    Character.update(damage_lethal=8, condition="torpor").where(Character.id == pim.id).execute()
    from datetime import date

    from larp.services.torpor import record_torpor

    torpor_record = record_torpor(get_chronicle(), None, pim.id, "wounds", date.today())
    torpor = Torpor.get(Torpor.character == pim.id)
    assert (torpor.rating, torpor.length) == (8, "a week")
    assert any("converted to 8 dots" in s["text"] for s in torpor_record.steps)


# ---------------------------------------------------------------- 13. words

def test_a_tabletop_ruling_says_its_damage_line_once_with_both_names_labelled(client, auth, dbconn):
    """000 "Bashing Damage" (Kincaid's blow on Veronica: 6 levels, one soaked, halved to 2) and met-reference
    4.3 (one track, two views): the ruling says what she takes once, and where it leaves her once, with the
    tabletop chart's name and the live track's each labelled."""
    kincaid = {"name": "Kincaid", "attributes": {"Strength": 4, "Dexterity": 4}, "abilities": {"Brawl": 2},
               "disciplines": {"Potence": 2}}
    veronica = {"name": "Veronica", "attributes": {"Stamina": 2, "Dexterity": 3}}
    auth.login()
    data = client.post("/api/v1/tabletop/attack", json={
        "maneuver": "strike", "attacker": kincaid, "target": veronica,
        "dice": {"attack": [8, 8, 2, 2, 2, 2], "damage": [8, 6, 7, 9, 2], "soak": [3, 8]}}).get_json()
    texts = [s["text"] for s in data["steps"]]
    assert sum("takes 2 levels" in t for t in texts) == 1
    assert not any(t.endswith("is now Bruised.") for t in texts)
    assert texts[-1] == ("Veronica is now Hurt on the tabletop Health chart (-1 dice to actions); on the live track "
                         "the same damage is Bruised.")
    unnamed = client.post("/api/v1/tabletop/attack", json={
        "maneuver": "strike", "attacker": {"attributes": {"Strength": 2, "Dexterity": 2}},
        "target": {"attributes": {"Stamina": 1}}, "dice": {"attack": [8, 2], "damage": [8, 8], "soak": [2]}}).get_json()
    assert unnamed["summary"].startswith("The attacker's strike hits The target")
    assert all("Target " not in s["text"] or "The target" in s["text"] for s in unnamed["steps"])


def test_one_level_of_bashing_reads_the_same_on_both_charts_or_says_why(client, auth, dbconn):
    """met-reference 4.3: one level of bashing leaves a mortal on the live track's second Healthy level and
    in the tabletop chart's Bruised box (000 "Health Chart": no penalty); the page says they are the same
    damage. Stateless answers name one person one way (The character) in damage and healing alike."""
    auth.login()
    ruth = char("Ruth Calder")
    client.post(f"/characters/{ruth.id}/damage", data={"damage_type": "bashing", "levels": "1"})
    page = client.get(f"/characters/{ruth.id}").get_data(as_text=True)
    assert "1 level of damage: Bruised on the tabletop chart, Healthy on the live track. The same damage" in page
    damage = client.post("/api/v1/damage", json={"damage": {"damage_type": "lethal", "levels": 1}}).get_json()
    healing = client.post("/api/v1/healing", json={"track": damage["health"]["track"], "kind": "lethal",
                                                   "levels": 1, "blood": 2}).get_json()
    names = {t.split(" ")[0] + " " + t.split(" ")[1] for t in
             [s["text"] for s in damage["health"]["steps"]] + [s["text"] for s in healing["healing"]["steps"]]
             if t.startswith("The ")}
    assert names == {"The character"}
    assert damage["views"]["tabletop"]["why"] and damage["views"]["tabletop"]["live_level"] == "Healthy"


# ---------------------------------------------------------------- 2b. a full pool drinks nothing

def _drain_picker(page: str) -> list[str]:
    """The numbers the feeding form's Blood Traits picker offers."""
    start = page.find("/feed-on")
    if start < 0:
        return []
    chunk = page[start:page.find("</form>", start)]
    picker = chunk[chunk.find('<select name="blood">'):chunk.find("</select>", chunk.find('<select name="blood">'))]
    return re.findall(r'<option value="(\d+)">', picker)


def test_a_drain_takes_no_more_than_the_pool_holds_on_every_path(client, auth, dbconn):
    """New-user test 8, finding 3, by the book (LotNR "Blood", met-reference 3.7; generation table, 5.1):
    Konrad Vale, 9th generation, 11 of 14 blood points, drains "5" from Ruth Calder: he drinks the 3 his
    pool holds and Ruth takes 3 lethal, not 5; then, full, his drain of 2 from Marcus Hale is refused and
    nothing changes. The picker offers 1 to 3, then no form. The stateless API agrees. With the setting
    drain_past_full_pool on, the old reading: Ruth takes all 5 and 2 are lost."""
    auth.login()
    kon, ruth, marcus = char("Konrad Vale"), char("Ruth Calder"), char("Marcus Hale")
    Character.update(blood_current=11, blood_max=14).where(Character.id == kon.id).execute()
    assert _drain_picker(client.get(f"/characters/{kon.id}").get_data(as_text=True)) == ["1", "2", "3"]

    page = client.post(f"/characters/{kon.id}/feed-on", data={"victim": ruth.id, "blood": "5"},
                       headers={"HX-Request": "true"}).get_data(as_text=True)
    assert (char("Konrad Vale").blood_current, char("Ruth Calder").damage_lethal) == (14, 3)
    assert last_ruling().outcome["drained"] == 3 and "not the 5 asked" in page
    assert _drain_picker(page) == []
    assert "blood pool is full (14 blood points): there is no room to drink more." in page

    before = last_ruling().id
    refused = client.post(f"/characters/{kon.id}/feed-on", data={"victim": marcus.id, "blood": "2"},
                          headers={"HX-Request": "true"})
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "blood pool is already full (14 blood points)" in text and "Nothing was changed." in text
    assert (char("Marcus Hale").damage_lethal, last_ruling().id) == (marcus.damage_lethal, before)
    api = client.post(f"/api/v1/characters/{kon.id}/feed-on", json={"victim": marcus.id, "blood": 2})
    assert api.status_code == 422 and char("Marcus Hale").damage_lethal == marcus.damage_lethal

    stateless = client.post("/api/v1/feeding", json={
        "drinker": {"name": "Konrad", "blood": 11, "blood_max": 14},
        "victim": {"name": "Ruth", "track": {"creature": "mortal"}}, "blood": 5}).get_json()["feeding"]
    assert (stateless["drained"], stateless["victim_track"]["lethal"], stateless["consequences"]["Konrad"]["blood"]) \
        == (3, 3, 3)

    set_setting(get_chronicle(), "drain_past_full_pool", True)
    Character.update(blood_current=11).where(Character.id == kon.id).execute()
    Character.update(damage_lethal=0).where(Character.id == ruth.id).execute()
    assert len(_drain_picker(client.get(f"/characters/{kon.id}").get_data(as_text=True))) == 10
    client.post(f"/characters/{kon.id}/feed-on", data={"victim": ruth.id, "blood": "5"})
    assert (char("Konrad Vale").blood_current, char("Ruth Calder").damage_lethal) == (14, 5)
