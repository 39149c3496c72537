"""Starting a chronicle (issue 14): `larp serve --empty`, naming it on the first page, removing the
demo, and an import that replaces the untouched demo (and is refused elsewhere, with the way to
replace), with every character value checked as the sheet editor checks it."""

from __future__ import annotations

import copy
import json
from datetime import date

import pytest

from larp.db import db
from larp.models import Character, Chronicle, GameSession, Ruling
from larp.services.chronicles import get_chronicle, untouched_demo
from larp.services.transfer import export_chronicle
from tests.support import AuthActions, make_test_app

DEMO = "Nights of Ashford (demo)"


@pytest.fixture
def source_export(app):
    """A played chronicle's export (another install's): renamed, a character's sheet edited."""
    from larp.services.sheets import edit_character

    with db.connection_context():
        chronicle = get_chronicle()
        Chronicle.update(name="Ashes of Prague").where(Chronicle.id == chronicle.id).execute()
        viv = Character.get(Character.name == "Vivienne Ashcombe")
        edit_character(get_chronicle(), None, viv.id, {"merits": [{"key": "acute_sense", "note": "Sight"}],
                                                        "weapons": [{"key": "knife"}]})
        data = export_chronicle(get_chronicle())
        get_chronicle().delete_instance(recursive=True)
    return data


def fresh_demo(tmp_path, **config):
    """Another install: a new database whose first start loaded the demo."""
    return make_test_app(tmp_path / "other", **config)


def test_larp_serve_empty_starts_an_empty_chronicle_named_on_the_first_page(tmp_path):
    """Issue 14: `larp serve --empty` starts with an empty chronicle whose name the organiser sets
    on the first page (with the date of the first game session)."""
    app = make_test_app(tmp_path, START_EMPTY=True)
    client = app.test_client()
    with db.connection_context():
        chronicle = get_chronicle()
        assert chronicle.needs_name and not chronicle.is_demo and Character.select().count() == 0
    AuthActions(client).login("boss", "organiser")
    response = client.get("/")
    assert response.status_code == 303 and response.headers["Location"].endswith("/start")
    assert client.post("/start", data={"name": ""}).status_code == 422
    response = client.post("/start", data={"name": "Nights of Lyon", "first_game": "2027-01-09"})
    assert response.status_code == 303
    with db.connection_context():
        chronicle = get_chronicle()
        assert (chronicle.name, chronicle.needs_name) == ("Nights of Lyon", False)
        assert GameSession.get(GameSession.chronicle == chronicle).date == date(2027, 1, 9)
    assert client.get("/").status_code == 200
    assert "No character yet" in client.get("/characters").get_data(as_text=True)


def test_empty_replaces_an_untouched_demo_and_keeps_a_played_one(tmp_path, capsys):
    """`larp serve --empty` on an install holding the untouched demo replaces it (its organiser
    organises the empty chronicle, issue 22); on a chronicle in use it changes nothing and says so."""
    from larp import create_app

    app = make_test_app(tmp_path)
    url = app.config["DATABASE_URL"]
    config = {k: app.config[k] for k in ("TESTING", "SECRET_KEY", "INSTANCE_PATH", "WTF_CSRF_ENABLED")}
    from larp.services.accounts import ensure_first_organiser
    from larp.services.memberships import role_in

    with db.connection_context():
        first = ensure_first_organiser()  # the demo's organiser
    create_app({**config, "DATABASE_URL": url, "START_EMPTY": True})
    assert "replaced the untouched demo" in capsys.readouterr().err
    with db.connection_context():
        assert get_chronicle().needs_name and Chronicle.select().count() == 1
        assert role_in(first, get_chronicle()) == "organiser"  # he keeps his chronicle
        from larp.services.chronicles import name_chronicle

        name_chronicle(get_chronicle(), "Kept")
    create_app({**config, "DATABASE_URL": url, "START_EMPTY": True})
    assert "--empty ignored" in capsys.readouterr().err
    with db.connection_context():
        assert get_chronicle().name == "Kept"


@pytest.mark.parametrize("touch", ["ruling", "setting", "sheet edit", "new character", "next session", "none"])
def test_untouched_demo_means_nothing_recorded_changed_or_played(app, dbconn, touch):
    """The definition of the untouched demo (larp.services.chronicles.untouched_demo): loaded as the
    demo, the only chronicle, no ruling of any kind, no setting changed, its one game session still
    open, no character changed. Each of these touches makes it a chronicle in use."""
    from larp.services.chronicles import set_setting
    from larp.services.sessions import close_and_open
    from larp.services.sheets import edit_character, new_character

    chronicle = get_chronicle()
    assert untouched_demo(chronicle)
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    if touch == "ruling":
        from larp.services.records import record_ruling

        record_ruling(chronicle, None, "damage", "a scratch", [], [(viv, "target")])
    elif touch == "setting":
        set_setting(chronicle, "bruised_levels", 2)
    elif touch == "sheet edit":
        edit_character(chronicle, None, viv.id, {"notes": "changed"})
    elif touch == "new character":
        new_character(chronicle, None, {"name": "Newcomer"})
    elif touch == "next session":
        close_and_open(chronicle, None, date.today())
    assert untouched_demo(get_chronicle()) == (touch == "none")


def test_larp_import_replaces_the_untouched_demo_and_the_app_shows_the_imported_chronicle(
        source_export, tmp_path):
    """Issue 14: importing an export into a fresh install (whose first `larp serve` made the demo)
    replaces the untouched demo, whose organiser organises the import (issue 22); after it every
    page shows the imported chronicle."""
    from larp.models import User
    from larp.services.memberships import role_in

    other = fresh_demo(tmp_path)
    client = other.test_client()
    AuthActions(client).login("boss", "organiser")  # an organiser of the demo
    path = tmp_path / "prague.json"
    path.write_text(json.dumps(source_export))
    result = other.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    assert "Replaced the demo chronicle “Nights of Ashford (demo)” (its members keep their roles, and its pages their addresses)" in result.output
    with db.connection_context():
        assert [c.name for c in Chronicle.select()] == ["Ashes of Prague"]
        assert role_in(User.get(User.username == "boss"), get_chronicle()) == "organiser"
        viv = Character.get(Character.name == "Vivienne Ashcombe")
        assert [m.key for m in viv.merit_flaw_rows] == ["acute_sense"] and viv.weapon == "knife"
    for url in ("/", "/board", f"/characters/{viv.id}", "/characters", "/organise"):
        response = client.get(url)
        assert response.status_code == 200 and "Ashes of Prague" in response.get_data(as_text=True), url
    assert client.get(f"/C/{viv.card_token}").status_code == 200


@pytest.mark.parametrize("change, field", [
    ({"condition": "banana"}, "condition"),
    ({"creature": "werewolf"}, "creature"),
    ({"damage_lethal": -2}, "damage_lethal"),
    ({"generation": 2}, "generation"),
    ({"staked": "yes"}, "staked"),
    ({"weapon": "lightsaber"}, "weapon"),
    ({"traits": [["physical", "Quick", 0, False]]}, "traits.physical.0.count"),
    ({"powers": [["Celerity", "Flight", 1, False]]}, "powers.0"),
    ({"short_code": "no code!"}, "short_code"),
])
def test_larp_import_checks_values_as_the_editor_does(source_export, tmp_path, change, field):
    """Issue 14 bad input: `larp import` refuses a condition "banana", a creature "werewolf",
    negative damage (which made four pages answer 500) and every sheet value the editor refuses;
    the message names the character and the field; nothing changes (the demo stays)."""
    other = fresh_demo(tmp_path)
    data = copy.deepcopy(source_export)
    data["characters"][2].update(change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = other.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code != 0
    name = source_export["characters"][2]["name"]
    assert f"Character 3 ({name})" in result.output and "Nothing was imported." in result.output
    with db.connection_context():
        assert [c.name for c in Chronicle.select()] == [DEMO] and untouched_demo(get_chronicle())
    from larp.services.import_checks import check_character

    with pytest.raises(Exception) as refused:
        check_character(data["characters"][2], 2, 2)
    assert refused.value.field == f"characters.2.{field}"


def test_the_organise_page_imports_over_the_demo_and_only_an_administrator_makes_a_new_chronicle(
        source_export, tmp_path):
    """Issues 14 and 22: the upload on the Organise page replaces the untouched demo (its organiser
    kept); a file named as a chronicle here is refused (409); a file that would make a new chronicle
    is refused to a plain organiser (403) and made for an administrator, who organises it; "replace"
    ticked with the name typed puts the file in this chronicle's place, its members and its address kept."""
    from io import BytesIO

    from larp.models import User
    from larp.services.memberships import role_in

    other = fresh_demo(tmp_path)
    client = other.test_client()
    AuthActions(client).login("boss", "organiser")
    assert "the import replaces it" in client.get("/organise/import").get_data(as_text=True)

    def upload(name="Ashes of Prague", **fields):
        data = {**source_export, "chronicle": {**source_export["chronicle"], "name": name}}
        return client.post("/organise/import", data={"file": (BytesIO(json.dumps(data).encode()), "prague.json"),
                                                     **fields}, content_type="multipart/form-data")

    def boss_in(name):
        with db.connection_context():
            return role_in(User.get(User.username == "boss"), Chronicle.get(Chronicle.name == name))

    response = upload()
    with db.connection_context():
        prague = Chronicle.get(Chronicle.name == "Ashes of Prague")
        assert Chronicle.select().count() == 1
        viv = Character.get(Character.name == "Vivienne Ashcombe")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/chronicles/{prague.id}/organise")
    assert boss_in("Ashes of Prague") == "organiser"
    client.post(f"/characters/{viv.id}/damage", data={"damage_type": "bashing", "levels": "1"})
    clash = upload()
    assert clash.status_code == 409 and "is already on this install" in clash.get_data(as_text=True)
    refused = upload("Ashes of Brno")
    assert refused.status_code == 403 and "only an administrator" in refused.get_data(as_text=True)
    assert upload(replace="yes", confirm_name="wrong").status_code == 422
    replaced = upload(replace="yes", confirm_name="Ashes of Prague")
    assert replaced.status_code == 303 and replaced.headers["Location"].endswith(f"/chronicles/{prague.id}/organise")
    with db.connection_context():
        assert Ruling.select().where(Ruling.kind == "damage").count() == 0  # the file's state, not the played one
        assert [c.id for c in Chronicle.select()] == [prague.id]  # its address kept (new user 12)
    for page in ("challenge", "board", "characters", "rulings"):  # a tablet left open on it goes on
        assert client.get(f"/chronicles/{prague.id}/{page}").status_code == 200, page
    with db.connection_context():
        User.update(is_admin=True).where(User.username == "boss").execute()
    assert boss_in("Ashes of Prague") == "organiser"
    made = upload("Ashes of Brno")
    assert made.status_code == 303
    with db.connection_context():
        brno = Chronicle.get(Chronicle.name == "Ashes of Brno")
        assert Chronicle.select().count() == 2
    assert made.headers["Location"].endswith(f"/chronicles/{brno.id}/organise")
    assert boss_in("Ashes of Brno") == "organiser"
    assert "Ashes of Brno" in client.get(f"/chronicles/{brno.id}/organise").get_data(as_text=True)


def test_an_organiser_removes_the_demo_and_it_never_comes_back(app, client, auth, tmp_path):
    """Issue 14: an organiser can remove the demo chronicle, with a confirmation, at any time; an
    empty chronicle to name takes its place, still his (issue 22), and a restart does not load the
    demo again."""
    from larp import create_app

    auth.login("boss", "organiser")
    assert "Remove the demo" in client.get("/organise").get_data(as_text=True)
    assert client.post("/organise/remove-demo", data={}).status_code == 422
    response = client.post("/organise/remove-demo", data={"confirm": "yes"})
    assert response.status_code == 303 and response.headers["Location"].endswith("/start")
    with db.connection_context():
        assert Character.select().count() == 0 and get_chronicle().needs_name
        from larp.models import User
        from larp.services.memberships import role_in

        assert role_in(User.get(User.username == "boss"), get_chronicle()) == "organiser"  # he keeps his chronicle
    create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": app.config["DATABASE_URL"],
                "INSTANCE_PATH": app.config["INSTANCE_PATH"], "LOAD_DEMO": True})
    with db.connection_context():
        assert Character.select().count() == 0 and Chronicle.select().count() == 1
