"""A character sheet as plain data: the shape every import and export shares.

The demo chronicle (``data/demo/*.toml``), the Grapevine importer and the
chronicle export all produce or read :class:`CharacterSheet`; the service
layer turns it into stored characters. It imports neither Flask nor peewee.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from larp.rules.explain import RulesError
from larp.rules.numbers import whole_number
from larp.tables import generation_row

CREATURES = ("vampire", "ghoul", "mortal")
CATEGORIES = ("physical", "social", "mental")
TABLETOP_ATTRIBUTES = (
    "Strength", "Dexterity", "Stamina",
    "Charisma", "Manipulation", "Appearance",
    "Perception", "Intelligence", "Wits",
)


@dataclass
class TraitEntry:
    """An adjective Trait with its count ("Quick x2" is name "Quick", count 2)."""

    name: str
    count: int = 1


@dataclass
class PowerEntry:
    """One Discipline power: ``discipline`` "Celerity", ``power`` "Alacrity", ``level`` 1.

    ``level`` is the power's place in the Discipline (1 Basic ... 5).
    """

    discipline: str
    power: str
    level: int


@dataclass
class CharacterSheet:
    """Everything the tool keeps about a character, as plain data.

    Units: Traits and Ability levels are counts; blood in blood points;
    Willpower in Willpower Traits; ``generation`` as a number (13 for 13th),
    ``None`` for mortals and ghouls.

    Attributes:
        traits: per category, the adjective Traits with counts.
        negative_traits: per category, the Negative Traits with counts.
        abilities: Ability name to level.
        powers: Discipline powers held.
        tabletop: tabletop ratings in dots (``{"Strength": 4, ...}``), used by
            the tabletop rules profile and the conversion; may be empty.
        health_levels: the track's level names if the character's sheet
            overrides the chronicle's (extras, Mettle is derived, not stored).
    """

    name: str
    creature: str = "vampire"
    player_name: str = ""
    clan: str = ""
    sect: str = ""
    title: str = ""
    generation: int | None = None
    morality_name: str = "Humanity"
    morality_rating: int = 0
    willpower_permanent: int = 0
    willpower_current: int | None = None
    blood_max: int = 0
    blood_current: int | None = None
    blood_per_turn: int = 0
    traits: dict[str, list[TraitEntry]] = field(default_factory=lambda: {c: [] for c in CATEGORIES})
    negative_traits: dict[str, list[TraitEntry]] = field(default_factory=lambda: {c: [] for c in CATEGORIES})
    abilities: dict[str, int] = field(default_factory=dict)
    powers: list[PowerEntry] = field(default_factory=list)
    tabletop: dict[str, int] = field(default_factory=dict)
    health_levels: list[str] = field(default_factory=list)
    notes: str = ""
    narrator_notes: str = ""
    player_contact: str = ""

    def trait_total(self, category: str) -> int:
        """The number of Traits in ``category`` (counts summed)."""
        return sum(t.count for t in self.traits.get(category, []))

    def discipline_level(self, discipline: str) -> int:
        """The highest power level held in ``discipline`` (0 if none)."""
        return max((p.level for p in self.powers if p.discipline.lower() == discipline.lower()), default=0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the export format uses this)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CharacterSheet":
        """Build a sheet from :meth:`to_dict` output or a demo TOML table, validated.

        Traits may be given as ``[{name, count}]`` or as ``["Quick x2", ...]``.

        Raises:
            RulesError: a missing name, an unknown creature type or category,
                or a count below 1; ``field`` names the entry.
        """
        data = dict(data)
        name = str(data.get("name", "")).strip()
        if not name:
            raise RulesError("A character needs a name.", field="name")
        creature = str(data.get("creature", "vampire")).strip().lower()
        if creature not in CREATURES:
            raise RulesError(f"{name}: unknown creature type {creature!r} (vampire, ghoul or mortal).",
                             field="creature")
        sheet = cls(name=name, creature=creature)
        for key in ("player_name", "clan", "sect", "title", "morality_name", "notes",
                    "narrator_notes", "player_contact"):
            if key in data and data[key] is not None:
                setattr(sheet, key, str(data[key]))
        for key in ("generation", "morality_rating", "willpower_permanent", "willpower_current",
                    "blood_max", "blood_current", "blood_per_turn"):
            if key in data and data[key] is not None:
                value = data[key]
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise RulesError(f"{name}: {key} must be a whole number of at least 0.", field=key)
                setattr(sheet, key, value)
        for attr in ("traits", "negative_traits"):
            groups = data.get(attr) or {}
            for category, entries in groups.items():
                if category not in CATEGORIES:
                    raise RulesError(f"{name}: unknown Trait category {category!r}.", field=attr)
                getattr(sheet, attr)[category] = [_trait_entry(name, e) for e in entries]
        for ability, level in (data.get("abilities") or {}).items():
            if isinstance(level, bool) or not isinstance(level, int) or level < 1:
                raise RulesError(f"{name}: Ability {ability} needs a level of at least 1.", field="abilities")
            sheet.abilities[str(ability)] = level
        for entry in data.get("powers") or []:
            try:
                power = PowerEntry(str(entry["discipline"]), str(entry["power"]),
                                   whole_number(entry["level"], "powers"))
            except (KeyError, TypeError, ValueError):
                raise RulesError(f"{name}: a power needs discipline, power and level.", field="powers") from None
            if not 1 <= power.level <= 9:
                raise RulesError(f"{name}: {power.power} has an impossible level {power.level}.", field="powers")
            sheet.powers.append(power)
        for attribute, dots in (data.get("tabletop") or {}).items():
            if isinstance(dots, bool) or not isinstance(dots, int) or dots < 0:
                raise RulesError(f"{name}: tabletop {attribute} must be a number of dots.", field="tabletop")
            sheet.tabletop[str(attribute)] = dots
        sheet.health_levels = [str(x) for x in data.get("health_levels") or []]
        sheet.fill_defaults()
        return sheet

    def fill_defaults(self) -> None:
        """Fill values a sheet may leave out: current Willpower and blood equal
        their maxima; a vampire's blood pool and blood per turn come from the
        generation table when not given (LotNR generation table, met-reference 5.1)."""
        if self.creature == "vampire" and self.generation is not None:
            row = generation_row(self.generation)
            if row is not None:
                if not self.blood_max:
                    self.blood_max = row.blood_max
                if not self.blood_per_turn:
                    self.blood_per_turn = row.blood_per_turn
        if self.willpower_current is None:
            self.willpower_current = self.willpower_permanent
        if self.blood_current is None:
            self.blood_current = self.blood_max


def _trait_entry(character: str, entry: Any) -> TraitEntry:
    if isinstance(entry, str):
        text = entry.strip()
        count = 1
        head, sep, tail = text.rpartition(" x")
        number = whole_number(tail, "traits", default=None, low=1) if sep and tail.isascii() and tail.isdigit() else None
        if number is not None:
            text, count = head.strip(), number
        if not text:
            raise RulesError(f"{character}: an empty Trait name.", field="traits")
        return TraitEntry(text, count)
    if isinstance(entry, dict) and entry.get("name"):
        count = entry.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RulesError(f"{character}: Trait {entry['name']} needs a count of at least 1.", field="traits")
        return TraitEntry(str(entry["name"]).strip(), count)
    raise RulesError(f"{character}: cannot read the Trait {entry!r}.", field="traits")
