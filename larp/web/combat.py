"""The narrator's combat board (issue 4): mass combat on a tablet, and the bystanders of a missed shot.

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
from typing import Any

from flask import Blueprint, current_app, g, redirect, request, url_for

from larp.services.records import ruling_in
from larp.htmx import is_partial, render
from larp.models import Ruling
from larp.services import ServiceError
from larp.services.characters import find_characters
from larp.services.chronicles import get_chronicle
from larp.services.firing_into_groups import (
    BystanderRequest,
    StrayRequest,
    preview_stray_shot,
    run_stray_shot,
)
from larp.services.mass_combat import (
    Board,
    FighterRequest,
    MassRequest,
    preview_mass_combat,
    run_mass_combat,
)
from larp.web.submissions import shown_where_it_was_recorded
from larp.web.auth import role_required
from larp.web.scene_memory import remember, remember_board
from larp.web.roster import (
    BYSTANDER_FLAGS,
    BYSTANDER_TEXT,
    FIRER_FLAGS,
    FIRER_TEXT,
    ROW_FLAGS,
    ROW_TEXT,
    TARGET_FLAGS,
    TARGET_TEXT,
    SCENE_TEXT,
    Roster,
    base_context,
    edit,
    error_row,
    person_scene,
    respond,
    scene_fields,
    with_armor_steps,
)

bp = Blueprint("combat", __name__)

# ----- the combat board ------------------------------------------------------

TARGET_PICK = ("target",)
TARGET_FIELDS = tuple(f"target_{k}" for k in TARGET_TEXT) + SCENE_TEXT
TARGET_FLAG_FIELDS = tuple(f"target_{k}" for k in TARGET_FLAGS)


def _board_roster(values: Mapping[str, Any], strict: bool = True) -> Roster:
    return Roster.read(values, "a", TARGET_PICK, TARGET_FIELDS, TARGET_FLAG_FIELDS, ROW_TEXT, ROW_FLAGS, strict=strict)


def _mass_request(roster: Roster) -> MassRequest:
    if roster.picks.get("target") is None:
        raise ServiceError("Choose the target first.", field="target_q")
    if not roster.rows:
        raise ServiceError("Add the attackers (name or card code).", field="add_q")
    f = roster.fields
    target = FighterRequest(roster.picks["target"], bid=f.get("target_bid", ""), throw=f.get("target_throw", ""),
                            weapon=f.get("target_weapon", "") if f.get("target_counter") == "weapon" else "",
                            counter=f.get("target_counter") or "defend",
                            celerity_active=bool(f.get("target_celerity")),
                            lethal_by_prowess=bool(f.get("target_prowess")),
                            bomb_announced=bool(f.get("target_bomb")), scene=person_scene(f, "target_"))
    attackers = tuple(FighterRequest(
        r["id"], bid=r["bid"], throw=r["throw"], range=r["range"] or "hand_to_hand", weapon=r["weapon"],
        bite=r["bite"], lethal_by_prowess=r["prowess"], head_shot=r["headshot"], strength=not r["nostrength"],
        relented=r["relent"], celerity_active=r["celerity"], tests=tuple(roster.tests.get(str(r["id"]), [])),
        bomb_announced=r["bomb"], scene=person_scene(r, ""))
        for r in roster.rows)
    injures = (roster.injures,) if roster.injures else ()
    return MassRequest(target=target, attackers=attackers, injures=injures, scene_fields=scene_fields(roster))


def _retests_chosen(values: Mapping[str, Any], roster: Roster, names: tuple[str, str]) -> None:
    """Add each retest the narrator chose on the result so far to its pair's tests."""
    added = False
    for row in roster.rows:
        cid = row["id"]
        choice = (values.get(f"r{cid}_source") or "").strip()
        if not choice:
            continue
        by, _, source = choice.partition("|")
        first, second = (values.get(f"r{cid}_{names[0]}") or "").strip(), (values.get(f"r{cid}_{names[1]}") or "").strip()
        if not first or not second:
            raise ServiceError("Choose both signs for the retest.", field=f"r{cid}_source")
        if source == "forced":  # the forced retest of total darkness (002 "Darkness")
            call = {"call": "forced_retest", "by": by, "challenger_throw": first, "defender_throw": second}
        else:
            call = {"call": "retest", "by": by, "source": source, "challenger_throw": first, "defender_throw": second}
        roster.tests.setdefault(str(cid), []).append(call)
        added = True
    if not added:
        raise ServiceError("Choose a retest and its signs, or record the fight as it stands.", field="retest")


def _board_outcome(board: Board | None, recorded: Ruling | None) -> dict[str, Any] | None:
    if board is not None:
        data = board.ruling.to_dict()
    elif recorded is not None and recorded.kind == "mass_combat":
        data = recorded.outcome
    else:
        return None
    return with_armor_steps({**data, "by_name": {p["attacker"]: p for p in data["pairs"]}})


@bp.route("/combat", methods=["GET"])
@role_required("organiser", "narrator")
def board():
    """The combat board.

    Query: ``target`` (a character id) or ``target_q``; ``a`` (attacker ids, in
    order) with each attacker's ``a<id>_range``, ``a<id>_weapon``, ``a<id>_bid``,
    ``a<id>_throw`` and flags; the target's ``target_throw``, ``target_counter``...;
    ``ruling`` (a recorded mass challenge to show).
    """
    roster = _board_roster(request.args, strict=False)
    recorded = None
    if request.args.get("ruling"):
        recorded = ruling_in(get_chronicle(), request.args.get("ruling"))
    context = base_context(roster, recorded=recorded, outcome=_board_outcome(None, recorded))
    if context["picks"].get("target"):
        remember_board(roster.query())
    if roster.picks.get("target") is None and roster.queries.get("target"):
        context["shown"] = {"target_results": find_characters(context["chronicle"], roster.queries["target"])}
    return render("combat/board.html", "combat/board.html", **context)


@bp.route("/combat", methods=["POST"])
@role_required("organiser", "narrator")
def board_post():
    """Edit the board (``step`` ``enter``, ``find:target``, ``set:target:<id>``, ``add:<range>``,
    ``pick:<id>:<range>``, ``remove:<id>``...) or resolve the fight (``resolve``, ``retest``,
    ``record``). Bad input shows its message where the narrator looks and changes nothing."""
    form = request.form
    step = (form.get("step") or "resolve").strip()
    chronicle = get_chronicle()
    try:
        roster = _board_roster(form)
    except ServiceError as exc:
        roster = _board_roster(form, strict=False)
        return respond("combat/board.html", "combat/_board.html", status=exc.status,
                        **base_context(roster, error=exc))
    if step not in ("resolve", "retest", "record"):
        blocked = {roster.picks["target"]: "{name} is the target and cannot also be an attacker."} \
            if roster.picks.get("target") else {}
        try:
            shown = edit(roster, chronicle, step, TARGET_PICK, blocked, add_limit=True)
        except ServiceError as exc:
            context = base_context(roster, error=exc, error_row=None)
            return respond("combat/board.html", "combat/_board.html", status=exc.status, **context)
        remember_board(roster.query())  # the next card scanned may join this attack (issue 18)
        url = url_for("combat.board", **roster.query())
        if not is_partial() and not shown.get("add_results") and not shown.get("target_results"):
            return redirect(url, code=303)
        return respond("combat/board.html", "combat/_board.html", url=url, **base_context(roster, shown=shown))
    rng = current_app.config["RANDOM_SOURCE"]()
    preview = None
    if step == "resolve":  # a fresh start: the retests and choices of an earlier try are dropped
        roster.tests, roster.injures = {}, ""
    try:
        if step == "retest":
            _retests_chosen(form, roster, ("a_throw", "d_throw"))
        mass_request = _mass_request(roster)
        if step != "record":
            preview = preview_mass_combat(chronicle, mass_request, rng)
            _keep_drawn(roster, preview.throws, preview)
            mass_request = _mass_request(roster)
        if preview is None or not preview.needs_decision:
            result = run_mass_combat(chronicle, g.user, mass_request, rng, form.get("request_token"))
        else:
            result = None
    except ServiceError as exc:
        again = shown_where_it_was_recorded(exc)
        if again is not None:
            return again
        row = error_row(exc, roster, "attackers")
        context = base_context(roster, error=exc, error_row=row)
        return _shown_at(respond("combat/board.html", "combat/_board.html", status=exc.status, **context),
                         _error_at(exc, row, BOARD_PLACES))
    if result is None:
        context = base_context(roster, preview=preview, outcome=_board_outcome(preview, None))
        return _result_in_view(respond("combat/board.html", "combat/_board_result.html", **context))
    roster.clear_round(("target_throw",), ("throw", "relent"))
    remember(*[cid for cid in [roster.picks.get("target")] + [row["id"] for row in roster.rows] if cid])
    remember_board(roster.query())  # the same people may fight the next round
    url = url_for("combat.board", **roster.query(ruling=result.record.id))
    if not is_partial():  # without JavaScript, the recorded fight in view too
        return redirect(url + "#combat-result", code=303)
    context = base_context(roster, recorded=result.record, outcome=_board_outcome(None, result.record))
    return _result_in_view(respond("combat/board.html", "combat/_board_result.html", url=url, **context))


def _result_in_view(response, whole_form: bool = False):
    """The result of Resolve, a retest or Record (htmx gets ``combat/_board_result.html``: the result and, out of
    band, only the parts of the board the fight changed; issue 18) replaces the result area and goes to the
    top of the viewport (the ruling in view), where its summary, the retests on offer and "Record as it
    stands" are. ``whole_form``: the answer is the whole form (the bystanders screen), swapped as it asked,
    and only scrolled to the result."""
    if not whole_form:
        response.headers["HX-Retarget"] = "#combat-result"
    return _shown_at(response, "combat-result")


def _shown_at(response, anchor: str):
    """An htmx answer swapped as asked, then scrolled so the element ``anchor`` (an id) is at the top of the
    viewport: where the result or the message about a field is."""
    response.headers["HX-Reswap"] = f"outerHTML show:#{anchor}:top"
    return response


#: Where a refusal about a field is shown on each combat screen, by the field's start: the box that
#: holds the field (the attacker's or bystander's row comes first, the result area last).
BOARD_PLACES = ((("target", "defender"), "target-panel"),)
STRAY_PLACES = ((("firer",), "firer-panel"), (("target",), "missed-panel"), (("add_q",), "add-box"))


def _error_at(error: ServiceError, row: int | None, places: tuple[tuple[tuple[str, ...], str], ...]) -> str:
    """The id of the place on a combat screen that shows ``error`` beside its field: the row of the
    person it is about, else the box of ``places`` whose field names start the error's field, else
    the result area."""
    if row is not None:
        return f"row-{row}"
    field = error.field or ""
    return next((anchor for starts, anchor in places if field.startswith(starts)), "combat-result")


def _keep_drawn(roster: Roster, throws: Mapping[int, str], preview: Board) -> None:
    """Random signs were drawn once: keep them for the rest of this fight."""
    if preview.target.character.id in throws:
        roster.fields["target_throw"] = throws[preview.target.character.id]
    for row in roster.rows:
        if row["id"] in throws:
            row["throw"] = throws[row["id"]]


# ----- the bystanders of a missed shot ---------------------------------------

STRAY_PICKS = ("firer", "target")
STRAY_FIELDS = tuple(f"firer_{k}" for k in FIRER_TEXT) + SCENE_TEXT
STRAY_FLAG_FIELDS = tuple(f"firer_{k}" for k in FIRER_FLAGS)


def _stray_roster(values: Mapping[str, Any], strict: bool = True) -> Roster:
    return Roster.read(values, "b", STRAY_PICKS, STRAY_FIELDS, STRAY_FLAG_FIELDS, BYSTANDER_TEXT, BYSTANDER_FLAGS,
                       strict=strict)


def _stray_request(roster: Roster) -> StrayRequest:
    if roster.picks.get("firer") is None:
        raise ServiceError("Choose the firer first.", field="firer_q")
    if roster.picks.get("target") is None:
        raise ServiceError("Choose the target the shot missed.", field="target_q")
    f = roster.fields
    firer = FighterRequest(roster.picks["firer"], bid=f.get("firer_bid", ""), throw=f.get("firer_throw", ""),
                           weapon=f.get("firer_weapon", ""), scene=person_scene(f, "firer_"))
    people = tuple(BystanderRequest(r["id"], throw=r["throw"], firer_throw=r["firer_throw"], saw_it_coming=r["saw"],
                                    excluded=r["excluded"], bid=r["bid"],
                                    tests=tuple(roster.tests.get(str(r["id"]), [])), scene=person_scene(r, ""))
                   for r in roster.rows)
    return StrayRequest(firer=firer, target_id=roster.picks["target"], bystanders=people,
                        bursts=not f.get("firer_single"), careful_aim=bool(f.get("firer_careful_aim")),
                        close_range=bool(f.get("firer_close_range")), scene_fields=scene_fields(roster))


def _stray_outcome(volley, recorded: Ruling | None) -> dict[str, Any] | None:
    if volley is not None:
        data = volley.ruling.to_dict()
    elif recorded is not None and recorded.kind == "firing_into_group":
        data = recorded.outcome
    else:
        return None
    return with_armor_steps({**data, "by_name": {b["name"]: b for b in data["bystanders"]}})


def _stray_context(roster: Roster, **extra: Any) -> dict[str, Any]:
    context = base_context(roster, **extra)
    weapon = roster.fields.get("firer_weapon")
    card = context["guns"].get(weapon) if weapon else None
    automatic = bool(card and (card.has("Full-Auto") or card.has("Burst")))
    group = bool(card and ((card.has("Spray") and not automatic) or (automatic and not roster.fields.get("firer_single"))))
    context.update(card=card, automatic=automatic, group=group,
                   excluded=sum(1 for r in roster.rows if r.get("excluded")))
    return context


@bp.route("/combat/bystanders", methods=["GET"])
@role_required("organiser", "narrator")
def bystanders():
    """The bystanders of a missed shot: the firer, his gun, the target missed and the people
    near it, closest first (``b`` ids in order; ``b<id>_throw``, ``b<id>_firer_throw``...)."""
    roster = _stray_roster(request.args, strict=False)
    recorded = None
    if request.args.get("ruling"):
        recorded = ruling_in(get_chronicle(), request.args.get("ruling"))
    context = _stray_context(roster, recorded=recorded, outcome=_stray_outcome(None, recorded))
    return render("combat/bystanders.html", "combat/bystanders.html", **context)


@bp.route("/combat/bystanders", methods=["POST"])
@role_required("organiser", "narrator")
def bystanders_post():
    """Edit the list (``add``, ``pick:<id>``, ``up:<id>``, ``down:<id>``, ``remove:<id>``, the
    pickers) or resolve the stray shot (``resolve``, ``retest``, ``record``)."""
    form = request.form
    step = (form.get("step") or "resolve").strip()
    chronicle = get_chronicle()
    try:
        roster = _stray_roster(form)
    except ServiceError as exc:
        roster = _stray_roster(form, strict=False)
        return respond("combat/bystanders.html", "combat/_bystanders.html", status=exc.status,
                        **_stray_context(roster, error=exc))
    if step not in ("resolve", "retest", "record"):
        blocked = {}
        if roster.picks.get("target"):
            blocked[roster.picks["target"]] = "{name} is the target, not a bystander."
        if roster.picks.get("firer"):
            blocked[roster.picks["firer"]] = "{name} fired the shot and cannot be a bystander to it."
        try:
            shown = edit(roster, chronicle, step, STRAY_PICKS, blocked, add_limit=False)
        except ServiceError as exc:
            return respond("combat/bystanders.html", "combat/_bystanders.html", status=exc.status,
                            **_stray_context(roster, error=exc))
        url = url_for("combat.bystanders", **roster.query())
        if not is_partial() and not shown.get("add_results") and not any(k.endswith("_results") for k in shown):
            return redirect(url, code=303)
        return respond("combat/bystanders.html", "combat/_bystanders.html", url=url,
                        **_stray_context(roster, shown=shown))
    rng = current_app.config["RANDOM_SOURCE"]()
    volley = None
    if step == "resolve":
        roster.tests = {}
    try:
        if step == "retest":
            _retests_chosen(form, roster, ("f_throw", "b_throw"))
        stray_request = _stray_request(roster)
        if step != "record":
            volley = preview_stray_shot(chronicle, stray_request, rng)
            for row in roster.rows:
                drawn = volley.throws.get(str(row["id"]), {})
                row.update({k: v for k, v in drawn.items() if k in ("throw", "firer_throw")})
            if "firer" in volley.throws:
                roster.fields["firer_throw"] = volley.throws["firer"]["throw"]
            stray_request = _stray_request(roster)
        result = run_stray_shot(chronicle, g.user, stray_request, rng, form.get("request_token")) \
            if volley is None or not volley.needs_decision \
            else None
    except ServiceError as exc:
        again = shown_where_it_was_recorded(exc)
        if again is not None:
            return again
        row = error_row(exc, roster, "bystanders")
        context = _stray_context(roster, error=exc, error_row=row, error_at=_error_at(exc, row, STRAY_PLACES))
        return _shown_at(respond("combat/bystanders.html", "combat/_bystanders.html", status=exc.status, **context),
                         context["error_at"])
    if result is None:
        context = _stray_context(roster, preview=volley, outcome=_stray_outcome(volley, None))
        return _result_in_view(respond("combat/bystanders.html", "combat/_bystanders.html", **context),
                               whole_form=True)
    roster.clear_round(("firer_throw",), ("throw", "firer_throw"))
    url = url_for("combat.bystanders", **roster.query(ruling=result.record.id))
    if not is_partial():  # the no-JS browser lands on the result, not at the top of the form
        return redirect(url_for("combat.bystanders", _anchor="combat-result", **roster.query(ruling=result.record.id)),
                        code=303)
    context = _stray_context(roster, recorded=result.record, outcome=_stray_outcome(None, result.record))
    return _result_in_view(respond("combat/bystanders.html", "combat/_bystanders.html", url=url, **context),
                           whole_form=True)
