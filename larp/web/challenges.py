"""The narrator's challenge screen (issue 2): pick two characters, bids, throws; get a ruling."""

from __future__ import annotations

from flask import Blueprint, current_app, g, redirect, request, url_for

from larp.htmx import is_partial, render
from larp.models import Ruling
from larp.rules.challenge import ACTIONS, Category
from larp.services import ServiceError
from larp.services.challenges import ChallengeRequest, run_challenge
from larp.services.characters import character_state, find_characters, get_character
from larp.services.chronicles import chronicle_settings, current_game_session, get_chronicle
from larp.web.auth import role_required

bp = Blueprint("challenges", __name__)

SIDES = ("challenger", "defender")
THROW_CHOICES = (("rock", "Rock"), ("paper", "Paper"), ("scissors", "Scissors"), ("random", "Random"))


def _category(value: str | None) -> Category:
    try:
        return Category((value or "physical").lower())
    except ValueError:
        return Category.PHYSICAL


def _screen_context(values, error: ServiceError | None = None, ruling: Ruling | None = None) -> dict:
    """Everything the challenge screen shows, from query or form ``values``."""
    chronicle = get_chronicle()
    settings = chronicle_settings(chronicle)
    try:
        game_session = current_game_session(chronicle)
    except ServiceError:
        game_session = None
    category = _category(values.get("category"))
    sides: dict[str, dict] = {}
    for side in SIDES:
        info: dict = {"name": side, "query": (values.get(f"{side}_q") or "").strip(), "results": []}
        raw_id = values.get(side)
        if raw_id:
            try:
                character = get_character(chronicle, raw_id, side)
            except ServiceError as exc:
                info["error"] = exc.message
            else:
                info["state"] = character_state(character, game_session, settings)
        elif info["query"]:
            results = find_characters(chronicle, info["query"])
            if len(results) == 1:
                info["state"] = character_state(results[0], game_session, settings)
            else:
                info["results"] = results
                if not results:
                    info["error"] = f"No character matches “{info['query']}”."
        sides[side] = info
    return {
        "chronicle": chronicle,
        "game_session": game_session,
        "category": category,
        "categories": list(Category),
        "sides": sides,
        "throws": THROW_CHOICES,
        "actions": ACTIONS,
        "error": error,
        "ruling": ruling,
        "form": values,
        "keep_form": error is not None,
    }


def _ids(context: dict) -> dict:
    """The chosen characters and category, as query parameters for links."""
    params = {"category": context["category"].value}
    for side in SIDES:
        state = context["sides"][side].get("state")
        if state is not None:
            params[side] = state.character.id
    return params


@role_required("organiser", "narrator")
def index():
    """The home page of a logged-in narrator: the challenge screen."""
    return challenge_page()


@bp.route("/challenge", methods=["GET"])
@role_required("organiser", "narrator")
def challenge_page():
    """The challenge screen.

    Query: ``challenger``/``defender`` (character ids), ``challenger_q``/
    ``defender_q`` (a name or card code to search; a single match is chosen),
    ``category`` (physical, social, mental), ``ruling`` (a ruling to show).
    """
    ruling = None
    if request.args.get("ruling"):
        ruling = Ruling.get_or_none(Ruling.id == request.args.get("ruling", type=int))
    context = _screen_context(request.args, ruling=ruling)
    context["params"] = _ids(context)
    return render("challenges/page.html", "challenges/page.html", **context)


@bp.route("/challenge/search", methods=["GET"])
@role_required("organiser", "narrator")
def search():
    """Active search for one side's picker: a list of matching characters (htmx partial)."""
    side = request.args.get("side") if request.args.get("side") in SIDES else "challenger"
    chronicle = get_chronicle()
    query = request.args.get("q", "")
    results = find_characters(chronicle, query)
    context = _screen_context(request.args)
    params = _ids(context)
    return render(
        "challenges/page.html",
        "challenges/_search_results.html",
        side=side,
        results=results,
        query=query,
        params=params,
        **{k: v for k, v in context.items() if k not in ("params",)},
    )


@bp.route("/challenge", methods=["POST"])
@role_required("organiser", "narrator")
def resolve():
    """Adjudicate the challenge in the form, apply it, and show the ruling.

    htmx gets the ruling fragment plus the refreshed sides (out of band); a
    plain post is redirected (303) to the screen showing the ruling. Bad
    input gets its message in place of the ruling and changes nothing.
    """
    form = request.form
    chronicle = get_chronicle()
    challenge_request = ChallengeRequest(
        challenger_id=form.get("challenger"),
        defender_id=form.get("defender"),
        category=form.get("category", ""),
        challenger_bid=form.get("challenger_bid", ""),
        defender_bid=form.get("defender_bid", ""),
        challenger_throw=form.get("challenger_throw", ""),
        defender_throw=form.get("defender_throw", ""),
        action=form.get("action", "strike"),
    )
    try:
        record, _ = run_challenge(chronicle, g.user, challenge_request, current_app.config["RANDOM_SOURCE"]())
    except ServiceError as exc:
        context = _screen_context(form, error=exc)
        context["params"] = _ids(context)
        return render("challenges/page.html", "challenges/_resolved.html", status=exc.status, **context)
    if not is_partial():
        context = _screen_context(form)
        return redirect(url_for("challenges.challenge_page", ruling=record.id, **_ids(context)), code=303)
    context = _screen_context(form, ruling=record)
    context["params"] = _ids(context)
    return render("challenges/page.html", "challenges/_resolved.html", **context)
