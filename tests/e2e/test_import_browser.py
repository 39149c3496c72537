"""Grapevine import in real Chromium (issue 8): upload, read the preview, import, and run a
challenge between two imported characters."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import open_tool, shoot
from tests.support import SHARED

GEX = SHARED / "real-data" / "grapevine" / "vampires_camarilla.gex"


def test_upload_preview_import_and_challenge(served, browser):
    page = browser.new_context(viewport={"width": 1024, "height": 900}).new_page()
    page.goto(served.login_link())
    open_tool(page, "Import from Grapevine")
    page.get_by_label("Grapevine file").set_input_files(str(GEX))
    page.get_by_role("button", name="Preview the import").click()

    expect(page.get_by_role("heading", name="Import preview: vampires_camarilla.gex")).to_be_visible()
    expect(page.get_by_text("50 to create · 0 to update")).to_be_visible()
    line = page.locator(".import-line", has_text="Art McCormik")
    expect(line).to_contain_text("Gangrel")
    expect(line).to_contain_text("Physical 6")
    shoot(page, "import-preview")
    page.get_by_role("button", name="Import the ticked characters").first.click()
    expect(page.get_by_text("Imported vampires_camarilla.gex: 50 created, 0 updated.")).to_be_visible()

    page.get_by_role("link", name="Challenge", exact=True).click()
    page.get_by_placeholder("Type a name or code").first.fill("Art McCormik")
    page.get_by_placeholder("Type a name or code").first.press("Enter")
    expect(page.locator("#side-challenger .who-name")).to_have_text("Art McCormik")
    page.get_by_placeholder("Type a name or code").fill("Camarilla Brujah")
    page.get_by_placeholder("Type a name or code").press("Enter")
    expect(page.locator("#side-defender .who-name")).to_have_text("Camarilla Brujah")

    page.locator("#side-challenger").get_by_label("Brawny ×3").check()
    page.locator("#side-challenger").get_by_label("Paper").check()
    page.locator("#side-defender").get_by_label("Quick ×4").check()
    page.locator("#side-defender").get_by_label("Paper").check()
    page.get_by_role("button", name="Resolve challenge").click()
    # A tie: Art McCormik has 6 Physical Traits against the Brujah's 8, so the Brujah wins;
    # Art could still retest, and declines.
    expect(page.locator("#ruling .ruling-summary")).to_contain_text("Camarilla Brujah wins")
    page.get_by_role("button", name="Record as it stands").click()
    expect(page.locator("#ruling .ruling-meta")).to_contain_text("Recorded as ruling")
    expect(page.locator("#side-challenger .trait-count")).to_have_text("5")
    shoot(page, "import-then-challenge")
