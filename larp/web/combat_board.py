"""The narrator's combat board (issue 4): a mass challenge on a tablet, one target against up to
five attackers hand to hand and five at range. The stray-shot screen is :mod:`larp.web.stray_shot`.

Everything a screen shows lives in its form and its address, like the
challenge screen, so it works without JavaScript: every button posts the
whole form. Adding, removing and ordering people only changes the screen:
htmx gets the new form (and the address to show), a plain browser is
redirected (303) to it. Resolving rules on the fight without writing; when a
pair's loser may still retest, or the target may choose whom he injures, the
result so far is shown with those choices; otherwise, or on "Record as it
stands", ONE ruling is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, current_app, g, redirect, request, url_for
from flask_babel import gettext as _

from larp.services.records import ruling_in
from larp.htmx import is_partial, render
from larp.services import ServiceError
from larp.services.characters import find_characters
from larp.services.chronicles import get_chronicle
from larp.services.mass_challenge import (
    StoredMassChallenge,
    FighterRequest,
    MassRequest,
    adjudicate_mass_challenge,
    preview_mass_challenge,
)
from larp.web.auth import role_required
from larp.web.scene_memory import remember, remember_board
from larp.web.roster import roster, roster_step
from larp.web.rulings import UNDO_STEP
from larp.web.screen_answer import BOARD_PLACES, shown_at
from larp.web.people_form import (
    kept_retest_choices,
    ROW_FLAGS,
    ROW_TEXT,
    TARGET_FLAGS,
    TARGET_TEXT,
    PeopleForm,
    person_scene,
    scene_fields,
)
from larp.web.board_screen import BoardScreen, Fields

bp = Blueprint("combat_board", __name__)
bp.add_app_template_global(roster, "roster")  # the fighters' roster in the pickers (issue 31 item 3)

# ----- the combat board ------------------------------------------------------

#: The steps that rule on the fight; every other step edits the board.
FIGHT_STEPS = ("resolve", "retest", "record", "retest_record")
#: The board: the target picked, the attackers in rows (``a``), one mass challenge recorded.
BOARD = BoardScreen(page="combat_board/page.html", form="combat_board/_board.html",
                    result="combat_board/_board_result.html", whole_form=False, picks=("target",),
                    side=Fields("target", TARGET_TEXT, TARGET_FLAGS), rows=Fields("a", ROW_TEXT, ROW_FLAGS),
                    list_key="attackers", places=BOARD_PLACES, kind="mass_combat", parts="pairs",
                    part_name="attacker", add_limit=True)


def _mass_request(people_form: PeopleForm) -> MassRequest:
    if people_form.picks.get("target") is None:
        raise ServiceError(_("Choose the target first."), field="target_q")
    if not people_form.rows:
        raise ServiceError(_("Add the attackers (name or card code)."), field="add_q")
    f = people_form.fields
    target = FighterRequest(people_form.picks["target"], bid=f.get("target_bid", ""), throw=f.get("target_throw", ""),
                            weapon=f.get("target_weapon", "") if f.get("target_counter") == "weapon" else "",
                            counter=f.get("target_counter") or "defend",
                            celerity_active=bool(f.get("target_celerity")),
                            lethal_by_prowess=bool(f.get("target_prowess")),
                            bomb_announced=bool(f.get("target_bomb")), scene=person_scene(f, "target_"))
    attackers = tuple(FighterRequest(
        r["id"], bid=r["bid"], throw=r["throw"], range=r["range"] or "hand_to_hand", weapon=r["weapon"],
        bite=r["bite"], lethal_by_prowess=r["prowess"], head_shot=r["headshot"], full_auto=r["fullauto"],
        strength=not r["nostrength"],
        relented=r["relent"], celerity_active=r["celerity"], tests=tuple(people_form.tests.get(str(r["id"]), [])),
        bomb_announced=r["bomb"], scene=person_scene(r, ""))
        for r in people_form.rows)
    injures = (people_form.injures,) if people_form.injures else ()
    return MassRequest(target=target, attackers=attackers, injures=injures, scene_fields=scene_fields(people_form),
                       scene_id=request.values.get("scene_id") or None)


@bp.route("/combat", methods=["GET"])
@role_required("organiser", "narrator")
def board():
    """The combat board.

    Query: ``target`` (a character id) or ``target_q``; ``a`` (attacker ids, in
    order) with each attacker's ``a<id>_range``, ``a<id>_weapon``, ``a<id>_bid``,
    ``a<id>_throw`` and flags; the target's ``target_throw``, ``target_counter``...;
    ``ruling`` (a recorded mass challenge to show).
    """
    people_form = BOARD.read(request.args, strict=False)
    recorded = None
    if request.args.get("ruling"):
        recorded = ruling_in(get_chronicle(), request.args.get("ruling"))
    context = BOARD.context(people_form, recorded=recorded, outcome=BOARD.outcome(None, recorded))
    if context["picks"].get("target"):
        remember_board(people_form.query())
    if people_form.picks.get("target") is None and people_form.queries.get("target"):
        context["shown"] = {"target_results": find_characters(context["chronicle"], people_form.queries["target"], tonight=True)}
    return render(BOARD.page, BOARD.page, **context)


@bp.route("/combat", methods=["POST"])
@role_required("organiser", "narrator")
def board_post():
    """Edit the board (``step`` ``enter``, ``find:target``, ``set:target:<id>``, ``add:<range>``,
    ``pick:<id>:<range>``, ``remove:<id>``...) or resolve the fight (``resolve``, ``retest``,
    ``record``, or ``retest_record``: the chosen retests made and the fight recorded as they leave it, one
    tap, issue 31). Bad input shows its message where the narrator looks and changes nothing."""
    form = request.form
    step = roster_step(form, (form.get("step") or "resolve").strip())  # the roster's ticks (issue 31 item 3)
    chronicle = get_chronicle()
    people_form, refusal = BOARD.posted(form)
    if refusal is not None:
        return refusal
    if step.startswith(UNDO_STEP):  # the recorded fight taken back: the people and the scene stay on the board
        return BOARD.undo(step, people_form)
    if step not in FIGHT_STEPS:
        blocked = {people_form.picks["target"]: _("{name} is the target and cannot also be an attacker.")} \
            if people_form.picks.get("target") else {}
        attackers_before = len(people_form.rows)
        try:
            shown = BOARD.edit(people_form, chronicle, step, blocked)
        except ServiceError as exc:
            return BOARD.draw(people_form, status=exc.status, error=exc, error_row=None)
        remember_board(people_form.query())  # the next card scanned may join this attack (issue 18)
        url = url_for("combat_board.board", **people_form.query())
        if not is_partial() and not shown.get("add_results") and not shown.get("target_results"):
            return redirect(url, code=303)
        response = BOARD.draw(people_form, url=url, shown=shown)
        if step.startswith("set:target:") and not people_form.rows:
            return shown_at(response, "add-box")  # the target picked: the roster of attackers next (issue 31 item 3)
        if people_form.picks.get("target") and len(people_form.rows) > attackers_before and not shown.get("add_results"):
            # Attackers added (issue 31 item 4): the target's sign and the first attackers in view, not the
            # add box at the bottom, so the next tap (the signs) is where the narrator looks.
            return shown_at(response, "target-signs")
        return response
    rng = current_app.config["RANDOM_SOURCE"]()
    if step == "resolve":  # a fresh start: the retests and choices of an earlier try are dropped
        people_form.tests, people_form.injures = {}, ""
    # One service call a tap (issue 29): resolve, and record when nothing is left to decide.
    result, refusal = BOARD.adjudicated(
        step, people_form, _retest_picks(form), ("a_throw", "d_throw"),
        lambda record: adjudicate_mass_challenge(chronicle, g.user, _mass_request(people_form), rng, record=record,
                                                 request_token=form.get("request_token")),
        lambda exc: _retests_incomplete(people_form, exc, rng))
    if refusal is not None:
        return refusal
    if result.record is None:
        _keep_drawn(people_form, result.throws, result)
        return BOARD.show_result(people_form, tap=result, preview=result, outcome=BOARD.outcome(result, None))
    people_form.clear_round(("target_throw",), ("throw", "relent"))
    remember(*[cid for cid in [people_form.picks.get("target")] + [row["id"] for row in people_form.rows] if cid])
    remember_board(people_form.query())  # the same people may fight the next round
    url = url_for("combat_board.board", **people_form.query(ruling=result.record.id))
    if not is_partial():  # without JavaScript, the recorded fight in view too
        return redirect(url + "#combat-result", code=303)
    return BOARD.show_result(people_form, url=url, tap=result, recorded=result.record,
                             outcome=BOARD.outcome(None, result.record))


def _retests_incomplete(people_form: PeopleForm, exc: ServiceError, rng):
    """"Make the retests" sent without a retest or its two signs: the result so far stays on screen with
    the message under the retests and the narrator's choices ticked again; nothing is written. Should the
    fight itself no longer rule (a character changed meanwhile), that refusal is shown instead."""
    try:
        preview = preview_mass_challenge(get_chronicle(), _mass_request(people_form), rng)
    except ServiceError as fresh:
        return BOARD.refused(people_form, fresh)
    return BOARD.show_result(people_form, status=exc.status, tap=preview, preview=preview,
                             outcome=BOARD.outcome(preview, None), error=exc, kept=kept_retest_choices(request.form))


def _keep_drawn(people_form: PeopleForm, throws: Mapping[int, str], preview: StoredMassChallenge) -> None:
    """Random signs were drawn once: keep them for the rest of this fight."""
    if preview.target.character.id in throws:
        people_form.fields["target_throw"] = throws[preview.target.character.id]
    for row in people_form.rows:
        if row["id"] in throws:
            row["throw"] = throws[row["id"]]


def _retest_picks(form):
    """The board's one-tap retests (issue 31, wave 5): ``r<id>_retest`` = "<by>|<source>|<sign>" says who
    retests, with what, and his new sign; it becomes the fields the retests' reader takes (``r<id>_source``, and
    ``r<id>_a_throw`` for the attacker or ``r<id>_d_throw`` for the target). "No retest" (empty) adds nothing;
    every other field is left as it is, so a form that sends ``r<id>_source`` itself reads as before."""
    values = form.copy()
    for key in form.keys():
        if not (key.startswith("r") and key.endswith("_retest")):
            continue
        choice, _, sign = (form.get(key) or "").strip().rpartition("|")
        if not choice or not sign:
            continue
        row = key[: -len("_retest")]
        values[f"{row}_source"] = choice
        values[f"{row}_{'a_throw' if choice.startswith('challenger|') else 'd_throw'}"] = sign
    return values
