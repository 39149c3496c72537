"""The record and the writes: a ruling with the characters it concerns, and what it changes.

Every change to a character goes through :func:`record_ruling`, which keeps
each character's changeable state as it was before the change, so that
the history can show it and an organiser can undo the last change. Then
:func:`apply_consequences` writes what the rules core computed (Traits lost,
Ability levels and Willpower spent through :func:`charge`, tracks through
:func:`store_track`), each with the optimistic version check that makes two
narrators' changes to one character safe (:class:`Conflict`, :func:`retrying`).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, TypeVar

from peewee import Expression

from larp.models import AbilitySpend, Character, Chronicle, GameSession, Ruling, RulingCharacter, TraitLoss, User, utcnow
from larp.rules.challenge import POTENCE_TRAIT
from larp.rules.explain import Step
from larp.rules.health import HealthTrack
from larp.rules.rulings.consequences import Consequences
from larp.services import ServiceError
from larp.services.torpor_records import torpor_condition_changed

T = TypeVar("T")

#: The character fields a ruling may change (and an undo restores).
SNAPSHOT_FIELDS = (
    "damage_aggravated", "damage_lethal", "damage_bashing", "condition", "staked",
    "willpower_current", "willpower_permanent", "blood_current", "agg_blood_marked", "treated", "version",
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


def _after_update(character: Character, values: Mapping[str, object]) -> Character:
    """The character as stored after an update of ``values`` that matched his version (no re-read:
    the update's own ``version + 1`` and the new values are applied to a copy)."""
    stored = type(character)(**dict(character.__data__))  # a new row object: the one loaded stays as it was
    stored.__rel__ = dict(character.__rel__)
    stored._dirty.clear()
    for name, value in values.items():
        if isinstance(value, Expression):
            continue
        setattr(stored, name, value)
    stored.version = character.version + 1
    return stored


def charge(character: Character, game_session: GameSession, record: Ruling, category: str,
           traits: Iterable[str] = (), abilities: Iterable[tuple[str, int]] = (), willpower: int = 0) -> Character:
    """Write what a ruling costs a character (inside the use case's transaction).

    Traits lost and Ability levels expended are recorded against the game session
    (the sheet is not touched, so the next game session restores them), never the
    Intensity pseudo-Trait "Potence"; Willpower spent comes off the character with
    its version checked. One statement for the Traits, one for the Abilities, one
    for the Willpower, each only when there is something to write.

    Args:
        traits: the names of the Traits lost (one row per Trait, repeated for x2).
        abilities: (Ability name, levels expended) pairs.
        willpower: temporary Willpower Traits spent.

    Returns:
        The character as stored afterwards (its version moved on if Willpower was spent).

    Raises:
        Conflict: 409 when the character changed since it was read (the use case is retried).
    """
    losses = [dict(character=character, game_session=game_session, category=category, name=trait, count=1,
                   ruling=record) for trait in traits if trait != POTENCE_TRAIT]
    if losses:
        TraitLoss.insert_many(losses).execute()
    spends = [dict(character=character, game_session=game_session, name=name, levels=levels, ruling=record)
              for name, levels in abilities if levels]
    if spends:
        AbilitySpend.insert_many(spends).execute()
    if willpower:
        rows = (Character.update(willpower_current=Character.willpower_current - willpower,
                                 version=Character.version + 1, updated_at=utcnow())
                .where((Character.id == character.id) & (Character.version == character.version)
                       & (Character.willpower_current >= willpower))
                .execute())
        if rows != 1:
            raise Conflict(character.name)
        character = _after_update(character, {"willpower_current": character.willpower_current - willpower})
    return character


def apply_consequences(characters: Mapping[str, Character], game_session: GameSession, record: Ruling,
                       consequences: Consequences) -> dict[str, Character]:
    """Write everything a ruling changes, as the rules core computed it (call inside the use case's
    transaction, after :func:`record_ruling`): for each character, the Traits lost and Ability levels
    expended (:func:`charge`, by category), the Willpower spent, and the new track with its condition
    and stake, the blood gained or spent and the Blood Traits marked against an aggravated wound
    (:func:`store_state`, which keeps torpor records in step with the cause the core gave).
    Nothing is decided here.

    Args:
        characters: the characters as loaded, by name (the consequences name them).

    Returns:
        The characters as stored afterwards, by name.

    Raises:
        Conflict: 409 when a character changed since it was read (the use case is retried).
    """
    out = dict(characters)
    for consequence in consequences.people:
        character = characters[consequence.name]
        categories = list(dict.fromkeys(cat for cat, _t in consequence.traits_lost)) or ["physical"]
        for index, category in enumerate(categories):
            first = index == 0
            character = charge(character, game_session, record, category, consequence.lost_in(category),
                               consequence.abilities if first else (), consequence.willpower if first else 0)
        if consequence.track is not None or consequence.blood or consequence.agg_marked is not None:
            blood = character.blood_current + consequence.blood if consequence.blood else None
            character = store_state(character, track=consequence.track, blood_current=blood, ruling=record,
                                    agg_blood_marked=consequence.agg_marked, torpor_cause=consequence.torpor_cause)
        out[consequence.name] = character
    return out


class Conflict(ServiceError):
    """The character changed between read and write (retried by :func:`retrying`)."""

    def __init__(self, name: str):
        super().__init__(f"{name} was changed by someone else a moment ago. Look again and retry.", status=409)


def store_track(character: Character, track: HealthTrack, *, blood_current: int | None = None,
                willpower_current: int | None = None, ruling: Ruling | None = None) -> Character:
    """Write ``track`` (damage, condition, stake) and optionally blood and Willpower to
    ``character`` if nobody changed it since it was read. Call inside a transaction,
    after :func:`record_ruling`.

    A vampire whom the track newly puts in torpor gets a torpor record (cause
    "wounds", dated by the open game session; issue 7), and one whom it takes
    out of torpor (Final Death) has his torpor ended. ``ruling`` is the ruling
    that made the change (default: the latest one touching the character).

    Raises:
        Conflict: 409 when the character changed since it was read.
    """
    return store_state(character, track=track, blood_current=blood_current,
                       willpower_current=willpower_current, ruling=ruling)


def store_state(character: Character, *, track: HealthTrack | None = None, blood_current: int | None = None,
                willpower_current: int | None = None, ruling: Ruling | None = None,
                agg_blood_marked: int | None = None, torpor_cause: str | None = None) -> Character:
    """Write a new track and/or blood pool and temporary Willpower to ``character``
    with the version check of :func:`store_track` (which see). ``torpor_cause``: why the
    rules core put him into torpor ("wounds" when not given: damage); ``agg_blood_marked``:
    the Blood Traits now marked against an aggravated wound.

    Raises:
        Conflict: 409 when the character changed since it was read.
    """
    values: dict[str, Any] = dict(version=Character.version + 1, updated_at=utcnow())
    if agg_blood_marked is not None:
        values["agg_blood_marked"] = agg_blood_marked
    if track is not None:
        values.update(damage_aggravated=track.aggravated, damage_lethal=track.lethal,
                      damage_bashing=track.bashing, condition=track.condition, staked=track.staked)
    if blood_current is not None:
        values["blood_current"] = blood_current
    if willpower_current is not None:
        values["willpower_current"] = willpower_current
    rows = (
        Character.update(**values)
        .where((Character.id == character.id) & (Character.version == character.version))
        .execute()
    )
    if rows != 1:
        raise Conflict(character.name)
    stored = _after_update(character, values)
    if track is not None and track.condition != character.condition and "torpor" in (track.condition,
                                                                                     character.condition):
        torpor_condition_changed(stored, character.condition, ruling, torpor_cause or "wounds")
    return stored


def retrying(use_case: Callable[[], T], attempts: int = 5) -> T:
    """Run ``use_case`` (one transaction) again on fresh data when it hits a :class:`Conflict`."""
    for attempt in range(attempts):
        try:
            return use_case()
        except Conflict:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover
