"""Issue 31 (wave 5): what a narrator taps next is reachable with at most one scroll on a phone.

The one-on-one at 390x844: both sides picked by the code on their card (typed, Enter, no tap), the
challenger's throw is in view, and once the defender's throw is scrolled to (the one scroll) "Resolve
challenge" is in view too and nothing covers either: on a phone it stays at the bottom of the screen until the
ruling is below it. The tie's "Record as it stands" is in view after Resolve."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import shoot
from tests.support import REACHABLE

PHONE = {"width": 390, "height": 844}



def test_one_on_one_takes_one_scroll_on_a_phone(served, browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(served.login_link())
    viv, kon = served.card_codes("Vivienne Ashcombe", "Konrad Vale")
    page.goto(served.base_url + "/challenge")
    for side, code in (("challenger", viv), ("defender", kon)):
        box = page.locator(f"#side-{side} input[type=search]")
        expect(box).to_be_focused()  # the keyboard is already there: no tap
        page.keyboard.type(code)
        page.keyboard.press("Enter")
        expect(page.locator(f"#side-{side} .who-name")).to_be_visible()
    resolve = page.get_by_role("button", name="Resolve challenge")
    expect(resolve).to_be_enabled()
    challenger_rock = page.locator("#side-challenger").get_by_label("Rock")
    defender_rock = page.locator("#side-defender").get_by_label("Rock")
    assert challenger_rock.evaluate(REACHABLE), "the challenger's throw is not in view after the picks"
    assert resolve.evaluate(REACHABLE), "Resolve is not in view (or covered) after the picks"
    challenger_rock.check()

    defender_rock.scroll_into_view_if_needed()  # the one scroll
    assert defender_rock.evaluate(REACHABLE), "the defender's throw is covered after scrolling to it"
    assert resolve.evaluate(REACHABLE), "Resolve is not in view with the defender's throw"
    defender_rock.check()
    shoot(page, "phone-reach-one-on-one-390")
    resolve.click()
    record = page.get_by_role("button", name="Record as it stands")
    expect(record).to_be_visible()
    assert record.evaluate(REACHABLE), "Record as it stands is not in view after Resolve"
    assert not resolve.evaluate(REACHABLE) or page.evaluate(
        "document.querySelector('#ruling').getBoundingClientRect().top >= 0"), "Resolve sits over the ruling"
    record.click()
    expect(page.locator("#ruling .recorded-line")).to_contain_text("Recorded as ruling #")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
