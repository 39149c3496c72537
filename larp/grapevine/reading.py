"""Reading a Grapevine file's XML: bytes in, the ``<grapevine>`` element out, or one clear error.

Pure: no files, no clock, no database. The XML is read by defusedxml, which refuses any DTD,
entity or external reference (Grapevine never writes one; stack-notes 7.3), so no file can
expand into more text than it holds; elements nested deeper than :data:`MAX_DEPTH` and files
larger than the caller's limit are refused too (issue 19). For XML that is not well-formed the
message names where the parser stopped and the element left open there (with its line), which
is usually many lines earlier: a ``<trait>`` without its slash is only noticed at the
``</traitlist>`` that follows it.
"""

from __future__ import annotations

import codecs
import re
import xml.etree.ElementTree as ET  # the tree's types only: parsing goes through defusedxml

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from larp.grapevine.characters import GrapevineError
from larp.rules.explain import plural

#: The largest file read (bytes): a Grapevine file of 1,000 characters is about 4.5 MB.
MAX_FILE_BYTES = 16 * 1024 * 1024
#: How deep elements may nest: Grapevine writes at most 4 levels (grapevine, character,
#: traitlist, trait) and a few more inside experience and boons.
MAX_DEPTH = 16

_DECLARED = re.compile(rb"<\?xml[^>]*?\bencoding\s*=\s*[\"']([A-Za-z0-9._-]{1,40})[\"']")
BINARY_MAGIC = {b"\x04\x00GVBE": "exchange", b"\x04\x00GVBG": "game"}
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def read_xml(data: bytes, label: str, max_bytes: int = MAX_FILE_BYTES) -> tuple[ET.Element, str, list[str]]:
    """The root element of a Grapevine file, the encoding it was read in, and file-level problems.

    Args:
        data: the file's bytes (UTF-8, or Windows-1252 as Grapevine writes it, or UTF-16).
        label: the file's name for messages ("the file" when unnamed).
        max_bytes: the largest file read, in bytes.

    Raises:
        GrapevineError: the binary Grapevine format (re-save as XML), XML that is not
            well-formed (naming where it stopped and the element left open), XML that is not a
            Grapevine file, a DTD or entity, nesting deeper than :data:`MAX_DEPTH`, or a file
            larger than ``max_bytes``.
    """
    if len(data) > max_bytes:
        raise GrapevineError(f"{label} is {len(data) / 1048576:.1f} MB; at most {max_bytes / 1048576:.0f} MB is "
                             "read. A Grapevine file of a thousand characters is about 5 MB: is it the right file?")
    if not data.strip():
        raise GrapevineError(f"{label} is empty.")
    for magic, kind in BINARY_MAGIC.items():
        if data.startswith(magic):
            raise GrapevineError(
                f"{label} is a Grapevine {kind} file in Grapevine's binary format, which cannot be read "
                "here. Open it in Grapevine and save it again as XML (File > Save As, "
                "format XML), then import that file."
            )
    text, encoding = decode(data)
    problems: list[str] = []
    cleaned, removed = _CONTROL_CHARS.subn("", decode_cdata_references(text))
    if removed:
        problems.append(f"{plural(removed, 'control character')} removed: XML does not allow them.")
    try:
        root = SafeET.fromstring(cleaned, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise GrapevineError(f"{label} declares a DOCTYPE or entities; Grapevine never writes them, so the "
                             "file is not read. Re-save it from Grapevine.") from None
    except ET.ParseError as exc:
        line, column = exc.position
        reason = str(exc).split(":")[0]
        raise GrapevineError(
            f"{label} is not well-formed XML: {reason} at line {line}, column {column + 1}."
            f"{where_it_broke(cleaned, line, column, reason)} "
            "Re-save it from Grapevine, or mend the file at that place."
        ) from None
    if _depth(root) > MAX_DEPTH:
        raise GrapevineError(f"{label} nests elements more than {MAX_DEPTH} deep; Grapevine never does, so it "
                             "is not read.")
    if root.tag == "grapevinemenus":
        raise GrapevineError(f"{label} is a Grapevine menu file, not a file of characters.")
    if root.tag != "grapevine":
        raise GrapevineError(
            f"{label} is XML but not a Grapevine file (its root element is <{root.tag}>, "
            "Grapevine's is <grapevine>)."
        )
    if root.get("version", "3") != "3":
        problems.append(f"Grapevine version {root.get('version')!r}; read as version 3.")
    return root, encoding, problems


_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.S)
_REFERENCE = re.compile(r"&#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}));")


def _character(match: re.Match) -> str:
    code = int(match.group(1), 16) if match.group(1) else int(match.group(2))
    if code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF:
        return chr(code)
    return match.group(0)  # no character XML may hold: left as written


def decode_cdata_references(text: str) -> str:
    """``text`` with the numeric character references inside its CDATA sections (notes, biography,
    boons) decoded, as an XML reader decodes them everywhere else.

    Grapevine writes in Windows-1252; a character it cannot hold (→, Ж, an emoji) can only travel
    as ``&#8594;``, and inside CDATA no XML reader decodes that. Our export writes such characters
    there as references (and a literal ``&#`` that would read as one as ``&#38;#``), so an import
    gives back the text that was exported (issue 27)."""
    if "&#" not in text:
        return text
    return _CDATA.sub(lambda m: "<![CDATA[" + _REFERENCE.sub(_character, m.group(1)) + "]]>", text)


def decode(data: bytes) -> tuple[str, str]:
    """``data`` as text and the encoding it was read in (UTF-16 by its mark or its zero bytes, the
    encoding its XML declaration names, UTF-8, else Grapevine's Windows-1252, else Latin-1, which
    reads every byte)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # re-saved as "Unicode" by a text editor
        return data.decode("utf-16", errors="replace"), "utf-16"
    if len(data) > 1 and (data[0] == 0) != (data[1] == 0):  # "<\0?\0" or "\0<\0?": UTF-16 without its mark
        return data.decode("utf-16-be" if data[0] == 0 else "utf-16-le", errors="replace"), "utf-16"
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    declared = _DECLARED.match(data)
    if declared:  # our export names windows-1252 (Grapevine ignores the declaration: it reads its own code page)
        try:
            codec = codecs.lookup(declared.group(1).decode("ascii")).name
            if codec != "utf-8":
                return data.decode(codec), "cp1252" if codec == "cp1252" else codec
        except (LookupError, UnicodeDecodeError):
            pass  # an unknown or wrong declaration: read as an undeclared file
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        # cp1252 leaves five bytes undefined; Latin-1 reads every byte.
        return data.decode("latin-1"), "latin-1"


# A tag, comment, CDATA section, processing instruction or declaration (attribute values may hold ">").
_MARKUP = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<![^>]*>"
    r"|</\s*([^\s>]+)\s*>"
    r"|<([^\s/>!?]+)((?:[^>\"']|\"[^\"]*\"|'[^']*')*?)(/?)>",
    re.S,
)
_NAME_ATTRIBUTE = re.compile(r"\bname\s*=\s*(\"[^\"]*\"|'[^']*')")


def where_it_broke(text: str, line: int, column: int, reason: str) -> str:
    """A sentence naming the element left open where parsing stopped (at ``line``, 1-based, and
    ``column``, 0-based, as expat reports), with the line it was opened on and the character it
    belongs to; "" when nothing was open.

    Everything before the stopping place is well-formed (the parser would have stopped earlier),
    so the open elements there are found by following the tags up to it.
    """
    lines = text.split("\n")
    offset = sum(len(x) + 1 for x in lines[:line - 1]) + column
    stack: list[tuple[str, int, str]] = []  # tag, line, name attribute
    line_at, counted = 1, 0
    for match in _MARKUP.finditer(text, 0, max(offset, 0)):
        if match.end() > offset:
            break
        line_at += text.count("\n", counted, match.start())
        counted = match.start()
        closing, opening, attributes, empty = match.groups()
        if closing:
            while stack and stack.pop()[0] != closing:
                pass
        elif opening and not empty:
            name = _NAME_ATTRIBUTE.search(attributes or "")
            stack.append((opening, line_at, name.group(1)[1:-1] if name else ""))
    if not stack:
        return ""
    tag, opened, name = stack[-1]
    shown = f'<{tag} name="{name}">' if name else f"<{tag}>"
    record = next(((t, n, o) for t, o, n in stack[1:-1] if n), None) if len(stack) > 2 else None
    inside = f' (in <{record[0]} name="{record[1]}"> of line {record[2]})' if record else ""
    found = re.match(r"</\s*([^\s>]+)", text[offset:offset + 200])
    if reason == "mismatched tag" and found:
        return f" The {shown} opened at line {opened}{inside} is never closed: </{found.group(1)}> came first."
    if reason in ("no element found", "unclosed token"):
        return f" The file ends inside the {shown} opened at line {opened}{inside}: it is never closed."
    return f" It is inside the {shown} opened at line {opened}{inside}."


def _depth(root: ET.Element) -> int:
    """How deep elements nest under ``root`` (``root`` alone is 1), without recursion."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        element, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in element)
    return deepest


def text_of(element: ET.Element | None) -> str:
    """An element's text (CDATA included), stripped; "" for no element."""
    if element is None:
        return ""
    return "".join(element.itertext()).strip()
