"""The database's change stamp: a sign, read without a query, that something was committed since.

Issue 29 item 6 (a light request): every request reads its user, his chronicles and roles in one query
(:mod:`larp.services.session_user`), and on a server with several waitress threads that query costs more
than its own time: each SQLite call lets another thread in, and the threads hand the interpreter's lock to
each other several times a request. Kept from one request to the next, the answer needs no query as long
as nothing was committed since, by any connection of any process.

SQLite says so itself. A database in WAL mode keeps a shared-memory index beside it (the ``-shm`` file),
whose header every commit rewrites, by every connection of every process that opens the file: it holds a
counter "incremented with each transaction" and the last valid frame of the WAL (the WAL-index header, in
"Database File Format", https://www.sqlite.org/walformat.html). Rewriting that header *is* the commit, for
every reader after it, so a reader who sees the header unchanged sees the database unchanged. This
module maps the header read-only; a read is a copy of 96 bytes of memory (no system call, no lock).

The stamp holds a connection open for its lifetime: SQLite deletes the ``-shm`` file when the last
connection to the database closes, and a new one would not be the file mapped here. While the stamp's
connection is open, the file stays, and it is the one every process uses (it is also what keeps the WAL
files when the disk fills up: :func:`larp.db.keep_wal_index`).

PostgreSQL has no such header: there, every request reads its user (:func:`change_stamp` gives ``None``).
So does an SQLite database that is not in WAL mode, in memory, or opened read-only.
"""

from __future__ import annotations

import mmap
import os
import sqlite3
from pathlib import Path
from typing import Callable, Hashable, TypeVar

from larp.db import db

T = TypeVar("T")

#: The two copies of the WAL-index header at the start of the ``-shm`` file (48 bytes each).
HEADER_BYTES = 96
#: How many answers a stamp keeps at most (all are dropped when it is full): users' sessions and cards' polls.
KEPT_AT_MOST = 4096


class ChangeStamp:
    """The WAL-index header of one SQLite database, mapped read-only, and the connection that keeps it.

    Attributes:
        keeper: the connection held open so that the ``-shm`` file stays the one in use.
        kept: what the process remembers of this database, each with the stamp it was read under
            (key -> ``(stamp, answer)``, :func:`kept_or_read`); valid only while :meth:`read` gives that
            stamp still. Threads share it (single dict operations).
    """

    def __init__(self, keeper: sqlite3.Connection, header: mmap.mmap):
        self.keeper = keeper
        self._header = header
        self.kept: dict = {}

    def read(self) -> bytes:
        """The header as it stands: equal to an earlier read when nothing was committed between them."""
        return self._header[:HEADER_BYTES]

    def close(self) -> None:
        """Unmap the header and close the connection (a stamp read after this raises ``ValueError``)."""
        self._header.close()
        self.keeper.close()


def change_stamp(path: Path | None) -> ChangeStamp | None:
    """The change stamp of the SQLite database file ``path``, or ``None`` when there is none to read:
    no file (PostgreSQL, in memory), not in WAL mode, or its ``-shm`` file cannot be opened or is
    too short (a database opened read-only: then nothing is cached, every request reads)."""
    if path is None or not path.exists():
        return None
    keeper = None
    try:
        keeper = sqlite3.connect(str(path), check_same_thread=False)
        if keeper.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            keeper.close()
            return None
        keeper.execute("SELECT count(*) FROM sqlite_master").fetchone()  # maps (and makes) the -shm file
        fd = os.open(f"{path}-shm", os.O_RDONLY)
        try:
            if os.fstat(fd).st_size < HEADER_BYTES:
                raise OSError("the WAL index is too short")
            header = mmap.mmap(fd, HEADER_BYTES, access=mmap.ACCESS_READ)
        finally:
            os.close(fd)
    except (sqlite3.Error, OSError, ValueError):
        if keeper is not None:
            keeper.close()
        return None
    return ChangeStamp(keeper, header)


def kept_or_read(stamp: ChangeStamp | None, key: Hashable, read: Callable[[], T]) -> T:
    """``read()`` (a read of the database, whose answer depends on nothing but what is stored), or the answer
    it gave for ``key`` when nothing has been committed since (``stamp`` unchanged). Without a stamp
    (PostgreSQL) or inside a transaction (whose snapshot may be older than the stamp), always ``read()``.

    The stamp is read BEFORE ``read()``: a commit made after that read changes the stamp, so an answer kept
    under it is never older than it says. An answer must not be changed by its callers (they share it).
    """
    if stamp is None or db.in_transaction():
        return read()
    seen = stamp.read()
    kept = stamp.kept.get(key)
    if kept is not None and kept[0] == seen:
        return kept[1]
    answer = read()
    if len(stamp.kept) >= KEPT_AT_MOST:
        stamp.kept.clear()
    stamp.kept[key] = (seen, answer)
    return answer
