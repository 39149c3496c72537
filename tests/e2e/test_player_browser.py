"""A player in real Chromium at 390 px (issue 33 item 1): an organiser invites him from his character's
Players page on a tablet; on his phone he opens the one-time link, sets a password, and reads his own
character's page: whole sheet, health, experience, rulings, card. Touch targets of 44 px, no sideways
scroll, text at 4.5:1."""

from __future__ import annotations

import re
import sqlite3

from playwright.sync_api import expect

from tests.e2e.conftest import open_menu, shoot

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}


def test_an_invited_player_logs_in_and_reads_his_sheet_at_390px(served, browser):
    organiser = browser.new_context(viewport=TABLET).new_page()
    organiser.goto(served.login_link())
    organiser.goto(f"{served.base_url}/characters")
    organiser.get_by_role("link", name=re.compile("Vivienne Ashcombe")).first.click()
    organiser.get_by_role("link", name="Link, invite or show a claim code").click()
    organiser.locator("form[action$='/invite'] input[name=username]").fill("pia")
    organiser.locator("form[action$='/invite'] input[name=display_name]").fill("Pia")
    organiser.get_by_role("button", name="Invite").click()
    expect(organiser.locator("#issued")).to_contain_text("Pia (pia) is invited to play Vivienne Ashcombe")
    link = organiser.locator("#issued code").inner_text().strip()

    phone = browser.new_context(viewport=PHONE).new_page()
    errors: list[str] = []
    phone.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    phone.goto(link)
    expect(phone.get_by_role("heading", name="Your account")).to_be_visible()
    phone.locator("input[name=password]").fill("pia's long secret")
    phone.locator("input[name=repeat]").fill("pia's long secret")
    phone.get_by_role("button", name="Set password").click()
    expect(phone.locator(".flash")).to_contain_text("Your password is set")
    # Logged out and in again with the password, as on the next game night.
    open_menu(phone)  # the account and "Switch user" are in the phone's Menu (issue 31 item 2)
    phone.get_by_role("button", name="Switch user").click()
    phone.locator("input[name=username]").fill("pia")
    phone.locator("input[name=password]").fill("pia's long secret")
    phone.locator("input[name=password]").press("Enter")
    expect(phone.get_by_role("heading", name="My characters")).to_be_visible()  # "/" brings a player here
    phone.get_by_role("link", name="Vivienne Ashcombe").click()
    expect(phone.get_by_role("heading", name="Vivienne Ashcombe", level=1)).to_be_visible()
    for section in ("#whole-sheet", "#experience", "#player-rulings", "#my-card", ".health-panel"):
        expect(phone.locator(section)).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    small = phone.evaluate("""() => [...document.querySelectorAll('main button, main summary, main input, main a, header a, header button')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
        .map(e => e.outerHTML.slice(0, 80))""")
    assert small == [], small
    faint = phone.evaluate("""() => {
        const rgb = s => (s.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
        const lum = c => { const v = c.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
                           return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
        const back = e => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
                            if (c && !c.startsWith('rgba(0, 0, 0, 0)') && c !== 'transparent') return rgb(c); } return [255, 255, 255]; };
        const out = [];
        for (const e of document.querySelectorAll('main *')) {
            if (!e.offsetParent || ![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
            if (e.closest('.card-qr')) continue;
            const a = lum(rgb(getComputedStyle(e).color)), b = lum(back(e));
            const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
            if (ratio < 4.5) out.push(e.tagName + ' ' + e.textContent.trim().slice(0, 30) + ' ' + ratio.toFixed(2));
        }
        return out; }""")
    assert faint == [], faint
    shoot(phone, "player-sheet-390")
    assert errors == [], errors


def _small_targets(page) -> list[str]:
    return page.evaluate("""() => [...document.querySelectorAll('main button, main summary, main input, main a')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
        .map(e => e.outerHTML.slice(0, 80))""")


def test_a_player_claims_his_character_from_the_card_at_390px(served, browser):
    """Item 1's claim: the organiser shows a one-time code on a tablet; the player scans the card, taps
    "Claim this character", types the code and makes his account, and lands on his character's page."""
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        token = con.execute("select card_token from character where name = 'Konrad Vale'").fetchone()[0]
    organiser = browser.new_context(viewport=TABLET).new_page()
    organiser.goto(served.login_link())
    organiser.goto(f"{served.base_url}/characters")
    organiser.get_by_role("link", name=re.compile("Konrad Vale")).first.click()
    organiser.get_by_role("link", name="Link, invite or show a claim code").click()
    organiser.get_by_role("button", name="Show a claim code").click()
    code = organiser.locator(".claim-code code").inner_text().strip()
    assert _small_targets(organiser) == []

    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{served.base_url}/C/{token}")
    phone.get_by_role("link", name="Claim this character").click()
    assert _small_targets(phone) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.locator("input[name=code]").fill(code.lower())
    phone.locator("input[name=username]").fill("kai")
    phone.locator("input[name=display_name]").fill("Kai")
    phone.locator("input[name=password]").fill("kai's long secret")
    phone.get_by_role("button", name="Claim Konrad Vale").click()
    expect(phone.locator(".flash")).to_contain_text("Konrad Vale is yours")
    expect(phone.get_by_role("heading", name="Konrad Vale", level=1)).to_be_visible()
    organiser.goto(organiser.url.split("/players")[0] + "/players")
    expect(organiser.locator("#players-list")).to_contain_text("Kai (kai)")
