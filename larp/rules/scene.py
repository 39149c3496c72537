"""The scene a ruling happens in, as plain data: darkness for each side, the sight
powers each side has active, the range, cover, and what each side wears and carries.

Every ruling of the live game takes a :class:`Scene` (:mod:`larp.rules.rulings`):
a one-on-one challenge, each pair of a mass challenge, each bystander test, a
static challenge and damage by hand. The scene says what the narrator announced
("total darkness in here"), and, per side, what differs for one character (one
contestant inside a Shroud of Night, the other outside; a target behind a car; a
bystander in a ballistic vest). What the sheet already says is the default: a
sight power the character holds is active unless the narrator turns it off, the
armor he wears and the weapon he carries come from the sheet unless chosen for
this ruling.

The rules the scene feeds are elsewhere: darkness in :mod:`larp.rules.darkness`
(002 "Darkness"), cover in the tie totals (LotNR cover, met-reference 3.9),
armor in :func:`larp.rules.damage.damage_taken` (met-reference 3.7), the range
bands in the weapons' specials (Full-Auto within five feet, met-reference 3.7;
Spray's reach, 6.2). :func:`scene_from_dict` reads one from JSON-like data (the
stateful and stateless API take the same object).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from collections.abc import Mapping
from typing import Any

from larp.rules.damage import Armor
from larp.rules.damage import armor as armor_card
from larp.rules.darkness import DarknessLevel, DarknessSource, darkness_table
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.numbers import enum_value
from larp.rules.senses import sense_named

R_COVER = "LotNR cover (met-reference 3.9)"
R_ARMOR = "LotNR armor (met-reference 3.7)"
R_ARMOR_STACK = "Armor does not stack (Dark Epics; met-reference 3.7)"

#: Cover Traits a side may claim: one for most cover, more for bigger cover (a boulder 2;
#: LotNR cover, met-reference 3.9). Full cover cannot be hit at all: no challenge.
MAX_COVER = 6


class RangeBand(StrEnum):
    """How far apart the two sides are, in the bands the sources use.

    ``hand_to_hand`` (within reach: Brawl, Melee, bites), ``close`` (within five
    feet: Full-Auto and Mass-Trauma add a level, met-reference 3.7), ``near`` (five
    to ten feet: Dark Epics' Spray), ``mid`` (ten to twenty feet: a submachine gun's
    Spray) and ``far`` (past twenty feet, where a shotgun's Spray reaches three
    people, met-reference 6.2).
    """

    HAND_TO_HAND = "hand_to_hand"
    CLOSE = "close"
    NEAR = "near"
    MID = "mid"
    FAR = "far"

    def beyond(self, feet: int) -> bool:
        """Whether the whole band is farther than ``feet`` (a Spray's distance, met-reference 6.2)."""
        return {"hand_to_hand": 0, "close": 0, "near": 5, "mid": 10, "far": 20}[self.value] >= feet

    @property
    def beyond_reach(self) -> bool:
        """More than five feet: no hand weapon, fist or fang reaches; an attack is a ranged one
        (LotNR Potence: Might "not at range", met-reference 3.4)."""
        return self in (RangeBand.NEAR, RangeBand.MID, RangeBand.FAR)

    @property
    def within_five_feet(self) -> bool:
        """Hand to hand or close: Full-Auto's extra level applies (met-reference 3.7)."""
        return self in (RangeBand.HAND_TO_HAND, RangeBand.CLOSE)

    @property
    def label(self) -> str:
        """As the narrator says it."""
        return {"hand_to_hand": "hand to hand", "close": "within five feet", "near": "five to ten feet",
                "mid": "ten to twenty feet", "far": "past twenty feet"}[self.value]


@dataclass(frozen=True)
class Worn:
    """A piece of armor worn, and the health levels it has left.

    Attributes:
        armor: the live armory key (``data/armory.toml`` ``[live.armor.*]``), or a custom
            piece's key from the sheet.
        left: health levels it has left (``None``: its full rating; 0: used up).
        piece: a custom piece from the sheet (its name and rating); ``None``: the armory's.
    """

    armor: str
    left: int | None = None
    piece: Armor | None = None

    def card(self) -> Armor:
        """The piece: the custom one from the sheet, else the armory's.

        Raises:
            RulesError: an armory key that is not in the armory.
        """
        return self.piece if self.piece is not None else armor_card(self.armor, "live")

    def levels_left(self) -> int:
        """The levels it still absorbs (its rating when not said).

        Raises:
            RulesError: an unknown armor, or more levels left than its rating.
        """
        card = self.card()
        left = card.rating if self.left is None else self.left
        if isinstance(left, bool) or not isinstance(left, int) or not 0 <= left <= card.rating:
            raise RulesError(Phrase.message(N_("%(name)s has %(rating)s levels; %(left)s left is impossible."),
                                            name=card.name, rating=card.rating, left=repr(self.left)),
                             field="armor_left")
        return left


@dataclass(frozen=True)
class SideScene:
    """What the scene is for one side, where it differs from the whole scene or the sheet.

    Attributes:
        darkness: the darkness this side suffers; ``None``: the scene's.
        darkness_source: natural darkness or a Shroud of Night; ``None``: the scene's.
        shroud_caster: this side cast the Shroud of Night, so sees through it (LotNR Shroud).
        sight: sight powers turned on or off for this ruling, by their key in
            ``data/darkness.toml`` ``[reductions]`` (``"eyes_of_the_beast"``,
            ``"heightened_senses"``...). A power not named here is active when
            the sheet holds it (the default from the sheet).
        cover: cover Traits claimed (bonus Traits for ties, never bid; LotNR, 0 to 6).
        armor: what this side wears for this ruling; ``None``: what the sheet
            says. Armor does not stack: the piece with the most levels left counts.
        weapon: the live armory key of what this side carries and uses; ``None``:
            the sheet's weapon (or the side's own choice of weapon); ``""``: bare hands.
        range: how far this side is from the one it faces; ``None``: the scene's.
    """

    darkness: DarknessLevel | None = None
    darkness_source: DarknessSource | None = None
    shroud_caster: bool = False
    sight: Mapping[str, bool] = field(default_factory=dict)
    cover: int = 0
    armor: tuple[Worn, ...] | None = None
    weapon: str | None = None
    range: RangeBand | None = None


@dataclass(frozen=True)
class Scene:
    """The scene of a ruling.

    Attributes:
        darkness: the darkness the narrator announced for everyone (002 "Darkness").
        darkness_source: natural darkness, or inside a Shroud of Night.
        range: how far apart the sides are; ``None`` when nobody said (no
            range-dependent rule applies).
        sides: what differs for each side, by the character's name.
        sense: the sense the ruling's challenges depend on, as the narrator names it (a key of
            ``data/senses.toml``; ``""``: none named): a side with Acute Sense for it is two
            Traits up, in light as in darkness (LotNR Acute Sense, met-reference 1.3; setting
            ``darkness_merits``).
    """

    darkness: DarknessLevel = DarknessLevel.NONE
    darkness_source: DarknessSource = DarknessSource.NATURAL
    range: RangeBand | None = None
    sides: Mapping[str, SideScene] = field(default_factory=dict)
    sense: str = ""

    def side(self, name: str) -> SideScene:
        """What the scene is for the character called ``name`` (empty if nothing differs)."""
        return self.sides.get(name) or SideScene()

    def darkness_for(self, name: str) -> tuple[DarknessLevel, DarknessSource]:
        """The darkness level and source ``name`` suffers: his own, else the scene's."""
        own = self.side(name)
        level = own.darkness if own.darkness is not None else self.darkness
        source = own.darkness_source if own.darkness_source is not None else self.darkness_source
        return level, source

    def range_for(self, name: str) -> RangeBand | None:
        """How far ``name`` is from the one he faces: his own band, else the scene's."""
        own = self.side(name).range
        return own if own is not None else self.range

    def dark(self) -> bool:
        """Whether anyone in the scene suffers darkness."""
        return self.darkness is not DarknessLevel.NONE or any(
            s.darkness not in (None, DarknessLevel.NONE) for s in self.sides.values())

    def with_side(self, name: str, **changes: Any) -> "Scene":
        """A copy where ``name``'s side has ``changes`` (the other sides unchanged)."""
        sides = dict(self.sides)
        sides[name] = replace(self.side(name), **changes)
        return replace(self, sides=sides)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the record keeps it with the ruling's inputs)."""
        out: dict[str, Any] = {"darkness": self.darkness.value, "darkness_source": self.darkness_source.value,
                               "range": self.range.value if self.range else None}
        if self.sense:
            out["sense"] = self.sense
        sides = {}
        for name, s in self.sides.items():
            entry: dict[str, Any] = {}
            if s.darkness is not None:
                entry["darkness"] = s.darkness.value
            if s.darkness_source is not None:
                entry["darkness_source"] = s.darkness_source.value
            if s.shroud_caster:
                entry["shroud_caster"] = True
            if s.sight:
                entry["sight"] = dict(s.sight)
            if s.cover:
                entry["cover"] = s.cover
            if s.armor is not None:
                entry["armor"] = [{"armor": w.armor, "left": w.left} for w in s.armor]  # custom pieces by key
            if s.weapon is not None:
                entry["weapon"] = s.weapon
            if s.range is not None:
                entry["range"] = s.range.value
            sides[name] = entry
        out["sides"] = sides
        return out


def sight_powers() -> dict[str, str]:
    """The sight powers the scene can turn on or off: ``data/darkness.toml`` rows that a
    Discipline power gives, key to the power's name (Heightened Senses, Eyes of the Beast...)."""
    return {row.key: row.power for row in darkness_table().reductions.values() if row.power}


def sight_merits() -> dict[str, str]:
    """The Merits that reduce darkness (``data/darkness.toml`` rows a Merit gives), key to the
    Merit's catalogue key (Acute Sense, Concentration); the scene can turn them off like a power."""
    return {row.key: row.merit for row in darkness_table().reductions.values() if row.merit}


def best_armor(worn: tuple[Worn, ...]) -> Worn | None:
    """The piece that counts when several are worn: armor does not stack, so the one with the
    most levels left (the first listed on equal levels); ``None`` if nothing is worn
    (Dark Epics, met-reference 3.7).

    Raises:
        RulesError: an unknown armor or an impossible number of levels left.
    """
    best: Worn | None = None
    most = -1
    for piece in worn:
        left = piece.levels_left()
        if left > most:
            best, most = piece, left
    return best


# ----- JSON-like data in ------------------------------------------------------


def _darkness_and_range(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The darkness, its source and the range band a scene or one side's scene gives (left out: not said)."""
    out: dict[str, Any] = {}
    for key, cls in (("darkness", DarknessLevel), ("darkness_source", DarknessSource), ("range", RangeBand)):
        if data.get(key) not in (None, ""):
            out[key] = enum_value(cls, data[key], f"{where}.{key}")
    return out


def worn_from_data(value: Any, where: str) -> tuple[Worn, ...]:
    """Armor worn from JSON-like data: a key (``"ballistic_vest"``), a list of keys, or
    objects ``{"armor": "plate", "left": 1}``; ``[]`` or ``""`` for none.

    Raises:
        RulesError: an unknown armor or a malformed value, naming ``where``.
    """
    if value in (None, "", []):
        return ()
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, str):
            worn = Worn(item.strip())
        elif isinstance(item, Mapping):
            unknown = sorted(set(item) - {"armor", "left"})
            if unknown:
                raise RulesError(Phrase.message(N_("Unknown field %(value)s."), value=repr(unknown[0])),
                                 field=f"{where}.{unknown[0]}")
            key, left = item.get("armor"), item.get("left")
            if not isinstance(key, str) or (left is not None and (isinstance(left, bool) or not isinstance(left, int))):
                raise RulesError(Phrase.message(N_("Give the armor's live armory key and the levels left.")),
                                 field=where)
            worn = Worn(key.strip(), left)
        else:
            raise RulesError(Phrase.message(N_("Give the armor worn as a live armory key (ballistic_vest, "
                                               "plate...).")), field=where)
        try:
            worn.levels_left()
        except RulesError as exc:
            raise RulesError(exc.message, field=where) from None
        out.append(worn)
    return tuple(out)


SIDE_KEYS = ("darkness", "darkness_source", "shroud_caster", "sight", "cover", "armor", "weapon", "range")


def side_scene_from_dict(data: Any, where: str) -> SideScene:
    """One side's scene from JSON-like data (the keys of :class:`SideScene`; ``sight`` is an
    object of sight power key to true/false, ``armor`` as :func:`worn_from_data`).

    Raises:
        RulesError: a malformed value, naming the field (``<where>.<key>``).
    """
    if data is None:
        return SideScene()
    if not isinstance(data, Mapping):
        raise RulesError(Phrase.message(N_("Give the side's scene as an object.")), field=where)
    unknown = sorted(set(data) - set(SIDE_KEYS))
    if unknown:
        raise RulesError(Phrase.message(N_("Unknown field %(value)s."), value=repr(unknown[0])),
                         field=f"{where}.{unknown[0]}")
    kwargs = _darkness_and_range(data, where)
    if "shroud_caster" in data:
        if not isinstance(data["shroud_caster"], bool):
            raise RulesError(Phrase.message(N_("Give true or false.")), field=f"{where}.shroud_caster")
        kwargs["shroud_caster"] = data["shroud_caster"]
    if data.get("sight") is not None:
        sight = data["sight"]
        known = sight_powers()
        if isinstance(sight, list):
            sight = {key: True for key in sight}
        if not isinstance(sight, Mapping) or not all(isinstance(v, bool) for v in sight.values()):
            raise RulesError(Phrase.message(N_("Give the sight powers as an object of key to true or false.")),
                             field=f"{where}.sight")
        for key in sight:
            if key not in known and key not in darkness_table().reductions:
                raise RulesError(Phrase.message(N_("%(key)s is not a sight power (known: %(value)s)."),
                                                key=repr(key), value=', '.join(sorted(known))),
                                 field=f"{where}.sight")
        kwargs["sight"] = dict(sight)
    if "cover" in data:
        cover = data["cover"]
        if isinstance(cover, bool) or not isinstance(cover, int) or not 0 <= cover <= MAX_COVER:
            raise RulesError(Phrase.message(N_("Cover is 0 to %(max_cover)s Traits (LotNR cover)."),
                                            max_cover=MAX_COVER), field=f"{where}.cover")
        kwargs["cover"] = cover
    if "armor" in data:
        kwargs["armor"] = worn_from_data(data["armor"], f"{where}.armor")
    if "weapon" in data:
        if data["weapon"] is not None and not isinstance(data["weapon"], str):
            raise RulesError(Phrase.message(N_("Give the weapon's live armory key, or \"\" for bare hands.")),
                             field=f"{where}.weapon")
        kwargs["weapon"] = (data["weapon"] or "").strip() if data["weapon"] is not None else None
    return SideScene(**kwargs)


def scene_from_dict(data: Any, where: str = "scene") -> Scene:
    """A scene from JSON-like data: ``{"darkness": "total", "darkness_source": "natural",
    "range": "close", "sense": "hearing", "sides": {"<name>": {<the keys of SideScene>}}}`` (``sense``: the
    sense the ruling's challenges depend on, a word of ``data/senses.toml``; LotNR Acute Sense).

    Raises:
        RulesError: a malformed value, naming the field (``scene.darkness``...).
    """
    if data is None:
        data = {}
    if isinstance(data, Scene):
        return data
    if not isinstance(data, Mapping):
        raise RulesError(Phrase.message(N_("Give the scene as an object.")), field=where)
    unknown = sorted(set(data) - {"darkness", "darkness_source", "range", "sides", "sense"})
    if unknown:
        raise RulesError(Phrase.message(N_("Unknown field %(value)s."), value=repr(unknown[0])),
                         field=f"{where}.{unknown[0]}")
    kwargs = _darkness_and_range(data, where)
    raw_sides = data.get("sides") or {}
    if not isinstance(raw_sides, Mapping):
        raise RulesError(Phrase.message(N_("Give the sides' scenes as an object by name.")), field=f"{where}.sides")
    sides = {str(name): side_scene_from_dict(raw, f"{where}.sides.{name}") for name, raw in raw_sides.items()}
    if "sense" in data:
        kwargs["sense"] = sense_named(data["sense"], f"{where}.sense")
    return Scene(sides=sides, **kwargs)


def scene_with_sense(scene: Scene, sense: Any, field: str = "sense") -> Scene:
    """``scene`` with the sense given beside it (a challenge's top-level ``sense``): the one said
    wins when the scene names none; two different senses are refused (a challenge depends on one).

    Raises:
        RulesError: a word that names no sense, or a sense other than the scene's, naming ``field``.
    """
    named = sense_named(sense, field)
    if not named or named == scene.sense:
        return scene
    if scene.sense:
        raise RulesError(Phrase.message(N_("The scene says the challenge depends on %(sense)s, not %(named)s: give "
                                           "one sense."), sense=scene.sense, named=named),
                         field=field)
    return replace(scene, sense=named)
