"""The combat board at a live event (issue 18, second pass), in real Chromium at 390 px (phone) and 820 px
(tablet): the scene's characters one tap away, a third card scanned joining the mass challenge being set up,
and after Resolve the result so far at the top of the viewport with the retests under it and "Record as it
stands" primary."""

from __future__ import annotations

import sqlite3

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled, open_settings
from tests.e2e.test_screens_browser import SIZES, card_token, in_viewport, no_sideways_scroll, shoot_view


def fights(served) -> list[tuple]:
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        return con.execute("select id, summary from ruling where kind = 'mass_combat' order by id").fetchall()


@pytest.mark.parametrize("size", SIZES)
def test_a_third_scan_joins_the_attack_and_the_result_is_in_view(served, browser, console_errors, size):
    """Issue 18 "Scanning chains: a third scan during a mass challenge adds an attacker" and "Resolve puts the
    ruling in view", on the board of 002 "Mass Combat": Teodor (14 Physical Traits) is the target, Lys attacks
    from the scene; Konrad's card, scanned then, offers "Konrad Vale joins the attack on Teodor Brandt"
    (one tap). Everyone throws Rock: both pairs tie and the ties go to Teodor's 14 Traits (LotNR The Test), so
    each attacker may still retest; the result so far is at the top of the viewport with the retest chips
    under it and "Record as it stands", the primary button, in view; recording makes one mass ruling."""
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.goto(served.login_link())
    for name in ("Lys Moreau", "Teodor Brandt"):
        page.goto(f"{served.base_url}/c/{card_token(served, name)}")
    page.goto(f"{served.base_url}/combat")
    with htmx_settled(page):
        page.locator(".target-panel .in-scene").get_by_role("button", name="Teodor Brandt").click()
    expect(page.locator(".target-panel .who-name")).to_have_text("Teodor Brandt")
    with htmx_settled(page):
        page.locator(".add-box .in-scene").get_by_role("button", name="Lys Moreau").click()
    expect(page.locator(".attacker-row")).to_have_count(1)

    page.goto(f"{served.base_url}/c/{card_token(served, 'Konrad Vale')}")
    join = page.get_by_role("button", name="Konrad Vale joins the attack on Teodor Brandt")
    expect(join).to_be_visible()
    assert in_viewport(page, join) and join.bounding_box()["height"] >= 44
    no_sideways_scroll(page)
    shoot_view(page, f"combat-scan-join-{size}")
    join.click()
    rows = page.locator(".attacker-row")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator(".who-name")).to_have_text("Lys Moreau")
    expect(rows.nth(1).locator(".who-name")).to_have_text("Konrad Vale")
    expect(page.locator(".target-panel .who-name")).to_have_text("Teodor Brandt")
    no_sideways_scroll(page)

    page.locator(".target-panel").get_by_label("Rock", exact=True).check()
    rows.nth(0).get_by_label("Rock", exact=True).check()
    rows.nth(1).get_by_label("Rock", exact=True).check()
    open_settings(page)  # folded on a phone (issue 31 item 2)
    page.locator(".scene-bar select[name=range]").select_option("hand_to_hand")
    setup = rows.nth(0).locator("details.row-setup > summary")
    if setup.is_visible():  # a narrow card: More is inside his folded range and weapon (wave 9)
        setup.click()
    rows.nth(0).locator("details.more summary").click()  # opened by the narrator, not by the server
    with page.expect_response(lambda r: r.url.endswith("/combat") and r.request.method == "POST") as answer:
        page.get_by_role("button", name="Resolve the mass challenge").click()
    result = page.locator("#combat-result .in-progress")
    expect(result).to_be_visible()
    # Issue 18 "swaps that return only what changed": the result and the changed parts, not the board form,
    # so the board as the narrator left it stays (the scene's range, the opened "More…").
    assert 'id="board"' not in answer.value.text() and "Bare hands" not in answer.value.text()
    expect(page.locator(".scene-bar select[name=range]")).to_have_value("hand_to_hand")
    expect(rows.nth(0).locator("details.more")).to_have_attribute("open", "")
    page.wait_for_function("() => { const b = document.querySelector('#combat-result .ruling-summary')"
                           ".getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }", timeout=5000)
    summary = result.locator(".ruling-summary")
    expect(summary).to_contain_text("So far")
    record = result.get_by_role("button", name="Record as it stands")
    assert in_viewport(page, summary) and in_viewport(page, record), "the result and its record action in view"
    assert "primary" in record.get_attribute("class")
    expect(result.get_by_role("button", name="Make the retests", exact=True)).to_be_hidden()  # until a retest is chosen
    expect(result.get_by_role("button", name="Make the retests and record")).to_be_hidden()
    chips = result.locator(".pair-retest").filter(has_text="Konrad Vale").locator(".retest-chip")
    expect(chips.first).to_be_visible()
    assert chips.first.bounding_box()["y"] < record.bounding_box()["y"], "the retests sit above the record button"
    assert all(chips.nth(i).bounding_box()["height"] >= 44 for i in range(chips.count()))
    no_sideways_scroll(page)
    shoot_view(page, f"combat-result-so-far-{size}")
    chips.first.click()  # issue 31, wave 5: one chip is the retest and the retester's new sign
    expect(result.get_by_role("button", name="Make the retests", exact=True)).to_be_visible()
    finish = result.get_by_role("button", name="Make the retests and record")
    expect(finish).to_be_visible()
    expect(record).to_be_hidden()  # it would drop the retest chosen
    expect(result.locator(".pair-retest").filter(has_text="Konrad Vale").locator(".retest-throws fieldset:visible")).to_have_count(1)
    assert in_viewport(page, finish)
    shoot_view(page, f"combat-retest-chosen-{size}")
    result.locator(".pair-retest").filter(has_text="Konrad Vale").get_by_label("No retest").check()
    record.click()
    expect(page.locator("#combat-result .ruling-meta")).to_contain_text("Recorded as ruling")
    assert in_viewport(page, page.locator("#combat-result .ruling-summary"))
    expect(rows.nth(1).get_by_label("Rock", exact=True)).not_to_be_checked()  # the next round's signs start empty
    assert len(fights(served)) == 1
    shoot_view(page, f"combat-recorded-{size}")
    assert not console_errors
    context.close()
