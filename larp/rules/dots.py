"""One live rating as tabletop dots (LotNR Converting Characters, met-reference 4.3, T25).

The lowest module of the conversion, so that both :mod:`larp.rules.conversion` (a whole character)
and :mod:`larp.rules.torpor.lengths` (Humanity or Path dots for the torpor table) use the same rule
without importing each other. Pure.
"""

from __future__ import annotations

#: The most dots a tabletop rating has.
MAX_DOTS = 10


def rating_to_dots(traits: int) -> int:
    """A live Morality or Willpower rating (MET Traits) as tabletop dots: doubled, at most 10 (the
    forward conversion rounds up, so an odd tabletop rating comes back one higher: MET 4 may have
    been tabletop 7 or 8, and reads 8; met-reference 4.3, T25)."""
    return min(MAX_DOTS, 2 * traits)
