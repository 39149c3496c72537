"""A value of the rules core whose JSON-ready form is simply its fields, in order (the screen, the
record and the API read it): :class:`PlainFields`, for the small rulings that carry a few numbers and
their steps (hand actions, a movement allowance, a turn of aiming or reloading).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def _plain(value: Any) -> Any:
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


class PlainFields:
    """Gives a dataclass a ``to_dict`` that is each of its fields in order: a value with its own
    ``to_dict`` (a step, an aim, a gun) as that, a tuple as a list of those, a number, word or flag
    as it is. A value whose JSON says more or less than its fields writes its own ``to_dict``."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (for the screen, the record and the API)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}
