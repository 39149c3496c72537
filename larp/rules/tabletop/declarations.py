"""Stage one's declarations of a tabletop turn (000 "Stage One: Initiative" and "Multiple Actions"; 004
"Preliminaries"): every acting fighter says, in reverse order of initiative, how many actions he takes, how many
he keeps for defense, Celerity's extra actions (paid in blood now) and his first maneuver; then the actions begin.

Pure, as the rest of the turn (:mod:`larp.rules.tabletop.turn`): it returns a new :class:`Combat`.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Mapping

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.actions import celerity_blood
from larp.rules.tabletop.maneuvers import Profile
from larp.rules.tabletop.turn import STAGE_ONE, MAX_ACTIONS, Combat, Declaration, said_text


def declare(combat: Combat, declarations: Mapping[str, Declaration], celerity: Mapping[str, int],
            profile: Profile, blood: Mapping[str, int | None] | None = None,
            settings: ChronicleSettings | None = None) -> tuple[Combat, tuple[Step, ...]]:
    """Record every acting fighter's declaration and start the actions.

    Rules: declarations in reverse order of initiative (000); multiple actions
    and Celerity declared now (000 "Stage One"; 004 "Preliminaries": Celerity
    up to his rating); a fighter getting up from a knockdown spends his first
    action on it (000 "Knockdown").

    Celerity's extra actions cost blood (004 "Activate Celerity", setting
    ``tabletop_celerity_blood``), paid now and kept in ``carried.celerity_paid``; the cost
    ignores the generation's limit.

    Args:
        declarations: key -> declaration (missing: a single action).
        celerity: key -> Celerity dots.
        blood: key -> blood points in his pool (``None``, or the mapping left out: not counted).
        settings: the chronicle's settings (defaults if omitted).

    Raises:
        RulesError: not the declaration phase, or an impossible declaration
            (field ``<key>.<part>``).
    """
    if combat.phase != "declare":
        raise RulesError(Phrase.message(N_("Roll initiative first.")), field="phase")
    steps = Explanation()
    result: dict[str, Declaration] = {}
    used: dict[str, int] = {}
    taken: dict[str, int] = {}
    paid: dict[str, int] = {}
    for entry in reversed(combat.initiative):
        key = entry.key
        if key in combat.out:
            continue
        d = declarations.get(key, Declaration())
        who = entry.name
        if not isinstance(d.actions, int) or not 1 <= d.actions <= MAX_ACTIONS:
            raise RulesError(Phrase.message(N_("%(who)s: 1 to %(max_actions)s actions."),
                                            who=who, max_actions=MAX_ACTIONS), field=f"{key}.actions")
        if not isinstance(d.celerity, int) or not 0 <= d.celerity <= celerity.get(key, 0):
            raise RulesError(Phrase.message(N_("%(who)s has Celerity %(value)s: at most that many extra actions."),
                                            who=who, value=celerity.get(key, 0)),
                             field=f"{key}.celerity")
        if not isinstance(d.defenses, int) or not 0 <= d.defenses <= d.total:
            raise RulesError(Phrase.message(N_("%(who)s: at most %(total)s of the actions can be kept for defense."),
                                            who=who, total=d.total),
                             field=f"{key}.defenses")
        if d.maneuver is not None:
            m = profile.maneuver(d.maneuver, f"{key}.maneuver")
            if m.kind == "defensive" and not d.full_defense:
                raise RulesError(Phrase.message(N_("%(who)s: keep actions for %(name)s with \"defenses\" or a full "
                                                   "defense."), who=who, name=m.name.lower()),
                                 field=f"{key}.maneuver")
        if d.shares and (len(d.shares) != d.actions or (d.split_dice is not None and sum(d.shares) > d.split_dice)):
            raise RulesError(Phrase.message(N_("%(who)s: give the dice of each of his %(actions)s, no more than the "
                                               "smallest pool in all."), who=who,
                                            actions=Phrase.counted(d.actions, "%(n)s action", "%(n)s actions")),
                             field=f"{key}.shares")
        if d.target is not None and (d.target not in combat.fighters or d.target == key):
            raise RulesError(Phrase.message(N_("%(who)s: choose another fighter as the target."), who=who),
                             field=f"{key}.target")
        if d.full_defense:
            d = replace(d, defenses=0, maneuver=None, target=None, delay=False)
        steps.add(N_("%(text_so_far)s."), STAGE_ONE, text_so_far=_declared(who, d, combat, profile))
        if d.celerity:
            cost, step = celerity_blood(d.celerity, profile.key, settings, who)
            pool = (blood or {}).get(key)
            if pool is not None and cost > pool:
                raise RulesError(Phrase.message(N_("%(who)s has %(blood)s and Celerity's %(extra)s cost %(cost)s."),
                                                who=who, blood=Phrase.counted(pool, "%(n)s blood point", "%(n)s blood points"),
                                                extra=Phrase.counted(d.celerity, "%(n)s extra action",
                                                                     "%(n)s extra actions"), cost=cost),
                                 field=f"{key}.celerity")
            steps.extend([step])
            if cost:
                paid[key] = cost
        result[key] = d
        if combat.has_condition(key, "rising") and d.offense:
            used[key] = 1
            taken[key] = 1
            steps.add(N_("%(name)s spends the first action getting up."), '000 "Knockdown"', name=who)
    log = combat.log + tuple(said_text(s) for s in steps.steps())
    new = replace(combat, phase="act", declarations=MappingProxyType(result), used=MappingProxyType(used),
                  taken=MappingProxyType(taken), log=log,
                  carried=replace(combat.carried, celerity_paid=MappingProxyType(paid)))
    return new, steps.steps()


def _declared(who: str, d: Declaration, combat: Combat, profile: Profile) -> Phrase:
    """What ``who`` declares, as a phrase ("Ann declares 2 actions, 1 kept for defense; first: strike on Bob")."""
    if d.full_defense:
        return Phrase.message(N_("%(name)s declares a turn spent defending"), name=who)
    text = Phrase.message(N_("%(name)s declares %(actions)s"), name=who,
                          actions=Phrase.counted(d.actions, "%(n)s action", "%(n)s actions"))
    if d.celerity:
        text = Phrase.message(N_("%(text_so_far)s and %(n)s through Celerity"), text_so_far=text, n=d.celerity)
    if d.defenses:
        text = Phrase.message(N_("%(text_so_far)s, %(n)s kept for defense"), text_so_far=text, n=d.defenses)
    if d.delay:
        text = Phrase.message(N_("%(text_so_far)s, delaying the first"), text_so_far=text)
    if d.maneuver:
        text = Phrase.message(N_("%(text_so_far)s; first: %(maneuver)s"), text_so_far=text,
                              maneuver=Phrase.term(profile.maneuvers[d.maneuver].name.lower()))
        if d.target:
            text = Phrase.message(N_("%(text_so_far)s on %(target)s"), text_so_far=text, target=combat.name(d.target))
    return text
