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
