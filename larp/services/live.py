"""What an open screen asks every 5 s (issue 18): has this character changed since I was drawn?

The answer is a fingerprint of everything a screen shows of a character tonight, read in ONE
indexed query written once per process (issue 29, "A light request"): his row, his sheet's Traits,
Abilities, powers, Merits and Flaws and what he carries, the Traits lost and Ability levels
expended in the open game session (not restored), which game session is open, and his
chronicle's settings (the health levels a track shows depend on them). It is worked out from
what is stored, not from the state a page builds, so a poll that finds nothing changed (the
common answer: a 204) loads no character and runs no rule.

Nothing has to be kept up to date on write: whatever changes one of those rows, by any service,
import, command or process, changes the fingerprint. A change to something no screen shows (his
notes, for instance) leaves it alone; a change that a screen does not show may still move it
(then the poll answers with the same block once, which costs a redraw, never a stale screen).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

from larp.db import run_sql
from larp.models import (
    Ability,
    AbilitySpend,
    Character,
    ChronicleSetting,
    Equipment,
    GameSession,
    MeritFlaw,
    Power,
    Trait,
    TraitLoss,
)

#: The character's columns no screen's live part shows (long texts: reading them would cost
#: more than the rest of the poll).
NOT_SHOWN = frozenset({"notes", "narrator_notes", "player_contact", "imported_unused"})
#: Columns of the other rows that only tie them to others or date them.
_LINKS = frozenset({"id", "character", "chronicle", "game_session", "ruling", "created_at", "restored_at"})
#: Between two columns of a row as the query writes it out (a control character no form sends).
_SEPARATOR = "\x1f"


@dataclass(frozen=True)
class Seen:
    """A character as an open screen's poll finds him.

    Attributes:
        character_id: his id.
        name: his name (the challenge screen names who changed).
        fingerprint: 16 hex digits; different whenever anything a screen shows of him changed.
    """

    character_id: int
    name: str
    fingerprint: str


def _row_text(model, alias: str, leave_out: frozenset[str]) -> str:
    """SQL for one text holding every column of ``model`` but ``leave_out``, as both engines cast it."""
    parts = [f'COALESCE(CAST({alias}."{field.column_name}" AS TEXT), \'\')'
             for field in model._meta.sorted_fields if field.name not in leave_out]
    return f" || '{_SEPARATOR}' || ".join(parts)


@lru_cache(maxsize=2)
def _statement(by: str) -> str:
    """The one query, its character picked ``by`` "id" (``?``: id, chronicle id) or "card"
    (``?``: the card token). Each row is (what, number, text)."""
    table = {model: model._meta.table_name for model in (Character, GameSession, Trait, Ability, Power, MeritFlaw,
                                                         Equipment, TraitLoss, AbilitySpend, ChronicleSetting)}
    where = ('c."id" = ? AND c."chronicle_id" = ?' if by == "id"
             else 'c."card_token" = ? AND c."retired_at" IS NULL')
    sheet = "".join(
        f' UNION ALL SELECT \'{kind}\', 0, {_row_text(model, "r", _LINKS)} FROM "{table[model]}" AS r '
        f'WHERE r."character_id" = (SELECT "id" FROM me)'
        for kind, model in (("trait", Trait), ("ability", Ability), ("power", Power), ("merit", MeritFlaw),
                            ("equipment", Equipment)))
    tonight = "".join(
        f' UNION ALL SELECT \'{kind}\', 0, {_row_text(model, "r", _LINKS)} FROM "{table[model]}" AS r '
        f'WHERE r."character_id" = (SELECT "id" FROM me) AND r."game_session_id" = (SELECT "id" FROM night) '
        f'AND r."restored_at" IS NULL'
        for kind, model in (("lost", TraitLoss), ("spent", AbilitySpend)))
    return (
        f'WITH me AS (SELECT c."id", c."chronicle_id" FROM "{table[Character]}" AS c WHERE {where}), '
        f'night AS (SELECT g."id", g."number", g."date" FROM "{table[GameSession]}" AS g '
        f'WHERE g."chronicle_id" = (SELECT "chronicle_id" FROM me) AND g."closed_at" IS NULL '
        f'ORDER BY g."number" DESC LIMIT 1) '
        f'SELECT \'character\', c."id", {_row_text(Character, "c", NOT_SHOWN)} FROM "{table[Character]}" AS c '
        f'WHERE c."id" = (SELECT "id" FROM me) '
        f'UNION ALL SELECT \'name\', 0, c."name" FROM "{table[Character]}" AS c WHERE c."id" = (SELECT "id" FROM me) '
        f'UNION ALL SELECT \'night\', n."id", CAST(n."number" AS TEXT) || \'{_SEPARATOR}\' || CAST(n."date" AS TEXT) '
        f'FROM night AS n'
        f'{sheet}{tonight} '
        f'UNION ALL SELECT \'setting\', 0, {_row_text(ChronicleSetting, "r", _LINKS)} '
        f'FROM "{table[ChronicleSetting]}" AS r WHERE r."chronicle_id" = (SELECT "chronicle_id" FROM me)')


def _seen(rows: list[tuple]) -> Seen | None:
    character_id = name = None
    for what, number, text in rows:
        if what == "character":
            character_id = number
        elif what == "name":
            name = text
    if character_id is None:
        return None
    digest = hashlib.sha256("\n".join(sorted(f"{what}\x1e{number}\x1e{text}" for what, number, text in rows))
                            .encode("utf-8"))
    return Seen(character_id, name or "", digest.hexdigest()[:16])


def seen_in_chronicle(chronicle_id: int, character_id: int) -> Seen | None:
    """Character ``character_id`` of chronicle ``chronicle_id`` as a poll finds him, or ``None``
    when he is not one of its characters. One query."""
    return _seen(run_sql(_statement("id"), (character_id, chronicle_id)).fetchall())


def seen_several_in_chronicle(chronicle_id: int, character_ids: list[int]) -> dict[int, Seen | None]:
    """:func:`seen_in_chronicle` of each of ``character_ids``, by id, in ONE query (the one query of
    each, side by side: the same rows, so the same fingerprints)."""
    if not character_ids:
        return {}
    one = _statement("id")
    sql = " UNION ALL ".join(f"SELECT {index} AS side, q.* FROM ({one}) AS q" for index in range(len(character_ids)))
    params = tuple(value for cid in character_ids for value in (cid, chronicle_id))
    rows: dict[int, list[tuple]] = {index: [] for index in range(len(character_ids))}
    for side, *row in run_sql(sql, params).fetchall():
        rows[int(side)].append(tuple(row))
    return {cid: _seen(rows[index]) for index, cid in enumerate(character_ids)}


def seen_by_card(token: str) -> Seen | None:
    """The character whose card carries ``token`` (as printed: upper case) as a poll finds him,
    or ``None`` for an unknown or revoked token or a retired character's card (the card page's
    own lookup, :func:`larp.services.cards.character_for_card`, says which). One query."""
    return _seen(run_sql(_statement("card"), (token,)).fetchall())


def live_fingerprint(character: Character) -> str:
    """The fingerprint a page puts in its poll's address (``v``) for ``character``: the one
    :func:`seen_in_chronicle` gives until he changes. Read it BEFORE what the page shows of him:
    a change made while the page is built then shows at its first poll (read after, the page
    could carry the new fingerprint with the old state and miss the change until the next)."""
    seen = seen_in_chronicle(character.chronicle_id, character.id)
    return seen.fingerprint if seen else ""
