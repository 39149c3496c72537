"""Waking from torpor and feeding a torpid vampire (met-reference 5.2, T20; 000 and 001 "Torpor";
the chronicle settings ``wake_test``, ``awakening_difficulty``, ``awakening_heals``,
``feeding_wakes_blood_torpor``). Part of :mod:`larp.rules.torpor`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Sequence

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, blood_points
from larp.rules.healing import swallow_blood
from larp.rules.health import HealthTrack, corresponding_position, tabletop_chart, tabletop_level_names
from larp.rules.settings import ChronicleSettings
from larp.rules.simple_test import SimpleTest
from larp.rules.soak import DiceSource, roll_soak
from larp.rules.torpor.lengths import _LIVE, _TORPOR, RISES_AT, WAKE_DIFFICULTY


# ---------------------------------------------------------------- waking

@dataclass(frozen=True)
class TorporRecord:
    """A torpor as recorded: what a wake attempt or feeding needs to know.

    Attributes:
        cause: "wounds", "blood_loss" or "voluntary".
        started_on: the date the torpor began.
        wake_on: the first night he may try to wake (calendar scale), or ``None``.
        wake_session: the first game session number at which he may try
            (game-session scale), or ``None``.
    """

    cause: str
    started_on: date
    wake_on: date | None = None
    wake_session: int | None = None


def can_try_to_wake(record: TorporRecord, night: date, session_number: int | None = None) -> bool:
    """Whether the torpor's time has passed by ``night`` (or game session ``session_number``)."""
    if record.wake_session is not None:
        return session_number is not None and session_number >= record.wake_session
    return record.wake_on is not None and night >= record.wake_on


def _heal_from_the_bottom(track: HealthTrack, levels: int) -> HealthTrack:
    """``track`` with ``levels`` marks removed, normal damage first (000 "Applying Damage")."""
    counts = {"bashing": track.bashing, "lethal": track.lethal, "aggravated": track.aggravated}
    for kind in ("bashing", "lethal", "aggravated"):
        taken = min(levels, counts[kind])
        counts[kind] -= taken
        levels -= taken
    return replace(track, **counts)


def wake_track(track: HealthTrack, who: str = "The vampire",
               settings: ChronicleSettings | None = None) -> tuple[HealthTrack, tuple[Step, ...]]:
    """The track of a vampire who rises from torpor: active, and considered Crippled
    (000 "Torpor"). What that heals is the setting ``awakening_heals``, the sources being
    silent: ``to_crippled`` (default) heals damage worse than Crippled down to it, normal damage
    first (it is "healed first", 000 "Applying Damage"), then aggravated; ``one_level`` lets the
    blood point spent to rise heal one level, normal damage first; ``nothing`` heals nothing but
    what lies below Incapacitated.

    Crippled is the tabletop chart's sixth box; on the live track it is the
    level the chart maps it to (met-reference 4.3).
    """
    reading = (settings or ChronicleSettings.defaults())["awakening_heals"]
    steps = Explanation()
    new = replace(track, condition="active")
    if reading in ("one_level", "nothing"):
        cut = 1 if reading == "one_level" and track.marked else 0
        cut = max(cut, track.marked - (track.size - 1))  # never active below Incapacitated
        if cut:
            new = _heal_from_the_bottom(new, cut)
        what = Phrase.message(N_("the blood point spent to rise heals one level") if reading == "one_level"
                              else N_("nothing heals"))
        steps.add(N_("%(name)s rises considered %(level)s; %(what)s: he is %(state)s."), _TORPOR, "awakening_heals",
                  name=who, level=Phrase.term(RISES_AT), what=what, state=Phrase.term(new.state()))
        return new, steps.steps()
    chart = tabletop_chart()
    crippled = next(i for i, row in enumerate(chart.levels) if row.name == RISES_AT) + 1
    marks, _exact = corresponding_position(tabletop_level_names(chart), crippled, track.levels)
    excess = track.marked - marks
    if excess > 0:
        new = _heal_from_the_bottom(new, excess)
        steps.add(N_("%(name)s rises considered %(level)s (the tabletop chart's level; on this track %(state)s): "
                     "damage beyond it is removed, normal damage first."), _TORPOR, "awakening_heals", name=who,
                  level=Phrase.term(RISES_AT), state=Phrase.term(new.state()))
    else:
        steps.add(N_("%(name)s rises at %(state)s."), _TORPOR, "awakening_heals", name=who,
                  state=Phrase.term(new.state()))
    return new, steps.steps()


@dataclass(frozen=True)
class WakeAttempt:
    """One night's attempt to rise from torpor.

    Attributes:
        woke: the vampire rose.
        blood_current: his blood pool after paying the blood point.
        track: his track afterwards (active and at worst Crippled if he rose).
        test: what decided it: throws and Traits (live) or dice (tabletop).
        steps: the explanation.
    """

    woke: bool
    blood_current: int
    track: HealthTrack
    test: dict[str, Any]
    steps: tuple[Step, ...]


def attempt_to_wake(record: TorporRecord, track: HealthTrack, blood_current: int, night: date,
                    settings: ChronicleSettings, *, session_number: int | None = None,
                    mental_traits: int = 0, test: SimpleTest | None = None,
                    awakening_dice: int = 0, dice: Sequence[int] | None = None, rng: DiceSource | None = None,
                    who: str = "The vampire") -> WakeAttempt:
    """A torpid vampire tries to rise on ``night``, for one blood point.

    Rules: the torpor's time must have passed; the attempt costs a blood point
    whatever its outcome, and with no blood he cannot rise until fed (met-reference
    5.2, T20; 000 "Torpor"). ``wake_test``:
    - "live_static" (default): a static Mental challenge against three Traits
      (met-reference 5.2, T20): the player's throw against the narrator's
      (``test``); a win rises, a loss fails, a tie compares his Mental Traits
      with three and needs more (equal Traits fail a static challenge,
      met-reference 8.1, T14).
    - "tabletop_awakening": the Awakening roll, ``awakening_dice`` dice (his
      Humanity or Path dots) against ``awakening_difficulty``; one success after
      1s cancel successes rises (000 "Torpor"; dice given or rolled from ``rng``).

    Args:
        record: the torpor.
        track: the vampire's track (condition "torpor").
        blood_current: blood points in his pool.
        night: the date of the attempt.
        session_number: the game session the attempt belongs to (game-session scale).
        mental_traits: his Mental Traits (live test).
        test: the throws (live test).
        awakening_dice: dice in the Awakening roll (tabletop).
        dice: faces rolled (tabletop), or ``rng`` to roll them.

    Raises:
        RulesError: not in torpor (``field`` "character"), destroyed, staked,
            before the torpor's time has passed ("night"), no blood ("blood"),
            a missing test ("test") or bad dice ("dice").
    """
    if track.destroyed:
        raise RulesError(Phrase.message(N_("%(who)s is destroyed and will never rise."), who=who), field="character")
    if track.condition != "torpor":
        raise RulesError(Phrase.message(N_("%(who)s is not in torpor."), who=who), field="character")
    if track.staked:
        raise RulesError(Phrase.message(N_("%(who)s is staked and cannot rise until the stake is removed."), who=who),
                         field="staked")
    if not can_try_to_wake(record, night, session_number):
        when = (Phrase.message(N_("game session %(number)s"), number=record.wake_session)
                if record.wake_session is not None
                else Phrase.message(N_("the night of %(date)s"), date=record.wake_on.isoformat()) if record.wake_on
                else Phrase.message(N_("his torpor's time has passed")))
        raise RulesError(Phrase.message(N_("%(who)s may not try to wake before %(when)s."), who=who, when=when),
                         field="night")
    if blood_current < 1:
        raise RulesError(Phrase.message(N_("%(who)s has no blood and cannot rise until someone feeds him."), who=who),
                         field="blood")
    steps = Explanation()
    steps.add(N_("%(name)s's torpor has run its time: on the night of %(date)s he spends a blood point to try to "
                 "rise."), f"{_LIVE}; {_TORPOR}", name=who, date=night.isoformat())
    detail: dict[str, Any]
    if settings["wake_test"] == "tabletop_awakening":
        difficulty = settings["awakening_difficulty"]
        if dice is not None and len(tuple(dice)) != awakening_dice:
            raise RulesError(Phrase.message(N_("The Awakening roll is %(awakening_dice)s dice; %(value)s results "
                                               "were given."), awakening_dice=awakening_dice, value=len(tuple(dice))),
                             field="dice")
        roll = roll_soak(awakening_dice, dice=dice, rng=rng, difficulty=difficulty)
        woke = roll.net >= 1
        by_table = dice is not None
        detail = {"kind": "awakening_roll", "dice": list(roll.dice), "difficulty": difficulty,
                  "successes": roll.successes, "ones": roll.ones, "net": roll.net,
                  "rolled": "at the table" if by_table else "by the app"}
        faces = list(roll.dice) or Phrase.message(N_("no dice"))
        steps.add(N_("Awakening roll: %(dice)s dice at difficulty %(difficulty)s, %(how)s: %(faces)s; %(net)s "
                     "success(es) after 1s: %(result)s."), _TORPOR, "wake_test", dice=awakening_dice,
                  difficulty=difficulty, faces=faces, net=roll.net,
                  how=Phrase.message(N_("rolled at the table") if by_table else N_("rolled by the app")),
                  result=Phrase.message(N_("he rises") if woke else N_("he stays in torpor")))
    else:
        if test is None:
            raise RulesError(Phrase.message(N_("Give the throws of the static Mental challenge.")), field="test")
        outcome = test.outcome
        if outcome == "tie":
            woke = mental_traits > WAKE_DIFFICULTY
            decided = Phrase.message(N_("a tie: his %(traits)s Mental Traits against %(n)s win") if woke
                                     else N_("a tie: his %(traits)s Mental Traits against %(n)s do not beat them"),
                                     traits=mental_traits, n=WAKE_DIFFICULTY)
        else:
            woke = outcome == "win"
            decided = Phrase.message(N_("a win") if woke else N_("a loss"))
        detail = {"kind": "static_mental", "player_throw": test.player.value, "narrator_throw": test.narrator.value,
                  "outcome": outcome, "mental_traits": mental_traits, "difficulty": WAKE_DIFFICULTY,
                  "drawn": list(test.by_app)}
        steps.add(N_("Static Mental challenge against %(n)s Traits: %(throw)s against the narrator's %(other)s "
                     "(%(how)s), %(decided)s: %(result)s."), f"{_LIVE}, T20", "wake_test", n=WAKE_DIFFICULTY,
                  throw=Phrase.term(test.player.label), other=Phrase.term(test.narrator.label), how=test.provenance,
                  decided=decided, result=Phrase.message(N_("he rises") if woke else N_("he stays in torpor")))
    blood = blood_current - 1
    new = track
    if woke:
        new, rise_steps = wake_track(track, who, settings)
        steps.extend(rise_steps)
    elif blood:
        steps.add(N_("He may try again the next night (%(blood)s left)."), _TORPOR, blood=blood_points(blood))
    else:
        steps.add(N_("He has no blood left: he cannot try again until someone feeds him."), _TORPOR)
    return WakeAttempt(woke, blood, new, detail, steps.steps())


# ---------------------------------------------------------------- feeding

@dataclass(frozen=True)
class Feeding:
    """Blood given to a vampire.

    Attributes:
        blood_current: his pool afterwards, in blood points.
        taken: blood points taken in.
        woke: feeding ended his torpor (blood loss, by the setting).
        track: his track afterwards.
        steps: the explanation.
    """

    blood_current: int
    taken: int
    woke: bool
    track: HealthTrack
    steps: tuple[Step, ...]


def feed(track: HealthTrack, blood_current: int, blood_max: int, offered: int, settings: ChronicleSettings,
         record: TorporRecord | None = None, who: str = "The vampire") -> Feeding:
    """A vampire feeds (as the player reports) or is fed in torpor.

    Rules: an active vampire takes blood up to his pool's maximum (LotNR
    generation table, met-reference 5.1). A torpid one swallows blood placed in
    his mouth until his pool is full (002 "Damage and Healing"); if his torpor
    came from blood loss and ``feeding_wakes_blood_torpor`` is on, a blood point
    wakes him, whatever his rating (000/001 "Torpor"), and he rises considered
    Crippled (000 "Torpor").

    Args:
        offered: blood points offered, at least 1.
        record: his torpor, if he is in torpor.

    Raises:
        RulesError: not a vampire, destroyed, staked while active, fewer than
            one blood point offered, a full pool ("blood").
    """
    if isinstance(offered, bool) or not isinstance(offered, int) or offered < 1:
        raise RulesError(Phrase.message(N_("Offer at least one blood point.")), field="blood")
    if track.condition == "torpor":
        swallowed = swallow_blood(track, blood_current, blood_max, offered, who)
        steps = Explanation()
        steps.extend(swallowed.steps)
        woke = bool(record and record.cause == "blood_loss" and settings["feeding_wakes_blood_torpor"]
                    and swallowed.swallowed >= 1)
        new = track
        if woke:
            steps.add(N_("%(name)s's torpor came from blood loss: fed, he rises whatever his rating."), _TORPOR,
                      "feeding_wakes_blood_torpor", name=who)
            new, rise_steps = wake_track(track, who, settings)
            steps.extend(rise_steps)
        elif record and record.cause == "blood_loss":
            steps.add(N_("Feeding does not end this torpor: it runs its full time."), _TORPOR,
                      setting="feeding_wakes_blood_torpor")
        return Feeding(swallowed.blood_current, swallowed.swallowed, woke, new, steps.steps())
    if track.destroyed:
        raise RulesError(Phrase.message(N_("%(who)s is destroyed and feeds no more."), who=who), field="character")
    if not track.is_vampire:
        raise RulesError(Phrase.message(N_("%(who)s is not a vampire."), who=who), field="creature")
    if blood_current >= blood_max:
        raise RulesError(Phrase.message(N_("%(who)s's blood pool is already full (%(blood_max)s blood points)."),
                                        who=who, blood_max=blood_max), field="blood")
    taken = min(offered, blood_max - blood_current)
    steps = Explanation()
    steps.add(N_("%(name)s feeds: %(blood)s taken (pool %(pool)s of %(most)s)."),
              "LotNR generation table (met-reference 5.1)", name=who, blood=blood_points(taken),
              pool=blood_current + taken, most=blood_max)
    return Feeding(blood_current + taken, taken, False, track, steps.steps())
