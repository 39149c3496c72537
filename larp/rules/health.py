"""The health track: marking damage, what lies below Incapacitated, and the two views.

One :class:`HealthTrack` serves both rules profiles. Its ``levels`` are the live
game's levels, top to bottom (Healthy x2, Bruised x3, Wounded x2, Incapacitated
by default; met-reference 4.1): a character stands on the first level not yet
marked, so 1 level of damage leaves him on the second Healthy level and 7 on
Incapacitated (met-reference T9); an 8th mark, on the Incapacitated box itself,
means he is below Incapacitated. The tabletop chart of seven boxes (000 "Health")
reaches Incapacitated after the same 7 levels, so both charts are views of one
track (met-reference 4.3); :func:`health_views` returns both as plain data.

Damage is counted by type. Aggravated damage is always marked above normal
damage (bashing and lethal), so normal damage "moves down" when aggravated
damage arrives (000 "Applying Damage", the Veronica example); lethal is kept
above bashing. The marks are therefore derived from the three counts.

Every function here is pure: it takes the old track and returns a ruling with
the new track, so the service layer can store it with an optimistic-locking
update (compare the old track, write the new one).

The track also carries the character's condition ("active", "unconscious",
"torpor", "final_death", "dead") and whether a stake paralyses him. Final Death
and a mortal's death are final: every function raises :class:`RulesError` for a
destroyed character.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from larp.rules.explain import Explanation, RulesError, Step
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
    """

    name: str
    penalty: int | None
    movement: str
    live_level: str | None = None


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
    base = _live_levels()
    bruised = settings["bruised_levels"]
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
            raise RulesError("A health track needs at least two levels.", field="levels")
        for kind in DAMAGE_TYPES:
            value = getattr(self, kind)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulesError(f"{kind.capitalize()} damage must be a whole number of at least 0.", field=kind)
        if self.marked > self.size:
            raise RulesError(
                f"{self.marked} levels of damage do not fit on a track of {self.size} levels.", field="levels")
        if self.condition not in CONDITIONS:
            raise RulesError(f"Unknown condition {self.condition!r}.", field="condition")
        if self.creature not in TRACK_CREATURES:
            raise RulesError(f"Unknown creature {self.creature!r} (vampire, ghoul or mortal).", field="creature")

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


# ---------------------------------------------------------------- rulings

@dataclass(frozen=True)
class HealthRuling:
    """The result of a change to a health track.

    Attributes:
        track: the new track (the old one is unchanged).
        steps: the explanation.
        marked: levels of the damage that changed the track (a new mark, or a
            lesser mark made worse).
        overflow: levels that changed nothing (the track was full, or the
            character was destroyed part-way through).
    """

    track: HealthTrack
    steps: tuple[Step, ...]
    marked: int = 0
    overflow: int = 0

    @property
    def condition(self) -> str:
        """The character's condition after the ruling."""
        return self.track.condition

    @property
    def staked(self) -> bool:
        """Whether a stake paralyses the character after the ruling."""
        return self.track.staked

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data for the record and the API."""
        return {
            "track": self.track.to_dict(), "condition": self.condition, "staked": self.staked,
            "level": self.track.state(), "marked": self.marked, "overflow": self.overflow,
            "steps": [s.to_dict() for s in self.steps],
        }


class _Notes(Explanation):
    """An explanation that records each sentence once (damage is applied level by level)."""

    def add(self, text: str, rule: str, setting: str | None = None) -> None:
        """Append the step unless the same sentence is already there."""
        if all(step.text != text for step in self._steps):
            super().add(text, rule, setting)


def _refuse_destroyed(track: HealthTrack, who: str) -> None:
    if track.condition == "final_death":
        raise RulesError(f"{who} has met Final Death; Final Death is final and nothing changes the track.",
                         field="track")
    if track.condition == "dead":
        raise RulesError(f"{who} is dead; nothing changes the track of the dead.", field="track")


def _below_incapacitated_vampire(kind: str, condition: str, settings: ChronicleSettings,
                                 who: str, steps: Explanation, incapacitated_before: bool = False) -> str:
    """The condition of a vampire whom a level of ``kind`` puts (again) below Incapacitated.

    ``incapacitated_before``: the vampire was already at Incapacitated before
    this attack (not brought there by its earlier levels).
    """
    model = settings["below_incapacitated_model"]
    if kind == "bashing":
        if model == "tabletop":
            steps.add(f"Bashing damage past Incapacitated: {who} enters torpor.",
                      '000 "Bashing Damage"', setting="below_incapacitated_model")
            return "torpor"
        if condition == "unconscious":
            steps.add(f"{who} is already unconscious; the beating keeps him down "
                      f"(the narrator may rule torpor after a savage beating).",
                      "LotNR Health (met-reference 4.1)", setting="below_incapacitated_model")
            return "unconscious"
        steps.add(f"Bashing damage puts {who} below Incapacitated: unconscious for one scene or one hour "
                  f"(the narrator's choice).", '002 "Damage and Healing"', setting="below_incapacitated_model")
        return "unconscious"
    if kind == "lethal":
        steps.add(f"Lethal damage puts {who} below Incapacitated: {who} enters torpor.",
                  '002 "Damage and Healing"', setting="below_incapacitated_model")
        return "torpor"
    if settings["dark_epics_killing_blow"]:
        steps.add(f"Aggravated damage puts {who} below Incapacitated: torpor. Under the Dark Epics rule a "
                  f"vampire meets Final Death only from a killing blow once in torpor.",
                  "Dark Epics killing blow (met-reference 4.1)", setting="dark_epics_killing_blow")
        return "torpor"
    if model == "house_002":
        if incapacitated_before:
            steps.add(f"{who} was already Incapacitated when the aggravated damage struck: Final Death.",
                      "LotNR Health (met-reference 4.1, T9); 002 \"Damage and Healing\"",
                      setting="below_incapacitated_model")
            return "final_death"
        steps.add(f"Aggravated damage puts {who} below Incapacitated: {who} enters torpor "
                  f"(seed 002: a vampire put below Incapacitated by aggravated damage enters torpor; "
                  f"aggravated damage once he is Incapacitated or in torpor destroys him).",
                  '002 "Damage and Healing"', setting="below_incapacitated_model")
        return "torpor"
    rule = '000 "Final Death"' if model == "tabletop" else "LotNR Health (met-reference 4.1)"
    steps.add(f"Aggravated damage to {who} at Incapacitated: Final Death.", rule,
              setting="below_incapacitated_model")
    return "final_death"


def apply_damage(track: HealthTrack, damage_type: str, levels: int, who: str = "The character",
                 settings: ChronicleSettings | None = None, *, stake: bool = False,
                 killing_blow: bool = False) -> HealthRuling:
    """Mark ``levels`` health levels of ``damage_type`` on ``track``, one level at a time.

    ``levels`` is the damage the character takes, after soak, halving, armor
    and Fortitude (see :mod:`larp.rules.damage` and :mod:`larp.rules.soak`).

    Rules:
        - Marks: aggravated above normal damage, so normal damage moves down
          (000 "Applying Damage").
        - Mortals and ghouls take aggravated damage as lethal (001 "Aggravated
          Damage"). At Incapacitated, further bashing damage is X'd over a
          bashing mark, making it lethal, and leaves them unconscious (000
          "Mortal's Healing Times"); a wound with no bashing mark left to X
          over, or any lethal wound, kills them (000 "Health": mortals have no torpor).
        - A vampire put below Incapacitated: by the chronicle setting
          ``below_incapacitated_model`` (seed 002 by default: bashing leaves him
          unconscious for a scene or an hour, lethal or aggravated sends him into
          torpor, aggravated damage once in torpor is Final Death; LotNR and
          000 make aggravated damage at Incapacitated Final Death; 000 sends
          bashing past Incapacitated into torpor). ``dark_epics_killing_blow``
          requires a declared killing blow to destroy a torpid vampire.
        - On a full track a worse wound replaces the lowest lesser mark (000);
          otherwise the level overflows.

    Args:
        track: the track before the damage.
        damage_type: "bashing", "lethal" or "aggravated".
        levels: health levels to mark, at least 0.
        who: the character's name, for the explanation.
        settings: the chronicle's settings (defaults if omitted).
        stake: the attack drove a stake through the heart; a vampire is
            paralysed until it is removed (000 "Stake Through Heart").
        killing_blow: the attacker declared a killing blow and won the Physical
            Challenge (only read under ``dark_epics_killing_blow``).

    Returns:
        A :class:`HealthRuling` with the new track, its condition and staked flag.

    Raises:
        RulesError: an unknown damage type, negative levels, or a destroyed character.
    """
    settings = settings or ChronicleSettings.defaults()
    if damage_type not in DAMAGE_TYPES:
        raise RulesError(f"Unknown damage type {damage_type!r} (bashing, lethal or aggravated).",
                         field="damage_type")
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 0:
        raise RulesError("Damage must be a whole number of health levels, at least 0.", field="levels")
    _refuse_destroyed(track, who)
    steps = _Notes()
    kind = damage_type
    if kind == "aggravated" and not track.is_vampire:
        kind = "lethal"
        steps.add(f"{who} is not a vampire: aggravated damage is treated as lethal.", '001 "Aggravated Damage"')

    counts = {"aggravated": track.aggravated, "lethal": track.lethal, "bashing": track.bashing}
    condition = track.condition
    size = track.size
    changed = overflow = 0

    def place(mark: str) -> bool:
        """Mark a free box, or make the lowest lesser mark worse; False if neither is possible."""
        if sum(counts.values()) < size:
            counts[mark] += 1
            return True
        for lesser in ("bashing", "lethal"):
            if SEVERITY[lesser] < SEVERITY[mark] and counts[lesser] > 0:
                counts[lesser] -= 1
                counts[mark] += 1
                steps.add(f"The track is full: the {mark} level replaces a {lesser} mark.", _MARKING)
                return True
        return False

    for index in range(levels):
        if condition in ("final_death", "dead"):
            overflow += levels - index
            break
        marked = sum(counts.values())
        if track.is_vampire and condition == "torpor" and kind == "aggravated":
            if settings["dark_epics_killing_blow"] and not killing_blow:
                steps.add(f"{who} is in torpor, but without a declared killing blow the aggravated level "
                          f"does not destroy him.", "Dark Epics killing blow (met-reference 4.1)",
                          setting="dark_epics_killing_blow")
            else:
                condition = "final_death"
                steps.add(f"Aggravated damage to {who} in torpor: Final Death.", '002 "Damage and Healing"')
            if place(kind):
                changed += 1
            else:
                overflow += 1
            continue
        if marked < size - 1:
            counts[kind] += 1
            changed += 1
            continue
        if track.is_vampire:
            if condition != "torpor":
                condition = _below_incapacitated_vampire(kind, condition, settings, who, steps,
                                                         incapacitated_before=track.marked >= size - 1)
            else:
                steps.add(f"{who} is in torpor; further {kind} damage does not destroy him "
                          f"(destruction is a narrator action).", '002 "Damage and Healing"')
            if place(kind):
                changed += 1
            else:
                overflow += 1
            continue
        # a mortal or ghoul at (or, after X-ing over, still at) Incapacitated
        if kind == "bashing" and marked == size - 1 and counts["bashing"] > 0:
            counts["bashing"] -= 1
            counts["lethal"] += 1
            changed += 1
            condition = "unconscious"
            steps.add(f"{who} is at Incapacitated: the bashing level is X'd over a bashing mark, making it "
                      f"lethal, and {who} is unconscious.", '000 "Mortal\'s Healing Times"')
            continue
        if place(kind):
            changed += 1
        else:
            overflow += 1
        condition = "dead"
        steps.add(f"A further wound past Incapacitated kills {who}: mortals have no torpor.", '000 "Health"')

    new = replace(track, condition=condition, **counts)
    summary = f"{who} takes {changed} level(s) of {kind} damage"
    if overflow:
        summary += f" ({overflow} more had no further effect)"
    steps.add(f"{summary} and is now {_where(new)}.", _APPLYING)
    if stake and not new.destroyed:
        if new.is_vampire:
            new = replace(new, staked=True)
            steps.add(f"The stake through the heart paralyses {who} until it is removed: he is conscious "
                      f"but may not move or spend blood points.", '000 "Stake Through Heart"')
        else:
            steps.add(f"A stake paralyses only vampires; {who} simply takes the wound.", '000 "Stake Through Heart"')
    first = Step(f"{who} is {_where(track)} and takes {levels} level(s) of {damage_type} damage.", _APPLYING)
    return HealthRuling(new, (first,) + steps.steps(), changed, overflow)


def standing(track: HealthTrack) -> str:
    """Where the character stands, in words: "Bruised", "in torpor", "destroyed (Final Death)"..."""
    return _where(track)


def _where(track: HealthTrack) -> str:
    """Where the character stands, for explanation steps ("Bruised", "in torpor"...)."""
    if track.condition == "final_death":
        return "destroyed (Final Death)"
    if track.condition == "dead":
        return "dead"
    if track.condition == "torpor":
        return "in torpor"
    if track.condition == "unconscious":
        return f"unconscious ({track.state()})"
    return track.state()


def destroy(track: HealthTrack, means: str, who: str = "The character") -> HealthRuling:
    """A narrator destroys the character outright: Final Death for a vampire, death for a mortal.

    Args:
        means: "beheading" or "heart_torn_out" (002 "Damage and Healing": two of
            the three ways to destroy a vampire), or "massive_trauma" (000 "Final
            Death": only an incapacitated or torpid vampire, or a mortal).

    Raises:
        RulesError: an unknown means, massive trauma on a vampire who is not
            incapacitated or in torpor, or a character already destroyed.
    """
    if means not in DESTRUCTION:
        raise RulesError(f"Unknown means of destruction {means!r} ({', '.join(DESTRUCTION)}).", field="means")
    _refuse_destroyed(track, who)
    if (means == "massive_trauma" and track.is_vampire and track.condition != "torpor"
            and track.marked < track.size - 1):
        raise RulesError(f"Massive trauma destroys only an incapacitated or torpid vampire; {who} is "
                         f"{track.state()}.", field="means")
    verb, rule = DESTRUCTION[means]
    condition = "final_death" if track.is_vampire else "dead"
    steps = Explanation()
    steps.add(f"The narrator {verb} {who}: {CONDITION_LABELS[condition]}.", rule)
    return HealthRuling(replace(track, condition=condition, staked=False), steps.steps())


def stake(track: HealthTrack, who: str = "The character") -> HealthRuling:
    """Drive a stake through a vampire's heart: paralysed until it is removed.

    Source: 000 "Stake Through Heart" (the staking attack itself is in
    :mod:`larp.rules.damage` and :mod:`larp.rules.soak`).

    Raises:
        RulesError: the character is not a vampire, or is destroyed.
    """
    _refuse_destroyed(track, who)
    if not track.is_vampire:
        raise RulesError(f"A stake paralyses only vampires; {who} is a {track.creature}.", field="creature")
    steps = Explanation()
    steps.add(f"{who} is staked: conscious, but may not move or spend blood points until the stake is removed.",
              '000 "Stake Through Heart"')
    return HealthRuling(replace(track, staked=True), steps.steps())


def remove_stake(track: HealthTrack, who: str = "The character") -> HealthRuling:
    """Pull the stake out: the vampire is no longer paralysed (000 "Stake Through Heart").

    Raises:
        RulesError: the character is not staked, or is destroyed.
    """
    _refuse_destroyed(track, who)
    if not track.staked:
        raise RulesError(f"{who} is not staked.", field="staked")
    steps = Explanation()
    steps.add(f"The stake is removed: {who} may move and spend blood points again.", '000 "Stake Through Heart"')
    return HealthRuling(replace(track, staked=False), steps.steps())


def regain_consciousness(track: HealthTrack, who: str = "The character") -> HealthRuling:
    """The scene or hour has passed: an unconscious character wakes (002 "Damage and Healing").

    Raises:
        RulesError: the character is not unconscious, or is still below
            Incapacitated (he must heal a level first).
    """
    _refuse_destroyed(track, who)
    if track.condition != "unconscious":
        raise RulesError(f"{who} is not unconscious.", field="condition")
    if track.below_incapacitated:
        raise RulesError(f"{who} is still below Incapacitated and must heal a level before waking.",
                         field="condition")
    steps = Explanation()
    steps.add(f"A scene or an hour has passed: {who} regains consciousness at {track.state()}.",
              '002 "Damage and Healing"')
    return HealthRuling(replace(track, condition="active"), steps.steps())


# ---------------------------------------------------------------- the two views

def _run_containing(names: tuple[str, ...], index: int) -> tuple[int, int]:
    """First index and length of the run of equal names around ``index``."""
    first = index
    while first > 0 and names[first - 1] == names[index]:
        first -= 1
    last = index
    while last + 1 < len(names) and names[last + 1] == names[index]:
        last += 1
    return first, last - first + 1


def tabletop_level_names(chart: Chart) -> tuple[str, ...]:
    """The live level for 0..7 tabletop boxes marked (met-reference 4.3): the
    tabletop chart read as levels a character stands on, for :func:`corresponding_position`."""
    return (chart.unmarked,) + tuple(row.live_level or row.name for row in chart.levels)


def corresponding_position(names_from: tuple[str, ...], position: int, names_to: tuple[str, ...]) -> tuple[int, bool]:
    """Map a number of levels marked on one track to another track by level name.

    The character keeps his level (Healthy, Bruised, Wounded, Incapacitated)
    and, within a run of equal levels, his place in it as far as the other
    track's run allows (met-reference 4.3: one to one on the default track).

    Returns:
        The levels marked on the other track, and whether the map was exact
        (the same number). A level missing from the other track maps by count.
    """
    if position >= len(names_from):
        return len(names_to), len(names_from) == len(names_to)
    name = names_from[position]
    if name not in names_to:
        mapped = min(position, len(names_to) - 1)
        return mapped, mapped == position
    first_from, _ = _run_containing(names_from, position)
    first_to, run_to = _run_containing(names_to, names_to.index(name))
    mapped = first_to + min(position - first_from, run_to - 1)
    return mapped, mapped == position


def live_view(track: HealthTrack) -> dict[str, Any]:
    """The live game's track as plain data: each level with its mark, and where the character stands."""
    kinds = track.kinds()
    boxes = [{
        "level": level,
        "mark": MARKS[kinds[i] if i < len(kinds) else None],
        "damage_type": kinds[i] if i < len(kinds) else None,
        "current": i == track.marked,
    } for i, level in enumerate(track.levels)]
    return {"boxes": boxes, "level": track.state(), "marked": track.marked, "size": track.size,
            "source": _APPLYING}


def tabletop_view(track: HealthTrack) -> dict[str, Any]:
    """The tabletop Health chart of the same track, with dice and movement penalties.

    The tabletop chart reaches Incapacitated after the same 7 levels as the
    default live track, so the marks map one to one (met-reference 4.3). With a
    different number of Bruised levels or Mettle the character keeps his level
    (Healthy, Bruised, Wounded, Incapacitated) and the view says it is
    ``approximate``. An extra's track uses the extras' chart (000 "Optional Rule: Extras").

    Returns:
        ``boxes`` (level, penalty, movement, mark, damage_type), ``level`` (the
        lowest marked box, the unmarked state, or the condition below
        Incapacitated), ``dice_penalty`` (``None`` when the character can take
        no action), ``movement``, ``below`` (the mark below Incapacitated, if
        any) and ``approximate``.
    """
    is_extra = track.levels == extra_levels()
    chart = extra_chart() if is_extra else tabletop_chart()
    if is_extra:
        position, exact = min(track.marked, len(chart.levels)), True
    else:
        position, exact = corresponding_position(track.levels, track.marked, tabletop_level_names(chart))
        position = min(position, len(chart.levels))
    kinds = track.kinds()
    shown = kinds[:position] + [kinds[-1]] * max(0, position - len(kinds)) if kinds else []
    boxes = [{
        "level": row.name,
        "penalty": row.penalty,
        "movement": row.movement,
        "mark": MARKS[shown[i] if i < len(shown) else None],
        "damage_type": shown[i] if i < len(shown) else None,
    } for i, row in enumerate(chart.levels)]
    below = None
    if track.below_incapacitated:
        below = {"mark": MARKS[kinds[-1]], "damage_type": kinds[-1]}
    if track.condition != "active" and (track.below_incapacitated or track.condition in ("torpor", "final_death", "dead")):
        level = CONDITION_LABELS[track.condition]
        penalty = None
        movement = "No action."
    elif position == 0:
        level, penalty, movement = chart.unmarked, 0, "No penalty."
    else:
        row = chart.levels[position - 1]
        level, penalty, movement = row.name, row.penalty, row.movement
    if track.condition == "unconscious":
        penalty, movement = None, "Unconscious."
    return {"boxes": boxes, "level": level, "dice_penalty": penalty, "movement": movement,
            "below": below, "approximate": not exact, "source": chart.source}


def tabletop_dice_penalty(track: HealthTrack) -> int | None:
    """Dice subtracted from action dice pools (never soak) by the tabletop chart, or
    ``None`` when the character can take no action (000 "Health Chart")."""
    return tabletop_view(track)["dice_penalty"]


def health_views(track: HealthTrack) -> dict[str, Any]:
    """Both views of one track, side by side, as plain data for the UI.

    Returns:
        ``creature``, ``condition``, ``condition_label``, ``staked``, ``live``
        (:func:`live_view`) and ``tabletop`` (:func:`tabletop_view`).
    """
    return {
        "creature": track.creature,
        "condition": track.condition,
        "condition_label": CONDITION_LABELS[track.condition],
        "staked": track.staked,
        "live": live_view(track),
        "tabletop": tabletop_view(track),
    }
