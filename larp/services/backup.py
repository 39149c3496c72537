"""A consistent copy of the live SQLite database (``larp backup``; issue 7, the disk-full case issue 27).

It uses SQLite's online backup API, so the copy is consistent even while the app writes. PostgreSQL
is backed up with its own ``pg_dump``; a chronicle moves between installs with ``larp export``
(:mod:`larp.services.transfer`).
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from larp.rules.explain import N_, Phrase
from larp.services import ServiceError


def backup_sqlite(database_url: str, target: Path) -> Path:
    """Copy the live SQLite database at ``database_url`` to ``target`` with SQLite's
    online backup API (a consistent copy even while the app is writing).

    Raises:
        ServiceError: 422 not an SQLite database, the target exists, or its folder cannot be made;
            507 the disk is full ("The disk is full: the backup was not written"; the part written is
            removed, so no half backup is left to be mistaken for one).
    """
    if not database_url.startswith("sqlite:///"):
        raise ServiceError(Phrase.message(N_("Only an SQLite database can be backed up this way; back up "
                                             "PostgreSQL with pg_dump.")),
                           field="database")
    source = Path(database_url.removeprefix("sqlite:///"))
    if not source.exists():
        raise ServiceError(Phrase.message(N_("There is no database at %(source)s."), source=source), field="database")
    if target.exists():
        raise ServiceError(Phrase.message(N_("%(target)s already exists: choose another file name."),
                                          target=target), field="path")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise ServiceError(DISK_FULL, field="path", status=507) from None
        raise ServiceError(Phrase.message(N_("Cannot make the folder %(parent)s: %(strerror)s."),
                                          parent=target.parent, strerror=exc.strerror), field="path") from None
    src = sqlite3.connect(str(source))
    try:
        dest = sqlite3.connect(str(target))
        try:
            with dest:
                src.backup(dest)
        finally:
            dest.close()
    except (sqlite3.Error, OSError) as exc:
        _remove_partial(target)
        full = (isinstance(exc, OSError) and exc.errno == errno.ENOSPC) or "full" in str(exc).lower()
        if full:
            raise ServiceError(DISK_FULL, field="path", status=507) from None
        raise ServiceError(Phrase.message(N_("The backup was not written: %(exc)s."), exc=exc), field="path") from None
    finally:
        src.close()
    return target


#: What ``larp backup`` says when the disk fills up (issue 27).
DISK_FULL = "The disk is full: the backup was not written."


def _remove_partial(target: Path) -> None:
    for path in (target, Path(f"{target}-journal"), Path(f"{target}-wal"), Path(f"{target}-shm")):
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass
