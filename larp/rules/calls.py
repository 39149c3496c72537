"""What a fighter calls about his own attack, named once.

The narrator's forms, the stored API, the stateless API and the rules core carry the same calls under the
same names and defaults: :class:`StrikeCalls` (how his hit does damage: the damage rules read them) and
:class:`SideCalls` (the rest of what one side of a one-on-one challenge calls before the test). A request
type inherits them and adds its own fields; the calls are keyword-only, so the fields a request takes by
position stay where they were.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, kw_only=True)
class StrikeCalls:
    """How the attacker calls his hit's damage (002 "Damage and Healing"; met-reference 3.7).

    Attributes:
        lethal_by_prowess: with Prowess, his bare-handed or club strike does lethal damage.
        head_shot: his firearm is aimed at the head (lethal against vampires, 002).
        full_auto: he fires his Full-Auto weapon on full auto, emptying the clip (LotNR Fully Automatic:
            its extra level within five feet, then an action to reload; met-reference 3.7).
    """

    lethal_by_prowess: bool = False
    head_shot: bool = False
    full_auto: bool = False


@dataclass(frozen=True, kw_only=True)
class SideCalls(StrikeCalls):
    """What one side of a one-on-one challenge calls before the test, besides his bid and weapon.

    Attributes:
        specialisation: an Ability specialisation applies (+1 bonus Trait while he has a level of its
            Ability left tonight): the Ability's name, or ``True`` for the one his sheet specialises
            (LotNR Abilities, met-reference 1.3).
        steps_moved: steps taken this turn before acting, 0 to 3 (LotNR three-step rule).
        off_hand: he attacks with the off hand.
        relent: he relents before the test.
        calls_negative: a Negative Trait he calls on the other side (``""``: none).
        waive_darkness: he expends a Blindfighting level to skip the forced retest of total darkness.
        bomb_announced: he stated before the challenge that he can throw the Bomb (LotNR Vigor: the Bomb
            exists only when announced).
        both_hands: he fights with a weapon in each hand this turn (met-reference 3.8).
        stake: he drives his Staking weapon (a stake) at the heart (met-reference 3.7).
        ignore_wounds: he spends a Willpower Trait to ignore his wound penalties, up to and including
            Incapacitated, for this turn (LotNR Willpower, met-reference 2.1, 4.1).
        lethal_by_prowess, head_shot, full_auto: his :class:`StrikeCalls`.
    """

    specialisation: bool | str = False
    steps_moved: int = 0
    off_hand: bool = False
    relent: bool = False
    calls_negative: str = ""
    waive_darkness: bool = False
    bomb_announced: bool = False
    both_hands: bool = False
    stake: bool = False
    ignore_wounds: bool = False


#: The names of :class:`SideCalls`' fields (read once).
SIDE_CALLS = tuple(f.name for f in fields(SideCalls))


def side_calls(calls: SideCalls) -> dict[str, Any]:
    """``calls``' :class:`SideCalls` by name, as they are: what a request's side passes on to the rules
    core's :class:`~larp.rules.rulings.people.Choice` (keyword arguments)."""
    return {name: getattr(calls, name) for name in SIDE_CALLS}
