"""Requests to spend experience in the chronicle export and import (issue 33 items 2 and 6).

``spend_requests`` is an optional key of format 3 (a reader of format 3 may ignore it; a file without
it has none): each request with its character (card code), what was asked (the request as data), its
words, cost, note, state, answer, who asked and answered (user names, and the names kept), when, the
places in ``rulings`` of the ruling that spent it and of the one that took it back, and the sheet
fields the approval wrote (after and before: what an undo puts back). ``what_said`` (issue 36): what it buys as
a phrase's data, or ``null`` (files from earlier versions have none).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any, Callable

from larp.models import Chronicle, Ruling, SpendRequest, User
from larp.rules.experience import experience_points, points_text
from larp.rules.experience_purchase import PurchaseRequest


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_spend_requests(character_ids: list[int], code: dict[int, str], index: dict[int, int],
                          users: dict[int, str]) -> list[dict[str, Any]]:
    """The requests of the characters ``character_ids``, oldest first, as the export writes them
    (``code``: character id to card code; ``index``: ruling id to its place; ``users``: user id to name)."""
    return [{
        "character": code[s.character_id], "request": s.request, "what": s.what, "what_said": s.what_said,
        "cost": points_text(s.cost),
        "note": s.note, "state": s.state, "answer": s.answer, "asked_by": users.get(s.asked_by_id),
        "asked_by_name": s.asked_by_name, "answered_by": users.get(s.answered_by_id),
        "answered_by_name": s.answered_by_name, "asked_at": _when(s.asked_at), "answered_at": _when(s.answered_at),
        "ruling": index.get(s.ruling_id), "undo_ruling": index.get(s.undo_ruling_id), "bought": s.bought,
        "before": s.before,
    } for s in SpendRequest.select().where(SpendRequest.character.in_(character_ids)).order_by(SpendRequest.id)]


def import_spend_requests(data: dict[str, Any], chronicle: Chronicle, characters: dict,
                          ruling_at: Callable[[int | None], Ruling | None],
                          user: Callable[[str | None], User | None]) -> None:
    """Write the file's requests to spend experience inside the import's transaction.

    Raises:
        ValueError, KeyError, IndexError: a state the app does not know, a request it cannot read, a cost
            that is not an amount, or a reference the file does not hold (the import calls it damaged).
    """
    for entry in data.get("spend_requests") or []:
        if entry.get("state") not in SpendRequest.STATES:
            raise ValueError(f"a request's state is one of {', '.join(SpendRequest.STATES)}, not {entry.get('state')!r}")
        request = PurchaseRequest.from_dict(entry.get("request")).to_dict()
        cost = experience_points(entry.get("cost", "0"), "cost", high=Decimal(100_000))
        for key in ("bought", "before", "what_said"):
            if not isinstance(entry.get(key) or {}, dict):
                raise ValueError(f"a request's {key} must be an object")
        SpendRequest.create(
            chronicle=chronicle, character=characters[entry["character"]], request=request,
            what=entry.get("what") or "", what_said=entry.get("what_said") or None, cost=cost,
            note=entry.get("note") or "", state=entry["state"],
            answer=entry.get("answer") or "", asked_by=user(entry.get("asked_by")),
            asked_by_name=entry.get("asked_by_name") or "", answered_by=user(entry.get("answered_by")),
            answered_by_name=entry.get("answered_by_name") or "",
            asked_at=datetime.fromisoformat(entry["asked_at"]),
            answered_at=datetime.fromisoformat(entry["answered_at"]) if entry.get("answered_at") else None,
            ruling=ruling_at(entry.get("ruling")), undo_ruling=ruling_at(entry.get("undo_ruling")),
            bought=entry.get("bought") or {}, before=entry.get("before") or {})
