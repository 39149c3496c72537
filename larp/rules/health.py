"""The live game's health track (LotNR Health; met-reference 4.1).

A track is a list of health levels, top to bottom (Healthy, Healthy, Bruised
x3, Wounded x2, Incapacitated by default), and the damage marked on it,
counted by type. Aggravated damage is always marked above lethal, and lethal
above bashing (000 "Applying Damage", the Veronica example), so the marks are
derived from the three counts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from larp.rules.explain import Explanation, RulesError, Step
from larp.rules.settings import ChronicleSettings
from larp.tables import TableError, load_toml

DAMAGE_TYPES = ("bashing", "lethal", "aggravated")


@lru_cache(maxsize=None)
def _live_levels() -> tuple[str, ...]:
    raw = load_toml("health.toml")
    levels = raw.get("live", {}).get("levels")
    if not isinstance(levels, list) or not levels or not all(isinstance(x, str) for x in levels):
        raise TableError("data/health.toml [live]: 'levels' must be a list of level names")
    return tuple(levels)


def live_levels(settings: ChronicleSettings) -> tuple[str, ...]:
    """The live track's levels with the chronicle's number of Bruised levels.

    Setting: ``bruised_levels`` (met-reference 8.2 #1).
    """
    base = _live_levels()
    bruised = settings["bruised_levels"]
    before = [lvl for lvl in base if lvl == "Healthy"]
    after = [lvl for lvl in base if lvl not in ("Healthy", "Bruised")]
    return tuple(before + ["Bruised"] * bruised + after)


@dataclass(frozen=True)
class HealthTrack:
    """Damage marked on a health track.

    Attributes:
        levels: level names, top to bottom; the last is Incapacitated.
        aggravated, lethal, bashing: health levels of each type marked.
    """

    levels: tuple[str, ...]
    aggravated: int = 0
    lethal: int = 0
    bashing: int = 0

    @property
    def marked(self) -> int:
        """Health levels marked, of any type."""
        return self.aggravated + self.lethal + self.bashing

    @property
    def size(self) -> int:
        """Number of health levels on the track."""
        return len(self.levels)

    def marks(self) -> list[tuple[str, str]]:
        """Each level with its mark: ``"X"`` aggravated, ``"/"`` lethal or bashing, ``""`` none.

        Aggravated marks fill from the top, then lethal, then bashing
        (000 "Applying Damage").
        """
        kinds = ["aggravated"] * self.aggravated + ["lethal"] * self.lethal + ["bashing"] * self.bashing
        out = []
        for index, level in enumerate(self.levels):
            kind = kinds[index] if index < len(kinds) else ""
            out.append((level, kind))
        return out

    def state(self) -> str:
        """The level the character is at: the lowest marked level's name, or ``"Healthy"``."""
        if self.marked == 0:
            return "Healthy"
        return self.levels[min(self.marked, self.size) - 1]


def apply_damage(track: HealthTrack, damage_type: str, levels: int, who: str = "The character") -> tuple[HealthTrack, tuple[Step, ...], int]:
    """Mark ``levels`` health levels of ``damage_type`` on ``track``.

    Returns the new track, the explanation steps, and the levels that did not
    fit on the track (overflow beyond Incapacitated).

    Raises:
        RulesError: an unknown damage type or a negative amount.
    """
    if damage_type not in DAMAGE_TYPES:
        raise RulesError(f"Unknown damage type {damage_type!r}.", field="damage_type")
    if levels < 0:
        raise RulesError("Damage cannot be negative.", field="levels")
    room = track.size - track.marked
    marked = min(room, levels)
    new = replace(track, **{damage_type: getattr(track, damage_type) + marked})
    steps = Explanation()
    steps.add(f"{who} marks {marked} level(s) of {damage_type} damage and is now {new.state()}.",
              "LotNR Health (met-reference 4.1)")
    return new, steps.steps(), levels - marked
