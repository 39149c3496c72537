"""Torpor: how long it lasts, waking from it, and feeding a torpid vampire.

Rules (met-reference 5.2; 000 and 001 "Torpor"):

- A vampire enters torpor from wounds, from blood loss, or voluntarily. Its
  length comes from his Humanity or Path rating through a table kept as data
  (``data/torpor.toml``): the live game's table by MET Traits 0-5 (LotNR) or
  the tabletop table by dots 0-10 (000/001), picked by the chronicle setting
  ``torpor_table`` and optionally read ``torpor_table_shift`` rows shorter.
- Voluntary torpor lasts half the time (000 "Torpor"; LotNR).
- The length is calendar time between games (LotNR: MET time "works as it does
  in real life"), or, under ``torpor_time_scale`` "sessions", game sessions
  with one game session counting as a month (Dark Epics).
- After the time has passed, waking costs a blood point and a test: a static
  Mental challenge against three Traits in the live game, the Awakening roll
  at the tabletop (``wake_test``); a failure may be retried the next night
  while blood lasts; with no blood the vampire cannot rise until fed.
- A vampire in torpor from blood loss rises as soon as someone feeds him a
  blood point, whatever his rating (000/001 "Torpor"; ``feeding_wakes_blood_torpor``).
- A vampire who rises is considered Crippled (000 "Torpor").
- A vampire whose torpor ends after the chronicle's planned end
  (``chronicle_end_date``) is retired from play.

Everything here is pure: dates are passed in (no clock), throws and dice are
given or drawn from an injected random source.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import lru_cache
from math import ceil
from typing import Any, Sequence

from larp.rules.explain import Explanation, RulesError, Step
from larp.rules.healing import swallow_blood
from larp.rules.health import HealthTrack, corresponding_position, tabletop_chart, tabletop_level_names
from larp.rules.settings import ChronicleSettings
from larp.rules.simple_test import SimpleTest
from larp.rules.soak import DiceSource, roll_soak
from larp.tables import TableError, load_toml, require

TORPOR_CAUSES = ("wounds", "blood_loss", "voluntary")
CAUSE_LABELS = {"wounds": "wounds", "blood_loss": "blood loss", "voluntary": "voluntary"}
TABLES = ("live", "tabletop")
UNITS = ("day", "week", "month", "year")
#: Traits a static Mental challenge to wake is made against (LotNR, met-reference 5.2, T20).
WAKE_DIFFICULTY = 3
#: The level a vampire who rises from torpor is considered to be at (000 "Torpor").
RISES_AT = "Crippled"

_LIVE = "LotNR Torpor (met-reference 5.2)"
_TORPOR = '000 "Torpor"; 001 "Torpor"'


# ---------------------------------------------------------------- the tables

@dataclass(frozen=True)
class TorporRow:
    """One line of a torpor table.

    Attributes:
        rating: the Humanity or Path rating (MET Traits or tabletop dots).
        amount: how many ``unit`` the torpor lasts.
        unit: "day", "week", "month" or "year".
        text: the book's wording ("a week", "five decades").
    """

    rating: int
    amount: int
    unit: str
    text: str


@dataclass(frozen=True)
class TorporTable:
    """A torpor table: rows by rating, 0 to the highest rating.

    Attributes:
        key: "live" or "tabletop" (the setting ``torpor_table``).
        source: where the table comes from.
        rating_name: what the rating counts ("MET Humanity or Path Traits").
        rows: rating to row, every rating from 0 to ``highest``.
    """

    key: str
    source: str
    rating_name: str
    rows: dict[int, TorporRow]

    @property
    def highest(self) -> int:
        """The highest rating in the table (5 live, 10 tabletop)."""
        return max(self.rows)


@lru_cache(maxsize=None)
def torpor_table(key: str) -> TorporTable:
    """The torpor table ``key`` ("live" or "tabletop") from ``data/torpor.toml``.

    Raises:
        RulesError: an unknown table (``field`` "torpor_table").
        TableError: a malformed row, or ratings that are not 0..highest without gaps.
    """
    if key not in TABLES:
        raise RulesError(f"Unknown torpor table {key!r} (live or tabletop).", field="torpor_table")
    raw = load_toml("torpor.toml").get(key)
    where = f"data/torpor.toml [{key}]"
    if not isinstance(raw, dict):
        raise TableError(f"{where}: missing")
    rows: dict[int, TorporRow] = {}
    for index, entry in enumerate(require(raw, "rows", list, where)):
        at = f"{where} rows[{index}]"
        if not isinstance(entry, dict):
            raise TableError(f"{at}: must be a table")
        row = TorporRow(require(entry, "rating", int, at), require(entry, "amount", int, at),
                        require(entry, "unit", str, at), require(entry, "text", str, at))
        if row.unit not in UNITS:
            raise TableError(f"{at}: unit must be one of {', '.join(UNITS)}")
        if row.amount < 1:
            raise TableError(f"{at}: amount must be at least 1")
        if row.rating in rows:
            raise TableError(f"{at}: rating {row.rating} appears twice")
        rows[row.rating] = row
    if not rows or sorted(rows) != list(range(max(rows) + 1)):
        raise TableError(f"{where}: ratings must run from 0 without gaps")
    return TorporTable(key, require(raw, "source", str, where), require(raw, "rating", str, where), rows)


# ---------------------------------------------------------------- lengths and dates

@dataclass(frozen=True)
class TorporLength:
    """A length of torpor in calendar terms: whole months plus days.

    Years count as 12 months and weeks as 7 days, so adding a length to a
    date follows the calendar (a month from 31 January is 28 or 29 February).

    Attributes:
        months: whole months.
        days: further days.
        text: the wording ("a week", "half of a year").
    """

    months: int
    days: int
    text: str

    def after(self, start: date) -> date:
        """The date this length after ``start`` (months first, then days).

        Raises:
            RulesError: the date would be past the year 9999.
        """
        month_index = start.month - 1 + self.months
        year = start.year + month_index // 12
        if year > date.max.year:
            raise RulesError("That torpor ends after the year 9999.", field="started_on")
        month = month_index % 12 + 1
        day = min(start.day, calendar.monthrange(year, month)[1])
        try:
            return date(year, month, day) + timedelta(days=self.days)
        except OverflowError:
            raise RulesError("That torpor ends after the year 9999.", field="started_on") from None

    @property
    def approximate_days(self) -> int:
        """The length in days with a month as 30 days (for counting game sessions)."""
        return self.months * 30 + self.days

    def halved(self) -> "TorporLength":
        """Half this length: months halved, an odd month as 15 days, days rounded up
        (a vampire may rise only once the half has fully passed)."""
        days = ceil(self.days / 2) + (15 if self.months % 2 else 0)
        return TorporLength(self.months // 2, days, f"half of {self.text}")


def _length_of(row: TorporRow) -> TorporLength:
    if row.unit == "year":
        return TorporLength(12 * row.amount, 0, row.text)
    if row.unit == "month":
        return TorporLength(row.amount, 0, row.text)
    if row.unit == "week":
        return TorporLength(0, 7 * row.amount, row.text)
    return TorporLength(0, row.amount, row.text)


def _check_rating(rating: int) -> None:
    if isinstance(rating, bool) or not isinstance(rating, int) or rating < 0:
        raise RulesError("A Humanity or Path rating is a whole number of at least 0.", field="rating")


def torpor_row(rating: int, table: TorporTable, shift: int = 0) -> TorporRow:
    """The row of ``table`` that gives the length of torpor for ``rating``.

    ``shift`` reads the table that many rows shorter (a rating uses the row of
    the rating ``shift`` higher) or, if negative, longer; ratings past either
    end use the end row (met-reference 5.2: the HV table shifted one step shorter).

    Raises:
        RulesError: a negative or non-whole rating or shift.
    """
    _check_rating(rating)
    if isinstance(shift, bool) or not isinstance(shift, int):
        raise RulesError("The torpor table shift is a whole number.", field="torpor_table_shift")
    return table.rows[min(max(rating + shift, 0), table.highest)]


def torpor_length(rating: int, table: TorporTable, shift: int = 0, voluntary: bool = False) -> TorporLength:
    """How long a torpor lasts: the table's length for ``rating`` (shifted), halved
    when voluntary (000 "Torpor": "half the mandatory time period").

    Raises:
        RulesError: as :func:`torpor_row`.
    """
    length = _length_of(torpor_row(rating, table, shift))
    return length.halved() if voluntary else length


def torpor_ends_on(rating: int, table: TorporTable, shift: int, voluntary: bool, start: date) -> date:
    """The first night a vampire who entered torpor on ``start`` may try to wake.

    Args:
        rating: Humanity or Path rating on the table's scale (MET Traits or tabletop dots).
        table: the torpor table (:func:`torpor_table`).
        shift: rows shorter (negative: longer), the setting ``torpor_table_shift``.
        voluntary: voluntary torpor takes half the time (000 "Torpor").
        start: the date the torpor began.

    Raises:
        RulesError: a bad rating or shift, or a date past the year 9999.
    """
    return torpor_length(rating, table, shift, voluntary).after(start)


def morality_dots(met_rating: int, tabletop_rating: int | None = None) -> tuple[int, Step | None]:
    """Humanity or Path dots for a tabletop rule (the torpor table, the Awakening roll): the sheet's
    tabletop rating if it has one, else converted from the MET Traits by the one conversion
    (:func:`larp.rules.conversion.live_to_tabletop`: doubled, the higher of the two possible dots:
    MET 4 may be tabletop 7 or 8; met-reference 4.3, 5.2, T25), with the step that says it was
    converted (``None`` when the sheet had the dots).

    Raises:
        RulesError: a negative or non-whole rating.
    """
    from larp.rules.conversion import live_to_tabletop

    _check_rating(met_rating)
    if tabletop_rating is not None:
        _check_rating(tabletop_rating)
        return tabletop_rating, None
    dots = min(live_to_tabletop({}, morality=met_rating).morality or 0, 10)
    return dots, Step(f"No tabletop dots on the sheet: {met_rating} MET Traits converted to {dots} dots "
                      f"(approximate: each Trait stands for two dots).", "LotNR Converting Characters "
                      "(met-reference 4.3, 5.2, T25)")


def table_rating(table: TorporTable, met_rating: int, tabletop_rating: int | None = None) -> tuple[int, Step]:
    """The character's rating on ``table``'s scale, with the step that says how it was found.

    The live table reads MET Traits. The tabletop table reads dots: the sheet's tabletop rating if it
    has one, else converted from the MET rating (:func:`morality_dots`).

    Raises:
        RulesError: a negative or non-whole rating.
    """
    _check_rating(met_rating)
    if table.key == "live":
        return met_rating, Step(f"{table.rating_name}: {met_rating}.", table.source)
    dots, converted = morality_dots(met_rating, tabletop_rating)
    if converted is None:
        return dots, Step(f"{table.rating_name}: {dots}.", table.source)
    return min(dots, table.highest), converted


# ---------------------------------------------------------------- entering torpor

@dataclass(frozen=True)
class TorporStart:
    """A torpor as it begins: when it may end, and why.

    Attributes:
        cause: "wounds", "blood_loss" or "voluntary".
        started_on: the date the torpor began.
        table: the torpor table used ("live" or "tabletop").
        rating: the rating read from it (on its scale, before the shift).
        length: the length, as the table words it.
        wake_on: calendar scale: the first night the vampire may try to wake;
            ``None`` under the game-session scale.
        sessions: game-session scale: game sessions that must begin after the
            one in which the torpor started before he may try to wake; ``None``
            under the calendar scale.
        retired: the torpor ends after the chronicle's planned end.
        fed_wakes: feeding him a blood point wakes him (blood loss, by the setting).
        steps: the explanation.
    """

    cause: str
    started_on: date
    table: str
    rating: int
    length: str
    wake_on: date | None
    sessions: int | None
    retired: bool
    fed_wakes: bool
    steps: tuple[Step, ...]


def chronicle_end(settings: ChronicleSettings) -> date | None:
    """The chronicle's planned end date (``chronicle_end_date``), or ``None`` when not set."""
    text = settings["chronicle_end_date"]
    return date.fromisoformat(text) if text else None


def is_retired(wake_on: date | None, settings: ChronicleSettings) -> bool:
    """Whether a torpor ending on ``wake_on`` ends after the chronicle's planned end
    (``chronicle_end_date``): such a vampire is retired from play (met-reference 5.2, house practice)."""
    end = chronicle_end(settings)
    return wake_on is not None and end is not None and wake_on > end


def enter_torpor(cause: str, started_on: date, settings: ChronicleSettings, *, met_rating: int,
                 tabletop_rating: int | None = None, who: str = "The vampire") -> TorporStart:
    """Work out a new torpor: its length from the chronicle's table and the date (or
    game session) from which the vampire may try to wake.

    Args:
        cause: "wounds", "blood_loss" or "voluntary".
        started_on: the date the torpor began.
        settings: ``torpor_table``, ``torpor_table_shift``, ``torpor_time_scale``,
            ``feeding_wakes_blood_torpor``, ``chronicle_end_date``.
        met_rating: Humanity or Path in MET Traits (0-5).
        tabletop_rating: Humanity or Path dots (0-10), if the sheet has them.

    Raises:
        RulesError: an unknown cause, a bad rating.
    """
    if cause not in TORPOR_CAUSES:
        raise RulesError("Choose why the vampire enters torpor: wounds, blood loss or voluntary.", field="cause")
    table = torpor_table(settings["torpor_table"])
    shift = settings["torpor_table_shift"]
    rating, rating_step = table_rating(table, met_rating, tabletop_rating)
    steps = Explanation()
    steps.add(f"{who} enters torpor on {started_on.isoformat()} ({CAUSE_LABELS[cause]}).",
              _TORPOR if cause != "wounds" else f"{_TORPOR}; {_LIVE}")
    steps.extend([rating_step])
    row = torpor_row(rating, table, shift)
    if shift:
        steps.add(f"The table is read {abs(shift)} row(s) {'shorter' if shift > 0 else 'longer'}: rating "
                  f"{rating} uses the length of rating {row.rating}.", table.source, setting="torpor_table_shift")
    steps.add(f"Torpor at rating {row.rating}: {row.text}.", table.source, setting="torpor_table")
    length = torpor_length(rating, table, shift, voluntary=cause == "voluntary")
    if cause == "voluntary":
        steps.add(f"Voluntary torpor: the vampire may rise after half the time, {length.text}.", _TORPOR)
    fed_wakes = cause == "blood_loss" and settings["feeding_wakes_blood_torpor"]
    if cause == "blood_loss":
        if fed_wakes:
            steps.add(f"Torpor from blood loss: {who} rises as soon as someone feeds him a blood point, "
                      f"whatever his rating.", _TORPOR, setting="feeding_wakes_blood_torpor")
        else:
            steps.add("Feeding does not end this torpor early: it runs its full time.", _TORPOR,
                      setting="feeding_wakes_blood_torpor")
    wake_on: date | None = None
    sessions: int | None = None
    retired = False
    if settings["torpor_time_scale"] == "sessions":
        sessions = max(1, ceil(length.approximate_days / 30))
        steps.add(f"Torpor time is counted in game sessions, one game session for a month: {who} may try to "
                  f"wake after {sessions} game session(s).", "Dark Epics (met-reference 5.2)",
                  setting="torpor_time_scale")
        if chronicle_end(settings) is not None:
            steps.add("Counted in game sessions, the torpor is not compared with the chronicle's planned end.",
                      "met-reference 5.2", setting="chronicle_end_date")
    else:
        wake_on = length.after(started_on)
        steps.add(f"Calendar time: {who} may try to wake from the night of {wake_on.isoformat()}, for a blood "
                  f"point and a test.", _LIVE, setting="torpor_time_scale")
        retired = is_retired(wake_on, settings)
        if retired:
            steps.add(f"The torpor ends after the chronicle's planned end ({settings['chronicle_end_date']}): "
                      f"{who} is retired from play.", "met-reference 5.2", setting="chronicle_end_date")
    return TorporStart(cause, started_on, table.key, rating, length.text, wake_on, sessions, retired, fed_wakes,
                       steps.steps())


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
        what = "the blood point spent to rise heals one level" if reading == "one_level" else "nothing heals"
        steps.add(f"{who} rises considered {RISES_AT}; {what}: he is {new.state()}.", _TORPOR,
                  setting="awakening_heals")
        return new, steps.steps()
    chart = tabletop_chart()
    crippled = next(i for i, row in enumerate(chart.levels) if row.name == RISES_AT) + 1
    marks, _exact = corresponding_position(tabletop_level_names(chart), crippled, track.levels)
    excess = track.marked - marks
    if excess > 0:
        new = _heal_from_the_bottom(new, excess)
        steps.add(f"{who} rises considered {RISES_AT} (the tabletop chart's level; on this track "
                  f"{new.state()}): damage beyond it is removed, normal damage first.", _TORPOR,
                  setting="awakening_heals")
    else:
        steps.add(f"{who} rises at {new.state()}.", _TORPOR, setting="awakening_heals")
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
        raise RulesError(f"{who} is destroyed and will never rise.", field="character")
    if track.condition != "torpor":
        raise RulesError(f"{who} is not in torpor.", field="character")
    if track.staked:
        raise RulesError(f"{who} is staked and cannot rise until the stake is removed.", field="staked")
    if not can_try_to_wake(record, night, session_number):
        when = (f"game session {record.wake_session}" if record.wake_session is not None
                else f"the night of {record.wake_on.isoformat()}" if record.wake_on else "his torpor's time has passed")
        raise RulesError(f"{who} may not try to wake before {when}.", field="night")
    if blood_current < 1:
        raise RulesError(f"{who} has no blood and cannot rise until someone feeds him.", field="blood")
    steps = Explanation()
    steps.add(f"{who}'s torpor has run its time: on the night of {night.isoformat()} he spends a blood point to "
              f"try to rise.", f"{_LIVE}; {_TORPOR}")
    detail: dict[str, Any]
    if settings["wake_test"] == "tabletop_awakening":
        difficulty = settings["awakening_difficulty"]
        if dice is not None and len(tuple(dice)) != awakening_dice:
            raise RulesError(f"The Awakening roll is {awakening_dice} dice; {len(tuple(dice))} results were given.",
                             field="dice")
        roll = roll_soak(awakening_dice, dice=dice, rng=rng, difficulty=difficulty)
        woke = roll.net >= 1
        by_table = dice is not None
        detail = {"kind": "awakening_roll", "dice": list(roll.dice), "difficulty": difficulty,
                  "successes": roll.successes, "ones": roll.ones, "net": roll.net,
                  "rolled": "at the table" if by_table else "by the app"}
        faces = ", ".join(str(d) for d in roll.dice) or "no dice"
        steps.add(f"Awakening roll: {awakening_dice} dice at difficulty {difficulty}, "
                  f"{'rolled at the table' if by_table else 'rolled by the app'}: {faces}; {roll.net} "
                  f"success(es) after 1s: {'he rises' if woke else 'he stays in torpor'}.", _TORPOR,
                  setting="wake_test")
    else:
        if test is None:
            raise RulesError("Give the throws of the static Mental challenge.", field="test")
        outcome = test.outcome
        if outcome == "tie":
            woke = mental_traits > WAKE_DIFFICULTY
            decided = (f"a tie: his {mental_traits} Mental Traits against {WAKE_DIFFICULTY} "
                       f"{'win' if woke else 'do not beat them'}")
        else:
            woke = outcome == "win"
            decided = f"a {outcome}"
        detail = {"kind": "static_mental", "player_throw": test.player.value, "narrator_throw": test.narrator.value,
                  "outcome": outcome, "mental_traits": mental_traits, "difficulty": WAKE_DIFFICULTY,
                  "drawn": list(test.by_app)}
        steps.add(f"Static Mental challenge against {WAKE_DIFFICULTY} Traits: {test.player.label} against the "
                  f"narrator's {test.narrator.label} ({test.provenance}), {decided}: "
                  f"{'he rises' if woke else 'he stays in torpor'}.", f"{_LIVE}, T20", setting="wake_test")
    blood = blood_current - 1
    new = track
    if woke:
        new, rise_steps = wake_track(track, who, settings)
        steps.extend(rise_steps)
    elif blood:
        steps.add(f"He may try again the next night ({blood} blood point(s) left).", _TORPOR)
    else:
        steps.add("He has no blood left: he cannot try again until someone feeds him.", _TORPOR)
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
        raise RulesError("Offer at least one blood point.", field="blood")
    if track.condition == "torpor":
        swallowed = swallow_blood(track, blood_current, blood_max, offered, who)
        steps = Explanation()
        steps.extend(swallowed.steps)
        woke = bool(record and record.cause == "blood_loss" and settings["feeding_wakes_blood_torpor"]
                    and swallowed.swallowed >= 1)
        new = track
        if woke:
            steps.add(f"{who}'s torpor came from blood loss: fed, he rises whatever his rating.", _TORPOR,
                      setting="feeding_wakes_blood_torpor")
            new, rise_steps = wake_track(track, who, settings)
            steps.extend(rise_steps)
        elif record and record.cause == "blood_loss":
            steps.add("Feeding does not end this torpor: it runs its full time.", _TORPOR,
                      setting="feeding_wakes_blood_torpor")
        return Feeding(swallowed.blood_current, swallowed.swallowed, woke, new, steps.steps())
    if track.destroyed:
        raise RulesError(f"{who} is destroyed and feeds no more.", field="character")
    if not track.is_vampire:
        raise RulesError(f"{who} is not a vampire.", field="creature")
    if blood_current >= blood_max:
        raise RulesError(f"{who}'s blood pool is already full ({blood_max} blood points).", field="blood")
    taken = min(offered, blood_max - blood_current)
    steps = Explanation()
    steps.add(f"{who} feeds: {taken} blood point(s) taken (pool {blood_current + taken} of {blood_max}).",
              "LotNR generation table (met-reference 5.1)")
    return Feeding(blood_current + taken, taken, False, track, steps.steps())
