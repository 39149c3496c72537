"""A Grapevine file's whole trip through larp, and what came back (issue 27).

:func:`round_trip` takes a Grapevine file the way an organiser moves a chronicle: ``larp
import-grapevine`` on one install, ``larp export``, ``larp import`` on a fresh install (whose
``larp export`` must equal the first), then ``larp export-grapevine``. :func:`compare` reads the
original file and the file that came back with the standard library's XML reader (not ours) and
counts, record by record, what came back the same: attributes, experience entries, list entries
(and their order), boons, biography and notes, in characters of text.

Used by the real-file round trips in ``tests/web/test_round_trips.py`` and by the measuring script
``tests/benchmarks/grapevine_round_trip.py`` (the issue 27 note's table).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from larp.grapevine.dates import parse_grapevine_date

#: The creature elements larp reads into sheets; the others are skipped on import, by design.
SHEET_ELEMENTS = ("vampire", "mortal")
#: What larp writes anew on every export, not a value of the file's.
WRITTEN_ANEW: frozenset[str] = frozenset()


@dataclass
class Trip:
    """What one file's trip gave: the file that came back, the two chronicle exports, the CLI's words."""

    original: bytes
    returned: bytes
    first_export: dict
    second_export: dict
    outputs: list[str] = field(default_factory=list)


class TripFailed(Exception):
    """A step of the trip exited with an error: ``step`` names the command, ``output`` its words."""

    def __init__(self, step: str, output: str):
        super().__init__(f"{step}: {output}")
        self.step, self.output = step, output


def round_trip(tmp_path: Path, name: str, data: bytes) -> Trip:
    """``data`` (a Grapevine file called ``name``) through import-grapevine, export, import on a fresh
    install, export again and export-grapevine. Each install is a new app on a new database (on
    PostgreSQL the same database, emptied), started empty.

    Raises:
        TripFailed: a command exited with an error (the restore refused, say).
    """
    from tests.support import make_test_app

    outputs = []

    def invoke(app, *args: str) -> str:
        result = app.test_cli_runner().invoke(args=list(args))
        if result.exit_code != 0:
            raise TripFailed(f"larp {args[0]}", result.output.strip() or repr(result.exception))
        outputs.append(result.output)
        return result.output

    first = make_test_app(tmp_path / "first", LOAD_DEMO=False, START_EMPTY=True)
    source = tmp_path / name
    source.write_bytes(data)
    invoke(first, "import-grapevine", "--yes", str(source))
    exported = tmp_path / "chronicle.json"
    invoke(first, "export", str(exported))
    second = make_test_app(tmp_path / "second", LOAD_DEMO=False, START_EMPTY=True)
    invoke(second, "import", str(exported))
    again = tmp_path / "again.json"
    invoke(second, "export", str(again))
    back = tmp_path / f"back-{name}"
    invoke(second, "export-grapevine", str(back))
    return Trip(data, back.read_bytes(), json.loads(exported.read_text(encoding="utf-8")),
                json.loads(again.read_text(encoding="utf-8")), outputs)


# --- comparing two Grapevine files ---------------------------------------------------------------


@dataclass
class Tally:
    """How many of a kind of thing came back the same, and what did not."""

    same: int = 0
    total: int = 0
    differences: list[str] = field(default_factory=list)

    def add(self, same: bool, difference: str = "") -> None:
        """Count one thing; ``difference`` says how it changed when it did."""
        self.total += 1
        if same:
            self.same += 1
        elif difference:
            self.differences.append(difference)


@dataclass
class Comparison:
    """A Grapevine file against the file that came back, by kind of thing (records, attributes, the
    attributes of each list counting as one, experience entries, list entries, list order, texts in
    characters)."""

    records: Tally = field(default_factory=Tally)
    skipped: Counter = field(default_factory=Counter)
    attributes: Tally = field(default_factory=Tally)
    experience: Tally = field(default_factory=Tally)
    entries: Tally = field(default_factory=Tally)
    order: Tally = field(default_factory=Tally)
    texts: Tally = field(default_factory=Tally)
    characters: Tally = field(default_factory=Tally)  # characters of text, attributes and texts alike

    def differences(self) -> list[str]:
        """Every difference found, kind by kind."""
        return [d for tally in (self.records, self.attributes, self.experience, self.entries, self.order,
                                self.texts) for d in tally.differences]


def _records(root: ET.Element) -> dict[tuple[str, str, int], ET.Element]:
    seen: Counter = Counter()
    out = {}
    for element in root:
        key = (element.tag, element.get("name", ""))
        out[(*key, seen[key])] = element
        seen[key] += 1
    return out


def _date(text: str, day_first: bool) -> datetime | None:
    match = re.fullmatch(r"\s*(\d{1,2})/(\d{1,2})/(\d{2,4})(.*)", text or "")
    if match and day_first:
        text = f"{match.group(2)}/{match.group(1)}/{match.group(3)}{match.group(4)}"
    return parse_grapevine_date(text)


def _same_value(key: str, a: str | None, b: str | None, day_first: bool) -> bool:
    if a == b:
        return True
    if a is None or b is None:
        return False
    if key in ("date", "startdate", "lastmodified"):
        return _date(a, day_first) == _date(b, False) is not None
    return False


def day_first(root: ET.Element) -> bool:
    """Whether the file's dates are day first (a first number over 12 somewhere, and no second one)."""
    firsts, seconds = False, False
    for element in root.iter():
        for key in ("date", "startdate", "lastmodified"):
            match = re.match(r"\s*(\d{1,2})/(\d{1,2})/", element.get(key) or "")
            if match:
                firsts |= int(match.group(1)) > 12
                seconds |= int(match.group(2)) > 12
    return firsts and not seconds


def _text(element: ET.Element | None) -> str | None:
    return None if element is None else "".join(element.itertext()).strip()


def compare(original: bytes, returned: bytes) -> Comparison:
    """``original`` (a Grapevine file) against ``returned`` (the file that came back), thing by thing.

    Records of creatures larp does not import (werewolves...) are counted as skipped, not compared.
    A date is the same when it names the same moment (the file's day/month order read once per file).
    """
    left, right = ET.fromstring(original), ET.fromstring(returned)
    order = day_first(left)
    out = Comparison()
    theirs = _records(right)
    for key, record in _records(left).items():
        tag, name, _ = key
        if tag not in SHEET_ELEMENTS:
            if tag in ("player", "calendar", "aprsettings", "query", "item", "location", "action", "plot",
                       "rumor") or not list(record.iter("traitlist")):
                out.skipped[tag] += 1
            else:
                out.skipped[tag] += 1
            continue
        back = theirs.get(key)
        if back is None and tag == "vampire" and record.get("clan", "").lower() == "ghoul":
            back = theirs.get(("mortal", name, key[2]))
        out.records.add(back is not None, f"{name}: not in the file that came back")
        if back is None:
            continue
        _compare_record(out, name, record, back, order)
    return out


def _compare_record(out: Comparison, name: str, record: ET.Element, back: ET.Element, order: bool) -> None:
    for key, value in record.attrib.items():
        same = _same_value(key, value, back.get(key), order)
        out.attributes.add(same, f"{name}: {key}={value!r} came back as {back.get(key)!r}")
        out.characters.total += len(value)
        out.characters.same += len(value) if same else 0
    for key in back.attrib.keys() - record.attrib.keys():
        out.attributes.differences.append(f"{name}: {key}={back.get(key)!r} written, not in the file")
    mine, yours = record.find("experience"), back.find("experience")
    entries = [] if mine is None else mine.findall("entry")
    returned = [] if yours is None else yours.findall("entry")
    for i, entry in enumerate(entries):
        other = returned[i] if i < len(returned) else None
        differs = [k for k in entry.attrib if other is None or not _same_value(k, entry.get(k), other.get(k), order)]
        out.experience.add(not differs, f"{name}: experience entry {i + 1} ({entry.get('type')}, "
                                        f"{entry.get('change')}) differs in {differs}")
        for k, value in entry.attrib.items():
            out.characters.total += len(value)
            out.characters.same += len(value) if k not in differs else 0
    if len(returned) > len(entries):
        out.experience.differences.append(f"{name}: {len(returned) - len(entries)} experience entries more")
    if mine is not None:
        for total in ("earned", "unspent"):
            out.attributes.add(mine.get(total) == (yours.get(total) if yours is not None else None),
                               f"{name}: experience {total}={mine.get(total)!r} came back as "
                               f"{None if yours is None else yours.get(total)!r}")
    lists = {}
    for traitlist in record.findall("traitlist"):
        lists.setdefault(traitlist.get("name"), []).extend(traitlist.findall("trait"))
        came_back = back.find(f"traitlist[@name='{traitlist.get('name')}']") if "'" not in traitlist.get(
            "name", "") else None
        out.attributes.add(came_back is not None and dict(came_back.attrib) == dict(traitlist.attrib),
                           f"{name}: the list {traitlist.get('name')!r} {dict(traitlist.attrib)} came back as "
                           f"{None if came_back is None else dict(came_back.attrib)}")
    lists_back = {}
    for traitlist in back.findall("traitlist"):
        lists_back.setdefault(traitlist.get("name"), []).extend(traitlist.findall("trait"))
    for list_name, traits in lists.items():
        written = [tuple(sorted(t.attrib.items())) for t in traits]
        came = [tuple(sorted(t.attrib.items())) for t in lists_back.get(list_name, [])]
        left = Counter(came)
        for entry in written:
            same = left[entry] > 0
            left[entry] -= 1 if same else 0
            out.entries.add(same, f"{name}: {list_name}: {dict(entry)} did not come back as written")
            size = sum(len(v) for _, v in entry)
            out.characters.total += size
            out.characters.same += size if same else 0
        extra = +left
        if extra:
            out.entries.differences.append(f"{name}: {list_name}: written though not in the file: "
                                           f"{[dict(e) for e in extra.elements()]}")
        if written and Counter(written) == Counter(came):
            out.order.add(written == came, f"{name}: {list_name}: the entries came back in another order")
    for list_name in lists_back.keys() - lists.keys():
        if lists_back[list_name]:
            out.entries.differences.append(f"{name}: list {list_name!r} written, not in the file")
    for part in ("biography", "notes"):
        text = _text(record.find(part))
        if text is not None:
            same = text == _text(back.find(part))
            out.texts.add(same, f"{name}: the {part} did not come back whole")
            out.characters.total += len(text)
            out.characters.same += len(text) if same else 0
    boons = [(dict(b.attrib), _text(b.find("description"))) for b in record.findall("boon")]
    boons_back = [(dict(b.attrib), _text(b.find("description"))) for b in back.findall("boon")]
    for i, boon in enumerate(boons):
        other = boons_back[i] if i < len(boons_back) else None
        same = other is not None and boon[1] == other[1] and all(
            _same_value(k, v, other[0].get(k), order) for k, v in boon[0].items())
        out.texts.add(same, f"{name}: boon {i + 1} did not come back whole")
