"""The result of feeding, of spending blood and of the narrator's "Feed" on a character page lands in view
on a phone, as damage's and healing's do (new-user test 7, finding 6: at 390x844 "Drain" put its result
1,100 px above the viewport and the narrator saw nothing happen)."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.e2e.conftest import open_menu, shoot

PHONE = {"width": 390, "height": 844}


def _in_view(page, last) -> bool:
    """The last change's top comes inside the viewport (htmx scrolls once the swap settles)."""
    try:
        page.wait_for_function(
            "([sel, h]) => { const e = document.querySelector(sel); if (!e) return false;"
            " const r = e.getBoundingClientRect(); return r.top >= 0 && r.top + 40 <= h; }",
            arg=["#health-panel .last-change", PHONE["height"]], timeout=2000)
    except PlaywrightTimeout:
        return False
    return True


def test_feeding_and_blood_put_their_result_in_view_on_a_phone(served, browser):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(served.login_link())
    open_menu(page)
    page.locator("a", has_text="Characters").first.click()
    page.locator("a", has_text="Ines Castellano").first.click()
    last = page.locator("#health-panel .last-change")

    # Her pool is full: she spends two blood points first (a full pool drinks nothing, LotNR generation table).
    acts = page.locator("form[action$='/act']")
    acts.locator("select[name=blood]").select_option("2")
    acts.get_by_role("button", name="Spend the blood").click()
    expect(last).to_contain_text("spends 2 blood points")
    assert page.evaluate("window.scrollY") > 0  # the form was below the fold
    assert _in_view(page, last), "the spent blood's result is out of view"

    feed_form = page.locator("form[action$='/feed-on']")
    feed_form.locator("select[name=blood]").select_option("1")
    feed_form.get_by_role("button", name="Drain").click()
    expect(last).to_contain_text("drains")
    assert _in_view(page, last), "the feeding's result is out of view"
    shoot(page, "feeding-in-view-drain-390")

    before = last.inner_text()
    acts = page.locator("form[action$='/act']")
    acts.get_by_role("button", name="Feed", exact=True).click()
    expect(last).not_to_have_text(before)
    assert _in_view(page, last), "the narrator's Feed result is out of view"
