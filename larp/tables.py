"""Rules tables from ``data/``: loaded once, validated on load.

Every table the rules use (generation, health levels, chronicle setting
definitions, and later weapons, armor, maneuvers, torpor lengths, darkness
reductions) is a TOML file under ``data/``. A malformed file fails at load
with :class:`TableError` naming the file and the entry, never later with a
``KeyError`` in the middle of a ruling.

This module does file I/O but imports neither Flask nor peewee, so the rules
core may use it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from larp.paths import data_path


class TableError(ValueError):
    """A rules table in ``data/`` is missing or malformed (names file and entry)."""


def load_toml(relative: str) -> dict[str, Any]:
    """Parse ``data/<relative>`` as TOML.

    Raises:
        TableError: the file is missing or is not valid TOML.
    """
    path = data_path(relative)
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise TableError(f"data/{relative}: file is missing") from exc
    except tomllib.TOMLDecodeError as exc:
        raise TableError(f"data/{relative}: {exc}") from exc


def require(entry: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """Return ``entry[key]`` after checking its type.

    Raises:
        TableError: naming ``where`` (file and entry) when the key is missing
            or has the wrong type.
    """
    if key not in entry:
        raise TableError(f"{where}: missing '{key}'")
    value = entry[key]
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise TableError(f"{where}: '{key}' must be a number, not a boolean")
    if not isinstance(value, kind):
        raise TableError(f"{where}: '{key}' has the wrong type ({type(value).__name__})")
    return value


@dataclass(frozen=True)
class GenerationRow:
    """One line of the Laws of the Night Revised generation table.

    Attributes:
        generation: 4 to 15.
        max_traits: most Traits in one category.
        blood_max: blood pool maximum, in blood points.
        blood_per_turn: blood points that can be spent in one turn.
        willpower_start: starting Willpower Traits.
        willpower_max: Willpower maximum.
    """

    generation: int
    max_traits: int
    blood_max: int
    blood_per_turn: int
    willpower_start: int
    willpower_max: int


@lru_cache(maxsize=None)
def generation_table() -> dict[int, GenerationRow]:
    """The generation table (``data/generation.toml``), keyed by generation.

    Source: LotNR generation table, as quoted in met-reference 5.1.

    Raises:
        TableError: the file or one of its rows is malformed.
    """
    raw = load_toml("generation.toml")
    rows: dict[int, GenerationRow] = {}
    for index, entry in enumerate(raw.get("generation", [])):
        where = f"data/generation.toml generation[{index}]"
        row = GenerationRow(
            **{name: require(entry, name, int, where) for name in GenerationRow.__dataclass_fields__}
        )
        if row.generation in rows:
            raise TableError(f"{where}: generation {row.generation} appears twice")
        rows[row.generation] = row
    if not rows:
        raise TableError("data/generation.toml: no [[generation]] rows")
    return rows


def generation_row(generation: int | None) -> GenerationRow | None:
    """The table row for ``generation``; the nearest row for generations outside it.

    Thin-blooded generations (14th, 15th) use the 13th generation's row, as
    LotNR's table ends there. ``None`` (mortals, ghouls) gives ``None``.
    """
    if generation is None:
        return None
    table = generation_table()
    clamped = min(max(generation, min(table)), max(table))
    return table[clamped]


@lru_cache(maxsize=None)
def data_file_names(directory: str) -> tuple[str, ...]:
    """Names of the ``*.toml`` files in ``data/<directory>``, sorted."""
    folder: Path = data_path(directory)
    return tuple(sorted(p.name for p in folder.glob("*.toml")))


DISCIPLINE_TIERS = ("basic", "intermediate", "advanced")
_TIER_FIRST_LEVEL = {"basic": 1, "intermediate": 3, "advanced": 5}
_TIER_SIZE = {"basic": 2, "intermediate": 2, "advanced": 1}


@dataclass(frozen=True)
class DisciplineRow:
    """One Discipline (or one path of Thaumaturgy or Necromancy) and its powers by level.

    Attributes:
        name: the Discipline, e.g. ``"Celerity"`` or ``"Thaumaturgy"``.
        path: the path for Disciplines learned path by path (``"Path of Blood"``), else ``""``.
        levels: power name to level (Basic 1 and 2, Intermediate 3 and 4, Advanced 5).
        source: where the order comes from.
    """

    name: str
    path: str
    levels: dict[str, int]
    source: str


@lru_cache(maxsize=None)
def discipline_table() -> dict[tuple[str, str], DisciplineRow]:
    """The Discipline powers table (``data/disciplines.toml``), keyed by ``(name, path)``.

    LotNR orders each Discipline's powers Basic, Basic, Intermediate,
    Intermediate, Advanced; the table gives their levels 1 to 5. Callers
    must not change the returned rows.

    Raises:
        TableError: an entry lacks a name, lists too many powers in a tier,
            lists a power twice, or repeats a Discipline and path.
    """
    raw = load_toml("disciplines.toml")
    rows: dict[tuple[str, str], DisciplineRow] = {}
    for index, entry in enumerate(raw.get("discipline", [])):
        where = f"data/disciplines.toml discipline[{index}]"
        name = require(entry, "name", str, where)
        path = entry.get("path", "")
        if not isinstance(path, str):
            raise TableError(f"{where}: 'path' must be text")
        levels: dict[str, int] = {}
        for tier in DISCIPLINE_TIERS:
            powers = entry.get(tier, [])
            if not isinstance(powers, list) or not all(isinstance(p, str) and p for p in powers):
                raise TableError(f"{where}: '{tier}' must be a list of power names")
            if len(powers) > _TIER_SIZE[tier]:
                raise TableError(f"{where}: '{tier}' lists more than {_TIER_SIZE[tier]} powers")
            for offset, power in enumerate(powers):
                if power in levels:
                    raise TableError(f"{where}: power '{power}' appears twice")
                levels[power] = _TIER_FIRST_LEVEL[tier] + offset
        if not levels:
            raise TableError(f"{where}: no powers listed")
        key = (name, path)
        if key in rows:
            raise TableError(f"{where}: {name} {path} appears twice".rstrip())
        rows[key] = DisciplineRow(name, path, levels, str(entry.get("source", "")))
    if not rows:
        raise TableError("data/disciplines.toml: no [[discipline]] entries")
    return rows


@lru_cache(maxsize=None)
def trait_leads() -> dict[str, str]:
    """Physical Trait name (lower case) to what it tests: ``strength``, ``speed`` or ``stamina``
    (``data/trait_leads.toml``; met-reference 1.1, 3.4).

    Raises:
        TableError: the file is malformed or lists a Trait twice.
    """
    raw = load_toml("trait_leads.toml")
    leads: dict[str, str] = {}
    for lead in ("strength", "speed", "stamina"):
        names = require(raw, lead, list, "data/trait_leads.toml")
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise TableError(f"data/trait_leads.toml {lead}: Trait names must be text")
            if name.lower() in leads:
                raise TableError(f"data/trait_leads.toml: {name} is listed under {leads[name.lower()]} and {lead}")
            leads[name.lower()] = lead
    return leads


@lru_cache(maxsize=None)
def physical_retests() -> dict[str, tuple[str, ...]]:
    """Suitable retest Abilities in Physical challenges by situation (``data/retests.toml``;
    met-reference 2.1, 3.6): ``bare_hands``, ``melee_weapon``, ``firearm``, ``thrown``,
    ``defending``, ``darkness``; and ``physical_only``, the Abilities that never retest a
    Social or Mental challenge.

    Raises:
        TableError: the file is malformed.
    """
    raw = load_toml("retests.toml")
    table = require(raw, "physical", dict, "data/retests.toml")
    only = require(raw, "physical_only", dict, "data/retests.toml")
    out = {"physical_only": tuple(str(n) for n in require(only, "abilities", list, "data/retests.toml [physical_only]"))}
    for key in ("bare_hands", "melee_weapon", "firearm", "thrown", "defending", "darkness"):
        names = require(table, key, list, "data/retests.toml [physical]")
        out[key] = tuple(str(n) for n in names)
    return out
