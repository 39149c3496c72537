"""What a ruling changes for each character: every consequence the rules core computed,
as plain data a service writes without deciding anything.

For each character: the Traits lost for the rest of the game session (by category;
never the Intensity pseudo-Trait "Potence", met-reference 3.4), the Ability levels,
Willpower and Merit uses spent (met-reference 2.1), the new health track after armor
and Fortitude, with its condition (unconscious, torpor, Final Death; 002 "Damage and
Healing") and stake, and the armor's levels left (met-reference 3.7), and a torpor it puts a vampire into:
its cause, length and wake date from the chronicle's torpor table, dated by the game session
the ruling happens in (met-reference 5.2; 000 and 001 "Torpor"; :func:`larp.rules.torpor.enter_torpor`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from larp.rules.challenge import POTENCE_TRAIT, ChallengeRuling, Outcome
from larp.rules.explain import Step
from larp.rules.health import HealthTrack
from larp.rules.torpor import TorporClock, TorporStart


@dataclass(frozen=True)
class Consequence:
    """What one ruling changes for one character.

    Attributes:
        name: the character's name.
        traits_lost: (category, Trait) pairs lost for the game session, one per Trait
            (a Trait held twice and lost twice appears twice).
        abilities: (Ability, levels) expended this game session.
        willpower: temporary Willpower Traits spent.
        merits: (Merit, uses) spent.
        track: his health track afterwards, when the ruling changed it (damage,
            condition, stake); ``None`` when it did not.
        armor_left: (armor key, levels left) for armor that absorbed damage.
        blood: blood points gained (positive) or spent (negative).
        torpor_cause: why the ruling put him into torpor ("wounds", "blood_loss"), when it did.
        agg_marked: the Blood Traits now put toward his aggravated wounds, when the ruling changed
            them (``agg_heal_model`` "lotnr_instalments").
        torpor: the torpor the ruling puts him into, worked out by the rules core (cause, length in
            the table's words and in nights, wake date or game session; met-reference 5.2), when the
            ruling knows the game session's date; ``None`` otherwise.
    """

    name: str
    traits_lost: tuple[tuple[str, str], ...] = ()
    abilities: tuple[tuple[str, int], ...] = ()
    willpower: int = 0
    merits: tuple[tuple[str, int], ...] = ()
    track: HealthTrack | None = None
    armor_left: tuple[tuple[str, int], ...] = ()
    blood: int = 0
    torpor_cause: str | None = None
    agg_marked: int | None = None
    torpor: TorporStart | None = None

    @property
    def empty(self) -> bool:
        """Whether the ruling changes nothing for him."""
        return not (self.traits_lost or self.abilities or self.willpower or self.merits or self.track is not None
                    or self.armor_left or self.blood or self.agg_marked is not None)

    def lost_in(self, category: str) -> tuple[str, ...]:
        """The Traits lost in ``category``."""
        return tuple(name for cat, name in self.traits_lost if cat == category)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        lost: dict[str, list[str]] = {}
        for cat, name in self.traits_lost:
            lost.setdefault(cat, []).append(name)
        return {"traits_lost": lost, "abilities": dict(self.abilities), "willpower": self.willpower,
                "merits": dict(self.merits), "track": self.track.to_dict() if self.track is not None else None,
                "armor_left": dict(self.armor_left), "blood": self.blood, "torpor_cause": self.torpor_cause,
                "agg_marked": self.agg_marked, "torpor": self.torpor.to_dict() if self.torpor else None}


@dataclass(frozen=True)
class Consequences:
    """Everything one ruling changes, character by character (in the ruling's order)."""

    people: tuple[Consequence, ...] = ()

    def of(self, name: str) -> Consequence:
        """What changes for ``name`` (an empty consequence if nothing)."""
        return next((c for c in self.people if c.name == name), Consequence(name))

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps of the torpors the ruling puts people into (their length and wake date), in the
        ruling's order: each ruling's explanation ends with them."""
        return tuple(step for c in self.people if c.torpor is not None for step in c.torpor.steps)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data, by name."""
        return {c.name: c.to_dict() for c in self.people}


@dataclass
class Tally:
    """Collects the consequences of a ruling while the core computes it (internal to the core)."""

    order: list[str] = field(default_factory=list)
    lost: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    abilities: dict[str, Counter] = field(default_factory=dict)
    willpower: dict[str, int] = field(default_factory=dict)
    merits: dict[str, Counter] = field(default_factory=dict)
    start: dict[str, HealthTrack] = field(default_factory=dict)
    tracks: dict[str, HealthTrack] = field(default_factory=dict)
    armor: dict[str, tuple[str, int]] = field(default_factory=dict)
    blood_change: dict[str, int] = field(default_factory=dict)
    causes: dict[str, str] = field(default_factory=dict)
    marked: dict[str, int] = field(default_factory=dict)

    def blood(self, name: str, change: int) -> None:
        """``name`` gains (positive) or spends (negative) ``change`` blood points."""
        self.person(name)
        self.blood_change[name] = self.blood_change.get(name, 0) + change

    def torpor_cause(self, name: str, cause: str) -> None:
        """The ruling puts ``name`` into torpor for ``cause`` ("wounds", "blood_loss")."""
        self.person(name)
        self.causes[name] = cause

    def agg_marked(self, name: str, value: int) -> None:
        """``name`` has now ``value`` Blood Traits put toward his aggravated wounds."""
        self.person(name)
        self.marked[name] = value

    def person(self, name: str, track: HealthTrack | None = None) -> None:
        """Take part: ``name`` is in the ruling, with his track before it."""
        if name not in self.order:
            self.order.append(name)
        if track is not None and name not in self.start:
            self.start[name] = track
            self.tracks[name] = track

    def lose(self, name: str, category: str, traits: Iterable[str]) -> None:
        """``name`` loses ``traits`` in ``category`` (the Potence pseudo-Trait is never lost)."""
        self.person(name)
        self.lost.setdefault(name, []).extend((category, t) for t in traits if t != POTENCE_TRAIT)

    def spend(self, name: str, abilities: Mapping[str, int] | Iterable[tuple[str, int]] = (), willpower: int = 0,
              merits: Mapping[str, int] | Iterable[tuple[str, int]] = ()) -> None:
        """``name`` spends Ability levels, Willpower and Merit uses."""
        self.person(name)
        self.abilities.setdefault(name, Counter()).update(dict(abilities))
        self.merits.setdefault(name, Counter()).update(dict(merits))
        self.willpower[name] = self.willpower.get(name, 0) + willpower

    def challenge(self, ruling: ChallengeRuling, names: Mapping[Outcome, str],
                  categories: Mapping[Outcome, str]) -> None:
        """Add what each side of ``ruling`` loses and spends (``names`` and ``categories`` by side)."""
        for side, name in names.items():
            self.lose(name, categories[side], ruling.lost_by(side))
            spent = ruling.spent_by(side)
            self.spend(name, spent.abilities, spent.willpower, spent.merits)

    def hurt(self, name: str, track: HealthTrack, armor: str | None = None, armor_left: int | None = None) -> None:
        """``name``'s track is now ``track`` (and his armor has ``armor_left`` levels left)."""
        self.person(name)
        self.tracks[name] = track
        if armor and armor_left is not None:
            self.armor[name] = (armor, armor_left)

    def consequences(self, clock: TorporClock | None = None) -> Consequences:
        """The consequences collected, in the order the people came; a vampire newly in torpor gets
        his torpor worked out by ``clock`` (none without a clock)."""
        out = []
        for name in self.order:
            track = self.tracks.get(name)
            changed = track is not None and track != self.start.get(name)
            before = self.start.get(name)
            cause = self.causes.get(name)
            if (cause is None and changed and track.condition == "torpor" and track.is_vampire
                    and (before is None or before.condition != "torpor")):
                cause = "wounds"  # damage put him there (002 "Damage and Healing")
            cause = cause if changed or name in self.causes else None
            entered = (cause is not None and clock is not None and track is not None and track.is_vampire
                       and track.condition == "torpor" and (before is None or before.condition != "torpor"))
            out.append(Consequence(
                name=name,
                traits_lost=tuple(self.lost.get(name, ())),
                abilities=tuple(sorted((+self.abilities.get(name, Counter())).items())),
                willpower=self.willpower.get(name, 0),
                merits=tuple(sorted((+self.merits.get(name, Counter())).items())),
                track=track if changed else None,
                armor_left=(self.armor[name],) if name in self.armor else (),
                blood=self.blood_change.get(name, 0),
                torpor_cause=cause,
                agg_marked=self.marked.get(name),
                torpor=clock.start(name, cause) if entered else None,
            ))
        return Consequences(tuple(out))
