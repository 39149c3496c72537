"""Vampires healing with blood, and blood a helpless vampire swallows (002 "Damage and Healing";
LotNR ch.3 and ch.5 Blood Traits, met-reference 5.1; 000/001 "Aggravated Damage"). Part of
:mod:`larp.rules.healing`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import ceil
from typing import Any, Mapping

from larp.rules.explain import (N_, Explanation, Phrase, RulesError, Step, blood_points, blood_traits, damage_list,
                                levels as levels_of, plural, turns as turns_of)
from larp.rules.health import HealthTrack
from larp.rules.settings import ChronicleSettings

_HEALING = '002 "Damage and Healing"'
#: Levels of each normal type one blood point heals (002 "Damage and Healing").
LEVELS_PER_BLOOD = {"bashing": 2, "lethal": 1}
#: The tabletop's rate: one blood point heals one level of bashing or lethal damage (the
#: tabletop profiles' value ``blood_heals``, ``data/maneuvers.toml``; 000 "Lethal Damage").
TABLETOP_PER_BLOOD = {"bashing": 1, "lethal": 1}


def _rate(per_blood: Mapping[str, int] | None) -> tuple[Mapping[str, int], str]:
    """The levels a blood point heals and the rule that says so (the live game's unless given)."""
    if per_blood is None:
        return LEVELS_PER_BLOOD, _HEALING
    return per_blood, 'The tabletop profile (data/maneuvers.toml blood_heals; 000 "Lethal Damage")'

#: Aggravated healing per model: blood points a level, Willpower for the first level and
#: for each further level healed in the same rest, and the most levels in one rest.
AGG_MODELS: dict[str, dict[str, Any]] = {
    "house_002": {"blood": 3, "first_wp": 1, "extra_wp": 1, "per_rest": 1, "rest": "night",
                  "rule": '002 "Damage and Healing"'},
    "lotnr_ch3": {"blood": 3, "first_wp": 0, "extra_wp": 1, "per_rest": None, "rest": "day",
                  "rule": "LotNR ch.3 Blood Traits (met-reference 5.1)"},
    "tabletop": {"blood": 5, "first_wp": 0, "extra_wp": 1, "per_rest": None, "rest": "day",
                 "rule": '000 "Aggravated Damage"; 001 "Aggravated Damage"'},
    "lotnr_instalments": {"blood": 3, "first_wp": 0, "extra_wp": 1, "per_rest": None, "rest": "night",
                          "instalments": True, "rule": 'LotNR "Blood" (ch.3 Blood Traits, met-reference 5.1)'},
}


def agg_heal_reading(settings: ChronicleSettings, game: str = "live") -> str:
    """The aggravated healing model in force for ``game`` ("live" or "tabletop"): the setting
    ``agg_heal_model``; its default ``by_profile`` keeps seed 002's rule in the live game ("house_002")
    and 000's at the tabletop ("tabletop": a day's rest and 5 blood points, each extra level that day
    5 more and 1 Willpower), as the tabletop already heals bashing and lethal at its own rate.

    Raises:
        RulesError: an unknown game.
    """
    if game not in ("live", "tabletop"):
        raise RulesError(Phrase.message(N_("The game is live or tabletop.")), field="game")
    value = settings["agg_heal_model"]
    if value == "by_profile":
        return "tabletop" if game == "tabletop" else "house_002"
    return value


def agg_model(settings: ChronicleSettings, game: str = "live") -> dict[str, Any]:
    """The :data:`AGG_MODELS` entry in force for ``game`` (:func:`agg_heal_reading`)."""
    return AGG_MODELS[agg_heal_reading(settings, game)]


def aggravated_levels(count: int) -> Phrase:
    """"1 aggravated level", "3 aggravated levels", in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s aggravated level", "%(n)s aggravated levels")


def rests_of(count: int, rest: str) -> Phrase:
    """``count`` nights or days of rest (``rest``: an ``AGG_MODELS`` model's "night" or "day"): "1 night", "2 days"."""
    if rest == "night":
        return Phrase.counted(count, "%(n)s night", "%(n)s nights")
    return Phrase.counted(count, "%(n)s day", "%(n)s days")


@dataclass(frozen=True)
class HealingRuling:
    """The result of healing.

    Attributes:
        track: the new track.
        healed: levels healed by type ({"bashing": 2, ...}).
        blood_spent: blood points spent.
        willpower_spent: temporary Willpower Traits spent.
        turns: combat turns the blood takes at the character's blood per turn.
        actions_used: turns of concentration (``heal_action`` "full_turn"), else 0.
        rests: nights (or days) of rest the healing takes.
        steps: the explanation.
        agg_marked: Blood Traits now put toward the aggravated wounds (``lotnr_instalments``),
            when the healing changed them.
        hours: a mortal's healing: the hours it took (the last change).
    """

    track: HealthTrack
    healed: dict[str, int]
    blood_spent: int
    willpower_spent: int
    turns: int
    actions_used: int
    rests: int
    steps: tuple[Step, ...]
    agg_marked: int | None = None
    hours: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data for the record and the API."""
        return {
            "track": self.track.to_dict(), "healed": dict(self.healed), "blood_spent": self.blood_spent,
            "willpower_spent": self.willpower_spent, "turns": self.turns, "actions_used": self.actions_used,
            "rests": self.rests, "steps": [s.to_dict() for s in self.steps], "agg_marked": self.agg_marked,
            "hours": self.hours,
        }


def _check_vampire_can_spend(track: HealthTrack, who: str) -> None:
    if track.condition == "final_death":
        raise RulesError(Phrase.message(N_("%(name)s has met Final Death; Final Death is final and nothing heals it."),
                                        name=who), field="track")
    if track.condition == "dead":
        raise RulesError(Phrase.message(N_("%(name)s is dead; the dead do not heal."), name=who), field="track")
    if not track.is_vampire:
        raise RulesError(Phrase.message(N_("%(name)s is not a vampire and heals by time, not blood (000 \"Mortal's Healing Times\")."), name=who),
                         field="creature")
    if track.condition == "torpor":
        raise RulesError(Phrase.message(N_("%(name)s is in torpor and may do nothing, not even spend blood."), name=who),
                         field="condition")
    if track.staked:
        raise RulesError(Phrase.message(N_("%(name)s is staked and may not spend blood points until the stake is removed."),
                                        name=who),
                         field="staked")


def _helpless(track: HealthTrack) -> bool:
    """Incapacitated or unconscious: healing is automatic (002)."""
    return track.condition == "unconscious" or track.marked >= track.size - 1


def _blood_per_turn(blood_per_turn: int) -> None:
    if isinstance(blood_per_turn, bool) or not isinstance(blood_per_turn, int) or blood_per_turn < 1:
        raise RulesError(Phrase.message(N_("Blood per turn must be at least 1 (see the generation table).")), field="blood_per_turn")


def _timing(blood: int, blood_per_turn: int, settings: ChronicleSettings, steps: Explanation) -> tuple[int, int]:
    turns = ceil(blood / blood_per_turn) if blood else 0
    if turns:
        steps.add(N_("At %(rate)s a turn, spending %(blood)s takes %(turns)s."), "LotNR generation table (met-reference 5.1)",
                  rate=blood_points(blood_per_turn), blood=blood_points(blood), turns=turns_of(turns))
    if settings["heal_action"] == "full_turn":
        if turns:
            steps.add(N_("Healing takes a full turn of concentration for each of those %(turns)s."),
                      "LotNR ch.3 Blood Traits (met-reference 5.1)", setting="heal_action", turns=turns_of(turns))
        return turns, turns
    if turns:
        steps.add(N_("Healing is reflexive: it takes no action."), _HEALING, setting="heal_action")
    return turns, 0


#: The order damage heals in (002 "Damage and Healing": helpless, it heals bashing, lethal, aggravated;
#: 000 "Applying Damage": normal damage is "always marked last and healed first").
HEALING_ORDER = ("bashing", "lethal", "aggravated")


def first_to_heal(track: HealthTrack) -> str:
    """The kind of damage that heals first on ``track``: the first kind of :data:`HEALING_ORDER`
    with a level marked ("bashing" when none is), so a healing form offers what the character has."""
    return next((kind for kind in HEALING_ORDER if getattr(track, kind) > 0), HEALING_ORDER[0])


def heal_with_blood(track: HealthTrack, damage_type: str, levels: int, blood_available: int,
                    blood_per_turn: int, settings: ChronicleSettings | None = None,
                    who: str = "The vampire", per_blood: Mapping[str, int] | None = None) -> HealingRuling:
    """The player chooses to heal ``levels`` of bashing or lethal damage with blood.

    Rules (002 "Damage and Healing"): one blood point heals two levels of
    bashing or one of lethal; the player chooses when and what, unless the
    vampire is incapacitated or unconscious (then :func:`heal_automatically`);
    blood per turn is limited by generation; ``heal_action`` says whether it
    takes an action.

    Args:
        track: the track before healing.
        damage_type: "bashing" or "lethal".
        levels: levels to heal, at least 1 and no more than are marked.
        blood_available: blood points in the pool.
        blood_per_turn: the sheet's blood per turn (generation).
        settings: the chronicle's settings (defaults if omitted).
        per_blood: levels of each type a blood point heals, when not the live game's (the
            tabletop profile: one of either, :data:`TABLETOP_PER_BLOOD`).

    Raises:
        RulesError: aggravated damage (ordinary blood does not heal it), a
            destroyed, non-vampire, torpid, staked, incapacitated or
            unconscious character, more levels than are marked, too little blood.
    """
    settings = settings or ChronicleSettings.defaults()
    _check_vampire_can_spend(track, who)
    if damage_type == "aggravated":
        raise RulesError(Phrase.message(N_("Ordinary blood does not heal aggravated damage: it takes three blood points "
                                           "and a Willpower Trait, one level a night.")), field="damage_type")
    rate, rule = _rate(per_blood)
    if damage_type not in rate:
        raise RulesError(Phrase.message(N_("Unknown damage type %(damage_type)s."), damage_type=repr(damage_type)),
                         field="damage_type")
    if _helpless(track):
        raise RulesError(Phrase.message(N_("%(name)s is incapacitated or unconscious: healing happens automatically, "
                                           "bashing first."), name=who),
                         field="condition")
    _blood_per_turn(blood_per_turn)
    present = getattr(track, damage_type)
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 1:
        raise RulesError(Phrase.message(N_("Heal at least one level.")), field="levels")
    if levels > present:
        raise RulesError(Phrase.message(N_("%(name)s has only %(levels)s of %(kind)s damage to heal."), name=who,
                                        levels=levels_of(present), kind=Phrase.term(damage_type)), field="levels")
    blood = ceil(levels / rate[damage_type])
    if blood > blood_available:
        raise RulesError(Phrase.message(N_("Healing %(levels)s %(kind)s takes %(blood)s; %(name)s has %(available)s."),
                                        levels=levels, kind=Phrase.term(damage_type), blood=blood_points(blood), name=who,
                                        available=blood_available), field="blood")
    steps = Explanation()
    steps.add(N_("%(name)s spends %(blood)s to heal %(levels)s of %(kind)s damage (one blood point heals %(rate)s of "
                 "%(kind)s)."), rule, name=who, blood=blood_points(blood), levels=levels_of(levels),
              kind=Phrase.term(damage_type), rate=levels_of(rate[damage_type]))
    turns, actions = _timing(blood, blood_per_turn, settings, steps)
    new = replace(track, **{damage_type: present - levels})
    steps.add(N_("%(name)s is now %(level)s."), "LotNR Health (met-reference 4.1)", name=who,
              level=Phrase.term(new.state()))
    return HealingRuling(new, {damage_type: levels}, blood, 0, turns, actions, 0, steps.steps())


def heal_automatically(track: HealthTrack, blood_available: int, blood_per_turn: int,
                       settings: ChronicleSettings | None = None, who: str = "The vampire",
                       per_blood: Mapping[str, int] | None = None) -> HealingRuling:
    """An incapacitated or unconscious vampire heals automatically: bashing, then lethal,
    while blood lasts (002 "Damage and Healing"). Aggravated damage, last in the
    order, heals at the night's rest with :func:`heal_aggravated`.

    Seed 002 names no point where automatic healing stops, so it heals all the
    bashing and lethal damage the blood pool allows. ``per_blood``: as :func:`heal_with_blood`.

    Raises:
        RulesError: a destroyed, non-vampire, torpid or staked character; one
            who is neither incapacitated nor unconscious; no bashing or lethal
            damage; no blood.
    """
    settings = settings or ChronicleSettings.defaults()
    _check_vampire_can_spend(track, who)
    if not _helpless(track):
        raise RulesError(Phrase.message(N_("%(name)s is neither incapacitated nor unconscious: the player chooses what to "
                                           "heal."), name=who),
                         field="condition")
    _blood_per_turn(blood_per_turn)
    if track.bashing + track.lethal == 0:
        raise RulesError(Phrase.message(N_("%(name)s has no bashing or lethal damage; aggravated damage heals one level a "
                                           "night."), name=who),
                         field="damage_type")
    if blood_available < 1:
        raise RulesError(Phrase.message(N_("%(name)s has no blood to heal with."), name=who), field="blood")
    steps = Explanation()
    steps.add(N_("%(name)s is %(level)s: healing is automatic, bashing first, then lethal."), _HEALING, name=who,
              level=Phrase.term(track.state().lower() if track.condition == "active" else track.condition))
    rate, rule = _rate(per_blood)
    blood = blood_available
    bashing_blood = min(blood, ceil(track.bashing / rate["bashing"]))
    bashing = min(track.bashing, bashing_blood * rate["bashing"])
    blood -= bashing_blood
    lethal_blood = min(blood, ceil(track.lethal / rate["lethal"]))
    lethal = min(track.lethal, lethal_blood * rate["lethal"])
    blood -= lethal_blood
    spent = blood_available - blood
    healed = {k: v for k, v in (("bashing", bashing), ("lethal", lethal)) if v}
    steps.add(N_("%(name)s spends %(blood)s: %(healed)s healed."), rule, name=who, blood=blood_points(spent),
              healed=damage_list(healed.items()))
    turns, actions = _timing(spent, blood_per_turn, settings, steps)
    new = replace(track, bashing=track.bashing - bashing, lethal=track.lethal - lethal)
    steps.add(N_("%(name)s is now %(level)s."), "LotNR Health (met-reference 4.1)", name=who,
              level=Phrase.term(new.state()))
    return HealingRuling(new, healed, spent, 0, turns, actions, 0, steps.steps())


@dataclass(frozen=True)
class AggravatedCost:
    """What healing aggravated damage costs under the chronicle's ``agg_heal_model``.

    Attributes:
        blood: blood points in all.
        willpower: temporary Willpower Traits in all.
        rests: nights (002) or days (ch.3, tabletop) of rest, at the fastest pace.
        steps: the explanation.
    """

    blood: int
    willpower: int
    rests: int
    steps: tuple[Step, ...]


def _agg_cost_one_rest(levels: int, model: dict[str, Any]) -> tuple[int, int]:
    return model["blood"] * levels, model["first_wp"] + model["extra_wp"] * (levels - 1)


def aggravated_healing_cost(levels: int, settings: ChronicleSettings | None = None,
                            game: str = "live") -> AggravatedCost:
    """The blood, Willpower and rests to heal ``levels`` of aggravated damage as fast as allowed.

    ``agg_heal_model`` (met-reference 5.1, T19), read for ``game`` (:func:`agg_heal_reading`: by
    default "house_002" in the live game, "tabletop" at the tabletop):
    - "house_002": 3 blood points and 1 Willpower a level, one level a night.
    - "lotnr_ch3": 3 blood points a level; one level a day, or more in the same
      rest for 1 Willpower each extra level.
    - "tabletop": a day's rest and 5 blood points; each extra level that day
      5 blood points and 1 Willpower (000, 001 "Aggravated Damage").

    Raises:
        RulesError: fewer than one level.
    """
    settings = settings or ChronicleSettings.defaults()
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 1:
        raise RulesError(Phrase.message(N_("Heal at least one level.")), field="levels")
    model = agg_model(settings, game)
    if model["per_rest"] is None:
        blood, willpower = _agg_cost_one_rest(levels, model)
        rests = 1
    else:
        rests = ceil(levels / model["per_rest"])
        blood, willpower = (x * rests for x in _agg_cost_one_rest(model["per_rest"], model))
    steps = Explanation()
    steps.add(N_("%(levels)s: %(blood)s and %(willpower)s Willpower over %(rests)s of rest."), model["rule"],
              setting="agg_heal_model", levels=aggravated_levels(levels), blood=blood_points(blood),
              willpower=willpower, rests=rests_of(rests, model["rest"]))
    return AggravatedCost(blood, willpower, rests, steps.steps())


def heal_aggravated(track: HealthTrack, levels: int, blood_available: int, willpower_available: int,
                    settings: ChronicleSettings | None = None, who: str = "The vampire",
                    game: str = "live") -> HealingRuling:
    """Heal ``levels`` of aggravated damage in one rest (one night under seed 002).

    Rules: ``agg_heal_model`` (see :func:`aggravated_healing_cost`); an
    incapacitated or unconscious vampire heals in the order bashing, lethal,
    aggravated, so his normal damage must be healed first (002).

    Args:
        levels: aggravated levels to heal in this rest.
        blood_available: blood points in the pool.
        willpower_available: temporary Willpower Traits left.
        game: "live" or "tabletop": whose model holds by default (:func:`agg_heal_reading`).

    Raises:
        RulesError: a destroyed, non-vampire, torpid or staked character; more
            levels than are marked or than one rest allows; normal damage still
            to heal first when helpless; too little blood or Willpower.
    """
    settings = settings or ChronicleSettings.defaults()
    _check_vampire_can_spend(track, who)
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 1:
        raise RulesError(Phrase.message(N_("Heal at least one level.")), field="levels")
    if levels > track.aggravated:
        raise RulesError(Phrase.message(N_("%(name)s has only %(levels)s of aggravated damage."), name=who,
                                        levels=levels_of(track.aggravated)), field="levels")
    model = agg_model(settings, game)
    if model["per_rest"] is not None and levels > model["per_rest"]:
        raise RulesError(Phrase.message(N_("Aggravated damage heals only %(value)s level a %(value2)s."),
                                        value=model['per_rest'], value2=model['rest']), field="levels")
    if _helpless(track) and track.bashing + track.lethal:
        raise RulesError(Phrase.message(N_("%(name)s heals automatically in the order bashing, lethal, aggravated: heal "
                                           "the bashing and lethal damage first."), name=who), field="damage_type")
    blood, willpower = _agg_cost_one_rest(levels, model)
    if blood > blood_available:
        raise RulesError(Phrase.message(N_("Healing %(levels)s aggravated takes %(blood)s; %(name)s has %(available)s."),
                                        levels=levels, blood=blood_points(blood), name=who, available=blood_available),
                         field="blood")
    if willpower > willpower_available:
        raise RulesError(Phrase.message(N_("Healing %(levels)s aggravated takes %(willpower)s Willpower; %(who)s "
                                           "has %(willpower_available)s."),
                                        levels=levels, willpower=willpower, who=who, willpower_available=willpower_available),
                         field="willpower")
    steps = Explanation()
    steps.add(N_("%(name)s rests a night and spends %(blood)s and %(willpower)s Willpower to heal %(levels)s of "
                 "aggravated damage.") if model["rest"] == "night" else
              N_("%(name)s rests a day and spends %(blood)s and %(willpower)s Willpower to heal %(levels)s of "
                 "aggravated damage."), model["rule"], setting="agg_heal_model", name=who, blood=blood_points(blood),
              willpower=willpower, levels=levels_of(levels))
    new = replace(track, aggravated=track.aggravated - levels)
    steps.add(N_("%(name)s is now %(level)s."), "LotNR Health (met-reference 4.1)", name=who,
              level=Phrase.term(new.state()))
    return HealingRuling(new, {"aggravated": levels}, blood, willpower, 0, 0, 1, steps.steps())


def mark_aggravated_blood(track: HealthTrack, levels: int, blood_available: int, marked: int,
                          settings: ChronicleSettings | None = None, who: str = "The vampire") -> HealingRuling:
    """Put Blood Traits toward ``levels`` aggravated wounds, in instalments (``agg_heal_model``
    "lotnr_instalments"; LotNR "Blood", ch.3 Blood Traits, met-reference 5.1): three a level,
    built up over as many nights as it takes and marked against the wound; a level heals at the
    next sunset after its last Blood Trait (the nights between game sessions heal it, see
    :func:`larp.rules.healing.plan_aggravated_healing`). The track does not change tonight.

    Args:
        levels: aggravated levels to work on.
        blood_available: blood points in the pool (all of them may go toward the wounds).
        marked: Blood Traits already marked against the wounds.

    Raises:
        RulesError: the model is not ``lotnr_instalments``; a character who cannot spend blood; no
            aggravated damage, or every level already fully paid; no blood.
    """
    settings = settings or ChronicleSettings.defaults()
    model = agg_model(settings)
    if not model.get("instalments"):
        raise RulesError(Phrase.message(N_("Blood is put toward an aggravated wound in instalments only under the "
                                           "LotNR \"Blood\" reading (agg_heal_model = lotnr_instalments).")),
                         field="kind")
    _check_vampire_can_spend(track, who)
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 1:
        raise RulesError(Phrase.message(N_("Heal at least one level.")), field="levels")
    if track.aggravated < 1:
        raise RulesError(Phrase.message(N_("%(name)s has no aggravated damage."), name=who), field="levels")
    levels = min(levels, track.aggravated)
    owed = max(0, model["blood"] * levels - marked)
    if owed == 0:
        raise RulesError(Phrase.message(N_("%(marked)s Blood Traits are already marked against %(levels)s: they heal at the "
                                           "next sunset."), marked=marked,
                                        levels=Phrase.counted(levels, "%(n)s aggravated level", "%(n)s aggravated levels")),
                         field="levels")
    if blood_available < 1:
        raise RulesError(Phrase.message(N_("%(name)s has no blood to put toward the wound."), name=who), field="blood")
    spent = min(owed, blood_available)
    now = marked + spent
    steps = Explanation()
    steps.add(N_("%(name)s puts %(blood)s toward his aggravated wounds: %(now)s of %(owed)s marked (%(rate)s a level).")
              if track.aggravated > 1 else
              N_("%(name)s puts %(blood)s toward his aggravated wound: %(now)s of %(owed)s marked (%(rate)s a level)."),
              model["rule"], setting="agg_heal_model", name=who, blood=blood_traits(spent), now=now,
              owed=model["blood"] * levels, rate=model["blood"])
    ready = min(now // model["blood"], track.aggravated)
    if ready:
        steps.add(N_("%(levels)s fully paid: they heal at the next sunset after the last Blood Trait (one a day; each "
                     "further level that day 1 Willpower)."), model["rule"], setting="agg_heal_model",
                  levels=levels_of(ready))
    else:
        steps.add(N_("The wound heals at the next sunset after its last Blood Trait: %(more)s more to put toward it, "
                     "on this night or later ones."), model["rule"], setting="agg_heal_model",
                  more=model["blood"] - now % model["blood"])
    return HealingRuling(track, {}, spent, 0, 0, 0, 0, steps.steps(), agg_marked=now)


@dataclass(frozen=True)
class BloodSwallowed:
    """Blood a helpless vampire swallows.

    Attributes:
        blood_current: the pool after swallowing, in blood points.
        swallowed: blood points taken in.
        steps: the explanation.
    """

    blood_current: int
    swallowed: int
    steps: tuple[Step, ...]


def swallow_blood(track: HealthTrack, blood_current: int, blood_max: int, offered: int,
                  who: str = "The vampire") -> BloodSwallowed:
    """An incapacitated, unconscious or torpid vampire swallows blood placed in his
    mouth until his pool is full (002 "Damage and Healing").

    Raises:
        RulesError: not a vampire, destroyed, not helpless (an active vampire
            feeds by choice), or impossible blood numbers.
    """
    if track.destroyed:
        raise RulesError(Phrase.message(N_("%(name)s is destroyed and swallows nothing."), name=who), field="track")
    if not track.is_vampire:
        raise RulesError(Phrase.message(N_("%(name)s is not a vampire."), name=who), field="creature")
    if not (_helpless(track) or track.condition == "torpor"):
        raise RulesError(Phrase.message(N_("%(name)s is not incapacitated, unconscious or in torpor, and feeds by choice."),
                                        name=who),
                         field="condition")
    if min(blood_current, blood_max, offered) < 0 or blood_current > blood_max:
        raise RulesError(Phrase.message(N_("Blood points must be at least 0, and the pool no more than its maximum.")), field="blood")
    swallowed = min(offered, blood_max - blood_current)
    steps = Explanation()
    steps.add(N_("%(name)s swallows %(n)s of the %(offered)s placed in his mouth (pool %(pool)s of %(most)s)."),
              _HEALING, name=who, n=swallowed, offered=blood_points(offered), pool=blood_current + swallowed,
              most=blood_max)
    return BloodSwallowed(blood_current + swallowed, swallowed, steps.steps())
