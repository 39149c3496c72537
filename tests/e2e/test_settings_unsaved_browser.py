"""New-user test 9, finding 2: on the chronicle settings page a changed setting is not lost without a word.
Once a setting changes, a line beside the sticky Save says so, and adding a webhook (another form on the
page) asks in the app's own words (new-user test 10: the browser's blank "leave page?" said nothing); saving the
settings asks nothing."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import shoot

TABLET = {"width": 820, "height": 1180}


def test_a_changed_setting_warns_before_the_page_is_left_and_saving_asks_nothing(served, browser):
    page = browser.new_context(viewport=TABLET, color_scheme="dark").new_page()
    page.goto(served.login_link())
    page.goto(served.base_url + "/settings")
    unsaved = page.locator(".settings-unsaved")
    expect(unsaved).to_be_hidden()
    asked: list[str] = []

    def answer(dialog):
        asked.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()  # stay on the page

    page.on("dialog", answer)
    page.locator("input[name=between_game_actions_per_session]").fill("5")
    expect(unsaved).to_be_visible()
    assert unsaved.bounding_box()["y"] + unsaved.bounding_box()["height"] <= TABLET["height"]  # by the sticky Save
    shoot(page, "settings-unsaved-820")
    form = page.locator("#new-webhook")
    form.locator("input[name=name]").fill("Staff channel")
    form.locator("input[name=url]").fill("https://discord.com/api/webhooks/1/Token")
    form.get_by_role("button", name="Add the webhook").click()
    page.wait_for_timeout(300)
    assert asked == [f"confirm: {unsaved.inner_text()}"]  # the app asked; dismissed, the page and the 5 stay
    assert page.locator("input[name=between_game_actions_per_session]").input_value() == "5"
    page.remove_listener("dialog", answer)
    page.once("dialog", lambda dialog: asked.append("saved: " + dialog.type))
    with page.expect_navigation():
        page.locator(".settings-save-bar button[type=submit]").click()
    page.wait_for_timeout(200)
    assert len(asked) == 1  # saving the settings asked nothing
    assert page.locator("input[name=between_game_actions_per_session]").input_value() == "5"
    expect(page.locator(".settings-unsaved")).to_be_hidden()
