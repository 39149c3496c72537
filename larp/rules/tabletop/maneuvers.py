"""Tabletop maneuvers and situation modifiers as data (``data/maneuvers.toml``).

Three rules profiles, chosen by the chronicle setting ``tabletop_profile``:
"revised" (000 with 003's detail), "dark_ages" (004, taking from the
revised profile the maneuvers 004's text does not give) and "v20" (the
revised profile with 003's V20-era differences: dodging is Dexterity + Athletics). Each profile has its
maneuvers (close, ranged, defensive), ranges, cover, target sizes, called
shots and the situation numbers (flank and rear dice, blindness, immobilized
targets, aborting...). The file is validated on load: a malformed entry fails
naming the file and the entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from larp.rules.damage import WEAPON_SPECIALS
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.health import DAMAGE_TYPES
from larp.rules.settings import ChronicleSettings
from larp.tables import TableError, load_toml, require

PROFILES = ("revised", "dark_ages", "v20")
KINDS = ("close", "ranged", "defensive")
DAMAGE_BASES = ("strength", "weapon", "none")
WEAPON_USES = ("none", "melee", "ranged", "thrown", "optional")
FLAGS = (
    "vampire_only", "holds", "carries_over", "knockdown", "both_knockdown", "unbalances", "single_shot",
    "no_targeting", "needs_clip_half_full", "empties_clip", "strafing", "disarm", "thrown", "multiple", "off_hand",
    "mutual",
)
_FILE = "data/maneuvers.toml"


@dataclass(frozen=True)
class Maneuver:
    """One maneuver of a profile (see the comment at the top of ``data/maneuvers.toml``).

    Attributes:
        key: "strike", "bite", "automatic_fire"...
        abilities: the Ability of the pool; two for the sweep (Brawl bare-handed, Melee armed).
        accuracy: dice added to the attack pool.
        difficulty: added to the base difficulty.
        damage: "strength", "weapon" or "none"; damage_bonus: dice added to Strength.
        damage_type: a damage type, "weapon" or "power".
        weapon: what it is made with ("none", "melee", "ranged", "thrown", "optional").
        needs_hold: maneuvers one of which must have held the target since an earlier turn (bite).
        weapon_special: a special the weapon must have ("Full-Auto", "Burst").
        powers: power name -> damage type (claws).
        against: for defensive maneuvers, "close" and/or "ranged".
        knockdown_difficulty: the Dexterity + Athletics difficulty to stay up.
        narrator: what the narrator still decides.
        source: where it comes from.
    """

    key: str
    name: str
    profile: str
    kind: str
    attribute: str
    abilities: tuple[str, ...]
    accuracy: int
    difficulty: int
    damage: str
    damage_bonus: int
    damage_type: str
    weapon: str
    flags: frozenset[str]
    needs_hold: tuple[str, ...]
    weapon_special: str | None
    powers: Mapping[str, str]
    against: tuple[str, ...]
    knockdown_difficulty: int
    narrator: str
    source: str

    def has(self, flag: str) -> bool:
        """Whether the maneuver carries ``flag`` (see ``FLAGS``)."""
        return flag in self.flags

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (for the API and the screen)."""
        return {"key": self.key, "name": self.name, "kind": self.kind, "attribute": self.attribute,
                "abilities": list(self.abilities), "accuracy": self.accuracy, "difficulty": self.difficulty,
                "damage": self.damage, "damage_bonus": self.damage_bonus, "damage_type": self.damage_type,
                "weapon": self.weapon, "flags": sorted(self.flags), "needs_hold": list(self.needs_hold),
                "weapon_special": self.weapon_special, "powers": dict(self.powers),
                "against": list(self.against), "narrator": self.narrator, "source": self.source}


@dataclass(frozen=True)
class TargetSize:
    """A row of the targeting table: difficulty added, damage dice added."""

    key: str
    label: str
    difficulty: int
    damage: int
    no_stake_damage: bool


@dataclass(frozen=True)
class DodgeModifier:
    """A row of 004's dodge modifiers table (close or ranged combat)."""

    key: str
    label: str
    difficulty: int
    kind: str


@dataclass(frozen=True)
class Situation:
    """A profile's situation numbers (000 "General Maneuvers", "Maneuver Complications"; 004 "Basic Modifiers").

    Attributes:
        flank_dice, rear_dice: attack dice for attacking from the flank or rear.
        blind_difficulty: added when the attacker cannot see.
        blinded_target_dice, held_target_dice: attack dice against a blinded or
            held (still struggling) target.
        immobilized: "automatic_hit" (000) or "damage_dice" (004) for a
            completely immobilized target; immobilized_damage_dice: the dice then.
        opponents_max: the most that multiple opponents add to difficulties.
        scope_dice: a scope's dice on the first turn of aiming.
        off_hand_difficulty: the off hand's difficulty with two weapons.
        strafing_dodge_difficulty: added to dodges against strafing.
        thrown_extra_successes: extra attack successes add damage dice for thrown weapons.
        abort: "not_acted" (000) or "action_left" (004): who may abort to a defense.
        armor_penalty_halved_at_melee: Melee that halves armor's Dexterity penalty (0: never).
        parry_brawl_difficulty: added to a weapon parrying a brawling attack.
        block_melee_at_brawl: Brawl that lets a block stop bashing melee attacks (0: any close attack).
        blood_heals_bashing, blood_heals_lethal: levels of each a blood point heals in this profile
            (the tabletop: one of either; the live game heals two bashing, 002).
    """

    flank_dice: int
    rear_dice: int
    blind_difficulty: int
    blinded_target_dice: int
    held_target_dice: int
    immobilized: str
    immobilized_damage_dice: int
    opponents_max: int
    scope_dice: int
    off_hand_difficulty: int
    strafing_dodge_difficulty: int
    thrown_extra_successes: bool
    abort: str
    armor_penalty_halved_at_melee: int
    parry_brawl_difficulty: int
    block_melee_at_brawl: int
    blood_heals_bashing: int
    blood_heals_lethal: int
    source: str


@dataclass(frozen=True)
class Profile:
    """A tabletop rules profile: its maneuvers and situation tables."""

    key: str
    name: str
    source: str
    maneuvers: Mapping[str, Maneuver]
    ranges: Mapping[str, int]
    cover: Mapping[str, int]
    target_sizes: Mapping[str, TargetSize]
    called_shots: Mapping[str, str]
    situation: Situation
    dodge_modifiers: Mapping[str, DodgeModifier]
    sight: Mapping[str, int] = field(default_factory=dict)

    def sight_reduction(self, powers: tuple[str, ...]) -> tuple[int, str]:
        """The most that ``powers`` take off the difficulty of fighting blind, and the power (000
        "Blind Fighting/Fire"; 004 "Blind Fighting"; ``[<profile>.sight]``): the best one counts, the
        reductions do not add up."""
        held = {p.strip().lower() for p in powers}
        best, name = 0, ""
        for power, value in self.sight.items():
            if power.lower() in held and value > best:
                best, name = value, power
        return best, name

    def maneuver(self, key: str, field: str = "maneuver") -> Maneuver:
        """The maneuver ``key``.

        Raises:
            RulesError: the profile has no such maneuver (``field`` names the input).
        """
        if key not in self.maneuvers:
            raise RulesError(Phrase.message(N_("%(name)s has no maneuver %(key)s (%(value)s)."),
                                            name=self.name, key=repr(key), value=', '.join(sorted(self.maneuvers))),
                             field=field)
        return self.maneuvers[key]

    def of_kind(self, *kinds: str) -> tuple[Maneuver, ...]:
        """Maneuvers of the given kinds, in table order."""
        return tuple(m for m in self.maneuvers.values() if m.kind in kinds)


def _ints(raw: Any, where: str) -> Mapping[str, int]:
    if not isinstance(raw, dict) or not raw:
        raise TableError(f"{where}: missing")
    for key, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TableError(f"{where}.{key}: must be a whole number")
    return MappingProxyType(dict(raw))


def _maneuver(profile: str, key: str, entry: Any) -> Maneuver:
    where = f"{_FILE} [{profile}.maneuvers.{key}]"
    if not isinstance(entry, dict):
        raise TableError(f"{where}: must be a table")
    kind = require(entry, "kind", str, where)
    if kind not in KINDS:
        raise TableError(f"{where}: kind must be one of {', '.join(KINDS)}")
    ability = require(entry, "ability", (str, list), where)
    abilities = tuple(ability) if isinstance(ability, list) else (ability,)
    if not abilities or not all(isinstance(a, str) and a for a in abilities):
        raise TableError(f"{where}: 'ability' must name an Ability or list Abilities")
    damage = require(entry, "damage", str, where)
    if damage not in DAMAGE_BASES:
        raise TableError(f"{where}: damage must be one of {', '.join(DAMAGE_BASES)}")
    damage_type = require(entry, "damage_type", str, where)
    if damage_type not in (*DAMAGE_TYPES, "weapon", "power"):
        raise TableError(f"{where}: unknown damage_type {damage_type!r}")
    weapon = require(entry, "weapon", str, where)
    if weapon not in WEAPON_USES:
        raise TableError(f"{where}: weapon must be one of {', '.join(WEAPON_USES)}")
    flags = entry.get("flags", [])
    if not isinstance(flags, list) or any(f not in FLAGS for f in flags):
        raise TableError(f"{where}: unknown flag in {flags!r}")
    powers = entry.get("powers", {})
    if not isinstance(powers, dict) or any(v not in DAMAGE_TYPES for v in powers.values()):
        raise TableError(f"{where}: 'powers' maps a power to a damage type")
    if damage_type == "power" and not powers:
        raise TableError(f"{where}: damage_type 'power' needs 'powers'")
    special = entry.get("weapon_special")
    if special is not None and special not in WEAPON_SPECIALS:
        raise TableError(f"{where}: unknown weapon_special {special!r}")
    against = entry.get("against", [])
    if kind == "defensive" and (not against or any(a not in ("close", "ranged") for a in against)):
        raise TableError(f"{where}: a defensive maneuver lists 'against' (close, ranged)")
    needs_hold = entry.get("needs_hold", [])
    if not isinstance(needs_hold, list) or not all(isinstance(x, str) for x in needs_hold):
        raise TableError(f"{where}: 'needs_hold' lists maneuvers")
    knockdown = entry.get("knockdown_difficulty", 0)
    if "knockdown" in flags and not (isinstance(knockdown, int) and 2 <= knockdown <= 10):
        raise TableError(f"{where}: a knockdown maneuver needs knockdown_difficulty 2..10")
    return Maneuver(
        key=key, name=require(entry, "name", str, where), profile=profile, kind=kind,
        attribute=require(entry, "attribute", str, where), abilities=abilities,
        accuracy=require(entry, "accuracy", int, where), difficulty=require(entry, "difficulty", int, where),
        damage=damage, damage_bonus=require(entry, "damage_bonus", int, where), damage_type=damage_type,
        weapon=weapon, flags=frozenset(flags), needs_hold=tuple(needs_hold), weapon_special=special,
        powers=MappingProxyType(dict(powers)), against=tuple(against), knockdown_difficulty=knockdown,
        narrator=str(entry.get("narrator", "")), source=require(entry, "source", str, where),
    )


def _situation(profile: str, raw: Any) -> Situation:
    where = f"{_FILE} [{profile}.situation]"
    if not isinstance(raw, dict):
        raise TableError(f"{where}: missing")
    values: dict[str, Any] = {}
    for name, spec in Situation.__dataclass_fields__.items():
        kind = {"bool": bool, "str": str, "int": int}[str(spec.type)]
        values[name] = require(raw, name, kind, where)
    if values["immobilized"] not in ("automatic_hit", "damage_dice"):
        raise TableError(f"{where}: immobilized is automatic_hit or damage_dice")
    if values["abort"] not in ("not_acted", "action_left"):
        raise TableError(f"{where}: abort is not_acted or action_left")
    return Situation(**values)


def _sight(profile: str, raw: Any) -> Mapping[str, int]:
    where = f"{_FILE} [{profile}.sight]"
    if not isinstance(raw, dict):
        raise TableError(f"{where}: maps a power to the difficulty it removes")
    for power, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 4:
            raise TableError(f"{where}.{power}: a difficulty removed, 0 to 4")
    return MappingProxyType(dict(raw))


def _merged(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``own``'s entries laid over it, table by table (a maneuver's fields too)."""
    out = dict(base)
    for name, value in own.items():
        if isinstance(value, dict) and isinstance(base.get(name), dict):
            out[name] = _merged(base[name], value)
        else:
            out[name] = value
    return out


@lru_cache(maxsize=None)
def tabletop_profile(key: str = "revised") -> Profile:
    """The rules profile ``key`` ("revised", "dark_ages" or "v20"), loaded once from ``data/maneuvers.toml``
    (a profile with a ``base`` is that profile with its own entries laid over it).

    Raises:
        RulesError: an unknown profile (field ``profile``).
        TableError: a malformed entry (names the file and the entry).
    """
    if key not in PROFILES:
        raise RulesError(Phrase.message(N_("Unknown tabletop profile %(key)s (%(value)s)."),
                                        key=repr(key), value=', '.join(PROFILES)), field="profile")
    raw_all = load_toml("maneuvers.toml")
    raw = raw_all.get(key)
    if not isinstance(raw, dict):
        raise TableError(f"{_FILE} [{key}]: missing")
    if "base" in raw:  # a profile that differs from another in a few entries (v20 from revised)
        base = raw_all.get(raw["base"])
        if not isinstance(base, dict) or "base" in base:
            raise TableError(f"{_FILE} [{key}] base: no profile {raw['base']!r} to build on")
        raw = _merged(base, {k: v for k, v in raw.items() if k != "base"})
    maneuvers: dict[str, Maneuver] = {}
    for name in raw.get("inherit", []):
        parent = tabletop_profile("revised").maneuvers
        if key == "revised" or name not in parent:
            raise TableError(f"{_FILE} [{key}] inherit: no revised maneuver {name!r}")
        base = parent[name]
        maneuvers[name] = Maneuver(**{**base.__dict__, "profile": key})
    for name, entry in raw.get("maneuvers", {}).items():
        maneuvers[name] = _maneuver(key, name, entry)
    for m in maneuvers.values():
        for held in m.needs_hold:
            if held not in maneuvers or not maneuvers[held].has("holds"):
                raise TableError(f"{_FILE} [{key}.maneuvers.{m.key}]: needs_hold {held!r} is not a holding maneuver")
    sizes: dict[str, TargetSize] = {}
    for name, entry in raw.get("target_size", {}).items():
        where = f"{_FILE} [{key}.target_size.{name}]"
        sizes[name] = TargetSize(name, require(entry, "label", str, where), require(entry, "difficulty", int, where),
                                 require(entry, "damage", int, where), bool(entry.get("no_stake_damage", False)))
    called = raw.get("called_shot", {})
    if set(called) != {"head", "heart"} or any(v not in sizes for v in called.values()):
        raise TableError(f"{_FILE} [{key}.called_shot]: head and heart must name target sizes")
    dodge: dict[str, DodgeModifier] = {}
    for name, entry in raw.get("dodge_modifiers", {}).items():
        where = f"{_FILE} [{key}.dodge_modifiers.{name}]"
        kind = require(entry, "kind", str, where)
        if kind not in ("close", "ranged"):
            raise TableError(f"{where}: kind is close or ranged")
        dodge[name] = DodgeModifier(name, require(entry, "label", str, where),
                                    require(entry, "difficulty", int, where), kind)
    ranges = _ints(raw.get("range"), f"{_FILE} [{key}.range]")
    if set(ranges) != {"point_blank", "short", "long"}:
        raise TableError(f"{_FILE} [{key}.range]: point_blank, short and long")
    return Profile(
        key=key, name=require(raw, "name", str, f"{_FILE} [{key}]"), source=require(raw, "source", str, f"{_FILE} [{key}]"),
        maneuvers=MappingProxyType(maneuvers), ranges=ranges, cover=_ints(raw.get("cover"), f"{_FILE} [{key}.cover]"),
        target_sizes=MappingProxyType(sizes), called_shots=MappingProxyType(dict(called)),
        situation=_situation(key, raw.get("situation")), dodge_modifiers=MappingProxyType(dodge),
        sight=_sight(key, raw.get("sight", {})),
    )


def profile_for(settings: ChronicleSettings | None) -> Profile:
    """The profile the chronicle setting ``tabletop_profile`` chooses."""
    settings = settings or ChronicleSettings.defaults()
    return tabletop_profile(settings["tabletop_profile"])
