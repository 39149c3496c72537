"""The armory's and the tabletop maneuvers' names for the translators and the readers (issue 36): Babel
extraction methods for ``data/armory.toml`` and ``data/maneuvers.toml``, and the ``gear`` template filter.

The weapons' and armor's names ("Knife", "Heavy pistol", "Ballistic vest") are the app's own data, not a
chronicle's words, so they are said in the reader's language wherever a page shows them; the stored value
(a sheet's weapon, a scene's armor key) stays the armory's English. ``pyproject.toml`` maps
``armory.toml`` to :func:`extract_armory` (``[[tool.babel.mappings]]``, method
``larp.armory_messages:extract_armory``), so ``pybabel extract`` and tests/test_catalogues.py find each
name. A ruling's step names a piece with ``Phrase.term(name)``: the edge says it through the catalogue too
(``larp.i18n.reader_speaker``).

The tabletop maneuvers ("Punch", "Clinch"), target sizes and dodge modifiers of ``data/maneuvers.toml`` are
the app's data too: :func:`extract_maneuvers` gives each name (and, for a maneuver, its lower-case form, as
a step says it mid-sentence: "breaks the clinch") and each label; ``gear`` says them as well.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from functools import lru_cache
from typing import IO, Any

from larp.rules.armory import PROFILES, armory
from larp.rules.tabletop.maneuvers import PROFILES as TABLETOP_PROFILES, tabletop_profile

_HEADER = re.compile(r"^\s*\[([A-Za-z0-9_.]+)\]\s*(?:#.*)?$")
_SECTIONS = ("weapons", "armor", "helmets", "shields")


def _read(fileobj: IO[bytes]) -> tuple[dict[str, int], list[tuple[str, dict]]]:
    """A data file's table headers with their line numbers, and its top-level tables (the profiles)."""
    text = fileobj.read().decode("utf-8")
    lines = {match.group(1): number for number, line in enumerate(text.splitlines(), start=1)
             if (match := _HEADER.match(line))}
    return lines, [(key, value) for key, value in tomllib.loads(text).items() if isinstance(value, dict)]


def extract_armory(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                   options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method: ``(line, funcname, message, comments)`` for the name of each weapon,
    armor, helmet and shield of every profile, in the file's order; the line is the entry's header."""
    lines, profiles = _read(fileobj)
    for profile, sections in profiles:
        for section in _SECTIONS:
            for key, entry in (sections.get(section) or {}).items():
                if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                    header = f"{profile}.{section}.{key}"
                    yield (lines.get(header, 1), None, entry["name"],
                           [f"Translators: the name of a piece of the armory ({header}), as the books' charts and cards name it"])
                    yield (lines.get(header, 1), None, entry["name"].lower(),
                           [f"Translators: the name of a piece of the armory ({header}), mid-sentence"])


def extract_maneuvers(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                      options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method for ``data/maneuvers.toml``: each maneuver's name (and its lower-case
    form), each target size's and dodge modifier's label, of every profile; the line is the profile's header."""
    lines, profiles = _read(fileobj)
    for key, profile in profiles:
        line = lines.get(key, 1)
        for entry in (profile.get("maneuvers") or {}).values():
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                yield line, None, entry["name"], [f"Translators: a tabletop maneuver ({key})"]
                yield line, None, entry["name"].lower(), [f"Translators: a tabletop maneuver ({key}), mid-sentence"]
        for section in ("target_size", "dodge_modifiers"):
            for entry in (profile.get(section) or {}).values():
                if isinstance(entry, dict) and isinstance(entry.get("label"), str):
                    yield line, None, entry["label"], [f"Translators: a tabletop {section.replace('_', ' ')} ({key})"]


@lru_cache(maxsize=1)
def armory_names() -> frozenset[str]:
    """Every name of the armory (both profiles: weapons, armor, helmets, shields), as data/armory.toml writes it,
    and the tabletop maneuvers' names (also in lower case), target sizes' and dodge modifiers' labels."""
    names: set[str] = set()
    for profile in PROFILES:
        table = armory(profile)
        for pieces in (table.weapons, table.armor, table.helmets, table.shields):
            names.update(piece.name for piece in pieces.values())
            names.update(piece.name.lower() for piece in pieces.values())
    for key in TABLETOP_PROFILES:
        moves = tabletop_profile(key)
        names.update(m.name for m in moves.maneuvers.values())
        names.update(m.name.lower() for m in moves.maneuvers.values())
        names.update(size.label for size in moves.target_sizes.values())
        names.update(row.label for row in moves.dodge_modifiers.values())
    return frozenset(names)


def gear(name: object) -> str:
    """The ``gear`` template filter: a weapon's or an armor's name in the reader's language when it is the
    armory's (data/armory.toml), a maneuver's, a target size's or a dodge modifier's (data/maneuvers.toml);
    a name a sheet wrote itself (a custom weapon) as written."""
    if name is None:
        return ""
    text = str(name)
    if text not in armory_names():
        return text
    from flask_babel import gettext

    return gettext(text)
