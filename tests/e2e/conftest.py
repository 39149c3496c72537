"""Browser tests: real Chromium (Debian's /usr/bin/chromium) driving the running app.

Playwright is pinned to the release whose Chromium major matches Debian's
(stack-notes 4.2); its own browser download is never used.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"

pytestmark = pytest.mark.e2e

# A slow or busy CI machine must not turn a correct screen into a failure: wait up to 15 s for
# what a test expects to see (Playwright's default is 5 s); actions keep their 30 s.
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(config, items):
    if not Path(CHROMIUM).exists():
        skip = pytest.mark.skip(reason=f"Chromium not found at {CHROMIUM}: install Debian's chromium (see .ci/run)")
        for item in items:
            if "e2e" in item.keywords:
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServedApp:
    """``larp serve`` running in a subprocess, with the console output it printed."""

    def __init__(self, instance: Path, host: str = "127.0.0.1", *args: str, env: dict[str, str] | None = None):
        self.instance = instance
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        env = {**{k: v for k, v in os.environ.items() if k != "LARP_DATABASE_URL"},
               "LARP_INSTANCE_PATH": str(instance), "PYTHONUNBUFFERED": "1", **(env or {})}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "larp", "serve", "--host", host, "--port", str(self.port), *args],
            cwd=Path(__file__).resolve().parents[2], env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._wait()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def _wait(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("larp serve exited:\n" + "\n".join(self.lines))
            if self.login_link() and self._answers():
                return
            time.sleep(0.2)
        raise RuntimeError("larp serve did not come up:\n" + "\n".join(self.lines))

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def login_link(self) -> str | None:
        for line in self.lines:
            match = re.search(r"(http://127\.0\.0\.1:\d+/login/link/\S+)", line)
            if match:
                return match.group(1)
        return None

    def card_codes(self, *names: str) -> list[str]:
        """The card codes of the characters called ``names`` in the served app's SQLite database."""
        import sqlite3

        with sqlite3.connect(self.instance / "larp.sqlite3") as con:
            return [con.execute("select short_code from character where name = ?", (n,)).fetchone()[0]
                    for n in names]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


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
    app never causes), so the leftovers are removed."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    page.evaluate("document.querySelectorAll('[style]').forEach(e => e.removeAttribute('style'))")
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
    """Open an organiser tool through the Organise hub in the top bar."""
    page.get_by_role("link", name="Organise", exact=True).click()
    page.locator(".tool-tiles a", has_text=title).click()
