"""Printed character sheets in real Chromium (issue 34): an organiser prints a usual sheet and an
imported Sabbat elder (53 powers, 54 Abilities) to PDF on A4 and on US Letter; the pages are counted,
read (pypdfium2) and scanned (zxing-cpp) as paper would be; the print is remembered; a player and an
organiser then scan the old sheet after a change."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys

import pypdfium2 as pdfium
from playwright.sync_api import expect

from tests.support import SHARED
from tests.e2e.conftest import open_tool, shoot
from tests.e2e.test_cards import PHONE, SCREENSHOTS, TABLET, page_sizes_mm, scan_pdf
from tests.servers import ROOT

SABBAT = SHARED / "real-data" / "grapevine" / "vampires_sabbat.gex"
ELDER = "NPCSGR1"


def one_character_file(tmp_path, name: str):
    """A Grapevine file holding only ``name``'s record of the Sabbat file, as Grapevine wrote it."""
    text = SABBAT.read_bytes().decode("cp1252")
    start = text.index(f'  <vampire name="{name}"')
    end = text.index("  </vampire>", start) + len("  </vampire>")
    path = tmp_path / f"{name}.gex"
    path.write_bytes(('<?xml version="1.0"?>\n<grapevine version="3">\n' + text[start:end] + "\n</grapevine>\n")
                     .encode("cp1252"))
    return path


def sheet_rows(served, name: str) -> dict:
    """What the served database holds of ``name``: id, card token, edition, Ability and power names."""
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        cid, token, edition = con.execute("SELECT id, card_token, sheet_edition FROM character WHERE name = ?",
                                          (name,)).fetchone()
        abilities = [r[0] for r in con.execute("SELECT name FROM ability WHERE character_id = ?", (cid,))]
        powers = [r[0] for r in con.execute("SELECT name FROM power WHERE character_id = ?", (cid,))]
    return {"id": cid, "token": token, "edition": edition, "abilities": abilities, "powers": powers}


def log_experience(page, served, character_id: int, points: str, what: str) -> None:
    """Earn ``points`` experience for ``what`` on the sheet editor's Experience log (a change of the sheet)."""
    page.goto(f"{served.base_url}/characters/{character_id}/edit#experience")
    log = page.locator("#experience")
    log.get_by_label("Points").fill(points)
    log.get_by_label("On what").fill(what)
    log.get_by_role("button", name="Log it").click()
    done = page.locator("#experience #experience-done")  # said in the section the page lands on, in view
    expect(done).to_have_text(re.compile(rf"^Logged: \+{re.escape(points)} \({re.escape(what)}\)\.$"))
    expect(done).to_be_in_viewport()


def pages_text(pdf: bytes) -> list[str]:
    """Each page's text, as a PDF reader extracts it (spaces collapsed)."""
    out = []
    for page in pdfium.PdfDocument(pdf):
        out.append(" ".join(page.get_textpage().get_text_range().split()))
    return out


def whose(texts: list[str], names: list[str]) -> list[str]:
    """Which character each page belongs to, by its footer ("<name> · code ... sheet edition N")."""
    return [next(n for n in names if re.search(re.escape(n) + r" · code \w+ · as of .*?sheet edition \d+", t))
            for t in texts]


def check_pdf(pdf: bytes, paper_mm: tuple[int, int], served, viv: dict, elder: dict) -> list[str]:
    """The print job's PDF: every page of the paper; the elder continues on further pages and every
    one of his Abilities and powers is on them; Vivienne's usual sheet is one or two pages; one QR
    code per sheet, the card's address with the edition. Returns whose each page is."""
    assert set(page_sizes_mm(pdf)) == {paper_mm}
    texts = pages_text(pdf)
    owners = whose(texts, [ELDER, "Vivienne Ashcombe"])
    assert owners == sorted(owners, key=lambda n: n.lower())  # by name, each sheet on pages of its own
    elder_text = " ".join(t for t, o in zip(texts, owners) if o == ELDER)
    assert owners.count(ELDER) >= 2, "the elder's sheet does not continue on a further page"
    assert 1 <= owners.count("Vivienne Ashcombe") <= 2
    missing = [n for n in elder["abilities"] + elder["powers"] if n not in elder_text]
    assert missing == [], f"cut from the printed sheet: {missing}"
    assert len(elder["abilities"]) >= 30 and len(elder["powers"]) >= 30
    for name, who in ((ELDER, elder), ("Vivienne Ashcombe", viv)):
        first = texts[owners.index(name)]
        assert f"sheet edition {who['edition']}" in first and "HEALTH" in first.upper()
    codes = [code for page in scan_pdf(pdf) for code, _x, _y in page]
    base = f"HTTP://127.0.0.1:{served.port}/C/"
    assert sorted(codes) == sorted([f"{base}{elder['token']}/E{elder['edition']}",
                                    f"{base}{viv['token']}/E{viv['edition']}"])
    return owners


def test_an_organiser_prints_sheets_and_a_scan_knows_they_are_out_of_date(served, browser, tmp_path):
    """Issue 34 "Done when": both page sizes printed to PDF in Chromium; page count, text and the QR
    code with the edition checked; a long sheet continues on a further page with nothing cut; the
    print list remembers the print; after a change the player's card says a newer sheet exists
    (health, blood, Willpower and Traits still above the fold at 390 px) and an organiser reads what
    changed."""
    imported = subprocess.run([sys.executable, "-m", "larp", "import-grapevine", "--yes",
                               str(one_character_file(tmp_path, ELDER))], cwd=ROOT, capture_output=True, text=True,
                              env={"LARP_INSTANCE_PATH": str(served.instance), "PATH": "/usr/bin:/bin"})
    assert imported.returncode == 0, imported.stdout + imported.stderr
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(served.login_link())

    # A change of Vivienne's sheet: a line of her experience log (edition 2).
    viv_id = sheet_rows(served, "Vivienne Ashcombe")["id"]
    log_experience(page, served, viv_id, "2", "attendance")
    viv, elder = sheet_rows(served, "Vivienne Ashcombe"), sheet_rows(served, ELDER)
    assert (viv["edition"], elder["edition"]) == (2, 1)

    # The print list: tick two sheets, print them.
    open_tool(page, "Print character sheets")
    expect(page.locator(f"#print-row-{viv_id}")).to_contain_text("never printed")
    page.set_viewport_size(PHONE)
    shoot(page, "print-list-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(TABLET)
    page.locator(f"#print-row-{viv_id} input[type=checkbox]").check()
    page.locator(f"#print-row-{elder['id']} input[type=checkbox]").check()
    page.get_by_role("button", name="Print the ticked sheets").first.click()
    expect(page.locator("article.ps")).to_have_count(2)
    shoot(page, "printed-sheets-screen-820")
    page.set_viewport_size(PHONE)  # the preview on a phone: no sideways scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(TABLET)
    page.emulate_media(media="print")
    expect(page.locator(".print-toolbar")).to_be_hidden()
    a4 = page.pdf(prefer_css_page_size=True)
    (SCREENSHOTS / "printed-sheets-a4.pdf").write_bytes(a4)  # for people to look at
    owners = check_pdf(a4, (210, 297), served, viv, elder)

    page.emulate_media(media="screen")
    # The switch is a link: wait for the Letter page to have loaded, or the PDF may be of the blank
    # page between the two (Playwright's own default paper is Letter, so only the text would tell).
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("link", name="Switch to US Letter").click()
    expect(page.get_by_role("link", name=re.compile("Switch to A4"))).to_be_visible()
    expect(page.locator("article.ps")).to_have_count(2)
    page.emulate_media(media="print")
    letter = page.pdf(prefer_css_page_size=True)
    (SCREENSHOTS / "printed-sheets-letter.pdf").write_bytes(letter)
    check_pdf(letter, (216, 279), served, viv, elder)
    page.emulate_media(media="screen")

    # They came out of the printer: the list remembers the print and its editions.
    page.get_by_role("button", name=re.compile("They came out of the printer")).click()
    expect(page.get_by_text("Marked 2 sheets as printed.")).to_be_visible()
    expect(page.locator(f"#print-row-{viv_id}")).to_contain_text("current")
    expect(page.locator(f"#print-row-{elder['id']}")).to_contain_text("current")

    # Another change of Vivienne's sheet (edition 3): her printed sheet is out of date.
    log_experience(page, served, viv_id, "1", "a scene well played")
    old_sheet = f"{served.base_url}/C/{viv['token']}/E2"

    # The player scans it on a phone: the card page as today, with one line that fits above the fold.
    phone = browser.new_context(viewport=PHONE, color_scheme="dark")
    player = phone.new_page()
    player.goto(old_sheet)
    expect(player.get_by_text("A newer sheet exists: ask for a new print.")).to_be_visible()
    shoot(player, "printed-sheet-scanned-player-390")
    bottoms = """() => Object.fromEntries([...document.querySelectorAll('.tonight h2, .tonight dt')]
        .map(h => [h.textContent.trim(), h.getBoundingClientRect().bottom]))"""
    fold = player.evaluate(bottoms)
    for heading in ("Health", "Blood", "Willpower", "Traits left tonight"):
        assert fold[heading] <= PHONE["height"], f"{heading} is below the fold at 390 px: {fold}"
    player.goto(f"{served.base_url}/C/{viv['token']}")  # the card as today: the line costs one line at most
    assert fold["Traits left tonight"] - player.evaluate(bottoms)["Traits left tonight"] <= 40, fold
    assert player.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.close()

    # The organiser scans it: what changed since.
    page.goto(old_sheet)
    notice = page.locator(".sheet-notice")
    expect(notice).to_contain_text("This sheet is edition 2; the character is now at edition 3: changed since: "
                                   "+1 experience earned: a scene well played")
    page.set_viewport_size(PHONE)
    shoot(page, "printed-sheet-scanned-organiser-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == [], errors
    assert owners  # whose pages, for the record
    context.close()
