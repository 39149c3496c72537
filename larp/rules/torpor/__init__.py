"""Torpor: how long it lasts, waking from it, and feeding a torpid vampire.

Rules (met-reference 5.2; 000 and 001 "Torpor"):

- A vampire enters torpor from wounds, from blood loss, or voluntarily. Its
  length comes from his Humanity or Path rating through a table kept as data
  (``data/torpor.toml``): the live game's table by MET Traits 0-5 (LotNR) or
  the tabletop table by dots 0-10 (000/001), picked by the chronicle setting
  ``torpor_table`` and optionally read ``torpor_table_shift`` rows shorter.
- Voluntary torpor lasts half the time (000 "Torpor"; LotNR).
- The length is calendar time between games (LotNR: MET time "works as it does
  in real life"), or, under ``torpor_time_scale`` "sessions", game sessions
  with one game session counting as a month (Dark Epics).
- After the time has passed, waking costs a blood point and a test: a static
  Mental challenge against three Traits in the live game, the Awakening roll
  at the tabletop (``wake_test``); a failure may be retried the next night
  while blood lasts; with no blood the vampire cannot rise until fed.
- A vampire in torpor from blood loss rises as soon as someone feeds him a
  blood point, whatever his rating (000/001 "Torpor"; ``feeding_wakes_blood_torpor``).
- A vampire who rises is considered Crippled (000 "Torpor").
- A vampire whose torpor ends after the chronicle's planned end
  (``chronicle_end_date``) is retired from play.

Everything here is pure: dates are passed in (no clock), throws and dice are
given or drawn from an injected random source.

What is where: :mod:`.lengths` (the tables, lengths and dates, entering torpor), :mod:`.waking`
(waking and feeding). Every public name is importable from ``larp.rules.torpor``.
"""

from __future__ import annotations

from larp.rules.torpor.lengths import (
    CAUSE_LABELS,
    GameNight,
    RISES_AT,
    TABLES,
    TORPOR_CAUSES,
    TorporClock,
    TorporLength,
    TorporRow,
    TorporStart,
    TorporTable,
    UNITS,
    WAKE_DIFFICULTY,
    chronicle_end,
    enter_torpor,
    is_retired,
    morality_dots,
    table_rating,
    torpor_ends_on,
    torpor_length,
    torpor_row,
    torpor_table,
)
from larp.rules.torpor.waking import (
    Feeding,
    TorporRecord,
    WakeAttempt,
    attempt_to_wake,
    can_try_to_wake,
    feed,
    wake_track,
)

__all__ = [
    "CAUSE_LABELS",
    "Feeding",
    "GameNight",
    "RISES_AT",
    "TABLES",
    "TORPOR_CAUSES",
    "TorporClock",
    "TorporLength",
    "TorporRecord",
    "TorporRow",
    "TorporStart",
    "TorporTable",
    "UNITS",
    "WAKE_DIFFICULTY",
    "WakeAttempt",
    "attempt_to_wake",
    "can_try_to_wake",
    "chronicle_end",
    "enter_torpor",
    "feed",
    "is_retired",
    "morality_dots",
    "table_rating",
    "torpor_ends_on",
    "torpor_length",
    "torpor_row",
    "torpor_table",
    "wake_track",
]
