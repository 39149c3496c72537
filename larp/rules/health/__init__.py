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

What is where: :mod:`.track` (the levels, the charts, :class:`HealthTrack`),
:mod:`.marking` (:func:`apply_damage` and the other changes), :mod:`.views`
(:func:`health_views`). Every public name is importable from ``larp.rules.health``.
"""

from __future__ import annotations

from larp.rules.health.track import (
    DAMAGE_TYPES,
    SEVERITY,
    CONDITIONS,
    CONDITION_LABELS,
    TRACK_CREATURES,
    MARKS,
    DESTRUCTION,
    ChartLevel,
    Chart,
    tabletop_chart,
    extra_chart,
    live_levels,
    extra_levels,
    HealthTrack,
    new_track,
    track_for_sheet,
)
from larp.rules.health.marking import (
    HealthRuling,
    apply_damage,
    standing,
    destroy,
    stake,
    remove_stake,
    regain_consciousness,
)
from larp.rules.health.views import (
    tabletop_level_names,
    corresponding_position,
    live_view,
    tabletop_view,
    tabletop_dice_penalty,
    health_views,
)

__all__ = [
    "DAMAGE_TYPES",
    "SEVERITY",
    "CONDITIONS",
    "CONDITION_LABELS",
    "TRACK_CREATURES",
    "MARKS",
    "DESTRUCTION",
    "ChartLevel",
    "Chart",
    "tabletop_chart",
    "extra_chart",
    "live_levels",
    "extra_levels",
    "HealthTrack",
    "new_track",
    "track_for_sheet",
    "HealthRuling",
    "apply_damage",
    "standing",
    "destroy",
    "stake",
    "remove_stake",
    "regain_consciousness",
    "tabletop_level_names",
    "corresponding_position",
    "live_view",
    "tabletop_view",
    "tabletop_dice_penalty",
    "health_views",
]
