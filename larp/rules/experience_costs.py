"""The chronicle's experience cost table, the clans' Disciplines and the tiers of powers and Rituals
(issue 33).

Every cost is a chronicle setting (``data/settings/experience_costs.toml``: its default and where it
comes from: Grapevine 3.0's stock menus, or "ours" where no source in ``../shared`` gives one), read
into a :class:`CostTable` of exact amounts; :mod:`larp.rules.experience_purchase` prices a request
with it. A clan's in-clan Disciplines come from ``data/clan_disciplines.toml``.

Pure: no Flask, no peewee.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from larp.tables import TableError, load_toml

#: A power's tier by its level in the Discipline (data/disciplines.toml: Basic 1-2, Intermediate 3-4,
#: Advanced 5; an importer's Elder 6 to Methuselah 9).
POWER_TIERS = ("basic", "intermediate", "advanced", "elder", "master", "ascendant", "methuselah")
#: The levels of each tier, lowest first.
TIER_LEVELS = {"basic": (1, 2), "intermediate": (3, 4), "advanced": (5,), "elder": (6,), "master": (7,),
               "ascendant": (8,), "methuselah": (9,)}
#: How a person reads a tier.
TIER_LABELS = {tier: tier.capitalize() for tier in POWER_TIERS}
#: The Ritual tiers Grapevine's menus price, and the power level a character needs in the Ritual's
#: Discipline for each (ours: a Ritual of a tier needs a power of that tier).
RITUAL_TIERS = ("basic", "intermediate", "advanced", "master")
RITUAL_NEEDS_LEVEL = {"basic": 1, "intermediate": 3, "advanced": 5, "master": 7}
#: The Disciplines whose Rituals are priced (Grapevine's "Rituals" menus: Thaumaturgy's and Necromancy's).
RITUAL_DISCIPLINES = ("Thaumaturgy", "Necromancy")

#: The setting that prices each kind of purchase (one per tier for powers and Rituals).
COST_SETTINGS = {
    **{f"power_{tier}": f"xp_power_{tier}" for tier in POWER_TIERS},
    **{f"ritual_{tier}": f"xp_ritual_{tier}" for tier in RITUAL_TIERS},
    "out_of_clan_extra": "xp_out_of_clan_extra",
    "merit_per_trait": "xp_merit_per_trait",
    "flaw_per_trait": "xp_flaw_per_trait",
    "derangement": "xp_derangement",
    "trait": "xp_trait",
    "ability": "xp_ability",
    "background": "xp_background",
    "willpower": "xp_willpower",
    "morality": "xp_morality",
    "remove_negative_trait": "xp_remove_negative_trait",
}

_CENT = Decimal("0.01")


def tier_of(level: int) -> str:
    """The tier of a power of ``level`` (1..9): "basic", "intermediate", ... "methuselah".

    Raises:
        ValueError: a level outside 1..9.
    """
    for tier, levels in TIER_LEVELS.items():
        if level in levels:
            return tier
    raise ValueError(f"a Discipline power's level is 1 to 9, not {level!r}")


@dataclass(frozen=True)
class CostTable:
    """The chronicle's cost of each kind of purchase, in experience points (exact), with the setting
    that gives it, and the limits a request is checked against.

    Attributes:
        costs: cost name (:data:`COST_SETTINGS`' keys) to its amount.
        settings: cost name to the setting key.
        power_prerequisite: "tier_below" or "every_lower" (setting ``power_prerequisite``).
        ability_max: the highest Ability level bought with experience (setting ``ability_max``).
        morality_max: the highest Humanity or Path rating bought with experience (``morality_max``).
    """

    costs: Mapping[str, Decimal]
    settings: Mapping[str, str]
    power_prerequisite: str = "tier_below"
    ability_max: int = 5
    morality_max: int = 5

    def cost(self, name: str) -> Decimal:
        """The amount of cost ``name`` (``"power_basic"``, ``"trait"``...)."""
        return self.costs[name]

    def setting(self, name: str) -> str:
        """The chronicle setting that gives cost ``name``."""
        return self.settings[name]


def points(value: Any) -> Decimal:
    """A setting's number as exact experience points (two places, half up: 2.5, 3)."""
    return Decimal(str(value)).quantize(_CENT, rounding=ROUND_HALF_UP)


def cost_table(settings: Any) -> CostTable:
    """The cost table a chronicle's ``settings`` (a :class:`larp.rules.settings.ChronicleSettings`,
    or any mapping of setting keys) give."""
    costs = {name: points(settings[key]) for name, key in COST_SETTINGS.items()}
    return CostTable(MappingProxyType(costs), MappingProxyType(dict(COST_SETTINGS)),
                     power_prerequisite=str(settings["power_prerequisite"]),
                     ability_max=int(settings["ability_max"]), morality_max=int(settings["morality_max"]))


@dataclass(frozen=True)
class Clan:
    """A clan of ``data/clan_disciplines.toml``: its name and its in-clan Disciplines."""

    name: str
    disciplines: tuple[str, ...]


@lru_cache(maxsize=None)
def clan_table() -> Mapping[str, Clan]:
    """Every clan of ``data/clan_disciplines.toml``, keyed by each of its names in lower case
    (its own and its aliases).

    Raises:
        TableError: a clan lacks its list of Disciplines, or a name is given to two clans.
    """
    raw = load_toml("clan_disciplines.toml")
    clans = raw.get("clan")
    if not isinstance(clans, dict) or not clans:
        raise TableError("data/clan_disciplines.toml: no [clan.<name>] tables")
    out: dict[str, Clan] = {}
    for name, entry in clans.items():
        where = f"data/clan_disciplines.toml [clan.{name}]"
        disciplines = entry.get("disciplines") if isinstance(entry, dict) else None
        aliases = entry.get("aliases", []) if isinstance(entry, dict) else None
        if not isinstance(disciplines, list) or not all(isinstance(d, str) and d for d in disciplines):
            raise TableError(f"{where}: 'disciplines' must be a list of Discipline names")
        if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
            raise TableError(f"{where}: 'aliases' must be a list of names")
        clan = Clan(name, tuple(disciplines))
        for spelling in (name, *aliases):
            key = spelling.strip().lower()
            if key in out:
                raise TableError(f"{where}: the name {spelling!r} is already {out[key].name}'s")
            out[key] = clan
    return MappingProxyType(out)


def clan_of(clan: str) -> Clan | None:
    """The clan a sheet's ``clan`` text names (case and surrounding spaces ignored), or ``None``."""
    return clan_table().get((clan or "").strip().lower())


def in_clan(clan: str, discipline: str) -> bool:
    """Whether ``discipline`` is one of the Disciplines of the clan a sheet names (``clan``)."""
    found = clan_of(clan)
    return found is not None and discipline.strip().lower() in {d.lower() for d in found.disciplines}
