"""Holds and clinches through the turns (issue 37 item 9; 000 "Hold", "Clinch"; 004 "Bear
Hug/Clinch").

Rules:
    - A held character (hold, grapple, bear hug) is immobilized, able to take no other action
      than breaking free, until he rolls more successes than the holder on resisted Strength +
      Brawl (000 "Hold"; :func:`larp.rules.tabletop.escape_and_ambush.resolve_escape`).
    - In a clinch (000) both combatants act on their orders in the initiative; each may inflict
      Strength damage automatically or try to escape; no other actions are allowed until one
      breaks free (a vampire who made the clinch may bite, 000 "Bite").
    - 004's clinch variant: both crush each other: each turn both roll resisted Strength +
      Brawl, both take Strength damage, and the one with more successes decides whether it goes
      on (:func:`resolve_clinch_turn`; a tie goes on: nobody broke it).

:func:`check_action` and :func:`check_defense` say what a fighter may do while a hold lasts,
from the combat's holds; the attack itself is :func:`larp.rules.tabletop.combat.resolve_attack`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.health import HealthTrack
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import DiceSource, SoakRuling
from larp.rules.tabletop.combatants import Circumstances, Fighter
from larp.rules.tabletop.dice import DEFAULT_DIFFICULTY, DiceRoll, roll_dice, roll_step
from larp.rules.tabletop.maneuvers import Profile, profile_for
from larp.rules.tabletop.turn import Combat, Hold
from larp.rules.tabletop.wounds import soak_and_mark

R_HOLD = '000 "Hold"'
R_CLINCH = '000 "Clinch"'
R_BEAR_HUG = '004 "Bear Hug/Clinch"'


def _lasting(hold: Hold, profile: Profile) -> bool:
    """A hold that lasts from turn to turn (the maneuver carries over; a tackle does not)."""
    m = profile.maneuvers.get(hold.maneuver)
    return m is not None and m.has("carries_over")


def _clinch(hold: Hold, profile: Profile) -> bool:
    m = profile.maneuvers.get(hold.maneuver)
    return hold.maneuver == "clinch" and m is not None and m.has("carries_over")


def holding(combat: Combat, key: str, profile: Profile) -> list[Hold]:
    """The lasting holds ``key`` is caught in: as the one held, or as either side of a clinch."""
    return [h for h in combat.holds if _lasting(h, profile)
            and (h.target == key or (h.holder == key and _clinch(h, profile)))]


def check_action(combat: Combat, key: str, maneuver: str, target: str | None,
                 profile: Profile) -> str | None:
    """Whether ``key`` may make ``maneuver`` on ``target`` while a hold lasts, and the hold it
    carries on (to pass as ``Circumstances.prior_hold``).

    Returns:
        "clinch" when he goes on with a clinch he is in, as either side (000 "Clinch": each may
        inflict Strength damage automatically); the holder's own lasting maneuver when he goes on
        with it (004's bear hug); otherwise ``None``.

    Raises:
        RulesError: a held character doing anything but breaking free (000 "Hold"), or someone in a
            clinch doing anything but going on with it, breaking free or (its maker) biting (000
            "Clinch", "Bite") (field ``maneuver``).
    """
    who = combat.name(key)
    for h in holding(combat, key, profile):
        partner = h.holder if h.target == key else h.target
        if _clinch(h, profile):
            if target == partner and (maneuver == "clinch" or (maneuver in ("bite", "kiss") and h.holder == key)):
                return "clinch" if maneuver == "clinch" else None
            raise RulesError(Phrase.message(N_("%(who)s is in a clinch with %(value)s: no other action until one "
                                               "of them breaks free; inflict Strength damage or try to break free "
                                               "(%(cited)s)."), who=who, value=combat.name(partner), cited=R_CLINCH),
                             field="maneuver")
        raise RulesError(Phrase.message(N_("%(who)s is held by %(value)s (%(name)s): no other action until %(who)s "
                                           "breaks free; try to break free (%(cited)s)."),
                                        who=who, value=combat.name(h.holder), name=profile.maneuvers[h.maneuver].name.lower(), cited=R_HOLD),
                         field="maneuver")
    for h in combat.holds:
        if h.holder == key and h.target == target and h.maneuver == maneuver and _lasting(h, profile):
            return maneuver
    return None


def check_defense(combat: Combat, key: str, profile: Profile) -> None:
    """A held character, or one in a clinch, cannot block, dodge or parry: he can take no other
    action than breaking free (000 "Hold", "Clinch").

    Raises:
        RulesError: he is held or in a clinch (field ``defense.maneuver``).
    """
    caught = holding(combat, key, profile)
    if caught:
        h = caught[0]
        partner = h.holder if h.target == key else h.target
        raise RulesError(Phrase.message(N_("%(name)s is caught in %(partner)s's %(maneuver)s and can take no other "
                                           "action than breaking free (%(cited)s)."), name=combat.name(key),
                                        partner=combat.name(partner), maneuver=profile.maneuvers[h.maneuver].name.lower(),
                                        cited=R_CLINCH if _clinch(h, profile) else R_HOLD), field="defense.maneuver")


class _Dice:
    """The named rolls of a clinch turn, given or drawn, remembered (as the attack's roller)."""

    def __init__(self, given: Mapping[str, Sequence[int]] | None, rng: DiceSource | None,
                 settings: ChronicleSettings, steps: Explanation):
        self.given, self.rng, self.settings, self.steps = dict(given or {}), rng, settings, steps
        self.made: dict[str, tuple[int, ...]] = {}

    def roll(self, name: str, pool: int, difficulty: int, *, can_botch: bool = True, automatic: int = 0,
             who: str = "") -> DiceRoll:
        result = roll_dice(pool, difficulty, dice=self.given.get(name), rng=self.rng, can_botch=can_botch,
                           automatic=automatic, settings=self.settings, roll=name, who=who, steps=self.steps.steps())
        self.made[name] = result.dice
        return result


CLINCH_DICE = ("grip_a", "grip_b", "damage_a", "damage_b", "soak_a", "soak_b")


@dataclass(frozen=True)
class ClinchRuling:
    """A turn of 004's clinch, in which both crush each other.

    Attributes:
        rolls: the resisted Strength + Brawl rolls and the damage rolls, by name.
        soaks: each side's soak, by fighter key.
        tracks: each side's track after the turn, by fighter key.
        decides: the key of the fighter who decides whether the clinch goes on (``None`` on a tie:
            it goes on).
        steps: the explanation.
        dice: every roll made, by name (send it back as ``dice`` to replay).
    """

    rolls: Mapping[str, DiceRoll]
    soaks: Mapping[str, SoakRuling | None]
    tracks: Mapping[str, HealthTrack]
    decides: str | None
    steps: tuple[Step, ...]
    dice: Mapping[str, tuple[int, ...]]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"rolls": {k: r.to_dict() for k, r in self.rolls.items()},
                "soaks": {k: s.to_dict() if s else None for k, s in self.soaks.items()},
                "tracks": {k: t.to_dict() for k, t in self.tracks.items()}, "decides": self.decides,
                "steps": [s.to_dict() for s in self.steps], "dice": {k: list(v) for k, v in self.dice.items()}}


def resolve_clinch_turn(a: Fighter, b: Fighter, settings: ChronicleSettings | None = None, *,
                        dice: Mapping[str, Sequence[int]] | None = None,
                        rng: DiceSource | None = None) -> ClinchRuling:
    """A later turn of 004's clinch between ``a`` (who made it) and ``b``: resisted Strength +
    Brawl, both take Strength damage (bashing, soaked as any hit), and the one with more successes
    decides whether it goes on (004 "Bear Hug/Clinch", variant: clinch; a tie goes on).

    Args:
        dice: faces by roll name: "grip_a", "grip_b" (Strength + Brawl), "damage_a", "damage_b"
            (each one's Strength damage on the other), "soak_a", "soak_b".

    Raises:
        RulesError: not the Dark Ages profile, a fighter who can take no action, unknown roll names;
            DiceNeeded: a roll with no faces and no random source.
    """
    settings = settings or ChronicleSettings.defaults()
    profile = profile_for(settings)
    if "clinch" not in profile.maneuvers or not profile.maneuvers["clinch"].has("mutual"):
        raise RulesError(Phrase.message(N_("The clinch in which both crush each other is the Dark Ages profile's "
                                           "(004).")),
                         field="maneuver")
    unknown = sorted(set(dice or {}) - set(CLINCH_DICE))
    if unknown:
        raise RulesError(Phrase.message(N_("There is no roll called %(value)s (%(value2)s)."),
                                        value=repr(unknown[0]), value2=', '.join(CLINCH_DICE)),
                         field=f"dice.{unknown[0]}")
    for f in (a, b):
        if f.wound_penalty is None:
            raise RulesError(Phrase.message(N_("%(name)s can take no action."), name=f.name), field="character")
    steps = Explanation()
    roller = _Dice(dice, rng, settings, steps)
    steps.add(N_("%(name)s and %(other)s crush each other: resisted Strength + Brawl, and both take Strength damage."),
              R_BEAR_HUG, name=a.name, other=b.name)
    rolls: dict[str, DiceRoll] = {}
    for side, f in (("a", a), ("b", b)):
        pool = max(0, f.attribute("Strength") + f.ability("Brawl") - (f.wound_penalty or 0))
        rolls[f"grip_{side}"] = r = roller.roll(f"grip_{side}", pool, DEFAULT_DIFFICULTY, who=f.name)
        roll_step(r, Phrase.message(N_("%(name)s's Strength + Brawl"), name=f.name), steps, R_BEAR_HUG)
    soaks: dict[str, SoakRuling | None] = {}
    tracks: dict[str, HealthTrack] = {}
    for side, hitter, victim in (("a", a, b), ("b", b, a)):
        pool = max(1, hitter.attribute("Strength") - (hitter.wound_penalty or 0))
        potence = hitter.discipline("Potence")
        steps.add(N_("%(name)s's Strength damage on %(target)s: %(n)s dice, Potence %(potence)s automatic successes.")
                  if potence else N_("%(name)s's Strength damage on %(target)s: %(n)s dice."), R_BEAR_HUG,
                  name=hitter.name, target=victim.name, n=pool, potence=potence)
        rolls[f"damage_{side}"] = hurt = roller.roll(f"damage_{side}", pool, DEFAULT_DIFFICULTY, can_botch=False,
                                                     automatic=potence, who=hitter.name)
        roll_step(hurt, Phrase.message(N_("Damage roll")), steps, R_BEAR_HUG)
        soak_name = "soak_b" if side == "a" else "soak_a"
        soak, track, _ = soak_and_mark(hurt.net, "bashing", victim, None, Circumstances(), roller,  # type: ignore[arg-type]
                                       settings, steps, soak_roll=soak_name)
        soaks[victim.key], tracks[victim.key] = soak, track
    margin = rolls["grip_a"].net - rolls["grip_b"].net
    decides = a.key if margin > 0 else b.key if margin < 0 else None
    if decides is None:
        steps.add(Phrase.message(N_("Equal successes: the clinch goes on.")), R_BEAR_HUG)
    else:
        winner = a if decides == a.key else b
        steps.add(N_("%(name)s has more successes and decides whether the clinch goes on or ends."), R_BEAR_HUG,
                  name=winner.name)
    return ClinchRuling(rolls, soaks, tracks, decides, steps.steps(), dict(roller.made))
