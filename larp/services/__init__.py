"""Use cases: each function is one transaction that loads, calls the rules core,
writes and records. Views call these and never change models themselves."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses, with a message for the person at the screen.

    Attributes:
        message: what is wrong and what to do, in the narrator's words.
        field: the form or JSON field at fault, if any.
        status: the HTTP status a view should answer (400 bad input, 403
            forbidden, 404 unknown, 409 stale or conflicting, 422 invalid).
    """

    def __init__(self, message: str, field: str | None = None, status: int = 422):
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status


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
