"""Between-game actions on screen (issue 33 item 3): the player's section on his character's page
(write, edit before the cutoff, withdraw, read the organisers' answer) and the organisers' screen that
lists a game session's actions to answer.

Every rule is the service's (:mod:`larp.services.between_game_actions`); these views parse, ask
:func:`larp.services.players.own_character` whose character it is (404 for any other), and render.
htmx gets the part that changed (the player's section, one action on the organisers' screen); a plain
post is answered with a 303 to the page (or, refused, with the whole page and the reason beside the
form, what was typed kept). Narrators never see between-game actions: they are the player's and the
organisers' only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from larp.htmx import is_partial
from larp.i18n import N_
from larp.models import BetweenGameAction, Character, GameSession
from larp.services import ServiceError
from larp.services.between_game_actions import (ActionWindow, action_window, actions_of_character, answer_action,
                                                edit_action, find_action, session_actions,
                                                session_to_answer, sessions_with_actions, withdraw_action,
                                                write_action)
from larp.services.characters import get_character
from larp.services.chronicles import get_chronicle
from larp.services.players import own_character
from larp.web.auth import role_required

bp = Blueprint("between_game_actions", __name__)

#: Who may open a player's pages (as :data:`larp.web.players.ANY_ROLE`): each shows only his own characters.
PLAYER_ROLES = ("player", "narrator", "organiser")


@dataclass
class ActionsSection:
    """What the player's section shows for one character.

    Attributes:
        window: where actions stand (the coming game session, the limit, the cutoff).
        coming: his actions for the coming game session, withdrawn ones included (marked).
        earlier: his actions for earlier game sessions, with their answers.
        written: how many of ``coming`` count against the limit.
        error: a refusal to show beside the form; ``typed``: what he typed, kept; ``failed``: the action
            the refusal is about (``None``: the new action's form).
    """

    window: ActionWindow
    coming: list[BetweenGameAction] = field(default_factory=list)
    earlier: list[BetweenGameAction] = field(default_factory=list)
    written: int = 0
    error: ServiceError | None = None
    typed: str = ""
    failed: int | None = None

    @property
    def may_write(self) -> bool:
        """A new action may be written now (open, and under the limit)."""
        return self.window.open and self.written < self.window.per_session


@bp.app_template_global("between_game_actions_section")
def actions_section(character: Character, error: ServiceError | None = None, typed: str = "",
                    failed: int | None = None) -> ActionsSection:
    """The player's section of ``character`` (templates/players/_actions_section.html, included by his page)."""
    chronicle = get_chronicle()
    window = action_window(chronicle)
    mine = actions_of_character(character)
    coming = [a for a in mine if window.session is not None and a.game_session_id == window.session.id]
    earlier = [a for a in mine if a not in coming]
    return ActionsSection(window, coming, earlier, sum(1 for a in coming if a.withdrawn_at is None),
                          error, typed, failed)


@bp.app_template_global("between_game_actions_of")
def actions_of(character: Character) -> list[BetweenGameAction]:
    """Every between-game action of ``character``, newest game session first (his History page, organisers)."""
    return actions_of_character(character)


def _mine(character_id: int) -> Character:
    try:
        return own_character(g.user, character_id)
    except ServiceError as exc:
        abort(404, description=exc.message)


#: What a player's post did, said in his section (``done``); a plain post's 303 carries its key as ``?bga=``.
DONE_WORDS = {"written": N_("Between-game action written: the organisers will answer it."),
              "changed": N_("Between-game action changed."), "withdrawn": N_("Between-game action withdrawn.")}


@bp.app_template_global("between_game_actions_done")
def done_words() -> str:
    """The words of what the player's last plain post did (``?bga=`` of the page it was sent back to), or ""."""
    words = DONE_WORDS.get(request.args.get("bga", ""))
    return gettext(words) if words else ""


def _player_answer(character: Character, error: ServiceError | None = None, typed: str = "",
                   failed: int | None = None, done: str = ""):
    """After a player's post: his section (htmx), or a 303 to his page; refused, the page with the reason."""
    if is_partial():
        section = actions_section(character, error, typed, failed)
        return render_template("players/_actions_section.html", character=character, section=section,
                               done=gettext(DONE_WORDS[done]) if done in DONE_WORDS else "", chronicle=get_chronicle()), error.status if error else 200
    if error is None:  # back to his page, at the section, which says what was done (in view, unlike a flash)
        return redirect(url_for("players.character", character_id=character.id, bga=done) + "#between-game-actions",
                        code=303)
    return render_template("players/actions.html", character=character, chronicle=get_chronicle(),
                           section=actions_section(character, error, typed, failed)), error.status


@bp.route("/my/characters/<int:character_id>/actions", methods=["GET", "POST"])
@role_required(*PLAYER_ROLES)
def player_actions(character_id: int):
    """GET: the between-game actions of one of the player's characters, on a page of their own. POST
    (``text``): write a new one for the coming game session (limit and cutoff: chronicle settings
    ``between_game_actions_per_session``, ``between_game_actions_cutoff_hours``). Not his: 404."""
    character = _mine(character_id)
    if request.method == "GET":
        return render_template("players/actions.html", character=character, chronicle=get_chronicle(),
                               section=actions_section(character))
    text = request.form.get("text", "")
    try:
        write_action(get_chronicle(), character, g.user, text, request_token=request.form.get("request_token"))
    except ServiceError as exc:
        return _player_answer(character, exc, text)
    return _player_answer(character, done="written")


@bp.post("/my/characters/<int:character_id>/actions/<int:action_id>")
@role_required(*PLAYER_ROLES)
def player_edit(character_id: int, action_id: int):
    """Rewrite one of the player's between-game actions (``text``, ``version`` the page showed), before
    the cutoff and while unanswered. Not his: 404."""
    character = _mine(character_id)
    text = request.form.get("text", "")
    try:
        edit_action(get_chronicle(), character, action_id, text, request.form.get("version"))
    except ServiceError as exc:
        if exc.status == 404:
            abort(404, description=exc.message)
        return _player_answer(character, exc, text, action_id)
    return _player_answer(character, done="changed")


@bp.post("/my/characters/<int:character_id>/actions/<int:action_id>/withdraw")
@role_required(*PLAYER_ROLES)
def player_withdraw(character_id: int, action_id: int):
    """Withdraw one of the player's between-game actions (``version`` the page showed), before the cutoff
    and while unanswered: it stays on the record, marked withdrawn, and no longer counts. Not his: 404."""
    character = _mine(character_id)
    try:
        withdraw_action(get_chronicle(), character, action_id, request.form.get("version"))
    except ServiceError as exc:
        if exc.status == 404:
            abort(404, description=exc.message)
        return _player_answer(character, exc, "", action_id)
    return _player_answer(character, done="withdrawn")


def _organiser_page(session: GameSession | None, status: int = 200, error: ServiceError | None = None,
                    failed: int | None = None, typed: str = ""):
    chronicle = get_chronicle()
    return render_template(
        "between_game_actions/page.html", chronicle=chronicle, session=session,
        actions=session_actions(chronicle, session) if session is not None else [],
        sessions=sessions_with_actions(chronicle), window=action_window(chronicle), error=error, failed=failed,
        answered=request.args.get("answered", ""),
        typed=typed, characters=list(Character.select().where((Character.chronicle == chronicle)
                                                               & Character.retired_at.is_null()
                                                               & ~Character.scene_extra
                                                               & Character.condition.not_in(("final_death", "dead")))
                                        .order_by(Character.name)),
    ), status


@bp.route("/between-game-actions")
@role_required("organiser")
def organiser_list():
    """The organisers' screen: the between-game actions of a game session (``session``: its number;
    default the open one), those waiting for an answer first, each with its answer form (``answered``: the
    action whose answer was just saved, said there)."""
    chronicle = get_chronicle()
    try:
        session = session_to_answer(chronicle, request.args.get("session"))
    except ServiceError as exc:
        abort(404, description=exc.message)
    return _organiser_page(session)


@bp.post("/between-game-actions/<int:action_id>/answer")
@role_required("organiser")
def answer(action_id: int):
    """An organiser answers one between-game action (``answer``, ``version`` the page showed), privately:
    only the character's player and the organisers read it. htmx gets the action back; a plain post a 303
    to the screen, there."""
    chronicle = get_chronicle()
    try:
        action = find_action(chronicle, action_id)
    except ServiceError as exc:
        abort(404, description=exc.message)
    typed = request.form.get("answer", "")
    try:
        action = answer_action(chronicle, g.user, action_id, typed, request.form.get("version"))
    except ServiceError as exc:
        if is_partial():
            fresh = BetweenGameAction.get_by_id(action_id)
            return render_template("between_game_actions/_action.html", action=fresh, error=exc, typed=typed,
                                   failed=action_id, session=fresh.game_session), exc.status
        return _organiser_page(action.game_session, exc.status, exc, action_id, typed)
    if is_partial():  # the action, and the screen's count of those waiting (out of band)
        waiting = sum(1 for a in session_actions(chronicle, action.game_session) if a.state == "waiting")
        return render_template("between_game_actions/_action.html", action=action, error=None, typed="",
                               failed=None, session=action.game_session, done=True, waiting_now=waiting)
    # Back to the screen at the action, which says the answer was saved (in view, unlike a flash at the top).
    return redirect(url_for("between_game_actions.organiser_list", session=action.game_session.number,
                            answered=action.id) + f"#action-{action.id}", code=303)


@bp.post("/between-game-actions/late")
@role_required("organiser")
def organiser_write():
    """An organiser enters a between-game action a player handed in (``character``, ``text``) for the
    coming game session: the cutoff does not bind him, the per-session limit does."""
    chronicle = get_chronicle()
    text = request.form.get("text", "")
    try:
        character = get_character(chronicle, request.form.get("character"))
        action, _ = write_action(chronicle, character, g.user, text, organiser=True,
                                 request_token=request.form.get("request_token"))
    except ServiceError as exc:
        return _organiser_page(session_to_answer(chronicle), exc.status, exc, None, text)
    flash(gettext("Between-game action of %(name)s entered.", name=action.character.name))
    return redirect(url_for("between_game_actions.organiser_list", session=action.game_session.number)
                    + f"#action-{action.id}", code=303)
