"""The one validator of a character sheet's values (issue 14).

The sheet editor, the JSON API, the demo loader and ``larp import`` all build a
:class:`larp.sheet.CharacterSheet` through :func:`read_sheet`, so a value refused
in one place is refused everywhere, with the same message, naming the field at
fault as a dotted path (``traits.physical.0.count``, ``powers.2``,
``abilities.Brawl``). Every problem is collected, not only the first, so a form
can show each message next to its field.

Limits (:data:`LIMITS`) are those of the sources where they give one (LotNR
generation table, met-reference 5.1: the 4th generation's 20 Willpower and 50
blood points; Virtues 1 to 5) and the column sizes of the database otherwise.
"""

from __future__ import annotations

from typing import Any, Mapping

from larp.bidi import direction_controls_in
from larp.catalogues import merit_flaw, sheet_lists
from larp.rules.explain import RulesError
from larp.rules.numbers import NumberError, whole_number
from larp.sheet_entries import (CATEGORIES, CREATURES, WEAPON_KINDS, ArmorEntry, PowerEntry, QualityEntry, TraitEntry,
                                WeaponEntry)
from larp.tables import discipline_table, generation_table

def N_(message: str) -> str:  # noqa: N802 - gettext's name for it
    """Mark ``message`` for the catalogues (issue 36) without translating it: it is translated where shown."""
    return message


def gettext(message: str, **params) -> str:
    """``message`` in the reader's language (Flask-Babel's, imported when first needed: this module is read
    by the rules' tests without Flask); English outside a request."""
    from flask_babel import gettext as translate

    return translate(message, **params)


def direction_refusal(label: str, codes: list[str]) -> str:
    """The refusal of a name holding direction controls (:mod:`larp.bidi`), in the reader's language:
    ``label`` the field as the page names it, ``codes`` the controls ("U+202E")."""
    return gettext("%(label)s holds an invisible direction control (%(codes)s) that turns the text around it "
                   "(what is shown would not be what is stored): type it again without it.",
                   label=label, codes=", ".join(codes))


#: Longest text per field, in characters (the database's column sizes).
TEXT_LIMITS = {
    "name": 120, "player_name": 120, "clan": 80, "sect": 80, "title": 120, "morality_name": 80,
    "nature": 80, "demeanor": 80, "notes": 20000, "narrator_notes": 20000, "player_contact": 2000,
}
#: The words the sheet editor shows for each field (errors and the history name fields this way).
FIELD_LABELS = {
    "name": N_("Name"), "player_name": N_("Player"), "creature": N_("Creature"), "clan": N_("Clan"), "sect": N_("Sect"),
    "title": N_("Title"), "generation": N_("Generation"), "morality_name": N_("Humanity or Path"),
    "morality_rating": N_("Humanity or Path rating"), "willpower_permanent": N_("Permanent Willpower"),
    "willpower_current": N_("Current Willpower"), "blood_max": N_("Blood pool"), "blood_current": N_("Blood points"),
    "blood_per_turn": N_("Blood per turn"), "nature": N_("Nature"), "demeanor": N_("Demeanor"), "notes": N_("Notes"),
    "narrator_notes": N_("Narrator notes"), "player_contact": N_("Player contact"), "scene_extra": N_("Scene extra"),
    "derangements": N_("Derangements"), "health_levels": N_("Health levels"),
}
#: Lowest and highest value of each number (Traits, levels, dots, blood points).
LIMITS = {
    "morality_rating": (0, 10), "willpower_permanent": (0, 20), "willpower_current": (0, 20),
    "blood_max": (0, 50), "blood_current": (0, 50), "blood_per_turn": (0, 10),
    "trait_count": (1, 25), "ability_level": (1, 10), "power_level": (1, 9), "tabletop": (0, 10),
    "cost": (1, 7), "bonus_traits": (0, 6), "damage": (1, 5), "armor_rating": (1, 5),
}
#: Longest name of a Trait, Ability, power, Background...
NAME_LIMIT = 80
#: Most entries in one list (Traits of a category, Abilities, powers...).
LIST_LIMIT = 200
#: Thin-blooded generations past the table's last row (LotNR's table ends at the 13th;
#: :func:`larp.tables.generation_row` gives them the 13th's row).
THIN_BLOODED = (14, 15)


class SheetError(RulesError):
    """A sheet with invalid values: every problem as ``(field, message)`` in ``errors``.

    ``message`` and ``field`` are the first problem's (with a count when there
    are more), so code that shows one error still shows a useful one.
    """

    def __init__(self, errors: list[tuple[str, str]]):
        first_field, first = errors[0]
        more = f" ({len(errors) - 1} more problem{'s' if len(errors) > 2 else ''} below)" if len(errors) > 1 else ""
        super().__init__(first + more, field=first_field)
        self.errors = errors

    def by_field(self) -> dict[str, str]:
        """Field path to its message (the first message when a field has several)."""
        out: dict[str, str] = {}
        for key, message in self.errors:
            out.setdefault(key, message)
        return out


def generations() -> tuple[int, ...]:
    """The generations a vampire may have: the table's rows and the thin-blooded 14th and 15th."""
    return tuple(sorted(set(generation_table()) | set(THIN_BLOODED)))


def known_power(discipline: str, power: str) -> tuple[str, str, int] | None:
    """The table's spelling of ``discipline`` and ``power`` and the power's level, if
    ``data/disciplines.toml`` lists it (case-insensitive; a path's power is named
    ``"Path of Blood: A Taste for Blood"``); else ``None``."""
    path, _, name = power.rpartition(": ")
    for (disc, row_path), row in discipline_table().items():
        if disc.lower() != discipline.strip().lower() or row_path.lower() != path.strip().lower():
            continue
        for listed, level in row.levels.items():
            if listed.lower() == name.strip().lower():
                return disc, f"{row_path}: {listed}" if row_path else listed, level
    return None


class _Reader:
    """Reads one sheet's values, collecting every problem."""

    def __init__(self, data: dict[str, Any]):
        self.data = data
        self.errors: list[tuple[str, str]] = []

    def fail(self, where: str, message: str) -> None:
        self.errors.append((where, message))

    def text(self, value: Any, where: str, limit: int, label: str, required: bool = False,
             name: bool = False) -> str:
        if value is None:
            value = ""
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            self.fail(where, f"{label} must be text.")
            return ""
        text = str(value).strip()
        if any(ord(ch) < 32 and ch not in "\n\r\t" for ch in text):
            self.fail(where, f"{label} holds a control character.")
            return ""
        if name and direction_controls_in(text):  # new-user test 12, finding 4: larp.bidi
            self.fail(where, direction_refusal(gettext(label), direction_controls_in(text)))
            return text
        if required and not text:
            self.fail(where, gettext("%(label)s cannot be empty.", label=gettext(label)))
        elif len(text) > limit:
            self.fail(where, f"{label}: at most {limit:,} characters, not {len(text):,}.")
            return text[:limit]
        return text

    def number(self, value: Any, where: str, limits: tuple[int, int], label: str) -> int | None:
        low, high = limits
        if isinstance(value, str):
            try:
                value = whole_number(value, where)
            except NumberError:
                pass  # refused just below, with this sheet's words
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, gettext("%(label)s must be a whole number from %(low)s to %(high)s.", label=gettext(label),
                                      low=low, high=high))
            return None
        if not low <= value <= high:
            self.fail(where, gettext("%(label)s must be from %(low)s to %(high)s, not %(value)s.", label=gettext(label),
                                      low=low, high=high, value=value))
            return None
        return value

    def mapping(self, key: str) -> dict[str, Any]:
        value = self.data.get(key)
        if value in (None, ""):
            return {}
        if not isinstance(value, dict):
            self.fail(key, f"{key.replace('_', ' ').capitalize()} must be a table of names and values.")
            return {}
        return value

    def ratings(self, key: str, limits: tuple[int, int], what: str, prefix: str) -> dict[str, int]:
        """The table ``key`` of names and ratings (Abilities, Backgrounds, tabletop ratings): each name a text
        (``what`` names it), each rating a whole number within ``limits`` (``prefix`` and the name name it);
        a name or rating refused is left out."""
        out: dict[str, int] = {}
        for name, rating in self.mapping(key).items():
            where = f"{key}.{name}"
            label = self.text(name, where, NAME_LIMIT, what, required=True)
            value = self.number(rating, where, limits, f"{prefix} {label}")
            if label and value is not None:
                out[label] = value
        return out

    def items(self, key: str) -> list[Any]:
        value = self.data.get(key)
        if value in (None, ""):
            return []
        if not isinstance(value, list):
            self.fail(key, f"{key.replace('_', ' ').capitalize()} must be a list.")
            return []
        if len(value) > LIST_LIMIT:
            self.fail(key, f"At most {LIST_LIMIT} entries in {key.replace('_', ' ')}.")
            return value[:LIST_LIMIT]
        return value

    def names(self, value: Any, where: str, label: str) -> list[str]:
        if value in (None, ""):
            return []
        if isinstance(value, str):
            value = [part for part in value.split(",")]
        if not isinstance(value, list):
            self.fail(where, f"{label} must be a list of names.")
            return []
        out = [self.text(v, where, NAME_LIMIT, label) for v in value[:LIST_LIMIT]]
        return [v for v in out if v]


def read_sheet(cls: type, data: Any):
    """Check ``data`` and build a ``cls`` (:class:`larp.sheet.CharacterSheet`) from it.

    Rules checked: a name; a creature among vampire, ghoul, mortal; a vampire's
    generation in the LotNR generation table (or thin-blooded 14th/15th), and no
    generation for ghouls and mortals; counts, levels, ratings and costs within
    :data:`LIMITS` (Virtues and Backgrounds within ``data/sheet_lists.toml``);
    current Willpower and blood at most their maxima; Discipline powers from
    ``data/disciplines.toml`` at the table's level unless marked custom; Merits
    and Flaws from ``data/merits_flaws.toml`` (cost within the book's range) or
    custom with a name; weapons and armor from the live armory or custom with
    valid numbers, damage type, specials and parts covered.

    Raises:
        SheetError: every problem found (nothing is returned half-checked).
    """
    from larp.rules.damage import ARMOR_COVERS, WEAPON_SPECIALS, armory
    from larp.rules.health import DAMAGE_TYPES

    if not isinstance(data, dict):
        raise SheetError([("sheet", "A character sheet must be a table of fields.")])
    r = _Reader(dict(data))
    d = r.data
    name = r.text(d.get("name"), "name", TEXT_LIMITS["name"], N_("The name"), required=True, name=True)
    creature = str(d.get("creature") or "vampire").strip().lower() if isinstance(d.get("creature", ""), str) else ""
    if creature not in CREATURES:
        r.fail("creature", f"Unknown creature type {d.get('creature')!r}: vampire, ghoul or mortal.")
        creature = "vampire"
    sheet = cls(name=name or "?", creature=creature)
    for key, limit in TEXT_LIMITS.items():
        if key != "name" and key in d:
            setattr(sheet, key, r.text(d[key], key, limit, FIELD_LABELS[key], name=key == "player_name"))
    if not sheet.morality_name:
        sheet.morality_name = "Humanity"
    generation = d.get("generation")
    if generation not in (None, ""):
        value = r.number(generation, "generation", (1, 99), N_("The generation"))
        if value is not None and creature != "vampire":
            r.fail("generation", f"Only vampires have a generation; a {creature} has none.")
        elif value is not None and value not in generations():
            allowed = generations()
            r.fail("generation", f"Generation {value} is outside the generation table "
                                 f"({allowed[0]}th to {allowed[-1]}th).")
        else:
            sheet.generation = value
    for key in ("morality_rating", "willpower_permanent", "willpower_current", "blood_max", "blood_current",
                "blood_per_turn"):
        if d.get(key) not in (None, ""):
            value = r.number(d[key], key, LIMITS[key], FIELD_LABELS[key])
            if value is not None:
                setattr(sheet, key, value)
    sheet.fill_defaults()
    if sheet.willpower_current is not None and sheet.willpower_current > sheet.willpower_permanent:
        r.fail("willpower_current", f"Current Willpower {sheet.willpower_current} is above the permanent "
                                    f"{sheet.willpower_permanent}.")
    if sheet.blood_current is not None and sheet.blood_current > sheet.blood_max:
        r.fail("blood_current", f"Current blood {sheet.blood_current} is above the pool of {sheet.blood_max}.")
    if "scene_extra" in d:
        if not isinstance(d["scene_extra"], bool):
            r.fail("scene_extra", "Scene extra must be true or false.")
        else:
            sheet.scene_extra = d["scene_extra"]

    lists = sheet_lists()
    for virtue, rating in r.mapping("virtues").items():
        where = f"virtues.{virtue}"
        if virtue not in lists.virtues:
            r.fail(where, f"{virtue!r} is not a Virtue ({', '.join(lists.virtues)}).")
            continue
        value = r.number(rating, where, (0, lists.virtue_max), virtue)
        if value is not None:
            sheet.virtues[virtue] = value

    for attr in ("traits", "negative_traits"):
        groups = r.mapping(attr)
        for category, entries in groups.items():
            if category not in CATEGORIES:
                r.fail(attr, f"Unknown Trait category {category!r} (physical, social or mental).")
                continue
            if not isinstance(entries, list):
                r.fail(f"{attr}.{category}", "Traits must be a list.")
                continue
            merged: dict[str, TraitEntry] = {}
            for index, entry in enumerate(entries[:LIST_LIMIT]):
                where = f"{attr}.{category}.{index}"
                trait = _trait_entry(r, entry, where)
                if trait is None:
                    continue
                key = trait.name.lower()
                if key in merged:
                    merged[key].count += trait.count
                    if merged[key].count > LIMITS["trait_count"][1]:
                        r.fail(f"{where}.count", f"{trait.name} ×{merged[key].count} is more than "
                                                 f"{LIMITS['trait_count'][1]}.")
                else:
                    merged[key] = trait
            getattr(sheet, attr)[category] = list(merged.values())

    sheet.abilities.update(r.ratings("abilities", LIMITS["ability_level"], N_("An Ability's name"), "Ability"))
    for ability, names in r.mapping("specialisations").items():
        where = f"specialisations.{ability}"
        chosen = r.names(names, where, f"{ability}'s specialisations")
        if chosen and ability not in sheet.abilities:
            r.fail(where, f"A specialisation of {ability} needs the Ability {ability} on the sheet.")
        elif chosen:
            sheet.specialisations[ability] = chosen

    seen_powers: set[tuple[str, str]] = set()
    for index, entry in enumerate(r.items("powers")):
        where = f"powers.{index}"
        if not isinstance(entry, dict):
            r.fail(where, "A power needs a Discipline, a power and a level.")
            continue
        discipline = r.text(entry.get("discipline"), where, NAME_LIMIT, N_("The Discipline"), required=True)
        power = r.text(entry.get("power"), where, NAME_LIMIT, N_("The power"), required=True)
        custom = entry.get("custom", False)
        if not isinstance(custom, bool):
            r.fail(where, "Custom must be true or false.")
            continue
        if not discipline or not power:
            continue
        level = entry.get("level")
        if not custom:
            known = known_power(discipline, power)
            if known is None:
                r.fail(where, f"{power} is not a power of {discipline} in data/disciplines.toml: "
                              "choose one from the list, or mark it as a custom power.")
                continue
            discipline, power, table_level = known
            if level not in (None, "") and r.number(level, where, LIMITS["power_level"], power) not in (
                    None, table_level):
                r.fail(where, f"{power} is level {table_level} of {discipline}, not {level} (LotNR).")
                continue
            level = table_level
        value = r.number(level, where, LIMITS["power_level"], f"{power}'s level")
        if value is None:
            continue
        if (discipline.lower(), power.lower()) in seen_powers:
            r.fail(where, f"{discipline}: {power} is on the sheet twice.")
            continue
        seen_powers.add((discipline.lower(), power.lower()))
        sheet.powers.append(PowerEntry(discipline, power, value, custom))

    sheet.backgrounds.update(r.ratings("backgrounds", (1, lists.background_max), N_("A Background's name"), "Background"))

    for kind, attr in (("merit", "merits"), ("flaw", "flaws")):
        for index, entry in enumerate(r.items(attr)):
            quality = _quality(r, kind, entry, f"{attr}.{index}")
            if quality is not None:
                getattr(sheet, attr).append(quality)

    sheet.derangements = r.names(d.get("derangements"), "derangements", "Derangements")

    for where, entry, key, note, card in _armory_entries(r, "weapons", armory("live").weapons, "weapon",
                                                         "A weapon needs an armory card or a name."):
        if card is not None:
            sheet.weapons.append(WeaponEntry(name=card.name, key=key, bonus_traits=card.bonus_traits,
                                             damage=card.damage, damage_type=card.damage_type,
                                             negative_traits=list(card.negative_traits),
                                             specials=list(card.specials), kind=weapon_kind_of(card), note=note))
            continue
        weapon = WeaponEntry(name=r.text(entry.get("name"), f"{where}.name", NAME_LIMIT, "A custom weapon's name",
                                         required=True), note=note)
        bonus = r.number(entry.get("bonus_traits", 0), f"{where}.bonus_traits", LIMITS["bonus_traits"],
                         "Bonus Traits")
        damage = r.number(entry.get("damage", 1), f"{where}.damage", LIMITS["damage"], "Damage")
        damage_type = entry.get("damage_type", "bashing")
        if damage_type not in DAMAGE_TYPES:
            r.fail(f"{where}.damage_type", f"Unknown damage type {damage_type!r} ({', '.join(DAMAGE_TYPES)}).")
        kind = entry.get("kind", "blade")
        if kind not in WEAPON_KINDS:
            r.fail(f"{where}.kind", f"Unknown kind of weapon {kind!r} ({', '.join(WEAPON_KINDS)}).")
        specials = r.names(entry.get("specials"), f"{where}.specials", "Specials")
        unknown = [s for s in specials if s not in WEAPON_SPECIALS]
        if unknown:
            r.fail(f"{where}.specials", f"Unknown special {unknown[0]!r} ({', '.join(WEAPON_SPECIALS)}).")
        weapon.negative_traits = r.names(entry.get("negative_traits"), f"{where}.negative_traits",
                                         "Negative Traits")
        if weapon.name and bonus is not None and damage is not None and damage_type in DAMAGE_TYPES \
                and kind in WEAPON_KINDS and not unknown:
            weapon.bonus_traits, weapon.damage, weapon.damage_type = bonus, damage, damage_type
            weapon.kind, weapon.specials = kind, specials
            sheet.weapons.append(weapon)

    for where, entry, key, note, piece in _armory_entries(r, "armor", armory("live").armor, "armor",
                                                          "Armor needs an armory piece or a name."):
        if piece is not None:
            sheet.armor.append(ArmorEntry(name=piece.name, key=key, rating=piece.rating,
                                          negative_traits=list(piece.negative_traits), covers=list(piece.covers),
                                          note=note))
            continue
        worn = ArmorEntry(name=r.text(entry.get("name"), f"{where}.name", NAME_LIMIT, "Custom armor's name",
                                      required=True), note=note)
        rating = r.number(entry.get("rating", 1), f"{where}.rating", LIMITS["armor_rating"], "The armor's rating")
        covers = r.names(entry.get("covers"), f"{where}.covers", "What it protects")
        unknown = [c for c in covers if c not in ARMOR_COVERS]
        if unknown:
            r.fail(f"{where}.covers", f"Armor protects {', '.join(ARMOR_COVERS)}, not {unknown[0]!r}.")
        worn.negative_traits = r.names(entry.get("negative_traits"), f"{where}.negative_traits", "Negative Traits")
        if worn.name and rating is not None and not unknown:
            worn.rating, worn.covers = rating, covers
            sheet.armor.append(worn)

    sheet.tabletop.update(r.ratings("tabletop", LIMITS["tabletop"], "A tabletop rating's name", "Tabletop"))
    levels = r.names(d.get("health_levels"), "health_levels", "Health levels")
    sheet.health_levels = levels[:20]
    if r.errors:
        raise SheetError(r.errors)
    return sheet


def _armory_entries(r: _Reader, attr: str, cards: Mapping[str, Any], noun: str, needs: str):
    """Each entry of the list ``attr`` (weapons or armor) as ``(where, entry, key, note, card)``: ``card`` is the
    live armory's card its ``key`` names, ``None`` for a custom entry (read by the caller). An entry that is not
    an object, or names no card of the armory, is refused here (``needs``; "There is no <noun> ...") and skipped."""
    for index, entry in enumerate(r.items(attr)):
        where = f"{attr}.{index}"
        if not isinstance(entry, dict):
            r.fail(where, needs)
            continue
        key = r.text(entry.get("key"), where, NAME_LIMIT, "The armory key")
        note = r.text(entry.get("note"), f"{where}.note", NAME_LIMIT, "The note")
        card = cards.get(key) if key else None
        if key and card is None:
            r.fail(where, f"There is no {noun} {key!r} in the armory.")
            continue
        yield where, entry, key, note, card


def _trait_entry(r: _Reader, entry: Any, where: str):
    if isinstance(entry, str):
        text, count = entry.strip(), 1
        head, sep, tail = text.rpartition(" x")
        if sep:
            try:
                text, count = head.strip(), whole_number(tail, where)
            except NumberError:
                pass  # "x" is part of the name
    elif isinstance(entry, dict):
        text, count = entry.get("name"), entry.get("count", 1)
    else:
        r.fail(where, f"Cannot read the Trait {entry!r}.")
        return None
    name = r.text(text, f"{where}.name", NAME_LIMIT, N_("A Trait's name"), required=True)
    value = r.number(count, f"{where}.count", LIMITS["trait_count"], f"The count of {name or 'a Trait'}")
    if not name or value is None:
        return None
    return TraitEntry(name, value)


def _quality(r: _Reader, kind: str, entry: Any, where: str):
    label = "Merit" if kind == "merit" else "Flaw"
    if not isinstance(entry, dict):
        r.fail(where, f"A {label} needs a name and a cost.")
        return None
    key = r.text(entry.get("key"), where, NAME_LIMIT, "The catalogue key")
    note = r.text(entry.get("note"), f"{where}.note", NAME_LIMIT, "The note")
    cost = entry.get("cost")
    if key:
        listed = merit_flaw(kind, key)
        if listed is None:
            r.fail(where, f"There is no {label} {key!r} in data/merits_flaws.toml: choose one from the list "
                          "or add a custom one.")
            return None
        value = r.number(listed.cost if cost in (None, "") else cost, f"{where}.cost",
                         (listed.cost, listed.max_cost), f"{listed.name}'s cost")
        return None if value is None else QualityEntry(listed.name, value, key, note)
    name = r.text(entry.get("name"), f"{where}.name", NAME_LIMIT, f"A custom {label}'s name", required=True)
    value = r.number(cost, f"{where}.cost", LIMITS["cost"], f"{name or 'The'} cost")
    if not name or value is None:
        return None
    return QualityEntry(name, value, "", note)


def weapon_kind_of(card) -> str:
    """The sheet's kind of weapon (:data:`larp.sheet_entries.WEAPON_KINDS`) for an armory card."""
    if card.firearm:
        return "firearm"
    if card.melee:
        return "blunt" if card.blunt else "blade"
    return "ranged"
