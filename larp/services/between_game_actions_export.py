"""Between-game actions in the chronicle export and import (issue 33 items 3 and 6).

The export's optional key ``between_game_actions`` (format 3; a file without it has none) lists every
action of the chronicle's characters, in the order written: the character by card code, the game
session by number, the author and the answering organiser by user name (``author``, ``answered_by``:
an account of that name here gets the link back) and by the name shown (``author_name``,
``answered_by_name``, kept either way), the text, the answer, when each was written, edited,
withdrawn and answered, and the version. Not exported: the one-time token of the form that wrote it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from larp.models import BetweenGameAction, Chronicle, User

#: The columns of an action exported as they are.
ACTION_FIELDS = ("author_name", "text", "answer", "answered_by_name", "version")
#: Its times (ISO 8601, UTC).
ACTION_TIMES = ("written_at", "edited_at", "withdrawn_at", "answered_at")


def _out(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_actions(chronicle: Chronicle, code: dict[int, str], number: dict[int, int],
                   users: dict[int, str]) -> list[dict[str, Any]]:
    """The chronicle's between-game actions as the export writes them (see the module).

    Args:
        code: character id to card code; number: game session id to number; users: user id to user name.
    """
    rows = (BetweenGameAction.select().where(BetweenGameAction.chronicle == chronicle)
            .order_by(BetweenGameAction.id))
    return [{"character": code[a.character_id], "game_session": number[a.game_session_id],
             "author": users.get(a.author_id), "answered_by": users.get(a.answered_by_id),
             **{name: getattr(a, name) for name in ACTION_FIELDS},
             **{name: _out(getattr(a, name)) for name in ACTION_TIMES}} for a in rows]


def import_actions(data: dict[str, Any], chronicle: Chronicle, characters: dict[str, Any], sessions: dict[int, Any],
                   user: Callable[[str | None], User | None]) -> None:
    """Write the file's between-game actions, inside the import's transaction (the shape was checked by
    :mod:`larp.services.export_shape`).

    Raises:
        KeyError: an action naming a character or game session the file does not hold; ValueError: a
            version below 1 or a time that is not ISO 8601 (the import calls the file damaged).
    """
    for entry in data.get("between_game_actions") or []:
        version = entry.get("version", 1)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise ValueError(f"a between-game action's version must be a whole number from 1, not {version!r}")
        times = {name: datetime.fromisoformat(entry[name]) for name in ACTION_TIMES if entry.get(name)}
        if "written_at" not in times:
            raise ValueError("a between-game action needs written_at")
        BetweenGameAction.create(
            chronicle=chronicle, character=characters[entry["character"]],
            game_session=sessions[entry["game_session"]], author=user(entry.get("author")),
            answered_by=user(entry.get("answered_by")), text=entry["text"], answer=entry.get("answer") or "",
            author_name=entry.get("author_name") or entry.get("author") or "",
            answered_by_name=entry.get("answered_by_name") or entry.get("answered_by") or "",
            version=version, **times)
