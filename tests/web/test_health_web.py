"""Damage, healing and narrator actions on stored characters, the damage API, and concurrency (issue 5)."""

from __future__ import annotations

import http.client
import json
import threading

import pytest

from larp.models import Character, Ruling, TraitLoss
from larp.services.characters import new_card_token  # noqa: F401  (import check: services load)


def char(name):
    return Character.get(Character.name == name)


def snapshot():
    return (Ruling.select().count(), TraitLoss.select().count(),
            sorted((c.id, c.version, c.damage_bashing, c.damage_lethal, c.damage_aggravated, c.condition,
                    c.blood_current, c.willpower_current) for c in Character.select()))


def test_page_shows_both_tracks_and_actions(client, auth, dbconn):
    auth.login()
    page = client.get(f"/characters/{char('Vivienne Ashcombe').id}").get_data(as_text=True)
    assert "Live track" in page and "Tabletop chart" in page
    assert "Mauled" in page and "Crippled" in page  # the tabletop chart's levels (000 "Health")
    assert "Apply damage" in page and "Heal with blood" in page


def test_firearm_bashing_is_not_halved_and_a_head_shot_is_lethal(client, auth, dbconn):
    """002 "Damage and Healing": firearms do bashing to vampires (not halved), lethal to the head."""
    auth.login()
    viv = char("Vivienne Ashcombe")
    response = client.post(f"/characters/{viv.id}/damage", data={"damage_type": "lethal", "levels": "2",
                                                                   "firearm": "on"})
    assert response.status_code == 303
    viv = char("Vivienne Ashcombe")
    assert (viv.damage_bashing, viv.damage_lethal) == (2, 0)
    client.post(f"/characters/{viv.id}/damage", data={"damage_type": "lethal", "levels": "2", "firearm": "on",
                                                       "head_shot": "on"})
    viv = char("Vivienne Ashcombe")
    assert (viv.damage_bashing, viv.damage_lethal) == (2, 2)
    record = Ruling.select().order_by(Ruling.id.desc()).get()
    assert any("head" in step["text"] for step in record.steps)


def test_other_bashing_is_halved_for_vampires_but_not_mortals(client, auth, dbconn):
    """002: other bashing damage a vampire takes is halved (LotNR minimum one: setting default on)."""
    auth.login()
    client.post(f"/characters/{char('Konrad Vale').id}/damage", data={"damage_type": "bashing", "levels": "3"})
    client.post(f"/characters/{char('Ruth Calder').id}/damage", data={"damage_type": "bashing", "levels": "3"})
    assert char("Konrad Vale").damage_bashing == 1
    assert char("Ruth Calder").damage_bashing == 3


def test_t9_dracos_lethal_then_torpor_then_final_death(client, auth, dbconn):
    """met-reference T9 and 002: at Incapacitated, lethal sends a vampire into torpor; aggravated in
    torpor is Final Death; then nothing changes the track."""
    auth.login()
    agathe = char("Sister Agathe")  # no Fortitude
    client.post(f"/characters/{agathe.id}/damage", data={"damage_type": "lethal", "levels": "5"})
    client.post(f"/characters/{agathe.id}/damage", data={"damage_type": "lethal", "levels": "2"})
    assert char("Sister Agathe").condition == "active"  # Incapacitated, not yet below
    page = client.get(f"/characters/{agathe.id}").get_data(as_text=True)
    assert "Incapacitated" in page
    client.post(f"/characters/{agathe.id}/damage", data={"damage_type": "lethal", "levels": "1"})
    assert char("Sister Agathe").condition == "torpor"
    assert "In torpor" in client.get(f"/characters/{agathe.id}").get_data(as_text=True)
    client.post(f"/characters/{agathe.id}/damage", data={"damage_type": "aggravated", "levels": "1"})
    assert char("Sister Agathe").condition == "final_death"
    before = snapshot()
    response = client.post(f"/characters/{agathe.id}/damage", data={"damage_type": "bashing", "levels": "1"},
                           headers={"HX-Request": "true"})
    assert "Final Death is final" in response.get_data(as_text=True) or "Final Death" in response.get_data(as_text=True)
    assert snapshot() == before


def test_heal_with_blood_spends_blood(client, auth, dbconn):
    """002: one blood point heals two levels of bashing or one of lethal."""
    auth.login()
    kon = char("Konrad Vale")
    Character.update(damage_bashing=2, damage_lethal=1).where(Character.id == kon.id).execute()
    blood = kon.blood_current
    client.post(f"/characters/{kon.id}/heal", data={"kind": "bashing", "levels": "2"})
    client.post(f"/characters/{kon.id}/heal", data={"kind": "lethal", "levels": "1"})
    kon = char("Konrad Vale")
    assert (kon.damage_bashing, kon.damage_lethal, kon.blood_current) == (0, 0, blood - 2)


def test_aggravated_heals_for_three_blood_and_one_willpower(client, auth, dbconn):
    """002: aggravated damage heals one level a night for three blood points and one Willpower."""
    auth.login()
    kon = char("Konrad Vale")
    Character.update(damage_aggravated=2).where(Character.id == kon.id).execute()
    client.post(f"/characters/{kon.id}/heal", data={"kind": "aggravated", "levels": "1"})
    after = char("Konrad Vale")
    assert after.damage_aggravated == 1
    assert after.blood_current == kon.blood_current - 3
    assert after.willpower_current == kon.willpower_current - 1


@pytest.mark.parametrize(
    "name, url, data, message",
    [
        ("Konrad Vale", "damage", {"damage_type": "bashing", "levels": "-2"}, "cannot be negative"),
        ("Konrad Vale", "damage", {"damage_type": "lethal", "levels": "1", "weapon": "lightsaber"}, "no live weapon"),
        ("Konrad Vale", "damage", {"damage_type": "holy", "levels": "1"}, "bashing, lethal or aggravated"),
        ("Konrad Vale", "heal", {"kind": "aggravated", "levels": "1"}, "only 0 levels of aggravated"),
        ("Konrad Vale", "heal", {"kind": "bashing", "levels": "1"}, "only 0 levels of bashing"),
        ("Ruth Calder", "heal", {"kind": "bashing", "levels": "1"}, "not a vampire"),
    ],
)
def test_bad_input_gets_a_message_and_changes_nothing(client, auth, dbconn, name, url, data, message):
    auth.login()
    before = snapshot()
    response = client.post(f"/characters/{char(name).id}/{url}", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert message in body
    assert "Nothing was changed" in body
    assert snapshot() == before


def test_healing_without_blood_is_refused(client, auth, dbconn):
    auth.login()
    kon = char("Konrad Vale")
    Character.update(damage_lethal=2, blood_current=0).where(Character.id == kon.id).execute()
    before = snapshot()
    response = client.post(f"/characters/{kon.id}/heal", data={"kind": "lethal", "levels": "1"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "blood" in response.get_data(as_text=True).lower()
    assert snapshot() == before


def test_healing_a_dead_character_is_refused(client, auth, dbconn):
    auth.login()
    kon = char("Konrad Vale")
    client.post(f"/characters/{kon.id}/act", data={"action": "behead"})
    assert char("Konrad Vale").condition == "final_death"
    before = snapshot()
    response = client.post(f"/characters/{kon.id}/heal", data={"kind": "bashing", "levels": "1"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "Final Death" in response.get_data(as_text=True)
    assert snapshot() == before


def test_stake_and_feeding_a_torpid_vampire(client, auth, dbconn):
    """000 "Stake Through Heart"; 002: a torpid vampire swallows blood placed in his mouth until full."""
    auth.login()
    lys = char("Lys Moreau")
    client.post(f"/characters/{lys.id}/act", data={"action": "stake"})
    assert char("Lys Moreau").staked
    client.post(f"/characters/{lys.id}/act", data={"action": "remove_stake"})
    assert not char("Lys Moreau").staked
    Character.update(condition="torpor", blood_current=0).where(Character.id == lys.id).execute()
    client.post(f"/characters/{lys.id}/act", data={"action": "feed", "blood": "50"})
    assert char("Lys Moreau").blood_current == lys.blood_max


def test_stateless_damage_and_healing_api(client, auth, dbconn):
    """The stateless endpoints: Veronica-style halving and 002 healing, nothing stored."""
    auth.login()
    before = snapshot()
    response = client.post("/api/v1/damage", json={"damage": {"damage_type": "bashing", "levels": 5},
                                                    "settings": {"vampire_bashing_minimum_one": False}})
    assert response.status_code == 200
    data = response.get_json()
    assert data["health"]["track"]["bashing"] == 2  # 000: 5 bashing halved, rounded down
    assert data["views"]["tabletop"]["boxes"][0]["mark"] == "/"
    healed = client.post("/api/v1/healing", json={"track": data["health"]["track"], "kind": "bashing",
                                                   "levels": 2, "blood": 3, "blood_per_turn": 1}).get_json()
    assert healed["healing"]["blood_spent"] == 1
    assert healed["healing"]["track"]["bashing"] == 0
    bad = client.post("/api/v1/healing", json={"track": {"aggravated": 1}, "kind": "bashing", "levels": 1, "blood": 3})
    assert bad.status_code == 422
    assert snapshot() == before


def test_openapi_lists_damage_and_healing(client, auth):
    auth.login()
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    for path in ("/damage", "/healing", "/characters/{character_id}/damage", "/characters/{character_id}/heal"):
        assert "post" in paths[path]


def test_concurrent_damage_from_two_narrators_loses_nothing(app, dbconn):
    """Issue 5: narrators damaging the same character at the same moment lose neither change.
    Eight requests at once through a real threaded server: eight levels marked, eight records."""
    from werkzeug.serving import make_server

    from larp.services.accounts import create_user

    create_user("n1", "N1", "narrator", "password-one")
    client = app.test_client()
    client.post("/login", data={"username": "n1", "password": "password-one"})
    cookie = client.get_cookie("session").value
    ruth = char("Ruth Calder")  # a mortal: bashing is not halved
    server = make_server("127.0.0.1", 0, app, threaded=True)  # a thread per request
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def hit():
        conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=30)
        barrier.wait()
        conn.request("POST", f"/api/v1/characters/{ruth.id}/damage", body=json.dumps({"damage_type": "bashing", "levels": 1}),
                     headers={"Content-Type": "application/json", "Cookie": f"session={cookie}"})
        statuses.append(conn.getresponse().status)
        conn.close()

    workers = [threading.Thread(target=hit) for _ in range(6)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    server.shutdown()
    thread.join()
    assert statuses == [201] * 6
    ruth = char("Ruth Calder")
    assert ruth.damage_bashing == 6
    assert ruth.version == 7
    assert Ruling.select().where(Ruling.kind == "damage").count() == 6


def test_api_refuses_unknown_fields_instead_of_ignoring_them(client, auth, dbconn):
    """A typo in a JSON body is a 422 naming the field, never a silently different ruling."""
    auth.login()
    response = client.post("/api/v1/damage", json={"levels": 3})
    assert response.status_code == 422 and response.get_json()["field"] == "levels"
    response = client.post("/api/v1/damage", json={"damage": {"level": 3}})
    assert response.status_code == 422 and response.get_json()["field"] == "damage.level"
    before = snapshot()
    response = client.post(f"/api/v1/characters/{char('Ruth Calder').id}/damage", json={"damagetype": "lethal"})
    assert response.status_code == 422
    assert snapshot() == before


def test_a_staked_vampire_cannot_feed(client, auth, dbconn):
    auth.login()
    kon = char("Konrad Vale")
    Character.update(blood_current=5).where(Character.id == kon.id).execute()
    client.post(f"/characters/{kon.id}/act", data={"action": "stake"})
    before = snapshot()
    response = client.post(f"/characters/{kon.id}/act", data={"action": "feed", "blood": "3"}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "staked" in response.get_data(as_text=True)
    assert snapshot() == before


def test_aegis_undoes_a_killing_turn_for_a_permanent_price(client, auth, dbconn):
    """met-reference T22 (Fortitude 5, Aegis): declared in the turn the character would die, all damage
    from that turn is removed; 1 permanent Willpower is spent."""
    auth.login()
    prince = char("Aldous Whitmore")  # Fortitude 5
    Character.update(damage_lethal=6).where(Character.id == prince.id).execute()
    client.post(f"/characters/{prince.id}/damage", data={"damage_type": "aggravated", "levels": "3"})
    first = Ruling.select().order_by(Ruling.id.desc()).get()
    client.post(f"/characters/{prince.id}/damage", data={"damage_type": "aggravated", "levels": "2"})
    assert char("Aldous Whitmore").condition in ("torpor", "final_death")
    page = client.get(f"/characters/{prince.id}").get_data(as_text=True)
    assert "Invoke Aegis" in page
    response = client.post(f"/characters/{prince.id}/aegis", data={"since": first.id, "payment": "willpower"})
    assert response.status_code == 303
    after = char("Aldous Whitmore")
    assert (after.damage_lethal, after.damage_aggravated, after.condition) == (6, 0, "active")
    assert after.willpower_permanent == prince.willpower_permanent - 1
    assert Ruling.select().order_by(Ruling.id.desc()).get().kind == "aegis"
    # Without Fortitude 5 there is no Aegis, and nothing changes.
    kon = char("Konrad Vale")
    client.post(f"/characters/{kon.id}/damage", data={"damage_type": "lethal", "levels": "2"})
    hit = Ruling.select().order_by(Ruling.id.desc()).get()
    before = snapshot()
    response = client.post(f"/characters/{kon.id}/aegis", data={"since": hit.id, "payment": "willpower"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 422 and "Aegis needs Fortitude 5" in response.get_data(as_text=True)
    assert snapshot() == before


def test_a_second_tab_adds_up_unless_what_it_showed_changed(client, auth, dbconn):
    """Issue 13: two tabs on the same character both apply their damage, each to the character
    as he then stands (the second tab's older track is no reason to refuse); the same form sent
    twice is recorded once (409 naming the ruling); a tab whose page showed him active is refused
    once he is no longer (409), and nothing changes."""
    auth.login()
    marcus = char("Marcus Hale")  # a ghoul: mortals have no torpor
    shown = {"damage_type": "lethal", "levels": "2", "seen_condition": "active", "seen_staked": "0"}
    first = client.post(f"/characters/{marcus.id}/damage", data={**shown, "request_token": "tab-1"})
    assert first.status_code == 303
    second = client.post(f"/characters/{marcus.id}/damage", data={**shown, "request_token": "tab-2"})
    assert second.status_code == 303
    assert char("Marcus Hale").damage_lethal == 4
    before = snapshot()
    repeat = client.post(f"/characters/{marcus.id}/damage", headers={"HX-Request": "true"},
                         data={**shown, "request_token": "tab-2"})
    assert repeat.status_code == 409
    recorded = Ruling.get(Ruling.request_token == "tab-2")
    assert f"already recorded as ruling #{recorded.id}" in repeat.get_data(as_text=True)
    assert snapshot() == before
    # A third tab kills him (a lethal wound past his track: 000 "Health"); a fourth, still
    # showing him active, is refused.
    client.post(f"/characters/{marcus.id}/damage", data={**shown, "levels": "5", "request_token": "tab-3"})
    assert char("Marcus Hale").condition != "active"
    before = snapshot()
    stale = client.post(f"/characters/{marcus.id}/damage", headers={"HX-Request": "true"},
                        data={**shown, "request_token": "tab-4"})
    assert stale.status_code == 409
    assert "changed on another screen" in stale.get_data(as_text=True)
    assert snapshot() == before


def test_sunlight_by_hand_takes_its_exposure_and_turns(client, auth, dbconn):
    """met-reference T26 (LotNR Sunlight) on the health panel (issue 30's wiring): indirect sunlight is one
    aggravated level a turn whatever the type and levels typed, and the ruling names the Courage test
    against Rötschreck; sunlight without its exposure is refused naming it, and nothing changes."""
    auth.login()
    viv = char("Vivienne Ashcombe")
    before = snapshot()
    refused = client.post(f"/characters/{viv.id}/damage", data={"damage_type": "lethal", "levels": "1",
                                                                 "source": "sunlight", "exposure": ""})
    assert refused.status_code == 422 and "exposure" in refused.get_data(as_text=True).lower()
    assert snapshot() == before
    response = client.post(f"/characters/{viv.id}/damage", data={"damage_type": "lethal", "levels": "5",
                                                                  "source": "sunlight", "exposure": "indirect",
                                                                  "turns": "2"})
    assert response.status_code == 303
    viv = char("Vivienne Ashcombe")
    assert (viv.damage_bashing, viv.damage_lethal, viv.damage_aggravated) == (0, 0, 2)
    record = Ruling.select().order_by(Ruling.id.desc()).get()
    assert any("Courage" in step["text"] for step in record.steps)


def test_the_panel_offers_the_fortitude_tests_the_core_allows(client, auth, dbconn):
    """LotNR Fortitude (met-reference 3.5), decided by the rules core and only printed by the panel: Aldous
    (Fortitude 5) is offered Resistance, Resilience, the stamina Trait and each test's throws; Konrad
    (Endurance only) none of them."""
    auth.login()
    prince = client.get(f"/characters/{char('Aldous Whitmore').id}").get_data(as_text=True)
    for text in ('name="resistance"', 'name="resilience"', 'name="stamina"', 'name="resistance_player"',
                 'name="resilience_narrator"'):
        assert text in prince
    konrad = client.get(f"/characters/{char('Konrad Vale').id}").get_data(as_text=True)
    assert not any(f'name="{name}"' in konrad for name in ("resistance", "resilience", "stamina"))


def test_a_mortals_blood_is_not_shown_as_an_empty_pool(client, auth, dbconn):
    """A mortal's blood is not kept as a pool (draining her wounds her instead, met-reference 3.7): her page says so
    rather than "0 / 0 blood points", which read as a data error (new user 9); a vampire's pool is as before."""
    auth.login()
    ruth, viv = char("Ruth Calder"), char("Vivienne Ashcombe")
    assert ruth.creature == "mortal" and ruth.blood_max == 0
    page = client.get(f"/characters/{ruth.id}").get_data(as_text=True)
    assert "not counted for a mortal: each Blood Trait drained is a level of lethal damage" in page
    assert "0 / 0 blood points" not in page
    page = client.get(f"/characters/{viv.id}").get_data(as_text=True)
    assert f"{viv.blood_current} / {viv.blood_max} blood points" in page


def test_the_feeding_form_says_which_drain_kills_each_mortal_victim(client, auth, dbconn):
    """LotNR "Blood", 000 "Health": each Blood Trait drained from a mortal is a level of lethal damage and a wound
    past Incapacitated kills her. The victim picker says, beside a mortal or ghoul, the drain that kills (new user 9:
    six drained killed a wounded mortal with no word before), and that drain does kill her; a vampire victim has
    no such words (his blood leaves no wound)."""
    import re

    auth.login()
    konrad, ruth = char("Konrad Vale"), char("Ruth Calder")
    assert client.post(f"/characters/{konrad.id}/act", data={"action": "blood", "blood": "10"}).status_code in (200, 303)
    page = client.get(f"/characters/{konrad.id}").get_data(as_text=True)
    label = re.search(rf'<option value="{ruth.id}">([^<]*)</option>', page).group(1)
    kills = int(re.search(r"a drain of (\d+)", label).group(1))
    assert 1 <= kills <= 10
    assert not re.search(r"drain of", re.search(rf'<option value="{char("Lys Moreau").id}">([^<]*)</option>',
                                                    page).group(1))
    client.post(f"/characters/{konrad.id}/feed-on", data={"victim": ruth.id, "blood": str(kills)})
    assert char("Ruth Calder").condition == "dead"


def test_the_drain_that_kills_counts_the_victims_own_extra_levels(client, auth, dbconn):
    """met-reference 3.5: Fortitude's Mettle adds a Healthy level, and LotNR's Huge Size another: a ghoul who gains
    them takes one more Blood Trait each before the drain kills him; the picker's words follow."""
    import re

    from larp.models import MeritFlaw, Power

    auth.login()
    konrad, marcus = char("Konrad Vale"), char("Marcus Hale")
    client.post(f"/characters/{konrad.id}/act", data={"action": "blood", "blood": "10"})

    def kills() -> int:
        page = client.get(f"/characters/{konrad.id}").get_data(as_text=True)
        label = re.search(rf'<option value="{marcus.id}">([^<]*)</option>', page).group(1)
        return int(re.search(r"a drain of (\d+)", label).group(1))

    before = kills()
    Power.create(character=marcus, discipline="Fortitude", name="Mettle", level=2)
    assert kills() == before + 1
    MeritFlaw.create(character=marcus, kind="merit", key="huge_size", name="Huge Size", cost=4)
    assert kills() == before + 2


def test_a_drain_shown_on_the_drinkers_page_points_to_the_victims(client, auth, dbconn):
    """New user 10: the drain's result and its steps ("Ruth Calder takes 1 level of lethal damage") sat above the
    drinker's own, clean track. The result says the victim's wounds are on the victim's page, with the link, and
    that the track below is the drinker's."""
    auth.login()
    konrad, ruth = char("Konrad Vale"), char("Ruth Calder")
    client.post(f"/characters/{konrad.id}/act", data={"action": "blood", "blood": "3"})
    panel = client.post(f"/characters/{konrad.id}/feed-on", data={"victim": ruth.id, "blood": "1"},
                        headers={"HX-Request": "true"}).get_data(as_text=True)
    assert (f"The victim's wounds and blood are on <a href=\"/characters/{ruth.id}\">the victim's page</a>; the track "
            "below is Konrad Vale's.") in panel.replace("&#39;", "'")
    damaged = client.post(f"/characters/{konrad.id}/damage", data={"damage_type": "bashing", "levels": "1"},
                          headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "victim-elsewhere" not in damaged
