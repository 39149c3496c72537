"""The challenge engine: plays a script through its phases and rules on it
(:func:`rule_challenge`, :func:`play_challenge`, :func:`challenge_options`,
:func:`bids_required`, :func:`resolve_challenge`, :func:`allowed_throws`) (met-reference 1-3,
6.1; seed 002 "Challenges", "Ties", "Darkness").

Part of :mod:`larp.rules.challenge`. The phases are plain functions over one
:class:`~larp.rules.challenge.state.ChallengeState`: :func:`.bids.place_bids` opens it, each
call of the script goes to its phase (:func:`.test.make_test`, :func:`.test.forced_retest`,
:func:`.overbid.call_overbid`, :func:`.retest.call_retest`,
:func:`.surprise.call_second_challenge`), then :func:`.outcome.rule_outcome` rules and
:func:`.options.open_options` reads what is still open.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from larp.rules.challenge.bids import bomb_power, place_bids
from larp.rules.challenge.options import open_options
from larp.rules.challenge.outcome import rule_outcome
from larp.rules.challenge.overbid import call_overbid
from larp.rules.challenge.retest import call_retest
from larp.rules.challenge.ruling import ChallengeOptions, ChallengeRuling
from larp.rules.challenge.script import Challenge, TestCall
from larp.rules.challenge.state import ChallengeState
from larp.rules.challenge.surprise import call_second_challenge
from larp.rules.challenge.test import forced_retest, make_test
from larp.rules.challenge.types import BASIC_THROWS, Call, Outcome, RandomSource, Throw
from larp.rules.explain import N_, Phrase, RulesError, Step
from larp.rules.settings import ChronicleSettings


def allowed_throws(challenge: Challenge, side: Outcome) -> tuple[Throw, ...]:
    """The throws ``side`` may make: rock, paper, scissors, and the Bomb with
    Vigor in a strength challenge or Rapidity in a speed challenge, once announced
    before the challenge (LotNR, met-reference 1.2). A surprised defender cannot
    use Celerity (Rapidity) in the first challenge (LotNR Surprise). The narrator
    never has the Bomb."""
    return BASIC_THROWS + ((Throw.BOMB,) if bomb_power(challenge, side, challenge.surprised) else ())


def _first_test(state: ChallengeState, index: int, call: TestCall) -> None:
    make_test(state, index, call, None)


#: The phase each call of a script goes to (LotNR The Test, Overbidding, Retests, Surprise;
#: 002 "Darkness").
PHASES: dict[Call, Callable[[ChallengeState, int, TestCall], None]] = {
    Call.TEST: _first_test,
    Call.FORCED_RETEST: forced_retest,
    Call.OVERBID: call_overbid,
    Call.RETEST: call_retest,
    Call.SECOND_CHALLENGE: call_second_challenge,
}


def play_script(challenge: Challenge, settings: ChronicleSettings, rng: RandomSource | None = None
                ) -> ChallengeState:
    """Place the bids, then play ``challenge.tests`` in order, each through its phase; the
    state it returns is where the challenge stands (it may stop anywhere: before the first
    test, before a forced retest, or with calls still open).

    The order of calls: the first test first, and only once; later calls are overbids,
    retests, forced retests or a second challenge; nothing after a decision before the test,
    after Might (except the darkness retest, which is automatic), or before a forced
    darkness retest due (LotNR The Test, Potence; met-reference 1.2, 3.4; 002 "Darkness").

    Raises:
        RulesError: a setup or a call the rules cannot adjudicate, naming the field
            (see :func:`rule_challenge`).
    """
    state = place_bids(challenge, settings, rng)
    for index, call in enumerate(challenge.tests):
        _check_order(state, index, call)
        PHASES[call.call](state, index, call)
    return state


def _check_order(state: ChallengeState, index: int, call: TestCall) -> None:
    f = f"tests[{index}]"
    if not isinstance(call, TestCall):
        raise RulesError(Phrase.message(N_("A test must say what is called.")), field=f)
    if not isinstance(call.call, Call):
        raise RulesError(Phrase.message(N_("Unknown call %(call)s."), call=repr(call.call)), field=f"{f}.call")
    if state.auto_winner is not None:
        raise RulesError(Phrase.message(N_("No test is made: the challenge was decided before the test.")), field="tests")
    if index == 0 and call.call is not Call.TEST:
        raise RulesError(Phrase.message(N_("The first test comes first: the first call must be 'test'.")), field=f"{f}.call")
    if index > 0 and call.call is Call.TEST:
        raise RulesError(Phrase.message(N_("Only the first test is a plain test; later ones are overbids or retests.")),
                         field=f"{f}.call")
    if state.finished and call.call is not Call.FORCED_RETEST:  # the darkness retest is automatic
        raise RulesError(Phrase.message(N_("Might was the last test of the challenge (LotNR Potence).")), field=f)
    if state.forced_due is not None and call.call is not Call.FORCED_RETEST:
        raise RulesError(Phrase.message(N_("%(name)s won in total darkness and must first retest once (002 \"Darkness\")."),
                                        name=state.sides[state.forced_due].name), field=f"{f}.call")


def rule_challenge(
    challenge: Challenge,
    settings: ChronicleSettings | None = None,
    rng: RandomSource | None = None,
) -> ChallengeRuling:
    """Rule on a complete challenge script.

    Bids (LotNR Initial Bid, met-reference 1.1): each side risks one Trait of
    the category (none in a simple test or a Virtue Test), plus one if Wounded
    (Bruised too under the older model, setting ``wound_penalty_model``), one
    per Negative Trait rightly called on it or wrongly called by it (a side
    that cannot add one: setting ``negative_trait_unmatched``), two for the
    off hand, and a narrator's extra difficulty. ``bid`` must hold exactly
    that many names, all Traits still held this game session. A side may
    relent before the test: it loses the challenge and no Traits.

    Tests: rock, paper, scissors; the Bomb only with Vigor (strength) or
    Rapidity (speed) (met-reference 1.2). A tied throw (002 "Ties"): a side
    that wins ties (Puissance in strength, Fleetness in speed) beats one that
    does not, a Wounded side loses ties (Endurance treats Wounded as Bruised),
    and when both or neither win ties, the Traits decide: current Traits (bids
    still count) plus bonus Traits (weapon, cover, specialisation; never bid)
    minus penalties (Bruised, two or three steps moved, darkness), capped at
    twice the generation's maximum (setting ``trait_total_cap``). Equal is a
    draw in which both lose their bids; in a static challenge the narrator's
    difficulty is the count (setting ``static_equal_tie``); in a simple test a
    tie succeeds unless the effect needs a win (met-reference 1.6).

    Overbids (LotNR Overbidding, 1.5): only the loser of the last test, once
    per challenge, risking a new Trait; a new test only if its Traits, without
    those it lost in this challenge (setting ``overbid_counts_lost_bid``), are at
    least ``overbid_ratio`` times the opponent's (a Wounded caller may always call
    it; setting ``wounded_overbid_skips_ratio``); the Trait lost on the first test
    stays lost; never for a side that risks no Trait in a test; a refused overbid's Trait per setting
    ``overbid_trait_lost_on_refusal``. A narrator may overbid in a static
    challenge. Retests (LotNR Retests, 2.1; Dark Epics, 2.2): only the loser of
    the last test, from an Ability level it still has (Blindfighting only in
    darkness; Dodge only against an attack), Willpower (setting
    ``willpower_retest_scope``), Might (strength, never a ranged attack or a
    throw; always the last test) or a
    Merit's use; once per source or per category (``retest_limit_mode``); the
    opponent may cancel by spending a matching source (``cancel_match_mode``;
    Willpower per ``willpower_retest_cancellable``; Might never); the retester
    still loses the Traits lost on the test it retests. Total darkness forces
    one retest of each blind side's first success, even when both are blind
    (setting ``both_blind_forced_retest``), unless an Ability level is expended
    (002 "Darkness", :mod:`larp.rules.darkness`, setting ``darkness_scope``).
    Surprise (LotNR Surprise, 3.1): a challenger who surprised the defender and
    lost the test may call a second challenge (``second_challenge``), risking a
    new Trait; then the normal rules resume (not under the setting
    ``one_physical_challenge_per_turn``). The Bomb only when announced before
    the challenge (``bomb_announced``). A Speed weapon used with Melee pre-empts
    a Clumsy, Heavy or Slow one (no simultaneous counter-attack), or gives one
    bonus Trait (setting ``speed_weapon_model``); the off hand per met-reference
    3.8 (Ambidextrous, Two-Weapon).

    Outcome: the final loser loses the Traits still at risk (both on a draw).
    A won attack deals its damage (a bare-handed strike 1 bashing, a bite 1
    aggravated, a weapon its card); a defender who declared a counter-attack
    and wins hits back (setting ``combat_resolution``), unless surprised.

    Args:
        challenge: the setup and the tests, first test first.
        settings: the chronicle's settings (defaults if ``None``).
        rng: a random source for the narrator's throws left out of a static
            challenge or simple test.

    Returns:
        The ruling: outcome, Traits lost and resources spent per side, damage,
        each test, the totals compared and the steps.

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field
            (``challenger_bid``, ``tests[2].source``...): an unknown sign, the
            Bomb without its power, a wrong number of Traits bid or one lost
            earlier, a call by the wrong side, a retest from a source the
            character does not have or has nothing left of, a cancel that does
            not match, a missing forced retest, an incomplete script.
    """
    state = play_script(challenge, settings or ChronicleSettings.defaults(), rng)
    return rule_outcome(state)


def resolve_challenge(
    challenge: Challenge,
    challenger_throw: Throw,
    defender_throw: Throw,
    settings: ChronicleSettings | None = None,
) -> ChallengeRuling:
    """Resolve a challenge decided by one test: the simple case.

    The same rules as :func:`rule_challenge` with ``challenge.tests`` set to
    the one test ``(challenger_throw, defender_throw)``: rock-paper-scissors
    (met-reference 1.2); the winner's outcome happens and the loser's bid
    Traits are lost for the game session (met-reference 1.3); a tied throw
    compares Traits, bids still counting, fewer loses and equal is a draw in
    which both lose their bids (002 "Ties"). A won strike inflicts one level
    of bashing damage on the defender (002 "Damage and Healing").

    Args:
        challenge: the two sides, the category and the action attempted; its
            ``tests`` must be empty.
        challenger_throw, defender_throw: the throws made (draw random ones
            with :func:`random_throw` before calling).
        settings: the chronicle's settings (defaults if ``None``).

    Returns:
        The ruling: outcome, Traits lost per side, damage dealt, and the steps.

    Raises:
        RulesError: as :func:`rule_challenge`, e.g. an unknown action, a side
            without a bid, or a bid of more Traits than the side has.
    """
    if challenge.tests:
        raise RulesError(Phrase.message(N_("resolve_challenge takes the throws of a single test; use "
                                           "rule_challenge for a script.")),
                         field="tests")
    script = replace(challenge, tests=(TestCall(Call.TEST, challenger_throw, defender_throw),))
    return rule_challenge(script, settings)


def challenge_options(challenge: Challenge, settings: ChronicleSettings | None = None) -> ChallengeOptions:
    """What each side may still do after the tests so far (for the UI's buttons).

    Plays ``challenge.tests`` (which may stop anywhere, even before the first
    test or before a forced retest), then lists for each character the retest
    sources it may call now, can pay for and may still use under
    ``retest_limit_mode``; whether it may overbid and whether the ratio would
    make a new test; and which of its sources could cancel each retest the
    opponent may call (LotNR Overbidding, Retests, Surprise; met-reference 1.5,
    2.1, 3.1). Rules as :func:`rule_challenge`.

    Raises:
        RulesError: the tests so far are not legal (as :func:`rule_challenge`).
    """
    return open_options(play_script(challenge, settings or ChronicleSettings.defaults(), None))


def play_challenge(
    challenge: Challenge, settings: ChronicleSettings | None = None, rng: RandomSource | None = None
) -> tuple[ChallengeOptions, ChallengeRuling | None, tuple[Step, ...]]:
    """Play the tests so far once: what may follow, the ruling if the script is complete, and the steps.

    The ruling is ``None`` while the script cannot end yet (a forced darkness
    retest is due, or the first test is missing); the steps then explain the
    challenge so far (002 "Darkness": the forced retest; LotNR The Test,
    met-reference 1.2). Rules as :func:`rule_challenge` and :func:`challenge_options`.

    Raises:
        RulesError: the tests so far are not legal (as :func:`rule_challenge`).
    """
    state = play_script(challenge, settings or ChronicleSettings.defaults(), rng)
    options = open_options(state)
    if not state.can_end:
        return options, None, state.steps.steps()
    ruling = rule_outcome(state)
    return options, ruling, ruling.steps


def bids_required(challenge: Challenge, settings: ChronicleSettings | None = None) -> dict[Outcome, int | None]:
    """How many Traits each character side must bid, before any bid is checked.

    One, plus one if Wounded, one per Negative Trait rightly called on it or
    wrongly called by it, two for the off hand, and a narrator's extra
    difficulty (LotNR Initial Bid, met-reference 1.1); ``None`` for a side
    that relents or in a simple test (no bid). The UI uses it to pick the
    extra Traits a side risks; the narrator's side is not listed.

    Raises:
        RulesError: a setup the rules cannot adjudicate (as :func:`rule_challenge`).
    """
    state = place_bids(challenge, settings or ChronicleSettings.defaults(), None, bids_only=True)
    return {side.key: side.required for side in state.characters()}


#: What :mod:`larp.rules.challenge` re-exports from this module.
__all__ = ["allowed_throws", "bids_required", "challenge_options", "play_challenge", "play_script", "resolve_challenge",
           "rule_challenge"]
