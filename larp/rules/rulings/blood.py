"""Rulings on blood, with every consequence: a vampire feeding on a victim, blood given to a
vampire, and the rules calling for blood she may not have (LotNR "Blood", met-reference 3.7, 4.1,
5.1; 002 "Damage and Healing"; 000 "Health Chart", "Torpor"). The rules are in
:mod:`larp.rules.blood`; each entry point here takes the people as they stand tonight
(:class:`~larp.rules.rulings.people.Person`) and returns a :class:`BloodRuling` a service writes
as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from larp.rules.blood import blood_call_said, call_for_blood, drain, give_blood, health_levels
from larp.rules.explain import N_, Phrase, RulesError, Step, blood_points, blood_traits
from larp.rules.health import standing
from larp.rules.rulings.consequences import Consequences, Tally
from larp.rules.rulings.people import Person, person_track
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import GameNight, TorporClock, TorporRecord, feed


@dataclass(frozen=True)
class BloodRuling:
    """A ruling on blood (or healing) with everything it changes.

    Attributes:
        summary: one sentence.
        steps: the explanation.
        consequences: what changes for each character (blood, track, torpor's cause, Willpower...).
        outcome: the figures the record keeps (JSON-ready).
    """

    summary: str
    steps: tuple[Step, ...]
    consequences: Consequences
    outcome: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the record keeps it, the API answers with it."""
        return {**self.outcome, "summary": self.summary, "steps": [s.to_dict() for s in self.steps],
                "consequences": self.consequences.to_dict()}


def rule_feeding(drinker: Person, victim: Person, blood: int, settings: ChronicleSettings | None = None
                 ) -> BloodRuling:
    """``drinker`` feeds on ``victim``, draining ``blood`` Blood Traits (LotNR "Blood"; met-reference 3.7).

    Each Blood Trait drained from a mortal or ghoul costs him a level of lethal damage, at most three
    a turn (so a drain of five takes two turns); past Incapacitated he dies (000 "Health"). From a
    vampire the Blood Traits leave his pool and do no wound. The drinker drinks no more than his pool
    holds (LotNR generation table, met-reference 5.1): asked for more, he drinks what fits and the
    victim loses only that (``drain_past_full_pool`` off, the default); with the setting on he drains
    all that was asked and the rest is lost.

    Raises:
        RulesError: a drinker who is not a vampire or cannot feed (destroyed, torpor, staked), the
            same person twice, a dead victim, fewer than one Blood Trait, a full pool (setting off).
    """
    settings = settings or ChronicleSettings.defaults()
    if drinker.name == victim.name:
        raise RulesError(Phrase.message(N_("A vampire does not feed on himself.")), field="victim")
    d_track = person_track(drinker, settings)
    if drinker.creature != "vampire":
        raise RulesError(Phrase.message(N_("%(name)s is not a vampire: only vampires feed on blood."),
                                        name=drinker.name), field="drinker")
    if d_track.destroyed or d_track.condition != "active" or d_track.staked:
        raise RulesError(Phrase.message(N_("%(name)s is %(standing)s and staked: he cannot feed now.") if d_track.staked
                                        else N_("%(name)s is %(standing)s: he cannot feed now."),
                                        name=drinker.name, standing=standing(d_track)), field="drinker")
    v_track = person_track(victim, settings)
    tracked = victim.blood_max > 0 or victim.creature == "vampire"
    result = drain(v_track, blood, drinker.blood, drinker.blood_max, victim_blood=victim.blood if tracked else None,
                   settings=settings, drinker=drinker.name, victim_name=victim.name)
    tally = Tally()
    tally.person(drinker.name, d_track)
    tally.person(victim.name, v_track)
    if result.taken:
        tally.blood(drinker.name, result.taken)
    if result.victim_blood is not None and victim.blood != result.victim_blood:
        tally.blood(victim.name, result.victim_blood - victim.blood)
    tally.hurt(victim.name, result.victim_track)
    full = result.drained < result.asked  # the pool held no more than was drunk
    if victim.creature != "vampire":
        summary = Phrase.message(N_("%(name)s drains %(blood)s from %(victim)s, all the pool holds; %(victim)s takes "
                                    "%(n)s lethal and is now %(level)s.") if full
                                 else N_("%(name)s drains %(blood)s from %(victim)s, who takes %(n)s lethal and is now "
                                         "%(level)s."), name=drinker.name, blood=blood_traits(result.drained),
                                 victim=victim.name, n=result.drained, level=standing(result.victim_track))
    else:
        summary = Phrase.message(N_("%(name)s drains %(blood)s from %(victim)s, all the pool holds.") if full
                                 else N_("%(name)s drains %(blood)s from %(victim)s."), name=drinker.name,
                                 blood=blood_traits(result.drained), victim=victim.name)
    return BloodRuling(summary, result.steps, tally.consequences(),
                       {"asked": result.asked, "drained": result.drained, "taken": result.taken,
                        "turns": result.turns, "victim_track": result.victim_track.to_dict()})


def rule_blood_called_for(person: Person, reason: str, blood: int = 1, settings: ChronicleSettings | None = None,
                          *, night: GameNight | None = None) -> BloodRuling:
    """The rules call for ``blood`` blood points from ``person`` (``reason``: rising at sunset, a
    Discipline, healing, other): his pool pays what it holds, each point it lacks costs a health level
    (``empty_pool_wound``), and past Incapacitated that way he falls into torpor from blood loss,
    recorded as such (000 "Health Chart", "Torpor"; met-reference 4.1).

    Args:
        night: the game session the ruling happens in (its date and number, :class:`larp.rules.torpor.GameNight`):
            a vampire it puts in torpor gets the torpor's length and wake date in the consequences and
            at the end of the steps (met-reference 5.2); ``None``: not known, the cause only.

    Raises:
        RulesError: as :func:`larp.rules.blood.call_for_blood`.
    """
    settings = settings or ChronicleSettings.defaults()
    track = person_track(person, settings)
    call = call_for_blood(track, person.blood, blood, reason, settings, person.name)
    tally = Tally()
    tally.person(person.name, track)
    if call.spent:
        tally.blood(person.name, -call.spent)
    tally.hurt(person.name, call.track)
    if call.blood_loss_torpor:
        tally.torpor_cause(person.name, "blood_loss")
    if call.levels_lost:
        summary = Phrase.message(N_("%(why)s calls for blood %(name)s does not have: %(levels)s lost, and torpor from "
                                    "blood loss.") if call.blood_loss_torpor
                                 else N_("%(why)s calls for blood %(name)s does not have: %(levels)s lost."),
                                 why=blood_call_said(reason, start=True), name=person.name,
                                 levels=health_levels(call.levels_lost))
    else:
        summary = Phrase.message(N_("%(name)s spends %(blood)s for %(why)s."), name=person.name,
                                 blood=blood_points(call.spent), why=blood_call_said(reason))
    consequences = tally.consequences(TorporClock.of(settings, night, [person]))
    return BloodRuling(summary, tuple(call.steps) + consequences.steps, consequences,
                       {"reason": reason, "spent": call.spent, "levels_lost": call.levels_lost,
                        "blood_loss_torpor": call.blood_loss_torpor, "track": call.track.to_dict()})


def rule_given_blood(person: Person, offered: int, settings: ChronicleSettings | None = None,
                     torpor: TorporRecord | None = None) -> BloodRuling:
    """Blood given to ``person``: helpless he swallows it until his pool is full (002 "Damage and
    Healing"); active he feeds (LotNR generation table, met-reference 5.1); in torpor from blood
    loss a blood point wakes him, whatever his rating, under ``feeding_wakes_blood_torpor``, and he
    rises considered Crippled (000/001 "Torpor"; ``torpor``: his torpor as recorded).

    Raises:
        RulesError: as :func:`larp.rules.blood.give_blood` and :func:`larp.rules.torpor.feed`.
    """
    settings = settings or ChronicleSettings.defaults()
    track = person_track(person, settings)
    tally = Tally()
    tally.person(person.name, track)
    if track.condition == "torpor":
        fed = feed(track, person.blood, person.blood_max, offered, settings, torpor, person.name)
        taken, after, steps, woke = fed.taken, fed.blood_current, fed.steps, fed.woke
        tally.hurt(person.name, fed.track)
    else:
        given = give_blood(track, person.blood, person.blood_max, offered, person.name)
        taken, after, steps, woke = given.taken, given.blood_current, given.steps, False
    if taken:
        tally.blood(person.name, taken)
    summary = Phrase.message(N_("%(name)s takes %(blood)s and rises from torpor.") if woke
                             else N_("%(name)s takes %(blood)s."), name=person.name, blood=blood_points(taken))
    return BloodRuling(summary, steps, tally.consequences(),
                       {"track": track.to_dict(), "blood_current": after, "taken": taken, "woke": woke})
