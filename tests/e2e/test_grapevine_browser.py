"""Grapevine both ways in real Chromium at a phone's and a tablet's width (issue 20): the preview's
report, the character page's kept data and its Grapevine download, with no sideways scroll."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_tool, shoot
from tests.support import SHARED

GEX = SHARED / "real-data" / "grapevine" / "value_for_everything.gex"


@pytest.mark.parametrize("width", [390, 820])
def test_preview_report_kept_data_and_download(served, browser, width):
    """The house style's bar: no sideways scroll at 390 px (the preview at 820 too); the report's
    sections open with 44 px targets; the character page lists what was kept and downloads a .gex file."""
    page = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True).new_page()
    page.goto(served.login_link())
    open_tool(page, "Import from Grapevine")
    page.get_by_label("Grapevine file").set_input_files(str(GEX))
    page.get_by_role("button", name="Preview the import").click()
    line = page.locator(".import-line").first
    expect(line).to_contain_text("Kept on the character")
    summary = line.locator("summary").first
    assert summary.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, f"grapevine-preview-{width}")
    page.get_by_role("button", name="Import the ticked characters").first.click()
    expect(page.get_by_text("1 created, 0 updated.")).to_be_visible()
    page.locator("a", has_text="ValueForEverything").first.click()
    expect(page.get_by_role("heading", name="Kept from Grapevine")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # a long custom chart wraps
    shoot(page, f"grapevine-character-{width}")
    page.get_by_role("link", name="Grapevine file").click()  # the page before the download (issue 27)
    expect(page.get_by_role("heading", name="Not in the file: Grapevine has no place for it")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, f"grapevine-export-{width}")
    download = page.get_by_role("link", name="Download the Grapevine file")
    assert download.bounding_box()["height"] >= 44
    with page.expect_download() as caught:
        download.click()
    assert caught.value.suggested_filename.endswith(".gex")
