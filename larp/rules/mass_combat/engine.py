"""Rules on a mass challenge (:func:`rule_mass_challenge`, :func:`defender_bid_count`):
the checks, the pairs and the defender's bids, relented challenges first, then the
others, and the results applied in order (002 "Mass Combat"; LotNR Mob Scene,
met-reference 3.2). Part of :mod:`larp.rules.mass_combat`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import groupby
from typing import Any

from larp.rules.challenge import (
    ACTIONS,
    POTENCE_TRAIT,
    Call,
    Category,
    Challenge,
    ChallengeRuling,
    Contestant,
    Lead,
    Outcome,
    Power,
    RandomSource,
    TestCall,
    Throw,
    Weapon,
    bids_required,
)
from larp.rules.damage import weapon as armory_weapon
from larp.rules.explain import Explanation, RulesError, Step
from larp.rules.health import HealthTrack
from larp.rules.order import LEGERITY, SWIFTNESS, Participant, order_of_actions
from larp.rules.order import R_MASS as ORDER_MASS
from larp.rules.settings import ChronicleSettings

from larp.rules.hits import (
    Attack,
    Body,
    Hit,
    weapon_card,
    track_of,
    can_fight,
    land_hit,
)
from larp.rules.pairs import (
    play_pairs,
    add_spending,
    spendings,
    check_bid_names,
)
from larp.rules.mass_combat.types import (
    R_MASS,
    R_MOB,
    R_INTENSITY,
    MAX_PER_RANGE,
    Range,
    Attacker,
    Defender,
    MassChallenge,
    PairResult,
    MassRuling,
)

def actions_of(celerity: int) -> int:
    """A character's actions this turn: one, plus one each for Swiftness (Celerity 2)
    and Legerity (Celerity 4) when Celerity is active (LotNR Celerity, met-reference 3.3)."""
    return 1 + (celerity >= SWIFTNESS) + (celerity >= LEGERITY)




def missed_hit(by: str, attack: Attack, target: str, track: HealthTrack, note: str) -> Hit:
    """A result that is not applied (``note`` says why), for the record."""
    name = armory_weapon(attack.weapon, "live").name if attack.action == "weapon" and attack.weapon else None
    return Hit(by, target, attack.action, name, "", 0, (), False, track.condition, track.state(), note,
               (Step(note, R_MOB),))




# ----- the mass challenge ----------------------------------------------------


def _check(mass: MassChallenge) -> None:
    if not isinstance(mass.defender, Defender):
        raise RulesError("Give the target.", field="defender")
    if not mass.attackers:
        raise RulesError("Add at least one attacker.", field="attackers")
    d = mass.defender
    if not isinstance(d.side, Contestant):
        raise RulesError("Give the target.", field="defender")
    target = d.side.name.strip() if isinstance(d.side.name, str) else ""
    if not target:
        raise RulesError("The target needs a name.", field="defender.name")
    names: dict[str, int] = {}
    for index, a in enumerate(mass.attackers):
        where = f"attackers[{index}]"
        if not isinstance(a, Attacker) or not isinstance(a.side, Contestant):
            raise RulesError("Give the attacker.", field=where)
        if not isinstance(a.range, Range):
            raise RulesError("An attacker fights hand to hand or at range.", field=f"{where}.range")
        name = a.side.name.strip() if isinstance(a.side.name, str) else ""
        if not name:
            raise RulesError("Each attacker needs a name.", field=f"{where}.name")
        if name == target:
            raise RulesError(f"{name} cannot attack himself: the target cannot also be an attacker.",
                             field=f"{where}.name")
        if name in names:
            raise RulesError(f"{name} is already an attacker.", field=f"{where}.name")
        names[name] = index
        for attr in ("celerity",):
            value = getattr(a, attr)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
                raise RulesError(f"{name}: Celerity is a level from 0 to 5.", field=f"{where}.celerity")
    for rng_kind in Range:
        group = [a for a in mass.attackers if a.range is rng_kind]
        if len(group) > MAX_PER_RANGE:
            sixth = group[MAX_PER_RANGE]
            raise RulesError(
                f"At most {MAX_PER_RANGE} characters can engage one target {rng_kind.label} (002 \"Mass "
                f"Combat\"): {sixth.side.name} would be the {len(group)}th. Resolve that attack in another challenge.",
                field=f"attackers[{mass.attackers.index(sixth)}].range")
    if isinstance(d.celerity, bool) or not isinstance(d.celerity, int) or not 0 <= d.celerity <= 5:
        raise RulesError(f"{d.side.name}: Celerity is a level from 0 to 5.", field="defender.celerity")
    for key in ("relents_to", "injures"):
        seen = set()
        for name in getattr(d, key):
            if name not in names:
                raise RulesError(f"{name} is not one of the attackers.", field=f"defender.{key}")
            if name in seen:
                raise RulesError(f"{name} is named twice.", field=f"defender.{key}")
            seen.add(name)


def _attack_card(attack: Attack, rng_kind: Range | None, name: str, where: str) -> Weapon | None:
    if attack.action not in ACTIONS or not ACTIONS[attack.action]["attack"]:
        raise RulesError(f"{name}: an attack is a strike, a bite or a weapon.", field=f"{where}.action")
    if attack.action != "weapon":
        if attack.weapon:
            raise RulesError(f"{name}: a weapon is used with the action 'weapon'.", field=f"{where}.weapon")
        if rng_kind is Range.RANGED:
            raise RulesError(f"{name} attacks at range: choose his ranged weapon.", field=f"{where}.weapon")
        return None
    if not attack.weapon:
        raise RulesError(f"{name} attacks with a weapon: choose it.", field=f"{where}.weapon")
    card = armory_weapon(attack.weapon, "live") if attack.weapon else None
    card_weapon = weapon_card(attack.weapon, f"{where}.weapon")
    assert card is not None
    if rng_kind is Range.RANGED and card.melee:
        raise RulesError(f"{name}: a {card.name} is a hand-to-hand weapon; mark him hand to hand.",
                         field=f"{where}.weapon")
    if rng_kind is Range.HAND_TO_HAND and card.firearm:
        raise RulesError(f"{name}: a {card.name} is a ranged weapon; mark him as ranged.", field=f"{where}.weapon")
    return card_weapon


def _without_rapidity(con: Contestant, celerity: int) -> Contestant:
    """Rapidity's Bomb needs Celerity active this round (LotNR Rapidity; 002)."""
    if Power.RAPIDITY in con.powers and celerity < 3:
        return replace(con, powers=con.powers - {Power.RAPIDITY})
    return con


class _Mass:
    """Rules on one mass challenge (internal; see :func:`rule_mass_challenge`)."""

    def __init__(self, mass: MassChallenge, settings: ChronicleSettings, rng: RandomSource | None):
        self.mass, self.settings, self.rng = mass, settings, rng
        self.steps = Explanation()
        self.d = mass.defender
        self.name = self.d.side.name.strip()
        self.relented = set(self.d.relents_to)
        self.tracks: dict[str, HealthTrack] = {}
        self.armor: dict[str, int | None] = {}
        self.bodies: dict[str, Body] = {}
        self.attacks: dict[str, Attack] = {}

    # ----- setup -------------------------------------------------------------

    def setup(self) -> None:
        """Check the category and the attacks, load every track (RulesError for someone out of the fight)."""
        mass, d = self.mass, self.d
        if not isinstance(mass.category, Category) or mass.category is Category.VIRTUE:
            raise RulesError("A mass challenge is Physical, Social or Mental.", field="category")
        self.d_card = _attack_card(d.attack, None, self.name, "defender.attack") if d.attack is not None else None
        for index, a in enumerate(mass.attackers):
            self.attacks[a.side.name] = a.attack
            self.bodies[a.side.name] = a.body
        self.bodies[self.name] = d.body
        for index, (name, body) in enumerate(self.bodies.items()):
            where = "defender.body" if name == self.name else f"attackers[{self._index(name)}].body"
            track = track_of(body, self.settings, name, where)
            if not can_fight(track):
                raise RulesError(f"{name} is {track.state().lower() if track.condition == 'active' else track.condition.replace('_', ' ')} "
                                 f"and takes part in no challenge.", field=where)
            self.tracks[name] = track
            self.armor[name] = body.armor_left
        hand = sum(a.range is Range.HAND_TO_HAND for a in mass.attackers)
        ranged = len(mass.attackers) - hand
        self.steps.add(f"{len(mass.attackers)} attack {self.name}: {hand} hand to hand, {ranged} at range "
                       f"(at most {MAX_PER_RANGE} of each).", R_MASS)

    def _index(self, name: str) -> int:
        return next(i for i, a in enumerate(self.mass.attackers) if a.side.name == name)

    def _strength_pair(self, a: Attacker) -> bool:
        return (self.mass.category is Category.PHYSICAL and a.range is Range.HAND_TO_HAND and a.strength
                and self.d.side.lead is Lead.STRENGTH)

    def _pair_lead(self, a: Attacker) -> Lead:
        lead = self.d.side.lead
        if lead is Lead.STRENGTH and not self._strength_pair(a):
            return Lead.OTHER  # no Might, Puissance or strength Bomb against him (002; LotNR Might)
        return lead

    def _bomb(self, a: Attacker, lead: Lead, powers: frozenset[Power]) -> tuple[Lead, Throw | None]:
        """The pair's lead and what the defender's Bomb counts as against ``a`` (002 "Mass Combat")."""
        physical = self.mass.category is Category.PHYSICAL
        if physical and Power.VIGOR in powers and lead is Lead.STRENGTH:
            return lead, Throw.BOMB
        if physical and Power.RAPIDITY in powers:
            return Lead.SPEED, Throw.BOMB  # the speed Bomb applies against everyone
        if physical and Power.VIGOR in powers and self.d.side.lead is Lead.STRENGTH:
            return lead, Throw.PAPER
        return lead, Throw.BOMB  # no Bomb at all: the challenge refuses it

    def _defender_throws_bomb(self, a: Attacker) -> bool:
        if self.d.throw is Throw.BOMB:
            return True
        return any(t.defender_throw is Throw.BOMB for t in a.tests)

    # ----- bids --------------------------------------------------------------

    def pairs(self) -> tuple[list[Challenge], dict[str, Throw | None]]:
        """Each attacker's challenge, with the defender's bids assigned and throws mapped."""
        mass, d = self.mass, self.d
        d_side = _without_rapidity(d.side, d.celerity)
        if self.d_card is not None and d_side.weapon is None:
            d_side = replace(d_side, weapon=self.d_card)
        defender_action = d.attack.action if d.attack is not None else "defend"
        built: list[Challenge] = []
        counts_as: dict[str, Throw | None] = {}
        for index, a in enumerate(mass.attackers):
            where = f"attackers[{index}]"
            name = a.side.name
            card = _attack_card(a.attack, a.range, name, f"{where}.attack")
            side = _without_rapidity(a.side, a.celerity)
            if card is not None and side.weapon is None:
                side = replace(side, weapon=card)
            lead = self._pair_lead(a)
            mapped: Throw | None = None
            if self._defender_throws_bomb(a):
                lead, mapped = self._bomb(a, lead, d_side.powers)
            pair_d = replace(d_side, bid=(), held=(), lost_earlier=(), lead=lead, relent=name in self.relented)
            counts_as[name] = mapped
            built.append(Challenge(category=mass.category, challenger=side, defender=pair_d,
                                   action=a.attack.action, defender_action=defender_action))
        return built, counts_as

    def required(self, built: list[Challenge]) -> list[int]:
        """The Traits the defender must risk in each pair: one (more if Wounded), none when he relents."""
        required: list[int] = []
        for index, ch in enumerate(built):
            try:
                need = bids_required(ch, self.settings)[Outcome.DEFENDER]
            except RulesError as exc:
                raise RulesError(exc.message, field=f"attackers[{index}].{exc.field}" if exc.field else None) \
                    from None
            required.append(need or 0)
        return required

    def assign_bids(self, built: list[Challenge]) -> list[Challenge]:
        """Give each defended pair its share of the defender's bid (002: one Trait per attacker)."""
        d = self.d
        required = self.required(built)
        defended = [i for i, ch in enumerate(built) if not ch.defender.relent]
        total = sum(required)
        bid = [b.strip() if isinstance(b, str) else b for b in d.side.bid]
        if any(not isinstance(b, str) or not b for b in bid):
            raise RulesError(f"{self.name}: a Trait bid has no name.", field="defender.bid")
        potence = bid.count(POTENCE_TRAIT)
        strength_pairs = [i for i in defended if built[i].defender.lead is Lead.STRENGTH]
        intensity = (Power.INTENSITY in d.side.powers and self.mass.category is Category.PHYSICAL
                     and d.side.lead is Lead.STRENGTH and bool(strength_pairs))
        if potence > 1:
            raise RulesError(f"{self.name} may bid {POTENCE_TRAIT} once.", field="defender.bid")
        if potence and not intensity:
            raise RulesError(f"{self.name} may bid {POTENCE_TRAIT} only with Intensity, against an attacker in a "
                             f"strength challenge (LotNR Potence).", field="defender.bid")
        real_need = total - (1 if intensity else 0)
        others = len(self.mass.attackers) - len(defended)
        if real_need > d.side.traits:
            raise RulesError(
                f"{self.name} has {d.side.traits} {self.mass.category.label} Traits left and cannot defend against "
                f"{len(defended)} attackers ({real_need} Traits). Choose whom the target defends against and to whom it "
                f"relents (002 \"Mass Combat\").", field="defender.relents_to")
        if len(bid) != total:
            fewer = " (or one fewer with Intensity, bidding Potence)" if intensity else ""
            raise RulesError(f"{self.name} must bid {total} Traits{fewer}: one per attacker he defends against"
                             + (" (a Wounded defender risks one more in each)" if total > len(defended) else "")
                             + f", not {len(bid)}.", field="defender.bid")
        real = [b for b in bid if b != POTENCE_TRAIT]
        check_bid_names(d.side, real, self.name, "defender.bid")
        self.real_bid = real
        text = f"{self.name} defends against {len(defended)} of {len(built)} attackers and bids {len(bid)} Traits"
        if potence:
            text += f", {POTENCE_TRAIT} among them with Intensity: it is never lost, so he risks {len(real)}"
        self.steps.add(text + (f"; he relents to {others}." if others else "."),
                       R_INTENSITY if potence else R_MASS)
        if potence:
            self.steps.add(f"{POTENCE_TRAIT} stands for his bid against "
                           f"{built[strength_pairs[0]].challenger.name} (a strength challenge).", R_INTENSITY)
        queue = list(real)
        out = []
        for i, ch in enumerate(built):
            if ch.defender.relent:
                out.append(ch)
                continue
            share: list[str] = []
            if potence and i == strength_pairs[0]:
                share.append(POTENCE_TRAIT)
            while len(share) < required[i]:
                share.append(queue.pop(0))
            out.append(replace(ch, defender=replace(ch.defender, bid=tuple(share))))
        return out

    # ----- the ruling --------------------------------------------------------

    def run(self) -> MassRuling:
        """The whole ruling: relented challenges first, then the simultaneous one (module docstring)."""
        _check(self.mass)
        self.setup()
        mass, d, settings = self.mass, self.d, self.settings
        built, counts_as = self.pairs()
        built = self.assign_bids(built)
        hits: list[Hit] = []
        results: dict[str, PairResult] = {}
        lost: dict[str, list[str]] = {}
        spent: dict[str, dict[str, Any]] = {}

        # 1. Relented challenges first (002 "Mass Combat"; LotNR Mob Scene).
        relented = [i for i, ch in enumerate(built) if ch.defender.relent]
        if relented:
            self.steps.add(f"{self.name} relents to {', '.join(built[i].challenger.name for i in relented)}: those "
                           f"challenges are resolved before any others.", R_MASS)
        played = play_pairs([built[i] for i in relented], Outcome.DEFENDER, settings, self.rng,
                            lambda k: f"attackers[{relented[k]}]")
        for k, i in enumerate(relented):
            options, ruling = played[k]
            name = mass.attackers[i].side.name
            results[name] = PairResult(name, mass.attackers[i].range, True, True, ruling.outcome, ruling=ruling,
                                       options=options)
            self._record(ruling, name, lost, spent)
            self.steps.extend(ruling.steps)
        if relented:
            order = self._order([], explain=len(relented) > 1)
            hits += self._apply([(order[built[i].challenger.name], built[i].challenger.name, self.name)
                                 for i in relented])

        # 2. If he survives them, one simultaneous challenge against all the others.
        defended = [i for i, ch in enumerate(built) if not ch.defender.relent]
        if defended and not can_fight(self.tracks[self.name]):
            self.steps.add(f"{self.name} is {self._fallen(self.tracks[self.name])} after the relented challenges: "
                           f"the simultaneous challenge is not made, nor the other attackers' challenges with it.",
                           R_MASS)
            for i in defended:
                a = mass.attackers[i]
                results[a.side.name] = PairResult(a.side.name, a.range, False, False, None)
        elif defended:
            hits += self._simultaneous(built, counts_as, defended, results, lost, spent)
        pairs = tuple(results[a.side.name] for a in mass.attackers)
        traits_lost = {name: tuple(t) for name, t in lost.items() if t}
        return MassRuling(pairs, tuple(hits), dict(self.tracks), traits_lost, spendings(spent),
                          actions_of(d.celerity), self.steps.steps(), self._summary(pairs, hits))

    def _simultaneous(self, built: list[Challenge], counts_as: Mapping[str, Throw | None], defended: list[int],
                      results: dict[str, PairResult], lost: dict[str, list[str]],
                      spent: dict[str, dict[str, Any]]) -> list[Hit]:
        """The one simultaneous challenge: each pair by the normal rules, then the results in order."""
        mass, d, settings = self.mass, self.d, self.settings
        if d.throw is None:
            raise RulesError(f"Choose {self.name}'s sign.", field="defender.throw")
        scripts = []
        for i in defended:
            a, ch = mass.attackers[i], built[i]
            where = f"attackers[{i}]"
            if a.throw is None:
                raise RulesError(f"Choose {a.side.name}'s sign.", field=f"{where}.throw")
            mapped = counts_as[a.side.name]
            later = tuple(replace(t, defender_throw=self._as(t.defender_throw, mapped)) for t in a.tests)
            if later and later[0].call is Call.TEST:
                raise RulesError("The first test is the simultaneous one: later tests are overbids or retests.",
                                 field=f"{where}.tests[0].call")
            scripts.append(replace(ch, tests=(TestCall(Call.TEST, a.throw, self._as(d.throw, mapped)),) + later))
        self.steps.add(f"{self.name} and {len(defended)} attacker(s) engage in one simultaneous challenge: "
                       f"{self.name}'s {d.throw.label} is compared with each attacker's sign, each pair by the normal "
                       f"tie rules, then retests, counted per attacker.", R_MASS)
        for k, i in enumerate(defended):
            a = mass.attackers[i]
            mapped = counts_as[a.side.name]
            if mapped is Throw.PAPER:
                why = "at range" if a.range is Range.RANGED else "hand to hand, but not a challenge of strength"
                self.steps.add(f"{self.name}'s strength Bomb (Vigor) counts as Paper against {a.side.name} ({why}).",
                               R_MASS)
            elif mapped is Throw.BOMB and scripts[k].defender.lead is Lead.SPEED and d.side.lead is not Lead.SPEED:
                self.steps.add(f"{self.name} also has the speed Bomb (Rapidity, Celerity active this round): his Bomb "
                               f"stands against {a.side.name}.", R_MASS)
        where = lambda k: f"attackers[{defended[k]}]"
        first = play_pairs(scripts, Outcome.DEFENDER, settings, self.rng, where)
        losers = [mass.attackers[i].side.name for k, i in enumerate(defended) if first[k][1].outcome is Outcome.DEFENDER]
        injured, injured_text = self._injured(losers)
        final = first
        if d.attack is not None and settings["combat_resolution"] == "simultaneous":
            again = [replace(s, defender_action=s.defender_action if s.challenger.name in injured else "defend")
                     for s in scripts]
            try:
                final = play_pairs(again, Outcome.DEFENDER, settings, self.rng, where)
            except RulesError:
                final = first  # an attacker's Dodge retest needed the declared counter-attack: keep it
        for k, i in enumerate(defended):
            a = mass.attackers[i]
            options, ruling = final[k]
            results[a.side.name] = PairResult(a.side.name, a.range, False, True, ruling.outcome,
                                              ruling.challenger_throw, ruling.defender_throw,
                                              a.side.name in injured, ruling, options)
            self._record(ruling, a.side.name, lost, spent)
            self.steps.extend(ruling.steps)
        self._check_overbids(scripts)
        if injured_text:
            self.steps.add(injured_text, R_MOB)
        events = [(name, self.name) for k, i in enumerate(defended)
                  if final[k][1].outcome is Outcome.CHALLENGER for name in (mass.attackers[i].side.name,)]
        events += [((self.name, n), name) for n, name in enumerate(injured)]
        order = self._order(injured, explain=len(events) > 1)
        return self._apply([(order[key], key if isinstance(key, str) else self.name, target)
                            for key, target in events])

    @staticmethod
    def _as(throw: Throw | None, mapped: Throw | None) -> Throw | None:
        return mapped if throw is Throw.BOMB and mapped is not None else throw

    @staticmethod
    def _fallen(track: HealthTrack) -> str:
        return track.condition.replace("_", " ") if track.condition != "active" else track.state()

    def _record(self, ruling: ChallengeRuling, attacker: str, lost: dict[str, list[str]],
                spent: dict[str, dict[str, Any]]) -> None:
        lost.setdefault(attacker, []).extend(ruling.lost_by(Outcome.CHALLENGER))
        lost.setdefault(self.name, []).extend(t for t in ruling.lost_by(Outcome.DEFENDER) if t != POTENCE_TRAIT)
        add_spending(spent, attacker, ruling, Outcome.CHALLENGER)
        add_spending(spent, self.name, ruling, Outcome.DEFENDER)

    def _check_overbids(self, scripts: Sequence[Challenge]) -> None:
        """The defender's overbid Traits come from what is left after all his bids (one pool)."""
        traits = [t.trait for s in scripts for t in s.tests if t.call is Call.OVERBID and t.by is Outcome.DEFENDER
                  and t.trait]
        if traits:
            check_bid_names(self.d.side, self.real_bid + traits, self.name, "defender.bid")

    def _injured(self, losers: list[str]) -> tuple[list[str], str]:
        """Whom the defender's counter-attack injures (LotNR Mob Scene: one per action, only
        attackers who lost), and the step saying so."""
        d = self.d
        actions = actions_of(d.celerity)
        if d.attack is None:
            if d.injures:
                raise RulesError(f"{self.name} only defends: he injures nobody. Choose his counter-attack first.",
                                 field="defender.injures")
            return [], ""
        if self.settings["combat_resolution"] != "simultaneous":
            if d.injures:
                raise RulesError(f"A counter-attack is its own challenge here "
                                 f"({self.settings.label('combat_resolution')}).", field="defender.injures")
            return [], ""
        for name in d.injures:
            if name not in losers:
                raise RulesError(f"{name} did not lose to {self.name}: he may injure only an attacker who lost "
                                 f"(LotNR Mob Scene).", field="defender.injures")
        if len(d.injures) > actions:
            raise RulesError(f"{self.name} has {actions} action(s) this turn and may injure at most {actions} "
                             f"attacker(s) (LotNR Mob Scene).", field="defender.injures")
        order = self._order([], explain=False)
        ordered = sorted(losers, key=lambda n: order[n])
        chosen = list(d.injures) if d.injures else ordered[:actions]
        if not losers:
            return [], ""
        extra = "" if actions == 1 else f" (he has {actions} actions, Celerity {d.celerity})"
        text = (f"{self.name} beats {', '.join(ordered)} and may injure {min(actions, len(losers))} of them"
                f"{extra}: he injures {', '.join(chosen)}.")
        spared = [n for n in ordered if n not in chosen]
        if spared:
            text += f" {', '.join(spared)} {'is' if len(spared) == 1 else 'are'} not hurt."
        return chosen, text

    def _order(self, injured: Sequence[str], explain: bool) -> dict[Any, tuple[int, int]]:
        """Each result's place in the turn: (position, tie-break), from the order of challenges.

        Keys: an attacker's name for his attack; ``(defender, n)`` for the
        defender's n-th counter-attack (0: his normal action, then Swiftness, Legerity).
        """
        mass, d = self.mass, self.d
        participants = [Participant(self.name, d.side.traits, d.celerity, injured[0] if injured else "")]
        participants += [Participant(a.side.name, a.side.traits, a.celerity, self.name) for a in mass.attackers]
        turn = order_of_actions(participants)
        if explain:
            self.steps.add("The results are applied in the order of challenges; equal positions at the same time, "
                           "and a character who has dropped neither acts nor is hit again.", R_MOB)
            # order.py's note that mass combat has no simultaneous *answer* (002 "Challenges") would only
            # confuse here, where the one simultaneous challenge is 002 "Mass Combat"'s own.
            self.steps.extend(step for step in turn.steps if step.rule != ORDER_MASS)
        listed = {p.name: i for i, p in enumerate(participants)}
        places: dict[Any, tuple[int, int]] = {}
        defender_slots = []
        for slot in turn.slots:
            if slot.actor == self.name:
                if slot.kind in ("pre-empt", "normal", "Swiftness", "Legerity") and (slot.target or slot.kind in (
                        "Swiftness", "Legerity")):
                    defender_slots.append(slot.position)
            elif slot.kind in ("pre-empt", "normal") and slot.actor not in places:
                places[slot.actor] = (slot.position, listed[slot.actor])
        for n, position in enumerate(defender_slots):
            places[(self.name, n)] = (position, 0)
        return places

    def _apply(self, events: list[tuple[tuple[int, int], str, str]]) -> list[Hit]:
        """Apply the hits in order; equal positions are simultaneous (LotNR order of challenges).

        A result by or against someone who dropped before its position is not applied.
        """
        out: list[Hit] = []
        for _position, tier in groupby(sorted(events, key=lambda e: e[0]), key=lambda e: e[0][0]):
            tier = list(tier)
            # A target has dropped once he is unconscious, torpid or dead; an actor must still be able to fight
            # (an Incapacitated character acts no more, LotNR Health).
            standing = {name: track.condition == "active" for name, track in self.tracks.items()}
            acting = {name: can_fight(track) for name, track in self.tracks.items()}
            for _place, by, target in tier:
                attack = self.attacks.get(by) if by != self.name else self.d.attack
                assert attack is not None
                track = self.tracks[target]
                if not standing[target]:
                    out.append(missed_hit(by, attack, target, track,
                                          f"{target} had already dropped ({self._fallen(track)}) when {by}'s result "
                                          f"came: it is not applied."))
                    continue
                if not acting[by]:
                    out.append(missed_hit(by, attack, target, track,
                                          f"{by} was out of the fight ({self._fallen(self.tracks[by])}) before his "
                                          f"action: his hit on {target} is not applied."))
                    continue
                hit, new, armor_left = land_hit(by, attack, target, self.bodies[target], track, self.armor[target],
                                                self.settings, self.rng)
                self.tracks[target] = new
                self.armor[target] = armor_left
                out.append(hit)
        for hit in out:
            self.steps.extend(hit.steps)
        return out

    def _summary(self, pairs: Sequence[PairResult], hits: Sequence[Hit]) -> str:
        parts = []
        for p in pairs:
            if not p.made:
                parts.append(f"{p.attacker}: not made")
            elif p.relented:
                parts.append(f"{p.attacker}: relented to")
            elif p.outcome is Outcome.CHALLENGER:
                parts.append(f"{p.attacker} wins")
            elif p.outcome is Outcome.DEFENDER:
                parts.append(f"{p.attacker} loses" + (" and is hurt" if p.injured else ""))
            else:
                parts.append(f"{p.attacker}: draw")
        track = self.tracks[self.name]
        landed = sum(1 for h in hits if h.applied and h.target == self.name)
        times = {1: "once", 2: "twice"}.get(landed, f"{landed} times")
        end = f"{self.name} is hit {times} and is {self._fallen(track)}" if landed else f"{self.name} is not hit"
        return f"{self.name} against {len(pairs)}: " + "; ".join(parts) + f". {end}."


def rule_mass_challenge(mass: MassChallenge, settings: ChronicleSettings | None = None,
                        rng: RandomSource | None = None) -> MassRuling:
    """Rule on a mass challenge and apply its results in order (rules in the module docstring).

    Each attacker's pair is a normal challenge (:func:`larp.rules.challenge.play_challenge`):
    the attacker challenges, the defender defends with his share of the bid
    and the one sign he threw, and the pair's own overbids and retests follow.

    Args:
        mass: the defender, the attackers and their scripts.
        settings: the chronicle's settings (defaults if ``None``): the challenge
            and damage settings apply as usual (``combat_resolution`` decides
            whether the defender's win can injure).
        rng: a random source for the damage rules' simple tests (High-Caliber).

    Returns:
        The ruling: each pair, the hits in the order applied (and those not
        applied), the health tracks afterwards, Traits lost and resources spent.

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field: a sixth
            attacker hand to hand or at range, an attacker twice, the target as
            an attacker, the wrong number of Traits bid, too few Traits without
            relenting, a Bomb the defender does not have, injuring a winner or
            more attackers than he has actions, a pair's illegal retest...
    """
    return _Mass(mass, settings or ChronicleSettings.defaults(), rng).run()


def defender_bid_count(mass: MassChallenge, settings: ChronicleSettings | None = None) -> int:
    """How many Traits the defender must bid (the ``Potence`` pseudo-Trait counts as one):
    one per attacker he does not relent to, more in each pair if he is Wounded (002 "Mass
    Combat"; LotNR Health). The narrator's screen uses it to pick his Traits.

    Raises:
        RulesError: a mass challenge the rules refuse before any bid (a sixth attacker...).
    """
    run = _Mass(mass, settings or ChronicleSettings.defaults(), None)
    _check(mass)
    run.setup()
    built, _ = run.pairs()
    return sum(run.required(built))


