"""The two views of one health track: the live game's levels and the tabletop chart
with its penalties (met-reference 4.3; 000 "Health Chart"). Part of :mod:`larp.rules.health`.
"""

from __future__ import annotations


from typing import Any

from larp.rules.explain import N_, Phrase, levels
from larp.rules.health.track import (
    CONDITION_LABELS,
    MARKS,
    _APPLYING,
    Chart,
    tabletop_chart,
    extra_chart,
    extra_levels,
    HealthTrack,
)

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
        any), ``approximate``, ``live_level`` (the live track's level for the same
        damage) and ``why`` (a sentence saying why the two names differ, or "").
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
        "movement": row.movement_of(track.creature),
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
        level, penalty, movement = row.name, row.penalty, row.movement_of(track.creature)
    if track.condition == "unconscious":
        penalty, movement = None, "Unconscious."
    live = track.state() if track.condition == "active" else CONDITION_LABELS[track.condition]
    why = ""
    if live.lower() != level.lower():
        why = Phrase.message(N_("%(levels)s of damage: %(level)s on the tabletop chart, %(live)s on the live track. The "
                                "same damage: the chart names its boxes from Bruised down, the live track has two Healthy "
                                "levels first (met-reference 4.3)."),
                             levels=levels(track.marked), level=Phrase.term(level), live=Phrase.term(live))
    return {"boxes": boxes, "level": level, "dice_penalty": penalty, "movement": movement,
            "below": below, "approximate": not exact, "source": chart.source, "live_level": live, "why": why}


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
