"""Extended and delayed effects at the end of a tabletop turn (issue 37 item 8; 004 "Extended and
Delayed Effects": "Extended actions that end this turn, and any action that says it takes effect
at the end of the turn, takes effect").

:func:`schedule` records an effect due at the end of a turn; :func:`end_turn`
closes the turn: the effects due take effect (in the order they were
scheduled), the others wait, and the next turn starts with initiative
(:func:`larp.rules.tabletop.turn.next_turn`).
"""

from __future__ import annotations

from dataclasses import replace

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.tabletop.carried import Pending
from larp.rules.tabletop.turn import Combat, next_turn

R_END = '004 "Extended and Delayed Effects"'


def schedule(combat: Combat, who: str, text: str, turns: int = 0) -> Combat:
    """Record that ``text`` happens to ``who`` at the end of this turn, or ``turns`` turns later (an
    extended action of several turns) (004 "Extended and Delayed Effects").

    Raises:
        RulesError: ``who`` is not in the fight, an empty text, or a count outside 0..20.
    """
    if who not in combat.fighters:
        raise RulesError(Phrase.message(N_("Name a fighter of this combat.")), field="character")
    if not isinstance(text, str) or not text.strip():
        raise RulesError(Phrase.message(N_("Say what happens at the end of the turn.")), field="text")
    if isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns <= 20:
        raise RulesError(Phrase.message(N_("Turns from now: a whole number from 0 to 20.")), field="turns")
    pending = combat.carried.pending + (Pending(who, text.strip(), combat.turn + turns),)
    return replace(combat, carried=replace(combat.carried, pending=pending))


def end_turn(combat: Combat) -> tuple[Combat, tuple[Step, ...], tuple[Pending, ...]]:
    """Close the turn: extended actions that end now and effects that take effect at the end of the
    turn do so, then the next turn starts (004 "Extended and Delayed Effects", "Repeat for
    Subsequent Actions").

    Returns:
        The combat at the start of the next turn, the steps, and the effects that took effect.

    Raises:
        RulesError: the turn has not started (as :func:`~larp.rules.tabletop.turn.next_turn`).
    """
    due = tuple(p for p in combat.carried.pending if p.due <= combat.turn)
    later = tuple(p for p in combat.carried.pending if p.due > combat.turn)
    steps = Explanation()
    for p in due:
        steps.add(N_("End of turn %(turn)s: %(name)s: %(what)s"), R_END, turn=combat.turn, name=combat.name(p.who),
                  what=p.text)
    combat = next_turn(replace(combat, carried=replace(combat.carried, pending=later)))
    return combat, steps.steps(), due
