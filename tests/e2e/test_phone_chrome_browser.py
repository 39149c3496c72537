"""Issue 31 item 2: at 390x844 no more than 160 px of chrome (top bar, chronicle picker, title, scene, chips)
above the challenger's block on the challenge screen and the target's on the combat board, with what the
chrome holds at its fullest (a stored scene with its turn and "Next turn", a count beside the Menu as issue
33's requests for organisers will put there); nothing lost (the Menu holds the pages, the chronicle picker
and the account; the settings disclosure holds the chips), every target 44 px, no sideways scroll, and the
same without JavaScript. At 820 px everything shows as before, without a tap."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import shoot

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
CHROME_PX = 160

#: The top of an element, page coordinates (the page scrolled to the top).
TOP = "s => { scrollTo(0, 0); const e = document.querySelector(s); return e.getBoundingClientRect().top + scrollY; }"
#: Visible controls in the top bar and the screen's head less than 44 px high.
SHORT = """() => [...document.querySelectorAll(
    'header a, header button, header input, header summary, .screen-top a, .screen-top button, details.screen-settings > summary')]
    .filter(e => e.offsetParent !== null && e.getClientRects().length)
    .filter(e => e.getBoundingClientRect().height < 44)
    .map(e => e.textContent.trim().slice(0, 20) + ' ' + Math.round(e.getBoundingClientRect().height))"""
#: The title's text ends before the scene's begins (a long scene name once ran under "Combat board").
APART = """() => { const r = document.createRange(); r.selectNodeContents(document.querySelector('.screen-top h1'));
    return r.getBoundingClientRect().right <= document.querySelector('.scene-turn-bar p').getBoundingClientRect().left; }"""
#: What issue 33 will add beside the Menu for organisers: a count of requests waiting.
BADGE = """document.addEventListener('DOMContentLoaded', () => {
    const s = document.querySelector('details.menu > summary');
    if (s) s.insertAdjacentHTML('beforeend', '<span class="badge queue-count">12</span>'); })"""


def login_state(served, browser) -> dict:
    context = browser.new_context()
    context.new_page().goto(served.login_link())
    state = context.storage_state()
    context.close()
    return state


def join_scene(page, base: str, name: str) -> None:
    page.goto(base + "/scenes")
    page.locator("#scene-name").fill(name)
    page.get_by_role("button", name="Open and join").click()
    expect(page.locator(".scene-turn-bar, .scene-rows").first).to_contain_text(name)


def test_phone_chrome_is_160_px_and_hides_nothing(served, browser):
    state = login_state(served, browser)
    context = browser.new_context(viewport=PHONE, storage_state=state)
    context.add_init_script(BADGE)
    page = context.new_page()
    base = served.base_url
    join_scene(page, base, "The Elysium ballroom, east wing")

    page.goto(base + "/challenge")
    expect(page.locator(".scene-turn-bar")).to_contain_text("Turn 1")
    expect(page.locator("details.menu .badge:not([hidden])")).to_be_visible()
    top = page.evaluate(TOP, "#side-challenger")
    shoot(page, "chrome-challenge-390")
    assert top <= CHROME_PX, f"the challenger's block starts {top:.0f} px from the top at 390 px"
    assert page.evaluate(APART), "the title runs into the scene's name"
    assert page.evaluate(SHORT) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The card-code box keeps room for a code beside the Menu and its count (a new user saw it squeezed to 60 px).
    assert page.evaluate("document.getElementById('code-box').getBoundingClientRect().width") >= 100
    # The chips are one tap away; their summary says what is chosen, and a tap keeps them open.
    settings = page.locator("details.screen-settings")
    expect(settings.locator("summary")).to_contain_text("Contested · Physical · Light")
    expect(page.get_by_role("button", name="Static", exact=True)).to_be_hidden()
    settings.locator("summary").click()
    page.get_by_role("button", name="Partial dark", exact=True).click()
    expect(page.locator(".dark-banner")).to_be_visible()
    expect(page.locator("details.screen-settings > summary")).to_contain_text("Partial dark")
    expect(page.get_by_role("button", name="Light", exact=True)).to_be_visible()
    page.get_by_role("button", name="Light", exact=True).click()
    expect(page.locator(".dark-banner")).to_have_count(0)

    # The Menu holds every page, the chronicle picker and the account, each 44 px.
    expect(page.get_by_role("link", name="Combat", exact=True)).to_be_hidden()
    page.locator("details.menu > summary").click()
    for name in ("Challenge", "Combat", "Tabletop", "Characters", "Record", "Organise"):
        expect(page.locator(".mainnav").get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(page.locator("details.switcher > summary")).to_be_visible()
    expect(page.get_by_role("button", name="Switch user")).to_be_visible()
    expect(page.locator(".userbox .account-link")).to_be_visible()
    assert page.evaluate(SHORT) == []
    shoot(page, "chrome-menu-open-390")
    page.locator(".mainnav").get_by_role("link", name="Combat", exact=True).click()
    expect(page.get_by_role("heading", name="Combat board")).to_be_visible()

    top = page.evaluate(TOP, "#target-panel")
    shoot(page, "chrome-combat-390")
    assert top <= CHROME_PX, f"the target's block starts {top:.0f} px from the top at 390 px"
    assert page.evaluate(APART), "the title runs into the scene's name"
    assert page.evaluate(SHORT) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The scene's summary follows its chips (no swap), and the ways to the stray-shot screen stay a tap away.
    scene = page.locator("details.scene-settings")
    scene.locator("summary").click()
    scene.get_by_label("Total dark", exact=True).check()
    expect(scene.locator("summary")).to_contain_text("Total dark")
    expect(scene.get_by_role("link", name="A shot missed? Stray shot")).to_be_visible()
    context.close()


def test_phone_chrome_works_without_javascript(served, browser):
    """Every form works without JavaScript: the Menu and the chips' disclosure are HTML's own."""
    state = login_state(served, browser)
    context = browser.new_context(viewport=PHONE, storage_state=state, java_script_enabled=False)
    page = context.new_page()
    page.goto(served.base_url + "/challenge")
    top = page.locator("#side-challenger").bounding_box()["y"]
    assert top <= CHROME_PX, f"without JavaScript the challenger's block starts {top:.0f} px from the top"
    page.locator("details.screen-settings > summary").click()
    page.get_by_role("button", name="Static", exact=True).click()
    expect(page.locator("details.screen-settings > summary")).to_contain_text("Static")
    expect(page.get_by_label("Difficulty (Traits, for ties)")).to_be_visible()
    page.locator("details.menu > summary").click()
    page.locator(".mainnav").get_by_role("link", name="Combat", exact=True).click()
    expect(page.get_by_role("heading", name="Combat board")).to_be_visible()
    context.close()


@pytest.mark.parametrize("path, block", [("/challenge", "#side-challenger"), ("/combat", "#target-panel")])
def test_tablet_shows_the_chrome_without_a_tap(served, browser, path, block):
    """At 820 px nothing is folded: the pages, the code box, the chips and the scene panel show at once."""
    state = login_state(served, browser)
    context = browser.new_context(viewport=TABLET, storage_state=state)
    page = context.new_page()
    page.goto(served.base_url + path)
    expect(page.locator(block)).to_be_visible()
    expect(page.locator("details.menu > summary")).to_be_hidden()
    expect(page.locator("details.screen-settings > summary")).to_be_hidden()
    for name in ("Challenge", "Combat", "Record", "Organise"):
        expect(page.locator(".mainnav").get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Switch user")).to_be_visible()
    expect(page.get_by_role("button", name="Partial dark", exact=True).or_(
        page.locator(".scene-bar").get_by_text("Partial dark", exact=True))).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
    shoot(page, f"chrome{path.replace('/', '-')}-820")
    context.close()
