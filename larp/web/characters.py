"""Characters for narrators: the list, one character, the card-code jump."""

from __future__ import annotations

from flask import Blueprint, current_app, g, redirect, render_template, request, url_for
from flask_babel import gettext

from larp.services.records import ruling_in
from larp.db import as_id
from larp.htmx import is_partial, render
from larp.models import Character, Ruling, RulingCharacter
from larp.rules.fortitude import fortitude_powers
from larp.services import ServiceError
from larp.services.adjudicate import Damage, Feeding, Healing, adjudicate
from larp.services.characters import character_state, find_characters, get_character, normalise_code
from larp.services.chronicles import chronicle_settings, get_chronicle, open_game_session
from larp.services.live import seen_in_chronicle
from larp.services.victims import drains_that_kill, feeding_victims
from larp.web.auth import role_required
from larp.web.downloads import attachment, file_slug

bp = Blueprint("characters", __name__)


@bp.route("/characters")
@role_required("organiser", "narrator")
def list_characters():
    """All characters in play, filtered by ``q`` (name or card code); ``retired=1`` lists the
    retired ones instead. Organisers also get the form that removes the scene extras."""
    from larp.services.sheets import scene_extras

    chronicle = get_chronicle()
    query = request.args.get("q", "")
    retired = bool(request.args.get("retired"))
    characters = find_characters(chronicle, query, limit=500, retired=retired)
    return render("characters/list.html", "characters/list.html", chronicle=chronicle, characters=characters,
                  query=query, retired=retired, extras=scene_extras(chronicle))


@bp.route("/characters/<int:character_id>")
@role_required("organiser", "narrator")
def show(character_id: int):
    """One character as it stands in the open game session, with recent rulings."""
    character, refusal = character_or_refusal(get_chronicle(), character_id)
    if refusal:
        return refusal
    last = None
    if as_id(request.args.get("ruling")):
        last = ruling_in(get_chronicle(), request.args.get("ruling"))
    return _panel(character.id, last_ruling=last)


@bp.route("/code")
@role_required("organiser", "narrator")
def by_code():
    """Jump to the character whose card code was typed in the box on every narrator screen."""
    chronicle = get_chronicle()
    code = normalise_code(request.args.get("code", ""))
    character = Character.get_or_none((Character.chronicle == chronicle) & (Character.short_code == code))
    if character is None:
        message = (gettext("No character has the card code “%(code)s”.", code=code) if code
                   else gettext("Type the code printed on the card."))
        return render_template("errors/error.html", title=gettext("Unknown card code"), message=message,
                               chronicle=chronicle), 404
    return redirect(url_for("characters.show", character_id=character.id), code=303)


@bp.route("/characters/<int:character_id>/grapevine.gex")
@role_required("organiser", "narrator")
def export_grapevine_file(character_id: int):
    """Download one character as a Grapevine 3 exchange file (issue 20): his sheet, experience log,
    condition as Grapevine's status and what an import kept unused. Unknown character: 404."""
    from larp.services.grapevine_export import CONTENT_TYPE, export_grapevine

    chronicle = get_chronicle()
    character, refusal = character_or_refusal(chronicle, character_id)
    if refusal:
        return refusal
    return attachment(export_grapevine(chronicle, [character]), file_slug(character.name, "characters") + ".gex",
                      content_type=CONTENT_TYPE)


def character_or_refusal(chronicle, character_id: int):
    """The character a page's address names, and ``None``; or ``None`` and the page to answer instead
    (404 "Unknown character")."""
    try:
        return get_character(chronicle, character_id), None
    except ServiceError as exc:
        return None, (render_template("errors/error.html", title=gettext("Unknown character"), message=exc.message,
                                      chronicle=chronicle), exc.status)


@bp.route("/characters/<int:character_id>/grapevine")
@role_required("organiser", "narrator")
def grapevine_page(character_id: int):
    """Before the download of one character's Grapevine file: what it holds and what Grapevine has no
    place for (his damage, tabletop ratings, narrator notes, contact details: issue 27). 404 unknown."""
    from larp.services.grapevine_export import left_out

    chronicle = get_chronicle()
    character, refusal = character_or_refusal(chronicle, character_id)
    if refusal:
        return refusal
    return render_template("grapevine/export.html", what=character.name, count=1, missing=left_out([character]),
                           download=url_for("characters.export_grapevine_file", character_id=character.id),
                           back=url_for("characters.show", character_id=character.id))


@bp.route("/characters/<int:character_id>/live")
@role_required("organiser", "narrator")
def live(character_id: int):
    """What the character page polls every 5 s to follow another narrator's changes (issue 18).

    Query ``v``: the fingerprint of what the page shows (:mod:`larp.services.live`). Unchanged:
    204 with no body, after one query. Changed: the whole character page, from which the poller
    takes its health, blood, Willpower, condition, Traits and Abilities left (``hx-select-oob``; the
    forms are left as the narrator filled them). No such character: 404.
    """
    seen = seen_in_chronicle(get_chronicle().id, character_id)
    if seen is None:
        return render_template("errors/_error.html", title="Unknown character",
                               message="There is no such character in this chronicle."), 404
    if request.args.get("v") == seen.fingerprint:
        return "", 204
    return _panel(character_id, whole_page=True)


def _panel(character_id: int, error: ServiceError | None = None, last_ruling=None, whole_page: bool = False,
           state=None, settings=None):
    """The health panel (htmx) or the character page (plain, or ``whole_page``), after a change or a refused one
    (``state``: the character as the change left him, :meth:`larp.services.adjudicate.Recorded.state_after`,
    and ``settings`` the chronicle's as it read them; default, read now)."""
    from larp.rules.damage import armory
    from larp.rules.health import health_views

    chronicle = get_chronicle()
    settings = chronicle_settings(chronicle) if settings is None else settings
    whole = whole_page or not is_partial()
    # The page's poll carries the fingerprint read BEFORE what the page shows (a change made meanwhile
    # then shows at the first poll; larp.services.live).
    seen = seen_in_chronicle(chronicle.id, character_id) if whole else None
    if state is None or whole:
        try:
            character = get_character(chronicle, character_id)
        except ServiceError as exc:  # deleted on another screen meanwhile: say so, where the narrator looks
            template = "errors/_error.html" if is_partial() else "errors/error.html"
            return render_template(template, title="Unknown character", message=exc.message,
                                   chronicle=chronicle), exc.status
        state = character_state(character, open_game_session(chronicle), settings)
    character = state.character
    from larp.services.health import aegis_candidates

    fortitude = fortitude_powers(state.discipline_level("Fortitude"))  # what the panel offers (met-reference 3.5)

    victims = feeding_victims(chronicle, character) if character.creature == "vampire" else []
    context = dict(chronicle=chronicle, state=state, health_views=health_views(state.health), error=error,
                   last_ruling=last_ruling, weapons=armory("live").weapons, armors=armory("live").armor,
                   armor_worn=[a.name for a in state.armor],
                   killing_blow_rule=settings["dark_epics_killing_blow"],
                   agg_instalments=settings["agg_heal_model"] == "lotnr_instalments",
                   victims=victims,
                   drain_kills=drains_that_kill(victims, settings),
                   fortitude=fortitude,
                   drain_past_full=settings["drain_past_full_pool"],
                   aegis_rulings=aegis_candidates(character) if fortitude.aegis else [])
    if not whole:
        return render_template("characters/_health_panel.html", **context), (error.status if error else 200)
    rulings = (Ruling.select().join(RulingCharacter).where(RulingCharacter.character == character)
               .order_by(Ruling.id.desc()).limit(10))
    from larp.models import Background
    from larp.services.characters import carried_weapons, worn_armor
    from larp.grapevine.kept import describe
    from larp.services.experience import experience_log

    extras = dict(backgrounds={b.name: b.rating for b in Background.select().where(Background.character == character)
                               .order_by(Background.id)},
                  weapons=carried_weapons(character), armor=worn_armor(character), log=experience_log(character),
                  kept=describe(character.imported_unused))
    may_edit_sheet = g.user.role == "organiser" or settings["narrators_edit_equipment"]
    return render_template("characters/show.html", rulings=list(rulings), extras=extras, may_edit_sheet=may_edit_sheet,
                           fingerprint=seen.fingerprint if seen else "", **context), (error.status if error else 200)


def _mutation(character_id: int, change):
    """Run ``change`` (one service call returning the ruling, or what :func:`larp.services.adjudicate.adjudicate`
    recorded); show the panel with it, drawn from what the tap wrote, or the error (an unknown character: the
    error page; a repeated form or one whose page showed the character otherwise: 409, see
    :mod:`larp.web.submissions`)."""
    try:
        done = change()
    except ServiceError as exc:
        if exc.status == 404 and exc.field == "character":
            return render_template("errors/error.html", title=gettext("Unknown character"), message=exc.message,
                                   chronicle=get_chronicle()), exc.status
        return _panel(character_id, error=exc)
    record = getattr(done, "ruling", done)
    if not is_partial():
        return redirect(url_for("characters.show", character_id=character_id, ruling=record.id), code=303)
    if record is done:
        return _panel(character_id, last_ruling=record)
    return _panel(character_id, last_ruling=record, state=done.state_after(), settings=done.settings)


@bp.route("/characters/<int:character_id>/damage", methods=["POST"])
@role_required("organiser", "narrator")
def damage(character_id: int):
    """Apply damage by hand: type and levels, or a weapon card, a bite, fire, sunlight; firearm and
    head shot; Fortitude's tests (002 "Damage and Healing"; met-reference 3.5, 3.7)."""
    from larp.services.health import DamageRequest

    return _mutation(character_id, lambda: adjudicate(get_chronicle(), g.user, Damage(
        character_id, DamageRequest.from_mapping(request.form), current_app.config["RANDOM_SOURCE"]())))


@bp.route("/characters/<int:character_id>/heal", methods=["POST"])
@role_required("organiser", "narrator")
def heal(character_id: int):
    """Heal with blood: bashing, lethal, aggravated (a night's rest) or automatically (002)."""
    return _mutation(character_id, lambda: adjudicate(get_chronicle(), g.user, Healing(
        character_id, request.form.get("kind", ""), request.form.get("levels"))))


@bp.route("/characters/<int:character_id>/act", methods=["POST"])
@role_required("organiser", "narrator")
def act(character_id: int):
    """A narrator's action: feed, wake, stake, remove the stake, behead, tear out the heart."""
    from larp.services.health import narrator_request

    return _mutation(character_id, lambda: adjudicate(get_chronicle(), g.user, narrator_request(
        character_id, request.form.get("action", ""), request.form.get("blood"),
        request.form.get("reason") or "other")))


@bp.route("/characters/<int:character_id>/feed-on", methods=["POST"])
@role_required("organiser", "narrator")
def feed_on(character_id: int):
    """The vampire feeds on a victim: each Blood Trait drained costs a mortal or ghoul a level of
    lethal damage, at most three a turn (LotNR "Blood", met-reference 3.7)."""
    return _mutation(character_id, lambda: adjudicate(get_chronicle(), g.user, Feeding(
        character_id, request.form.get("victim"), request.form.get("blood"))))


@bp.route("/characters/<int:character_id>/equip", methods=["POST"])
@role_required("organiser", "narrator")
def equip(character_id: int):
    """Set the weapon the character carries (pre-filled on the challenge screen)."""
    from larp.services.characters import equip_weapon

    try:
        equip_weapon(get_chronicle(), g.user, character_id, request.form.get("weapon", ""))
    except ServiceError as exc:
        return _panel(character_id, error=exc)
    return redirect(url_for("characters.show", character_id=character_id), code=303)


@bp.route("/characters/<int:character_id>/aegis", methods=["POST"])
@role_required("organiser", "narrator")
def aegis(character_id: int):
    """Fortitude's Aegis: cancel the damage of this turn (met-reference 3.5, T22)."""
    from larp.services.health import invoke_aegis_for

    return _mutation(character_id, lambda: invoke_aegis_for(
        get_chronicle(), g.user, character_id, request.form.get("since"), request.form.get("payment", "")))
