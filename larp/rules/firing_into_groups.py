"""Firing guns into groups of people (seed 002 "Firing Guns into Groups of People";
Spray, met-reference 6.2).

When a shot misses its target and people stand near it (within three feet,
or down range past it), the round may hit one of them. Plain data in (a
:class:`StrayShot`: the firer, his weapon, the people near the target closest
first, the signs), a :class:`StrayRuling` out; :func:`rule_stray_shot` rules,
:func:`stray_shot_from_dict` reads JSON.

The rules (002 unless said otherwise):

1. The firer tests against each person near the target, starting with those
   closest to it. If he wins a test, that bystander is hit and takes the
   weapon's damage; the bystander may retest by expending a Dodge Ability if
   he could see the attack coming (the narrator decides). Each test is a
   normal challenge (:mod:`larp.rules.challenge`): one Trait risked a side,
   ties by the Traits. Whether one round goes on after hitting someone is the
   chronicle setting ``stray_round_stops_at_first_hit`` (default: it stops).
2. A weapon firing several rounds (bursts from a submachine gun or assault
   rifle) or with an area effect (a shotgun): one mass challenge against the
   bystanders instead: the firer's one sign against each bystander's, each
   pair by the normal rules; every bystander who loses is hit; the firer risks
   one Trait per bystander (met-reference 6.2 and T24). A Spray reaches at
   most the number of people on its card (met-reference 6.2).
3. To avoid bystanders if he misses, the firer bids one extra Trait per
   bystander with the shot (five bystanders: six Traits in all), or fewer and
   names the bystanders they exclude; or he takes careful aim and fires every
   other round, risking no extra Trait. Only for single shots. The extra
   Traits were lost with the missed shot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from larp.rules.challenge import (
    Call,
    Category,
    Challenge,
    ChallengeOptions,
    ChallengeRuling,
    Contestant,
    Outcome,
    RandomSource,
    TestCall,
    Throw,
    bids_required,
    contestant_from_dict,
    parse_source,
    parse_throw,
    test_calls_from_list,
)
from larp.rules.damage import weapon as armory_weapon
from larp.rules.explain import Explanation, RulesError, Step
from larp.rules.health import HealthTrack
from larp.rules.mass_combat import (
    Attack,
    Body,
    Hit,
    Spending,
    add_spending,
    body_from_dict,
    check_bid_names,
    land_hit,
    spendings,
    track_of,
    weapon_card,
)
from larp.rules.pairs import Shared, play_pair
from larp.rules.settings import ChronicleSettings

R_GROUPS = '002 "Firing Guns into Groups of People"'
R_SPRAY = "LotNR Spray (met-reference 6.2)"


class Fire(StrEnum):
    """How the weapon fired: one shot at a time, or several rounds / an area effect (002)."""

    SINGLE = "single"
    GROUP = "group"


@dataclass(frozen=True)
class Bystander:
    """A person near the target (within three feet, or down range past it).

    Attributes:
        side: the bystander as the defender of his test: name, current Traits,
            his bid (one Trait, more if Wounded), Ability levels left (only
            Dodge counts here)...
        throw: his sign in his test.
        firer_throw: single shots: the firer's sign in this bystander's test.
        saw_it_coming: he could see the attack coming, so he may retest by
            expending Dodge (the narrator's call, 002).
        tests: later tests of his pair, in order (Dodge retest, the firer's
            Firearms retest...): challenger = the firer, defender = him.
        body: what damage does to him.
    """

    side: Contestant
    throw: Throw | None = None
    firer_throw: Throw | None = None
    saw_it_coming: bool = False
    tests: tuple[TestCall, ...] = ()
    body: Body = Body()  # noqa: RUF009 - a frozen dataclass, never mutated


@dataclass(frozen=True)
class StrayShot:
    """A missed shot into a group of people.

    Attributes:
        firer: the firer: name, current Traits (the shot's own loss already
            taken off), ``bid``: the Traits he risks in the bystander tests, in
            order, one per test (more if Wounded). With Firearms he may bid
            Mental Traits (``category``).
        weapon: the live armory key of the gun (pistol, shotgun, smg...).
        target: the name of the character he missed (not a bystander).
        bystanders: the people near the target, closest first (the narrator orders them).
        firer_throw: several rounds or an area effect: his one sign against everyone.
        bursts: an automatic weapon fires bursts (``True``) or one shot at a time.
        extra_traits: the Traits he bid with the shot to avoid bystanders, one
            per bystander excluded (lost: the shot missed).
        excluded: the bystanders those extra Traits exclude; all of them when
            he bid one per bystander.
        careful_aim: he took careful aim and fires every other round: no bystander is at risk.
        close_range: within five feet (Full-Auto adds a level).
        category: the challenge's category (Physical).
    """

    firer: Contestant
    weapon: str
    target: str
    bystanders: tuple[Bystander, ...]
    firer_throw: Throw | None = None
    bursts: bool = True
    extra_traits: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    careful_aim: bool = False
    close_range: bool = False
    category: Category = Category.PHYSICAL


@dataclass(frozen=True)
class BystanderResult:
    """What happened to one bystander.

    Attributes:
        name: his name.
        tested: the firer tested against him.
        excluded: an extra Trait (or careful aim) kept him out of harm.
        note: why no test was made (excluded, careful aim, the round stopped, out of reach).
        outcome: ``CHALLENGER`` (the firer won: he is hit), ``DEFENDER``, ``DRAW``; ``None`` untested.
        hit: he was hit.
        firer_throw, throw: the first signs of his test.
        ruling: his test's challenge ruling.
        options: what each side of his test may still call (retests, overbids).
    """

    name: str
    tested: bool
    excluded: bool = False
    note: str = ""
    outcome: Outcome | None = None
    hit: bool = False
    firer_throw: Throw | None = None
    throw: Throw | None = None
    ruling: ChallengeRuling | None = None
    options: ChallengeOptions | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"name": self.name, "tested": self.tested, "excluded": self.excluded, "note": self.note,
                "outcome": self.outcome.value if self.outcome else None, "hit": self.hit,
                "firer_throw": self.firer_throw.value if self.firer_throw else None,
                "throw": self.throw.value if self.throw else None,
                "ruling": self.ruling.to_dict() if self.ruling else None,
                "options": self.options.to_dict() if self.options else None}


@dataclass(frozen=True)
class StrayRuling:
    """The ruling on a missed shot into a group.

    Attributes:
        fire: single shots or a mass challenge (several rounds, area effect).
        bystanders: each bystander's result, closest first.
        hits: the bystanders hit, in order, with the damage marked.
        tracks: the bystanders' health tracks afterwards, by name.
        traits_lost: Traits lost for the game session, by name (the firer's
            extra Traits among them).
        spent: Ability levels (Dodge, Firearms...) spent, by name.
        steps: the whole explanation.
        summary: one sentence.
        pending: the bystanders whose test waits for its forced darkness retest (002
            "Darkness"): the ruling cannot be recorded before it is thrown.
        armor_left: the armor that absorbed damage, by name: (armory key, levels left).
    """

    fire: Fire
    bystanders: tuple[BystanderResult, ...]
    hits: tuple[Hit, ...]
    tracks: Mapping[str, HealthTrack]
    traits_lost: Mapping[str, tuple[str, ...]]
    spent: Mapping[str, Spending]
    steps: tuple[Step, ...]
    summary: str
    pending: tuple[str, ...] = ()
    armor_left: Mapping[str, tuple[str, int]] = field(default_factory=dict)

    def result(self, name: str) -> BystanderResult:
        """The result of the bystander ``name``."""
        return next(b for b in self.bystanders if b.name == name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the record and the API use this)."""
        return {
            "summary": self.summary,
            "fire": self.fire.value,
            "bystanders": [b.to_dict() for b in self.bystanders],
            "hits": [h.to_dict() for h in self.hits],
            "tracks": {name: t.to_dict() for name, t in self.tracks.items()},
            "traits_lost": {name: list(t) for name, t in self.traits_lost.items()},
            "spent": {name: s.to_dict() for name, s in self.spent.items()},
            "pending": list(self.pending),
            "armor_left": {name: dict([a]) for name, a in self.armor_left.items()},
            "steps": [s.to_dict() for s in self.steps],
        }


def fire_of(weapon_key: str, bursts: bool = True) -> Fire:
    """How ``weapon_key`` fires: a shotgun's Spray is an area effect, and an automatic
    weapon (Full-Auto, Burst) firing bursts fires several rounds: both are one mass
    challenge; anything else fires single shots (002; met-reference 3.7, 6.2).

    Raises:
        RulesError: no such weapon (``field`` "weapon").
    """
    card = armory_weapon(weapon_key, "live")
    automatic = card.has("Full-Auto") or card.has("Burst")
    if automatic:
        return Fire.GROUP if bursts else Fire.SINGLE
    return Fire.GROUP if card.has("Spray") else Fire.SINGLE


class _Stray:
    """Rules on one missed shot (internal; see :func:`rule_stray_shot`)."""

    def __init__(self, shot: StrayShot, settings: ChronicleSettings, rng: RandomSource | None):
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
            raise RulesError("Give the firer.", field="firer")
        self.firer = shot.firer.name.strip() if isinstance(shot.firer.name, str) else ""
        if not self.firer:
            raise RulesError("The firer needs a name.", field="firer.name")
        if not isinstance(shot.weapon, str) or not shot.weapon:
            raise RulesError("Choose the gun that fired.", field="weapon")
        try:
            card = armory_weapon(shot.weapon, "live")
        except RulesError:
            raise RulesError(f"There is no weapon {shot.weapon!r} in the armory.", field="weapon") from None
        if card.melee:
            raise RulesError(f"A {card.name} is not fired: choose a gun.", field="weapon")
        self.card = card
        target = shot.target.strip() if isinstance(shot.target, str) else ""
        if not target:
            raise RulesError("Name the target the shot missed.", field="target")
        if target == self.firer:
            raise RulesError(f"{self.firer} cannot be his own target.", field="target")
        if not shot.bystanders:
            raise RulesError("Add the people near the target, closest first.", field="bystanders")
        seen: set[str] = set()
        for index, b in enumerate(shot.bystanders):
            where = f"bystanders[{index}]"
            if not isinstance(b, Bystander) or not isinstance(b.side, Contestant):
                raise RulesError("Give the bystander.", field=where)
            name = b.side.name.strip() if isinstance(b.side.name, str) else ""
            if not name:
                raise RulesError("Each bystander needs a name.", field=f"{where}.name")
            if name == target:
                raise RulesError(f"{name} is the target, not a bystander.", field=f"{where}.name")
            if name == self.firer:
                raise RulesError(f"{name} fired the shot and cannot be a bystander to it.", field=f"{where}.name")
            if name in seen:
                raise RulesError(f"{name} is already listed as a bystander.", field=f"{where}.name")
            seen.add(name)
            self.tracks[name] = track_of(b.body, self.settings, name, f"{where}.body")
        self.fire = fire_of(shot.weapon, shot.bursts)
        self.target = target
        single = self.fire is Fire.SINGLE
        if not single and (shot.careful_aim or shot.extra_traits or shot.excluded):
            what = "a shotgun's spread" if not (card.has("Full-Auto") or card.has("Burst")) else "bursts"
            field = "careful_aim" if shot.careful_aim else ("excluded" if shot.excluded else "extra_traits")
            raise RulesError(f"Extra Traits and careful aim avoid bystanders only when firing one shot at a "
                             f"time, not with {what} (002).", field=field)
        if shot.careful_aim and (shot.extra_traits or shot.excluded):
            raise RulesError("Careful aim already keeps every bystander safe: no extra Traits are bid with it.",
                             field="extra_traits")
        excluded: set[str] = set()
        for name in shot.excluded:
            if name not in seen:
                raise RulesError(f"{name} is not among the people near the target: only they can be excluded.",
                                 field="excluded")
            if name in excluded:
                raise RulesError(f"{name} is excluded twice.", field="excluded")
            excluded.add(name)
        extra = list(shot.extra_traits)
        if len(extra) > len(shot.bystanders):
            raise RulesError(f"{len(shot.bystanders)} people are near the target: at most {len(shot.bystanders)} "
                             f"extra Traits avoid them all.", field="extra_traits")
        all_of_them = len(extra) == len(shot.bystanders) and len(extra) > 0
        if not all_of_them and len(extra) != len(excluded):
            raise RulesError(f"Each extra Trait excludes one bystander: {len(extra)} extra Trait(s) bid, "
                             f"{len(excluded)} bystander(s) named.", field="excluded")
        if all_of_them:
            excluded = set(seen)
        check_bid_names(shot.firer, extra, self.firer, "extra_traits")
        self.excluded = excluded

    def reach(self) -> int:
        """How many of the people near the target a mass challenge reaches: a Spray's card
        number at most (met-reference 6.2), everyone otherwise."""
        people = len(self.shot.bystanders)
        return min(people, self.card.spray) if self.card.spray else people

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
                    raise RulesError("A bystander may retest (or cancel) only by expending Dodge (002).",
                                     field=f"{where}[{n}].{key}")
                if not b.saw_it_coming:
                    raise RulesError(f"{b.side.name} could not see the attack coming (the narrator's call): no "
                                     f"Dodge retest.", field=f"{where}[{n}].{key}")
        dodge = {k: v for k, v in b.side.abilities.items() if k.lower() == "dodge"} if b.saw_it_coming else {}
        return replace(b.side, abilities=dodge, willpower=0, merits={})

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
            raise RulesError(f"{self.firer} risks {sum(need)} Trait(s) against {len(challenges)} bystander(s) "
                             f"(one per test), not {len(bid)}.", field="firer.bid")
        queue, out = list(bid), []
        for n in need:
            out.append(tuple(queue[:n]))
            queue = queue[n:]
        return out

    def _pair(self, firer: Contestant, b: Bystander, index: int, first: TestCall) -> Challenge:
        return Challenge(category=self.shot.category, challenger=firer, defender=self.bystander_side(index, b),
                         action="weapon", defender_action="defend", tests=(first,) + tuple(b.tests))

    def _hit(self, b: Bystander) -> Hit:
        attack = Attack(action="weapon", weapon=self.shot.weapon, close_range=self.shot.close_range)
        name = b.side.name
        hit, track, armor_left = land_hit(self.firer, attack, name, b.body, self.tracks[name], b.body.armor_left,
                                          self.settings, self.rng)
        self.tracks[name] = track
        if b.body.armor and armor_left is not None:
            self.armor_left[name] = (b.body.armor, armor_left)
        self.steps.extend(hit.steps)
        return hit

    def run(self) -> StrayRuling:
        """The whole ruling: the avoiding options, then single tests or one mass challenge."""
        self.check()
        shot = self.shot
        weapon = weapon_card(shot.weapon, "weapon")
        near = ", ".join(b.side.name for b in shot.bystanders)
        self.steps.add(f"{self.firer}'s shot at {self.target} missed; near the target, closest first: {near}."
                       + (" The firer tests against each of them in that order." if self.fire is Fire.SINGLE else ""),
                       R_GROUPS)
        firer = replace(self.firer_after_shot(), weapon=weapon)
        if shot.extra_traits:
            avoided = ("all of them" if self.excluded == {b.side.name for b in shot.bystanders}
                       else ", ".join(b.side.name for b in shot.bystanders if b.side.name in self.excluded))
            self.steps.add(f"{self.firer} bid {len(shot.extra_traits)} extra Trait(s) with the shot "
                           f"({1 + len(shot.extra_traits)} in all) to avoid {avoided}: "
                           f"{', '.join(shot.extra_traits)}, lost with the missed shot.", R_GROUPS)
        if shot.careful_aim:
            self.steps.add(f"{self.firer} took careful aim, firing every other round without extra Traits: no "
                           f"bystander is at risk.", R_GROUPS)
        if self.fire is Fire.GROUP:
            results, hits = self._group(firer)
        else:
            results, hits = self._single(firer)
        traits_lost = {name: tuple(t) for name, t in self.lost.items() if t}
        landed = [h.target for h in hits]
        summary = (f"{self.firer}'s stray {'rounds hit' if len(landed) > 1 else 'round hits'} "
                   f"{', '.join(landed)}." if landed else f"{self.firer}'s stray fire hits nobody.")
        return StrayRuling(self.fire, tuple(results), tuple(hits), dict(self.tracks), traits_lost,
                           spendings(self.spent), self.steps.steps(), summary, tuple(self.pending),
                           dict(self.armor_left))

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
        shares = self._shares([self._pair(firer, b, i, TestCall()) for i, b in at_risk], firer.bid) if at_risk else []
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
                raise RulesError(f"Choose {self.firer}'s sign against {name}.", field=f"{where}.firer_throw")
            if b.throw is None:
                raise RulesError(f"Choose {name}'s sign.", field=f"{where}.throw")
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
                self.steps.add(f"In {name}'s test, the winner is in total darkness: the forced retest is due before "
                               f"the shot's course is known.", '002 "Darkness"')
                continue
            self._record(ruling, name)
            lost_so_far += list(ruling.lost_by(Outcome.CHALLENGER))
            spent_by_firer.update(dict(ruling.spent_by(Outcome.CHALLENGER).abilities))
            hit = ruling.outcome is Outcome.CHALLENGER
            by_name[name] = BystanderResult(name, True, False, "", ruling.outcome, hit, ruling.challenger_throw,
                                            ruling.defender_throw, ruling, options)
            if hit:
                self.steps.add(f"{self.firer} wins the test: the stray round hits {name}.", R_GROUPS)
                hits.append(self._hit(b))
                if stops:
                    stopped_by = name
                    rest = [x.side.name for _i, x in at_risk[at_risk.index((index, b)) + 1:]]
                    if rest:
                        self.steps.add(f"The round stops in {name}: no test against {', '.join(rest)} "
                                       f"({settings.label('stray_round_stops_at_first_hit')}).", R_GROUPS,
                                       "stray_round_stops_at_first_hit")
            else:
                self.steps.add(f"{name} is not hit.", R_GROUPS)
        ordered = []
        for b in shot.bystanders:
            ordered.append(by_name.get(b.side.name) or next(r for r in results if r.name == b.side.name))
        return ordered, hits

    def _group(self, firer: Contestant) -> tuple[list[BystanderResult], list[Hit]]:
        """One mass challenge against everyone the fire reaches (002; met-reference 6.2)."""
        shot, settings, card = self.shot, self.settings, self.card
        reach = self.reach()
        reached = list(enumerate(shot.bystanders))[:reach]
        what = "several rounds" if card.has("Full-Auto") or card.has("Burst") else "an area effect"
        self.steps.add(f"The {card.name} fires {what}: one mass challenge against the bystanders instead of a test "
                       f"each; {self.firer}'s one sign is compared with each of theirs.", R_GROUPS)
        if reach < len(shot.bystanders):
            self.steps.add(f"The {card.name}'s Spray reaches {card.spray} people: "
                           f"{', '.join(b.side.name for b in shot.bystanders[reach:])} "
                           f"{'is' if len(shot.bystanders) - reach == 1 else 'are'} out of reach.", R_SPRAY)
        if shot.firer_throw is None:
            raise RulesError(f"Choose {self.firer}'s sign.", field="firer_throw")
        for index, b in reached:
            if b.throw is None:
                raise RulesError(f"Choose {b.side.name}'s sign.", field=f"bystanders[{index}].throw")
        first = TestCall(Call.TEST, shot.firer_throw, None)
        pairs = [self._pair(firer, b, i, replace(first, defender_throw=b.throw)) for i, b in reached]
        shares = self._shares(pairs, firer.bid)
        check_bid_names(firer, [t for s in shares for t in s], self.firer, "firer.bid")
        self.steps.add(f"{self.firer} risks one Trait per bystander: {len(reached)}.", R_SPRAY)
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
                self.steps.add(f"In {b.side.name}'s pair, the winner is in total darkness: the forced retest is due.",
                               '002 "Darkness"')
                continue
            self._record(ruling, b.side.name)
            hit = ruling.outcome is Outcome.CHALLENGER
            results.append(BystanderResult(b.side.name, True, False, "", ruling.outcome, hit, ruling.challenger_throw,
                                           ruling.defender_throw, ruling, options))
            if hit:
                self.steps.add(f"{b.side.name} loses and is hit.", R_SPRAY)
                hits.append(self._hit(b))
        for b in shot.bystanders[reach:]:
            results.append(BystanderResult(b.side.name, False, False, "out of the spray's reach"))
        return results, hits


def firer_bid_count(shot: StrayShot, settings: ChronicleSettings | None = None) -> int:
    """How many Traits the firer risks in the bystander tests: one per bystander at risk
    (every one not excluded, none with careful aim; with several rounds or an area effect,
    everyone the fire reaches), more in each if he is Wounded (002; met-reference 6.2). The
    narrator's screen uses it to pick his Traits.

    Raises:
        RulesError: as :func:`rule_stray_shot`, for what is wrong before any test.
    """
    run = _Stray(shot, settings or ChronicleSettings.defaults(), None)
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


def rule_stray_shot(shot: StrayShot, settings: ChronicleSettings | None = None,
                    rng: RandomSource | None = None) -> StrayRuling:
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
    return _Stray(shot, settings or ChronicleSettings.defaults(), rng).run()


def stray_shot_from_dict(data: Mapping[str, Any], settings: ChronicleSettings | None = None) -> StrayShot:
    """Read a missed shot into a group from JSON-like data (the stateless API's input).

    Keys as :class:`StrayShot`; ``firer`` and each bystander are objects with
    the keys of :class:`~larp.rules.challenge.Contestant`, a bystander adding
    ``throw``, ``firer_throw``, ``saw_it_coming``, ``tests`` and ``body``
    (``{"creature": "mortal", "lethal": 1}``). Example, a pistol's stray round::

        {"firer": {"name": "Ruth", "traits": 3, "bid": ["Steady", "Quick"]},
         "weapon": "pistol", "target": "Konrad",
         "bystanders": [{"name": "Pim", "traits": 2, "bid": ["Nimble"], "throw": "paper",
                         "firer_throw": "rock"},
                        {"name": "Lys", "traits": 7, "bid": ["Quick"], "throw": "rock",
                         "firer_throw": "paper", "saw_it_coming": true}]}

    Raises:
        RulesError: a missing or malformed value, naming the field.
    """
    if not isinstance(data, Mapping):
        raise RulesError("The shot must be an object.", field="shot")
    known = set(StrayShot.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise RulesError(f"Unknown field {unknown[0]!r}.", field=unknown[0])
    if not isinstance(data.get("firer"), Mapping):
        raise RulesError("Give the firer as an object.", field="firer")
    raw_b = data.get("bystanders")
    if not isinstance(raw_b, list) or not raw_b:
        raise RulesError("Give the people near the target as a list, closest first.", field="bystanders")
    bystanders = []
    own = {"throw", "firer_throw", "saw_it_coming", "tests", "body"}
    for index, raw in enumerate(raw_b):
        where = f"bystanders[{index}]"
        if not isinstance(raw, Mapping):
            raise RulesError("A bystander must be an object.", field=where)
        saw = raw.get("saw_it_coming", False)
        if not isinstance(saw, bool):
            raise RulesError("Give true or false.", field=f"{where}.saw_it_coming")
        bystanders.append(Bystander(
            side=contestant_from_dict({k: v for k, v in raw.items() if k not in own}, where),
            throw=None if raw.get("throw") is None else parse_throw(raw["throw"], f"{where}.throw"),
            firer_throw=None if raw.get("firer_throw") is None else parse_throw(raw["firer_throw"], f"{where}.firer_throw"),
            saw_it_coming=saw, tests=test_calls_from_list(raw.get("tests", []), f"{where}.tests"),
            body=body_from_dict(raw.get("body"), f"{where}.body", settings),
        ))
    flags = {}
    for key, default in (("bursts", True), ("careful_aim", False), ("close_range", False)):
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise RulesError("Give true or false.", field=key)
        flags[key] = value
    names = {}
    for key in ("extra_traits", "excluded"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise RulesError("Give a list of names.", field=key)
        names[key] = tuple(v.strip() for v in value)
    weapon = data.get("weapon")
    if not isinstance(weapon, str) or not weapon.strip():
        raise RulesError("Give the gun's live armory key (pistol, shotgun, smg...).", field="weapon")
    target = data.get("target")
    if not isinstance(target, str):
        raise RulesError("Name the target the shot missed.", field="target")
    return StrayShot(
        firer=contestant_from_dict(data["firer"], "firer"), weapon=weapon.strip(), target=target,
        bystanders=tuple(bystanders),
        firer_throw=None if data.get("firer_throw") is None else parse_throw(data["firer_throw"], "firer_throw"),
        **flags, **names,
    )
