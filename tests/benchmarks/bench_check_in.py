"""Benchmark: taps and seconds per check-in at the door, at 390 px and a human pace (issue 32).

Run it (it prints figures against the goals; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_check_in.py [--players 10]

It starts ``larp serve`` (waitress, the demo chronicle, game session 1 open) and drives Debian's Chromium
through Playwright on a phone-sized desk (390 x 844), while a second desk at the door follows the roster
(its poll every few seconds). Each player arrives in turn:

- by card: the desk's scanner reads the QR code and types the card's address and Enter into the desk's
  field, as a keyboard-wedge scanner does (the player takes 1 s to hold the card up: ``THINK_MS``);
- by name (a player who forgot his card): the narrator types the first three letters at 0.25 s a key,
  thinks 1 s and taps the one name offered.

Each check-in is timed from the player's arrival to the answer ("X checked in, 19:42 (n of 10 tonight)")
in view. Goals (issue 32): one tap after the scan (a scan needs none: the scanner's Enter checks in), and
under 3 s a player at this pace. The second desk's delay until it shows the last check-in is printed too
(the roster's poll: ``larp.web.checkin.ROSTER_POLL_SECONDS``).
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_wire import LAUNCH_ARGS  # noqa: E402
from tests.servers import ServedApp  # noqa: E402
from tests.support import CHROMIUM  # noqa: E402

THINK_MS = 1000  # the player holds his card up; the narrator reads the name offered
KEY_MS = 250  # each key typed by hand
GOAL_TAPS_AFTER_SCAN, GOAL_SECONDS = 1, 3.0
PHONE = {"width": 390, "height": 844}


def in_view(page) -> bool:
    return page.evaluate("""() => {
        const r = document.querySelector('#desk-result').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight
            && document.documentElement.scrollWidth <= window.innerWidth;
    }""")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10, help="how many arrive (the demo has 10; default 10)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Chromium not found at {CHROMIUM}")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        served = ServedApp(Path(folder) / "instance")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            with sqlite3.connect(served.instance / "larp.sqlite3") as con:
                players = list(con.execute("select name, card_token from character where player_name != '' "
                                           "and retired_at is null order by id"))[:args.players]
            print(f"larp serve on port {served.port}, Chromium {browser.version}; {len(players)} players at 390 px")
            desk_context = browser.new_context(viewport=PHONE)
            desk = desk_context.new_page()
            desk.goto(served.login_link())
            other = browser.new_context(viewport=PHONE, storage_state=desk_context.storage_state()).new_page()
            other.goto(served.base_url + "/checkin")
            desk.goto(served.base_url + "/checkin")
            desk.wait_for_load_state("networkidle")
            field = desk.locator("#desk-q")
            rows = []
            for i, (name, token) in enumerate(players, 1):
                by_card = i % 3 != 0  # every third player forgot his card
                began = time.monotonic()
                taps = keys = 0
                if by_card:
                    desk.wait_for_timeout(THINK_MS)
                    field.fill(f"{served.base_url}/C/{token}")  # the scanner types it at once
                    field.press("Enter")
                else:
                    letters = name[:3].lower()
                    field.press_sequentially(letters, delay=KEY_MS)
                    keys += len(letters)
                    offered = desk.get_by_role("button", name=re.compile(f"^Check in {re.escape(name)}"))
                    offered.wait_for()
                    desk.wait_for_timeout(THINK_MS)
                    offered.click()
                    taps += 1
                desk.locator("#desk-result", has_text=f"{name} checked in").wait_for()
                seconds = time.monotonic() - began
                rows.append((name, "card" if by_card else "name", taps, keys, seconds, in_view(desk)))
            done = time.monotonic()
            other.locator("#roster-count", has_text=f"{len(players)} of ").wait_for(timeout=20_000)
            follow = time.monotonic() - done
            print(f"\n  {'player':<20} {'how':<5} {'taps':>4} {'keys':>4} {'seconds':>8}  in view")
            for name, how, taps, keys, seconds, seen in rows:
                print(f"  {name:<20} {how:<5} {taps:>4} {keys:>4} {seconds:>8.2f}  {'yes' if seen else 'NO'}")
            scans = [r for r in rows if r[1] == "card"]
            names = [r for r in rows if r[1] == "name"]
            worst_scan = max(r[4] for r in scans) if scans else 0.0
            worst_name = max(r[4] for r in names) if names else 0.0
            scan_taps = max(r[2] for r in scans) if scans else 0
            ok = "ok " if scan_taps <= GOAL_TAPS_AFTER_SCAN and worst_scan < GOAL_SECONDS else "OVER"
            print(f"\n{ok} by card: {scan_taps} tap(s) after the scan, at most {worst_scan:.2f} s a player "
                  f"(mean {sum(r[4] for r in scans) / max(len(scans), 1):.2f} s; goal at most "
                  f"{GOAL_TAPS_AFTER_SCAN} tap, under {GOAL_SECONDS:.0f} s)")
            ok = "ok " if worst_name < GOAL_SECONDS else "OVER"
            print(f"{ok} by name: 1 tap and 3 keys, at most {worst_name:.2f} s a player "
                  f"(mean {sum(r[4] for r in names) / max(len(names), 1):.2f} s; goal under {GOAL_SECONDS:.0f} s)")
            print(f"    every answer in view at 390 px: {'yes' if all(r[5] for r in rows) else 'NO'}")
            print(f"    the second desk showed the last check-in {follow:.1f} s after it")
        finally:
            browser.close()
            served.stop()


if __name__ == "__main__":
    main()
