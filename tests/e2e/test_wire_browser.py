"""Truthful on bad Wi-Fi, busy while waiting (issue 18), in real Chromium: mid-game steps are htmx requests,
so a failed one keeps the page and what was typed and shows the offline banner; a request in flight shows a
spinner on its button and disables the form's buttons."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import shoot

TABLET = {"width": 820, "height": 1180}


def test_a_failed_request_keeps_the_page_and_the_typed_text(served, browser):
    """Issue 18 point 5: with the Wi-Fi gone, the top bar's code box, a navigation link and picking by code
    with Enter leave the narrator on the same screen with the text still typed and the banner shown
    (not Chromium's offline page); back online, the same code box goes to the character."""
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    errors: list[str] = []  # other than the failed requests themselves (htmx logs each, Chromium too)
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" and not (
        msg.text.startswith("htmx:") or "ERR_INTERNET_DISCONNECTED" in msg.text) else None)
    page.goto(served.login_link())
    page.goto(served.base_url + "/challenge")
    page.wait_for_load_state()
    konrad = served.card_codes("Konrad Vale")[0]
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()

    context.set_offline(True)
    page.locator("#code-box").fill(konrad)
    page.locator("#code-box").press("Enter")
    expect(banner).to_be_visible()
    expect(page.locator("#code-box")).to_have_value(konrad)
    expect(page.get_by_role("heading", name="Challenge", exact=True)).to_be_visible()

    page.get_by_role("link", name="Combat", exact=True).click()
    expect(page.get_by_role("heading", name="Challenge", exact=True)).to_be_visible()
    assert page.url.endswith("/challenge")

    picker = page.get_by_placeholder("Type a name or code").first
    picker.fill(konrad)
    picker.press("Enter")
    expect(banner).to_be_visible()
    expect(picker).to_have_value(konrad)
    find = page.locator("#side-challenger").get_by_role("button", name="Find")
    expect(find).to_be_enabled()  # the failed request is over: nothing left spinning or disabled
    expect(find).not_to_have_class(re.compile(r"\bis-busy\b"))
    shoot(page, "offline-banner-challenge-820")

    context.set_offline(False)
    page.get_by_role("button", name="Go").click()
    expect(page.get_by_role("heading", name="Konrad Vale")).to_be_visible()
    expect(banner).to_be_hidden()
    assert re.search(r"/characters/\d+$", page.url), page.url  # the address follows the boosted form
    page.go_back()
    expect(page.get_by_role("heading", name="Challenge", exact=True)).to_be_visible()
    assert errors == [], errors
    context.close()


def test_a_request_in_flight_shows_a_spinner_and_disables_the_form(served, browser):
    """Issue 18 "The busy state is unmistakable": while a damage form's request is held, its button spins at
    full strength and is disabled; when the answer comes, the panel shows it."""
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    page.goto(served.login_link())
    page.locator("#code-box").fill(served.card_codes("Konrad Vale")[0])
    page.locator("#code-box").press("Enter")
    expect(page.get_by_role("heading", name="Konrad Vale")).to_be_visible()
    page.wait_for_load_state()

    held = []
    page.route("**/damage", lambda route: held.append(route))
    form = page.locator("form.action-form", has=page.get_by_role("heading", name="Apply damage"))
    button = form.locator('button[type="submit"]').first
    button.click()
    expect(button).to_have_class(re.compile(r"\bis-busy\b"))
    expect(button).to_be_disabled()
    assert page.evaluate("b => getComputedStyle(b, '::before').animationName", button.element_handle()) == "larp-spin"
    assert float(page.evaluate("b => getComputedStyle(b).opacity", button.element_handle())) == 1.0
    shoot(page, "busy-damage-button-820")
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#health-panel .last-change")).to_be_visible()
    expect(page.locator("#health-panel .is-busy")).to_have_count(0)
    context.close()
