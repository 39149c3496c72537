"""Benchmark: taps, keys and seconds of the narrator's challenge screen at a human pace (issue 18).

Run it (it prints figures against the goals; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_screens.py [--width 820 --width 390]

It starts ``larp serve`` (waitress, the demo chronicle) and drives Debian's Chromium through Playwright,
as ``bench_wire.py`` does, at issue 18's pace: 1 s to think before each tap, 0.25 s a key.

The one-on-one with a tie: Vivienne Ashcombe (5 Physical Traits) challenges Konrad Vale (9), both picked
by the code on their card (typed, then Enter); both throw Rock, so the tie goes to Konrad's Traits
(LotNR The Test); Vivienne may still retest, and the players decline, so the narrator records it as it
stands. Goals: at most 6 taps and under 8 s from the two picks to the recorded ruling.

Bytes (Chromium's ``encodedDataLength``, headers included; a file from the cache counts 0): the first
narrator page cold and warm (goals 30 KB and 8 KB), and every swap of the flow (goal 5 KB each), at
127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_wire import GOALS, KB, LAUNCH_ARGS, Wire, report  # noqa: E402
from tests.e2e.conftest import CHROMIUM, ServedApp  # noqa: E402

THINK_MS = 1000  # before each tap
KEY_MS = 250  # each key
GOAL_TAPS, GOAL_SECONDS = 6, 8.0


class Narrator:
    """Taps and types at the human pace, counting both."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.keys = 0

    def tap(self, locator, check: bool = False) -> None:
        self.page.wait_for_timeout(THINK_MS)
        self.taps += 1
        locator.check() if check else locator.click()

    def type(self, locator, text: str) -> None:
        locator.press_sequentially(text, delay=KEY_MS)
        self.keys += len(text)

    def press(self, locator, key: str) -> None:
        self.page.wait_for_timeout(KEY_MS)
        self.keys += 1
        locator.press(key)


def one_on_one_with_a_tie(page, wire: Wire, served, base: str) -> None:
    """The issue's one-on-one: two picks by code, then the tie to the recorded ruling."""
    viv, kon = served.card_codes("Vivienne Ashcombe", "Konrad Vale")
    page.goto(base + "/challenge")
    page.wait_for_load_state("networkidle")
    wire.reset()
    n = Narrator(page)
    began = time.monotonic()
    for side, code in (("challenger", viv), ("defender", kon)):
        box = page.locator(f"#side-{side} input[type=search]")
        n.tap(box)
        n.type(box, code)
        n.press(box, "Enter")
        page.locator(f"#side-{side} .who-name").wait_for()
        page.wait_for_load_state()
        report(f"pick the {side} by card code (Enter)", wire, GOALS["challenge"])
    picks = (n.taps, n.keys, time.monotonic() - began)

    n.taps = n.keys = 0
    start = time.monotonic()
    challenger, defender = page.locator("#side-challenger"), page.locator("#side-defender")
    # The bids start on each side's most plentiful Trait (Quick x2, Brawny x2): no tap.
    n.tap(challenger.get_by_label("Rock"), check=True)
    n.tap(defender.get_by_label("Rock"), check=True)
    wire.reset()
    n.tap(page.get_by_role("button", name="Resolve challenge"))
    outcome = page.locator("#ruling .recorded-line, #ruling .in-progress").first
    outcome.wait_for()
    report("Resolve", wire, GOALS["challenge"])
    summary = page.locator("#ruling .ruling-summary").first.inner_text()
    if page.locator("#ruling .in-progress").count():
        n.tap(page.get_by_role("button", name="Record as it stands"))
        page.locator("#ruling .recorded-line").wait_for()
        report("Record as it stands", wire, GOALS["challenge"])
    seconds = time.monotonic() - start
    print(f"  the tie: {summary}")
    print(f"  picks: {picks[0]} taps, {picks[1]} keys, {picks[2]:.1f} s")
    mark = "ok " if n.taps <= GOAL_TAPS and seconds < GOAL_SECONDS else "OVER"
    print(f"  {mark} from the two picks to the recorded ruling: {n.taps} taps, {n.keys} keys, {seconds:.1f} s "
          f"(goal at most {GOAL_TAPS} taps, under {GOAL_SECONDS:.0f} s)")
    print(f"      whole challenge: {picks[0] + n.taps} taps, {picks[1] + n.keys} keys, {picks[2] + seconds:.1f} s")

    # The other swaps of the screen.
    wire.reset()
    page.get_by_role("button", name=f"Undo ruling #{page.locator('#ruling .recorded-line').inner_text().split('#')[1].split('.')[0]}").click()
    page.locator("#ruling .undone-line").wait_for()
    report("Undo", wire, GOALS["challenge"])
    page.get_by_role("button", name="Partial dark").click()
    page.locator(".dark-banner").wait_for()
    report("darkness chip (the form kept)", wire, GOALS["challenge"])
    page.get_by_role("button", name="Light").click()
    page.locator(".dark-banner").wait_for(state="detached")
    wire.reset()
    challenger.get_by_label("Rock").check()
    defender.get_by_label("Scissors").check()
    page.get_by_role("button", name="Resolve challenge").click()
    page.locator("#ruling .in-progress, #ruling .recorded-line").first.wait_for()
    if page.locator("#ruling .in-progress").count():
        report("Resolve (a retest offered)", wire, GOALS["challenge"])
        page.locator("#ruling .next-calls .call-chip").first.click()
        page.get_by_role("button", name="Record as it stands").click()
        page.locator("#ruling .recorded-line").wait_for()
        report("Record as it stands", wire, GOALS["challenge"])
    page.get_by_role("link", name="New challenge, same scene").click()
    page.locator("#side-challenger .in-scene").wait_for()
    report("New challenge, same scene", wire, GOALS["challenge"])
    page.locator("#side-challenger .in-scene").get_by_role("link", name="Vivienne Ashcombe").click()
    page.locator("#side-challenger .who-name").wait_for()
    report("pick from the characters already in the scene", wire, GOALS["challenge"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, action="append", help="viewport width in px (default 820 and 390)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Chromium not found at {CHROMIUM}")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        served = ServedApp(Path(folder) / "instance")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            print(f"larp serve on port {served.port}, Chromium {browser.version}")
            login = browser.new_context()
            login.new_page().goto(served.login_link())
            cookies = login.cookies()
            login.close()
            for width in args.width or [820, 390]:
                viewport = {"width": width, "height": 1180 if width > 600 else 844}
                context = browser.new_context(viewport=viewport)
                context.add_cookies([{k: v for k, v in c.items() if k != "partitionKey"} for c in cookies])
                page = context.new_page()
                wire = Wire(page)
                print(f"\nAt {width} px. First narrator page (the challenge screen):")
                page.goto(served.base_url + "/")
                page.wait_for_load_state("networkidle")
                report("cold (empty cache)", wire, GOALS["cold"])
                page.goto(served.base_url + "/")
                page.wait_for_load_state("networkidle")
                report("warm (opened again)", wire, GOALS["warm"])
                print("One-on-one with a tie, both picked by card code (each swap, goal 5 KB):")
                one_on_one_with_a_tie(page, wire, served, served.base_url)
                context.close()
        finally:
            browser.close()
            served.stop()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
