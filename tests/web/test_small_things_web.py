"""Issue 18's small things: rulings in the chronicle's local time, `larp login-link` at the address the
server uses, and the README calling the organiser's page what the app calls it."""

from __future__ import annotations

import os
import re
import time
from datetime import datetime
from pathlib import Path

import pytest

from larp.cli import main
from larp.models import Character, Ruling
from larp.rules.explain import RulesError
from larp.rules.settings import setting_definitions
from larp.services.chronicles import chronicle_settings, get_chronicle, local_time
from tests.support import fresh_database_url

ROOT = Path(__file__).resolve().parents[2]


def test_the_time_zone_setting_is_documented_and_checked():
    """Issue 18 / developers' guide "a chronicle setting with a documented default": ``time_zone`` in
    data/settings/record.toml, default empty (the computer's own zone), an IANA name or a clear error."""
    definition = setting_definitions()["time_zone"]
    assert definition.family == "record" and definition.default == ""
    assert "UTC" in definition.help and definition.source
    assert definition.coerce(" Europe/Berlin ") == "Europe/Berlin"
    assert definition.coerce("") == ""
    with pytest.raises(RulesError) as refused:
        definition.coerce("Mars/Olympus_Mons")
    assert "is not a time zone" in refused.value.message and refused.value.field == "time_zone"


def test_local_time_follows_the_zone_and_its_summer_time():
    """A stored UTC time in Europe/Berlin: 19:05 UTC is 21:05 in July (CEST) and 20:05 in January (CET)."""
    assert local_time(datetime(2026, 7, 1, 19, 5), "Europe/Berlin").strftime("%H:%M") == "21:05"
    assert local_time(datetime(2026, 1, 15, 19, 5), "Europe/Berlin").strftime("%H:%M") == "20:05"


def test_an_empty_time_zone_is_the_computers_own():
    """The default (empty) shows the time of the computer larp runs on, with its own summer-time rule."""
    saved = os.environ.get("TZ")
    os.environ["TZ"] = "America/New_York"
    time.tzset()
    try:
        assert local_time(datetime(2026, 7, 1, 19, 5), "").strftime("%H:%M") == "15:05"
        assert local_time(datetime(2026, 1, 15, 19, 5), "").strftime("%H:%M") == "14:05"
    finally:
        if saved is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = saved
        time.tzset()


def test_rulings_are_shown_in_the_chronicles_time_zone_and_stored_in_utc(client, auth, dbconn):
    """Issue 18 point 10: with the chronicle set to Europe/Berlin, a ruling recorded at 19:05 UTC on
    1 July reads 21:05 in the record and on its own page (no "UTC"), and the record still holds 19:05."""
    auth.login("org", "organiser")
    assert client.post("/settings", data={"time_zone": "Europe/Berlin"}).status_code == 303
    assert chronicle_settings(get_chronicle())["time_zone"] == "Europe/Berlin"
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    assert client.post(f"/characters/{viv.id}/damage", data={"damage_type": "lethal", "levels": "1"}).status_code == 303
    ruling = Ruling.select().order_by(Ruling.id.desc()).first()
    assert ruling.kind == "damage"
    Ruling.update(created_at=datetime(2026, 7, 1, 19, 5)).where(Ruling.id == ruling.id).execute()

    listed = client.get("/rulings").get_data(as_text=True)
    assert f"#{ruling.id} · 2026-07-01 21:05" in listed  # one date-and-time shape on every organiser page (s7)
    shown = client.get(f"/rulings/{ruling.id}").get_data(as_text=True)
    assert re.search(rf"Recorded as ruling #{ruling.id}, 2026-07-01 21:05[,.]", shown), shown  # its day too (s7)
    assert "UTC" not in shown
    history = client.get(f"/characters/{viv.id}/history").get_data(as_text=True)
    assert "2026-07-01 21:05" in history
    assert Ruling.get_by_id(ruling.id).created_at == datetime(2026, 7, 1, 19, 5)


def test_a_wrong_time_zone_is_refused_by_the_settings_page(client, auth, dbconn):
    """A name the time zone database does not know is shown by the field, and nothing is saved."""
    auth.login("org", "organiser")
    response = client.post("/settings", data={"time_zone": "Europe/Atlantis"})
    assert response.status_code == 422
    assert "is not a time zone" in response.get_data(as_text=True)
    assert chronicle_settings(get_chronicle())["time_zone"] == ""


def test_login_link_prints_the_addresses_the_server_announced(tmp_path, monkeypatch):
    """Issue 18 point 10: after `larp serve --host 0.0.0.0 --port 9123` (waitress stubbed out), `larp
    login-link` in the same instance folder prints the link at 127.0.0.1:9123 and at the LAN address, as
    the server's console did; an explicit --base-url still wins."""
    from click.testing import CliRunner

    from larp import serving

    monkeypatch.setenv("LARP_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("LARP_DATABASE_URL", fresh_database_url(tmp_path))
    monkeypatch.setattr("larp.cli.lan_address", lambda: "192.168.1.20")
    served = {}
    monkeypatch.setattr(serving, "serve", lambda app, **options: served.update(options))
    runner = CliRunner()
    started = runner.invoke(main, ["serve", "--host", "0.0.0.0", "--port", "9123"])
    assert started.exit_code == 0, started.output
    assert served["host"] == "0.0.0.0" and served["port"] == 9123
    assert "serving on http://127.0.0.1:9123, http://192.168.1.20:9123" in started.output

    printed = runner.invoke(main, ["login-link"])
    assert printed.exit_code == 0, printed.output
    links = re.findall(r"(http://\S+)/login/link/(\S+)", printed.output)
    assert [base for base, _ in links] == ["http://127.0.0.1:9123", "http://192.168.1.20:9123"]
    assert links[0][1] == links[1][1]  # one token, two addresses

    explicit = runner.invoke(main, ["login-link", "--base-url", "http://event.local:8080/"])
    assert re.findall(r"(http://\S+)/login/link/", explicit.output) == ["http://event.local:8080"]


def test_login_link_without_a_server_record_keeps_the_default(runner):
    """No `larp serve` has run in this instance folder: the link is at the documented default address."""
    printed = runner.invoke(args=["login-link"])
    assert re.findall(r"(http://\S+)/login/link/", printed.output) == ["http://127.0.0.1:8080"]


def test_the_readme_calls_the_organisers_page_what_the_app_calls_it(client, auth):
    """Issue 18 point 10: the README said "Board" for the page the app calls "Between game sessions"; now
    the README, the Organise tile, the page's title and its heading all say the same."""
    from larp.web.organise import TOOLS

    title = next(t for endpoint, t, _ in TOOLS if endpoint == "between_sessions.page")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"**{title}** (`/board`)" in readme
    assert not re.search(r"\bBoard\b", readme)
    auth.login("org", "organiser")
    page = client.get("/board").get_data(as_text=True)
    assert f"<title>{title} ·" in page and f"<h1>{title}</h1>" in page
    assert title in client.get("/organise").get_data(as_text=True)
