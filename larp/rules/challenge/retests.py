"""Overbids, retests and cancels: who may call them, what they cost, and what they
change (LotNR Overbidding, met-reference 1.5; LotNR Retests and Dark Epics, 2.1-2.2;
Potence's Might, 3.4).

Part of :mod:`larp.rules.challenge`: a mixin of the engine (:mod:`.engine`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from larp.rules.challenge.ruling import TestRecord
from larp.rules.challenge.script import ACTIONS, TestCall
from larp.rules.challenge.types import (
    POTENCE_TRAIT,
    R_HEALTH,
    R_MIGHT,
    R_OVERBID,
    R_RETEST,
    R_RETEST_DE,
    R_SURPRISE,
    Call,
    Category,
    Health,
    Kind,
    Lead,
    Outcome,
    Power,
    _other,
    _source_key,
    parse_source,
)
from larp.rules.darkness import ability_named
from larp.rules.explain import RulesError, traits

if TYPE_CHECKING:  # the engine's side state; imported for the annotations only
    from larp.rules.challenge.bids import _Side


class _Calls:
    """Overbids, retests and cancels of a challenge script (internal; a mixin of
    :class:`larp.rules.challenge.engine._Run`, whose state it reads and changes)."""

    # ----- overbids ----------------------------------------------------------

    def _overbid_problem(self, side: _Side) -> str | None:
        """Why ``side`` may not call an overbid now (any Trait), or ``None``."""
        if self.ch.kind is Kind.SIMPLE:
            return "A simple test compares no Traits: no overbid."
        if self.ch.category is Category.VIRTUE:
            return "Overbids are forbidden on Virtue Tests (LotNR)."
        problem = self._state_problem(side)
        if problem:
            return problem
        if side.con is not None and side.con.risks_no_trait:
            return f"{side.name} risks no Trait in this test: no overbid."
        if side.overbid_used:
            return f"{side.name} has already overbid in this challenge."
        if side.con is not None and (sum(side.free.values()) if side.free is not None else side.spare) < 1:
            return f"{side.name} has no Trait left to risk."
        return None

    def _overbid_trait_problem(self, side: _Side, trait: str, what: str = "to overbid (LotNR Overbidding)"
                               ) -> str | None:
        """Why ``side`` may not risk ``trait`` in an overbid (or ``what`` else), or ``None``."""
        if side.con is None:
            return "The narrator risks no Trait to overbid." if trait else None
        if not trait:
            return f"{side.name} must risk a new Trait {what}."
        if side.potence and trait == POTENCE_TRAIT:
            return f"{POTENCE_TRAIT} is already bid."
        if side.free is not None and side.free[trait] < 1:
            why = "lost earlier this game session" if trait in side.con.lost_earlier else "not a Trait left to risk"
            return f"{side.name} cannot risk {trait}: {why}."
        return None

    def _lost_here(self, side: _Side) -> list[str]:
        """The Traits ``side`` has lost in this challenge, those at risk on the test it lost included
        (an overbid's caller has lost them: "the original one has already been lost", LotNR)."""
        return list(side.lost) + list(side.at_risk) if side.con is not None else []

    def _overbid_count(self, side: _Side) -> int:
        """The Traits ``side`` counts for an overbid: its total without the Traits it has lost in this
        challenge (LotNR Overbidding; setting ``overbid_counts_lost_bid``)."""
        lost = self._lost_here(side)
        if self.settings["overbid_counts_lost_bid"] or not lost:
            return side.total
        return max(0, side.total - len(lost))

    def _ratio(self, side: _Side) -> tuple[bool, str]:
        """Whether an overbid by ``side`` makes a new test, and the arithmetic."""
        other = self.sides[_other(side.key)]
        if side.health is Health.WOUNDED and self.settings["wounded_overbid_skips_ratio"]:
            return True, (f"{side.name} is Wounded and always gets the new test "
                          f"({self.settings.label('wounded_overbid_skips_ratio')}).")
        ratio = float(self.settings["overbid_ratio"])
        need = ratio * other.total
        count = self._overbid_count(side)
        met = count >= need
        return met, (f"{side.name} counts {traits(count)} against {other.name}'s {other.total}: "
                     f"{'at least' if met else 'less than'} {ratio:g} times ({need:g}).")

    def _overbid(self, index: int, call: TestCall) -> None:
        f = f"tests[{index}]"
        side = self._caller(index, call)
        trait = call.trait.strip() if isinstance(call.trait, str) else ""
        problem = self._overbid_problem(side)
        if problem:
            raise RulesError(problem, field=f"{f}.by")
        problem = self._overbid_trait_problem(side, trait)
        if problem:
            raise RulesError(problem, field=f"{f}.trait")
        side.overbid_used = True
        self._tell_totals()
        met, text = self._ratio(side)
        lost_now = self._lost_here(side)
        side.lost += side.at_risk
        side.at_risk = []
        risk = f"risks {trait} and " if trait else ""
        skipped = side.health is Health.WOUNDED and self.settings["wounded_overbid_skips_ratio"]
        if side.health is Health.WOUNDED and not skipped:
            self.steps.add(f"{side.name} is Wounded and may always call an overbid; the Traits still decide "
                           f"whether a new test is made.", R_HEALTH)
        self.steps.add(f"{side.name} {risk}calls an overbid.", R_OVERBID)
        if lost_now:
            counts = self.settings["overbid_counts_lost_bid"]
            self.steps.add(f"{side.name} has lost {', '.join(lost_now)} in this challenge"
                           + (f": {'they still count' if len(lost_now) > 1 else 'it still counts'} for the overbid "
                              f"({self.settings.label('overbid_counts_lost_bid')})." if counts else
                              f"; {'they no longer count' if len(lost_now) > 1 else 'it no longer counts'}."),
                           R_OVERBID, "overbid_counts_lost_bid")
        setting = "wounded_overbid_skips_ratio" if skipped else "overbid_ratio"
        if met:
            if side.con is not None:
                self._take(side, trait)
                side.at_risk = [trait]
            self.steps.add(f"{text} A new test is made.", R_HEALTH if skipped else R_OVERBID, setting)
            self._judge(index, call, side.key, trait=trait)
            return
        if call.challenger_throw is not None or call.defender_throw is not None:
            raise RulesError(f"The overbid is refused ({text}): no new test is made, so give no throws.",
                             field=f"{f}.challenger_throw")
        self.steps.add(f"{text} No new test: the result stands.", R_OVERBID, setting)
        if trait:
            if self.settings["overbid_trait_lost_on_refusal"]:
                self._take(side, trait)
                side.lost.append(trait)
                self.steps.add(f"{side.name} loses {trait} too.", R_OVERBID, "overbid_trait_lost_on_refusal")
            else:
                self.steps.add(f"{side.name} keeps {trait}: no test was made to risk it.", R_OVERBID,
                               "overbid_trait_lost_on_refusal")
        self.records.append(TestRecord(Call.OVERBID, side.key, None, None, self.result, made=False, trait=trait))

    def _take(self, side: _Side, trait: str) -> None:
        """Take ``trait`` out of the side's Traits free to risk."""
        if side.free is not None:
            side.free[trait] -= 1
        side.spare -= 1

    # ----- retests and cancels -----------------------------------------------

    def _payable(self, side: _Side, category: str, name: str) -> tuple[str | None, str]:
        """(problem, canonical name) for spending one unit of a source."""
        con = side.con
        if category == "ability":
            key = ability_named(con.abilities, name)
            if key is None:
                return f"{side.name} has no {name} Ability.", name
            if con.abilities[key] - side.abilities_spent[key] < 1:
                return f"{side.name} has no {key} levels left this game session.", key
            return None, key
        if category == "willpower":
            if con.willpower - side.willpower_spent < 1:
                return f"{side.name} has no Willpower left.", name
            return None, name
        if category == "merit":
            key = next((m for m in con.merits if m.lower() == name.lower()), None)
            if key is None:
                return f"{side.name} has no {name} Merit.", name
            if con.merits[key] - side.merits_spent[key] < 1:
                return f"{side.name} has no uses of {key} left.", key
            return None, key
        if Power.MIGHT not in con.powers:
            return f"{side.name} does not have Might (Potence).", name
        return None, name

    def _pay(self, side: _Side, category: str, name: str) -> None:
        if category == "ability":
            side.abilities_spent[name] += 1
        elif category == "willpower":
            side.willpower_spent += 1
        elif category == "merit":
            side.merits_spent[name] += 1

    def _retest_problem(self, side: _Side, category: str, name: str) -> tuple[str | None, str]:
        """(why ``side`` may not retest from this source now or ``None``, the source's canonical name)."""
        if side.con is None:
            return "The narrator has no retest sources.", name
        problem = self._state_problem(side)
        if problem:
            return problem, name
        problem, name = self._payable(side, category, name)
        if problem:
            return problem, name
        ch, con = self.ch, side.con
        if category == "ability" and name.lower() == "blindfighting" and side.dark is None:
            return "Blindfighting is a valid retest only in darkness (002 \"Darkness\").", name
        if category == "ability" and name.lower() == "dodge" and ch.kind is Kind.CONTESTED:
            opponent_action = ch.defender_action if side.key is Outcome.CHALLENGER else ch.action
            if not ACTIONS[opponent_action]["attack"]:
                return ("Dodge retests only when defending against an attack the character can see or sense "
                        "(met-reference 2.1, 3.6)."), name
        if category == "willpower" and self.settings["willpower_retest_scope"] == "defend_mental_social":
            if not (side.key is Outcome.DEFENDER and ch.kind is Kind.CONTESTED
                    and ch.category in (Category.MENTAL, Category.SOCIAL)):
                return (f"Willpower buys a retest only when defending against a Mental or Social challenge "
                        f"({self.settings.label('willpower_retest_scope')})."), name
        if category == "power" and self._ranged():
            return ("Might retests only feats of sheer strength in brawling and melee, never a firearm shot, a thrown "
                    "object or another ranged attack (LotNR Potence).", name)
        if category == "power" and not (ch.category is Category.PHYSICAL and con.lead is Lead.STRENGTH):
            return "Might works only in challenges of sheer strength (LotNR Potence).", name
        mode = self.settings["retest_limit_mode"]
        if mode == "per_source" and _source_key(category, name).lower() in side.used:
            return (f"{side.name} has already retested with {name} in this challenge "
                    f"({self.settings.label('retest_limit_mode')})."), name
        if mode == "per_category" and f"category:{category}" in side.used:
            return (f"{side.name} has already retested from the {category} category in this challenge "
                    f"({self.settings.label('retest_limit_mode')})."), name
        return None, name

    def _ranged(self) -> bool:
        """Whether the challenge is a ranged attack: either side attacks with a weapon that is fired
        or thrown (met-reference 3.4: Might is "not at range and not for throwing")."""
        for action, con in ((self.ch.action, self.ch.challenger), (self.ch.defender_action, self.ch.defender)):
            if action == "weapon" and con is not None and con.weapon is not None and con.weapon.ranged:
                return True
        return False

    def _cancel_problem(self, side: _Side, retest: tuple[str, str], category: str, name: str) -> tuple[str | None, str]:
        """(why ``side`` may not cancel ``retest`` with this source or ``None``, the source's canonical name)."""
        if side.con is None:
            return "The narrator cannot cancel retests.", name
        if retest[0] == "power":
            return "Might is the last test of the challenge and cannot be cancelled (LotNR Potence).", name
        if retest[0] == "willpower" and not self.settings["willpower_retest_cancellable"]:
            return (f"A Willpower retest cannot be cancelled "
                    f"({self.settings.label('willpower_retest_cancellable')})."), name
        if category == "power":
            return "Might is a retest, not a cancel.", name
        problem, name = self._payable(side, category, name)
        if problem:
            return problem, name
        if self.settings["cancel_match_mode"] == "same_category" and category != retest[0]:
            return (f"A cancel must come from the same category as the retest "
                    f"({self.settings.label('cancel_match_mode')})."), name
        return None, name

    def _retest(self, index: int, call: TestCall) -> None:
        f = f"tests[{index}]"
        side = self._caller(index, call)
        category, name = parse_source(call.source, f"{f}.source")
        problem, name = self._retest_problem(side, category, name)
        if problem:
            raise RulesError(problem, field=f"{f}.source")
        label = _source_key(category, name)
        self._pay(side, category, name)
        side.used.add(label.lower())
        side.used.add(f"category:{category}")
        lost_now = list(side.at_risk)
        side.lost += side.at_risk
        side.at_risk = []
        what = {"ability": f"expends a level of {name}", "willpower": "spends a Willpower Trait",
                "merit": f"uses {name}", "power": "uses Might"}[category]
        kept = f" {side.name} still loses {', '.join(lost_now)}, lost on that test." if lost_now else ""
        if category == "willpower":
            setting = "willpower_retest_scope"
            rule = R_RETEST if self.settings[setting] == "defend_mental_social" else R_RETEST_DE
        else:
            setting = "retest_limit_mode"
            rule = R_RETEST if self.settings[setting] == "per_source" else R_RETEST_DE
        self.steps.add(f"{side.name} {what} to retest.{kept}", rule, setting)
        if call.cancel:
            other = self.sides[_other(side.key)]
            ccat, cname = parse_source(call.cancel, f"{f}.cancel")
            problem, cname = self._cancel_problem(other, (category, name), ccat, cname)
            if problem:
                raise RulesError(problem, field=f"{f}.cancel")
            if call.challenger_throw is not None or call.defender_throw is not None:
                raise RulesError("The retest is cancelled: no new test is made, so give no throws.",
                                 field=f"{f}.challenger_throw")
            self._pay(other, ccat, cname)
            self.steps.add(f"{other.name} cancels the retest with {cname}: the first result stands.",
                           R_RETEST if self.settings["cancel_match_mode"] == "conditions" else R_RETEST_DE,
                           "cancel_match_mode")
            self.records.append(TestRecord(Call.RETEST, side.key, None, None, self.result, made=False,
                                           source=label, cancel=_source_key(ccat, cname)))
            return
        if category == "power":
            self.finished = True
            self.steps.add("Might is the last test of the challenge.", R_MIGHT)
        self._judge(index, call, side.key, source=label)


    # ----- surprise: the second challenge ------------------------------------

    def _second_challenge_problem(self, side: _Side) -> str | None:
        """Why ``side`` may not call a second challenge now, or ``None``: only a challenger who
        surprised the defender and lost the test, once (LotNR Surprise, met-reference 3.1); never
        under Dark Epics' one Physical challenge per target per turn."""
        ch = self.ch
        if not ch.surprised or side.key is not Outcome.CHALLENGER or side.con is None:
            return "Only a challenger who surprised the defender may call a second challenge."
        if self.surprise_over:
            return f"{side.name} has already called the second challenge."
        problem = self._state_problem(side)
        if problem:
            return problem
        if self.settings["one_physical_challenge_per_turn"] and ch.category is Category.PHYSICAL:
            return (f"{self.sides[Outcome.DEFENDER].name} has faced a Physical challenge this turn: no second "
                    f"one ({self.settings.label('one_physical_challenge_per_turn')}).")
        if (sum(side.free.values()) if side.free is not None else side.spare) < 1:
            return f"{side.name} has no Trait left to risk."
        return None

    def _second_challenge(self, index: int, call: TestCall) -> None:
        f = f"tests[{index}]"
        side = self._caller(index, call)
        problem = self._second_challenge_problem(side)
        if problem:
            raise RulesError(problem, field=f"{f}.by")
        trait = call.trait.strip() if isinstance(call.trait, str) else ""
        problem = self._overbid_trait_problem(side, trait, "for a second challenge (LotNR Surprise)")
        if problem:
            raise RulesError(problem, field=f"{f}.trait")
        lost_now = list(side.at_risk)
        side.lost += side.at_risk
        self._take(side, trait)
        side.at_risk = [trait]
        self.surprise_over = True
        for each in self._characters():
            self._standing(each)
        defender = self.sides[Outcome.DEFENDER].name
        kept = f" {side.name} still loses {', '.join(lost_now)}, lost on that test." if lost_now else ""
        self.steps.add(f"{side.name} surprised {defender} and lost the test: {side.name} risks {trait} for a "
                       f"second challenge, and the normal rules resume ({defender} may use Celerity and hit "
                       f"back).{kept}", R_SURPRISE)
        self._judge(index, call, side.key, trait=trait)
