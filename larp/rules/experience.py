"""Experience points as a chronicle keeps them: exact amounts, the kinds of line, the running totals.

Pure: no Flask, no peewee. One reader of an amount (:func:`experience_points`) and one check of a
line (:func:`check_line`) serve every place that writes the experience log (the log's form, a sheet
edit's cost, the Grapevine import, ``larp import``), so nothing the app stores is refused on the way
back (issue 27).

Amounts are :class:`~decimal.Decimal`, exact to :data:`PLACES` decimal places: Grapevine keeps
half points (0.5) and quarter points, and a float would drift (0.1 + 0.2). The kinds are
Grapevine's seven entry types (real-data README; Grapevine 3's ``ExperienceHistoryNode``):

====================  =====  ====================================================
kind                  type   what it does to the totals
====================  =====  ====================================================
``earned``            0      earned and unspent rise by the amount
``lost``              1      earned and unspent fall by it ("deducted")
``set_earned``        2      earned becomes the amount; unspent stays
``spent``             3      unspent falls by it
``refunded``          4      unspent rises by it ("unspent")
``set_unspent``       5      unspent becomes the amount; earned stays
``comment``           6      nothing (the amount is kept as written, usually 0)
====================  =====  ====================================================

Totals run over the log in the order its lines were recorded, as Grapevine runs them over its
history (:func:`running_totals`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from larp.rules.explain import N_, Phrase, RulesError

KINDS = ("earned", "spent", "lost", "refunded", "comment", "set_earned", "set_unspent")
#: The words a person reads for each kind.
KIND_LABELS = {"earned": "earned", "spent": "spent", "lost": "lost", "refunded": "refunded", "comment": "comment",
               "set_earned": "set earned to", "set_unspent": "set unspent to"}
#: Decimal places kept (half and quarter points; Grapevine keeps a single-precision number).
PLACES = 2
#: The largest amount one line may hold, in experience points.
MOST = Decimal(100_000)
#: The most characters of a line's reason (a Grapevine "Purchased ..." line names every Trait bought).
REASON_MAX_CHARS = 20_000

_QUANTUM = Decimal(1).scaleb(-PLACES)
_AMOUNT = re.compile(r"[+-]?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)")


class ExperienceError(RulesError):
    """An experience amount or line that cannot be kept; ``field`` names the value at fault."""


def experience_points(value: Any, field: str = "amount", *, low: Decimal | int = 0,
                      high: Decimal | int = MOST, rounded: bool = False, text: bool = True) -> Decimal:
    """``value`` as an exact amount of experience points.

    Args:
        value: a number, a :class:`Decimal`, or text in digits with one optional decimal point or
            comma (``"0.5"``, ``"0,5"`` as a Grapevine saved on a European Windows writes it).
        low, high: the range allowed, in experience points.
        rounded: round to :data:`PLACES` places instead of refusing more (a Grapevine file's
            single-precision "0.3333333"); the caller reports it.
        text: whether text is read (``False`` for JSON bodies, where an amount is a number).

    Raises:
        ExperienceError: not a number (a fraction of more than :data:`PLACES` places unless
            ``rounded``, an exponent, NaN, true/false), or outside ``low``..``high``.
    """
    if isinstance(value, bool) or value is None:
        raise ExperienceError(Phrase.message(N_("Experience points: give a number, such as 2 or 0.5.")), field=field)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ExperienceError(Phrase.message(N_("Experience points: give a number, such as 2 or 0.5.")),
                                  field=field)
        value = repr(value)
    elif isinstance(value, str):
        if not text:
            raise ExperienceError(Phrase.message(N_("Experience points: give a number, such as 2 or 0.5.")),
                                  field=field)
        value = value.strip()
        if not _AMOUNT.fullmatch(value) or len(value) > 24:
            raise ExperienceError(Phrase.message(N_("Experience points: give a number written in digits, such as "
                                                    "2, 0.5 or 12.")),
                                  field=field)
        value = value.replace(",", ".")
    elif not isinstance(value, (int, Decimal)):
        raise ExperienceError(Phrase.message(N_("Experience points: give a number, such as 2 or 0.5.")), field=field)
    try:
        amount = Decimal(value)
    except (InvalidOperation, ValueError):
        raise ExperienceError(Phrase.message(N_("Experience points: give a number, such as 2 or 0.5.")),
                              field=field) from None
    if not amount.is_finite():
        raise ExperienceError(Phrase.message(N_("Experience points: give a number, such as 2 or 0.5.")), field=field)
    exact = amount.quantize(_QUANTUM, rounding=ROUND_HALF_UP) if abs(amount) < MOST * 10 else amount
    if exact != amount and not rounded:
        raise ExperienceError(Phrase.message(N_("Experience points: at most %(places)s decimal places (such as "
                                                "0.25)."), places=PLACES), field=field)
    if not low <= exact <= high:
        raise ExperienceError(Phrase.message(N_("Experience points: give a number from %(value)s to %(value2)s."),
                                             value=points_text(Decimal(low)), value2=points_text(Decimal(high))),
                              field=field)
    return exact


def points_text(amount: Decimal | int) -> str:
    """``amount`` as a person writes it: ``3``, ``0.5``, ``12.25`` (no trailing zeros, no exponent)."""
    text = format(Decimal(amount).normalize(), "f")
    return "0" if text in ("-0", "") else text


def points_said(amount: Decimal | int) -> int | float | str:
    """``amount`` as a phrase's parameter: a number the reader's locale writes (``0,5`` in Portuguese) that
    English writes as :func:`points_text` does; else the text itself."""
    text = points_text(amount)
    number = float(text) if "." in text else int(text)
    return number if (f"{number:g}" if isinstance(number, float) else f"{number}") == text else text


@dataclass(frozen=True)
class Line:
    """One line of the log as the totals read it: its kind and amount in experience points."""

    kind: str
    amount: Decimal


def shown(kind: str, amount: Decimal | int, number: Callable[[Decimal], str] = points_text) -> str:
    """How the log shows a line's points: ``+2``, ``−0.5``, ``−1 lost``, ``+2 refunded``, ``earned set to
    12``, ``unspent set to 3``, ``comment`` (with its points when it has any). ``number`` writes each number
    (default :func:`points_text`; a screen passes the reader's way, ``0,5``)."""
    points = number(abs(Decimal(amount)))
    plus, minus = ("+", "−") if amount >= 0 else ("−", "+")
    return {"earned": f"{plus}{points}", "spent": f"{minus}{points}", "lost": f"{minus}{points} lost",
            "refunded": f"{plus}{points} refunded", "set_earned": f"earned set to {number(Decimal(amount))}",
            "set_unspent": f"unspent set to {number(Decimal(amount))}"}.get(
        kind, "comment" if not amount else f"comment ({number(Decimal(amount))})")


def check_line(kind: Any, amount: Any, reason: Any, *, text: bool = True) -> tuple[str, Decimal, str]:
    """A line the log may hold, checked with the rules every writer of the log uses: a kind of
    :data:`KINDS`, an amount of at most :data:`MOST` points either way with at most :data:`PLACES`
    places (0 is a line Grapevine writes: a comment, a correction, "set unspent to 0"; Grapevine keeps
    a signed number for every type, and an import keeps its sign), a reason of at most
    :data:`REASON_MAX_CHARS` characters. The log's own form asks more (an amount from 0.01 to 1000,
    a reason of at most 200 characters): this is what any line stored may be.

    Returns:
        ``(kind, amount, reason)``.

    Raises:
        ExperienceError: naming ``kind``, ``amount`` or ``what``.
    """
    if kind not in KINDS:
        raise ExperienceError(Phrase.message(N_("Unknown kind of experience line %(kind)s (%(value)s)."),
                                             kind=repr(kind), value=', '.join(KINDS)), field="kind")
    points = experience_points(amount, "amount", low=-MOST, text=text)
    if not isinstance(reason, str):
        raise ExperienceError(Phrase.message(N_("The reason of an experience line must be text.")), field="what")
    if len(reason) > REASON_MAX_CHARS:
        raise ExperienceError(Phrase.message(N_("The reason of an experience line is %(value)s characters long; at "
                                                "most %(reason_max_chars)s are kept."),
                                             value=len(reason), reason_max_chars=REASON_MAX_CHARS), field="what")
    return kind, points, reason


def step(earned: Decimal, unspent: Decimal, kind: str, amount: Decimal) -> tuple[Decimal, Decimal]:
    """The totals ``(earned, unspent)`` after one line (the table in this module's docstring)."""
    if kind == "earned":
        return earned + amount, unspent + amount
    if kind == "lost":
        return earned - amount, unspent - amount
    if kind == "set_earned":
        return amount, unspent
    if kind == "spent":
        return earned, unspent - amount
    if kind == "refunded":
        return earned, unspent + amount
    if kind == "set_unspent":
        return earned, amount
    return earned, unspent


def running_totals(lines: Iterable[Line]) -> list[tuple[Decimal, Decimal]]:
    """``(earned, unspent)`` after each of ``lines``, taken in the order given (the order they were
    recorded, as Grapevine runs its history)."""
    earned = unspent = Decimal(0)
    out = []
    for line in lines:
        earned, unspent = step(earned, unspent, line.kind, Decimal(line.amount))
        out.append((earned, unspent))
    return out


def totals(lines: Iterable[Line]) -> tuple[Decimal, Decimal]:
    """``(earned, unspent)`` after every line of ``lines`` (0 and 0 for none)."""
    after = running_totals(lines)
    return after[-1] if after else (Decimal(0), Decimal(0))
