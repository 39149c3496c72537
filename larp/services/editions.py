"""The edition of a character's sheet (issue 34): which printed sheet is out of date.

``Character.version`` moves with every change to a character, damage and healing included, so a
printed sheet would be stale at the first bruise. ``Character.sheet_edition`` counts the changes
of the sheet itself instead: it is 1 when the character is created and rises by one, in the
transaction that makes the change, with

- every save of the sheet editor (kind ``sheet``: Traits, Abilities, powers, equipment, the
  tabletop ratings converted from the live sheet...; written by
  :func:`larp.services.sheet_store.update_characters`, so an undo that puts a sheet back and a
  Grapevine import that rewrites one raise it too);
- every line of the experience log an organiser writes (kind ``experience``: the sheet prints
  experience earned, spent and unspent), and the undo of one;
- an approved experience spend (issue 33, later) through :func:`raise_edition`.

Rulings (challenges, damage, healing, torpor, feeding...) never raise it.

Each History entry that raised the edition keeps the edition it made in its outcome
(``outcome["sheet_edition"]``), so "what changed since edition 12" is read from the History
whatever happened in between. Entries from before editions existed carry no number: they made
editions 2, 3, ... in their order, as migration ``0014_sheet_editions`` counted them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from larp.models import Character, Ruling, RulingCharacter

#: The History's kinds of entry that change the sheet itself (and the undo of one of them).
EDITION_KINDS = ("sheet", "experience")
#: Where an entry that raised the edition keeps the edition it made (its ruling's ``outcome``).
EDITION_KEY = "sheet_edition"
#: At most this many changes are listed in a notice; the rest are counted.
NOTICE_CHANGES = 8


def raise_edition(character_ids: Iterable[int]) -> None:
    """One more edition for each of ``character_ids`` (a relative UPDATE inside the caller's
    transaction, so two changes at once both count)."""
    ids = list(character_ids)
    if ids:
        Character.update(sheet_edition=Character.sheet_edition + 1).where(Character.id.in_(ids)).execute()


def next_edition(character: Character) -> int:
    """The edition a change of ``character``'s sheet makes (his edition as loaded, plus one): stamped
    on the History entry recorded for it. Call with the character locked by the use case."""
    return (character.sheet_edition or 1) + 1


@dataclass(frozen=True)
class EditionEntry:
    """A History entry that made a new edition of a sheet.

    Attributes:
        edition: the edition it made.
        ruling: the entry (its summary, who, when).
        changes: what it changed, each as short as a narrator reads it at the door
            ("+1 Brawny", "Dominate: Command", "Brawl 2 → 3", "+2 experience earned").
    """

    edition: int
    ruling: Ruling
    changes: tuple[str, ...]


def _outcome(ruling: Ruling) -> dict[str, Any]:
    return ruling.outcome if isinstance(ruling.outcome, dict) else {}


def _count(text: str) -> int:
    """``"×2"`` → 2, ``"—"`` → 0 (a Trait's count as the sheet editor's History writes it)."""
    digits = text.lstrip("×")
    return int(digits) if digits.isdigit() else 0


def short_change(change: dict[str, Any]) -> str:
    """One change of a sheet edit (``outcome["changes"]``: field, label, before, after, as
    :class:`larp.services.sheets.Change` stores it) as a narrator reads it at the door."""
    field, label = str(change.get("field", "")), str(change.get("label", ""))
    before, after = str(change.get("before", "—")), str(change.get("after", "—"))
    head = field.split(".")[0]
    if head in ("traits", "negative_traits"):
        name = field.split(".", 2)[-1]
        delta = _count(after) - _count(before)
        negative = " (negative)" if head == "negative_traits" else ""
        return f"{'+' if delta > 0 else '−'}{abs(delta)} {name}{negative}"
    if head == "abilities":
        name = field.split(".", 1)[-1]
        if before == "—":
            return f"+{name} {after}"
        if after == "—":
            return f"−{name}"
        return f"{name} {before} → {after}"
    if head in ("powers", "merits", "flaws", "weapons", "armor") and label.startswith(("Power ", "Merit ", "Flaw ",
                                                                                        "Weapon ", "Armor ")):
        name = label if head != "powers" else label.removeprefix("Power ")
        if before == "—":
            return name
        if after == "—":
            return f"−{name}"
        return f"{name}: {before} → {after}"
    return f"{label}: {before} → {after}"


def _changes_of(ruling: Ruling, undone: Ruling | None) -> tuple[str, ...]:
    if ruling.kind == "sheet":
        listed = [short_change(c) for c in _outcome(ruling).get("changes") or [] if isinstance(c, dict)]
        spent = [step.get("text", "") for step in ruling.steps or []
                 if isinstance(step, dict) and step.get("rule") == "LotNR Experience"]
        return tuple(listed + [text.rstrip(".") for text in spent])
    if ruling.kind == "experience":
        inputs = ruling.inputs if isinstance(ruling.inputs, dict) else {}
        if inputs.get("kind") in ("earned", "spent"):
            return (f"{'+' if inputs['kind'] == 'earned' else '−'}{inputs.get('amount', '?')} experience "
                    f"{inputs['kind']}: {inputs.get('what', '')}".rstrip(": "),)
        return (ruling.summary,)
    what = undone.summary.rstrip(".") if undone is not None else ruling.summary.removeprefix("Undo of ").rstrip(".")
    return (f"undone: {what}",)


def edition_history(character: Character) -> list[EditionEntry]:
    """Every entry of ``character``'s History that made a new edition of his sheet, oldest first."""
    links = list(RulingCharacter.select(RulingCharacter, Ruling).join(Ruling)
                 .where((RulingCharacter.character == character)
                        & Ruling.kind.in_((*EDITION_KINDS, "undo")))
                 .order_by(Ruling.id))
    undone_ids = [_outcome(link.ruling).get("undone") for link in links if link.ruling.kind == "undo"]
    undone = {r.id: r for r in Ruling.select().where(Ruling.id.in_([i for i in undone_ids if isinstance(i, int)]))} \
        if undone_ids else {}
    entries: list[EditionEntry] = []
    counted = 1
    for link in links:
        ruling = link.ruling
        stamped = _outcome(ruling).get(EDITION_KEY)
        target = undone.get(_outcome(ruling).get("undone")) if ruling.kind == "undo" else None
        if ruling.kind == "undo" and not isinstance(stamped, int) and (target is None or target.kind not in EDITION_KINDS):
            continue  # the undo of damage, healing...: not a change of the sheet
        if isinstance(stamped, int) and not isinstance(stamped, bool):
            edition = stamped
        else:
            counted += 1  # recorded before editions existed: counted in order, as the migration did
            edition = counted
        entries.append(EditionEntry(edition, ruling, _changes_of(ruling, target)))
    return entries


def editions_from_history(character_ids: Iterable[int]) -> dict[int, int]:
    """The edition each of ``character_ids`` has by his History alone (1 plus one per entry that
    changed the sheet, as migration ``0014_sheet_editions`` sets it): for a chronicle export
    written before editions existed."""
    out = {}
    for character in Character.select().where(Character.id.in_(list(character_ids))):
        history = edition_history(character)
        out[character.id] = max([1] + [entry.edition for entry in history])
    return out


@dataclass(frozen=True)
class SheetNotice:
    """What a scanned printed sheet says against the record.

    Attributes:
        printed: the edition printed on the sheet (from its QR code).
        current: the character's edition now.
        entries: the History entries that made the editions after ``printed``, oldest first.
    """

    printed: int
    current: int
    entries: tuple[EditionEntry, ...]

    @property
    def stale(self) -> bool:
        """Whether a newer sheet exists than the one printed."""
        return self.current > self.printed

    @property
    def ahead(self) -> bool:
        """Whether the printed edition is one the character never had (a mistyped or foreign code)."""
        return self.printed > self.current

    def changes(self) -> list[str]:
        """Every change since the printed edition, oldest first, at most :data:`NOTICE_CHANGES`."""
        return [text for entry in self.entries for text in entry.changes][:NOTICE_CHANGES]

    @property
    def more(self) -> int:
        """How many changes :meth:`changes` leaves out (they are in the History)."""
        return max(sum(len(entry.changes) for entry in self.entries) - NOTICE_CHANGES, 0)

    @property
    def unlisted(self) -> int:
        """Editions since the printed one that no History entry explains (a Grapevine import
        rewrote the sheet: imports are not in a character's History)."""
        return max(self.current - self.printed - len(self.entries), 0)


def sheet_notice(character: Character, printed: int) -> SheetNotice:
    """Compare edition ``printed`` (read from a printed sheet's QR code) with ``character``'s
    edition now, with the History entries that came after it."""
    current = character.sheet_edition or 1
    entries = tuple(entry for entry in edition_history(character) if printed < entry.edition <= current) \
        if current > printed else ()
    return SheetNotice(printed, current, entries)
