"""Writing damage (and blood and Willpower) to a stored character, with a version check."""

from __future__ import annotations

from larp.models import Character, Ruling, utcnow
from larp.rules.health import HealthTrack
from larp.services import ServiceError


def store_track(character: Character, track: HealthTrack, ruling: Ruling | None = None) -> Character:
    """Write ``track`` (damage, condition, stake) to ``character`` if nobody changed it meanwhile.

    Call inside a transaction, after :func:`larp.services.records.record_ruling`.
    The update only applies when the stored ``version`` is still the one
    ``character`` was read with (optimistic locking, stack-notes 2.4), so two
    narrators never overwrite each other.

    A vampire whom the track newly puts in torpor gets a torpor record (cause
    "wounds", dated by the open game session; issue 7), and one whom it takes
    out of torpor (Final Death) has his torpor ended. ``ruling`` is the ruling
    that made the change (default: the latest one touching the character).

    Raises:
        ServiceError: 409 when the character changed since it was read.
    """
    return store_state(character, track=track, ruling=ruling)


def store_state(character: Character, *, track: HealthTrack | None = None, blood_current: int | None = None,
                willpower_current: int | None = None, ruling: Ruling | None = None) -> Character:
    """Write a new track and/or blood pool and temporary Willpower to ``character``
    with the version check of :func:`store_track` (which see).

    Raises:
        ServiceError: 409 when the character changed since it was read.
    """
    values: dict = dict(version=Character.version + 1, updated_at=utcnow())
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
        raise ServiceError(
            f"{character.name} was changed by someone else a moment ago. Look again and retry.", status=409
        )
    stored = Character.get_by_id(character.id)
    if track is not None and track.condition != character.condition and "torpor" in (track.condition,
                                                                                     character.condition):
        from larp.services.torpor import torpor_condition_changed

        torpor_condition_changed(stored, character.condition, ruling)
    return stored
