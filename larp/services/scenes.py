"""The scene as the narrator sets it on a screen or in a stored API call, read into the
rules core's :class:`~larp.rules.scene.Scene` (no rule is decided here: the core applies it).

Form fields (``prefix`` is a side's, e.g. ``challenger_`` or ``a12_``):

- the whole scene: ``darkness`` (none, partial, total), ``darkness_source`` (natural,
  shroud), ``range`` (hand_to_hand, close, near, mid, far; empty: not said);
- one side: ``<prefix>darkness`` (empty: the scene's), ``<prefix>shroud_caster``,
  ``<prefix>sight_off`` (his sight powers and sight Merits turned off for this ruling), ``<prefix>cover``,
  ``<prefix>armor`` (empty: what the sheet says he wears; ``none``; or a live armory
  key), ``<prefix>armor_left`` (levels left; empty: the full rating), and the weapon.

A stored API call gives the same per side (without the prefix), or a ``scene`` object
as the stateless API takes (:func:`larp.rules.scene.side_scene_from_dict`), and a
top-level ``scene`` object (:func:`larp.rules.scene.scene_from_dict`).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from larp.rules.darkness import DarknessLevel, DarknessSource
from larp.rules.explain import RulesError
from larp.rules.rulings.people import Person
from larp.rules.darkness import darkness_table
from larp.rules.scene import (RangeBand, Scene, SideScene, Worn, scene_from_dict, scene_with_sense, side_scene_from_dict,
                              sight_merits, sight_powers)
from larp.services import ServiceError, read_number

NONE = "none"

#: The whole scene's keys in a stored API call or a form: its darkness, range, the sense the challenges
#: depend on (LotNR Acute Sense), or a ``scene`` object.
SCENE_KEYS = ("darkness", "darkness_source", "range", "sense", "scene")


def _choice(cls: type, value: Any, field: str, text: str) -> Any:
    raw = str(value or "").strip().lower()
    if not raw:
        return None
    try:
        return cls(raw)
    except ValueError:
        raise ServiceError(text, field=field) from None


def flag(value: Any) -> bool:
    """A form or JSON flag: ``on``, ``true``, ``1``, ``yes`` or ``True``."""
    return value is True or (value is not None and str(value).strip().lower() in ("1", "true", "on", "yes"))


def side_scene(get: Callable[[str], Any], prefix: str, field_prefix: str | None = None,
               weapon: str | None = None) -> SideScene:
    """One side's scene from form fields or a stored API side (``get(key)`` reads ``prefix + key``).

    Args:
        weapon: the weapon the side uses, as the form or the call gave it (``None``: the sheet's).

    Raises:
        ServiceError: 422 naming the field of a malformed value.
    """
    f = (field_prefix if field_prefix is not None else prefix)
    nested = get("scene")
    if isinstance(nested, Mapping):
        own = side_scene_from_dict(nested, f"{f}scene")
    else:
        own = SideScene()
    darkness = _choice(DarknessLevel, get("darkness"), f + "darkness", "Darkness is none, partial or total.")
    source = _choice(DarknessSource, get("darkness_source"), f + "darkness_source",
                     "The darkness is natural or a Shroud of Night.")
    cover = get("cover")
    cover_n = own.cover
    if cover not in (None, ""):
        cover_n = read_number(cover, f + "cover", low=0, high=6, label="Cover")
    armor = own.armor
    raw_armor = get("armor")
    if isinstance(raw_armor, (list, tuple)) or (isinstance(raw_armor, str) and raw_armor.strip()):
        keys = [raw_armor] if isinstance(raw_armor, str) else list(raw_armor)
        keys = [str(k).strip() for k in keys if str(k).strip()]
        left_raw = get("armor_left")
        left = None
        if left_raw not in (None, ""):
            left = read_number(left_raw, f + "armor_left", label="Armor levels left")
        worn = tuple(Worn(k, left if i == 0 else None) for i, k in enumerate(keys) if k != NONE)
        for piece in worn:
            try:
                piece.levels_left()
            except RulesError as exc:
                raise ServiceError(exc.message, field=f + ("armor_left" if exc.field == "armor_left" else "armor")) \
                    from None
        armor = worn
    sight = dict(own.sight)
    if flag(get("sight_off")):
        sight.update({key: False for key in [*sight_powers(), *sight_merits()]})
    if source is DarknessSource.SHROUD and darkness is None and own.darkness is None:
        darkness = DarknessLevel.TOTAL  # inside a Shroud of Night: total darkness penalties (LotNR, met-reference 6.1)
    return SideScene(
        darkness=darkness if darkness is not None else own.darkness,
        darkness_source=source if source is not None else own.darkness_source,
        shroud_caster=flag(get("shroud_caster")) or own.shroud_caster,
        sight=sight, cover=cover_n, armor=armor,
        weapon=weapon if weapon is not None else own.weapon,
        range=_choice(RangeBand, get("range"), f + "range", "The range is hand_to_hand, close, near, mid or far.")
        or own.range,
    )


def scene_of(values: Mapping[str, Any], sides: Mapping[str, SideScene]) -> Scene:
    """The whole scene from form fields or a stored API call (``darkness``, ``darkness_source``,
    ``range``, ``sense``, or a ``scene`` object), with each side's part by name.

    Raises:
        ServiceError: 422 naming the field of a malformed value.
    """
    nested = values.get("scene")
    base = scene_from_dict(nested) if isinstance(nested, Mapping) else Scene()
    darkness = _choice(DarknessLevel, values.get("darkness"), "darkness", "Darkness is none, partial or total.")
    source = _choice(DarknessSource, values.get("darkness_source"), "darkness_source",
                     "The darkness is natural or a Shroud of Night.")
    band = _choice(RangeBand, values.get("range"), "range", "The range is hand_to_hand, close, near, mid or far.")
    merged = dict(base.sides)
    merged.update({name: part for name, part in sides.items()})
    scene = Scene(darkness=darkness or base.darkness, darkness_source=source or base.darkness_source,
                  range=band or base.range, sides=merged, sense=base.sense)
    return scene_with_sense(scene, values.get("sense"))


def held_sight(person: Person) -> list[str]:
    """The sight powers and the Merits that reduce darkness (Acute Sense, Concentration) the character
    holds (names), active by default in darkness (``data/darkness.toml``; 002 "Darkness")."""
    merits = darkness_table().reductions
    return [name for name in sight_powers().values() if person.holds(name)] + [
        merits[key].label for key, merit in sight_merits().items() if merit in person.qualities]
