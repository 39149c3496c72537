"""Rules on a mass challenge (:func:`play_mass_challenge`, :func:`defender_bid_count`):
relented challenges first, then the one simultaneous challenge, each pair judged in the
order of challenges on the defender as he stands after the results before it, and the
results applied in that order (002 "Mass Combat"; LotNR Mob Scene, met-reference 3.2).
The pairs and the defender's bids are :mod:`.bids`. Part of :mod:`larp.rules.mass_challenge`.

In order: the defender throws one sign against every attacker at once, but the Traits
he loses to one attacker and the wounds one attacker's hit gives him count against the
attackers whose results come after (LotNR order of challenges: the higher Trait count
first, pre-empts before, equal counts at the same time). A defender with 10 Traits who
lost 2 to the first two attackers and is Bruised counts 10 - 2 - 1 = 7 on the third
pair's tie; one whom the earlier hits made Wounded risks one more Trait in the later
pairs. The relented challenges come first of all (LotNR "The Mob Scene"), so a wound from a
relented blow counts in every tie after it: a defender with 5 Traits whom a relented ax left
Bruised counts 4 on the ties of the simultaneous challenge. Once he drops (Incapacitated,
unconscious, torpor), the pairs left are judged on him as he last stood, and their hits are
not applied.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import groupby
from typing import Any

from larp.rules.challenge import (
    POTENCE_TRAIT,
    Call,
    Challenge,
    ChallengeOptions,
    ChallengeRuling,
    Health,
    Lead,
    Outcome,
    RandomSource,
    TestCall,
    Throw,
    bids_required,
)
from larp.rules.damage import weapon as armory_weapon
from larp.rules.explain import N_, Phrase, RulesError, Step, plural
from larp.rules.explain import times as times_said
from larp.rules.health import HealthTrack
from larp.rules.hits import Attack, Hit, armor_key, can_fight, damage_as_dealt, land_hit
from larp.rules.mass_challenge.bids import _check, _Pairs
from larp.rules.mass_challenge.types import R_MASS, R_MOB, MassChallenge, MassRuling, PairResult, Range
from larp.rules.order import LEGERITY, SWIFTNESS, Participant, order_of_actions
from larp.rules.order import R_MASS as ORDER_MASS
from larp.rules.pairs import Shared, add_spending, check_bid_names, play_pair, spendings
from larp.rules.settings import ChronicleSettings

R_IN_ORDER = '002 "Mass Combat"; LotNR Mob Scene and order of challenges (met-reference 3.1, 3.2)'
R_NO_TRAIT = "LotNR Negative Traits: no Trait left to risk loses (met-reference 1.4)"
#: Wound levels from least to most hurt, for "the worse of" two.
_SEVERITY = {Health.HEALTHY: 0, Health.BRUISED: 1, Health.WOUNDED: 2, Health.INCAPACITATED: 3}


def actions_of(celerity: int) -> int:
    """A character's actions this turn: one, plus one each for Swiftness (Celerity 2)
    and Legerity (Celerity 4) when Celerity is active (LotNR Celerity, met-reference 3.3)."""
    return 1 + (celerity >= SWIFTNESS) + (celerity >= LEGERITY)


def missed_hit(by: str, attack: Attack, target: str, track: HealthTrack, note: str) -> Hit:
    """A result that is not applied (``note`` says why, a :class:`Phrase` or a sentence), for the record."""
    name = armory_weapon(attack.weapon, "live").name if attack.action == "weapon" and attack.weapon else None
    said = note.data() if isinstance(note, Phrase) else None
    return Hit(by, target, attack.action, name, "", 0, (), False, track.condition, track.state(), note,
               (Step(str(note), R_MOB, None, said),))


def _wound(track: HealthTrack) -> Health:
    level = track.state().lower()
    if track.incapacitated or track.below_incapacitated:
        return Health.INCAPACITATED
    return {"bruised": Health.BRUISED, "wounded": Health.WOUNDED}.get(level, Health.HEALTHY)


class _Mass(_Pairs):
    """Rules on one mass challenge (internal; see :func:`play_mass_challenge`)."""

    def __init__(self, mass: MassChallenge, settings: ChronicleSettings, rng: RandomSource | None):
        super().__init__(mass, settings, rng)
        self.results: dict[str, PairResult] = {}
        self.lost: dict[str, list[str]] = {}
        self.spent: dict[str, dict[str, Any]] = {}
        self.shared = Shared(Outcome.DEFENDER)
        self.pending: list[str] = []
        self.extras: list[str] = []
        self.history: list[tuple[int, HealthTrack]] = []
        self.armor_used: dict[str, tuple[str, int]] = {}
        self.before: HealthTrack | None = None

    # ----- the ruling --------------------------------------------------------

    def run(self) -> MassRuling:
        """The whole ruling: relented challenges first, then the others in order (module docstring)."""
        _check(self.mass, self.settings)
        self.setup()
        self.before = self.tracks[self.name]  # his track as he came into the mass challenge
        mass, d = self.mass, self.d
        built, counts_as = self.pairs()
        built = self.assign_bids(built)
        hits: list[Hit] = []

        # 1. Relented challenges first (002 "Mass Combat"; LotNR Mob Scene): his wounds from them count after.
        relented = [i for i, ch in enumerate(built) if ch.defender.relent]
        if relented:
            self.steps.add(N_("%(name)s relents to %(names)s: those challenges are resolved before any others."),
                           R_MASS, name=self.name, names=[built[i].challenger.name for i in relented])
        for i in relented:
            played, options, ruling = play_pair(built[i], self.shared, self.settings, self.rng, f"attackers[{i}]")
            name = mass.attackers[i].side.name
            self.results[name] = PairResult(name, mass.attackers[i].range, True, True, ruling.outcome,
                                            ruling=ruling, options=options)
            self._record(ruling, name)
            self.steps.extend(ruling.steps)
        if relented:
            order = self._order([], explain=len(relented) > 1)
            hits += self._apply([(order[built[i].challenger.name], built[i].challenger.name, self.name)
                                 for i in relented])

        # 2. If he survives them, one simultaneous challenge against all the others, judged in order.
        defended = [i for i, ch in enumerate(built) if not ch.defender.relent]
        if defended and not can_fight(self.tracks[self.name]):
            self.steps.add(N_("%(name)s is %(level)s after the relented challenges: the simultaneous challenge is "
                              "not made, nor the other attackers' challenges with it."), R_MASS, name=self.name,
                           level=self._fallen(self.tracks[self.name]))
            for i in defended:
                a = mass.attackers[i]
                self.results[a.side.name] = PairResult(a.side.name, a.range, False, False, None)
        elif defended:
            hits += self._in_order(built, counts_as, defended)
        pairs = tuple(self._as_dealt(self.results[a.side.name], hits) for a in mass.attackers)
        traits_lost = {name: tuple(t) for name, t in self.lost.items() if t}
        return MassRuling(pairs=pairs, hits=tuple(hits), tracks=dict(self.tracks), traits_lost=traits_lost,
                          spent=spendings(self.spent), actions=actions_of(d.celerity), steps=self.steps.steps(),
                          summary=self._summary(pairs, hits), pending=tuple(self.pending),
                          armor_left=dict(self.armor_used))

    def _as_dealt(self, pair: PairResult, hits: Sequence[Hit]) -> PairResult:
        """The pair with its ruling's damage as the hits dealt it (the card with its additions;
        :func:`larp.rules.hits.damage_as_dealt`): the attacker's hit on the defender, the defender's
        counter-attack on him."""
        if pair.ruling is None:
            return pair
        dealt = {}
        for hit in hits:
            if hit.by == pair.attacker and hit.target == self.name:
                dealt[Outcome.DEFENDER] = hit
            elif hit.by == self.name and hit.target == pair.attacker:
                dealt[Outcome.CHALLENGER] = hit
        return replace(pair, ruling=damage_as_dealt(pair.ruling, dealt))

    def _scripts(self, built: list[Challenge], counts_as: Mapping[str, Throw | None],
                 defended: list[int]) -> dict[int, Challenge]:
        """Each defended pair with its first test (the one simultaneous throw) and its later tests."""
        mass, d = self.mass, self.d
        if d.throw is None:
            raise RulesError(Phrase.message(N_("Choose %(name)s's sign."), name=self.name), field="defender.throw")
        scripts = {}
        for i in defended:
            a, ch = mass.attackers[i], built[i]
            where = f"attackers[{i}]"
            if a.throw is None:
                raise RulesError(Phrase.message(N_("Choose %(name)s's sign."), name=a.side.name),
                                 field=f"{where}.throw")
            mapped = counts_as[a.side.name]
            later = tuple(replace(t, defender_throw=self._as(t.defender_throw, mapped)) for t in a.tests)
            if later and later[0].call is Call.TEST:
                raise RulesError(Phrase.message(N_("The first test is the simultaneous one: later tests are "
                                                   "overbids or retests.")),
                                 field=f"{where}.tests[0].call")
            scripts[i] = replace(ch, tests=(TestCall(Call.TEST, a.throw, self._as(d.throw, mapped)),) + later)
        self.steps.add(N_("%(name)s and %(attackers)s engage in one simultaneous challenge: %(name)s's %(sign)s is "
                          "compared with each attacker's sign, each pair by the normal tie rules, then retests, "
                          "counted per attacker."), R_MASS, name=self.name, sign=Phrase.term(d.throw.label),
                       attackers=Phrase.counted(len(defended), "%(n)s attacker", "%(n)s attackers"))
        for i in defended:
            a = mass.attackers[i]
            mapped = counts_as[a.side.name]
            if mapped is Throw.PAPER:
                why = Phrase.message(N_("at range") if a.range is Range.RANGED
                                     else N_("hand to hand, but not a challenge of strength"))
                self.steps.add(N_("%(name)s's strength Bomb (Vigor) counts as Paper against %(attacker)s (%(why)s)."),
                               R_MASS, name=self.name, attacker=a.side.name, why=why)
            elif mapped is Throw.BOMB and scripts[i].defender.lead is Lead.SPEED and d.side.lead is not Lead.SPEED:
                self.steps.add(N_("%(name)s also has the speed Bomb (Rapidity, Celerity active this round): "
                                  "%(name)s's Bomb stands against %(attacker)s."), R_MASS, name=self.name,
                               attacker=a.side.name)
        return scripts

    def _in_order(self, built: list[Challenge], counts_as: Mapping[str, Throw | None],
                  defended: list[int]) -> list[Hit]:
        """The simultaneous challenge: each pair judged in the order of challenges on the defender as
        the results before it left him, its hit applied in turn; then his counter-attacks."""
        mass, d, settings = self.mass, self.d, self.settings
        scripts = self._scripts(built, counts_as, defended)
        aimed = [mass.attackers[defended[0]].side.name] if d.attack is not None else []
        order = self._order(aimed, explain=len(defended) > 1)
        if len(defended) > 1:
            self.steps.add(N_("Each pair is judged in that order, on %(name)s as the results before it left "
                              "%(name)s: the Traits lost and the wounds taken count in the later pairs' ties and "
                              "bids."), R_IN_ORDER, name=self.name)
        by_position = sorted(defended, key=lambda i: order[mass.attackers[i].side.name])
        # The wounds of every result before a pair count in it, the relented hits first of all (002 "Mass
        # Combat"; LotNR "The Mob Scene"): compare with his track as he came in, not as the relented hits left it.
        start_track = self.tracks[self.name]
        came_in = self.before
        judged_traits, judged_health = d.side.traits, d.side.health
        lost_so_far = 0
        played: dict[int, Challenge] = {}
        first: dict[int, tuple[ChallengeOptions, ChallengeRuling | None]] = {}
        blocks: list[tuple[list[int], list[Hit]]] = []
        dropped_told = False
        hits: list[Hit] = []
        self.history = [(-10**6, start_track)]
        for position, group in groupby(by_position, key=lambda i: order[mass.attackers[i].side.name][0]):
            tier = list(group)
            track = self.tracks[self.name]
            if can_fight(track):
                judged_traits = max(d.side.traits - lost_so_far, 0)
                if track != came_in:
                    now = _wound(track)
                    judged_health = now if _SEVERITY[now] > _SEVERITY[d.side.health] else d.side.health
            elif not dropped_told:
                dropped_told = True
                self.steps.add(N_("%(name)s has dropped (%(level)s): the pairs left are judged on %(name)s as last "
                                  "standing, and their hits are not applied."), R_MOB, name=self.name,
                               level=self._fallen(track))
            events = []
            tier_lost = 0
            for i in tier:
                a = mass.attackers[i]
                pair = self._pair_now(scripts[i], i, judged_traits, judged_health)
                challenge, options, ruling = play_pair(pair, self.shared, settings, self.rng, f"attackers[{i}]")
                played[i] = challenge
                first[i] = (options, ruling)
                if ruling is None:
                    self.pending.append(a.side.name)
                    self.steps.add(N_("In %(name)s's pair, the winner is in total darkness: the forced retest is due."),
                                   '002 "Darkness"', name=a.side.name)
                    continue
                tier_lost += sum(1 for t in ruling.lost_by(Outcome.DEFENDER) if t != POTENCE_TRAIT)
                if ruling.outcome is Outcome.CHALLENGER:
                    events.append((order[a.side.name], a.side.name, self.name))
            lost_so_far += tier_lost
            tier_hits = self._apply(events, explain=False)
            self.history.append((position, self.tracks[self.name]))
            blocks.append((tier, tier_hits))
            hits += tier_hits
        losers = [mass.attackers[i].side.name for i in by_position
                  if first[i][1] is not None and first[i][1].outcome is Outcome.DEFENDER]
        injured, injured_text = self._injured(losers)
        final = dict(first)
        if d.attack is not None and settings["combat_resolution"] == "simultaneous":
            again = Shared(Outcome.DEFENDER)
            try:
                for i in by_position:
                    pair = played[i]
                    pair = replace(pair, defender=replace(pair.defender, abilities=dict(scripts[i].defender.abilities),
                                                          merits=dict(scripts[i].defender.merits),
                                                          willpower=scripts[i].defender.willpower))
                    action = pair.defender_action if pair.challenger.name in injured else "defend"
                    _c, options, ruling = play_pair(replace(pair, defender_action=action), again, settings,
                                                    self.rng, f"attackers[{i}]")
                    final[i] = (options, ruling)
            except RulesError:
                final = dict(first)  # an attacker's Dodge retest needed the declared counter-attack: keep it
        for i in defended:  # the losses in the attackers' order, the explanation in the order of challenges
            a = mass.attackers[i]
            options, ruling = final[i]
            if ruling is None:
                self.results[a.side.name] = PairResult(a.side.name, a.range, False, True, None, a.throw,
                                                       self._as(d.throw, counts_as[a.side.name]), False, None, options)
                continue
            self.results[a.side.name] = PairResult(a.side.name, a.range, False, True, ruling.outcome,
                                                   ruling.challenger_throw, ruling.defender_throw,
                                                   a.side.name in injured, ruling, options)
            self._record(ruling, a.side.name)
        for tier, tier_hits in blocks:
            for i in tier:
                ruling = final[i][1]
                if ruling is None:
                    winner = mass.attackers[i].side.name if final[i][0].forced_retest is Outcome.CHALLENGER \
                        else self.name
                    self.steps.add(N_("%(name)s won in total darkness in %(attacker)s's pair: the forced retest is "
                                      "due before that pair is decided."), '002 "Darkness"', name=winner,
                                   attacker=mass.attackers[i].side.name)
                else:
                    self.steps.extend(ruling.steps)
            for hit in tier_hits:
                self.steps.extend(hit.steps)
        self._check_overbids(list(played.values()))
        if injured_text:
            self.steps.add(injured_text, R_MOB)
        if injured:
            order = self._order(injured, explain=False)
            counters = self._apply([(order[(self.name, n)], self.name, name) for n, name in enumerate(injured)])
            hits += counters
        return hits

    def _pair_now(self, script: Challenge, index: int, traits: int, health: Health) -> Challenge:
        """The pair as judged now: the defender's Traits left and wound level after the results before
        it, and one more Trait risked for each the wounds now require (LotNR Health, met-reference 4.1)."""
        con = replace(script.defender, traits=traits, health=health)
        pair = replace(script, defender=con)
        if con.relent:
            return pair
        try:
            need = bids_required(replace(pair, tests=()), self.settings)[Outcome.DEFENDER] or 0
        except RulesError as exc:
            raise RulesError(exc.message, field=f"attackers[{index}].{exc.field}" if exc.field else None) from None
        more = need - len(con.bid)
        if more <= 0:
            return pair
        extra = self._extra_traits(more)
        attacker = script.challenger.name
        if extra is None:
            self.steps.add(N_("%(name)s is now %(level)s and has no Trait left to risk against %(attacker)s: "
                              "%(name)s loses that challenge."), R_NO_TRAIT, name=self.name, attacker=attacker,
                           level=Phrase.term(health.value.capitalize()))
            return replace(pair, defender=replace(con, relent=True, bid=()), tests=())
        self.steps.add(N_("%(name)s is now %(level)s and risks one more Trait against %(attacker)s: %(traits)s."),
                       "LotNR Health (met-reference 4.1)", name=self.name, attacker=attacker,
                       level=Phrase.term(health.value.capitalize()),
                       traits=[Phrase.message(N_("(extra Trait)")) if t == "(extra Trait)" else t for t in extra])
        return replace(pair, defender=replace(con, bid=con.bid + tuple(extra)))

    def _extra_traits(self, count: int) -> list[str] | None:
        """Traits the defender has not bid yet, most held first; ``None`` if he has too few left."""
        side = self.d.side
        if side.held or side.lost_earlier:
            free = Counter(side.held) - Counter(side.lost_earlier) - Counter(self.real_bid) - Counter(self.extras)
            names = [n for n, _c in sorted(free.items(), key=lambda item: (-item[1], item[0])) for _ in range(_c)]
        else:
            spare = side.traits - len(self.real_bid) - len(self.extras)
            names = ["(extra Trait)"] * max(spare, 0)
        if len(names) < count:
            return None
        self.extras += names[:count]
        return names[:count]

    @staticmethod
    def _as(throw: Throw | None, mapped: Throw | None) -> Throw | None:
        return mapped if throw is Throw.BOMB and mapped is not None else throw

    @staticmethod
    def _fallen(track: HealthTrack) -> Phrase:
        return Phrase.term(track.condition.replace("_", " ") if track.condition != "active" else track.state())

    def _record(self, ruling: ChallengeRuling, attacker: str) -> None:
        self.lost.setdefault(attacker, []).extend(ruling.lost_by(Outcome.CHALLENGER))
        self.lost.setdefault(self.name, []).extend(t for t in ruling.lost_by(Outcome.DEFENDER) if t != POTENCE_TRAIT)
        add_spending(self.spent, attacker, ruling, Outcome.CHALLENGER)
        add_spending(self.spent, self.name, ruling, Outcome.DEFENDER)

    def _check_overbids(self, scripts: Sequence[Challenge]) -> None:
        """The defender's overbid Traits come from what is left after all his bids (one pool)."""
        traits = [t.trait for s in scripts for t in s.tests if t.call is Call.OVERBID and t.by is Outcome.DEFENDER
                  and t.trait]
        if traits:
            check_bid_names(self.d.side, self.real_bid + self.extras + traits, self.name, "defender.bid")

    def _injured(self, losers: list[str]) -> tuple[list[str], Phrase | str]:
        """Whom the defender's counter-attack injures (LotNR Mob Scene: one per action, only
        attackers who lost), and the step saying so."""
        d = self.d
        actions = actions_of(d.celerity)
        if d.attack is None:
            if d.injures:
                raise RulesError(Phrase.message(N_("%(name)s only defends and injures nobody. Choose the "
                                                   "counter-attack first."), name=self.name),
                                 field="defender.injures")
            return [], ""
        if self.settings["combat_resolution"] != "simultaneous":
            if d.injures:
                raise RulesError(Phrase.message(N_("A counter-attack is its own challenge here (%(value)s)."),
                                                value=self.settings.label('combat_resolution')),
                                 field="defender.injures")
            return [], ""
        for name in d.injures:
            if name not in losers:
                raise RulesError(Phrase.message(N_("%(name)s did not lose to %(name2)s, who may injure only an "
                                                   "attacker who lost (LotNR Mob Scene)."),
                                                name=name, name2=self.name), field="defender.injures")
        if len(d.injures) > actions:
            raise RulesError(Phrase.message(N_("%(name)s has %(actions)s this turn and may injure at most %(attackers)s "
                                               "(LotNR Mob Scene)."), name=self.name,
                                            actions=Phrase.counted(actions, "%(n)s action", "%(n)s actions"),
                                            attackers=Phrase.counted(actions, "%(n)s attacker", "%(n)s attackers")),
                             field="defender.injures")
        order = self._order([], explain=False)
        ordered = sorted(losers, key=lambda n: order[n])
        chosen = list(d.injures) if d.injures else ordered[:actions]
        if not losers:
            return [], ""
        said = dict(name=self.name, losers=ordered, n=min(actions, len(losers)), chosen=chosen)
        if actions == 1:
            text = Phrase.message(N_("%(name)s beats %(losers)s and may injure %(n)s of them: %(name)s injures "
                                     "%(chosen)s."), **said)
        else:
            text = Phrase.message(N_("%(name)s beats %(losers)s and may injure %(n)s of them (%(actions)s actions, "
                                     "Celerity %(celerity)s): %(name)s injures %(chosen)s."),
                                  actions=actions, celerity=d.celerity, **said)
        spared = [n for n in ordered if n not in chosen]
        if spared:
            hurt = Phrase.message(N_("%(names)s is not hurt.") if len(spared) == 1 else N_("%(names)s are not hurt."),
                                  names=spared)
            text = Phrase.message(N_("%(first)s %(second)s"), first=text, second=hurt)
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
            self.steps.add(N_("The results are applied in the order of challenges; equal positions at the same time, "
                              "and a character who has dropped neither acts nor is hit again."), R_MOB)
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

    def _defender_at(self, position: int) -> HealthTrack:
        """The defender's track at the start of ``position`` (after every earlier result)."""
        track = self.history[0][1] if self.history else self.tracks[self.name]
        for at, after in self.history:
            if at < position:
                track = after
        return track

    def _apply(self, events: list[tuple[tuple[int, int], str, str]], explain: bool = True) -> list[Hit]:
        """Apply the hits in order; equal positions are simultaneous (LotNR order of challenges).

        A result by or against someone who dropped before its position is not applied.
        """
        out: list[Hit] = []
        for position, tier in groupby(sorted(events, key=lambda e: e[0]), key=lambda e: e[0][0]):
            tier = list(tier)
            # A target has dropped once he is unconscious, torpid or dead; an actor must still be able to fight
            # (an Incapacitated character acts no more, LotNR Health).
            standing = {name: track.condition == "active" for name, track in self.tracks.items()}
            acting = {name: can_fight(track) for name, track in self.tracks.items()}
            if self.history:
                acting[self.name] = can_fight(self._defender_at(position))
            for _place, by, target in tier:
                attack = self.attacks.get(by) if by != self.name else self.d.attack
                assert attack is not None
                track = self.tracks[target]
                if not standing[target]:
                    out.append(missed_hit(by, attack, target, track, Phrase.message(
                        N_("%(target)s had already dropped (%(level)s) when %(name)s's result came: it is not applied."),
                        target=target, level=self._fallen(track), name=by)))
                    continue
                if not acting[by]:
                    fallen = self._defender_at(position) if by == self.name and self.history else self.tracks[by]
                    out.append(missed_hit(by, attack, target, track, Phrase.message(
                        N_("%(name)s was out of the fight (%(level)s) before acting: the hit on %(target)s is not "
                           "applied."), name=by, level=self._fallen(fallen), target=target)))
                    continue
                hit, new, armor_left = land_hit(by, attack, target, self.bodies[target], track, self.armor[target],
                                                self.settings, self.rng)
                self.tracks[target] = new
                self.armor[target] = armor_left
                if armor_left is not None and self.bodies[target].armor:
                    self.armor_used[target] = (armor_key(self.bodies[target].armor), armor_left)
                out.append(hit)
        if explain:
            for hit in out:
                self.steps.extend(hit.steps)
        return out

    def _summary(self, pairs: Sequence[PairResult], hits: Sequence[Hit]) -> Phrase:
        parts = []
        for p in pairs:
            if not p.made:
                part = N_("%(name)s: not made")
            elif p.relented:
                part = N_("%(name)s: relented to")
            elif p.outcome is None:
                part = N_("%(name)s: forced retest due")
            elif p.outcome is Outcome.CHALLENGER:
                part = N_("%(name)s wins")
            elif p.outcome is Outcome.DEFENDER:
                part = N_("%(name)s loses and is hurt") if p.injured else N_("%(name)s loses")
            else:
                part = N_("%(name)s: draw")
            parts.append(Phrase.message(part, name=p.attacker))
        joined = parts[0]
        for part in parts[1:]:
            joined = Phrase.message(N_("%(first)s; %(second)s"), first=joined, second=part)
        track = self.tracks[self.name]
        landed = sum(1 for h in hits if h.applied and h.target == self.name)
        if landed:
            end = Phrase.message(N_("%(name)s is hit %(times)s and is %(level)s"), name=self.name,
                                 times=times_said(landed), level=self._fallen(track))
        else:
            end = Phrase.message(N_("%(name)s is not hit"), name=self.name)
        return Phrase.message(N_("%(name)s against %(n)s: %(parts)s. %(end)s."), name=self.name, n=len(pairs),
                              parts=joined, end=end)


def play_mass_challenge(mass: MassChallenge, settings: ChronicleSettings | None = None,
                        rng: RandomSource | None = None) -> MassRuling:
    """Rule on a mass challenge and apply its results in order (rules in the module docstring).

    Each attacker's pair is a normal challenge (:func:`larp.rules.challenge.play_challenge`):
    the attacker challenges, the defender defends with his share of the bid
    and the one sign he threw, and the pair's own overbids and retests follow.
    The pairs are judged in the order of challenges, each on the defender as the
    results before it left him (Traits lost, wound level), relented ones first.

    Args:
        mass: the defender, the attackers and their scripts.
        settings: the chronicle's settings (defaults if ``None``): the challenge
            and damage settings apply as usual (``combat_resolution`` decides
            whether the defender's win can injure).
        rng: a random source for the damage rules' simple tests (High-Caliber).

    Returns:
        The ruling: each pair, the hits in the order applied (and those not
        applied), the health tracks afterwards, Traits lost and resources spent;
        ``pending`` names the pairs whose forced darkness retest is still due.

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
    _check(mass, run.settings)
    run.setup()
    built, _ = run.pairs()
    return sum(run.required(built))
