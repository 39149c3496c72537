"""The player's card page marks what changed since the phone last looked (issue 31 item 7): a line
"Changed: 1 bashing, 1 Trait lost, 21:14" and a highlight that fades, kept per phone in localStorage (no
login, no server state); each damage type in words and colour beside the track's marks."""

from __future__ import annotations

import re
import sqlite3

from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS

PHONE = {"width": 390, "height": 844}


def konrad_loses_to_vivienne(served, browser) -> None:
    """A narrator (in English, on a tablet) records Vivienne's Rock over Konrad's Scissors: Konrad loses Brawny
    and takes 1 bashing (LotNR Outcomes, met-reference 1.3). The demo's first ruling."""
    narrator = browser.new_context(viewport={"width": 820, "height": 1180}, locale="en-US")
    page = narrator.new_page()
    page.goto(served.login_link())
    codes = served.card_codes("Vivienne Ashcombe", "Konrad Vale")
    page.goto(f"{served.base_url}/challenge?challenger_q={codes[0]}&defender_q={codes[1]}")
    page.locator("#side-challenger").get_by_label("Rock").check()
    page.locator("#side-defender").get_by_label("Scissors").check()
    page.get_by_role("button", name="Resolve challenge").click()
    page.get_by_role("button", name="Record as it stands").click()
    expect(page.locator("#ruling .recorded-line")).to_contain_text("Recorded as ruling #1")
    narrator.close()


def test_the_card_says_what_changed_since_the_phone_last_looked(served, browser):
    """LotNR Outcomes and Damage (met-reference 1.3, 3.7): Vivienne's Rock beats Konrad's Scissors; he loses
    Brawny and takes 1 bashing. His player's phone, open on his card before, shows within a poll (5 s)
    "Changed: 1 bashing, 1 Trait lost, HH:MM" with the Health panel highlighted, and "1 bashing" in words.
    Reloaded, the line stays (the phone remembers it) without the highlight; nothing is new."""
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        token = con.execute("select card_token from character where name = 'Konrad Vale'").fetchone()[0]
    phone = browser.new_context(viewport=PHONE, color_scheme="dark")
    player = phone.new_page()
    player.goto(f"{served.base_url}/c/{token.lower()}")
    expect(player.get_by_role("heading", name="Konrad Vale")).to_be_visible()
    expect(player.locator(".damage-words")).to_have_text("No damage")
    expect(player.locator("#changed-line")).to_be_hidden()  # the first look: nothing to compare with

    konrad_loses_to_vivienne(served, browser)

    line = player.locator("#changed-line")
    expect(line).to_have_text(re.compile(r"^Changed: 1 bashing, 1 Trait lost, \d\d:\d\d$"), timeout=12_000)
    expect(player.locator(".health-panel")).to_have_class(re.compile("just-changed"))
    expect(player.locator(".damage-words .dmg-bashing")).to_have_text("1 bashing")
    colour = player.locator(".damage-words .dmg-bashing").evaluate("e => getComputedStyle(e).color")
    assert colour == "rgb(201, 212, 230)"
    box = line.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]  # in view at 390 px without scrolling
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    player.screenshot(path=str(SCREENSHOTS / "card-changed-390-view.png"))

    player.reload()
    expect(line).to_have_text(re.compile(r"^Changed: 1 bashing, 1 Trait lost, \d\d:\d\d$"))
    expect(player.locator(".health-panel")).not_to_have_class(re.compile("just-changed"))
    phone.close()
