"""Firing guns into groups of people (seed 002 "Firing Guns into Groups of People";
Spray, met-reference 6.2).

When a shot misses its target and people stand near it (within three feet,
or down range past it), the round may hit one of them. Plain data in (a
:class:`ShotIntoGroup`: the firer, his weapon, the people near the target closest
first, the signs), a :class:`ShotIntoGroupRuling` out; :func:`play_shot_into_group` rules,
:func:`shot_into_group_from_dict` reads JSON.

The rules (002 unless said otherwise):

1. The firer tests against each person near the target, starting with those
   closest to it. If he wins a test, that bystander is hit and takes the
   weapon's damage; the bystander may retest by expending a Dodge Ability if
   he could see the attack coming (the narrator decides). Each is a test:
   nobody risks a Trait in it (settings ``stray_tests_cost_firer``,
   ``stray_hit_costs_bystander``), ties by the Traits (:mod:`larp.rules.challenge`). Whether one round goes on after hitting someone is the
   chronicle setting ``stray_round_stops_at_first_hit`` (default: it stops).
2. A weapon firing several rounds (bursts from a submachine gun or assault
   rifle) or with an area effect (a shotgun): one mass challenge against the
   bystanders instead: the firer's one sign against each bystander's, each
   pair by the normal rules; every bystander who loses is hit; the firer risks
   one Trait per bystander (met-reference 6.2 and T24). Under 002's reading
   (setting ``spray_limits = house_002``, the default) a missed blast or burst is
   so at any range; a deliberate Spray at a chosen group (``deliberate_spray``),
   and every Spray under the LotNR and Dark Epics readings, fires so only at
   targets farther than its distance (a shotgun 20 feet, a submachine gun 10;
   Dark Epics 5) and closer it is an ordinary single shot. A Spray reaches at most
   its number of people (met-reference 6.2). A spray victim takes the card's
   damage without Mass-Trauma's level.
3. To avoid bystanders if he misses, the firer bids one extra Trait per
   bystander with the shot (five bystanders: six Traits in all), or fewer and
   names the bystanders they exclude; or he takes careful aim and fires every
   other round, risking no extra Trait. Only for single shots, never with a
   shotgun's blast or a burst (002), whatever the range under 002's reading. The
   extra Traits were lost with the missed shot.

What is where: :mod:`.types` (the inputs and the ruling), :mod:`.engine` (the rules),
:mod:`.parsing` (JSON in). Every name is importable from ``larp.rules.firing_into_groups``.
"""

from __future__ import annotations

from larp.rules.firing_into_groups.types import (
    R_GROUPS,
    R_SPRAY,
    Fire,
    Bystander,
    ShotIntoGroup,
    BystanderResult,
    ShotIntoGroupRuling,
    fire_of,
    spray_limits,
    stray_spray_at_any_range,
)
from larp.rules.firing_into_groups.engine import (
    firer_bid_count,
    play_shot_into_group,
)
from larp.rules.firing_into_groups.parsing import (
    shot_into_group_from_dict,
)

__all__ = [
    "R_GROUPS",
    "R_SPRAY",
    "Fire",
    "Bystander",
    "ShotIntoGroup",
    "BystanderResult",
    "ShotIntoGroupRuling",
    "fire_of",
    "spray_limits",
    "stray_spray_at_any_range",
    "firer_bid_count",
    "play_shot_into_group",
    "shot_into_group_from_dict",
]
