"""Reading Grapevine's Discipline powers: their Discipline, path, name and level.

A vampire's powers are ``Discipline: Power`` (or ``Discipline: Path: Power``) entries of the
Disciplines list, a ghoul's of the mortal's Numina list. Grapevine notes each with its tier
(``basic``, ``int.``, ``adv.``, ``elder``...) and costs it in experience (3, 6, 9...); older sheets
put a level in the name (``Celerity: Level II: Rapidity``, ``Auspex: 3: Telepathy``) and some
people note a level (``3``, ``level 3``) or a clan's own power's Discipline (``Protean 7``).

A power's level (its place in its Discipline, 1 to 9) comes first from the LotNR order in
``data/disciplines.toml``; failing that from a level in its name or its note; failing that from
its tier (name, note, or for a known Discipline its experience cost), Basic and Intermediate
powers taking the tier's free levels in list order, which is reported as an assumption. A power
with no level to be had (clan combination powers such as "Anarch: Give 'em Hell") is not put on
the sheet: it is kept as written and reported. Discipline and path names are read as the table
spells them, or as the file first spells them (:mod:`larp.grapevine.names`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache

from larp.grapevine.names import closest, same_but_spelling
from larp.grapevine.record import Record, whole
from larp.rules.explain import N_, Phrase
from larp.sheet_entries import PowerEntry
from larp.sheet_checks import known_power
from larp.tables import DisciplineRow, discipline_table

TIER_LEVELS = {
    "basic": (1, 2), "intermediate": (3, 4), "advanced": (5,),
    "elder": (6,), "master": (7,), "ascendant": (8,), "methuselah": (9,),
    # "Master:" in older sheets means any power past Advanced.
    "past advanced": (6,),
}
TIER_WORDS = {
    "basic": "basic", "int": "intermediate", "intermediate": "intermediate",
    "adv": "advanced", "advanced": "advanced", "elder": "elder", "master": "master",
    "asc": "ascendant", "ascendant": "ascendant", "meth": "methuselah", "methuselah": "methuselah",
}
TIER_COSTS = {3: "basic", 6: "intermediate", 9: "advanced", 12: "elder", 15: "master",
              18: "ascendant", 21: "methuselah"}
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9}
#: A name read as the table's near spelling of it, as the report says it.
NEAR_SPELLING = N_("%(list)s: read %(name)s as %(chosen)s (a near spelling).")
#: How the file marks a power's tier, as the report says it.
TIER_SAID = {"basic": N_("a Basic power"), "intermediate": N_("an Intermediate power"),
              "advanced": N_("an Advanced power"), "past advanced": N_("a Master power")}
_LEVEL_NOTE = re.compile(r"(?:level\s*|lvl\.?\s*)?([1-9])", re.IGNORECASE)


@lru_cache(maxsize=256)
def discipline_rows(discipline: str) -> dict[str, DisciplineRow]:
    """The LotNR rows of ``discipline`` by path ("" for the Discipline itself), from data/disciplines.toml."""
    return {row.path: row for (disc, _), row in discipline_table().items() if disc == discipline}


@lru_cache(maxsize=1)
def known_disciplines() -> tuple[str, ...]:
    """The Disciplines of ``data/disciplines.toml``, sorted."""
    return tuple(sorted({disc for disc, _ in discipline_table()}))


@dataclass
class ParsedPower:
    """One power entry while its level is worked out."""

    element: ET.Element
    raw: str
    discipline: str
    path: str
    power: str
    row: DisciplineRow | None
    level: int | None = None
    tier: str | None = None

    @property
    def name(self) -> str:
        """The power as the sheet names it: ``"Path of Blood: A Taste for Blood"`` or ``"Alacrity"``."""
        return f"{self.path}: {self.power}" if self.path else self.power


def read_note(note: str) -> tuple[str | None, int | None]:
    """What a power's note says of its level: ``(tier, level)``. ``basic``, ``int., 2nd ed.`` give a tier
    (the first word); ``3``, ``level 3``, ``3, taught by Akemi`` a level; anything else neither."""
    head = re.split(r"[,;]", note, maxsplit=1)[0].strip()
    word = re.match(r"([a-z]+)", head.lower())
    if word and word.group(1) in TIER_WORDS:
        return TIER_WORDS[word.group(1)], None
    level = _LEVEL_NOTE.fullmatch(head)
    return (None, int(level.group(1))) if level else (None, None)


def _named(record: Record, list_name: str, kind: str, name: str, choices: list[str]) -> tuple[str, str | None]:
    """``name`` as the table spells it (near spellings too), else as the file first spells it;
    the choice is reported on the record. Returns the name and the table's choice (``None`` if not in it)."""
    chosen, near = closest(name, choices) if choices else (None, False)
    if chosen is not None:
        if near:
            record.renamed.append(Phrase.message(NEAR_SPELLING, list=list_name, name=repr(name), chosen=chosen))
        elif chosen != name:
            record.renamed.append(Phrase.message(N_("%(list)s: read %(name)s as %(chosen)s (the same but for articles, "
                                                    "case or spacing)."), list=list_name, name=repr(name), chosen=chosen))
        return chosen, chosen
    first = record.spellings.first(kind, name)
    if same_but_spelling(name, first):
        record.renamed.append(Phrase.message(N_("%(list)s: read %(name)s as %(first)s, as this file first spells it "
                                                "(they differ only in articles, case or spacing)."),
                                             list=list_name, name=repr(name), first=repr(first)))
    return first, None


def parse_power_name(element: ET.Element, raw: str, record: Record, list_name: str) -> ParsedPower:
    """Split ``"Necromancy: Ash Path: Level I: Shroudsight"`` into its parts.

    Level markers in the name: a number (``3:``, ``3 Rapidity``, ``VI:``) is a
    level; ``Level I``-``III`` (or a bare ``I``-``III``) is a tier (Basic,
    Intermediate, Advanced); ``Master`` in older sheets means past Advanced.
    """
    segments = [s.strip() for s in raw.split(":") if s.strip()]
    discipline = re.sub(r"\s*\[[^\]]*\]", "", segments[0]).strip()
    level = tier = None
    kept = []
    for segment in segments[1:]:
        marker = re.fullmatch(r"(level\s+)?([ivx]+|\d+)", segment, re.IGNORECASE)
        if marker:
            value = marker.group(2).lower()
            number = int(value) if value.isdigit() else ROMAN.get(value)
            if number is None:
                kept.append(segment)
            elif value.isdigit() or number > 3:
                level = number
            else:
                tier = ("basic", "intermediate", "advanced")[number - 1]
            continue
        if segment.lower() in ("basic", "intermediate", "advanced", "elder"):
            tier = segment.lower()
            continue
        if segment.lower() == "master":
            tier = "past advanced"
            continue
        kept.append(segment)
    if kept:
        numbered = re.fullmatch(r"(\d)\s+(.+)", kept[-1])
        if numbered:
            level, kept[-1] = int(numbered.group(1)), numbered.group(2)
    power = kept[-1] if kept else ""
    path = ": ".join(kept[:-1])

    discipline, _ = _named(record, list_name, "discipline", discipline, list(known_disciplines()))
    rows = discipline_rows(discipline)
    row = None
    if path and any(rows):
        candidates = [p for p in rows if p]
        chosen, near = closest(path, candidates)
        if chosen is None:  # "Thaumaturgy: Corruption: ..." for the Path of Corruption
            chosen, near = closest(f"Path of {path}", candidates)
        if chosen is not None:
            if near or chosen != path:
                record.renamed.append(Phrase.message(
                    N_("%(list)s: read the path %(path)s as %(chosen)s (a near spelling).") if near else
                    N_("%(list)s: read the path %(path)s as %(chosen)s (the same but for articles, case or spacing)."),
                    list=list_name, path=repr(path), chosen=chosen))
            path, row = chosen, rows[chosen]
        else:
            path, _ = _named(record, list_name, f"path:{discipline}", path, [])
    elif path:
        path, _ = _named(record, list_name, f"path:{discipline}", path, [])
    elif "" in rows:
        row = rows[""]
    elif rows:
        # a path power named without its path: find it if one path has it
        owners = [r for r in rows.values() if closest(power, list(r.levels))[0]]
        if len(owners) == 1:
            row, path = owners[0], owners[0].path
            record.problems.append(Phrase.message(N_("%(list)s: %(power)s names no path; read as %(path)s."),
                                                  list=list_name, power=repr(raw), path=path))
    result = ParsedPower(element, raw, discipline, path, power, row, level, tier)
    if row is not None:
        canonical, near = closest(power, list(row.levels))
        if canonical is not None:
            if near:
                record.renamed.append(Phrase.message(NEAR_SPELLING, list=list_name, name=repr(power), chosen=canonical))
            result.power = canonical
    elif power:
        result.power, _ = _named(record, list_name, f"power:{discipline}:{path}", power, [])
    return result


def read_powers(record: Record, list_name: str, traits: list[ET.Element], only_known: bool = False) -> None:
    """Read Discipline powers into ``record.sheet.powers`` with their levels; what cannot go on the
    sheet is kept as written on the record (:meth:`Record.keep`).

    ``only_known``: for a mortal's Numina list, where only entries of a known
    Discipline are a ghoul's powers and the rest are true Numina (kept).
    """
    known = set(known_disciplines())
    parsed: list[ParsedPower] = []
    seen: set[tuple[str, str]] = set()
    unknown_disciplines: list[str] = []
    for trait in traits:
        raw = (trait.get("name") or "").strip()
        if ":" not in raw:
            if not only_known:
                record.problems.append(Phrase.message(N_("%(list)s: %(power)s is not a 'Discipline: power' entry; kept "
                                                         "as written, not on the sheet."), list=list_name, power=repr(raw)))
            record.keep(list_name, trait)
            continue
        power = parse_power_name(trait, raw, record, list_name)
        note = (trait.get("note") or "").strip()
        note_tier, note_level = read_note(note) if note else (None, None)
        by_note = re.fullmatch(r"([A-Za-z][A-Za-z ]*?)\s+(\d)", note) if note and not note_tier else None
        if by_note and power.discipline not in known and by_note.group(1) in known:
            # "Gangrel: Animal Swarm" noted "Protean 7": a clan's own Protean power
            power.discipline, power.path, power.row = by_note.group(1), "", None
            power.level = int(by_note.group(2))
            record.problems.append(Phrase.message(
                N_("%(list)s: %(power)s read as %(discipline)s level %(level)s, from its note %(note)s."),
                list=list_name, power=repr(raw), discipline=power.discipline, level=power.level, note=repr(note)))
        elif note_level is not None and power.level is None:
            power.level = note_level
        if only_known and power.discipline not in known:
            record.keep(list_name, trait)
            continue
        if not power.power:
            record.problems.append(Phrase.message(N_("%(list)s: %(power)s names no power; kept as written, not on the "
                                                     "sheet."), list=list_name, power=repr(raw)))
            record.keep(list_name, trait)
            continue
        if (power.discipline, power.name) in seen:
            record.problems.append(Phrase.message(N_("%(list)s: %(power)s is listed twice; on the sheet once (the "
                                                     "repeat is kept as written)."), list=list_name, power=repr(raw)))
            record.keep(list_name, trait)
            continue
        seen.add((power.discipline, power.name))
        power.tier = power.tier or note_tier
        if power.tier is None and power.level is None and power.discipline in known:
            cost = whole((trait.get("val") or "").strip())
            if cost is not None:
                power.tier = TIER_COSTS.get(cost)
        if power.discipline not in known and power.discipline not in unknown_disciplines:
            unknown_disciplines.append(power.discipline)
        parsed.append(power)
    _assign_levels(record, list_name, parsed)
    for power in parsed:
        if power.level is None:
            record.problems.append(Phrase.message(
                N_("%(list)s: %(power)s is kept as written, not on the sheet: its level cannot be told (not in the "
                   "Discipline table, no level or tier given)."), list=list_name, power=repr(power.raw)))
            record.keep(list_name, power.element)
            continue
        # A power outside data/disciplines.toml is kept as a custom power (the sheet's rule).
        record.sheet.powers.append(PowerEntry(power.discipline, power.name, power.level,
                                              custom=known_power(power.discipline, power.name) is None))
        record.place(list_name, power.element, f"{power.discipline}: {power.name}")
    for discipline in unknown_disciplines:
        if any(p.discipline == discipline and p.level is not None for p in parsed):
            record.problems.append(Phrase.message(
                N_("%(list)s: %(discipline)s is not in the Discipline table; its powers were imported as written."),
                list=list_name, discipline=repr(discipline)))


def _assign_levels(record: Record, list_name: str, parsed: list[ParsedPower]) -> None:
    """Give each power its level: the table's, the one given, a one-level tier's, else a free level of its
    tier in list order (reported)."""
    used: dict[tuple[str, str], set[int]] = {}
    pending: list[ParsedPower] = []
    for power in parsed:
        table_level = power.row.levels.get(power.power) if power.row else None
        if table_level is not None:
            if (power.level is not None and power.level != table_level) or (
                power.level is None and power.tier and table_level not in TIER_LEVELS[power.tier]
            ):
                record.problems.append(Phrase.message(
                    N_("%(list)s: %(raw)s is marked as %(marked)s in the file but %(power)s is level %(level)s in "
                       "%(discipline)s (LotNR); imported at level %(level)s."), list=list_name, raw=repr(power.raw),
                    marked=_describe(power), power=power.power, level=table_level, discipline=power.discipline))
            power.level = table_level
        elif power.level is None and power.tier is not None and len(TIER_LEVELS[power.tier]) == 1:
            power.level = TIER_LEVELS[power.tier][0]
            if power.tier == "past advanced":
                record.problems.append(Phrase.message(
                    N_("%(list)s: %(power)s is marked Master (past Advanced); level 6 assumed."),
                    list=list_name, power=repr(power.raw)))
        if power.level is not None:
            used.setdefault((power.discipline, power.path), set()).add(power.level)
        elif power.tier is not None:
            pending.append(power)
    for power in pending:
        taken = used.setdefault((power.discipline, power.path), set())
        free = [lvl for lvl in TIER_LEVELS[power.tier] if lvl not in taken]
        power.level = free[0] if free else TIER_LEVELS[power.tier][-1]
        taken.add(power.level)
        record.problems.append(Phrase.message(
            N_("%(list)s: %(power)s is %(marked)s but not in the Discipline table; level %(level)s assumed from its "
               "place in the list."), list=list_name, power=repr(power.raw), marked=_describe(power),
            level=power.level))


def _describe(power: ParsedPower) -> Phrase | str:
    """How the file marks the power's level: "level 3", "a Basic power", "an Intermediate power"."""
    if power.level is not None and not power.tier:
        return Phrase.message(N_("level %(level)s"), level=power.level)
    if power.tier in TIER_SAID:
        return Phrase.message(TIER_SAID[power.tier])
    tier = str(power.tier).capitalize()
    return f"{'an' if tier[0] in 'AEIOU' else 'a'} {tier} power"
