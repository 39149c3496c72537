"""Grapevine 3 import: an XML exchange (``.gex``) or game (``.gv3``) file in,
one :class:`~larp.sheet.CharacterSheet` per vampire, ghoul and mortal out.

Pure: bytes in, plain data out (no files, no clock, no database). Every
record is imported on its own: a record that cannot be read is reported and
the others still arrive. What a record holds that the importer did not
understand is listed in its ``problems``; what it understood but the sheet
has no place for yet is listed in its ``left_out``.

The format, as Grapevine 3.0 writes it (see ``../shared/real-data/README.md``):

- a ``<grapevine version="3">`` root holding one element per character, named
  after its creature (``vampire``, ``mortal``, ``werewolf``...), and in a game
  file also ``<player>`` records with the players' contact details;
- scalar values as attributes of the character (``generation``, ``blood`` and
  ``tempblood``, ``willpower`` and ``tempwillpower``, ``path`` and
  ``pathtraits``); a missing ``temp*`` attribute means "equal to permanent";
- everything else as ``<traitlist name="...">`` of ``<trait name val note>``,
  where ``val`` is a count in the Trait and Ability lists, an experience cost
  in Disciplines and Rituals, a cost in Merits and Flaws and a number of boxes
  in Health Levels; a trait without ``val`` counts 1;
- a vampire's Discipline powers as ``Discipline: Power`` (or
  ``Discipline: Path: Power``) in the ``Disciplines`` list, a ghoul's in the
  mortal's ``Numina`` list; Grapevine adds the power's tier as its note
  (``basic``, ``int.``, ``adv.``, ``elder``...). Older sheets put a level in
  the name instead (``Celerity: Level II: Rapidity``, ``Auspex: 3: Telepathy``).

A power's level (its place in its Discipline, 1 to 9) comes first from the
LotNR order in ``data/disciplines.toml``; failing that from a level number in
its name; failing that from its tier (name, note, or for a known Discipline
its experience cost), Basic and Intermediate powers taking the tier's free
levels in list order, which is reported as an assumption. A power with no
level to be found is left out and reported.

Not mapped yet, and why (each is listed per character in ``left_out`` when
the record has it):

- Nature, Demeanor, sire, coterie, aura, Grapevine id: no field on the
  sheet; no rule in this tool reads them.
- Virtues (Conscience/Conviction, Self-Control/Instinct, Courage): no rule in
  the seeds uses them (frenzy and Rotschreck are out of scope).
- Status, Influences, Backgrounds, Bonds, Miscellaneous, Beast Traits, a
  mortal's Humanity Traits, Merits, Flaws, Derangements, Rituals, Equipment,
  Locations: the sheet has no place for them yet; Merits, Flaws and
  Derangements change challenges and deserve their own model, Equipment
  should map onto the weapons and armor tables.
- Notes on Traits and Abilities (Ability specialisations such as "Firearms:
  Rifles", Trait notes such as "Quick (D)"): TraitEntry and the Ability map
  hold a name and a count only.
- Experience (totals and history), boons, biography, start date, the
  record's ``physicalmax`` and temporary Virtues: bookkeeping the tool does
  not keep; the biography is not character notes.
- Discipline powers with no level to be had (clan combination powers such
  as "Anarch: Give 'em Hell", "Combination Disciplines: Iron Heart"): a
  PowerEntry needs a level; they are reported, not imported.
- A ghoul's association (domitor's clan) and a mortal's True Faith: no field.
- Play status, NPC flag and last-modified date: returned on
  :class:`GrapevineCharacter` for the caller (the service decides what an
  "Inactive" or "Destroyed" record becomes), not on the sheet.
- Players' contact details: only with ``include_contact=True``, then into
  ``player_contact``. The chronicle's own e-mail and phone are never read.
- Other creatures (werewolf, mage, changeling, wraith, mummy, kuei-jin,
  fera, hunter, demon, various): the rules here are for vampires, ghouls
  and mortals; they are reported as skipped, not failed.
- The binary Grapevine format: refused with a request to re-save as XML.
"""

from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as ET  # the tree's types only: parsing goes through defusedxml
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from larp.rules.explain import RulesError
from larp.rules.health import live_levels
from larp.rules.numbers import NumberError, decimal_number, whole_number
from larp.rules.settings import ChronicleSettings
from larp.sheet import CharacterSheet, PowerEntry, TraitEntry
from larp.sheet_checks import known_power
from larp.tables import DisciplineRow, discipline_table, generation_row

#: The largest file read (bytes): a Grapevine file of 1,000 characters is about 4.5 MB.
MAX_FILE_BYTES = 16 * 1024 * 1024
#: How deep elements may nest: Grapevine writes at most 4 levels (grapevine, character,
#: traitlist, trait) and a few more inside experience and boons.
MAX_DEPTH = 16

BINARY_MAGIC = {b"\x04\x00GVBE": "exchange", b"\x04\x00GVBG": "game"}

#: Grapevine's creature elements (Grapevine 3.0 writes these twelve).
CREATURE_ELEMENTS = (
    "vampire", "mortal", "werewolf", "mage", "changeling", "wraith",
    "mummy", "kueijin", "fera", "hunter", "demon", "various",
)
_CREATURE_LABELS = {"kueijin": "kuei-jin"}

_ADJECTIVE_LISTS = {"Physical": "physical", "Social": "social", "Mental": "mental"}
_NEGATIVE_LISTS = {"Negative Physical": "physical", "Negative Social": "social", "Negative Mental": "mental"}
#: Lists the importer understands but the sheet has no place for yet.
_LEFT_OUT_LISTS = (
    "Status", "Influences", "Backgrounds", "Bonds", "Miscellaneous", "Beast Traits", "Humanity",
    "Merits", "Flaws", "Derangements", "Rituals", "Equipment", "Locations", "Location",
)
#: Grapevine's automatic notes on adjective Traits (the tabletop attribute they belong to).
_ATTRIBUTE_NOTES = {"str", "dex", "sta", "cha", "man", "app", "per", "int", "wits", "misc"}
#: Health chart entries that are states after the last box, not boxes.
_HEALTH_STATES = {"torpor", "mortally wounded", "dead", "destroyed", "dissipated"}

_TIER_LEVELS = {
    "basic": (1, 2), "intermediate": (3, 4), "advanced": (5,),
    "elder": (6,), "master": (7,), "ascendant": (8,), "methuselah": (9,),
    # "Master:" in older sheets means any power past Advanced.
    "past advanced": (6,),
}
_TIER_WORDS = {
    "basic": "basic", "int": "intermediate", "intermediate": "intermediate",
    "adv": "advanced", "advanced": "advanced", "elder": "elder", "master": "master",
    "asc": "ascendant", "ascendant": "ascendant", "meth": "methuselah", "methuselah": "methuselah",
}
_TIER_COSTS = {3: "basic", 6: "intermediate", 9: "advanced", 12: "elder", 15: "master",
               18: "ascendant", 21: "methuselah"}
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9}
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


class GrapevineError(RulesError):
    """The file as a whole cannot be read: binary format, not well-formed XML,
    or not a Grapevine file. The message says what to do, for the organiser;
    ``field`` is ``"file"`` (the upload at fault)."""

    def __init__(self, message: str, field: str | None = "file"):
        super().__init__(message, field)


@dataclass(frozen=True)
class GrapevineCharacter:
    """One character record of a Grapevine file, as imported.

    Attributes:
        name: the character's name.
        creature: ``"vampire"``, ``"ghoul"`` or ``"mortal"`` when imported;
            Grapevine's creature (``"werewolf"``...) when skipped.
        sheet: the imported sheet, ``None`` when skipped or failed.
        problems: what was not understood, one sentence each.
        left_out: what was understood but not imported (no place on the sheet).
        skipped: why the record was not imported ("werewolf: skipped, ..."), else "".
        error: why the record could not be read at all, else "".
        play_status: Grapevine's status ("Active", "Torpor", "Destroyed"...).
        npc: Grapevine's NPC flag.
        last_modified: the record's last change, ``None`` if absent or unreadable.
    """

    name: str
    creature: str
    sheet: CharacterSheet | None
    problems: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
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

    The XML is read by defusedxml, which refuses any DTD, entity or external reference
    (Grapevine never writes one; stack-notes 7.3), so no file can expand into more text than it
    holds; elements nested deeper than :data:`MAX_DEPTH` are refused too. Each field's length is
    checked against what the database stores by the import service.

    Returns:
        A :class:`GrapevineFile` with one :class:`GrapevineCharacter` per record.

    Raises:
        GrapevineError: the binary Grapevine format (re-save as XML), XML that
            is not well-formed (the message names line and column), XML
            that is not a Grapevine file, a DTD or entity, nesting deeper than
            :data:`MAX_DEPTH`, or a file larger than ``max_bytes``.
    """
    label = filename or "the file"
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
    text, encoding = _decode(data)
    file_problems: list[str] = []
    cleaned, removed = _CONTROL_CHARS.subn("", text)
    if removed:
        file_problems.append(f"{removed} control character(s) that XML does not allow were removed.")
    try:
        root = SafeET.fromstring(cleaned, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise GrapevineError(f"{label} declares a DOCTYPE or entities; Grapevine never writes them, so the "
                             "file is not read. Re-save it from Grapevine.") from None
    except ET.ParseError as exc:
        line, column = exc.position
        reason = str(exc).split(":")[0]
        raise GrapevineError(
            f"{label} is not well-formed XML: {reason} at line {line}, column {column + 1}. "
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
        file_problems.append(f"Grapevine version {root.get('version')!r}; read as version 3.")

    track = tuple(standard_track) if standard_track is not None else live_levels(ChronicleSettings.defaults())
    players = _player_contacts(root)
    characters: list[GrapevineCharacter] = []
    others: dict[str, int] = {}
    for element in root:
        if element.tag in CREATURE_ELEMENTS:
            characters.append(_read_record(element, players, include_contact, track))
        elif isinstance(element.tag, str):
            others[element.tag] = others.get(element.tag, 0) + 1
    left_out = tuple(f"{tag} x{count}" for tag, count in others.items())
    return GrapevineFile(filename, encoding, tuple(characters), tuple(file_problems), left_out)


def parse_grapevine_date(text: str) -> datetime | None:
    """Read a Grapevine date leniently; ``None`` when it cannot be read.

    Grapevine writes dates in the exporting computer's locale: ``8/2/2007``,
    ``8/2/2007 8:20:11 AM``, ``27/01/2008 18:21:12`` and odd mixtures such as
    ``18:21:12 PM``. Month/day/year is tried first (Grapevine's home locale),
    day/month/year when the first number cannot be a month. A time that
    cannot be read is dropped, keeping the date.
    """
    match = re.match(r"\s*(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})(.*)$", text or "")
    if not match:
        return None
    a, b, c = (int(g) for g in match.groups()[:3])
    if a > 31:  # year first (ISO-like)
        year, month, day = a, b, c
    else:
        year = c + (2000 if c < 50 else 1900) if c < 100 else c
        month, day = (a, b) if a <= 12 else (b, a)
    try:
        date = datetime(year, month, day)
    except ValueError:
        try:
            date = datetime(year, day, month)
        except ValueError:
            return None
    clock = re.match(r"\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?", match.group(4))
    if clock:
        hour, minute, second = int(clock.group(1)), int(clock.group(2)), int(clock.group(3) or 0)
        meridiem = (clock.group(4) or "").lower()
        if meridiem == "pm" and hour < 12:
            hour += 12
        elif meridiem == "am" and hour == 12:
            hour = 0
        if hour < 24 and minute < 60 and second < 60:
            date = date.replace(hour=hour, minute=minute, second=second)
    return date


# --- file level ---------------------------------------------------------------------------


def _decode(data: bytes) -> tuple[str, str]:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # re-saved as "Unicode" by a text editor
        return data.decode("utf-16", errors="replace"), "utf-16"
    if len(data) > 1 and (data[0] == 0) != (data[1] == 0):  # "<\0?\0" or "\0<\0?": UTF-16 without its mark
        return data.decode("utf-16-be" if data[0] == 0 else "utf-16-le", errors="replace"), "utf-16"
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        # cp1252 leaves five bytes undefined; Latin-1 reads every byte.
        return data.decode("latin-1"), "latin-1"


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


def _player_contacts(root: ET.Element) -> dict[str, str]:
    contacts: dict[str, str] = {}
    for player in root.findall("player"):
        parts = []
        for key in ("email", "phone"):
            if (player.get(key) or "").strip():
                parts.append(f"{key}: {player.get(key).strip()}")
        address = _text(player.find("address"))
        if address:
            parts.append(f"address: {address}")
        contacts[(player.get("name") or "").strip()] = "; ".join(parts)
    return contacts


def _whole(raw: str) -> int | None:
    """A Grapevine value read as a whole number (the app's one number reader), ``None`` if it is not one."""
    try:
        return whole_number(raw, "val", default=None)
    except NumberError:
        return None


def _text(element: ET.Element | None) -> str:
    if element is None:
        return ""
    return "".join(element.itertext()).strip()


# --- one record ---------------------------------------------------------------------------


@dataclass
class _Record:
    """Working state while one record is read: the sheet and what was reported."""

    element: ET.Element
    sheet: CharacterSheet
    problems: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)

    def number(self, attribute: str, default: int | None = 0) -> int | None:
        """A whole-number attribute; missing gives ``default``, unreadable is reported."""
        raw = self.element.get(attribute)
        if raw is None or not raw.strip():
            return default
        kept = "left empty" if default is None else f"read as {default}"
        value = _whole(raw)
        if value is None:
            try:  # Grapevine sometimes writes "5.0"
                value = int(decimal_number(raw, attribute))
            except NumberError:
                self.problems.append(f"{attribute} {raw!r} is not a number; {kept}.")
                return default
        if value < 0:
            self.problems.append(f"{attribute} {raw!r} is negative; {kept}.")
            return default
        return value


def _read_record(
    element: ET.Element, players: dict[str, str], include_contact: bool, track: tuple[str, ...]
) -> GrapevineCharacter:
    name = (element.get("name") or "").strip()
    creature = _CREATURE_LABELS.get(element.tag, element.tag)
    meta = {
        "play_status": (element.get("status") or "").strip(),
        "npc": (element.get("npc") or "").strip().lower() == "yes",
        "last_modified": parse_grapevine_date(element.get("lastmodified") or ""),
    }
    if element.tag not in ("vampire", "mortal"):
        return GrapevineCharacter(
            name or "(no name)", creature, None,
            skipped=f"{creature}: skipped, only vampires, ghouls and mortals are imported", **meta,
        )
    try:
        record = _Record(element, CharacterSheet(name=name or "(no name)"))
        if not name:
            record.problems.append("The record has no name; imported as '(no name)'.")
        if element.get("lastmodified") and meta["last_modified"] is None:
            record.problems.append(f"Last-modified date {element.get('lastmodified')!r} not understood.")
        _read_identity(record, players, include_contact)
        lists: dict[str, list[ET.Element]] = {}
        for traitlist in element.findall("traitlist"):
            lists.setdefault(traitlist.get("name") or "", []).extend(traitlist.findall("trait"))
        _read_traits(record, lists)
        _read_abilities(record, lists.pop("Abilities", []))
        power_list = "Disciplines" if element.tag == "vampire" else "Numina"
        _read_powers(record, power_list, lists.pop(power_list, []), only_known=element.tag == "mortal")
        if record.sheet.creature == "mortal" and record.sheet.powers:
            record.sheet.creature = "ghoul"
            record.problems.append("Imported as a ghoul: the mortal has Discipline powers.")
        _read_health(record, lists.pop("Health Levels", []), track)
        _report_other_lists(record, lists)
        record.sheet.fill_defaults()  # the generation's pool first, so the checks compare real numbers
        _check_pools(record)
    except Exception as exc:  # one bad record must not stop the file
        return GrapevineCharacter(name or "(no name)", creature, None, error=f"{type(exc).__name__}: {exc}", **meta)
    sheet = record.sheet
    return GrapevineCharacter(
        sheet.name, sheet.creature, sheet, tuple(record.problems), tuple(record.left_out), **meta
    )


def _read_identity(record: _Record, players: dict[str, str], include_contact: bool) -> None:
    element, sheet = record.element, record.sheet
    sheet.player_name = (element.get("player") or "").strip()
    if include_contact and sheet.player_name:
        sheet.player_contact = players.get(sheet.player_name, "")
    sheet.sect = (element.get("sect") or "").strip()
    sheet.title = (element.get("title") or "").strip()
    sheet.notes = _text(element.find("notes"))
    narrator = (element.get("narrator") or "").strip()
    if narrator:
        sheet.narrator_notes = f"Narrator: {narrator}"
    sheet.willpower_permanent = record.number("willpower") or 0
    sheet.willpower_current = record.number("tempwillpower", None)
    if element.tag == "vampire":
        clan = (element.get("clan") or "").strip()
        if clan.lower() == "ghoul":
            sheet.creature = "ghoul"
        else:
            sheet.clan = clan
            generation = record.number("generation", None)
            if generation is not None and not 1 <= generation <= 15:
                record.problems.append(f"Generation {generation} not understood; left empty.")
                generation = None
            sheet.generation = generation
        sheet.morality_name = (element.get("path") or "").strip() or "Humanity"
        sheet.morality_rating = record.number("pathtraits") or 0
    blood = record.number("blood") or 0
    if element.tag == "mortal":
        association = (element.get("association") or "").strip()
        if "ghoul" in association.lower():
            sheet.creature = "ghoul"
        elif blood > 0:
            sheet.creature = "ghoul"
            record.problems.append(f"Imported as a ghoul: the mortal holds {blood} blood points.")
        else:
            sheet.creature = "mortal"
        if association:
            record.left_out.append(f"Association: {association}")
        sheet.morality_name = "Humanity"
        sheet.morality_rating = record.number("humanity") or 0
    sheet.blood_max = blood
    sheet.blood_current = record.number("tempblood", None)
    if sheet.creature == "vampire" and sheet.generation is None and not element.get("generation"):
        record.problems.append("No generation given.")
    details = [f"{label} {element.get(attr).strip()}" for attr, label in (
        ("nature", "Nature"), ("demeanor", "Demeanor"), ("sire", "Sire"), ("coterie", "Coterie"),
        ("aura", "Aura"), ("id", "Grapevine id"),
    ) if (element.get(attr) or "").strip()]
    if details:
        record.left_out.append("; ".join(details))
    virtues = [f"{label} {element.get(attr)}" for attr, label in (
        ("conscience", "Conscience/Conviction"), ("selfcontrol", "Self-Control/Instinct"), ("courage", "Courage"),
    ) if element.get(attr) is not None]
    if virtues:
        record.left_out.append("Virtues: " + ", ".join(virtues))
    experience = element.find("experience")
    entries = len(experience.findall("entry")) if experience is not None else 0
    if experience is not None and (
        entries or (experience.get("earned") or "0") != "0" or (experience.get("unspent") or "0") != "0"
    ):
        record.left_out.append(
            f"Experience: {experience.get('unspent', '0')} unspent, {experience.get('earned', '0')} earned"
            + (f", {entries} history entries" if entries else "")
        )
    biography = _text(element.find("biography"))
    if biography:
        record.left_out.append(f"Biography ({len(biography)} characters)")
    boons = element.findall("boon")
    if boons:
        record.left_out.append(f"Boons x{len(boons)}")


# --- Traits and Abilities -----------------------------------------------------------------


def _count(record: _Record, list_name: str, trait: ET.Element) -> int:
    raw = (trait.get("val") or "").strip()
    if not raw:
        return 1
    count = _whole(raw)
    if count is not None and count >= 1:
        if count > MOST_TRAITS:
            record.problems.append(f"{list_name}: {trait.get('name')!r} has the count {raw}, more than any "
                                   f"generation allows; counted as {MOST_TRAITS}.")
            return MOST_TRAITS
        return count
    record.problems.append(f"{list_name}: {trait.get('name')!r} has the count {raw!r}; counted as 1.")
    return 1


def _split_parenthesis(name: str) -> tuple[str, str]:
    """``"Quick (D)"`` -> ``("Quick", "D")``; a name without a closing parenthesis is kept whole."""
    match = re.fullmatch(r"(.*?)\s*\(([^()]*)\)\s*", name)
    if match and match.group(1):
        return match.group(1).strip(), match.group(2).strip()
    return name, ""


def _split_trait_name(name: str) -> tuple[str, str]:
    """``"Quick (D)"`` -> ``("Quick", "D")``; ``"Dex: Graceful"`` -> ``("Graceful", "Dex")``."""
    name, note = _split_parenthesis(name)
    if ":" in name:
        prefix, _, rest = name.rpartition(":")
        if rest.strip():
            name, note = rest, ", ".join(x for x in (prefix.strip(), note) if x)
    return name.strip(), note.strip()


def _read_traits(record: _Record, lists: dict[str, list[ET.Element]]) -> None:
    for list_name, category in list(_ADJECTIVE_LISTS.items()) + list(_NEGATIVE_LISTS.items()):
        target = record.sheet.negative_traits if list_name in _NEGATIVE_LISTS else record.sheet.traits
        entries: dict[str, TraitEntry] = {}
        stripped, dropped = [], []
        for trait in lists.pop(list_name, []):
            raw = (trait.get("name") or "").strip()
            if not raw:
                record.problems.append(f"{list_name}: a Trait without a name was left out.")
                continue
            name, name_note = _split_trait_name(raw)
            if name_note:
                stripped.append(f"{raw!r} as {name}")
            note = (trait.get("note") or "").strip()
            if note and note.lower() not in _ATTRIBUTE_NOTES:
                dropped.append(f"{name} ({note})")
            count = _count(record, list_name, trait)
            if name in entries:
                entries[name].count += count
            else:
                entries[name] = TraitEntry(name, count)
        target[category] = list(entries.values())
        if stripped:
            record.problems.append(f"{list_name}: notes taken out of Trait names: {', '.join(stripped)}.")
        if dropped:
            record.problems.append(f"{list_name}: Trait notes not kept: {', '.join(dropped)}.")


def _read_abilities(record: _Record, traits: list[ET.Element]) -> None:
    stripped, dropped = [], []
    for trait in traits:
        raw = (trait.get("name") or "").strip()
        if not raw:
            record.problems.append("Abilities: an Ability without a name was left out.")
            continue
        name, note = _split_parenthesis(raw)  # "Lore: Camarilla" keeps its colon
        if note:
            stripped.append(f"{raw!r} as {name}")
        if (trait.get("note") or "").strip():
            dropped.append(f"{name} ({trait.get('note').strip()})")
        level = _count(record, "Abilities", trait)
        record.sheet.abilities[name] = record.sheet.abilities.get(name, 0) + level
    if stripped:
        record.problems.append(f"Abilities: notes taken out of Ability names: {', '.join(stripped)}.")
    if dropped:
        record.problems.append(f"Abilities: notes (specialisations) not kept: {', '.join(dropped)}.")


# --- Discipline powers --------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _key(text: str) -> str:
    text = text.lower().strip()
    if text.startswith("the "):
        text = text[4:]
    return re.sub(r"[^a-z0-9]", "", text)


def _closest(text: str, choices: Sequence[str]) -> tuple[str | None, bool]:
    """The choice ``text`` names: exact up to case and punctuation, else a near spelling.

    Returns ``(choice, was_near)``; ``(None, False)`` when nothing is close.
    """
    keys = _keys(tuple(choices))
    if _key(text) in keys:
        return keys[_key(text)], False
    near = difflib.get_close_matches(_key(text), list(keys), n=1, cutoff=0.88)
    return (keys[near[0]], True) if near else (None, False)


@lru_cache(maxsize=1024)
def _keys(choices: tuple[str, ...]) -> dict[str, str]:
    """The lookup of :func:`_closest`: each choice by its key (made once per list of choices)."""
    return {_key(choice): choice for choice in choices}


def _tier_of_note(note: str) -> str | None:
    match = re.match(r"\s*([a-z]+)", note.lower())
    return _TIER_WORDS.get(match.group(1)) if match else None


@lru_cache(maxsize=256)
def _discipline_rows(discipline: str) -> dict[str, DisciplineRow]:
    """The LotNR rows of ``discipline`` by path ("" for the Discipline itself), from data/disciplines.toml."""
    return {row.path: row for (disc, _), row in discipline_table().items() if disc == discipline}


@dataclass
class _Power:
    raw: str
    discipline: str
    path: str
    power: str
    row: DisciplineRow | None
    level: int | None = None
    tier: str | None = None


def _parse_power_name(raw: str, record: _Record, list_name: str, known_disciplines: set[str]) -> _Power:
    """Split ``"Necromancy: Ash Path: Level I: Shroudsight"`` into its parts.

    Level markers in the name: a number (``3:``, ``3 Rapidity``, ``VI:``) is a
    level; ``Level I``-``III`` (or a bare ``I``-``III``) is a tier (Basic,
    Intermediate, Advanced); ``Master`` in older sheets means past Advanced.
    """
    segments = [s.strip() for s in raw.split(":") if s.strip()]
    discipline = re.sub(r"\s*\[[^\]]*\]", "", segments[0]).strip()
    rest = segments[1:]
    level = tier = None
    kept = []
    for segment in rest:
        marker = re.fullmatch(r"(level\s+)?([ivx]+|\d+)", segment, re.IGNORECASE)
        if marker:
            value = marker.group(2).lower()
            number = int(value) if value.isdigit() else _ROMAN.get(value)
            if number is None:
                kept.append(segment)
            elif value.isdigit() or number > 3:
                level = number
            else:
                tier = ("basic", "intermediate", "advanced")[number - 1]
            continue
        if segment.lower() in ("basic", "intermediate", "advanced", "elder"):
            tier = segment.lower()
            continue
        if segment.lower() == "master":
            tier = "past advanced"
            continue
        kept.append(segment)
    if kept:
        numbered = re.fullmatch(r"(\d)\s+(.+)", kept[-1])
        if numbered:
            level, kept[-1] = int(numbered.group(1)), numbered.group(2)
    power = kept[-1] if kept else ""
    path = ": ".join(kept[:-1])

    name, near = _closest(discipline, sorted(known_disciplines))
    if name is not None:
        if near:
            record.problems.append(f"{list_name}: read {discipline!r} as {name}.")
        discipline = name
    rows = _discipline_rows(discipline)
    row = None
    if path and any(rows):
        candidates = [p for p in rows if p]
        chosen, near = _closest(path, candidates)
        if chosen is None:  # "Thaumaturgy: Corruption: ..." for the Path of Corruption
            chosen, near = _closest(f"Path of {path}", candidates)
        if chosen is not None:
            if near:
                record.problems.append(f"{list_name}: read the path {path!r} as {chosen}.")
            path, row = chosen, rows[chosen]
    elif not path and "" in rows:
        row = rows[""]
    elif not path and rows:
        # a path power named without its path: find it if one path has it
        owners = [r for r in rows.values() if _closest(power, list(r.levels))[0]]
        if len(owners) == 1:
            row, path = owners[0], owners[0].path
            record.problems.append(f"{list_name}: {raw!r} names no path; read as {path}.")
    result = _Power(raw, discipline, path, power, row, level, tier)
    if row is not None:
        canonical, near = _closest(power, list(row.levels))
        if canonical is not None:
            if near:
                record.problems.append(f"{list_name}: read {power!r} as {canonical}.")
            result.power = canonical
    return result


def _read_powers(record: _Record, list_name: str, traits: list[ET.Element], only_known: bool = False) -> None:
    """Read Discipline powers into ``sheet.powers`` with their levels.

    ``only_known``: for a mortal's Numina list, where only entries of a known
    Discipline are a ghoul's powers and the rest are true Numina (left out).
    """
    known = {disc for disc, _ in discipline_table()}
    parsed: list[_Power] = []
    unknown_disciplines: list[str] = []
    dropped_notes: list[str] = []
    numina: list[str] = []
    for trait in traits:
        raw = (trait.get("name") or "").strip()
        if ":" not in raw:
            if only_known:
                numina.append(raw)
            else:
                record.problems.append(f"{list_name}: {raw!r} is not a 'Discipline: power' entry; left out.")
            continue
        power = _parse_power_name(raw, record, list_name, known)
        note = (trait.get("note") or "").strip()
        note_tier = _tier_of_note(note) if note else None
        by_note = re.fullmatch(r"([A-Za-z][A-Za-z ]*?)\s+(\d)", note) if note and not note_tier else None
        if by_note and power.discipline not in known and by_note.group(1) in known:
            # "Gangrel: Animal Swarm" noted "Protean 7": a clan's own Protean power
            power.discipline, power.path, power.row = by_note.group(1), "", None
            power.level = int(by_note.group(2))
            record.problems.append(
                f"{list_name}: {raw!r} read as {power.discipline} level {power.level}, from its note {note!r}."
            )
            note = ""
        if only_known and power.discipline not in known:
            numina.append(raw)
            continue
        if not power.power:
            record.problems.append(f"{list_name}: {raw!r} names no power; left out.")
            continue
        if note and note_tier is None:
            dropped_notes.append(f"{power.power} ({note})")
        power.tier = power.tier or note_tier
        if power.tier is None and power.discipline in known:
            cost = (trait.get("val") or "").strip()
            if _whole(cost) is not None:
                power.tier = _TIER_COSTS.get(_whole(cost))
        if power.discipline not in known and power.discipline not in unknown_disciplines:
            unknown_disciplines.append(power.discipline)
        parsed.append(power)
    if numina:
        record.left_out.append(f"{list_name}: {', '.join(numina)}")

    used: dict[tuple[str, str], set[int]] = {}
    pending: list[_Power] = []
    for power in parsed:
        table_level = power.row.levels.get(power.power) if power.row else None
        if table_level is not None:
            if (power.level is not None and power.level != table_level) or (
                power.level is None and power.tier and table_level not in _TIER_LEVELS[power.tier]
            ):
                record.problems.append(
                    f"{list_name}: {power.raw!r} is marked as {_describe(power)} in the file but {power.power} "
                    f"is level {table_level} in {power.discipline} (LotNR); imported at level {table_level}."
                )
            power.level = table_level
        elif power.level is None and power.tier is not None and len(_TIER_LEVELS[power.tier]) == 1:
            power.level = _TIER_LEVELS[power.tier][0]
            if power.tier == "past advanced":
                record.problems.append(
                    f"{list_name}: {power.raw!r} is marked Master (past Advanced); level 6 assumed."
                )
        if power.level is not None:
            used.setdefault((power.discipline, power.path), set()).add(power.level)
        elif power.tier is not None:
            pending.append(power)
    for power in pending:
        taken = used.setdefault((power.discipline, power.path), set())
        free = [lvl for lvl in _TIER_LEVELS[power.tier] if lvl not in taken]
        power.level = free[0] if free else _TIER_LEVELS[power.tier][-1]
        taken.add(power.level)
        record.problems.append(
            f"{list_name}: {power.raw!r} is {_describe(power)} but not in the Discipline table; "
            f"level {power.level} assumed from its place in the list."
        )

    seen: set[tuple[str, str]] = set()
    for power in parsed:
        if power.level is None:
            record.problems.append(
                f"{list_name}: {power.raw!r} left out: its level cannot be told "
                "(not in the Discipline table, no level or tier given)."
            )
            continue
        name = f"{power.path}: {power.power}" if power.path else power.power
        if (power.discipline, name) in seen:
            record.problems.append(f"{list_name}: {power.raw!r} is listed twice; kept once.")
            continue
        seen.add((power.discipline, name))
        # A power outside data/disciplines.toml is kept as a custom power (the sheet's rule).
        record.sheet.powers.append(PowerEntry(power.discipline, name, power.level,
                                              custom=known_power(power.discipline, name) is None))
    for discipline in unknown_disciplines:
        if any(p.discipline == discipline and p.level is not None for p in parsed):
            record.problems.append(
                f"{list_name}: {discipline!r} is not in the Discipline table; its powers were imported as written."
            )
    if dropped_notes:
        record.problems.append(f"{list_name}: notes not kept: {', '.join(dropped_notes)}.")


def _describe(power: _Power) -> str:
    """How the file marks the power's level: "level 3", "a Basic power", "an Intermediate power"."""
    if power.level is not None and not power.tier:
        return f"level {power.level}"
    if power.tier == "past advanced":
        return "a Master power"
    tier = str(power.tier).capitalize()
    return f"{'an' if tier[0] in 'AEIOU' else 'a'} {tier} power"


# --- health, pools, other lists -----------------------------------------------------------


def _read_health(record: _Record, traits: list[ET.Element], track: tuple[str, ...]) -> None:
    if not traits:
        return
    levels: list[str] = []
    chart: list[str] = []
    for trait in traits:
        name = (trait.get("name") or "").strip()
        boxes = _count(record, "Health Levels", trait)
        note = (trait.get("note") or "").strip()
        chart.append(f"{name} x{boxes}" + (f" ({note})" if note else ""))
        if name.lower() in _HEALTH_STATES:
            if boxes != 1:
                record.problems.append(f"Health Levels: {name} x{boxes} is a state, not boxes; ignored.")
            continue
        levels.extend([name] * boxes)
    if levels == list(track):
        return
    has_mettle = any(p.discipline == "Fortitude" and p.power == "Mettle" for p in record.sheet.powers)
    if has_mettle and levels == ["Healthy"] + list(track):
        return  # the extra Healthy box is Mettle's; the sheet derives it
    record.sheet.health_levels = levels
    record.problems.append(
        f"Health Levels: the chart {', '.join(chart)} differs from the chronicle's track; kept on the sheet."
    )


#: The largest values the LotNR generation table allows (4th generation): anything above is a typo.
MOST_WILLPOWER, MOST_BLOOD, MOST_TRAITS, GENERATIONS = 20, 50, 25, range(1, 16)


def _check_pools(record: _Record) -> None:
    sheet = record.sheet
    if sheet.generation is not None and sheet.generation not in GENERATIONS:
        record.problems.append(f"Generation {sheet.generation} is impossible; left empty.")
        sheet.generation = None
    for attribute, most, label in (("willpower_permanent", MOST_WILLPOWER, "Willpower"),
                                   ("willpower_current", MOST_WILLPOWER, "Current Willpower"),
                                   ("blood_max", MOST_BLOOD, "Blood pool"),
                                   ("blood_current", MOST_BLOOD, "Current blood")):
        value = getattr(sheet, attribute)
        if value is not None and value > most:
            record.problems.append(f"{label} {value} is more than the LotNR generation table allows ({most}); "
                                   f"set to {most}.")
            setattr(sheet, attribute, most)
    if sheet.blood_current is not None and sheet.blood_current > sheet.blood_max:
        record.problems.append(
            f"Current blood {sheet.blood_current} is above the pool of {sheet.blood_max}; set to {sheet.blood_max}."
        )
        sheet.blood_current = sheet.blood_max
    if sheet.willpower_current is not None and sheet.willpower_current > sheet.willpower_permanent:
        record.problems.append(
            f"Current Willpower {sheet.willpower_current} is above permanent {sheet.willpower_permanent}; "
            f"set to {sheet.willpower_permanent}."
        )
        sheet.willpower_current = sheet.willpower_permanent
    if sheet.creature != "vampire" or sheet.generation is None:
        return
    row = generation_row(sheet.generation)
    if row is None:
        return
    if sheet.blood_max and sheet.blood_max != row.blood_max:
        record.problems.append(
            f"Blood pool {sheet.blood_max} does not match generation {sheet.generation} "
            f"(LotNR generation table: {row.blood_max}); kept as in the file."
        )
    if row.willpower_max < sheet.willpower_permanent < MOST_WILLPOWER:
        record.problems.append(
            f"Willpower {sheet.willpower_permanent} is above generation {sheet.generation}'s maximum "
            f"of {row.willpower_max} (LotNR generation table); kept as in the file."
        )


def _report_other_lists(record: _Record, lists: dict[str, list[ET.Element]]) -> None:
    for list_name, traits in lists.items():
        if not traits:
            continue
        names = []
        for trait in traits:
            name = (trait.get("name") or "").strip()
            val = (trait.get("val") or "").strip()
            names.append(f"{name} ({val})" if val and val != "1" else name)
        if list_name in _LEFT_OUT_LISTS:
            record.left_out.append(f"{list_name}: {', '.join(names)}")
        else:
            record.problems.append(f"Unknown list {list_name!r} ({len(traits)} entries) not imported.")
            record.left_out.append(f"{list_name}: {', '.join(names)}")
