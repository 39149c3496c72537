"""Ammunition, rate of fire and reloading at the tabletop (issue 37 item 3).

Rules:
    - A gun holds its clip, plus one round in the chamber where the chart says "+1" (000 "Ranged
      Weapons Chart"). A combat starts with every gun loaded.
    - A single shot spends a round; a three-round burst three (000 "Three-Round Burst"); automatic
      fire and strafing empty the clip (000 "Automatic Fire", "Strafing"), automatic fire only from
      a clip at least half full.
    - Rate: the most shots or three-round bursts a gun fires in one turn, counted through the
      turn; it does not apply to full-auto or spray attacks (000 "Ranged Weapons Chart",
      "Multiple Shots"). Under the V20-era profile, multiple shots go at different targets
      (003 "Multiple Shots": "at a similar number of targets"; the same target is what automatic
      fire and bursts are for).
    - Reloading takes one turn and can be part of a multiple action (000, 003 "Reloading"); the
      crossbow takes five turns (000 "Ranged Weapons Chart"); a bow's arrow is nocked as part of
      the shot. One turn of reloading a turn.

The attack checks a shot against the gun's state (:func:`check_fire`, from
``Circumstances.gun``) and says what it spent (an effect "fired"), which
:func:`larp.rules.tabletop.turn.apply_effects` carries into the combat.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from larp.rules.damage import Weapon, weapon as weapon_card
from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, plural
from larp.rules.plain_fields import PlainFields
from larp.rules.tabletop.carried import Gun
from larp.rules.tabletop.maneuvers import Maneuver, Profile
from larp.rules.tabletop.turn import Combat, said_text, take_action

R_CHART = '000 "Ranged Weapons Chart"'
R_RELOAD = '000 "Reloading"'


def _rounds(count: int) -> Phrase:
    """"1 round", "6 rounds" (of ammunition), in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s round", "%(n)s rounds")


def loaded(card: Weapon) -> Gun:
    """``card`` fully loaded (000 "Ranged Weapons Chart": the clip, and the "+1" in the chamber)."""
    return Gun(card.key, card.clip)


def gun_for(combat: Combat, key: str, card: Weapon) -> Gun:
    """``key``'s state of ``card`` in ``combat``: as carried, or fully loaded before he first uses it
    (000 "Ranged Weapons Chart")."""
    return combat.carried.gun(key, card.key) or loaded(card)


@dataclass(frozen=True)
class Firing:
    """What a shot spends: ``rounds`` from the clip and ``shots`` counted against the rate."""

    rounds: int
    shots: int
    steps: tuple[Step, ...]


def check_fire(gun: Gun, card: Weapon, m: Maneuver, target: str, profile: Profile,
               who: str = "The shooter") -> Firing:
    """Check a shot of maneuver ``m`` at ``target`` against the gun's state and say what it spends
    (000 "Ranged Weapons Chart", "Automatic Fire", "Three-Round Burst", "Strafing", "Multiple
    Shots"; 003 "Multiple Shots").

    Raises:
        RulesError: the clip is empty (or too low for a burst or automatic fire), the rate is
            reached this turn, or (V20) multiple shots at a target already shot at this turn
            (field ``gun``).
    """
    steps = Explanation()
    rate = card.rate
    if m.has("empties_clip"):
        counted = 0
        needed = 1
        if m.has("needs_clip_half_full") and gun.rounds is not None and card.clip:
            needed = max(1, -(-card.clip // 2))
            if gun.rounds < needed:
                raise RulesError(Phrase.message(N_("%(who)s's %(name)s holds %(rounds)s of %(clip)s: %(maneuver)s needs a "
                                                   "clip at least half full (%(source)s)."), who=who, name=card.name,
                                                rounds=Phrase.counted(gun.rounds, "%(n)s round", "%(n)s rounds"),
                                                clip=card.clip, maneuver=m.name.lower(), source=m.source), field="gun")
        rounds = gun.rounds if gun.rounds is not None else 0
    else:
        counted = 1
        needed = rounds = 3 if m.key == "three_round_burst" else 1
    if gun.rounds is not None and gun.rounds < needed:
        what = (Phrase.message(N_("is empty")) if gun.rounds == 0 else
                Phrase.message(N_("holds %(rounds)s"), rounds=Phrase.counted(gun.rounds, "%(n)s round", "%(n)s rounds")))
        raise RulesError(Phrase.message(N_("%(who)s's %(name)s %(what)s: reload it first (%(cited)s)."),
                                        who=who, name=card.name, what=what, cited=R_RELOAD), field="gun")
    if counted and rate is not None and gun.shots + counted > rate:
        raise RulesError(Phrase.message(N_("A %(name)s fires at most %(shots)s (or bursts) a turn; %(who)s has fired "
                                           "%(fired)s this turn (%(cited)s)."), name=card.name,
                                        shots=Phrase.counted(rate, "%(n)s shot", "%(n)s shots"), who=who,
                                        fired=gun.shots, cited=R_CHART), field="gun")
    if profile.key == "v20" and m.key == "multiple_shots" and target in gun.shot_at:
        raise RulesError(Phrase.message(N_("%(who)s has already fired at that target this turn: multiple shots go "
                                           "at different targets (003 \"Multiple Shots\"; automatic fire or a "
                                           "burst for one target)."), who=who), field="target")
    if m.has("empties_clip"):
        steps.add(N_("%(maneuver)s empties the %(weapon)s's clip (%(rounds)s)."), m.source, maneuver=Phrase.term(m.name),
                  weapon=Phrase.term(card.name), rounds=_rounds(rounds))
    else:
        text = Phrase.message(N_("%(name)s fires %(rounds)s"), name=who, rounds=_rounds(rounds))
        if gun.rounds is not None:
            text = Phrase.message(N_("%(text_so_far)s; %(rounds)s left"), text_so_far=text,
                                  rounds=_rounds(gun.rounds - rounds))
        if rate is not None:
            steps.add(N_("%(text_so_far)s; shot %(n)s of %(rate)s this turn."), R_CHART, text_so_far=text,
                      n=gun.shots + counted, rate=rate)
        else:
            steps.add(N_("%(text_so_far)s."), R_CHART, text_so_far=text)
    return Firing(rounds, counted, steps.steps())


@dataclass(frozen=True)
class ReloadRuling(PlainFields):
    """A turn of reloading: the gun after it, whether it is loaded now, and the steps."""

    gun: Gun
    loaded: bool
    steps: tuple[Step, ...]


def reload_turn(gun: Gun, card: Weapon, turn: int, who: str = "The shooter") -> ReloadRuling:
    """One turn of reloading ``card`` in turn ``turn`` (000, 003 "Reloading": one turn, part of a
    multiple action if he likes; the crossbow five turns, 000 "Ranged Weapons Chart").

    Raises:
        RulesError: the weapon needs no reloading (a bow), is full, or was reloaded this turn
            already (field ``reload``).
    """
    if card.reload_turns == 0 or card.clip is None:
        raise RulesError(Phrase.message(N_("A %(name)s needs no reloading: the shot includes it."), name=card.name),
                         field="reload")
    if gun.rounds is not None and gun.rounds >= card.clip:
        raise RulesError(Phrase.message(N_("%(who)s's %(name)s is fully loaded."), who=who, name=card.name),
                         field="reload")
    if gun.reloaded_in == turn and gun.reloading:
        raise RulesError(Phrase.message(N_("%(who)s has reloaded this turn already: one turn of reloading a turn."),
                                        who=who), field="reload")
    done = gun.reloading + 1
    steps = Explanation()
    if done >= card.reload_turns:
        gun = replace(gun, rounds=card.clip, reloading=0, reloaded_in=turn)
        steps.add(N_("%(name)s reloads the %(weapon)s: %(rounds)s ready after %(turns)s turns.") if card.reload_turns > 1
                  else N_("%(name)s reloads the %(weapon)s: %(rounds)s ready."),
                  R_CHART if card.reload_turns > 1 else R_RELOAD, name=who, weapon=Phrase.term(card.name),
                  rounds=_rounds(card.clip), turns=card.reload_turns)
        return ReloadRuling(gun, True, steps.steps())
    gun = replace(gun, reloading=done, reloaded_in=turn)
    steps.add(N_("%(name)s reloads the %(weapon)s: turn %(n)s of %(turns)s."), R_CHART, name=who,
              weapon=Phrase.term(card.name), n=done, turns=card.reload_turns)
    return ReloadRuling(gun, False, steps.steps())


def reload(combat: Combat, key: str, weapon: str) -> tuple[Combat, ReloadRuling]:
    """``key`` spends his next staged action reloading the tabletop weapon ``weapon`` (000 "Reloading").

    Raises:
        RulesError: as :func:`reload_turn`, an unknown weapon, or no action left.
    """
    card = weapon_card(weapon, "tabletop")
    ruling = reload_turn(gun_for(combat, key, card), card, combat.turn, combat.name(key))
    combat = take_action(combat, key, said_text(ruling.steps[-1]))
    return replace(combat, carried=combat.carried.with_gun(key, ruling.gun)), ruling
