"""The sheet editor's catalogues from ``data/``: loaded once, validated on load.

- ``data/traits.toml``: the LotNR adjective Trait lists per category, with their
  Negative Traits;
- ``data/merits_flaws.toml``: Merits and Flaws with their cost in Traits and the
  health levels some add;
- ``data/abilities.toml``: Abilities and suggested specialisations;
- ``data/sheet_lists.toml``: Virtues, Archetypes (Nature and Demeanor),
  Backgrounds, Derangements.

Armor is in the armory (``data/armory.toml``, :func:`larp.rules.damage.armory`).
A malformed file fails with :class:`larp.tables.TableError` naming the file and
the entry. Like :mod:`larp.tables`, this imports neither Flask nor peewee.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from larp.tables import TableError, load_toml, require

CATEGORIES = ("physical", "social", "mental")
MERIT_CATEGORIES = ("physical", "mental", "social", "supernatural")
#: Health level names a Merit or Flaw may add (the live track's names).
HEALTH_LEVEL_NAMES = ("Healthy", "Bruised", "Wounded", "Incapacitated")


def _names(value: Any, where: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) and x.strip() for x in value):
        raise TableError(f"{where}: '{key}' must be a list of names")
    seen: set[str] = set()
    for name in value:
        if name.lower() in seen:
            raise TableError(f"{where}: '{name}' appears twice in '{key}'")
        seen.add(name.lower())
    return tuple(value)


@dataclass(frozen=True)
class TraitList:
    """One category's adjectives: ``traits`` and ``negative`` (Negative Traits)."""

    category: str
    traits: tuple[str, ...]
    negative: tuple[str, ...]


@lru_cache(maxsize=None)
def trait_lists() -> Mapping[str, TraitList]:
    """The LotNR adjective lists by category (``data/traits.toml``; LotNR "Attributes").

    Raises:
        TableError: a category is missing, a list is not a list of names, or an
            adjective is listed twice in a category.
    """
    raw = load_toml("traits.toml")
    out: dict[str, TraitList] = {}
    for category in CATEGORIES:
        where = f"data/traits.toml [{category}]"
        entry = require(raw, category, dict, "data/traits.toml")
        traits = _names(entry.get("traits"), where, "traits")
        negative = _names(entry.get("negative"), where, "negative")
        both = {t.lower() for t in traits} & {t.lower() for t in negative}
        if both:
            raise TableError(f"{where}: '{sorted(both)[0]}' is both a Trait and a Negative Trait")
        out[category] = TraitList(category, traits, negative)
    return MappingProxyType(out)


@dataclass(frozen=True)
class MeritFlawEntry:
    """A Merit or Flaw of the catalogue.

    Attributes:
        key: the stable id the rules read ("ambidextrous", "huge_size").
        kind: "merit" or "flaw".
        name: as printed.
        cost: in Traits (a Merit costs them, a Flaw gives them).
        max_cost: the top of the book's range (equal to ``cost`` when fixed).
        category: physical, mental, social or supernatural.
        note: what the sheet must say with it ("which sense"), or "".
        health_levels: live health levels it adds, by name.
        effect: one line for the editor.
    """

    key: str
    kind: str
    name: str
    cost: int
    max_cost: int
    category: str
    note: str
    health_levels: tuple[str, ...]
    effect: str


@lru_cache(maxsize=None)
def merits_flaws() -> Mapping[str, MeritFlawEntry]:
    """The Merits and Flaws catalogue (``data/merits_flaws.toml``; LotNR "Merits and Flaws"),
    keyed ``"merit:<key>"`` and ``"flaw:<key>"``.

    Raises:
        TableError: an entry lacks a name or cost, has a cost outside 1..7 or a
            ``max_cost`` below it, an unknown category or health level.
    """
    raw = load_toml("merits_flaws.toml")
    out: dict[str, MeritFlawEntry] = {}
    for kind in ("merit", "flaw"):
        for key, entry in require(raw, kind, dict, "data/merits_flaws.toml").items():
            where = f"data/merits_flaws.toml [{kind}.{key}]"
            if not isinstance(entry, dict):
                raise TableError(f"{where}: must be a table")
            cost = require(entry, "cost", int, where)
            max_cost = require(entry, "max_cost", int, where) if "max_cost" in entry else cost
            if not 1 <= cost <= max_cost <= 7:
                raise TableError(f"{where}: 'cost' must be 1 to 7 and 'max_cost' at least 'cost'")
            category = require(entry, "category", str, where)
            if category not in MERIT_CATEGORIES:
                raise TableError(f"{where}: unknown category {category!r}")
            levels = _names(entry.get("health_levels", []), where, "health_levels") if entry.get(
                "health_levels") else ()
            unknown = [x for x in levels if x not in HEALTH_LEVEL_NAMES]
            if unknown:
                raise TableError(f"{where}: unknown health level {unknown[0]!r}")
            note = entry.get("note", "")
            effect = entry.get("effect", "")
            if not isinstance(note, str) or not isinstance(effect, str):
                raise TableError(f"{where}: 'note' and 'effect' must be text")
            out[f"{kind}:{key}"] = MeritFlawEntry(key, kind, require(entry, "name", str, where), cost, max_cost,
                                                  category, note, levels, effect)
    return MappingProxyType(out)


def merit_flaw(kind: str, key: str) -> MeritFlawEntry | None:
    """The catalogue's Merit or Flaw ``key`` (``kind`` "merit" or "flaw"), or ``None``."""
    return merits_flaws().get(f"{kind}:{key}")


@lru_cache(maxsize=None)
def ability_catalogue() -> Mapping[str, tuple[str, ...]]:
    """Ability name to suggested specialisations (``data/abilities.toml``; LotNR "Abilities").

    Raises:
        TableError: no ``[ability]`` table, or an Ability's specialisations are
            not a list of names.
    """
    raw = load_toml("abilities.toml")
    table = require(raw, "ability", dict, "data/abilities.toml")
    out = {}
    for name, specialisations in table.items():
        out[name] = _names(specialisations, f"data/abilities.toml [ability] {name}", name)
    if not out:
        raise TableError("data/abilities.toml [ability]: no Abilities listed")
    return MappingProxyType(out)


@dataclass(frozen=True)
class SheetLists:
    """The editor's other lists (``data/sheet_lists.toml``).

    Attributes:
        virtues: the Virtue names the sheet may rate.
        virtue_max: the highest rating of a Virtue, in Traits.
        humanity_virtues: the three Virtues of Humanity; ``path_virtues`` those of a Path.
        archetypes: Nature and Demeanor suggestions.
        backgrounds: Background suggestions; ``background_max`` the highest rating.
        derangements: Derangement suggestions.
    """

    virtues: tuple[str, ...]
    virtue_max: int
    humanity_virtues: tuple[str, ...]
    path_virtues: tuple[str, ...]
    archetypes: tuple[str, ...]
    backgrounds: tuple[str, ...]
    background_max: int
    derangements: tuple[str, ...]


@lru_cache(maxsize=None)
def sheet_lists() -> SheetLists:
    """The lists of ``data/sheet_lists.toml`` (LotNR character creation).

    Raises:
        TableError: a table or list is missing or malformed, a maximum is below
            1, or the Humanity or Path Virtues are not among ``names``.
    """
    raw = load_toml("sheet_lists.toml")
    file = "data/sheet_lists.toml"

    def table(name: str) -> dict[str, Any]:
        return require(raw, name, dict, file)

    virtues = table("virtues")
    names = _names(virtues.get("names"), f"{file} [virtues]", "names")
    for group in ("humanity", "path"):
        listed = _names(virtues.get(group), f"{file} [virtues]", group)
        if any(v not in names for v in listed):
            raise TableError(f"{file} [virtues]: '{group}' names a Virtue not in 'names'")
    maxima = {}
    for name in ("virtues", "backgrounds"):
        maxima[name] = require(table(name), "max", int, f"{file} [{name}]")
        if maxima[name] < 1:
            raise TableError(f"{file} [{name}]: 'max' must be at least 1")
    return SheetLists(
        virtues=names, virtue_max=maxima["virtues"],
        humanity_virtues=tuple(virtues["humanity"]), path_virtues=tuple(virtues["path"]),
        archetypes=_names(table("archetypes").get("names"), f"{file} [archetypes]", "names"),
        backgrounds=_names(table("backgrounds").get("names"), f"{file} [backgrounds]", "names"),
        background_max=maxima["backgrounds"],
        derangements=_names(table("derangements").get("names"), f"{file} [derangements]", "names"),
    )
