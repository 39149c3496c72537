"""An organiser adds a Discord-format webhook on a phone, tests it, and a narrator's damage reaches it
(issue 35), through real Chromium and ``larp serve``: the secret and the test's answer land in view,
every link is a touch target, nothing scrolls sideways at 390 px."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import open_menu, shoot
from tests.e2e.test_touch_targets_browser import SHORT_LINKS
from tests.web.webhook_receiver import Receiver

PHONE = {"width": 390, "height": 844}


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + 20 <= page.viewport_size["height"]


def test_an_organiser_adds_a_webhook_tests_it_and_a_ruling_reaches_it(served, browser):
    receiver = Receiver()
    try:
        page = browser.new_context(viewport=PHONE, color_scheme="dark").new_page()
        page.goto(served.login_link())
        open_menu(page)  # the pages are in the Menu on a phone (issue 31 item 2)
        page.get_by_role("link", name="Organise", exact=True).click()
        page.locator(".tool-tiles a", has_text="Chronicle settings").click()
        page.get_by_role("link", name="Webhooks: Discord and other channels").click()
        form = page.locator("#new-webhook")
        form.locator("input[name=name]").fill("Staff channel")
        form.locator("input[name=url]").fill(receiver.url("/api/webhooks/1/TopSecretToken"))
        form.locator("select[name=format]").select_option("discord")
        form.locator("input[name=local_network][type=checkbox]").check()
        form.get_by_role("button", name="Add the webhook").click()
        secret = page.locator("#webhook-secret")
        expect(secret).to_contain_text("Webhook “Staff channel” added.")
        assert in_view(page, secret)
        assert "TopSecretToken" not in page.content()
        for where in ("settings", "webhook"):
            if where == "webhook":
                page.get_by_role("link", name="Change “Staff channel”").click()
                expect(page.locator("h1")).to_contain_text("Staff channel")
            assert page.evaluate(SHORT_LINKS) == [], where
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], where
            shoot(page, f"webhooks-{where}-390")
        page.get_by_role("link", name="Back to the settings").click()
        page.get_by_role("button", name="Send a test").click()
        answer = page.locator(".webhook-test")
        expect(answer).to_contain_text("it works")
        assert in_view(page, answer)
        (test,) = receiver.on("/api/webhooks/1/TopSecretToken")
        assert test.json["embeds"][0]["title"].startswith("Test from larp")

        open_menu(page)
        page.locator("a", has_text="Characters").first.click()
        page.locator("a", has_text="Konrad Vale").first.click()
        damage = page.locator("form[action$='/damage']")
        damage.locator("label.chip", has_text="Lethal").click()
        damage.locator("label.chip", has_text="2").first.click()
        damage.get_by_role("button", name="Apply damage").click()
        expect(page.locator("#health-panel .last-change")).to_contain_text("2 lethal")
        got = receiver.wait_for("/api/webhooks/1/TopSecretToken", 2, timeout=15)
        embed = got[-1].json["embeds"][0]
        assert embed["title"] == "Damage: Konrad Vale" and "2 lethal" in embed["description"]
        assert embed["url"].startswith(served.base_url + "/chronicles/")
    finally:
        receiver.close()
