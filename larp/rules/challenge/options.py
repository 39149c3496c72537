"""The options still open: what each side may call after the tests so far (retests it can pay
for, cancels of the opponent's retests, an overbid and whether it would make a new test, a
second challenge), read from the state without playing the challenge again (LotNR
Overbidding, Retests, Surprise; met-reference 1.5, 2.1, 2.2, 3.1).

Part of :mod:`larp.rules.challenge`.
"""

from __future__ import annotations

from larp.rules.challenge.overbid import overbid_problem, overbid_ratio
from larp.rules.challenge.retest import cancel_problem, retest_problem
from larp.rules.challenge.ruling import ChallengeOptions, SideOptions
from larp.rules.challenge.state import ChallengeState, SideState
from larp.rules.challenge.surprise import second_challenge_problem
from larp.rules.challenge.types import Kind, Outcome, Power, other_side, source_key


def retest_sources(side: SideState, with_might: bool) -> list[tuple[str, str]]:
    """Every retest source on the character's sheet, as (category, name): its Abilities,
    Willpower, its Merits and, when asked, Might (Dark Epics' categories, met-reference 2.2;
    LotNR Potence, 3.4), whether or not it may use them now."""
    con = side.con
    out = [("ability", a) for a in con.abilities] + [("willpower", "Willpower")]
    out += [("merit", m) for m in con.merits]
    if with_might and Power.MIGHT in con.powers:
        out.append(("power", "Might"))
    return out


def open_options(state: ChallengeState) -> ChallengeOptions:
    """What each side may still call in the state the tests so far left.

    For each character: the retest sources it may call now, can pay for and may still use
    under ``retest_limit_mode``; whether it may overbid and whether the ratio would make a new
    test (with the arithmetic); which of its sources could cancel each retest the opponent may
    call; whether it may call a second challenge; the Traits it may still risk in an overbid or a
    second challenge (:meth:`SideState.free_traits`). In a static challenge the narrator may
    overbid too (LotNR Overbidding, Retests, Surprise; met-reference 1.5, 2.1, 3.1).
    """
    done = state.auto_winner is not None or state.finished
    retests: dict[Outcome, list[tuple[str, str]]] = {
        side.key: [s for s in retest_sources(side, True) if retest_problem(state, side, *s)[0] is None]
        for side in state.characters()
    }
    out = []
    for side in state.characters():
        problem = overbid_problem(state, side)
        makes, note = overbid_ratio(state, side) if problem is None else (False, problem)
        cancels: dict[str, tuple[str, ...]] = {}
        for retest in retests.get(other_side(side.key), []):
            ok = tuple(source_key(*c) for c in retest_sources(side, False)
                       if cancel_problem(state, side, retest, *c)[0] is None)
            if ok:
                cancels[source_key(*retest)] = ok
        free = side.free_traits()
        out.append(SideOptions(side.key, tuple(source_key(*r) for r in retests[side.key]),
                               problem is None, problem is None and makes, note, cancels,
                               second_challenge_problem(state, side) is None,
                               overbid_traits=tuple(sorted(set(free))) if free is not None else None))
    narrator = state.sides[Outcome.DEFENDER]
    if state.challenge.kind is Kind.STATIC and narrator.con is None:
        problem = overbid_problem(state, narrator)  # the narrator may overbid too (LotNR, met-reference 1.5)
        makes, note = overbid_ratio(state, narrator) if problem is None else (False, problem)
        out.append(SideOptions(Outcome.DEFENDER, (), problem is None, problem is None and makes, note,
                               narrator=True))
    current = None if state.auto_winner is not None else state.result
    return ChallengeOptions(current, done, state.forced_due, tuple(out))


#: What :mod:`larp.rules.challenge` re-exports from this module.
__all__ = ["open_options"]
