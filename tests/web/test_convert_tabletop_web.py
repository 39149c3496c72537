"""Issue 30 item 7: "Convert from tabletop" on the character sheet shows each converted value before it is saved
(LotNR Converting Characters, met-reference 4.3, T25; the torpor length at the converted Morality, 5.2, T20)."""

from __future__ import annotations

from larp.models import Character, Ruling


def test_each_converted_value_is_shown_then_saved(client, auth, dbconn):
    """Konrad's tabletop dots: Strength 3, Dexterity 1 (no Traits, a Negative Physical Trait owed), Stamina 4,
    Willpower 7 (one Trait per two dots, rounded up: 4) and Humanity 7 (MET 4: a week's torpor on LotNR's table,
    T20). The preview shows each value and changes nothing; Save writes Willpower 4 and Humanity 4 as one
    recorded sheet change; a save from a preview of an older version is refused (409) and writes nothing."""
    auth.login("organiser1", "organiser")
    konrad = Character.get(Character.name == "Konrad Vale")
    Character.update(tabletop={"Strength": 3, "Dexterity": 1, "Stamina": 4, "Willpower": 7,
                               konrad.morality_name or "Humanity": 7}).where(Character.id == konrad.id).execute()
    before = Character.get_by_id(konrad.id)
    sheet = client.get(f"/characters/{konrad.id}/edit").get_data(as_text=True)
    assert f"/characters/{konrad.id}/convert-tabletop" in sheet and "Convert from tabletop" in sheet
    page = client.get(f"/characters/{konrad.id}/convert-tabletop")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "<th scope=\"row\">Physical Traits</th><td>5</td>" in body  # 2 + 0 + 3
    assert "Negative Physical Traits owed</th><td>1 (Dexterity at 0 or 1)" in body
    assert "Willpower (permanent)</th><td><strong>4</strong></td>" in body
    assert "Humanity or Path</th><td><strong>4</strong></td>" in body
    assert "Torpor from wounds</th><td>a week</td>" in body
    assert Character.get_by_id(konrad.id).willpower_permanent == before.willpower_permanent  # nothing saved yet
    rulings = Ruling.select().count()
    stale = client.post(f"/characters/{konrad.id}/convert-tabletop", data={"version": before.version - 1})
    assert stale.status_code == 409
    assert Ruling.select().count() == rulings and Character.get_by_id(konrad.id).version == before.version
    saved = client.post(f"/characters/{konrad.id}/convert-tabletop", data={"version": before.version})
    assert saved.status_code == 303, saved.get_data(as_text=True)[:400]
    after = Character.get_by_id(konrad.id)
    assert (after.willpower_permanent, after.morality_rating) == (4, 4)
    record = Ruling.select().order_by(Ruling.id.desc()).get()
    assert record.kind == "sheet"


def test_a_character_without_tabletop_ratings_is_told_so(client, auth, dbconn):
    """No tabletop ratings: the page says where to enter them (422), and nothing is offered for saving."""
    auth.login()
    pim = Character.get(Character.name == "Pim Halloran")
    Character.update(tabletop={}).where(Character.id == pim.id).execute()
    page = client.get(f"/characters/{pim.id}/convert-tabletop")
    assert page.status_code == 422 and "has no tabletop ratings" in page.get_data(as_text=True)
    assert client.get("/characters/99999/convert-tabletop").status_code == 404
