"""What a tabletop combat carries from one action or turn to the next beside the initiative and
the holds (issue 37): each fighter's guns (rounds in the clip, shots this turn, reloading), his
aim, the Physical Attributes his blood raised for the scene, the blood spent this turn against
his generation's limit, the successes of his one Dark Ages dodge roll still to divide, and the
extended and delayed effects due at the end of a turn (000 "Ranged Combat Maneuvers"; 004
"Step-By-Step Combat Turn").

Plain frozen data, kept as JSON inside :class:`larp.rules.tabletop.turn.Combat` (``carried``).
The rules over it are in :mod:`.ammunition`, :mod:`.aiming`, :mod:`.blood_use`,
:mod:`.shared_dodge` and :mod:`.turn_end`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Mapping

from larp.rules.explain import N_, Phrase, RulesError

PHYSICAL = ("Strength", "Dexterity", "Stamina")


@dataclass(frozen=True)
class Gun:
    """A fighter's ranged weapon through the combat (000 "Ranged Weapons Chart", "Reloading").

    Attributes:
        weapon: its tabletop armory key.
        rounds: rounds loaded (``None``: not counted, a weapon with no clip on its chart).
        shots: shots (or three-round bursts) fired this turn, against its rate.
        shot_at: fighters fired at this turn by multiple shots (003: each at a different target).
        reloading: turns of reloading done toward the next load (the crossbow needs five).
        reloaded_in: the turn of the last turn of reloading (one a turn).
    """

    weapon: str
    rounds: int | None
    shots: int = 0
    shot_at: tuple[str, ...] = ()
    reloading: int = 0
    reloaded_in: int = 0

    def fired(self, rounds: int, target: str | None, shots: int = 1) -> "Gun":
        """After firing ``rounds`` rounds at ``target``, counting ``shots`` against the rate (a single
        shot or a burst 1; full-auto and strafing 0: the rate does not apply to them, 000 "Ranged
        Weapons Chart"). Reloading stops when he fires."""
        left = None if self.rounds is None else max(0, self.rounds - rounds)
        shot_at = self.shot_at + ((target,) if target and target not in self.shot_at else ())
        return replace(self, rounds=left, shots=self.shots + shots, shot_at=shot_at, reloading=0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"weapon": self.weapon, "rounds": self.rounds, "shots": self.shots, "shot_at": list(self.shot_at),
                "reloading": self.reloading, "reloaded_in": self.reloaded_in}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Gun":
        """Rebuild from :meth:`to_dict` output."""
        rounds = data.get("rounds")
        return cls(str(data["weapon"]), None if rounds is None else int(rounds), int(data.get("shots", 0)),
                   tuple(str(k) for k in data.get("shot_at", ())), int(data.get("reloading", 0)),
                   int(data.get("reloaded_in", 0)))


@dataclass(frozen=True)
class Aim:
    """A fighter aiming at ``target`` for ``turns`` turns, with a scope or not (000, 003 "Aiming")."""

    target: str
    turns: int
    scope: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"target": self.target, "turns": self.turns, "scope": self.scope}


@dataclass(frozen=True)
class Pending:
    """An extended or delayed effect: ``text`` happens to ``who`` at the end of turn ``due``
    (004 "Extended and Delayed Effects")."""

    who: str
    text: str
    due: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"who": self.who, "text": self.text, "due": self.due}


def _ints(data: Any) -> Mapping[str, int]:
    return MappingProxyType({str(k): int(v) for k, v in dict(data or {}).items()})


@dataclass(frozen=True)
class Carried:
    """The issue-37 state of a tabletop combat, by fighter key.

    Attributes:
        guns: his ranged weapons' state (:class:`Gun`), by fighter key then weapon key.
        aims: his aim (:class:`Aim`), kept turn to turn until he shoots or does anything else.
        boosts: dots his blood added to each Physical Attribute, for the scene (004 "Spend Blood").
        blood_spent: blood points he spent this turn against his generation's limit (Celerity's
            blood is not counted, 004 "Activate Celerity").
        dodges: successes of his one Dark Ages dodge roll this turn still to divide (004 "Dodging").
        celerity_paid: blood points he paid this turn for Celerity's extra actions (004 "Activate
            Celerity"; setting ``tabletop_celerity_blood``).
        pending: extended and delayed effects still to come (004).
    """

    guns: Mapping[str, Mapping[str, Gun]] = field(default_factory=dict)
    aims: Mapping[str, Aim] = field(default_factory=dict)
    boosts: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    blood_spent: Mapping[str, int] = field(default_factory=dict)
    dodges: Mapping[str, int] = field(default_factory=dict)
    celerity_paid: Mapping[str, int] = field(default_factory=dict)
    pending: tuple[Pending, ...] = ()

    def gun(self, key: str, weapon: str) -> Gun | None:
        """``key``'s state of the weapon ``weapon``, or ``None`` before he first uses it."""
        return self.guns.get(key, {}).get(weapon)

    def with_gun(self, key: str, gun: Gun) -> "Carried":
        """A copy with ``key``'s gun replaced."""
        guns = {k: dict(v) for k, v in self.guns.items()}
        guns.setdefault(key, {})[gun.weapon] = gun
        return replace(self, guns=MappingProxyType({k: MappingProxyType(v) for k, v in guns.items()}))

    def with_aim(self, key: str, aim: Aim | None) -> "Carried":
        """A copy with ``key``'s aim set (``None``: dropped)."""
        aims = {k: v for k, v in self.aims.items() if k != key}
        if aim is not None:
            aims[key] = aim
        return replace(self, aims=MappingProxyType(aims))

    def boost(self, key: str, attribute: str) -> int:
        """Dots ``key``'s blood added to ``attribute`` this scene."""
        return self.boosts.get(key, {}).get(attribute, 0)

    def new_turn(self) -> "Carried":
        """The next turn: shots, blood against the limit and the dodge's successes start again;
        aims, loads, reloading, boosts and pending effects carry over (000 "Combat Turns")."""
        guns = {k: MappingProxyType({w: replace(g, shots=0, shot_at=()) for w, g in v.items()})
                for k, v in self.guns.items()}
        return replace(self, guns=MappingProxyType(guns), blood_spent=MappingProxyType({}),
                       dodges=MappingProxyType({}), celerity_paid=MappingProxyType({}))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "guns": {k: {w: g.to_dict() for w, g in v.items()} for k, v in self.guns.items()},
            "aims": {k: a.to_dict() for k, a in self.aims.items()},
            "boosts": {k: dict(v) for k, v in self.boosts.items()},
            "blood_spent": dict(self.blood_spent), "dodges": dict(self.dodges),
            "celerity_paid": dict(self.celerity_paid), "pending": [p.to_dict() for p in self.pending],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "Carried":
        """Rebuild from :meth:`to_dict` output (``None`` or ``{}``: nothing carried, as a combat
        stored before issue 37).

        Raises:
            RulesError: the data cannot be read (field ``combat``).
        """
        data = data or {}
        try:
            return cls(
                guns=MappingProxyType({str(k): MappingProxyType({str(w): Gun.from_dict(g) for w, g in v.items()})
                                       for k, v in dict(data.get("guns", {})).items()}),
                aims=MappingProxyType({str(k): Aim(str(a["target"]), int(a["turns"]), bool(a.get("scope", False)))
                                       for k, a in dict(data.get("aims", {})).items()}),
                boosts=MappingProxyType({str(k): _ints(v) for k, v in dict(data.get("boosts", {})).items()}),
                blood_spent=_ints(data.get("blood_spent")), dodges=_ints(data.get("dodges")),
                celerity_paid=_ints(data.get("celerity_paid")),
                pending=tuple(Pending(str(p["who"]), str(p["text"]), int(p["due"])) for p in data.get("pending", [])),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise RulesError(Phrase.message(N_("The stored combat cannot be read; end it and start again.")),
                             field="combat") from None
