"""The overbid: the loser of a test risks a new Trait for a new test, made only when its Traits
reach the chronicle's ratio of the opponent's (LotNR Overbidding, met-reference 1.5; Health,
4.1).

Part of :mod:`larp.rules.challenge`: :func:`call_overbid` is the phase; the checks
(:func:`overbid_problem`, :func:`overbid_trait_problem`) and the arithmetic
(:func:`overbid_ratio`) also tell the options what is still open.
"""

from __future__ import annotations

from larp.rules.challenge.ruling import TestRecord
from larp.rules.challenge.script import TestCall
from larp.rules.challenge.state import ChallengeState, SideState
from larp.rules.challenge.test import caller, caller_problem, make_test
from larp.rules.challenge.totals import tell_totals
from larp.rules.challenge.types import (
    POTENCE_TRAIT,
    R_HEALTH,
    R_OVERBID,
    Call,
    Category,
    Health,
    Kind,
    other_side,
)
from larp.rules.explain import N_, Phrase, RulesError, traits


def overbid_problem(state: ChallengeState, side: SideState) -> str | None:
    """Why ``side`` may not call an overbid now (whatever the Trait), or ``None``: not in a
    simple test or a Virtue Test, only the loser of the last test, once per challenge, never
    for a side that risks no Trait, and only with a Trait left to risk (LotNR Overbidding,
    Virtue Tests; met-reference 1.5)."""
    if state.challenge.kind is Kind.SIMPLE:
        return Phrase.message(N_("A simple test compares no Traits: no overbid."))
    if state.challenge.category is Category.VIRTUE:
        return Phrase.message(N_("Overbids are forbidden on Virtue Tests (LotNR)."))
    problem = caller_problem(state, side)
    if problem:
        return problem
    if side.con is not None and side.con.risks_no_trait:
        return Phrase.message(N_("%(name)s risks no Trait in this test: no overbid."), name=side.name)
    if side.overbid_used:
        return Phrase.message(N_("%(name)s has already overbid in this challenge."), name=side.name)
    if side.con is not None and side.traits_to_risk() < 1:
        return Phrase.message(N_("%(name)s has no Trait left to risk."), name=side.name)
    return None


def overbid_trait_problem(side: SideState, trait: str, what: str | None = None) -> str | None:
    """Why ``side`` may not risk ``trait`` in an overbid (or ``what`` else: a second challenge),
    or ``None``: a character names a new Trait it still has free to risk, not one already bid
    or lost earlier this game session; the narrator risks none (LotNR Overbidding, 1.5)."""
    if side.con is None:
        return Phrase.message(N_("The narrator risks no Trait to overbid.")) if trait else None
    if not trait:
        return Phrase.message(N_("%(name)s must risk a new Trait %(what)s."), name=side.name,
                              what=what or Phrase.message(N_("to overbid (LotNR Overbidding)")))
    if side.potence and trait == POTENCE_TRAIT:
        return Phrase.message(N_("%(trait)s is already bid."), trait=POTENCE_TRAIT)
    if side.free is not None and side.free[trait] < 1:
        why = (Phrase.message(N_("lost earlier this game session")) if trait in side.con.lost_earlier
               else Phrase.message(N_("not a Trait left to risk")))
        return Phrase.message(N_("%(name)s cannot risk %(trait)s: %(why)s."), name=side.name, trait=trait, why=why)
    return None


def lost_here(side: SideState) -> list[str]:
    """The Traits ``side`` has lost in this challenge, those at risk on the test it lost included
    (an overbid's caller has lost them: "the original one has already been lost", LotNR
    Overbidding, met-reference 1.5)."""
    return list(side.lost) + list(side.at_risk) if side.con is not None else []


def overbid_count(state: ChallengeState, side: SideState) -> int:
    """The Traits ``side`` counts for an overbid: its total without the Traits it has lost in this
    challenge (LotNR Overbidding, met-reference 1.5; setting ``overbid_counts_lost_bid``)."""
    lost = lost_here(side)
    if state.settings["overbid_counts_lost_bid"] or not lost:
        return side.total
    return max(0, side.total - len(lost))


def overbid_ratio(state: ChallengeState, side: SideState) -> tuple[bool, str]:
    """Whether an overbid by ``side`` makes a new test, and the arithmetic as a sentence: its
    Traits at least ``overbid_ratio`` times the opponent's, or always for a Wounded caller under
    ``wounded_overbid_skips_ratio`` (LotNR Overbidding, Health; met-reference 1.5, 4.1)."""
    settings = state.settings
    other = state.sides[other_side(side.key)]
    if side.health is Health.WOUNDED and settings["wounded_overbid_skips_ratio"]:
        return True, Phrase.message(N_("%(name)s is Wounded and always gets the new test (%(choice)s)."),
                                    name=side.name, choice=Phrase.term(settings.label("wounded_overbid_skips_ratio")))
    ratio = float(settings["overbid_ratio"])
    need = ratio * other.total
    count = overbid_count(state, side)
    met = count >= need
    as_many = ({1.0: Phrase.message(N_("as many")), 2.0: Phrase.message(N_("twice as many")),
                3.0: Phrase.message(N_("three times as many"))}.get(ratio)
               or Phrase.message(N_("%(n)s times as many"), n=ratio))
    params = dict(name=side.name, traits=traits(count), other=other.name, total=other.total, as_many=as_many,
                  need=need)
    if met:
        return met, Phrase.message(N_("%(name)s counts %(traits)s against %(other)s's %(total)s; an overbid needs "
                                      "%(as_many)s, %(need)s: enough."), **params)
    return met, Phrase.message(N_("%(name)s counts %(traits)s against %(other)s's %(total)s; an overbid needs "
                                  "%(as_many)s, %(need)s: %(short)s short."), short=need - count, **params)


def take_trait(side: SideState, trait: str) -> None:
    """Take ``trait`` out of the Traits ``side`` has free to risk: it is now risked (LotNR
    Overbidding, Surprise; met-reference 1.5, 3.1)."""
    if side.free is not None:
        side.free[trait] -= 1
    side.spare -= 1


def call_overbid(state: ChallengeState, index: int, call: TestCall) -> None:
    """The overbid phase: the loser of the last test risks ``call.trait`` and calls an overbid.

    The Traits at risk on the test it lost are lost, whatever follows. When the ratio is met a
    new test is made with the new Trait at risk; otherwise the result stands, no throws are
    given, and the new Trait is kept or lost per ``overbid_trait_lost_on_refusal`` (LotNR
    Overbidding, met-reference 1.5; Health, 4.1).

    Raises:
        RulesError: the side may not overbid (:func:`overbid_problem`), may not risk that Trait,
            or gives throws for a refused overbid.
    """
    f = f"tests[{index}]"
    settings = state.settings
    side = caller(state, index, call)
    trait = call.trait.strip() if isinstance(call.trait, str) else ""
    problem = overbid_problem(state, side)
    if problem:
        raise RulesError(problem, field=f"{f}.by")
    problem = overbid_trait_problem(side, trait)
    if problem:
        raise RulesError(problem, field=f"{f}.trait")
    side.overbid_used = True
    tell_totals(state)
    met, text = overbid_ratio(state, side)
    lost_now = lost_here(side)
    side.lost += side.at_risk
    side.at_risk = []
    skipped = side.health is Health.WOUNDED and settings["wounded_overbid_skips_ratio"]
    if side.health is Health.WOUNDED and not skipped:
        state.steps.add(N_("%(name)s is Wounded and may always call an overbid; the Traits still decide "
                           "whether a new test is made."), R_HEALTH, name=side.name)
    if trait:
        state.steps.add(N_("%(name)s risks %(trait)s and calls an overbid."), R_OVERBID, name=side.name, trait=trait)
    else:
        state.steps.add(N_("%(name)s calls an overbid."), R_OVERBID, name=side.name)
    if lost_now:
        counts = settings["overbid_counts_lost_bid"]
        many = len(lost_now) > 1
        if counts:
            lost_text = (N_("%(name)s has lost %(traits)s in this challenge: they still count for the overbid "
                            "(%(choice)s).") if many else
                         N_("%(name)s has lost %(traits)s in this challenge: it still counts for the overbid "
                            "(%(choice)s)."))
        else:
            lost_text = (N_("%(name)s has lost %(traits)s in this challenge; they no longer count.") if many else
                         N_("%(name)s has lost %(traits)s in this challenge; it no longer counts."))
        params = {"choice": Phrase.term(settings.label("overbid_counts_lost_bid"))} if counts else {}
        state.steps.add(lost_text, R_OVERBID, "overbid_counts_lost_bid", name=side.name, traits=", ".join(lost_now),
                        **params)
    setting = "wounded_overbid_skips_ratio" if skipped else "overbid_ratio"
    if met:
        if side.con is not None:
            take_trait(side, trait)
            side.at_risk = [trait]
        state.steps.add(N_("%(ratio)s A new test is made."), R_HEALTH if skipped else R_OVERBID, setting, ratio=text)
        make_test(state, index, call, side.key, trait=trait)
        return
    if call.challenger_throw is not None or call.defender_throw is not None:
        raise RulesError(Phrase.message(N_("The overbid is refused (%(ratio)s): no new test is made, so give no throws."),
                                        ratio=text),
                         field=f"{f}.challenger_throw")
    state.steps.add(N_("%(ratio)s No new test: the result stands."), R_OVERBID, setting, ratio=text)
    if trait:
        if settings["overbid_trait_lost_on_refusal"]:
            take_trait(side, trait)
            side.lost.append(trait)
            state.steps.add(N_("%(name)s loses %(trait)s too."), R_OVERBID, "overbid_trait_lost_on_refusal",
                            name=side.name, trait=trait)
        else:
            state.steps.add(N_("%(name)s keeps %(trait)s: no test was made to risk it."), R_OVERBID,
                            "overbid_trait_lost_on_refusal", name=side.name, trait=trait)
    state.records.append(TestRecord(Call.OVERBID, side.key, None, None, state.result, made=False, trait=trait))
