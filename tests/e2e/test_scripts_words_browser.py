"""The browser's own words in the reader's language (issue 36 item 1: "every ... inline message"): the scripts
(static/js) read them from the page's ``js-words`` meta element (larp.i18n.js_words) when the page is not in
English. Here the player's card on a Brazilian phone: the line saying what changed since it last looked."""

from __future__ import annotations

import re
import sqlite3

from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_card_seen_browser import konrad_loses_to_vivienne

PHONE = {"width": 390, "height": 844}


def test_the_cards_changed_line_reads_in_the_phones_language(served, browser):
    """Konrad loses Brawny and takes 1 bashing (LotNR Outcomes, met-reference 1.3): his player's phone, in
    Brazilian Portuguese, says "Mudou: 1 contusão, 1 Característica perdida, HH:MM"."""
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        token = con.execute("select card_token from character where name = 'Konrad Vale'").fetchone()[0]
    phone = browser.new_context(viewport=PHONE, color_scheme="dark", locale="pt-BR")
    player = phone.new_page()
    player.goto(f"{served.base_url}/c/{token.lower()}")
    expect(player.locator("html")).to_have_attribute("lang", "pt-BR")
    expect(player.locator("#changed-line")).to_be_hidden()

    konrad_loses_to_vivienne(served, browser)

    line = player.locator("#changed-line")
    expect(line).to_have_text(re.compile(r"^Mudou: 1 contusão, 1 Característica perdida, \d\d:\d\d$"), timeout=12_000)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    player.screenshot(path=str(SCREENSHOTS / "card-changed-pt-BR-390.png"))
    phone.close()
