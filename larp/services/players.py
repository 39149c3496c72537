"""Players in the app (issue 33 item 1): which account plays which character, and what a player may
read of it.

A player is a member of a chronicle with the role "player" (:class:`larp.models.Membership`, rank 0:
every organiser's and narrator's page refuses him). What he may see is decided here, once: a
character linked to him (:class:`larp.models.players.CharacterPlayer`) in the request's chronicle,
and nothing else. Every player's page and API call asks :func:`own_character`; a character that is
not his answers exactly as one that does not exist (404, nothing said about which).
"""

from __future__ import annotations

from typing import Any

from larp.db import as_id, db, lock_name
from larp.models import Character, Chronicle, Membership, User
from larp.models.players import CharacterPlayer
from larp.services import ServiceError
from larp.services.chronicles import current_chronicle

#: The one answer for a character that is not the player's: unknown, another's, or another chronicle's.
NOT_YOURS = "There is no such character among yours."


def _not_found() -> ServiceError:
    return ServiceError(NOT_YOURS, field="character", status=404)


def own_character(user: User | None, character_id: Any) -> Character:
    """The character ``character_id`` when ``user`` plays it (a :class:`CharacterPlayer` link) in the
    current chronicle (:func:`larp.services.chronicles.current_chronicle`).

    Raises:
        ServiceError: 404 (field ``character``) when there is no user, the id is not a number, there
            is no such character, it is another chronicle's, or it is not linked to ``user``: one
            message for all, so the answer says nothing about whether it exists.
    """
    cid = as_id(character_id)
    if user is None or not getattr(user, "id", None) or not cid:
        raise _not_found()
    try:
        chronicle = current_chronicle()
    except ServiceError:
        raise _not_found() from None
    character = (Character.select().join(CharacterPlayer, on=(CharacterPlayer.character == Character.id))
                 .where((Character.id == cid) & (Character.chronicle == chronicle.id)
                        & (CharacterPlayer.user == user.id)).first())
    if character is None:
        raise _not_found()
    return character


def characters_of_player(user: User | None) -> list[Character]:
    """The characters ``user`` plays in the current chronicle, by name (retired ones included, last:
    a player keeps reading his old character's sheet and history). Empty when he plays none or the
    request is in no chronicle."""
    if user is None or not getattr(user, "id", None):
        return []
    try:
        chronicle = current_chronicle()
    except ServiceError:
        return []
    return list(Character.select().join(CharacterPlayer, on=(CharacterPlayer.character == Character.id))
                .where((CharacterPlayer.user == user.id) & (Character.chronicle == chronicle.id))
                .order_by(Character.retired_at.is_null(False), Character.name, Character.id))


def players_of(character: Character) -> list[User]:
    """The accounts that play ``character``, by user name."""
    return list(User.select().join(CharacterPlayer, on=(CharacterPlayer.user == User.id))
                .where(CharacterPlayer.character == character.id).order_by(User.username))


def link_player(chronicle: Chronicle, character: Character, user: User, by: User | None = None,
                how: str = "link") -> CharacterPlayer:
    """Make ``user`` a player of ``character`` (of ``chronicle``), in one transaction: a member of
    the chronicle with the role "player" unless he is already a member (an organiser or narrator who
    also plays keeps his role), and the link. Linking him again changes nothing.

    Check-then-write made safe by the unique (user, character) and (user, chronicle) indexes, taken
    under a named lock (``lock_name``) so that two links at once end in one row each.

    Raises:
        ServiceError: 404 when ``character`` is not of ``chronicle``; 409 when ``user`` is deactivated.
    """
    if character.chronicle_id != chronicle.id:
        raise ServiceError("There is no such character in this chronicle.", field="character", status=404)
    if not user.active:
        raise ServiceError(f"The account {user.username} is deactivated: reactivate it first (Users page).",
                           field="username", status=409)
    with db.atomic():
        lock_name(f"player {user.id} {chronicle.id}")
        if not Membership.select().where((Membership.user == user.id) & (Membership.chronicle == chronicle.id)).exists():
            Membership.create(user=user.id, chronicle=chronicle.id, role="player")
        row = CharacterPlayer.get_or_none((CharacterPlayer.user == user.id) & (CharacterPlayer.character == character.id))
        if row is None:
            row = CharacterPlayer.create(user=user.id, character=character.id, linked_by=by.id if by else None,
                                         how=how if how in CharacterPlayer.HOW else "link")
        return row


#: The services of the players' requests (issue 33 items 2 and 3), each read by its module name when
#: present: ``pending_count(chronicle) -> int`` (what waits for an organiser) and
#: ``player_notices(character) -> list[tuple[str, str]]`` (his requests' and answers' states, as
#: (text, state), state one of :data:`NOTICE_STATES`).
REQUEST_SERVICES = {"spend_requests": "larp.services.spend_requests",
                    "between_game_actions": "larp.services.between_game_actions"}

#: The states a player's notice may be in: waiting for an organiser, or answered one way or another.
NOTICE_STATES = ("waiting", "approved", "refused", "changes", "answered")


def _request_services():
    import importlib

    for kind, name in REQUEST_SERVICES.items():
        try:
            yield kind, importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue


def pending_counts(chronicle: Chronicle) -> dict[str, int]:
    """What waits for the organisers of ``chronicle`` (issue 33 item 5): a count per kind of
    player's request ("spend_requests", "between_game_actions"), shown in the top bar. A kind whose
    service is not there (or has no ``pending_count``) counts nothing."""
    counts = {}
    for kind, module in _request_services():
        count = getattr(module, "pending_count", None)
        if count is not None:
            counts[kind] = int(count(chronicle))
    return counts


def player_notices(character: Character) -> list[tuple[str, str]]:
    """The states of ``character``'s requests and their answers (issue 33 item 5), newest first as
    each service gives them: (text, state) with state one of :data:`NOTICE_STATES`. Shown as a badge
    on the player's page and on his card page."""
    notices: list[tuple[str, str]] = []
    for _, module in _request_services():
        of = getattr(module, "player_notices", None)
        if of is not None:
            notices.extend((str(text), state if state in NOTICE_STATES else "answered") for text, state in of(character))
    return notices


__all__ = ["NOTICE_STATES", "NOT_YOURS", "REQUEST_SERVICES", "characters_of_player", "link_player", "own_character",
           "pending_counts", "player_notices", "players_of"]
