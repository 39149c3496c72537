"""Which retests suit a side: the Abilities that fit what he is doing, and the retests the
side behind in a pair may still call (``data/retests.toml``; LotNR Retests,
met-reference 2.1, 3.6; Dark Epics Blindfighting, 6.1).

In a Physical challenge: Brawl bare-handed, Melee with a hand weapon, Firearms shooting,
Athletics throwing, Dodge defending against an attack, Blindfighting in darkness. In a
Social or Mental challenge: any Ability but the purely physical ones. The screens offer
these retests first; the rules engine still accepts any Ability the narrator allows.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

from larp.rules.challenge import Category, ChallengeOptions, Outcome
from larp.rules.damage import weapon as armory_weapon
from larp.tables import physical_retests


def suitable_abilities(category: Category, weapon: str, defending: bool, dark: bool = False,
                       abilities: Iterable[str] | None = None) -> set[str] | None:
    """The Abilities (lower case) that suit a retest here, or ``None`` for "any".

    Args:
        category: the challenge's category.
        weapon: the live armory key of what the side uses (``""`` bare-handed).
        defending: the side defends against an attack (Dodge suits).
        dark: the scene is dark for the side (Blindfighting suits).
        abilities: the side's Abilities; in a Social or Mental challenge the suitable ones
            are these minus the purely physical ones (``None``: any Ability).
    """
    table = physical_retests()
    if category is not Category.PHYSICAL:
        if abilities is None:
            return None
        physical = {n.lower() for n in table["physical_only"]}
        return {a.lower() for a in abilities} - physical
    if weapon:
        card = armory_weapon(weapon, "live")
        names = list(table["firearm"] if card.firearm else table["melee_weapon"] if card.melee else table["thrown"])
    else:
        names = list(table["bare_hands"])
    if defending:
        names += table["defending"]
    if dark:
        names += table["darkness"]
    return {n.lower() for n in names}


def with_suitable(options: ChallengeOptions, suitable: Mapping[Outcome, set[str] | None]) -> ChallengeOptions:
    """``options`` with each character side's ``suitable_abilities`` filled from ``suitable`` (by side,
    from :func:`suitable_abilities`; a side not named, and the narrator's, keeps ``None``: any)."""
    sides = tuple(side if side.narrator or suitable.get(side.side) is None else
                  replace(side, suitable_abilities=tuple(sorted(suitable[side.side])))
                  for side in options.sides)
    return replace(options, sides=sides)


def retests_behind(options: ChallengeOptions | None, outcome: Outcome | None, made: bool,
                   suitable: dict[Outcome, set[str] | None], forced: bool = True) -> list[tuple[str, str]]:
    """The retests the side behind in a pair may call now, as ``(side, source)``: ``side`` is
    ``challenger`` or ``defender`` (either on a draw), the source one he can pay for and whose
    Ability suits (``suitable``, by side); ``(side, "forced")`` when a forced darkness retest is
    due (002 "Darkness")."""
    if options is None or not made or options.finished:
        return []
    if options.forced_retest is not None:
        return [(options.forced_retest.value, "forced")] if forced else []
    behind = {Outcome.CHALLENGER: [Outcome.DEFENDER], Outcome.DEFENDER: [Outcome.CHALLENGER]}.get(
        outcome, [Outcome.CHALLENGER, Outcome.DEFENDER])
    out = []
    for side in behind:
        fit = suitable.get(side)
        out += [(side.value, source) for source in options.side(side).retests
                if not source.startswith("ability:") or fit is None or source[8:].lower() in fit]
    return out
