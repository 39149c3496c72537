"""Grapevine 3 both ways: an XML exchange (``.gex``) or game (``.gv3``) file in, one
:class:`~larp.sheet.CharacterSheet` per vampire, ghoul and mortal out, and characters back out as
a ``.gex`` file Grapevine reads.

Pure: bytes in, plain data out, and back (no files, no clock, no database). Where to look:

- :mod:`larp.grapevine.reading`: the file's bytes to XML (encodings, defusedxml, size and nesting
  limits, where malformed XML broke);
- :mod:`larp.grapevine.mapping`: one character record to the sheet (and what is kept unused);
- :mod:`larp.grapevine.lists`: a record's lists (Traits, Abilities, Merits, equipment, health...);
- :mod:`larp.grapevine.powers`: Discipline powers and their levels;
- :mod:`larp.grapevine.names`: names that differ only in spelling;
- :mod:`larp.grapevine.kept`: what a record holds that the sheet has no place for;
- :mod:`larp.grapevine.entries`: a sheet as Grapevine's list entries (both ways);
- :mod:`larp.grapevine.writing`: characters to Grapevine's XML;
- :mod:`larp.grapevine.report`: what an import would do, as the preview page and the CLI print it;
- :mod:`larp.grapevine.format` and :mod:`larp.grapevine.dates`: the format's names and dates.

The binary Grapevine format is refused with a request to re-save as XML.
"""

from __future__ import annotations

from collections.abc import Sequence

from larp.grapevine.characters import ExperienceLine, GrapevineCharacter, GrapevineError, GrapevineFile
from larp.grapevine.dates import NO_DATE, format_grapevine_date, parse_grapevine_date
from larp.grapevine.mapping import read_file
from larp.grapevine.reading import MAX_DEPTH, MAX_FILE_BYTES
from larp.grapevine.writing import write_grapevine
from larp.rules.health import live_levels
from larp.rules.settings import ChronicleSettings

__all__ = [
    "ExperienceLine", "GrapevineCharacter", "GrapevineError", "GrapevineFile", "MAX_DEPTH", "MAX_FILE_BYTES",
    "NO_DATE", "default_track", "format_grapevine_date", "parse_grapevine", "parse_grapevine_date",
    "write_grapevine",
]


def default_track() -> tuple[str, ...]:
    """The LotNR live health track with the default settings (met-reference 4.1)."""
    return live_levels(ChronicleSettings.defaults())


def parse_grapevine(
    data: bytes,
    filename: str = "",
    *,
    include_contact: bool = False,
    standard_track: Sequence[str] | None = None,
    max_bytes: int = MAX_FILE_BYTES,
) -> GrapevineFile:
    """Read a Grapevine 3 XML file into character sheets.

    Args:
        data: the file's bytes (UTF-8, or Windows-1252 as Grapevine writes it).
        filename: shown in error messages.
        include_contact: put the player's e-mail, phone and address (from the
            file's ``<player>`` record) into ``sheet.player_contact``. Off by
            default: contact details stay out of demos and shared chronicles.
        standard_track: the chronicle's health levels; a character's health
            chart is kept on the sheet only when it differs. Default: the LotNR
            track with the default settings (met-reference 4.1).
        max_bytes: the largest file read, in bytes (default :data:`MAX_FILE_BYTES`).

    Returns:
        A :class:`GrapevineFile` with one :class:`GrapevineCharacter` per record.

    Raises:
        GrapevineError: the binary Grapevine format (re-save as XML), XML that
            is not well-formed (the message names where it stopped and the element
            left open, with their lines), XML that is not a Grapevine file, a DTD or
            entity, nesting deeper than :data:`MAX_DEPTH`, or a file larger than ``max_bytes``.
    """
    from larp.grapevine.reading import read_xml

    root, encoding, problems = read_xml(data, filename or "the file", max_bytes)
    track = tuple(standard_track) if standard_track is not None else default_track()
    return read_file(root, filename, encoding, problems, include_contact=include_contact, track=track)
