"""Printed character sheets (issue 34): what a sheet prints, which sheets a batch prints, and the
list that remembers when each was printed.

A printed sheet is the permanent sheet (:func:`larp.services.sheet_store.sheet_of`), never
tonight's damage or Traits lost, which change during play. It carries the card's short code, a QR
code and a stamp "as of <date time>, sheet edition N": the QR code is the card's address with the
edition added (``<card address>/E<edition>``; the card token unchanged, so a lost sheet is revoked
with the card), and a narrator who scans it sees what changed since
(:func:`larp.services.editions.sheet_notice`).

The browser prints it (paged CSS, ``static/css/print-sheets.css``): no PDF service to run at an
event. A player's copy never holds narrator notes or contact details; an organiser's copy holds
the narrator notes when asked for, contact details never.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable

from peewee import Expression

from larp.db import as_id, db, for_update
from larp.i18n import N_
from larp.models import Character, Chronicle
from larp.rules.experience import points_text
from larp.rules.explain import N_, Phrase
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError
from larp.services.cards import card_url, qr_svg
from larp.services.characters import has_mettle, health_track, merit_health_levels
from larp.services.tonight import checked_in_tonight
from larp.services.chronicles import chronicle_settings
from larp.services.sheet_store import sheet_of
from larp.services.experience import experience_log
from larp.catalogues import sheet_lists
from larp.sheet import CharacterSheet
from larp.sheet_entries import CATEGORIES, TABLETOP_ATTRIBUTES

#: The papers a sheet is laid out for (chronicle setting ``sheet_paper``).
PAPERS = {"a4": "A4", "letter": N_("US Letter")}  # shown translated (issue 36)
#: The most sheets one print job holds (a chronicle's whole cast, with room to spare).
MOST_SHEETS = 300


def edition_url(base_url: str, token: str, edition: int) -> str:
    """The address in a printed sheet's QR code: the card's (:func:`larp.services.cards.card_url`,
    upper-case for a small alphanumeric QR code) with ``/E<edition>`` added."""
    return f"{card_url(base_url, token)}/E{edition}"


@dataclass(frozen=True)
class PowerGroup:
    """One Discipline's powers on a printed sheet: ``(level, power, custom)`` each, lowest first."""

    discipline: str
    powers: tuple[tuple[int, str, bool], ...]


@dataclass(frozen=True)
class PrintedSheet:
    """Everything one printed sheet shows, as plain data for the template.

    Attributes:
        character: the stored character (name, code, creature...).
        sheet: the permanent sheet (Traits with counts, Abilities, powers, equipment...).
        edition: the sheet edition printed (``Character.sheet_edition``).
        as_of: when the sheet was drawn (UTC, as stored).
        url: the address in its QR code (``None`` without a card token: no QR code).
        svg: the QR code as inline SVG, or ``None``.
        health_levels: the health chart's levels, top first (the chronicle's track or the sheet's
            own, with Mettle's and the Merits' extra levels), printed as blank boxes.
        powers: the Discipline powers by Discipline.
        earned, spent, unspent: the experience totals, as written ("12.5").
        narrator_notes: the narrator notes on an organiser's copy, else ``None``.
        virtues: ``(Virtue, rating)`` in the books' order (Conscience or Conviction, Self-Control or
            Instinct, Courage), whatever order the database returns them in.
        tabletop: ``(rating, dots)`` in the sheet's order (Attributes as the editor lists them, then the rest).
    """

    character: Character
    sheet: CharacterSheet
    edition: int
    as_of: datetime
    url: str | None
    svg: str | None
    health_levels: tuple[str, ...]
    powers: tuple[PowerGroup, ...]
    earned: str
    spent: str
    unspent: str
    narrator_notes: str | None = None
    virtues: tuple[tuple[str, int], ...] = ()
    tabletop: tuple[tuple[str, int], ...] = ()
    categories: tuple[str, ...] = field(default=CATEGORIES)

    @property
    def any_negative(self) -> bool:
        """Whether the sheet has Negative Traits."""
        return any(self.sheet.negative_traits.get(c) for c in CATEGORIES)


def printed_sheet(character: Character, settings: ChronicleSettings, base_url: str, as_of: datetime,
                  narrator_copy: bool = False) -> PrintedSheet:
    """The printed sheet of ``character`` (see :class:`PrintedSheet`).

    Args:
        settings: the chronicle's settings (the health chart's Bruised levels).
        base_url: the address the QR code starts with (as the cards').
        as_of: the time stamped on it (UTC).
        narrator_copy: an organiser's copy: the narrator notes are printed (contact details never).
    """
    sheet = sheet_of(character)
    held: dict[str, list[tuple[int, str]]] = {}
    for power in sheet.powers:
        held.setdefault(power.discipline, []).append((power.level, power.power))
    extra = merit_health_levels([("merit", q.key) for q in sheet.merits if q.key]
                                + [("flaw", q.key) for q in sheet.flaws if q.key])
    # The chart without a mark on it: the track of the character undamaged, as the rules core draws it.
    blank = Character(**{**character.__data__, "damage_aggravated": 0, "damage_lethal": 0, "damage_bashing": 0,
                         "condition": "active", "staked": False})
    track = health_track(blank, settings, mettle=has_mettle(held), extra_levels=extra)
    groups = tuple(PowerGroup(d, tuple(sorted(((p.level, p.power, p.custom) for p in sheet.powers
                                                if p.discipline == d), key=lambda x: (x[0], x[1]))))
                   for d in sorted(held, key=str.lower))
    log = experience_log(character)
    edition = character.sheet_edition or 1
    url = edition_url(base_url, character.card_token, edition) if character.card_token else None
    return PrintedSheet(
        character=character, sheet=sheet, edition=edition, as_of=as_of, url=url, svg=qr_svg(url) if url else None,
        health_levels=tuple(track.levels), powers=groups, earned=points_text(log.earned),
        spent=points_text(log.spent), unspent=points_text(log.unspent),
        narrator_notes=(sheet.narrator_notes or "") if narrator_copy else None,
        virtues=tuple(sorted(sheet.virtues.items(), key=lambda item: (_virtue_place(item[0]), item[0]))),
        tabletop=tuple(sorted(sheet.tabletop.items(), key=lambda item: (_tabletop_place(item[0]), item[0]))))


def _virtue_place(name: str) -> int:
    # A JSON object's keys come back in another order from PostgreSQL (jsonb): print the books' order.
    lists = sheet_lists()
    for group in (lists.humanity_virtues, lists.path_virtues):
        if name in group:
            return group.index(name)
    return len(lists.virtues)


def _tabletop_place(name: str) -> int:
    return TABLETOP_ATTRIBUTES.index(name) if name in TABLETOP_ATTRIBUTES else len(TABLETOP_ATTRIBUTES)


# ---------------------------------------------------------------- which sheets a batch prints

def _in_play(chronicle: Chronicle):
    """The chronicle's characters in play (retired characters get no sheet, as they get no card)."""
    return Character.select().where((Character.chronicle == chronicle) & Character.retired_at.is_null())


def changed_since_print() -> Expression:
    """Characters whose sheet changed since its last print, or was never printed (scene extras,
    made for one scene, are left to a selection)."""
    return ((Character.sheet_printed_edition.is_null() | (Character.sheet_edition > Character.sheet_printed_edition))
            & ~Character.scene_extra)


@dataclass(frozen=True)
class Batch:
    """A batch an organiser prints in one go: its key in the print form, its label, and the
    condition that picks its characters from those in play (called per request: it may read the
    open game session)."""

    key: str
    label: str
    where: Callable[[Chronicle], Expression]
    empty: str = ""


#: The batches, by key, besides a selection of characters: the sheets changed since their last print,
#: and the characters checked in at the door for the open game session (issue 32).
BATCHES: dict[str, Batch] = {
    "changed": Batch("changed", N_("Every sheet changed since its last print"), lambda chronicle: changed_since_print(),
                     "No sheet has changed since it was last printed: every printed sheet is the current edition."),
    "tonight": Batch("tonight", N_("Every character checked in tonight"),
                     lambda chronicle: Character.id.in_(checked_in_tonight(chronicle)),
                     "No one is checked in tonight: check players in at the door (Check-in), or tick the sheets "
                     "to print."),
}


def batch_characters(chronicle: Chronicle, batch: str | None, character_ids: list[str] | None) -> list[Character]:
    """The characters a print job holds, by name: those of ``batch`` (a key of :data:`BATCHES`),
    or the ticked ``character_ids`` (a selection).

    Raises:
        ServiceError: 422 (field ``character``) nothing ticked, an id that is not one of the
            chronicle's characters in play, more than :data:`MOST_SHEETS`; 422 (field ``batch``) an
            unknown batch; 409 (field ``batch``) a batch that holds no one now.
    """
    query = _in_play(chronicle).order_by(Character.name)
    if batch:
        if batch not in BATCHES:
            raise ServiceError(Phrase.message(N_("There is no batch “%(batch)s” to print."),
                                              batch=batch), field="batch")
        characters = list(query.where(BATCHES[batch].where(chronicle)))
        if not characters:
            raise ServiceError(BATCHES[batch].empty, field="batch", status=409)
    else:
        ids = {as_id(value) for value in character_ids or []}
        if None in ids:
            raise ServiceError(Phrase.message(N_("Choose characters from the list.")), field="character")
        if not ids:
            raise ServiceError(Phrase.message(N_("No character is ticked: tick the sheets to print, or print every "
                                                 "sheet that changed since its last print.")), field="character")
        characters = list(query.where(Character.id.in_(ids)))
        if len(characters) != len(ids):
            raise ServiceError(Phrase.message(N_("Some of the ticked characters are not in "
                                                 "play in this chronicle.")), field="character")
    if len(characters) > MOST_SHEETS:
        raise ServiceError(Phrase.message(N_("%(n)s sheets are more than one print job holds (%(MOST_SHEETS)s): "
                                             "tick fewer."),
                                          n=len(characters), MOST_SHEETS=MOST_SHEETS), field="character")
    return characters


def sheets_to_print(chronicle: Chronicle, batch: str | None, character_ids: list[str] | None, base_url: str,
                    as_of: datetime, narrator_copy: bool = False) -> list[PrintedSheet]:
    """The printed sheets of a print job (:func:`batch_characters` picks whose), by name.

    Raises:
        ServiceError: as :func:`batch_characters`.
    """
    settings = chronicle_settings(chronicle)
    return [printed_sheet(character, settings, base_url, as_of, narrator_copy)
            for character in batch_characters(chronicle, batch, character_ids)]


# ---------------------------------------------------------------- the list that remembers prints

@dataclass(frozen=True)
class PrintRow:
    """A character on the print list: his edition now and his last print.

    ``state`` is "never" (never printed), "changed" (a newer edition than the one printed) or
    "current"."""

    character: Character

    @property
    def state(self) -> str:
        """"never", "changed" or "current" (see the class)."""
        printed = self.character.sheet_printed_edition
        if printed is None:
            return "never"
        return "changed" if (self.character.sheet_edition or 1) > printed else "current"


def print_list(chronicle: Chronicle) -> list[PrintRow]:
    """Every character in play, by name, with his sheet's edition and last print."""
    return [PrintRow(c) for c in _in_play(chronicle).order_by(Character.name)]


def read_printed(values: list[str]) -> list[tuple[int, int]]:
    """The sheets a print job held, as its form sends them (``"<character id>:<edition>"``), as
    ``(character id, edition)`` pairs.

    Raises:
        ServiceError: 422 (field ``printed``) none, or one that is not an id and an edition.
    """
    pairs = []
    for value in values:
        ident, _, edition = (value or "").partition(":")
        cid, number = as_id(ident), as_id(edition)
        if cid is None or number is None or number < 1:
            raise ServiceError(Phrase.message(N_("The list of printed sheets is damaged: print them again from the "
                                                 "print list.")),
                               field="printed")
        pairs.append((cid, number))
    if not pairs:
        raise ServiceError(Phrase.message(N_("No sheet was in this print job.")), field="printed")
    return pairs


def mark_printed(chronicle: Chronicle, printed: list[tuple[int, int]], at: datetime) -> int:
    """Remember that the sheets ``printed`` (``(character id, edition)`` pairs, the edition each
    sheet carries) were printed at ``at`` (UTC, the stamp on them). Returns how many were marked.

    A sheet's mark only moves forward: when another print job already marked a later edition (or
    the same edition later), that one stays. Each pair is one conditional UPDATE, so two jobs
    marked at once on either engine keep the later print without a read-then-write.

    Raises:
        ServiceError: 422 (field ``printed``) a character who is not one of the chronicle's, or an
            edition he never had.
    """
    with db.atomic():
        ids = sorted({cid for cid, _ in printed})
        # Lock the rows to be marked (FOR NO KEY UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE already
        # serialises), so the edition checked below is the one the update sees.
        found = {c.id: c for c in for_update(Character.select().where((Character.chronicle == chronicle)
                                                                       & Character.id.in_(ids)).order_by(Character.id))}
        for cid, edition in printed:
            character = found.get(cid)
            if character is None:
                raise ServiceError(Phrase.message(N_("A sheet of this print job is not of a character of this "
                                                     "chronicle.")),
                                   field="printed", status=422)
            if edition > (character.sheet_edition or 1):
                raise ServiceError(Phrase.message(N_("%(name)s's sheet has no edition %(edition)s yet."),
                                                  name=character.name, edition=edition), field="printed")
        marked = 0
        for cid, edition in printed:
            later = ((Character.sheet_printed_edition.is_null())
                     | (Character.sheet_printed_edition < edition)
                     | ((Character.sheet_printed_edition == edition)
                        & (Character.sheet_printed_at.is_null() | (Character.sheet_printed_at <= at))))
            marked += Character.update(sheet_printed_edition=edition, sheet_printed_at=at).where(
                (Character.id == cid) & later).execute()
        return marked


def paper_of(chronicle: Chronicle, asked: Any = None) -> str:
    """The paper of a print job: ``asked`` when it is one of :data:`PAPERS` (a one-off switch on the
    print page), else the chronicle setting ``sheet_paper``."""
    if isinstance(asked, str) and asked in PAPERS:
        return asked
    chosen = chronicle_settings(chronicle)["sheet_paper"]
    return chosen if chosen in PAPERS else "a4"
