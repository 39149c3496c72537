"""Aiming across turns (issue 37 item 4; 000 and 003 "Aiming").

Rules:
    - Each turn spent aiming adds one die to a single shot, at most the aimer's Perception; he needs
      Firearms 1 or better (Archery for a bow or crossbow, 001 "Quick Combat Summary Chart").
    - A scope adds two more dice on the first turn of aiming (not in the Dark Ages profile, which
      has no scopes).
    - The aimer may do nothing but aim: aiming takes his whole turn, and anything else he does ends
      the aim (:func:`larp.rules.tabletop.turn.take_action` drops it); the aimed shot spends it.
    - No one can aim at a target moving faster than a walk; a target who jogs or runs breaks the
      aims at him (:func:`larp.rules.tabletop.movement.move`).

The aim is state carried from turn to turn (``Combat.carried.aims``); :func:`aim_for` gives the
turns and scope to pass to the shot's ``Circumstances``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, turns
from larp.rules.plain_fields import PlainFields
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.carried import Aim
from larp.rules.tabletop.combatants import Fighter
from larp.rules.tabletop.maneuvers import profile_for
from larp.rules.tabletop.turn import Combat, said_text

R_AIM = '000 "Aiming"'
PACES = ("still", "walk", "jog", "run")


@dataclass(frozen=True)
class AimRuling(PlainFields):
    """A turn of aiming: the aim after it, the dice it will add to the shot, and the steps."""

    aim: Aim
    dice: int
    steps: tuple[Step, ...]


def aim(combat: Combat, fighter: Fighter, target: str, settings: ChronicleSettings | None = None, *,
        scope: bool = False, target_pace: str = "walk") -> tuple[Combat, AimRuling]:
    """``fighter`` spends this turn aiming at ``target`` (000, 003 "Aiming").

    Args:
        target: the key of the fighter aimed at.
        scope: his weapon has a scope (two more dice on the first turn of aiming).
        target_pace: how the target moves this turn: "still", "walk", "jog" or "run".

    Raises:
        RulesError: not the action phase; he has acted this turn already (aiming takes the whole
            turn); no ranged weapon or no Firearms (Archery) dot; a scope in a profile without
            scopes; the target moves faster than a walk or is not in the fight.
    """
    profile = profile_for(settings)
    key = fighter.key
    if combat.phase != "act" or key in combat.out:
        raise RulesError(Phrase.message(N_("%(name)s can aim only during the actions of a turn he takes part in."),
                                        name=fighter.name), field="phase")
    if target not in combat.fighters or target == key:
        raise RulesError(Phrase.message(N_("%(name)s: aim at another fighter."), name=fighter.name), field="target")
    if combat.used.get(key, 0):
        raise RulesError(Phrase.message(N_("%(name)s has acted this turn: the aimer may do nothing but aim "
                                           "(%(cited)s)."), name=fighter.name, cited=R_AIM),
                         field="aim")
    if target_pace not in PACES:
        raise RulesError(Phrase.message(N_("The target's pace is one of %(value)s."), value=', '.join(PACES)),
                         field="target_pace")
    if target_pace in ("jog", "run"):
        raise RulesError(Phrase.message(N_("%(value)s moves faster than a walk: no one can aim at him (%(cited)s)."),
                                        value=combat.name(target), cited=R_AIM),
                         field="target_pace")
    card = fighter.weapon_card()
    if card is None or card.melee:
        raise RulesError(Phrase.message(N_("%(name)s has no ranged weapon to aim."), name=fighter.name),
                         field="weapon")
    ability = "Archery" if card.archery else "Firearms"
    if fighter.ability(ability) < 1:
        raise RulesError(Phrase.message(N_("Aiming needs %(ability)s 1 or better; %(name)s has none (%(cited)s)."),
                                        ability=ability, name=fighter.name, cited=R_AIM), field="aim")
    if scope and not profile.situation.scope_dice:
        raise RulesError(Phrase.message(N_("This profile has no scopes.")), field="scope")
    before = combat.carried.aims.get(key)
    steps = Explanation()
    if before is not None and before.target == target:
        now = replace(before, turns=before.turns + 1)
    else:
        now = Aim(target, 1, scope)
        if before is not None:
            steps.add(N_("%(name)s turns from %(before)s to %(target)s: the aim starts again."), R_AIM, name=fighter.name,
                      before=combat.name(before.target), target=combat.name(target))
    perception = fighter.attribute("Perception")
    dice = min(now.turns, perception) + (profile.situation.scope_dice if now.scope else 0)
    said = dict(name=fighter.name, target=combat.name(target), turns=turns(now.turns), n=min(now.turns, perception),
                perception=perception, scope=profile.situation.scope_dice)
    steps.add(N_("%(name)s spends the turn aiming at %(target)s: %(turns)s, +%(n)s dice (at most Perception "
                 "%(perception)s), +%(scope)s for the scope on the next single shot.") if now.scope else
              N_("%(name)s spends the turn aiming at %(target)s: %(turns)s, +%(n)s dice (at most Perception "
                 "%(perception)s) on the next single shot."), R_AIM, **said)
    d = combat.declaration(key)
    used = MappingProxyType({**combat.used, key: d.total})
    taken = MappingProxyType({**combat.taken, key: d.offense})
    combat = replace(combat, used=used, taken=taken, carried=combat.carried.with_aim(key, now),
                     log=combat.log + (said_text(steps.steps()[-1]),))
    return combat, AimRuling(now, dice, steps.steps())


def aim_for(combat: Combat, key: str, target: str) -> tuple[int, bool]:
    """The turns ``key`` has aimed at ``target`` and whether with a scope, for the shot's
    ``Circumstances.aim_turns`` and ``scope`` ((0, False) when he is not aiming at him) (000 "Aiming")."""
    held = combat.carried.aims.get(key)
    if held is None or held.target != target:
        return 0, False
    return held.turns, held.scope
