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
from larp.rules.explain import RulesError

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
        if side.overbid_used:
            return f"{side.name} has already overbid in this challenge."
        if side.con is not None and (sum(side.free.values()) if side.free is not None else side.spare) < 1:
            return f"{side.name} has no Trait left to risk."
        return None

    def _overbid_trait_problem(self, side: _Side, trait: str) -> str | None:
        """Why ``side`` may not risk ``trait`` in an overbid, or ``None``."""
        if side.con is None:
            return "The narrator risks no Trait to overbid." if trait else None
        if not trait:
            return f"{side.name} must risk a new Trait to overbid (LotNR Overbidding)."
        if side.potence and trait == POTENCE_TRAIT:
            return f"{POTENCE_TRAIT} is already bid."
        if side.free is not None and side.free[trait] < 1:
            why = "lost earlier this game session" if trait in side.con.lost_earlier else "not a Trait left to risk"
            return f"{side.name} cannot risk {trait}: {why}."
        return None

    def _ratio(self, side: _Side) -> tuple[bool, str]:
        """Whether an overbid by ``side`` makes a new test, and the arithmetic."""
        other = self.sides[_other(side.key)]
        if side.health is Health.WOUNDED:
            return True, f"{side.name} is Wounded and may always overbid."
        ratio = float(self.settings["overbid_ratio"])
        need = ratio * other.total
        met = side.total >= need
        return met, (f"{side.name} has {side.total} Traits against {other.name}'s {other.total}: "
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
        lost_now = list(side.at_risk)
        side.lost += side.at_risk
        side.at_risk = []
        kept = f" {side.name}'s {', '.join(lost_now)} stays lost." if lost_now else ""
        risk = f"risks {trait} and " if trait else ""
        wounded = side.health is Health.WOUNDED
        if met:
            if side.con is not None:
                self._take(side, trait)
                side.at_risk = [trait]
            self.steps.add(f"{side.name} {risk}calls an overbid. {text} A new test is made.{kept}",
                           R_HEALTH if wounded else R_OVERBID, None if wounded else "overbid_ratio")
            self._judge(index, call, side.key, trait=trait)
            return
        if call.challenger_throw is not None or call.defender_throw is not None:
            raise RulesError(f"The overbid is refused ({text}): no new test is made, so give no throws.",
                             field=f"{f}.challenger_throw")
        self.steps.add(f"{side.name} {risk}calls an overbid. {text} No new test: the result stands.{kept}",
                       R_OVERBID, "overbid_ratio")
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

