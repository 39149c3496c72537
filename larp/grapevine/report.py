"""What importing a Grapevine file would do, as text: the preview page and ``larp import-grapevine``
show the same report, line for line.

Pure: the preview's plain data in, a :class:`FileReport` out. Per character: what happens (New,
Update, Skipped, Unreadable), a one-line summary of the sheet, what happens to its condition (the
play status: "will go into torpor") and to its experience log, then the missing core values with
the value used instead, the names read as another spelling, what was not understood, and what is
kept on the character without a place on the sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from larp.grapevine.characters import GrapevineCharacter
from larp.grapevine.kept import describe
from larp.rules.explain import N_, Phrase

#: What happens to a character, as the report labels it (a phrase: the page says it in the reader's language).
ACTION_LABELS = {"create": N_("New"), "update": N_("Update"), "skip": N_("Skipped"), "fail": N_("Unreadable")}
#: The creatures imported, as the sheet summary names them.
CREATURES = {"vampire": N_("Vampire"), "ghoul": N_("Ghoul"), "mortal": N_("Mortal")}


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

    def text_lines(self, say: Callable[[str], str] = str) -> list[str]:
        """The report as plain lines (the CLI prints these), each phrase through ``say`` (the CLI's:
        in the command's language; default: English as written)."""
        out = [f"{say(self.heading)}: {say(self.counts)}"]
        out.extend(f"  {say(line)}" for line in self.file_lines)
        for character in self.characters:
            head = f"  {say(character.label):10} {say(character.name)}"
            out.append(f"{head}: {say(character.summary)}" if character.summary else head)
            out.extend(f"             {say(note)}" for note in character.notes)
            for section in character.sections:
                out.append(f"             {say(section.title)}:")
                out.extend(f"               - {say(line)}" for line in section.lines)
        return out


def sheet_summary(record: GrapevineCharacter) -> str:
    """``Vampire · Tremere · 8th gen. · Physical 14, Social 14, Mental 14 · 12 Abilities · 20 powers ·
    Willpower 12 · Blood 15 · Path of Power and the Inner Voice 4``."""
    sheet = record.sheet
    if sheet is None:
        return ""
    creature = CREATURES.get(sheet.creature)
    parts: list = [Phrase.message(creature) if creature else sheet.creature.capitalize()]
    if sheet.clan:
        parts.append(sheet.clan)
    if sheet.generation:
        parts.append(Phrase.message(N_("%(number)sth gen."), number=sheet.generation))
    parts.append([Phrase.message(N_("%(category)s %(count)s"), category=Phrase.term(c.capitalize()),
                                 count=sheet.trait_total(c)) for c in ("physical", "social", "mental")])
    parts += [Phrase.counted(len(sheet.abilities), "%(n)s Ability", "%(n)s Abilities"),
              Phrase.counted(len(sheet.powers), "%(n)s power", "%(n)s powers"),
              Phrase.message(N_("Willpower %(count)s"), count=sheet.willpower_permanent),
              Phrase.message(N_("Blood %(count)s"), count=sheet.blood_max),
              Phrase.message(N_("%(category)s %(count)s"), category=Phrase.term(sheet.morality_name),
                             count=sheet.morality_rating)]
    if record.play_status and record.play_status != "Active":
        parts.append(Phrase.message(N_("Grapevine status %(status)s"), status=record.play_status))
    joined = parts[0]
    for part in parts[1:]:  # each part a phrase, a name from the file, or a list of phrases (said with ", ")
        joined = Phrase.message(N_("%(these)s · %(next)s"), these=joined, next=part)
    return joined


def build_report(filename: str, encoding: str, lines: Sequence[PreviewLineLike], file_problems: Sequence[str],
                 left_out: Sequence[str], include_contact: bool) -> FileReport:
    """The report of a previewed file: ``lines`` in file order, each with its action and notes."""
    tally = {action: sum(1 for line in lines if line.action == action) for action in ACTION_LABELS}
    counts_text = Phrase.message(N_("%(create)s to create · %(update)s to update (same name already in the chronicle) · "
                                    "%(skip)s skipped · %(fail)s unreadable"), **tally)
    file_lines = list(file_problems)
    if left_out:
        file_lines.append(Phrase.message(N_("Also in the file, not imported: %(what)s."), what=list(left_out)))
    if include_contact:
        file_lines.append(Phrase.message(N_("Players' contact details will be imported.")))
    characters = []
    for line in lines:
        record = line.record
        notes = [text for text in (record.skipped, record.error) if text] + list(line.notes)
        sections = []
        if record.missing:
            sections.append(Section(Phrase.message(N_("Missing core values (the value used instead)")), record.missing,
                                    open=True))
        if record.renamed:
            sections.append(Section(Phrase.message(N_("Read as another spelling")), record.renamed))
        if record.problems:
            sections.append(Section(Phrase.counted(len(record.problems), "%(n)s thing not understood or changed",
                                                   "%(n)s things not understood or changed"), record.problems))
        kept = describe(record.kept)
        if kept:
            sections.append(Section(Phrase.message(N_("Kept on the character, not used here (shown on the sheet, "
                                                      "written back on export)")), tuple(kept)))
        characters.append(CharacterReport(line.index, line.action, Phrase.message(ACTION_LABELS[line.action]),
                                          record.name or Phrase.message(N_("(no name)")), sheet_summary(record),
                                          tuple(notes), tuple(sections)))
    return FileReport(Phrase.message(N_("%(file)s (read as %(encoding)s)"), file=filename, encoding=encoding),
                      counts_text, tuple(file_lines), tuple(characters))
