"""Reading a whole number from a form, a query string or a JSON body: one reader for the app (and
:func:`enum_value`, the one reader of a word among a rules enum's values).

Every number that comes from outside (a form field, a URL's query, a JSON body, a row id)
is read by :func:`whole_number`, so that every screen and endpoint refuses the same things
the same way, with a message naming the field:

- digits are the ASCII digits ``0`` to ``9`` only, with an optional sign and surrounding
  spaces. Python's ``int()`` also reads other scripts' digits (``"١٢"``) and underscores
  (``"1_000"``), and ``str.isdigit()`` accepts superscripts (``"²"``) that ``int()`` then
  refuses: neither is used on input;
- at most :data:`MAX_DIGITS` digits, so no number is too large for either database;
- ``True``/``False`` are not numbers, nor are fractions, ``NaN`` or infinities.

Pure: no Flask, no peewee; the rules core, the services and the views all use it.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

from larp.rules.explain import N_, Phrase, RulesError

#: The largest row id accepted from a URL or a form (both databases store at least 32-bit ids).
MAX_ID = 2**31 - 1
#: The most digits a number may have (any larger number is refused as too large).
MAX_DIGITS = 18

_WHOLE = re.compile(r"[+-]?[0-9]+")
_SPACES = " \t\r\n"


class NumberError(RulesError):
    """A value that is not a whole number in the range asked for; ``field`` names it."""


class _Required:
    def __repr__(self) -> str:  # pragma: no cover - shown only in signatures
        return "REQUIRED"


#: The ``default`` of a number that must be given.
REQUIRED: Any = _Required()


#: The field's words for inputs whose names are not words a player reads ("attacker_potence").
FIELD_WORDS = {
    "attacker_potence": "The attacker's Potence", "levels": "Health levels", "blood": "Blood points",
    "willpower_permanent": "Permanent Willpower", "willpower_current": "Current Willpower",
    "blood_max": "Blood pool", "blood_current": "Blood points", "blood_per_turn": "Blood per turn",
    "xp_spent": "Experience spent", "morality_rating": "Humanity or Path rating",
}


def _label(field: str) -> str:
    return FIELD_WORDS.get(field) or field.replace("_", " ").replace(".", " ").strip().capitalize() or "The number"


def whole_number(value: Any, field: str, *, low: int | None = None, high: int | None = None,
                 default: Any = REQUIRED, text: bool = True, label: str | None = None) -> Any:
    """``value`` read as a whole number from ``low`` to ``high`` (either may be open).

    Args:
        value: a form or query value (text), a JSON value, or ``None``.
        field: the input's name, given back on the error so the answer can name it.
        low, high: the smallest and largest values allowed (inclusive), in the field's units.
        default: returned when the value is missing (``None``, or text that is empty or only
            spaces); without it a missing value is refused.
        text: whether the value may be text (forms, query strings). JSON bodies pass
            ``False``: there a number must be a JSON number, not ``"3"``.
        label: how the message names the field (default: ``field`` in words).

    Raises:
        NumberError: missing without a default, not a whole number (superscript or
            non-ASCII digits, a fraction, ``NaN``, ``True``), too long, or out of range;
            ``field`` is set.
    """
    name = label or _label(field)
    if isinstance(value, str) and text:
        value = value.strip(_SPACES)
    if value is None or (isinstance(value, str) and value == "" and text):
        if default is REQUIRED:
            raise NumberError(Phrase.message(N_("%(name)s: give a whole number."), name=name), field=field)
        return default
    if isinstance(value, bool):
        raise NumberError(Phrase.message(N_("%(name)s: give a whole number, not true or false."), name=name),
                          field=field)
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and text:
        if not _WHOLE.fullmatch(value):
            raise NumberError(Phrase.message(N_("%(name)s: give a whole number written in digits, such as 3 or 12."),
                                             name=name), field=field)
        if len(value.lstrip("+-")) > MAX_DIGITS:
            raise NumberError(Phrase.message(N_("%(name)s: that number is too large."), name=name), field=field)
        number = int(value)
    else:
        raise NumberError(Phrase.message(N_("%(name)s: give a whole number."), name=name), field=field)
    if (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            raise NumberError(Phrase.message(N_("%(name)s: give a number from %(low)s to %(high)s."),
                                             name=name, low=low, high=high), field=field)
        if low is not None:
            raise NumberError(Phrase.message(N_("%(name)s: give a number of at least %(low)s."), name=name, low=low),
                              field=field)
        raise NumberError(Phrase.message(N_("%(name)s: give a number of at most %(high)s."), name=name, high=high),
                          field=field)
    return number


def row_id(value: Any) -> int | None:
    """``value`` as a row id (1 to :data:`MAX_ID`), or ``None`` when it cannot be one."""
    try:
        return whole_number(value, "id", low=1, high=MAX_ID, default=None)
    except NumberError:
        return None


#: A decimal number: digits with one optional decimal point or decimal comma ("1.5", "1,5": a chronicle
#: writing Portuguese or Spanish writes the comma, and no setting read this way is large enough to need
#: a thousands separator).
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)")


def decimal_number(value: Any, field: str, *, text: bool = True, label: str | None = None) -> float:
    """``value`` read as a decimal number (a chronicle setting such as the overbid ratio, 2 or 1.5).

    The same rules as :func:`whole_number`: ASCII digits with one optional decimal point or decimal
    comma ("1.5" and "1,5" are both one and a half), at most
    :data:`MAX_DIGITS` digits; no exponent, ``NaN`` or infinity; ``True``/``False`` are refused.

    Raises:
        NumberError: missing or not such a number; ``field`` is set.
    """
    name = label or _label(field)
    if isinstance(value, bool) or value is None:
        raise NumberError(Phrase.message(N_("%(name)s: give a number."), name=name), field=field)
    if isinstance(value, int):
        return float(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise NumberError(Phrase.message(N_("%(name)s: give a number."), name=name), field=field)
        return value
    if isinstance(value, str) and text:
        value = value.strip(_SPACES)
        if not _DECIMAL.fullmatch(value) or len(value) > MAX_DIGITS + 2:
            raise NumberError(Phrase.message(N_("%(name)s: give a number written in digits, such as 1.5 or 12."),
                                             name=name), field=field)
        return float(value.replace(",", "."))
    raise NumberError(Phrase.message(N_("%(name)s: give a number."), name=name), field=field)


def enum_value(cls: type[StrEnum], value: Any, where: str) -> Any:
    """``value`` as a member of ``cls`` (a member already, or its word in any case, spaces around it ignored).

    Raises:
        RulesError: anything else, naming ``where`` and listing the words ``cls`` takes.
    """
    if isinstance(value, cls):
        return value
    if isinstance(value, str):
        try:
            return cls(value.strip().lower())
        except ValueError:
            pass
    choices = ", ".join(m.value for m in cls)  # only for the refusal (issue 29: a ruling reads dozens of words)
    raise RulesError(Phrase.message(N_("%(value)s is not one of: %(choices)s."),
                                    value=repr(value), choices=choices), field=where)
