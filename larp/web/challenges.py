"""The narrator's challenge screen (issues 2 and 3).

Pick the characters (search by name or card code), the kind and category,
tap the bids and throws, and resolve. When the side behind may still retest
or overbid, the screen shows the result so far with a button for each retest
the character can still pay for; otherwise the ruling is recorded at once.
"""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, session, url_for
from flask_babel import gettext, ngettext
from markupsafe import Markup

from larp.db import as_id
from larp.rules.explain import N_, Phrase
from larp.services.records import ruling_in
from larp.htmx import is_partial, render, replace_url
from larp.models import Character, Ruling, utcnow
from larp.rules.challenge import ACTIONS, POTENCE_TRAIT, Category
from larp.rules.damage import armory
from larp.services import ServiceError, read_json
from larp.services.challenges import (
    CHALLENGE_POWERS,
    Adjudication,
    adjudicate_challenge,
    check_can_act,
    lead_of,
)
from larp.web.combat_requests import request_from_form
from larp.rules.scene import RangeBand
from larp.services.history import undo_own_recent
from larp.services.characters import character_state, find_characters, get_character, person_of
from larp.services.live import live_fingerprint, seen_in_chronicle
from larp.services.scenes import held_sight
from larp.services.chronicles import chronicle_settings, get_chronicle, open_game_session
from larp.web import inputs
from larp.web.auth import login_required, role_required
from larp.web.tap_settings import remember_settings
from larp.web.scene_memory import recent, remember
from larp.web.submissions import shown_where_it_was_recorded
from larp.web.people_form import able_to_act, sense_choices
from larp.web.stored_scenes import current_scene

bp = Blueprint("challenges", __name__)

SIDES = ("challenger", "defender")
THROW_CHOICES = (("rock", "Rock"), ("paper", "Paper"), ("scissors", "Scissors"), ("random", "Random"))
#: The narrator's bonus or penalty Traits for the situation (LotNR Bonus Traits, met-reference 1.3).
SITUATION = ((-2, "−2 Traits"), (-1, "−1 Trait"), (0, "None"), (1, "+1 Trait"), (2, "+2 Traits"))
KINDS = (("contested", "Contested"), ("static", "Static"), ("simple", "Simple test"))
DARKNESS = (("none", "Light"), ("partial", "Partial dark"), ("total", "Total dark"))
CATEGORIES = (Category.PHYSICAL, Category.SOCIAL, Category.MENTAL)


def _category(value: str | None) -> Category:
    return inputs.shown_choice(value, Category, Category.PHYSICAL, only=CATEGORIES)


def _kind(value: str | None) -> str:
    return inputs.shown_choice(value, dict(KINDS), "contested")


#: The scene chips (issue 18): buttons of the challenge form whose name says which choice they set, so the
#: form's other fields (bids, throws, a typed call) come along and are kept.
SCENE_CHIPS = ("set_kind", "set_category", "set_darkness")


def _scene_choice(values, name: str) -> str | None:
    """The scene choice ``name`` (kind, category, darkness): a tapped chip's, else the form's or the link's."""
    return values.get(f"set_{name}") or values.get(name)


def default_bid(state, category: Category) -> str | None:
    """The Trait a side's bid starts on (issue 18: one tap fewer): one the character still has tonight
    in ``category``, the most plentiful first (as LotNR players usually bid), the sheet's order on a tie;
    ``None`` when none is left."""
    lines = [line for line in state.traits.get(category.value, []) if line.available]
    return max(lines, key=lambda line: line.available).name if lines else None


def _scene_darkness(values, game_session) -> str:
    """The scene's darkness: from the request, else the narrator's last choice in this game session.

    It is kept in the narrator's session so that a dark scene stays dark from one
    challenge to the next (the screen says so), and forgotten when the game
    session changes.
    """
    current = game_session.id if game_session is not None else None
    value = _scene_choice(values, "darkness")
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
                    adjudication: Adjudication | None = None, undone: Ruling | None = None,
                    tapped: Adjudication | None = None) -> dict:
    """Everything the challenge screen shows, from query or form ``values``; ``undone`` is the undo just
    recorded (the form's choices are kept, to be corrected and resolved again); ``tapped``: the tap's
    adjudication, whose settings and game session this request read already."""
    chronicle = get_chronicle()
    if tapped is not None and tapped.settings is not None:
        settings, game_session = tapped.settings, tapped.game_session
        remember_settings(chronicle, settings)  # the page's language and time filter read them no second time
    else:
        settings, game_session = chronicle_settings(chronicle), open_game_session(chronicle)
    category = _category(_scene_choice(values, "category"))
    kind = _kind(_scene_choice(values, "kind"))
    keep_form = error is not None or adjudication is not None or undone is not None \
        or any(values.get(name) for name in SCENE_CHIPS)
    sides: dict[str, dict] = {}
    for side in SIDES:
        info: dict = {"name": side, "query": (values.get(f"{side}_q") or "").strip(), "results": []}
        if side == "defender" and kind != "contested":
            sides[side] = info
            continue
        raw_id = values.get(side)
        state = None
        if raw_id and tapped is not None and as_id(raw_id) in tapped.after and as_id(raw_id) in tapped.seen:
            # The tap's own: the side as it left him, and the fingerprint read in its transaction after its
            # writes (larp.services.challenges.adjudicate_challenge says why that is safe): no read again.
            state, info["fingerprint"] = tapped.after[as_id(raw_id)], tapped.seen[as_id(raw_id)]
        elif raw_id:
            # The screen's poll carries the fingerprint read before the character (larp.services.live).
            seen = seen_in_chronicle(chronicle.id, as_id(raw_id)) if as_id(raw_id) else None
            try:
                state = character_state(get_character(chronicle, raw_id, side), game_session, settings)
            except ServiceError as exc:
                info["error"] = exc.message
            info["fingerprint"] = seen.fingerprint if seen else ""
        elif info["query"]:
            results = find_characters(chronicle, info["query"], tonight=True)
            if len(results) == 1:
                info["fingerprint"] = live_fingerprint(results[0])
                state = character_state(results[0], game_session, settings)
            else:
                info["results"] = results
                if not results:
                    info["error"] = f"No character matches “{info['query']}”."
        if state is not None:
            info["state"] = state
            info["extras"] = _side_extras(state, category)
            info["default_bid"] = default_bid(state, category)
            try:
                check_can_act(state.character, state, side)
            except ServiceError as exc:
                try:  # Incapacitated: a Willpower Trait lets him act this turn (LotNR Willpower)
                    check_can_act(state.character, state, side, ignore_wounds=True)
                    info["willpower_saves"] = exc.message
                except ServiceError:
                    info["cannot_act"] = exc.message
        if keep_form:
            # The bid made in each category, so a category chip tapped and tapped back keeps it (issue 18).
            was = _category(values.get("category")).value
            info["bids"] = {c.value: values.get(f"{side}_bid_{c.value}") or "" for c in CATEGORIES}
            info["bids"][was] = values.get(f"{side}_bid") or info["bids"][was]
        sides[side] = info
    _told_if_both_sides(sides, kind)
    chosen = [sides["challenger"]] + ([sides["defender"]] if kind == "contested" else [])
    picked = [info["state"].character.id for info in sides.values() if info.get("state")]
    # The chips of those recently in play show only beside a side still to pick: with every side picked (a tap
    # on a challenge under way) they are not read at all (issue 29: at most 12 statements a tap).
    near = recent(exclude=picked) if any(not info.get("state") for info in chosen) else []
    in_scene = {c.id: c for c in Character.select().where(
        (Character.chronicle == chronicle) & Character.id.in_(near) & Character.retired_at.is_null())} if near else {}
    # Those the core's condition rules refuse (torpor, Final Death...) are left out of the chips and said in one
    # line (new-user test 12, finding 7).
    able, left_out = able_to_act([in_scene[i] for i in near if i in in_scene], game_session, settings)
    ready = all(info.get("state") and not info.get("cannot_act") for info in chosen)
    watched = {key: value for info in chosen if info.get("state")
               for key, value in ((info["name"], info["state"].character.id),
                                  (f"{info['name']}_v", info["fingerprint"]))}
    return {
        # What the screen polls to warn, before Resolve, that a side changed meanwhile (issue 18).
        "fresh_url": url_for("challenges.fresh", kind=kind, **watched) if watched else None,
        "chronicle": chronicle,
        "game_session": game_session,
        "category": category,
        "categories": CATEGORIES,
        "kind": kind,
        "kinds": KINDS,
        "darkness": _scene_darkness(values, game_session),
        "darkness_choices": DARKNESS,
        "range_choices": [(band.value, band.label.capitalize()) for band in RangeBand],
        "sense_choices": sense_choices(),
        "stored_scene": current_scene(),
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
        "keep_form": keep_form,
        # The characters already in this scene, one tap away in the pickers (issue 18).
        "in_scene": able, "in_scene_left_out": left_out,
        "undone": undone,
        "undo_open": ruling is not None and ruling.undone_at is None and ruling.kind == "challenge"
        and (utcnow() - ruling.created_at).total_seconds() < 60,
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


@bp.app_template_global("pick_attrs")
def pick_attrs(side: str, character_id: int | None = None) -> Markup:
    """The htmx attributes of a pick on one side (a search result, a character already in the scene, or
    "Change" when ``character_id`` is ``None``): a GET that sends that side's choice with the side's own
    form (#pick-<side>: the other side as it is now, the kind and the category) and swaps only that side
    (issue 18: swaps return only what changed). The link's ``href`` stays the plain-page fallback."""
    url = url_for("challenges.challenge_page", **({side: character_id} if character_id is not None else {}))
    return Markup(f'hx-get="{url}" hx-include="#pick-{side}" hx-target="#side-{side}" hx-swap="outerHTML"')


def _told_if_both_sides(sides: dict[str, dict], kind: str) -> None:
    """The same character picked as challenger and defender: the side just picked (the defender when the
    whole screen is drawn) says so at once, as it says that a side cannot act, and Resolve waits; the
    service refuses it too ("cannot challenge themself")."""
    challenger, defender = sides["challenger"].get("state"), sides["defender"].get("state")
    if kind != "contested" or challenger is None or defender is None \
            or challenger.character.id != defender.character.id:
        return
    told = _picked_side() or "defender"
    name = challenger.character.name
    sides[told]["cannot_act"] = (
        gettext("%(name)s is already the defender: a character cannot challenge themself. Choose another "
                "challenger.", name=name) if told == "challenger" else
        gettext("%(name)s is already the challenger: a character cannot challenge themself. Choose another "
                "defender.", name=name))


def _picked_side() -> str | None:
    """The side a pick swap is for (htmx's ``HX-Target`` is ``side-challenger`` or ``side-defender``), else None."""
    if not is_partial():
        return None
    target = request.headers.get("HX-Target", "")
    side = target.removeprefix("side-")
    return side if target.startswith("side-") and side in SIDES else None


@bp.app_template_filter("source_label")
def source_label(source: str, adjudication: Adjudication, side: str | None) -> str:
    """A retest source as the narrator reads it: "Brawl (2 left)", "Willpower (3 left)", "Might"."""
    kind, _, name = source.partition(":")
    label = name or gettext(kind.capitalize())  # "Willpower" in the reader's language; a sheet's names as written
    if side:
        state = adjudication.loaded[f"{side}_state"]
        character = adjudication.loaded[side]
        if kind == "ability" and state is not None:
            line = state.ability(name)
            if line is not None:
                return ngettext("%(name)s (%(num)s left)", "%(name)s (%(num)s left)", line.left, name=line.name)
        if kind == "willpower" and character is not None:
            return ngettext("Willpower (%(num)s left)", "Willpower (%(num)s left)", character.willpower_current)
    return label


@login_required
def index():
    """The home page of a logged-in narrator: the challenge screen; an organiser of a chronicle
    that has no name yet is asked for it first (``larp serve --empty``, issue 14); a player (issue 33)
    goes to his characters (``/my``)."""
    if g.user.role == "player":
        return redirect(url_for("players.home"), code=303)
    if g.user.role not in ("organiser", "narrator"):
        abort(403, description="This page is for organisers and narrators only. Ask an organiser if you need it.")
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
    for the scene), ``ruling`` (a recorded ruling to show), ``again=1`` (the form that made it
    was sent a second time and refused: the screen says so above the ruling).
    """
    ruling = None
    if request.args.get("ruling"):
        ruling = ruling_in(get_chronicle(), request.args.get("ruling"))
    context = _screen_context(request.args, ruling=ruling)
    context["params"] = _params(context)
    context["sent_again"] = ruling is not None and request.args.get("again") == "1"
    kept = session.get(UNDO_CHOICES)
    if ruling is not None and isinstance(kept, dict) and kept.get("ruling") == ruling.id:
        context["undo_form"] = kept.get("form")
    picked = _picked_side()
    if picked is None:
        return render("challenges/page.html", "challenges/page.html", **context)
    # A pick swaps only that side, and what depends on it comes out of band (challenges/_pick.html).
    response = render("challenges/page.html", "challenges/_pick.html", picked=picked, **context)
    response.headers["HX-Push-Url"] = url_for("challenges.challenge_page", **context["params"])
    return response


@bp.route("/challenge/scene", methods=["POST"])
@role_required("organiser", "narrator")
def scene():
    """A scene chip tapped (``set_kind``, ``set_category`` or ``set_darkness``, issue 18): the challenge
    screen again with that choice and every other field of the form kept (bids, throws, a typed
    Negative Trait call). Nothing is written but the scene's darkness in the narrator's session. htmx
    gets the screen for ``<main>`` and the address bar shows the scene and the sides; a plain
    post gets the page."""
    context = _screen_context(request.form)
    context["params"] = _params(context)
    response = render("challenges/page.html", "challenges/page.html", swap_main=bool(request.headers.get("HX-Request")),
                      **context)
    response = replace_url(response, url_for("challenges.challenge_page", darkness=context["darkness"],
                                             **context["params"]))
    response.headers["HX-Retarget"] = "#main"
    response.headers["HX-Reswap"] = "innerHTML"
    return response


@bp.route("/challenge/search", methods=["GET"])
@role_required("organiser", "narrator")
def search():
    """Active search for one side's picker: a list of matching characters (htmx partial)."""
    side = request.args.get("side") if request.args.get("side") in SIDES else "challenger"
    query = request.args.get(f"{side}_q", request.args.get("q", ""))
    context = _screen_context(request.args)
    context.update(side=side, results=find_characters(context["chronicle"], query, tonight=True), query=query,
                   params=_params(context))
    return render("challenges/page.html", "challenges/_search_results.html", **context)


def _tests_so_far(form) -> list[dict]:
    raw = form.get("tests_json") or "[]"
    try:
        tests = read_json(raw, "tests", label="The challenge in progress")
    except ServiceError:
        raise ServiceError(Phrase.message(N_("The challenge in progress could not be "
                                             "read; resolve it again.")), field="tests") from None
    if not isinstance(tests, list) or not all(isinstance(t, dict) for t in tests):
        raise ServiceError(Phrase.message(N_("The challenge in progress could not be read; "
                                             "resolve it again.")), field="tests")
    return tests


def _next_call(form) -> dict:
    """The overbid, retest, forced retest or second challenge the narrator chose on the result so far.

    A cancelled retest makes no new test (LotNR Retests), so its throws are dropped. The screen offers
    an overbid only when its ratio is met (the rules core's ``overbid_makes_test``), so an overbid
    comes with its throws; one that the core finds refused all the same (a form gone stale) is
    refused with its message. The narrator's side in a static challenge or simple test risks no
    Trait (LotNR Overbidding).
    """
    choice = (form.get("next_source") or "").strip()
    by = (form.get("next_by") or "").strip()
    if not choice:
        raise ServiceError(Phrase.message(N_("Choose the retest or overbid to make.")), field="next_source")
    call = {"by": by or None, "challenger_throw": form.get("next_challenger_throw") or None,
            "defender_throw": form.get("next_defender_throw") or None}
    makes_test = True
    if choice == "overbid":
        call.update(call="overbid", trait=(form.get("next_trait") or "").strip())
        if by == "defender" and _kind(form.get("kind")) != "contested":
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
        raise ServiceError(Phrase.message(N_("Choose both throws for the new test.")), field="next_challenger_throw")
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
    tests = None
    try:
        if step == "resolve":
            challenge_request = request_from_form(form)
        else:
            tests = _tests_so_far(form)
            if not tests:
                raise ServiceError(Phrase.message(N_("There is no challenge in progress; "
                                                     "resolve it first.")), field="tests")
            if step == "call":
                tests = tests + [_next_call(form)]
            challenge_request = request_from_form(form, tests)
        # One service call a tap (issue 29): one load, one rules call, and the record when it is settled.
        adjudication = adjudicate_challenge(chronicle, g.user, challenge_request, rng,
                                            record="always" if step == "record" else "settled", fingerprints=True)
    except ServiceError as exc:
        if step == "call" and tests and (exc.field or "").startswith("next"):
            # An incomplete call (no throws, no retest chosen): the result so far stays on screen with
            # the message beside the call, and the narrator's choices stay ticked (ruled again, writing
            # nothing: only this refusal pays for it).
            try:
                so_far = adjudicate_challenge(chronicle, g.user, request_from_form(form, tests), rng, record="never")
            except ServiceError as fresh:
                exc, so_far = fresh, None
        else:
            so_far = None
        if so_far is not None:
            context = _screen_context(form, adjudication=so_far, error=exc)
            context.update(params=_params(context), kept={k: v for k, v in form.items() if k.startswith("next_")})
            return render("challenges/page.html", "challenges/_resolved.html", status=exc.status, **context)
        context = _screen_context(form, error=exc)
        context["params"] = _params(context)
        again = shown_where_it_was_recorded(exc, "challenges.challenge_page", **context["params"])
        if again is not None:
            return again
        return render("challenges/page.html", "challenges/_resolved.html", status=exc.status, **context)
    if adjudication.record is None:
        context = _screen_context(form, adjudication=adjudication, tapped=adjudication)
        context["params"] = _params(context)
        return render("challenges/page.html", "challenges/_resolved.html", **context)
    remember(*(c.id for c in (adjudication.loaded.challenger, adjudication.loaded.defender) if c is not None))
    if not is_partial():
        context = _screen_context(form, tapped=adjudication)
        # Without JavaScript the screen after the redirect draws the Undo button: it carries the
        # choices kept here (the last ruling's only), so an undo puts them back as with htmx.
        session[UNDO_CHOICES] = {"ruling": adjudication.record.id, "form": _choices(form)}
        return redirect(url_for("challenges.challenge_page", ruling=adjudication.record.id, **_params(context),
                                _anchor="ruling"), code=303)
    context = _screen_context(form, ruling=adjudication.record, tapped=adjudication)
    context["params"] = _params(context)
    context["undo_form"] = _choices(form)
    return render("challenges/page.html", "challenges/_resolved.html", **context)


#: Form fields that are not the narrator's choices: a restored challenge gets new ones.
NOT_CHOICES = ("csrf_token", "request_token", "tests_json", "step", "undo", "undo_form")


#: The session key of the choices of the last challenge recorded by a plain form (see :func:`resolve`).
UNDO_CHOICES = "undo_choices"


def _choices(form) -> dict[str, str]:
    """The narrator's choices in a recorded challenge's form (sides, bids, throws, options), carried with the
    Undo button so that an undo puts them back on the screen (issue 18: re-ruling needs no re-entry)."""
    return {key: value for key, value in form.items() if value and key not in NOT_CHOICES and not key.startswith("next_")}


def _restored_choices(form) -> dict[str, str] | None:
    """The choices an Undo button carried (``undo_form``, see :func:`_choices`), or None when there are none
    or they cannot be read (the screen then asks to choose again)."""
    try:
        restored = read_json(form.get("undo_form") or "null", "undo_form", label="The choices to restore")
    except ServiceError:
        return None
    if not isinstance(restored, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in restored.items()):
        return None
    return {k: v for k, v in restored.items() if k not in NOT_CHOICES}


@bp.route("/challenge/undo", methods=["POST"])
@role_required("organiser", "narrator")
def undo():
    """Undo the challenge just recorded (form field ``undo``: its ruling id), within a minute of it, by the
    narrator who recorded it or an organiser (:func:`larp.services.history.undo_own_recent`). The choices the
    Undo button carried (``undo_form``) are put back on the screen, to be corrected and resolved again. htmx gets the result fragment and the refreshed sides, a plain post the whole screen. A
    refusal (too late, another narrator's, not the last change) is shown where the ruling was."""
    chronicle = get_chronicle()
    try:
        record = undo_own_recent(chronicle, g.user, request.form.get("undo"), utcnow())
    except ServiceError as exc:
        context = _screen_context(request.form, error=exc)
        context["params"] = _params(context)
        return render("challenges/page.html", "challenges/_resolved.html", status=exc.status, **context)
    restored = _restored_choices(request.form)
    session.pop(UNDO_CHOICES, None)
    values = dict(request.form.items(), **restored) if restored else request.form
    context = _screen_context(values, undone=record)
    context.update(params=_params(context), restored=bool(restored))
    return render("challenges/page.html", "challenges/_resolved.html", **context)


@bp.route("/challenge/fresh", methods=["GET"])
@role_required("organiser", "narrator")
def fresh():
    """What the challenge screen polls every 5 s (issue 18: a narrator about to resolve with stale data is
    told before, not after). Query: ``challenger``/``defender`` (ids) with ``challenger_v``/``defender_v``,
    the fingerprints the screen was drawn with (:mod:`larp.services.live`), and ``kind``. Unchanged:
    204, no body, after one query a side. Changed (another narrator's ruling, damage from the character
    page, a new game session): a warning naming who changed, with a button that redraws the screen
    keeping the narrator's choices."""
    chronicle = get_chronicle()
    changed = []
    for side in SIDES:
        if not request.args.get(side):
            continue
        wanted = as_id(request.args.get(side))
        seen = seen_in_chronicle(chronicle.id, wanted) if wanted else None
        if seen is None:
            try:
                get_character(chronicle, request.args.get(side), side)  # says why he cannot be found
            except ServiceError as exc:
                changed.append(exc.message)
            continue
        if seen.fingerprint != request.args.get(f"{side}_v"):
            changed.append(seen.name)
    if not changed:
        return "", 204
    return render_template("challenges/_stale.html", changed=changed, kind=_kind(request.args.get("kind")))
