"""The sheet editor (issue 14): every field through the forms, history and undo, copies and scene
extras, retire and restore, the delete rules, narrators' part, and bad input refused next to its
field with nothing saved."""

from __future__ import annotations

import re

import pytest

from larp.models import Character, ExperienceEntry, Ruling, RulingCharacter
from larp.services.chronicles import get_chronicle
from larp.services.sheet_store import sheet_of
from tests.web.sheet_fixtures import FULL, section_forms, seen_of, sheet_without_state


@pytest.fixture
def organiser(client, auth):
    auth.login("boss", "organiser")
    return client


def create(client, **fields) -> Character:
    """Create a character through the "New character" form; the character as stored."""
    data = {"name": "Anya Vey", "creature": "vampire", "generation": "12", "morality_name": "Humanity",
            "morality_rating": "4", "willpower_permanent": "3", **fields}
    response = client.post("/characters/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:800]
    return Character.get(Character.name == data["name"])


def save(client, character: Character, section: str, data: dict, htmx: bool = False):
    """Post one section of the editor, with the ``seen`` values of the page as it is now."""
    page = client.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/characters/{character.id}/sheet/{section}", data={"seen": seen_of(page, section), **data},
                       headers=headers)


def errors_in(page: str) -> list[str]:
    return re.findall(r'class="field-error"[^>]*>([^<]*)', page)


def test_every_field_round_trips_through_the_forms(organiser, dbconn):
    """Issue 14 "Done when": create a character, then save each section of the editor with every
    field the rules use; the stored sheet is exactly what was entered, and the editor shows it."""
    character = create(organiser, name=FULL["name"])
    for section, data in section_forms(FULL).items():
        response = save(organiser, character, section, data)
        assert response.status_code == 303, (section, errors_in(response.get_data(as_text=True)))
    stored = sheet_without_state(Character.get_by_id(character.id))
    assert stored == FULL
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    for shown in ("Majestic Glare", "Two-Weapon (Florentine)", "Biker leathers", "the Sheriff", "Paranoia", "Rebel"):
        assert shown in page
    show = organiser.get(f"/characters/{character.id}").get_data(as_text=True)
    assert "Ballistic vest (2 levels: torso)" in show and "Acute Sense (Hearing)" in show


def test_a_second_save_of_the_same_form_changes_nothing_more(organiser, dbconn):
    """Saving the sheet as it stands records nothing ("Nothing changed"): history is only changes."""
    character = create(organiser)
    before = Ruling.select().count()
    response = save(organiser, character, "notes", {"notes": "", "narrator_notes": ""}, htmx=True)
    assert response.status_code == 200 and "Nothing changed." in response.get_data(as_text=True)
    assert Ruling.select().count() == before


def test_a_chip_adds_a_trait_and_tapping_it_again_raises_its_count(organiser, dbconn):
    """Issue 14: Traits are picked from the LotNR lists (data/traits.toml) with a count; choosing a
    Trait the sheet already has raises its count."""
    character = create(organiser)
    response = save(organiser, character, "traits", {"pick": "traits.physical:Quick", "add_count": "2"}, htmx=True)
    assert response.status_code == 200 and "Added Quick ×2" in response.get_data(as_text=True)
    save(organiser, character, "traits", {"traits.physical.0.name": "Quick", "traits.physical.0.count": "2",
                                          "pick": "traits.physical:Quick", "add_count": "1"})
    save(organiser, character, "traits", {"traits.physical.0.name": "Quick", "traits.physical.0.count": "3",
                                          "custom.negative_traits.social": "Sneering"})
    sheet = sheet_of(Character.get_by_id(character.id))
    assert [(t.name, t.count) for t in sheet.traits["physical"]] == [("Quick", 3)]
    assert [(t.name, t.count) for t in sheet.negative_traits["social"]] == [("Sneering", 1)]
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    assert 'class="chip held" name="pick" value="traits.physical:Quick"' in page
    # "Save traits" after the taps finds nothing new, and says the taps were saved, not that nothing was.
    again = save(organiser, character, "traits", {"traits.physical.0.name": "Quick", "traits.physical.0.count": "3",
                                                  "negative_traits.social.0.name": "Sneering",
                                                  "negative_traits.social.0.count": "1"}, htmx=True)
    assert "each tap on a Trait was saved at once" in again.get_data(as_text=True)


def test_an_edit_is_in_the_history_and_can_be_undone(organiser, dbconn):
    """Issue 14: every edit is a change in the character's history (who, when, each field before
    and after), and the last change can be undone as today (issue 7's undo)."""
    character = create(organiser)
    save(organiser, character, "abilities", {"abilities.0.name": "Brawl", "abilities.0.level": "2"})
    save(organiser, character, "abilities", {"abilities.0.name": "Brawl", "abilities.0.level": "3",
                                             "abilities.0.specialisations": "Grappling", "xp_spent": "6"})
    edit = Ruling.select().where(Ruling.kind == "sheet").order_by(Ruling.id.desc()).first()
    history = organiser.get(f"/characters/{character.id}/history").get_data(as_text=True)
    assert "Ability Brawl: 2 → 3" in history and "Specialisations of Brawl: — → Grappling" in history
    assert "Boss" in history  # who
    assert ExperienceEntry.get(ExperienceEntry.ruling == edit).amount == 6
    response = organiser.post(f"/characters/{character.id}/undo", data={"ruling": edit.id, "confirm": "yes"})
    assert response.status_code == 303
    sheet = sheet_of(Character.get_by_id(character.id))
    assert sheet.abilities == {"Brawl": 2} and sheet.specialisations == {}
    assert not ExperienceEntry.select().where(ExperienceEntry.character == character).exists()
    assert Ruling.get_by_id(edit.id).undone_at is not None


def test_a_stale_form_shows_what_changed_keeps_what_was_typed_and_saves_nothing(organiser, dbconn):
    """Issue 14 bad input: another organiser changed a field this form showed: the form says what
    changed, says what was typed where both changed it, and nothing is saved (checked inside the write transaction)."""
    character = create(organiser)
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    old_seen = seen_of(page, "identity")
    save(organiser, character, "identity", {**section_forms(FULL)["identity"], "name": "Anya Vey", "clan": "Gangrel"})
    version = Character.get_by_id(character.id).version
    response = organiser.post(f"/characters/{character.id}/sheet/identity", headers={"HX-Request": "true"},
                              data={**section_forms(FULL)["identity"], "name": "Anya Vey", "clan": "Toreador",
                                    "seen": old_seen})
    body = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Changed on another screen" in body and "Clan: — → now Gangrel" in body
    # Both changed the clan: the form holds the stored one and says what was typed (finding 2 of
    # new-user test 12: saving the form must not silently put back the old clan over the other screen's).
    assert 'name="clan" value="Gangrel"' in body and "now Gangrel, yours Toreador" in body
    stored = Character.get_by_id(character.id)
    assert stored.clan == "Gangrel" and stored.version == version
    # A form that showed other fields only is not stale: the notes save.
    response = organiser.post(f"/characters/{character.id}/sheet/notes", data={
        "notes": "new", "narrator_notes": "", "seen": seen_of(page, "notes")})
    assert response.status_code == 303 and Character.get_by_id(character.id).notes == "new"


@pytest.mark.parametrize("section, data, field, message", [
    ("identity", {"name": "", "creature": "vampire"}, "name", "The name cannot be empty."),
    ("identity", {"name": "Vivienne Ashcombe", "creature": "vampire"}, "name", "already has a character called"),
    ("identity", {"name": "Anya Vey", "creature": "vampire", "generation": "3"}, "generation",
     "outside the generation table"),
    ("identity", {"name": "Anya Vey", "creature": "ghoul", "generation": "12"}, "generation", "Only vampires"),
    ("traits", {"traits.physical.0.name": "Quick", "traits.physical.0.count": "26"}, "traits.physical.0.count",
     "must be from 1 to 25"),
    ("abilities", {"abilities.0.name": "Brawl", "abilities.0.level": "0"}, "abilities.Brawl", "from 1 to 10"),
    ("powers", {"powers.0.discipline": "Celerity", "powers.0.power": "Flight", "powers.0.level": "1"}, "powers.0",
     "mark it as a custom power"),
    ("qualities", {"merits.0.key": "boon", "merits.0.cost": "9"}, "merits.0.cost", "from 1 to 6"),
    ("equipment", {"weapons.0.name": "Laser", "weapons.0.damage": "9"}, "weapons.0.damage", "from 1 to 5"),
])
def test_bad_input_is_refused_next_to_its_field_and_nothing_is_saved(organiser, dbconn, section, data, field,
                                                                     message):
    """Issue 14 bad input: an empty or duplicate name, counts out of range, a power not in the data
    without the custom choice, a generation outside the table: the message next to the field (the
    input names it with aria-describedby), nothing saved, the typed value kept."""
    character = create(organiser)
    before = (Ruling.select().count(), sheet_of(Character.get_by_id(character.id)).to_dict())
    response = save(organiser, character, section, data, htmx=True)
    body = response.get_data(as_text=True)
    assert response.status_code in (409, 422)
    error_id = "err-" + field.replace(".", "-")
    assert f'id="{error_id}"' in body and message in body
    assert f'aria-describedby="{error_id}"' in body
    assert (Ruling.select().count(), sheet_of(Character.get_by_id(character.id)).to_dict()) == before


def test_huge_size_adds_a_healthy_level_on_the_track(organiser, dbconn):
    """Issue 14: the extra health level of a Merit acts on the health track (data/merits_flaws.toml:
    Huge Size adds one Healthy level, LotNR); the character page shows the longer track."""
    character = create(organiser)
    save(organiser, character, "qualities", {"merits.add": "huge_size"})
    from larp.services.characters import character_state
    from larp.services.chronicles import chronicle_settings

    state = character_state(Character.get_by_id(character.id), None, chronicle_settings(get_chronicle()))
    assert state.health.levels[:3] == ("Healthy", "Healthy", "Healthy") and len(state.health.levels) == 9
    assert state.has_merit("huge_size")


def test_worn_armor_and_carried_weapons_are_the_cores_types(organiser, dbconn):
    """Worn armor and carried weapons as larp.rules.damage.Armor and Weapon (read by the composition
    path, issue 15): armory pieces are the armory's own, custom ones carry the sheet's numbers."""
    from larp.rules.damage import Armor, Weapon, armory
    from larp.services.characters import carried_weapons, worn_armor

    character = create(organiser)
    save(organiser, character, "equipment", section_forms(FULL)["equipment"])
    stored = Character.get_by_id(character.id)
    armor = worn_armor(stored)
    assert all(isinstance(a, Armor) for a in armor)
    assert armor[0] == armory("live").armor["ballistic_vest"]
    assert (armor[1].name, armor[1].rating, armor[1].covers, armor[1].profile) == (
        "Biker leathers", 1, ("arms", "legs"), "live")
    weapons = carried_weapons(stored)
    assert all(isinstance(w, Weapon) for w in weapons) and weapons[0] == armory("live").weapons["knife"]
    assert (weapons[1].damage, weapons[1].damage_type, weapons[1].blunt, weapons[1].melee, weapons[1].firearm) == (
        1, "bashing", True, True, False)
    assert stored.weapon == "knife"  # the first armory weapon carried is the one in hand


def test_five_copies_named_thug_1_to_5_are_scene_extras_removed_together(organiser, dbconn):
    """Issue 14: "make 5 copies named Thug 1 to Thug 5", each with its own card code and no card
    token; marked scene extras, removed together after the game session with the rulings only they
    were in, while a ruling shared with a character who stays is kept without them."""
    original = Character.get(Character.name == "Konrad Vale")
    response = organiser.post(f"/characters/{original.id}/copy", data={"name": "Thug", "count": "5",
                                                                       "scene_extra": "on"})
    assert response.status_code == 303
    thugs = list(Character.select().where(Character.name.startswith("Thug")).order_by(Character.name))
    assert [t.name for t in thugs] == [f"Thug {i}" for i in range(1, 6)]
    assert len({t.short_code for t in thugs} | {original.short_code}) == 6
    assert all(t.card_token is None and t.scene_extra for t in thugs)
    assert sheet_of(thugs[0]).traits == sheet_of(original).traits
    listing = organiser.get("/characters").get_data(as_text=True)
    assert "Remove these 5 scene extras" in listing
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    organiser.post(f"/characters/{thugs[0].id}/damage", data={"damage_type": "lethal", "levels": "1"})
    from larp.services.records import record_ruling

    shared = record_ruling(get_chronicle(), None, "challenge", "Thug 2 against Vivienne", [],
                           [(thugs[1], "challenger"), (viv, "defender")])
    assert organiser.post("/characters/extras/remove", data={}).status_code == 303  # no confirmation: nothing
    assert Character.select().where(Character.scene_extra).count() == 5
    organiser.post("/characters/extras/remove", data={"confirm": "yes"})
    assert Character.select().where(Character.scene_extra).count() == 0
    assert not Ruling.select().where(Ruling.kind.in_(("damage", "created"))).exists()  # only theirs: gone
    assert "5 characters removed as scene extras: Thug 1" in Ruling.get(Ruling.kind == "deleted").summary
    assert [p.character_id for p in RulingCharacter.select().where(RulingCharacter.ruling == shared)] == [viv.id]


def test_copies_whose_number_makes_the_name_too_long_say_how_long_the_name_may_be(organiser, dbconn):
    """New user 12: 30 copies of a 119-character name were refused "at most 120 characters, not 122", counting
    the " 30" nobody typed. The refusal says the numbered name is too long and how short to make it; nothing made."""
    original = Character.get(Character.name == "Konrad Vale")
    before = Character.select().count()
    response = organiser.post(f"/characters/{original.id}/copy", data={"name": "T" * 119, "count": "30"})
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "would be 122 characters, and a name holds at most 120: shorten the name to 117 characters." in body
    assert Character.select().count() == before
    assert organiser.post(f"/characters/{original.id}/copy", data={"name": "T" * 117, "count": "30"}).status_code == 303
    assert Character.select().count() == before + 30


def test_retire_hides_everywhere_but_the_record_and_restore_brings_back(organiser, dbconn):
    """Issue 14: retired (the player left): hidden from pickers, the board and the card sheet, kept in
    the record and history, can be restored."""
    lys = Character.get(Character.name == "Lys Moreau")
    token = lys.card_token
    organiser.post(f"/characters/{lys.id}/retire")
    assert "is retired" in organiser.get(f"/characters/{lys.id}/edit").get_data(as_text=True)  # the flash, shown
    assert Character.get_by_id(lys.id).retired_at is not None
    assert "Lys Moreau" not in organiser.get("/characters").get_data(as_text=True)
    assert "Lys Moreau" in organiser.get("/characters?retired=1").get_data(as_text=True)
    assert "Lys Moreau" not in organiser.get("/challenge/search?side=challenger&q=Lys").get_data(as_text=True)
    assert "Lys Moreau" not in organiser.get("/board").get_data(as_text=True)
    assert "Lys Moreau" not in organiser.get("/cards").get_data(as_text=True)
    assert "Lys Moreau" not in organiser.get("/cards/sheet?all=1").get_data(as_text=True)
    assert organiser.get(f"/C/{token}").status_code == 404
    assert "Retired" in organiser.get(f"/characters/{lys.id}/history").get_data(as_text=True)
    organiser.post(f"/characters/{lys.id}/retire", data={"restore": "1"})
    assert Character.get_by_id(lys.id).retired_at is None
    assert "Lys Moreau" in organiser.get("/characters").get_data(as_text=True)
    assert organiser.get(f"/C/{token}").status_code == 200


def test_delete_needs_the_name_typed_when_rulings_go_too(organiser, dbconn):
    """Issue 14: delete only a character with no rulings (a plain confirmation), or after typing its
    name to confirm that its rulings go too; never silently."""
    fresh = create(organiser, name="Brief Visitor")
    assert organiser.post(f"/characters/{fresh.id}/delete", data={}).status_code == 422
    assert organiser.post(f"/characters/{fresh.id}/delete", data={"confirm": "yes"}).status_code == 303
    assert not Character.select().where(Character.name == "Brief Visitor").exists()
    pim = Character.get(Character.name == "Pim Halloran")
    organiser.post(f"/characters/{pim.id}/damage", data={"damage_type": "bashing", "levels": "1"})
    page = organiser.get(f"/characters/{pim.id}/delete").get_data(as_text=True)
    assert "is in <strong>1 ruling</strong>" in page
    refused = organiser.post(f"/characters/{pim.id}/delete", data={"confirm": "yes", "confirm_name": "pim"})
    assert refused.status_code == 422 and Character.get_or_none(Character.id == pim.id) is not None
    organiser.post(f"/characters/{pim.id}/delete", data={"confirm_name": "Pim Halloran"})
    assert Character.get_or_none(Character.id == pim.id) is None
    assert not Ruling.select().where(Ruling.kind == "damage").exists()
    assert Ruling.select().where(Ruling.kind == "deleted").count() == 2


def test_narrators_change_equipment_and_narrator_notes_when_the_setting_allows(client, auth, dbconn):
    """Issue 14: narrators may change equipment and narrator notes during a game, if the chronicle
    setting narrators_edit_equipment allows it (default on); never Traits or the other notes."""
    auth.login("nina", "narrator")
    konrad = Character.get(Character.name == "Konrad Vale")
    assert save(client, konrad, "equipment", {"weapons.add": "pistol"}).status_code == 303
    assert [w.key for w in sheet_of(Character.get_by_id(konrad.id)).weapons] == ["pistol"]
    response = client.post(f"/characters/{konrad.id}/sheet/notes", data={"notes": "mine", "narrator_notes": "seen"})
    stored = Character.get_by_id(konrad.id)
    assert response.status_code == 303 and stored.narrator_notes == "seen" and stored.notes != "mine"
    assert client.post(f"/characters/{konrad.id}/sheet/traits", data={}).status_code == 403
    assert client.get("/characters/new").status_code == 403
    from larp.services.chronicles import set_setting

    set_setting(get_chronicle(), "narrators_edit_equipment", False)
    assert client.post(f"/characters/{konrad.id}/sheet/equipment", data={}).status_code == 403


def test_the_editor_works_without_javascript_and_links_from_the_character_page(organiser, dbconn):
    """Every form is a plain form (method post, an action, a CSRF field, a one-time token); the
    character page links to the editor."""
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    assert f'href="/characters/{viv.id}/edit"' in organiser.get(f"/characters/{viv.id}").get_data(as_text=True)
    page = organiser.get(f"/characters/{viv.id}/edit").get_data(as_text=True)
    forms = [f for f in re.findall(r"<form [^>]*>", page) if 'method="get"' not in f]  # not the top bar's
    assert len(forms) >= 10
    assert all('method="post"' in f and "action=" in f for f in forms)
    assert page.count('name="request_token"') >= 8 and page.count('name="csrf_token"') >= len(forms)


def test_the_experience_form_sent_twice_logs_once(organiser, dbconn):
    """A double tap on "Log" (issue 19 item 2: every form that records a ruling carries a one-time
    token): the second post is a 409 naming the first ruling, and the log holds one line."""
    lys = Character.get(Character.name == "Lys Moreau")
    page = organiser.get(f"/characters/{lys.id}/edit").get_data(as_text=True)
    form = page[page.index(f'action="/characters/{lys.id}/experience"'):]
    token = re.search(r'name="request_token" value="([^"]+)"', form[:form.index("</form>")]).group(1)
    data = {"kind": "earned", "amount": "3", "what": "Game session 4", "request_token": token}
    assert organiser.post(f"/characters/{lys.id}/experience", data=data).status_code == 303
    again = organiser.post(f"/characters/{lys.id}/experience", data=data)
    assert again.status_code == 409
    assert "already recorded as ruling #" in again.get_data(as_text=True)
    assert ExperienceEntry.select().where(ExperienceEntry.character == lys.id).count() == 1


def test_a_spend_past_the_unspent_points_is_refused_unless_ticked(organiser, dbconn):
    """LotNR Experience: a character spends the experience he has. Lys has 3 points; a spend of 50 is
    refused where the organiser looks, and nothing is logged; ticked "Spend past what is left", it is
    logged and the header says -47 left."""
    lys = Character.get(Character.name == "Lys Moreau")
    form = {"kind": "earned", "amount": "3", "what": "Game session 4"}
    assert organiser.post(f"/characters/{lys.id}/experience", data=form).status_code == 303
    spend = {"kind": "spent", "amount": "50", "what": "Dominate 5"}
    refused = organiser.post(f"/characters/{lys.id}/experience", data=spend)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert "Lys Moreau has 3 experience unspent: spending 50 would leave -47." in page
    # Said in the Experience section, with the line kept as typed (a new user typed it again into a form that
    # had come back empty and set to "Earned", and logged a spend as earned).
    section = page[page.index('id="experience"'):page.index('id="keep"')]
    assert 'class="error-box" role="alert" id="experience-refused"' in section and "would leave -47" in section
    assert re.search(r'name="kind" value="spent"\s+checked', section)
    assert 'name="amount"' in section and 'value="50"' in section and 'value="Dominate 5"' in section
    assert [e.kind for e in ExperienceEntry.select().where(ExperienceEntry.character == lys.id)] == ["earned"]
    assert organiser.post(f"/characters/{lys.id}/experience", data={**spend, "past_unspent": "on"}).status_code == 303
    assert "-47 left" in organiser.get(f"/characters/{lys.id}/edit").get_data(as_text=True)


def test_a_new_vampire_is_13th_by_default_and_full_when_its_ratings_are_filled_in(organiser, dbconn):
    """The form preselects the 13th generation (LotNR character creation). A vampire made with none has
    an empty pool; filling in generation 12 and Willpower 4 afterwards leaves him full (11 blood
    points, LotNR generation table; 4 Willpower), not at 0 of each. A character below his rating stays
    where he is."""
    form = organiser.get("/characters/new").get_data(as_text=True)
    assert re.search(r'<option value="13"\s+selected>13th</option>', form)
    bare = create(organiser, name="Nadia Voss", generation="", willpower_permanent="0")
    assert (bare.blood_max, bare.blood_current, bare.willpower_current) == (0, 0, 0)
    page = organiser.get(f"/characters/{bare.id}/edit").get_data(as_text=True)
    identity = {"name": "Nadia Voss", "creature": "vampire", "generation": "12", "morality_name": "Humanity",
                "morality_rating": "3", "willpower_permanent": "4"}
    response = organiser.post(f"/characters/{bare.id}/sheet/identity",
                              data={"seen": seen_of(page, "identity"), **identity})
    assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    filled = Character.get_by_id(bare.id)
    assert (filled.blood_max, filled.blood_current, filled.willpower_permanent, filled.willpower_current) == (11, 11, 4, 4)
    Character.update(blood_current=5, willpower_current=2).where(Character.id == bare.id).execute()
    page = organiser.get(f"/characters/{bare.id}/edit").get_data(as_text=True)
    response = organiser.post(f"/characters/{bare.id}/sheet/identity",
                              data={"seen": seen_of(page, "identity"), **identity, "willpower_permanent": "5"})
    assert response.status_code == 303
    spent = Character.get_by_id(bare.id)
    assert (spent.blood_current, spent.willpower_permanent, spent.willpower_current) == (5, 5, 2)


def test_experience_totals_are_written_the_readers_way(organiser, dbconn):
    """A new user saw "4.5 … 11.5" in the totals of a Portuguese page whose record said "0,5": the totals and the
    log's lines are written as the reader writes numbers."""
    lys = Character.get(Character.name == "Lys Moreau")
    assert organiser.post(f"/characters/{lys.id}/experience", headers={"Accept-Language": "pt-BR"},
                          data={"kind": "earned", "amount": "4.5", "what": "Game session 4"}).status_code == 303
    page = organiser.get(f"/characters/{lys.id}/edit", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    section = page[page.index('id="experience"'):page.index('id="keep"')]
    assert "4,5" in section and "+4,5" in section and "4.5" not in section
    english = organiser.get(f"/characters/{lys.id}/edit").get_data(as_text=True)
    assert "+4.5" in english[english.index('id="experience"'):]


def test_save_again_after_a_stale_traits_tap_keeps_both_screens_traits(organiser, dbconn):
    """New-user test 12, finding 2: tabs A and B open the Traits of one character; A taps Tough, B
    (from the same, now stale, page) taps Steady and is refused. The form under the warning holds
    Tough AND Steady, and "Save traits" from it stores both: the other screen's Trait is not lost."""
    character = create(organiser)
    save(organiser, character, "traits", {"pick": "traits.physical:Lithe"})
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    stale_seen = seen_of(page, "traits")
    lithe = {"traits.physical.0.name": "Lithe", "traits.physical.0.count": "1"}
    a = organiser.post(f"/characters/{character.id}/sheet/traits", headers={"HX-Request": "true"},
                       data={**lithe, "pick": "traits.physical:Tough", "seen": stale_seen})
    assert a.status_code == 200 and "HX-Reswap" not in a.headers  # a chip's tap stays where it was tapped
    b = organiser.post(f"/characters/{character.id}/sheet/traits", headers={"HX-Request": "true"},
                       data={**lithe, "pick": "traits.physical:Steady", "seen": stale_seen})
    body = b.get_data(as_text=True)
    assert b.status_code == 409 and "Changed on another screen" in body
    # The refusal heads the part, scrolled to wherever the tap was (new user 13: 1,660 px above the phone's view).
    assert b.headers["HX-Reswap"] == "outerHTML show:#traits:top"
    assert "saving again keeps both" in body
    shown = dict(re.findall(r'name="traits\.physical\.(\d+)\.name" value="([^"]*)"', body))
    assert sorted(shown.values()) == ["Lithe", "Steady", "Tough"]
    assert [(t.name, t.count) for t in sheet_of(Character.get_by_id(character.id)).traits["physical"]] == [
        ("Lithe", 1), ("Tough", 1)]  # the refusal saved nothing
    # "Save traits" posts the form as shown, with its own ``seen``.
    again = {f"traits.physical.{i}.{k}": v for i, name in shown.items()
             for k, v in (("name", name), ("count", "1"))}
    response = organiser.post(f"/characters/{character.id}/sheet/traits", headers={"HX-Request": "true"},
                              data={**again, "save": "1",
                                    "seen": seen_of(body.replace('id="traits-title"', ''), "traits")})
    assert response.status_code == 200, response.get_data(as_text=True)[:600]
    assert response.headers["HX-Reswap"] == "outerHTML show:#traits:top"  # its "Saved" line in view
    stored = sorted((t.name, t.count) for t in sheet_of(Character.get_by_id(character.id)).traits["physical"])
    assert stored == [("Lithe", 1), ("Steady", 1), ("Tough", 1)]


def test_save_again_after_a_stale_identity_keeps_both_and_names_the_collision(organiser, dbconn):
    """New-user test 12, finding 2 (Identity): A sets the clan and the sect, B (same stale page) sets
    the title and another clan. B's form holds A's clan (stored), A's sect and B's title, and says
    B's clan is not in it; saving it again stores A's clan and sect and B's title."""
    character = create(organiser)
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    stale_seen = seen_of(page, "identity")
    form = {k: v for k, v in re.findall(r'<input[^>]*name="([a-z_.A-Z-]+)"[^>]*value="([^"]*)"',
                                         page.split('id="identity"', 1)[1].split("</section>", 1)[0])
            if k not in ("csrf_token", "request_token", "seen", "save")}
    form.update(creature="vampire", morality_name="Humanity")
    a = organiser.post(f"/characters/{character.id}/sheet/identity",
                       data={**form, "clan": "Gangrel", "sect": "Camarilla", "seen": stale_seen})
    assert a.status_code == 303
    b = organiser.post(f"/characters/{character.id}/sheet/identity", headers={"HX-Request": "true"},
                       data={**form, "clan": "Toreador", "title": "Harpy", "seen": stale_seen})
    body = b.get_data(as_text=True)
    assert b.status_code == 409
    assert 'name="clan" value="Gangrel"' in body and 'name="title" value="Harpy"' in body
    assert 'name="sect" value="Camarilla"' in body
    assert "yours is not in it" in body and "now Gangrel, yours Toreador" in body
    kept = {k: v for k, v in re.findall(r'<input[^>]*name="([a-z_.A-Z-]+)"[^>]*value="([^"]*)"', body)
            if k not in ("csrf_token", "request_token", "seen", "save")}
    response = organiser.post(f"/characters/{character.id}/sheet/identity", data={
        **form, **kept, "seen": seen_of(body, "identity")})
    assert response.status_code == 303, response.get_data(as_text=True)[:600]
    stored = Character.get_by_id(character.id)
    assert (stored.clan, stored.sect, stored.title) == ("Gangrel", "Camarilla", "Harpy")


def test_a_saved_part_brings_the_heading_up_to_date(organiser, dbconn):
    """New user 13: after saving the clan Gangrel the editor's heading still said "Toreador · sheet edition 4" until
    a reload. A part saved sends the heading again (htmx out of band), with the clan and the edition as stored; a
    refusal, which changes nothing, does not."""
    character = create(organiser, clan="Toreador")
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    form = {k: v for k, v in re.findall(r'<input[^>]*name="([a-z_.A-Z-]+)"[^>]*value="([^"]*)"',
                                        page.split('id="identity"', 1)[1].split("</section>", 1)[0])
            if k not in ("csrf_token", "request_token", "seen", "save")}
    form.update(creature="vampire", morality_name="Humanity")
    answer = save(organiser, character, "identity", {**form, "clan": "Gangrel", "save": "1"}, htmx=True)
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200
    head = body[body.index('id="sheet-head"') - 30:]
    head = head[:head.index("</div>")]
    stored = Character.get_by_id(character.id)
    assert 'hx-swap-oob="true"' in head and "Gangrel" in head and "Toreador" not in head
    assert f"sheet edition {stored.sheet_edition}" in head and stored.clan == "Gangrel"
    refused = save(organiser, character, "identity", {**form, "name": "", "save": "1"}, htmx=True)
    assert refused.status_code == 422 and 'id="sheet-head"' not in refused.get_data(as_text=True)
