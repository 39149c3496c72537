"""Character cards: the organiser's card list and print sheet, and the page a card's QR code opens."""

from __future__ import annotations

import re
from typing import Any, Callable
from urllib.parse import parse_qsl, urlparse

from flask import Blueprint, flash, g, make_response, redirect, render_template, request, url_for

from larp.change_stamp import ChangeStamp, kept_or_read
from larp.db import db
from larp.htmx import is_partial, render
from larp.web.scene_memory import board_in_progress, remember_scan
from larp.models import Character, User
from larp.services import ServiceError
from larp.services.cards import (PAPER_SIZES, TOKEN_PATTERN, UNKNOWN_CARD, cards_to_print, character_for_card,
                                 revoke_card, rotate_card)
from larp.services.editions import sheet_notice
from larp.services.live import seen_by_card
from larp.services.characters import character_state
from larp.services.memberships import role_in
from larp.web.scope import ENVIRON_KEY, member_url
from flask_babel import gettext

from larp.i18n import N_, read_in_chronicle
from larp.services.chronicles import chronicle_settings, get_chronicle, open_game_session, set_setting
from larp.web.auth import role_required

bp = Blueprint("cards", __name__)

#: Hosts a phone at the event can never reach: printing them is almost surely a mistake.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0")


def card_base_url(chronicle) -> tuple[str, bool]:
    """The address the QR codes start with, and whether it is the chronicle setting (else this page's)."""
    configured = chronicle_settings(chronicle)["card_base_url"]
    if configured:
        return configured, True
    return request.host_url.rstrip("/"), False


def _list_page(status: int = 200, error: ServiceError | None = None, form: dict | None = None):
    chronicle = get_chronicle()
    base_url, configured = card_base_url(chronicle)
    characters = list(Character.select().where((Character.chronicle == chronicle) & Character.retired_at.is_null())
                      .order_by(Character.name))  # retired characters get no card (issue 14)
    return render("cards/list.html", "cards/list.html", status=status, chronicle=chronicle,
                  characters=characters, base_url=base_url, configured=configured, error=error,
                  form=form or {}, papers=PAPER_SIZES,
                  loopback=(urlparse(base_url).hostname or "") in LOOPBACK_HOSTS)


@bp.route("/cards")
@role_required("organiser")
def list_cards():
    """Every character with its card state; choose what to print; rotate or revoke a card."""
    return _list_page()


@bp.route("/cards/base-url", methods=["POST"])
@role_required("organiser")
def set_base_url():
    """Set the chronicle setting ``card_base_url`` (empty: the address the sheet is opened from).

    Not a URL: 422 with the message by the field; nothing is stored.
    """
    try:
        value = set_setting(get_chronicle(), "card_base_url", request.form.get("card_base_url", ""))
    except ServiceError as exc:
        return _list_page(exc.status, error=exc, form=request.form)
    flash(gettext("Cards will carry %(address)s.", address=value) if value
          else gettext("Cards will carry the address this page is opened from."))
    return redirect(url_for("cards.list_cards"), code=303)


def _card_action(action, character_id: int, message: str):
    chronicle = get_chronicle()
    try:
        character = action(chronicle, character_id, g.user)
    except ServiceError as exc:
        if is_partial():
            return render_template("errors/_error.html", title=gettext("Not changed"), message=exc.message), exc.status
        return _list_page(exc.status, error=exc)
    if is_partial():
        return render_template("cards/_card_row.html", c=character, note=gettext(message, name=character.name))
    flash(gettext(message, name=character.name))
    return redirect(url_for("cards.list_cards"), code=303)


@bp.route("/cards/<int:character_id>/rotate", methods=["POST"])
@role_required("organiser")
def rotate(character_id: int):
    """Issue a new card token: the old printed card stops working; print the new one."""
    return _card_action(rotate_card, character_id,
                        N_("%(name)s has a new card link: print the new card; the old one no longer works."))


@bp.route("/cards/<int:character_id>/revoke", methods=["POST"])
@role_required("organiser")
def revoke(character_id: int):
    """Revoke the card token: the printed card opens nothing and no card is issued."""
    return _card_action(revoke_card, character_id, N_("%(name)s's card is revoked: it opens nothing now."))


@bp.route("/cards/sheet")
@role_required("organiser")
def sheet():
    """The printable sheet: eight cards a page, A4 or US Letter, with cut marks.

    Query: ``all=1`` for every character, else the ticked ``character`` ids;
    ``paper`` ``a4`` (default) or ``letter``. Nothing chosen: 422 with the
    message on the card list.
    """
    chronicle = get_chronicle()
    paper = request.args.get("paper", "a4") if request.args.get("paper") in PAPER_SIZES else "a4"
    chosen = None if request.args.get("all") else request.args.getlist("character")
    base_url, configured = card_base_url(chronicle)
    try:
        pages = cards_to_print(chronicle, chosen, base_url)
    except ServiceError as exc:
        return _list_page(exc.status, error=exc, form={"paper": paper})
    return render_template("cards/sheet.html", chronicle=chronicle, pages=pages, paper=paper,
                           papers=PAPER_SIZES, base_url=base_url, configured=configured,
                           loopback=(urlparse(base_url).hostname or "") in LOOPBACK_HOSTS,
                           count=sum(len(p) for p in pages),
                           paper_urls={key: url_for("cards.sheet", paper=key, all=request.args.get("all"),
                                                    character=chosen or None) for key in PAPER_SIZES})


def _no_store(response):
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@bp.route("/c/<token>")
@bp.route("/C/<token>")
@bp.route("/c/<token>/<edition>")
@bp.route("/C/<token>/<edition>")
def card_view(token: str, edition: str | None = None):
    """What a card's QR code opens (public: the card is the key).

    Anyone: the player's view of that one character as it stands tonight
    (health, blood, Willpower, Traits left, Abilities expended, condition)
    and nothing else. A logged-in member of the card's chronicle: the same
    character with the narrator's actions, at the page's URL in that chronicle
    (a redirect to ``/chronicles/<id>/c/<token>``); anyone else logged in gets
    the player's view (issue 22). A malformed, unknown or revoked token is a
    plain 404 with one body for all three. Never cached (``no-store``).

    A printed sheet's QR code adds its edition (``/C/<token>/E<edition>``, issue 34): a narrator
    or organiser reads "This sheet is edition 12; the character is now at edition 14: changed
    since: ..." (:func:`larp.services.editions.sheet_notice`), anyone else "a newer sheet exists"
    when one does. An edition that is not ``E`` and a number is the same 404.
    """
    printed = _printed_edition(edition)
    fingerprint = _fingerprint_first(token)
    try:
        if printed == 0:
            raise ServiceError(UNKNOWN_CARD, status=404)
        character = character_for_card(token)
    except ServiceError as exc:
        return _no_store(make_response(render_template("cards/player_missing.html", message=gettext(exc.message)), 404))
    notice = sheet_notice(character, printed) if printed else None
    chronicle = character.chronicle
    read_in_chronicle(chronicle)  # no login: the card's chronicle's language, else the phone's (issue 36)
    # Who runs the card's chronicle (an organiser or a narrator there) sees the narrator's view; a
    # player of it (issue 33), like anyone else, the player's view of the card.
    staff = g.get("user") is not None and role_in(g.user, chronicle) in User.STAFF_ROLES
    if (staff and g.get("chronicle_id") != chronicle.id
            and request.environ.get(ENVIRON_KEY) is None):
        # A member of the card's chronicle working in another: the page in the card's chronicle,
        # so that its actions are that chronicle's.
        return redirect(member_url(chronicle.id))
    state = _card_state(character)
    if staff and g.get("chronicle_id") == chronicle.id:
        # A narrator scanning cards one after the other: the card before this one makes a challenge (issue 18).
        before_id = remember_scan(character.id)
        before = Character.get_or_none((Character.id == before_id) & (Character.chronicle == chronicle)
                                       & Character.retired_at.is_null()) if before_id else None
        board, board_target = _board_to_join(character)
        page = render_template("cards/narrator_view.html", chronicle=chronicle, state=state, token=token,
                               scanned_before=before, board=board, board_target=board_target, notice=notice,
                               fingerprint=fingerprint)
    else:
        from larp.web.players import card_extras  # issue 33: his own page's link and his requests' badge

        page = render_template("cards/player_view.html", chronicle=chronicle, state=state, token=token,
                               notice=notice, fingerprint=fingerprint, **card_extras(character))
    return _no_store(make_response(page))


def _fingerprint_first(token: str) -> str:
    """The live fingerprint of the card's character (:mod:`larp.services.live`), read BEFORE anything
    the page shows of him: a change made while the page is built then moves the fingerprint past the
    one the page carries, and its first poll brings the change (read after, it could hide the change
    until the next one)."""
    wanted = (token or "").strip().upper()
    seen = seen_by_card(wanted) if TOKEN_PATTERN.fullmatch(wanted) else None
    return seen.fingerprint if seen else ""


def _printed_edition(part: str | None) -> int | None:
    """The edition a printed sheet's address names (``E12`` → 12); ``None`` for a card's address
    (no edition), 0 for anything else (the address is not one larp prints)."""
    if part is None:
        return None
    match = re.fullmatch(r"[Ee]([1-9][0-9]{0,8})", part)
    return int(match.group(1)) if match else 0


def _board_to_join(character) -> tuple[dict | None, Character | None]:
    """The combat board being set up (its query parameters) and its target, when ``character`` is on it
    neither as the target nor as an attacker: his card page offers "joins the attack" (issue 18)."""
    board = board_in_progress()
    if not board:
        return None, None
    listed = board.get("a") if isinstance(board.get("a"), list) else []
    if character.id == board["target"] or character.id in listed:
        return None, None
    target = Character.get_or_none((Character.id == board["target"]) & (Character.chronicle == character.chronicle)
                                   & Character.retired_at.is_null())
    return (board, target) if target else (None, None)


def _card_state(character):
    chronicle = character.chronicle
    return character_state(character, open_game_session(chronicle), chronicle_settings(chronicle))


#: htmx stops polling on this status (htmx 2 "286 Stop Polling").
STOP_POLLING = 286


@bp.route("/c/<token>/live")
def card_live(token: str):
    """What the card page polls every 5 s to follow a narrator's changes (issue 18), public like the card.

    Query ``v``: the fingerprint of what the page shows (:mod:`larp.services.live`). Unchanged: 204
    with no body, after one query (issue 29: a game night's phones ask this 200 times a second;
    :class:`NothingChanged` gives that answer before the request reaches Flask, this view when it
    could not tell). Changed: the "tonight" block with the new fingerprint (the same markup as the
    page). A card revoked or rotated meanwhile: 286 with the card's "no longer" message, which stops
    htmx polling (404 to a plain request). Never cached.
    """
    fingerprint = _fingerprint_first(token)
    if fingerprint and request.args.get("v") == fingerprint:
        return "", 204, {"Cache-Control": "no-store"}  # no content: nothing to index
    try:
        character = character_for_card(token)
    except ServiceError as exc:
        status = STOP_POLLING if is_partial() else 404
        return _no_store(make_response(render_template("errors/_error.html", title=gettext("Card not valid"),
                                                       message=gettext(exc.message)), status))
    read_in_chronicle(character.chronicle)  # as the card page (issue 36)
    state = _card_state(character)
    return _no_store(make_response(render_template("cards/_tonight_live.html", state=state, token=token,
                                                   fingerprint=fingerprint)))


class NothingChanged:
    """WSGI middleware: a player's card poll that finds nothing changed (:func:`card_live`'s 204) is
    answered here, after its one query (none on SQLite when nothing was committed since the card's last
    poll: :func:`larp.change_stamp.kept_or_read`), before Flask builds a request (issue 29, "A light request").

    It is the answer a game night's thousand phones get two hundred times a second, and the same
    for anyone: it depends on no session, user or chronicle, and carries no content (so none of the
    page headers: :func:`larp.app._register_security_headers`). Every other case (a change, an
    unknown or revoked card, a malformed token or query, a database that cannot be read) goes on
    to :func:`card_live`, which decides it as it always did, and so does a path that names a
    chronicle (``/chronicles/<id>/c/...``, which :mod:`larp.web.scope` refuses to a non-member).
    """

    _POLL = re.compile(r"/c/([A-Za-z2-7]{32})/live")

    def __init__(self, app: Callable, stamp: ChangeStamp | None = None):
        self.app = app
        self.stamp = stamp

    def __call__(self, environ: dict[str, Any], start_response: Callable):
        """Answer 204 when the poll's fingerprint is the card's, else pass the request on."""
        # A path that named a chronicle (never one a card page polls) is the scope's to judge.
        if environ.get("REQUEST_METHOD") == "GET" and environ.get(ENVIRON_KEY) is None:
            match = self._POLL.fullmatch(environ.get("PATH_INFO") or "")
            if match and self._unchanged(match.group(1).upper(), environ.get("QUERY_STRING") or ""):
                start_response("204 NO CONTENT", [("Cache-Control", "no-store")])
                return []
        return self.app(environ, start_response)

    def _unchanged(self, token: str, query: str) -> bool:
        seen_v = next((value for key, value in parse_qsl(query, keep_blank_values=True) if key == "v"), None)
        if not seen_v:
            return False
        try:
            # On SQLite, with nothing committed since the card's last poll, its fingerprint (a function of
            # what is stored, and of nothing else) is the one read then: no query (larp.change_stamp).
            seen = kept_or_read(self.stamp, ("card", token), lambda: _seen_by_card(token))
        except Exception:  # noqa: BLE001 - the view meets the same trouble and answers it as it should
            return False
        return seen is not None and seen.fingerprint == seen_v


def _seen_by_card(token: str):
    """:func:`larp.services.live.seen_by_card` on a connection of its own (closed after, unless one was open)."""
    opened = False
    try:
        opened = db.connect(reuse_if_open=True)
        return seen_by_card(token)
    finally:
        if opened and not db.is_closed():
            db.close()


def mount_nothing_changed(app) -> None:
    """Answer the card poll's "nothing changed" before Flask (:class:`NothingChanged`); call before
    the chronicle mount wraps the app, so that it sees the path as Flask routes it."""
    app.wsgi_app = NothingChanged(app.wsgi_app, app.extensions.get("larp.change_stamp"))
