"""The combat screens' cards on a phone (390 px), in Spanish, the longest of our languages: a new user's findings
(wave 9). Opening an attacker's folded lines leaves his sign buttons where they were, every fold ends in "▸ cambiar"
/ "▾ cerrar", "Más…" (inside the fold) is a 44 px target and "Cuerpo a cuerpo" keeps to one line in its chip; once a retest is
tapped the sticky button is one line high and "Hacer las nuevas pruebas" follows it in the page; the stray-shot
card says whose sign each row is, and its "Excluido" chip is not squeezed."""

from __future__ import annotations

import sqlite3

from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled, shoot

PHONE = {"width": 390, "height": 844}


def ids(served, *names: str) -> list[int]:
    with sqlite3.connect(served.instance / "larp.sqlite3") as con:
        return [con.execute("select id from character where name = ?", (n,)).fetchone()[0] for n in names]


def offsets(page, row: str, selector: str) -> list[tuple[int, int]]:
    """Where the ``selector`` boxes are inside the card ``row``, in px from its top left corner."""
    return page.evaluate("""([row, selector]) => { const card = document.querySelector(row).getBoundingClientRect();
        return [...document.querySelectorAll(row + ' ' + selector)].map(e => { const r = e.getBoundingClientRect();
        return [Math.round(r.x - card.x), Math.round(r.y - card.y)]; }); }""", [row, selector])


def lines(locator) -> int:
    """How many lines of text ``locator`` takes (the distinct tops of its text's boxes)."""
    return locator.evaluate("""e => { const range = document.createRange(); range.selectNodeContents(e);
        return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size; }""")


def test_an_attackers_folds_and_the_retest_bar_on_a_phone(served, browser):
    teodor, konrad, lys = ids(served, "Teodor Brandt", "Konrad Vale", "Lys Moreau")
    context = browser.new_context(viewport=PHONE, locale="es-ES")
    page = context.new_page()
    page.goto(served.login_link())
    page.goto(f"{served.base_url}/combat?target={teodor}&a={konrad}&a={lys}"
              f"&target_throw=rock&a{konrad}_throw=rock&a{lys}_throw=rock")
    card = f"#row-{konrad}"
    signs = offsets(page, card, ".signs .chip")
    line = offsets(page, card, ".relent-chip") + offsets(page, card, "details.row-setup > summary")
    setup = page.locator(f"{card} details.row-setup > summary")
    more = page.locator(f"{card} details.more > summary")
    expect(more).to_be_hidden()  # folded inside his range and weapon: one line under his sign (issue 31, wave 5)
    for summary in (setup, more):
        expect(summary).to_be_visible()
        assert summary.evaluate("e => getComputedStyle(e, '::after').content") == '"▸ cambiar"'
        box = summary.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
        summary.click()
    assert offsets(page, card, ".signs .chip") == signs, "opening his folds moved his sign buttons"
    assert offsets(page, card, ".relent-chip") + offsets(page, card, "details.row-setup > summary") == line, "the folded line moved"
    for summary in (setup, more):
        assert summary.evaluate("e => getComputedStyle(e, '::after').content") == '"▾ cerrar"'
    chip = page.locator(f"{card} .range-chips .chip span").first
    expect(chip).to_have_text("Cuerpo a cuerpo")
    assert lines(chip) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator(card).scroll_into_view_if_needed()
    shoot(page, "combat-phone-card-open-es-390")

    with htmx_settled(page):
        page.get_by_role("button", name="Resolver el desafío en masa").click()
    result = page.locator("#combat-result .in-progress")
    expect(result.locator(".pair-retest")).to_have_count(2)  # both ties lost on Teodor's Traits: both may retest
    result.locator(".pair-retest").first.locator(".retest-chip").first.click()
    finish = result.get_by_role("button", name="Hacer las nuevas pruebas y registrar")
    expect(finish).to_be_visible()
    assert lines(finish) == 1 and 44 <= finish.bounding_box()["height"] <= 52, finish.bounding_box()
    # The second pair's retest chips scrolled to just above the bottom of the screen: the bar covers none of them.
    second = result.locator(".pair-retest").nth(1).locator(".retest-pick").first
    second.evaluate("e => window.scrollBy(0, e.getBoundingClientRect().bottom - innerHeight + 70)")
    bar = finish.bounding_box()
    chips = second.bounding_box()
    assert bar["y"] + bar["height"] <= PHONE["height"] and chips["y"] + chips["height"] <= bar["y"], (chips, bar)
    retest_only = result.get_by_role("button", name="Hacer las nuevas pruebas", exact=True)
    expect(retest_only).to_be_visible()
    assert lines(retest_only) == 1
    shoot(page, "combat-phone-retest-bar-es-390")
    context.close()


def test_a_bystanders_card_says_whose_sign_is_which_on_a_phone(served, browser):
    ruth, konrad, marcus = ids(served, "Ruth Calder", "Konrad Vale", "Marcus Hale")
    context = browser.new_context(viewport=PHONE, locale="es-ES")
    page = context.new_page()
    page.goto(served.login_link())
    page.goto(f"{served.base_url}/combat/bystanders?firer={ruth}&target={konrad}&b={marcus}&firer_weapon=pistol")
    card = page.locator(f"#row-{marcus}")
    legends = card.locator(".signs > legend")
    expect(legends).to_have_text(["Jugada de Ruth Calder contra Marcus", "Jugada de Marcus Hale"])
    for i in range(2):
        legend, row = legends.nth(i).bounding_box(), card.locator(".signs").nth(i).locator(".chip").first.bounding_box()
        assert legend["width"] > 100 and legend["y"] < row["y"], "each sign row has its label above it"
    excluded = card.locator(".row-foot .chip").filter(has_text="Excluido")
    assert lines(excluded.locator("span")) == 1
    scene = card.locator("details.more > summary")
    assert scene.bounding_box()["y"] > card.locator(".signs").nth(1).bounding_box()["y"], "the scene is under the signs"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    card.scroll_into_view_if_needed()
    shoot(page, "stray-phone-bystander-es-390")
    context.close()
