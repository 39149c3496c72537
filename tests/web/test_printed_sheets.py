"""Printed character sheets that know when they are out of date (issue 34): the sheet's content
against the character, its edition (a change of the sheet raises it, damage and healing never do),
the QR code with the edition and what a scan of an old sheet says, the print list that remembers
each print, both papers, what is never printed, and the edition through export, import and the
migration. The PDF itself (page count, text, QR code) is printed in Chromium by
``tests/e2e/test_printed_sheets_browser.py``."""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from larp.db import db
from larp.models import Character, Chronicle, ChronicleSetting, GameSession, Ruling, TraitLoss, User, utcnow
from larp.services.checkins import check_in
from larp.services.editions import edition_history, short_change
from larp.services.imports import apply_import, preview_file
from larp.services.sheet_store import sheet_of
from larp.services.experience import record_experience
from larp.services.sheets import edit_character, new_character
from larp.services.transfer import export_chronicle, import_chronicle
from tests.support import SHARED
from tests.web.sheet_fixtures import FULL
from tests.web.test_cards_web import decode_svg
from tests.web.test_challenge_web import post

SABBAT = SHARED / "real-data" / "grapevine" / "vampires_sabbat.gex"


@pytest.fixture
def organiser(client, auth):
    auth.login("boss", "organiser")
    return client


def boss() -> User:
    return User.get(User.username == "boss")


def chronicle() -> Chronicle:
    return Chronicle.select().order_by(Chronicle.id).first()


def fresh(character: Character) -> Character:
    return Character.get_by_id(character.id)


def make_mara() -> Character:
    """FULL's every-field sheet as a new character (edition 1), with an experience log: 5 earned, 2 spent."""
    mara, _ = new_character(chronicle(), boss(), FULL)
    record_experience(chronicle(), boss(), mara.id, "earned", "5", "three game sessions")
    record_experience(chronicle(), boss(), mara.id, "spent", "2", "Brawl 3")
    return fresh(mara)


def article_text(page: str, name: str) -> str:
    """The text of the printed sheet of ``name`` on a print page (tags dropped, spaces collapsed)."""
    found = re.search(r'<article class="ps[^"]*" aria-label="Sheet of %s">(.*?)</article>' % re.escape(name), page, re.S)
    assert found, f"no printed sheet of {name}"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def printed(client, *characters: Character, **query) -> str:
    params = "&".join([f"character={c.id}" for c in characters] + [f"{k}={v}" for k, v in query.items()])
    response = client.get(f"/sheets/print?{params}")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def traits_with(character: Character, category: str, name: str, more: int = 1) -> dict:
    """``character``'s Traits with ``more`` of ``name`` in ``category`` (as the editor saves them)."""
    traits = sheet_of(character).to_dict()["traits"]
    for entry in traits[category]:
        if entry["name"] == name:
            entry["count"] += more
            break
    else:
        traits[category].append({"name": name, "count": more})
    return {"traits": traits}


def test_the_printed_sheet_is_the_permanent_sheet(organiser, dbconn):
    """Item 1: every part of the permanent sheet, with its numbers, is printed; tonight's damage and
    Traits lost are not (the health chart's boxes stay blank, Quick stays ×2)."""
    mara = make_mara()
    session = GameSession.get((GameSession.chronicle == chronicle()) & GameSession.closed_at.is_null())
    TraitLoss.create(character=mara, game_session=session, category="physical", name="Quick", count=1)
    # Six lethal: her armor (three levels) takes the first, the track the rest.
    assert organiser.post(f"/characters/{mara.id}/damage", data={"damage_type": "lethal", "levels": "6"}).status_code == 303
    assert fresh(mara).damage_lethal >= 2
    page = printed(organiser, mara)
    text = article_text(page, "Mara Quill")
    for expected in (
        "Mara Quill", "Vampire · Brujah · Anarch · Whip · 11th generation", "Player: Jo Hart",
        "Nature: Rebel · Demeanor: Bravo",
        "Willpower 4", "Humanity 3", "Blood pool 14 · 2 a turn", "Conscience 2 · Self-Control 3 · Courage 4",
        "Physical 3", "Quick ×2", "Brawny", "Negative: Clumsy", "Social 2", "Charming", "Scowling",
        "Mental 3", "Alert ×3", "Negative: Violent ×2",
        "Abilities 3", "Brawl 3", "Melee 2 (Knives, Two-Weapon (Florentine))", "Streetwise 1",
        "Celerity: Alacrity (1)", "Potence: Prowess (1)", "Presence: Majestic Glare (6, custom)",
        "Allies 2", "Resources 1", "Acute Sense (Hearing) 1", "Ambidextrous 1", "Street Cred 2",
        "Enemy (the Sheriff) 3", "Paranoia",
        "Knife (boot) +2 1 lethal Short Speed", "Tire iron +2 1 bashing Heavy —",
        "Ballistic vest 2 levels torso Heavy", "Biker leathers (patched) 1 level arms, legs —",
        "Earned 5 · spent 2 · unspent 3", "Strength 3 · Dexterity 3", "Willpower 5",
        "Rides a Triumph.", f"Code {mara.short_code}", "as of", "sheet edition 3",
    ):
        assert expected in text, expected
    # The health chart: the chronicle's eight levels, all blank (tonight's lethal damage is not printed).
    sheet_html = re.search(r'aria-label="Sheet of Mara Quill">(.*?)</article>', page, re.S).group(1)
    chart = re.search(r'<ol class="ps-health">(.*?)</ol>', sheet_html, re.S).group(1)
    assert re.findall(r'class="ps-level">([^<]+)<', chart) == [
        "Healthy", "Healthy", "Bruised", "Bruised", "Bruised", "Wounded", "Wounded", "Incapacitated"]
    assert chart.count('class="ps-box big"></span>') == 8
    assert "lethal" not in chart and "lost" not in text and "Wounded" not in text.split("Health")[0]
    # One box per Willpower Trait and blood point, for pencil marks.
    assert re.search(r"Willpower <span class=\"ps-num\">4</span></h3><p class=\"ps-boxes\">((?:<span class=\"ps-box\"></span>)+)",
                     sheet_html).group(1).count("ps-box") == 4


def test_what_is_never_printed(organiser, client, auth, dbconn):
    """Item 6: narrator notes and contact details are never on a player's sheet; an organiser's
    copy holds the narrator notes when ticked, the contact details never. Narrators print nothing."""
    mara = make_mara()
    player = article_text(printed(organiser, mara), "Mara Quill")
    assert "Informs for the Sheriff" not in player and "jo@example.org" not in player
    assert "Narrator notes" not in player and "organiser's copy" not in player.lower()
    copy_page = printed(organiser, mara, narrator_notes="1")
    copy = article_text(copy_page, "Mara Quill")
    assert "Narrator notes (organiser's copy) Informs for the Sheriff." in copy
    assert "Organiser's copy: holds the narrator notes. Not for the player." in copy
    assert "jo@example.org" not in copy_page
    auth.logout()
    auth.login("mira", "narrator")
    for path in ("/sheets", f"/sheets/print?character={mara.id}"):
        assert client.get(path).status_code == 403
    assert client.post("/sheets/printed", data={"printed": f"{mara.id}:1", "as_of": "2026-01-01T20:00:00"}).status_code == 403


def test_the_qr_code_is_the_cards_address_with_the_edition(organiser, dbconn):
    """Item 3: the QR code is the card's address (its token unchanged) with ``/E<edition>``, upper case
    for a small code; a character without a card link gets a note instead of a code."""
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    record_experience(chronicle(), boss(), viv.id, "earned", "1", "attendance")
    page = printed(organiser, viv)
    svg = re.search(r'aria-label="Sheet of Vivienne Ashcombe">.*?(<svg.*?</svg>)', page, re.S).group(1)
    assert decode_svg(svg) == f"HTTP://LOCALHOST/C/{viv.card_token}/E2"
    Character.update(card_token=None, card_revoked_at=utcnow()).where(Character.id == viv.id).execute()
    text = article_text(printed(organiser, viv), "Vivienne Ashcombe")
    assert "No card link: revoked. Narrators: type the code." in text
    assert "<svg" not in re.search(r'aria-label="Sheet of Vivienne Ashcombe">(.*?)</article>',
                                   printed(organiser, viv), re.S).group(1)


def test_the_edition_counts_changes_of_the_sheet_never_damage_or_healing(organiser, dbconn):
    """Item 2: a sheet edit, an experience line, an undo of either and a Grapevine import rewriting a
    sheet each raise the edition by one; damage, healing, the weapon in hand and a challenge leave it
    (``Character.version`` rises with all of them)."""
    kon = Character.get(Character.name == "Konrad Vale")
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    assert kon.sheet_edition == 1
    edit_character(chronicle(), boss(), kon.id, traits_with(kon, "physical", "Brawny"))
    assert fresh(kon).sheet_edition == 2
    ruling = record_experience(chronicle(), boss(), kon.id, "earned", "2", "attendance").ruling
    assert fresh(kon).sheet_edition == 3
    assert organiser.post(f"/characters/{kon.id}/undo", data={"ruling": ruling.id, "confirm": "yes"}).status_code == 303
    assert fresh(kon).sheet_edition == 4  # the experience line taken back: the printed totals change
    _, edit = edit_character(chronicle(), boss(), kon.id, {"morality_rating": 2})
    assert fresh(kon).sheet_edition == 5
    assert organiser.post(f"/characters/{kon.id}/undo", data={"ruling": edit.id, "confirm": "yes"}).status_code == 303
    assert fresh(kon).sheet_edition == 6 and sheet_of(fresh(kon)).morality_rating == 3  # put back: a new edition
    version = fresh(kon).version
    # Rulings: damage, healing, the weapon in hand, a challenge.
    assert organiser.post(f"/characters/{kon.id}/damage", data={"damage_type": "bashing", "levels": "2"}).status_code == 303
    assert organiser.post(f"/characters/{kon.id}/heal", data={"kind": "bashing", "levels": "1"}).status_code == 303
    assert organiser.post(f"/characters/{kon.id}/equip", data={"weapon": "knife"}).status_code == 303
    response = post(organiser, challenger=viv.id, defender=kon.id, category="physical", challenger_bid="Quick",
                    defender_bid="Brawny", challenger_throw="rock", defender_throw="scissors", action="strike")
    assert response.status_code in (200, 303)
    assert Ruling.select().where(Ruling.kind == "challenge").count() == 1
    after = fresh(kon)
    assert after.version >= version + 4 and after.damage_bashing >= 1
    assert after.sheet_edition == 6 and fresh(viv).sheet_edition == 1
    # Each entry that made an edition says which (its outcome), and the History lists them in order.
    assert [entry.edition for entry in edition_history(after)] == [2, 3, 4, 5, 6]
    # A conversion: a Grapevine import that rewrites an existing character's sheet.
    data = SABBAT.read_bytes()
    chosen = lambda preview: {line.index for line in preview.lines if line.record.sheet.name == "NPCSGR1"}  # noqa: E731
    first = preview_file(chronicle(), SABBAT.name, data)
    apply_import(chronicle(), boss(), first, chosen(first))
    elder = Character.get(Character.name == "NPCSGR1")
    assert elder.sheet_edition == 1
    again = preview_file(chronicle(), SABBAT.name, data)
    assert {line.action for line in again.lines if line.index in chosen(again)} == {"update"}
    apply_import(chronicle(), boss(), again, chosen(again))
    assert fresh(elder).sheet_edition == 2


def test_a_narrator_scanning_an_old_sheet_reads_what_changed_since(organiser, client, auth, dbconn):
    """Item 3: scanned by a narrator or organiser, an old sheet's code says "This sheet is edition N;
    the character is now at edition M: changed since: +1 Brawny, Dominate: Command"; by anyone
    else, "a newer sheet exists"; the current edition says so; an old card without an edition
    opens as today; an address that is no edition is the card's plain 404."""
    kon = Character.get(Character.name == "Konrad Vale")
    token = kon.card_token
    edit_character(chronicle(), boss(), kon.id, traits_with(kon, "physical", "Brawny"))
    printed_edition = fresh(kon).sheet_edition  # 2: this sheet is printed now
    edit_character(chronicle(), boss(), kon.id, traits_with(fresh(kon), "physical", "Brawny"))
    powers = sheet_of(fresh(kon)).to_dict()["powers"] + [{"discipline": "Dominate", "power": "Command", "level": 1}]
    edit_character(chronicle(), boss(), kon.id, {"powers": powers})
    assert fresh(kon).sheet_edition == 4
    page = organiser.get(f"/C/{token}/E{printed_edition}").get_data(as_text=True)
    notice = " ".join(html.unescape(re.sub(r"<[^>]+>", "", re.search(
        r'<p class="sheet-notice[^"]*"[^>]*>(.*?)</p>', page, re.S).group(1))).split())
    assert notice == ("This sheet is edition 2; the character is now at edition 4: changed since: +1 Brawny, "
                      "Dominate: Command. History")
    assert "Start a challenge" in page  # the narrator's page, with the notice on top
    current = organiser.get(f"/C/{token}/E4").get_data(as_text=True)
    assert "This sheet is edition 4, the current one." in current and "newer sheet" not in current
    ahead = organiser.get(f"/C/{token}/E9").get_data(as_text=True)
    assert "This sheet says edition 9, but Konrad Vale's sheet is at edition 4" in html.unescape(ahead)
    plain = organiser.get(f"/C/{token}").get_data(as_text=True)
    assert "sheet-notice" not in plain and "Start a challenge" in plain
    # Anyone else: the player's page as today, with one line, and nothing of what changed.
    auth.logout()
    player = client.get(f"/C/{token}/E{printed_edition}").get_data(as_text=True)
    assert "A newer sheet exists: ask for a new print." in player
    assert "Brawny" not in re.search(r'<header class="player-head">(.*?)</header>', player, re.S).group(1)
    assert "changed since" not in player and "edition" not in player
    assert "newer sheet" not in client.get(f"/C/{token}/E4").get_data(as_text=True)
    assert "newer sheet" not in client.get(f"/c/{token.lower()}").get_data(as_text=True)
    for bad in ("E0", "X2", "E", "2", "E12345678901"):
        assert client.get(f"/C/{token}/{bad}").status_code == 404, bad
    # A revoked card revokes its printed sheets too: the token is the card's.
    auth.login("boss", "organiser")
    organiser.post(f"/cards/{kon.id}/revoke")
    auth.logout()
    assert client.get(f"/C/{token}/E4").status_code == 404


def test_changes_read_as_a_narrator_says_them():
    """The History's changes, short: Traits by how many, a new power by its name, the rest before → after."""
    assert short_change({"field": "traits.physical.Brawny", "label": "Physical Trait Brawny",
                         "before": "×1", "after": "×2"}) == "+1 Brawny"
    assert short_change({"field": "traits.mental.Alert", "label": "Mental Trait Alert",
                         "before": "×3", "after": "—"}) == "−3 Alert"
    assert short_change({"field": "negative_traits.social.Callous", "label": "Negative Social Trait Callous",
                         "before": "—", "after": "×1"}) == "+1 Callous (negative)"
    assert short_change({"field": "powers", "label": "Power Dominate: Command", "before": "—",
                         "after": "level 1"}) == "Dominate: Command"
    assert short_change({"field": "powers", "label": "Power Celerity: Alacrity", "before": "level 1",
                         "after": "—"}) == "−Celerity: Alacrity"
    assert short_change({"field": "abilities.Brawl", "label": "Ability Brawl", "before": "2", "after": "3"}) == \
        "Brawl 2 → 3"
    assert short_change({"field": "abilities.Occult", "label": "Ability Occult", "before": "—", "after": "1"}) == \
        "+Occult 1"
    assert short_change({"field": "willpower_permanent", "label": "Permanent Willpower", "before": "4",
                         "after": "5"}) == "Permanent Willpower: 4 → 5"


def test_the_print_list_remembers_each_print(organiser, dbconn):
    """Item 4: print a selection, or every sheet changed since its last print (never printed ones
    included, scene extras and retired characters left out); printing marks nothing until the
    organiser says the sheets came out; a mark only moves forward."""
    def in_play() -> list[Character]:
        return list(Character.select().where((Character.chronicle == chronicle()) & Character.retired_at.is_null()))

    names = sorted(c.name for c in in_play())
    listing = organiser.get("/sheets").get_data(as_text=True)
    assert f"Print every sheet changed since its last print ({len(names)})" in listing
    assert listing.count(">never printed<") == len(names)
    batch = organiser.get("/sheets/print?batch=changed").get_data(as_text=True)
    assert re.findall(r'aria-label="Sheet of ([^"]+)"', batch) == names  # by name
    assert Character.select().where(Character.sheet_printed_at.is_null(False)).count() == 0  # a GET marks nothing
    pairs = re.findall(r'name="printed" value="([^"]+)"', batch)
    as_of = re.search(r'name="as_of" value="([^"]+)"', batch).group(1)
    response = organiser.post("/sheets/printed", data={"printed": pairs, "as_of": as_of})
    assert response.status_code == 303
    assert f"Marked {len(names)} sheets as printed." in organiser.get("/sheets").get_data(as_text=True)
    stamped = datetime.fromisoformat(as_of)
    assert {(c.sheet_printed_edition, c.sheet_printed_at) for c in in_play()} == {(1, stamped)}
    # Nothing changed since: the batch is empty, and says so where the organiser looks.
    empty = organiser.get("/sheets/print?batch=changed")
    assert empty.status_code == 409
    assert "No sheet has changed since it was last printed" in empty.get_data(as_text=True)
    assert "Every printed sheet is the current edition" in organiser.get("/sheets").get_data(as_text=True)
    # A sheet edit puts that one character back in the batch; damage does not.
    kon = Character.get(Character.name == "Konrad Vale")
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    edit_character(chronicle(), boss(), kon.id, traits_with(kon, "social", "Charming"))
    organiser.post(f"/characters/{viv.id}/damage", data={"damage_type": "lethal", "levels": "1"})
    batch = organiser.get("/sheets/print?batch=changed").get_data(as_text=True)
    assert re.findall(r'aria-label="Sheet of ([^"]+)"', batch) == ["Konrad Vale"]
    assert "changed since its last print" in re.search(r'id="print-row-%d"(.*?)</li>' % kon.id,
                                                       organiser.get("/sheets").get_data(as_text=True), re.S).group(1)
    # Scene extras and retired characters are not in the batch; a selection prints an extra.
    organiser.post(f"/characters/{kon.id}/copy", data={"count": "2", "name": "Thug", "scene_extra": "on"})
    thug = Character.get(Character.name == "Thug 1")
    ruth = Character.get(Character.name == "Ruth Calder")
    organiser.post(f"/characters/{ruth.id}/retire")
    Character.update(sheet_printed_edition=None).where(Character.id == ruth.id).execute()
    batch = organiser.get("/sheets/print?batch=changed").get_data(as_text=True)
    assert re.findall(r'aria-label="Sheet of ([^"]+)"', batch) == ["Konrad Vale"]
    assert "Sheet of Thug 1" in printed(organiser, thug)
    # A mark only moves forward: an older print job marked late leaves the later print.
    later = stamped + timedelta(minutes=5)
    organiser.post("/sheets/printed", data={"printed": f"{kon.id}:2", "as_of": later.isoformat()})
    response = organiser.post("/sheets/printed", data={"printed": f"{kon.id}:1", "as_of": as_of})
    assert "1 had a later print already, which stays." in organiser.get("/sheets").get_data(as_text=True)
    assert (fresh(kon).sheet_printed_edition, fresh(kon).sheet_printed_at) == (2, later)


def test_print_every_character_checked_in_tonight(organiser, dbconn):
    """Issue 34's batch that waited for the door (issue 32): before anyone is checked in the batch is
    refused where the organiser looks; after two check-ins the print list offers them, and the batch
    prints exactly those two sheets, by name."""
    empty = organiser.get("/sheets/print?batch=tonight")
    assert empty.status_code == 409 and "No one is checked in tonight" in html.unescape(empty.get_data(as_text=True))
    assert "checked in tonight (" not in organiser.get("/sheets").get_data(as_text=True)
    chronicle = Chronicle.get()
    for name in ("Konrad Vale", "Lys Moreau"):
        check_in(chronicle, None, Character.get(Character.name == name).id)
    assert "Print every character checked in tonight (2)" in organiser.get("/sheets").get_data(as_text=True)
    batch = organiser.get("/sheets/print?batch=tonight").get_data(as_text=True)
    assert re.findall(r'aria-label="Sheet of ([^"]+)"', batch) == ["Konrad Vale", "Lys Moreau"]


@pytest.mark.parametrize("query, status, message", [
    ("", 422, "No character is ticked"),
    ("character=abc", 422, "Choose characters from the list."),
    ("character=99999", 422, "Some of the ticked characters are not in play in this chronicle."),
    ("batch=someday", 422, "There is no batch “someday” to print."),
])
def test_a_print_job_of_nothing_is_refused_where_the_organiser_looks(organiser, dbconn, query, status, message):
    """Nothing chosen, a foreign id, an unknown batch: the print list with the message, never a 500."""
    response = organiser.get(f"/sheets/print?{query}")
    assert response.status_code == status
    assert message in html.unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("form, message", [
    ({"as_of": "2026-01-01T20:00:00"}, "No sheet was in this print job."),
    ({"printed": "x:1", "as_of": "2026-01-01T20:00:00"}, "The list of printed sheets is damaged"),
    ({"printed": "1:1", "as_of": "tomorrow"}, "The print job's time is damaged"),
    ({"printed": "1:1", "as_of": "2999-01-01T20:00:00"}, "The print job's time is not a time of this server"),
    ({"printed": "1:9", "as_of": "2026-01-01T20:00:00"}, "has no edition 9 yet"),
    ({"printed": "99999:1", "as_of": "2026-01-01T20:00:00"}, "not of a character of this chronicle"),
])
def test_a_damaged_printed_form_marks_nothing(organiser, dbconn, form, message):
    """A damaged "mark as printed" form: 422 with why, and no sheet marked."""
    response = organiser.post("/sheets/printed", data=form)
    assert response.status_code == 422
    assert message in html.unescape(response.get_data(as_text=True))
    assert Character.select().where(Character.sheet_printed_at.is_null(False)).count() == 0


def test_both_papers_by_the_chronicle_setting(organiser, dbconn):
    """Item 1: laid out for A4 or US Letter by the chronicle setting ``sheet_paper`` (A4 by default);
    the print page switches one job to the other paper."""
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    assert 'class="ps paper-a4"' in printed(organiser, viv)
    response = organiser.post("/settings", data={"sheet_paper": "letter"})
    assert response.status_code in (200, 303), response.get_data(as_text=True)[:300]
    assert ChronicleSetting.get(ChronicleSetting.key == "sheet_paper").value == "letter"
    page = printed(organiser, viv)
    assert 'class="ps paper-letter"' in page and "Switch to A4" in page and "on US Letter" in page
    assert 'class="ps paper-a4"' in printed(organiser, viv, paper="a4")
    assert 'class="ps paper-letter"' in printed(organiser, viv, paper="folio")  # not a paper: the setting's
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "print-sheets.css").read_text()
    assert "@page ps-a4 { size: A4;" in css and "@page ps-letter { size: letter;" in css


def test_the_edition_and_last_print_go_through_export_and_import(organiser, dbconn):
    """The chronicle export carries each sheet's edition and last print, and an import restores them;
    an export from before editions gets each edition counted from its History (as migration 0014)."""
    kon = Character.get(Character.name == "Konrad Vale")
    edit_character(chronicle(), boss(), kon.id, traits_with(kon, "physical", "Brawny"))
    record_experience(chronicle(), boss(), kon.id, "earned", "1", "attendance")
    at = datetime(2026, 11, 29, 19, 30)
    Character.update(sheet_printed_edition=2, sheet_printed_at=at).where(Character.id == kon.id).execute()
    data = export_chronicle(chronicle())
    entry = next(c for c in data["characters"] if c["name"] == "Konrad Vale")
    assert (entry["sheet_edition"], entry["sheet_printed_edition"], entry["sheet_printed_at"]) == (3, 2, at.isoformat())
    restored, _ = import_chronicle(data, replace=chronicle())
    again = Character.get((Character.chronicle == restored) & (Character.name == "Konrad Vale"))
    assert (again.sheet_edition, again.sheet_printed_edition, again.sheet_printed_at) == (3, 2, at)
    assert export_chronicle(restored)["characters"] == data["characters"]
    for character in data["characters"]:
        for key in ("sheet_edition", "sheet_printed_at", "sheet_printed_edition"):
            character.pop(key)
    older, _ = import_chronicle(data, replace=restored)
    counted = Character.get((Character.chronicle == older) & (Character.name == "Konrad Vale"))
    assert (counted.sheet_edition, counted.sheet_printed_edition) == (3, None)


def test_the_migration_sets_each_edition_from_the_history(app, organiser, dbconn):
    """Migration 0014 on a database with a History: each character's edition is 1 plus his sheet
    edits, experience lines and their undos, as the app counts them from then on; damage, healing
    and the undo of damage count for nothing. (On both engines: run with LARP_TEST_DATABASE_URL.)"""
    from larp.schema import HISTORY_TABLE, upgrade

    kon = Character.get(Character.name == "Konrad Vale")
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    edit_character(chronicle(), boss(), kon.id, traits_with(kon, "physical", "Brawny"))
    ruling = record_experience(chronicle(), boss(), kon.id, "earned", "2", "attendance").ruling
    organiser.post(f"/characters/{kon.id}/undo", data={"ruling": ruling.id, "confirm": "yes"})
    organiser.post(f"/characters/{viv.id}/damage", data={"damage_type": "lethal", "levels": "1"})
    damage = Ruling.select().where(Ruling.kind == "damage").order_by(Ruling.id.desc()).first()
    organiser.post(f"/characters/{viv.id}/undo", data={"ruling": damage.id, "confirm": "yes"})
    edit_character(chronicle(), boss(), viv.id, {"notes": "New notes."})
    maintained = {c.id: c.sheet_edition for c in Character.select()}
    assert maintained[kon.id] == 4 and maintained[viv.id] == 2
    # The database as it was before 0014: without its columns and its line in the history.
    for column in ("sheet_edition", "sheet_printed_at", "sheet_printed_edition"):
        db.execute_sql(f'ALTER TABLE "character" DROP COLUMN {column}')
    db.execute_sql(f'DELETE FROM "{HISTORY_TABLE}" WHERE name = {db.param}', ("0014_sheet_editions",))
    report = upgrade(db, backup_dir=Path(app.instance_path))
    assert report.applied == ["0014_sheet_editions"]
    assert {c.id: c.sheet_edition for c in Character.select()} == maintained
    assert Character.select().where(Character.sheet_printed_at.is_null(False)).count() == 0
