"""What the narrator's session remembers of the scene (issue 18): the characters he ruled on or whose
card he scanned in the last minutes, so each is one tap away in the pickers, and the cards scanned
one after the other, so two scans make a challenge.

Kept in the signed session cookie: a few ids and times, no rules. The clock is the web layer's.
"""

from __future__ import annotations

import time
from typing import Iterable

from flask import session

#: How long a character stays "in this scene" after he was ruled on or scanned (seconds): a scene at a
#: live event runs some minutes; this is the screen's memory, not a rule.
RECENT_SECONDS = 20 * 60
#: How long a scanned card waits for the next scan to make a challenge with it (seconds).
CHAIN_SECONDS = 5 * 60
#: At most this many characters are offered (the most recent first).
MAX_RECENT = 8


def _entries(key: str, within: float, now: float) -> list[list]:
    raw = session.get(key)
    if not isinstance(raw, list):
        return []
    return [e for e in raw if isinstance(e, list) and len(e) == 2 and isinstance(e[0], int)
            and isinstance(e[1], (int, float)) and now - e[1] <= within]


def _put(key: str, ids: Iterable[int], within: float, now: float) -> None:
    ids = [i for i in ids if isinstance(i, int)]
    kept = [e for e in _entries(key, within, now) if e[0] not in ids]
    session[key] = ([[i, int(now)] for i in ids] + kept)[:MAX_RECENT]


def remember(*character_ids: int, now: float | None = None) -> None:
    """Put ``character_ids`` first among the characters in this scene (ruled on or scanned just now)."""
    _put("scene_recent", character_ids, RECENT_SECONDS, time.time() if now is None else now)


def remember_scan(character_id: int, now: float | None = None) -> int | None:
    """Note that the narrator scanned ``character_id``'s card; returns the id of the card he scanned
    just before it (within :data:`CHAIN_SECONDS`, another character), for "A challenges B", or ``None``."""
    now = time.time() if now is None else now
    before = next((e[0] for e in _entries("scene_scans", CHAIN_SECONDS, now) if e[0] != character_id), None)
    _put("scene_scans", [character_id], CHAIN_SECONDS, now)
    remember(character_id, now=now)
    return before


def recent(exclude: Iterable[int] = (), now: float | None = None) -> list[int]:
    """The ids of the characters in this scene, the most recent first, without ``exclude``."""
    skip = set(exclude)
    return [e[0] for e in _entries("scene_recent", RECENT_SECONDS, time.time() if now is None else now)
            if e[0] not in skip]


def remember_board(query: dict, now: float | None = None) -> None:
    """Keep the combat board being set up (``PeopleForm.query()``: its target, attackers and fields), so the next
    card scanned can join the attack in one tap (issue 18). A board without a target is no mass challenge."""
    now = time.time() if now is None else now
    if query.get("target"):
        session["scene_board"] = [int(now), {k: v for k, v in query.items() if k not in ("ruling", "csrf_token")}]
    else:
        session.pop("scene_board", None)


def board_in_progress(now: float | None = None) -> dict | None:
    """The combat board the narrator set up in the last :data:`CHAIN_SECONDS` (as query parameters), or
    ``None``: a scan waits that long to make a challenge, and a board waits as long for its next attacker."""
    raw = session.get("scene_board")
    now = time.time() if now is None else now
    if not (isinstance(raw, list) and len(raw) == 2 and isinstance(raw[0], int) and isinstance(raw[1], dict)):
        return None
    if now - raw[0] > CHAIN_SECONDS or not isinstance(raw[1].get("target"), int):
        return None
    return raw[1]
