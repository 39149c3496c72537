"""The challenge engine: plays a script test by test and rules on it
(:func:`rule_challenge`, :func:`play_challenge`, :func:`challenge_options`,
:func:`bids_required`, :func:`resolve_challenge`) (met-reference 1-3, 6.1;
seed 002 "Challenges", "Ties", "Darkness").

Part of :mod:`larp.rules.challenge`: the setup is in :mod:`.bids`, the
overbids, retests and cancels in :mod:`.retests`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from larp.rules.challenge.bids import _bomb_power, _Setup, _Side
from larp.rules.challenge.retests import _Calls
from larp.rules.challenge.ruling import (
    ChallengeOptions,
    ChallengeRuling,
    DamageDealt,
    SideOptions,
    Spent,
    TestRecord,
    TraitsLost,
)
from larp.rules.challenge.script import ACTIONS, Challenge, TestCall
from larp.rules.challenge.types import (
    R_BOMB,
    R_COMBAT,
    R_DARK,
    R_DARK_DE,
    R_FLEETNESS,
    R_HEALTH,
    R_OUTCOME,
    R_PUISSANCE,
    R_STATIC,
    R_SPEED,
    R_SURPRISE,
    R_TEST,
    R_TIES,
    BASIC_THROWS,
    SIDES,
    Call,
    Category,
    Kind,
    Lead,
    Outcome,
    Power,
    RandomSource,
    Throw,
    _other,
    _source_key,
    compare_throws,
    parse_throw,
    random_throw,
)
from larp.rules.darkness import ability_named
from larp.rules.explain import RulesError, Step
from larp.rules.settings import ChronicleSettings

def allowed_throws(challenge: Challenge, side: Outcome) -> tuple[Throw, ...]:
    """The throws ``side`` may make: rock, paper, scissors, and the Bomb with
    Vigor in a strength challenge or Rapidity in a speed challenge, once announced
    before the challenge (LotNR, met-reference 1.2). A surprised defender cannot
    use Celerity (Rapidity) in the first challenge (LotNR Surprise). The narrator
    never has the Bomb."""
    return BASIC_THROWS + ((Throw.BOMB,) if _bomb_power(challenge, side, challenge.surprised) else ())


class _Run(_Setup, _Calls):
    """Plays a challenge script step by step (internal; see :func:`rule_challenge`)."""

    # ----- the tests ---------------------------------------------------------

    def play(self, calls: Sequence[TestCall]) -> None:
        """Play ``calls`` in order, validating each (raises RulesError)."""
        for index, call in enumerate(calls):
            self._call(index, call)

    def _call(self, index: int, call: TestCall) -> None:
        f = f"tests[{index}]"
        if not isinstance(call, TestCall):
            raise RulesError("A test must say what is called.", field=f)
        if not isinstance(call.call, Call):
            raise RulesError(f"Unknown call {call.call!r}.", field=f"{f}.call")
        if self.auto_winner is not None:
            raise RulesError("No test is made: the challenge was decided before the test.", field="tests")
        if index == 0 and call.call is not Call.TEST:
            raise RulesError("The first test comes first: the first call must be 'test'.", field=f"{f}.call")
        if index > 0 and call.call is Call.TEST:
            raise RulesError("Only the first test is a plain test; later ones are overbids or retests.",
                             field=f"{f}.call")
        if self.finished and call.call is not Call.FORCED_RETEST:  # the darkness retest is automatic
            raise RulesError("Might was the last test of the challenge (LotNR Potence).", field=f)
        if self.forced_due is not None and call.call is not Call.FORCED_RETEST:
            raise RulesError(f"{self.sides[self.forced_due].name} won in total darkness and must first retest "
                             f"once (002 \"Darkness\").", field=f"{f}.call")
        if call.call is Call.TEST:
            self._judge(index, call, None)
        elif call.call is Call.FORCED_RETEST:
            side = self.forced_due
            if side is None:
                raise RulesError("No forced darkness retest is due here.", field=f"{f}.call")
            if call.by is not None and call.by is not side:
                raise RulesError(f"The forced retest is {self.sides[side].name}'s.", field=f"{f}.by")
            self.forced_due = None
            self.sides[side].forced_done = True
            self.steps.add(f"{self.sides[side].name} won in total darkness: the test is retested once.", R_DARK)
            self._judge(index, call, side)
        elif call.call is Call.OVERBID:
            self._overbid(index, call)
        elif call.call is Call.SECOND_CHALLENGE:
            self._second_challenge(index, call)
        else:
            self._retest(index, call)

    def _caller(self, index: int, call: TestCall) -> _Side:
        if call.by not in SIDES:
            raise RulesError("Say who calls it: challenger or defender.", field=f"tests[{index}].by")
        return self.sides[call.by]

    def _throws(self, index: int, call: TestCall) -> tuple[Throw, Throw]:
        f = f"tests[{index}]"
        if call.challenger_throw is None:
            raise RulesError(f"{self.sides[Outcome.CHALLENGER].name}'s throw is missing.",
                             field=f"{f}.challenger_throw")
        ct = parse_throw(call.challenger_throw, f"{f}.challenger_throw")
        narrator = self.sides[Outcome.DEFENDER].con is None
        if call.defender_throw is None:
            if narrator and self.rng is not None:
                dt = random_throw(self.rng)
                self.steps.add(f"The narrator throws {dt.label} (drawn at random).", R_STATIC)
            else:
                raise RulesError(f"{self.sides[Outcome.DEFENDER].name}'s throw is missing.",
                                 field=f"{f}.defender_throw")
        else:
            dt = parse_throw(call.defender_throw, f"{f}.defender_throw")
        for side, throw in ((Outcome.CHALLENGER, ct), (Outcome.DEFENDER, dt)):
            if throw is Throw.BOMB:
                surprised = self.ch.surprised and not self.surprise_over
                if not _bomb_power(self.ch, side, surprised):
                    con = self.sides[side].con
                    why = ("it was not announced before the challenge" if con is not None and not con.bomb_announced
                           and _bomb_power(self.ch, side, surprised, announced=True)
                           else "it needs Vigor in a strength challenge or Rapidity in a speed challenge "
                                "(and no surprise), announced before the challenge")
                    raise RulesError(f"{self.sides[side].name} cannot throw the Bomb: {why}.",
                                     field=f"{f}.{side.value}_throw")
        return ct, dt

    def _judge(self, index: int, call: TestCall, by: Outcome | None, **record: Any) -> None:
        ct, dt = self._throws(index, call)
        c, d = self.sides[Outcome.CHALLENGER], self.sides[Outcome.DEFENDER]
        result = compare_throws(ct, dt)
        if result > 0:
            winner = Outcome.CHALLENGER
            self.steps.add(f"{ct.label} beats {dt.label}: {c.name} wins the test.", R_TEST)
        elif result < 0:
            winner = Outcome.DEFENDER
            self.steps.add(f"{dt.label} beats {ct.label}: {d.name} wins the test.", R_TEST)
        elif self.ch.kind is Kind.SIMPLE:
            winner = Outcome.DEFENDER if self.ch.needs_win else Outcome.CHALLENGER
            self.steps.add(f"Both throw {ct.label}: a tie, which "
                           + ("fails: the effect needs a win." if self.ch.needs_win else "succeeds in a simple test."),
                           R_STATIC)
        else:
            winner = self._tie(ct)
        self.result = winner
        self.records.append(TestRecord(call.call, by, ct, dt, winner, **record))
        self._check_forced()

    def _tell_totals(self) -> None:
        if self.totals_told:
            return
        self.totals_told = True
        for side in self._characters():
            if len(side.terms) > 1:
                self.steps.add(f"{side.name} counts {side.total} Traits for ties and overbids: "
                               f"{', '.join(side.terms)}.", R_TIES)

    def _tie(self, throw: Throw) -> Outcome:
        c, d = self.sides[Outcome.CHALLENGER], self.sides[Outcome.DEFENDER]
        static = self.ch.kind is Kind.STATIC
        self.steps.add(
            f"Both throw {throw.label}: a tie. Compare current {self.ch.category.label} Traits"
            + (" against the narrator's difficulty" if static else "")
            + "; Traits bid still count until the challenge is resolved.",
            R_TIES,
        )
        why = "; ".join(c.standing_why + d.standing_why)
        rule = R_HEALTH if "Wounded" in why else (R_PUISSANCE if "Puissance" in why else R_FLEETNESS)
        if c.standing != d.standing:
            winner = Outcome.CHALLENGER if c.standing > d.standing else Outcome.DEFENDER
            self.steps.add(f"{why}: {self.sides[winner].name} wins the tie without comparing Traits.", rule)
            return winner
        if why:
            self.steps.add(f"{why}: these cancel out, so the Traits decide.", rule)
        self._tell_totals()
        if c.total > d.total:
            self.steps.add(f"{c.name} has {c.total} Traits against {d.name}'s {d.total}: {c.name} wins the tie.",
                           R_TIES)
            return Outcome.CHALLENGER
        if d.total > c.total:
            self.steps.add(f"{d.name} has {d.total} Traits against {c.name}'s {c.total}: {d.name} wins the tie.",
                           R_TIES)
            return Outcome.DEFENDER
        if static:
            if self.settings["static_equal_tie"] == "succeed":
                self.steps.add(f"{c.name}'s {c.total} Traits equal the difficulty: the attempt succeeds "
                               f"({self.settings.label('static_equal_tie')}).", R_TIES, "static_equal_tie")
                return Outcome.CHALLENGER
            self.steps.add(f"{c.name}'s {c.total} Traits equal the difficulty: a draw, so the attempt fails "
                           f"and the bid is lost.", R_TIES, "static_equal_tie")
            return Outcome.DRAW
        self.steps.add(f"Both have {c.total} Traits: a draw. Both sides lose the Traits they bid.", R_TIES)
        return Outcome.DRAW

    def _check_forced(self) -> None:
        winner = self.result
        if winner not in SIDES:
            return
        side = self.sides[winner]
        if not side.dark_forced or side.forced_done or side.con is None:
            return
        dark = side.con.darkness
        if dark.waive_retest:
            if dark.waived_this_turn:
                self.steps.add(f"{side.name} already expended {dark.waive_retest} this turn: no forced retest.",
                               R_DARK_DE)
            else:
                key = ability_named(side.con.abilities, dark.waive_retest)
                assert key is not None  # checked when the darkness was set up
                if self._abilities_left(side)[key] < 1:
                    self.steps.add(f"{side.name} has no {key} level left to expend: the forced retest applies.",
                                   R_DARK)
                    self.forced_due = winner
                    return
                side.abilities_spent[key] += 1
                self.steps.add(f"{side.name} expends a level of {key}: no forced retest of total darkness this "
                               f"turn.", R_DARK_DE)
            side.forced_done = True
            return
        self.forced_due = winner
        self.steps.add(f"{side.name} is in total darkness and won: the success must be retested once.", R_DARK)

    def _state_problem(self, side: _Side) -> str | None:
        if self.auto_winner is not None:
            return "The challenge was decided before the test."
        if self.result is None:
            return "The first test comes first."
        if self.finished:
            return "Might was the last test of the challenge."
        if self.forced_due is not None:
            return "The forced darkness retest comes first."
        if self.result is side.key:
            return f"{side.name} won the last test; only the side that lost it may call this."
        return None

    # ----- results -----------------------------------------------------------

    def _sources(self, side: _Side, with_might: bool) -> list[tuple[str, str]]:
        con = side.con
        out = [("ability", a) for a in con.abilities] + [("willpower", "Willpower")]
        out += [("merit", m) for m in con.merits]
        if with_might and Power.MIGHT in con.powers:
            out.append(("power", "Might"))
        return out

    def options(self) -> ChallengeOptions:
        """What each side may do next (see :func:`challenge_options`)."""
        done = self.auto_winner is not None or self.finished
        retests: dict[Outcome, list[tuple[str, str]]] = {
            side.key: [s for s in self._sources(side, True) if self._retest_problem(side, *s)[0] is None]
            for side in self._characters()
        }
        out = []
        for side in self._characters():
            problem = self._overbid_problem(side)
            makes, note = self._ratio(side) if problem is None else (False, problem)
            cancels: dict[str, tuple[str, ...]] = {}
            for retest in retests.get(_other(side.key), []):
                ok = tuple(_source_key(*c) for c in self._sources(side, False)
                           if self._cancel_problem(side, retest, *c)[0] is None)
                if ok:
                    cancels[_source_key(*retest)] = ok
            out.append(SideOptions(side.key, tuple(_source_key(*r) for r in retests[side.key]),
                                   problem is None, problem is None and makes, note, cancels,
                                   self._second_challenge_problem(side) is None))
        narrator = self.sides[Outcome.DEFENDER]
        if self.ch.kind is Kind.STATIC and narrator.con is None:
            problem = self._overbid_problem(narrator)  # the narrator may overbid too (LotNR, met-reference 1.5)
            makes, note = self._ratio(narrator) if problem is None else (False, problem)
            out.append(SideOptions(Outcome.DEFENDER, (), problem is None, problem is None and makes, note,
                                   narrator=True))
        current = None if self.auto_winner is not None else self.result
        return ChallengeOptions(current, done, self.forced_due, tuple(out))

    def ruling(self) -> ChallengeRuling:
        """The final ruling (raises RulesError if the script is incomplete)."""
        ch = self.ch
        if self.forced_due is not None:
            raise RulesError(f"{self.sides[self.forced_due].name} won in total darkness: add the forced retest's "
                             f"throws.", field="tests")
        if self.auto_winner is None and self.result is None:
            raise RulesError("The challenge needs its first test's throws.", field="tests")
        winner = self.auto_winner if self.auto_winner is not None else self.result
        assert winner is not None
        relented = any(s.con.relent for s in self._characters())
        losers = list(SIDES) if winner is Outcome.DRAW else [_other(winner)]
        if not relented:
            for key in losers:
                side = self.sides[key]
                side.lost += side.at_risk
                side.at_risk = []
        c, d = self.sides[Outcome.CHALLENGER], self.sides[Outcome.DEFENDER]
        lost = tuple(TraitsLost(s.key, tuple(s.lost)) for s in (c, d) if s.lost)
        if winner is Outcome.DRAW and (c.lost or d.lost):
            self.steps.add("Draw: " + ", ".join(f"{s.name} loses {', '.join(s.lost)}" for s in (c, d) if s.lost)
                           + " for the rest of the game session.", R_TIES)
        else:
            for side in (c, d):
                if side.lost:
                    earlier = " (lost on an earlier test of this challenge)" if side.key == winner else ""
                    self.steps.add(f"{side.name} loses {', '.join(side.lost)} for the rest of the game "
                                   f"session{earlier}.", R_OUTCOME)
        damage: list[DamageDealt] = []
        if ch.kind is Kind.CONTESTED and winner in SIDES:
            damage = self._damage(winner)
        if ch.kind is Kind.CONTESTED:
            outcome = winner
            head = "Draw" if winner is Outcome.DRAW else f"{self.sides[winner].name} wins"
        else:
            outcome = Outcome.SUCCESS if winner is Outcome.CHALLENGER else Outcome.FAILURE
            head = f"{c.name} {'succeeds' if outcome is Outcome.SUCCESS else 'fails'}"
            self.steps.add(f"{c.name} {'succeeds' if outcome is Outcome.SUCCESS else 'fails'}.", R_STATIC)
        parts = []
        for s in (c, d):
            hurt = [f"takes {x.levels} {x.damage_type}" for x in damage if x.target is s.key]
            said = ([f"loses {', '.join(s.lost)}"] if s.lost else []) + hurt
            if said:
                parts.append(f"{s.name} {' and '.join(said)}")
        summary = head + (": " + ", ".join(parts) if parts else "") + "."
        spent = tuple(
            Spent(s.key, tuple(sorted((+s.abilities_spent).items())), s.willpower_spent,
                  tuple(sorted((+s.merits_spent).items())))
            for s in (c, d) if s.con is not None and (+s.abilities_spent or s.willpower_spent or +s.merits_spent)
        )
        totals = {} if ch.kind is Kind.SIMPLE else {Outcome.CHALLENGER: c.total, Outcome.DEFENDER: d.total}
        first = self.records[0] if self.records else None
        return ChallengeRuling(
            outcome=outcome,
            challenger_throw=first.challenger_throw if first else None,
            defender_throw=first.defender_throw if first else None,
            traits_lost=lost,
            damage=tuple(damage),
            steps=self.steps.steps(),
            summary=summary,
            kind=ch.kind,
            tests=tuple(self.records),
            spent=spent,
            totals=totals,
        )

    def _damage(self, winner: Outcome) -> list[DamageDealt]:
        ch = self.ch
        side, target = self.sides[winner], self.sides[_other(winner)]
        key = ch.action if winner is Outcome.CHALLENGER else ch.defender_action
        action = ACTIONS[key]
        if not action["attack"]:
            if winner is Outcome.DEFENDER and ACTIONS[ch.action]["attack"]:
                self.steps.add(f"{target.name}'s attack misses.", R_COMBAT)
            return []
        if winner is Outcome.DEFENDER:
            if ch.surprised and not self.surprise_over:
                self.steps.add(f"{side.name} was surprised: this first challenge can only harm {side.name}, so "
                               f"{side.name}'s win only stops the attack.", R_SURPRISE)
                return []
            attacker = self.sides[Outcome.CHALLENGER]
            if self._pre_empts(attacker, side) and not self._pre_empts(side, attacker):
                self.steps.add(f"{attacker.name}'s {attacker.con.weapon.name} (Speed, with Melee) pre-empts "
                               f"{side.name}'s {side.con.weapon.name}: no simultaneous counter-attack, so "
                               f"{side.name}'s win only stops the attack "
                               f"({self.settings.label('speed_weapon_model')}).", R_SPEED, "speed_weapon_model")
                return []
            if self.settings["combat_resolution"] == "sequential":
                self.steps.add(f"{side.name}'s win stops the attack; the counter-attack is its own challenge "
                               f"({self.settings.label('combat_resolution')}).", R_COMBAT, "combat_resolution")
                return []
            self.steps.add(f"One test for both: the winner hits, so {side.name}'s counter-attack lands "
                           f"({self.settings.label('combat_resolution')}).", '002 "Challenges"', "combat_resolution")
        if key == "weapon":
            weapon = side.con.weapon
            assert weapon is not None
            hit = DamageDealt(target.key, weapon.damage_type, weapon.levels, f"{weapon.name} card (met-reference 3.7)")
            self.steps.add(f"{side.name}'s {weapon.name} hits {target.name}.", hit.rule)
        else:
            hit = DamageDealt(target.key, action["damage_type"], action["levels"], action["rule"])
            self.steps.add(f"{side.name}'s {action['label'].lower()} hits {target.name}.", action["rule"])
        return [hit]


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
    run = _Run(challenge, settings or ChronicleSettings.defaults(), rng)
    run.play(challenge.tests)
    return run.ruling()


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
        raise RulesError("resolve_challenge takes the throws of a single test; use rule_challenge for a script.",
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
    opponent may call. Rules as :func:`rule_challenge`.

    Raises:
        RulesError: the tests so far are not legal (as :func:`rule_challenge`).
    """
    run = _Run(challenge, settings or ChronicleSettings.defaults(), None)
    run.play(challenge.tests)
    return run.options()


def play_challenge(
    challenge: Challenge, settings: ChronicleSettings | None = None, rng: RandomSource | None = None
) -> tuple[ChallengeOptions, ChallengeRuling | None, tuple[Step, ...]]:
    """Play the tests so far once: what may follow, the ruling if the script is complete, and the steps.

    The ruling is ``None`` while the script cannot end yet (a forced darkness
    retest is due, or the first test is missing); the steps then explain the
    challenge so far. Rules as :func:`rule_challenge` and :func:`challenge_options`.

    Raises:
        RulesError: the tests so far are not legal (as :func:`rule_challenge`).
    """
    run = _Run(challenge, settings or ChronicleSettings.defaults(), rng)
    run.play(challenge.tests)
    options = run.options()
    if run.forced_due is not None or (run.auto_winner is None and run.result is None):
        return options, None, run.steps.steps()
    ruling = run.ruling()
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
    run = _Run(challenge, settings or ChronicleSettings.defaults(), None, bids_only=True)
    return {side.key: side.required for side in run._characters()}
