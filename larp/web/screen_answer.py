"""Where a combat screen's answer shows (the combat board, the stray-shot screen, the record's pages): the page
or its htmx partial with the address to show, the result put at the top of the viewport, and a refusal beside the
field it is about. Split from :mod:`larp.web.people_form`, which reads and edits the screens' forms."""

from __future__ import annotations

from typing import Any

from larp.htmx import is_partial, render, replace_url
from larp.services import ServiceError


def respond(full: str, partial: str, status: int = 200, url: str | None = None, **context: Any):
    """The page (or, for htmx, the partial), with the address to show after an edit."""
    response = render(full, partial, status=status, **context)
    if url and is_partial():
        replace_url(response, url)
    return response


def result_in_view(response, whole_form: bool = False):
    """The result of Resolve, a retest or Record (htmx gets ``combat_board/_board_result.html``: the result and, out of
    band, only the parts of the board the fight changed; issue 18) replaces the result area and goes to the
    top of the viewport (the ruling in view), where its summary, the retests on offer and "Record as it
    stands" are. ``whole_form``: the answer is the whole form (the stray-shot screen), swapped as it asked,
    and only scrolled to the result."""
    if not whole_form:
        response.headers["HX-Retarget"] = "#combat-result"
    return shown_at(response, "combat-result")


def shown_at(response, anchor: str):
    """An htmx answer swapped as asked, then scrolled so the element ``anchor`` (an id) is at the top of the
    viewport: where the result or the message about a field is."""
    response.headers["HX-Reswap"] = f"outerHTML show:#{anchor}:top"
    return response


#: Where a refusal about a field is shown on each combat screen, by the field's start: the box that
#: holds the field (the attacker's or bystander's row comes first, the result area last).
BOARD_PLACES = ((("target", "defender"), "target-panel"),)
STRAY_PLACES = ((("firer",), "firer-panel"), (("target",), "missed-panel"), (("add_q",), "add-box"))


def error_at(error: ServiceError, row: int | None, places: tuple[tuple[tuple[str, ...], str], ...]) -> str:
    """The id of the place on a combat screen that shows ``error`` beside its field: the row of the
    person it is about, else the box of ``places`` whose field names start the error's field, else
    the result area."""
    if row is not None:
        return f"row-{row}"
    field = error.field or ""
    return next((anchor for starts, anchor in places if field.startswith(starts)), "combat-result")
