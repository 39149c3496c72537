"""Exporting characters to Grapevine (issue 20): the chronicle's characters as a Grapevine 3 exchange
file (``.gex``), for ``larp export-grapevine``, the character page and Between game sessions.

Loads each character's sheet, experience log, condition and the data kept from an import, and
hands them to :func:`larp.grapevine.write_grapevine` (pure). Reads only: no transaction needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from larp.grapevine import ExperienceLine, GrapevineCharacter, write_grapevine
from larp.grapevine.status import status_on_export
from larp.models import Character, Chronicle, ExperienceEntry
from larp.rules.explain import N_, Phrase, plural
from larp.rules.health import live_levels
from larp.services import ServiceError
from larp.services.characters import normalise_code
from larp.services.chronicles import chronicle_settings
from larp.services.sheet_store import sheet_of


def exported_character(character: Character, experience: Sequence[ExperienceEntry] = ()) -> GrapevineCharacter:
    """``character`` as the Grapevine writer takes him: his sheet, his experience log (in the order it
    was recorded), Grapevine's status for his condition and retirement
    (:func:`larp.grapevine.status.status_on_export`), his last change as the last-modified date (the
    file's own while he is unchanged since its import: ``kept["version"]``), and what an import kept
    unused."""
    kept = dict(character.imported_unused or {})
    attributes = kept.get("attributes") or {}
    sheet = sheet_of(character)
    unchanged = kept.get("version") == str(character.version) and attributes.get("lastmodified")
    return GrapevineCharacter(
        name=character.name, creature=character.creature, sheet=sheet, kept=kept,
        experience=tuple(ExperienceLine(e.kind, e.amount, e.what, e.created_at.replace(microsecond=0))
                         for e in experience),
        play_status=status_on_export(character.condition, character.retired_at is not None, character.creature,
                                     attributes.get("status", "")),
        npc=attributes.get("npc", "").lower() == "yes",
        last_modified=None if unchanged or not character.updated_at else character.updated_at.replace(microsecond=0),
    )


def export_grapevine(chronicle: Chronicle, characters: Iterable[Character] | None = None) -> bytes:
    """The Grapevine 3 exchange file of ``characters`` (default: every character of ``chronicle``, the
    retired ones as Grapevine's "Inactive"), in name order, written with the chronicle's health track."""
    chosen = list(characters) if characters is not None else list(
        Character.select().where(Character.chronicle == chronicle).order_by(Character.name))
    logs: dict[int, list[ExperienceEntry]] = {}
    if chosen:
        for entry in (ExperienceEntry.select().where(ExperienceEntry.character.in_([c.id for c in chosen]))
                      .order_by(ExperienceEntry.id)):
            logs.setdefault(entry.character_id, []).append(entry)
    track = live_levels(chronicle_settings(chronicle))
    return write_grapevine([exported_character(c, logs.get(c.id, ())) for c in chosen], track)


def _names(characters: Sequence[Character]) -> str | Phrase:
    shown = ", ".join(c.name for c in characters[:8])
    if len(characters) <= 8:
        return shown
    return Phrase.message(N_("%(names)s and %(count)s more"), names=shown, count=len(characters) - 8)


def _damage_of(character: Character) -> Phrase:
    """``Vivienne: 2 aggravated, 1 lethal``: a character's current damage, each kind as a game word."""
    taken = [Phrase.message(N_("%(n)s %(kind)s"), n=n, kind=Phrase.term(kind)) for n, kind in (
        (character.damage_aggravated, "aggravated"), (character.damage_lethal, "lethal"),
        (character.damage_bashing, "bashing")) if n]
    return Phrase.message(N_("%(name)s: %(damage)s"), name=character.name, damage=taken)


def left_out(characters: Sequence[Character]) -> list[Phrase]:
    """What the Grapevine file of ``characters`` does not hold because Grapevine has no place for it,
    one sentence each, naming whose (issue 27: the CLI and the page before the download say it), as
    phrases (English as strings; the page says them in the reader's language, issue 36).

    Grapevine keeps a health chart, never current damage; it has no tabletop ratings, no narrator
    notes (those stay in this chronicle on purpose), no players' contact details (likewise), no stake,
    no unconsciousness, and no game session or narrator for an experience line."""
    out = []
    hurt = [c for c in characters if c.damage_aggravated or c.damage_lethal or c.damage_bashing]
    if hurt:
        detail = _damage_of(hurt[0])
        for character in hurt[1:8]:
            detail = Phrase.message(N_("%(these)s; %(next)s"), these=detail, next=_damage_of(character))
        if len(hurt) > 8:
            detail = Phrase.message(N_("%(listed)s and more"), listed=detail)
        out.append(Phrase.message(N_("Current damage (%(detail)s): Grapevine keeps only the health chart."),
                                  detail=detail))
    for label, chosen in (
        (N_("Tabletop ratings: %(names)s."), [c for c in characters if c.tabletop]),
        (N_("Narrator notes (they stay in this chronicle): %(names)s."), [c for c in characters if c.narrator_notes]),
        (N_("Players' contact details (they stay in this chronicle): %(names)s."),
         [c for c in characters if c.player_contact]),
        (N_("A stake: %(names)s."), [c for c in characters if c.staked]),
        (N_("Unconsciousness: %(names)s."), [c for c in characters if c.condition == "unconscious"]),
    ):
        if chosen:
            out.append(Phrase.message(label, names=_names(chosen)))
    logged = ExperienceEntry.select().where(ExperienceEntry.character.in_([c.id for c in characters])
                                            & (ExperienceEntry.game_session.is_null(False)
                                               | ExperienceEntry.user.is_null(False))).count() if characters else 0
    if logged:
        out.append(Phrase.counted(logged, "The game session and the organiser of %(n)s experience line (Grapevine "
                                          "keeps a date, points and a reason).",
                                  "The game session and the organiser of %(n)s experience lines (Grapevine "
                                  "keeps a date, points and a reason)."))
    return out


def characters_named(chronicle: Chronicle, wanted: Sequence[str]) -> list[Character]:
    """The characters of ``chronicle`` that ``wanted`` names, each by its name (any case) or card code.

    Raises:
        ServiceError: 404 naming what matched no character.
    """
    everyone = list(Character.select().where(Character.chronicle == chronicle).order_by(Character.name))
    found: list[Character] = []
    for text in wanted:
        match = next((c for c in everyone if c.name == text), None) or next(
            (c for c in everyone if c.name.lower() == text.strip().lower()), None) or next(
            (c for c in everyone if c.short_code == normalise_code(text)), None)
        if match is None:
            raise ServiceError(Phrase.message(N_("No character is called or has the card code %(words)s."),
                                              words=repr(text)), field="character",
                               status=404)
        if match not in found:
            found.append(match)
    return found


#: The download's type: the bytes are Windows-1252, as the file's declaration says.
CONTENT_TYPE = "application/xml; charset=windows-1252"
