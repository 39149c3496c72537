"""The combat board in real Chromium (issue 4): a three-attacker mass challenge on a tablet (820 px), recorded
as one ruling; the same board on a phone does not scroll sideways."""

from __future__ import annotations

import sqlite3

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS, shoot

TABLET = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}


def codes(served, *names: str) -> list[str]:
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        return [con.execute("select short_code from character where name = ?", (n,)).fetchone()[0] for n in names]


def shoot_mid_flow(page, name: str) -> None:
    """A screenshot in the middle of a flow. Playwright hides carets by writing an inline style on every input
    and leaves ``style=""`` behind; htmx's settle step would copy it onto the next board (a CSP report that the
    app never causes), so the leftovers are removed."""
    shoot(page, name)
    page.evaluate("document.querySelectorAll('[style]').forEach(e => e.removeAttribute('style'))")


def test_three_attackers_on_the_tablet_board(served, browser):
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(served.login_link())
    page.get_by_role("link", name="Combat", exact=True).click()
    expect(page.get_by_role("heading", name="Combat board")).to_be_visible()

    konrad, vivienne, lys, ruth = codes(served, "Konrad Vale", "Vivienne Ashcombe", "Lys Moreau", "Ruth Calder")
    page.get_by_label("Who is attacked?").fill(konrad)
    page.get_by_label("Who is attacked?").press("Enter")
    expect(page.locator(".target-panel .who-name")).to_have_text("Konrad Vale")
    # Two attackers at once by their card codes, then a third as ranged.
    page.get_by_label("Add attackers").fill(f"{vivienne} {lys}")
    page.get_by_label("Add attackers").press("Enter")
    expect(page.locator(".attacker-row")).to_have_count(2)
    page.get_by_label("Add attackers").fill(ruth)
    page.get_by_role("button", name="Add ranged").click()
    rows = page.locator(".attacker-row")
    expect(rows).to_have_count(3)
    ruth_row = rows.nth(2)
    expect(ruth_row.locator(".who-name")).to_have_text("Ruth Calder")
    expect(ruth_row.get_by_label("Ranged")).to_be_checked()
    setup = ruth_row.locator("details.row-setup > summary")  # folded where the card is narrow (issue 31, wave 5)
    if setup.is_visible():
        setup.click()
    ruth_row.get_by_label("Ruth Calder's weapon").select_option("pistol")
    expect(setup).to_contain_text("Pistol")  # the fold's line says what is chosen

    page.locator(".target-panel").get_by_label("Rock", exact=True).check()
    rows.nth(0).get_by_label("Paper", exact=True).check()      # Vivienne: Paper beats Rock
    rows.nth(1).get_by_label("Scissors", exact=True).check()   # Lys: Rock beats Scissors
    ruth_row.get_by_label("Scissors", exact=True).check()       # Ruth: Rock beats Scissors
    url_before = page.url
    page.get_by_role("button", name="Resolve the mass challenge").click()

    result = page.locator("#combat-result")
    record = result.get_by_role("button", name="Record as it stands")
    expect(result.locator(".ruling-summary")).to_contain_text("Konrad Vale against 3")
    if record.count():
        expect(result).to_contain_text("So far:")
        shoot_mid_flow(page, "combat-board-in-progress-820")
        record.click()
    expect(result.locator(".ruling .ruling-summary")).to_contain_text("Vivienne Ashcombe wins")
    expect(result.locator(".ruling-meta")).to_contain_text("Recorded as ruling #")
    expect(rows.nth(0).locator(".pair-line")).to_contain_text("Vivienne Ashcombe wins")
    expect(rows.nth(1).locator(".pair-line")).to_contain_text("Konrad Vale wins")
    expect(rows.nth(2).locator(".pair-line")).to_contain_text("Konrad Vale wins")
    assert page.url != url_before and "ruling=" in page.url  # the address shows the recorded board
    expect(page.locator(".target-panel .box.bashing")).to_have_count(1)  # Vivienne's blow
    shoot(page, "combat-board-tablet-820")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= TABLET["width"], f"the board scrolls sideways at 820 px ({width} px wide)"

    page.get_by_role("link", name="Record", exact=True).click()
    expect(page.locator(".record-list li")).to_have_count(1)
    expect(page.locator(".record-list")).to_contain_text("Konrad Vale against 3")

    page.set_viewport_size(PHONE)
    page.go_back()
    expect(page.locator(".attacker-row")).to_have_count(3)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the board scrolls sideways at 390 px ({width} px wide)"
    shoot(page, "combat-board-phone-390")
    assert errors == [], errors
    context.close()


def in_view(page, locator) -> bool:
    """Whether all of ``locator`` is inside the viewport as it stands (no scrolling)."""
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= size["height"]


@pytest.mark.parametrize("size", (TABLET, PHONE), ids=("tablet-820", "phone-390"))
def test_add_hand_to_hand_leaves_the_target_sign_and_the_first_attackers_in_view(served, browser, size):
    """Issue 31 item 4: "Add hand to hand" sits at the bottom of the board; after it, the target's sign (the
    next tap) and the first attackers are in view at 820 and 390 px, not the add box."""
    konrad, vivienne, lys, ruth = codes(served, "Konrad Vale", "Vivienne Ashcombe", "Lys Moreau", "Ruth Calder")
    context = browser.new_context(viewport=size)
    page = context.new_page()
    page.goto(served.login_link())
    page.goto(served.base_url + page.locator("a:text-is('Combat')").first.get_attribute("href"))
    page.get_by_label("Who is attacked?").fill(konrad)
    page.get_by_label("Who is attacked?").press("Enter")
    expect(page.locator(".target-panel .who-name")).to_have_text("Konrad Vale")
    signs = page.locator("#target-signs .signs")
    rows = page.locator(".attacker-row")
    for added, code in ((2, f"{vivienne} {lys}"), (3, ruth)):
        page.get_by_label("Add attackers").fill(code)
        page.get_by_role("button", name="Add hand to hand").click()
        expect(rows).to_have_count(added)
        expect(signs).to_be_visible()
        # htmx scrolls once the new board has settled: wait (5 s at most) for the sign to come into view.
        page.wait_for_function("() => { const r = document.querySelector('#target-signs .signs').getBoundingClientRect();"
                               " return r.top >= 0 && r.bottom <= innerHeight; }", timeout=5000)
        assert in_view(page, signs), f"the target's sign is off screen at {size['width']} px"
        assert in_view(page, rows.nth(0).locator(".who-name")), f"the first attacker is off screen at {size['width']} px"
    page.screenshot(path=str(SCREENSHOTS / f"combat-board-added-{size['width']}-view.png"))  # what is in view
    context.close()
