"""Torpor records kept in step with the health track: store the torpor the rules core worked out
when a ruling puts a vampire in it, end it when he leaves it (issue 7; issue 29: the length, wake
date and cause are the core's, :class:`larp.rules.rulings.Consequence` ``torpor``, from
:func:`larp.rules.torpor.enter_torpor`; nothing is decided here). Called from
:func:`larp.services.consequences.store_state` inside the use case's transaction; nothing here imports
another use case.
"""

from __future__ import annotations

from typing import Any

from larp.models import Character, GameSession, Ruling, RulingCharacter, Torpor
from larp.rules.torpor import TorporRecord, TorporStart, enter_torpor
from larp.services.chronicles import chronicle_settings

#: ``start`` of :func:`torpor_condition_changed` when the caller brings no rules-core ruling (a track
#: written by hand, the demo's set-up): the torpor is then worked out from the track alone.
FROM_TRACK: Any = object()


def open_torpor(character: Character) -> Torpor | None:
    """The character's torpor that has not ended, if any."""
    return (Torpor.select().where((Torpor.character == character) & Torpor.ended_on.is_null())
            .order_by(Torpor.id.desc()).first())


def as_record(torpor: Torpor) -> TorporRecord:
    """The stored torpor as the rules core's :class:`TorporRecord`."""
    return TorporRecord(torpor.cause, torpor.started_on, torpor.wake_on, torpor.wake_session)


def tabletop_morality(character: Character) -> int | None:
    """The character's tabletop Humanity or Path dots, if the sheet's tabletop ratings hold them
    (under the morality's name, e.g. "Humanity")."""
    value = (character.tabletop or {}).get(character.morality_name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def store_torpor(character: Character, start: TorporStart, game_session: GameSession | int | None,
                 ruling: Ruling | None) -> Torpor:
    """Store the torpor the rules core worked out (:func:`larp.rules.torpor.enter_torpor`: cause,
    table, rating, length, wake date or game session) for ``character``, begun in ``game_session``
    by ``ruling``. Nothing is decided here."""
    return Torpor.create(character=character, game_session=game_session, ruling=ruling, cause=start.cause,
                         started_on=start.started_on, table=start.table, rating=start.rating, length=start.length,
                         wake_on=start.wake_on, wake_session=start.wake_session)


def _from_track(character: Character, session: GameSession | None) -> TorporStart | None:
    """The torpor of a vampire put in torpor by a track written outside a rules-core ruling (cause
    "wounds", dated by the open game session; none open: none, and the board says "torpor start not
    recorded"): the rules core's :func:`larp.rules.torpor.enter_torpor`, called once."""
    if character.creature != "vampire" or session is None:
        return None
    return enter_torpor("wounds", session.date, chronicle_settings(character.chronicle),
                        met_rating=character.morality_rating, tabletop_rating=tabletop_morality(character),
                        who=character.name, session=session.number)


def torpor_condition_changed(character: Character, old_condition: str, ruling: Ruling | None,
                             start: TorporStart | None = FROM_TRACK) -> None:
    """Keep torpor records in step with a condition changed by a ruling (called by
    :func:`larp.services.consequences.store_state` inside its transaction).

    A vampire newly in torpor without a record gets the torpor the rules core worked out for the
    ruling (``start``: its cause, length and wake date, dated by the game session the ruling was
    made in); the core gives none when no game session is open (the board then says "torpor start
    not recorded"). A track written outside a rules-core ruling (``start`` left as :data:`FROM_TRACK`:
    the demo's set-up, a direct write) has it worked out from the track. A torpid vampire destroyed or otherwise out of torpor has his open record
    ended, with the new condition as the reason.
    """
    if ruling is None:
        link = (RulingCharacter.select().where(RulingCharacter.character == character)
                .order_by(RulingCharacter.id.desc()).first())
        ruling = link.ruling if link else None
    existing = open_torpor(character)
    if character.condition == "torpor":
        if existing is not None:
            return
        if start is FROM_TRACK:
            session = (GameSession.select().where((GameSession.chronicle == character.chronicle_id)
                                                  & GameSession.closed_at.is_null()).first())
            start = _from_track(character, session)
            where: Any = session
        else:
            where = ruling.game_session_id if ruling is not None else None
        if start is not None and character.creature == "vampire":
            store_torpor(character, start, where, ruling)
    elif existing is not None:
        session = (GameSession.select().where((GameSession.chronicle == character.chronicle_id)
                                              & GameSession.closed_at.is_null()).first())
        existing.ended_on = max(session.date, existing.started_on) if session else existing.started_on
        existing.end_reason = character.condition
        existing.ended_by = ruling
        existing.save()
