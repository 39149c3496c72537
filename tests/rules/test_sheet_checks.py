"""The sheet's one validator and the editor's catalogues (issue 14), without a database."""

from __future__ import annotations

import pytest

from larp import catalogues
from larp.sheet import CharacterSheet
from larp.sheet_checks import SheetError, generations, known_power
from larp.tables import TableError


def errors(data: dict) -> dict[str, str]:
    with pytest.raises(SheetError) as refused:
        CharacterSheet.from_dict(data)
    return refused.value.by_field()


def test_every_problem_is_named_by_its_field():
    """Issue 14 bad input: a missing name, an unknown creature, a generation outside the LotNR table
    (met-reference 5.1), a count out of range and a power not in data/disciplines.toml without the
    custom choice are all reported at once, each with its field."""
    found = errors({"name": " ", "creature": "werewolf", "generation": 3,
                    "traits": {"physical": ["Quick x0"]},
                    "powers": [{"discipline": "Celerity", "power": "Flight", "level": 1}]})
    assert set(found) == {"name", "creature", "generation", "traits.physical.0.count", "powers.0"}
    assert "custom power" in found["powers.0"]


def test_generations_are_the_table_and_the_thin_blooded():
    """LotNR's generation table runs 4th to 13th; 14th and 15th (thin-blooded) use the 13th's row;
    a ghoul or mortal has none."""
    assert generations() == tuple(range(4, 16))
    assert CharacterSheet.from_dict({"name": "Thin", "generation": 15}).blood_max == 10
    assert "generation" in errors({"name": "Renfield", "creature": "ghoul", "generation": 12})


def test_a_power_from_the_table_takes_the_tables_level_and_a_custom_one_its_own():
    """data/disciplines.toml gives a power its level (Celerity: Swiftness is 2, LotNR); a wrong level
    is refused; a custom power (an Elder power, level 6) keeps the level given."""
    sheet = CharacterSheet.from_dict({"name": "A", "powers": [
        {"discipline": "celerity", "power": "swiftness"},
        {"discipline": "Presence", "power": "Majestic Glare", "level": 6, "custom": True}]})
    assert [(p.discipline, p.power, p.level, p.custom) for p in sheet.powers] == [
        ("Celerity", "Swiftness", 2, False), ("Presence", "Majestic Glare", 6, True)]
    assert "powers.0" in errors({"name": "A", "powers": [{"discipline": "Celerity", "power": "Swiftness",
                                                         "level": 4}]})
    assert known_power("thaumaturgy", "path of blood: blood rage") == ("Thaumaturgy", "Path of Blood: Blood Rage", 2)


def test_a_trait_given_twice_is_one_trait_with_the_counts_added():
    """Choosing a Trait the sheet already has raises its count (issue 14): "Quick" and "quick x2" are Quick x3."""
    sheet = CharacterSheet.from_dict({"name": "A", "traits": {"physical": ["Quick", "quick x2"]}})
    assert [(t.name, t.count) for t in sheet.traits["physical"]] == [("Quick", 3)]


def test_merits_from_the_catalogue_within_the_books_cost_and_custom_ones_with_a_name():
    """data/merits_flaws.toml: Boon costs 1 to 6 (LotNR); a key not in the catalogue is refused; a
    custom Merit needs a name and a cost of 1 to 7."""
    sheet = CharacterSheet.from_dict({"name": "A", "merits": [{"key": "boon", "cost": 4, "note": "the Prince"},
                                                              {"name": "Street Cred", "cost": 2}]})
    assert [(m.name, m.cost, m.key) for m in sheet.merits] == [("Boon", 4, "boon"), ("Street Cred", 2, "")]
    found = errors({"name": "A", "merits": [{"key": "boon", "cost": 7}, {"key": "flying"}, {"cost": 2}]})
    assert set(found) == {"merits.0.cost", "merits.1", "merits.2.name"}


def test_weapons_and_armor_from_the_armory_take_the_cards_numbers():
    """An armory weapon or armor piece takes its numbers from data/armory.toml (met-reference 3.7),
    whatever is sent; a custom piece is checked: damage 1 to 5, a known damage type, specials and
    parts covered."""
    sheet = CharacterSheet.from_dict({"name": "A", "weapons": [{"key": "shotgun", "damage": 5}],
                                      "armor": [{"key": "plate"}]})
    assert (sheet.weapons[0].damage, sheet.weapons[0].specials, sheet.weapons[0].kind) == (
        2, ["Spray", "Mass-Trauma"], "firearm")
    assert (sheet.armor[0].rating, sheet.armor[0].covers) == (3, ["head", "torso", "arms", "legs"])
    found = errors({"name": "A", "weapons": [{"name": "Ray", "damage": 0, "damage_type": "fire",
                                              "specials": ["Laser"]}],
                    "armor": [{"name": "Cape", "covers": ["soul"]}]})
    assert set(found) == {"weapons.0.damage", "weapons.0.damage_type", "weapons.0.specials", "armor.0.covers"}


def test_to_dict_and_from_dict_are_inverse_on_the_demo():
    """Every demo character passes the validator, and its data reads back as the same sheet."""
    from larp.services.demo import demo_sheets

    _, sheets = demo_sheets()
    assert len(sheets) == 10
    for sheet in sheets:
        assert CharacterSheet.from_dict(sheet.to_dict()) == sheet


def test_the_demo_vampires_have_virtues_and_tabletop_willpower_and_morality_that_convert_back():
    """A new user's Virtue Test and "Convert from tabletop" work on the demo (issue 31's new-user note):
    every demo vampire has three Virtues of 1 to 5 Traits (Conscience or Conviction, Self-Control or
    Instinct, Courage; LotNR Virtues), and his tabletop Humanity or Path dots, and his Willpower dots
    where he has them, convert back to the Traits the sheet holds (LotNR Converting Characters: one
    Trait per two dots, rounded up; met-reference 4.3)."""
    from math import ceil

    from larp.services.demo import demo_sheets

    vampires = [s for s in demo_sheets()[1] if s.creature == "vampire"]
    assert len(vampires) == 8
    for sheet in vampires:
        assert len(sheet.virtues) == 3 and set(sheet.virtues) & {"Conscience", "Conviction"}, sheet.name
        assert set(sheet.virtues) & {"Self-Control", "Instinct"} and "Courage" in sheet.virtues, sheet.name
        assert all(1 <= v <= 5 for v in sheet.virtues.values()), sheet.name
        assert ceil(sheet.tabletop[sheet.morality_name] / 2) == sheet.morality_rating, sheet.name
        if "Willpower" in sheet.tabletop:
            assert ceil(sheet.tabletop["Willpower"] / 2) == sheet.willpower_permanent, sheet.name


def test_the_lotnr_lists_hold_every_demo_trait():
    """data/traits.toml (LotNR Trait lists) offers every adjective the demo characters carry."""
    from larp.services.demo import demo_sheets

    lists = catalogues.trait_lists()
    for sheet in demo_sheets()[1]:
        for category in ("physical", "social", "mental"):
            assert {t.name for t in sheet.traits[category]} <= set(lists[category].traits)
            assert {t.name for t in sheet.negative_traits[category]} <= set(lists[category].negative)


@pytest.mark.parametrize("loader, file, raw, message", [
    ("merits_flaws", "merits_flaws.toml", {"merit": {"lucky": {"name": "Lucky", "cost": 9, "category": "social"}},
                                           "flaw": {}}, "data/merits_flaws.toml [merit.lucky]: 'cost' must be 1 to 7 and 'max_cost' at least 'cost'"),
    ("merits_flaws", "merits_flaws.toml", {"merit": {"big": {"name": "Big", "cost": 2, "category": "physical",
                                                             "health_levels": ["Mauled"]}}, "flaw": {}},
     "data/merits_flaws.toml [merit.big]: unknown health level 'Mauled'"),
    ("trait_lists", "traits.toml", {"physical": {"traits": ["Quick"], "negative": ["Quick"]},
                                    "social": {"traits": [], "negative": []}, "mental": {"traits": [], "negative": []}},
     "data/traits.toml [physical]: 'quick' is both a Trait and a Negative Trait"),
    ("ability_catalogue", "abilities.toml", {"ability": {"Brawl": "Grappling"}},
     "data/abilities.toml [ability] Brawl: 'Brawl' must be a list of names"),
])
def test_a_malformed_catalogue_fails_on_load_naming_the_file_and_the_entry(monkeypatch, loader, file, raw,
                                                                           message):
    """House style: rules tables are validated on load with a clear error naming the file and the entry."""
    monkeypatch.setattr(catalogues, "load_toml", lambda relative: raw if relative == file else {})
    function = getattr(catalogues, loader)
    function.cache_clear()
    try:
        with pytest.raises(TableError) as failed:
            function()
        assert str(failed.value) == message
    finally:
        function.cache_clear()


def test_the_catalogues_load():
    """The shipped catalogues are valid: 22 Physical Traits, Huge Size's extra Healthy level."""
    assert len(catalogues.trait_lists()["physical"].traits) == 22
    assert catalogues.merit_flaw("merit", "huge_size").health_levels == ("Healthy",)
    assert catalogues.sheet_lists().humanity_virtues == ("Conscience", "Self-Control", "Courage")
