"""Benchmark: taps, keys, scrolls and seconds of the narrator's screens at a human pace (issues 18 and 31).

Run it (it prints figures against the goals; it is not a test and asserts nothing):

    .venv/bin/python tests/benchmarks/bench_screens.py [--width 820 --width 390] [--issue31] [--details]

Issue 31's figures (``--issue31`` prints only them; ``--details`` also says where each scroll went): at
390x844 the chrome above the challenger's block (and the combat board's target) against 160 px; the
one-on-one with the picks by code included against 10 s and 1 scroll; the five-on-one brawl in a cold scene
(a fresh narrator session, nobody picked, no card scanned; the fighters tapped and ticked on the board's
roster) against 20 s; the character build (10 Traits, 3 Abilities, 2 powers, Willpower, Humanity) against
40 s. A tap on something out of view counts a scroll, waited 0.5 s as the issue counts it.

It starts ``larp serve`` (waitress, the demo chronicle) and drives Debian's Chromium through Playwright,
as ``bench_wire.py`` does, at issue 18's pace: 1 s to think before each tap, 0.25 s a key.

The one-on-one with a tie: Vivienne Ashcombe (5 Physical Traits) challenges Konrad Vale (9), both picked
by the code on their card (typed, then Enter); both throw Rock, so the tie goes to Konrad's Traits
(LotNR The Test); Vivienne may still retest, and the players decline, so the narrator records it as it
stands. Goals: at most 6 taps and under 8 s from the two picks to the recorded ruling.

Bytes (Chromium's ``encodedDataLength``, headers included; a file from the cache counts 0): the first
narrator page cold and warm (goals 30 KB and 8 KB), every swap of the challenge screen (goal 5 KB each)
and of the combat board (goal 8 KB each), at 127.0.0.1 (br), or with ``--lan`` at the machine's LAN
address (plain http: Chromium offers gzip only). The combat board is measured twice: with the brawl's
five attackers, and with the largest board the app allows (the target against 5 hand to hand and 5
ranged, ``MAX_PER_RANGE`` from the core; the demo chronicle's tenth attacker is a copy of Konrad Vale
made for the run). Each line says ``ok`` or ``OVER`` against its goal, and a summary follows.
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

from larp.rules.mass_challenge.types import MAX_PER_RANGE  # noqa: E402
from tests.benchmarks import bench_wire  # noqa: E402
from tests.benchmarks.bench_wire import GOALS, KB, LAUNCH_ARGS, Wire  # noqa: E402
from tests.servers import ServedApp  # noqa: E402
from tests.support import CHROMIUM, REACHABLE  # noqa: E402

THINK_MS = 1000  # before each tap
KEY_MS = 250  # each key
SCROLL_MS = 500  # each scroll (issue 31: "scrolls counted as 0.5 s each")
#: Issue 31's goals: the chrome above the challenger's (and the target's) block at 390x844; the one-on-one, picks
#: by code included, at 390 px; the cold-scene brawl at both widths; the character build.
CHROME_GOAL_PX, ONE_ON_ONE_GOAL_SECONDS, ONE_ON_ONE_GOAL_SCROLLS = 160, 10.0, 1
BUILD_GOAL_SECONDS = 40.0
#: A tap's target counts as in view when it lies wholly inside the viewport and nothing covers its middle (a
#: sticky button over it would take the tap: that is a scroll too). A radio's or checkbox's chip is its label.
IN_VIEW = REACHABLE
GOAL_TAPS, GOAL_SECONDS = 6, 8.0
BRAWL_GOAL_SECONDS = 20.0
COMBAT_SWAP_GOAL = 8 * KB
#: The brawl: Teodor Brandt (14 Physical Traits) against five attackers hand to hand, and each one's sign
#: against Teodor's Rock: two ties (Rock), two wins for the attackers (Paper), one loss (Scissors).
BRAWL_TARGET = "Teodor Brandt"
BRAWL_ATTACKERS = (("Konrad Vale", "Rock"), ("Lys Moreau", "Rock"), ("Aldous Whitmore", "Paper"),
                   ("Marcus Hale", "Scissors"), ("Ines Castellano", "Paper"))


#: Every measured figure of a run, (label, bytes, goal), for the summary at the end.
MEASURED: list[tuple[str, int, int]] = []


#: Requests that are no swap: the challenge screen's stale-data poll, every 5 s whatever the narrator does.
POLLS = ("/challenge/fresh",)


#: Seconds the benchmark itself spent counting bytes (``report`` waits for the last network events, 0.6 s a
#: swap): no narrator waits for them, so the timed figures leave them out (issue 31, wave 5).
COUNTING = [0.0]


def report(label: str, wire: Wire, goal: int) -> int:
    """Print one figure against its goal (``bench_wire.report``) and keep it for the summary. A poll that
    happened to fire during the swap is not counted in it, and is printed on its own line. The time it takes
    is added to ``COUNTING``."""
    began = time.monotonic()
    try:
        return _report(label, wire, goal)
    finally:
        COUNTING[0] += time.monotonic() - began


def _report(label: str, wire: Wire, goal: int) -> int:
    wire.settle()
    polls = [rid for rid, url in wire.urls.items() if any(p in url for p in POLLS)]
    polled = sum(wire.received.pop(rid, 0) for rid in polls)
    for rid in polls:
        wire.urls.pop(rid)
    total = bench_wire.report(label, wire, goal, details=DETAILS)
    if polls:
        print(f"         (and {len(polls)} stale-data poll{'s' if len(polls) > 1 else ''} meanwhile, "
              f"{polled / KB:.1f} KB, not counted in the swap)")
    MEASURED.append((label, total, goal))
    return total


#: Every taps-and-seconds (and chrome) figure of the run, (label, within its goal), for the summary.
TIMED: list[tuple[str, bool]] = []
DETAILS = False
VERBOSE = False  # --details: say where each scroll went


class Narrator:
    """Taps and types at the human pace, counting both, and the scrolls: a tap on something out of view is
    a scroll first (the issue counts 0.5 s each: waited, so the seconds hold them)."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.keys = 0
        self.scrolls = 0

    def reset(self) -> None:
        self.taps = self.keys = self.scrolls = 0

    def tap(self, locator, check: bool = False) -> None:
        # The second to think starts as the benchmark starts looking for the target: its own look-up (finding the
        # element, asking whether it is in view: about 35 ms a tap) is no narrator's time, and was added to the
        # 1 s before wave 5 of issue 31.
        began = time.monotonic()
        locator.wait_for()
        in_view = locator.evaluate(IN_VIEW)
        looked = time.monotonic() - began
        if not in_view:
            self.scrolls += 1
            if VERBOSE:
                print(f"         (a scroll to {locator})")
            self.page.wait_for_timeout(SCROLL_MS)
        self.page.wait_for_timeout(max(0.0, THINK_MS - looked * 1000))
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
    chrome_figure(page, "#side-challenger", "the challenger's block")
    wire.reset()
    n = Narrator(page)
    began, counted = time.monotonic(), COUNTING[0]
    for side, code in (("challenger", viv), ("defender", kon)):
        box = page.locator(f"#side-{side} input[type=search]")
        if not box.evaluate("e => e === document.activeElement"):  # the first side to pick has the keyboard
            n.tap(box)
        n.type(box, code)
        n.press(box, "Enter")
        page.locator(f"#side-{side} .who-name").wait_for()
        page.wait_for_load_state()
        report(f"pick the {side} by card code (Enter)", wire, GOALS["challenge"])
    picks = (n.taps, n.keys, time.monotonic() - began - (COUNTING[0] - counted), n.scrolls)
    left_out = COUNTING[0] - counted

    n.taps = n.keys = 0
    start, counted = time.monotonic(), COUNTING[0]
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
    seconds = time.monotonic() - start - (COUNTING[0] - counted)
    left_out += COUNTING[0] - counted
    print(f"  the tie: {summary}")
    print(f"  picks: {picks[0]} taps, {picks[1]} keys, {picks[2]:.1f} s")
    mark = "ok " if n.taps <= GOAL_TAPS and seconds < GOAL_SECONDS else "OVER"
    TIMED.append((f"one-on-one, picks to ruling at {page.viewport_size['width']} px", mark == "ok "))
    print(f"  {mark} from the two picks to the recorded ruling: {n.taps} taps, {n.keys} keys, {seconds:.1f} s "
          f"(goal at most {GOAL_TAPS} taps, under {GOAL_SECONDS:.0f} s)")
    whole, scrolls = picks[2] + seconds, n.scrolls
    mark = "ok " if whole < ONE_ON_ONE_GOAL_SECONDS and scrolls <= ONE_ON_ONE_GOAL_SCROLLS else "OVER"
    TIMED.append((f"whole one-on-one at {page.viewport_size['width']} px", mark == "ok "))
    print(f"  {mark} whole one-on-one, picks by code included: {picks[0] + n.taps} taps, {picks[1] + n.keys} keys, "
          f"{scrolls} scrolls, {whole:.1f} s (goal under {ONE_ON_ONE_GOAL_SECONDS:.0f} s with at most "
          f"{ONE_ON_ONE_GOAL_SCROLLS} scroll, at 390 px)")
    pace = (picks[0] + n.taps) * THINK_MS / 1000 + (picks[1] + n.keys) * KEY_MS / 1000 + scrolls * SCROLL_MS / 1000
    print(f"      of which the pace {pace:.1f} s and the app {whole - pace:.1f} s; the benchmark's own byte counting "
          f"({left_out:.1f} s) left out")

    # The other swaps of the screen.
    wire.reset()
    page.get_by_role("button", name=f"Undo ruling #{page.locator('#ruling .recorded-line').inner_text().split('#')[1].split('.')[0]}").click()
    page.locator("#ruling .undone-line").wait_for()
    report("Undo", wire, GOALS["challenge"])
    unfold(page)
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


def unfold(page) -> None:
    """Open the screen's folded settings (the chips, on a phone: issue 31 item 2), when they are folded."""
    summary = page.locator("details.screen-settings:not([open]) > summary").first
    if summary.count() and summary.is_visible():
        summary.click()


def card_tokens(served, *names: str) -> list[str]:
    """The card tokens (the QR code's key) of the characters called ``names``."""
    import sqlite3

    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        return [con.execute("select card_token from character where name = ?", (n,)).fetchone()[0] for n in names]


def five_on_one_brawl(page, wire: Wire, served, base: str) -> None:
    """The issue's five-on-one brawl with two ties and a retest, from the target's pick to the recorded fight.

    The scene's six characters had their cards scanned before (so they are one tap away, as the issue means:
    a code is typed once a scene, not once a challenge); the scans are not timed. Each swap is measured
    against the combat board's goal (8 KB).
    """
    names = [BRAWL_TARGET] + [name for name, _ in BRAWL_ATTACKERS]
    for token in card_tokens(served, *reversed(names)):
        page.goto(f"{base}/c/{token}")
    page.goto(base + "/combat")
    page.wait_for_load_state("networkidle")
    wire.reset()
    n = Narrator(page)
    start = time.monotonic()
    n.tap(page.locator(".target-panel .in-scene").get_by_role("button", name=BRAWL_TARGET))
    page.locator(".target-panel .who-name").wait_for()
    report("pick the target from the scene", wire, COMBAT_SWAP_GOAL)
    add_all = page.locator(".add-box").get_by_role("button", name="All of them attack")
    if add_all.count():
        n.tap(add_all)
        page.locator(".attacker-row").nth(len(BRAWL_ATTACKERS) - 1).wait_for()
        report(f"add the {len(BRAWL_ATTACKERS)} attackers in one tap", wire, COMBAT_SWAP_GOAL)
    else:
        for i, (name, _) in enumerate(BRAWL_ATTACKERS):
            n.tap(page.locator(".add-box .in-scene").get_by_role("button", name=name))
            page.locator(".attacker-row").nth(i).wait_for()
            report(f"add attacker {i + 1} from the scene", wire, COMBAT_SWAP_GOAL)
    rows = page.locator(".attacker-row")
    n.tap(page.locator(".target-panel").get_by_label("Rock", exact=True), check=True)
    for i, (_, sign) in enumerate(BRAWL_ATTACKERS):
        n.tap(rows.nth(i).get_by_label(sign, exact=True), check=True)
    wire.reset()
    n.tap(page.get_by_role("button", name="Resolve the mass challenge"))
    result = page.locator("#combat-result .ruling")
    result.wait_for()
    report("Resolve", wire, COMBAT_SWAP_GOAL)
    in_view = page.evaluate("() => { const r = document.querySelector('#combat-result .ruling-summary');"
                            " const b = r.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }")
    print(f"  after Resolve, the result so far {'is' if in_view else 'is NOT'} in view")
    if page.locator("#combat-result .in-progress").count():
        konrad = page.locator("#combat-result .pair-retest").filter(has_text=BRAWL_ATTACKERS[0][0])
        pick = konrad.locator(".retest-pick").first  # one chip: the retest and the retester's new sign (wave 5)
        print(f"  {BRAWL_ATTACKERS[0][0]}'s tie, retested with: {pick.locator('.retest-pick-name').inner_text()}")
        n.tap(pick.get_by_label("Paper", exact=True), check=True)
        n.tap(konrad.locator(".retest-throws fieldset:visible").get_by_label("Rock", exact=True), check=True)
        wire.reset()
        n.tap(page.get_by_role("button", name="Make the retests", exact=True))
        page.wait_for_load_state("networkidle")
        report("Make the retests", wire, COMBAT_SWAP_GOAL)
        if page.locator("#combat-result .in-progress").count():
            n.tap(page.get_by_role("button", name="Record as it stands"))
            page.locator("#combat-result .ruling-meta").wait_for()
            report("Record as it stands", wire, COMBAT_SWAP_GOAL)
    page.locator("#combat-result .ruling-meta").wait_for()
    seconds = time.monotonic() - start
    print(f"  the fight: {page.locator('#combat-result .ruling-summary').first.inner_text()}")
    mark = "ok " if seconds < BRAWL_GOAL_SECONDS else "OVER"
    TIMED.append((f"brawl (cards scanned before) at {page.viewport_size['width']} px", mark == "ok "))
    print(f"  {mark} from the target's pick to the recorded fight: {n.taps} taps, {n.keys} keys, {n.scrolls} scrolls, "
          f"{seconds:.1f} s (goal under {BRAWL_GOAL_SECONDS:.0f} s; was 16 taps, 41 keys, 30 s)")


def largest_board(page, wire: Wire, served, base: str, width: int) -> None:
    """The largest board the app allows: one target against ``MAX_PER_RANGE`` hand to hand and as many
    ranged (10 attackers). The target is a fresh copy of Teodor Brandt (14 Physical Traits, so he can defend
    against all ten), made for the run; the attackers are the demo chronicle's ten characters. The board
    starts with nine (by its address), the tenth is added by card code, everyone's sign is tapped (Paper
    against the target's Rock: the target loses every pair and may still retest), and the fight is resolved
    and recorded as it stands. Each swap is measured against the board's goal (8 KB)."""
    import sqlite3
    from urllib.parse import urlencode

    page.goto(base + "/characters")
    token = page.locator("meta[name=csrf-token]").get_attribute("content")
    double = f"Teodor's double ({width} px)"
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        teodor = con.execute("select id from character where name = ?", (BRAWL_TARGET,)).fetchone()[0]
    page.request.post(f"{base}/characters/{teodor}/copy", headers={"X-CSRFToken": token},
                      form={"csrf_token": token, "name": double, "count": "1"})
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        target = con.execute("select id from character where name = ?", (double,)).fetchone()
        people = con.execute("select id, short_code from character where retired_at is null and name not like "
                             "'Teodor''s double%' order by id").fetchall()[:2 * MAX_PER_RANGE]
    if target is None or len(people) < 2 * MAX_PER_RANGE:
        print(f"  the copy was not made, or only {len(people)} attackers: not the largest board")
        return
    query = [("target", target[0])]
    for i, (cid, _) in enumerate(people[:-1]):
        ranged = i >= MAX_PER_RANGE
        query += [("a", cid), (f"a{cid}_range", "ranged" if ranged else "hand_to_hand")]
        if ranged:
            query.append((f"a{cid}_weapon", "pistol"))
    page.goto(f"{base}/combat?{urlencode(query)}")
    page.wait_for_load_state("networkidle")
    wire.reset()
    page.locator("#add_q").fill(people[-1][1])
    page.get_by_role("button", name="Add ranged").click()
    rows = page.locator(".attacker-row")
    rows.nth(2 * MAX_PER_RANGE - 1).wait_for()
    page.wait_for_load_state("networkidle")
    report(f"add the {2 * MAX_PER_RANGE}th attacker by code", wire, COMBAT_SWAP_GOAL)
    setup = rows.nth(2 * MAX_PER_RANGE - 1).locator("details.row-setup > summary")
    if setup.is_visible():  # folded where the card is narrow (issue 31, wave 5)
        setup.click()
    rows.nth(2 * MAX_PER_RANGE - 1).locator("select[name$=_weapon]").select_option("pistol")
    page.locator(".target-panel").get_by_label("Rock", exact=True).check()
    for i in range(2 * MAX_PER_RANGE):
        rows.nth(i).get_by_label("Paper", exact=True).check()
    wire.reset()
    page.get_by_role("button", name="Resolve the mass challenge").click()
    page.locator("#combat-result .ruling, #combat-result .error-box").first.wait_for()
    page.wait_for_load_state("networkidle")
    refused = page.locator("#combat-result .error-box")
    report("Resolve" + (" (refused)" if refused.count() else ""), wire, COMBAT_SWAP_GOAL)
    if refused.count():
        print(f"  refused: {' '.join(refused.inner_text().split())}")
        return
    if page.locator("#combat-result .in-progress").count():
        page.get_by_role("button", name="Record as it stands").click()
        page.locator("#combat-result .ruling-meta").wait_for()
        page.wait_for_load_state("networkidle")
        report("Record as it stands", wire, COMBAT_SWAP_GOAL)
    print(f"  the fight: {page.locator('#combat-result .ruling-summary').first.inner_text()}")
    # A refusal of the same board (the next round's signs not yet chosen): the board comes back whole.
    wire.reset()
    page.get_by_role("button", name="Resolve the mass challenge").click()
    page.locator("#combat-result .error-box").wait_for()
    page.wait_for_load_state("networkidle")
    report("Resolve refused (no signs chosen yet)", wire, COMBAT_SWAP_GOAL)


def chrome_figure(page, selector: str, what: str) -> float:
    """Print the chrome above ``selector`` (px from the top of the page, scrolled to the top) against the goal
    (issue 31: 160 px at 390x844; at 820 px printed for reference)."""
    top = page.evaluate("s => { scrollTo(0, 0); return document.querySelector(s).getBoundingClientRect().top; }",
                        selector)
    width = page.viewport_size["width"]
    if width <= 480:
        mark = "ok " if top <= CHROME_GOAL_PX else "OVER"
        TIMED.append((f"chrome above {what} at {page.viewport_size['width']} px", mark == "ok "))
        print(f"  {mark} chrome above {what}: {top:.0f} px (goal at most {CHROME_GOAL_PX} px at 390x844)")
    else:
        print(f"      chrome above {what}: {top:.0f} px (no goal at {width} px)")
    return top


def cold_brawl(page, base: str) -> None:
    """Issue 31's five-on-one brawl with two ties and a retest **in a cold scene**: no card scanned and nobody
    picked before (a fresh narrator session), the target tapped on the board's roster, the five attackers
    ticked on it and added with one tap, nothing typed. Timed from the board's first tap to the recorded fight,
    scrolls counted. Goal: under 20 s at both widths (was 15 taps, 41 keys, 37 s)."""
    page.goto(base + "/combat")
    page.wait_for_load_state("networkidle")
    chrome_figure(page, "#target-panel", "the target's block")
    n = Narrator(page)
    start = time.monotonic()
    n.tap(page.locator("#target-roster").get_by_role("button", name=BRAWL_TARGET))
    page.locator(".target-panel .who-name").wait_for()
    page.wait_for_load_state("networkidle")
    roster = page.locator("#add-roster")
    for name, _ in BRAWL_ATTACKERS:
        n.tap(roster.get_by_label(name), check=True)
    n.tap(page.get_by_role("button", name="Add hand to hand"))
    rows = page.locator(".attacker-row")
    rows.nth(len(BRAWL_ATTACKERS) - 1).wait_for()
    page.wait_for_load_state("networkidle")
    n.tap(page.locator(".target-panel").get_by_label("Rock", exact=True), check=True)
    signs = dict(BRAWL_ATTACKERS)
    for name in rows.locator(".who-name").all_inner_texts():  # down the cards, as a narrator goes
        n.tap(rows.filter(has_text=name).get_by_label(signs[name], exact=True), check=True)
    n.tap(page.get_by_role("button", name="Resolve the mass challenge"))
    page.locator("#combat-result .ruling").wait_for()
    page.wait_for_load_state("networkidle")
    if page.locator("#combat-result .in-progress").count():
        konrad = page.locator("#combat-result .pair-retest").filter(has_text=BRAWL_ATTACKERS[0][0])
        # One tap: the loser of Konrad's tie retests with his first choice and throws Paper (issue 31, wave 5: was
        # the retest's chip, then his new sign); then the other side's new sign, Rock.
        n.tap(konrad.locator(".retest-pick").first.get_by_label("Paper", exact=True), check=True)
        n.tap(konrad.locator(".retest-throws fieldset:visible").get_by_label("Rock", exact=True), check=True)
        # One tap makes the retest and records the fight as it leaves it (issue 31, wave 5; was "Make the
        # retests", then "Record as it stands").
        n.tap(page.get_by_role("button", name="Make the retests and record"))
    page.locator("#combat-result .ruling-meta").wait_for()
    seconds = time.monotonic() - start
    print(f"  the fight: {page.locator('#combat-result .ruling-summary').first.inner_text()}")
    mark = "ok " if seconds < BRAWL_GOAL_SECONDS else "OVER"
    TIMED.append((f"cold-scene brawl at {page.viewport_size['width']} px", mark == "ok "))
    print(f"  {mark} cold-scene brawl, from the board's first tap to the recorded fight: {n.taps} taps, {n.keys} keys, "
          f"{n.scrolls} scrolls, {seconds:.1f} s (goal under {BRAWL_GOAL_SECONDS:.0f} s; was 15 taps, 41 keys, 37 s)")


#: The issue's character: 10 Traits (5 Physical, 3 Social, 2 Mental), 3 Abilities, 2 Discipline powers,
#: Willpower and Humanity.
BUILD_TRAITS = {"physical": [("Quick", 2), ("Nimble", 1), ("Brawny", 1), ("Dexterous", 1)],
                "social": [("Charismatic", 1), ("Charming", 1), ("Commanding", 1)],
                "mental": [("Alert", 1), ("Clever", 1)]}
BUILD_ABILITIES = ("Brawl", "Dodge", "Occult")


def character_build(page, base: str, name: str) -> None:
    """Issue 31's character build by an organiser: the new-character form (name, Humanity's rating,
    Willpower; the vampire's generation preselected), then the editor: 10 Traits by tapping adjectives (the
    count chip for a double), 3 Abilities tapped on the books' list, 2 Discipline powers found by name and tapped.
    Timed from the first tap to the last power saved, scrolls counted. Goal: under 40 s (was 36 taps, 42 keys,
    60 to 64 s)."""
    page.goto(base + "/characters/new")
    page.wait_for_load_state("networkidle")
    n = Narrator(page)
    start = time.monotonic()

    def field(label: str, text: str, exact: bool = True) -> None:
        box = page.get_by_label(label, exact=exact)
        n.tap(box)
        box.select_text()  # the tap selects what the box holds ("0")
        n.type(box, text)

    field("Name", name)
    field("Rating (Traits)", "4")
    field("Permanent Willpower", "3")
    n.tap(page.get_by_role("button", name="Create the character"))
    page.locator("#traits").wait_for()
    page.wait_for_load_state("networkidle")
    traits = page.locator("#traits")
    for category, picks in BUILD_TRAITS.items():
        n.tap(traits.locator("summary", has_text=f"Add {category.capitalize()} Traits"))
        for trait, count in picks:
            chips = traits.locator(".count-chips")
            if chips.locator("input:checked").get_attribute("value") != str(count):
                n.tap(chips.get_by_label(f"×{count}"), check=True)
            n.tap(traits.get_by_role("group", name=f"{category.capitalize()} Traits (LotNR)", exact=True)
                  .get_by_role("button", name=trait, exact=True))
            page.wait_for_load_state("networkidle")
    abilities = page.locator("#abilities")
    for ability in BUILD_ABILITIES:  # one tap each on the books' Abilities
        n.tap(page.locator("#abilities .ability-picker").get_by_role("button", name=ability, exact=True))
        page.locator("#abilities .flash").filter(has_text=ability).wait_for()
        page.wait_for_load_state("networkidle")
    powers = page.locator("#powers")
    box = powers.get_by_label("Find a power by name")
    n.tap(box)
    n.type(box, "alac")
    n.tap(powers.get_by_role("button", name="Alacrity (1)"))
    page.locator("#powers").filter(has_text="Celerity Alacrity").wait_for()
    page.wait_for_load_state("networkidle")
    n.tap(page.locator("#powers").get_by_role("button", name="Swiftness (2)"))
    page.locator("#powers").filter(has_text="Celerity Swiftness").wait_for()
    seconds = time.monotonic() - start
    held = page.evaluate("() => [...document.querySelectorAll('#traits input[name$=\".count\"]')]"
                         ".reduce((sum, e) => sum + Number(e.value), 0)")
    mark = "ok " if seconds < BUILD_GOAL_SECONDS else "OVER"
    TIMED.append((f"character build at {page.viewport_size['width']} px", mark == "ok "))
    print(f"  the sheet: {held} Traits, {len(BUILD_ABILITIES)} Abilities, 2 powers, Humanity 4, Willpower 3")
    print(f"  {mark} character build: {n.taps} taps, {n.keys} keys, {n.scrolls} scrolls, {seconds:.1f} s "
          f"(goal under {BUILD_GOAL_SECONDS:.0f} s; was 36 taps, 42 keys, 60 to 64 s)")


def summary() -> None:
    """Every figure of the run against its goal, the worst first."""
    if TIMED:
        late = [label for label, ok in TIMED if not ok]
        print(f"\nTaps, seconds and chrome: {len(TIMED) - len(late)} of {len(TIMED)} figures within their goals.")
        for label in late:
            print(f"  OVER {label}")
    over = [(label, size, goal) for label, size, goal in MEASURED if size > goal]
    print(f"\nBytes: {len(MEASURED) - len(over)} of {len(MEASURED)} figures within their goals.")
    for label, size, goal in over:
        print(f"  OVER {label}: {size / KB:.1f} KB against {goal / KB:.0f} KB")
    for name, goal in (("challenge screen swaps", GOALS["challenge"]), ("combat board swaps", COMBAT_SWAP_GOAL)):
        sizes = [size for label, size, g in MEASURED if g == goal and not label.startswith(("cold", "warm"))]
        if sizes:
            print(f"  {name}: largest {max(sizes) / KB:.1f} KB (goal {goal / KB:.0f} KB), {len(sizes)} measured")



def cold_scene_and_build(browser, viewport: dict, cookies: list, host: str, base: str, width: int) -> None:
    """Issue 31's cold-scene brawl and character build, in a fresh narrator session (a cold scene: nobody
    picked before, no card scanned), logged in with ``cookies``."""
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{k: v for k, v in dict(c, domain=host).items() if k != "partitionKey"} for c in cookies])
    page = context.new_page()
    print("Five-on-one brawl in a cold scene, picked on the roster (issue 31):")
    cold_brawl(page, base)
    print("Building a character (issue 31):")
    character_build(page, base, "Selene Marsh" if width > 600 else "Selena Marsh")
    context.close()

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, action="append", help="viewport width in px (default 820 and 390)")
    parser.add_argument("--details", action="store_true", help="print each request of each figure")
    parser.add_argument("--issue31", action="store_true",
                        help="only issue 31's figures: the chrome, the one-on-one, the cold-scene brawl, the build")
    parser.add_argument("--lan", action="store_true",
                        help="open the app at the machine's LAN address (plain http: Chromium offers gzip only)")
    args = parser.parse_args()
    global DETAILS, VERBOSE
    DETAILS = VERBOSE = args.details
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Chromium not found at {CHROMIUM}")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        served = ServedApp(Path(folder) / "instance", host="0.0.0.0" if args.lan else "127.0.0.1")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            print(f"larp serve on port {served.port}, Chromium {browser.version}")
            login = browser.new_context()
            login.new_page().goto(served.login_link())
            cookies = login.cookies()
            login.close()
            base = served.base_url
            if args.lan:
                from larp.cli import lan_address

                if not lan_address():
                    raise SystemExit("no LAN address on this machine")
                base = base.replace("127.0.0.1", lan_address())
            host = base.split("//", 1)[1].split(":", 1)[0]
            print(f"at {base}")
            for width in args.width or [820, 390]:
                viewport = {"width": width, "height": 1180 if width > 600 else 844}
                context = browser.new_context(viewport=viewport)
                context.add_cookies([{k: v for k, v in dict(c, domain=host).items() if k != "partitionKey"}
                                     for c in cookies])
                page = context.new_page()
                wire = Wire(page)
                if args.issue31:
                    print(f"\nAt {width} px. One-on-one with a tie, both picked by card code:")
                    one_on_one_with_a_tie(page, wire, served, base)
                    context.close()
                    cold_scene_and_build(browser, viewport, cookies, host, base, width)
                    continue
                print(f"\nAt {width} px. First narrator page (the challenge screen):")
                page.goto(base + "/")
                page.wait_for_load_state("networkidle")
                report("cold (empty cache)", wire, GOALS["cold"])
                page.goto(base + "/")
                page.wait_for_load_state("networkidle")
                report("warm (opened again)", wire, GOALS["warm"])
                print("One-on-one with a tie, both picked by card code (each swap, goal 5 KB):")
                one_on_one_with_a_tie(page, wire, served, base)
                print("Five-on-one brawl, two ties and a retest (each swap, goal 8 KB):")
                five_on_one_brawl(page, wire, served, base)
                print(f"The largest board: {MAX_PER_RANGE} hand to hand and {MAX_PER_RANGE} ranged (each swap, goal 8 KB):")
                largest_board(page, wire, served, base, width)
                context.close()
                cold_scene_and_build(browser, viewport, cookies, host, base, width)
        finally:
            browser.close()
            served.stop()
        summary()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
