"""The retest and its cancel: the loser of a test spends an Ability level, Willpower, a
Merit's use or Potence's Might for a new test; the opponent may cancel it by spending a
matching source (LotNR Retests, met-reference 2.1; Dark Epics, 2.2; Potence's Might, 3.4;
seed 002 "Darkness").

Part of :mod:`larp.rules.challenge`: :func:`call_retest` is the phase; the checks
(:func:`retest_problem`, :func:`cancel_problem`) also tell the options what is still open.
"""

from __future__ import annotations

from larp.rules.challenge.ruling import TestRecord
from larp.rules.challenge.script import ACTIONS, TestCall
from larp.rules.challenge.state import ChallengeState, SideState
from larp.rules.challenge.test import caller, caller_problem, make_test
from larp.rules.challenge.types import (
    R_MIGHT,
    R_RETEST,
    R_RETEST_DE,
    Call,
    Category,
    Kind,
    Lead,
    Outcome,
    Power,
    other_side,
    parse_source,
    source_key,
)
from larp.rules.darkness import ability_named
from larp.rules.explain import N_, Phrase, RulesError


def payable(side: SideState, category: str, name: str) -> tuple[str | None, str]:
    """(why ``side`` cannot spend one unit of the source or ``None``, the source's name as on the
    sheet): an Ability with a level left this game session, Willpower left, a Merit with a use
    left, or Might among its powers (LotNR Retests, met-reference 2.1; Dark Epics, 2.2)."""
    con = side.con
    if category == "ability":
        key = ability_named(con.abilities, name)
        if key is None:
            return Phrase.message(N_("%(name)s has no %(ability)s Ability."), name=side.name, ability=name), name
        if con.abilities[key] - side.abilities_spent[key] < 1:
            return Phrase.message(N_("%(name)s has no %(ability)s levels left this game session."), name=side.name, ability=key), key
        return None, key
    if category == "willpower":
        if con.willpower - side.willpower_spent < 1:
            return Phrase.message(N_("%(name)s has no Willpower left."), name=side.name), name
        return None, name
    if category == "merit":
        key = next((m for m in con.merits if m.lower() == name.lower()), None)
        if key is None:
            return Phrase.message(N_("%(name)s has no %(merit)s Merit."), name=side.name, merit=name), name
        if con.merits[key] - side.merits_spent[key] < 1:
            return Phrase.message(N_("%(name)s has no uses of %(merit)s left."), name=side.name, merit=key), key
        return None, key
    if Power.MIGHT not in con.powers:
        return Phrase.message(N_("%(name)s does not have Might (Potence)."), name=side.name), name
    return None, name


def _pay(side: SideState, category: str, name: str) -> None:
    if category == "ability":
        side.abilities_spent[name] += 1
    elif category == "willpower":
        side.willpower_spent += 1
    elif category == "merit":
        side.merits_spent[name] += 1


def retest_problem(state: ChallengeState, side: SideState, category: str, name: str) -> tuple[str | None, str]:
    """(why ``side`` may not retest from this source now or ``None``, the source's name as on the
    sheet). Only the loser of the last test, with a source it can pay; Blindfighting only in
    darkness (002 "Darkness"), Dodge only against an attack (met-reference 2.1, 3.6), Willpower
    per ``willpower_retest_scope``, Might only in feats of sheer strength and never at range
    (LotNR Potence, 3.4); once per source or per category (``retest_limit_mode``; LotNR
    Retests, 2.1; Dark Epics, 2.2)."""
    if side.con is None:
        return Phrase.message(N_("The narrator has no retest sources.")), name
    problem = caller_problem(state, side)
    if problem:
        return problem, name
    problem, name = payable(side, category, name)
    if problem:
        return problem, name
    ch, con, settings = state.challenge, side.con, state.settings
    if category == "ability" and name.lower() == "blindfighting" and side.dark is None:
        return Phrase.message(N_("Blindfighting is a valid retest only in darkness (002 \"Darkness\").")), name
    if category == "ability" and name.lower() == "dodge" and ch.kind is Kind.CONTESTED:
        opponent_action = ch.defender_action if side.key is Outcome.CHALLENGER else ch.action
        if not ACTIONS[opponent_action]["attack"]:
            return Phrase.message(N_("Dodge retests only when defending against an attack the character can see or "
                                     "sense (met-reference 2.1, 3.6).")), name
    if category == "willpower" and settings["willpower_retest_scope"] == "defend_mental_social":
        if not (side.key is Outcome.DEFENDER and ch.kind is Kind.CONTESTED
                and ch.category in (Category.MENTAL, Category.SOCIAL)):
            return Phrase.message(N_("Willpower buys a retest only when defending against a Mental or Social "
                                     "challenge (%(choice)s)."),
                                  choice=Phrase.term(settings.label("willpower_retest_scope"))), name
    if category == "power" and state.challenge.at_range:
        return (Phrase.message(N_("Might retests only feats of sheer strength in brawling and melee; the sides are "
                                  "beyond reach of each other, so this is a ranged attack whatever the weapon "
                                  "(LotNR Potence).")), name)
    if category == "power" and _ranged(state):
        return (Phrase.message(N_("Might retests only feats of sheer strength in brawling and melee, never a firearm "
                                  "shot, a thrown object or another ranged attack (LotNR Potence).")), name)
    if category == "power" and not (ch.category is Category.PHYSICAL and con.lead is Lead.STRENGTH):
        return Phrase.message(N_("Might works only in challenges of sheer strength (LotNR Potence).")), name
    mode = settings["retest_limit_mode"]
    if mode == "per_source" and source_key(category, name).lower() in side.used:
        return Phrase.message(N_("%(name)s has already retested with %(source)s in this challenge (%(choice)s)."),
                              name=side.name, source=name, choice=Phrase.term(settings.label("retest_limit_mode"))), name
    if mode == "per_category" and f"category:{category}" in side.used:
        return Phrase.message(N_("%(name)s has already retested from the %(category)s category in this challenge "
                                 "(%(choice)s)."), name=side.name, category=category,
                              choice=Phrase.term(settings.label("retest_limit_mode"))), name
    return None, name


def _ranged(state: ChallengeState) -> bool:
    """Whether the challenge is a ranged attack: either side attacks with a weapon that is fired
    or thrown (met-reference 3.4: Might is "not at range and not for throwing")."""
    ch = state.challenge
    for action, con in ((ch.action, ch.challenger), (ch.defender_action, ch.defender)):
        if action == "weapon" and con is not None and con.weapon is not None and con.weapon.ranged:
            return True
    return False


def cancel_problem(state: ChallengeState, side: SideState, retest: tuple[str, str], category: str,
                   name: str) -> tuple[str | None, str]:
    """(why ``side`` may not cancel ``retest`` (category, name) with this source or ``None``, the
    source's name as on the sheet): a source it can pay, never Might's retest (LotNR Potence),
    a Willpower retest only per ``willpower_retest_cancellable``, and from the same category
    under ``cancel_match_mode = same_category`` (LotNR Retests, 2.1; Dark Epics, 2.2)."""
    settings = state.settings
    if side.con is None:
        return Phrase.message(N_("The narrator cannot cancel retests.")), name
    if retest[0] == "power":
        return Phrase.message(N_("Might is the last test of the challenge and cannot be cancelled (LotNR Potence).")), name
    if retest[0] == "willpower" and not settings["willpower_retest_cancellable"]:
        return Phrase.message(N_("A Willpower retest cannot be cancelled (%(choice)s)."),
                              choice=Phrase.term(settings.label("willpower_retest_cancellable"))), name
    if category == "power":
        return Phrase.message(N_("Might is a retest, not a cancel.")), name
    problem, name = payable(side, category, name)
    if problem:
        return problem, name
    if settings["cancel_match_mode"] == "same_category" and category != retest[0]:
        return (f"A cancel must come from the same category as the retest "
                f"({settings.label('cancel_match_mode')})."), name
    return None, name


def call_retest(state: ChallengeState, index: int, call: TestCall) -> None:
    """The retest phase: the loser of the last test spends ``call.source`` for a new test, unless
    the opponent cancels it with ``call.cancel``.

    The retester still loses the Traits at risk on the test it retests. A cancelled retest
    makes no new test (no throws); Might is always the last test of the challenge (LotNR
    Retests, Potence; met-reference 2.1, 3.4; Dark Epics, 2.2).

    Raises:
        RulesError: the side may not retest from that source (:func:`retest_problem`), the cancel
            does not match (:func:`cancel_problem`), or a cancelled retest gives throws.
    """
    f = f"tests[{index}]"
    settings = state.settings
    side = caller(state, index, call)
    category, name = parse_source(call.source, f"{f}.source")
    problem, name = retest_problem(state, side, category, name)
    if problem:
        raise RulesError(problem, field=f"{f}.source")
    label = source_key(category, name)
    _pay(side, category, name)
    side.used.add(label.lower())
    side.used.add(f"category:{category}")
    lost_now = list(side.at_risk)
    side.lost += side.at_risk
    side.at_risk = []
    what = {"ability": N_("%(name)s expends a level of %(source)s to retest."),
            "willpower": N_("%(name)s spends a Willpower Trait to retest."),
            "merit": N_("%(name)s uses %(source)s to retest."), "power": N_("%(name)s uses Might to retest.")}[category]
    said = Phrase.message(what, name=side.name, source=name)
    if lost_now:
        said = Phrase.message(N_("%(retest)s %(name)s still loses %(traits)s, lost on that test."), retest=said,
                              name=side.name, traits=", ".join(lost_now))
    if category == "willpower":
        setting = "willpower_retest_scope"
        rule = R_RETEST if settings[setting] == "defend_mental_social" else R_RETEST_DE
    else:
        setting = "retest_limit_mode"
        rule = R_RETEST if settings[setting] == "per_source" else R_RETEST_DE
    state.steps.add(said, rule, setting)
    if call.cancel:
        other = state.sides[other_side(side.key)]
        ccat, cname = parse_source(call.cancel, f"{f}.cancel")
        problem, cname = cancel_problem(state, other, (category, name), ccat, cname)
        if problem:
            raise RulesError(problem, field=f"{f}.cancel")
        if call.challenger_throw is not None or call.defender_throw is not None:
            raise RulesError(Phrase.message(N_("The retest is cancelled: no new test is made, so give no throws.")),
                             field=f"{f}.challenger_throw")
        _pay(other, ccat, cname)
        state.steps.add(Phrase.message(N_("%(name)s cancels the retest with %(source)s: the first result stands."),
                                       name=other.name, source=cname),
                        R_RETEST if settings["cancel_match_mode"] == "conditions" else R_RETEST_DE,
                        "cancel_match_mode")
        state.records.append(TestRecord(Call.RETEST, side.key, None, None, state.result, made=False,
                                        source=label, cancel=source_key(ccat, cname)))
        return
    if category == "power":
        state.finished = True
        state.steps.add(N_("Might is the last test of the challenge."), R_MIGHT)
    make_test(state, index, call, side.key, source=label)
