"""Aggravated damage a vampire heals over the nights between two game sessions (002 "Damage and
Healing"; met-reference 5.1, T19; the chronicle setting ``agg_heal_model``). Part of
:mod:`larp.rules.healing`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, plural, blood_points, blood_traits
from larp.rules.health import HealthTrack
from larp.rules.healing.vampires import _check_vampire_can_spend, agg_model, _helpless, aggravated_levels, rests_of
from larp.rules.settings import ChronicleSettings

@dataclass(frozen=True)
class AggravatedPlan:
    """Aggravated damage a vampire can heal over the nights between two game sessions.

    Attributes:
        levels: aggravated levels healed.
        blood: blood points it costs.
        willpower: temporary Willpower Traits it costs.
        rests: nights (or days) of rest used.
        per_rest: levels healed in each rest used, in order.
        limited_by: what stops more healing: "blood", "willpower", "nights",
            "requested" (the plan asked for fewer), or ``None`` when every
            aggravated level heals.
        track: the track afterwards.
        steps: the explanation.
        marked_after: Blood Traits still marked against the wounds afterwards (``lotnr_instalments``).
    """

    levels: int
    blood: int
    willpower: int
    rests: int
    per_rest: tuple[int, ...]
    limited_by: str | None
    track: HealthTrack
    steps: tuple[Step, ...]
    marked_after: int = 0


def plan_aggravated_healing(track: HealthTrack, nights: int, blood_available: int, willpower_available: int,
                            settings: ChronicleSettings | None = None, levels: int | None = None,
                            who: str = "The vampire", marked: int = 0) -> AggravatedPlan:
    """The most aggravated levels (or ``levels``, if fewer) a vampire heals in ``nights``
    nights of rest with the blood and Willpower he has, spending as little Willpower as possible.

    Rules: ``agg_heal_model`` (see :func:`aggravated_healing_cost`): under seed
    002 each level takes a night, three blood points and one Willpower; under
    LotNR ch.3 and the tabletop rule a rest heals one level for its blood alone,
    and each further level in the same rest costs one more Willpower, so levels
    are spread one a rest first. Under the LotNR "Blood" reading (``lotnr_instalments``) the
    ``marked`` Blood Traits already put toward the wounds pay first, and a level heals at the next
    sunset after its last Blood Trait, one a sunset, each further one 1 Willpower. An incapacitated
    or unconscious vampire heals bashing and lethal damage first (002). A vampire in torpor or
    staked heals nothing.

    Args:
        nights: nights (days, for the day-rest models) between the two game sessions.
        blood_available: blood points in the pool.
        willpower_available: temporary Willpower Traits.
        levels: heal at most this many (the organiser's plan), else as many as possible.

    Raises:
        RulesError: a destroyed, non-vampire, torpid or staked character;
            normal damage to heal first when helpless; a negative number of
            nights, blood or Willpower, or fewer than 0 levels requested.
    """
    settings = settings or ChronicleSettings.defaults()
    _check_vampire_can_spend(track, who)
    for name, value in (("nights", nights), ("blood", blood_available), ("willpower", willpower_available),
                        ("levels", 0 if levels is None else levels)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RulesError(Phrase.message(N_("%(name)s must be a whole number of at least 0."),
                                            name=name.capitalize()), field=name)
    if _helpless(track) and track.bashing + track.lethal:
        raise RulesError(Phrase.message(N_("%(who)s heals automatically in the order bashing, lethal, aggravated: "
                                           "heal the bashing and lethal damage first."), who=who), field="damage_type")
    model = agg_model(settings)  # between game sessions: the live game's model
    credit = marked if model.get("instalments") else 0
    blood_available += credit  # Blood Traits already marked pay first (they were spent earlier)
    wanted = track.aggravated if levels is None else min(levels, track.aggravated)
    per_rest: list[int] = []
    blood = willpower = 0
    limited_by: str | None = None
    while sum(per_rest) < wanted:
        if len(per_rest) < nights:
            cost_blood, cost_wp = model["blood"], model["first_wp"]
            new_rest = True
        elif per_rest and (model["per_rest"] is None or per_rest[-1] < model["per_rest"]):
            cost_blood, cost_wp = model["blood"], model["extra_wp"]
            new_rest = False
        else:
            limited_by = "nights"
            break
        if blood + cost_blood > blood_available:
            limited_by = "blood"
            break
        if willpower + cost_wp > willpower_available:
            limited_by = "willpower"
            break
        blood += cost_blood
        willpower += cost_wp
        if new_rest:
            per_rest.append(1)
        else:
            # Extra levels go into the rests already taken, one each in turn.
            index = min(range(len(per_rest)), key=lambda i: per_rest[i])
            per_rest[index] += 1
    healed = sum(per_rest)
    if limited_by is None and healed < track.aggravated:
        limited_by = "requested"
    paid = min(credit, blood)
    blood -= paid  # what the pool pays now
    blood_available -= credit
    steps = Explanation()
    rest = model["rest"]
    steps.add(N_("%(rests)s of rest between the game sessions; %(name)s has %(levels)s, %(blood)s and %(willpower)s "
                 "Willpower."), model["rule"], setting="agg_heal_model", rests=rests_of(nights, rest), name=who,
              levels=aggravated_levels(track.aggravated), blood=blood_points(blood_available),
              willpower=willpower_available)
    if credit:
        steps.add(N_("%(blood)s already marked against the wounds pay first."), model["rule"],
                  setting="agg_heal_model", blood=blood_traits(credit))
    if healed:
        steps.add(N_("%(name)s heals %(levels)s over %(rests)s for %(blood)s and %(willpower)s Willpower."),
                  model["rule"], setting="agg_heal_model", name=who, levels=aggravated_levels(healed),
                  rests=rests_of(len(per_rest), rest), blood=blood_points(blood), willpower=willpower)
    reasons = {
        "blood": Phrase.message(N_("not enough blood for another level (%(n)s blood points a level)"),
                                n=model["blood"]),
        "willpower": Phrase.message(N_("not enough Willpower for another level")),
        "nights": Phrase.message(N_("no night of rest left for another level") if rest == "night" else
                                 N_("no day of rest left for another level")),
        "requested": Phrase.message(N_("the plan heals no more")),
    }
    if limited_by is not None:
        left = track.aggravated - healed
        steps.add(N_("%(levels)s stay: %(reason)s."), model["rule"], setting="agg_heal_model",
                  levels=aggravated_levels(left), reason=reasons[limited_by])
    new = replace(track, aggravated=track.aggravated - healed)
    return AggravatedPlan(healed, blood, willpower, len(per_rest), tuple(per_rest), limited_by, new, steps.steps(),
                          credit - paid)
