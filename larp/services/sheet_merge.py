"""A stale sheet form put back on the stored sheet (new-user test 12, finding 2).

When a section of the sheet editor is refused because another screen changed it meanwhile
(:class:`larp.services.sheets.StaleForm`), the form shown again must not be this screen's old
list: saving that would quietly delete the other screen's change. :func:`rebase_form` builds
what the form shows instead, a three-way merge per entry: the values the form showed
(``seen``, the base), what this screen sent (``mine``) and what is stored now (``theirs``).

- an entry only this screen changed: this screen's value;
- an entry only the other screen changed: the stored value;
- an entry both changed, to different values: the stored value, and the collision is
  listed so the page says which of this screen's values is not in the form.

This module decides nothing about the rules and writes nothing: the save that follows goes
through :func:`larp.services.sheets.edit_character` again, whose stale check runs under the
write lock, so a third change in between is refused again in the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from larp.sheet_entries import CATEGORIES

#: List fields whose entries are told apart by a key (the rest are compared whole).
_IDENT = {
    "powers": lambda e: ("power", str(e.get("discipline", "")).lower(), str(e.get("power", "")).lower()),
    "merits": lambda e: ("merit", str(e.get("key") or e.get("name") or "").lower(), str(e.get("note", "")).lower()),
    "flaws": lambda e: ("flaw", str(e.get("key") or e.get("name") or "").lower(), str(e.get("note", "")).lower()),
    "weapons": lambda e: ("weapon", str(e.get("name") or e.get("key") or "").lower()),
    "armor": lambda e: ("armor", str(e.get("name") or e.get("key") or "").lower()),
    "derangements": lambda e: ("derangement", str(e).lower()),
}
_ENTRY_DICTS = ("abilities", "backgrounds", "virtues", "tabletop", "specialisations")
_MISSING = object()


@dataclass
class Rebased:
    """The form to show after a stale refusal: ``data``, the section's fields (the stored sheet
    with this screen's changes on top where they do not collide); ``collisions``, the keys of
    ``data`` where both screens changed the same entry (the form holds the stored value);
    ``yours``, this screen's values for exactly those entries (for saying what is not in the form)."""

    data: dict[str, Any]
    collisions: list[str] = field(default_factory=list)
    yours: dict[str, Any] = field(default_factory=dict)


def _canon(value: Any) -> Any:
    """A value as text all the way down, so a typed "2" equals a stored 2 and a blank equals None."""
    if value is None or value is _MISSING:
        return ""
    if isinstance(value, bool):
        return "1" if value else ""
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _canon(v)) for k, v in value.items() if _canon(v) not in ("", ())))
    if isinstance(value, (list, tuple)):
        return tuple(_canon(v) for v in value)
    return str(value).strip()


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        # A row as posted carries fewer keys than the stored entry (an armory weapon posts its key
        # and note only): the keys both have decide.
        return all(_canon(a[k]) == _canon(b[k]) for k in set(a) & set(b))
    return _canon(a) == _canon(b)


def _pick(base: Any, mine: Any, theirs: Any) -> tuple[Any, bool]:
    """The three-way choice for one entry: (the value to show, whether both changed it apart)."""
    if _same(mine, base):
        return theirs, False
    if _same(theirs, base) or _same(mine, theirs):
        return mine, False
    return theirs, True


def _keyed(key: str, value: Any) -> dict[Any, Any]:
    """A field as {entry identity: entry}, in order; a Trait named twice (a chip tapped on a Trait
    the list already holds) is one entry with the counts added, as the validator reads it."""
    if key in ("traits", "negative_traits"):
        out: dict[Any, Any] = {}
        for category in CATEGORIES:
            for entry in (value or {}).get(category) or []:
                ident = (category, str(entry.get("name", "")).strip().lower())
                count = entry.get("count")
                if ident in out and str(out[ident]["count"]).isdigit() and str(count).isdigit():
                    out[ident] = dict(out[ident], count=int(out[ident]["count"]) + int(count))
                else:
                    out[ident] = {"name": str(entry.get("name", "")).strip(),
                                  "count": int(count) if str(count).isdigit() else count}
        return out
    if key in _ENTRY_DICTS:
        return {name: entry for name, entry in (value or {}).items()}
    return {_IDENT[key](entry): entry for entry in value or []}


def _unkeyed(key: str, entries: dict[Any, Any]) -> Any:
    if key in ("traits", "negative_traits"):
        groups: dict[str, list[Any]] = {category: [] for category in CATEGORIES}
        for (category, _), entry in entries.items():
            groups[category].append(entry)
        return groups
    if key in _ENTRY_DICTS:
        return dict(entries)
    return list(entries.values())


def rebase_form(seen: Mapping[str, Any], mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> Rebased:
    """Put this screen's edit (``mine``: the section's fields as posted) on the stored sheet
    (``theirs``: :meth:`CharacterSheet.to_dict`), relative to what the form showed (``seen``).

    Only the fields in ``mine`` are returned (a field the form did not send stays as stored on
    save anyway). A field missing from ``seen`` (an old page) is compared with the stored value,
    so the stored value wins unless this screen changed it.
    """
    out = Rebased({})
    for key, value in mine.items():
        stored = theirs.get(key)
        base = seen.get(key, stored)
        if key not in _IDENT and key not in _ENTRY_DICTS and key not in ("traits", "negative_traits"):
            chosen, clash = _pick(base, value, stored)
            out.data[key] = chosen
            if clash:
                out.collisions.append(key)
                out.yours[key] = value
            continue
        b, m, t = _keyed(key, base), _keyed(key, value), _keyed(key, stored)
        merged: dict[Any, Any] = {}
        yours: dict[Any, Any] = {}
        # The stored order first, then what this screen added.
        for ident in list(t) + [i for i in m if i not in t]:
            chosen, clash = _pick(b.get(ident, _MISSING), m.get(ident, _MISSING), t.get(ident, _MISSING))
            if clash:
                yours[ident] = m.get(ident, _MISSING)
            if chosen is not _MISSING and _canon(chosen) != "":
                merged[ident] = chosen
        out.data[key] = _unkeyed(key, merged)
        if yours:
            out.collisions.append(key)
            shown = dict(merged)
            for ident, entry in yours.items():
                if entry is _MISSING:
                    shown.pop(ident, None)
                else:
                    shown[ident] = entry
            out.yours[key] = _unkeyed(key, shown)
    return out
