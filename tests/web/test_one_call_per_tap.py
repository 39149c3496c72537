"""One call per tap (issue 29 item 1) on the challenge screen, the combat board and the stray-shot screen: the
tap that ends a challenge, and each tap before it, is one service call that loads the characters once and
calls the rules core once; the random throws that one call draws are the ones recorded."""

from __future__ import annotations

import json
import re

import pytest

from larp.models import Character, Ruling
from larp.services import challenges as challenge_service
from larp.services import characters as character_service
from tests.web.test_challenge_web import script_in_progress
from tests.web.test_combat_board_web import in_progress


def cid(name: str) -> int:
    return Character.get(Character.name == name).id


def counted(monkeypatch, service, rules: tuple[str, ...]) -> dict[str, int]:
    """Count ``service``'s loads of characters and its calls into the rules core (the ``rules`` entry points)."""
    counts = {"rules": 0, "loads": 0}

    def counting(real, key):
        def wrapper(*args, **kwargs):
            counts[key] += 1
            return real(*args, **kwargs)
        return wrapper

    for name in rules:
        monkeypatch.setattr(service, name, counting(getattr(service, name), "rules"))
    monkeypatch.setattr(service, "load_characters", counting(character_service.load_characters, "loads"))
    return counts


@pytest.fixture
def calls(monkeypatch):
    """The challenge screen's loads and rules calls (both entry points)."""
    return counted(monkeypatch, challenge_service, ("rule_one_on_one", "rule_static"))


def static(**extra) -> dict:
    """Ruth Calder's static Mental challenge against 2 Traits (LotNR Static Challenges, met-reference 1.6)."""
    return {"challenger": cid("Ruth Calder"), "kind": "static", "category": "mental", "action": "other",
            "difficulty": "2", "challenger_bid": "Shrewd", **extra}


def test_the_resolve_tap_that_ends_a_challenge_rules_once_and_records_the_throw_it_drew(client, auth, dbconn, calls):
    """Ruth wins at once (the narrator's throw left out is drawn): one load, one rules call, recorded with that
    very throw; her Trait stays hers (a static challenge won loses nothing)."""
    auth.login()
    response = client.post("/challenge", data=static(challenger_throw="paper"), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert calls == {"rules": 1, "loads": 1}
    ruling = Ruling.get()
    test = ruling.inputs["tests"][0]
    assert test["random"] == ["defender"] and test["defender_throw"] in ("rock", "paper", "scissors")
    # Paper beats the drawn rock and ties paper (5 Mental Traits against 2: hers); only scissors beats her.
    assert ruling.outcome["outcome"] == ("failure" if test["defender_throw"] == "scissors" else "success")
    assert script_in_progress(response.get_data(as_text=True)) is None


def test_a_call_tap_that_ends_it_rules_once(client, auth, dbconn, calls):
    """Ruth loses the static test, retests with Investigation (LotNR Retests) and wins: the resolve tap is one
    rules call and shows her retests; the call tap that ends it is one more, and records."""
    auth.login()
    form = static(challenger_throw="paper", defender_throw="scissors")
    body = client.post("/challenge", data=form, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert calls == {"rules": 1, "loads": 1} and Ruling.select().count() == 0
    assert 'name="next_source" value="ability:Investigation"' in body
    response = client.post("/challenge", data={
        **form, "step": "call", "tests_json": script_in_progress(body), "next_by": "challenger",
        "next_source": "ability:Investigation", "next_challenger_throw": "rock", "next_defender_throw": "scissors"},
        headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert calls == {"rules": 2, "loads": 2}
    ruling = Ruling.get()
    assert [t["call"] for t in ruling.inputs["tests"]] == ["test", "retest"]
    assert ruling.outcome["outcome"] == "success"


def test_the_record_tap_rules_once(client, auth, dbconn, calls):
    """Konrad loses to Vivienne and may retest: the narrator records it as it stands, in one rules call."""
    auth.login()
    form = {"challenger": cid("Vivienne Ashcombe"), "defender": cid("Konrad Vale"), "category": "physical",
            "action": "strike", "challenger_bid": "Quick", "defender_bid": "Brawny", "challenger_throw": "rock",
            "defender_throw": "scissors"}
    body = client.post("/challenge", data=form, headers={"HX-Request": "true"}).get_data(as_text=True)
    script = script_in_progress(body)
    assert script is not None and calls["rules"] == 1
    client.post("/challenge", data={**form, "step": "record", "tests_json": script}, headers={"HX-Request": "true"})
    assert calls == {"rules": 2, "loads": 2}
    assert Ruling.get().outcome["outcome"] == "challenger"


# ----- the combat board (issue 29 item 1: one call a tap there too) ---------------------------------------------

@pytest.fixture
def board_calls(monkeypatch):
    """The combat board's loads and rules calls."""
    from larp.services import mass_challenge as mass_service

    return counted(monkeypatch, mass_service, ("rule_mass_challenge",))


def board(target: str, attackers: dict[str, str], target_throw: str, **extra) -> dict:
    """The combat board's form: ``target`` against ``attackers`` (name: sign)."""
    data = {"target": cid(target), "a": [cid(name) for name in attackers], "target_throw": target_throw, **extra}
    data.update({f"a{cid(name)}_throw": sign for name, sign in attackers.items()})
    return data


def test_the_combat_boards_resolve_tap_that_ends_the_fight_rules_once_and_records_the_sign_it_drew(
        client, auth, dbconn, board_calls):
    """Ruth and Marcus attack Pim (002 "Mass Combat"), Pim's sign left to the tool: no pair may retest, so the
    resolve tap records the fight in one load and one rules call, with the very sign that call drew."""
    auth.login()
    response = client.post("/combat", data=board("Pim Halloran", {"Ruth Calder": "scissors",
                                                                  "Marcus Hale": "scissors"}, "random"),
                           headers={"HX-Request": "true"})
    assert response.status_code == 200 and "Recorded as ruling" in response.get_data(as_text=True)
    assert board_calls == {"rules": 1, "loads": 1}
    ruling = Ruling.get()
    assert ruling.kind == "mass_combat" and ruling.inputs["target"]["random_throw"] is True
    drawn = ruling.inputs["target"]["throw"]
    assert drawn in ("rock", "paper", "scissors")
    assert [p["ruling"]["tests"][0]["defender_throw"] for p in ruling.outcome["pairs"]] == [drawn, drawn]


def test_each_tap_of_a_fight_with_a_retest_rules_once(client, auth, dbconn, board_calls):
    """Konrad loses to Vivienne and may retest with Might (002 "Mass Combat": "retests may then be performed"):
    the resolve tap shows the result so far (one rules call), the retest tap one more, the record tap one
    more; nothing is recorded before the narrator says so or nothing is left to decide."""
    auth.login()
    form = board("Konrad Vale", {"Vivienne Ashcombe": "paper", "Lys Moreau": "scissors"}, "rock")
    body = client.post("/combat", data=form, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "So far:" in body and Ruling.select().count() == 0
    assert board_calls == {"rules": 1, "loads": 1}
    viv = cid("Vivienne Ashcombe")
    retest = {**form, "step": "retest", "tests_json": json.dumps(in_progress(body)), f"r{viv}_source": "defender|might",
              f"r{viv}_a_throw": "rock", f"r{viv}_d_throw": "paper"}
    body = client.post("/combat", data=retest, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert board_calls == {"rules": 2, "loads": 2}
    tests = in_progress(body)
    if tests is not None:  # someone may still retest: record as it stands
        client.post("/combat", data={**form, "step": "record", "tests_json": json.dumps(tests)},
                    headers={"HX-Request": "true"})
        assert board_calls == {"rules": 3, "loads": 3}
    pair = next(p for p in Ruling.get().outcome["pairs"] if p["attacker"] == "Vivienne Ashcombe")
    assert [t["source"] for t in pair["ruling"]["tests"] if t["call"] == "retest"] == ["might"]


def test_a_fight_retried_after_a_conflict_records_the_signs_first_drawn(client, auth, dbconn, board_calls, monkeypatch):
    """Someone changes a character between the board's read and its write (the transaction retried on fresh
    data): the fight is ruled again on the signs the first try drew, still told as drawn, not on new ones."""
    from larp.services import mass_challenge as mass_service
    from larp.services.consequences import Conflict

    firsts: list[str] = []
    real_rule, real_apply = mass_service.rule_mass_challenge, mass_service.apply_consequences

    def rule(*args, **kwargs):
        result = real_rule(*args, **kwargs)
        firsts.append(result.throws["Pim Halloran"])
        return result

    def apply_once_conflicting(characters, *args, **kwargs):
        if len(firsts) == 1:
            raise Conflict("Pim Halloran")
        return real_apply(characters, *args, **kwargs)

    monkeypatch.setattr(mass_service, "rule_mass_challenge", rule)
    monkeypatch.setattr(mass_service, "apply_consequences", apply_once_conflicting)
    auth.login()
    response = client.post("/combat", data=board("Pim Halloran", {"Ruth Calder": "scissors",
                                                                  "Marcus Hale": "scissors"}, "random"),
                           headers={"HX-Request": "true"})
    assert response.status_code == 200 and len(firsts) == 2
    ruling = Ruling.get()
    assert ruling.inputs["target"]["throw"] == firsts[0] == firsts[1]
    assert ruling.inputs["target"]["random_throw"] is True


# ----- the stray-shot screen ------------------------------------------------------------------------------------

@pytest.fixture
def stray_calls(monkeypatch):
    """The stray-shot screen's loads and rules calls."""
    from larp.services import firing_into_groups as firing_service

    return counted(monkeypatch, firing_service, ("rule_firing_into_groups",))


def stray(lys_throw: str) -> dict:
    """Ruth's pistol shot missed Konrad; Lys (closest) then Pim stand near him, the firer's sign rock each time."""
    people = [cid("Lys Moreau"), cid("Pim Halloran")]
    data = {"firer": cid("Ruth Calder"), "target": cid("Konrad Vale"), "b": people, "firer_weapon": "pistol"}
    for pid in people:
        data.update({f"b{pid}_throw": "scissors", f"b{pid}_firer_throw": "rock"})
    data[f"b{people[0]}_throw"] = lys_throw
    return data


def test_the_stray_shot_resolve_tap_that_ends_it_rules_once(client, auth, dbconn, stray_calls):
    """002 "Firing Guns into Groups of People": no one may retest, so the resolve tap records the shot in one
    load and one rules call (Pim is hit by the pistol: 2 bashing against a vampire)."""
    auth.login()
    response = client.post("/combat/bystanders", data=stray("scissors"), headers={"HX-Request": "true"})
    assert response.status_code == 200 and "Recorded as ruling" in response.get_data(as_text=True)
    assert stray_calls == {"rules": 1, "loads": 1}
    assert Ruling.get().kind == "firing_into_group"


def test_a_stray_shot_with_a_random_sign_and_a_retest_left_rules_once_a_tap(client, auth, dbconn, stray_calls):
    """Lys's sign left to the tool: the resolve tap draws it and shows the result so far in one rules call; the
    record tap is one more, and records the sign drawn at resolve."""
    auth.login()
    form = stray("random")
    body = client.post("/combat/bystanders", data=form, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "So far:" in body and Ruling.select().count() == 0
    assert stray_calls == {"rules": 1, "loads": 1}
    lys = cid("Lys Moreau")
    drawn = re.search(rf'name="b{lys}_throw" value="(\w+)" checked', body).group(1)
    client.post("/combat/bystanders", data={**form, f"b{lys}_throw": drawn, "step": "record",
                                            "tests_json": json.dumps(in_progress(body))},
                headers={"HX-Request": "true"})
    assert stray_calls == {"rules": 2, "loads": 2}
    assert Ruling.get().inputs["bystanders"][0]["throws"]["throw"] == drawn


# ----- at most 12 SQL statements a tap, its redraw included (issue 29 item 6) -----------------------------------

#: The goal of issue 29 item 6 for every screen tap: the whole request, the tap and the screen drawn after it.
STATEMENT_BUDGET = 12
#: Not statements of the tap's own (transaction control; peewee's connection set-up).
NOT_COUNTED = ("PRAGMA", "BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


@pytest.fixture
def statements(monkeypatch):
    """Every SQL statement peewee sends, in order (``statements.clear()`` before the tap to count)."""
    import peewee

    seen: list[str] = []
    real = peewee.Database.execute_sql

    def counting(self, sql, params=None, *args, **kwargs):
        seen.append(sql)
        return real(self, sql, params, *args, **kwargs)

    monkeypatch.setattr(peewee.Database, "execute_sql", counting)
    return seen


def counted_statements(seen: list[str]) -> int:
    return len([sql for sql in seen if not sql.strip().upper().startswith(NOT_COUNTED)])


@pytest.fixture
def drawn_people(monkeypatch):
    """The people each screen tap drew, by id (what :func:`larp.web.people_form._states` gave the template)."""
    from larp.web import people_form

    drawn: dict[int, character_service.CharacterState] = {}
    real = people_form._states

    def capturing(*args, **kwargs):
        picks, rows = real(*args, **kwargs)
        drawn.clear()
        drawn.update({state.character.id: state for state in picks.values()})
        drawn.update({line["state"].character.id: line["state"] for line in rows})
        return picks, rows

    monkeypatch.setattr(people_form, "_states", capturing)
    return drawn


def assert_drawn_as_stored(drawn: dict) -> None:
    """Each person the screen drew is as a fresh read finds him: his row, Traits left, Ability levels left and
    health track (the redraw is told from what the tap wrote, not read again)."""
    from larp.models import GameSession
    from larp.services.chronicles import chronicle_settings

    assert drawn
    some = next(iter(drawn.values())).character
    settings = chronicle_settings(some.chronicle)
    session = GameSession.select().where(GameSession.closed_at.is_null()).order_by(GameSession.number.desc()).first()
    fresh = character_service.character_states(list(Character.select().where(Character.id.in_(list(drawn)))),
                                                session, settings)
    for cid_, state in drawn.items():
        again = fresh[cid_]
        assert {k: v for k, v in state.character.__data__.items() if k != "updated_at"} == \
            {k: v for k, v in again.character.__data__.items() if k != "updated_at"}, again.character.name
        assert state.traits == again.traits and state.abilities == again.abilities, again.character.name
        assert state.health == again.health, again.character.name


def test_the_combat_boards_taps_send_at_most_12_statements_redraw_included(client, auth, dbconn, statements,
                                                                          drawn_people):
    """Ruth and Marcus beat Pim (the resolve tap records it), then Konrad against Vivienne and Lys, who may
    retest (resolve shows the result so far), recorded as it stands, two people hurt: each tap, the board
    drawn after it included, sends at most 12 statements, and draws everyone as stored."""
    auth.login()
    ends = board("Pim Halloran", {"Ruth Calder": "scissors", "Marcus Hale": "scissors"}, "paper",
                 request_token="t-ends")
    statements.clear()
    response = client.post("/combat", data=ends, headers={"HX-Request": "true"})
    assert "Recorded as ruling" in response.get_data(as_text=True)
    assert counted_statements(statements) <= STATEMENT_BUDGET, "\n".join(s[:150] for s in statements)
    assert_drawn_as_stored(drawn_people)
    form = board("Konrad Vale", {"Vivienne Ashcombe": "paper", "Lys Moreau": "scissors"}, "rock",
                 request_token="t-fight")
    statements.clear()
    body = client.post("/combat", data=form, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "So far:" in body
    assert counted_statements(statements) <= STATEMENT_BUDGET, "\n".join(s[:150] for s in statements)
    assert_drawn_as_stored(drawn_people)
    statements.clear()
    response = client.post("/combat", data={**form, "step": "record", "tests_json": json.dumps(in_progress(body))},
                           headers={"HX-Request": "true"})
    assert "Recorded as ruling" in response.get_data(as_text=True)
    assert counted_statements(statements) <= STATEMENT_BUDGET, "\n".join(s[:150] for s in statements)
    assert_drawn_as_stored(drawn_people)


def test_the_stray_shot_tap_that_ends_it_sends_at_most_12_statements_redraw_included(client, auth, dbconn,
                                                                                   statements, drawn_people):
    """Ruth's pistol shot missed Konrad and hit Pim (002 "Firing Guns into Groups of People"): the resolve tap
    that records it, the screen drawn after it included, sends at most 12 statements, and draws everyone as
    stored."""
    auth.login()
    form = {**stray("scissors"), "request_token": "t-stray"}
    statements.clear()
    response = client.post("/combat/bystanders", data=form, headers={"HX-Request": "true"})
    assert "Recorded as ruling" in response.get_data(as_text=True)
    assert counted_statements(statements) <= STATEMENT_BUDGET, "\n".join(s[:150] for s in statements)
    assert_drawn_as_stored(drawn_people)


@pytest.fixture
def drawn_sides(monkeypatch):
    """The sides each challenge screen tap drew, by id: (state, the fingerprint its poll carries)."""
    from larp.web import challenges as challenge_views

    drawn: dict[int, tuple] = {}
    real = challenge_views._screen_context

    def capturing(*args, **kwargs):
        context = real(*args, **kwargs)
        drawn.clear()
        drawn.update({info["state"].character.id: (info["state"], info["fingerprint"])
                      for info in context["sides"].values() if info.get("state")})
        return context

    monkeypatch.setattr(challenge_views, "_screen_context", capturing)
    return drawn


def assert_sides_as_stored(drawn: dict) -> None:
    """Each side is drawn as a fresh read finds him, with the fingerprint a poll made now finds (so the screen
    warns of a change made after the tap, and of nothing else)."""
    from larp.services.live import seen_in_chronicle

    assert_drawn_as_stored({cid_: state for cid_, (state, _seen) in drawn.items()})
    for cid_, (state, fingerprint) in drawn.items():
        assert fingerprint == seen_in_chronicle(state.character.chronicle_id, cid_).fingerprint


def test_the_challenge_screens_taps_send_at_most_12_statements_redraw_included(client, auth, dbconn, statements,
                                                                              drawn_sides):
    """Konrad loses to Vivienne and may retest (the resolve tap shows it), recorded as it stands (Konrad hurt,
    his Trait lost); then Ruth's static Mental challenge won at once (the resolve tap records it): each tap,
    the screen drawn after it included, sends at most 12 statements, and draws each side as stored with the
    fingerprint a poll finds."""
    auth.login()
    form = {"challenger": cid("Vivienne Ashcombe"), "defender": cid("Konrad Vale"), "category": "physical",
            "action": "strike", "challenger_bid": "Quick", "defender_bid": "Brawny", "challenger_throw": "rock",
            "defender_throw": "scissors", "request_token": "t-resolve"}
    statements.clear()
    body = client.post("/challenge", data=form, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert counted_statements(statements) <= STATEMENT_BUDGET, "\n".join(s[:150] for s in statements)
    assert_sides_as_stored(drawn_sides)
    script = script_in_progress(body)
    assert script is not None
    statements.clear()
    client.post("/challenge", data={**form, "step": "record", "tests_json": script, "request_token": "t-record"},
                headers={"HX-Request": "true"})
    assert counted_statements(statements) <= STATEMENT_BUDGET, "\n".join(s[:150] for s in statements)
    assert Ruling.select().count() == 1
    assert_sides_as_stored(drawn_sides)
    ends = static(challenger_throw="paper", defender_throw="rock", request_token="t-static")
    statements.clear()
    client.post("/challenge", data=ends, headers={"HX-Request": "true"})
    assert counted_statements(statements) <= STATEMENT_BUDGET, "\n".join(s[:150] for s in statements)
    assert Ruling.select().count() == 2
    assert_sides_as_stored(drawn_sides)
