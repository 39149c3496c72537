"""The test: the throws of one test and who wins it, ties, the narrator's random throw, the
forced retest of total darkness, and who may call anything after a test (met-reference 1.2,
1.3, 1.6, 6.1; seed 002 "Ties", "Darkness").

Part of :mod:`larp.rules.challenge`: :func:`make_test` is the phase every test goes through,
the first one and those an overbid, a retest or a second challenge makes.
"""

from __future__ import annotations

from typing import Any

from larp.rules.challenge.bids import bomb_power
from larp.rules.challenge.ruling import TestRecord
from larp.rules.challenge.script import TestCall
from larp.rules.challenge.state import ChallengeState, SideState
from larp.rules.challenge.totals import tell_totals
from larp.rules.challenge.types import (
    R_DARK,
    R_DARK_DE,
    R_FLEETNESS,
    R_HEALTH,
    R_PUISSANCE,
    R_STATIC,
    R_TEST,
    R_TIES,
    SIDES,
    Kind,
    Outcome,
    Throw,
    compare_throws,
    parse_throw,
    random_throw,
)
from larp.rules.darkness import ability_named
from larp.rules.explain import N_, Phrase, RulesError


def make_test(state: ChallengeState, index: int, call: TestCall, by: Outcome | None, **record: Any) -> None:
    """Make one test: read the throws, decide who wins it, record it, and see whether a
    forced darkness retest is now due.

    Rock, paper, scissors, the Bomb only with its power announced (LotNR The Test, Vigor and
    Rapidity; met-reference 1.2); a tied throw is decided by :func:`_tie` (002 "Ties"); in a
    simple test a tie succeeds unless the effect needs a win (met-reference 1.6). The
    narrator's throw left out of a static challenge or simple test is drawn from
    ``state.rng``.

    Args:
        index: the call's place in the script (for field names).
        call: the call that makes the test, with its throws.
        by: who called it (``None`` for the first test).
        record: what the test record adds (``source``, ``trait``).

    Raises:
        RulesError: a throw missing, unknown, or a Bomb the side may not throw.
    """
    ct, dt = _throws(state, index, call)
    c, d = state.sides[Outcome.CHALLENGER], state.sides[Outcome.DEFENDER]
    ch = state.challenge
    result = compare_throws(ct, dt)
    if result > 0:
        winner = Outcome.CHALLENGER
        state.steps.add(N_("%(throw)s beats %(other)s: %(name)s wins the test."), R_TEST,
                        throw=Phrase.term(ct.label), other=Phrase.term(dt.label), name=c.name)
    elif result < 0:
        winner = Outcome.DEFENDER
        state.steps.add(N_("%(throw)s beats %(other)s: %(name)s wins the test."), R_TEST,
                        throw=Phrase.term(dt.label), other=Phrase.term(ct.label), name=d.name)
    elif ch.kind is Kind.SIMPLE:
        winner = Outcome.DEFENDER if ch.needs_win else Outcome.CHALLENGER
        state.steps.add(N_("Both throw %(throw)s: a tie, which fails: the effect needs a win.") if ch.needs_win
                        else N_("Both throw %(throw)s: a tie, which succeeds in a simple test."), R_STATIC,
                        throw=Phrase.term(ct.label))
    else:
        winner = _tie(state, ct)
    state.result = winner
    state.records.append(TestRecord(call.call, by, ct, dt, winner, **record))
    _check_forced(state)


def forced_retest(state: ChallengeState, index: int, call: TestCall) -> None:
    """The forced retest of a success won in total darkness: the winner's test is made again,
    once (002 "Darkness").

    Raises:
        RulesError: no forced retest is due, or the wrong side calls it.
    """
    f = f"tests[{index}]"
    side = state.forced_due
    if side is None:
        raise RulesError(Phrase.message(N_("No forced darkness retest is due here.")), field=f"{f}.call")
    if call.by is not None and call.by is not side:
        raise RulesError(Phrase.message(N_("The forced retest is %(name)s's."), name=state.sides[side].name), field=f"{f}.by")
    state.forced_due = None
    state.sides[side].forced_done = True
    state.steps.add(N_("%(name)s won in total darkness: the test is retested once."), R_DARK,
                    name=state.sides[side].name)
    make_test(state, index, call, side)


def caller(state: ChallengeState, index: int, call: TestCall) -> SideState:
    """The side that calls an overbid, a retest or a second challenge (LotNR Overbidding,
    Retests; met-reference 1.5, 2.1).

    Raises:
        RulesError: the call names neither side.
    """
    if call.by not in SIDES:
        raise RulesError(Phrase.message(N_("Say who calls it: challenger or defender.")), field=f"tests[{index}].by")
    return state.sides[call.by]


def caller_problem(state: ChallengeState, side: SideState) -> str | None:
    """Why ``side`` may not call anything after the tests so far, or ``None``: only the loser of
    the last test may overbid, retest or call a second challenge, once a test was made, before
    a forced darkness retest, and never after Might (LotNR Overbidding, Retests, Potence;
    met-reference 1.5, 2.1, 3.4; 002 "Darkness")."""
    if state.auto_winner is not None:
        return Phrase.message(N_("The challenge was decided before the test."))
    if state.result is None:
        return Phrase.message(N_("The first test comes first."))
    if state.finished:
        return Phrase.message(N_("Might was the last test of the challenge."))
    if state.forced_due is not None:
        return Phrase.message(N_("The forced darkness retest comes first."))
    if state.result is side.key:
        return Phrase.message(N_("%(name)s won the last test; only the side that lost it may call this."), name=side.name)
    return None


def _throws(state: ChallengeState, index: int, call: TestCall) -> tuple[Throw, Throw]:
    f = f"tests[{index}]"
    ch = state.challenge
    if call.challenger_throw is None:
        raise RulesError(Phrase.message(N_("%(name)s's throw is missing."), name=state.sides[Outcome.CHALLENGER].name),
                         field=f"{f}.challenger_throw")
    ct = parse_throw(call.challenger_throw, f"{f}.challenger_throw")
    narrator = state.sides[Outcome.DEFENDER].con is None
    if call.defender_throw is None:
        if narrator and state.rng is not None:
            dt = random_throw(state.rng)
            state.steps.add(N_("The narrator throws %(throw)s (drawn at random)."), R_STATIC,
                            throw=Phrase.term(dt.label))
        else:
            raise RulesError(Phrase.message(N_("%(name)s's throw is missing."), name=state.sides[Outcome.DEFENDER].name),
                             field=f"{f}.defender_throw")
    else:
        dt = parse_throw(call.defender_throw, f"{f}.defender_throw")
    for side, throw in ((Outcome.CHALLENGER, ct), (Outcome.DEFENDER, dt)):
        if throw is Throw.BOMB:
            surprised = ch.surprised and not state.surprise_over
            if not bomb_power(ch, side, surprised):
                con = state.sides[side].con
                why = (Phrase.message(N_("it was not announced before the challenge"))
                       if con is not None and not con.bomb_announced and bomb_power(ch, side, surprised, announced=True)
                       else Phrase.message(N_("it needs Vigor in a strength challenge or Rapidity in a speed challenge "
                                              "(and no surprise), announced before the challenge")))
                raise RulesError(Phrase.message(N_("%(name)s cannot throw the Bomb: %(why)s."),
                                                name=state.sides[side].name, why=why),
                                 field=f"{f}.{side.value}_throw")
    return ct, dt


def _tie(state: ChallengeState, throw: Throw) -> Outcome:
    """A tied throw: win-ties powers and wounds first, then the Traits counted, equal a draw
    (002 "Ties"; setting ``static_equal_tie`` against a narrator's difficulty)."""
    c, d = state.sides[Outcome.CHALLENGER], state.sides[Outcome.DEFENDER]
    ch, settings = state.challenge, state.settings
    static = ch.kind is Kind.STATIC
    state.steps.add(
        N_("Both throw %(throw)s: a tie. Compare current %(category)s Traits against the narrator's difficulty; "
           "Traits bid still count until the challenge is resolved.") if static else
        N_("Both throw %(throw)s: a tie. Compare current %(category)s Traits; Traits bid still count until the "
           "challenge is resolved."),
        R_TIES, throw=Phrase.term(throw.label), category=Phrase.term(ch.category.label),
    )
    whys = c.standing_why + d.standing_why
    why = whys[0] if whys else ""
    for more in whys[1:]:
        why = Phrase.message(N_("%(first)s; %(second)s"), first=why, second=more)
    rule = R_HEALTH if "Wounded" in why else (R_PUISSANCE if "Puissance" in why else R_FLEETNESS)
    if c.standing != d.standing:
        winner = Outcome.CHALLENGER if c.standing > d.standing else Outcome.DEFENDER
        state.steps.add(N_("%(why)s: %(name)s wins the tie without comparing Traits."), rule, why=why,
                        name=state.sides[winner].name)
        return winner
    if why:
        state.steps.add(N_("%(why)s: these cancel out, so the Traits decide."), rule, why=why)
    tell_totals(state)
    if c.total > d.total:
        state.steps.add(N_("%(name)s has %(n)s Traits against %(other)s's %(other_n)s: %(name)s wins the tie."),
                        R_TIES, name=c.name, n=c.total, other=d.name, other_n=d.total)
        return Outcome.CHALLENGER
    if d.total > c.total:
        state.steps.add(N_("%(name)s has %(n)s Traits against %(other)s's %(other_n)s: %(name)s wins the tie."),
                        R_TIES, name=d.name, n=d.total, other=c.name, other_n=c.total)
        return Outcome.DEFENDER
    if static:
        if settings["static_equal_tie"] == "succeed":
            state.steps.add(N_("%(name)s's %(n)s Traits equal the difficulty: the attempt succeeds (%(choice)s)."),
                            R_TIES, "static_equal_tie", name=c.name, n=c.total,
                            choice=Phrase.term(settings.label("static_equal_tie")))
            return Outcome.CHALLENGER
        state.steps.add(N_("%(name)s's %(n)s Traits equal the difficulty: a draw, so the attempt fails and the bid "
                           "is lost."), R_TIES, "static_equal_tie", name=c.name, n=c.total)
        return Outcome.DRAW
    state.steps.add(N_("Both have %(n)s Traits: a draw. Both sides lose the Traits they bid."), R_TIES, n=c.total)
    return Outcome.DRAW


def _check_forced(state: ChallengeState) -> None:
    """A success won in total darkness is retested once, unless an Ability level is expended
    (002 "Darkness"; Dark Epics p.49, met-reference 6.1)."""
    winner = state.result
    if winner not in SIDES:
        return
    side = state.sides[winner]
    if not side.dark_forced or side.forced_done or side.con is None:
        return
    dark = side.con.darkness
    if dark.waive_retest:
        if dark.waived_this_turn:
            state.steps.add(N_("%(name)s already expended %(ability)s this turn: no forced retest."), R_DARK_DE,
                            name=side.name, ability=dark.waive_retest)
        else:
            key = ability_named(side.con.abilities, dark.waive_retest)
            assert key is not None  # checked when the darkness was set up
            if side.abilities_left()[key] < 1:
                state.steps.add(N_("%(name)s has no %(ability)s level left to expend: the forced retest applies."),
                                R_DARK, name=side.name, ability=key)
                state.forced_due = winner
                return
            side.abilities_spent[key] += 1
            state.steps.add(N_("%(name)s expends a level of %(ability)s: no forced retest of total darkness this "
                               "turn."), R_DARK_DE, name=side.name, ability=key)
        side.forced_done = True
        return
    state.forced_due = winner
    state.steps.add(N_("%(name)s is in total darkness and won: the success must be retested once."), R_DARK,
                    name=side.name)
