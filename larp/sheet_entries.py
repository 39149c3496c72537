"""The parts of a character sheet (issue 14): its categories and creatures, and one entry each
for a Trait, a Discipline power, a Merit or Flaw, a weapon and an armor.

:class:`larp.sheet.CharacterSheet` is made of them and :mod:`larp.sheet_checks` builds them from
what a form, a file or the API sent. It imports neither Flask nor peewee.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CREATURES = ("vampire", "ghoul", "mortal")
CATEGORIES = ("physical", "social", "mental")
TABLETOP_ATTRIBUTES = (
    "Strength", "Dexterity", "Stamina",
    "Charisma", "Manipulation", "Appearance",
    "Perception", "Intelligence", "Wits",
)
#: What kind of weapon a custom weapon is: blades and blunt weapons are melee (strength
#: matters: Puissance), blunt ones let Prowess make bashing lethal, firearms follow seed
#: 002's firearm rule against vampires, ranged ones (bows, thrown) neither (met-reference
#: 3.4, 3.7).
WEAPON_KINDS = ("blade", "blunt", "firearm", "ranged")


@dataclass
class TraitEntry:
    """An adjective Trait with its count ("Quick x2" is name "Quick", count 2)."""

    name: str
    count: int = 1


@dataclass
class PowerEntry:
    """One Discipline power: ``discipline`` "Celerity", ``power`` "Alacrity", ``level`` 1.

    ``level`` is the power's place in the Discipline (1 Basic ... 5 Advanced, 6-9
    Elder to Methuselah). A path's power is named ``"Path of Blood: A Taste for
    Blood"``. ``custom``: not in ``data/disciplines.toml`` (a chronicle's own power,
    or one above Advanced); a power that is not custom must be in that table, at
    the table's level.
    """

    discipline: str
    power: str
    level: int
    custom: bool = False


@dataclass
class QualityEntry:
    """A Merit or Flaw: ``key`` the catalogue's id (``data/merits_flaws.toml``; "" for a custom one),
    ``cost`` in Traits, ``note`` what the sheet says with it ("Hearing" for Acute Sense)."""

    name: str
    cost: int
    key: str = ""
    note: str = ""


@dataclass
class WeaponEntry:
    """A weapon the character carries: an armory card (``key``, live profile of
    ``data/armory.toml``; its numbers come from the card) or a custom weapon with
    its own numbers.

    Attributes:
        bonus_traits: Traits added in ties and overbids, never bid (met-reference 3.7).
        damage: health levels per successful strike.
        damage_type: bashing, lethal or aggravated.
        negative_traits: the card's Negative Traits.
        specials: special abilities (``larp.rules.damage.WEAPON_SPECIALS``).
        kind: one of ``WEAPON_KINDS``.
    """

    name: str
    key: str = ""
    bonus_traits: int = 0
    damage: int = 1
    damage_type: str = "bashing"
    negative_traits: list[str] = field(default_factory=list)
    specials: list[str] = field(default_factory=list)
    kind: str = "blade"
    note: str = ""


@dataclass
class ArmorEntry:
    """Armor the character wears: an armory piece (``key``, live profile) or custom.

    Attributes:
        rating: extra health levels, lost before the track (met-reference 3.7).
        covers: what it protects (``larp.rules.damage.ARMOR_COVERS``).
    """

    name: str
    key: str = ""
    rating: int = 1
    negative_traits: list[str] = field(default_factory=list)
    covers: list[str] = field(default_factory=list)
    note: str = ""
