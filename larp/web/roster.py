"""The fighters' roster on the combat board (issue 31 item 3): in a cold scene (nobody picked beforehand, no card
scanned) the narrator taps the chronicle's characters instead of typing six card codes.

The roster lists the chronicle's active characters, those checked in tonight first (issue 32's picker order),
then by name; the board's search box filters it by name as the narrator types (static/js/app.js), and its
Find button still searches on the server, by name or card code, without JavaScript. The target is one tap
(``set:target:<id>``, a submit button); attackers are ticked, then added together with "Add hand to hand" or
"Add ranged" (:func:`roster_step` turns the ticks into the board's ``pick:<ids>:<range>`` step), so the page
does not jump back and forth between ticks.
"""

from __future__ import annotations

from collections.abc import Mapping

from larp.models import Character, Chronicle
from larp.services.characters import find_characters

#: At most this many characters on the roster (a chronicle larger than this uses the search box).
ROSTER_LIMIT = 80


def roster(chronicle: Chronicle | None, exclude: tuple[int, ...] | list[int] = ()) -> list[Character]:
    """The chronicle's active characters for the board's pickers: checked in tonight first (each carries
    ``here_tonight`` once the door has checked anyone in), then by name; ``exclude`` (character ids: the
    target and the attackers already on the board) and those in Final Death (or dead) left out: they
    neither fight nor are fought. At most :data:`ROSTER_LIMIT`."""
    if chronicle is None:
        return []
    skip = {int(cid) for cid in exclude if cid}
    found = find_characters(chronicle, "", limit=ROSTER_LIMIT + len(skip), tonight=True)
    return [c for c in found if c.id not in skip and c.condition not in ("final_death", "dead")][:ROSTER_LIMIT]


def roster_step(form: Mapping, step: str) -> str:
    """The board's edit step with the roster's ticks (``add_pick``, character ids) folded in: "Add hand to
    hand" or "Add ranged" (``add:<range>``), or Enter in the add box (``enter``), with names ticked becomes
    ``pick:<id,id,...>:<range>`` (the step "All of them attack" already sends), in the order they were ticked
    when ``add_order`` says it (else the roster's); the text in the box was only
    the roster's filter then, and is cleared. Without a tick, any step is left as it is (a typed name or card
    code adds as before). Ids that are not digits are dropped here; an unknown id or one of another chronicle
    is refused by the board's own pick (a 4xx with its message)."""
    getlist = getattr(form, "getlist", None)
    ticks = [v for v in (getlist("add_pick") if getlist else []) if str(v).isdigit()]
    if not ticks:
        return step
    # The order they were ticked in, when the page's script kept it (``add_order``, ids by commas; issue 31, wave
    # 5): the attackers act in that order. Without it (no script), the roster's order.
    order = [v for v in str(form.get("add_order") or "").split(",") if v in ticks]
    ticks = order + [v for v in ticks if v not in order]
    if step == "enter" and form.get("target"):
        step = "add:hand_to_hand"
    if not step.startswith("add:"):
        return step
    return f"pick:{','.join(dict.fromkeys(ticks))}:{step.split(':', 1)[1]}"
