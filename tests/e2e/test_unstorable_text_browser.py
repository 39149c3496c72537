"""A NUL pasted into a sheet's text box, in real Chromium (new-user test 12, finding 9): refused inside the
Traits part, which stays with what was typed, the message naming the box as the page labels it."""

from __future__ import annotations

import sqlite3

from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled

TABLET = {"width": 820, "height": 1180}


def test_a_nul_in_another_adjective_is_refused_in_the_traits_part(served, browser):
    """Finding 9: "Zé" + U+0000 + "null" in "Another physical adjective", Enter: the Traits part is still
    there (its Traits and the typed text), a message at the top of its form names "Another Physical
    adjective" and says to type it again, the box is marked and has the keyboard; nothing was saved."""
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        character_id = con.execute("select id from character where name = 'Konrad Vale'").fetchone()[0]
        traits_before = con.execute("select count(*) from trait where character_id = ?", (character_id,)).fetchone()
    page = browser.new_context(viewport=TABLET, color_scheme="dark").new_page()
    page.goto(served.login_link())
    page.goto(f"{served.base_url}/characters/{character_id}/edit#traits")
    traits = page.locator("#traits")
    traits.locator("summary", has_text="Add Physical Traits").click()
    box = traits.locator('input[name="custom.traits.physical"]')
    box.evaluate("(el) => { el.value = 'Zé\\u0000null'; }")
    with htmx_settled(page):
        box.press("Enter")
    note = traits.locator(".unstorable-refusal")
    expect(note).to_have_count(1)
    label = box.evaluate("(el) => el.labels[0].textContent.trim()")
    expect(note).to_contain_text(f"{label}: the text holds something invisible")
    expect(note).not_to_contain_text("custom.traits")
    expect(traits.locator("h2")).to_have_text("Traits")  # the part is still there, not a bare error
    assert box.input_value().startswith("Zé")
    assert box.get_attribute("aria-invalid") == "true"
    assert page.evaluate("document.activeElement.name") == "custom.traits.physical"
    with htmx_settled(page):
        box.press("Enter")  # a second refusal: still one message
    expect(note).to_have_count(1)
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        assert con.execute("select count(*) from trait where character_id = ?", (character_id,)).fetchone() == traits_before
