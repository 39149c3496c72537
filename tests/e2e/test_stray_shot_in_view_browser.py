"""The stray-shot screen keeps what the narrator just did in view (found by a new user at 390 px: "Choose the
gun that fired." appeared some 2000 px below the gun, and the recorded result below the fold)."""

from __future__ import annotations

import sqlite3
from urllib.parse import urlencode

from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS, shoot

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}


def ids(served, *names: str) -> list[int]:
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        return [con.execute("select id from character where name = ?", (n,)).fetchone()[0] for n in names]


def in_view(page, locator, viewport) -> bool:
    box = locator.bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"]


def test_the_stray_shot_message_and_result_are_in_view(served, browser):
    """Aldous misses Konrad; Ruth, Lys and Pim stand near him, every sign given. Resolve without a gun: the
    message is beside the gun and in view; with the pistol: the recorded headline is in view, at 390 px and
    at 820 px, and the phone does not scroll sideways."""
    aldous, konrad, ruth, lys, pim = ids(served, "Aldous Whitmore", "Konrad Vale", "Ruth Calder", "Lys Moreau",
                                         "Pim Halloran")
    query = [("firer", aldous), ("target", konrad)] + [("b", b) for b in (ruth, lys, pim)]
    query += [(f"b{b}_{k}", v) for b in (ruth, lys, pim) for k, v in (("throw", "scissors"), ("firer_throw", "rock"))]
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(served.login_link())
    for viewport in (PHONE, TABLET):
        page.set_viewport_size(viewport)
        page.goto(f"{served.base_url}/combat/bystanders?{urlencode(query)}")
        resolve = page.get_by_role("button", name="Resolve the stray shot")
        if viewport is PHONE:
            resolve.click()
            message = page.locator("#firer-panel .field-error")
            expect(message).to_have_text("Choose the gun that fired.")
            assert in_view(page, message, viewport) and in_view(page, page.locator("select[name=firer_weapon]"), viewport)
        page.locator("select[name=firer_weapon]").select_option("pistol")
        resolve.click()
        result = page.locator("#combat-result")
        expect(result.locator(".ruling-summary").first).to_be_visible()
        record = result.get_by_role("button", name="Record as it stands")
        if record.count():
            record.click()
        expect(result.locator(".ruling-meta")).to_contain_text("Recorded as ruling #")
        headline = result.locator(".ruling-summary")
        expect(headline).to_contain_text("Aldous Whitmore's stray round hits Ruth Calder")
        assert page.evaluate("window.scrollY") > 0  # Resolve is far down the form: the page moved to the result
        assert in_view(page, headline, viewport) and in_view(page, result.locator(".ruling-meta"), viewport)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"stray-shot-result-in-view-{viewport['width']}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, "stray-shot-result-820")
    context.close()


def test_a_forced_darkness_retest_is_said_first_and_in_view(served, browser):
    """New-user test 12, finding 3, at 820 px (his tablet) and 390 px: Ruth's pistol misses Vivienne in total
    darkness, Pim (Scissors), Aldous (Rock), Sister Agathe (Paper) near her, Ruth Rock against each. The result
    in view says first that Ruth must retest against Pim; no "Record as it stands"; the forced retest's signs
    tapped, "Make the retests and record" records the hit on Pim."""
    ruth, viv, pim, aldous, agathe = ids(served, "Ruth Calder", "Vivienne Ashcombe", "Pim Halloran",
                                         "Aldous Whitmore", "Sister Agathe")
    signs = {pim: "scissors", aldous: "rock", agathe: "paper"}
    query = [("firer", ruth), ("target", viv), ("firer_weapon", "pistol"), ("darkness", "total")]
    query += [("b", b) for b in signs] + [(f"b{b}_throw", s) for b, s in signs.items()]
    query += [(f"b{b}_firer_throw", "rock") for b in signs]
    context = browser.new_context(viewport=TABLET, color_scheme="dark")
    page = context.new_page()
    page.goto(served.login_link())
    for viewport in (TABLET, PHONE):
        page.set_viewport_size(viewport)
        page.goto(f"{served.base_url}/combat/bystanders?{urlencode(query)}")
        page.get_by_role("button", name="Resolve the stray shot").click()
        due = page.locator("#forced-due")
        expect(due).to_contain_text("Ruth Calder must retest against Pim Halloran")
        assert in_view(page, due.locator("h3"), viewport)
        result = page.locator("#combat-result")
        assert result.get_by_role("button", name="Record as it stands").count() == 0
        expect(result.get_by_role("button", name="Make the retests and record")).to_be_visible()
        expect(page.locator(f"#row-{pim} .badge")).to_have_text("Forced retest due")
        shoot(page, f"stray-shot-forced-retest-{viewport['width']}")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.locator(f"#row-{pim} .retest-throws .sign-of-challenger label:has(input[value=rock])").click()
    page.locator(f"#row-{pim} .retest-throws .sign-of-defender label:has(input[value=scissors])").click()
    page.get_by_role("button", name="Make the retests and record").click()
    expect(page.locator("#combat-result .ruling-summary")).to_contain_text("Ruth Calder's stray round hits Pim Halloran")
    context.close()
