"""Two tabletop actions outside the attack sequence: breaking free of a hold and the
ambush (000 "Hold", "Clinch", "Ambush"; 004 "Blindsiding"). Part of
:mod:`larp.rules.tabletop.combat`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import DiceSource
from larp.rules.tabletop.dice import (
    DEFAULT_DIFFICULTY,
    DiceRoll,
    roll_dice,
    roll_step,
)
from larp.rules.tabletop.maneuvers import profile_for
from larp.rules.tabletop.combatants import (
    Fighter,
)

# ---------------------------------------------------------------- breaking free

@dataclass(frozen=True)
class EscapeRuling:
    """A held character's attempt to break free.

    Attributes:
        freed: he rolled more successes than the holder.
        escaper_roll, holder_roll: the resisted Strength + Brawl rolls.
        steps: the explanation.
    """

    freed: bool
    escaper_roll: DiceRoll
    holder_roll: DiceRoll
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"freed": self.freed, "escaper_roll": self.escaper_roll.to_dict(),
                "holder_roll": self.holder_roll.to_dict(), "steps": [s.to_dict() for s in self.steps]}


def resolve_escape(escaper: Fighter, holder: Fighter, maneuver: str, settings: ChronicleSettings | None = None, *,
                   dice: Mapping[str, Sequence[int]] | None = None, rng: DiceSource | None = None) -> EscapeRuling:
    """Resisted Strength + Brawl to break a hold, clinch, bear hug or grapple: the
    escaper must roll more successes (000 "Hold", "Clinch"; 004 "Bear Hug/Clinch").

    Args:
        maneuver: the holding maneuver's key.
        dice: faces for "escaper" and "holder".

    Raises:
        RulesError: the maneuver does not hold, or the escaper cannot act; DiceNeeded.
    """
    settings = settings or ChronicleSettings.defaults()
    m = profile_for(settings).maneuver(maneuver)
    if not m.has("holds"):
        raise RulesError(Phrase.message(N_("%(name)s holds no one."), name=m.name), field="maneuver")
    if escaper.wound_penalty is None:
        raise RulesError(Phrase.message(N_("%(name)s can take no action."), name=escaper.name), field="character")
    steps = Explanation()
    given = dict(dice or {})
    pools = []
    for who in (escaper, holder):
        pool = max(0, who.attribute("Strength") + who.ability("Brawl") - (who.wound_penalty or 0))
        pools.append(pool)
    steps.add(N_("%(name)s tries to break %(holder)s's %(maneuver)s: resisted Strength + Brawl (%(n)s dice against "
                 "%(other)s)."), m.source, name=escaper.name, holder=holder.name, maneuver=Phrase.term(m.name.lower()),
              n=pools[0], other=pools[1])
    rolls = []
    for name, pool, who in (("escaper", pools[0], escaper), ("holder", pools[1], holder)):
        r = roll_dice(pool, DEFAULT_DIFFICULTY, dice=given.get(name), rng=rng, settings=settings, roll=name,
                      who=who.name, steps=steps.steps())
        roll_step(r, Phrase.message(N_("%(name)s's roll"), name=who.name), steps, m.source)
        rolls.append(r)
    freed = rolls[0].net > rolls[1].net
    steps.add(N_("%(name)s breaks free.") if freed else N_("%(name)s stays held."), m.source, name=escaper.name)
    return EscapeRuling(freed, rolls[0], rolls[1], steps.steps())


# ---------------------------------------------------------------- ambush

@dataclass(frozen=True)
class AmbushRuling:
    """An ambush (000 "Ambush"; 004 "Ambush").

    Attributes:
        outcome: revised: "free_attack", "first_strike" (a tie: the target may defend)
            or "spotted"; dark_ages: "ambushed" (the attacker wins initiative) or "not_prepared"
            (the Wits + Stealth roll to prepare it failed: initiative as usual).
        attack_dice: extra dice for the free attack (revised: the extra successes).
        target_dice: dark_ages: the dice the target has that first turn.
        rolls: each roll by name.
        steps: the explanation.
    """

    outcome: str
    attack_dice: int
    target_dice: int | None
    rolls: Mapping[str, DiceRoll]
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"outcome": self.outcome, "attack_dice": self.attack_dice, "target_dice": self.target_dice,
                "rolls": {k: v.to_dict() for k, v in self.rolls.items()}, "steps": [s.to_dict() for s in self.steps]}


def resolve_ambush(attacker: Fighter, target: Fighter, settings: ChronicleSettings | None = None, *,
                   dice: Mapping[str, Sequence[int]] | None = None, rng: DiceSource | None = None,
                   cover: bool = True, in_combat: bool = False) -> AmbushRuling:
    """Resolve an ambush by the chronicle's profile.

    Revised (000 "Ambush"): Dexterity + Stealth resisted by Perception + Alertness;
    more successes: a free attack with the extra successes added to its pool; a
    tie: the attacker still strikes first, the target may defend; fewer: spotted,
    initiative as usual. Dark Ages (004 "Ambush"): preparing it takes proper cover
    and a Wits + Stealth roll (difficulty 6); then the attacker wins initiative;
    the target rolls Perception + Alertness (difficulty 8) and has that many dice
    the first turn. Targets already in combat cannot be ambushed (000).

    Args:
        dice: faces for "stealth", "alertness" and (Dark Ages) "preparation".
        cover: the ambusher has proper cover (Dark Ages: needed to prepare the ambush).
        in_combat: the target is already involved in combat.

    Raises:
        RulesError: a target already in combat, a Dark Ages ambush without cover (fields
            ``target``, ``cover``); DiceNeeded: as :func:`roll_dice`.
    """
    settings = settings or ChronicleSettings.defaults()
    profile = profile_for(settings)
    given = dict(dice or {})
    steps = Explanation()
    if in_combat:
        raise RulesError(Phrase.message(N_("%(name)s is already involved in combat and cannot be ambushed (000 "
                                           "\"Ambush\")."), name=target.name),
                         field="target")
    alert_pool = target.attribute("Perception") + target.ability("Alertness")
    if profile.key == "dark_ages":
        if not cover:
            raise RulesError(Phrase.message(N_("Preparing an ambush needs proper cover (004 \"Ambush\").")),
                             field="cover")
        prep_pool = attacker.attribute("Wits") + attacker.ability("Stealth")
        prep = roll_dice(prep_pool, DEFAULT_DIFFICULTY, dice=given.get("preparation"), rng=rng, settings=settings,
                         roll="preparation", who=attacker.name)
        roll_step(prep, Phrase.message(N_("%(name)s's Wits + Stealth to prepare the ambush, with cover"),
                                       name=attacker.name), steps, '004 "Ambush"')
        if prep.net == 0:
            steps.add(N_("The ambush is not prepared: %(name)s is not surprised, initiative as usual."), '004 "Ambush"',
                      name=target.name)
            return AmbushRuling("not_prepared", 0, None, {"preparation": prep}, steps.steps())
        steps.add(N_("%(name)s ambushes %(target)s and wins initiative."), '004 "Ambush"', name=attacker.name,
                  target=target.name)
        alert = roll_dice(alert_pool, 8, dice=given.get("alertness"), rng=rng, settings=settings, roll="alertness",
                          who=target.name)
        roll_step(alert, Phrase.message(N_("%(name)s's Perception + Alertness"), name=target.name), steps, '004 "Ambush"')
        steps.add(N_("%(name)s has %(n)s dice to act with this first turn."), '004 "Ambush"', name=target.name,
                  n=alert.net)
        return AmbushRuling("ambushed", 0, alert.net, {"preparation": prep, "alertness": alert}, steps.steps())
    stealth_pool = attacker.attribute("Dexterity") + attacker.ability("Stealth")
    stealth = roll_dice(stealth_pool, DEFAULT_DIFFICULTY, dice=given.get("stealth"), rng=rng, settings=settings,
                        roll="stealth", who=attacker.name)
    roll_step(stealth, Phrase.message(N_("%(name)s's Dexterity + Stealth"), name=attacker.name), steps, '000 "Ambush"')
    alert = roll_dice(alert_pool, DEFAULT_DIFFICULTY, dice=given.get("alertness"), rng=rng, settings=settings,
                      roll="alertness", who=target.name)
    roll_step(alert, Phrase.message(N_("%(name)s's Perception + Alertness"), name=target.name), steps, '000 "Ambush"')
    margin = stealth.net - alert.net
    if margin > 0:
        steps.add(N_("%(name)s stages one free attack, with %(n)s extra dice."), '000 "Ambush"', name=attacker.name,
                  n=margin)
        outcome = "free_attack"
    elif margin == 0:
        steps.add(N_("A tie: %(name)s still attacks first, but %(target)s may defend."), '000 "Ambush"',
                  name=attacker.name, target=target.name)
        outcome = "first_strike"
    else:
        steps.add(N_("%(name)s spots the ambush: both roll initiative as usual."), '000 "Ambush"', name=target.name)
        outcome = "spotted"
    return AmbushRuling(outcome, max(0, margin), None, {"stealth": stealth, "alertness": alert}, steps.steps())
