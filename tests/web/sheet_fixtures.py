"""A sheet with every field the rules use (issue 14), for the round-trip tests of the sheet
editor, the API and the export, and the helpers that post it through the editor's forms."""

from __future__ import annotations

import html
import json
import re

from larp.models import Character

#: Every field of a character sheet, set (CharacterSheet.to_dict's shape, without tonight's state).
FULL = {
    "name": "Mara Quill", "creature": "vampire", "player_name": "Jo Hart", "clan": "Brujah", "sect": "Anarch",
    "title": "Whip", "generation": 11, "morality_name": "Humanity", "morality_rating": 3,
    "willpower_permanent": 4, "blood_max": 14, "blood_per_turn": 2, "nature": "Rebel", "demeanor": "Bravo",
    "virtues": {"Conscience": 2, "Self-Control": 3, "Courage": 4},
    "traits": {"physical": [{"name": "Quick", "count": 2}, {"name": "Brawny", "count": 1}],
               "social": [{"name": "Charming", "count": 1}, {"name": "Scowling", "count": 1}],
               "mental": [{"name": "Alert", "count": 3}]},
    "negative_traits": {"physical": [{"name": "Clumsy", "count": 1}], "social": [], "mental": [{"name": "Violent", "count": 2}]},
    "abilities": {"Brawl": 3, "Melee": 2, "Streetwise": 1},
    "specialisations": {"Melee": ["Knives", "Two-Weapon (Florentine)"]},
    "powers": [{"discipline": "Celerity", "power": "Alacrity", "level": 1, "custom": False},
               {"discipline": "Potence", "power": "Prowess", "level": 1, "custom": False},
               {"discipline": "Presence", "power": "Majestic Glare", "level": 6, "custom": True}],
    "backgrounds": {"Allies": 2, "Resources": 1},
    "merits": [{"name": "Acute Sense", "cost": 1, "key": "acute_sense", "note": "Hearing"},
               {"name": "Ambidextrous", "cost": 1, "key": "ambidextrous", "note": ""},
               {"name": "Street Cred", "cost": 2, "key": "", "note": ""}],
    "flaws": [{"name": "Enemy", "cost": 3, "key": "enemy", "note": "the Sheriff"}],
    "derangements": ["Paranoia"],
    "weapons": [{"name": "Knife", "key": "knife", "bonus_traits": 2, "damage": 1, "damage_type": "lethal",
                 "negative_traits": ["Short"], "specials": ["Speed"], "kind": "blade", "note": "boot"},
                {"name": "Tire iron", "key": "", "bonus_traits": 2, "damage": 1, "damage_type": "bashing",
                 "negative_traits": ["Heavy"], "specials": [], "kind": "blunt", "note": ""}],
    "armor": [{"name": "Ballistic vest", "key": "ballistic_vest", "rating": 2, "negative_traits": ["Heavy"],
               "covers": ["torso"], "note": ""},
              {"name": "Biker leathers", "key": "", "rating": 1, "negative_traits": [], "covers": ["arms", "legs"],
               "note": "patched"}],
    "tabletop": {"Strength": 3, "Dexterity": 3, "Stamina": 2, "Charisma": 2, "Manipulation": 2, "Appearance": 2,
                 "Perception": 2, "Intelligence": 2, "Wits": 3, "Willpower": 5},
    "health_levels": [], "notes": "Rides a Triumph.", "narrator_notes": "Informs for the Sheriff.",
    "player_contact": "jo@example.org", "scene_extra": False,
}


def sheet_without_state(character: Character) -> dict:
    """The stored sheet as FULL's shape (tonight's Willpower and blood left out)."""
    from larp.services.sheet_store import sheet_of

    data = sheet_of(character).to_dict()
    data.pop("willpower_current")
    data.pop("blood_current")
    return data


def seen_of(page: str, section: str) -> str:
    """The ``seen`` field of the editor's ``section`` form in ``page``."""
    found = re.search(r'id="%s".*?name="seen" value="([^"]*)"' % section, page, re.S)
    assert found, f"no {section} form on the page"
    return html.unescape(found.group(1))


def section_forms(sheet: dict) -> dict[str, dict[str, object]]:
    """The form posts that put ``sheet`` through the editor's sections (rows by the inputs' names)."""
    forms: dict[str, dict[str, object]] = {}
    forms["identity"] = {k: str(sheet[k]) for k in ("name", "creature", "player_name", "clan", "sect", "title",
                                                     "generation", "morality_name", "morality_rating",
                                                     "willpower_permanent", "blood_max", "blood_per_turn", "nature",
                                                     "demeanor", "player_contact")}
    forms["identity"].update({f"virtues.{k}": str(v) for k, v in sheet["virtues"].items()})
    if sheet["scene_extra"]:
        forms["identity"]["scene_extra"] = "on"
    traits: dict[str, object] = {}
    for attr in ("traits", "negative_traits"):
        for category, rows in sheet[attr].items():
            for i, row in enumerate(rows):
                traits[f"{attr}.{category}.{i}.name"] = row["name"]
                traits[f"{attr}.{category}.{i}.count"] = str(row["count"])
    forms["traits"] = traits
    abilities: dict[str, object] = {}
    for i, (name, level) in enumerate(sheet["abilities"].items()):
        abilities.update({f"abilities.{i}.name": name, f"abilities.{i}.level": str(level),
                          f"abilities.{i}.specialisations": ", ".join(sheet["specialisations"].get(name, []))})
    forms["abilities"] = abilities
    powers: dict[str, object] = {}
    for i, p in enumerate(sheet["powers"]):
        powers.update({f"powers.{i}.discipline": p["discipline"], f"powers.{i}.power": p["power"],
                       f"powers.{i}.level": str(p["level"])})
        if p["custom"]:
            powers[f"powers.{i}.custom"] = "on"
    forms["powers"] = powers
    qualities: dict[str, object] = {}
    for i, (name, rating) in enumerate(sheet["backgrounds"].items()):
        qualities.update({f"backgrounds.{i}.name": name, f"backgrounds.{i}.rating": str(rating)})
    for kind in ("merits", "flaws"):
        for i, q in enumerate(sheet[kind]):
            qualities.update({f"{kind}.{i}.key": q["key"], f"{kind}.{i}.name": q["name"],
                              f"{kind}.{i}.cost": str(q["cost"]), f"{kind}.{i}.note": q["note"]})
    for i, d in enumerate(sheet["derangements"]):
        qualities[f"derangements.{i}.name"] = d
    forms["qualities"] = qualities
    gear: dict[str, object] = {}
    for kind in ("weapons", "armor"):
        for i, w in enumerate(sheet[kind]):
            prefix = f"{kind}.{i}"
            gear[f"{prefix}.note"] = w["note"]
            if w["key"]:
                gear[f"{prefix}.key"] = w["key"]
                continue
            gear[f"{prefix}.name"] = w["name"]
            gear[f"{prefix}.negative_traits"] = ", ".join(w["negative_traits"])
            if kind == "weapons":
                gear.update({f"{prefix}.bonus_traits": str(w["bonus_traits"]), f"{prefix}.damage": str(w["damage"]),
                             f"{prefix}.damage_type": w["damage_type"], f"{prefix}.kind": w["kind"],
                             f"{prefix}.specials": list(w["specials"])})
            else:
                gear.update({f"{prefix}.rating": str(w["rating"]), f"{prefix}.covers": list(w["covers"])})
    forms["equipment"] = gear
    forms["notes"] = {"notes": sheet["notes"], "narrator_notes": sheet["narrator_notes"]}
    forms["tabletop"] = {f"tabletop.{k}": str(v) for k, v in sheet["tabletop"].items()}
    return forms


def json_dumps(data: dict) -> str:
    """Compact JSON, as the editor's ``seen`` field holds it."""
    return json.dumps(data, sort_keys=True)
