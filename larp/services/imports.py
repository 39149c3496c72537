"""Importing Grapevine 3 files into a chronicle (issue 8): preview, then one transaction."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from datetime import timedelta

from peewee import chunked

from larp.db import db
from larp.grapevine import MAX_FILE_BYTES, GrapevineCharacter, GrapevineError, parse_grapevine
from larp.models import Character, Chronicle, PendingImport, Ruling, User, utcnow
from larp.services import ServiceError

from larp.services.sheet_store import create_characters, unstorable_parts, update_characters
from larp.services.chronicles import chronicle_settings, open_game_session
from larp.rules.health import live_levels

#: How long an uploaded file waits for its confirmation.
PENDING_HOURS = 12

#: Grapevine play statuses that mean the character is out of play (lower case).
CONDITION_BY_STATUS = {"torpor": "torpor", "destroyed": "final_death", "dead": "final_death",
                       "final death": "final_death"}


@dataclass
class PreviewLine:
    """One character of the preview: what will happen to it and what was not understood.

    ``action`` is ``"create"``, ``"update"`` (same name in the chronicle),
    ``"skip"`` (another creature type) or ``"fail"`` (unreadable record).
    """

    index: int
    record: GrapevineCharacter
    action: str
    existing_id: int | None = None
    notes: list[str] = field(default_factory=list)

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

    def count(self, action: str) -> int:
        """How many characters get ``action``."""
        return sum(1 for line in self.lines if line.action == action)


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
            XML (naming the line), a DTD or entities, a file larger than
            ``max_bytes`` or a file that is not Grapevine's.
    """
    if not data:
        raise ServiceError("Choose a Grapevine file (.gex or .gv3) to import.", field="file")
    try:
        parsed = parse_grapevine(data, filename, include_contact=include_contact,
                                 standard_track=live_levels(chronicle_settings(chronicle)), max_bytes=max_bytes)
    except GrapevineError as exc:
        raise ServiceError(exc.message, field="file") from None
    existing = {
        c.name: c.id for c in Character.select(Character.id, Character.name).where(Character.chronicle == chronicle)
    }
    lines: list[PreviewLine] = []
    parsed_records = []
    for record in parsed.characters:
        refused = unstorable_parts(record.sheet) if record.sheet is not None else []
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
                                     notes=[f"{record.name} appears again later in the file; the later record is used."]))
        elif record.name in existing:
            lines.append(PreviewLine(index, record, "update", existing_id=existing[record.name]))
        else:
            lines.append(PreviewLine(index, record, "create"))
    return ImportPreview(filename, parsed.encoding, lines, parsed.problems, parsed.left_out)


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
        raise ServiceError("This import has expired or was already applied. Upload the file again.", status=404)
    return pending, preview_file(chronicle, pending.filename, bytes(pending.data), pending.include_contact)


def apply_import(chronicle: Chronicle, user: User | None, preview: ImportPreview,
                 selected: set[int] | None = None) -> Ruling:
    """Create and update the previewed characters in one transaction, and record it.

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
        raise ServiceError("Nothing to import: tick at least one character.", field="selected")
    updated: list[str] = []
    to_create, to_update, conditions = [], [], {}
    with db.atomic():
        names = [line.record.sheet.name for line in chosen]
        present = {c.name: c for batch in chunked(names, 500) for c in
                   Character.select().where((Character.chronicle == chronicle) & Character.name.in_(batch))}
        for line in chosen:
            sheet = line.record.sheet
            current = present.get(sheet.name)
            if line.action == "update" and current is not None:
                to_update.append((current, sheet))
                updated.append(sheet.name)
            elif line.action == "create" and current is None:
                condition = CONDITION_BY_STATUS.get(line.record.play_status.lower())
                if condition:
                    conditions[sheet.name] = "dead" if condition == "final_death" and sheet.creature != "vampire" \
                        else condition
                to_create.append(sheet)
            else:
                raise ServiceError(
                    f"{sheet.name} changed in the chronicle since the preview. Preview the file again.", status=409
                )
        update_characters(to_update)  # in bulk: the write lock is held briefly
        create_characters(chronicle, to_create, conditions)
        created = [sheet.name for sheet in to_create]
        game_session = open_game_session(chronicle)
        summary = f"Imported {preview.filename}: {len(created)} created, {len(updated)} updated."
        return Ruling.create(
            chronicle=chronicle,
            game_session=game_session,
            narrator=user,
            kind="import",
            summary=summary,
            inputs={"file": preview.filename, "encoding": preview.encoding},
            outcome={"created": created, "updated": updated},
            steps=[{"text": summary, "rule": "Grapevine 3 XML exchange format (real-data README)"}],
        )


def discard_pending(pending: PendingImport) -> None:
    """Forget a stashed upload (after it was applied)."""
    with db.atomic():
        PendingImport.delete().where(PendingImport.id == pending.id).execute()
