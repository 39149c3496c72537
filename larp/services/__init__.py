"""Use cases: each function is one transaction that loads, calls the rules core,
writes and records. Views call these and never change models themselves."""

from __future__ import annotations

from larp.rules.explain import N_, Phrase, Refusal


#: A request the service refuses, with a message for the person at the screen (``message``, ``field``,
#: ``status``: 400 bad input, 403 forbidden, 404 unknown, 409 stale or conflicting, 422 invalid). The same
#: type as the rules core's refusals (:class:`larp.rules.explain.Refusal`, whose
#: :class:`larp.rules.explain.RulesError` is one), so a view that catches it shows a rules refusal too and
#: no service has to translate one by hand (issue 29 item 4).
ServiceError = Refusal


def read_number(value, field: str, *, low: int | None = None, high: int | None = None, default=None,
                required: bool = False, text: bool = True, label: str | None = None, status: int = 422) -> int | None:
    """A whole number from a form, a query string or a JSON body, read by the app's one number reader
    (:func:`larp.rules.numbers.whole_number`, which says what it accepts).

    Args:
        value: the value as received.
        field: the input's name (the error names it).
        low, high: the allowed range (inclusive; either may be open).
        default: the result when the value is missing or empty (unless ``required``).
        required: refuse a missing value instead of giving ``default``.
        text: whether text is accepted (``False`` for JSON bodies, where a number is a JSON number).
        label: how the message names the field.
        status: the HTTP status of the refusal.

    Raises:
        ServiceError: ``status`` (422) naming ``field``: not a whole number in ASCII digits, out of
            range, or missing when required.
    """
    from larp.rules.numbers import REQUIRED, NumberError, whole_number

    try:
        return whole_number(value, field, low=low, high=high, default=REQUIRED if required else default,
                            text=text, label=label)
    except NumberError as exc:
        raise ServiceError(exc.message, field=exc.field, status=status) from None


#: The deepest nesting of arrays and objects taken in JSON from outside (an API body, an uploaded
#: chronicle export, a form's hidden JSON field). Ours nest at most about ten levels; deeper text is
#: refused before anything walks it, so no reader or writer of it can run out of stack (issue 28 item 4).
MAX_JSON_DEPTH = 64


def read_json(text: str | bytes, field: str | None, *, label: str, status: int = 400,
              max_depth: int = MAX_JSON_DEPTH, **loads_options):
    """JSON text from outside, parsed, by the app's one reader of it: nested at most ``max_depth``
    levels of arrays and objects (100,000 brackets gave a RecursionError, a 500).

    Args:
        text: the JSON text (bytes are read as UTF-8, with or without a byte-order mark).
        field: the input's name (the error names it); ``None`` for a whole body.
        label: how the message names the input ("The body", "This file").
        status: the HTTP status of the refusal.
        loads_options: passed to :func:`json.loads` (``parse_constant``...).

    Raises:
        ServiceError: ``status`` naming ``field``: not UTF-8, not JSON, or nested too deep.
    """
    import json

    too_deep = ServiceError(Phrase.message(N_("%(label)s nests arrays and objects more than %(max_depth)s levels "
                                              "deep: it is not something this app writes or reads."),
                                           label=label, max_depth=max_depth), field=field, status=status)
    try:
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8-sig")
        value = json.loads(text, **loads_options)
    except RecursionError:
        raise too_deep from None
    except ValueError as exc:  # UnicodeDecodeError and json.JSONDecodeError are ValueErrors
        raise ServiceError(Phrase.message(N_("%(label)s is not readable JSON (%(exc)s)."),
                                          label=label, exc=str(exc)[:200]), field=field, status=status) from None
    if isinstance(value, (dict, list)):
        # Iterative, so that checking the depth cannot itself run out of stack.
        stack = [(value, 1)]
        while stack:
            item, depth = stack.pop()
            if depth > max_depth:
                raise too_deep
            for child in (item.values() if isinstance(item, dict) else item):
                if isinstance(child, (dict, list)):
                    stack.append((child, depth + 1))
    return value


def refuse_name_taken(query, other_than: int | None, refusal: Phrase, field: str = "name") -> None:
    """Refuse a name already in use: ``query`` selects the chronicle's rows that bear it (a peewee select of
    one model); ``other_than`` is the id of the row being renamed (``None`` for a new one), which may keep it.

    Raises:
        ServiceError: 409 with ``refusal``, naming ``field``, when another row bears the name.
    """
    if other_than is not None:
        query = query.where(query.model.id != other_than)
    if query.exists():
        raise ServiceError(refusal, field=field, status=409)


def refuse_direction_controls(name: str, label: Phrase, field: str = "name") -> None:
    """Refuse a name holding a direction control that would turn the text around it (:mod:`larp.bidi`,
    new-user test 12 finding 4): ``label`` names the field as the page does.

    Raises:
        ServiceError: 422 naming ``field`` and the controls found ("U+202E").
    """
    from larp.bidi import direction_controls_in

    codes = direction_controls_in(name or "")
    if codes:
        raise ServiceError(Phrase.message(N_("%(label)s holds an invisible direction control (%(codes)s) that turns "
                                             "the text around it (what is shown would not be what is stored): type "
                                             "it again without it."), label=label, codes=", ".join(codes)),
                           field=field)
