"""The combat board's roster (issue 31 item 3), without JavaScript: in a cold scene the target is one tap on a
name, attackers are ticked and added together; a typed card code still adds; a bad tick changes nothing."""

from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from larp.models import Character, CheckIn, GameSession
from larp.web.roster import ROSTER_LIMIT, roster_step


@pytest.fixture
def cast(dbconn):
    return {c.name: c for c in Character.select()}


def roster_names(body: str, roster_id: str) -> list[str]:
    """The names on one roster of the page, in order."""
    start = body.index(f'id="{roster_id}"')
    block = body[start:body.index("</fieldset>", start)]
    return re.findall(r'data-name="([^"]+)"', block)


def test_a_cold_board_lists_the_chronicle_and_one_tap_picks_the_target(client, auth, cast):
    auth.login()
    body = client.get("/combat").get_data(as_text=True)
    names = roster_names(body, "target-roster")
    assert names == sorted(c.name for c in cast.values() if c.retired_at is None)
    teodor = cast["Teodor Brandt"]
    assert f'value="set:target:{teodor.id}"' in body
    response = client.post("/combat", data={"step": f"set:target:{teodor.id}"}, follow_redirects=True)
    body = response.get_data(as_text=True)
    assert 'class="who-name"' in body and "Teodor Brandt" in body
    # The add box's roster: everyone but the target, as ticks.
    added = roster_names(body, "add-roster")
    assert "Teodor Brandt" not in added and len(added) == len(names) - 1
    assert 'name="add_pick"' in body


def test_ticks_are_added_together_and_leave_the_roster(client, auth, cast):
    auth.login()
    teodor, konrad, lys = cast["Teodor Brandt"], cast["Konrad Vale"], cast["Lys Moreau"]
    data = MultiDict([("target", teodor.id), ("add_pick", konrad.id), ("add_pick", lys.id), ("add_q", "ly"),
                      ("step", "add:hand_to_hand")])
    response = client.post("/combat", data=data, follow_redirects=True)
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    rows = re.findall(r'class="panel attacker-row[^"]*" id="row-(\d+)"', body)
    assert rows == [str(konrad.id), str(lys.id)]  # in the order ticked, the typed filter text dropped
    added = roster_names(body, "add-roster")
    assert "Konrad Vale" not in added and "Lys Moreau" not in added and "Teodor Brandt" not in added
    # Enter in the box with a tick adds too (hand to hand).
    ines = cast["Ines Castellano"]
    data = MultiDict([("target", teodor.id), ("a", konrad.id), ("a", lys.id), ("add_pick", ines.id), ("step", "enter")])
    body = client.post("/combat", data=data, follow_redirects=True).get_data(as_text=True)
    assert re.findall(r'class="panel attacker-row[^"]*" id="row-(\d+)"', body)[-1] == str(ines.id)


def test_a_typed_code_still_adds_and_a_bad_tick_is_refused(client, auth, cast):
    auth.login()
    teodor, marcus = cast["Teodor Brandt"], cast["Marcus Hale"]
    body = client.post("/combat", data={"target": teodor.id, "add_q": marcus.short_code, "step": "add:ranged"},
                       follow_redirects=True).get_data(as_text=True)
    assert f'id="row-{marcus.id}"' in body
    response = client.post("/combat", data=MultiDict([("target", teodor.id), ("add_pick", "999999"),
                                                        ("step", "add:hand_to_hand")]))
    assert 400 <= response.status_code < 500
    response = client.post("/combat", data=MultiDict([("target", teodor.id), ("add_pick", teodor.id),
                                                        ("step", "add:hand_to_hand")]))
    assert 400 <= response.status_code < 500 and "is the target" in response.get_data(as_text=True)


def test_checked_in_tonight_come_first(client, auth, cast):
    auth.login()
    session = GameSession.select().where(GameSession.closed_at.is_null()).get()
    CheckIn.create(chronicle=session.chronicle, game_session=session, character=cast["Sister Agathe"])
    CheckIn.create(chronicle=session.chronicle, game_session=session, character=cast["Ruth Calder"])
    body = client.get("/combat").get_data(as_text=True)
    names = roster_names(body, "target-roster")
    assert names[:2] == ["Ruth Calder", "Sister Agathe"]
    assert "checked in tonight first" in body and "not checked in" in body


def test_roster_step_folds_ticks_only_into_adds():
    ticks = MultiDict([("add_pick", "3"), ("add_pick", "x"), ("add_pick", "5"), ("add_pick", "3"), ("target", "1")])
    assert roster_step(ticks, "add:ranged") == "pick:3,5:ranged"
    assert roster_step(ticks, "enter") == "pick:3,5:hand_to_hand"
    assert roster_step(ticks, "resolve") == "resolve"
    assert roster_step(MultiDict([("target", "1")]), "add:ranged") == "add:ranged"
    assert roster_step(MultiDict(), "enter") == "enter"
    assert ROSTER_LIMIT >= 10


def test_ticks_come_onto_the_board_in_the_order_they_were_ticked(client, auth, cast):
    """Issue 31 (wave 5): the page's script keeps the order the attackers were ticked in (``add_order``), and they
    come onto the board in it (they act in that order); without it, in the roster's order. An id in the order
    that was not ticked is ignored."""
    auth.login()
    teodor, konrad, lys, aldous = cast["Teodor Brandt"], cast["Konrad Vale"], cast["Lys Moreau"], cast["Aldous Whitmore"]
    ticks = [("add_pick", aldous.id), ("add_pick", konrad.id), ("add_pick", lys.id)]
    data = MultiDict([("target", teodor.id), *ticks, ("add_order", f"{lys.id},{cast['Ines Castellano'].id},{konrad.id}"),
                      ("step", "add:hand_to_hand")])
    body = client.post("/combat", data=data, follow_redirects=True).get_data(as_text=True)
    rows = re.findall(r'class="panel attacker-row[^"]*" id="row-(\d+)"', body)
    assert rows == [str(lys.id), str(konrad.id), str(aldous.id)]
    assert 'name="add_order"' in body
    assert roster_step(MultiDict([("add_pick", "3"), ("add_pick", "5"), ("add_order", "5,x,9")]), "add:ranged") == "pick:5,3:ranged"


def test_a_character_in_final_death_is_not_on_the_roster(client, auth, cast):
    """Final Death (or a dead mortal): he neither fights nor is fought, so neither roster offers him."""
    auth.login()
    Character.update(condition="final_death").where(Character.id == cast["Konrad Vale"].id).execute()
    Character.update(condition="dead").where(Character.id == cast["Ruth Calder"].id).execute()
    body = client.get("/combat").get_data(as_text=True)
    names = roster_names(body, "target-roster")
    assert "Konrad Vale" not in names and "Ruth Calder" not in names and "Lys Moreau" in names
