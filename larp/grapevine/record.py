"""One Grapevine record being read (issue 20): its element, the sheet it fills, and what is reported
and kept on the way. The lowest module of the importer's reading: :mod:`larp.grapevine.mapping`,
:mod:`larp.grapevine.lists` and :mod:`larp.grapevine.powers` each fill a :class:`Record`. Pure.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

from larp.grapevine.characters import ExperienceLine
from larp.grapevine.dates import DateOrder
from larp.grapevine.names import Spellings
from larp.rules.explain import N_, Phrase
from larp.rules.numbers import NumberError, decimal_number, whole_number
from larp.sheet import CharacterSheet


def whole(raw: str) -> int | None:
    """A Grapevine value read as a whole number (the app's one number reader), ``None`` if it is not one."""
    try:
        return whole_number(raw, "val", default=None)
    except NumberError:
        return None


@dataclass
class Record:
    """Working state while one record is read: the sheet, what was reported, what is kept."""

    element: ET.Element
    sheet: CharacterSheet
    spellings: Spellings
    problems: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    renamed: list[str] = field(default_factory=list)
    kept: dict[str, Any] = field(default_factory=dict)
    placed: dict[str, list[tuple[ET.Element, str]]] = field(default_factory=dict)
    kept_traits: dict[str, list[ET.Element]] = field(default_factory=dict)
    lists_in_file: dict[str, list[ET.Element]] = field(default_factory=dict)
    experience: list[ExperienceLine] = field(default_factory=list)
    pending_missing: dict[str, str] = field(default_factory=dict)
    order: DateOrder = field(default_factory=DateOrder)

    def text(self, attribute: str) -> str:
        """An attribute's text, stripped ("" when absent)."""
        return (self.element.get(attribute) or "").strip()

    def number(self, attribute: str, default: int | None = 0, report: list[str] | None = None,
               label: str = "") -> int | None:
        """A whole-number attribute; missing gives ``default``, unreadable is reported (into
        ``report``, the problems by default)."""
        raw = self.element.get(attribute)
        if raw is None or not raw.strip():
            return default
        kept = "left empty" if default is None else f"{default} used"
        value = whole(raw)
        if value is None:
            try:  # Grapevine sometimes writes "5.0"
                number = decimal_number(raw.replace(",", "."), attribute)
            except NumberError:
                (self.problems if report is None else report).append(
                    f"{label or attribute}: {raw!r} cannot be read as a number; {kept}.")
                return default
            value = int(number)
            if value != number:
                (self.problems if report is None else report).append(
                    f"{label or attribute}: {raw!r} is not a whole number; {value} used (Grapevine keeps whole "
                    "numbers here).")
        if value < 0:
            (self.problems if report is None else report).append(f"{label or attribute}: {raw!r} is negative; {kept}.")
            return default
        return value

    def core(self, attribute: str, label: str, used: str | None) -> int | None:
        """A core value (Willpower, blood, Humanity or Path, generation): missing or unreadable is
        reported in ``missing`` with ``used``, the value used instead (``None``: worded later, as the
        blood pool, which comes from the generation)."""
        raw = (self.element.get(attribute) or "").strip()
        value = self.number(attribute, None, report=[]) if raw else None
        if value is None:
            why = (Phrase.message(N_("%(raw)s is not a whole number of 0 or more"), raw=repr(raw)) if raw
                   else Phrase.message(N_("not in the file")))
            if used is None:
                self.pending_missing[label] = why
            else:
                self.missing.append(Phrase.message(N_("%(label)s: %(why)s; %(used)s used."), label=Phrase.term(label),
                                                   why=why, used=used))
        return value

    def keep(self, list_name: str, trait: ET.Element) -> None:
        """Keep an entry the sheet has no place for, as written (in the file's order: :func:`_keep_order`)."""
        self.kept.setdefault("lists", {}).setdefault(list_name, []).append(dict(trait.attrib))
        self.kept_traits.setdefault(list_name, []).append(trait)

    def place(self, list_name: str, trait: ET.Element, name: str) -> None:
        """Note that ``trait`` went onto the sheet as the entry ``name`` of ``list_name``."""
        self.placed.setdefault(list_name, []).append((trait, name))
