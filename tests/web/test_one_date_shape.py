"""Organiser pages say a moment in one shape and a day in one shape (new user 11): a date and time as the
record's ``2026-07-01 21:05`` in English and ``01/07/2026 21:05`` in Portuguese (the ``local_time`` filter's
default), a day as ``2026-07-02`` / ``02/07/2026`` (the ``local_day`` filter's), both in the chronicle's time
zone; refusals that name a day say it the reader's way too. Forms' date inputs stay ISO."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal

from larp.models import Character, ExperienceEntry, Ruling

PT = {"Accept-Language": "pt-BR"}


def _berlin(client, auth):
    auth.login("org", "organiser")
    assert client.post("/settings", data={"time_zone": "Europe/Berlin"}).status_code == 303


def test_the_record_lists_a_ruling_as_a_date_and_time(client, auth, dbconn):
    """A ruling made 19:05 UTC on 1 July reads 21:05 in Berlin, with its date, the same shape as the character's
    history; no "01 Jul" short form."""
    _berlin(client, auth)
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    client.post(f"/characters/{viv.id}/damage", data={"damage_type": "lethal", "levels": "1"})
    ruling = Ruling.select().order_by(Ruling.id.desc()).first()
    Ruling.update(created_at=datetime(2026, 7, 1, 19, 5)).where(Ruling.id == ruling.id).execute()
    listed = client.get("/rulings").get_data(as_text=True)
    assert f"#{ruling.id} · 2026-07-01 21:05" in listed and "01 Jul" not in listed
    assert f"#{ruling.id} · 01/07/2026 21:05" in client.get("/rulings", headers=PT).get_data(as_text=True)
    assert "2026-07-01 21:05" in client.get(f"/characters/{viv.id}/history").get_data(as_text=True)


def test_the_experience_log_gives_the_chronicles_day(client, auth, dbconn):
    """A line logged at 23:30 UTC on 1 July was logged on 2 July in Berlin: the sheet editor's log says that day
    (it said the UTC day before)."""
    _berlin(client, auth)
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    ExperienceEntry.create(character=viv, kind="earned", amount=Decimal("1"), what="Costume",
                           created_at=datetime(2026, 7, 1, 23, 30))
    page = client.get(f"/characters/{viv.id}/edit").get_data(as_text=True)
    line = page[page.index("Costume"):][:400]
    assert "2026-07-02" in line and "2026-07-01" not in line
    line = client.get(f"/characters/{viv.id}/edit", headers=PT).get_data(as_text=True)
    assert "02/07/2026" in line[line.index("Costume"):][:400]


def test_a_refusal_names_its_days_the_readers_way(client, auth, dbconn):
    """Opening the next game session before the last one's date is refused with both days said as the page
    says them (Portuguese: dd/mm/yyyy), not ISO."""
    auth.login("org", "organiser")
    board = client.get("/board").get_data(as_text=True)
    closing = re.search(r'name="closing" value="(\d+)"', board)
    data = {"date": "2000-01-01"}
    if closing:
        data.update(closing=closing.group(1), confirm="on")
    refused = client.post("/board/next-session", data=data, headers=PT).get_data(as_text=True)
    assert "01/01/2000" in refused and "2000-01-01" not in refused.replace('value="2000-01-01"', "")
