"""Importing Grapevine 3 files into a chronicle (issues 8 and 20): preview, then one transaction.

The preview says per character what will happen (created, updated, skipped, unreadable), what
happens to his condition (Grapevine's play status: "will go into torpor") and to his experience
log, and the report of :mod:`larp.grapevine.report` (missing core values, names read as another
spelling, what was not understood, what is kept unused). The web preview and ``larp
import-grapevine`` show the same report. Applying it writes the sheets, the conditions, the data
kept unused and the experience history in one transaction, recorded as one ruling of kind "import".
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from datetime import timedelta

from flask_babel import gettext
from peewee import JOIN, chunked

from larp.db import bulk_insert, db
from larp.grapevine import MAX_FILE_BYTES, ExperienceLine, GrapevineCharacter, GrapevineError, parse_grapevine
from larp.grapevine.kept import problems_with
from larp.grapevine.report import FileReport, build_report
from larp.grapevine.status import condition_on_import, retired_on_import
from larp.models import Character, Chronicle, ExperienceEntry, PendingImport, Ruling, User, utcnow
from larp.rules.experience import Line, points_text, totals
from larp.rules.explain import N_, Phrase, plural
from larp.rules.health import live_levels
from larp.services import ServiceError
from larp.services.chronicles import chronicle_settings, open_game_session
from larp.services.sheet_store import create_characters, unstorable_parts, update_characters

#: How long an uploaded file waits for its confirmation.
PENDING_HOURS = 12


@dataclass
class PreviewLine:
    """One character of the preview: what will happen to it and what was not understood.

    ``action`` is ``"create"``, ``"update"`` (same name in the chronicle),
    ``"skip"`` (another creature type) or ``"fail"`` (unreadable record). ``condition``
    is the condition the import gives him (``None``: created active, or left as it is);
    ``retire``: the import retires him (Grapevine's status Inactive).
    """

    index: int
    record: GrapevineCharacter
    action: str
    existing_id: int | None = None
    notes: list[str] = field(default_factory=list)
    condition: str | None = None
    retire: bool = False

    @property
    def name(self) -> str:
        """The character's name."""
        return self.record.name


@dataclass
class ImportPreview:
    """What importing a file would do, per character."""

    filename: str
    encoding: str
    lines: list[PreviewLine]
    file_problems: tuple[str, ...]
    left_out: tuple[str, ...]
    include_contact: bool = False

    def count(self, action: str) -> int:
        """How many characters get ``action``."""
        return sum(1 for line in self.lines if line.action == action)

    def report(self) -> FileReport:
        """The report the preview page and the CLI show (:func:`larp.grapevine.report.build_report`)."""
        return build_report(self.filename, self.encoding, self.lines, self.file_problems, self.left_out,
                            self.include_contact)


def _points(amount) -> int | float:
    """Experience points as a phrase's number (said in the reader's way: ``0,5`` in pt_BR)."""
    text = points_text(amount)
    return float(text) if "." in text else int(text)


def _experience_note(lines: tuple[ExperienceLine, ...], kept_here: int, replaced: int) -> str:
    """What the import does to a character's experience log, as a phrase (said in the reader's language)."""
    if not lines and not replaced:
        return ""
    earned, unspent = totals(Line(x.kind, x.amount) for x in lines)
    text = Phrase.counted(len(lines), "Experience log: %(n)s line from the file (%(earned)s earned, %(spent)s spent)",
                          "Experience log: %(n)s lines from the file (%(earned)s earned, %(spent)s spent)",
                          earned=_points(earned), spent=_points(earned - unspent))
    if replaced:
        text = Phrase.counted(replaced, "%(log)s, in place of the %(n)s line an earlier import brought",
                              "%(log)s, in place of the %(n)s lines an earlier import brought", log=text)
    if kept_here:
        text = Phrase.counted(kept_here, "%(log)s; the %(n)s line recorded here stay",
                              "%(log)s; the %(n)s lines recorded here stay", log=text)
    return Phrase.message(N_("%(log)s."), log=text)


def preview_file(chronicle: Chronicle, filename: str, data: bytes, include_contact: bool = False,
                 max_bytes: int = MAX_FILE_BYTES) -> ImportPreview:
    """Parse a Grapevine file and say, per character, what importing it would do. Writes nothing.

    A name that appears twice in the file: the later record is used and the
    earlier one is marked skipped, so an import never creates duplicates. A record
    with a text longer than the database stores (a 1 MB name, notes past
    :data:`larp.models.NOTES_MAX_CHARS`) is marked failed, with the reason.

    Args:
        max_bytes: the largest file read (the ``GRAPEVINE_MAX_BYTES`` setting).

    Raises:
        ServiceError: 422 for an empty upload, the binary format, malformed
            XML (naming where it stopped and the element left open), a DTD or entities,
            a file larger than ``max_bytes`` or a file that is not Grapevine's.
    """
    if not data:
        raise ServiceError(gettext("Choose a Grapevine file (.gex or .gv3) to import."), field="file")
    try:
        parsed = parse_grapevine(data, filename, include_contact=include_contact,
                                 standard_track=live_levels(chronicle_settings(chronicle)), max_bytes=max_bytes)
    except GrapevineError as exc:
        raise ServiceError(exc.message, field="file") from None
    existing = {name: (cid, condition) for cid, name, condition in Character.select(
        Character.id, Character.name, Character.condition).where(Character.chronicle == chronicle).tuples()}
    retired_here = {cid for (cid,) in Character.select(Character.id).where(
        (Character.chronicle == chronicle) & Character.retired_at.is_null(False)).tuples()}
    logs = _import_logs([cid for cid, _ in existing.values()])
    lines: list[PreviewLine] = []
    parsed_records = []
    for record in parsed.characters:
        refused = unstorable_parts(record.sheet) + problems_with(record.kept) if record.sheet is not None else []
        if refused:
            shown = record.name if len(record.name) <= 120 else record.name[:119] + "…"
            record = replace(record, name=shown, sheet=None, error=" ".join(refused))
        parsed_records.append(record)
    last_index = {r.name: i for i, r in enumerate(parsed_records) if r.sheet is not None}
    for index, record in enumerate(parsed_records):
        if record.error:
            lines.append(PreviewLine(index, record, "fail"))
        elif record.sheet is None:
            lines.append(PreviewLine(index, record, "skip"))
        elif last_index[record.name] != index:
            lines.append(PreviewLine(index, record, "skip",
                                     notes=[Phrase.message(N_("%(name)s appears again later in the file; the later "
                                                              "record is used."), name=record.name)]))
        else:
            cid, current = existing.get(record.name, (None, None))
            condition, note = condition_on_import(record.play_status, record.sheet.creature, current)
            retire, said = retired_on_import(record.play_status, (cid in retired_here) if cid else None)
            replaced, here = logs.get(cid, (0, 0))
            notes = [text for text in (note, said, _experience_note(record.experience, here, replaced)) if text]
            lines.append(PreviewLine(index, record, "update" if cid else "create", cid, notes, condition, retire))
    return ImportPreview(filename, parsed.encoding, lines, parsed.problems, parsed.left_out, include_contact)


def _import_logs(character_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Per character, how many experience lines an import brought and how many were recorded here."""
    out: dict[int, list[int]] = {}
    for batch in chunked(character_ids, 500):
        query = (ExperienceEntry.select(ExperienceEntry.character, Ruling.kind)
                 .join(Ruling, join_type=JOIN.LEFT_OUTER, on=(ExperienceEntry.ruling == Ruling.id))
                 .where(ExperienceEntry.character.in_(batch)).tuples())
        for character_id, kind in query:
            counts = out.setdefault(character_id, [0, 0])
            counts[0 if kind == "import" else 1] += 1
    return {cid: (a, b) for cid, (a, b) in out.items()}


def stash_upload(chronicle: Chronicle, user: User, filename: str, data: bytes, include_contact: bool,
                 max_bytes: int = MAX_FILE_BYTES) -> tuple[str, ImportPreview]:
    """Preview an upload and keep its bytes until the organiser confirms; returns (token, preview).

    Raises:
        ServiceError: as :func:`preview_file`.
    """
    preview = preview_file(chronicle, filename, data, include_contact, max_bytes)
    token = secrets.token_urlsafe(24)
    with db.atomic():
        PendingImport.delete().where(PendingImport.created_at < utcnow() - timedelta(hours=PENDING_HOURS)).execute()
        PendingImport.create(token=token, user=user, chronicle=chronicle, filename=filename[:255], data=data,
                             include_contact=include_contact)
    return token, preview


def pending_preview(chronicle: Chronicle, user: User, token: str) -> tuple[PendingImport, ImportPreview]:
    """The stashed upload ``token`` of ``user`` and its preview (recomputed: the chronicle may have changed).

    Raises:
        ServiceError: 404 when the upload is unknown, someone else's or expired.
    """
    pending = PendingImport.get_or_none(
        (PendingImport.token == token) & (PendingImport.user == user) & (PendingImport.chronicle == chronicle)
        & (PendingImport.created_at >= utcnow() - timedelta(hours=PENDING_HOURS))
    )
    if pending is None:
        raise ServiceError(gettext("This import has expired or was already applied. Upload the file again."), status=404)
    return pending, preview_file(chronicle, pending.filename, bytes(pending.data), pending.include_contact)


def apply_import(chronicle: Chronicle, user: User | None, preview: ImportPreview,
                 selected: set[int] | None = None) -> Ruling:
    """Create and update the previewed characters in one transaction, and record it.

    What it writes per character: the sheet; the condition the play status gives
    (:func:`larp.grapevine.status.condition_on_import`, on creation and on update alike; the
    condition read again inside the transaction, so a character who met Final Death meanwhile
    stays dead); retirement for Grapevine's status Inactive (:func:`larp.grapevine.status.retired_on_import`);
    the data kept unused, with the version the import gives him; the experience history, in place of the lines an earlier
    import brought (lines recorded here stay unless the file holds the same line).

    Args:
        selected: indexes of the preview lines to apply (default: every
            create and update line).

    Raises:
        ServiceError: 422 when nothing is selected; 409 when a character of
            the same name appeared meanwhile (preview again).
    """
    chosen = [
        line for line in preview.lines
        if line.action in ("create", "update") and (selected is None or line.index in selected)
    ]
    if not chosen:
        raise ServiceError(gettext("Nothing to import: tick at least one character."), field="selected")
    updated: list[str] = []
    to_create, to_update, conditions, kept, columns, retiring = [], [], {}, {}, {}, []
    now = utcnow()
    with db.atomic():
        names = [line.record.sheet.name for line in chosen]
        present = {c.name: c for batch in chunked(names, 500) for c in
                   Character.select().where((Character.chronicle == chronicle) & Character.name.in_(batch))}
        for line in chosen:
            record, sheet = line.record, line.record.sheet
            current = present.get(sheet.name)
            if line.action == "update" and current is not None:
                condition, _ = condition_on_import(record.play_status, sheet.creature, current.condition)
                retire, _ = retired_on_import(record.play_status, current.retired_at is not None)
                # The version the update gives him: the export writes the file's lastmodified while it holds.
                columns[current.id] = {"imported_unused": {**record.kept, "version": str(current.version + 1)},
                                       **({"condition": condition} if condition else {}),
                                       **({"retired_at": now} if retire else {})}
                if retire:
                    retiring.append(sheet.name)
                to_update.append((current, sheet))
                updated.append(sheet.name)
            elif line.action == "create" and current is None:
                condition, _ = condition_on_import(record.play_status, sheet.creature, None)
                if condition:
                    conditions[sheet.name] = condition
                if retired_on_import(record.play_status, None)[0]:
                    retiring.append(sheet.name)
                kept[sheet.name] = {**record.kept, "version": "1"}
                to_create.append(sheet)
            else:
                raise ServiceError(
                    Phrase.message(N_("%(name)s changed in the chronicle since the preview. Preview the file again."),
                                   name=sheet.name), status=409
                )
        created = [sheet.name for sheet in to_create]
        summary = f"Imported {preview.filename}: {len(created)} created, {len(updated)} updated."
        ruling = Ruling.create(
            chronicle=chronicle,
            game_session=open_game_session(chronicle),
            narrator=user,
            kind="import",
            summary=summary,
            inputs={"file": preview.filename, "encoding": preview.encoding},
            outcome={"created": created, "updated": updated, "retired": retiring,
                     "conditions": {**conditions, **{c.name: columns[c.id]["condition"] for c, _ in to_update
                                                     if "condition" in columns[c.id]}}},
            steps=[{"text": summary, "rule": "Grapevine 3 XML exchange format (real-data README)"}],
        )
        update_characters(to_update, columns)  # in bulk: the write lock is held briefly
        ids = create_characters(chronicle, to_create, conditions, kept)
        new_retired = [cid for cid, sheet in zip(ids, to_create) if sheet.name in retiring]
        if new_retired:
            Character.update(retired_at=now).where(Character.id.in_(new_retired)).execute()
        by_name = {line.record.sheet.name: line.record.experience for line in chosen}
        history = {cid: by_name[sheet.name] for cid, sheet in zip(ids, to_create)}
        history.update({character.id: by_name[character.name] for character, _ in to_update})
        _write_experience(ruling, history, [c.id for c, _ in to_update])
        return ruling


def _write_experience(ruling: Ruling, history: dict[int, tuple[ExperienceLine, ...]], updated: list[int]) -> None:
    """The file's experience history as each character's log: lines an earlier import brought are
    replaced; a line recorded here that the file also holds (same kind, points, reason and second) is
    the file's now, the other lines recorded here stay."""
    for batch in chunked(updated, 500):
        earlier = [entry_id for (entry_id,) in ExperienceEntry.select(ExperienceEntry.id)
                   .join(Ruling, on=(ExperienceEntry.ruling == Ruling.id))
                   .where(ExperienceEntry.character.in_(batch) & (Ruling.kind == "import")).tuples()]
        for ids in chunked(earlier, 500):
            ExperienceEntry.delete().where(ExperienceEntry.id.in_(ids)).execute()
        for entry in ExperienceEntry.select().where(ExperienceEntry.character.in_(batch)):
            same = (entry.kind, entry.amount, entry.what, entry.created_at.replace(microsecond=0))
            if any((x.kind, x.amount, x.what, x.date) == same for x in history.get(entry.character_id, ())):
                entry.delete_instance()
    rows = [(cid, ruling.id, line.kind, line.amount, line.what, line.date)
            for cid, lines in history.items() for line in lines]
    bulk_insert(ExperienceEntry, ["character", "ruling", "kind", "amount", "what", "created_at"], rows)


def discard_pending(pending: PendingImport) -> None:
    """Forget a stashed upload (after it was applied)."""
    with db.atomic():
        PendingImport.delete().where(PendingImport.id == pending.id).execute()
