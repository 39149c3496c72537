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

from flask_babel import gettext

from larp.db import as_id, db, lock_name
from larp.i18n import N_, format_long_day
from larp.models import Character, Chronicle, Membership, User
from larp.models.players import CharacterPlayer
from larp.services import ServiceError
from larp.services.chronicles import current_chronicle

#: The one answer for a character that is not the player's: unknown, another's, or another chronicle's.
NOT_YOURS = N_("There is no such character among yours.")


def _not_found() -> ServiceError:
    return ServiceError(gettext(NOT_YOURS), field="character", status=404)


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
        raise ServiceError(gettext("There is no such character in this chronicle."), field="character", status=404)
    if not user.active:
        raise ServiceError(gettext("The account %(user)s is deactivated: reactivate it first (Users page).",
                                   user=user.username), field="username", status=409)
    with db.atomic():
        lock_name(f"player {user.id} {chronicle.id}")
        if not Membership.select().where((Membership.user == user.id) & (Membership.chronicle == chronicle.id)).exists():
            Membership.create(user=user.id, chronicle=chronicle.id, role="player")
        row = CharacterPlayer.get_or_none((CharacterPlayer.user == user.id) & (CharacterPlayer.character == character.id))
        if row is None:
            row = CharacterPlayer.create(user=user.id, character=character.id, linked_by=by.id if by else None,
                                         how=how if how in CharacterPlayer.HOW else "link")
        return row


def unlink_player(chronicle: Chronicle, character: Character, user_id: Any) -> User:
    """``user_id`` no longer plays ``character`` (of ``chronicle``); a player who then plays no
    character of the chronicle leaves it (his "player" membership ends: an organiser's or narrator's
    stays). One transaction.

    Raises:
        ServiceError: 404 when that account does not play ``character``.
    """
    uid = as_id(user_id)
    with db.atomic():
        row = (CharacterPlayer.select(CharacterPlayer, User).join(User, on=(CharacterPlayer.user == User.id))
               .where((CharacterPlayer.character == character.id) & (CharacterPlayer.user == uid)).first()
               if uid and character.chronicle_id == chronicle.id else None)
        if row is None:
            raise ServiceError(gettext("That account does not play this character."), field="user", status=404)
        lock_name(f"player {uid} {chronicle.id}")
        row.delete_instance()
        still = (CharacterPlayer.select().join(Character).where((CharacterPlayer.user == uid)
                                                                & (Character.chronicle == chronicle.id)).exists())
        if not still:
            Membership.delete().where((Membership.user == uid) & (Membership.chronicle == chronicle.id)
                                      & (Membership.role == "player")).execute()
        return row.user


def link_by_name(chronicle: Chronicle, character: Character, username: str, by: User | None) -> User:
    """Link the existing account ``username`` to ``character`` (the character page's "Link an account").

    Raises:
        ServiceError: 404 (field ``username``) when there is no such account; 409 a deactivated one.
    """
    name = (username or "").strip().lower()[:60]
    user = User.get_or_none(User.username == name) if name else None
    if user is None:
        raise ServiceError(gettext("There is no account called “%(name)s” on this server: invite the player instead.",
                                   name=name) if name else gettext("Type the player's user name."),
                           field="username", status=404)
    link_player(chronicle, character, user, by=by, how="link")
    return user


def invite_player(chronicle: Chronicle, character: Character, by: User | None, username: str, display_name: str,
                  hours: int = 24) -> tuple[User, str]:
    """A new player's account ``username`` linked to ``character``, and a one-time login link for him
    (:func:`larp.services.accounts.create_login_link`, valid ``hours`` hours): he opens it, is logged
    in and sets his password on the Account page. One transaction: no account without its link.

    Returns:
        The account and the raw token of its login link (shown once, never stored).

    Raises:
        ServiceError: 422 a malformed user name; 409 a name already taken (link that account instead).
    """
    from larp.services.accounts import create_login_link, create_user

    with db.atomic():
        name = (username or "").strip().lower()
        if name and User.select().where(User.username == name).exists():
            raise ServiceError(gettext("The user name %(name)s is taken: if it is this player's, link the account "
                                       "instead.", name=name), field="username", status=409)
        user = create_user(username, display_name, "player", None, chronicle=chronicle)
        link_player(chronicle, character, user, by=by, how="invite")
        return user, create_login_link(user, hours=hours)


#: The letters of a claim code: no 0/O, 1/I/L or U, so that it is read aloud and typed without doubt.
CLAIM_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
#: Characters in a claim code (30**10, about 49 bits: with its expiry, not guessable).
CLAIM_LENGTH = 10
#: How long a claim code works, in hours.
CLAIM_HOURS = 24


def _claim_hash(code: str) -> str:
    import hashlib

    return hashlib.sha256(normalise_claim(code).encode("ascii", "ignore")).hexdigest()


def normalise_claim(code: str | None) -> str:
    """A typed claim code, upper-cased, with spaces and dashes removed (``abcde-fghjk`` → ``ABCDEFGHJK``)."""
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())[:40]


def make_claim_code(chronicle: Chronicle, character: Character, by: User | None, hours: int = CLAIM_HOURS) -> str:
    """A fresh one-time claim code for ``character`` (shown once, as ``ABCDE-FGHJK``; only its SHA-256
    is stored), valid ``hours`` hours. Codes made before for him stay valid until used or expired.

    Raises:
        ServiceError: 404 when ``character`` is not of ``chronicle``; 409 a retired character (his card opens nothing).
    """
    import secrets
    from datetime import timedelta

    from larp.models import utcnow
    from larp.models.players import ClaimCode

    if character.chronicle_id != chronicle.id:
        raise ServiceError(gettext("There is no such character in this chronicle."), field="character", status=404)
    if character.retired_at is not None or not character.card_token:
        raise ServiceError(gettext("%(name)s has no card to claim from (retired, or the card was revoked): link the "
                                   "player's account instead.", name=character.name), status=409)
    code = "".join(secrets.choice(CLAIM_ALPHABET) for _ in range(CLAIM_LENGTH))
    with db.atomic():
        ClaimCode.create(character=character.id, code_hash=_claim_hash(code), made_by=by.id if by else None,
                         expires_at=utcnow() + timedelta(hours=hours))
    return f"{code[:5]}-{code[5:]}"


#: The one answer to a claim code that does not work (unknown, used, expired, another character's).
BAD_CLAIM = N_("This claim code does not work for this character: it was mistyped, used already or has expired. Ask an organiser for a new one.")


def claim_character(token: str, code: str, user: User | None = None, *, username: str = "", display_name: str = "",
                    password: str | None = None) -> tuple[Character, User]:
    """Claim the character whose card carries ``token`` with the one-time ``code`` an organiser showed
    (issue 33 item 1): ``user`` (logged in) becomes his player; without ``user``, a new player's
    account (``username``, ``display_name``, ``password``) is made for it. One transaction.

    Check-then-write made safe by the update itself: the code is marked used only where it is still
    unused (``used_at IS NULL``), so of two claims at once with one code, one links and the other is refused.

    Raises:
        ServiceError: 404 the card opens nothing; 422 (field ``code``) :data:`BAD_CLAIM`; the account's
            own refusals (422 a bad user name or short password, 409 a taken name) when one is made.
    """
    from larp.models import utcnow
    from larp.models.players import ClaimCode
    from larp.services.accounts import create_user
    from larp.services.cards import character_for_card

    character = character_for_card(token)
    now = utcnow()
    with db.atomic():
        row = ClaimCode.get_or_none((ClaimCode.code_hash == _claim_hash(code)) & (ClaimCode.character == character.id))
        if row is None or row.used_at is not None or row.expires_at < now or not normalise_claim(code):
            raise ServiceError(gettext(BAD_CLAIM), field="code", status=422)
        if user is None:
            user = create_user(username, display_name, "player", password or "", chronicle=character.chronicle)
        taken = (ClaimCode.update(used_at=now, used_by=user.id)
                 .where((ClaimCode.id == row.id) & ClaimCode.used_at.is_null()).execute())
        if taken != 1:
            raise ServiceError(gettext(BAD_CLAIM), field="code", status=422)
        link_player(character.chronicle, character, user, how="claim")
        return character, user


def self_check_in_state(character: Character):
    """Whether ``character``'s player may check him in from his page now (issue 33 item 4), and how he
    stands: ``(allowed, game_session, check_in)``. ``allowed`` needs the chronicle setting
    ``players_check_in_themselves``, an open game session and its day (today in the chronicle's time zone);
    ``check_in`` is his row for it (or ``None``)."""
    from larp.models import CheckIn
    from larp.services.chronicles import chronicle_settings, open_game_session

    chronicle = character.chronicle
    session = open_game_session(chronicle)
    row = (CheckIn.get_or_none((CheckIn.game_session == session.id) & (CheckIn.character == character.id))
           if session is not None else None)
    allowed = (bool(chronicle_settings(chronicle)["players_check_in_themselves"]) and session is not None
               and _door_open(session))
    return allowed, session, row


def _door_open(session) -> bool:
    """Whether a player may check himself in for ``session`` today: only on its day, in the chronicle's time
    zone (closing a game session opens the next at once, two weeks ahead; the door is not open all that time)."""
    from larp.services.between_game_actions import local_today

    return session.date == local_today(session.chronicle)


def self_check_in(user: User, character_id: Any, session_number: Any = None):
    """The player ``user`` checks his own character ``character_id`` in for the open game session
    (issue 33 item 4), through the door's own service (:func:`larp.services.checkins.check_in`, how
    "self"): the same rules, locks and record, in one transaction. Checked in already: said, nothing recorded.

    Raises:
        ServiceError: 404 not his character (:func:`own_character`); 403 the chronicle does not let players
            check in themselves (setting ``players_check_in_themselves``, off by default); 409 not on the
            open game session's day (chronicle's time zone); the door's own
            refusals (409 no game session open, or another than his page showed; 409 a character the door
            refuses).
    """
    from larp.services.checkins import check_in
    from larp.services.chronicles import chronicle_settings

    from larp.services.chronicles import open_game_session

    character = own_character(user, character_id)
    if not chronicle_settings(character.chronicle)["players_check_in_themselves"]:
        raise ServiceError(gettext("This chronicle checks characters in at the door: ask there."), status=403)
    session = open_game_session(character.chronicle)
    if session is not None and not _door_open(session):
        raise ServiceError(gettext("Checking in from your page opens on %(day)s, the day of game session %(number)s.",
                                   day=format_long_day(session.date), number=session.number),
                           field="session", status=409)
    return check_in(character.chronicle, user, character.id, how="self", session_number=session_number)


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
        if name in _ABSENT:
            continue
        try:
            yield kind, importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            _ABSENT.add(name)  # looked for once a process: the top bar asks on every organiser's page


_ABSENT: set[str] = set()


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


__all__ = ["BAD_CLAIM", "NOTICE_STATES", "NOT_YOURS", "REQUEST_SERVICES", "characters_of_player", "claim_character",
           "invite_player", "link_by_name", "link_player", "make_claim_code", "normalise_claim", "own_character",
           "pending_counts", "player_notices", "players_of", "self_check_in", "self_check_in_state", "unlink_player"]
