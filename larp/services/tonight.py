"""Who is here tonight, for the pickers (issue 32): the characters checked in for the open game session.

Below both :mod:`larp.services.characters` (whose pickers list the characters checked in first) and
:mod:`larp.services.checkins` (the door that checks them in).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from peewee import Case

from larp.models import Character, CheckIn, Chronicle, GameSession
from larp.services.chronicles import chronicle_settings


def checked_in_tonight(chronicle: Chronicle):
    """A subquery of the ids of the characters checked in for ``chronicle``'s open game session (none
    when no game session is open)."""
    open_session = GameSession.select(GameSession.id).where((GameSession.chronicle == chronicle)
                                                            & GameSession.closed_at.is_null())
    return CheckIn.select(CheckIn.character).where(CheckIn.game_session.in_(open_session))


@dataclass(frozen=True)
class PickerOrder:
    """How the pickers list characters tonight (issue 32): ``here`` is 1 for a character checked in
    tonight, else 0 (``None`` until the door has checked anyone in: then nothing changes), and
    ``only_tonight`` the setting ``pickers_tonight_only``."""

    here: Any = None
    only_tonight: bool = False


def picker_order(chronicle: Chronicle) -> PickerOrder:
    """The pickers' order tonight (see :class:`PickerOrder`): one query while the door has checked no one
    in, two once it has (the setting)."""
    here_ids = checked_in_tonight(chronicle)
    if not here_ids.exists():
        return PickerOrder()
    return PickerOrder(Case(None, [(Character.id.in_(here_ids), 1)], 0),
                       bool(chronicle_settings(chronicle)["pickers_tonight_only"]))
