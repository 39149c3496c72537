"""The player's own pages (issue 33): ``/my``, his characters, and each one's page.

A player logs in like anyone else; his role in the chronicle is "player" (every organiser's and
narrator's page refuses him). These pages show him what is his and nothing else: each asks
:func:`larp.services.players.own_character`, which answers 404 for a character that is not his.
"""

from __future__ import annotations

from flask import Blueprint, g

from larp.htmx import render
from larp.services import ServiceError
from larp.services.characters import character_state
from larp.services.chronicles import chronicle_settings, get_chronicle, open_game_session
from larp.services.experience import experience_log
from larp.services.players import characters_of_player, own_character
from larp.web.auth import role_required

bp = Blueprint("players", __name__)

#: Who may open the player's pages: a player, and an organiser or narrator who also plays a character
#: of the chronicle (each page shows only the characters linked to the account, whatever its role).
ANY_ROLE = ("player", "narrator", "organiser")


@bp.route("/my")
@role_required(*ANY_ROLE)
def home():
    """The player's home: his characters in this chronicle, each a link to its page."""
    return render("players/home.html", "players/home.html", chronicle=get_chronicle(),
                  characters=characters_of_player(g.user))


@bp.route("/my/characters/<int:character_id>")
@role_required(*ANY_ROLE)
def character(character_id: int):
    """One of the player's characters: his sheet as it stands tonight (health track, blood,
    Willpower, Traits), his experience log and totals (LotNR Experience, :mod:`larp.services.experience`).

    Not his (unknown, another player's, another chronicle's): 404, the same answer for all.
    """
    try:
        mine = own_character(g.user, character_id)
    except ServiceError as exc:
        from flask import abort

        abort(404, description=exc.message)
    chronicle = get_chronicle()
    state = character_state(mine, open_game_session(chronicle), chronicle_settings(chronicle))
    return render("players/character.html", "players/character.html", chronicle=chronicle, character=mine,
                  state=state, log=experience_log(mine))
