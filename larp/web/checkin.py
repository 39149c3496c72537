"""The check-in desk at the door (issue 32): scan a card or type a code or a name, one tap checks the
character in for the open game session; tonight's roster, live between desks; "award now".

Narrators and organisers keep the door; organisers give attendance experience early. Every form
carries its one-time token (a double tap records nothing twice) and works without JavaScript: a
plain post answers with the whole desk and its result at the top; htmx gets the part that changed.

The hooks in other screens are template globals (:func:`door_for_card`, :func:`attended`,
:func:`board_attendance`, :func:`tonight_mark`): the card page's "Check in", the character page's
sessions attended, the board's attendance panel and the pickers' "not checked in".
"""

from __future__ import annotations

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from markupsafe import Markup

from larp.htmx import is_partial
from larp.i18n import said_if_phrase
from larp.models import Character, GameSession
from larp.services import ServiceError
from larp.services.checkins import (CheckInResult, Found, attendance_amount_of, award_now, check_in, checked_in_at,
                                    door_decision, find_arrival, standing, recent_attendance, roster_fingerprint,
                                    sessions_attended, tonight_counts, tonight_roster, undo_check_in, UNREAD)
from larp.services.chronicles import get_chronicle, open_game_session
from larp.services.records import AlreadyRecorded
from larp.web.auth import role_required

bp = Blueprint("checkin", __name__)


@bp.app_template_global("door_refusal")
def door_refusal(character) -> str | None:
    """Why ``character`` cannot be checked in tonight (``None``: he can), for the desk's candidates
    (:func:`larp.rules.check_in.at_the_door`)."""
    return door_decision(character).refusal

#: Seconds between two polls of the roster: a desk sees another desk's check-in within this.
ROSTER_POLL_SECONDS = 3


def _desk(status: int = 200, result: CheckInResult | None = None, error: ServiceError | None = None,
          query: str = "", candidates: list | None = None, undone: bool = False, found: Found | None = None,
          session: GameSession | None = UNREAD):
    """The desk: the whole page, or (htmx) its work area: result, the search form, the candidates (with
    ``found``: which of them are checked in already, and whether more names match). ``session``: the open
    game session when the request has read it already (it is read once a request)."""
    chronicle = get_chronicle()
    session = open_game_session(chronicle) if session is UNREAD else session
    context = dict(chronicle=chronicle, session=session, result=result, error=error,
                   query=query, candidates=candidates or [], undone=undone,
                   roster=tonight_roster(chronicle, session=session),
                   poll=ROSTER_POLL_SECONDS, found=found)
    if context["session"] is not None and result is None:
        context["counts"] = tonight_counts(chronicle, context["session"])
    template = "checkin/_work.html" if is_partial() and request.headers.get("HX-Target") == "desk-work" \
        else "checkin/desk.html"
    response = render_template(template, **context), status
    return response + ({"HX-Trigger": "larp-door"},) if result is not None and is_partial() else response


@bp.route("/checkin")
@role_required("organiser", "narrator")
def desk():
    """The check-in desk for the open game session (390 px first): scan, code or name; tonight's roster."""
    return _desk()


@bp.route("/checkin/find")
@role_required("organiser", "narrator")
def find():
    """Who the desk's text names (active search): the candidates, one "Check in" button each. ``q``:
    a card's address or token, a card code, or the letters of a name."""
    chronicle = get_chronicle()
    query = (request.args.get("q") or "").strip()
    session = open_game_session(chronicle)  # once: who is checked in, and the form's game session
    try:
        found = find_arrival(chronicle, query, session=session)
    except ServiceError as exc:
        if is_partial():
            return render_template("checkin/_candidates.html", candidates=[], error=exc, query=query,
                                   session=session)
        return _desk(exc.status, error=exc, query=query, session=session)
    if is_partial():
        return render_template("checkin/_candidates.html", candidates=found.candidates, error=None, query=query,
                               session=session, how=found.how, found=found)
    return _desk(query=query, candidates=found.candidates, found=found, session=session)


def _answer(result: CheckInResult | None, error: ServiceError | None, query: str = "", candidates=None,
            undone: bool = False, found: Found | None = None):
    """The answer to a check-in or an undo: the card page's block when it came from a card (htmx),
    else the desk (its work area to htmx, the whole page otherwise)."""
    if request.form.get("from") == "card" and is_partial():
        character = result.character if result else Character.get_or_none(
            (Character.id == request.form.get("character", type=int)) & (Character.chronicle == get_chronicle()))
        door = door_for_card(character) if character is not None else None
        return render_template("checkin/_card.html", door=door, result=result, error=error, undone=undone,
                               ch=character), error.status if error else 200
    return _desk(error.status if error else 200, result=result, error=error, query=query, candidates=candidates,
                 undone=undone, found=found)


@bp.route("/checkin", methods=["POST"])
@role_required("organiser", "narrator")
def check_in_post():
    """Check a character in for the open game session.

    Form: ``character`` (an id: the candidate tapped, or the card page's button) or ``q`` (the desk's
    text: a scanned card's address or token checks in at once, a whole card code too; a name answers with
    its candidates, one "Check in" button each, even when only one character has it); ``how`` ("card" from a card
    page); ``session`` (the game session number the desk showed). Refusals (retired, scene extra, Final
    Death, no game session open, a stale desk) answer 409 with the reason where the desk looks; the
    same form again says he is checked in, as checking in twice does.
    """
    chronicle = get_chronicle()
    query = (request.form.get("q") or "").strip()
    character_id = request.form.get("character")
    how = request.form.get("how") or "name"
    if how not in ("card", "code", "name"):
        how = "name"
    if not character_id:
        if not query:
            return _answer(None, ServiceError(gettext("Nothing was scanned or typed: scan a card, or type a card code or the first letters of a name."),
                                              field="q"), query)
        try:
            found = find_arrival(chronicle, query)
        except ServiceError as exc:
            return _answer(None, exc, query)
        # A name typed is shown with its Check-in button, even when it is the only match (new-user test 12): only a
        # card's address or token, or a whole card code (the scanner's path), checks in at once.
        if found.character is None or found.how == "name":
            if not found.candidates:
                return _answer(None, ServiceError(gettext("No character matches “%(query)s”.", query=query),
                                                  field="q", status=404), query)
            return _answer(None, None, query, found.candidates, found=found)
        character_id, how = found.character.id, found.how
    try:
        result = check_in(chronicle, g.user, character_id, how=how, session_number=request.form.get("session"))
    except AlreadyRecorded:
        # This very form was recorded (a double tap, a reload): say how he stands, as a second check-in does.
        try:
            result = standing(chronicle, character_id)
        except ServiceError as exc:
            return _answer(None, exc, query)
        if result is None:
            return _answer(None, ServiceError(gettext("That check-in was undone since: check him in again with a "
                                                      "fresh scan."), field="character", status=409), query)
    except ServiceError as exc:
        return _answer(None, exc, query)
    return _answer(result, None)


@bp.route("/checkin/<int:character_id>/undo", methods=["POST"])
@role_required("organiser", "narrator")
def undo(character_id: int):
    """Undo a mistaken check-in for the open game session (the form's ``session``: the game session the
    desk showed). Refused (409, said where the desk looks) when he is not checked in, or his attendance
    experience was given already."""
    try:
        result = undo_check_in(get_chronicle(), g.user, character_id, session_number=request.form.get("session"))
    except ServiceError as exc:
        return _answer(None, exc)
    return _answer(result, None, undone=True)


@bp.route("/checkin/roster")
@role_required("organiser", "narrator")
def roster():
    """Tonight's roster: who is checked in, who is expected and not here yet, counts by clan, the desk's
    log. Polled by every desk: ``v`` the fingerprint the desk shows; unchanged, 204 and no body (two
    indexed queries)."""
    chronicle = get_chronicle()
    seen = request.args.get("v")
    session = open_game_session(chronicle)  # once a poll: the fingerprint, the roster and the page
    if seen and is_partial() and seen == roster_fingerprint(chronicle, session=session):
        return "", 204
    context = dict(chronicle=chronicle, roster=tonight_roster(chronicle, session=session), poll=ROSTER_POLL_SECONDS,
                   session=session)
    if is_partial():
        return render_template("checkin/_roster.html", **context)
    return render_template("checkin/roster.html", **context)


@bp.route("/checkin/award", methods=["POST"])
@role_required("organiser")
def award():
    """An organiser's "award now": the attendance experience of the open game session (or of game
    session ``session``) to everyone checked in who has not had it; back to the board's attendance
    panel, which says what was given (or why not)."""
    chronicle = get_chronicle()
    try:
        made = award_now(chronicle, g.user, request.form.get("session") or None)
    except ServiceError as exc:
        flash(gettext("Nothing was given: %(reason)s", reason=said_if_phrase(exc.message)), "attendance")
    else:
        flash(ngettext("Attendance experience given to %(num)s character.", "Attendance experience given to %(num)s characters.",
                       len(made))
              if made else gettext("Everyone checked in has had his attendance experience already."), "attendance")
    return redirect(url_for("between_sessions.page") + "#attendance", code=303)


# ---------------------------------------------------------------- hooks in other screens


class CardDoor:
    """What a narrator's card page shows of the door (:func:`door_for_card`): whether a game session
    is open, the character's check-in tonight, and why he cannot be checked in (``refusal``)."""

    def __init__(self, character: Character):
        chronicle = character.chronicle
        self.character = character
        self.session = open_game_session(chronicle)
        self.check_in = checked_in_at(chronicle, character) if self.session is not None else None
        decision = door_decision(character)
        self.refusal = decision.refusal
        self.marks = decision.marks


@bp.app_template_global("door_for_card")
def door_for_card(character: Character) -> CardDoor | None:
    """The card page's door block for ``character`` (``None`` when no game session is open: no block)."""
    door = CardDoor(character)
    return door if door.session is not None else None


@bp.app_template_global("attended")
def attended(character: Character):
    """The game sessions ``character`` attended (his page), newest first."""
    return sessions_attended(character)


@bp.app_template_global("board_attendance")
def board_attendance(chronicle):
    """The board's attendance panel: the last game sessions with who attended, and the setting's amount."""
    from larp.rules.experience import points_text

    amount = attendance_amount_of(chronicle)
    return {"sessions": recent_attendance(chronicle), "amount": points_text(amount) if amount else "",
            "session": open_game_session(chronicle)}


@bp.app_template_global("tonight_mark")
def tonight_mark(character) -> Markup:
    """The pickers' mark on a character not checked in tonight, once the door has checked anyone in
    (``here_tonight`` 0, :func:`larp.services.characters.find_characters`); nothing otherwise."""
    if getattr(character, "here_tonight", None) == 0:
        return Markup(' <span class="not-here">%s</span>') % gettext("not checked in")
    return Markup("")
