"""The one input layer (issue 29 item 4): what a form or a JSON body says, read into the rules
core's types in one place, with one refusal shape.

Every reader takes the values as received (``request.form``, ``request.args``, a JSON object or a
part of one), the key and the field the refusal names (a dotted path inside a JSON body:
``attacker.willpower``), and returns a plain value of the core's type (an ``int`` in Traits, health
levels or blood points; a ``date``; a ``bool``; a member of one of the core's ``Enum``s). Bad input is
refused with a :class:`larp.services.ServiceError` (message, field, status 422): a screen shows it
inline beside the field, the API answers it as ``{"error", "field"}`` (:func:`larp.web.errors.error_response`).

A reader given ``json=True`` reads a JSON body, where a number is a JSON number and a flag a JSON
``true``/``false``; otherwise it reads a form or a query string, where everything is text. The
OpenAPI document's enums are drawn from the same ``Enum``s (:func:`enum_schema`), so a new member of
one is offered by the API the day the core takes it (a test compares them).
"""

from __future__ import annotations

from datetime import date
from enum import Enum
from typing import Any, Iterable, Mapping, TypeVar

from larp.rules.explain import N_, Phrase
from larp.services import ServiceError, read_number
from larp.services.scenes import flag as flag_said

E = TypeVar("E", bound=Enum)


def refuse(message: str, field: str | None, status: int = 422) -> ServiceError:
    """The one refusal of bad input: ``message`` for the person at the screen, ``field`` the input
    at fault (a dotted path in a JSON body). Returned to be raised (``raise refuse(...)``)."""
    return ServiceError(message, field=field, status=status)


def only(data: Mapping[str, Any], allowed: Iterable[str], where: str = "") -> None:
    """Refuse a field the endpoint does not know: a typo must not be silently ignored.

    Args:
        data: a JSON object of the body (or a part of it, at ``where``).
        allowed: the fields it takes.
        where: the dotted path of ``data`` in the body ("" for the body itself).

    Raises:
        ServiceError: 422 naming the first unknown field (``where.field``).
    """
    allowed = set(allowed)
    unknown = sorted(set(data) - allowed)
    if unknown:
        name = f"{where}.{unknown[0]}" if where else unknown[0]
        raise refuse(Phrase.message(N_("Unknown field %(field)s; this endpoint takes: %(fields)s."),
                                    field=repr(unknown[0]), fields=", ".join(sorted(allowed))), name)


def whole(values: Mapping[str, Any], key: str, default: Any = None, *, field: str | None = None,
          low: int | None = None, high: int | None = None, required: bool = False, json: bool = False,
          label: str | None = None, status: int = 422) -> Any:
    """A whole number (Traits, health levels, blood points, nights, dice...) by the app's one number
    reader (:func:`larp.services.read_number`, which says what it accepts).

    Args:
        values: the form or JSON object; ``key`` the input in it, ``field`` the name the refusal
            gives (default ``key``).
        default: the result when it is missing or empty (unless ``required``).
        low, high: the allowed range, inclusive (either may be open).
        json: a JSON body (only a JSON number is a number), else text from a form.
        label: how the message names the input.
        status: the refusal's status (400 for a query string's parameter).

    Raises:
        ServiceError: 422 (``status``) naming the field: not a whole number, out of range, missing when
            required.
    """
    return read_number(values.get(key), field or key, low=low, high=high, default=default, required=required,
                       text=not json, label=label, status=status)


def picked(values: Mapping[str, Any], key: str = "character_id", *, json: bool = False,
           required: bool = False) -> int | None:
    """The id of the character (or other stored thing) picked: a whole number from 1; left out: ``None``
    (unless ``required``). Whether he is in the chronicle is the service's to say (404).

    Raises:
        ServiceError: 422 naming ``key``: not such a number, or missing when required.
    """
    return whole(values, key, low=1, json=json, required=required)


def flag(values: Mapping[str, Any], key: str, field: str | None = None, *, default: bool | None = False,
         required: bool = False) -> bool | None:
    """A JSON ``true`` or ``false`` (left out: ``default``, unless ``required``).

    Raises:
        ServiceError: 422 naming the field when it is anything else, or missing when required.
    """
    if key not in values and not required:
        return default
    value = values.get(key)
    if not isinstance(value, bool):
        raise refuse(Phrase.message(N_("`%(key)s` must be true or false."), key=key), field or key)
    return value


def ticked(values: Mapping[str, Any], key: str) -> bool:
    """A form's checkbox: ticked when it is sent with any value but empty (browsers send ``on``)."""
    return bool(values.get(key))


def text(values: Mapping[str, Any], key: str, default: str = "", *, field: str | None = None) -> str:
    """A text (left out or ``null`` in JSON: ``default``).

    Raises:
        ServiceError: 422 naming the field when it is not a text.
    """
    value = values.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise refuse(Phrase.message(N_("`%(key)s` is a text."), key=key), field or key)
    return value


def name(values: Mapping[str, Any], default: str, key: str = "name", field: str | None = None) -> str:
    """A described person's name for the explanation: the text given, trimmed, else ``default``.

    Raises:
        ServiceError: 422 naming the field when it is not a text.
    """
    value = values.get(key) or default
    if not isinstance(value, str):
        raise refuse(Phrase.message(N_("`%(key)s` is a text."), key=key), field or key)
    return value.strip() or default


def obj(values: Mapping[str, Any], key: str, field: str | None = None) -> dict[str, Any]:
    """A JSON object inside the body (left out, ``null`` or empty: ``{}``).

    Raises:
        ServiceError: 422 naming the field when it is not an object.
    """
    value = values.get(key) or {}
    if not isinstance(value, dict):
        raise refuse(Phrase.message(N_("`%(key)s` must be an object."), key=key), field or key)
    return value


def day(values: Mapping[str, Any], key: str, default: date | None = None, *, field: str | None = None) -> date:
    """A date, ``YYYY-MM-DD`` (a game session's, a torpor's first night...); left out or empty:
    ``default``.

    Raises:
        ServiceError: 422 naming the field: missing with no default, or not such a date.
    """
    value = values.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if default is not None:
            return default
        raise refuse(Phrase.message(N_("Give a date such as %(example)s."), example="2026-12-13"), field or key)
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return date.fromisoformat(value.strip())
    except ValueError:
        raise refuse(Phrase.message(N_("Give a date such as %(example)s."), example="2026-12-13"), field or key) from None


def dice(values: Mapping[str, Any], key: str, *, field: str | None = None, json: bool = False,
         most: int | None = 20, faces: int | None = 10, label: str = "Each die") -> list[int] | None:
    """Dice as rolled at the table: a JSON list of numbers, or a form's text ("8 3 1", commas
    allowed). Left out or empty: ``None`` (the app rolls).

    Args:
        most: how many dice at the most (``None``: no limit).
        faces: the dice's faces, each die 1 to ``faces`` (``None``: the rules core checks them).

    Raises:
        ServiceError: 422 naming the field: too many dice, or a die that is not a whole number
            from 1 to ``faces``.
    """
    field = field or key
    raw = values.get(key)
    if not json:
        raw = (raw or "").replace(",", " ").split()
    if raw is None or raw == []:
        return None
    if not isinstance(raw, list) or (most is not None and len(raw) > most):
        raise refuse(Phrase.message(N_("Give at most %(most)s dice, each a number from 1 to %(faces)s."), most=most,
                                    faces=faces or 10), field)
    low = 1 if faces else None
    return [read_number(die, f"{field}[{i}]" if json else field, low=low, high=faces, required=True, text=not json,
                        label=label) for i, die in enumerate(raw)]


def one_of(values: Mapping[str, Any], key: str, choices: type[E] | Iterable[str], default: Any = None, *,
           field: str | None = None) -> Any:
    """One of a fixed set of words: a member of the core's ``Enum`` (``choices`` an Enum class,
    its values matched as given) or one of the given words. Left out (or ``null``): ``default``.

    Raises:
        ServiceError: 422 naming the field and listing the words taken.
    """
    value = values.get(key)
    if value is None and default is not None:
        return default
    words = enum_values(choices)
    if not isinstance(value, str) or value not in words:
        raise refuse(Phrase.message(N_("`%(key)s` is %(words)s."), key=key, words=_listed(words)), field or key)
    return choices(value) if isinstance(choices, type) else value


def shown_choice(value: Any, choices: type[E] | Iterable[Any], default: Any, *, only: Iterable[Any] | None = None) -> Any:
    """A choice a page is drawn with (a link's or a chip's ``category``, ``kind``...), read leniently:
    the member of ``choices`` (an ``Enum``, matched without regard to case, or words) that ``value``
    names and ``only`` allows, else ``default``: an old or mistyped link still draws the page, and what
    is ruled is checked when the form is sent."""
    word = str(value or "").strip().lower()
    allowed = set(enum_values(only if only is not None else choices))
    if word not in allowed:
        return default
    return choices(word) if isinstance(choices, type) else word


def _listed(words: list[str]) -> str | Phrase:
    shown = [w or '""' for w in words]
    if len(shown) == 1:
        return shown[0]
    return Phrase.message(N_("%(some)s or %(last)s"), some=", ".join(shown[:-1]), last=shown[-1])


def enum_values(choices: type[Enum] | Iterable[Any]) -> list[str]:
    """The words of one of the core's vocabularies, in its order: an ``Enum``'s values, or a tuple's
    (or a dict's keys) such as :data:`larp.rules.health.track.DAMAGE_TYPES`."""
    return [str(getattr(word, "value", word)) for word in choices]


def enum_schema(choices: type[Enum] | Iterable[Any], *, only: Iterable[Any] | None = None, blank: bool = False,
                random: bool = False, null: bool = False) -> dict[str, Any]:
    """The OpenAPI schema of a word from one of the core's vocabularies (``choices``: an ``Enum`` or a
    tuple of the core), so that the API offers what the core takes, no more, no less (a test compares
    every enum of the document with the core's).

    Args:
        only: the members this input takes, when it takes some of them (``BASIC_THROWS``: no Bomb).
        blank: ``""`` is taken too (not said: the default).
        random: ``"random"`` is taken too (drawn by the app).
        null: ``null`` is taken too.
    """
    words = enum_values(choices)
    if only is not None:
        taken = set(enum_values(only))
        words = [w for w in words if w in taken]
    values: list[Any] = ([""] if blank else []) + words + (["random"] if random else []) + ([None] if null else [])
    return {"type": ["string", "null"] if null else "string", "enum": values}


def yes(values: Mapping[str, Any], key: str) -> bool:
    """A flag read leniently, as the challenge screen's ticks and the stored API's sides give it: JSON
    ``true`` or the text ``on``, ``true``, ``1`` or ``yes`` (any case); anything else, or left out: ``False``
    (:func:`larp.services.scenes.flag`, the scene's reader, is the same)."""
    return flag_said(values.get(key))


def said(values: Mapping[str, Any], key: str, default: str = "") -> str:
    """What a form field or a stored API body's value says, as trimmed text (a word, a key, a name: the
    service or the rules core checks it); left out or empty: ``default``."""
    return str(values.get(key) or default).strip()
