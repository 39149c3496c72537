"""Writing what a ruling changes on its characters, after :func:`larp.services.records.record_ruling`.

:func:`apply_consequences` writes what the rules core computed (Traits lost, Ability levels and
Willpower spent through :func:`charge`, tracks, blood and torpor through :func:`store_state`), each
with the version check kept as a safety net (:class:`Conflict`, retried by :func:`retrying`). Nothing
is decided here. How check-then-write is made safe on both engines: :mod:`larp.services.records`.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, TypeVar

from peewee import Expression

from larp.models import AbilitySpend, Character, GameSession, Ruling, TraitLoss, utcnow
from larp.rules.challenge import POTENCE_TRAIT
from larp.rules.explain import N_, Phrase
from larp.rules.health import HealthTrack
from larp.rules.rulings.consequences import Consequences
from larp.rules.torpor import TorporStart
from larp.services import ServiceError
from larp.services.torpor_records import FROM_TRACK, torpor_condition_changed
from larp.webhooks.outbox import announce_condition

T = TypeVar("T")


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
    """Write what a ruling costs a character (inside the use case's transaction, which loaded the
    character locked, so the Traits and Ability levels its caller found left are still left:
    each is spent exactly once, on both engines).

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
    losses = _loss_rows(character, game_session, record, category, traits)
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


def _loss_rows(character: Character, game_session: GameSession, record: Ruling, category: str,
               traits: Iterable[str]) -> list[dict]:
    """The ``TraitLoss`` rows of ``traits`` lost (one a Trait; never the Intensity pseudo-Trait "Potence")."""
    return [dict(character=character, game_session=game_session, category=category, name=trait, count=1,
                 ruling=record) for trait in traits if trait != POTENCE_TRAIT]


def apply_consequences(characters: Mapping[str, Character], game_session: GameSession, record: Ruling,
                       consequences: Consequences) -> dict[str, Character]:
    """Write everything a ruling changes, as the rules core computed it (call inside the use case's
    transaction, after :func:`record_ruling`): for each character, the Traits lost (everyone's in one
    statement) and Ability levels expended (:func:`charge`, by category), the Willpower spent, and the new track with its condition
    and stake, the blood gained or spent and the Blood Traits marked against an aggravated wound
    (:func:`store_state`, which stores the torpor the core worked out: cause, length, wake date).
    Nothing is decided here.

    Args:
        characters: the characters as loaded, by name (the consequences name them).

    Returns:
        The characters as stored afterwards, by name.

    Raises:
        Conflict: 409 when a character changed since it was read (the use case is retried).
    """
    out = dict(characters)
    losses: list[dict] = []  # everyone's Traits lost, in one statement (issue 29 item 6: statements a tap)
    for consequence in consequences.people:
        character = characters[consequence.name]
        categories = list(dict.fromkeys(cat for cat, _t in consequence.traits_lost)) or ["physical"]
        for index, category in enumerate(categories):
            first = index == 0
            losses += _loss_rows(character, game_session, record, category, consequence.lost_in(category))
            character = charge(character, game_session, record, category, (),
                               consequence.abilities if first else (), consequence.willpower if first else 0)
        if consequence.track is not None or consequence.blood or consequence.agg_marked is not None:
            blood = character.blood_current + consequence.blood if consequence.blood else None
            character = store_state(character, track=consequence.track, blood_current=blood, ruling=record,
                                    agg_blood_marked=consequence.agg_marked, torpor=consequence.torpor)
        out[consequence.name] = character
    if losses:
        TraitLoss.insert_many(losses).execute()
    return out


class Conflict(ServiceError):
    """The character changed between read and write (retried by :func:`retrying`)."""

    def __init__(self, name: str):
        super().__init__(Phrase.message(N_("%(name)s was changed by someone else a moment ago. Look again and "
                                           "retry."), name=name), status=409)


def store_track(character: Character, track: HealthTrack, *, blood_current: int | None = None,
                willpower_current: int | None = None, ruling: Ruling | None = None,
                torpor: TorporStart | None = FROM_TRACK) -> Character:
    """Write ``track`` (damage, condition, stake) and optionally blood and Willpower to
    ``character`` if nobody changed it since it was read. Call inside a transaction,
    after :func:`record_ruling`.

    A vampire whom the track newly puts in torpor gets a torpor record (cause "wounds", dated by
    the open game session, worked out by the rules core from the track: this write is no ruling of
    the core, whose rulings bring their torpor in their consequences, :func:`apply_consequences`,
    or as ``torpor``: the tabletop attack's), and one whom it takes out of torpor (Final Death) has
    his torpor ended. ``ruling`` is the ruling
    that made the change (default: the latest one touching the character).

    Raises:
        Conflict: 409 when the character changed since it was read.
    """
    return store_state(character, track=track, blood_current=blood_current,
                       willpower_current=willpower_current, ruling=ruling, torpor=torpor)


def store_state(character: Character, *, track: HealthTrack | None = None, blood_current: int | None = None,
                willpower_current: int | None = None, ruling: Ruling | None = None,
                agg_blood_marked: int | None = None, torpor: TorporStart | None = FROM_TRACK) -> Character:
    """Write a new track and/or blood pool and temporary Willpower to ``character``
    with the version check of :func:`store_track` (which see). ``torpor``: the torpor the
    rules core worked out for the ruling that put him in it (its cause, length and wake date,
    :class:`larp.rules.rulings.Consequence`), stored as it is (``None``: the core began none;
    left out, by a write that is no rules-core ruling, it is worked out from the track,
    :func:`larp.services.torpor_records.torpor_condition_changed`); ``agg_blood_marked``:
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
        torpor_condition_changed(stored, character.condition, ruling, torpor)
    if track is not None and track.condition != character.condition:
        announce_condition(stored, character.condition, ruling)  # issue 35: torpor, Final Death
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
