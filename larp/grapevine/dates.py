"""Grapevine's dates, both ways.

Grapevine (Visual Basic) writes a date in the exporting computer's locale with VB's general
format: ``8/2/2007`` (a date at midnight), ``8/2/2007 8:20:11 AM`` (date and time), and a date
that was never set as its zero, 30 December 1899, which prints as the time alone:
``12:00:00 AM``. Other tools and locales write ``27/01/2008 18:21:12`` and odd mixtures such as
``18:21:12 PM`` (real-data README). Grapevine reads them back with VB's ``CDate`` in the
locale of the computer that opens the file, so a file holds one order, its writer's.

A file's day/month order is therefore decided once, from all its dates (:func:`date_order`): a
first number over 12 proves day first, a second number over 12 proves month first; a file with
no proof is read month first (US Windows, where most files come from), and a file with proofs of
both is read date by date, each date with a proof by its proof (issue 27). Writing is always
Grapevine's own US format, month first, so every date of an exported file is in one order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from larp.rules.explain import N_, Phrase

#: Visual Basic's date zero: what Grapevine stores for a date never set ("12:00:00 AM").
NO_DATE = datetime(1899, 12, 30)

_DATE = re.compile(r"\s*(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})(.*)$")
_CLOCK = re.compile(r"\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?\s*$")


MONTH_FIRST, DAY_FIRST = "month first", "day first"


@dataclass(frozen=True)
class DateOrder:
    """How a file writes its dates, decided once from all of them (:func:`date_order`).

    Attributes:
        order: :data:`MONTH_FIRST` or :data:`DAY_FIRST`: how a date without a proof is read.
        mixed: the file holds proofs of both orders; each date with a proof is read by it.
        reason: the sentence the import report shows ("Dates read day first (14/2/2010 ...)").
    """

    order: str = MONTH_FIRST
    mixed: bool = False
    reason: str = ""

    @property
    def day_first(self) -> bool:
        """Whether a date without a proof of its own is read day first."""
        return self.order == DAY_FIRST


def _numbers(text: str) -> tuple[int, int] | None:
    match = _DATE.match(text or "")
    if not match or int(match.group(1)) > 31:  # year first (ISO-like) proves nothing
        return None
    return int(match.group(1)), int(match.group(2))


def date_order(texts: Iterable[str]) -> DateOrder:
    """The day/month order of a file whose dates are ``texts`` (every date it holds: last-modified,
    start dates, experience entries, boons), with the reason the report gives."""
    day_proof = month_proof = None
    for text in texts:
        numbers = _numbers(text)
        if numbers is None:
            continue
        first, second = numbers
        if first > 12 and second <= 12 and day_proof is None:
            day_proof = text.strip()
        if second > 12 and first <= 12 and month_proof is None:
            month_proof = text.strip()
    if day_proof and month_proof:
        return DateOrder(MONTH_FIRST, True, Phrase.message(N_(
            "The file's dates are in both orders (%(day)s can only be day first, %(month)s only month first): each "
            "date that shows its order is read by it, the others month first. Check the experience dates."),
            day=repr(day_proof), month=repr(month_proof)))
    if day_proof:
        return DateOrder(DAY_FIRST, False, Phrase.message(N_(
            "Dates read day first (day/month/year): %(date)s has a first number over 12."), date=repr(day_proof)))
    if month_proof:
        return DateOrder(MONTH_FIRST, False, Phrase.message(N_(
            "Dates read month first (month/day/year): %(date)s has a second number over 12."), date=repr(month_proof)))
    return DateOrder(MONTH_FIRST, False, Phrase.message(N_(
        "Dates read month first (month/day/year), as Grapevine writes them on US Windows: no date in the file shows "
        "its order (every day is 12 or less).")))


def parse_grapevine_date(text: str, order: DateOrder | None = None) -> datetime | None:
    """Read a Grapevine date leniently; ``None`` when it cannot be read.

    The day/month order is ``order``'s (:func:`date_order`; default month first, Grapevine's home
    locale); a date that can only be read one way (a number over 12) is read that way. A time
    alone (``12:00:00 AM``) is Grapevine's unset date: it reads as :data:`NO_DATE` with that time.
    A time that cannot be read is dropped, keeping the date.
    """
    text = text or ""
    clock_only = _CLOCK.match(text)
    if clock_only:
        time = _clock(clock_only)
        return NO_DATE.replace(hour=time[0], minute=time[1], second=time[2]) if time else None
    match = _DATE.match(text)
    if not match:
        return None
    a, b, c = (int(g) for g in match.groups()[:3])
    if a > 31:  # year first (ISO-like)
        year, month, day = a, b, c
    else:
        year = c + (2000 if c < 50 else 1900) if c < 100 else c
        if a > 12:
            month, day = b, a
        elif b > 12:
            month, day = a, b
        else:
            month, day = (b, a) if order is not None and order.day_first else (a, b)
    try:
        date = datetime(year, month, day)
    except ValueError:
        try:
            date = datetime(year, day, month)
        except ValueError:
            return None
    clock = re.match(r"\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?", match.group(4))
    time = _clock(clock) if clock else None
    if time:
        date = date.replace(hour=time[0], minute=time[1], second=time[2])
    return date


def _clock(match: re.Match) -> tuple[int, int, int] | None:
    hour, minute, second = int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)
    meridiem = (match.group(4) or "").lower()
    if meridiem == "pm" and hour < 12:
        hour += 12
    elif meridiem == "am" and hour == 12:
        hour = 0
    if hour < 24 and minute < 60 and second < 60:
        return hour, minute, second
    return None


def is_set(date: datetime | None) -> bool:
    """Whether ``date`` is a real date (not missing, not Grapevine's unset :data:`NO_DATE`)."""
    return date is not None and date.date() != NO_DATE.date()


def format_grapevine_date(date: datetime | None) -> str:
    """``date`` as Grapevine writes it: ``8/2/2007 8:20:11 AM``, ``8/2/2007`` at midnight, the time
    alone for its unset date (``None`` is ``12:00:00 AM``). Seconds are kept; microseconds are not."""
    date = date or NO_DATE
    hour = date.hour % 12 or 12
    clock = f"{hour}:{date.minute:02d}:{date.second:02d} {'PM' if date.hour >= 12 else 'AM'}"
    if not is_set(date):
        return clock
    day = f"{date.month}/{date.day}/{date.year}"
    if (date.hour, date.minute, date.second) == (0, 0, 0):
        return day
    return f"{day} {clock}"
