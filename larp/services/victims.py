"""Whom a vampire may feed on, and the drain that kills each (LotNR "Blood", 000 "Health"): the character page's
feeding form lists them, and says beside each mortal or ghoul how many Blood Traits drained kill him."""

from __future__ import annotations

from peewee import fn

from larp.catalogues import merits_flaws
from larp.models import Character, Chronicle, MeritFlaw, Power
from larp.rules.blood import drain_that_kills
from larp.rules.settings import ChronicleSettings
from larp.services.characters import health_track


def feeding_victims(chronicle: Chronicle, drinker: Character) -> list[Character]:
    """The characters ``drinker`` (a vampire) may feed on, mortals and ghouls first, in the ONE query that lists them
    (issue 29: a tap's redraw stays within 12 statements), each carrying, as ``merit_<kind>_<key>``, how many of the
    Merits and Flaws that add health levels he has (Huge Size, LotNR), and as ``mettle_powers`` whether he has
    Fortitude's Mettle: what :func:`drains_that_kill` needs."""
    query = Character.select().where((Character.chronicle == chronicle) & Character.retired_at.is_null()
                                     & (Character.id != drinker.id))
    for entry in merits_flaws().values():
        if entry.health_levels:
            held = (MeritFlaw.select(fn.COUNT(MeritFlaw.id)).where((MeritFlaw.character == Character.id)
                                                                   & (MeritFlaw.kind == entry.kind)
                                                                   & (MeritFlaw.key == entry.key)))
            query = query.select_extend(held.alias(f"merit_{entry.kind}_{entry.key}"))
    # Fortitude's Mettle adds a Healthy level (met-reference 3.5; a ghoul may have it): as has_mettle reads it.
    mettle = Power.select(fn.COUNT(Power.id)).where(
        (Power.character == Character.id)
        & ((fn.LOWER(Power.name) == "mettle") | ((fn.LOWER(Power.discipline) == "fortitude") & (Power.level >= 2))))
    query = query.select_extend(mettle.alias("mettle_powers"))
    return sorted(query.order_by(Character.name).limit(200), key=lambda c: (c.creature == "vampire", c.name))


def drains_that_kill(victims: list[Character], settings: ChronicleSettings) -> dict[int, int]:
    """For each mortal or ghoul among ``victims`` (:func:`feeding_victims`), the fewest Blood Traits whose drain kills him,
    by id: the rules core's :func:`larp.rules.blood.drain_that_kills` on his live track (his levels, the chronicle's
    his Merits' and Mettle's own). The feeding form says it beside his name (new user 9: a drain of six killed a wounded
    mortal unannounced)."""
    adding = [entry for entry in merits_flaws().values() if entry.health_levels]
    kills = {}
    for victim in victims:
        if victim.creature == "vampire":
            continue
        extra = tuple(level for entry in adding
                      for _ in range(int(getattr(victim, f"merit_{entry.kind}_{entry.key}", 0) or 0))
                      for level in entry.health_levels)
        track = health_track(victim, settings, mettle=bool(getattr(victim, "mettle_powers", 0)), extra_levels=extra)
        count = drain_that_kills(track, settings)
        if count:
            kills[victim.id] = count
    return kills
