"""Issue 31 item 3: a five-on-one brawl in a cold scene (no card scanned, nobody picked before), at 390 and
820 px: the target is one tap on the roster, the five attackers are ticked (one found by typing two letters of
his name) and added with one tap, no card code typed; the target's sign is in view after the add; the six signs
and Resolve take one scroll at most; the tie's retest is one chip (who retests, with what, his new sign), the
other side's sign and "Make the retests and record" (issue 31, wave 5), and the fight is recorded."""

from __future__ import annotations

import json
import sqlite3

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import shoot
from tests.support import REACHABLE

SIZES = {"phone-390": {"width": 390, "height": 844}, "tablet-820": {"width": 820, "height": 1180}}
TARGET = "Teodor Brandt"
ATTACKERS = (("Konrad Vale", "rock"), ("Lys Moreau", "rock"), ("Aldous Whitmore", "paper"),
             ("Marcus Hale", "scissors"), ("Ines Castellano", "paper"))

IN_VIEW = """s => { const b = document.querySelector(s).getBoundingClientRect();
    return b.top >= 0 && b.top < innerHeight; }"""


def reachable_soon(tap, seconds: float = 2.0) -> bool:
    """Whether ``tap`` is in view and on top within ``seconds`` of a scroll: the page may still be settling (a swap's
    scroll, the sticky bar placing itself) on a loaded machine; a sign that stays covered still fails."""
    waited = 0.0
    while not tap.evaluate(REACHABLE):
        if waited >= seconds:
            return False
        tap.page.wait_for_timeout(100)
        waited += 0.1
    return True


@pytest.mark.parametrize("size", SIZES)
def test_a_cold_scene_brawl_is_picked_from_the_roster(served, browser, size):
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.goto(served.login_link())
    page.goto(served.base_url + "/combat")
    expect(page.locator(".in-scene")).to_have_count(0)  # a cold scene: nobody one tap away from earlier picks
    typed = 0

    page.locator("#target-roster").get_by_role("button", name=TARGET).click()
    expect(page.locator(".target-panel .who-name")).to_have_text(TARGET)
    roster = page.locator("#add-roster")
    expect(roster).to_be_visible()
    assert page.evaluate(IN_VIEW, "#add-roster"), "the attackers' roster is not in view after the target's pick"
    expect(roster.get_by_text(TARGET)).to_have_count(0)
    # Two letters of a name narrow the roster; a ticked name stays when the filter changes.
    box = page.get_by_label("Add attackers: name or card code")
    box.press_sequentially("ko")
    typed += 2
    expect(roster.locator(".roster-chip:visible")).to_have_count(1)
    roster.get_by_label(ATTACKERS[0][0]).check()
    box.fill("")
    box.dispatch_event("input")
    expect(roster.locator(".roster-chip:visible")).to_have_count(9)
    for name, _ in ATTACKERS[1:]:
        roster.get_by_label(name).check()
    page.get_by_role("button", name="Add hand to hand").click()
    rows = page.locator(".attacker-row")
    expect(rows).to_have_count(len(ATTACKERS))
    expect(rows.locator(".who-name")).to_have_text([name for name, _ in ATTACKERS])  # in the order ticked
    page.wait_for_function(IN_VIEW, arg="#target-signs")
    assert page.locator("#add-roster .roster-chip").count() == 4  # the five added are off the roster
    shoot(page, f"cold-brawl-added-{size}")

    # Issue 31 (wave 5): the six signs and Resolve take one scroll at most (the cards are compact where they are
    # narrow, Resolve stays at the bottom of the screen), each sign tapped where it is.
    taps = [page.locator(".target-panel").get_by_label("Rock", exact=True)]
    taps += [rows.filter(has_text=name).get_by_label(sign.capitalize(), exact=True) for name, sign in ATTACKERS]
    resolve = page.get_by_role("button", name="Resolve the mass challenge")
    scrolls = 0
    for tap in taps + [resolve]:
        if not tap.evaluate(REACHABLE):
            scrolls += 1
            tap.scroll_into_view_if_needed()
            assert reachable_soon(tap), "a sign is covered once scrolled to"
        tap.click() if tap is resolve else tap.check()
    assert scrolls <= 1, f"{scrolls} scrolls for the signs and Resolve at {size}"
    result = page.locator("#combat-result")
    expect(result.locator(".ruling-summary").first).to_contain_text(f"{TARGET} against 5")
    # Konrad's tie (Rock against Rock) is decided by Traits; its loser retests: one chip is his retest and new sign,
    # then the other side's sign, then one tap makes it and records the fight.
    konrad = result.locator(".pair-retest").filter(has_text=ATTACKERS[0][0])
    konrad.locator(".retest-pick").first.get_by_label("Paper", exact=True).check()
    other = konrad.locator(".retest-throws fieldset:visible")
    expect(other).to_have_count(1)
    page.wait_for_function("e => e.getBoundingClientRect().bottom <= innerHeight", arg=other.element_handle())
    other.get_by_label("Rock", exact=True).check()
    finish = result.get_by_role("button", name="Make the retests and record")
    assert finish.evaluate(REACHABLE), "Make the retests and record is not in view"
    expect(result.get_by_role("button", name="Record as it stands")).to_be_hidden()
    shoot(page, f"cold-brawl-retest-{size}")
    finish.click()
    expect(result.locator(".ruling-meta")).to_contain_text("Recorded as ruling #")
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        inputs = json.loads(con.execute("select inputs from ruling order by id desc limit 1").fetchone()[0])
    made = [t for a in inputs["attackers"] for t in a.get("tests", [])]
    assert [(t["call"], t["challenger_throw"] if t["by"] == "challenger" else t["defender_throw"]) for t in made] == [
        ("retest", "paper")], made
    assert typed == 2  # no card code typed
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    shoot(page, f"cold-brawl-recorded-{size}")
    context.close()
