"""A missed shot into a group's inputs and ruling: how the weapon fires, the bystanders,
the shot, each bystander's result and the whole ruling (002 "Firing Guns into Groups of
People"; Spray, met-reference 6.2). Part of :mod:`larp.rules.firing_into_groups`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from larp.rules.challenge import (
    Category,
    ChallengeOptions,
    ChallengeRuling,
    Contestant,
    Outcome,
    TestCall,
    Throw,
)
from larp.rules.damage import weapon as armory_weapon
from larp.rules.hits import Body
from larp.rules.pairs import SeveralRuling
from larp.rules.scene import RangeBand
from larp.rules.settings import ChronicleSettings


R_GROUPS = '002 "Firing Guns into Groups of People"'
R_SPRAY = "LotNR Spray (met-reference 6.2)"


class Fire(StrEnum):
    """How the weapon fired: one shot at a time, or several rounds / an area effect (002)."""

    SINGLE = "single"
    GROUP = "group"


@dataclass(frozen=True)
class Bystander:
    """A person near the target (within three feet, or down range past it).

    Attributes:
        side: the bystander as the defender of his test: name, current Traits,
            his bid (one Trait, more if Wounded), Ability levels left (only
            Dodge counts here)...
        throw: his sign in his test.
        firer_throw: single shots: the firer's sign in this bystander's test.
        saw_it_coming: he could see the attack coming, so he may retest by
            expending Dodge (the narrator's call, 002).
        tests: later tests of his pair, in order (Dodge retest, the firer's
            Firearms retest...): challenger = the firer, defender = him.
        body: what damage does to him.
    """

    side: Contestant
    throw: Throw | None = None
    firer_throw: Throw | None = None
    saw_it_coming: bool = False
    tests: tuple[TestCall, ...] = ()
    body: Body = Body()  # noqa: RUF009 - a frozen dataclass, never mutated


@dataclass(frozen=True)
class ShotIntoGroup:
    """A missed shot into a group of people.

    Attributes:
        firer: the firer: name, current Traits (the shot's own loss already
            taken off), ``bid``: the Traits he risks in the bystander tests, in
            order, one per test (more if Wounded). With Firearms he may bid
            Mental Traits (``category``).
        weapon: the live armory key of the gun (pistol, shotgun, smg...).
        target: the name of the character he missed (not a bystander).
        bystanders: the people near the target, closest first (the narrator orders them).
        firer_throw: several rounds or an area effect: his one sign against everyone.
        bursts: an automatic weapon fires bursts (``True``) or one shot at a time.
        extra_traits: the Traits he bid with the shot to avoid bystanders, one
            per bystander excluded (lost: the shot missed).
        excluded: the bystanders those extra Traits exclude; all of them when
            he bid one per bystander.
        careful_aim: he took careful aim and fires every other round: no bystander is at risk.
        close_range: within five feet (Full-Auto adds a level).
        category: the challenge's category (Physical).
        range: how far the group is from the firer (a Spray needs distance, met-reference 6.2);
            ``None``: not said.
        deliberate_spray: the firer sprays a chosen group on purpose (LotNR Spray, met-reference
            6.2, T24) rather than missing a target: the Spray's distances decide whether it sprays
            under every reading of ``spray_limits`` (a missed blast or burst is a mass challenge at
            any range under 002's).
        sense: the sense the bystander tests depend on (``""``: none named): Acute Sense for it is
            two Traits up (LotNR Acute Sense, met-reference 1.3).
    """

    firer: Contestant
    weapon: str
    target: str
    bystanders: tuple[Bystander, ...]
    firer_throw: Throw | None = None
    bursts: bool = True
    extra_traits: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    careful_aim: bool = False
    close_range: bool = False
    category: Category = Category.PHYSICAL
    range: RangeBand | None = None
    deliberate_spray: bool = False
    sense: str = ""


@dataclass(frozen=True)
class BystanderResult:
    """What happened to one bystander.

    Attributes:
        name: his name.
        tested: the firer tested against him.
        excluded: an extra Trait (or careful aim) kept him out of harm.
        note: why no test was made (excluded, careful aim, the round stopped, out of reach).
        outcome: ``CHALLENGER`` (the firer won: he is hit), ``DEFENDER``, ``DRAW``; ``None`` untested.
        hit: he was hit.
        firer_throw, throw: the first signs of his test.
        ruling: his test's challenge ruling.
        options: what each side of his test may still call (retests, overbids).
    """

    name: str
    tested: bool
    excluded: bool = False
    note: str = ""
    outcome: Outcome | None = None
    hit: bool = False
    firer_throw: Throw | None = None
    throw: Throw | None = None
    ruling: ChallengeRuling | None = None
    options: ChallengeOptions | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"name": self.name, "tested": self.tested, "excluded": self.excluded, "note": self.note,
                "outcome": self.outcome.value if self.outcome else None, "hit": self.hit,
                "firer_throw": self.firer_throw.value if self.firer_throw else None,
                "throw": self.throw.value if self.throw else None,
                "ruling": self.ruling.to_dict() if self.ruling else None,
                "options": self.options.to_dict() if self.options else None}


@dataclass(frozen=True, kw_only=True)
class ShotIntoGroupRuling(SeveralRuling):
    """The ruling on a missed shot into a group: the bystanders hit, the tracks, Traits lost (the
    firer's extra Traits among them), Ability levels spent (Dodge, Firearms...), steps, summary,
    pending bystanders (their test waits for its forced darkness retest) and armor left of
    :class:`~larp.rules.pairs.SeveralRuling`, and

    Attributes:
        fire: single shots or a mass challenge (several rounds, area effect).
        bystanders: each bystander's result, closest first.
    """

    fire: Fire
    bystanders: tuple[BystanderResult, ...]

    def result(self, name: str) -> BystanderResult:
        """The result of the bystander ``name``."""
        return next(b for b in self.bystanders if b.name == name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the record and the API use this)."""
        return self.several_dict({"fire": self.fire.value,
                                          "bystanders": [b.to_dict() for b in self.bystanders]})


#: How far away (in feet, more than) and how many adjacent targets a Spray needs and reaches:
#: LotNR: a shotgun 3 beyond 20 ft, a submachine gun 5 beyond 10 ft (by its card's ``spray``);
#: Dark Epics: 3 closely grouped beyond 5 ft (met-reference 6.2; setting ``spray_limits``; its
#: default, 002's reading, keeps LotNR's for a deliberate Spray).
SPRAY_BEYOND_FEET = {"lotnr": {"shotgun": 20, "smg": 10}, "dark_epics": 5}
DARK_EPICS_SPRAY_TARGETS = 3


def spray_limits(weapon_key: str, settings: ChronicleSettings) -> tuple[int, int]:
    """(feet the targets must be beyond, most targets reached) for a Spray weapon (met-reference 6.2):
    Dark Epics' under ``spray_limits = dark_epics``, LotNR's otherwise (002's reading keeps them for a
    deliberate Spray and for the reach of a missed blast).

    Raises:
        RulesError: no such weapon.
    """
    card = armory_weapon(weapon_key, "live")
    if settings["spray_limits"] == "dark_epics":
        return SPRAY_BEYOND_FEET["dark_epics"], DARK_EPICS_SPRAY_TARGETS
    automatic = card.has("Full-Auto") or card.has("Burst")
    feet = SPRAY_BEYOND_FEET["lotnr"].get(weapon_key, 10 if automatic else 20)
    return feet, card.spray


def stray_spray_at_any_range(settings: ChronicleSettings) -> bool:
    """Whether a missed shotgun blast or burst is one mass challenge against the group whatever the
    range (``spray_limits = house_002``, the default: 002 "Firing Guns into Groups of People" names
    shotguns and bursts with no distance), rather than only beyond the Spray's distance (LotNR, Dark
    Epics; met-reference 6.2)."""
    return settings["spray_limits"] == "house_002"


def fire_of(weapon_key: str, bursts: bool = True, band: RangeBand | None = None,
            settings: ChronicleSettings | None = None, deliberate: bool = False) -> Fire:
    """How ``weapon_key`` fires at the group ``band`` away.

    A shotgun's spread or a submachine gun's burst (a Spray card): under 002's reading (setting
    ``spray_limits = house_002``, the default) a missed blast or burst is one mass challenge
    against the people near the target at any range (002 "Firing Guns into Groups of People":
    "have the firer perform a mass challenge instead"); a ``deliberate`` Spray at a chosen group,
    and any Spray under the LotNR and Dark Epics readings, sprays only at targets farther than its
    distance (met-reference 6.2, T24), else it is an ordinary single-target shot, and a range not
    said is not "farther". Another automatic weapon (Full-Auto, Burst) firing bursts fires several
    rounds: one mass challenge; anything else, or an automatic weapon fired one shot at a time, fires
    single shots (002; met-reference 3.7).

    Raises:
        RulesError: no such weapon (``field`` "weapon").
    """
    settings = settings or ChronicleSettings.defaults()
    card = armory_weapon(weapon_key, "live")
    automatic = card.has("Full-Auto") or card.has("Burst")
    if automatic and not bursts:
        return Fire.SINGLE
    if card.has("Spray"):
        if not deliberate and stray_spray_at_any_range(settings):
            return Fire.GROUP
        feet, _most = spray_limits(weapon_key, settings)
        return Fire.GROUP if band is not None and band.beyond(feet) else Fire.SINGLE
    return Fire.GROUP if automatic else Fire.SINGLE
