"""Who is asking: the user of a session cookie, his chronicles and his role in each, read in ONE
query on every request (issue 29, "A light request").

A logout, "log out everywhere", a new password, a deactivation (each moves the user's session
generation on, or ends ``active``), a demotion or a removal from a chronicle, made by any ``larp
serve`` process on the same database, takes effect at the very next request. On PostgreSQL every
request reads the user's row again. On SQLite the answer is kept from one request to the next
only while the database's change stamp (:mod:`larp.change_stamp`) says that nothing at all was
committed since, by any connection of any process: the first request after any commit reads it
again. The SQL is written once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from larp.change_stamp import ChangeStamp, kept_or_read
from larp.db import model_from_row, run_sql
from larp.models import Chronicle, Membership, User


@dataclass(frozen=True)
class SessionUser:
    """The active user a session cookie names, as this request found him.

    Attributes:
        user: his account (``role`` is the role the account was made with; a request's role is his
            role in its chronicle, :mod:`larp.web.scope`).
        chronicles: the chronicles he works in with his role in each, by name, archived ones left
            out: what :func:`larp.services.memberships.chronicles_of` gives.
        several_chronicles: whether the server holds more than one chronicle in use (then every
            page's URL names its chronicle).
    """

    user: User
    chronicles: list[tuple[Chronicle, str]]
    several_chronicles: bool


@lru_cache(maxsize=1)
def _statement() -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The query (``?`` placeholders: user id, active, session generation) and the user's and the
    chronicle's field names in the order it selects them; written once per process."""
    users, members, chronicles = User._meta.table_name, Membership._meta.table_name, Chronicle._meta.table_name
    user_fields = tuple(f.name for f in User._meta.sorted_fields)
    chronicle_fields = tuple(f.name for f in Chronicle._meta.sorted_fields)
    columns = ([f'u."{User._meta.fields[n].column_name}"' for n in user_fields] + ['m."role"']
               + [f'c."{Chronicle._meta.fields[n].column_name}"' for n in chronicle_fields])
    sql = (f'SELECT {", ".join(columns)}, '
           f'(SELECT COUNT(*) FROM (SELECT 1 FROM "{chronicles}" AS a WHERE a."archived_at" IS NULL LIMIT 2) AS x) '
           f'FROM "{users}" AS u '
           f'LEFT JOIN "{members}" AS m ON m."user_id" = u."id" '
           f'LEFT JOIN "{chronicles}" AS c ON c."id" = m."chronicle_id" AND c."archived_at" IS NULL '
           f'WHERE u."id" = ? AND u."active" = ? AND u."session_generation" = ? '
           f'ORDER BY c."name"')
    return sql, user_fields, chronicle_fields


def session_user(user_id: int | None, generation: object, stamp: ChangeStamp | None = None) -> SessionUser | None:
    """The active user ``user_id`` with his chronicles, when ``generation`` (the session cookie's)
    is still his session generation; else ``None`` (the session has ended: logout, "log out
    everywhere", a new password, deactivation, or no such user). One query, or none when ``stamp``
    (the SQLite database's change stamp) says nothing was committed since the same question was
    last asked. The models are new objects each time: a view may change them.
    """
    if user_id is None or not isinstance(generation, int) or isinstance(generation, bool):
        return None
    sql, user_fields, chronicle_fields = _statement()
    rows = kept_or_read(stamp, ("user", user_id, generation),
                        lambda: tuple(run_sql(sql, (user_id, True, generation)).fetchall()))
    if not rows:
        return None
    first = rows[0]
    user = model_from_row(User, user_fields, first[:len(user_fields)])
    role_at = len(user_fields)
    chronicles = [(model_from_row(Chronicle, chronicle_fields, row[role_at + 1:-1]), row[role_at])
                  for row in rows if row[role_at + 1] is not None]
    return SessionUser(user=user, chronicles=chronicles, several_chronicles=first[-1] > 1)

