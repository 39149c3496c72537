"""The health track: its levels (``data/health.toml``, the chronicle's Bruised levels,
Mettle), the tabletop and extras' charts, and :class:`HealthTrack` itself
(met-reference 4.1, 4.3; 000 "Health"). Part of :mod:`larp.rules.health`.
"""

from __future__ import annotations


from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.settings import ChronicleSettings
from larp.tables import TableError, load_toml, require


DAMAGE_TYPES = ("bashing", "lethal", "aggravated")
#: Severity order: a worse wound replaces a lesser one on a full track.
SEVERITY = {"bashing": 0, "lethal": 1, "aggravated": 2}
CONDITIONS = ("active", "unconscious", "torpor", "final_death", "dead")
CONDITION_LABELS = {
    "active": "Active",
    "unconscious": "Unconscious",
    "torpor": "Torpor",
    "final_death": "Final Death",
    "dead": "Dead",
}
TRACK_CREATURES = ("vampire", "ghoul", "mortal")
#: The mark drawn in a box: aggravated "X", normal (bashing or lethal) "/" (000 "Applying Damage").
MARKS = {"aggravated": "X", "lethal": "/", "bashing": "/", None: ""}
#: Narrator actions that destroy a character outright (002 "Damage and Healing"; 000 "Final Death").
DESTRUCTION = {
    "beheading": ("chops off the head of", '002 "Damage and Healing"'),
    "heart_torn_out": ("tears out the heart of", '002 "Damage and Healing"'),
    "massive_trauma": ("destroys beyond repair the body of", '000 "Final Death"'),
}

_APPLYING = "LotNR Health (met-reference 4.1)"
_MARKING = '000 "Applying Damage"'


# ---------------------------------------------------------------- tables

@dataclass(frozen=True)
class ChartLevel:
    """One row of a tabletop health chart (000 "Health Chart").

    Attributes:
        name: the level's name ("Bruised", "Hurt", ...).
        penalty: dice subtracted from action dice pools (0, -1, -2, -5), or
            ``None`` at Incapacitated, where the character can do nothing but
            spend blood points.
        movement: the movement penalty, as the chart words it.
        live_level: the live track's level for the same damage (met-reference 4.3).
        mortal_movement: the words for a mortal where the chart's are a vampire's (Incapacitated: he has no
            blood points to spend), else ``None``.
    """

    name: str
    penalty: int | None
    movement: str
    live_level: str | None = None
    mortal_movement: str | None = None

    def movement_of(self, creature: str) -> str:
        """The movement penalty for a ``creature`` ("vampire", "ghoul", "mortal")."""
        return self.mortal_movement if creature == "mortal" and self.mortal_movement else self.movement


@dataclass(frozen=True)
class Chart:
    """A tabletop health chart: its boxes top to bottom and the unmarked state's name."""

    source: str
    unmarked: str
    levels: tuple[ChartLevel, ...]


@lru_cache(maxsize=None)
def _health_table() -> dict[str, Any]:
    return load_toml("health.toml")


@lru_cache(maxsize=None)
def _live_levels() -> tuple[str, ...]:
    levels = _health_table().get("live", {}).get("levels")
    if not isinstance(levels, list) or not levels or not all(isinstance(x, str) for x in levels):
        raise TableError("data/health.toml [live]: 'levels' must be a list of level names")
    return tuple(levels)


def _chart(section: str) -> Chart:
    raw = _health_table().get(section)
    where = f"data/health.toml [{section}]"
    if not isinstance(raw, dict):
        raise TableError(f"{where}: missing")
    rows = require(raw, "levels", list, where)
    levels = []
    for index, entry in enumerate(rows):
        at = f"{where} levels[{index}]"
        if not isinstance(entry, dict):
            raise TableError(f"{at}: must be a table")
        penalty = entry.get("penalty")
        if penalty is not None and (isinstance(penalty, bool) or not isinstance(penalty, int)):
            raise TableError(f"{at}: 'penalty' must be a whole number")
        levels.append(ChartLevel(
            name=require(entry, "name", str, at),
            penalty=penalty,
            movement=require(entry, "movement", str, at),
            live_level=entry.get("live_level"),
            mortal_movement=require(entry, "mortal_movement", str, at) if "mortal_movement" in entry else None,
        ))
    if not levels:
        raise TableError(f"{where}: no levels")
    return Chart(require(raw, "source", str, where), require(raw, "unmarked", str, where), tuple(levels))


@lru_cache(maxsize=None)
def tabletop_chart() -> Chart:
    """The tabletop Health chart: seven boxes with dice and movement penalties.

    Source: 000 "Health Chart", 001 "Damage Explained" (``data/health.toml``).

    Raises:
        TableError: the table is malformed, or a row's ``live_level`` is missing.
    """
    chart = _chart("tabletop")
    for row in chart.levels:
        if row.live_level is None:
            raise TableError(f"data/health.toml [tabletop] {row.name}: missing 'live_level'")
    return chart


@lru_cache(maxsize=None)
def extra_chart() -> Chart:
    """The extras' chart: Hurt -1, Maimed -3, Incapacitated (Dead lies below).

    Source: 000 "Optional Rule: Extras" (``data/health.toml``).
    """
    return _chart("extra")


def live_levels(settings: ChronicleSettings, mettle: bool = False) -> tuple[str, ...]:
    """The live track's levels with the chronicle's number of Bruised levels.

    Args:
        settings: the chronicle's settings (``bruised_levels``, met-reference 8.2 #1).
        mettle: the character has Fortitude's Mettle, which adds one Healthy
            level (met-reference 3.5).
    """
    return _levels_with(settings["bruised_levels"], bool(mettle))


@lru_cache(maxsize=64)
def _levels_with(bruised: int, mettle: bool) -> tuple[str, ...]:
    """:func:`live_levels` for ``bruised`` Bruised levels (and Mettle's level): worked out once a process,
    since every ruling asks it of each side several times (issue 29 item 6)."""
    base = _live_levels()
    before = [lvl for lvl in base if lvl == "Healthy"] + (["Healthy"] if mettle else [])
    after = [lvl for lvl in base if lvl not in ("Healthy", "Bruised")]
    return tuple(before + ["Bruised"] * bruised + after)


def extra_levels() -> tuple[str, ...]:
    """An extra's track as levels a character stands on: unmarked, Hurt, Maimed,
    Incapacitated; a fourth level of damage is Dead (000 "Optional Rule: Extras")."""
    chart = extra_chart()
    return (chart.unmarked,) + tuple(row.name for row in chart.levels)


# ---------------------------------------------------------------- the track

@dataclass(frozen=True)
class HealthTrack:
    """Damage marked on a character's health track, with his condition.

    Attributes:
        levels: level names, top to bottom; the last is Incapacitated. The
            character stands on ``levels[marked]``; when every level is marked
            he is below Incapacitated.
        aggravated, lethal, bashing: health levels of each type marked.
        condition: "active", "unconscious", "torpor", "final_death" (vampires)
            or "dead" (mortals and ghouls).
        staked: a stake through the heart paralyses the vampire until it is
            removed (000 "Stake Through Heart").
        creature: "vampire", "ghoul" or "mortal"; ghouls take damage as
            mortals do (the sources give them no rule of their own).

    Raises:
        RulesError: negative counts, more marks than levels, an unknown
            condition or creature (``field`` names it).
    """

    levels: tuple[str, ...]
    aggravated: int = 0
    lethal: int = 0
    bashing: int = 0
    condition: str = "active"
    staked: bool = False
    creature: str = "vampire"

    def __post_init__(self) -> None:
        object.__setattr__(self, "levels", tuple(self.levels))
        if len(self.levels) < 2:
            raise RulesError(Phrase.message(N_("A health track needs at least two levels.")), field="levels")
        for kind in DAMAGE_TYPES:
            value = getattr(self, kind)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulesError(Phrase.message(N_("%(kind)s damage must be a whole number of at least 0."),
                                                kind=kind.capitalize()), field=kind)
        if self.marked > self.size:
            raise RulesError(
                Phrase.message(N_("%(marked)s levels of damage do not fit on a track of %(size)s levels."),
                               marked=self.marked, size=self.size), field="levels")
        if self.condition not in CONDITIONS:
            raise RulesError(Phrase.message(N_("Unknown condition %(value)s."), value=repr(self.condition)), field="condition")
        if self.creature not in TRACK_CREATURES:
            raise RulesError(Phrase.message(N_("Unknown creature %(creature)s (vampire, ghoul or mortal)."),
                                            creature=repr(self.creature)), field="creature")

    @property
    def marked(self) -> int:
        """Health levels marked, of any type."""
        return self.aggravated + self.lethal + self.bashing

    @property
    def size(self) -> int:
        """Number of health levels on the track."""
        return len(self.levels)

    @property
    def is_vampire(self) -> bool:
        """Vampires soak, halve bashing, heal with blood and enter torpor."""
        return self.creature == "vampire"

    @property
    def incapacitated(self) -> bool:
        """Standing on the last level (Incapacitated): marks on all the others."""
        return self.marked == self.size - 1

    @property
    def below_incapacitated(self) -> bool:
        """Every level is marked, Incapacitated included."""
        return self.marked == self.size

    @property
    def destroyed(self) -> bool:
        """Final Death (vampire) or dead (mortal, ghoul): nothing changes this track again."""
        return self.condition in ("final_death", "dead")

    def kinds(self) -> list[str]:
        """The damage type in each marked box, top to bottom: aggravated, then lethal, then bashing."""
        return ["aggravated"] * self.aggravated + ["lethal"] * self.lethal + ["bashing"] * self.bashing

    def marks(self) -> list[tuple[str, str]]:
        """Each level with its mark: ``"X"`` aggravated, ``"/"`` bashing or lethal, ``""`` none.

        Aggravated marks fill from the top, then normal damage (000 "Applying Damage").
        """
        kinds = self.kinds()
        return [(level, MARKS[kinds[i]] if i < len(kinds) else "") for i, level in enumerate(self.levels)]

    def state(self) -> str:
        """The level the character stands on (met-reference 4.1: 1 level of damage
        leaves him on the second Healthy level, 7 on Incapacitated), or
        ``"Below Incapacitated"`` when every level is marked."""
        if self.below_incapacitated:
            return "Below Incapacitated"
        return self.levels[self.marked]

    def to_dict(self) -> dict[str, Any]:
        """The track as JSON-ready data (store this; :meth:`from_dict` reads it back)."""
        return {
            "levels": list(self.levels), "aggravated": self.aggravated, "lethal": self.lethal,
            "bashing": self.bashing, "condition": self.condition, "staked": self.staked,
            "creature": self.creature,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "HealthTrack":
        """Rebuild a track from :meth:`to_dict` output.

        Raises:
            RulesError: as the constructor.
        """
        return cls(
            levels=tuple(data["levels"]), aggravated=data.get("aggravated", 0), lethal=data.get("lethal", 0),
            bashing=data.get("bashing", 0), condition=data.get("condition", "active"),
            staked=bool(data.get("staked", False)), creature=data.get("creature", "vampire"),
        )


def new_track(creature: str = "vampire", settings: ChronicleSettings | None = None, *,
              mettle: bool = False, extra: bool = False) -> HealthTrack:
    """An undamaged track for a character.

    Args:
        creature: "vampire", "ghoul" or "mortal".
        settings: the chronicle's settings (``bruised_levels``); defaults if omitted.
        mettle: Fortitude's Mettle adds a Healthy level (met-reference 3.5).
        extra: use the extras' four levels (000 "Optional Rule: Extras").

    Raises:
        RulesError: an unknown creature.
    """
    settings = settings or ChronicleSettings.defaults()
    levels = extra_levels() if extra else live_levels(settings, mettle=False)
    if mettle:
        levels = ("Healthy",) + levels
    return HealthTrack(levels=levels, creature=creature)


def track_for_sheet(sheet: Any, settings: ChronicleSettings | None = None) -> HealthTrack:
    """An undamaged track for a :class:`larp.sheet.CharacterSheet`.

    The sheet's own ``health_levels`` (extras) replace the chronicle's track;
    Fortitude 2 (Mettle) adds a Healthy level at the top (met-reference 3.5).
    """
    settings = settings or ChronicleSettings.defaults()
    levels = tuple(sheet.health_levels) or live_levels(settings)
    if sheet.discipline_level("Fortitude") >= 2:
        levels = ("Healthy",) + levels
    return HealthTrack(levels=levels, creature=sheet.creature)


