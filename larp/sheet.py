"""A character sheet as plain data: the shape every import, export, form and API call shares.

The demo chronicle (``data/demo/*.toml``), the Grapevine importer, the chronicle
export, the sheet editor and the JSON API all produce or read
:class:`CharacterSheet`; the service layer turns it into stored characters.
:meth:`CharacterSheet.from_dict` is the one validator of a sheet's values: the
editor, the API and ``larp import`` all refuse the same things with the same
messages (:mod:`larp.sheet_checks`). Its parts are :mod:`larp.sheet_entries`. It imports neither Flask nor peewee.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from larp.sheet_checks import read_sheet
from larp.sheet_entries import CATEGORIES, ArmorEntry, PowerEntry, QualityEntry, TraitEntry, WeaponEntry
from larp.tables import generation_row


@dataclass
class CharacterSheet:
    """Everything the tool keeps about a character's sheet, as plain data.

    Units: Traits and Ability levels are counts; blood in blood points;
    Willpower in Willpower Traits; Virtues, Backgrounds and Morality in Traits;
    ``generation`` as a number (13 for 13th), ``None`` for mortals and ghouls.

    Attributes:
        traits: per category, the adjective Traits with counts.
        negative_traits: per category, the Negative Traits with counts.
        abilities: Ability name to level.
        specialisations: Ability name to its specialisations (+1 bonus Trait in ties).
        powers: Discipline powers held.
        backgrounds: Background name to rating.
        merits, flaws: Merits and Flaws with their cost.
        derangements: Derangement names.
        virtues: Virtue name ("Conscience", "Self-Control", "Courage"...) to rating.
        weapons: the weapons carried; ``armor`` the armor worn.
        tabletop: tabletop ratings in dots (``{"Strength": 4, ...}``), used by
            the tabletop rules profile and the conversion; may be empty.
        health_levels: the track's level names if the character's sheet
            overrides the chronicle's (extras, Mettle is derived, not stored).
        scene_extra: made for one scene (removed together after the game session).
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
    nature: str = ""
    demeanor: str = ""
    virtues: dict[str, int] = field(default_factory=dict)
    traits: dict[str, list[TraitEntry]] = field(default_factory=lambda: {c: [] for c in CATEGORIES})
    negative_traits: dict[str, list[TraitEntry]] = field(default_factory=lambda: {c: [] for c in CATEGORIES})
    abilities: dict[str, int] = field(default_factory=dict)
    specialisations: dict[str, list[str]] = field(default_factory=dict)
    powers: list[PowerEntry] = field(default_factory=list)
    backgrounds: dict[str, int] = field(default_factory=dict)
    merits: list[QualityEntry] = field(default_factory=list)
    flaws: list[QualityEntry] = field(default_factory=list)
    derangements: list[str] = field(default_factory=list)
    weapons: list[WeaponEntry] = field(default_factory=list)
    armor: list[ArmorEntry] = field(default_factory=list)
    tabletop: dict[str, int] = field(default_factory=dict)
    health_levels: list[str] = field(default_factory=list)
    notes: str = ""
    narrator_notes: str = ""
    player_contact: str = ""
    scene_extra: bool = False

    def trait_total(self, category: str) -> int:
        """The number of Traits in ``category`` (counts summed)."""
        return sum(t.count for t in self.traits.get(category, []))

    def discipline_level(self, discipline: str) -> int:
        """The highest power level held in ``discipline`` (0 if none)."""
        return max((p.level for p in self.powers if p.discipline.lower() == discipline.lower()), default=0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the export format and the API use this; :meth:`from_dict` reads it)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> "CharacterSheet":
        """Build a sheet from :meth:`to_dict` output, a demo TOML table, a form or a JSON body,
        checking every value (:func:`larp.sheet_checks.read_sheet`).

        Traits may be given as ``[{name, count}]`` or as ``["Quick x2", ...]``.

        Raises:
            larp.sheet_checks.SheetError: every problem found, each with the field
                at fault (``"traits.physical.0.count"``) and a message for the
                person at the screen; nothing partial is returned.
        """
        return read_sheet(cls, data)

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
