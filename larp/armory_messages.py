"""The armory's names for the translators and the readers (issue 36): a Babel extraction method for
``data/armory.toml`` and the ``gear`` template filter.

The weapons' and armor's names ("Knife", "Heavy pistol", "Ballistic vest") are the app's own data, not a
chronicle's words, so they are said in the reader's language wherever a page shows them; the stored value
(a sheet's weapon, a scene's armor key) stays the armory's English. ``pyproject.toml`` maps
``armory.toml`` to :func:`extract_armory` (``[[tool.babel.mappings]]``, method
``larp.armory_messages:extract_armory``), so ``pybabel extract`` and tests/test_catalogues.py find each
name. A ruling's step names a piece with ``Phrase.term(name)``: the edge says it through the catalogue too
(``larp.i18n.reader_speaker``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from functools import lru_cache
from typing import IO, Any

from larp.rules.armory import PROFILES, armory

_HEADER = re.compile(r"^\s*\[([A-Za-z0-9_.]+)\]\s*(?:#.*)?$")
_SECTIONS = ("weapons", "armor", "helmets", "shields")


def extract_armory(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                   options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method: ``(line, funcname, message, comments)`` for the name of each weapon,
    armor, helmet and shield of every profile, in the file's order; the line is the entry's header."""
    text = fileobj.read().decode("utf-8")
    lines = {match.group(1): number for number, line in enumerate(text.splitlines(), start=1)
             if (match := _HEADER.match(line))}
    for profile, sections in tomllib.loads(text).items():
        if not isinstance(sections, dict):
            continue
        for section in _SECTIONS:
            for key, entry in (sections.get(section) or {}).items():
                if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                    header = f"{profile}.{section}.{key}"
                    yield (lines.get(header, 1), None, entry["name"],
                           [f"Translators: the name of a piece of the armory ({header}), as the books' charts and cards name it"])


@lru_cache(maxsize=1)
def armory_names() -> frozenset[str]:
    """Every name of the armory (both profiles: weapons, armor, helmets, shields), as data/armory.toml writes it."""
    names: set[str] = set()
    for profile in PROFILES:
        table = armory(profile)
        for pieces in (table.weapons, table.armor, table.helmets, table.shields):
            names.update(piece.name for piece in pieces.values())
    return frozenset(names)


def gear(name: object) -> str:
    """The ``gear`` template filter: a weapon's or an armor's name in the reader's language when it is the
    armory's (data/armory.toml); a name a sheet wrote itself (a custom weapon) as written."""
    if name is None:
        return ""
    text = str(name)
    if text not in armory_names():
        return text
    from flask_babel import gettext

    return gettext(text)
