"""Writing characters as a Grapevine 3 XML exchange file (``.gex``), as Grapevine writes one.

Pure: :class:`~larp.grapevine.characters.GrapevineCharacter` in (a sheet, its experience history,
its play status and the data kept from an import), bytes out. The file is what Grapevine 3.0
writes (``larp.grapevine.format``): ``<?xml version="1.0" encoding="windows-1252"?>``, a
``<grapevine version="3">`` root,
one ``<vampire>`` or ``<mortal>`` per character with Grapevine's attribute names and order, its
``<experience>`` history with running totals, every list Grapevine gives that creature (empty ones
too) with its usual attributes, then boons, biography and notes as CDATA; Windows-1252, CRLF line
ends, two spaces of indent.

The declaration names the encoding, which Grapevine itself does not: Grapevine 3's reader
(``XMLReaderClass.BeginReading``, public in its VB source) checks only that the first tag starts with
``<?xml`` and reads every byte in the computer's own code page, so it reads the file as before, while
a standard XML reader (expat, as crapvine's ``xml.sax`` uses; .NET; libxml2) would otherwise take the
bytes for UTF-8 and stop at the first "é". A character Windows-1252 cannot hold (→, Ж, an emoji) is
written as a character reference, in attributes (where every XML reader decodes it) and inside CDATA
(where our reader decodes it: :func:`larp.grapevine.reading.decode_cdata_references`); Grapevine,
which decodes no reference, shows it as ``&#8594;`` rather than losing it. Each field the reader reads is written back, so reading the file gives the same
characters again; what the sheet has no place for comes from the kept data, and an entry the file
wrote in its own way (a note, a range of costs) is written that way while the sheet still says the
same (:func:`larp.grapevine.kept.entry_as_written`).

Not written: narrator notes and players' contact details (they stay in this chronicle), tabletop
ratings and blood per turn (Grapevine has no field for them; blood per turn comes from the generation).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET

from larp.catalogues import sheet_lists
from larp.grapevine.characters import GrapevineCharacter
from larp.grapevine.dates import format_grapevine_date
from larp.grapevine.entries import element_of, sheet_entries
from larp.grapevine.format import (ATTRIBUTE_ORDER, EXPERIENCE_TYPES, LIST_ATTRIBUTE_ORDER, LIST_ATTRIBUTES,
                                   LIST_ORDER)
from larp.grapevine.kept import arranged
from larp.rules.experience import Line, points_text, running_totals

#: Grapevine's encoding (real-data README): Windows-1252, which our export declares (module docstring).
ENCODING = "cp1252"
DECLARATION = '<?xml version="1.0" encoding="windows-1252"?>'
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;",
                          "\t": "&#9;"})


#: What XML 1.0 cannot hold, even as a character reference (control characters, lone surrogates):
#: left out of what is written, so the file always reads back.
_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("", str(text))


def _element_xml(text: str) -> str | None:
    """A kept element (XML text) as it is safe to write: parsed again with defusedxml (a chronicle
    export may hold anything there), ``None`` when it is not one well-formed element."""
    try:
        element = SafeET.fromstring(_clean(text))
    except (ET.ParseError, ValueError, DefusedXmlException):
        return None
    element.tail = None
    return ET.tostring(element, encoding="unicode")


def write_grapevine(characters: Iterable[GrapevineCharacter], standard_track: Sequence[str]) -> bytes:
    """A Grapevine 3 exchange file holding ``characters`` (each with a sheet).

    Args:
        characters: what to write; ``play_status``, ``last_modified``, ``kept`` and ``experience``
            are written as Grapevine's status, last-modified date, the data kept from an import and
            the experience history.
        standard_track: the chronicle's health levels, written as the chart of a sheet without its own
            (with Mettle's Healthy box where the sheet has Fortitude: Mettle, met-reference 3.5).

    Raises:
        ValueError: a character without a sheet.
    """
    lines = [DECLARATION, '<grapevine version="3">']
    for character in characters:
        if character.sheet is None:
            raise ValueError(f"{character.name} has no sheet to write.")
        lines.extend(_character_lines(character, tuple(standard_track)))
    lines.append("</grapevine>")
    return ("\r\n".join(lines) + "\r\n").encode(ENCODING, errors="xmlcharrefreplace")


def _attribute_text(attributes: dict[str, str]) -> str:
    # A kept attribute's name that is no XML name (a chronicle export may hold anything) is not written.
    return "".join(f' {key}="{_clean(value).translate(_ESCAPES)}"' for key, value in attributes.items()
                   if _XML_NAME.fullmatch(key))


def _tag(indent: int, name: str, attributes: dict[str, str], empty: bool) -> str:
    return f"{'  ' * indent}<{name}{_attribute_text(attributes)}{'/' if empty else ''}>"


_LITERAL_REFERENCE = re.compile(r"&(?=#(?:x[0-9A-Fa-f]{1,6}|[0-9]{1,7});)")


def _outside_cp1252(text: str) -> str:
    """``text`` for a CDATA section: each character Windows-1252 cannot hold as a character reference,
    and the ``&`` of a literal reference as ``&#38;`` so that the reader does not decode it."""
    text = _LITERAL_REFERENCE.sub("&#38;", text)
    try:
        text.encode(ENCODING)
        return text
    except UnicodeEncodeError:
        return "".join(ch if _fits(ch) else f"&#{ord(ch)};" for ch in text)


def _fits(ch: str) -> bool:
    try:
        ch.encode(ENCODING)
        return True
    except UnicodeEncodeError:
        return False


def _cdata(indent: int, name: str, text: str) -> list[str]:
    # Grapevine writes CRLF inside CDATA too (the NPC library); XML reads either back as one line end.
    body = _clean(text).replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")
    body = _outside_cp1252(body).replace("]]>", "]]]]><![CDATA[>")
    return [f"{'  ' * indent}<{name}>", f"{'  ' * (indent + 1)}<![CDATA[{body}]]>", f"{'  ' * indent}</{name}>"]


def record_attributes(character: GrapevineCharacter, element: str) -> dict[str, str]:
    """The character element's attributes, in Grapevine's order: the sheet's, the play status, the
    last-modified date, and the attributes kept from an import (in their own order, before the date)."""
    sheet = character.sheet
    kept = character.kept or {}
    out: dict[str, str] = {"name": sheet.name}
    for key, value in (("nature", sheet.nature), ("demeanor", sheet.demeanor)):
        if value:
            out[key] = value
    if element == "vampire":
        clan = "Ghoul" if sheet.creature == "ghoul" else sheet.clan
        for key, value in (("clan", clan), ("sect", sheet.sect)):
            if value:
                out[key] = value
        if sheet.creature == "ghoul" and sheet.clan:
            out["larpclan"] = sheet.clan  # Grapevine's ghoul has no place for it (larp.grapevine.format)
        if sheet.generation is not None:
            out["generation"] = str(sheet.generation)
        if sheet.title:
            out["title"] = sheet.title
    else:
        for key, value in (("association", sheet.clan), ("sect", sheet.sect), ("title", sheet.title)):
            if value:
                out[key] = value
    pools = {"blood": sheet.blood_max, "tempblood": sheet.blood_current,
             "willpower": sheet.willpower_permanent, "tempwillpower": sheet.willpower_current}
    for key in ("blood", "willpower"):
        out[key] = str(pools[key])
        current = pools[f"temp{key}"]
        if current is not None and current != pools[key]:
            out[f"temp{key}"] = str(current)
    lists = sheet_lists()
    for attribute, names in zip(("conscience", "selfcontrol", "courage"),
                                zip(lists.humanity_virtues, lists.path_virtues)):
        rating = next((sheet.virtues[name] for name in names if name in sheet.virtues), None)
        if rating is not None:
            out[attribute] = str(rating)
    if element == "vampire":
        out["path"] = sheet.morality_name or "Humanity"
        out["pathtraits"] = str(sheet.morality_rating)
    else:
        out["humanity"] = str(sheet.morality_rating)
    if sheet.player_name:
        out["player"] = sheet.player_name
    if character.play_status:
        out["status"] = character.play_status
    for key, value in (kept.get("attributes") or {}).items():
        out.setdefault(key, value)
    if character.last_modified is not None:
        out["lastmodified"] = format_grapevine_date(character.last_modified)
    for key, used in (kept.get("absent") or {}).items():
        if out.get(key) == used:
            del out[key]  # not in the file, and unchanged since: not written as a fact of it
    order = {key: index for index, key in enumerate(ATTRIBUTE_ORDER[element])}
    unknown = len(order) - 1.5  # attributes Grapevine users' tools added: before lastmodified
    return dict(sorted(out.items(), key=lambda item: order.get(item[0], unknown)))


def _character_lines(character: GrapevineCharacter, track: tuple[str, ...]) -> list[str]:
    sheet, kept = character.sheet, character.kept or {}
    element = element_of(sheet.creature, kept)
    lines = [_tag(1, element, record_attributes(character, element), empty=False)]
    lines.extend(_experience_lines(character))
    entries = sheet_entries(sheet, element, track, kept.get("health_states"))
    kept_lists = kept.get("lists") or {}
    order = list(kept.get("list_order") or LIST_ORDER[element])
    for name in [*entries, *kept_lists]:
        if name not in order and not (name == "Health Levels" and kept.get("list_order") and not sheet.health_levels):
            order.append(name)
    if "Health Levels" in (kept.get("absent") or {}) and not sheet.health_levels:
        entries.pop("Health Levels", None)  # the file had no chart: the chronicle's is not written as his
        order = [name for name in order if name != "Health Levels" or kept_lists.get(name)]
    for name in order:
        written = [entry for _, entry in arranged(name, entries.get(name, []), kept_lists.get(name, []), kept)]
        attributes = {"name": name, **((kept.get("list_attributes") or {}).get(name) or LIST_ATTRIBUTES.get(name, {}))}
        ordered = {k: attributes[k] for k in LIST_ATTRIBUTE_ORDER if k in attributes}
        ordered.update({k: v for k, v in attributes.items() if k not in ordered})
        if not written:
            lines.append(_tag(2, "traitlist", ordered, empty=True))
            continue
        lines.append(_tag(2, "traitlist", ordered, empty=False))
        lines.extend(_tag(3, "trait", item, empty=True) for item in written)
        lines.append("    </traitlist>")
    for boon in kept.get("boons") or []:
        lines.append(_tag(2, "boon", boon.get("attributes") or {}, empty=False))
        lines.extend(_cdata(3, "description", boon.get("description") or ""))
        lines.append("    </boon>")
    lines.extend(f"    {xml}" for xml in map(_element_xml, kept.get("elements") or []) if xml is not None)
    if kept.get("biography"):
        lines.extend(_cdata(2, "biography", kept["biography"]))
    if sheet.notes:
        lines.extend(_cdata(2, "notes", sheet.notes))
    lines.append(f"  </{element}>")
    return lines


def _experience_lines(character: GrapevineCharacter) -> list[str]:
    """``<experience unspent earned>`` with one ``<entry>`` per line of the history, each its own type
    (a "set earned" stays type 2) and its exact points, and the running totals as Grapevine runs them
    (:func:`larp.rules.experience.running_totals`)."""
    lines = list(character.experience)
    after = running_totals(Line(x.kind, x.amount) for x in lines)
    entries = [_tag(3, "entry", {"date": format_grapevine_date(line.date), "change": points_text(line.amount),
                                 "type": str(EXPERIENCE_TYPES[line.kind]), "reason": line.what,
                                 "earned": points_text(earned), "unspent": points_text(unspent)}, empty=True)
               for line, (earned, unspent) in zip(lines, after)]
    earned, unspent = after[-1] if after else (0, 0)
    totals = {"unspent": points_text(unspent), "earned": points_text(earned)}
    if not entries:
        return [_tag(2, "experience", totals, empty=True)]
    return [_tag(2, "experience", totals, empty=False), *entries, "    </experience>"]
