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
            raise ServiceError(f"No character is called or has the card code {text!r}.", field="character",
                               status=404)
        if match not in found:
            found.append(match)
    return found


def file_name(text: str, suffix: str = ".gex") -> str:
    """A download's file name from a character's or chronicle's name (letters and digits, dashes)."""
    slug = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in text.lower()).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return (slug or "characters") + suffix
