"""The scene on the combat board in real Chromium (issue 15): a two-on-one in total darkness with the target
in armor shows the darkness steps and the armor step, at tablet width and without sideways scroll on a phone."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import shoot

TABLET = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}


def test_two_on_one_in_total_darkness_with_the_target_in_armor(served, browser):
    """002 "Darkness" and "Mass Combat"; met-reference 3.7 (armor), 6.1 (Dark Epics p.71: both blind, no
    forced retest, the chronicle setting both_blind_forced_retest chosen first on the settings page): Teodor and
    Lys both beat Konrad's Scissors in the dark; Konrad's ballistic vest takes their blows (2 levels), and the
    board says so on the hit, with the darkness steps under "Why"."""
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(served.login_link())
    page.goto(served.base_url + "/settings")
    page.locator("#setting-both_blind_forced_retest select").select_option("no_retest")
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("#setting-both_blind_forced_retest select")).to_have_value("no_retest")
    page.get_by_role("link", name="Combat", exact=True).click()
    konrad, teodor, lys = served.card_codes("Konrad Vale", "Teodor Brandt", "Lys Moreau")

    page.locator(".scene-bar").get_by_label("Total dark").check()
    page.get_by_label("Who is attacked?").fill(konrad)
    page.get_by_label("Who is attacked?").press("Enter")
    target = page.locator(".target-panel")
    expect(target.locator(".who-name")).to_have_text("Konrad Vale")
    expect(page.locator(".scene-bar").get_by_label("Total dark")).to_be_checked()  # the edit kept the scene
    target.locator("summary", has_text="Scene for").click()
    target.get_by_label("Armor worn").select_option("ballistic_vest")
    page.get_by_label("Add attackers").fill(f"{teodor} {lys}")
    page.get_by_label("Add attackers").press("Enter")
    rows = page.locator(".attacker-row")
    expect(rows).to_have_count(2)
    expect(target.get_by_label("Armor worn")).to_have_value("ballistic_vest")  # kept while adding attackers

    target.get_by_label("Scissors", exact=True).check()
    rows.nth(0).get_by_label("Rock", exact=True).check()
    rows.nth(1).get_by_label("Rock", exact=True).check()
    page.get_by_role("button", name="Resolve the mass challenge").click()
    result = page.locator("#combat-result")
    expect(result.locator(".ruling-summary")).to_contain_text("Konrad Vale against 2")
    record = result.get_by_role("button", name="Record as it stands")
    if record.count():
        record.click()
    expect(result.locator(".ruling-meta")).to_contain_text("Recorded as ruling #")

    hits = result.locator(".hits .hit")
    expect(hits).to_have_count(2)
    expect(hits.nth(0).locator(".armor-step")).to_contain_text("Ballistic vest absorbs 1 level of bashing damage")
    expect(hits.nth(1).locator(".armor-step")).to_contain_text("(0 armor levels left)")
    why = rows.nth(0).locator("details.why")
    why.locator("summary").click()
    expect(why).to_contain_text("Teodor Brandt is in total darkness (natural darkness): 2 Traits down")
    expect(why).to_contain_text("Konrad Vale is in total darkness (natural darkness): 2 Traits down")
    expect(why).to_contain_text("Both sides suffer the same total darkness: no forced retest for either")
    expect(target.locator(".box.bashing")).to_have_count(0)  # the vest took both blows
    shoot(page, "combat-board-dark-armor-820")
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
    assert not errors, errors

    page.set_viewport_size(PHONE)
    target.locator("summary", has_text="Scene for").click()
    shoot(page, "combat-board-dark-armor-390")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the board scrolls sideways at 390 px ({width} px wide)"
    context.close()
