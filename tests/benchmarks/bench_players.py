"""Benchmark: taps and seconds of each side of an experience spend (issue 33 "Done when").

Run it (it prints figures; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_players.py [--rounds 3]

It starts ``larp serve`` (waitress, the demo chronicle) and drives Debian's Chromium through Playwright:

- the player, on a phone (390 x 844): logs in, opens his character, taps the next power of a Discipline he
  holds (its cost and the unspent total after it are shown), taps "Ask an organiser";
- an organiser, on a tablet (820 x 1180): logs in with a one-time link, opens Organise, then "Experience
  requests", taps "Approve";
- the player reloads his page: his sheet shows the power.

Each side is timed from its first page to its answer in view (the machine's time: a person adds about a
second of reading per tap, ``THINK_S``, which the "at a human pace" column adds). Each round uses a new
install (a new player and a new request). Goals (ours): at most 4 taps a side, each answer under 1 s of the
machine's time after its tap.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_wire import LAUNCH_ARGS  # noqa: E402
from tests.e2e.test_spends_browser import (PHONE, TABLET, a_player_for_vivienne, organiser_approves,  # noqa: E402
                                           player_asks)
from tests.servers import ServedApp  # noqa: E402
from tests.support import CHROMIUM  # noqa: E402

THINK_S = 1.0  # a person reads the screen before each tap
GOAL_TAPS = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        for round_ in range(args.rounds):
            with tempfile.TemporaryDirectory() as folder:
                served = ServedApp(Path(folder) / "instance")
                try:
                    vid = a_player_for_vivienne(served.instance, Path(folder))
                    phone = browser.new_context(viewport=PHONE).new_page()
                    start = time.perf_counter()
                    player_taps = player_asks(phone, served.base_url, vid)
                    player_s = time.perf_counter() - start
                    tablet = browser.new_context(viewport=TABLET).new_page()
                    start = time.perf_counter()
                    organiser_taps = organiser_approves(tablet, served.login_link(), served.base_url)
                    organiser_s = time.perf_counter() - start
                    start = time.perf_counter()
                    phone.reload()
                    phone.locator("main").get_by_text("Rapidity").first.wait_for()
                    seen_s = time.perf_counter() - start
                    rows.append((player_taps, player_s, organiser_taps, organiser_s, seen_s))
                    phone.context.close()
                    tablet.context.close()
                finally:
                    served.stop()
        print(f"Chromium {browser.version}; {args.rounds} round(s), each on a new install")
        browser.close()
    print(f"\n  {'round':>5} {'player taps':>11} {'player s':>9} {'organiser taps':>14} {'organiser s':>11} "
          f"{'sheet shown s':>13}")
    for i, (pt, ps, ot, os_, ss) in enumerate(rows, 1):
        print(f"  {i:>5} {pt:>11} {ps:>9.2f} {ot:>14} {os_:>11.2f} {ss:>13.2f}")
    player_taps, organiser_taps = rows[0][0], rows[0][2]
    player_s = statistics.median(r[1] for r in rows)
    organiser_s = statistics.median(r[3] for r in rows)
    for side, taps, seconds in (("player (390 px)", player_taps, player_s),
                                ("organiser (820 px)", organiser_taps, organiser_s)):
        ok = "OK  " if taps <= GOAL_TAPS else "MISS"
        print(f"\n{ok} {side}: {taps} taps (goal at most {GOAL_TAPS}), median {seconds:.2f} s of the machine's "
              f"time ({seconds / taps:.2f} s a tap), about {seconds + THINK_S * taps:.1f} s at a human pace")
    print(f"\n    the player's sheet showed the power {statistics.median(r[4] for r in rows):.2f} s after a reload")


if __name__ == "__main__":
    main()
