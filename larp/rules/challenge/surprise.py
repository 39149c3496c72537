"""Surprise's second challenge: a challenger who surprised the defender and lost the test may
risk another Trait for a second challenge, after which the normal rules resume (LotNR
Surprise, met-reference 3.1; Dark Epics p.71, one Physical challenge per target per turn).

Part of :mod:`larp.rules.challenge`: :func:`call_second_challenge` is the phase;
:func:`second_challenge_problem` also tells the options whether it is still open.
"""

from __future__ import annotations

from larp.rules.challenge.overbid import overbid_trait_problem, take_trait
from larp.rules.challenge.script import TestCall
from larp.rules.challenge.state import ChallengeState, SideState
from larp.rules.challenge.test import caller, caller_problem, make_test
from larp.rules.challenge.totals import tie_standing
from larp.rules.challenge.types import R_SURPRISE, Category, Outcome
from larp.rules.explain import N_, Phrase, RulesError


def second_challenge_problem(state: ChallengeState, side: SideState) -> str | None:
    """Why ``side`` may not call a second challenge now, or ``None``: only a challenger who
    surprised the defender and lost the test, once (LotNR Surprise, met-reference 3.1); never
    under Dark Epics' one Physical challenge per target per turn (setting
    ``one_physical_challenge_per_turn``)."""
    ch, settings = state.challenge, state.settings
    if not ch.surprised or side.key is not Outcome.CHALLENGER or side.con is None:
        return Phrase.message(N_("Only a challenger who surprised the defender may call a second challenge."))
    if state.surprise_over:
        return Phrase.message(N_("%(name)s has already called the second challenge."), name=side.name)
    problem = caller_problem(state, side)
    if problem:
        return problem
    if settings["one_physical_challenge_per_turn"] and ch.category is Category.PHYSICAL:
        return Phrase.message(N_("%(name)s has faced a Physical challenge this turn: no second one (%(choice)s)."),
                              name=state.sides[Outcome.DEFENDER].name,
                              choice=Phrase.term(settings.label("one_physical_challenge_per_turn")))
    if side.traits_to_risk() < 1:
        return Phrase.message(N_("%(name)s has no Trait left to risk."), name=side.name)
    return None


def call_second_challenge(state: ChallengeState, index: int, call: TestCall) -> None:
    """The second-challenge phase: the challenger who surprised the defender and lost the test
    risks ``call.trait`` for a new test; the Traits lost on the first stay lost, and the normal
    rules resume (the defender may use Celerity and hit back) (LotNR Surprise, met-reference 3.1).

    Raises:
        RulesError: the side may not call it (:func:`second_challenge_problem`) or may not risk
            that Trait.
    """
    f = f"tests[{index}]"
    side = caller(state, index, call)
    problem = second_challenge_problem(state, side)
    if problem:
        raise RulesError(problem, field=f"{f}.by")
    trait = call.trait.strip() if isinstance(call.trait, str) else ""
    problem = overbid_trait_problem(side, trait, Phrase.message(N_("for a second challenge (LotNR Surprise)")))
    if problem:
        raise RulesError(problem, field=f"{f}.trait")
    lost_now = list(side.at_risk)
    side.lost += side.at_risk
    take_trait(side, trait)
    side.at_risk = [trait]
    state.surprise_over = True
    for each in state.characters():
        tie_standing(state, each)
    defender = state.sides[Outcome.DEFENDER].name
    said = Phrase.message(N_("%(name)s surprised %(defender)s and lost the test: %(name)s risks %(trait)s for a "
                             "second challenge, and the normal rules resume (%(defender)s may use Celerity and hit "
                             "back)."), name=side.name, defender=defender, trait=trait)
    if lost_now:
        said = Phrase.message(N_("%(retest)s %(name)s still loses %(traits)s, lost on that test."), retest=said,
                              name=side.name, traits=", ".join(lost_now))
    state.steps.add(said, R_SURPRISE)
    make_test(state, index, call, side.key, trait=trait)
