"""Sessions end when they should (issue 19 item 4): a cookie copied before "Switch user", a password
change or a deactivation no longer opens anything, and "Log out everywhere" ends them all."""

from __future__ import annotations

from larp.models import User
from tests.support import AuthActions


def copy_of(client, app):
    """A second browser holding a copy of ``client``'s session cookie (a stolen or shared cookie)."""
    other = app.test_client()
    cookie = client.get_cookie(app.config.get("SESSION_COOKIE_NAME", "session"))
    other.set_cookie(cookie.key, cookie.value)
    return other


def logged_in(client) -> bool:
    return client.get("/account").status_code == 200


def test_a_cookie_copied_before_switch_user_stops_working(app, client):
    """Issue 19 item 4: "Switch user" (logout) ends every session of the account, copies included."""
    AuthActions(client).login("nara", "narrator")
    copy = copy_of(client, app)
    assert logged_in(copy)
    client.post("/logout")
    assert not logged_in(copy)
    assert copy.get("/characters").status_code == 302


def test_a_cookie_copied_before_a_password_change_stops_working_but_this_browser_stays_in(app, client):
    """Issue 19 item 4: a new password ends the other sessions; the browser that changed it carries on."""
    AuthActions(client).login("nara", "narrator")
    copy = copy_of(client, app)
    response = client.post("/account", data={"current": "correct horse", "password": "battery staple",
                                             "repeat": "battery staple"})
    assert response.status_code == 303
    assert logged_in(client)
    assert not logged_in(copy)


def test_deactivation_ends_every_session_of_the_account(app, client, dbconn):
    """Issue 19 item 4: an organiser deactivates a narrator: the narrator's sessions end at once, and
    reactivating the account does not bring an old cookie back."""
    narrator = app.test_client()
    AuthActions(narrator).login("nara", "narrator")
    copy = copy_of(narrator, app)
    AuthActions(client).login("boss", "organiser")
    nara = User.get(User.username == "nara")
    client.post(f"/users/{nara.id}/deactivate")
    client.post(f"/users/{nara.id}/activate")
    assert not logged_in(narrator) and not logged_in(copy)


def test_log_out_everywhere_is_on_the_account_page_and_ends_every_session(app, client):
    """Issue 19 item 4: the Account page offers "Log out everywhere"; it ends this session and every other."""
    AuthActions(client).login("nara", "narrator")
    tablet = app.test_client()
    AuthActions(tablet).login("nara", "narrator")
    page = client.get("/account").get_data(as_text=True)
    assert "Log out everywhere" in page and 'action="/account/logout-everywhere"' in page
    response = client.post("/account/logout-everywhere")
    assert response.status_code == 303 and response.headers["Location"].endswith("/login")
    assert not logged_in(client) and not logged_in(tablet)
    AuthActions(client).login("nara", "narrator")  # a new login works at once
    assert logged_in(client)
