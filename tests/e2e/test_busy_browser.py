"""A ruling while a long import holds the database, in real Chromium (issue 19 item 3): the screen says
the database is busy and to tap again, the form keeps what was entered, and the second tap records it."""

from __future__ import annotations

import sqlite3

from playwright.sync_api import expect

from larp.db import sqlite_url
from tests.e2e.conftest import shoot
from tests.servers import ServedApp

TABLET = {"width": 820, "height": 1180}


def test_a_damage_form_sent_during_an_import_says_try_again_and_keeps_its_input(tmp_path, browser):
    """Issue 19 item 3: while another connection holds SQLite's write lock past the busy timeout (1 s
    here, 10 s by default), "Apply damage" answers 503: a banner says the database is busy with an
    import, the health panel and the chosen chips stay; once the lock is gone the same tap applies it."""
    instance = tmp_path / "instance"
    served = ServedApp(instance, env={"LARP_DATABASE_URL": sqlite_url(instance / "larp.sqlite3") + "?timeout=1"})
    try:
        with sqlite3.connect(instance / "larp.sqlite3") as con:
            character_id = con.execute("select id from character where name = 'Konrad Vale'").fetchone()[0]
        page = browser.new_context(viewport=TABLET).new_page()
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" and "503" not in msg.text
                else None)
        page.goto(served.login_link())
        page.goto(f"{served.base_url}/characters/{character_id}")
        damage = page.locator("form.action-form", has=page.get_by_role("heading", name="Apply damage"))
        damage.get_by_label("Lethal", exact=True).check()
        damage.get_by_label("2", exact=True).check()
        holder = sqlite3.connect(instance / "larp.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            damage.get_by_role("button", name="Apply damage").click()
            banner = page.locator("#retry-banner")
            expect(banner).to_be_visible(timeout=10_000)
            expect(banner).to_contain_text("busy with an import")
            expect(banner).to_contain_text("tap the same button again")
            expect(damage.get_by_label("Lethal", exact=True)).to_be_checked()
            expect(damage.get_by_label("2", exact=True)).to_be_checked()
            expect(page.locator("#health-panel .box.lethal")).to_have_count(0)
            shoot(page, "busy-retry-820")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        damage.get_by_role("button", name="Apply damage").click()
        expect(page.locator("#health-panel .box.lethal")).to_have_count(2)
        expect(page.locator("#retry-banner")).to_be_hidden()
        assert errors == [], errors
    finally:
        served.stop()
