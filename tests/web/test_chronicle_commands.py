"""The console commands on an install of several chronicles (issue 22): `larp create-user --admin
--chronicle NAME`, and `--chronicle NAME` on the commands that work on one chronicle
(import-grapevine, export-grapevine, demo-downtime); the board's download exports the request's chronicle."""

from __future__ import annotations

from datetime import date

import pytest

from larp.models import Character, Chronicle, Membership, User
from larp.services.memberships import create_chronicle, role_in
from tests.support import SHARED

ONE_OF_EACH = SHARED / "real-data" / "grapevine" / "one_of_each.gex"
DEMO = "Nights of Ashford (demo)"


@pytest.fixture
def lyon(app, dbconn):
    """A second chronicle beside the demo."""
    return create_chronicle("Nights of Lyon", date.today())


def test_create_user_admin_and_chronicle(runner, dbconn, lyon):
    """`larp create-user --chronicle NAME` makes a member of that chronicle with --role, `--admin` an
    administrator of the install; with several chronicles and no --chronicle it refuses, listing them,
    but for an administrator, who may be in no chronicle."""
    refused = runner.invoke(args=["create-user", "ana", "--password", "long-enough-pw"])
    assert refused.exit_code == 1 and "several chronicles" in refused.output
    assert f"“{DEMO}”, “Nights of Lyon”" in refused.output and not User.select().where(User.username == "ana").exists()
    made = runner.invoke(args=["create-user", "ana", "--role", "organiser", "--chronicle", "Nights of Lyon",
                               "--admin", "--password", "long-enough-pw"])
    assert made.exit_code == 0, made.output
    assert "Created organiser ana in “Nights of Lyon”, an administrator of the install." in made.output
    ana = User.get(User.username == "ana")
    assert ana.is_admin and role_in(ana, lyon) == "organiser" and role_in(ana, Chronicle.get(Chronicle.name == DEMO)) is None
    plain = runner.invoke(args=["create-user", "ben", "--chronicle", DEMO, "--password", "long-enough-pw"])
    assert plain.exit_code == 0, plain.output
    ben = User.get(User.username == "ben")
    assert not ben.is_admin and role_in(ben, Chronicle.get(Chronicle.name == DEMO)) == "narrator"
    assert role_in(ben, lyon) is None
    assert runner.invoke(args=["login-link", "ben", "--base-url", "http://h:1"]).exit_code == 0
    # An administrator needs no chronicle: with several and none named he is in none yet.
    boss = runner.invoke(args=["create-user", "cleo", "--admin", "--password", "long-enough-pw"])
    assert boss.exit_code == 0 and "Created administrator cleo, in no chronicle yet" in boss.output, boss.output
    cleo = User.get(User.username == "cleo")
    assert cleo.is_admin and not Membership.select().where(Membership.user == cleo).exists()


def test_grapevine_commands_work_on_the_chronicle_named(runner, dbconn, lyon, tmp_path):
    """`larp import-grapevine --chronicle NAME` puts the characters in that chronicle only, and
    `larp export-grapevine --chronicle NAME` writes that chronicle's; without a name, several
    chronicles are refused with their names."""
    demo = Chronicle.get(Chronicle.name == DEMO)
    demo_count = Character.select().where(Character.chronicle == demo).count()
    assert "several chronicles" in runner.invoke(args=["import-grapevine", "--yes", str(ONE_OF_EACH)]).output
    result = runner.invoke(args=["import-grapevine", "--yes", "--chronicle", "Nights of Lyon", str(ONE_OF_EACH)])
    assert result.exit_code == 0, result.output
    in_lyon = Character.select().where(Character.chronicle == lyon).count()
    assert in_lyon > 0 and Character.select().where(Character.chronicle == demo).count() == demo_count
    out = tmp_path / "lyon.gex"
    written = runner.invoke(args=["export-grapevine", "--chronicle", "Nights of Lyon", str(out)])
    assert written.exit_code == 0 and f"Exported {in_lyon} character" in written.output
    assert "Vivienne Ashcombe" not in out.read_bytes().decode("cp1252")
    assert runner.invoke(args=["demo-downtime", "--chronicle", "Nowhere"]).exit_code == 1


def test_the_board_download_exports_the_request_chronicle(app, client, auth, dbconn, lyon):
    """The board's download (board.export) exports the chronicle named in the URL, not another."""
    from larp.services.memberships import add_member

    auth.login("boss", "organiser")
    demo = Chronicle.get(Chronicle.name == DEMO)
    for chronicle in (demo, lyon):
        add_member(chronicle, User.get(User.username == "boss"), "organiser")
    lyon_file = client.get(f"/chronicles/{lyon.id}/board/export").get_json(force=True)
    demo_file = client.get(f"/chronicles/{demo.id}/board/export").get_json(force=True)
    assert lyon_file["chronicle"]["name"] == "Nights of Lyon" and lyon_file["characters"] == []
    assert demo_file["chronicle"]["name"] == DEMO and len(demo_file["characters"]) == 10
