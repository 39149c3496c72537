"""The chronicle settings' words for the translators (issue 36): a Babel extraction method for
``data/settings/*.toml``.

``pyproject.toml`` maps ``data/settings/*.toml`` to :func:`extract_settings` (``[[tool.babel.mappings]]``,
method ``larp.settings_messages:extract_settings``), so ``pybabel extract`` and tests/test_catalogues.py
find each setting's label and each choice's label. The long help texts and the sources stay English
(they cite the books and are read by organisers next to the books).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from typing import IO, Any

_HEADER = re.compile(r"^\s*\[([A-Za-z0-9_]+)\]\s*(?:#.*)?$")


def extract_settings(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                     options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method: ``(line, funcname, message, comments)`` for each setting's label and
    each of its choices' labels, in the file's order; the line is the setting's ``[key]`` header."""
    text = fileobj.read().decode("utf-8")
    lines = {match.group(1): number for number, line in enumerate(text.splitlines(), start=1)
             if (match := _HEADER.match(line))}
    for key, entry in tomllib.loads(text).items():
        if not isinstance(entry, dict) or not isinstance(entry.get("label"), str):
            continue
        line = lines.get(key, 1)
        yield line, None, entry["label"], [f"Translators: the name of the chronicle setting {key}"]
        for choice, label in (entry.get("choices") or {}).items():
            if isinstance(label, str):
                yield line, None, label, [f"Translators: a choice of the chronicle setting {key} ({choice})"]
