"""The challenge screen's new taps in real Chromium (issue 16 items 11 and 14): "Bomb announced" before the Bomb
chip appears, a shooter's Mental Traits, the narrator's call for the situation. Touch targets of at least 44 px,
no sideways scroll at 390 px, the result in view."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import shoot

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}


def tall_enough(locator) -> None:
    box = locator.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44, box


def no_sideways_scroll(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the screen scrolls sideways at {width} px ({scroll} px wide)"


def test_the_bomb_appears_only_once_announced_on_a_phone(served, browser):
    """Issue 16 item 11; LotNR Vigor (met-reference 1.2): "You must state before the Physical Challenge that you
    can use it": Teodor's Bomb chip is hidden until "Bomb announced" is tapped; the ruling then says so."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(served.login_link())
    teodor, vivienne = served.card_codes("Teodor Brandt", "Vivienne Ashcombe")
    page.goto(f"{served.base_url}/challenge?challenger_q={teodor}&defender_q={vivienne}")
    challenger, defender = page.locator("#side-challenger"), page.locator("#side-defender")
    expect(challenger.locator(".who-name")).to_have_text("Teodor Brandt")
    bomb = challenger.locator(".throw-bomb")
    announce = challenger.locator(".announce-chip")
    expect(bomb).to_be_hidden()
    tall_enough(announce)
    announce.click()
    expect(bomb).to_be_visible()
    tall_enough(bomb)
    shoot(page, "bomb-announced-390")
    no_sideways_scroll(page, PHONE["width"])

    challenger.get_by_label("Brawny ×3").check()
    bomb.click()
    defender.get_by_label("Quick ×2").check()
    defender.get_by_label("Paper").check()
    page.get_by_role("button", name="Resolve challenge").click()
    ruling = page.locator("#ruling")
    expect(ruling.locator(".ruling-summary")).to_contain_text("Teodor Brandt wins")
    expect(ruling).to_contain_text("Teodor Brandt announces before the challenge that Teodor Brandt can throw the Bomb")
    shoot(page, "bomb-ruling-390")
    no_sideways_scroll(page, PHONE["width"])
    assert not errors, errors
    context.close()


def test_a_shooter_bids_a_mental_trait_with_the_narrators_call(served, browser):
    """Issue 16 item 14; LotNR Bidding Weapon Traits (met-reference 1.1) and Bonus Traits (1.3): Ruth, who has
    Firearms, is offered her Mental Traits as chips; the narrator's call for the situation is one select in
    "more"; both at least 44 px tall, on a phone and a tablet, without sideways scroll."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(served.login_link())
    ruth, konrad = served.card_codes("Ruth Calder", "Konrad Vale")
    for viewport in (PHONE, TABLET):
        page.set_viewport_size(viewport)
        page.goto(f"{served.base_url}/challenge?challenger_q={ruth}&defender_q={konrad}")
        challenger = page.locator("#side-challenger")
        expect(challenger).to_contain_text("Shooting: or bid a Mental Trait")
        mental = challenger.locator(".mental-chip")
        expect(mental.first).to_be_visible()
        for index in range(mental.count()):
            tall_enough(mental.nth(index))
        challenger.locator("details.more summary").click()
        situation = challenger.get_by_label("Narrator's call for the situation")
        expect(situation).to_be_visible()
        assert situation.bounding_box()["height"] >= 44
        situation.select_option("1")
        mental.filter(has_text="Observant").click()
        challenger.get_by_label("Weapon").select_option("pistol")
        challenger.get_by_label("Rock").check()
        page.locator("#side-defender").get_by_label("Quick", exact=True).check()
        page.locator("#side-defender").get_by_label("Paper").check()
        page.get_by_label("Challenger attempts").select_option("weapon")
        shoot(page, f"mental-bid-{viewport['width']}")
        no_sideways_scroll(page, viewport["width"])
        page.get_by_role("button", name="Resolve challenge").click()
        expect(page.locator("#ruling .ruling-summary")).to_contain_text("Konrad Vale wins")
        expect(page.locator("#ruling")).to_contain_text("Ruth Calder loses Observant")
        no_sideways_scroll(page, viewport["width"])
    context.close()
