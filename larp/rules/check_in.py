"""Game night at the door (issue 32): who may be checked in, and the attendance experience it earns.

Pure: plain data in, a decision with its reason out (no Flask, no peewee, no clock). The sources in
``../shared`` say nothing of check-in or of experience for attending: both are the chronicle's
practice, so every step cites "Check-in (issue 32)" and the setting that decided it.

- A character whose player is here is checked in, whatever his health: one in torpor too (his
  player plays him in torpor, or another character), marked so.
- A retired character (the player left), a scene extra (made for one scene, not a player's) and a
  character in Final Death (a vampire destroyed, a mortal or ghoul dead) cannot be checked in: each
  refusal says why.
- Attendance experience is the setting ``attendance_experience`` (default 1, our choice; 0 switches it
  off), given once per character and game session.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from larp.rules.experience import ExperienceError, experience_points, points_text, points_said
from larp.rules.explain import N_, Phrase, RulesError, Step, phrase_step

#: How every step of this module names its rule (no source rule: the chronicle's practice).
RULE = "Check-in (issue 32)"


@dataclass(frozen=True)
class Arrival:
    """A character as the door sees him: his name, condition (one of ``Character.CONDITIONS``),
    whether he is retired or a scene extra, and his creature (vampire, ghoul, mortal)."""

    name: str
    condition: str
    retired: bool = False
    scene_extra: bool = False
    creature: str = "vampire"


@dataclass(frozen=True)
class DoorDecision:
    """Whether ``Arrival`` may be checked in: ``refusal`` says why not (``None``: he may), ``marks``
    what the roster shows beside his name ("in torpor")."""

    refusal: str | None
    marks: tuple[str, ...] = ()

    @property
    def allowed(self) -> bool:
        """Whether he may be checked in."""
        return self.refusal is None


def at_the_door(arrival: Arrival) -> DoorDecision:
    """Whether ``arrival`` may be checked in tonight, and what the roster marks him with.

    Refused (a phrase, said in the reader's language): a retired character ("X is retired"), a scene extra, a character in
    Final Death or dead. Allowed with the mark "in torpor": a character in torpor. Anyone else (active,
    unconscious): allowed.
    """
    if arrival.retired:
        return DoorDecision(Phrase.message(N_("%(name)s is retired (the player left): restore the character on the sheet "
                                              "first if the player is back."), name=arrival.name))
    if arrival.scene_extra:
        return DoorDecision(Phrase.message(N_("%(name)s is a scene extra, made for one scene: extras are not checked "
                                              "in."), name=arrival.name))
    if arrival.condition == "final_death":
        return DoorDecision(Phrase.message(N_("%(name)s has met Final Death and cannot play tonight: check in the "
                                              "player's new character."), name=arrival.name))
    if arrival.condition == "dead":
        return DoorDecision(Phrase.message(N_("%(name)s is dead and cannot play tonight: check in the player's new "
                                              "character."), name=arrival.name))
    if arrival.condition == "torpor":
        return DoorDecision(None, ("in torpor",))
    return DoorDecision(None)


def attendance_amount(setting: Any) -> Decimal:
    """The experience points one attendance earns, from the setting ``attendance_experience`` (a number,
    0 or more, as the settings page keeps it), exact to two places (more are rounded half up, as the
    setting's help says). 0: attendance experience is off.

    Raises:
        RulesError: the setting is not a number of experience points from 0 to 100 (field
            ``attendance_experience``).
    """
    try:
        return experience_points(repr(setting) if isinstance(setting, float) else setting, "attendance_experience",
                                 low=0, high=100, rounded=True)
    except ExperienceError as exc:
        raise RulesError(Phrase.message(N_("Experience for attending: %(message)s"), message=exc.message),
                         field="attendance_experience") from None


def attendance_step(name: str, amount: Decimal, session_number: int) -> Step:
    """The step of one attendance line: "Konrad Vale earned 1 experience for attending game session 3"."""
    return phrase_step(N_("%(name)s earned %(points)s experience for attending game session %(number)s."), RULE,
                       "attendance_experience", name=name, points=points_said(amount), number=session_number)
