"""What importing a Grapevine file would do, as text: the preview page and ``larp import-grapevine``
show the same report, line for line.

Pure: the preview's plain data in, a :class:`FileReport` out. Per character: what happens (New,
Update, Skipped, Unreadable), a one-line summary of the sheet, what happens to its condition (the
play status: "will go into torpor") and to its experience log, then the missing core values with
the value used instead, the names read as another spelling, what was not understood, and what is
kept on the character without a place on the sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from larp.grapevine.characters import GrapevineCharacter
from larp.grapevine.kept import describe
from larp.rules.explain import plural

ACTION_LABELS = {"create": "New", "update": "Update", "skip": "Skipped", "fail": "Unreadable"}


class PreviewLineLike(Protocol):
    """What the report reads of a preview line (``larp.services.imports.PreviewLine``)."""

    index: int
    action: str
    record: GrapevineCharacter
    notes: list[str]


@dataclass(frozen=True)
class Section:
    """A titled group of lines; ``open``: shown unfolded on the page (the values that need a look)."""

    title: str
    lines: tuple[str, ...]
    open: bool = False


@dataclass(frozen=True)
class CharacterReport:
    """One character of the report."""

    index: int
    action: str
    label: str
    name: str
    summary: str
    notes: tuple[str, ...]
    sections: tuple[Section, ...]


@dataclass(frozen=True)
class FileReport:
    """The whole report of one file."""

    heading: str
    counts: str
    file_lines: tuple[str, ...]
    characters: tuple[CharacterReport, ...]

    def text_lines(self) -> list[str]:
        """The report as plain lines (the CLI prints these)."""
        out = [f"{self.heading}: {self.counts}"]
        out.extend(f"  {line}" for line in self.file_lines)
        for character in self.characters:
            head = f"  {character.label:10} {character.name}"
            out.append(f"{head}: {character.summary}" if character.summary else head)
            out.extend(f"             {note}" for note in character.notes)
            for section in character.sections:
                out.append(f"             {section.title}:")
                out.extend(f"               - {line}" for line in section.lines)
        return out


def sheet_summary(record: GrapevineCharacter) -> str:
    """``Vampire · Tremere · 8th gen. · Physical 14, Social 14, Mental 14 · 12 Abilities · 20 powers ·
    Willpower 12 · Blood 15 · Path of Power and the Inner Voice 4``."""
    sheet = record.sheet
    if sheet is None:
        return ""
    parts = [sheet.creature.capitalize()]
    if sheet.clan:
        parts.append(sheet.clan)
    if sheet.generation:
        parts.append(f"{sheet.generation}th gen.")
    parts.append(", ".join(f"{c.capitalize()} {sheet.trait_total(c)}" for c in ("physical", "social", "mental")))
    parts += [f"{len(sheet.abilities)} Abilities", f"{len(sheet.powers)} powers",
              f"Willpower {sheet.willpower_permanent}", f"Blood {sheet.blood_max}",
              f"{sheet.morality_name} {sheet.morality_rating}"]
    if record.play_status and record.play_status != "Active":
        parts.append(f"Grapevine status {record.play_status}")
    return " · ".join(parts)


def build_report(filename: str, encoding: str, lines: Sequence[PreviewLineLike], file_problems: Sequence[str],
                 left_out: Sequence[str], include_contact: bool) -> FileReport:
    """The report of a previewed file: ``lines`` in file order, each with its action and notes."""
    tally = {action: sum(1 for line in lines if line.action == action) for action in ACTION_LABELS}
    counts_text = (f"{tally['create']} to create · {tally['update']} to update (same name already in the chronicle) · "
                   f"{tally['skip']} skipped · {tally['fail']} unreadable")
    file_lines = list(file_problems)
    if left_out:
        file_lines.append(f"Also in the file, not imported: {', '.join(left_out)}.")
    if include_contact:
        file_lines.append("Players' contact details will be imported.")
    characters = []
    for line in lines:
        record = line.record
        notes = [text for text in (record.skipped, record.error) if text] + list(line.notes)
        sections = []
        if record.missing:
            sections.append(Section("Missing core values (the value used instead)", record.missing, open=True))
        if record.renamed:
            sections.append(Section("Read as another spelling", record.renamed))
        if record.problems:
            sections.append(Section(f"{plural(len(record.problems), 'thing')} not understood or changed", record.problems))
        kept = describe(record.kept)
        if kept:
            sections.append(Section("Kept on the character, not used here (shown on the sheet, written back on "
                                    "export)", tuple(kept)))
        characters.append(CharacterReport(line.index, line.action, ACTION_LABELS[line.action],
                                          record.name or "(no name)", sheet_summary(record), tuple(notes),
                                          tuple(sections)))
    return FileReport(f"{filename} (read as {encoding})", counts_text, tuple(file_lines), tuple(characters))
