"""What the Grapevine reader returns and the writer takes: plain data, no XML."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from larp.grapevine.dates import DateOrder
from larp.rules.explain import RulesError
from larp.sheet import CharacterSheet


class GrapevineError(RulesError):
    """The file as a whole cannot be read: binary format, not well-formed XML,
    or not a Grapevine file. The message says what to do, for the organiser;
    ``field`` is ``"file"`` (the upload at fault)."""

    def __init__(self, message: str, field: str | None = "file"):
        super().__init__(message, field)


#: The experience log's kinds (``larp.models.ExperienceEntry.KINDS``; :mod:`larp.rules.experience`
#: says what each does to the totals).
EARNED, SPENT, LOST, REFUNDED, COMMENT = "earned", "spent", "lost", "refunded", "comment"
SET_EARNED, SET_UNSPENT = "set_earned", "set_unspent"


@dataclass(frozen=True)
class ExperienceLine:
    """One line of a character's experience history (Grapevine's ``<entry>``, the log's row).

    Attributes:
        kind: one of :data:`larp.rules.experience.KINDS`, Grapevine's entry type as it is
            (``set_earned`` and ``set_unspent`` stay what they are).
        amount: experience points, exact (:class:`~decimal.Decimal`, 0.5 stays 0.5), as the file
            signs it.
        what: the reason as written.
        date: when; :data:`larp.grapevine.dates.NO_DATE` for Grapevine's unset date.
    """

    kind: str
    amount: Decimal
    what: str
    date: datetime


@dataclass(frozen=True)
class GrapevineCharacter:
    """One character record of a Grapevine file, as imported (or as exported: the writer takes these).

    Attributes:
        name: the character's name.
        creature: ``"vampire"``, ``"ghoul"`` or ``"mortal"`` when imported;
            Grapevine's creature (``"werewolf"``...) when skipped.
        sheet: the imported sheet, ``None`` when skipped or failed.
        kept: what the record holds that the sheet has no place for, kept as written
            (:mod:`larp.grapevine.kept`); stored on the character and written back on export.
        experience: the experience history, oldest first.
        missing: core values the file does not give (or gives unreadably), each with the value used.
        renamed: names read as another spelling (articles, case, spacing, a near spelling).
        problems: what was not understood, one sentence each.
        skipped: why the record was not imported ("werewolf: skipped, ..."), else "".
        error: why the record could not be read at all, else "".
        play_status: Grapevine's status ("Active", "Torpor", "Destroyed"...).
        npc: Grapevine's NPC flag.
        last_modified: the record's last change, ``None`` if absent, unset or unreadable.
    """

    name: str
    creature: str
    sheet: CharacterSheet | None
    kept: dict[str, Any] = field(default_factory=dict)
    experience: tuple[ExperienceLine, ...] = ()
    missing: tuple[str, ...] = ()
    renamed: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    skipped: str = ""
    error: str = ""
    play_status: str = ""
    npc: bool = False
    last_modified: datetime | None = None


@dataclass(frozen=True)
class GrapevineFile:
    """A parsed Grapevine file.

    Attributes:
        filename: as given by the caller (for messages only).
        date_order: the day/month order the file's dates were read in, and why
            (:func:`larp.grapevine.dates.date_order`).
        encoding: the text encoding the file was read in: ``"utf-8"``, ``"cp1252"``
            (Grapevine's own), ``"utf-16"`` (with a byte-order mark) or ``"latin-1"``
            (bytes cp1252 leaves undefined).
        characters: one result per character record, in file order.
        problems: what was not understood about the file as a whole.
        left_out: other records the file holds (players, queries...), counted.
    """

    filename: str
    encoding: str
    characters: tuple[GrapevineCharacter, ...]
    problems: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    date_order: DateOrder = DateOrder()

    @property
    def imported(self) -> list[GrapevineCharacter]:
        """Characters that arrived with a sheet."""
        return [c for c in self.characters if c.sheet is not None]

    @property
    def skipped(self) -> list[GrapevineCharacter]:
        """Characters of other creature types, not imported on purpose."""
        return [c for c in self.characters if c.skipped]

    @property
    def failed(self) -> list[GrapevineCharacter]:
        """Characters whose record could not be read."""
        return [c for c in self.characters if c.error]
