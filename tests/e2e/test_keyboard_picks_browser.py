"""Issue 31, the one-on-one on a phone: the challenge screen opens with the keyboard in the challenger's
box, and once the challenger is picked it goes to the defender's box, so two card codes are typed with no
tap before either (the benchmark's one-on-one counts 4 taps and 14 keys)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.test_walking_skeleton import PHONE, served_code

FOCUSED = "() => document.activeElement && document.activeElement.name"


def test_two_card_codes_are_typed_without_a_tap(served, browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(served.login_link())
    page.goto(served.base_url + "/challenge")
    expect(page.locator("#side-challenger input[type=search]")).to_be_focused()
    page.keyboard.type(served_code(served, "Vivienne Ashcombe"))
    page.keyboard.press("Enter")
    expect(page.locator("#side-challenger .who-name")).to_have_text("Vivienne Ashcombe")
    expect(page.locator("#side-defender input[type=search]")).to_be_focused()
    page.keyboard.type(served_code(served, "Konrad Vale"))
    page.keyboard.press("Enter")
    expect(page.locator("#side-defender .who-name")).to_have_text("Konrad Vale")
    assert page.evaluate(FOCUSED) != "defender_q"  # no box left to type in: nothing keeps the keyboard
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
