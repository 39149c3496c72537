"""Character cards in real Chromium (issue 6): print the sheet as a new organiser would, scan every
QR code from the printed PDF, follow it to the player's view; a narrator opens a card and starts a
challenge from it, and the player sees the result on a phone."""

from __future__ import annotations

import re
import sqlite3
import urllib.request

import numpy as np
import pypdfium2 as pdfium
import zxingcpp
from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled, open_tool, SCREENSHOTS, shoot

TABLET = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}
POINTS_PER_MM = 72 / 25.4



def scan_pdf(pdf_bytes: bytes, scale: float = 3.0) -> list[list[tuple[str, float, float]]]:
    """Every QR code on every page of a PDF: (text, x mm, y mm of its centre) per page.

    The pages are rendered to pixels by pdfium and decoded by zxing-cpp, as a phone would see print.
    """
    pages = []
    pdf = pdfium.PdfDocument(pdf_bytes)
    for page in pdf:
        pixels = page.render(scale=scale, grayscale=True).to_numpy()
        pixels = np.ascontiguousarray(pixels.reshape(pixels.shape[0], pixels.shape[1]))
        found = []
        for code in zxingcpp.read_barcodes(pixels, formats=zxingcpp.BarcodeFormat.QRCode):
            corners = (code.position.top_left, code.position.bottom_right)
            x = sum(p.x for p in corners) / 2 / scale / POINTS_PER_MM
            y = sum(p.y for p in corners) / 2 / scale / POINTS_PER_MM
            found.append((code.text, x, y))
        pages.append(found)
    return pages


def page_sizes_mm(pdf_bytes: bytes) -> list[tuple[int, int]]:
    return [(round(w / POINTS_PER_MM), round(h / POINTS_PER_MM)) for w, h in
            (p.get_size() for p in pdfium.PdfDocument(pdf_bytes))]


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_organiser_prints_cards_and_every_code_opens_its_character(served, browser):
    """Done-when of issue 6: the sheet printed to PDF in Chromium, every QR code scanned from the
    rendered pages, each followed to that very card's character."""
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)

    # A new organiser: the console link, then the Account page asks for a password.
    page.goto(served.login_link())
    expect(page.get_by_role("heading", name="Your account")).to_be_visible()
    expect(page.get_by_text("You have no password yet")).to_be_visible()
    page.get_by_label("New password", exact=False).first.fill("lantern-bearer")
    page.get_by_label("New password again").fill("lantern-bearer")
    page.get_by_role("button", name="Set password").click()
    expect(page.get_by_text("Your password is set.")).to_be_visible()

    # Printing for nobody is refused with a message where the organiser looks.
    open_tool(page, "Character cards")
    page.get_by_role("button", name="Print the ticked cards").last.click()
    expect(page.locator("#print-error")).to_contain_text("No character is ticked")
    shoot(page, "cards-list-820")
    page.set_viewport_size(PHONE)
    shoot(page, "cards-list-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(TABLET)

    page.get_by_role("button", name=re.compile(r"Print all cards")).click()
    expect(page.locator(".card")).to_have_count(10)
    expect(page.locator(".sheet-page")).to_have_count(2)
    names = page.locator(".card-name").all_text_contents()
    shoot(page, "cards-sheet-screen-820")

    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.locator(".sheet-toolbar")).to_be_hidden()
    shoot(page, "cards-sheet-print")
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    (SCREENSHOTS / "cards-sheet-a4.pdf").write_bytes(pdf)  # for people to look at
    assert page_sizes_mm(pdf) == [(210, 297), (210, 297)]  # A4, eight cards a page

    scanned = scan_pdf(pdf)
    assert [len(codes) for codes in scanned] == [8, 2]
    pattern = re.compile(rf"^HTTP://127\.0\.0\.1:{served.port}/C/[A-Z2-7]{{32}}$")
    url_of: dict[str, str] = {}
    for page_index, codes in enumerate(scanned):
        for text, x_mm, y_mm in codes:
            assert pattern.match(text), text
            # Which card is it on? Two columns of 88 mm, four rows of 62 mm, centred on the page.
            column = int((x_mm - (210 - 176) / 2) // 88)
            row = int((y_mm - (297 - 248) / 2) // 62)
            expected = names[page_index * 8 + row * 2 + column]
            url_of[expected] = text
            status, body = fetch(text)  # upper-case URL, as the phone's camera opens it
            assert status == 200
            assert f"<h1>{expected}</h1>" in body
            assert "Traits left tonight" in body
            assert 'href="/characters' not in body and 'href="/challenge' not in body and "<nav" not in body

    assert sorted(url_of) == sorted(names)  # one code on every card, each on its own card

    # The same sheet on US Letter paper.
    page.emulate_media(media="screen")
    page.get_by_role("link", name="Switch to US Letter").click()
    # A plain link: print once the Letter page has loaded (a PDF taken during the navigation has one page).
    expect(page.locator(".sheet-page.paper-letter")).to_have_count(2)
    page.wait_for_load_state()
    page.emulate_media(media="print")
    letter = page.pdf(prefer_css_page_size=True)
    assert page_sizes_mm(letter) == [(216, 279), (216, 279)]
    assert [len(codes) for codes in scan_pdf(letter)] == [8, 2]

    # A player scans one code from the printed page on a phone.
    phone = browser.new_context(viewport=PHONE, color_scheme="dark")
    player = phone.new_page()
    first_text = url_of[names[0]]
    player.goto(first_text)
    expect(player.locator("h1")).to_have_text(names[0])
    expect(player.get_by_role("heading", name="Traits left tonight")).to_be_visible()
    expect(player.locator("nav")).to_have_count(0)
    expect(player.locator("a[href^='/characters'], a[href^='/challenge'], a[href^='/rulings']")).to_have_count(0)
    shoot(player, "player-view-390")
    width = player.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the player's view scrolls sideways at 390 px ({width} px)"
    phone.close()

    # That card is lost: the organiser revokes it in place (htmx, CSRF header from app.js).
    page.emulate_media(media="screen")
    open_tool(page, "Character cards")
    page.once("dialog", lambda dialog: dialog.accept())
    row = page.locator(".card-row", has_text=names[0])
    row.get_by_role("button", name="Revoke").click()
    expect(row).to_contain_text("card revoked")
    expect(row).to_contain_text("card is revoked")
    assert fetch(first_text)[0] == 404
    # The one refused print (422) is expected; nothing else may fail, CSP included.
    assert [e for e in errors if "status of 422" not in e] == [], errors
    context.close()


def card_token(served, name: str) -> tuple[str, str]:
    """The stored card token and short code of ``name`` (read from the served app's SQLite file)."""
    path = served.instance / "larp.sqlite3"
    with sqlite3.connect(path) as conn:
        token, code = conn.execute("SELECT card_token, short_code FROM character WHERE name = ?", (name,)).fetchone()
    return token, code


def test_narrator_opens_a_card_and_starts_a_challenge(served, browser):
    """A narrator account made on the Users page scans Vivienne's card, starts a challenge from
    it; Konrad's player then sees the lost Trait and the damage on a phone."""
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(served.login_link())
    open_tool(page, "Users")
    # The new-account form (the Users page also has one that adds an existing account, issue 22).
    form = page.locator("form", has=page.get_by_role("button", name="Create account"))
    form.get_by_label("User name").fill("mira")
    form.get_by_label("Name shown on screen").fill("Mira")
    form.get_by_label("Narrator").check()
    form.get_by_label("Password", exact=False).fill("storyteller-9")
    form.get_by_role("button", name="Create account").click()
    expect(page.get_by_text("Created narrator mira.")).to_be_visible()
    page.set_viewport_size(PHONE)
    shoot(page, "users-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(TABLET)
    page.get_by_role("button", name=re.compile("Switch user")).click()
    page.get_by_label("User name").fill("mira")
    page.get_by_label("Password").fill("storyteller-9")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".account-link")).to_have_text("Mira")
    expect(page.get_by_role("link", name="Organise", exact=True)).to_have_count(0)  # organisers only

    viv_token, _ = card_token(served, "Vivienne Ashcombe")
    kon_token, kon_code = card_token(served, "Konrad Vale")
    page.goto(f"{served.base_url}/C/{viv_token}")
    expect(page.get_by_role("heading", name="Vivienne Ashcombe")).to_be_visible()
    shoot(page, "card-narrator-820")
    page.set_viewport_size(PHONE)
    shoot(page, "card-narrator-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(TABLET)
    with htmx_settled(page):  # a boosted link: typing into the search before the swap settles is lost
        page.get_by_role("link", name="Start a challenge").click()
    expect(page.locator("#side-challenger .who-name")).to_have_text("Vivienne Ashcombe")
    page.wait_for_load_state()  # htmx binds the active search on load; typing earlier is lost
    page.get_by_placeholder("Type a name or code").fill(kon_code)
    page.get_by_role("link", name="Konrad Vale").click()
    expect(page.locator("#side-defender .who-name")).to_have_text("Konrad Vale")  # the swap is in
    page.locator("#side-challenger").get_by_label("Quick ×2").check()
    page.locator("#side-challenger").get_by_label("Rock").check()
    page.locator("#side-defender").get_by_label("Brawny ×2").check()
    page.locator("#side-defender").get_by_label("Scissors").check()
    page.get_by_role("button", name="Resolve challenge").click()
    expect(page.locator("#ruling .ruling-summary")).to_contain_text("Vivienne Ashcombe wins")
    page.get_by_role("button", name="Record as it stands").click()  # Konrad declines his retests
    expect(page.locator("#ruling .ruling-meta")).to_contain_text("Recorded as ruling")

    # The short-code box in the top bar jumps to a character from any narrator screen.
    page.get_by_label("Card code").fill(kon_code.lower())
    page.get_by_label("Card code").press("Enter")
    expect(page.get_by_role("heading", name="Konrad Vale")).to_be_visible()

    # Konrad's player, on a phone, without logging in.
    phone = browser.new_context(viewport=PHONE, color_scheme="dark")
    player = phone.new_page()
    player.goto(f"{served.base_url}/c/{kon_token.lower()}")
    expect(player.get_by_role("heading", name="Konrad Vale")).to_be_visible()
    expect(player.locator(".trait-list li", has_text="Brawny")).to_contain_text("1 lost")
    expect(player.locator(".box.bashing")).to_have_count(1)
    shoot(player, "player-view-after-challenge-390")
    width = player.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the player's view scrolls sideways at 390 px ({width} px)"
    phone.close()
    assert errors == [], errors
    context.close()
