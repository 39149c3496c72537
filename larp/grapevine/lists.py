"""Grapevine's lists of one character record onto the sheet: ``<traitlist name="...">`` of
``<trait name val note>``.

``val`` is a count in the Trait, Ability and Background lists, a cost in Merits and Flaws, boxes in
Health Levels; an entry without ``val`` counts 1 (real-data README). Notes in Trait names
("Quick (D)") are taken out and kept for the export; notes on Abilities are their specialisations.
Merits and Flaws take the catalogue's entry of that name (``data/merits_flaws.toml``) or a custom
one. Equipment becomes the live armory's card of that name, a custom weapon (``+2, 2 Lethal, Loud``)
or custom armor (``+0, 2 Armor Levels, Heavy``), else it is kept. A list the sheet has no place
for is kept as written (:mod:`larp.grapevine.kept`). Discipline powers: :mod:`larp.grapevine.powers`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from larp.catalogues import merits_flaws, sheet_lists
from larp.grapevine.format import (ADJECTIVE_LISTS, DEFAULT_HEALTH_STATES, HEALTH_STATES, LIST_ATTRIBUTES,
                                   LIST_ORDER, NEGATIVE_LISTS)
from larp.grapevine.names import spelling_key
from larp.grapevine.record import Record, whole
from larp.rules.damage import armory
from larp.rules.explain import N_, Phrase
from larp.sheet_entries import ArmorEntry, QualityEntry, TraitEntry, WeaponEntry
from larp.sheet_checks import LIMITS, NAME_LIMIT, weapon_kind_of

#: The largest Trait count the LotNR generation table allows (4th generation); anything above is a typo.
MOST_TRAITS = 25
MOST_ABILITY = LIMITS["ability_level"][1]
_DAMAGE_WORDS = {"bashing": "bashing", "lethal": "lethal", "aggravated": "aggravated", "agg": "aggravated",
                 "agg.": "aggravated"}
_WEAPON_NOTE = re.compile(r"\s*\+(\d+)\s*,\s*(\d+)\s+(Bashing|Lethal|Aggravated|Agg\.?)\s*(?:,\s*(.*?))?\s*",
                          re.IGNORECASE)
_ARMOR_NOTE = re.compile(r"\s*\+0\s*,\s*(\d+)\s+Armou?r\s+Levels?\s*(?:,\s*(.*?))?\s*", re.IGNORECASE)
_FIREARM_WORDS = re.compile(r"\b(gun|pistol|rifle|revolver|shotgun|smg|uzi|carbine|glock)\b", re.IGNORECASE)
_RANGED_WORDS = re.compile(r"\b(bow|crossbow|sling|javelin|throwing)\b", re.IGNORECASE)





def read_lists(record: Record) -> dict[str, list[ET.Element]]:
    """The record's lists by name (two lists of one name are one), keeping a list's attributes and
    the lists' order where they are not Grapevine's usual ones."""
    lists: dict[str, list[ET.Element]] = {}
    for traitlist in record.element.findall("traitlist"):
        name = traitlist.get("name") or ""
        if name not in lists:
            lists[name] = []
            attributes = {k: v for k, v in traitlist.attrib.items() if k != "name"}
            if attributes != LIST_ATTRIBUTES.get(name):
                record.kept.setdefault("list_attributes", {})[name] = attributes
        lists[name].extend(traitlist.findall("trait"))
    usual = LIST_ORDER[record.element.tag]
    # Without a health chart, the usual lists but that one: how our export writes a record whose file
    # had no chart (``absent``), not an order of the file's own.
    if tuple(lists) not in (usual, tuple(n for n in usual if n != "Health Levels")):
        record.kept["list_order"] = list(lists)
    return lists


def _count(record: Record, list_name: str, trait: ET.Element, most: int = MOST_TRAITS) -> int:
    raw = (trait.get("val") or "").strip()
    if not raw:
        return 1
    count = whole(raw)
    if count is not None and count >= 1:
        if count > most:
            record.problems.append(Phrase.message(N_("%(list)s: %(name)s has the count %(raw)s, more than %(most)s; "
                                                     "counted as %(most)s."), list=list_name,
                                                  name=repr(trait.get("name")), raw=raw, most=most))
            return most
        return count
    record.problems.append(Phrase.message(N_("%(list)s: %(name)s has the count %(raw)s; counted as 1."), list=list_name,
                                          name=repr(trait.get("name")), raw=repr(raw)))
    return 1


def _split_parenthesis(name: str) -> tuple[str, str]:
    """``"Quick (D)"`` -> ``("Quick", "D")``; a name without a closing parenthesis is kept whole."""
    match = re.fullmatch(r"(.*?)\s*\(([^()]*)\)\s*", name)
    if match and match.group(1):
        return match.group(1).strip(), match.group(2).strip()
    return name, ""


def _split_trait_name(name: str) -> tuple[str, str]:
    """``"Quick (D)"`` -> ``("Quick", "D")``; ``"Dex: Graceful"`` -> ``("Graceful", "Dex")``."""
    name, note = _split_parenthesis(name)
    if ":" in name:
        prefix, _, rest = name.rpartition(":")
        if rest.strip():
            name, note = rest, ", ".join(x for x in (prefix.strip(), note) if x)
    return name.strip(), note.strip()


def read_traits(record: Record, lists: dict[str, list[ET.Element]]) -> None:
    """The Physical, Social and Mental lists and their Negative lists onto the sheet (counts in Traits);
    a Trait listed twice is one Trait with the counts added, capped at 25 and reported past it."""
    for list_name, category in list(ADJECTIVE_LISTS.items()) + list(NEGATIVE_LISTS.items()):
        target = record.sheet.negative_traits if list_name in NEGATIVE_LISTS else record.sheet.traits
        entries: dict[str, TraitEntry] = {}
        totals: dict[str, int] = {}  # a Trait listed twice adds up; past the sheet's limit it is capped, reported
        stripped = []
        for trait in lists.pop(list_name, []):
            raw = (trait.get("name") or "").strip()
            if not raw:
                record.problems.append(Phrase.message(N_("%(list)s: a Trait without a name is kept as written, not on "
                                                         "the sheet."), list=list_name))
                record.keep(list_name, trait)
                continue
            name, name_note = _split_trait_name(raw)
            if name_note:
                stripped.append(Phrase.message(N_("%(raw)s as %(name)s"), raw=repr(raw), name=name))
            count = _count(record, list_name, trait)
            totals[name] = totals.get(name, 0) + count
            if name in entries:
                entries[name].count = min(totals[name], MOST_TRAITS)
            else:
                entries[name] = TraitEntry(name, count)
            record.place(list_name, trait, name)
        for name, total in totals.items():
            if total > MOST_TRAITS:
                record.problems.append(Phrase.message(N_("%(list)s: %(name)s adds up to %(total)s, more than %(most)s; "
                                                         "counted as %(most)s."), list=list_name, name=name, total=total,
                                                      most=MOST_TRAITS))
        target[category] = list(entries.values())
        if stripped:
            record.renamed.append(Phrase.message(N_("%(list)s: notes taken out of Trait names (kept as written for "
                                                    "Grapevine): %(names)s."), list=list_name, names=stripped))


def _specialisations(*texts: str) -> tuple[list[str], bool]:
    """Specialisations named in a note (``"Rifles, Pistols"``); ``False`` when one is too long to be one."""
    names = [part.strip() for text in texts for part in text.split(",") if part.strip()]
    return names, all(len(n) <= NAME_LIMIT for n in names)


def read_abilities(record: Record, traits: list[ET.Element]) -> None:
    """Abilities with their levels (at most the sheet's 10); a note, or a parenthesis in the name, names
    the specialisations."""
    stripped = []
    sheet = record.sheet
    for trait in traits:
        raw = (trait.get("name") or "").strip()
        if not raw:
            record.problems.append(Phrase.message(N_("Abilities: an Ability without a name is kept as written, not on "
                                                     "the sheet.")))
            record.keep("Abilities", trait)
            continue
        name, in_name = _split_parenthesis(raw)  # "Lore: Camarilla" keeps its colon
        if in_name:
            stripped.append(Phrase.message(N_("%(raw)s as %(name)s with the specialisation %(specialisation)s"),
                                           raw=repr(raw), name=name, specialisation=in_name))
        names, fit = _specialisations(in_name, trait.get("note") or "")
        if not fit:
            record.problems.append(Phrase.message(N_("Abilities: %(name)s has a note too long for a specialisation; kept "
                                                     "as written."), name=repr(raw)))
            names = []
        level = _count(record, "Abilities", trait, MOST_ABILITY)
        if sheet.abilities.get(name, 0) + level > MOST_ABILITY:
            record.problems.append(Phrase.message(N_("Abilities: %(name)s adds up to more than %(most)s; set to %(most)s."),
                                                  name=name, most=MOST_ABILITY))
        sheet.abilities[name] = min(sheet.abilities.get(name, 0) + level, MOST_ABILITY)
        if names:
            held = sheet.specialisations.setdefault(name, [])
            held.extend(n for n in names if n not in held)
        record.place("Abilities", trait, name)
    if stripped:
        record.renamed.append(Phrase.message(N_("Abilities: notes taken out of Ability names: %(names)s."), names=stripped))


def read_backgrounds(record: Record, traits: list[ET.Element]) -> None:
    """Backgrounds with their ratings (at most ``sheet_lists().background_max``)."""
    most = sheet_lists().background_max
    for trait in traits:
        name = (trait.get("name") or "").strip()
        if not name:
            record.keep("Backgrounds", trait)
            continue
        rating = record.sheet.backgrounds.get(name, 0) + _count(record, "Backgrounds", trait, most)
        if rating > most:
            record.problems.append(Phrase.message(N_("Backgrounds: %(name)s adds up to more than %(most)s; set to %(most)s."),
                                                  name=name, most=most))
        record.sheet.backgrounds[name] = min(rating, most)
        record.place("Backgrounds", trait, name)


def _costs(raw: str) -> list[int]:
    """The numbers of a Grapevine cost: ``"2"``, a range ``"2-3"``, a choice ``"2 or 4"``, ``"1-7"``."""
    numbers = [int(n) for n in re.findall(r"\d+", raw)]
    if re.fullmatch(r"\s*\d+\s*-\s*\d+\s*", raw) and len(numbers) == 2 and numbers[0] <= numbers[1]:
        return list(range(numbers[0], numbers[1] + 1))
    return numbers


def read_qualities(record: Record, kind: str, list_name: str, traits: list[ET.Element]) -> None:
    """Merits or Flaws: the catalogue's entry of that name (``data/merits_flaws.toml``) or a custom one;
    a cost given as a range ("2-3") or a choice ("2 or 4") takes its lowest cost the catalogue allows."""
    catalogue = {spelling_key(e.name): e for e in merits_flaws().values() if e.kind == kind}
    target = record.sheet.merits if kind == "merit" else record.sheet.flaws
    low, high = LIMITS["cost"]
    for trait in traits:
        name = (trait.get("name") or "").strip()
        note = (trait.get("note") or "").strip()
        if not name:
            record.keep(list_name, trait)
            continue
        listed = catalogue.get(spelling_key(name))
        raw = (trait.get("val") or "").strip()
        allowed = range(listed.cost, listed.max_cost + 1) if listed else range(low, high + 1)
        options = _costs(raw) if raw else [1 if 1 in allowed else allowed[0]]
        fitting = [n for n in options if n in allowed]
        cost = fitting[0] if fitting else allowed[0]
        if raw and not fitting:
            record.problems.append(Phrase.message(
                N_("%(list)s: %(name)s costs %(raw)s in the file, outside %(low)s..%(high)s; %(cost)s used."),
                list=list_name, name=name, raw=repr(raw), low=allowed[0], high=allowed[-1], cost=cost))
        elif raw and len(options) > 1:
            record.problems.append(Phrase.message(N_("%(list)s: %(name)s costs %(raw)s in the file (a range); %(cost)s used."),
                                                  list=list_name, name=name, raw=repr(raw), cost=cost))
        target.append(QualityEntry(listed.name if listed else name, cost, listed.key if listed else "",
                                   note if len(note) <= NAME_LIMIT else ""))
        if listed and listed.name != name:
            record.renamed.append(Phrase.message(N_("%(list)s: read %(name)s as %(spelling)s (the catalogue's spelling)."),
                                                 list=list_name, name=repr(name), spelling=listed.name))
        record.place(list_name, trait, target[-1].name)


def read_derangements(record: Record, traits: list[ET.Element]) -> None:
    """Derangements by name."""
    for trait in traits:
        name = (trait.get("name") or "").strip()
        if not name:
            record.keep("Derangements", trait)
            continue
        record.sheet.derangements.append(name)
        record.place("Derangements", trait, name)


def read_equipment(record: Record, traits: list[ET.Element]) -> None:
    """Equipment: the live armory's weapon or armor of that name (its card's numbers), else a custom
    weapon or armor from Grapevine's note (``+2, 2 Lethal, Loud``: bonus Traits, damage and its type,
    Negative Traits; ``+0, 2 Armor Levels, Heavy``), else kept as written (a phone, a journal)."""
    live = armory("live")
    weapons = {spelling_key(w.name): w for w in live.weapons.values()}
    pieces = {spelling_key(a.name): a for a in live.armor.values()}
    for trait in traits:
        name = (trait.get("name") or "").strip()
        note = (trait.get("note") or "").strip()
        key = spelling_key(name)
        entry: WeaponEntry | ArmorEntry | None = None
        if name and key in weapons:
            card = weapons[key]
            entry = WeaponEntry(name=card.name, key=card.key, bonus_traits=card.bonus_traits, damage=card.damage,
                                damage_type=card.damage_type, negative_traits=list(card.negative_traits),
                                specials=list(card.specials), kind=weapon_kind_of(card))
        elif name and key in pieces:
            piece = pieces[key]
            entry = ArmorEntry(name=piece.name, key=piece.key, rating=piece.rating,
                               negative_traits=list(piece.negative_traits), covers=list(piece.covers))
        elif name and len(name) <= NAME_LIMIT:
            entry = _custom_weapon(name, note) or _custom_armor(name, note)
        if entry is None:
            record.keep("Equipment", trait)
            continue
        (record.sheet.weapons if isinstance(entry, WeaponEntry) else record.sheet.armor).append(entry)
        if entry.key and name != entry.name:
            record.renamed.append(Phrase.message(N_("Equipment: read %(name)s as the armory's %(entry)s."),
                                                 name=repr(name), entry=entry.name))
        record.place("Equipment", trait, entry.name)


def _negatives(text: str | None) -> list[str] | None:
    names = [part.strip() for part in (text or "").split(",") if part.strip()]
    return names if all(len(n) <= NAME_LIMIT for n in names) and len(names) <= 20 else None


def _custom_weapon(name: str, note: str) -> WeaponEntry | None:
    """A weapon from Grapevine's note, or ``None`` when the note is not one (or out of the sheet's limits).
    Its kind: a firearm when Loud or named like a gun, ranged when named like a bow, blunt for bashing
    damage, else a blade."""
    match = _WEAPON_NOTE.fullmatch(note)
    if not match:
        return None
    bonus, damage = int(match.group(1)), int(match.group(2))
    damage_type = _DAMAGE_WORDS[match.group(3).lower()]
    negatives = _negatives(match.group(4))
    if negatives is None or not LIMITS["bonus_traits"][0] <= bonus <= LIMITS["bonus_traits"][1] \
            or not LIMITS["damage"][0] <= damage <= LIMITS["damage"][1]:
        return None
    if "loud" in (n.lower() for n in negatives) or _FIREARM_WORDS.search(name):
        kind = "firearm"
    elif _RANGED_WORDS.search(name):
        kind = "ranged"
    else:
        kind = "blunt" if damage_type == "bashing" else "blade"
    return WeaponEntry(name=name, bonus_traits=bonus, damage=damage, damage_type=damage_type,
                       negative_traits=negatives, kind=kind)


def _custom_armor(name: str, note: str) -> ArmorEntry | None:
    """Armor from Grapevine's note (``+0, 2 Armor Levels, Heavy``), or ``None``."""
    match = _ARMOR_NOTE.fullmatch(note)
    if not match:
        return None
    rating, negatives = int(match.group(1)), _negatives(match.group(2))
    if negatives is None or not LIMITS["armor_rating"][0] <= rating <= LIMITS["armor_rating"][1]:
        return None
    return ArmorEntry(name=name, rating=rating, negative_traits=negatives)


def read_health(record: Record, traits: list[ET.Element], track: tuple[str, ...]) -> None:
    """The health chart: boxes (``Healthy x2``...) then states (``Torpor``). Kept on the sheet only where
    it differs from the chronicle's ``track`` (a Healthy box more with Fortitude: Mettle is Mettle's, met-reference
    3.5, which the sheet derives)."""
    levels: list[str] = []
    chart: list[str] = []
    states: list[str] = []
    if not traits:
        return  # no chart in the file: nothing to keep (the export leaves it out: ``absent``)
    for trait in traits:
        name = (trait.get("name") or "").strip()
        boxes = _count(record, "Health Levels", trait)
        note = (trait.get("note") or "").strip()
        chart.append(f"{name} x{boxes}" + (f" ({note})" if note else ""))
        if not name:
            record.keep("Health Levels", trait)
        elif name.lower() in HEALTH_STATES:
            if boxes != 1:
                record.problems.append(Phrase.message(N_("Health Levels: %(name)s x%(boxes)s is a state, not boxes; read "
                                                         "as one."), name=name, boxes=boxes))
            states.append(name)
        else:
            levels.extend([name] * boxes)
            record.place("Health Levels", trait, name)
    if tuple(states) != DEFAULT_HEALTH_STATES[record.element.tag]:
        record.kept["health_states"] = states
    if not levels or levels == list(track):
        return
    has_mettle = any(p.discipline == "Fortitude" and p.power == "Mettle" for p in record.sheet.powers)
    if has_mettle and levels == ["Healthy"] + list(track):
        return  # the extra Healthy box is Mettle's; the sheet derives it
    record.sheet.health_levels = levels[:20]
    record.problems.append(Phrase.message(
        N_("Health Levels: the chart %(chart)s differs from the chronicle's track; kept on the sheet."), chart=chart)
    )


def keep_other_lists(record: Record, lists: dict[str, list[ET.Element]]) -> None:
    """Every list left (Status, Influences, Rituals, lists Grapevine users made up...) kept as written;
    a list Grapevine does not give is reported."""
    for list_name, traits in lists.items():
        if list_name not in LIST_ATTRIBUTES and traits:
            record.problems.append(Phrase.counted(len(traits), "Unknown list %(list)s (%(n)s entry) kept as written, "
                                                  "not on the sheet.", "Unknown list %(list)s (%(n)s entries) kept as "
                                                  "written, not on the sheet.", list=repr(list_name)))
        for trait in traits:
            record.keep(list_name, trait)
