"""The narrator's challenge screen (issues 2 and 3).

Pick the characters (search by name or card code), the kind and category,
tap the bids and throws, and resolve. When the side behind may still retest
or overbid, the screen shows the result so far with a button for each retest
the character can still pay for; otherwise the ruling is recorded at once.
"""

from __future__ import annotations

import json
import secrets

from flask import Blueprint, current_app, g, redirect, request, session, url_for

from larp.db import as_id
from larp.htmx import is_partial, render
from larp.models import Ruling
from larp.rules.challenge import ACTIONS, POTENCE_TRAIT, Category, Outcome
from larp.rules.damage import armory
from larp.services import ServiceError
from larp.services.challenges import (
    CHALLENGE_POWERS,
    Adjudication,
    check_can_act,
    lead_of,
    preview_challenge,
    request_from_form,
    run_challenge,
)
from larp.rules.scene import RangeBand
from larp.services.characters import character_state, find_characters, get_character, person_of
from larp.services.scenes import held_sight
from larp.services.chronicles import chronicle_settings, get_chronicle, open_game_session
from larp.web.auth import role_required

bp = Blueprint("challenges", __name__)

SIDES = ("challenger", "defender")
THROW_CHOICES = (("rock", "Rock"), ("paper", "Paper"), ("scissors", "Scissors"), ("random", "Random"))
#: The narrator's bonus or penalty Traits for the situation (LotNR Bonus Traits, met-reference 1.3).
SITUATION = ((-2, "−2 Traits"), (-1, "−1 Trait"), (0, "None"), (1, "+1 Trait"), (2, "+2 Traits"))
KINDS = (("contested", "Contested"), ("static", "Static"), ("simple", "Simple test"))
DARKNESS = (("none", "Light"), ("partial", "Partial dark"), ("total", "Total dark"))
CATEGORIES = (Category.PHYSICAL, Category.SOCIAL, Category.MENTAL)


def _category(value: str | None) -> Category:
    try:
        category = Category((value or "physical").lower())
    except ValueError:
        return Category.PHYSICAL
    return category if category in CATEGORIES else Category.PHYSICAL


def _kind(value: str | None) -> str:
    return value if value in dict(KINDS) else "contested"


def _scene_darkness(values, game_session) -> str:
    """The scene's darkness: from the request, else the narrator's last choice in this game session.

    It is kept in the narrator's session so that a dark scene stays dark from one
    challenge to the next (the screen says so), and forgotten when the game
    session changes.
    """
    current = game_session.id if game_session is not None else None
    value = values.get("darkness")
    if value in dict(DARKNESS):
        session["darkness"] = {"level": value, "game_session": current}
        return value
    kept = session.get("darkness")
    if isinstance(kept, dict) and kept.get("game_session") == current and kept.get("level") in dict(DARKNESS):
        return kept["level"]
    return "none"


def _side_extras(state, category: Category) -> dict:
    """What the form offers one side, from what the tool knows about the character."""
    powers = {name.lower() for held in state.powers.values() for _lvl, name in held}
    abilities = {a.name.lower(): a for a in state.abilities}
    weapon = armory("live").weapons.get(state.character.weapon or "")
    return {
        "shoots": category is Category.PHYSICAL and (
            (weapon is not None and not weapon.melee) or state.ability("Firearms") is not None),
        "mental_traits": state.traits.get("mental", []),
        "bomb_strength": "vigor" in powers and category is Category.PHYSICAL,
        "rapidity": "rapidity" in powers and category is Category.PHYSICAL,
        "intensity": "intensity" in powers and category is Category.PHYSICAL,
        "prowess": state.discipline_level("Potence") >= 1,
        "blindfighting": abilities.get("blindfighting"),
        "challenge_powers": sorted(CHALLENGE_POWERS[p].value.capitalize() for p in powers if p in CHALLENGE_POWERS),
        "shroud": "shroud of night" in powers,
        "sight": held_sight(person_of(state)),
        "armor_worn": [a.name for a in state.armor],
    }


def _screen_context(values, error: ServiceError | None = None, ruling: Ruling | None = None,
                    adjudication: Adjudication | None = None) -> dict:
    """Everything the challenge screen shows, from query or form ``values``."""
    chronicle = get_chronicle()
    settings = chronicle_settings(chronicle)
    game_session = open_game_session(chronicle)
    category = _category(values.get("category"))
    kind = _kind(values.get("kind"))
    sides: dict[str, dict] = {}
    for side in SIDES:
        info: dict = {"name": side, "query": (values.get(f"{side}_q") or "").strip(), "results": []}
        if side == "defender" and kind != "contested":
            sides[side] = info
            continue
        raw_id = values.get(side)
        state = None
        if raw_id:
            try:
                state = character_state(get_character(chronicle, raw_id, side), game_session, settings)
            except ServiceError as exc:
                info["error"] = exc.message
        elif info["query"]:
            results = find_characters(chronicle, info["query"])
            if len(results) == 1:
                state = character_state(results[0], game_session, settings)
            else:
                info["results"] = results
                if not results:
                    info["error"] = f"No character matches “{info['query']}”."
        if state is not None:
            info["state"] = state
            info["extras"] = _side_extras(state, category)
            try:
                check_can_act(state.character, state, side)
            except ServiceError as exc:
                try:  # Incapacitated: a Willpower Trait lets him act this turn (LotNR Willpower)
                    check_can_act(state.character, state, side, ignore_wounds=True)
                    info["willpower_saves"] = exc.message
                except ServiceError:
                    info["cannot_act"] = exc.message
        sides[side] = info
    chosen = [sides["challenger"]] + ([sides["defender"]] if kind == "contested" else [])
    ready = all(info.get("state") and not info.get("cannot_act") for info in chosen)
    return {
        "chronicle": chronicle,
        "game_session": game_session,
        "category": category,
        "categories": CATEGORIES,
        "kind": kind,
        "kinds": KINDS,
        "darkness": _scene_darkness(values, game_session),
        "darkness_choices": DARKNESS,
        "range_choices": [(band.value, band.label.capitalize()) for band in RangeBand],
        "armors": armory("live").armor,
        "sides": sides,
        "ready": ready,
        "throws": THROW_CHOICES,
        "situations": SITUATION,
        "actions": ACTIONS,
        "weapons": armory("live").weapons,
        "lead_of": lead_of,
        "potence_trait": POTENCE_TRAIT,
        "error": error,
        "ruling": ruling,
        "adjudication": adjudication,
        "form": values,
        "keep_form": error is not None or adjudication is not None,
        # A new one-time token for each new challenge; a challenge in progress or refused keeps its own.
        "request_token": (values.get("request_token") if (error is not None or adjudication is not None)
                          and values.get("request_token") else secrets.token_urlsafe(16)),
    }


def _params(context: dict) -> dict:
    """The chosen characters, kind and category, as query parameters for links."""
    params = {"category": context["category"].value, "kind": context["kind"]}
    for side in SIDES:
        state = context["sides"][side].get("state")
        if state is not None:
            params[side] = state.character.id
    return params


@bp.app_template_filter("source_label")
def source_label(source: str, adjudication: Adjudication, side: str | None) -> str:
    """A retest source as the narrator reads it: "Brawl (2 left)", "Willpower (3 left)", "Might"."""
    kind, _, name = source.partition(":")
    label = name or kind.capitalize()
    if side:
        state = adjudication.loaded[f"{side}_state"]
        character = adjudication.loaded[side]
        if kind == "ability" and state is not None:
            line = state.ability(name)
            if line is not None:
                return f"{line.name} ({line.left} left)"
        if kind == "willpower" and character is not None:
            return f"Willpower ({character.willpower_current} left)"
    return label


@role_required("organiser", "narrator")
def index():
    """The home page of a logged-in narrator: the challenge screen; an organiser of a chronicle
    that has no name yet is asked for it first (``larp serve --empty``, issue 14)."""
    if g.user.role == "organiser" and get_chronicle().needs_name:
        return redirect(url_for("organise.start"), code=303)
    return challenge_page()


@bp.route("/challenge", methods=["GET"])
@role_required("organiser", "narrator")
def challenge_page():
    """The challenge screen.

    Query: ``challenger``/``defender`` (character ids), ``challenger_q``/
    ``defender_q`` (a name or card code; a single match is chosen),
    ``kind`` (contested, static, simple), ``category``, ``darkness`` (kept
    for the scene), ``ruling`` (a recorded ruling to show).
    """
    ruling = None
    if request.args.get("ruling"):
        ruling = Ruling.get_or_none(Ruling.id == as_id(request.args.get("ruling")))
    context = _screen_context(request.args, ruling=ruling)
    context["params"] = _params(context)
    return render("challenges/page.html", "challenges/page.html", **context)


@bp.route("/challenge/search", methods=["GET"])
@role_required("organiser", "narrator")
def search():
    """Active search for one side's picker: a list of matching characters (htmx partial)."""
    side = request.args.get("side") if request.args.get("side") in SIDES else "challenger"
    query = request.args.get(f"{side}_q", request.args.get("q", ""))
    context = _screen_context(request.args)
    context.update(side=side, results=find_characters(context["chronicle"], query), query=query,
                   params=_params(context))
    return render("challenges/page.html", "challenges/_search_results.html", **context)


def _tests_so_far(form) -> list[dict]:
    raw = form.get("tests_json") or "[]"
    try:
        tests = json.loads(raw)
    except ValueError:
        raise ServiceError("The challenge in progress could not be read; resolve it again.", field="tests") from None
    if not isinstance(tests, list) or not all(isinstance(t, dict) for t in tests):
        raise ServiceError("The challenge in progress could not be read; resolve it again.", field="tests")
    return tests


def _next_call(form, so_far: Adjudication) -> dict:
    """The overbid, retest, forced retest or second challenge the narrator chose on the result so far.

    A cancelled retest and an overbid whose ratio is not met make no new
    test (LotNR Retests and Overbidding), so their throws are dropped.
    """
    choice = (form.get("next_source") or "").strip()
    by = (form.get("next_by") or "").strip()
    if not choice:
        raise ServiceError("Choose the retest or overbid to make.", field="next_source")
    call = {"by": by or None, "challenger_throw": form.get("next_challenger_throw") or None,
            "defender_throw": form.get("next_defender_throw") or None}
    makes_test = True
    if choice == "overbid":
        call.update(call="overbid", trait=(form.get("next_trait") or "").strip())
        side = Outcome.DEFENDER if by == "defender" else Outcome.CHALLENGER
        makes_test = so_far.options.side(side).overbid_makes_test
        if so_far.options.side(side).narrator:
            call["trait"] = ""  # the narrator risks no Trait (LotNR Overbidding)
    elif choice == "second_challenge":
        call.update(call="second_challenge", trait=(form.get("next_trait") or "").strip())
    elif choice == "forced":
        call.update(call="forced_retest")
    else:
        call.update(call="retest", source=choice, cancel=(form.get("next_cancel") or "").strip())
        makes_test = not call["cancel"]
    if not makes_test:
        call.update(challenger_throw=None, defender_throw=None)
    elif not call["challenger_throw"] or not call["defender_throw"]:
        raise ServiceError("Choose both throws for the new test.", field="next_challenger_throw")
    return call


@bp.route("/challenge", methods=["POST"])
@role_required("organiser", "narrator")
def resolve():
    """Resolve the challenge in the form, step by step.

    ``step``: ``resolve`` (the first test), ``call`` (add the chosen retest
    or overbid to the challenge in progress), ``record`` (record the
    challenge as it stands). When the side behind may still retest or
    overbid, the result so far is shown with those choices and nothing is
    written; otherwise the ruling is applied and recorded. htmx gets the
    result fragment plus the refreshed sides; a plain post of a recorded
    ruling is redirected (303) to the screen showing it. Bad input gets its
    message in place of the result and changes nothing.
    """
    form = request.form
    chronicle = get_chronicle()
    step = form.get("step") or "resolve"
    rng = current_app.config["RANDOM_SOURCE"]()
    adjudication = None
    try:
        if step == "resolve":
            challenge_request = request_from_form(form)
        else:
            tests = _tests_so_far(form)
            if not tests:
                raise ServiceError("There is no challenge in progress; resolve it first.", field="tests")
            if step == "call":
                so_far = preview_challenge(chronicle, request_from_form(form, tests), rng)
                tests = tests + [_next_call(form, so_far)]
            challenge_request = request_from_form(form, tests)
        if step != "record":
            adjudication = preview_challenge(chronicle, challenge_request, rng)
            # Random throws were drawn for the preview: record exactly those, never draw again.
            challenge_request = request_from_form(form, adjudication.tests)
        if adjudication is None or not adjudication.needs_decision:
            adjudication = run_challenge(chronicle, g.user, challenge_request, rng)
    except ServiceError as exc:
        context = _screen_context(form, error=exc)
        context["params"] = _params(context)
        return render("challenges/page.html", "challenges/_resolved.html", status=exc.status, **context)
    if adjudication.record is None:
        context = _screen_context(form, adjudication=adjudication)
        context["params"] = _params(context)
        return render("challenges/page.html", "challenges/_resolved.html", **context)
    if not is_partial():
        context = _screen_context(form)
        return redirect(url_for("challenges.challenge_page", ruling=adjudication.record.id, **_params(context)),
                        code=303)
    context = _screen_context(form, ruling=adjudication.record)
    context["params"] = _params(context)
    return render("challenges/page.html", "challenges/_resolved.html", **context)
