"""Live state in real Chromium (issue 18): a player's card page open on a phone follows the damage a
narrator applies from another device, within 10 s, without a reload."""

from __future__ import annotations

import sqlite3

from playwright.sync_api import expect

from tests.e2e.conftest import shoot

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}


def test_the_players_card_shows_a_narrators_damage_within_10_seconds(served, browser):
    """Issue 18 "Live state" done-when: the card page (no login) is open; a narrator on a tablet applies
    2 lethal to the same character; the card shows the two lethal marks within 10 s and nothing else moved
    (the page was not reloaded)."""
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        character_id, token = con.execute(
            "select id, card_token from character where name = 'Konrad Vale'").fetchone()
    player = browser.new_context(viewport=PHONE).new_page()
    errors: list[str] = []
    player.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    player.goto(f"{served.base_url}/C/{token}")
    expect(player.get_by_role("heading", name="Konrad Vale")).to_be_visible()
    expect(player.locator(".box.lethal")).to_have_count(0)
    player.evaluate("window.__notReloaded = true")

    narrator = browser.new_context(viewport=TABLET).new_page()
    narrator.goto(served.login_link())
    narrator.goto(f"{served.base_url}/characters/{character_id}")
    damage = narrator.locator("form.action-form", has=narrator.get_by_role("heading", name="Apply damage"))
    damage.get_by_label("Lethal", exact=True).check()
    damage.get_by_label("2", exact=True).check()
    damage.get_by_role("button", name="Apply damage").click()
    expect(narrator.locator("#health-panel .box.lethal")).to_have_count(2)

    expect(player.locator(".box.lethal")).to_have_count(2, timeout=10_000)
    assert player.evaluate("window.__notReloaded") is True
    shoot(player, "card-live-after-damage-390")
    assert errors == [], errors
