"""One call per tap for the single-shot rulings (issue 29 item 1): damage by hand, healing, feeding, blood called
for, blood given and the narrator's actions on a track, from the character page, the board between game sessions
and the stored API. Each tap loads its characters once, calls the rules core once and writes in one transaction
(:func:`larp.services.adjudicate.adjudicate`); the stored API answers from what the tap recorded, without reading
the character again."""

from __future__ import annotations

import sys
from contextlib import contextmanager

import peewee
import pytest

from larp.db import db
from larp.models import Character, Ruling
from larp.rules import health as health_rules
from larp.rules.rulings import blood, by_hand, healing
from larp.services import characters as character_service
from tests.web.test_between_sessions_web import downtime  # noqa: F401 (a fixture)

#: The rules core's entry points a single shot may call (one of them, once).
CORE = {f.__code__ for f in (by_hand.rule_damage_by_hand, healing.rule_healing, blood.rule_feeding,
                             blood.rule_blood_called_for, blood.rule_given_blood, health_rules.destroy,
                             health_rules.stake, health_rules.remove_stake, health_rules.regain_consciousness)}
LOAD = character_service.character_states.__code__  # every load of characters' states goes through it
BEGIN = peewee._transaction._begin.__code__  # a transaction opened (not a savepoint inside one)


@contextmanager
def tally():
    """Count, while the block runs: rules-core calls, loads (all, and those inside a transaction), transactions."""
    counts = {"rules": 0, "loads": 0, "loads_in_transaction": 0, "transactions": 0}

    def profile(frame, event, _arg):
        if event != "call":
            return
        code = frame.f_code
        if code in CORE:
            counts["rules"] += 1
        elif code is LOAD:
            counts["loads"] += 1
            counts["loads_in_transaction"] += db.in_transaction()
        elif code is BEGIN:
            counts["transactions"] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield counts
    finally:
        sys.setprofile(previous)


def cid(name: str) -> int:
    return Character.get(Character.name == name).id


def panel(body: str) -> str:
    """The health panel's section of a page or partial (its tokens, unique per form or signed with the time,
    left out)."""
    import re

    section = re.search(r'<section class="panel health-panel".*?</section>', body, re.S)
    assert section is not None
    return re.sub(r'name="(request_token|csrf_token)" value="[^"]*"', "", section.group(0))


ONE = {"rules": 1, "loads_in_transaction": 1, "transactions": 1}


def once(counts: dict[str, int]) -> dict[str, int]:
    return {key: counts[key] for key in ONE}


@pytest.mark.parametrize("path, form", [
    ("/characters/{Lys Moreau}/damage", {"damage_type": "lethal", "levels": "1"}),
    ("/characters/{Konrad Vale}/heal", {"kind": "lethal", "levels": "1"}),
    ("/characters/{Vivienne Ashcombe}/feed-on", {"victim": "{Ruth Calder}", "blood": "1"}),
    ("/characters/{Pim Halloran}/act", {"action": "blood", "blood": "1", "reason": "rising"}),
    ("/characters/{Pim Halloran}/act", {"action": "feed", "blood": "1"}),
    ("/characters/{Konrad Vale}/act", {"action": "stake"}),
])
def test_a_character_page_tap_is_one_load_one_rules_call_one_transaction(client, auth, dbconn, path, form):
    """Each narrator's tap on the character page: the ruling recorded by one load, one rules call, one write."""
    auth.login()
    names = {"{" + c.name + "}": str(c.id) for c in Character.select()}
    if "heal" in path:  # something to heal first (LotNR: one blood point heals one lethal level)
        client.post(f"/characters/{cid('Konrad Vale')}/damage", data={"damage_type": "lethal", "levels": "1"})
    if form.get("action") == "feed":  # room in his pool first (000 "Health Chart": blood called for)
        client.post(f"/characters/{cid('Pim Halloran')}/act", data={"action": "blood", "blood": "2"})
    if path.endswith("/feed-on"):  # room in her pool first: a full pool drinks nothing (LotNR generation table)
        client.post(f"/characters/{cid('Vivienne Ashcombe')}/act", data={"action": "blood", "blood": "2"})
    before = Ruling.select().count()
    for name, value in names.items():
        path = path.replace(name, value)
        form = {k: names.get(v, v) for k, v in form.items()}
    with tally() as counts:
        response = client.post(path, data=form, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.get_data(as_text=True)[:400]
    assert Ruling.select().count() == before + 1
    assert once(counts) == ONE
    # The panel the tap draws from what it wrote is the one a fresh read of the character draws.
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    page = client.get(f"/characters/{path.split('/')[2]}?ruling={ruling.id}").get_data(as_text=True)
    assert panel(response.get_data(as_text=True)) == panel(page)


@pytest.mark.parametrize("path, body", [
    ("damage", {"damage_type": "lethal", "levels": 1}),
    ("feed-on", {"victim": "Ruth Calder", "blood": 1}),
    ("blood", {"blood": 1, "reason": "rising"}),
    ("heal", {"kind": "bashing", "levels": 1}),
    ("destroy", {"means": "beheading"}),
])
def test_a_stored_api_tap_answers_from_what_it_recorded(client, auth, dbconn, path, body):
    """The stored API's single shots: one load in the whole request (the answer's character is the one the tap
    wrote, not read again), one rules call, one transaction; the answer says what is stored."""
    auth.login()
    who = cid("Vivienne Ashcombe")
    if path == "heal":
        client.post(f"/api/v1/characters/{who}/damage", json={"damage_type": "bashing", "levels": 2})
    if path == "feed-on":  # room in her pool first: a full pool drinks nothing (LotNR generation table)
        client.post(f"/api/v1/characters/{who}/blood", json={"blood": 2})
    if "victim" in body:
        body = {**body, "victim": cid(body["victim"])}
    with tally() as counts:
        response = client.post(f"/api/v1/characters/{who}/{path}", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)[:400]
    assert {**once(counts), "loads": counts["loads"]} == {**ONE, "loads": 1}
    answer, stored = response.get_json()["character"], Character.get_by_id(who)
    assert (answer["version"], answer["blood_current"], answer["willpower_current"]) == (
        stored.version, stored.blood_current, stored.willpower_current)
    health = answer["health"]
    assert (health["bashing"], health["lethal"], health["aggravated"], health["condition"]) == (
        stored.damage_bashing, stored.damage_lethal, stored.damage_aggravated, stored.condition)


def test_blood_given_between_game_sessions_is_one_tap(client, auth, downtime):
    """Ines, in torpor from blood loss (the demo), is given blood on the board between game sessions: one load, one
    rules call, one transaction; she rises and her torpor ends, "fed" (000/001 "Torpor")."""
    from larp.models import Torpor

    auth.login("organiser1", "organiser")
    ines = cid("Ines Castellano")
    with tally() as counts:
        response = client.post(f"/board/characters/{ines}/feed", data={"blood": "3"})
    assert response.status_code == 303
    assert once(counts) == ONE
    torpor = Torpor.select().where(Torpor.character == ines).order_by(Torpor.id.desc()).get()
    assert Ruling.select().order_by(Ruling.id.desc()).get().kind == "feeding"
    assert (torpor.end_reason, Character.get_by_id(ines).condition) == ("fed", "active")


def test_waking_from_torpor_is_one_tap(app, client, auth, downtime):
    """Pim, in torpor, tries to wake on the board between game sessions (met-reference 5.2): one load, one
    attempt by the rules core for the one night, one transaction; the record says how it went."""
    from datetime import date

    from larp.rules import torpor as torpor_rules

    auth.login("organiser1", "organiser")
    pim = cid("Pim Halloran")
    CORE.add(torpor_rules.attempt_to_wake.__code__)
    try:
        with tally() as counts:
            response = client.post(f"/board/characters/{pim}/wake", data={"first_night": date.today().isoformat()})
    finally:
        CORE.discard(torpor_rules.attempt_to_wake.__code__)
    assert response.status_code == 303
    assert once(counts) == ONE
    ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    assert ruling.kind == "wake" and ruling.inputs["nights"] == [date.today().isoformat()]
    assert Character.get_by_id(pim).condition == ("active" if ruling.outcome["woke"] else "torpor")


def test_healing_at_the_tabletop_is_one_load_of_the_fighters(client, auth, dbconn):
    """A fighter spends blood to heal on the tabletop screen (004 "Preliminaries"; one blood point a level at the
    tabletop): the combat's fighters are loaded once, together, and the healing rules on that load (no second
    load of the healed fighter), one rules call, one transaction, at the tabletop's rate."""
    from larp.models import TabletopCombat

    auth.login()
    kon, viv = cid("Konrad Vale"), cid("Vivienne Ashcombe")
    Character.update(damage_bashing=2, blood_current=5).where(Character.id == kon).execute()
    client.post("/tabletop/start", data={"characters": [str(kon), str(viv)]})
    row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
    with tally() as counts:
        response = client.post(f"/tabletop/{row.id}/heal", data={"version": row.version, "fighter": str(kon),
                                                                "kind": "bashing", "levels": "2"},
                               headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert once(counts) == ONE
    stored = Character.get_by_id(kon)
    assert (stored.damage_bashing, stored.blood_current) == (0, 3)
