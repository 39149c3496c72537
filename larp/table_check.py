"""Every rules table in ``data/`` loaded and checked when the app starts (issue 29 item 5).

Each table's loader is cached (``functools.lru_cache``) and checks its file as it reads it, raising
:class:`larp.tables.TableError` that names the file and the entry. :func:`load_all_tables` calls every
loader once, so a malformed table stops the app at start-up with that message, not in the middle of
a ruling at the table, and the first ruling of the night pays for no file read.

The loaders are named here by dotted path (module, function, arguments) rather than imported, so that
this module imports nothing at load time and makes no import cycle; a new table's loader is added to
:data:`TABLE_LOADERS` (tests/test_table_check.py fails on a file under ``data/`` that none reads).
"""

from __future__ import annotations

import importlib

#: (module, loader, arguments) of every rules table. ``data/demo/`` is not a rules table: it is read
#: when the demo chronicle is made (larp.services.demo), which checks it then.
TABLE_LOADERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("larp.tables", "generation_table", ()),
    ("larp.tables", "discipline_table", ()),
    ("larp.tables", "trait_leads", ()),
    ("larp.tables", "physical_retests", ()),
    ("larp.catalogues", "trait_lists", ()),
    ("larp.catalogues", "merits_flaws", ()),
    ("larp.catalogues", "ability_catalogue", ()),
    ("larp.catalogues", "sheet_lists", ()),
    ("larp.rules.settings", "setting_definitions", ()),
    ("larp.rules.darkness", "darkness_table", ()),
    ("larp.rules.healing.mortals", "mortal_healing_table", ()),
    ("larp.rules.soak", "soak_table", ()),
    ("larp.rules.torpor.lengths", "torpor_table", ("live",)),
    ("larp.rules.torpor.lengths", "torpor_table", ("tabletop",)),
    ("larp.rules.health.track", "tabletop_chart", ()),
    ("larp.rules.health.track", "extra_chart", ()),
    ("larp.rules.armory", "armory", ("live",)),
    ("larp.rules.armory", "armory", ("tabletop",)),
    ("larp.rules.frenzy", "frenzy_tables", ()),
    ("larp.rules.senses", "sense_table", ()),
    ("larp.rules.tabletop.movement", "movement_table", ()),
    ("larp.rules.tabletop.blood_use", "generation_limits_table", ()),
    ("larp.rules.tabletop.maneuvers", "tabletop_profile", ("revised",)),
    ("larp.rules.tabletop.maneuvers", "tabletop_profile", ("dark_ages",)),
    ("larp.rules.tabletop.maneuvers", "tabletop_profile", ("v20",)),
    ("larp.rules.experience_costs", "clan_table", ()),
    ("larp.glossary", "glossary", ()),  # the game's words in each language (issue 36)
)


def load_all_tables() -> int:
    """Load and check every rules table of :data:`TABLE_LOADERS` (each once per process: the loaders
    are cached). Returns how many loaders ran.

    Raises:
        larp.tables.TableError: a table file is missing or malformed (the message names the file
            and the entry).
    """
    for module, name, args in TABLE_LOADERS:
        getattr(importlib.import_module(module), name)(*args)
    return len(TABLE_LOADERS)


__all__ = ["TABLE_LOADERS", "load_all_tables"]
