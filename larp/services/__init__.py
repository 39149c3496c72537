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
