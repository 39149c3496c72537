"""Benchmark: bytes on the wire for a narrator at a live event (issue 18).

Run it (it prints figures against the goals; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_wire.py [--width 820]

It starts ``larp serve`` (waitress, the demo chronicle) on a free port and drives
Debian's Chromium (``/usr/bin/chromium``, or ``CHROMIUM``) through Playwright with
the launch arguments of ``tests/e2e/conftest.py``. Bytes are what Chromium's network
layer reports as received for each request (``Network.loadingFinished``
``encodedDataLength``: headers and the body as sent, compressed or not; a file
taken from the browser's cache counts 0).

Goals (issue 18):

- the first narrator page (the challenge screen, after login) at most 30 KB cold
  (an empty browser cache) and 8 KB warm (the same page opened again);
- each swap on the challenge screen at most 5 KB;
- each swap on the combat board at most 8 KB.

It also counts the requests the live search makes while a name is typed at
0.25 s a key (issue 18's human pace).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.servers import ServedApp  # noqa: E402
from tests.support import CHROMIUM  # noqa: E402

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-quic"]
KB = 1024
VERBOSE = False
GOALS = {"cold": 30 * KB, "warm": 8 * KB, "challenge": 5 * KB, "combat": 8 * KB}


class Wire:
    """Counts the bytes Chromium receives for one page, request by request (CDP Network domain)."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.urls: dict[str, str] = {}
        self.encodings: dict[str, str] = {}
        self.cached: set[str] = set()
        self.received: dict[str, int] = {}
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        self.cdp.on("Network.loadingFinished", self._finished)

    def _sent(self, event) -> None:
        self.urls[event["requestId"]] = event["request"]["url"]

    def _response(self, event) -> None:
        response = event["response"]
        if response.get("fromDiskCache") or response.get("fromMemoryCache"):
            self.cached.add(event["requestId"])
        headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
        self.encodings[event["requestId"]] = f'{response.get("status")} {headers.get("content-encoding", "identity")}'


    def _finished(self, event) -> None:
        self.received[event["requestId"]] = int(event.get("encodedDataLength", 0))

    def reset(self) -> None:
        self.urls.clear()
        self.encodings.clear()
        self.cached.clear()
        self.received.clear()

    def settle(self) -> None:
        """Let the last network events arrive (they are delivered while Playwright waits)."""
        self.page.wait_for_timeout(300)

    def lines(self) -> list[tuple[str, int, str]]:
        """(path, bytes received, how) for every request since the last reset."""
        out = []
        for request_id, url in self.urls.items():
            path = url.split("//", 1)[-1].split("/", 1)[-1]
            how = "cache" if request_id in self.cached else self.encodings.get(request_id, "?")
            out.append(("/" + path[:70], self.received.get(request_id, 0), how))
        return out

    def total(self) -> int:
        return sum(self.received.values())


def report(label: str, wire: Wire, goal: int, details: bool = False) -> int:
    details = details or VERBOSE
    wire.settle()
    total = wire.total()
    mark = "ok " if total <= goal else "OVER"
    print(f"  {mark} {label:<48} {total / KB:6.1f} KB  (goal {goal / KB:.0f} KB, {len(wire.urls)} requests)")
    if details:
        for path, size, how in wire.lines():
            print(f"         {size / KB:6.1f} KB  {how:<8} {path}")
    wire.reset()
    return total


def challenge_screen(page, wire: Wire, served) -> None:
    print("Challenge screen (each swap, goal 5 KB):")
    konrad, = served.card_codes("Konrad Vale")
    search = page.get_by_placeholder("Type a name or code").first
    search.click()
    wire.reset()
    search.press_sequentially("vivi", delay=250)
    page.get_by_role("link", name="Vivienne Ashcombe").wait_for()
    wire.settle()
    searches = sum(1 for url in wire.urls.values() if "/challenge/search" in url)
    report(f"live search, 'vivi' typed at 0.25 s a key ({searches} searches)", wire, GOALS["challenge"])
    page.get_by_role("link", name="Vivienne Ashcombe").click()
    page.locator("#side-challenger .who-name").wait_for()
    report("pick the challenger", wire, GOALS["challenge"])
    box = page.get_by_placeholder("Type a name or code")
    box.fill(konrad)
    box.press("Enter")
    page.locator("#side-defender .who-name").wait_for()
    page.wait_for_load_state()
    report("pick the defender by card code (Enter)", wire, GOALS["challenge"])
    page.locator(".darkness-chips").get_by_role("button", name="Partial dark").click()
    page.locator(".dark-banner").wait_for()
    report("darkness chip", wire, GOALS["challenge"])
    challenger, defender = page.locator("#side-challenger"), page.locator("#side-defender")
    challenger.get_by_label("Quick ×2").check()
    challenger.get_by_label("Rock").check()
    defender.get_by_label("Brawny ×2").check()
    defender.get_by_label("Scissors").check()
    wire.reset()
    page.get_by_role("button", name="Resolve challenge").click()
    page.locator("#ruling .ruling-summary").first.wait_for()
    report("Resolve", wire, GOALS["challenge"])
    record = page.get_by_role("button", name="Record as it stands")
    if record.count():
        record.click()
        page.locator("#ruling .ruling-meta").wait_for()
        report("Record as it stands", wire, GOALS["challenge"])


def combat_board(page, wire: Wire, served) -> None:
    print("Combat board (each swap, goal 8 KB):")
    konrad, vivienne, lys, ruth = served.card_codes("Konrad Vale", "Vivienne Ashcombe", "Lys Moreau", "Ruth Calder")
    page.get_by_role("link", name="Combat", exact=True).click()
    page.get_by_role("heading", name="Combat board").wait_for()
    page.wait_for_load_state()
    report("open the board (navigation)", wire, GOALS["combat"])
    page.get_by_label("Who is attacked?").fill(konrad)
    page.get_by_label("Who is attacked?").press("Enter")
    page.locator(".target-panel .who-name").wait_for()
    report("target by card code", wire, GOALS["combat"])
    add = page.get_by_label("Add attackers")
    add.fill(f"{vivienne} {lys}")
    add.press("Enter")
    page.locator(".attacker-row").nth(1).wait_for()
    report("two attackers by card code", wire, GOALS["combat"])
    add.fill(ruth)
    page.get_by_role("button", name="Add ranged").click()
    page.locator(".attacker-row").nth(2).wait_for()
    report("a third attacker, ranged", wire, GOALS["combat"])
    rows = page.locator(".attacker-row")
    rows.nth(2).get_by_label("Ruth Calder's weapon").select_option("pistol")
    page.locator(".target-panel").get_by_label("Rock", exact=True).check()
    rows.nth(0).get_by_label("Paper", exact=True).check()
    rows.nth(1).get_by_label("Scissors", exact=True).check()
    rows.nth(2).get_by_label("Scissors", exact=True).check()
    wire.reset()
    page.get_by_role("button", name="Resolve the mass challenge").click()
    page.locator("#combat-result .ruling-summary").first.wait_for()
    report("Resolve", wire, GOALS["combat"])
    record = page.locator("#combat-result").get_by_role("button", name="Record as it stands")
    if record.count():
        record.click()
        page.locator("#combat-result .ruling-meta").first.wait_for()
        report("Record as it stands", wire, GOALS["combat"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=820, help="viewport width in px (820 tablet, 390 phone)")
    parser.add_argument("--verbose", action="store_true", help="list every request of every swap")
    args = parser.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Chromium not found at {CHROMIUM}")
    viewport = {"width": args.width, "height": 1180 if args.width > 600 else 844}
    from larp.cli import lan_address

    lan = lan_address()
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        served = ServedApp(Path(folder) / "instance", host="0.0.0.0")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            print(f"larp serve on port {served.port}, Chromium {browser.version}, {args.width} px")
            bases = [("127.0.0.1 (Chromium offers br and zstd to a loopback address)", served.base_url)]
            if lan:
                bases.append((f"{lan}, the LAN address (plain http: Chromium offers gzip and deflate only)",
                              served.base_url.replace("127.0.0.1", lan)))
            else:
                print("  (no LAN address on this machine: only 127.0.0.1 is measured)")
            # Log in once (the link works once), in a context of its own so that the measured ones
            # start with an empty cache; the session cookie serves both addresses.
            login = browser.new_context(viewport=viewport)
            login.new_page().goto(served.login_link())
            cookies = login.cookies()
            login.close()
            for label, base in bases:
                host = base.split("//", 1)[1].split(":", 1)[0]
                context = browser.new_context(viewport=viewport)
                context.add_cookies([{k: v for k, v in dict(c, domain=host).items() if k != "partitionKey"}
                                     for c in cookies])
                page = context.new_page()
                wire = Wire(page)
                print(f"First narrator page (the challenge screen) at {label}:")
                page.goto(base + "/")
                page.wait_for_load_state("networkidle")
                report("cold (empty cache)", wire, GOALS["cold"], details=True)
                page.goto(base + "/")
                page.wait_for_load_state("networkidle")
                report("warm (opened again)", wire, GOALS["warm"], details=True)
            print(f"Swaps, at {label.split(',')[0]}:")
            challenge_screen(page, wire, served)
            combat_board(page, wire, served)
        finally:
            browser.close()
            served.stop()

if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
