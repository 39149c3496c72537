"""The player's own pages (issue 33): ``/my``, his characters, each one's page; the organiser's
"Players" page of a character (link an account, invite a new player, show a claim code); and the
claim from a card.

A player logs in like anyone else; his role in the chronicle is "player" (every organiser's and
narrator's page refuses him). His pages show him what is his and nothing else: each asks
:func:`larp.services.players.own_character`, which answers 404 for a character that is not his.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from larp.htmx import render
from larp.i18n import said_if_phrase, session_label
from larp.models import utcnow
from larp.services import ServiceError
from larp.services.cards import card_url, qr_svg
from larp.services.characters import character_state, get_character
from larp.services.chronicles import chronicle_settings, get_chronicle, open_game_session
from larp.services.experience import experience_log
from larp.services.player_view import rulings_of
from larp.services.players import (characters_of_player, claim_character, invite_player, link_by_name,
                                   make_claim_code, own_character, player_notices, players_of, self_check_in_state,
                                   unlink_player)
from larp.services.printing import printed_sheet
from larp.web.auth import role_required, start_session
from larp.web.scope import chronicle_page

bp = Blueprint("players", __name__)

#: Who may open the player's pages: a player, and an organiser or narrator who also plays a character
#: of the chronicle (each page shows only the characters linked to the account, whatever its role).
ANY_ROLE = ("player", "narrator", "organiser")


@bp.app_template_global("players_of")
def _players_of(character):
    """Template global: the accounts that play ``character`` (the organiser's character page)."""
    return players_of(character)


@bp.app_template_global("players_waiting")
def _players_waiting() -> int:
    """Template global: how many players' requests wait for an organiser of this chronicle (issue 33
    item 5, :func:`larp.services.players.pending_counts`), for the top bar; 0 outside a chronicle."""
    from larp.services.players import pending_counts
    from larp.web.scope import chronicle_or_none

    chronicle = chronicle_or_none()
    return sum(pending_counts(chronicle).values()) if chronicle is not None else 0


@bp.route("/my")
@role_required(*ANY_ROLE)
def home():
    """The player's home: his characters in this chronicle, each a link to its page."""
    return render("players/home.html", "players/home.html", chronicle=get_chronicle(),
                  characters=characters_of_player(g.user))


def _mine_or_404(character_id: int):
    try:
        return own_character(g.user, character_id)
    except ServiceError as exc:
        abort(404, description=exc.message)


@bp.route("/my/characters/<int:character_id>")
@role_required(*ANY_ROLE)
def character(character_id: int):
    """One of the player's characters: as he stands tonight (health track, blood, Willpower, Traits
    left), his whole sheet, his card, his experience log and totals (LotNR Experience,
    :mod:`larp.services.experience`) and the rulings he was in with their steps (never a narrator's
    notes, :mod:`larp.services.player_view`).

    Not his (unknown, another player's, another chronicle's): 404, the same answer for all.
    """
    mine = _mine_or_404(character_id)
    chronicle = get_chronicle()
    settings = chronicle_settings(chronicle)
    # The address his card's QR code carries, as the cards' (larp.web.cards.card_base_url).
    base_url = settings["card_base_url"] or request.host_url.rstrip("/")
    sheet = printed_sheet(mine, settings, base_url, utcnow())
    card = card_url(base_url, mine.card_token) if mine.card_token else None
    return render("players/character.html", "players/character.html", chronicle=chronicle, character=mine,
                  state=character_state(mine, open_game_session(chronicle), settings), log=experience_log(mine),
                  sheet=sheet, card=card, card_svg=qr_svg(card) if card else None, rulings=rulings_of(mine),
                  notices=player_notices(mine), door=(door := self_check_in_state(mine)),
                  door_open_later=bool(settings["players_check_in_themselves"] and door[1] is not None
                                       and not door[0] and door[2] is None))


def card_extras(ch) -> dict:
    """What the card page (:func:`larp.web.cards.card_view`) adds for the character's own player
    logged in (issue 33): ``mine``, the address of his page of the character, and ``notices``, his
    requests' states for the badge (item 5). Anyone else: neither (the card page stays as it is)."""
    from larp.models.players import CharacterPlayer

    user = g.get("user")
    if user is None or not CharacterPlayer.select().where((CharacterPlayer.user == user.id)
                                                          & (CharacterPlayer.character == ch.id)).exists():
        return {"mine": None, "notices": []}
    return {"mine": chronicle_page(ch.chronicle_id, "players.character", character_id=ch.id),
            "notices": player_notices(ch)}


@bp.route("/my/characters/<int:character_id>/check-in", methods=["POST"])
@role_required(*ANY_ROLE)
def check_in(character_id: int):
    """The player checks his own character in for the open game session (issue 33 item 4), when the
    chronicle lets players do it (setting ``players_check_in_themselves``). Form ``session``: the game
    session his page showed. Refused (403 setting off, 404 not his, 409 no session or the door's
    refusal): his page again with the reason at the top; done or done already: back to his page."""
    from larp.services.records import AlreadyRecorded
    from larp.services.players import self_check_in

    _mine_or_404(character_id)
    try:
        result = self_check_in(g.user, character_id, request.form.get("session") or None)
    except AlreadyRecorded:
        result = None  # this very form was recorded already (a double tap): his page says how he stands
    except ServiceError as exc:
        if exc.status == 404:
            abort(404, description=exc.message)
        flash(gettext("Not checked in: %(reason)s", reason=said_if_phrase(exc.message)), "error")
        return redirect(url_for("players.character", character_id=character_id, _anchor="tonight-door"), code=303)
    if result is not None:
        flash(gettext("%(name)s is checked in for %(session)s.", name=result.character.name,
                      session=session_label(result.session))
              if not result.already else gettext("%(name)s was checked in already.", name=result.character.name))
    return redirect(url_for("players.character", character_id=character_id), code=303)


# ---------------------------------------------------------------- the organiser's side


def _players_page(character_id: int, status: int = 200, error: ServiceError | None = None, issued: dict | None = None,
                  form: dict | None = None):
    chronicle = get_chronicle()
    try:
        ch = get_character(chronicle, character_id)
    except ServiceError as exc:
        abort(404, description=exc.message)
    return render_template("players/manage.html", chronicle=chronicle, character=ch, players=players_of(ch),
                           error=error, issued=issued, form=form or {}), status


@bp.route("/characters/<int:character_id>/players")
@role_required("organiser")
def manage(character_id: int):
    """A character's players: the accounts linked to him, with "Link an account", "Invite a new
    player" (a one-time login link that makes the account) and "Show a claim code"."""
    return _players_page(character_id)


@bp.route("/characters/<int:character_id>/players/link", methods=["POST"])
@role_required("organiser")
def link(character_id: int):
    """Link an existing account (form ``username``) to the character; it becomes a player of the
    chronicle if it is not a member. Unknown name: 404 at the field; a deactivated account: 409."""
    chronicle = get_chronicle()
    try:
        ch = get_character(chronicle, character_id)
        user = link_by_name(chronicle, ch, request.form.get("username", ""), g.user)
    except ServiceError as exc:
        return _players_page(character_id, exc.status, error=exc, form=request.form)
    flash(gettext("%(name)s (%(user)s) now plays %(character)s.", name=user.display_name, user=user.username,
                  character=ch.name))
    return redirect(url_for("players.manage", character_id=ch.id), code=303)


@bp.route("/characters/<int:character_id>/players/invite", methods=["POST"])
@role_required("organiser")
def invite(character_id: int):
    """Invite a new player: form ``username`` and ``display_name``. The account is made (a player of
    this chronicle, playing this character) with a one-time login link, shown once on the page as text
    and as a QR code for his phone (never redirected: the link does not travel in the session cookie). A taken name: 409 at the field."""
    chronicle = get_chronicle()
    hours = current_app.config["LOGIN_LINK_HOURS"]
    try:
        ch = get_character(chronicle, character_id)
        user, token = invite_player(chronicle, ch, g.user, request.form.get("username", ""),
                                    request.form.get("display_name", ""), hours=hours)
    except ServiceError as exc:
        return _players_page(character_id, exc.status, error=exc, form=request.form)
    link = url_for("auth.login_link", token=token, _external=True)
    # The link as a QR code too: the player scans it with his phone at the desk, nothing to type or send.
    issued = {"kind": "invite", "user": user, "hours": hours, "link": link, "qr": qr_svg(link)}
    return _players_page(character_id, issued=issued)


@bp.route("/characters/<int:character_id>/players/claim-code", methods=["POST"])
@role_required("organiser")
def claim_code(character_id: int):
    """Make a one-time claim code for the character, shown once on the page: the player scans the
    card, taps "Claim this character" and types it. Works for 24 hours; a retired character or a
    revoked card: 409."""
    from larp.services.players import CLAIM_HOURS

    chronicle = get_chronicle()
    try:
        ch = get_character(chronicle, character_id)
        code = make_claim_code(chronicle, ch, g.user)
    except ServiceError as exc:
        return _players_page(character_id, exc.status, error=exc)
    return _players_page(character_id, issued={"kind": "claim", "code": code, "hours": CLAIM_HOURS})


@bp.route("/characters/<int:character_id>/players/<int:user_id>/unlink", methods=["POST"])
@role_required("organiser")
def unlink(character_id: int, user_id: int):
    """The account ``user_id`` no longer plays the character (a player left with no character
    leaves the chronicle). Not one of his players: 404."""
    chronicle = get_chronicle()
    try:
        ch = get_character(chronicle, character_id)
        user = unlink_player(chronicle, ch, user_id)
    except ServiceError as exc:
        return _players_page(character_id, exc.status, error=exc)
    flash(gettext("%(name)s (%(user)s) no longer plays %(character)s.", name=user.display_name, user=user.username,
                  character=ch.name))
    return redirect(url_for("players.manage", character_id=ch.id), code=303)


# ---------------------------------------------------------------- the claim from a card


@bp.route("/c/<token>/claim", methods=["GET", "POST"])
def claim(token: str):
    """Claim the card's character with the one-time code an organiser shows (issue 33 item 1).

    Logged in: form ``code``; he becomes the character's player. Not logged in: ``code`` with a new
    account (``username``, ``display_name``, ``password``), or a link to log in first. A card that
    opens nothing: the card's own 404. A wrong, used or expired code: 422 at the field, nothing made.
    On success: to the character's page, logged in.
    """
    from larp.services.cards import character_for_card

    try:
        ch = character_for_card(token)
    except ServiceError as exc:
        return render_template("cards/player_missing.html", message=exc.message), 404
    error = None
    if request.method == "POST":
        user = g.get("user")
        try:
            ch, user = claim_character(token, request.form.get("code", ""), user,
                                       username=request.form.get("username", ""),
                                       display_name=request.form.get("display_name", ""),
                                       password=request.form.get("password") or None)
        except ServiceError as exc:
            error = exc
        else:
            if g.get("user") is None:
                start_session(user)
            flash(gettext("%(name)s is yours: this is the character's page.", name=ch.name))
            return redirect(chronicle_page(ch.chronicle_id, "players.character", character_id=ch.id), code=303)
    return render_template("players/claim.html", character=ch, token=token, error=error, form=request.form), \
        (error.status if error else 200)
