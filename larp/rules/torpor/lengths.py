"""Torpor's tables and lengths, and a torpor as it begins (met-reference 5.2; 000 and 001 "Torpor";
the chronicle settings ``torpor_table``, ``torpor_table_shift``, ``torpor_time_scale``). Part of
:mod:`larp.rules.torpor`.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache
from math import ceil
from typing import Any, Iterable, Mapping

from larp.rules.dots import rating_to_dots
from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, phrase_step
from larp.rules.settings import ChronicleSettings
from larp.tables import TableError, load_toml, require

TORPOR_CAUSES = ("wounds", "blood_loss", "voluntary")
CAUSE_LABELS = {"wounds": "wounds", "blood_loss": "blood loss", "voluntary": "voluntary"}
#: The causes as a ruling's step says them, in the reader's language (:data:`CAUSE_LABELS`).
_CAUSES_SAID = {"wounds": N_("wounds"), "blood_loss": N_("blood loss"), "voluntary": N_("voluntary")}
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
        raise RulesError(Phrase.message(N_("Unknown torpor table %(key)s (live or tabletop)."), key=repr(key)),
                         field="torpor_table")
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
            raise RulesError(Phrase.message(N_("That torpor ends after the year 9999.")), field="started_on")
        month = month_index % 12 + 1
        day = min(start.day, calendar.monthrange(year, month)[1])
        try:
            return date(year, month, day) + timedelta(days=self.days)
        except OverflowError:
            raise RulesError(Phrase.message(N_("That torpor ends after the year 9999.")), field="started_on") from None

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
        raise RulesError(Phrase.message(N_("A Humanity or Path rating is a whole number of at least 0.")),
                         field="rating")


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
        raise RulesError(Phrase.message(N_("The torpor table shift is a whole number.")), field="torpor_table_shift")
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
    (:func:`larp.rules.dots.rating_to_dots`, which :func:`larp.rules.conversion.live_to_tabletop`
    uses too: doubled, the higher of the two possible dots: MET 4 may be tabletop 7 or 8; met-reference 4.3, 5.2, T25), with the step that says it was
    converted (``None`` when the sheet had the dots).

    Raises:
        RulesError: a negative or non-whole rating.
    """
    _check_rating(met_rating)
    if tabletop_rating is not None:
        _check_rating(tabletop_rating)
        return tabletop_rating, None
    dots = rating_to_dots(met_rating)
    return dots, phrase_step(N_("No tabletop dots on the sheet: %(traits)s MET Traits converted to %(dots)s dots "
                                "(approximate: each Trait stands for two dots)."),
                             "LotNR Converting Characters (met-reference 4.3, 5.2, T25)", traits=met_rating, dots=dots)


def table_rating(table: TorporTable, met_rating: int, tabletop_rating: int | None = None) -> tuple[int, Step]:
    """The character's rating on ``table``'s scale, with the step that says how it was found.

    The live table reads MET Traits. The tabletop table reads dots: the sheet's tabletop rating if it
    has one, else converted from the MET rating (:func:`morality_dots`).

    Raises:
        RulesError: a negative or non-whole rating.
    """
    _check_rating(met_rating)
    if table.key == "live":
        return met_rating, phrase_step(N_("%(rating)s: %(n)s."), table.source, rating=Phrase.term(table.rating_name),
                                       n=met_rating)
    dots, converted = morality_dots(met_rating, tabletop_rating)
    if converted is None:
        return dots, phrase_step(N_("%(rating)s: %(n)s."), table.source, rating=Phrase.term(table.rating_name), n=dots)
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
        wake_session: game-session scale: the number of the first game session in which he may try
            to wake (the game session it began in, ``session`` of :func:`enter_torpor`, plus
            ``sessions``); ``None`` under the calendar scale.
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
    wake_session: int | None = None

    @property
    def nights(self) -> int | None:
        """Calendar scale: the nights from the night he entered torpor to the first night he may try to
        wake (a week is 7); ``None`` under the game-session scale."""
        return (self.wake_on - self.started_on).days if self.wake_on is not None else None

    def to_dict(self) -> dict:
        """JSON-ready data: cause, start, table, rating, length (the table's words and in nights),
        wake date or game session, retired, whether feeding wakes him."""
        return {"cause": self.cause, "started_on": self.started_on.isoformat(), "table": self.table,
                "rating": self.rating, "length": self.length, "nights": self.nights,
                "wake_on": self.wake_on.isoformat() if self.wake_on else None, "sessions": self.sessions,
                "wake_session": self.wake_session, "retired": self.retired, "fed_wakes": self.fed_wakes}


@dataclass(frozen=True)
class GameNight:
    """The game session a ruling happens in, as data (the rules core reads no clock): its date and
    its number, from which a torpor that begins in it is dated (met-reference 5.2).

    Attributes:
        on: the game session's date.
        session: its number in the chronicle (0: not known, as for the stateless API).
    """

    on: date
    session: int = 0


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
                 tabletop_rating: int | None = None, who: str = "The vampire", session: int = 0) -> TorporStart:
    """Work out a new torpor: its length from the chronicle's table and the date (or
    game session) from which the vampire may try to wake.

    Args:
        cause: "wounds", "blood_loss" or "voluntary".
        started_on: the date the torpor began.
        settings: ``torpor_table``, ``torpor_table_shift``, ``torpor_time_scale``,
            ``feeding_wakes_blood_torpor``, ``chronicle_end_date``.
        met_rating: Humanity or Path in MET Traits (0-5).
        tabletop_rating: Humanity or Path dots (0-10), if the sheet has them.
        session: the number of the game session it began in (0: none known), from which the
            game-session scale counts ``wake_session``.

    Raises:
        RulesError: an unknown cause, a bad rating.
    """
    if cause not in TORPOR_CAUSES:
        raise RulesError(Phrase.message(N_("Choose why the vampire enters torpor: wounds, blood loss or voluntary.")),
                         field="cause")
    table = torpor_table(settings["torpor_table"])
    shift = settings["torpor_table_shift"]
    rating, rating_step = table_rating(table, met_rating, tabletop_rating)
    steps = Explanation()
    steps.add(N_("%(name)s enters torpor on %(date)s (%(cause)s)."), _TORPOR if cause != "wounds" else f"{_TORPOR}; {_LIVE}",
              name=who, date=started_on.isoformat(), cause=Phrase.message(_CAUSES_SAID[cause]))
    steps.extend([rating_step])
    row = torpor_row(rating, table, shift)
    if shift:
        steps.add(N_("The table is read %(rows)s shorter: rating %(rating)s uses the length of rating %(row)s.")
                  if shift > 0 else
                  N_("The table is read %(rows)s longer: rating %(rating)s uses the length of rating %(row)s."),
                  table.source, "torpor_table_shift", rows=Phrase.counted(abs(shift), "%(n)s row", "%(n)s rows"),
                  rating=rating, row=row.rating)
    steps.add(N_("Torpor at rating %(rating)s: %(length)s."), table.source, "torpor_table", rating=row.rating,
              length=Phrase.term(row.text))
    length = torpor_length(rating, table, shift, voluntary=cause == "voluntary")
    if cause == "voluntary":
        steps.add(N_("Voluntary torpor: the vampire may rise after half the time, %(length)s."), _TORPOR,
                  length=Phrase.message(N_("half of %(length)s"), length=Phrase.term(row.text)))
    fed_wakes = cause == "blood_loss" and settings["feeding_wakes_blood_torpor"]
    if cause == "blood_loss":
        if fed_wakes:
            steps.add(N_("Torpor from blood loss: %(name)s rises as soon as someone feeds him a blood point, "
                         "whatever his rating."), _TORPOR, "feeding_wakes_blood_torpor", name=who)
        else:
            steps.add(N_("Feeding does not end this torpor early: it runs its full time."), _TORPOR,
                      setting="feeding_wakes_blood_torpor")
    wake_on: date | None = None
    sessions: int | None = None
    retired = False
    if settings["torpor_time_scale"] == "sessions":
        sessions = max(1, ceil(length.approximate_days / 30))
        steps.add(N_("Torpor time is counted in game sessions, one game session for a month: %(name)s may try to "
                     "wake after %(sessions)s."), "Dark Epics (met-reference 5.2)", "torpor_time_scale", name=who,
                  sessions=Phrase.counted(sessions, "%(n)s game session", "%(n)s game sessions"))
        if chronicle_end(settings) is not None:
            steps.add(N_("Counted in game sessions, the torpor is not compared with the chronicle's planned end."),
                      "met-reference 5.2", setting="chronicle_end_date")
    else:
        wake_on = length.after(started_on)
        steps.add(N_("Calendar time: %(name)s may try to wake from the night of %(date)s, for a blood point and a "
                     "test."), _LIVE, "torpor_time_scale", name=who, date=wake_on.isoformat())
        steps.add(N_("That is %(nights)s in torpor, from %(start)s to %(end)s."), _LIVE, "torpor_time_scale",
                  nights=Phrase.counted((wake_on - started_on).days, "%(n)s night", "%(n)s nights"),
                  start=started_on.isoformat(), end=wake_on.isoformat())
        retired = is_retired(wake_on, settings)
        if retired:
            steps.add(N_("The torpor ends after the chronicle's planned end (%(date)s): %(name)s is retired from "
                         "play."), "met-reference 5.2", "chronicle_end_date", date=str(settings["chronicle_end_date"]),
                      name=who)
    return TorporStart(cause, started_on, table.key, rating, length.text, wake_on, sessions, retired, fed_wakes,
                       steps.steps(), session + sessions if sessions is not None else None)


@dataclass(frozen=True)
class TorporClock:
    """What the rules core needs to work out a torpor a ruling begins (met-reference 5.2): the
    chronicle's settings (``torpor_table``, ``torpor_table_shift``, ``torpor_time_scale``...), the
    game session the ruling happens in, and each person's Humanity or Path.

    Attributes:
        settings: the chronicle's settings.
        night: the game session's date and number; ``None``: not known (no game session open),
            and no torpor is worked out.
        morality: by name, (MET Traits, tabletop dots or ``None``); a name not given counts 0 Traits.
    """

    settings: ChronicleSettings
    night: GameNight | None
    morality: Mapping[str, tuple[int, int | None]] = field(default_factory=dict)

    @classmethod
    def of(cls, settings: ChronicleSettings, night: GameNight | None, people: Iterable[Any]) -> "TorporClock":
        """The clock for ``people`` (:class:`larp.rules.rulings.people.Person`: ``morality`` and
        ``tabletop_morality``)."""
        return cls(settings, night, {p.name: (p.morality or 0, p.tabletop_morality) for p in people})

    def start(self, name: str, cause: str) -> TorporStart | None:
        """The torpor ``name`` enters for ``cause`` tonight, or ``None`` with no game session known.

        Raises:
            RulesError: as :func:`larp.rules.torpor.enter_torpor`.
        """
        if self.night is None:
            return None
        met, tabletop = self.morality.get(name, (0, None))
        return enter_torpor(cause, self.night.on, self.settings, met_rating=met, tabletop_rating=tabletop,
                            who=name, session=self.night.session)
