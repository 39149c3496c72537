"""Experience spends in real Chromium (issue 33 "Done when"): a player logs in on a phone (390 px), asks to
raise a Discipline with the cost and the unspent total shown before sending, an organiser approves it on a
tablet (820 px), and the player's sheet shows the new power. Each answer is in view without scrolling and
nothing scrolls sideways."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.e2e.conftest import shoot

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}


def in_view(page, selector: str) -> bool:
    """Whether ``selector``'s element lies wholly inside the viewport, with no sideways scroll."""
    return page.evaluate("""(selector) => {
        const r = document.querySelector(selector).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth
            && document.documentElement.scrollWidth <= window.innerWidth;
    }""", selector)


def a_player_for_vivienne(instance: Path, tmp_path: Path) -> int:
    """Vivienne Ashcombe's player ("player1", password "correct horse") and 10 experience earned, written
    into the served app's database as the organisers' screens would; her id."""
    from larp.db import db
    from larp.models import Character
    from larp.services.chronicles import get_chronicle
    from larp.services.experience import record_experience
    from tests.support import make_player, make_test_app

    app = make_test_app(tmp_path / "side", DATABASE_URL=f"sqlite:///{instance / 'larp.sqlite3'}")
    with app.test_request_context(), db.connection_context():
        vivienne = Character.get(Character.name == "Vivienne Ashcombe")
        record_experience(get_chronicle(), None, vivienne.id, "earned", "10", "game session 1")
    make_player(app, vivienne)
    return vivienne.id


def player_asks(page, base: str, character_id: int) -> int:
    """The player's side: log in, open his character, tap the next Celerity power, see its cost, ask.
    Returns the taps."""
    taps = 0
    page.goto(f"{base}/login")
    page.get_by_label("User name").fill("player1")
    page.get_by_label("Password").fill("correct horse")
    page.get_by_role("button", name="Log in").click()
    taps += 1
    page.goto(f"{base}/my/characters/{character_id}")  # his page (from /my: one tap on his character)
    taps += 1
    page.get_by_role("button", name=re.compile(r"^Celerity: Rapidity \(Intermediate, in-clan\) · 6 XP")).click()
    taps += 1
    expect(page.locator("#spend-price")).to_contain_text("6 XP")
    expect(page.locator("#spend-after")).to_have_text("4")  # the unspent total after it, before sending
    assert in_view(page, "#spend-price")
    page.get_by_role("button", name="Ask an organiser").click()
    taps += 1
    expect(page.locator("#spend-done")).to_contain_text("Asked: Celerity: Rapidity")
    assert in_view(page, "#spend-done")
    return taps


def organiser_approves(page, login_link: str, base: str) -> int:
    """The organiser's side on a tablet: log in, open the queue from Organise, approve. Returns the taps."""
    page.goto(login_link)
    taps = 1
    page.goto(f"{base}/organise")
    taps += 1
    page.get_by_role("link", name=re.compile("Experience requests")).click()
    taps += 1
    expect(page.locator("#spend-queue")).to_contain_text("Vivienne Ashcombe")
    page.get_by_role("button", name="Approve").click()
    taps += 1
    expect(page.locator("#spend-done")).to_contain_text("Approved #1: Vivienne Ashcombe, Celerity: Rapidity")
    assert in_view(page, "#spend-done")
    return taps


def test_a_player_asks_and_an_organiser_approves(served, browser, tmp_path):
    vid = a_player_for_vivienne(served.instance, tmp_path)
    errors: list[str] = []
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    player_asks(phone, served.base_url, vid)
    small = phone.evaluate("""() => [...document.querySelectorAll('#spend-section button, #spend-section summary')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
        .map(e => e.outerHTML.slice(0, 80))""")
    assert small == [], small  # every target of the section at least 44 px tall
    bullets = phone.evaluate("""() => [...document.querySelectorAll('.spend-suggestions li')]
        .map(li => getComputedStyle(li).listStyleType)""")
    assert bullets and set(bullets) == {"none"}, bullets  # the one-tap spend buttons: no list bullets beside them
    shoot(phone, "spend-asked-390")

    tablet = browser.new_context(viewport=TABLET).new_page()
    tablet.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    organiser_approves(tablet, served.login_link(), served.base_url)
    shoot(tablet, "spend-approved-820")

    phone.reload()
    expect(phone.locator("main")).to_contain_text(re.compile(r"Celerity: Alacrity, Swiftness, Rapidity"))
    expect(phone.locator("#spend-unspent")).to_have_text("4")
    expect(phone.locator("#spend-requests")).to_contain_text("Approved")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert errors == [], errors
