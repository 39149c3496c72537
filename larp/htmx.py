"""The only module that talks to htmx-flask (stack-notes 1.1).

Views call :func:`render` to answer a partial to htmx and the whole page to a
plain request; swapping the helper library later touches only this file.
"""

from __future__ import annotations

from typing import Any

from flask import render_template
from markupsafe import Markup
from htmx_flask import Htmx
from htmx_flask import make_response as htmx_response
from htmx_flask import request

htmx = Htmx()


def is_partial() -> bool:
    """True for an htmx request that expects a fragment (not a boosted navigation)."""
    return bool(request.htmx) and not request.htmx.boosted


def landing() -> Markup:
    """The attributes of the element a plain (no-JavaScript) form's answer is about: the browser
    focuses it on load and so scrolls it into view (``tabindex="-1" autofocus``), as htmx's swap
    does with a script. Empty for a GET and for htmx requests."""
    if request.method == "POST" and not request.htmx:
        return Markup(' tabindex="-1" autofocus')
    return Markup("")


def render(full_template: str, partial_template: str, status: int = 200, **context: Any):
    """Render ``partial_template`` for htmx, ``full_template`` otherwise.

    The response varies on ``HX-Request`` and ``HX-Target`` so caches never mix them.
    """
    template = partial_template if is_partial() else full_template
    response = htmx_response(render_template(template, **context), status)
    response.vary.add("HX-Request")
    response.vary.add("HX-Target")  # a swap aimed at <main> gets only its inside (templates/base.html)
    return response


def refresh_response(body: str, status: int):
    """A response that tells htmx to reload the page (used after a CSRF failure)."""
    return htmx_response(body, status, refresh=True)


def replace_url(response, url: str):
    """Make htmx show ``url`` in the address bar for this response (HX-Replace-Url), so a
    reload shows the same screen state; returns ``response``."""
    response.headers["HX-Replace-Url"] = url
    return response
