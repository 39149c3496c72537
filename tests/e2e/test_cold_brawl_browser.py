"""Issue 31 item 3: a five-on-one brawl in a cold scene (no card scanned, nobody picked before), at 390 and
820 px: the target is one tap on the roster, the five attackers are ticked (one found by typing two letters of
his name) and added with one tap, no card code typed; the target's sign is in view after the add, and the
fight is recorded."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import shoot

SIZES = {"phone-390": {"width": 390, "height": 844}, "tablet-820": {"width": 820, "height": 1180}}
TARGET = "Teodor Brandt"
ATTACKERS = (("Konrad Vale", "rock"), ("Lys Moreau", "rock"), ("Aldous Whitmore", "paper"),
             ("Marcus Hale", "scissors"), ("Ines Castellano", "paper"))

IN_VIEW = """s => { const b = document.querySelector(s).getBoundingClientRect();
    return b.top >= 0 && b.top < innerHeight; }"""


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
    expect(rows.locator(".who-name")).to_have_text(sorted(name for name, _ in ATTACKERS))  # in the roster's order
    page.wait_for_function(IN_VIEW, arg="#target-signs")
    assert page.locator("#add-roster .roster-chip").count() == 4  # the five added are off the roster
    shoot(page, f"cold-brawl-added-{size}")

    page.locator(".target-panel").get_by_label("Rock", exact=True).check()
    for name, sign in ATTACKERS:
        rows.filter(has_text=name).get_by_label(sign.capitalize(), exact=True).check()
    page.get_by_role("button", name="Resolve the mass challenge").click()
    result = page.locator("#combat-result")
    expect(result.locator(".ruling-summary").first).to_contain_text(f"{TARGET} against 5")
    record = result.get_by_role("button", name="Record as it stands")
    if record.count():
        record.click()
    expect(result.locator(".ruling-meta")).to_contain_text("Recorded as ruling #")
    assert typed == 2  # no card code typed
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    shoot(page, f"cold-brawl-recorded-{size}")
    context.close()
