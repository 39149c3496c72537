"""What each side of a challenge risks and counts: the checks on each side, the Traits
it must bid (Wounded, Negative Traits, the off hand, a narrator's difficulty),
darkness, the Traits counted for ties and overbids, win-ties powers and wounds,
and relenting (met-reference 1.1, 1.3, 1.4, 3.3-3.5, 3.8, 4.1; seed 002 "Ties", "Darkness").

Part of :mod:`larp.rules.challenge`: the first half of the engine (:mod:`.engine`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from larp.rules.challenge.ruling import TestRecord
from larp.rules.challenge.script import ACTIONS, Challenge, Contestant
from larp.rules.challenge.types import (
    POTENCE_TRAIT,
    R_BOMB,
    R_BONUS,
    R_CAP,
    R_DARK,
    R_DARK_DE,
    R_ENDURANCE,
    R_HEALTH,
    R_INTENSITY,
    R_MOVE,
    R_NEGATIVE,
    R_OFF_HAND,
    R_RELENT,
    R_SPEED_DE,
    R_STATIC,
    R_WOUNDS_OLD,
    SIDES,
    Category,
    Health,
    Kind,
    Lead,
    Outcome,
    Power,
    RandomSource,
    _other,
)
from larp.rules.darkness import DarknessEffect, DarknessLevel, DarknessSource, ability_named, darkness_effect
from larp.rules.explain import Explanation, RulesError, plural, traits
from larp.rules.health import DAMAGE_TYPES
from larp.rules.settings import ChronicleSettings
from larp.tables import generation_row

def _bomb_power(challenge: Challenge, side: Outcome, surprised: bool, announced: bool = False) -> str:
    """The power that gives ``side`` the Bomb here, or ``""``: Vigor in a strength challenge, Rapidity
    in a speed challenge (not for a surprised defender: no Celerity, LotNR Surprise), and only once
    announced before the challenge (LotNR Vigor and Rapidity, met-reference 1.2)."""
    con = challenge.challenger if side is Outcome.CHALLENGER else challenge.defender
    if con is None or challenge.category is not Category.PHYSICAL or not (con.bomb_announced or announced):
        return ""
    if Power.VIGOR in con.powers and con.lead is Lead.STRENGTH:
        return "Vigor"
    if Power.RAPIDITY in con.powers and con.lead is Lead.SPEED and not (side is Outcome.DEFENDER and surprised):
        return "Rapidity"
    return ""


@dataclass
class _Side:
    """A side's state while the script is played (internal)."""

    key: Outcome
    con: Contestant | None  # None: the narrator
    name: str
    category: Category
    health: Health = Health.HEALTHY
    required: int | None = 1
    potence: bool = False
    total: int = 0
    standing: int = 0
    standing_why: list[str] = field(default_factory=list)
    at_risk: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    free: Counter | None = None
    spare: int = 0
    abilities_spent: Counter = field(default_factory=Counter)
    willpower_spent: int = 0
    merits_spent: Counter = field(default_factory=Counter)
    used: set[str] = field(default_factory=set)
    overbid_used: bool = False
    dark: DarknessEffect | None = None
    dark_forced: bool = False
    forced_done: bool = False
    unmatched: int = 0
    bid_safe: bool = False
    neg_bonus: int = 0
    terms: list[str] = field(default_factory=list)

    @property
    def prefix(self) -> str:
        return self.key.value


class _Setup:
    """The setup of a challenge script: sides, bids, Negative Trait calls, darkness and the
    totals for ties (internal; the first half of :class:`larp.rules.challenge.engine._Run`)."""

    def __init__(self, challenge: Challenge, settings: ChronicleSettings, rng: RandomSource | None,
                 bids_only: bool = False):
        self.ch = challenge
        self.settings = settings
        self.rng = rng
        self.steps = Explanation()
        self.result: Outcome | None = None
        self.auto_winner: Outcome | None = None
        self.finished = False
        self.forced_due: Outcome | None = None
        self.records: list[TestRecord] = []
        self.totals_told = False
        self.surprise_over = False  # a second challenge after a lost surprise test: normal rules (LotNR Surprise)
        self.sides: dict[Outcome, _Side] = {}
        self._setup(bids_only)

    # ----- setup -------------------------------------------------------------

    def _setup(self, bids_only: bool = False) -> None:
        ch = self.ch
        if not isinstance(ch.category, Category):
            raise RulesError(f"Unknown category {ch.category!r}.", field="category")
        for key, value in (("action", ch.action), ("defender_action", ch.defender_action)):
            if value not in ACTIONS:
                raise RulesError(f"Unknown action {value!r} (known: {', '.join(ACTIONS)}).", field=key)
        if ch.kind is Kind.CONTESTED:
            if ch.defender is None:
                raise RulesError("A contested challenge needs a defender.", field="defender")
            if ch.difficulty is not None:
                raise RulesError("Only a static challenge has a difficulty.", field="difficulty")
            if ch.category is Category.VIRTUE:
                raise RulesError("A Virtue Test is a static challenge against the stimulus.", field="kind")
        else:
            if ch.defender is not None:
                raise RulesError(f"A {ch.kind.value} challenge is against a narrator: leave out the defender.",
                                 field="defender")
            if ACTIONS[ch.action]["attack"]:
                raise RulesError(f"A {ch.kind.value} challenge has no opponent to hit: use the action 'other'.",
                                 field="action")
            if ch.surprised or ch.negative_calls:
                raise RulesError("Surprise and Negative Trait calls need two characters.",
                                 field="surprised" if ch.surprised else "negative_calls")
        if ch.kind is Kind.STATIC:
            if isinstance(ch.difficulty, bool) or not isinstance(ch.difficulty, int) or ch.difficulty < 0:
                raise RulesError("A static challenge needs a difficulty of at least 0 Traits.", field="difficulty")
        elif ch.kind is Kind.SIMPLE:
            if ch.difficulty is not None:
                raise RulesError("A simple test compares no Traits: no difficulty.", field="difficulty")
            if ch.category is Category.VIRTUE:
                raise RulesError("A Virtue Test is a static challenge against the stimulus.", field="kind")
        for key, con in ((Outcome.CHALLENGER, ch.challenger), (Outcome.DEFENDER, ch.defender)):
            if con is not None and not isinstance(con, Contestant):
                raise RulesError(f"The {key.value} is missing.", field=key.value)
        self._header()
        self.sides[Outcome.CHALLENGER] = self._contestant(Outcome.CHALLENGER, ch.challenger)
        if ch.defender is not None:
            self.sides[Outcome.DEFENDER] = self._contestant(Outcome.DEFENDER, ch.defender)
        else:
            self.sides[Outcome.DEFENDER] = _Side(Outcome.DEFENDER, None, "The narrator", ch.category,
                                                 required=0, total=ch.difficulty or 0)
        self._announcements()
        for side in self._characters():
            self._requirements(side)
        self._negative_calls()
        if bids_only:
            return
        for side in self._characters():
            self._check_bid(side)
        self._darkness()
        for side in self._characters():
            self._total(side)
            self._standing(side)
        self._relent()

    def _characters(self) -> list[_Side]:
        return [s for s in self.sides.values() if s.con is not None]

    def _header(self) -> None:
        ch, c = self.ch, self.ch.challenger
        action = ACTIONS[ch.action]

        def bids(con: Contestant) -> str:
            if con.relent and not con.bid:
                return f"{con.name} relents"
            if con.risks_no_trait:
                return f"{con.name} risks no Trait"
            return f"{con.name} bids {', '.join(con.bid) or 'no Trait'}"

        if ch.kind is Kind.CONTESTED:
            d = ch.defender
            assert d is not None
            text = (f"{c.name} challenges {d.name} ({ch.category.label}): {action['label'].lower()}. "
                    f"{bids(c)}; {bids(d)}.")
            if ch.defender_action != "defend":
                text += f" {d.name} answers: {ACTIONS[ch.defender_action]['label'].lower()}."
            self.steps.add(text, '002 "Challenges"')
        elif ch.kind is Kind.STATIC:
            self.steps.add(f"{c.name} makes a static {ch.category.label} challenge against a difficulty of "
                           f"{ch.difficulty} Traits; {bids(c)}.", R_STATIC)
        else:
            self.steps.add(f"{c.name} makes a simple test against a narrator"
                           + (" (the effect needs an outright win)." if ch.needs_win else "."), R_STATIC)

    def _announcements(self) -> None:
        """The Bomb exists only when announced before the challenge (LotNR Vigor: "You must state
        before the Physical Challenge that you can use it"; Rapidity, met-reference 1.2)."""
        for side in self._characters():
            if not side.con.bomb_announced:
                continue
            power = _bomb_power(self.ch, side.key, self.ch.surprised and not self.surprise_over, announced=True)
            if power:
                self.steps.add(f"{side.name} announces before the challenge that {side.name} can throw the Bomb "
                               f"({power}).", R_BOMB)
            else:
                self.steps.add(f"{side.name} announces the Bomb, but it needs Vigor in a strength challenge or "
                               f"Rapidity in a speed challenge: no Bomb in this one.", R_BOMB)

    def _contestant(self, key: Outcome, con: Contestant) -> _Side:
        p = key.value
        name = con.name.strip() if isinstance(con.name, str) else ""
        if not name:
            raise RulesError(f"The {p} needs a name.", field=f"{p}_name")
        for attr in ("traits", "willpower", "steps_moved", "extra_bid"):
            value = getattr(con, attr)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulesError(f"{name}: {attr} must be a whole number of at least 0.", field=f"{p}_{attr}")
        for attr in ("abilities", "merits"):
            for item, value in getattr(con, attr).items():
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise RulesError(f"{name}: {item} must have a whole number of at least 0 left.",
                                     field=f"{p}_{attr}")
        for attr in ("bonuses", "penalties"):
            for mod in getattr(con, attr):
                if isinstance(mod.traits, bool) or not isinstance(mod.traits, int) or mod.traits < 0:
                    raise RulesError(f"{name}: {mod.source} must be a whole number of Traits.", field=f"{p}_{attr}")
        for power in con.powers:
            if not isinstance(power, Power):
                raise RulesError(f"{name}: unknown power {power!r}.", field=f"{p}_powers")
        category = con.category or self.ch.category
        action = self.ch.action if key is Outcome.CHALLENGER else self.ch.defender_action
        if category is not self.ch.category and action != "weapon":
            raise RulesError(f"{name}: only an attacker with a weapon may bid from another category "
                             f"(LotNR Bidding Weapon Traits).", field=f"{p}_category")
        if action == "weapon" and con.weapon is None:
            raise RulesError(f"{name} attacks with a weapon: give its card.", field=f"{p}_weapon")
        if con.weapon is not None:
            w = con.weapon
            if w.damage_type not in DAMAGE_TYPES or isinstance(w.levels, bool) or not isinstance(w.levels, int) \
                    or w.levels < 1 or isinstance(w.bonus, bool) or not isinstance(w.bonus, int) or w.bonus < 0:
                raise RulesError(f"{name}: the weapon {w.name} needs bonus Traits (0+), a damage type "
                                 f"(bashing, lethal, aggravated) and at least 1 level.", field=f"{p}_weapon")
        if con.held or con.lost_earlier:
            held, lost = Counter(con.held), Counter(con.lost_earlier)
            if lost - held:
                raise RulesError(f"{name} cannot have lost {', '.join(sorted((lost - held).elements()))}: "
                                 f"not among the Traits held.", field=f"{p}_lost_earlier")
            left = sum((held - lost).values())
            if left != con.traits:
                raise RulesError(f"{name} has {left} {category.label} Traits left after those lost earlier "
                                 f"this game session, not {con.traits}.", field=f"{p}_traits")
        if con.declared is not None:
            if isinstance(con.declared, bool) or not isinstance(con.declared, int) or con.declared < 0:
                raise RulesError(f"{name}: declared Traits must be a whole number.", field=f"{p}_declared")
            if con.declared > con.traits:
                raise RulesError(f"{name} may under-declare but never over-declare: {con.declared} "
                                 f"declared, {con.traits} held (LotNR ties, met-reference 1.3).",
                                 field=f"{p}_declared")
        if con.health is Health.INCAPACITATED:
            raise RulesError(f"{name} is Incapacitated and takes part in no challenge until a health level "
                             f"is healed (LotNR Health, met-reference 4.1).", field=f"{p}_health")
        if con.steps_moved > 3 and category is Category.PHYSICAL:
            raise RulesError(f"{name} can move at most three steps and still act (LotNR three-step rule).",
                             field=f"{p}_steps_moved")
        health = con.health
        if health is Health.WOUNDED and Power.ENDURANCE in con.powers:
            health = Health.BRUISED
            self.steps.add(f"{name} is Wounded but has Endurance: only the Bruised penalty applies.", R_ENDURANCE)
        return _Side(key, con, name, category, health=health)

    def _requirements(self, side: _Side) -> None:
        con = side.con
        assert con is not None
        ch = self.ch
        if ch.kind is Kind.SIMPLE:
            side.required = None  # a simple test usually has no bid; any Traits bid are at risk
            return
        if con.relent:
            side.required = None
            return
        if con.risks_no_trait:
            side.required = 0  # a test, not a challenge: nothing is risked (002 "Firing Guns into Groups of People")
            return
        required = 0 if ch.category is Category.VIRTUE else 1
        if con.extra_bid:
            required += con.extra_bid
            self.steps.add(f"The narrator's difficulty makes {side.name} risk {traits(con.extra_bid)} more.",
                           R_STATIC)
        if ch.category is not Category.VIRTUE:
            model = self.settings["wound_penalty_model"]
            if side.health is Health.WOUNDED or (model == "old_met" and side.health is Health.BRUISED):
                required += 1
                self.steps.add(f"{side.name} is {side.health.value.capitalize()} and must risk one more Trait.",
                               R_HEALTH if model == "lotnr" else R_WOUNDS_OLD, "wound_penalty_model")
        required += self._hands(side)
        side.required = required
        potence = con.bid.count(POTENCE_TRAIT)
        if potence:
            any_lead = ch.mass and self.settings["intensity_in_mobs"] == "any"
            if not (Power.INTENSITY in con.powers and ch.category is Category.PHYSICAL
                    and (con.lead is Lead.STRENGTH or any_lead)):
                raise RulesError(f"{side.name} may bid {POTENCE_TRAIT} only with Intensity, in a strength "
                                 f"challenge (LotNR Potence).", field=f"{side.prefix}_bid")
            if potence > 1:
                raise RulesError(f"{side.name} may bid {POTENCE_TRAIT} once.", field=f"{side.prefix}_bid")
            side.potence = True

    def _hands(self, side: _Side) -> int:
        """The extra Traits the hands cost: the off hand two, none with Ambidextrous (but two a hand,
        so one more, for a character fighting with both hands), one fewer with the Two-Weapon
        (Florentine) specialisation (LotNR off hand, met-reference 3.8)."""
        con = side.con
        if con.ambidextrous and con.both_hands:
            extra, text = 1, f"{side.name} is Ambidextrous, but fighting with both hands costs two Traits a hand"
        elif con.ambidextrous and con.off_hand:
            self.steps.add(f"{side.name} is Ambidextrous: no off-hand penalty.", R_OFF_HAND)
            return 0
        elif con.off_hand:
            extra, text = 2, f"{side.name} uses the off hand"
        else:
            return 0
        if con.two_weapon:
            extra -= 1
            text += "; the Two-Weapon (Florentine) specialisation removes one penalty Trait"
        more = {0: "no more Traits risked", 1: "one more Trait risked", 2: "two more Traits risked"}[extra]
        self.steps.add(f"{text}: {more}.", R_OFF_HAND)
        return extra

    def _real_required(self, side: _Side) -> int:
        return (side.required or 0) - (1 if side.potence else 0)

    def _negative_calls(self) -> None:
        mode = self.settings["negative_trait_unmatched"]
        for index, call in enumerate(self.ch.negative_calls):
            where = f"negative_calls[{index}]"
            if call.by not in SIDES:
                raise RulesError("A Negative Trait call is made by the challenger or the defender.", field=where)
            if not isinstance(call.trait, str) or not call.trait.strip():
                raise RulesError("Name the Negative Trait called.", field=where)
            caller = self.sides[call.by]
            payer = self.sides[_other(call.by)] if call.correct else caller
            other = self.sides[_other(payer.key)]
            if payer.required is None:
                continue  # a relenting side risks nothing
            if call.correct:
                text = f"{caller.name} calls {call.trait} on {payer.name}, rightly"
            else:
                text = f"{caller.name} calls {call.trait}, which {other.name} does not have"
            if self._real_required(payer) + 1 <= payer.con.traits:
                payer.required += 1
                self.steps.add(f"{text}: {payer.name} must risk one more Trait.", R_NEGATIVE)
                continue
            payer.unmatched += 1
            if mode == "automatic_loss":
                self.steps.add(f"{text}, and {payer.name} has no Trait left to add: {payer.name} loses the "
                               f"challenge.", R_NEGATIVE, "negative_trait_unmatched")
                if self.auto_winner is None:
                    self.auto_winner = other.key
            elif payer.unmatched == 1:
                other.bid_safe = True
                self.steps.add(f"{text}, and {payer.name} has no Trait left to add: {other.name}'s bid is no "
                               f"longer at risk.", R_NEGATIVE, "negative_trait_unmatched")
            else:
                other.neg_bonus += 1
                self.steps.add(f"{text}, and {payer.name} still cannot add a Trait: {other.name} gains one "
                               f"Trait for ties and overbids.", R_NEGATIVE, "negative_trait_unmatched")

    def _check_bid(self, side: _Side) -> None:
        con = side.con
        assert con is not None
        p = side.prefix
        bid = [b.strip() if isinstance(b, str) else b for b in con.bid]
        if any(not isinstance(b, str) or not b for b in bid):
            raise RulesError(f"{side.name}: a Trait bid has no name.", field=f"{p}_bid")
        if con.relent:
            return
        real = [b for b in bid if not (side.potence and b == POTENCE_TRAIT)]
        if side.required is not None and len(bid) != side.required:
            if not bid:
                raise RulesError(f"The {p} must bid a Trait.", field=f"{p}_bid")
            raise RulesError(f"{side.name} must risk {plural(side.required, 'Trait')} here, not {len(bid)}.",
                             field=f"{p}_bid")
        if len(real) > con.traits:
            raise RulesError(
                f"{side.name} has only {con.traits} {side.category.label} Traits left "
                f"and cannot bid {len(real)}.",
                field=f"{p}_bid",
            )
        if con.held:
            free = Counter(con.held) - Counter(con.lost_earlier)
            for trait in real:
                if free[trait] < 1:
                    why = "lost it earlier this game session" if trait in con.lost_earlier else "does not have it"
                    raise RulesError(f"{side.name} cannot bid {trait}: {why}.", field=f"{p}_bid")
                free[trait] -= 1
            side.free = +free
        side.spare = con.traits - len(real)
        if side.potence:
            self.steps.add(f"{side.name} bids {POTENCE_TRAIT} with Intensity: it is never lost and does not "
                           f"count in ties.", R_INTENSITY)
        if side.bid_safe:
            side.at_risk = []
        else:
            side.at_risk = list(real)

    def _darkness(self) -> None:
        ch = self.ch
        scope = self.settings["darkness_scope"]
        attack = ACTIONS[ch.action]["attack"] or ACTIONS[ch.defender_action]["attack"]
        in_scope = scope == "all" or (scope == "sight" and ch.needs_sight) or (
            scope == "combat" and ch.category is Category.PHYSICAL and attack)
        for side in self._characters():
            dark = side.con.darkness
            if not isinstance(dark.level, DarknessLevel) or not isinstance(dark.source, DarknessSource):
                raise RulesError(f"{side.name}: unknown darkness level or source.", field=f"{side.prefix}_darkness")
            if dark.level is DarknessLevel.NONE:
                continue
            if not in_scope:
                self.steps.add(f"{side.name}'s darkness does not apply to this challenge "
                               f"({self.settings.label('darkness_scope')}).", R_DARK, "darkness_scope")
                continue
            if not any(step.setting == "darkness_scope" for step in self.steps.steps()):
                self.steps.add(f"Darkness applies here ({self.settings.label('darkness_scope')}).", R_DARK,
                               "darkness_scope")
            side.dark = darkness_effect(dark, self._abilities_left(side), self.settings, side.name,
                                        f"{side.prefix}_darkness")
            self.steps.extend(side.dark.steps)
            side.dark_forced = side.dark.forced_retest
            if dark.waive_retest and not dark.waived_this_turn:
                key = ability_named(side.con.abilities, dark.waive_retest)
                if key is None or side.con.abilities[key] < 1:
                    raise RulesError(f"{side.name} has no {dark.waive_retest} level left to expend against the "
                                     f"forced retest.", field=f"{side.prefix}_darkness")
        c, d = self.sides[Outcome.CHALLENGER], self.sides[Outcome.DEFENDER]
        if c.dark_forced and d.dark_forced:
            label = self.settings.label("both_blind_forced_retest")
            if self.settings["both_blind_forced_retest"] == "no_retest":
                c.dark_forced = d.dark_forced = False
                self.steps.add(f"Both sides suffer the same total darkness: no forced retest for either ({label}).",
                               R_DARK_DE, "both_blind_forced_retest")
            else:
                self.steps.add(f"Both sides suffer total darkness: a success by either is still retested once "
                               f"({label}).", R_DARK, "both_blind_forced_retest")

    def _abilities_left(self, side: _Side) -> dict[str, int]:
        return {k: v - side.abilities_spent[k] for k, v in side.con.abilities.items()}

    def _total(self, side: _Side) -> None:
        con = side.con
        ch = self.ch
        if ch.kind is Kind.SIMPLE:
            return
        base = con.declared if con.declared is not None else con.traits
        terms = [f"{base} {side.category.label}" + (f" (declared of {con.traits})" if con.declared is not None else "")]
        total = base
        for mod in con.bonuses:
            total += mod.traits
            terms.append(f"+{mod.traits} {mod.source}")
        if con.weapon is not None and con.weapon.bonus:
            total += con.weapon.bonus
            terms.append(f"+{con.weapon.bonus} {con.weapon.name}")
        if self._speed_bonus(side):
            total += 1
            terms.append("+1 Speed")
            self.steps.add(f"{side.name}'s {con.weapon.name} has Speed and {side.name} has Melee: one bonus Trait "
                           f"({self.settings.label('speed_weapon_model')}).", R_SPEED_DE, "speed_weapon_model")
        if side.neg_bonus:
            total += side.neg_bonus
            terms.append(f"+{side.neg_bonus} unmatched Negative Traits")
        for mod in con.penalties:
            total -= mod.traits
            terms.append(f"-{mod.traits} {mod.source}")
        if any(b.traits for b in con.bonuses) or (con.weapon is not None and con.weapon.bonus):
            self.steps.add(f"{side.name}'s bonus Traits count in ties and overbids but are never bid.", R_BONUS)
        if self.settings["wound_penalty_model"] == "lotnr" and side.health is Health.BRUISED \
                and ch.category is not Category.VIRTUE:
            total -= 1
            terms.append("-1 Bruised")
            self.steps.add(f"{side.name} is Bruised: one Trait down on ties.", R_HEALTH, "wound_penalty_model")
        if ch.category is Category.PHYSICAL and con.steps_moved >= 2:
            total -= 1
            terms.append("-1 moved")
            self.steps.add(f"{side.name} moved {con.steps_moved} steps: one Trait down.", R_MOVE)
        if side.dark is not None and side.dark.penalty:
            total -= side.dark.penalty
            terms.append(f"-{side.dark.penalty} darkness")
        if self.settings["trait_total_cap"] and con.generation is not None:
            row = generation_row(con.generation)
            if row is not None and total > 2 * row.max_traits:
                total = 2 * row.max_traits
                terms.append(f"capped at {total}")
                self.steps.add(f"{side.name} may claim at most twice the generation's Trait maximum: {total}.",
                               R_CAP, "trait_total_cap")
        side.total = max(0, total)
        side.terms = terms

    def _speed_bonus(self, side: _Side) -> bool:
        """Dark Epics' Speed: +1 bonus Trait for a Speed weapon used with Melee (setting ``speed_weapon_model``)."""
        con = side.con
        return (self.settings["speed_weapon_model"] == "dark_epics" and con.weapon is not None
                and con.weapon.has("Speed") and ability_named(con.abilities, "Melee") is not None)

    def _pre_empts(self, side: _Side, other: _Side) -> bool:
        """LotNR Speed: a Speed weapon used with Melee pre-empts an opponent whose weapon is Clumsy, Heavy
        or Slow (setting ``speed_weapon_model``; met-reference 3.7)."""
        con, opp = side.con, other.con
        if self.settings["speed_weapon_model"] != "lotnr" or con is None or opp is None:
            return False
        if con.weapon is None or not con.weapon.has("Speed") or ability_named(con.abilities, "Melee") is None:
            return False
        if opp.weapon is None:
            return False
        return bool({t.lower() for t in opp.weapon.negative_traits} & {"clumsy", "heavy", "slow"})

    def _standing(self, side: _Side) -> None:
        con, ch = side.con, self.ch
        side.standing, side.standing_why = 0, []
        if ch.kind is Kind.SIMPLE:
            return
        physical = ch.category is Category.PHYSICAL
        if Power.PUISSANCE in con.powers and physical and con.lead is Lead.STRENGTH:
            side.standing += 1
            side.standing_why.append(f"{side.name} wins ties in tests of strength (Puissance)")
        surprised = side.key is Outcome.DEFENDER and ch.surprised and not self.surprise_over
        if Power.FLEETNESS in con.powers and physical and con.lead is Lead.SPEED and not surprised:
            side.standing += 1
            side.standing_why.append(f"{side.name} wins ties in speed challenges (Fleetness)")
        if side.health is Health.WOUNDED and ch.category is not Category.VIRTUE:
            side.standing -= 1
            side.standing_why.append(f"{side.name} is Wounded and loses all ties")

    def _relent(self) -> None:
        relenting = [s for s in self._characters() if s.con.relent]
        if len(relenting) == 2:
            raise RulesError("Only one side can relent.", field="defender_relent")
        if relenting:
            side = relenting[0]
            self.auto_winner = _other(side.key)
            self.steps.add(f"{side.name} relents before the test: {side.name} loses the challenge and no Traits.",
                           R_RELENT)
        if self.auto_winner is not None and self.ch.tests:
            raise RulesError("No test is made: the challenge was decided before the test.", field="tests")

