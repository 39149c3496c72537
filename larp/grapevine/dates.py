"""Grapevine's dates, both ways.

Grapevine (Visual Basic) writes a date in the exporting computer's locale with VB's general
format: ``8/2/2007`` (a date at midnight), ``8/2/2007 8:20:11 AM`` (date and time), and a date
that was never set as its zero, 30 December 1899, which prints as the time alone:
``12:00:00 AM``. Other tools and locales write ``27/01/2008 18:21:12`` and odd mixtures such as
``18:21:12 PM`` (real-data README). Reading is lenient; writing is Grapevine's own US format.
"""

from __future__ import annotations

import re
from datetime import datetime

#: Visual Basic's date zero: what Grapevine stores for a date never set ("12:00:00 AM").
NO_DATE = datetime(1899, 12, 30)

_DATE = re.compile(r"\s*(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})(.*)$")
_CLOCK = re.compile(r"\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?\s*$")


def parse_grapevine_date(text: str) -> datetime | None:
    """Read a Grapevine date leniently; ``None`` when it cannot be read.

    Month/day/year is tried first (Grapevine's home locale), day/month/year when the first
    number cannot be a month. A time alone (``12:00:00 AM``) is Grapevine's unset date: it
    reads as :data:`NO_DATE` with that time. A time that cannot be read is dropped, keeping the
    date.
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
        month, day = (a, b) if a <= 12 else (b, a)
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
