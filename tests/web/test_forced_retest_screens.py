"""New-user test 12, finding 3: a forced darkness retest due on the stray-shot screen and on the combat board
(seed 002 "Darkness": the winner in total darkness must retest) is said first in the result, from the rules
core's options: who must retest, against whom, why (the core's step and its rule); the person's card shows no
"Not hit" and no preset "No retest"; "Record as it stands" is not offered; "Make the retests and record" is."""

from __future__ import annotations

import re

import pytest

from larp.models import Character, Ruling
from tests.web.test_combat_board_web import board_fields, in_progress, post, spost, stray_fields

import json


@pytest.fixture
def cast(dbconn):
    """Id of each demo character, by first name."""
    return {c.name.split()[0] if c.name != "Sister Agathe" else "Agathe": c.id for c in Character.select()}


def _result(body: str) -> str:
    return body[body.index('id="combat-result"'):]


def _row(body: str, row_id: int) -> str:
    start = body.index(f'id="row-{row_id}"')
    return body[start:body.index("</fieldset>\n", body.index('class="pair-result"', start))]


def test_a_stray_shot_in_total_darkness_says_the_forced_retest_first(client, auth, cast):
    """The report's shot: Ruth Calder's pistol misses Vivienne; Pim (Scissors), Aldous (Rock), Sister Agathe
    (Paper) near her; Ruth Rock against each; total darkness. Ruth wins against Pim: her forced retest is due."""
    auth.login()
    pim, aldous, agathe = cast["Pim"], cast["Aldous"], cast["Agathe"]
    data = stray_fields(cast["Ruth"], cast["Vivienne"], [pim, aldous, agathe], darkness="total",
                        **{f"b{pim}_throw": "scissors", f"b{aldous}_throw": "rock", f"b{agathe}_throw": "paper"})
    body = spost(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    result = _result(body)
    due = result.index('id="forced-due"')
    assert due < result.index('class="ruling-summary"')  # said first
    said = result[due:result.index("</div>", due)]
    assert "<strong>Ruth Calder</strong> must retest against Pim Halloran: the winner is in total darkness." in said
    assert "In Pim Halloran&#39;s test, the winner is in total darkness" in said and "002 &#34;Darkness&#34;" in said
    assert "a test&#39;s loser may still retest" not in result
    assert 'value="record"' not in result and "Record as it stands" not in result
    assert 'value="retest_record"' in result and "Make the retests and record" in result
    card = _row(body, pim)
    assert "Not hit" not in card and "Forced retest due" in card
    assert "No retest" not in card and f'name="r{pim}_source" value="challenger|forced" checked' in card
    # The forced retest thrown (Ruth Rock, Pim Scissors): one tap makes it and records.
    tests = json.dumps(in_progress(body))
    retest = {**data, "tests_json": tests, f"r{pim}_source": "challenger|forced",
              f"r{pim}_f_throw": "rock", f"r{pim}_b_throw": "scissors"}
    body = spost(client, {**retest, "step": "retest_record"}, htmx=True).get_data(as_text=True)
    assert "Recorded as ruling" in body and Ruling.select().count() == 1
    assert Ruling.get().summary == "Ruth Calder's stray round hits Pim Halloran."


def test_a_stray_shot_with_no_forced_retest_still_offers_record_as_it_stands(client, auth, cast):
    """In the light the same shot is settled or offers the loser's retests: no forced-retest box."""
    auth.login()
    pim = cast["Pim"]
    data = stray_fields(cast["Ruth"], cast["Vivienne"], [pim], **{f"b{pim}_throw": "scissors"})
    body = spost(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    assert 'id="forced-due"' not in body


def test_the_combat_board_in_total_darkness_says_the_forced_retest_first(client, auth, cast):
    """The board's twin: Konrad Rock against Vivienne Scissors and Lys Paper in total darkness: Konrad wins
    against Vivienne, so his forced retest in her pair is due (the core's step, its rule); no "Record as it
    stands", the pair's badge says the retest is due, not who won, and "No retest" is not offered."""
    auth.login()
    konrad, viv, lys = cast["Konrad"], cast["Vivienne"], cast["Lys"]
    data = board_fields(konrad, [viv, lys], throws={viv: "scissors", lys: "paper"}, darkness="total")
    body = post(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    result = _result(body)
    assert 'id="forced-due"' in result, result[:3000]
    due = result.index('id="forced-due"')
    assert due < result.index('class="ruling-summary"')
    said = result[due:result.index("</div>", due)]
    assert "<strong>Konrad Vale</strong> must retest against Vivienne Ashcombe" in said
    assert "In Vivienne Ashcombe&#39;s pair, the winner is in total darkness" in said
    assert 'value="record"' not in result and "Record as it stands" not in result
    assert "Make the retests and record" in result
    pair = body[body.index(f'id="pair-{viv}"'):]
    pair = pair[:pair.index("</div>")]
    assert "Forced retest due" in pair
    assert f'name="r{viv}_retest" value=""' not in body


def test_make_the_retests_and_record_shows_the_next_forced_retest_instead_of_refusing(client, auth, cast):
    """New user 13: "Make the retests and record" was refused ("the forced darkness retest ... is due") when the
    retest made brought the next one, and the retest panel went with the refusal. The report's shot: Ruth wins
    against Pim in the dark, and her forced retest is lost (Rock against Paper): Pim, in the dark too, now won,
    so his own forced retest is due (002 "Darkness": each success in total darkness is retested once). The tap
    shows it, with its choice ticked, and records nothing; the next tap makes it and records."""
    auth.login()
    pim, aldous, agathe = cast["Pim"], cast["Aldous"], cast["Agathe"]
    data = stray_fields(cast["Ruth"], cast["Vivienne"], [pim, aldous, agathe], darkness="total",
                        **{f"b{pim}_throw": "scissors", f"b{aldous}_throw": "rock", f"b{agathe}_throw": "paper"})
    body = spost(client, {**data, "step": "resolve"}, htmx=True).get_data(as_text=True)
    retest = {**data, "tests_json": json.dumps(in_progress(body)), f"r{pim}_source": "challenger|forced",
              f"r{pim}_f_throw": "rock", f"r{pim}_b_throw": "paper"}
    answer = spost(client, {**retest, "step": "retest_record"}, htmx=True)
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and Ruling.select().count() == 0
    result = _result(body)
    assert "Not recorded" not in result
    assert "<strong>Pim Halloran</strong> must retest against Ruth Calder" in result
    assert f'name="r{pim}_source" value="defender|forced" checked' in _row(body, pim)
    again = {**data, "tests_json": json.dumps(in_progress(body)), f"r{pim}_source": "defender|forced",
             f"r{pim}_f_throw": "rock", f"r{pim}_b_throw": "scissors"}
    body = spost(client, {**again, "step": "retest_record"}, htmx=True).get_data(as_text=True)
    assert "Recorded as ruling" in body and Ruling.select().count() == 1
    assert Ruling.get().summary == "Ruth Calder's stray round hits Pim Halloran."


def test_the_bystanders_the_round_waits_to_reach_are_said_in_the_readers_language(client, auth, cast):
    """New user 14: behind a forced retest due, the next bystanders' cards read "Sem teste a bala parou em Pim
    Halloran's test (the forced retest is due)" in Portuguese. The note is said whole, in the reader's words."""
    auth.login()
    pim, aldous, agathe = cast["Pim"], cast["Aldous"], cast["Agathe"]
    data = stray_fields(cast["Ruth"], cast["Vivienne"], [pim, aldous, agathe], darkness="total",
                        **{f"b{pim}_throw": "scissors", f"b{aldous}_throw": "rock", f"b{agathe}_throw": "paper"})
    for language, said in (("pt-BR", "a bala espera o reteste forçado no teste de Pim Halloran"),
                           ("en", "the round waits for the forced retest in Pim Halloran&#39;s test")):
        body = client.post("/combat/bystanders", data={**data, "step": "resolve"},
                           headers={"HX-Request": "true", "Accept-Language": language}).get_data(as_text=True)
        assert said in _row(body, aldous), language
        assert "(the forced retest is due)" not in body, language
