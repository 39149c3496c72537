"""Fighters and dice for the tabletop rules tests of issue 37 (not a test module)."""

from __future__ import annotations

from larp.rules.health import HealthTrack, new_track
from larp.rules.tabletop.combat import Fighter

ATTRS = ("Strength", "Dexterity", "Stamina", "Charisma", "Manipulation", "Appearance", "Perception",
         "Intelligence", "Wits")


def fighter(key: str = "a", creature: str = "vampire", track: HealthTrack | None = None, **ratings) -> Fighter:
    """A fighter named after ``key`` with every Attribute at 2 unless given; Abilities, Disciplines and gear by
    keyword; ``damage``: levels of lethal damage already marked."""
    attributes = {a: ratings.pop(a, 2) for a in ATTRS}
    damage = ratings.pop("damage", 0)
    if track is None:
        track = new_track(creature)
        if damage:
            track = HealthTrack(levels=track.levels, lethal=damage, creature=creature)
    return Fighter(key, key.capitalize(), track, attributes, ratings.pop("abilities", {}),
                   ratings.pop("disciplines", {}), **ratings)


def hits(n: int, pool: int, face: int = 9) -> list[int]:
    """``pool`` dice with exactly ``n`` successes (at difficulties up to ``face``) and no 1s."""
    return [face] * n + [2] * (pool - n)


def texts(ruling) -> str:
    """Every step of a ruling, in one string."""
    return " | ".join(s.text for s in ruling.steps)
