"""Accounts (issue 6): the Account page, the organiser's Users page, login lockout, `larp create-user`."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from werkzeug.security import check_password_hash

from larp.cli import main
from larp.models import LoginFailure, LoginLink, User, utcnow
from larp.services.accounts import create_login_link
from tests.support import AuthActions, make_test_app


def user(name: str) -> User:
    return User.get(User.username == name)


def link_path(token: str) -> str:
    return f"/login/link/{token}"


def test_link_login_without_password_goes_to_the_account_page(client, dbconn):
    """The console link logs the first organiser in and asks for a password (stack-notes 6.2)."""
    from larp.services.accounts import ensure_first_organiser

    token = create_login_link(ensure_first_organiser())
    response = client.get(link_path(token))
    assert response.status_code == 303 and response.headers["Location"] == "/account"
    page = client.get("/account").get_data(as_text=True)
    assert "You have no password yet" in page
    assert 'name="current"' not in page  # nothing to confirm yet
    assert "Set a password now: the login link worked only once." in page
    assert client.get(link_path(token)).status_code == 404  # used up


@pytest.mark.parametrize("form, field, message", [
    ({"password": "lantern-bearer", "repeat": "lantern-bearers"}, "repeat", "The two new passwords differ"),
    ({"password": "short", "repeat": "short"}, "password", "Use at least 8 characters."),
])
def test_bad_new_password_is_refused_at_its_field(client, dbconn, form, field, message):
    """Bad input: the message sits under the field at fault (422) and no password is stored."""
    from larp.services.accounts import ensure_first_organiser

    client.get(link_path(create_login_link(ensure_first_organiser())))
    response = client.post("/account", data=form)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(rf'name="{field}"[^>]*>(</label>)?\s*<p class="field-error" role="alert">{message}', html)
    assert user("organiser").password_hash is None


def test_set_then_change_own_password(client, dbconn):
    """Set a password after a link login; changing it later needs the current one."""
    from larp.services.accounts import ensure_first_organiser

    client.get(link_path(create_login_link(ensure_first_organiser())))
    assert client.post("/account", data={"password": "lantern-bearer", "repeat": "lantern-bearer"}).status_code == 303
    assert check_password_hash(user("organiser").password_hash, "lantern-bearer")
    wrong = client.post("/account", data={"current": "guess-work", "password": "new-lantern", "repeat": "new-lantern"})
    assert wrong.status_code == 422
    assert "That is not your current password." in wrong.get_data(as_text=True)
    assert check_password_hash(user("organiser").password_hash, "lantern-bearer")
    assert client.post("/account", data={"current": "lantern-bearer", "password": "new-lantern",
                                         "repeat": "new-lantern"}).status_code == 303
    client.post("/logout")
    assert client.post("/login", data={"username": "organiser", "password": "new-lantern"}).status_code == 303


def test_organiser_creates_a_narrator_who_can_log_in(app, client, auth, dbconn):
    """Users page: create a narrator with a password; a taken or malformed name is refused."""
    auth.login("org", "organiser")
    response = client.post("/users", data={"username": "Mira", "display_name": "Mira", "role": "narrator",
                                           "password": "storyteller-9"})
    assert response.status_code == 303
    assert (user("mira").role, user("mira").display_name) == ("narrator", "Mira")
    assert "Created narrator mira." in client.get("/users").get_data(as_text=True)
    count = User.select().count()
    taken = client.post("/users", data={"username": "mira", "role": "narrator"})
    assert taken.status_code == 409 and "The user name mira is taken." in taken.get_data(as_text=True)
    bad = client.post("/users", data={"username": "no spaces!", "role": "narrator"})
    assert bad.status_code == 422 and "A user name is letters, digits" in bad.get_data(as_text=True)
    assert User.select().count() == count
    narrator = app.test_client()
    assert narrator.post("/login", data={"username": "mira", "password": "storyteller-9"}).status_code == 303
    assert narrator.get("/users").status_code == 403


def test_one_time_login_link_shown_on_screen(app, client, auth, dbconn):
    """An organiser issues a login link for an account without a password: shown once on the
    page (only its hash is stored); it logs the narrator in once and asks for a password."""
    auth.login("org", "organiser")
    client.post("/users", data={"username": "nils", "role": "narrator"})
    response = client.post(f"/users/{user('nils').id}/login-link")
    html = response.get_data(as_text=True)
    link = re.search(r'<code class="link-text">(http://localhost/login/link/[^<]+)</code>', html).group(1)
    token = link.rsplit("/", 1)[1]
    stored = LoginLink.get(LoginLink.user == user("nils"))
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()  # the link itself is not kept
    newcomer = app.test_client()
    assert newcomer.get(link.removeprefix("http://localhost")).headers["Location"] == "/account"
    assert "user name <code>nils</code> · narrator" in newcomer.get("/account").get_data(as_text=True)
    again = app.test_client().get(link.removeprefix("http://localhost"))
    assert again.status_code == 404


def test_deactivate_and_reactivate(app, client, auth, dbconn):
    """A deactivated narrator is out at the next click and cannot log in; an organiser cannot
    deactivate their own account (so an active organiser always remains)."""
    auth.login("org", "organiser")
    narrator = app.test_client()
    AuthActions(narrator).login("nadia", "narrator")
    assert narrator.get("/challenge").status_code == 200
    assert client.post(f"/users/{user('nadia').id}/deactivate").status_code == 303
    assert user("nadia").active is False
    assert narrator.get("/challenge").headers["Location"].startswith("/login")
    assert narrator.post("/login", data={"username": "nadia", "password": "correct horse"}).status_code == 401
    own = client.post(f"/users/{user('org').id}/deactivate")
    assert own.status_code == 409
    assert "You cannot deactivate your own account" in own.get_data(as_text=True)
    assert user("org").active is True
    assert client.post(f"/users/{user('nadia').id}/activate").status_code == 303
    assert narrator.post("/login", data={"username": "nadia", "password": "correct horse"}).status_code == 303


def test_login_lockout_after_repeated_wrong_passwords(tmp_path):
    """Three wrong passwords within the window lock the name, even against the right password, and
    from one address a made-up name locks alike (nothing reveals which names exist); the lock ends
    with the window. (The browser here never logged in as nadia, so it is a stranger to her name.)"""
    from larp.db import db

    app = make_test_app(tmp_path, LOGIN_LOCKOUT_FAILURES=3, LOGIN_LOCKOUT_MINUTES=15)
    with db.connection_context():
        from larp.services.accounts import create_user

        nadia = create_user("nadia", "Nadia", "narrator", "correct horse")
    client = app.test_client()
    for _ in range(3):
        assert client.post("/login", data={"username": "nadia", "password": "wrong one"}).status_code == 401
    locked = client.post("/login", data={"username": "nadia", "password": "correct horse"})
    assert locked.status_code == 429
    assert ("Too many wrong passwords for nadia: wait 15 minutes, or ask an organiser for a one-time "
            "login link.") in locked.get_data(as_text=True)
    for _ in range(4):
        ghost = client.post("/login", data={"username": "ghost", "password": "x"})
    assert ghost.status_code == 429
    assert ghost.get_data(as_text=True).count("Too many wrong passwords for ghost: wait 15 minutes") == 1
    with db.connection_context():
        LoginFailure.update(window_start=utcnow() - timedelta(minutes=16), last_at=utcnow() - timedelta(minutes=16)
                            ).where((LoginFailure.scope == "user") & (LoginFailure.key == str(nadia.id))).execute()
    assert client.post("/login", data={"username": "nadia", "password": "correct horse"}).status_code == 303
    with db.connection_context():
        assert not LoginFailure.select().where((LoginFailure.scope == "user")
                                               & (LoginFailure.key == str(nadia.id))).exists()


def test_create_user_command(app, runner, dbconn):
    """`larp create-user` makes an account from the server's console; a taken name is refused."""
    result = runner.invoke(main, ["create-user", "nina", "--role", "narrator", "--name", "Nina",
                                  "--password", "long-enough-pw"])
    assert result.exit_code == 0, result.output
    assert "Created narrator nina in “Nights of Ashford (demo)”." in result.output
    assert check_password_hash(user("nina").password_hash, "long-enough-pw")
    again = runner.invoke(main, ["create-user", "nina", "--password", "long-enough-pw"])
    assert again.exit_code == 1 and "The user name nina is taken." in again.output
    short = runner.invoke(main, ["create-user", "otto", "--password", "short"])
    assert short.exit_code == 1 and "Use at least 8 characters." in short.output
    assert User.select().where(User.username == "otto").count() == 0
    link = runner.invoke(main, ["login-link", "nina", "--base-url", "http://10.0.0.5:8080"])
    assert link.exit_code == 0
    url = re.search(r"http://10\.0\.0\.5:8080(/login/link/\S+)", link.output).group(1)
    assert app.test_client().get(url).headers["Location"] == "/"
