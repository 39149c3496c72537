"""The app's foundations (issue 2): the database, the first start, the console login link."""

from __future__ import annotations

import os

import pytest

from larp.db import db
from larp.models import Character, Chronicle, GameSession, LoginLink, User


@pytest.mark.skipif(bool(os.environ.get("LARP_TEST_DATABASE_URL")), reason="SQLite pragmas; the suite runs on PostgreSQL")
def test_sqlite_uses_wal_and_foreign_keys(dbconn):
    assert db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1


def test_first_start_loads_the_demo_chronicle_once(app, dbconn):
    """At least 8 original characters: vampires with and without Celerity, Potence and Fortitude,
    a ghoul and a mortal; an open game session."""
    assert Chronicle.select().count() == 1
    characters = list(Character.select())
    assert len(characters) >= 8
    creatures = {c.creature for c in characters}
    assert {"vampire", "ghoul", "mortal"} <= creatures
    from larp.models import Power

    def holders(discipline):
        return {p.character.name for p in Power.select().where(Power.discipline == discipline)}

    vampires = {c.name for c in characters if c.creature == "vampire"}
    for discipline in ("Celerity", "Potence", "Fortitude"):
        assert holders(discipline) & vampires
        assert vampires - holders(discipline)
    assert GameSession.select().where(GameSession.closed_at.is_null()).count() == 1
    from larp.services.demo import ensure_demo_chronicle

    assert ensure_demo_chronicle() is None  # a second start loads nothing
    assert Character.select().count() == len(characters)


def test_demo_characters_carry_the_worked_examples_numbers(dbconn):
    """Seed 000: Veronica (Strength 1, Stamina 2), Kincaid (Strength 4, Potence 2, Stamina 4,
    Fortitude 1), Liselle (Stamina 3, Fortitude 1, Dexterity 3, Brawl 2, Dodge 3)."""
    from larp.services.sheet_store import sheet_of

    viv = sheet_of(Character.get(Character.name == "Vivienne Ashcombe"))
    kon = sheet_of(Character.get(Character.name == "Konrad Vale"))
    lys = sheet_of(Character.get(Character.name == "Lys Moreau"))
    assert (viv.tabletop["Strength"], viv.tabletop["Stamina"]) == (1, 2)
    assert (kon.tabletop["Strength"], kon.discipline_level("Potence"), kon.tabletop["Stamina"],
            kon.discipline_level("Fortitude"), kon.tabletop["Dexterity"], kon.abilities["Firearms"]) == (4, 2, 4, 1, 4, 3)
    assert (lys.tabletop["Stamina"], lys.discipline_level("Fortitude"), lys.tabletop["Dexterity"],
            lys.abilities["Brawl"], lys.abilities["Dodge"]) == (3, 1, 3, 2, 3)


def test_blood_pool_comes_from_the_generation_table(dbconn):
    """LotNR generation table (met-reference 5.1): 10th generation 13 blood, 1 per turn; 7th 20, 5."""
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    prince = Character.get(Character.name == "Aldous Whitmore")
    assert (viv.generation, viv.blood_max, viv.blood_per_turn) == (10, 13, 1)
    assert (prince.generation, prince.blood_max, prince.blood_per_turn) == (7, 20, 5)


def test_login_link_is_one_time(client, runner, dbconn):
    result = runner.invoke(args=["login-link", "--base-url", "http://event.local:8080"])
    assert result.exit_code == 0
    link = next(line.strip() for line in result.output.splitlines() if "/login/link/" in line)
    assert link.startswith("http://event.local:8080/login/link/")
    path = link.split("8080", 1)[1]
    assert client.get(path).status_code == 303
    assert client.get("/challenge").status_code == 200
    client.post("/logout")
    again = client.get(path)
    assert again.status_code == 404
    assert "already used or has expired" in again.get_data(as_text=True)
    assert User.get(User.username == "organiser").password_hash is None  # no default password
    assert LoginLink.select().count() == 1


def test_impossible_ids_are_a_plain_404(client, auth):
    """An id no database can hold, in a path or a query: a clear 404 or the page without it, never a 500."""
    auth.login()
    huge = "9" * 25
    assert client.get(f"/characters/{huge}").status_code == 404
    assert client.get(f"/rulings/{huge}").status_code == 404
    page = client.get(f"/challenge?challenger={huge}")
    assert page.status_code == 200 and "no such character" in page.get_data(as_text=True)
    assert client.get(f"/challenge?ruling={huge}").status_code == 200
