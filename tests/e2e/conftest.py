"""Browser tests: real Chromium (Debian's /usr/bin/chromium) driving the running app.

Playwright is pinned to the release whose Chromium major matches Debian's
(stack-notes 4.2); its own browser download is never used.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.servers import ServedApp
from tests.support import CHROMIUM

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"

pytestmark = pytest.mark.e2e

# A slow or busy CI machine must not turn a correct screen into a failure: wait up to 15 s for
# what a test expects to see (Playwright's default is 5 s); actions keep their 30 s.
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(config, items):
    """Without Chromium the browser tests are skipped with a message, except in CI (``CI=true``, as CI
    services set it and .ci/run does), where a skip would hide that they never ran: the run stops with
    an error instead (issue 28)."""
    if Path(CHROMIUM).exists():
        return
    browser_tests = [item for item in items if "e2e" in item.keywords]
    if not browser_tests:
        return
    if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
        raise pytest.UsageError(
            f"CI is set and Chromium was not found at {CHROMIUM}: the {len(browser_tests)} browser tests cannot "
            "run, and in CI that is a failure, not a skip (.ci/run installs Debian's chromium; set CHROMIUM=/path "
            "to use another).")
    skip = pytest.mark.skip(reason=f"Chromium not found at {CHROMIUM}: install Debian's chromium (see .ci/run)")
    for item in browser_tests:
        item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-quic",
        ],
    }


@pytest.fixture
def served(tmp_path):
    app = ServedApp(tmp_path / "instance")
    yield app
    app.stop()


@pytest.fixture
def served_empty(tmp_path):
    """`larp serve --empty`: a new install with an empty chronicle, no demo."""
    app = ServedApp(tmp_path / "instance", "127.0.0.1", "--empty")
    yield app
    app.stop()


def shoot(page, name: str) -> Path:
    """Save a full-page screenshot under test-results/screenshots/ (for people to look at).

    Playwright hides carets by writing an inline style on every input and leaves ``style=""`` behind;
    htmx's settle step would copy it onto the next page's elements of the same id (a CSP report that the
    app never causes), so the leftovers are removed: only those (an empty style, or a caret's), never a
    style the page's own script set. A full-page screenshot resizes the view for a moment; the scroll
    position is put back as it was, so a test goes on from the screen it had."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    where = page.evaluate("[scrollX, scrollY]")
    page.screenshot(path=str(path), full_page=True)
    page.evaluate("""([x, y]) => {
      document.querySelectorAll('[style]').forEach(e => {
        const left = (e.getAttribute('style') || '').replace(/caret-color:\\s*transparent\\s*(!important)?;?/g, '').trim();
        if (!left) e.removeAttribute('style');
      });
      if (scrollX !== x || scrollY !== y) scrollTo(x, y);
    }""", where)
    return path


@pytest.fixture
def console_errors(page):
    """Console errors (CSP violations included) seen by the page during the test."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


@contextmanager
def htmx_settled(page):
    """Around an action that makes htmx swap (a boosted link, a post): wait until the new content
    has settled, so its triggers are bound. Typing into an active-search box before that is lost."""
    page.evaluate("""() => {
        window.__larpSettled = false;
        document.addEventListener("htmx:afterSettle", () => { window.__larpSettled = true; }, {once: true});
    }""")
    yield
    page.wait_for_function("() => window.__larpSettled === true")


def open_tool(page, title: str) -> None:
    """Open an organiser tool through the Organise hub in the top bar (its Menu on a phone)."""
    open_menu(page)
    page.get_by_role("link", name="Organise", exact=True).click()
    page.locator(".tool-tiles a", has_text=title).click()


def open_settings(page, within: str = "") -> None:
    """Open a screen's settings disclosure (the chips, the scene) when it is folded, as on a phone (issue 31
    item 2); at 481 px and wider it is see-through and this does nothing."""
    summary = page.locator(f"{within} details.screen-settings:not([open]) > summary".strip()).first
    if summary.count() and summary.is_visible():
        summary.click()


def open_menu(page) -> None:
    """Open the top bar's Menu when it is folded, as on a phone (issue 31 item 2): the pages, the chronicle
    picker and the account are in it; from 481 px it is see-through and this does nothing."""
    summary = page.locator("details.menu:not([open]) > summary")
    if summary.count() and summary.is_visible():
        summary.click()
