"""Rules on a missed shot into a group (:func:`play_shot_into_group`, :func:`firer_bid_count`):
the avoiding options, then a test per bystander closest first or one mass challenge
(002 "Firing Guns into Groups of People"; Spray, met-reference 6.2). Part of
:mod:`larp.rules.firing_into_groups`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from larp.rules.challenge import (
    Call,
    Challenge,
    ChallengeRuling,
    Contestant,
    Outcome,
    RandomSource,
    TestCall,
    bids_required,
    parse_source,
)
from larp.rules.damage import weapon as armory_weapon
from larp.rules.explain import N_, Explanation, Phrase, RulesError, plural
from larp.rules.firing_into_groups.types import (R_GROUPS, R_SPRAY, Bystander, BystanderResult, Fire, ShotIntoGroup,
                                                 ShotIntoGroupRuling, fire_of, spray_limits, stray_spray_at_any_range)
from larp.rules.health import HealthTrack
from larp.rules.mass_challenge import (
    Attack,
    Hit,
    add_spending,
    check_bid_names,
    land_hit,
    spendings,
    track_of,
    weapon_card,
)
from larp.rules.hits import armor_key, damage_as_dealt
from larp.rules.pairs import Shared, member_name, party_name, play_pair
from larp.rules.settings import ChronicleSettings


class _ShotIntoGroup:
    """Rules on one missed shot (internal; see :func:`play_shot_into_group`)."""

    def __init__(self, shot: ShotIntoGroup, settings: ChronicleSettings, rng: RandomSource | None):
        self.shot, self.settings, self.rng = shot, settings, rng
        self.steps = Explanation()
        self.tracks: dict[str, HealthTrack] = {}
        self.lost: dict[str, list[str]] = {}
        self.spent: dict[str, dict[str, Any]] = {}
        self.armor_left: dict[str, tuple[str, int]] = {}
        self.pending: list[str] = []

    def check(self) -> None:
        """Validate the shot before any test (RulesError naming the field), and note how it fires."""
        shot = self.shot
        if not isinstance(shot.firer, Contestant):
            raise RulesError(Phrase.message(N_("Give the firer.")), field="firer")
        self.firer = party_name(shot.firer, "firer", N_("The firer needs a name."))
        if not isinstance(shot.weapon, str) or not shot.weapon:
            raise RulesError(Phrase.message(N_("Choose the gun that fired.")), field="weapon")
        try:
            card = armory_weapon(shot.weapon, "live")
        except RulesError:
            raise RulesError(Phrase.message(N_("There is no weapon %(weapon)s in the armory."),
                                            weapon=repr(shot.weapon)), field="weapon") from None
        if card.melee:
            raise RulesError(Phrase.message(N_("A %(name)s is not fired: choose a gun."), name=card.name),
                             field="weapon")
        self.card = card
        target = shot.target.strip() if isinstance(shot.target, str) else ""
        if not target:
            raise RulesError(Phrase.message(N_("Name the target the shot missed.")), field="target")
        if target == self.firer:
            raise RulesError(Phrase.message(N_("%(firer)s fired the shot and cannot be its target."),
                                            firer=self.firer), field="target")
        if not shot.bystanders:
            raise RulesError(Phrase.message(N_("Add the people near the target, closest first.")), field="bystanders")
        seen: set[str] = set()
        for index, b in enumerate(shot.bystanders):
            where = f"bystanders[{index}]"
            if not isinstance(b, Bystander) or not isinstance(b.side, Contestant):
                raise RulesError(Phrase.message(N_("Give the bystander.")), field=where)
            name = member_name(b.side, where, N_("Each bystander needs a name."),
                               target, N_("%(name)s is the target, not a bystander."),
                               seen, N_("%(name)s is already listed as a bystander."))
            if name == self.firer:  # never in ``seen``: he is refused here before he could be added
                raise RulesError(Phrase.message(N_("%(name)s fired the shot and cannot be a bystander to it."),
                                                name=name), field=f"{where}.name")
            seen.add(name)
            self.tracks[name] = track_of(b.body, self.settings, name, f"{where}.body")
        if not isinstance(shot.deliberate_spray, bool):
            raise RulesError(Phrase.message(N_("Say whether the firer sprays the group on purpose: true or false.")),
                             field="deliberate_spray")
        if shot.deliberate_spray and not card.has("Spray"):
            raise RulesError(Phrase.message(N_("A %(name)s has no Spray: only a shotgun or an automatic weapon "
                                               "sprays a group (met-reference 6.2)."), name=card.name),
                             field="deliberate_spray")
        self.fire = fire_of(shot.weapon, shot.bursts, shot.range, self.settings, shot.deliberate_spray)
        self.target = target
        single = self.fire is Fire.SINGLE
        if not single and (shot.careful_aim or shot.extra_traits or shot.excluded):
            what = N_("a shotgun's spread") if not (card.has("Full-Auto") or card.has("Burst")) else N_("bursts")
            field = "careful_aim" if shot.careful_aim else ("excluded" if shot.excluded else "extra_traits")
            raise RulesError(Phrase.message(N_("Extra Traits and careful aim avoid bystanders only when firing one "
                                               "shot at a time, not with %(what)s (002)."), what=Phrase.message(what)),
                             field=field)
        if shot.careful_aim and (shot.extra_traits or shot.excluded):
            raise RulesError(Phrase.message(N_("Careful aim already keeps every bystander safe: no extra Traits "
                                               "are bid with it.")),
                             field="extra_traits")
        excluded: set[str] = set()
        for name in shot.excluded:
            if name not in seen:
                raise RulesError(Phrase.message(N_("%(name)s is not among the people near the target: only they "
                                                   "can be excluded."), name=name),
                                 field="excluded")
            if name in excluded:
                raise RulesError(Phrase.message(N_("%(name)s is excluded twice."), name=name), field="excluded")
            excluded.add(name)
        extra = list(shot.extra_traits)
        if len(extra) > len(shot.bystanders):
            raise RulesError(Phrase.message(N_("%(value)s people are near the target: at most %(value)s extra "
                                               "Traits avoid them all."), value=len(shot.bystanders)),
                             field="extra_traits")
        all_of_them = len(extra) == len(shot.bystanders) and len(extra) > 0
        if not all_of_them and len(extra) != len(excluded):
            raise RulesError(Phrase.message(N_("Each extra Trait excludes one bystander: %(extra)s bid, %(excluded)s "
                                               "named."),
                                            extra=Phrase.counted(len(extra), "%(n)s extra Trait", "%(n)s extra Traits"),
                                            excluded=Phrase.counted(len(excluded), "%(n)s bystander", "%(n)s bystanders")),
                             field="excluded")
        if all_of_them:
            excluded = set(seen)
        check_bid_names(shot.firer, extra, self.firer, "extra_traits")
        self.excluded = excluded

    def reach(self) -> int:
        """How many of the people near the target a mass challenge reaches: a Spray's number at
        most (its card, or Dark Epics' three: setting ``spray_limits``; met-reference 6.2),
        everyone otherwise."""
        people = len(self.shot.bystanders)
        if not self.card.has("Spray"):
            return people
        return min(people, spray_limits(self.shot.weapon, self.settings)[1])

    def firer_risks(self) -> bool:
        """Whether the firer risks a Trait in each bystander's test: always in a Spray's or a burst's
        mass challenge (met-reference 6.2, T24); in single tests only under ``stray_tests_cost_firer``
        (002: "perform a test")."""
        return self.fire is Fire.GROUP or bool(self.settings["stray_tests_cost_firer"])

    def firer_after_shot(self) -> Contestant:
        """The firer as he stands for the bystander tests: the extra Traits went with the missed shot."""
        con, extra = self.shot.firer, list(self.shot.extra_traits)
        if not extra:
            return con
        self.lost.setdefault(self.firer, []).extend(extra)
        held_known = bool(con.held or con.lost_earlier)
        return replace(con, traits=con.traits - len(extra), bid=con.bid,
                       lost_earlier=con.lost_earlier + tuple(extra) if held_known else con.lost_earlier)

    def bystander_side(self, index: int, b: Bystander) -> Contestant:
        """His side in the test: he may retest only by expending Dodge, if he saw it coming (002)."""
        where = f"bystanders[{index}].tests"
        for n, t in enumerate(b.tests):
            sources = []
            if t.call is Call.RETEST and t.by is Outcome.DEFENDER:
                sources.append(("source", t.source))
            if t.call is Call.RETEST and t.by is Outcome.CHALLENGER and t.cancel:
                sources.append(("cancel", t.cancel))
            for key, text in sources:
                kind, name = parse_source(text, f"{where}[{n}].{key}")
                if not (kind == "ability" and name.lower() == "dodge"):
                    raise RulesError(Phrase.message(N_("A bystander may retest (or cancel) only by expending Dodge "
                                                       "(002).")),
                                     field=f"{where}[{n}].{key}")
                if not b.saw_it_coming:
                    raise RulesError(Phrase.message(N_("%(name)s could not see the attack coming (the narrator's "
                                                       "call): no Dodge retest."), name=b.side.name),
                                     field=f"{where}[{n}].{key}")
        dodge = {k: v for k, v in b.side.abilities.items() if k.lower() == "dodge"} if b.saw_it_coming else {}
        side = replace(b.side, abilities=dodge, willpower=0, merits={})
        if not self.settings["stray_hit_costs_bystander"]:
            side = replace(side, bid=(), risks_no_trait=True)  # he is hit and takes damage, nothing more (002)
        return side

    def _shares(self, challenges: Sequence[Challenge], bid: Sequence[str]) -> list[tuple[str, ...]]:
        """The firer's bid split over his tests, in order (one Trait each; more if Wounded)."""
        need = []
        for index, ch in enumerate(challenges):
            try:
                need.append(bids_required(ch, self.settings)[Outcome.CHALLENGER] or 0)
            except RulesError as exc:
                raise RulesError(exc.message, field=f"bystanders[{index}].{exc.field}" if exc.field else None) \
                    from None
        if len(bid) != sum(need):
            raise RulesError(Phrase.message(N_("%(name)s risks %(traits)s against %(bystanders)s (one per test), not "
                                               "%(bid)s."), name=self.firer,
                                            traits=Phrase.counted(sum(need), "%(n)s Trait", "%(n)s Traits"),
                                            bystanders=Phrase.counted(len(challenges), "%(n)s bystander",
                                                                      "%(n)s bystanders"), bid=len(bid)),
                             field="firer.bid")
        queue, out = list(bid), []
        for n in need:
            out.append(tuple(queue[:n]))
            queue = queue[n:]
        return out

    def _pair(self, firer: Contestant, b: Bystander, index: int, first: TestCall) -> Challenge:
        if not self.firer_risks():
            firer = replace(firer, bid=(), risks_no_trait=True)
        return Challenge(category=self.shot.category, challenger=firer, defender=self.bystander_side(index, b),
                         action="weapon", defender_action="defend", tests=(first,) + tuple(b.tests),
                         sense=self.shot.sense)

    def _costs(self) -> None:
        """Say what the bystander tests cost (002; settings ``stray_tests_cost_firer``,
        ``stray_hit_costs_bystander``)."""
        choice = Phrase.term(self.settings.label("stray_tests_cost_firer"))
        if not self.firer_risks():
            self.steps.add(N_("%(name)s risks no Trait in these tests, and ties still compare Traits (%(choice)s)."),
                           R_GROUPS, "stray_tests_cost_firer", name=self.firer, choice=choice)
        elif self.fire is Fire.SINGLE:
            self.steps.add(N_("%(name)s risks one Trait in each test (%(choice)s)."), R_GROUPS,
                           "stray_tests_cost_firer", name=self.firer, choice=choice)
        costs = self.settings["stray_hit_costs_bystander"]
        self.steps.add(N_("Each person tested risks one Trait and loses it if hit (%(choice)s).") if costs else
                       N_("The people tested risk no Trait: one who is hit takes the damage and loses no Trait "
                          "(%(choice)s)."), R_GROUPS, "stray_hit_costs_bystander",
                       choice=Phrase.term(self.settings.label("stray_hit_costs_bystander")))

    def _hit(self, b: Bystander) -> Hit:
        attack = Attack(action="weapon", weapon=self.shot.weapon, close_range=self.shot.close_range,
                        spread=self.fire is Fire.GROUP)
        name = b.side.name
        hit, track, armor_left = land_hit(self.firer, attack, name, b.body, self.tracks[name], b.body.armor_left,
                                          self.settings, self.rng)
        self.tracks[name] = track
        if b.body.armor and armor_left is not None:
            self.armor_left[name] = (armor_key(b.body.armor), armor_left)
        self.steps.extend(hit.steps)
        return hit

    def run(self) -> ShotIntoGroupRuling:
        """The whole ruling: the avoiding options, then single tests or one mass challenge."""
        self.check()
        shot = self.shot
        weapon = weapon_card(shot.weapon, "weapon")
        near = [b.side.name for b in shot.bystanders]
        at_risk = not shot.careful_aim and any(b.side.name not in self.excluded for b in shot.bystanders)
        self.steps.add(N_("%(name)s's shot at %(target)s missed; near the target, closest first: %(near)s. %(name)s "
                          "is tested against each of them in that order.") if self.fire is Fire.SINGLE and at_risk
                       else N_("%(name)s's shot at %(target)s missed; near the target, closest first: %(near)s."),
                       R_GROUPS, name=self.firer, target=self.target, near=near)
        if self.card.has("Spray") and self.fire is Fire.SINGLE and (shot.bursts or not self.card.has("Full-Auto")):
            feet, _most = spray_limits(shot.weapon, self.settings)
            where = Phrase.term(shot.range.label) if shot.range is not None else Phrase.message(
                N_("at a range not said"))
            if shot.deliberate_spray and stray_spray_at_any_range(self.settings):
                what = N_("A deliberate Spray sprays only at targets more than %(feet)s feet away; %(where)s, this is "
                          "a single shot (%(choice)s).")
            elif self.card.name[:1].lower() in "aeiou":
                what = N_("An %(weapon)s sprays only at targets more than %(feet)s feet away; %(where)s, this is a "
                          "single shot (%(choice)s).")
            else:
                what = N_("A %(weapon)s sprays only at targets more than %(feet)s feet away; %(where)s, this is a "
                          "single shot (%(choice)s).")
            self.steps.add(what, R_SPRAY, "spray_limits", weapon=Phrase.term(self.card.name), feet=feet, where=where,
                           choice=Phrase.term(self.settings.label("spray_limits")))
        elif self.card.has("Spray") and self.fire is Fire.GROUP and not shot.deliberate_spray \
                and stray_spray_at_any_range(self.settings):
            self.steps.add(N_("A missed %(weapon)s burst is one mass challenge against the people near the target, "
                              "whatever the range (%(choice)s).") if self.card.has("Full-Auto") or self.card.has("Burst")
                           else N_("A missed %(weapon)s blast is one mass challenge against the people near the target, "
                                   "whatever the range (%(choice)s)."), R_GROUPS, "spray_limits",
                           weapon=Phrase.term(self.card.name), choice=Phrase.term(self.settings.label("spray_limits")))
        if at_risk or self.fire is Fire.GROUP:
            self._costs()
        firer = replace(self.firer_after_shot(), weapon=weapon)
        if shot.extra_traits:
            avoided = (Phrase.message(N_("all of them")) if self.excluded == {b.side.name for b in shot.bystanders}
                       else [b.side.name for b in shot.bystanders if b.side.name in self.excluded])
            self.steps.add(N_("%(name)s bid %(extra)s with the shot (%(all)s in all) to avoid %(avoided)s: %(traits)s, "
                              "lost with the missed shot."), R_GROUPS, name=self.firer,
                           extra=Phrase.counted(len(shot.extra_traits), "%(n)s extra Trait", "%(n)s extra Traits"),
                           all=1 + len(shot.extra_traits), avoided=avoided, traits=list(shot.extra_traits))
        if shot.careful_aim:
            self.steps.add(N_("%(name)s took careful aim, firing every other round without extra Traits: no "
                              "bystander is at risk."), R_GROUPS, name=self.firer)
        if self.fire is Fire.GROUP:
            results, hits = self._group(firer)
        else:
            results, hits = self._single(firer)
        by_target = {h.target: h for h in hits}
        results = [replace(r, ruling=damage_as_dealt(r.ruling, {Outcome.DEFENDER: by_target[r.name]}))
                   if r.ruling is not None and r.name in by_target else r for r in results]
        traits_lost = {name: tuple(t) for name, t in self.lost.items() if t}
        landed = [h.target for h in hits]
        if landed:
            summary = Phrase.message(N_("%(name)s's stray rounds hit %(hit)s.") if len(landed) > 1
                                     else N_("%(name)s's stray round hits %(hit)s."), name=self.firer, hit=landed)
        else:
            summary = Phrase.message(N_("%(name)s's stray fire hits nobody."), name=self.firer)
        return ShotIntoGroupRuling(fire=self.fire, bystanders=tuple(results), hits=tuple(hits),
                                   tracks=dict(self.tracks), traits_lost=traits_lost, spent=spendings(self.spent),
                                   steps=self.steps.steps(), summary=summary, pending=tuple(self.pending),
                                   armor_left=dict(self.armor_left))

    def _record(self, ruling: ChallengeRuling, name: str) -> None:
        self.lost.setdefault(self.firer, []).extend(ruling.lost_by(Outcome.CHALLENGER))
        self.lost.setdefault(name, []).extend(ruling.lost_by(Outcome.DEFENDER))
        add_spending(self.spent, self.firer, ruling, Outcome.CHALLENGER)
        add_spending(self.spent, name, ruling, Outcome.DEFENDER)
        self.steps.extend(ruling.steps)

    def _single(self, firer: Contestant) -> tuple[list[BystanderResult], list[Hit]]:
        """One test per bystander, closest first; each is its own challenge, in turn (002)."""
        shot, settings = self.shot, self.settings
        results: list[BystanderResult] = []
        hits: list[Hit] = []
        at_risk = [(i, b) for i, b in enumerate(shot.bystanders)
                   if not shot.careful_aim and b.side.name not in self.excluded]
        for b in shot.bystanders:
            if shot.careful_aim or b.side.name in self.excluded:
                note = "careful aim" if shot.careful_aim else "excluded by an extra Trait"
                results.append(BystanderResult(b.side.name, False, True, note))
        if not at_risk:
            shares = []
        elif self.firer_risks():
            shares = self._shares([self._pair(firer, b, i, TestCall()) for i, b in at_risk], firer.bid)
        else:
            shares = [()] * len(at_risk)
        stops = settings["stray_round_stops_at_first_hit"]
        stopped_by = ""
        spent_by_firer: Counter = Counter()
        lost_so_far: list[str] = []
        by_name: dict[str, BystanderResult] = {}
        for (index, b), share in zip(at_risk, shares):
            name = b.side.name
            if stopped_by:
                by_name[name] = BystanderResult(name, False, False, f"the round stopped in {stopped_by}")
                continue
            where = f"bystanders[{index}]"
            if b.firer_throw is None:
                raise RulesError(Phrase.message(N_("Choose %(firer)s's sign against %(name)s."),
                                                firer=self.firer, name=name), field=f"{where}.firer_throw")
            if b.throw is None:
                raise RulesError(Phrase.message(N_("Choose %(name)s's sign."), name=name), field=f"{where}.throw")
            held_known = bool(firer.held or firer.lost_earlier)
            now = replace(firer, bid=share, traits=firer.traits - len(lost_so_far),
                          lost_earlier=firer.lost_earlier + tuple(lost_so_far) if held_known else firer.lost_earlier,
                          abilities={k: v - spent_by_firer[k] for k, v in firer.abilities.items()})
            challenge = self._pair(now, b, index, TestCall(Call.TEST, b.firer_throw, b.throw))
            _played, options, ruling = play_pair(challenge, Shared(Outcome.CHALLENGER), settings, self.rng, where)
            if ruling is None:  # a forced darkness retest is due: the rest waits for it
                self.pending.append(name)
                by_name[name] = BystanderResult(name, True, False, "the forced darkness retest is due", None, False,
                                                b.firer_throw, b.throw, None, options)
                stopped_by = f"{name}'s test (the forced retest is due)"
                self.steps.add(N_("In %(name)s's test, the winner is in total darkness: the forced retest is due "
                                  "before the shot's course is known."), '002 "Darkness"', name=name)
                continue
            self._record(ruling, name)
            lost_so_far += list(ruling.lost_by(Outcome.CHALLENGER))
            spent_by_firer.update(dict(ruling.spent_by(Outcome.CHALLENGER).abilities))
            hit = ruling.outcome is Outcome.CHALLENGER
            by_name[name] = BystanderResult(name, True, False, "", ruling.outcome, hit, ruling.challenger_throw,
                                            ruling.defender_throw, ruling, options)
            if hit:
                self.steps.add(N_("%(name)s wins the test: the stray round hits %(target)s."), R_GROUPS,
                               name=self.firer, target=name)
                hits.append(self._hit(b))
                if stops:
                    stopped_by = name
                    rest = [x.side.name for _i, x in at_risk[at_risk.index((index, b)) + 1:]]
                    if rest:
                        self.steps.add(N_("The round stops in %(name)s: no test against %(rest)s (%(choice)s)."),
                                       R_GROUPS, "stray_round_stops_at_first_hit", name=name, rest=rest,
                                       choice=Phrase.term(settings.label("stray_round_stops_at_first_hit")))
            else:
                self.steps.add(N_("%(name)s is not hit."), R_GROUPS, name=name)
        ordered = []
        for b in shot.bystanders:
            ordered.append(by_name.get(b.side.name) or next(r for r in results if r.name == b.side.name))
        return ordered, hits

    def _group(self, firer: Contestant) -> tuple[list[BystanderResult], list[Hit]]:
        """One mass challenge against everyone the fire reaches (002; met-reference 6.2)."""
        shot, settings, card = self.shot, self.settings, self.card
        reach = self.reach()
        reached = list(enumerate(shot.bystanders))[:reach]
        self.steps.add(N_("The %(weapon)s fires several rounds: one mass challenge against the bystanders instead "
                          "of a test each; %(name)s's one sign is compared with each of theirs.")
                       if card.has("Full-Auto") or card.has("Burst")
                       else N_("The %(weapon)s fires an area effect: one mass challenge against the bystanders "
                               "instead of a test each; %(name)s's one sign is compared with each of theirs."),
                       R_GROUPS, weapon=Phrase.term(card.name), name=self.firer)
        if reach < len(shot.bystanders):
            self.steps.add(N_("The %(weapon)s's Spray reaches %(n)s people (%(choice)s): %(names)s is out of reach.")
                           if len(shot.bystanders) - reach == 1
                           else N_("The %(weapon)s's Spray reaches %(n)s people (%(choice)s): %(names)s are out of "
                                   "reach."), R_SPRAY, "spray_limits", weapon=Phrase.term(card.name), n=reach,
                           choice=Phrase.term(self.settings.label("spray_limits")),
                           names=[b.side.name for b in shot.bystanders[reach:]])
        if shot.firer_throw is None:
            raise RulesError(Phrase.message(N_("Choose %(firer)s's sign."), firer=self.firer), field="firer_throw")
        for index, b in reached:
            if b.throw is None:
                raise RulesError(Phrase.message(N_("Choose %(name)s's sign."), name=b.side.name),
                                 field=f"bystanders[{index}].throw")
        first = TestCall(Call.TEST, shot.firer_throw, None)
        pairs = [self._pair(firer, b, i, replace(first, defender_throw=b.throw)) for i, b in reached]
        shares = self._shares(pairs, firer.bid)
        check_bid_names(firer, [t for s in shares for t in s], self.firer, "firer.bid")
        self.steps.add(N_("%(name)s risks one Trait per person reached: %(n)s."), R_SPRAY, name=self.firer,
                       n=len(reached))
        pairs = [replace(p, challenger=replace(firer, bid=s)) for p, s in zip(pairs, shares)]
        shared = Shared(Outcome.CHALLENGER)
        results: list[BystanderResult] = []
        hits: list[Hit] = []
        for (index, b), pair in zip(reached, pairs):
            _played, options, ruling = play_pair(pair, shared, settings, self.rng, f"bystanders[{index}]")
            if ruling is None:
                self.pending.append(b.side.name)
                results.append(BystanderResult(b.side.name, True, False, "the forced darkness retest is due", None,
                                               False, shot.firer_throw, b.throw, None, options))
                self.steps.add(N_("In %(name)s's pair, the winner is in total darkness: the forced retest is due."),
                               '002 "Darkness"', name=b.side.name)
                continue
            self._record(ruling, b.side.name)
            hit = ruling.outcome is Outcome.CHALLENGER
            results.append(BystanderResult(b.side.name, True, False, "", ruling.outcome, hit, ruling.challenger_throw,
                                           ruling.defender_throw, ruling, options))
            if hit:
                self.steps.add(N_("%(name)s loses and is hit."), R_SPRAY, name=b.side.name)
                hits.append(self._hit(b))
        for b in shot.bystanders[reach:]:
            results.append(BystanderResult(b.side.name, False, False, "out of the spray's reach"))
        return results, hits


def firer_bid_count(shot: ShotIntoGroup, settings: ChronicleSettings | None = None) -> int:
    """How many Traits the firer risks in the bystander tests: one per bystander at risk
    (every one not excluded, none with careful aim; with several rounds or an area effect,
    everyone the fire reaches), more in each if he is Wounded (002; met-reference 6.2). The
    narrator's screen uses it to pick his Traits.

    Raises:
        RulesError: as :func:`play_shot_into_group`, for what is wrong before any test.
    """
    run = _ShotIntoGroup(shot, settings or ChronicleSettings.defaults(), None)
    run.check()
    firer = run.firer_after_shot()
    if run.fire is Fire.GROUP:
        people = list(enumerate(shot.bystanders))[:run.reach()]
    else:
        people = [(i, b) for i, b in enumerate(shot.bystanders)
                  if not shot.careful_aim and b.side.name not in run.excluded]
    total = 0
    for index, b in people:
        try:
            total += bids_required(run._pair(firer, b, index, TestCall()), run.settings)[Outcome.CHALLENGER] or 0
        except RulesError as exc:
            raise RulesError(exc.message, field=f"bystanders[{index}].{exc.field}" if exc.field else None) from None
    return total


def play_shot_into_group(shot: ShotIntoGroup, settings: ChronicleSettings | None = None,
                    rng: RandomSource | None = None) -> ShotIntoGroupRuling:
    """Rule on a missed shot into a group of people (rules in the module docstring).

    Args:
        shot: the firer, his gun, the target missed, the people near it closest
            first, the signs and the firer's avoiding options.
        settings: the chronicle's settings (defaults if ``None``):
            ``stray_round_stops_at_first_hit`` and the challenge and damage settings.
        rng: a random source for the damage rules' simple tests (High-Caliber).

    Returns:
        The ruling: each bystander's test, the hits with the damage marked,
        the tracks afterwards, Traits lost and Ability levels spent.

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field: a
            bystander twice, the target or the firer as a bystander, excluded
            bystanders who are not near the target, extra Traits or careful aim
            with bursts or a shotgun, a retest other than Dodge by a bystander
            (or Dodge when he could not see it coming), a missing sign...
    """
    return _ShotIntoGroup(shot, settings or ChronicleSettings.defaults(), rng).run()


