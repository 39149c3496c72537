"""Between-game actions in real Chromium at 390 px (issue 33 item 3): a player writes his character's action
on his phone, an organiser answers it on hers, the player reads the answer; each result in view, no sideways
scroll, every target at least 44 px, no console error."""

from __future__ import annotations

from datetime import date, timedelta

from playwright.sync_api import expect

from larp.db import bind, db, sqlite_url
from tests.e2e.conftest import shoot

PHONE = {"width": 390, "height": 844}
CHECK = """(selector) => {
    const r = document.querySelector(selector).getBoundingClientRect();
    const small = [...document.querySelectorAll('main button, main summary, main textarea, main select')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 80));
    return {inView: r.top >= 0 && r.bottom <= window.innerHeight,
            sideways: document.documentElement.scrollWidth > window.innerWidth, small};
}"""


def _player_for_konrad(served) -> None:
    """player1 (password "correct horse") plays Konrad Vale; game session 1 is a week ahead (coming)."""
    from larp.models import Character, Chronicle, GameSession
    from larp.services.accounts import create_user
    from larp.services.players import link_player

    bind(sqlite_url(served.instance / "larp.sqlite3"))
    with db.connection_context():
        chronicle = Chronicle.get()
        GameSession.update(date=date.today() + timedelta(days=7)).execute()
        user = create_user("player1", "Pat Player", "player", "correct horse", chronicle=chronicle)
        link_player(chronicle, Character.get(Character.name == "Konrad Vale"), user)


def test_a_player_writes_an_organiser_answers_the_player_reads_it_at_390px(served, browser):
    """The whole way on phones: write (the section answers in view), answer (the action answers in view), read."""
    _player_for_konrad(served)
    errors: list[str] = []
    player = browser.new_context(viewport=PHONE).new_page()
    player.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    player.goto(f"{served.base_url}/login")
    player.get_by_label("User name").fill("player1")
    player.get_by_label("Password").fill("correct horse")
    player.get_by_role("button", name="Log in").click()
    player.get_by_role("link", name="Konrad Vale").click()
    player.get_by_label("What Konrad Vale does before the game").fill("Konrad watches the docks for the Sabbat pack.")
    player.get_by_role("button", name="Send to the organisers").click()
    expect(player.locator("#between-game-actions .flash")).to_have_text(
        "Between-game action written: the organisers will answer it.")
    expect(player.locator("#between-game-actions .bga-item")).to_contain_text("Waiting for an answer")
    seen = player.evaluate(CHECK, "#between-game-actions .flash")
    assert seen == {"inView": True, "sideways": False, "small": []}, seen
    shoot(player, "between-game-actions-player-390")

    organiser = browser.new_context(viewport=PHONE).new_page()
    organiser.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    organiser.goto(served.login_link())
    organiser.goto(f"{served.base_url}/organise")
    organiser.get_by_role("link", name="Between-game actions").click()
    item = organiser.locator(".bga-item", has_text="Konrad Vale")
    expect(item).to_contain_text("Konrad watches the docks for the Sabbat pack.")
    item.get_by_label("Your answer").fill("Their haven is under pier 9.")
    item.get_by_role("button", name="Answer").click()
    expect(organiser.locator(".bga-item .flash")).to_contain_text("Answer saved")
    expect(organiser.locator("#bga-waiting")).to_have_text("0 waiting for an answer")
    seen = organiser.evaluate(CHECK, ".bga-item .flash")
    assert seen == {"inView": True, "sideways": False, "small": []}, seen
    shoot(organiser, "between-game-actions-organiser-390")

    player.reload()
    answer = player.locator("#between-game-actions .bga-answer")
    expect(answer).to_contain_text("Their haven is under pier 9.")
    expect(player.locator("#between-game-actions .bga-item")).to_contain_text("Answered")
    assert player.evaluate(CHECK, "#between-game-actions")["sideways"] is False
    assert errors == [], errors
