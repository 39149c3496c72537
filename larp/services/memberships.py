"""Who works in which chronicle (issue 22): memberships, administrators, and the chronicles' keeping.

A user sees and acts in exactly the chronicles he is a member of, with the role his
:class:`~larp.models.Membership` gives there (organiser or narrator). An administrator
(``User.is_admin``) creates, renames, archives and deletes chronicles and appoints their
organisers; that gives him no role inside a chronicle he is not a member of.
"""

from __future__ import annotations

from datetime import date

import peewee

from larp.db import db, lock_name
from larp.models import Chronicle, Membership, User, utcnow
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError, refuse_direction_controls
from larp.services.chronicles import lock_chronicle, open_first_game_session

#: A role's rank: a token or an appointment may not be above what its maker holds. A player
#: (issue 33) ranks below a narrator: every organiser's or narrator's page refuses him.
ROLE_RANK = {"player": 0, "narrator": 1, "organiser": 2}


def role_in(user: User | None, chronicle: Chronicle | int | None) -> str | None:
    """``user``'s role in ``chronicle`` ("organiser", "narrator" or "player"), or ``None`` when he is not a
    member (or the chronicle is archived: its members are refused until it is restored)."""
    if user is None or chronicle is None or not getattr(user, "id", None):
        return None
    row = (Membership.select(Membership.role).join(Chronicle)
           .where((Membership.user == user.id) & (Membership.chronicle == chronicle)
                  & Chronicle.archived_at.is_null()).first())
    return row.role if row else None


def staff_role(role: str | None) -> str:
    """``role`` when it is a role of the people who run a chronicle (organiser or narrator): what the
    Users page and an administrator's appointment give. A player's role is given by linking him to a
    character (:mod:`larp.services.players`), never there.

    Raises:
        ServiceError: 422 (field ``role``) for any other role, "player" included.
    """
    if role not in User.STAFF_ROLES:
        raise ServiceError(Phrase.message(N_("The role is organiser or narrator.")), field="role")
    return role


def highest_role(user: User) -> str:
    """``user``'s highest role in any of his chronicles (his account's role when he is in none):
    what he may hand an API token at most. In each chronicle a request's role is also capped by
    his role there (:mod:`larp.web.scope`)."""
    roles = [m.role for m in Membership.select(Membership.role).where(Membership.user == user.id)] or [user.role]
    return max(roles, key=lambda r: ROLE_RANK.get(r, 0))


def chronicles_of(user: User | None) -> list[tuple[Chronicle, str]]:
    """The chronicles ``user`` works in, with his role in each, by name (archived ones left out)."""
    if user is None or not getattr(user, "id", None):
        return []
    rows = (Membership.select(Membership, Chronicle).join(Chronicle)
            .where((Membership.user == user.id) & Chronicle.archived_at.is_null())
            .order_by(Chronicle.name))
    return [(row.chronicle, row.role) for row in rows]


def default_chronicle(user: User, mine: list[tuple[Chronicle, str]] | None = None) -> Chronicle | None:
    """The chronicle a path that names none opens for ``user``: the one he last worked in while he
    is still a member of it, else his first by name, else ``None`` (he is in no chronicle).

    Args:
        mine: his chronicles with his roles, as :func:`chronicles_of` gives them, when the caller
            has read them already (the request's scope reads them once).
    """
    mine = chronicles_of(user) if mine is None else mine
    for chronicle, _ in mine:
        if chronicle.id == user.current_chronicle_id:
            return chronicle
    return mine[0][0] if mine else None


def remember_chronicle(user: User, chronicle: Chronicle) -> None:
    """Note ``chronicle`` as the one ``user`` works in now (the switcher, or a page of it opened)."""
    if user.current_chronicle_id != chronicle.id:
        try:
            with db.atomic():
                User.update(current_chronicle=chronicle.id).where(User.id == user.id).execute()
        except peewee.DatabaseError:
            # A convenience, not a change: on a database that cannot be written (read-only, disk
            # full) reading goes on, and the short paths keep opening the chronicle chosen before.
            return
        user.current_chronicle_id = chronicle.id


def add_member(chronicle: Chronicle, user: User, role: str) -> Membership:
    """Make ``user`` a member of ``chronicle`` with ``role``, or change his role there.

    Check-then-write made safe by the unique (user, chronicle) index: two appointments at once
    end in one row (the second updates it).

    Raises:
        ServiceError: 422 (field ``role``) for a role that is not organiser, narrator or player.
    """
    if role not in User.ROLES:
        raise ServiceError(Phrase.message(N_("The role is organiser, narrator or player.")), field="role")
    with db.atomic():
        lock_name(f"membership {user.id} {chronicle.id}")
        row = Membership.get_or_none((Membership.user == user.id) & (Membership.chronicle == chronicle.id))
        if row is None:
            return Membership.create(user=user.id, chronicle=chronicle.id, role=role)
        if row.role != role:
            Membership.update(role=role).where(Membership.id == row.id).execute()
            row.role = role
        return row


def set_role(chronicle: Chronicle, user: User, role: str) -> None:
    """Change member ``user``'s role in ``chronicle`` (one transaction).

    Raises:
        ServiceError: 422 (field ``role``) an unknown role; 409 when it would leave the
            chronicle without an organiser.
    """
    if role not in User.ROLES:
        raise ServiceError(Phrase.message(N_("The role is organiser, narrator or player.")), field="role")
    with db.atomic():
        lock_name(f"organisers {chronicle.id}")  # the last-organiser check, then the write
        if role != "organiser" and role_in(user, chronicle) == "organiser" and _organiser_count(chronicle) <= 1:
            raise ServiceError(Phrase.message(N_("%(display_name)s is the last organiser of %(name)s: appoint "
                                                 "another one first."),
                                              display_name=user.display_name, name=chronicle.name), status=409)
        Membership.update(role=role).where((Membership.user == user.id) & (Membership.chronicle == chronicle.id)).execute()


def remove_member(chronicle: Chronicle, user: User) -> None:
    """End ``user``'s membership of ``chronicle`` (his account and other chronicles stay).

    Raises:
        ServiceError: 409 when he is its last organiser (a chronicle keeps one who can manage it).
    """
    with db.atomic():
        lock_name(f"organisers {chronicle.id}")
        if role_in(user, chronicle) == "organiser" and _organiser_count(chronicle) <= 1:
            raise ServiceError(Phrase.message(N_("%(display_name)s is the last organiser of %(name)s: appoint "
                                                 "another one first."),
                                              display_name=user.display_name, name=chronicle.name), status=409)
        Membership.delete().where((Membership.user == user.id) & (Membership.chronicle == chronicle.id)).execute()


def manages(actor: User, target: User) -> bool:
    """Whether ``actor`` may act on ``target``'s account itself (a login link, deactivation):
    he is an administrator, or an organiser of every chronicle ``target`` is in. An organiser of
    one chronicle must not take over someone who is also an organiser elsewhere."""
    if actor.is_admin or actor.id == target.id:
        return True
    theirs = {m.chronicle_id for m in Membership.select(Membership.chronicle).where(Membership.user == target.id)}
    mine = {m.chronicle_id for m in Membership.select(Membership.chronicle)
            .where((Membership.user == actor.id) & (Membership.role == "organiser"))}
    return bool(theirs) and theirs <= mine


def get_member(chronicle: Chronicle, user_id: int | str | None) -> tuple[User, str]:
    """The account ``user_id`` and its role in ``chronicle``.

    Raises:
        ServiceError: 404 when there is no such account in ``chronicle`` (another chronicle's
            people are not listed, nor found, here).
    """
    from larp.db import as_id

    row = (Membership.select(Membership, User).join(User)
           .where((Membership.chronicle == chronicle.id) & (Membership.user == as_id(user_id))).first())
    if row is None:
        raise ServiceError(Phrase.message(N_("There is no such account in this chronicle.")), status=404)
    return row.user, row.role


def _organiser_count(chronicle: Chronicle) -> int:
    return Membership.select().where((Membership.chronicle == chronicle.id) & (Membership.role == "organiser")).count()


def members_of(chronicle: Chronicle) -> list[tuple[User, str]]:
    """The users of ``chronicle`` with their roles there, by user name."""
    rows = (Membership.select(Membership, User).join(User)
            .where(Membership.chronicle == chronicle.id).order_by(User.username))
    return [(row.user, row.role) for row in rows]


def members_by_chronicle() -> dict[int, list[tuple[User, str]]]:
    """Every chronicle's users with their roles there, by user name, keyed by chronicle id, in one
    query (the administrator's page of all chronicles); a chronicle with no one is absent."""
    people: dict[int, list[tuple[User, str]]] = {}
    for row in Membership.select(Membership, User).join(User).order_by(User.username):
        people.setdefault(row.chronicle_id, []).append((row.user, row.role))
    return people


def _checked_name(name: str, keep: Chronicle | None = None) -> str:
    text = (name or "").strip()
    if not text:
        raise ServiceError(Phrase.message(N_("Give the chronicle a name.")), field="name")
    if len(text) > 120:
        raise ServiceError(Phrase.message(N_("A chronicle's name has at most 120 characters.")), field="name")
    refuse_direction_controls(text, Phrase.message(N_("Chronicle name")))
    clash = Chronicle.select().where(Chronicle.name == text)
    if keep is not None:
        clash = clash.where(Chronicle.id != keep.id)
    if clash.exists():
        raise ServiceError(Phrase.message(N_("Another chronicle is called “%(words)s”."),
                                          words=text), field="name", status=409)
    return text


def create_chronicle(name: str, on: date, organiser: User | None = None) -> Chronicle:
    """A new chronicle called ``name`` with game session 1 open, dated ``on`` (an administrator's
    "New chronicle"), and ``organiser`` (if given) its first organiser.

    Raises:
        ServiceError: 422 an empty or too long name (field ``name``); 409 a name another chronicle has.
    """
    with db.atomic():
        lock_name("chronicle names")  # check-then-write on the name: two at once get a 409, not a 500
        chronicle = Chronicle.create(name=_checked_name(name))
        open_first_game_session(chronicle, on)
        if organiser is not None:
            Membership.create(user=organiser.id, chronicle=chronicle.id, role="organiser")
        return chronicle


def rename_chronicle(chronicle: Chronicle, name: str) -> Chronicle:
    """Rename ``chronicle`` (an administrator).

    Raises:
        ServiceError: 422 an empty or too long name; 409 a name another chronicle has.
    """
    with db.atomic():
        lock_name("chronicle names")
        text = _checked_name(name, keep=chronicle)
        Chronicle.update(name=text, needs_name=False).where(Chronicle.id == chronicle.id).execute()
        return Chronicle.get_by_id(chronicle.id)


def set_archived(chronicle: Chronicle, archived: bool) -> Chronicle:
    """Archive ``chronicle`` (kept whole, off every switcher, refused to its members) or restore it."""
    with db.atomic():
        Chronicle.update(archived_at=utcnow() if archived else None).where(Chronicle.id == chronicle.id).execute()
        return Chronicle.get_by_id(chronicle.id)


def delete_chronicle(chronicle: Chronicle, typed_name: str) -> None:
    """Delete ``chronicle`` and everything in it (characters, rulings, game sessions, settings,
    memberships), for good. The accounts of its people stay.

    Raises:
        ServiceError: 422 (field ``confirm_name``) unless ``typed_name`` is the chronicle's name exactly.
    """
    if (typed_name or "").strip() != chronicle.name:
        raise ServiceError(Phrase.message(N_("Type the chronicle's name, %(name)s, to delete it."),
                                          name=chronicle.name), field="confirm_name")
    with db.atomic():
        lock_chronicle(chronicle).delete_instance(recursive=True)


def make_admin(user: User, admin: bool = True) -> None:
    """Make ``user`` an administrator of the install (or no longer one).

    Raises:
        ServiceError: 409 when that would leave the install without an administrator.
    """
    with db.atomic():
        lock_name("administrators")
        if not admin and User.select().where(User.is_admin & (User.id != user.id) & User.active).count() == 0:
            raise ServiceError(Phrase.message(N_("The install keeps at least one administrator.")), status=409)
        User.update(is_admin=admin).where(User.id == user.id).execute()
        user.is_admin = admin


__all__ = ["ROLE_RANK", "staff_role", "add_member", "chronicles_of", "create_chronicle", "default_chronicle", "delete_chronicle",
           "get_member", "highest_role", "make_admin", "manages", "members_by_chronicle", "members_of", "remember_chronicle", "remove_member", "rename_chronicle",
           "role_in", "set_archived", "set_role"]
