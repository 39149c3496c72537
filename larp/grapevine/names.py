"""Names that differ only in spelling: one name per thing within a file.

Grapevine's lists are typed by people, so one file holds "The Green Path" on one sheet and
"Green Path" on the next, "thaumaturgy" and "Thaumaturgy", "Path of  Caine" with two spaces.
Two names are the same when they differ only in articles (the, a, an), case, spacing or
punctuation (:func:`spelling_key`). A name in ``data/disciplines.toml`` is written as the table
writes it; any other takes the spelling met first in the file (:class:`Spellings`). A near
spelling of a table name ("Chimestry") is read as that name (:func:`closest`). Each change is
reported on the character, so the organiser sees what was read as what.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from functools import lru_cache

ARTICLES = frozenset({"the", "a", "an"})


@lru_cache(maxsize=8192)
def spelling_key(text: str) -> str:
    """``text`` without articles, case, spacing and punctuation: ``"The Green  Path"`` -> ``"greenpath"``."""
    words = [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]
    kept = [w for w in words if w not in ARTICLES]
    return "".join(kept or words)


def closest(text: str, choices: Sequence[str]) -> tuple[str | None, bool]:
    """The choice ``text`` names: the same up to articles, case, spacing and punctuation, else a near
    spelling (difflib, ratio 0.88).

    Returns ``(choice, was_near)``; ``(None, False)`` when nothing is close.
    """
    keys = _keys(tuple(choices))
    key = spelling_key(text)
    if key in keys:
        return keys[key], False
    near = difflib.get_close_matches(key, list(keys), n=1, cutoff=0.88)
    return (keys[near[0]], True) if near else (None, False)


@lru_cache(maxsize=1024)
def _keys(choices: tuple[str, ...]) -> dict[str, str]:
    """The lookup of :func:`closest`: each choice by its key (made once per list of choices)."""
    return {spelling_key(choice): choice for choice in choices}


class Spellings:
    """The spelling met first in one file for each name of a kind (``"discipline"``,
    ``"path:Thaumaturgy"``, ``"morality"``...), so that every character of the file uses it."""

    def __init__(self) -> None:
        self._first: dict[tuple[str, str], str] = {}

    def first(self, kind: str, name: str) -> str:
        """The file's spelling of ``name`` (``name`` itself the first time its key is met)."""
        return self._first.setdefault((kind, spelling_key(name)), name)


def same_but_spelling(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ, but only in articles, case, spacing or punctuation."""
    return a != b and spelling_key(a) == spelling_key(b)
