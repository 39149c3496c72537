"""Writing damage to a stored character, with a version check."""

from __future__ import annotations

from larp.models import Character, utcnow
from larp.rules.health import HealthTrack
from larp.services import ServiceError


def store_track(character: Character, track: HealthTrack) -> Character:
    """Write ``track`` (damage, condition, stake) to ``character`` if nobody changed it meanwhile.

    Call inside a transaction. The update only applies when the stored
    ``version`` is still the one ``character`` was read with (optimistic
    locking, stack-notes 2.4), so two narrators never overwrite each other.

    Raises:
        ServiceError: 409 when the character changed since it was read.
    """
    values = dict(
        damage_aggravated=track.aggravated,
        damage_lethal=track.lethal,
        damage_bashing=track.bashing,
        condition=track.condition,
        staked=track.staked,
        version=Character.version + 1,
        updated_at=utcnow(),
    )
    rows = (
        Character.update(**values)
        .where((Character.id == character.id) & (Character.version == character.version))
        .execute()
    )
    if rows != 1:
        raise ServiceError(
            f"{character.name} was changed by someone else a moment ago. Look again and retry.", status=409
        )
    return Character.get_by_id(character.id)
