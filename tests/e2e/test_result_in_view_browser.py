"""The result of damage on a character page lands in view on a phone (found by a new user: at 390 px
the page stayed at the form while "Konrad Vale takes 3 lethal" appeared off screen, issue 18's
"the result of an action in view without scrolling")."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import open_menu, shoot

PHONE = {"width": 390, "height": 844}


def test_damage_puts_its_result_in_view_on_a_phone(served, browser):
    """Konrad takes 3 lethal from the damage form far down his page: the panel's last change, which
    names the damage, is inside the viewport after the swap."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(served.login_link())
    open_menu(page)  # the pages are in the Menu on a phone (issue 31 item 2)
    page.locator("a", has_text="Characters").first.click()
    page.locator("a", has_text="Konrad Vale").first.click()
    form = page.locator("form[action$='/damage']")
    form.locator("label.chip", has_text="Lethal").click()
    form.locator("label.chip", has_text="3").first.click()
    form.get_by_role("button", name="Apply damage").click()
    last = page.locator("#health-panel .last-change")
    expect(last).to_contain_text("3 lethal")
    box = last.bounding_box()
    assert page.evaluate("window.scrollY") > 0  # the form was below the fold: the page moved to the result
    assert 0 <= box["y"] and box["y"] + 40 <= PHONE["height"]
    shoot(page, "result-in-view-damage-390")
