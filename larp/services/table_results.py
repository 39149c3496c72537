"""The table's own results (issue 17): a simple test the app would draw may be entered as thrown at
the table. Reads the throws a form or a JSON body gives (``random`` or nothing: the app draws that
throw) into the rules core's :class:`~larp.rules.simple_test.SimpleTest`, which remembers which throws
were drawn, so the record says whether the table threw them."""

from __future__ import annotations

from typing import Any, Mapping

from larp.rules.challenge import RandomSource, parse_throw
from larp.rules.explain import RulesError
from larp.rules.simple_test import SimpleTest, simple_test
from larp.services import ServiceError

RANDOM = "random"
#: The simple tests after a hit whose throws the table may enter (met-reference 3.7).
DAMAGE_TESTS = ("high_caliber", "staking1", "staking2")


def entered_test(throws: tuple[Any, Any] | None, field: str, rng: RandomSource | None) -> SimpleTest | None:
    """A simple test from the (player, narrator) throws entered at the table; a throw that is
    ``random`` or left out is drawn from ``rng`` by the rules core's
    :func:`larp.rules.simple_test.simple_test`; ``None`` when nothing was entered (the rules core
    then draws both, and says so).

    Raises:
        ServiceError: 422 naming ``field`` for an unknown throw or the Bomb.
    """
    if throws is None:
        return None
    try:
        player, narrator = (None if str(t or RANDOM).strip().lower() == RANDOM else parse_throw(str(t), field)
                            for t in throws)
        return simple_test(player, narrator, rng, field)
    except RulesError as exc:
        raise ServiceError(exc.message, field=exc.field or field) from None


def throws_from(data: Mapping[str, Any], prefix: str) -> tuple[Any, Any] | None:
    """The throws ``<prefix>_player`` and ``<prefix>_narrator`` of a form or JSON body, or ``None``
    when neither was entered (both left out or ``random``)."""
    pair = (data.get(f"{prefix}_player"), data.get(f"{prefix}_narrator"))
    if all(str(t or RANDOM).strip().lower() == RANDOM for t in pair):
        return None
    return pair
