"""What every mutating request promises, declared before its view runs (issue 19, item 2; issue 13).

- A form carries a one-time ``request_token`` (``{{ form_promise(...) }}`` writes it, fresh each
  time the form is drawn); a JSON API call may send an ``Idempotency-Key`` header. Whatever
  ruling the request records carries it, so the same form or call coming twice (a double tap,
  a retry after a lost reply) is refused with a 409 naming the first ruling.
- A form about one character (the URL's ``character_id``, or its ``character`` field) also says
  what its page showed of him in ``seen_<field>`` fields (his condition and stake, a field of
  the sheet); the ruling is refused as stale only if one of those has changed since.

Both are kept by :func:`larp.services.records.record_ruling` inside the use case's transaction.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from flask import Flask, flash, g, redirect, request, url_for
from flask_babel import gettext
from markupsafe import Markup, escape

from larp.db import as_id
from larp.i18n import said_if_phrase
from larp.services.records import MAX_TOKEN_LENGTH, AlreadyRecorded, close_submission, open_submission
from larp.web.errors import error_response

#: The request header a JSON API client sends its one-time key in (IETF httpapi draft
#: "The Idempotency-Key HTTP Header Field").
IDEMPOTENCY_HEADER = "Idempotency-Key"
#: What a page shows of a character by default, for the forms about him.
CONDITION_FIELDS = ("condition", "staked")


def valid_key(key: str) -> bool:
    """Whether ``key`` can be a one-time key: 1 to 64 visible ASCII characters."""
    return 0 < len(key) <= MAX_TOKEN_LENGTH and all("!" <= ch <= "~" for ch in key)


def form_promise(character: Any = None, fields: tuple[str, ...] = CONDITION_FIELDS) -> Markup:
    """The hidden inputs of a mutating form: a fresh one-time token and, for a form about
    ``character``, the ``fields`` of him its page shows (default: condition and stake)."""
    parts = [f'<input type="hidden" name="request_token" value="{secrets.token_urlsafe(16)}">']
    if character is not None:
        for name in fields:
            value = getattr(character, name)
            shown = ("1" if value else "0") if isinstance(value, bool) else ("" if value is None else str(value))
            parts.append(f'<input type="hidden" name="seen_{escape(name)}" value="{escape(shown)}">')
    return Markup("".join(parts))


def shown_where_it_was_recorded(exc: BaseException, endpoint: str = "rulings.show", **values: Any):
    """For a plain (no-JavaScript) form sent again (Back, then the same button): a 303 to the
    page of the ruling it already made, with "Already recorded" at the top of the page, so the
    narrator sees at once that it counts and what it was. ``None`` when ``exc`` is something
    else or the request is htmx's (its answer is swapped in where the narrator looks).

    Args:
        endpoint: the page that shows the ruling (default its record page); it is given
            ``ruling=<id>`` and ``again=1`` unless it is the record page, which takes
            ``ruling_id``.
    """
    from larp.htmx import is_partial

    if not isinstance(exc, AlreadyRecorded) or is_partial():
        return None
    if endpoint == "rulings.show":
        flash(gettext("Already recorded: %(reason)s", reason=said_if_phrase(exc.message)))
        return redirect(url_for(endpoint, ruling_id=exc.ruling.id), code=303)
    # The screen says it above the ruling itself (a message at the top would be scrolled past).
    return redirect(url_for(endpoint, ruling=exc.ruling.id, again=1, _anchor="ruling", **values), code=303)


def call_hash() -> str:
    """The SHA-256 (hex) of this API call as its ``Idempotency-Key`` is kept with (issue 28 item 1):
    method, path (without the chronicle's prefix, so a retry by either path is the same call) and
    body, byte for byte."""
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode("utf-8", "surrogateescape"))
    digest.update(request.get_data(cache=True))
    return digest.hexdigest()


def _seen() -> dict[int, dict[str, str]]:
    shown = {key[len("seen_"):]: value for key, value in request.form.items() if key.startswith("seen_")}
    character_id = as_id((request.view_args or {}).get("character_id") or request.form.get("character"))
    return {character_id: shown} if shown and character_id is not None else {}


def register(app: Flask) -> None:
    """Declare each mutating request's promises before its view runs, and end them after. The
    sender is the logged-in user (an API token's owner): a one-time token is his in the request's
    chronicle (:mod:`larp.services.records`)."""

    @app.before_request
    def _declare_submission():
        if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
            return None
        user_id = getattr(g.get("user"), "id", None)
        if request.blueprint == "api":
            key = request.headers.get(IDEMPOTENCY_HEADER)
            if key is not None and not valid_key(key):
                return error_response(f"{IDEMPOTENCY_HEADER} is 1 to {MAX_TOKEN_LENGTH} visible ASCII characters.",
                                      IDEMPOTENCY_HEADER, 422)
            g._submission = open_submission(key, user_id=user_id, call_hash=call_hash() if key else None)
        else:
            g._submission = open_submission(request.form.get("request_token"), _seen(), user_id=user_id)
        return None

    @app.teardown_request
    def _end_submission(exc: BaseException | None) -> None:
        handle = g.pop("_submission", None)
        if handle is not None:
            close_submission(handle)

    app.add_template_global(form_promise, "form_promise")
