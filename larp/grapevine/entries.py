"""A sheet as Grapevine's list entries: what the writer writes for each Trait, Ability, power...

One function, :func:`sheet_entries`, used both ways: the writer writes these entries, and the
reader compares each entry of a file with the entry the sheet it read would give, keeping the
file's own spelling of what differs (``larp.grapevine.kept``, "originals") so that an export
gives back what the file said while the sheet says the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from larp.grapevine.format import ADJECTIVE_LISTS, DEFAULT_HEALTH_STATES, NEGATIVE_LISTS, POWER_LIST, TIER_BY_LEVEL
from larp.sheet import CharacterSheet
from larp.sheet_checks import known_power

Entry = dict[str, str]  # an entry's attributes (name, val, note) in Grapevine's order


def entry(name: str, val: int | str | None = None, note: str | None = None) -> Entry:
    """An entry ``<trait name val note>``; ``val`` 1 is left out, as Grapevine does (real-data README:
    "a trait without val counts 1")."""
    out = {"name": name}
    if val is not None and str(val) != "1":
        out["val"] = str(val)
    if note:
        out["note"] = note
    return out


def element_of(creature: str, kept: dict | None = None) -> str:
    """The Grapevine element a character is written as: the one it was read from (kept), else
    ``vampire`` for vampires and ghouls (a ghoul as ``clan="Ghoul"``, as the NPC library writes
    them) and ``mortal`` for mortals."""
    if kept and kept.get("element") in ("vampire", "mortal"):
        return kept["element"]
    return "mortal" if creature == "mortal" else "vampire"


def power_note(discipline: str, power: str, level: int) -> str:
    """Grapevine's note on a power: its tier (``basic``, ``int.``, ``adv.``, ``elder``...) for a power
    of ``data/disciplines.toml`` or a tier of one level; the level itself ("2") for a custom power
    of a two-level tier (Basic, Intermediate), which the reader takes as its level."""
    label, _ = TIER_BY_LEVEL[level]
    if known_power(discipline, power) is not None or level >= 5:
        return label
    return str(level)


def weapon_note(bonus: int, damage: int, damage_type: str, negatives: Sequence[str]) -> str:
    """Grapevine's note on a weapon: ``+2, 2 Lethal, Loud`` (bonus Traits, damage, its type, the
    card's Negative Traits)."""
    return ", ".join([f"+{bonus}", f"{damage} {damage_type.capitalize()}", *negatives])


def armor_note(rating: int, negatives: Sequence[str]) -> str:
    """Grapevine's note on armor: ``+0, 2 Armor Levels, Heavy``."""
    return ", ".join(["+0", f"{rating} Armor Levels", *negatives])


def health_chart(sheet: CharacterSheet, track: Sequence[str]) -> list[tuple[str, int]]:
    """The health chart Grapevine keeps: the sheet's own levels, else the chronicle's ``track`` with
    Mettle's Healthy box when the sheet has Fortitude: Mettle (met-reference 3.5), as runs of
    ``(level, boxes)``."""
    levels = list(sheet.health_levels) or list(track)
    if not sheet.health_levels and any(p.discipline == "Fortitude" and p.power == "Mettle" for p in sheet.powers):
        levels = ["Healthy"] + levels
    runs: list[tuple[str, int]] = []
    for level in levels:
        if runs and runs[-1][0] == level:
            runs[-1] = (level, runs[-1][1] + 1)
        else:
            runs.append((level, 1))
    return runs


def sheet_entries(sheet: CharacterSheet, element: str, track: Sequence[str],
                  health_states: Sequence[str] | None = None) -> dict[str, list[Entry]]:
    """Every list entry Grapevine holds for ``sheet``, by list name (lists the sheet has nothing for are
    absent). ``element`` is ``vampire`` or ``mortal`` (the powers' list is Disciplines or Numina);
    ``track`` the chronicle's health levels; ``health_states`` the chart's closing states (default: a
    vampire's Torpor, a mortal's Mortally Wounded)."""
    lists: dict[str, list[Entry]] = {}
    for list_name, category in ADJECTIVE_LISTS.items():
        lists[list_name] = [entry(t.name, t.count) for t in sheet.traits.get(category, [])]
    for list_name, category in NEGATIVE_LISTS.items():
        lists[list_name] = [entry(t.name, t.count) for t in sheet.negative_traits.get(category, [])]
    lists["Abilities"] = [entry(name, level, ", ".join(sheet.specialisations.get(name, [])))
                          for name, level in sheet.abilities.items()]
    lists["Backgrounds"] = [entry(name, rating) for name, rating in sheet.backgrounds.items()]
    states = DEFAULT_HEALTH_STATES[element] if health_states is None else health_states
    lists["Health Levels"] = [entry(level, boxes) for level, boxes in health_chart(sheet, track)] + [
        entry(state) for state in states]
    lists["Derangements"] = [entry(name) for name in sheet.derangements]
    lists[POWER_LIST[element]] = [
        entry(f"{p.discipline}: {p.power}", TIER_BY_LEVEL[p.level][1], power_note(p.discipline, p.power, p.level))
        for p in sheet.powers]
    lists["Merits"] = [entry(q.name, q.cost, q.note) for q in sheet.merits]
    lists["Flaws"] = [entry(q.name, q.cost, q.note) for q in sheet.flaws]
    lists["Equipment"] = [
        entry(w.name, None, weapon_note(w.bonus_traits, w.damage, w.damage_type, w.negative_traits))
        for w in sheet.weapons] + [entry(a.name, None, armor_note(a.rating, a.negative_traits)) for a in sheet.armor]
    return {name: entries for name, entries in lists.items() if entries}
