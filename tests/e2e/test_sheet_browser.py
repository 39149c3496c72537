"""The organiser's path from an empty install to the first game, in real Chromium on a phone
(issue 14): `larp serve --empty`, name the chronicle, create a vampire from nothing (Traits, a
Negative Trait, an Ability, a Discipline power, a weapon), copy it as a scene extra, print its
card, open the card's link, and run a challenge with the new character."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled, open_tool, shoot
from tests.e2e.test_cards import SCREENSHOTS, fetch, scan_pdf

PHONE = {"width": 390, "height": 844}


def no_sideways_scroll(page, what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{what} scrolls sideways at 390 px ({width} px wide)"


def small_targets(page) -> list[str]:
    """Visible buttons, chips, links styled as buttons and inputs less than 44 px high."""
    return page.evaluate("""() => [...document.querySelectorAll(
            'main button, main .button, main .chip, main input:not([type=hidden]):not([type=checkbox]):not([type=radio]), main select')]
        .filter(el => el.offsetParent !== null && !el.classList.contains('default-submit'))
        .filter(el => el.getBoundingClientRect().height < 44)
        .map(el => (el.name || el.textContent.trim()).slice(0, 40) + ' ' + Math.round(el.getBoundingClientRect().height))""")


def test_from_an_empty_install_to_a_first_challenge_on_a_phone(served_empty, browser):
    """Issue 14 "Done when": at 390 px a vampire is created from nothing, its card printed and its
    link opened, and it takes part in a challenge; every screen fits the phone (no sideways scroll,
    44 px targets)."""
    assert any("started an empty chronicle" in line for line in served_empty.lines), served_empty.lines
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)

    # The first page asks for the chronicle's name.
    page.goto(served_empty.login_link())
    page.goto(served_empty.base_url + "/")
    expect(page.get_by_role("heading", name="Name your chronicle")).to_be_visible()
    shoot(page, "sheet-start-390")
    page.get_by_label("Chronicle name").fill("Nights of Lyon")
    page.get_by_role("button", name="Start the chronicle").click()
    expect(page.get_by_role("heading", name="Organise Nights of Lyon")).to_be_visible()

    # A vampire from nothing.
    page.locator(".tool-tiles a", has_text="New character").click()
    page.get_by_label("Name", exact=True).fill("Selene Marsh")
    page.get_by_label("Player", exact=True).fill("Ada Brook")
    page.get_by_label("Clan").fill("Toreador")
    page.get_by_label("Generation (vampires").select_option("12")
    page.get_by_label("Rating (Traits)").fill("4")
    page.get_by_label("Permanent Willpower").fill("3")
    shoot(page, "sheet-new-390")
    no_sideways_scroll(page, "The new character form")
    page.get_by_role("button", name="Create the character").click()
    expect(page.get_by_role("heading", name="Sheet of Selene Marsh")).to_be_visible()
    expect(page.locator(".flash")).to_contain_text("Selene Marsh is created")
    expect(page.locator(".flash")).to_be_in_viewport()  # the editor opens at the message, not past it

    traits = page.locator("#traits")
    # Issue 31 item 6: each tap on an adjective saves, so "Save traits" stands there only once something is
    # typed or changed.
    expect(traits.get_by_role("button", name="Save traits")).to_be_hidden()
    expect(page.locator("#identity select[name=generation]")).to_have_value("12")  # as chosen
    traits.locator("summary", has_text="Add Physical Traits").click()
    traits.locator(".count-chips").get_by_label("×2").check()
    with htmx_settled(page):
        traits.get_by_role("button", name="Quick", exact=True).click()
    expect(page.locator("#traits .flash")).to_contain_text("Added Quick ×2")
    # The list stays open and the count chosen, tap after tap.
    expect(traits.get_by_role("button", name="Nimble", exact=True)).to_be_visible()
    traits.locator(".count-chips").get_by_label("×1").check()
    with htmx_settled(page):
        traits.get_by_role("button", name="Nimble", exact=True).click()
    with htmx_settled(page):  # choosing a Trait the sheet has raises its count
        traits.get_by_role("button", name="Nimble", exact=True).click()
    expect(traits.get_by_label("How many Nimble")).to_have_value("2")
    expect(traits.get_by_label("How many Quick")).to_have_value("2")
    with htmx_settled(page):
        traits.locator(".pick-chips.negative").first.get_by_role("button", name="Clumsy").click()
    traits.locator("summary", has_text="Add Social Traits").click()
    traits.get_by_label("Another social adjective").fill("Velvet-voiced")
    expect(traits.get_by_role("button", name="Save traits")).to_be_visible()
    with htmx_settled(page):
        traits.get_by_label("Another social adjective").press("Enter")
    expect(page.locator("#traits")).to_contain_text("Velvet-voiced")
    expect(page.locator("#traits")).to_contain_text("Clumsy")
    page.locator("#traits").scroll_into_view_if_needed()
    no_sideways_scroll(page, "The Traits section")
    shoot(page, "sheet-traits-390")

    abilities = page.locator("#abilities")
    abilities.get_by_label("Add an Ability").fill("Brawl")
    abilities.get_by_label("Level").last.fill("2")
    with htmx_settled(page):
        abilities.get_by_role("button", name="Save abilities").click()
    expect(page.locator("#abilities .flash")).to_contain_text("Ability Brawl: — → 2")

    powers = page.locator("#powers")
    # Issue 31 item 6: a power found by name and added with one tap (no list of 200, no Save button).
    expect(powers.get_by_role("button", name="Save disciplines")).to_be_hidden()
    powers.get_by_label("Find a power by name").press_sequentially("alac")
    expect(powers.locator(".power-group:visible")).to_have_count(1)
    with htmx_settled(page):
        powers.get_by_role("button", name="Alacrity (1)").click()
    expect(page.locator("#powers")).to_contain_text("Celerity Alacrity")
    # The Discipline's group stays open: its next power is one tap.
    with htmx_settled(page):
        page.locator("#powers").get_by_role("button", name="Swiftness (2)").click()
    expect(page.locator("#powers")).to_contain_text("Celerity Swiftness")

    equipment = page.locator("#equipment")
    equipment.get_by_label("Add a weapon from the armory").select_option("knife")
    with htmx_settled(page):
        equipment.get_by_role("button", name="Save equipment").click()
    expect(page.locator("#equipment")).to_contain_text("armory card: +2 Traits, 1 lethal")
    no_sideways_scroll(page, "The sheet editor")
    assert small_targets(page) == [], small_targets(page)
    shoot(page, "sheet-editor-390")

    # An opponent: a scene extra copied from her.
    page.locator("#keep").get_by_label("Named").fill("Rival")
    page.locator("#keep").get_by_role("button", name="Make the copies").click()
    expect(page.locator(".flash")).to_contain_text("Made 1 copy: Rival")
    expect(page.locator(".character-rows")).to_contain_text("scene extra")
    no_sideways_scroll(page, "The character list")
    shoot(page, "sheet-characters-390")

    # Print her card and open the card's link from the printed page.
    open_tool(page, "Character cards")
    page.get_by_label("Print the card of Selene Marsh").check()
    page.get_by_role("button", name="Print the ticked cards").last.click()
    expect(page.locator(".card")).to_have_count(1)
    expect(page.locator(".card-name")).to_have_text("Selene Marsh")
    page.emulate_media(media="print")
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    (SCREENSHOTS / "sheet-card-a4.pdf").write_bytes(pdf)
    page.emulate_media(media="screen")
    codes = scan_pdf(pdf)
    assert len(codes) == 1 and len(codes[0]) == 1
    link = codes[0][0][0]
    assert re.match(rf"^HTTP://127\.0\.0\.1:{served_empty.port}/C/[A-Z2-7]{{32}}$", link)
    status, body = fetch(link)  # the player's phone, not logged in
    assert status == 200 and "<h1>Selene Marsh</h1>" in body and "Quick" in body

    # The narrator (the organiser here) opens the same link and starts a challenge from it.
    page.goto(link)
    expect(page.get_by_role("heading", name="Selene Marsh")).to_be_visible()
    with htmx_settled(page):  # a boosted link: typing into the search before the swap settles is lost
        page.get_by_role("link", name="Start a challenge").click()
    expect(page.locator("#side-challenger .who-name")).to_have_text("Selene Marsh")
    page.wait_for_load_state()
    page.get_by_placeholder("Type a name or code").fill("Rival")
    page.get_by_role("link", name="Rival").click()
    expect(page.locator("#side-defender .who-name")).to_have_text("Rival")
    challenger = page.locator("#side-challenger")
    defender = page.locator("#side-defender")
    challenger.get_by_label("Quick ×2").check()
    challenger.get_by_label("Rock").check()
    defender.get_by_label("Nimble ×2").check()
    defender.get_by_label("Scissors").check()
    page.get_by_role("button", name="Resolve challenge").click()
    summary = page.locator("#ruling .ruling-summary")
    expect(summary).to_contain_text("Selene Marsh wins")
    record = page.get_by_role("button", name="Record as it stands")
    if record.count():
        record.click()
    expect(page.locator("#ruling .ruling-meta")).to_contain_text("Recorded as ruling")
    no_sideways_scroll(page, "The challenge screen")
    shoot(page, "sheet-challenge-390")
    assert errors == [], errors
    context.close()
