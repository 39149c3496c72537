"""The record: writing a ruling with the characters it concerns.

Every change to a character goes through :func:`record_ruling`, which keeps
each character's changeable state as it was before the change, so that
the history can show it and an organiser can undo the last change.
"""

from __future__ import annotations

from typing import Any, Iterable

from larp.models import Character, Chronicle, GameSession, Ruling, RulingCharacter, User, utcnow
from larp.rules.explain import Step
from larp.services import ServiceError

#: The character fields a ruling may change (and an undo restores).
SNAPSHOT_FIELDS = (
    "damage_aggravated", "damage_lethal", "damage_bashing", "condition", "staked",
    "willpower_current", "willpower_permanent", "blood_current", "version",
)


def snapshot(character: Character) -> dict[str, Any]:
    """The changeable state of ``character`` as plain data."""
    return {name: getattr(character, name) for name in SNAPSHOT_FIELDS}


def refuse_if_recorded(request_token: str | None) -> None:
    """Refuse a form or API call whose one-time token was already recorded.

    Raises:
        ServiceError: 409 naming the ruling that used the token.
    """
    if not request_token:
        return
    earlier = Ruling.get_or_none(Ruling.request_token == request_token)
    if earlier is not None:
        raise ServiceError(f"This was already recorded as ruling #{earlier.id} ({earlier.summary}). "
                           "Nothing was recorded twice.", field="request_token", status=409)


def record_ruling(
    chronicle: Chronicle,
    narrator: User | None,
    kind: str,
    summary: str,
    steps: Iterable[Step | dict],
    participants: Iterable[tuple[Character, str]],
    *,
    game_session: GameSession | None = None,
    inputs: dict[str, Any] | None = None,
    outcome: dict[str, Any] | None = None,
    request_token: str | None = None,
) -> Ruling:
    """Write a ruling and link its characters (call inside the use case's transaction,
    before changing the characters, so their ``before`` state is the real one).

    Args:
        kind: what happened ("challenge", "damage", "healing", ...).
        summary: one sentence for lists.
        steps: the explanation (Steps or their dicts).
        participants: (character as loaded before the change, role) pairs.
        request_token: the one-time token of the form or API call; a second
            ruling with the same token is refused.

    Raises:
        ServiceError: 409 when ``request_token`` was already recorded.
    """
    refuse_if_recorded(request_token)
    step_dicts = [s.to_dict() if isinstance(s, Step) else dict(s) for s in steps]
    record = Ruling.create(
        chronicle=chronicle,
        game_session=game_session,
        narrator=narrator,
        kind=kind,
        created_at=utcnow(),
        summary=summary,
        inputs=inputs or {},
        outcome=outcome or {},
        steps=step_dicts,
        request_token=request_token or None,
    )
    rows = [dict(ruling=record, character=c, role=role, before=snapshot(c)) for c, role in participants]
    if rows:
        RulingCharacter.insert_many(rows).execute()
    return record


def charge(character: Character, game_session: GameSession, record: Ruling, category: str,
           traits: Iterable[str] = (), abilities: Iterable[tuple[str, int]] = (), willpower: int = 0) -> Character:
    """Write what a ruling costs a character (inside the use case's transaction).

    Traits lost and Ability levels expended are recorded against the game session
    (the sheet is not touched, so the next game session restores them), never the
    Intensity pseudo-Trait "Potence"; Willpower spent comes off the character with
    its version checked.

    Args:
        traits: the names of the Traits lost (one row per Trait, repeated for x2).
        abilities: (Ability name, levels expended) pairs.
        willpower: temporary Willpower Traits spent.

    Returns:
        The character as stored afterwards (its version moved on if Willpower was spent).

    Raises:
        Conflict: 409 when the character changed since it was read (the use case is retried).
    """
    from larp.models import AbilitySpend, TraitLoss
    from larp.rules.challenge import POTENCE_TRAIT
    from larp.services.health import Conflict

    for trait in traits:
        if trait != POTENCE_TRAIT:
            TraitLoss.create(character=character, game_session=game_session, category=category, name=trait,
                             count=1, ruling=record)
    for name, levels in abilities:
        AbilitySpend.create(character=character, game_session=game_session, name=name, levels=levels, ruling=record)
    if willpower:
        rows = (Character.update(willpower_current=Character.willpower_current - willpower,
                                 version=Character.version + 1, updated_at=utcnow())
                .where((Character.id == character.id) & (Character.version == character.version)
                       & (Character.willpower_current >= willpower))
                .execute())
        if rows != 1:
            raise Conflict(character.name)
        character = Character.get_by_id(character.id)
    return character
