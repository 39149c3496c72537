"""Mapping Grapevine character records to the sheet: one ``<vampire>`` or ``<mortal>`` element in,
one :class:`~larp.grapevine.characters.GrapevineCharacter` out.

Pure: elements in, plain data out. Every record is read on its own: a record that cannot be read
is reported and the others still arrive. Everything a record holds goes somewhere: onto the sheet
(where the sheet has a place), into the experience log, into the character's condition (the play
status), or into the data kept on the character as written (:mod:`larp.grapevine.kept`), which the
export writes back. Where each Grapevine field goes is listed in the issue 20 note.

- Scalars are the record's attributes (``generation``, ``blood``/``tempblood``,
  ``willpower``/``tempwillpower``, ``path``/``pathtraits``, a mortal's ``humanity``, the Virtues
  ``conscience``, ``selfcontrol``, ``courage``); a missing ``temp*`` means "equal to permanent".
  A core value a vampire, ghoul or mortal needs (Willpower, blood, Humanity or Path, clan,
  generation) that the file does not give is reported with the value used instead.
- Lists are ``<traitlist name="...">`` of ``<trait name val note>``: ``val`` is a count in the
  Trait, Ability and Background lists, a cost in Merits, Flaws, Disciplines and Rituals, boxes in
  Health Levels; an entry without ``val`` counts 1 (real-data README). Notes on Abilities are
  their specialisations. Equipment becomes the armory's card of that name, a custom weapon
  (``+2, 2 Lethal, Loud``) or custom armor (``+0, 2 Armor Levels, Heavy``), else is kept
  (:mod:`larp.grapevine.lists`).
- Discipline powers: :mod:`larp.grapevine.powers`.
- The experience history (``<entry date change type reason>``) becomes the experience log; the
  entries' running totals are recomputed, and the record's totals are checked against them.
- A ghoul is a ``<vampire clan="Ghoul">`` or a ``<mortal>`` with a ghoul association, blood or
  Discipline powers. Other creatures (werewolf, mage...) are skipped, not failed.
- Players' contact details: only with ``include_contact``, then into ``player_contact``. The
  chronicle's own e-mail and phone are never read.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from larp.bidi import without_direction_controls
from larp.catalogues import sheet_lists
from decimal import Decimal

from larp.grapevine.characters import COMMENT, SET_EARNED, SET_UNSPENT, ExperienceLine, GrapevineCharacter, GrapevineFile
from larp.grapevine.dates import NO_DATE, DateOrder, date_order, format_grapevine_date, is_set, parse_grapevine_date
from larp.grapevine.entries import sheet_entries
from larp.grapevine.format import CREATURE_ELEMENTS, CREATURE_LABELS, EXPERIENCE_KINDS, POWER_LIST, SHEET_ELEMENTS
from larp.grapevine.kept import arranged, originals_of
from larp.grapevine.lists import (keep_other_lists, read_abilities, read_backgrounds, read_derangements,
                                  read_equipment, read_health, read_lists, read_qualities, read_traits)
from larp.grapevine.names import Spellings
from larp.grapevine.powers import read_powers
from larp.grapevine.record import Record, whole
from larp.grapevine.reading import text_of
from larp.rules import experience as experience_rules
from larp.rules.explain import N_, Phrase
from larp.sheet import CharacterSheet
from larp.sheet_checks import LIMITS
from larp.tables import generation_row

#: The largest values the LotNR generation table allows (4th generation): anything above is a typo.
MOST_WILLPOWER, MOST_BLOOD, GENERATIONS = 20, 50, range(1, 16)
#: The largest experience change read from one history entry (experience points).
MOST_EXPERIENCE = experience_rules.MOST
#: Attributes of a record the sheet holds; every other attribute is kept as written (dates
#: rewritten in Grapevine's US order, so that an export writes every date in one order).
_ON_THE_SHEET = {"name", "player", "sect", "title", "nature", "demeanor", "willpower", "tempwillpower", "blood",
                 "tempblood", "conscience", "selfcontrol", "courage"}
_ON_THE_SHEET_BY_ELEMENT = {"vampire": {"clan", "generation", "path", "pathtraits", "larpclan"},
                            "mortal": {"humanity", "association"}}
#: Date attributes kept on the character (and on boons), read in the file's day/month order.
DATE_ATTRIBUTES = ("startdate", "lastmodified", "date")
#: The attributes whose absence is kept (:func:`_keep_absent`): the export leaves them out while the
#: sheet still gives the value used in their place, instead of writing it as a fact of the file.
ABSENT_ATTRIBUTES = {"vampire": ("willpower", "blood", "path", "pathtraits"), "mortal": ("willpower", "blood",
                                                                                         "humanity")}
_VIRTUE_ATTRIBUTES = ("conscience", "selfcontrol", "courage")
def read_file(root: ET.Element, filename: str, encoding: str, file_problems: list[str], *,
              include_contact: bool, track: tuple[str, ...]) -> GrapevineFile:
    """Every character record under ``root`` (a ``<grapevine>`` element), in file order.

    Args:
        track: the chronicle's health levels (a chart equal to it is not stored on the sheet).
        include_contact: put a player's contact details on the sheet.
    """
    players = _player_contacts(root)
    spellings = Spellings()
    order = date_order(element.get(key) or "" for element in root.iter() for key in DATE_ATTRIBUTES
                       if element.get(key))
    characters: list[GrapevineCharacter] = []
    others: dict[str, int] = {}
    for element in root:
        if element.tag in CREATURE_ELEMENTS:
            characters.append(read_record(element, players, include_contact, track, spellings, order))
        elif isinstance(element.tag, str):
            others[element.tag] = others.get(element.tag, 0) + 1
    left_out = tuple(f"{tag} x{count}" for tag, count in others.items())
    dated = any(element.get(key) for element in root.iter() for key in DATE_ATTRIBUTES)
    problems = [order.reason, *file_problems] if dated else list(file_problems)
    return GrapevineFile(filename, encoding, tuple(characters), tuple(problems), left_out, order)


def _player_contacts(root: ET.Element) -> dict[str, str]:
    contacts: dict[str, str] = {}
    for player in root.findall("player"):
        parts = []
        for key in ("email", "phone"):
            if (player.get(key) or "").strip():
                parts.append(f"{key}: {player.get(key).strip()}")
        address = text_of(player.find("address"))
        if address:
            parts.append(f"address: {address}")
        contacts[(player.get("name") or "").strip()] = "; ".join(parts)
    return contacts


def read_record(element: ET.Element, players: dict[str, str], include_contact: bool, track: tuple[str, ...],
                spellings: Spellings | None = None, order: DateOrder | None = None) -> GrapevineCharacter:
    """One character record as a :class:`GrapevineCharacter` (skipped for other creatures, failed
    with the reason when its reading breaks: one bad record never stops the file). ``order`` is the
    file's day/month order (:func:`larp.grapevine.dates.date_order`)."""
    order = order or DateOrder()
    # Direction controls would turn the text around a name wherever it is shown (larp.bidi): taken out,
    # with a note, rather than refusing the whole file (new-user test 12, finding 4).
    name, turned = without_direction_controls((element.get("name") or "").strip())
    name = name.strip()
    creature = CREATURE_LABELS.get(element.tag, element.tag)
    modified = parse_grapevine_date(element.get("lastmodified") or "", order)
    meta = {
        "play_status": (element.get("status") or "").strip(),
        "npc": (element.get("npc") or "").strip().lower() == "yes",
        "last_modified": modified if is_set(modified) else None,
    }
    if element.tag not in SHEET_ELEMENTS:
        return GrapevineCharacter(
            name or "(no name)", creature, None,
            skipped=Phrase.message(N_("%(creature)s: skipped, only vampires, ghouls and mortals are imported"),
                                   creature=creature), **meta,
        )
    try:
        record = Record(element, CharacterSheet(name=name or "(no name)"), spellings or Spellings(), order=order)
        if not name:
            record.problems.append(Phrase.message(N_("The record has no name; imported as '(no name)'.")))
        if turned:
            record.problems.append(_direction_note(N_("The name"), turned))
        if element.get("lastmodified") and modified is None:
            record.problems.append(Phrase.message(N_("Last-modified date %(date)s not understood."),
                                                  date=repr(element.get("lastmodified"))))
        _read_identity(record, players, include_contact)
        lists = read_lists(record)
        record.lists_in_file = {name: list(traits) for name, traits in lists.items()}
        read_traits(record, lists)
        read_abilities(record, lists.pop("Abilities", []))
        power_list = POWER_LIST[element.tag]
        read_powers(record, power_list, lists.pop(power_list, []), only_known=element.tag == "mortal")
        if record.sheet.creature == "mortal" and record.sheet.powers:
            record.sheet.creature = "ghoul"
            record.problems.append(Phrase.message(N_("Imported as a ghoul: the mortal has Discipline powers.")))
        read_health(record, lists.pop("Health Levels", []), track)
        read_backgrounds(record, lists.pop("Backgrounds", []))
        for kind, list_name in (("merit", "Merits"), ("flaw", "Flaws")):
            read_qualities(record, kind, list_name, lists.pop(list_name, []))
        read_derangements(record, lists.pop("Derangements", []))
        read_equipment(record, lists.pop("Equipment", []))
        keep_other_lists(record, lists)
        _read_experience(record)
        _keep_other_elements(record)
        record.sheet.fill_defaults()  # the generation's pool first, so the checks compare real numbers
        _check_pools(record)
        _report_missing(record)
        _keep_absent(record)
        _keep_originals(record, track)
        if record.sheet.creature == "ghoul":
            record.kept["element"] = element.tag
    except Exception as exc:  # one bad record must not stop the file
        return GrapevineCharacter(name or "(no name)", creature, None, error=f"{type(exc).__name__}: {exc}", **meta)
    sheet = record.sheet
    return GrapevineCharacter(
        sheet.name, sheet.creature, sheet, _tidy(record.kept), tuple(record.experience), tuple(record.missing),
        tuple(record.renamed), tuple(record.problems), **meta,
    )


def _direction_note(label: str, count: int) -> Phrase:
    """The import's note that ``count`` direction controls were taken out of the field ``label`` (:mod:`larp.bidi`)."""
    return Phrase.counted(count, "%(label)s: %(n)s invisible direction control taken out (it would turn the text "
                          "around the name).", "%(label)s: %(n)s invisible direction controls taken out (they would "
                          "turn the text around the name).", label=Phrase.message(label))


def _tidy(kept: dict[str, Any]) -> dict[str, Any]:
    """The kept data in the documented order of keys (:data:`larp.grapevine.kept.KEYS`), empty parts left out."""
    from larp.grapevine.kept import KEYS

    return {key: kept[key] for key in KEYS if kept.get(key) not in (None, {}, [], "")
            or (key == "health_states" and key in kept)}


# --- identity and pools -------------------------------------------------------------------


def _read_identity(record: Record, players: dict[str, str], include_contact: bool) -> None:
    element, sheet = record.element, record.sheet
    player = record.text("player")
    sheet.player_name, turned = without_direction_controls(player)
    sheet.player_name = sheet.player_name.strip()
    if turned:
        record.problems.append(_direction_note(N_("Player"), turned))
    if include_contact and sheet.player_name:
        sheet.player_contact = players.get(player, "")
    sheet.sect = record.text("sect")
    sheet.title = record.text("title")
    sheet.nature = record.text("nature")
    sheet.demeanor = record.text("demeanor")
    sheet.notes = text_of(element.find("notes"))
    willpower = record.core("willpower", "Willpower", "0")
    sheet.willpower_permanent = willpower or 0
    sheet.willpower_current = record.number("tempwillpower", None)
    used = set(_ON_THE_SHEET) | _ON_THE_SHEET_BY_ELEMENT[element.tag]
    if element.tag == "vampire":
        clan = record.text("clan")
        if clan.lower() == "ghoul":
            sheet.creature = "ghoul"
            sheet.clan = record.text("larpclan")  # his free-text clan, kept by our export where Grapevine has none
            used.discard("generation")  # a ghoul has none: what the file says is kept as written
        else:
            sheet.clan = clan
            used.discard("larpclan")
            generation = record.core("generation", "Generation", Phrase.message(N_(
                "none (so no blood pool or blood per turn comes from the generation table)")))
            if generation is not None and generation not in GENERATIONS:
                record.missing.append(Phrase.message(N_("Generation: %(generation)s is impossible; none used."),
                                                     generation=generation))
                generation = None
            sheet.generation = generation
        path = record.text("path")
        sheet.morality_name = record.spellings.first("morality", path) if path else "Humanity"
        if path and sheet.morality_name != path:
            record.renamed.append(Phrase.message(N_("Path: read %(path)s as %(morality)s, as this file first spells it "
                                                    "(they differ only in articles, case or spacing)."),
                                                 path=repr(path), morality=repr(sheet.morality_name)))
        if not path:
            record.missing.append(Phrase.message(N_("Humanity or Path: not named in the file; Humanity used.")))
        sheet.morality_rating = record.core("pathtraits", sheet.morality_name, "0") or 0
    blood = record.core("blood", "Blood pool", None)
    if element.tag == "mortal":
        association = record.text("association")
        sheet.clan = association  # Grapevine's free text for a mortal's or ghoul's allegiance ("Ventrue (Ghoul)")
        if "ghoul" in association.lower():
            sheet.creature = "ghoul"
        elif blood:
            sheet.creature = "ghoul"
            record.problems.append(Phrase.counted(blood, "Imported as a ghoul: the mortal holds %(n)s blood point.",
                                                  "Imported as a ghoul: the mortal holds %(n)s blood points."))
        else:
            sheet.creature = "mortal"
        sheet.morality_name = "Humanity"
        sheet.morality_rating = record.core("humanity", "Humanity", "0") or 0
    sheet.blood_max = blood or 0
    sheet.blood_current = record.number("tempblood", None)
    names = sheet_lists().humanity_virtues if sheet.morality_name == "Humanity" else sheet_lists().path_virtues
    for attribute, virtue in zip(_VIRTUE_ATTRIBUTES, names):
        value = record.number(attribute, None)
        if value is None:
            continue
        if value > sheet_lists().virtue_max:
            record.problems.append(Phrase.message(N_("%(virtue)s %(value)s is more than %(most)s; set to %(most)s."),
                                                  virtue=Phrase.term(virtue), value=value, most=sheet_lists().virtue_max))
            value = sheet_lists().virtue_max
        sheet.virtues[virtue] = value
    attributes = {key: _date_as_written(record, key, value) for key, value in element.attrib.items()
                  if key not in used}
    if attributes:
        record.kept["attributes"] = attributes


def _date_as_written(record: Record, key: str, value: str) -> str:
    """A kept attribute's value; a date (start date, last modified, a boon's date) read in the file's
    day/month order and written as Grapevine's US format, so that an export holds one order. A date
    that cannot be read is kept as written."""
    if key not in DATE_ATTRIBUTES or not value.strip():
        return value
    date = parse_grapevine_date(value, record.order)
    if date is None:
        if key != "lastmodified":  # its own problem line says so
            record.problems.append(Phrase.message(N_("%(key)s: the date %(date)s not understood; kept as written."),
                                                  key=key, date=repr(value)))
        return value
    return format_grapevine_date(date)


def _check_pools(record: Record) -> None:
    sheet = record.sheet
    for attribute, most, label in (("willpower_permanent", MOST_WILLPOWER, "Willpower"),
                                   ("willpower_current", MOST_WILLPOWER, "Current Willpower"),
                                   ("blood_max", MOST_BLOOD, "Blood pool"),
                                   ("blood_current", MOST_BLOOD, "Current blood")):
        value = getattr(sheet, attribute)
        if value is not None and value > most:
            record.problems.append(Phrase.message(N_("%(label)s %(value)s is more than the LotNR generation table "
                                                     "allows (%(most)s); set to %(most)s."), label=Phrase.term(label),
                                                  value=value, most=most))
            setattr(sheet, attribute, most)
    if sheet.morality_rating > LIMITS["morality_rating"][1]:
        most = LIMITS["morality_rating"][1]
        record.problems.append(Phrase.message(N_("%(morality)s %(rating)s is more than %(most)s; set to %(most)s."),
                                              morality=Phrase.term(sheet.morality_name), rating=sheet.morality_rating,
                                              most=most))
        sheet.morality_rating = most
    # Above the pool is kept as the file has it (Grapevine allows it), and said: the sheet editor
    # never clamps tonight's values, and an export writes them back (issue 27).
    if sheet.blood_current is not None and sheet.blood_current > sheet.blood_max:
        record.problems.append(Phrase.message(
            N_("Current blood %(current)s is above the pool of %(pool)s; kept as in the file."),
            current=sheet.blood_current, pool=sheet.blood_max))
    if sheet.willpower_current is not None and sheet.willpower_current > sheet.willpower_permanent:
        record.problems.append(Phrase.message(
            N_("Current Willpower %(current)s is above permanent %(permanent)s; kept as in the file."),
            current=sheet.willpower_current, permanent=sheet.willpower_permanent))
    if sheet.creature != "vampire" or sheet.generation is None:
        return
    row = generation_row(sheet.generation)
    if row is None:
        return
    if sheet.blood_max and sheet.blood_max != row.blood_max:
        record.problems.append(Phrase.message(
            N_("Blood pool %(pool)s does not match generation %(generation)s (LotNR generation table: %(table)s); "
               "kept as in the file."), pool=sheet.blood_max, generation=sheet.generation, table=row.blood_max))
    if row.willpower_max < sheet.willpower_permanent < MOST_WILLPOWER:
        record.problems.append(Phrase.message(
            N_("Willpower %(willpower)s is above generation %(generation)s's maximum of %(most)s (LotNR generation "
               "table); kept as in the file."),
            willpower=sheet.willpower_permanent, generation=sheet.generation, most=row.willpower_max))


def _report_missing(record: Record) -> None:
    """Word the core values the file leaves out, each with the value used (Willpower, blood, Humanity or
    Path, clan, generation: what a vampire needs; a ghoul needs no clan or generation, a mortal no blood)."""
    sheet, missing = record.sheet, record.missing
    why = record.pending_missing.get("Blood pool")
    if why and sheet.creature != "mortal":
        if sheet.creature == "vampire" and sheet.generation is not None and sheet.blood_max:
            missing.append(Phrase.message(N_("Blood pool: %(why)s; %(pool)s used, generation %(generation)s's pool "
                                             "(LotNR generation table)."), why=why, pool=sheet.blood_max,
                                          generation=sheet.generation))
        else:
            missing.append(Phrase.message(N_("Blood pool: %(why)s; 0 used."), why=why))
    if sheet.creature != "vampire":
        return
    if not record.text("clan"):
        missing.append(Phrase.message(N_("Clan: not in the file; none used.")))


# --- experience, boons, biography -------------------------------------------------------


def _read_experience(record: Record) -> None:
    """The experience history into the log, oldest first, each entry as what it is (type 0 earn, 1
    lose, 2 set earned, 3 spend, 4 unspend, 5 set unspent, 6 comment: real-data README) with its
    exact points and its date read in the file's day/month order; the record's totals checked against
    the history run as Grapevine runs it (:mod:`larp.rules.experience`)."""
    experience = record.element.find("experience")
    if experience is None:
        return
    for entry in experience.findall("entry"):
        type_number = whole((entry.get("type") or "").strip())
        kind = EXPERIENCE_KINDS.get(type_number) if type_number is not None else None
        if kind is None:
            record.problems.append(Phrase.message(N_("Experience: entry type %(type)s not understood; logged as a "
                                                     "comment."), type=repr(entry.get("type"))))
            kind = COMMENT
        amount = _points(record, entry.get("change"), Phrase.message(N_("the change")))
        what = (entry.get("reason") or "").strip()
        if len(what) > experience_rules.REASON_MAX_CHARS:
            record.problems.append(Phrase.message(N_("Experience: a reason of %(length)s characters was cut to "
                                                     "%(most)s."), length=len(what), most=experience_rules.REASON_MAX_CHARS))
            what = what[:experience_rules.REASON_MAX_CHARS]
        date = parse_grapevine_date(entry.get("date") or "", record.order)
        if date is None:
            if (entry.get("date") or "").strip():
                record.problems.append(Phrase.message(N_("Experience: the date %(date)s not understood; no date kept."),
                                                      date=repr(entry.get("date"))))
            date = NO_DATE
        record.experience.append(ExperienceLine(kind, amount, what, date))
    earned, unspent = experience_rules.totals(experience_rules.Line(x.kind, x.amount) for x in record.experience)
    for attribute, total, kind in (("earned", earned, SET_EARNED), ("unspent", unspent, SET_UNSPENT)):
        raw = (experience.get(attribute) or "").strip()
        if not raw:
            continue
        said = _points(record, raw, Phrase.message(N_("the earned total") if attribute == "earned"
                                                   else N_("the unspent total")))
        if said != total:
            record.experience.append(ExperienceLine(kind, said, f"Grapevine's {attribute} total at import (not in "
                                                                "its history)", NO_DATE))
            record.problems.append(Phrase.message(
                N_("Experience: the file says %(said)s earned, its history %(total)s; a line setting the earned total "
                   "is in the log.") if attribute == "earned" else
                N_("Experience: the file says %(said)s unspent, its history %(total)s; a line setting the unspent "
                   "total is in the log."), said=experience_rules.points_text(said),
                total=experience_rules.points_text(total)))


def _points(record: Record, raw: str | None, label: Phrase) -> Decimal:
    """Experience points as Grapevine writes them (a single-precision number: ``3``, ``0.5``, ``-2``, a
    European ``0,5``), exact to two places; what cannot be kept exactly is said."""
    text = (raw or "").strip()
    if not text:
        return Decimal(0)
    try:
        amount = experience_rules.experience_points(text, "change", low=-MOST_EXPERIENCE, high=MOST_EXPERIENCE,
                                                    rounded=True)
    except experience_rules.ExperienceError:
        try:
            number = Decimal(text.replace(",", "."))
        except ArithmeticError:
            number = None
        if number is None or not number.is_finite():
            record.problems.append(Phrase.message(N_("Experience: %(label)s %(text)s cannot be read as experience "
                                                     "points; 0 used."), label=label, text=repr(text)))
            return Decimal(0)
        amount = max(-MOST_EXPERIENCE, min(number, MOST_EXPERIENCE)).quantize(Decimal("0.01"))
        record.problems.append(Phrase.message(
            N_("Experience: %(label)s %(text)s kept as %(amount)s (at most %(most)s points a line, to %(places)s "
               "decimal places)."), label=label, text=repr(text), amount=experience_rules.points_text(amount),
            most=experience_rules.points_text(MOST_EXPERIENCE), places=experience_rules.PLACES))
        return amount
    if amount != Decimal(text.replace(",", ".")):
        record.problems.append(Phrase.message(
            N_("Experience: %(label)s %(text)s kept as %(amount)s (points are kept to %(places)s decimal places)."),
            label=label, text=text, amount=experience_rules.points_text(amount), places=experience_rules.PLACES))
    return amount


def _keep_other_elements(record: Record) -> None:
    """Boons, the biography and any element the reader does not know, kept as written."""
    boons = []
    for child in record.element:
        if child.tag in ("traitlist", "experience", "notes"):
            continue
        if child.tag == "biography":
            record.kept["biography"] = text_of(child)
        elif child.tag == "boon":
            boons.append({"attributes": {k: _date_as_written(record, k, v) for k, v in child.attrib.items()},
                          "description": text_of(child.find("description"))})
        elif isinstance(child.tag, str):
            copy = ET.fromstring(ET.tostring(child))
            copy.tail = None
            record.kept.setdefault("elements", []).append(ET.tostring(copy, encoding="unicode"))
    if boons:
        record.kept["boons"] = boons


# --- what the file wrote otherwise ----------------------------------------------------------


def _keep_originals(record: Record, track: Sequence[str]) -> None:
    """For each entry that went onto the sheet, what the file wrote where the sheet would write
    something else: an entry placed alone, attribute by attribute (``originals``: a note the sheet
    has no place for, a range of costs, a name with a note in it); a name the file lists more than
    once, its entries whole (``repeated``: two "Phobia" with their own notes, two "Quick" the sheet
    counts as Quick x2), so nothing is merged on the way back; and the file's order of each list
    where the export would write another (``order``)."""
    element = record.element.tag
    canonical = sheet_entries(record.sheet, element, track, record.kept.get("health_states"))
    originals: dict[str, dict[str, dict[str, list]]] = {}
    repeated: dict[str, dict[str, dict[str, list]]] = {}
    for list_name, placed in record.placed.items():
        by_name: dict[str, list[ET.Element]] = {}
        for trait, name in placed:
            by_name.setdefault(name, []).append(trait)
        sheet_side: dict[str, list[dict[str, str]]] = {}
        for item in canonical.get(list_name, []):
            sheet_side.setdefault(item["name"], []).append(item)
        for name, traits in by_name.items():
            if name not in sheet_side:
                continue
            if len(traits) == 1 and len(sheet_side[name]) == 1:
                differs = originals_of(list_name, dict(traits[0].attrib), sheet_side[name][0])
                if differs:
                    originals.setdefault(list_name, {})[name] = differs
            elif [dict(t.attrib) for t in traits] != sheet_side[name]:
                repeated.setdefault(list_name, {})[name] = {"file": [dict(t.attrib) for t in traits],
                                                            "sheet": sheet_side[name]}
    if originals:
        record.kept["originals"] = originals
    if repeated:
        record.kept["repeated"] = repeated
    _keep_order(record, canonical)


def _keep_order(record: Record, canonical: dict[str, list[dict[str, str]]]) -> None:
    """Kept entries in the file's order, and the file's order of each list where the export would
    write another (:func:`larp.grapevine.kept.arranged`): an unsorted list (Disciplines, Equipment,
    Miscellaneous) comes back as it was."""
    orders = {}
    for list_name, traits in record.lists_in_file.items():
        kept_here = record.kept_traits.get(list_name, [])
        if kept_here:
            position = {id(t): i for i, t in enumerate(traits)}
            kept_here.sort(key=lambda t: position.get(id(t), len(traits)))
            record.kept["lists"][list_name] = [dict(t.attrib) for t in kept_here]
        if list_name == "Health Levels":
            continue  # its boxes, then its closing states, as Grapevine writes the chart
        placed = {id(trait): name for trait, name in record.placed.get(list_name, [])}
        kept_ids = {id(t) for t in kept_here}
        tokens = [placed[id(t)] if id(t) in placed else "" for t in traits if id(t) in placed or id(t) in kept_ids]
        written = arranged(list_name, canonical.get(list_name, []), [dict(t.attrib) for t in kept_here],
                           record.kept)
        if [name for name, _ in written] != tokens:
            orders[list_name] = tokens
    if orders:
        record.kept["order"] = orders


def _keep_absent(record: Record) -> None:
    """The core values the file left out (Willpower, blood, Humanity or Path), each with the value
    written in its place, so that an export leaves them out while the sheet still says that value
    (issue 27: a missing Willpower is not exported as ``willpower="0"``)."""
    from larp.grapevine.writing import record_attributes

    present = record.element.attrib
    missing = [a for a in ABSENT_ATTRIBUTES[record.element.tag] if not (present.get(a) or "").strip()]
    absent: dict[str, str] = {}
    if not (present.get("status") or "").strip():
        absent["status"] = "Active"  # what the export writes for an active character without one
    if missing:
        written = record_attributes(GrapevineCharacter(record.sheet.name, record.sheet.creature, record.sheet),
                                    record.element.tag)
        absent.update({a: written[a] for a in missing if a in written})
    if "Health Levels" not in record.lists_in_file and not record.sheet.health_levels:
        absent["Health Levels"] = ""
    if absent:
        record.kept["absent"] = absent
