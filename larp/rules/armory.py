"""The armory: weapons and armor of the live game and the tabletop profile, loaded once from
``data/armory.toml`` and validated on load (the LotNR cards for the live game, met-reference 3.7;
the 000 charts for the tabletop). Every name here is importable from :mod:`larp.rules.damage` too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.health import DAMAGE_TYPES
from larp.tables import TableError, load_toml, require

PROFILES = ("live", "tabletop")
WEAPON_SPECIALS = (
    "High-Caliber", "Mass-Trauma", "Full-Auto", "Spray", "Armor-Piercing", "Speed", "Staking",
    "Destroy Shield", "Burst",
)
#: Where aggravated (or other) damage comes from: armor does not stop fire or sunlight,
#: and sunlight does not harm mortals (000 "Armor", "Aggravated Damage").
SOURCES = ("other", "fire", "sunlight")
#: What a piece of armor may protect (000 "Armor Chart": an attack aimed at an unprotected
#: part ignores the armor).
ARMOR_COVERS = ("head", "torso", "arms", "legs")
CREATURES = ("vampire", "ghoul", "mortal")



# ---------------------------------------------------------------- the armory

@dataclass(frozen=True)
class Weapon:
    """A weapon from the armory (``data/armory.toml``).

    Attributes:
        key: the armory key ("knife", "heavy_pistol"...).
        name: as printed on the card or chart.
        profile: "live" or "tabletop".
        damage_type: "bashing", "lethal" or "aggravated" (against mortals, for firearms).
        damage: live: health levels per successful strike; tabletop: the
            damage dice pool (0 for Strength-based melee weapons).
        strength_bonus: tabletop melee weapons: dice added to Strength.
        bonus_traits: live: Traits added in ties and overbids (never bid).
        negative_traits: the card's Negative Traits.
        specials: special abilities (see ``WEAPON_SPECIALS``).
        firearm: seed 002's firearm rule applies against vampires.
        bashing_vs_kindred: bashing against vampires unless aimed at the head or
            heart (firearms, the tabletop crossbow).
        blunt: Prowess may make its bashing lethal.
        melee: strength matters (Puissance adds a level).
        spray: adjacent targets a Spray reaches (0 if none).
        details: other chart columns (range, rate, clip, conceal, example).
        source: where the numbers come from.
        length: tabletop melee weapons: how far it fends an attacker off (0 bare hands, 1 a knife,
            2 a sword, 3 a staff): a shorter weapon closing in loses a die (000 "Weapon Length").
        archery: a bow or crossbow, fired with Dexterity + Archery in every profile (001 "Quick
            Combat Summary Chart"; 004 "Ranged Combat").
        reload_turns: turns of reloading to fill it again (1; the crossbow 5; 0: reloading is part
            of the shot, a bow) (000 "Reloading", "Ranged Weapons Chart").
    """

    key: str
    name: str
    profile: str
    damage_type: str
    damage: int
    strength_bonus: int | None
    bonus_traits: int
    negative_traits: tuple[str, ...]
    specials: tuple[str, ...]
    firearm: bool
    bashing_vs_kindred: bool
    blunt: bool
    melee: bool
    spray: int
    details: Mapping[str, Any]
    source: str
    length: int = 0
    archery: bool = False
    reload_turns: int = 1

    def has(self, special: str) -> bool:
        """Whether the weapon has the special ability ``special``."""
        return special in self.specials

    @property
    def clip(self) -> int | None:
        """Rounds it holds when loaded, the round in the chamber included ("17+1" holds 18), or
        ``None`` when its chart gives no clip (000 "Ranged Weapons Chart": "The +1 indicates a bullet
        can be held in the chamber")."""
        text = self.details.get("clip")
        if text is None:
            return None
        return sum(int(part) for part in str(text).split("+"))

    @property
    def rate(self) -> int | None:
        """Shots (or three-round bursts) it can fire in a turn, ``None`` when not said (000 "Ranged
        Weapons Chart": "This rate does not apply to full-auto or spray attacks")."""
        rate = self.details.get("rate")
        return rate if isinstance(rate, int) else None


@dataclass(frozen=True)
class Armor:
    """Armor from the armory.

    Attributes:
        rating: live: extra health levels, lost before the track (met-reference
            3.7); tabletop: dice added to soak (000 "Armor").
        penalty: tabletop: dice subtracted from Dexterity-based pools (0 live).
        covers: what it protects, among ``ARMOR_COVERS`` (empty: not said).
        strength: tabletop: the Strength its wearer needs; Strength (+ Potence) of twice that halves
            the penalty (004 "Armor"; 0: none given).
        kind: "body" armor, a "helmet" (adds its rating, not counted when the armor is destroyed,
            004 "Armor") or a "shield" (adds its rating from the front and one flank only, 004
            "Blindsiding").
    """

    key: str
    name: str
    profile: str
    rating: int
    penalty: int
    negative_traits: tuple[str, ...]
    source: str
    covers: tuple[str, ...] = ()
    strength: int = 0
    kind: str = "body"


@dataclass(frozen=True)
class Armory:
    """The weapons and armor of one rules profile, keyed by armory key; helmets and shields apart
    from body armor (004 "Armor", "Blindsiding")."""

    weapons: Mapping[str, Weapon]
    armor: Mapping[str, Armor]
    helmets: Mapping[str, Armor] = field(default_factory=dict)
    shields: Mapping[str, Armor] = field(default_factory=dict)


def _strings(entry: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise TableError(f"{where}: '{key}' must be a list of names")
    return tuple(value)


def _int(entry: dict[str, Any], key: str, where: str, default: int = 0) -> int:
    if key not in entry:
        return default
    return require(entry, key, int, where)


def _bool(entry: dict[str, Any], key: str, where: str) -> bool:
    value = entry.get(key, False)
    if not isinstance(value, bool):
        raise TableError(f"{where}: '{key}' must be true or false")
    return value


@lru_cache(maxsize=None)
def armory(profile: str = "live") -> Armory:
    """The armory of ``profile`` ("live" or "tabletop"), loaded once from ``data/armory.toml``.

    Raises:
        TableError: a malformed entry (names the file and the entry).
        RulesError: an unknown profile.
    """
    if profile not in PROFILES:
        raise RulesError(Phrase.message(N_("Unknown rules profile %(profile)s (live or tabletop)."),
                                        profile=repr(profile)), field="profile")
    raw = load_toml("armory.toml").get(profile, {})
    weapons: dict[str, Weapon] = {}
    for key, entry in raw.get("weapons", {}).items():
        where = f"data/armory.toml [{profile}.weapons.{key}]"
        damage_type = require(entry, "damage_type", str, where)
        if damage_type not in DAMAGE_TYPES:
            raise TableError(f"{where}: unknown damage_type {damage_type!r}")
        specials = _strings(entry, "specials", where)
        unknown = [s for s in specials if s not in WEAPON_SPECIALS]
        if unknown:
            raise TableError(f"{where}: unknown special {unknown[0]!r}")
        strength_bonus = entry.get("strength_bonus")
        if strength_bonus is not None:
            strength_bonus = require(entry, "strength_bonus", int, where)
        damage = _int(entry, "damage", where)
        if profile == "live" and damage < 1:
            raise TableError(f"{where}: a live weapon card needs 'damage' of at least 1")
        if profile == "tabletop" and strength_bonus is None and damage < 1:
            raise TableError(f"{where}: needs 'damage' dice or a 'strength_bonus'")
        details = {k: entry[k] for k in ("range", "rate", "clip", "conceal", "example") if k in entry}
        if "clip" in details and not all(part.isdigit() for part in str(details["clip"]).split("+")):
            raise TableError(f"{where}: 'clip' is a number of rounds, with '+1' for the chamber (\"17+1\")")
        firearm = _bool(entry, "firearm", where)
        weapons[key] = Weapon(
            key=key, name=require(entry, "name", str, where), profile=profile, damage_type=damage_type,
            damage=damage, strength_bonus=strength_bonus, bonus_traits=_int(entry, "bonus_traits", where),
            negative_traits=_strings(entry, "negative_traits", where), specials=specials, firearm=firearm,
            bashing_vs_kindred=firearm or _bool(entry, "bashing_vs_kindred", where),
            blunt=_bool(entry, "blunt", where), melee=_bool(entry, "melee", where),
            spray=_int(entry, "spray", where), details=MappingProxyType(details),
            source=require(entry, "source", str, where), length=_int(entry, "length", where),
            archery=_bool(entry, "archery", where), reload_turns=_int(entry, "reload_turns", where, 1),
        )
        if weapons[key].length < 0 or weapons[key].reload_turns < 0:
            raise TableError(f"{where}: 'length' and 'reload_turns' cannot be negative")
    pieces: dict[str, dict[str, Armor]] = {}
    for section, kind in (("armor", "body"), ("helmets", "helmet"), ("shields", "shield")):
        pieces[section] = {}
        for key, entry in raw.get(section, {}).items():
            where = f"data/armory.toml [{profile}.{section}.{key}]"
            rating = require(entry, "rating", int, where)
            if rating < 1:
                raise TableError(f"{where}: 'rating' must be at least 1")
            covers = _strings(entry, "covers", where)
            unknown = [c for c in covers if c not in ARMOR_COVERS]
            if unknown:
                raise TableError(f"{where}: unknown part {unknown[0]!r} in 'covers' ({', '.join(ARMOR_COVERS)})")
            pieces[section][key] = Armor(
                key=key, name=require(entry, "name", str, where), profile=profile, rating=rating,
                penalty=_int(entry, "penalty", where), negative_traits=_strings(entry, "negative_traits", where),
                source=require(entry, "source", str, where), covers=covers, strength=_int(entry, "strength", where),
                kind=kind,
            )
    if not weapons or not pieces["armor"]:
        raise TableError(f"data/armory.toml [{profile}]: needs weapons and armor")
    return Armory(MappingProxyType(weapons), MappingProxyType(pieces["armor"]),
                  MappingProxyType(pieces["helmets"]), MappingProxyType(pieces["shields"]))


def weapon(key: str, profile: str = "live") -> Weapon:
    """The weapon ``key`` of ``profile``.

    Raises:
        RulesError: no such weapon (``field`` "weapon").
    """
    weapons = armory(profile).weapons
    if key not in weapons:
        raise RulesError(Phrase.message(N_("There is no %(profile)s weapon %(key)s in the armory."),
                                        profile=profile, key=repr(key)), field="weapon")
    return weapons[key]


def armor(key: str, profile: str = "live", kind: str = "body") -> Armor:
    """The armor ``key`` of ``profile``: body armor, or a "helmet" or "shield" (004 "Armor").

    Raises:
        RulesError: no such piece (``field`` "armor", "helmet" or "shield").
    """
    arms = armory(profile)
    pieces = {"body": arms.armor, "helmet": arms.helmets, "shield": arms.shields}[kind]
    if key not in pieces:
        what = "armor" if kind == "body" else kind
        raise RulesError(Phrase.message(N_("There is no %(profile)s %(what)s %(key)s in the armory."),
                                        profile=profile, what=what, key=repr(key)),
                         field="armor" if kind == "body" else kind)
    return pieces[key]


