"""The chronicle settings' words for the translators (issue 36): a Babel extraction method for
``data/settings/*.toml``.

``pyproject.toml`` maps ``data/settings/*.toml`` to :func:`extract_settings` (``[[tool.babel.mappings]]``,
method ``larp.settings_messages:extract_settings``), so ``pybabel extract`` and tests/test_catalogues.py
find each setting's label, each choice's label, its help text and its source (the settings page says
them all in the reader's language; a source keeps the books' titles and section names in English inside
the translated sentence).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from typing import IO, Any

_HEADER = re.compile(r"^\s*\[([A-Za-z0-9_]+)\]\s*(?:#.*)?$")


def darkness_row_name(label: str) -> str:
    """The power, Merit or Ability a darkness list's setting is about, cut from its label (the row of
    the settings page's darkness table): "Darkness: Blindfighting in natural darkness" → "Blindfighting"."""
    return label.removeprefix("Darkness: ").split(" in natural darkness")[0].split(" in a Shroud of Night")[0]


def extract_settings(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                     options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method: ``(line, funcname, message, comments)`` for each setting's label, each
    of its choices' labels, its help text and its source, in the file's order; the line is the setting's
    ``[key]`` header."""
    text = fileobj.read().decode("utf-8")
    lines = {match.group(1): number for number, line in enumerate(text.splitlines(), start=1)
             if (match := _HEADER.match(line))}
    for key, entry in tomllib.loads(text).items():
        if not isinstance(entry, dict) or not isinstance(entry.get("label"), str):
            continue
        line = lines.get(key, 1)
        yield line, None, entry["label"], [f"Translators: the name of the chronicle setting {key}"]
        if entry["label"].startswith("Darkness: "):
            yield line, None, darkness_row_name(entry["label"]), [
                "Translators: a row of the settings page's darkness lists (a power's, Merit's or Ability's name)"]
        for choice, label in (entry.get("choices") or {}).items():
            if isinstance(label, str):
                yield line, None, label, [f"Translators: a choice of the chronicle setting {key} ({choice})"]
        if isinstance(entry.get("help"), str):
            yield line, None, entry["help"], [f"Translators: what the chronicle setting {key} decides "
                                              "(the help under it on the settings page)"]
        if isinstance(entry.get("source"), str):
            yield line, None, entry["source"], [
                f"Translators: the source of the chronicle setting {key}: keep the books' titles, section "
                "names in quotes and met-reference numbers as they are"]
