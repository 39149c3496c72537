"""Mortals (and ghouls) heal by time, each level on its own, lowest first; untreated lethal wounds
past Hurt worsen a level a day (000 "Mortal's Healing Times"). Part of :mod:`larp.rules.healing`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from math import ceil

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, plural, levels as levels_of
from larp.rules.health import HealthTrack, apply_damage, standing, tabletop_view
from larp.rules.healing.vampires import HealingRuling
from larp.tables import TableError, load_toml, require

#: The table's times (data/mortal_healing.toml ``text``), marked for the catalogues: a step says them in the
#: reader's language.
TIMES = (N_("one hour"), N_("three hours"), N_("six hours"), N_("12 hours"), N_("one day"), N_("three days"),
         N_("one week"), N_("one month"), N_("two months"), N_("three months"), N_("five months"))


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
        raise RulesError(Phrase.message(N_("%(who)s is a vampire and heals with blood."), who=who), field="creature")
    if track.destroyed:
        raise RulesError(Phrase.message(N_("%(who)s is dead; the dead do not heal."), who=who), field="track")
    table = mortal_healing_table()
    boxes = [b for b in tabletop_view(track)["boxes"] if b["damage_type"]]
    steps = Explanation()
    rule = '000 "Mortal\'s Healing Times"'
    plan: list[LevelHealing] = []
    for box in reversed(boxes):
        kind = "lethal" if box["damage_type"] == "aggravated" else box["damage_type"]
        if box["level"] not in table[kind]:
            raise RulesError(Phrase.message(N_("No healing time for the level %(value)s."), value=repr(box['level'])),
                             field="levels")
        plan.append(table[kind][box["level"]])
    possible = True
    for entry in plan:
        steps.add(N_("%(level)s (%(kind)s): %(time)s."), rule, level=Phrase.term(entry.level),
                  kind=Phrase.term(entry.damage_type), time=Phrase.message(entry.text))
    if any(e.no_recovery_without_care for e in plan) and not medical_care:
        possible = False
        steps.add(N_("%(name)s is Crippled or Incapacitated with lethal damage: no recovery is possible without "
                     "medical attention."), rule, name=who)
    elif any(e.needs_medical_care for e in plan) and not medical_care:
        steps.add(Phrase.message(N_("Lethal damage past Hurt needs medical treatment: untreated, it worsens one level a "
                                    "day.")), rule)
    if plan and plan[0].level == "Incapacitated" and plan[0].damage_type == "bashing":
        steps.add(N_("%(name)s spends the first %(hours)s hours delirious."), rule, name=who, hours=12)
    total = sum(e.hours for e in plan) if possible else None
    if total is not None:
        steps.add(N_("%(name)s heals completely in %(hours)s hours."), rule, name=who, hours=total)
    return MortalHealing(tuple(plan), total, possible, steps.steps())


#: Hours between two steps of an untreated lethal wound's worsening (000: one level a day).
WORSENS_EVERY = 24


def heal_mortal_over(track: HealthTrack, hours: int, medical_care: bool = False,
                     who: str = "The mortal") -> HealingRuling:
    """A mortal (or ghoul) over ``hours`` hours of time: each level, lowest first, heals once its
    own time has passed; untreated, a lethal wound past Hurt worsens by one level of lethal damage
    a day and does not heal, and past Incapacitated he dies (000 "Mortal's Healing Times").

    Treated (``medical_care``, the tick per mortal), every level heals on 000's table. Untreated,
    bashing damage and lethal wounds no worse than Hurt still heal in their time, below the wound
    that worsens; a mortal who heals a level regains consciousness.

    Args:
        hours: time available, in hours (a day is 24).
        medical_care: the mortal is treated.

    Returns:
        A :class:`HealingRuling` with ``hours`` the time the healing and worsening took (the last
        change), ``rests`` those hours as days (rounded up), and no blood or Willpower.

    Raises:
        RulesError: a vampire, a dead character, a negative time.
    """
    if isinstance(hours, bool) or not isinstance(hours, int) or hours < 0:
        raise RulesError(Phrase.message(N_("Time must be a whole number of hours, at least 0.")), field="hours")
    mortal_healing_time(track, medical_care, who)  # refuses vampires and the dead
    rule = '000 "Mortal\'s Healing Times"'
    steps = Explanation()
    start = track
    elapsed = since = 0  # ``since``: when the lowest level began to heal
    last = 0
    healed: dict[str, int] = {}
    worsened = 0
    while not track.destroyed and track.marked:
        plan = mortal_healing_time(track, medical_care, who).levels
        lowest = plan[0]
        worsening = not medical_care and any(e.needs_medical_care for e in plan)
        can_heal = medical_care or not lowest.needs_medical_care
        next_heal = since + lowest.hours if can_heal else None
        next_worse = (elapsed // WORSENS_EVERY + 1) * WORSENS_EVERY if worsening else None
        due = [t for t in (next_heal, next_worse) if t is not None]
        if not due or min(due) > hours:
            break
        if next_heal is not None and (next_worse is None or next_heal <= next_worse):
            elapsed = last = since = next_heal
            kind = track.kinds()[-1]
            healed[kind] = healed.get(kind, 0) + 1
            kinds = track.kinds()[:-1]
            track = replace(track, aggravated=kinds.count("aggravated"), lethal=kinds.count("lethal"),
                            bashing=kinds.count("bashing"))
            if track.condition == "unconscious":
                track = replace(track, condition="active")
            steps.add(N_("%(level)s (%(kind)s) heals in %(time)s."), rule, level=Phrase.term(lowest.level),
                      kind=Phrase.term(lowest.damage_type), time=Phrase.message(lowest.text))
        else:
            elapsed = last = next_worse
            worsened += 1
            hurt = apply_damage(track, "lethal", 1, who)
            track = hurt.track
            steps.add(N_("Day %(day)s: untreated, the lethal wound past Hurt worsens by one level: %(name)s is now "
                         "%(level)s."), rule, day=elapsed // WORSENS_EVERY, name=who, level=standing(track))
    untreated_wound = not medical_care and any(e.needs_medical_care for e in mortal_healing_time(start).levels)
    if worsened == 0 and untreated_wound:
        steps.add(N_("Untreated, %(name)s's lethal wound past Hurt worsens one level a day: none has passed yet."), rule,
                  name=who)
    left = track.marked
    done = sum(healed.values())
    took = Phrase.counted(last, "%(n)s hour", "%(n)s hours")
    if track.destroyed:
        steps.add(N_("In %(hours)s %(name)s dies of the untreated wound."), rule, hours=took, name=who)
    else:
        template = ((N_("In %(hours)s (of %(available)s available) %(name)s has healed %(levels)s and worsened by "
                        "%(worsened)s, %(left)s still to heal: now %(level)s.") if left else
                     N_("In %(hours)s (of %(available)s available) %(name)s has healed %(levels)s and worsened by "
                        "%(worsened)s, every level: now %(level)s.")) if worsened else
                    (N_("In %(hours)s (of %(available)s available) %(name)s has healed %(levels)s, %(left)s still to "
                        "heal: now %(level)s.") if left else
                     N_("In %(hours)s (of %(available)s available) %(name)s has healed %(levels)s, every level: now "
                        "%(level)s.")))
        steps.add(template, rule, hours=took, available=hours, name=who, levels=levels_of(done), worsened=worsened,
                  left=left, level=standing(track))
    return HealingRuling(track, healed, 0, 0, 0, 0, ceil(last / 24), steps.steps(), hours=last)
