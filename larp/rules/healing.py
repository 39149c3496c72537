"""Healing: vampires with blood, mortals with time (002 "Damage and Healing"; 000 "Mortal's Healing Times").

Vampires (seed 002):
- Healing is reflexive: the player chooses when, and which type, until the
  vampire is incapacitated or unconscious; then it happens automatically, in
  the order bashing, lethal, aggravated (:func:`heal_automatically`).
- One blood point heals two levels of bashing or one of lethal damage
  (:func:`heal_with_blood`); blood spent in a turn is limited by generation
  (the sheet's blood per turn), so healing may take several turns.
- Aggravated damage heals one level a night for three blood points and one
  temporary Willpower (:func:`heal_aggravated`); the chronicle setting
  ``agg_heal_model`` offers LotNR ch.3 and the tabletop rule instead.
- An incapacitated, unconscious or torpid vampire swallows blood placed in his
  mouth until his pool is full (:func:`swallow_blood`).
- A vampire in torpor may not spend blood (000 "Torpor"), nor may a staked one
  (000 "Stake Through Heart").

Mortals heal by time, each level on its own, lowest first (:func:`mortal_healing_time`).

All functions are pure: old track in, new track out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from math import ceil
from typing import Any

from larp.rules.explain import Explanation, RulesError, Step
from larp.rules.health import HealthTrack, tabletop_view
from larp.rules.settings import ChronicleSettings
from larp.tables import TableError, load_toml, require

_HEALING = '002 "Damage and Healing"'
#: Levels of each normal type one blood point heals (002 "Damage and Healing").
LEVELS_PER_BLOOD = {"bashing": 2, "lethal": 1}
#: Aggravated healing per model: blood points a level, Willpower for the first level and
#: for each further level healed in the same rest, and the most levels in one rest.
AGG_MODELS: dict[str, dict[str, Any]] = {
    "house_002": {"blood": 3, "first_wp": 1, "extra_wp": 1, "per_rest": 1, "rest": "night",
                  "rule": '002 "Damage and Healing"'},
    "lotnr_ch3": {"blood": 3, "first_wp": 0, "extra_wp": 1, "per_rest": None, "rest": "day",
                  "rule": "LotNR ch.3 Blood Traits (met-reference 5.1)"},
    "tabletop": {"blood": 5, "first_wp": 0, "extra_wp": 1, "per_rest": None, "rest": "day",
                 "rule": '000 "Aggravated Damage"; 001 "Aggravated Damage"'},
}


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
    """

    track: HealthTrack
    healed: dict[str, int]
    blood_spent: int
    willpower_spent: int
    turns: int
    actions_used: int
    rests: int
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data for the record and the API."""
        return {
            "track": self.track.to_dict(), "healed": dict(self.healed), "blood_spent": self.blood_spent,
            "willpower_spent": self.willpower_spent, "turns": self.turns, "actions_used": self.actions_used,
            "rests": self.rests, "steps": [s.to_dict() for s in self.steps],
        }


def _check_vampire_can_spend(track: HealthTrack, who: str) -> None:
    if track.condition == "final_death":
        raise RulesError(f"{who} has met Final Death; Final Death is final and nothing heals it.", field="track")
    if track.condition == "dead":
        raise RulesError(f"{who} is dead; the dead do not heal.", field="track")
    if not track.is_vampire:
        raise RulesError(f"{who} is not a vampire and heals by time, not blood (000 \"Mortal's Healing Times\").",
                         field="creature")
    if track.condition == "torpor":
        raise RulesError(f"{who} is in torpor and may do nothing, not even spend blood.", field="condition")
    if track.staked:
        raise RulesError(f"{who} is staked and may not spend blood points until the stake is removed.",
                         field="staked")


def _helpless(track: HealthTrack) -> bool:
    """Incapacitated or unconscious: healing is automatic (002)."""
    return track.condition == "unconscious" or track.marked >= track.size - 1


def _blood_per_turn(blood_per_turn: int) -> None:
    if isinstance(blood_per_turn, bool) or not isinstance(blood_per_turn, int) or blood_per_turn < 1:
        raise RulesError("Blood per turn must be at least 1 (see the generation table).", field="blood_per_turn")


def _timing(blood: int, blood_per_turn: int, settings: ChronicleSettings, steps: Explanation) -> tuple[int, int]:
    turns = ceil(blood / blood_per_turn) if blood else 0
    if turns:
        steps.add(f"At {blood_per_turn} blood point(s) a turn, {blood} blood point(s) take {turns} turn(s).",
                  "LotNR generation table (met-reference 5.1)")
    if settings["heal_action"] == "full_turn":
        if turns:
            steps.add(f"Healing takes a full turn of concentration for each of those {turns} turn(s).",
                      "LotNR ch.3 Blood Traits (met-reference 5.1)", setting="heal_action")
        return turns, turns
    if turns:
        steps.add("Healing is reflexive: it takes no action.", _HEALING, setting="heal_action")
    return turns, 0


def heal_with_blood(track: HealthTrack, damage_type: str, levels: int, blood_available: int,
                    blood_per_turn: int, settings: ChronicleSettings | None = None,
                    who: str = "The vampire") -> HealingRuling:
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

    Raises:
        RulesError: aggravated damage (ordinary blood does not heal it), a
            destroyed, non-vampire, torpid, staked, incapacitated or
            unconscious character, more levels than are marked, too little blood.
    """
    settings = settings or ChronicleSettings.defaults()
    _check_vampire_can_spend(track, who)
    if damage_type == "aggravated":
        raise RulesError("Ordinary blood does not heal aggravated damage: it takes three blood points and a "
                         "Willpower Trait, one level a night.", field="damage_type")
    if damage_type not in LEVELS_PER_BLOOD:
        raise RulesError(f"Unknown damage type {damage_type!r}.", field="damage_type")
    if _helpless(track):
        raise RulesError(f"{who} is incapacitated or unconscious: healing happens automatically, bashing first.",
                         field="condition")
    _blood_per_turn(blood_per_turn)
    present = getattr(track, damage_type)
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 1:
        raise RulesError("Heal at least one level.", field="levels")
    if levels > present:
        raise RulesError(f"{who} has only {present} level(s) of {damage_type} damage to heal.", field="levels")
    blood = ceil(levels / LEVELS_PER_BLOOD[damage_type])
    if blood > blood_available:
        raise RulesError(f"Healing {levels} {damage_type} takes {blood} blood point(s); {who} has {blood_available}.",
                         field="blood")
    steps = Explanation()
    steps.add(f"{who} spends {blood} blood point(s) to heal {levels} level(s) of {damage_type} damage "
              f"(one blood point heals {LEVELS_PER_BLOOD[damage_type]} level(s) of {damage_type}).", _HEALING)
    turns, actions = _timing(blood, blood_per_turn, settings, steps)
    new = replace(track, **{damage_type: present - levels})
    steps.add(f"{who} is now {new.state()}.", "LotNR Health (met-reference 4.1)")
    return HealingRuling(new, {damage_type: levels}, blood, 0, turns, actions, 0, steps.steps())


def heal_automatically(track: HealthTrack, blood_available: int, blood_per_turn: int,
                       settings: ChronicleSettings | None = None, who: str = "The vampire") -> HealingRuling:
    """An incapacitated or unconscious vampire heals automatically: bashing, then lethal,
    while blood lasts (002 "Damage and Healing"). Aggravated damage, last in the
    order, heals at the night's rest with :func:`heal_aggravated`.

    Seed 002 names no point where automatic healing stops, so it heals all the
    bashing and lethal damage the blood pool allows.

    Raises:
        RulesError: a destroyed, non-vampire, torpid or staked character; one
            who is neither incapacitated nor unconscious; no bashing or lethal
            damage; no blood.
    """
    settings = settings or ChronicleSettings.defaults()
    _check_vampire_can_spend(track, who)
    if not _helpless(track):
        raise RulesError(f"{who} is neither incapacitated nor unconscious: the player chooses what to heal.",
                         field="condition")
    _blood_per_turn(blood_per_turn)
    if track.bashing + track.lethal == 0:
        raise RulesError(f"{who} has no bashing or lethal damage; aggravated damage heals one level a night.",
                         field="damage_type")
    if blood_available < 1:
        raise RulesError(f"{who} has no blood to heal with.", field="blood")
    steps = Explanation()
    steps.add(f"{who} is {track.state().lower() if track.condition == 'active' else track.condition}: "
              f"healing is automatic, bashing first, then lethal.", _HEALING)
    blood = blood_available
    bashing_blood = min(blood, ceil(track.bashing / 2))
    bashing = min(track.bashing, bashing_blood * 2)
    blood -= bashing_blood
    lethal = min(track.lethal, blood)
    blood -= lethal
    spent = blood_available - blood
    healed = {k: v for k, v in (("bashing", bashing), ("lethal", lethal)) if v}
    steps.add(f"{who} spends {spent} blood point(s): " + ", ".join(f"{v} {k}" for k, v in healed.items())
              + " healed.", _HEALING)
    turns, actions = _timing(spent, blood_per_turn, settings, steps)
    new = replace(track, bashing=track.bashing - bashing, lethal=track.lethal - lethal)
    steps.add(f"{who} is now {new.state()}.", "LotNR Health (met-reference 4.1)")
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


def aggravated_healing_cost(levels: int, settings: ChronicleSettings | None = None) -> AggravatedCost:
    """The blood, Willpower and rests to heal ``levels`` of aggravated damage as fast as allowed.

    ``agg_heal_model`` (met-reference 5.1, T19):
    - "house_002" (default): 3 blood points and 1 Willpower a level, one level a night.
    - "lotnr_ch3": 3 blood points a level; one level a day, or more in the same
      rest for 1 Willpower each extra level.
    - "tabletop": a day's rest and 5 blood points; each extra level that day
      5 blood points and 1 Willpower (000, 001 "Aggravated Damage").

    Raises:
        RulesError: fewer than one level.
    """
    settings = settings or ChronicleSettings.defaults()
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 1:
        raise RulesError("Heal at least one level.", field="levels")
    model = AGG_MODELS[settings["agg_heal_model"]]
    if model["per_rest"] is None:
        blood, willpower = _agg_cost_one_rest(levels, model)
        rests = 1
    else:
        rests = ceil(levels / model["per_rest"])
        blood, willpower = (x * rests for x in _agg_cost_one_rest(model["per_rest"], model))
    steps = Explanation()
    steps.add(f"{levels} aggravated level(s): {blood} blood point(s) and {willpower} Willpower over "
              f"{rests} {model['rest']}(s) of rest.", model["rule"], setting="agg_heal_model")
    return AggravatedCost(blood, willpower, rests, steps.steps())


def heal_aggravated(track: HealthTrack, levels: int, blood_available: int, willpower_available: int,
                    settings: ChronicleSettings | None = None, who: str = "The vampire") -> HealingRuling:
    """Heal ``levels`` of aggravated damage in one rest (one night under seed 002).

    Rules: ``agg_heal_model`` (see :func:`aggravated_healing_cost`); an
    incapacitated or unconscious vampire heals in the order bashing, lethal,
    aggravated, so his normal damage must be healed first (002).

    Args:
        levels: aggravated levels to heal in this rest.
        blood_available: blood points in the pool.
        willpower_available: temporary Willpower Traits left.

    Raises:
        RulesError: a destroyed, non-vampire, torpid or staked character; more
            levels than are marked or than one rest allows; normal damage still
            to heal first when helpless; too little blood or Willpower.
    """
    settings = settings or ChronicleSettings.defaults()
    _check_vampire_can_spend(track, who)
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 1:
        raise RulesError("Heal at least one level.", field="levels")
    if levels > track.aggravated:
        raise RulesError(f"{who} has only {track.aggravated} level(s) of aggravated damage.", field="levels")
    model = AGG_MODELS[settings["agg_heal_model"]]
    if model["per_rest"] is not None and levels > model["per_rest"]:
        raise RulesError(f"Aggravated damage heals only {model['per_rest']} level a {model['rest']}.", field="levels")
    if _helpless(track) and track.bashing + track.lethal:
        raise RulesError(f"{who} heals automatically in the order bashing, lethal, aggravated: heal the "
                         f"bashing and lethal damage first.", field="damage_type")
    blood, willpower = _agg_cost_one_rest(levels, model)
    if blood > blood_available:
        raise RulesError(f"Healing {levels} aggravated takes {blood} blood point(s); {who} has {blood_available}.",
                         field="blood")
    if willpower > willpower_available:
        raise RulesError(f"Healing {levels} aggravated takes {willpower} Willpower; {who} has "
                         f"{willpower_available}.", field="willpower")
    steps = Explanation()
    steps.add(f"{who} rests a {model['rest']} and spends {blood} blood point(s) and {willpower} Willpower to heal "
              f"{levels} level(s) of aggravated damage.", model["rule"], setting="agg_heal_model")
    new = replace(track, aggravated=track.aggravated - levels)
    steps.add(f"{who} is now {new.state()}.", "LotNR Health (met-reference 4.1)")
    return HealingRuling(new, {"aggravated": levels}, blood, willpower, 0, 0, 1, steps.steps())


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
        raise RulesError(f"{who} is destroyed and swallows nothing.", field="track")
    if not track.is_vampire:
        raise RulesError(f"{who} is not a vampire.", field="creature")
    if not (_helpless(track) or track.condition == "torpor"):
        raise RulesError(f"{who} is not incapacitated, unconscious or in torpor, and feeds by choice.",
                         field="condition")
    if min(blood_current, blood_max, offered) < 0 or blood_current > blood_max:
        raise RulesError("Blood points must be at least 0, and the pool no more than its maximum.", field="blood")
    swallowed = min(offered, blood_max - blood_current)
    steps = Explanation()
    steps.add(f"{who} swallows {swallowed} of the {offered} blood point(s) placed in his mouth "
              f"(pool {blood_current + swallowed} of {blood_max}).", _HEALING)
    return BloodSwallowed(blood_current + swallowed, swallowed, steps.steps())


# ---------------------------------------------------------------- mortals

@dataclass(frozen=True)
class LevelHealing:
    """One level a mortal heals: its chart name, damage type and time.

    Attributes:
        level: the tabletop Health chart's name for the box.
        damage_type: "bashing" or "lethal".
        hours: time to heal it (a month counted as 30 days).
        text: the book's wording ("three days").
        needs_medical_care: untreated, it worsens (lethal past Hurt).
        no_recovery_without_care: it cannot heal at all without medical attention.
    """

    level: str
    damage_type: str
    hours: int
    text: str
    needs_medical_care: bool = False
    no_recovery_without_care: bool = False


@dataclass(frozen=True)
class MortalHealing:
    """How long a mortal takes to heal, level by level, lowest first.

    Attributes:
        levels: each level in the order it heals.
        total_hours: the time for all of them, or ``None`` when recovery is
            impossible without medical attention.
        possible: recovery can happen with the care given.
        steps: the explanation.
    """

    levels: tuple[LevelHealing, ...]
    total_hours: int | None
    possible: bool
    steps: tuple[Step, ...] = field(default=())


@lru_cache(maxsize=None)
def mortal_healing_table() -> dict[str, dict[str, LevelHealing]]:
    """The mortals' healing times by type and level (000 "Mortal's Healing Times", ``data/mortal_healing.toml``).

    Raises:
        TableError: a malformed entry.
    """
    raw = load_toml("mortal_healing.toml")
    table: dict[str, dict[str, LevelHealing]] = {}
    for kind in ("bashing", "lethal"):
        rows = raw.get(kind)
        if not isinstance(rows, dict) or not rows:
            raise TableError(f"data/mortal_healing.toml [{kind}]: missing")
        table[kind] = {}
        for level, entry in rows.items():
            where = f"data/mortal_healing.toml [{kind}] {level}"
            table[kind][level] = LevelHealing(
                level=level, damage_type=kind, hours=require(entry, "hours", int, where),
                text=require(entry, "text", str, where),
                needs_medical_care=bool(entry.get("needs_medical_care", False)),
                no_recovery_without_care=bool(entry.get("no_recovery_without_care", False)),
            )
    for alias, target in raw.get("aliases", {}).items():
        for kind in table:
            if target not in table[kind]:
                raise TableError(f"data/mortal_healing.toml [aliases] {alias}: no level {target!r}")
            table[kind][alias] = table[kind][target]
    return table


def mortal_healing_time(track: HealthTrack, medical_care: bool = False, who: str = "The mortal") -> MortalHealing:
    """The time a mortal (or ghoul) needs to heal every level on ``track``.

    Rules (000 "Mortal's Healing Times"): each level heals on its own, lowest
    first, in the time the table gives for that level and type; untreated
    lethal damage past Hurt worsens one level a day; at Crippled or
    Incapacitated no lethal recovery is possible without medical attention; a
    mortal at Incapacitated from bashing spends 12 hours delirious. Levels are
    named by the tabletop chart (the tabletop view of the track).

    Args:
        track: a mortal's or ghoul's track.
        medical_care: the mortal receives medical attention.

    Raises:
        RulesError: a vampire (vampires heal with blood) or a dead character.
    """
    if track.is_vampire:
        raise RulesError(f"{who} is a vampire and heals with blood.", field="creature")
    if track.destroyed:
        raise RulesError(f"{who} is dead; the dead do not heal.", field="track")
    table = mortal_healing_table()
    boxes = [b for b in tabletop_view(track)["boxes"] if b["damage_type"]]
    steps = Explanation()
    rule = '000 "Mortal\'s Healing Times"'
    plan: list[LevelHealing] = []
    for box in reversed(boxes):
        kind = "lethal" if box["damage_type"] == "aggravated" else box["damage_type"]
        if box["level"] not in table[kind]:
            raise RulesError(f"No healing time for the level {box['level']!r}.", field="levels")
        plan.append(table[kind][box["level"]])
    possible = True
    for entry in plan:
        steps.add(f"{entry.level} ({entry.damage_type}): {entry.text}.", rule)
    if any(e.no_recovery_without_care for e in plan) and not medical_care:
        possible = False
        steps.add(f"{who} is Crippled or Incapacitated with lethal damage: no recovery is possible without "
                  f"medical attention.", rule)
    elif any(e.needs_medical_care for e in plan) and not medical_care:
        steps.add("Lethal damage past Hurt needs medical treatment: untreated, it worsens one level a day.", rule)
    if plan and plan[0].level == "Incapacitated" and plan[0].damage_type == "bashing":
        steps.add(f"{who} spends the first 12 hours delirious.", rule)
    total = sum(e.hours for e in plan) if possible else None
    if total is not None:
        steps.add(f"{who} heals completely in {total} hours.", rule)
    return MortalHealing(tuple(plan), total, possible, steps.steps())


# ---------------------------------------------------------------- between game sessions

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
    """

    levels: int
    blood: int
    willpower: int
    rests: int
    per_rest: tuple[int, ...]
    limited_by: str | None
    track: HealthTrack
    steps: tuple[Step, ...]


def plan_aggravated_healing(track: HealthTrack, nights: int, blood_available: int, willpower_available: int,
                            settings: ChronicleSettings | None = None, levels: int | None = None,
                            who: str = "The vampire") -> AggravatedPlan:
    """The most aggravated levels (or ``levels``, if fewer) a vampire heals in ``nights``
    nights of rest with the blood and Willpower he has, spending as little Willpower as possible.

    Rules: ``agg_heal_model`` (see :func:`aggravated_healing_cost`): under seed
    002 each level takes a night, three blood points and one Willpower; under
    LotNR ch.3 and the tabletop rule a rest heals one level for its blood alone,
    and each further level in the same rest costs one more Willpower, so levels
    are spread one a rest first. An incapacitated or unconscious vampire heals
    bashing and lethal damage first (002). A vampire in torpor or staked heals
    nothing.

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
            raise RulesError(f"{name.capitalize()} must be a whole number of at least 0.", field=name)
    if _helpless(track) and track.bashing + track.lethal:
        raise RulesError(f"{who} heals automatically in the order bashing, lethal, aggravated: heal the "
                         f"bashing and lethal damage first.", field="damage_type")
    model = AGG_MODELS[settings["agg_heal_model"]]
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
    steps = Explanation()
    rest = model["rest"]
    steps.add(f"{nights} {rest}(s) of rest between the game sessions; {who} has {track.aggravated} aggravated "
              f"level(s), {blood_available} blood point(s) and {willpower_available} Willpower.", model["rule"],
              setting="agg_heal_model")
    if healed:
        steps.add(f"{who} heals {healed} aggravated level(s) over {len(per_rest)} {rest}(s) for {blood} blood "
                  f"point(s) and {willpower} Willpower.", model["rule"], setting="agg_heal_model")
    reasons = {
        "blood": f"not enough blood for another level ({model['blood']} blood points a level)",
        "willpower": "not enough Willpower for another level",
        "nights": f"no {rest} of rest left for another level",
        "requested": "the plan heals no more",
    }
    if limited_by is not None:
        left = track.aggravated - healed
        steps.add(f"{left} aggravated level(s) stay: {reasons[limited_by]}.", model["rule"],
                  setting="agg_heal_model")
    new = replace(track, aggravated=track.aggravated - healed)
    return AggravatedPlan(healed, blood, willpower, len(per_rest), tuple(per_rest), limited_by, new, steps.steps())


def heal_mortal_over(track: HealthTrack, hours: int, medical_care: bool = False,
                     who: str = "The mortal") -> HealingRuling:
    """Heal a mortal (or ghoul) for ``hours`` hours of time: each level, lowest first,
    heals once its own time has passed (000 "Mortal's Healing Times").

    Untreated lethal damage past Hurt does not heal (it worsens one level a day)
    and past Crippled cannot heal without medical attention, so without
    ``medical_care`` such a track is refused for the narrator to adjudicate. A
    mortal who heals a level regains consciousness.

    Args:
        hours: time passed, in hours (a day is 24).
        medical_care: the mortal had medical attention.

    Returns:
        A :class:`HealingRuling` with ``rests`` the days the healed levels took
        (rounded up) and no blood or Willpower.

    Raises:
        RulesError: a vampire, a dead character, a negative time, or lethal
            damage that needs medical attention it did not get ("medical_care").
    """
    if isinstance(hours, bool) or not isinstance(hours, int) or hours < 0:
        raise RulesError("Time must be a whole number of hours, at least 0.", field="hours")
    plan = mortal_healing_time(track, medical_care, who)
    rule = '000 "Mortal\'s Healing Times"'
    if not medical_care and any(entry.needs_medical_care for entry in plan.levels):
        raise RulesError(f"{who} has lethal damage past Hurt: untreated it worsens one level a day, and past "
                         f"Crippled it cannot heal at all. Record medical care, or adjudicate it by hand.",
                         field="medical_care")
    steps = Explanation()
    used = 0
    healed = 0
    for entry in plan.levels:
        if used + entry.hours > hours:
            break
        used += entry.hours
        healed += 1
        steps.add(f"{entry.level} ({entry.damage_type}) heals in {entry.text}.", rule)
    kinds = track.kinds()
    kept = kinds[:len(kinds) - healed]
    new = replace(track, aggravated=kept.count("aggravated"), lethal=kept.count("lethal"),
                  bashing=kept.count("bashing"))
    if healed and new.condition == "unconscious":
        new = replace(new, condition="active")
    left = len(kept)
    steps.add(f"After {hours} hours {who} has healed {healed} level(s)" + (f", {left} still to heal" if left else
              ", every level") + f": now {new.state()}.", rule)
    counts = {k: kinds[len(kept):].count(k) for k in ("bashing", "lethal", "aggravated")}
    return HealingRuling(new, {k: v for k, v in counts.items() if v}, 0, 0, 0, 0, ceil(used / 24), steps.steps())
