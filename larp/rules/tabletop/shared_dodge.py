"""Dark Ages: one dodge roll whose successes are divided among several attackers (issue 37 item 8;
004 "Dodging": "Suffering multiple attacks a player can divide success from a single Dexterity +
Dodge roll between the attackers. +1 difficulty for every attacker past the first").

:func:`roll_shared_dodge` rolls once and keeps the successes in the combat
(``carried.dodges``); :func:`dodge_against` gives an attack its share as a
:class:`~larp.rules.tabletop.combatants.DefenseChoice` (``shared``), checked
against what is left; the attack's effect "dodge_shared" takes it off
(:func:`larp.rules.tabletop.turn.apply_effects`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, plural
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import DiceSource
from larp.rules.tabletop.actions import slot_dice
from larp.rules.tabletop.combatants import DefenseChoice, Fighter, check_count
from larp.rules.tabletop.dice import DEFAULT_DIFFICULTY, DiceRoll, bounded_difficulty, roll_dice, roll_step
from larp.rules.tabletop.maneuvers import profile_for
from larp.rules.tabletop.turn import Combat, said_text, use_defense

R_DODGE = '004 "Dodging"'


@dataclass(frozen=True)
class SharedDodge:
    """One Dark Ages dodge roll to divide: its pool, difficulty, roll and successes, and the steps."""

    pool: int
    difficulty: int
    roll: DiceRoll | None
    successes: int
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"pool": self.pool, "difficulty": self.difficulty, "roll": self.roll.to_dict() if self.roll else None,
                "successes": self.successes, "steps": [s.to_dict() for s in self.steps]}


def roll_shared_dodge(combat: Combat, target: Fighter, attackers: int, settings: ChronicleSettings | None = None, *,
                      modifiers: Sequence[str] = (), dice: Mapping[str, Sequence[int]] | None = None,
                      rng: DiceSource | None = None) -> tuple[Combat, SharedDodge]:
    """``target`` spends a defense he kept (or his turn of defense) on one Dexterity + Dodge roll
    against ``attackers`` attackers, +1 difficulty for each past the first (and 004's dodge
    modifiers); its successes are his to divide among them this turn (004 "Dodging", "Dodge
    Modifiers").

    Args:
        attackers: the attackers he will divide the successes among (2 to 10).
        modifiers: keys of the Dark Ages dodge modifiers table (``data/maneuvers.toml``).
        dice: faces for the roll "dodge".

    Raises:
        RulesError: not the Dark Ages profile, he cannot act or kept no defense, a bad count or
            modifier; DiceNeeded: no faces and no random source.
    """
    settings = settings or ChronicleSettings.defaults()
    profile = profile_for(settings)
    if profile.key != "dark_ages":
        raise RulesError(Phrase.message(N_("Dividing one dodge roll's successes between attackers is the Dark Ages "
                                           "dodge (004).")),
                         field="defense.shared")
    check_count(attackers, "attackers", 2, 10)
    if target.wound_penalty is None:
        raise RulesError(Phrase.message(N_("%(name)s can take no action and cannot dodge."), name=target.name),
                         field="defense.maneuver")
    slot = combat.action_slot(target.key, defense=True)
    combat = use_defense(combat, target.key, False, profile)
    steps = Explanation()
    base = target.attribute("Dexterity") + target.ability("Dodge")
    steps.add(N_("%(name)s dodges %(attackers)s attackers with one roll: Dexterity + Dodge = %(n)s dice."), R_DODGE,
              name=target.name, attackers=attackers, n=base)
    pool, step = slot_dice(base, slot, settings, target.name)
    if step:
        steps.extend([step])
    if target.wound_penalty:
        pool -= target.wound_penalty
        steps.add(N_("Wound penalty -%(penalty)s (%(pool)s)."), '000 "Health Chart"', penalty=target.wound_penalty, pool=pool)
    armor_dice, why = target.armor_penalty(profile)
    if armor_dice:
        pool -= armor_dice
        steps.add(N_("Armor (%(why)s): -%(n)s (%(pool)s)."), '004 "Armor"', why=why, n=armor_dice, pool=pool)
    difficulty = DEFAULT_DIFFICULTY + attackers - 1
    steps.add(N_("%(attackers)s attackers: +%(n)s difficulty (%(difficulty)s)."), R_DODGE, attackers=attackers,
              n=attackers - 1, difficulty=difficulty)
    for key in modifiers:
        row = profile.dodge_modifiers.get(key)
        if row is None:
            raise RulesError(Phrase.message(N_("There is no dodge modifier %(key)s (%(value)s)."),
                                            key=repr(key), value=', '.join(profile.dodge_modifiers)),
                             field="defense.dodge_modifiers")
        difficulty += row.difficulty
        steps.add(N_("%(what)s: %(change)s difficulty (%(difficulty)s)."), '004 "Dodge Modifiers"',
                  what=Phrase.term(row.label), change=f"{row.difficulty:+d}", difficulty=difficulty)
    difficulty = bounded_difficulty(difficulty, steps, Phrase.message(N_("The dodge's difficulty")))
    roll = None
    successes = 0
    if pool > 0:
        roll = roll_dice(pool, difficulty, dice=(dice or {}).get("dodge"), rng=rng, settings=settings, roll="dodge",
                         who=target.name, steps=steps.steps())
        roll_step(roll, Phrase.message(N_("%(name)s's dodge roll"), name=target.name), steps, R_DODGE)
        successes = roll.net
    else:
        steps.add(N_("%(name)s has no dice left to dodge."), R_DODGE, name=target.name)
    steps.add(N_("%(name)s has %(successes)s to divide among the attackers this turn."), R_DODGE, name=target.name,
              successes=Phrase.counted(successes, "%(n)s success", "%(n)s successes"))
    carried = replace(combat.carried, dodges=MappingProxyType({**combat.carried.dodges, target.key: successes}))
    combat = replace(combat, carried=carried, log=combat.log + (said_text(steps.steps()[-1]),))
    return combat, SharedDodge(pool, difficulty, roll, successes, steps.steps())


def dodge_against(combat: Combat, key: str, successes: int) -> DefenseChoice:
    """The defense ``key`` opposes one attack with: ``successes`` of his one dodge roll this turn
    (004 "Dodging"), for :func:`larp.rules.tabletop.combat.resolve_attack`.

    Raises:
        RulesError: he made no shared dodge roll this turn, or gives more successes than he has left
            (field ``defense.shared``).
    """
    check_count(successes, "defense.shared", 0, 30)
    if key not in combat.carried.dodges:
        raise RulesError(Phrase.message(N_("%(value)s has made no dodge roll to divide this turn."),
                                        value=combat.name(key)), field="defense.shared")
    left = combat.carried.dodges[key]
    if successes > left:
        raise RulesError(Phrase.message(N_("%(name)s has %(left)s of the dodge roll left, not %(successes)s."),
                                        name=combat.name(key), successes=successes,
                                        left=Phrase.counted(left, "%(n)s success", "%(n)s successes")),
                         field="defense.shared")
    return DefenseChoice("dodge", shared=successes)
