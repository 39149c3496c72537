"""Rulings that match the books in real Chromium (issue 17): a vampire feeds on a mortal from her character
page, and the victim's page shows the lethal levels; the new forms fit a phone and are big enough to tap."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import shoot

TABLET = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}


def test_a_vampire_feeds_on_a_mortal_from_her_page(served, browser):
    """LotNR "Blood" (met-reference 3.7): Vivienne drains two Blood Traits from Ruth, a mortal; each costs
    Ruth a level of lethal damage; the result is in view at 820 and 390 px, without sideways scroll, and
    the forms' controls are at least 44 px high."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(served.login_link())
    vivienne, ruth = served.card_codes("Vivienne Ashcombe", "Ruth Calder")
    page.goto(f"{served.base_url}/code?code={vivienne}")
    expect(page.locator("h1")).to_contain_text("Vivienne Ashcombe")
    form = page.locator("form", has=page.get_by_role("heading", name="Feeds on a victim"))
    expect(form).to_have_count(0)  # her pool is full: she drinks nothing (LotNR generation table)
    expect(page.locator("#health-panel")).to_contain_text("Vivienne Ashcombe's blood pool is full")
    acts = page.locator("form[action$='/act']")
    acts.locator("select[name=blood]").select_option("3")
    acts.get_by_role("button", name="Spend the blood").click()
    expect(page.locator(".last-change")).to_contain_text("spends 3 blood points")
    expect(form.get_by_label("Blood Traits").locator("option")).to_have_count(3)  # what fits in her pool
    ruth_option = form.get_by_label("Victim").locator("option", has_text="Ruth Calder")
    expect(ruth_option).to_contain_text("(mortal: a drain of")  # the drain that kills her, said before the tap
    form.get_by_label("Victim").select_option(ruth_option.get_attribute("value"))
    form.get_by_label("Blood Traits").select_option("2")
    for control in (form.get_by_label("Victim"), form.get_by_label("Blood Traits"),
                    form.get_by_role("button", name="Drain")):
        box = control.bounding_box()
        assert box and box["height"] >= 44, box
    form.get_by_role("button", name="Drain").click()
    summary = page.locator(".last-change")
    expect(summary).to_contain_text("Vivienne Ashcombe drains 2 Blood Traits from Ruth Calder")
    expect(summary).to_contain_text("costs Ruth Calder a level of lethal damage")
    assert summary.bounding_box()["y"] < PHONE["height"] * 2
    shoot(page, "feeding-390")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the character page scrolls sideways at 390 px ({width} px wide)"

    page.set_viewport_size(TABLET)
    page.goto(f"{served.base_url}/code?code={ruth}")
    expect(page.locator("#health-panel .box.lethal")).to_have_count(2)
    shoot(page, "feeding-victim-820")
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
    assert not errors, errors
    context.close()
