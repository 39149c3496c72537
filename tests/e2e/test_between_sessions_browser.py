"""The organiser's board in real Chromium on a laptop screen (issue 7): read the fortnight after
`larp demo-downtime`, wake a vampire, then look at his history and undo it."""

from __future__ import annotations


import os
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import expect

from tests.e2e.conftest import open_tool, shoot

LAPTOP = {"width": 1280, "height": 800}


def test_organiser_reads_the_board_and_wakes_a_vampire(served, browser):
    """Issue 7 on a 1280x800 laptop: the board after a fortnight, waking Pim with entered throws (met-reference T20), his history, and undo."""
    env = dict(os.environ, LARP_INSTANCE_PATH=str(served.instance))
    env.pop("LARP_DATABASE_URL", None)
    demo = subprocess.run([sys.executable, "-m", "larp", "demo-downtime"], cwd=Path(__file__).resolve().parents[2],
                          env=env, capture_output=True, text=True, timeout=60)
    assert demo.returncode == 0, demo.stderr
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(served.login_link())
    open_tool(page, "Between game sessions")

    expect(page.get_by_role("heading", name="Between game sessions")).to_be_visible()
    torpor = page.locator("#torpor")
    pim = torpor.locator("article", has_text="Pim Halloran")
    expect(pim.locator(".tag")).to_have_text("may try to wake")
    expect(torpor.locator("article", has_text="Ines Castellano").locator(".tag")).to_have_text("wakes when fed")
    expect(page.locator("#healing")).to_contain_text("Can heal 1 of 2 by the game for 3 blood and 1 Willpower")
    expect(page.locator("#mortals")).to_contain_text("Marcus Hale")
    expect(page.locator(".summary-counts")).to_contain_text("2 in torpor, 1 may try to wake")
    # Laptop width: two columns, no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    shoot(page, "board-laptop")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: one column, still no sideways scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, "board-phone")
    page.set_viewport_size(LAPTOP)

    pim.get_by_label("Player's throw").select_option("rock")
    pim.get_by_label("Narrator's throw").select_option("scissors")
    last_night = pim.get_by_label("Last night")
    last_night.fill(pim.get_by_label("First night").input_value())
    pim.get_by_role("button", name="Try to wake").click()
    expect(page.locator("#wake-result .ruling-summary")).to_contain_text("Pim Halloran rises from torpor")
    expect(page.locator("#wake-result .steps li").first).to_be_in_viewport()
    expect(page.locator("#torpor")).not_to_contain_text("Pim Halloran")
    shoot(page, "board-after-wake")

    page.get_by_role("link", name="Pim Halloran").first.click()
    page.get_by_role("link", name="History").click()
    expect(page.locator(".timeline-entry").first).to_contain_text("Pim Halloran rises from torpor")
    expect(page.locator(".timeline-entry").first).to_contain_text("condition torpor → active")
    page.locator("input[name=confirm]").first.check()
    page.get_by_role("button", name="Undo this change").click()
    expect(page.locator(".flash")).to_contain_text("Undo of #")
    shoot(page, "history-after-undo")
    open_tool(page, "Between game sessions")
    expect(page.locator("#torpor article", has_text="Pim Halloran").locator(".tag")).to_have_text("may try to wake")
    assert errors == []
