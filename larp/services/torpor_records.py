"""Torpor records kept in step with the health track: open a vampire's torpor when damage
puts him in it, end it when he leaves it (issue 7; the lengths are the rules core's,
:func:`larp.rules.torpor.enter_torpor`). Called from :func:`larp.services.records.store_state`
inside the use case's transaction; nothing here imports another use case.
"""

from __future__ import annotations

from datetime import date

from larp.models import Character, GameSession, Ruling, RulingCharacter, Torpor
from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import TorporRecord, enter_torpor
from larp.services import ServiceError
from larp.services.chronicles import chronicle_settings


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


def _create_torpor(character: Character, cause: str, on: date, settings: ChronicleSettings,
                   game_session: GameSession | None, ruling: Ruling | None):
    """Work out a torpor with the rules core and store its record; return (row, TorporStart)."""
    try:
        start = enter_torpor(cause, on, settings, met_rating=character.morality_rating,
                             tabletop_rating=tabletop_morality(character), who=character.name)
    except RulesError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    wake_session = None
    if start.sessions is not None:
        wake_session = (game_session.number if game_session else 0) + start.sessions
    row = Torpor.create(character=character, game_session=game_session, ruling=ruling, cause=cause,
                        started_on=on, table=start.table, rating=start.rating, length=start.length,
                        wake_on=start.wake_on, wake_session=wake_session)
    return row, start


def torpor_condition_changed(character: Character, old_condition: str, ruling: Ruling | None,
                             cause: str = "wounds") -> None:
    """Keep torpor records in step with a condition changed by a ruling (called by
    :func:`larp.services.records.store_state` inside its transaction).

    A vampire newly in torpor without a record gets one: the cause the rules core gave
    ("wounds" for damage, "blood_loss" for an empty pool), its length by the core's
    :func:`larp.rules.torpor.enter_torpor`, dated by the open game session (none open: the
    board says "torpor start not recorded"). A torpid vampire destroyed or otherwise out of
    torpor has his open record ended, with the new condition as the reason.
    """
    if ruling is None:
        link = (RulingCharacter.select().where(RulingCharacter.character == character)
                .order_by(RulingCharacter.id.desc()).first())
        ruling = link.ruling if link else None
    existing = open_torpor(character)
    session = (GameSession.select().where((GameSession.chronicle == character.chronicle_id)
                                          & GameSession.closed_at.is_null()).first())
    if character.condition == "torpor":
        if existing is None and character.creature == "vampire" and session is not None:
            _create_torpor(character, cause, session.date, chronicle_settings(character.chronicle), session,
                           ruling)
    elif existing is not None:
        existing.ended_on = max(session.date, existing.started_on) if session else existing.started_on
        existing.end_reason = character.condition
        existing.ended_by = ruling
        existing.save()


