"""The order of a turn's actions (issue 30 item 5): a plain panel where the narrator enters who acts this
turn (current Traits in the category used, Celerity active, whom he challenges, surprised, answering with
a simultaneous attack) and reads the order with its reasons (:func:`larp.rules.order.order_of_actions`;
002 "Order of Challenges", LotNR order of challenges and Celerity, met-reference 3.1 and 3.3).

Nothing is written: the panel is a GET form, so it works without JavaScript and can be reloaded.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Blueprint, request

from larp.htmx import render
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.order import HandActions, Participant, hand_actions, order_of_actions
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle
from larp.web import inputs
from larp.web.auth import role_required

bp = Blueprint("turn_order", __name__)

#: Rows on the panel (002: at most five attackers a range, and the one they fight).
ROWS = 8
#: The longest name the panel reads (a character's name).
LONGEST_NAME = 120


def participants_from_form(values: Mapping[str, Any]) -> list[Participant]:
    """The people acting this turn as the panel's rows give them (``p<i>_name``, ``p<i>_traits``,
    ``p<i>_celerity``, ``p<i>_target``, ``p<i>_surprised``, ``p<i>_simultaneous``); a row without a
    name is left out.

    Raises:
        ServiceError: 422 naming the field of a number that is not one (Traits 0 to 99, Celerity 0 to 5),
            or a name longer than any character's.
    """
    people = []
    for i in range(ROWS):
        name = " ".join(str(values.get(f"p{i}_name") or "").split())
        if not name:
            continue
        if len(name) > LONGEST_NAME:
            raise ServiceError(Phrase.message(N_("A name has at most %(LONGEST_NAME)s characters."),
                                              LONGEST_NAME=LONGEST_NAME), field=f"p{i}_name")
        target = " ".join(str(values.get(f"p{i}_target") or "").split())[:LONGEST_NAME]
        people.append(Participant(
            name=name, traits=inputs.whole(values, f"p{i}_traits", low=0, high=99, required=True, label="Traits"),
            celerity=_celerity(values, i),
            target=target, surprised=bool(values.get(f"p{i}_surprised")),
            simultaneous=bool(values.get(f"p{i}_simultaneous"))))
    return people


def _celerity(values: Mapping[str, Any], i: int) -> int:
    """Row ``i``'s Celerity, 0 to 5 (left empty: 0)."""
    return inputs.whole(values, f"p{i}_celerity", 0, low=0, high=5, label="Celerity")


def hands_from_form(values: Mapping[str, Any]) -> list[tuple[str, HandActions]]:
    """For each named row that fights with a weapon in each hand (``p<i>_both_hands``), his actions this
    turn and how they split between his hands (:func:`larp.rules.order.hand_actions`: LotNR Celerity and
    "Two-Gun Mojo", met-reference T23), by his Celerity (0 to 5) on the row."""
    hands = []
    for i in range(ROWS):
        name = " ".join(str(values.get(f"p{i}_name") or "").split())
        if name and values.get(f"p{i}_both_hands"):
            hands.append((name, hand_actions(_celerity(values, i), True, 0, who=name)))
    return hands


@bp.route("/turn-order")
@role_required("organiser", "narrator")
def panel():
    """Who acts this turn, and the order their actions resolve in with the reasons; for those fighting
    with both hands, their actions a hand (met-reference T23). Nothing is written."""
    values = request.args
    order, hands, error, status = None, [], None, 200
    if any(values.get(f"p{i}_name") for i in range(ROWS)):
        try:
            people = participants_from_form(values)
            order = order_of_actions(people)
            hands = hands_from_form(values)
        except RulesError as exc:  # a rules refusal names the rules' field: the panel's row named instead
            error, status = ServiceError(exc.message, field=_form_field(exc.field)), 422
        except ServiceError as exc:
            error, status = exc, exc.status
    return render("turn_order/page.html", "turn_order/page.html", status=status, chronicle=get_chronicle(),
                  rows=range(ROWS), form=values, order=order, hands=hands, error=error)


def _form_field(field: str | None) -> str | None:
    """The panel's field for the rules' ``participants[<i>].<key>`` (the i-th named row)."""
    import re

    match = re.match(r"participants\[(\d+)\]\.(\w+)", field or "")
    if not match:
        return field
    named = [i for i in range(ROWS) if " ".join(str(request.args.get(f"p{i}_name") or "").split())]
    index = int(match.group(1))
    return f"p{named[index]}_{match.group(2)}" if index < len(named) else field
