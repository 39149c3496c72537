"""The stray-shot screen (issue 4): a shot missed its target, and the people near it may be hit
(seed 002 "Firing Guns into Groups of People"; the rules in :mod:`larp.rules.firing_into_groups`).

It works like the combat board (:mod:`larp.web.combat_board`; both are a :class:`larp.web.board_screen.BoardScreen`):
everything the screen shows lives in its
form and its address, every button posts the whole form, and Resolve rules without writing until
nothing is left to decide; then ONE ruling is recorded.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, g, redirect, request, url_for
from flask_babel import gettext as _

from larp.services.records import ruling_in
from larp.htmx import is_partial, render
from larp.models import Ruling
from larp.services import ServiceError
from larp.services.chronicles import get_chronicle
from larp.services.firing_into_groups import (
    BystanderRequest,
    FiringIntoGroupsRequest,
    adjudicate_firing_into_groups,
    preview_firing_into_groups,
)
from larp.services.mass_challenge import FighterRequest
from larp.web.auth import role_required
from larp.web.rulings import UNDO_STEP
from larp.web.screen_answer import STRAY_PLACES
from larp.web.people_form import (
    kept_retest_choices,
    BYSTANDER_FLAGS,
    BYSTANDER_TEXT,
    FIRER_FLAGS,
    FIRER_TEXT,
    PeopleForm,
    base_context,
    person_scene,
    scene_fields,
)
from larp.web.board_screen import BoardScreen, Fields

bp = Blueprint("stray_shot", __name__)


def _firing_into_groups_request(people_form: PeopleForm) -> FiringIntoGroupsRequest:
    if people_form.picks.get("firer") is None:
        raise ServiceError(_("Choose the firer first."), field="firer_q")
    if people_form.picks.get("target") is None:
        raise ServiceError(_("Choose the target the shot missed."), field="target_q")
    f = people_form.fields
    firer = FighterRequest(people_form.picks["firer"], bid=f.get("firer_bid", ""), throw=f.get("firer_throw", ""),
                           weapon=f.get("firer_weapon", ""), scene=person_scene(f, "firer_"))
    people = tuple(BystanderRequest(r["id"], throw=r["throw"], firer_throw=r["firer_throw"], saw_it_coming=r["saw"],
                                    excluded=r["excluded"], bid=r["bid"],
                                    tests=tuple(people_form.tests.get(str(r["id"]), [])), scene=person_scene(r, ""))
                   for r in people_form.rows)
    return FiringIntoGroupsRequest(firer=firer, target_id=people_form.picks["target"], bystanders=people,
                        bursts=not f.get("firer_single"), careful_aim=bool(f.get("firer_careful_aim")),
                        close_range=bool(f.get("firer_close_range")),
                        deliberate_spray=bool(f.get("firer_deliberate_spray")), scene_fields=scene_fields(people_form),
                        scene_id=request.values.get("scene_id") or None)


def _stray_outcome(firing, recorded: Ruling | None) -> dict[str, Any] | None:
    outcome = STRAY.outcome(firing, recorded)
    if outcome is None:
        return None
    for bystander in outcome["by_name"].values():
        bystander["note_said"] = _bystander_note(bystander.get("note") or "")
    return outcome


#: The rules core's note on a bystander the round did not reach (larp.rules.firing_into_groups.engine).
ROUND_STOPPED = "the round stopped in "
#: ...and its end when the round waits on a forced darkness retest in that bystander's test.
FORCED_DUE = "'s test (the forced retest is due)"


def _bystander_note(note: str) -> str:
    """Why a bystander was not tested when the round stopped in someone before him, in the reader's language
    (empty for the other notes: glossary terms the screen says with the ``term`` filter)."""
    if note.startswith(ROUND_STOPPED):
        stopped = note[len(ROUND_STOPPED):]
        if stopped.endswith(FORCED_DUE):  # the round waits on a forced darkness retest (new user 14: said in English)
            return _("the round waits for the forced retest in %(name)s's test", name=stopped[:-len(FORCED_DUE)])
        return _("the round stopped in %(name)s", name=stopped)
    return ""


def _stray_context(people_form: PeopleForm, **extra: Any) -> dict[str, Any]:
    context = base_context(people_form, **extra)
    weapon = people_form.fields.get("firer_weapon")
    card = context["guns"].get(weapon) if weapon else None
    automatic = bool(card and (card.has("Full-Auto") or card.has("Burst")))
    group = bool(card and ((card.has("Spray") and not automatic) or (automatic and not people_form.fields.get("firer_single"))))
    context.update(card=card, automatic=automatic, group=group,
                   excluded=sum(1 for r in people_form.rows if r.get("excluded")))
    return context


#: The stray-shot screen: the firer and the target missed picked, the bystanders in rows (``b``), closest first;
#: one ruling of kind firing_into_group recorded. A ruling redraws the whole form.
STRAY = BoardScreen(page="stray_shot/page.html", form="stray_shot/_form.html", result="stray_shot/_form.html",
                    whole_form=True, picks=("firer", "target"), side=Fields("firer", FIRER_TEXT, FIRER_FLAGS),
                    rows=Fields("b", BYSTANDER_TEXT, BYSTANDER_FLAGS), list_key="bystanders", places=STRAY_PLACES,
                    kind="firing_into_group", parts="bystanders", part_name="name", add_limit=False,
                    context=_stray_context)


@bp.route("/combat/bystanders", methods=["GET"])
@role_required("organiser", "narrator")
def page():
    """The bystanders of a missed shot: the firer, his gun, the target missed and the people
    near it, closest first (``b`` ids in order; ``b<id>_throw``, ``b<id>_firer_throw``...)."""
    people_form = STRAY.read(request.args, strict=False)
    recorded = None
    if request.args.get("ruling"):
        recorded = ruling_in(get_chronicle(), request.args.get("ruling"))
    context = STRAY.context(people_form, recorded=recorded, outcome=_stray_outcome(None, recorded))
    return render(STRAY.page, STRAY.page, **context)


@bp.route("/combat/bystanders", methods=["POST"])
@role_required("organiser", "narrator")
def page_post():
    """Edit the list (``add``, ``pick:<id>``, ``up:<id>``, ``down:<id>``, ``remove:<id>``, the
    pickers) or resolve the stray shot (``resolve``, ``retest``, ``record``, or ``retest_record``: the chosen
    retests made and the shot recorded as they leave it, one tap, as on the combat board)."""
    form = request.form
    step = (form.get("step") or "resolve").strip()
    chronicle = get_chronicle()
    people_form, refusal = STRAY.posted(form)
    if refusal is not None:
        return refusal
    if step.startswith(UNDO_STEP):  # the recorded shot taken back: the firer, the target and the bystanders stay
        return STRAY.undo(step, people_form)
    if step not in ("resolve", "retest", "record", "retest_record"):
        blocked = {}
        if people_form.picks.get("target"):
            blocked[people_form.picks["target"]] = _("{name} is the target, not a bystander.")
        if people_form.picks.get("firer"):
            blocked[people_form.picks["firer"]] = _("{name} fired the shot and cannot be a bystander to it.")
        try:
            shown = STRAY.edit(people_form, chronicle, step, blocked)
        except ServiceError as exc:
            return STRAY.draw(people_form, status=exc.status, error=exc)
        url = url_for("stray_shot.page", **people_form.query())
        if not is_partial() and not shown.get("add_results") and not any(k.endswith("_results") for k in shown):
            return redirect(url, code=303)
        return STRAY.draw(people_form, url=url, shown=shown)
    rng = current_app.config["RANDOM_SOURCE"]()
    if step == "resolve":
        people_form.tests = {}
    def retests_incomplete(exc: ServiceError):
        """"Make the retests" without a retest or its signs: the result so far stays, the choices ticked again
        and the message under the retests; nothing is written (as on the combat board)."""
        try:
            firing = preview_firing_into_groups(chronicle, _firing_into_groups_request(people_form), rng)
        except ServiceError:
            return STRAY.refused(people_form, exc)
        return STRAY.show_result(people_form, status=exc.status, tap=firing, preview=firing,
                                 outcome=_stray_outcome(firing, None), error=exc, kept=kept_retest_choices(form))

    # One service call a tap (issue 29): resolve, and record when nothing is left to decide.
    result, refusal = STRAY.adjudicated(
        step, people_form, form, ("f_throw", "b_throw"),
        lambda record: adjudicate_firing_into_groups(chronicle, g.user, _firing_into_groups_request(people_form), rng,
                                                     record=record, request_token=form.get("request_token")),
        retests_incomplete)
    if refusal is not None:
        return refusal
    if result.record is None:
        for row in people_form.rows:  # random signs were drawn once: kept for the rest of this shot
            drawn = result.throws.get(str(row["id"]), {})
            row.update({k: v for k, v in drawn.items() if k in ("throw", "firer_throw")})
        if "firer" in result.throws:
            people_form.fields["firer_throw"] = result.throws["firer"]["throw"]
        return STRAY.show_result(people_form, tap=result, preview=result, outcome=_stray_outcome(result, None))
    people_form.clear_round(("firer_throw",), ("throw", "firer_throw"))
    url = url_for("stray_shot.page", **people_form.query(ruling=result.record.id))
    if not is_partial():  # the no-JS browser lands on the result, not at the top of the form
        return redirect(url_for("stray_shot.page", _anchor="combat-result", **people_form.query(ruling=result.record.id)),
                        code=303)
    return STRAY.show_result(people_form, url=url, tap=result, recorded=result.record,
                             outcome=_stray_outcome(None, result.record))
