"""The record: writing a ruling with the characters it concerns.

Every change to a character goes through :func:`record_ruling`, which keeps
each character's changeable state as it was before the change, so that
the history can show it and an organiser can undo the last change.

It also keeps the two promises a form or API call makes (issue 19, item 2;
issue 13), inside the use case's transaction:

- **once**: the form's one-time ``request_token`` (or the API call's
  ``Idempotency-Key``) is stored with the ruling under a unique index; a
  second ruling with the same token is refused with a 409 naming the first
  (:class:`AlreadyRecorded`), exactly, on both engines;
- **as seen**: a form that relied on something about a character (the
  condition it showed, a stake, a field of the sheet) is refused as stale
  when that has changed since its page was drawn (:class:`StaleForm`).
  Anything else another narrator did meanwhile (damage, healing) is not a
  reason to refuse: the change applies to the character as he now stands.

The web layer declares both for the request (:func:`open_submission`), so
every service that records a ruling keeps them without passing them along.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from peewee import IntegrityError

from larp.db import as_id, db, for_update, is_postgres
from larp.models import Character, Chronicle, GameSession, Ruling, RulingCharacter, User, utcnow
from larp.rules.explain import Step
from larp.services import ServiceError

#: The character fields a ruling may change (and an undo restores).
SNAPSHOT_FIELDS = (
    "damage_aggravated", "damage_lethal", "damage_bashing", "condition", "staked",
    "willpower_current", "willpower_permanent", "blood_current", "version",
)

#: The longest one-time token stored (``Ruling.request_token``).
MAX_TOKEN_LENGTH = 64


def snapshot(character: Character) -> dict[str, Any]:
    """The changeable state of ``character`` as plain data."""
    return {name: getattr(character, name) for name in SNAPSHOT_FIELDS}


@dataclass
class Submission:
    """The form or API call being handled, as the web layer declared it.

    Attributes:
        token: its one-time token (``None``: it carries none).
        seen: character id to what its page showed of him, field name to the value as
            text (``{"condition": "active", "staked": "0"}``); only these are checked.
        ruling_id: the ruling the token went on, once recorded in this transaction.
    """

    token: str | None = None
    seen: dict[int, dict[str, str]] = field(default_factory=dict)
    ruling_id: int | None = None


_SUBMISSION: ContextVar[Submission | None] = ContextVar("larp_submission", default=None)


def open_submission(token: str | None = None, seen: Mapping[int, Mapping[str, str]] | None = None) -> Token:
    """Declare the form or API call this thread now handles (see the module docstring);
    returns the handle :func:`close_submission` takes when the request ends."""
    return _SUBMISSION.set(Submission(token=(token or "")[:MAX_TOKEN_LENGTH] or None,
                                      seen={k: dict(v) for k, v in (seen or {}).items()}))


def close_submission(handle: Token) -> None:
    """End what :func:`open_submission` declared."""
    _SUBMISSION.reset(handle)


def current_submission() -> Submission | None:
    """The form or API call being handled, if the web layer declared one."""
    return _SUBMISSION.get()


class AlreadyRecorded(ServiceError):
    """The same form or API call came again: its one-time token is on ``ruling`` already (409)."""

    def __init__(self, ruling: Ruling):
        super().__init__(f"This was already recorded as ruling #{ruling.id} ({ruling.summary}). "
                         "Nothing was recorded twice.", field="request_token", status=409)
        self.ruling = ruling


class StaleForm(ServiceError):
    """The page a form came from showed something about ``character`` that has changed since (409)."""

    def __init__(self, character: Character, changes: list[str]):
        latest = (Ruling.select().join(RulingCharacter).where(RulingCharacter.character == character)
                  .order_by(Ruling.id.desc()).first())
        since = f" (ruling #{latest.id}: {latest.summary})" if latest else ""
        super().__init__(f"{character.name} changed on another screen since this page was opened: "
                         f"{'; '.join(changes)}{since}. Here is how things stand now; do it again if it "
                         "still applies.", status=409)
        self.character = character


def ruling_for_token(token: str | None) -> Ruling | None:
    """The ruling recorded with the one-time token ``token``, or ``None`` when none was (yet).

    This is how a screen that lost the reply to a form learns whether it was recorded.
    """
    token = (token or "").strip()
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return Ruling.get_or_none(Ruling.request_token == token)


def refuse_if_recorded(request_token: str | None) -> None:
    """Refuse a form or API call whose one-time token was already recorded (a read: the
    exact refusal is :func:`record_ruling`'s, under the unique index).

    Raises:
        AlreadyRecorded: 409 naming the ruling that used the token.
    """
    earlier = ruling_for_token(request_token)
    if earlier is not None:
        raise AlreadyRecorded(earlier)


def lock_characters(character_ids: Iterable[Any]) -> None:
    """Lock the characters a use case may change, first thing in its transaction, so that what
    it reads of them (Traits left, Ability levels left, the track, blood, Willpower) is still
    true when it writes: ``SELECT ... FOR NO KEY UPDATE`` in id order on PostgreSQL (one statement;
    the same order everywhere, so two use cases never wait on each other in a circle), nothing
    on SQLite, whose ``BEGIN IMMEDIATE`` transaction already serialises every writer.

    Then, before any rule is applied, the same form or call coming again is refused, and so
    is a form whose page showed one of them otherwise than he now stands
    (:func:`refuse_if_stale`; on SQLite this reads the character, only for a form that said
    what its page showed). The exact refusal of a repeat is still :func:`record_ruling`'s.

    ``character_ids`` may hold anything a form sent: what is not an id is skipped (the use
    case refuses it when it loads the character).

    Raises:
        StaleForm: 409, the form relied on something that has changed since.
        AlreadyRecorded: 409, that form was recorded already (it is named as such rather than stale).
    """
    ids = sorted({cid for cid in (as_id(value) for value in character_ids) if cid is not None})
    current = current_submission()
    seen = current.seen if current is not None else {}
    if is_postgres() and ids:
        rows = list(for_update(Character.select().where(Character.id.in_(ids)).order_by(Character.id)))
    elif any(cid in seen for cid in ids):
        rows = list(Character.select().where(Character.id.in_([cid for cid in ids if cid in seen])))
    else:
        rows = []
    if current is not None and current.token:
        earlier = ruling_for_token(current.token)  # named before any rule refuses the repeat
        if earlier is not None and earlier.id != current.ruling_id:
            raise AlreadyRecorded(earlier)
    if seen:
        refuse_if_stale([(row, "") for row in rows], seen)


def _shown(value: Any) -> str:
    """A character's field as a page writes it into a form (``seen_<field>``)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return "" if value is None else str(value)


_CONDITION_WORDS = {"active": "now active", "unconscious": "now unconscious", "torpor": "now in torpor",
                    "final_death": "has met Final Death", "dead": "now dead"}


def _change_words(character: Character, name: str) -> str:
    value = getattr(character, name)
    if name == "condition":
        return _CONDITION_WORDS.get(value, f"now {value}")
    if name == "staked":
        return "now staked" if value else "no longer staked"
    if name == "weapon":
        return f"now carries {value or 'bare hands'}"
    return f"{name.replace('_', ' ')} is now {_shown(value) or 'empty'}"


def refuse_if_stale(participants: Iterable[tuple[Character, str]], seen: Mapping[int, Mapping[str, str]]) -> None:
    """Refuse a form whose page showed a character otherwise than he now stands, in one of the
    fields it relied on (``seen``: character id to field name to the value shown).

    Raises:
        StaleForm: 409 naming the character, what changed and the ruling that changed it.
        AlreadyRecorded: 409 instead, when this very form was recorded already (what changed
            him may be that ruling).
    """
    for character, _role in participants:
        shown = seen.get(character.id)
        if not shown:
            continue
        changes = [_change_words(character, name) for name, value in shown.items()
                   if name in Character._meta.fields and _shown(getattr(character, name)) != value]
        if changes:
            current = current_submission()
            earlier = ruling_for_token(current.token) if current is not None else None
            if earlier is not None and earlier.id != current.ruling_id:
                raise AlreadyRecorded(earlier)
            raise StaleForm(character, changes)


def _token_carried(current: Submission) -> bool:
    # A use case that records several rulings puts the token on the first one only. A retried
    # use case (rolled back) has lost that ruling, so the token goes on the retry's first.
    return current.ruling_id is not None and Ruling.select().where(
        (Ruling.id == current.ruling_id) & (Ruling.request_token == current.token)).exists()


def _create_ruling(values: dict[str, Any], token: str | None) -> Ruling:
    if not token:
        return Ruling.create(**values)
    # Check-then-write made exact by the unique index on request_token: the INSERT itself is the
    # check. On PostgreSQL a second transaction with the same token waits on the first's index
    # entry and fails once it commits; the savepoint keeps that failure from ending the
    # transaction, so the refusal can name the earlier ruling. SQLite serialises writers anyway.
    try:
        with db.atomic():
            return Ruling.create(request_token=token, **values)
    except IntegrityError:
        earlier = ruling_for_token(token)
        if earlier is None:
            raise
        raise AlreadyRecorded(earlier) from None


def record_ruling(
    chronicle: Chronicle,
    narrator: User | None,
    kind: str,
    summary: str,
    steps: Iterable[Step | dict],
    participants: Iterable[tuple[Character, str]],
    *,
    game_session: GameSession | None = None,
    inputs: dict[str, Any] | None = None,
    outcome: dict[str, Any] | None = None,
    request_token: str | None = None,
) -> Ruling:
    """Write a ruling and link its characters (call inside the use case's transaction,
    before changing the characters, so their ``before`` state is the real one).

    Args:
        kind: what happened ("challenge", "damage", "healing", ...).
        summary: one sentence for lists.
        steps: the explanation (Steps or their dicts).
        participants: (character as loaded before the change, role) pairs.
        request_token: the one-time token of the form or API call (default: the one the
            web layer declared, :func:`open_submission`); a second ruling with the same
            token is refused.

    Also refuses the ruling when the form's page showed one of the ``participants``
    otherwise than he now stands (:func:`refuse_if_stale`).

    Raises:
        AlreadyRecorded: 409 when the token was already recorded (naming that ruling).
        StaleForm: 409 when the form relied on something that has changed since.
    """
    participants = list(participants)
    current = current_submission()
    token = (request_token or "")[:MAX_TOKEN_LENGTH] or None
    if current is not None and current.token:
        token = None if _token_carried(current) else current.token
    step_dicts = [s.to_dict() if isinstance(s, Step) else dict(s) for s in steps]
    record = _create_ruling(dict(
        chronicle=chronicle,
        game_session=game_session,
        narrator=narrator,
        kind=kind,
        created_at=utcnow(),
        summary=summary,
        inputs=inputs or {},
        outcome=outcome or {},
        steps=step_dicts,
    ), token)
    if current is not None:
        if token and token == current.token:
            current.ruling_id = record.id
        refuse_if_stale(participants, current.seen)  # after the token: a repeat is named as one
    rows = [dict(ruling=record, character=c, role=role, before=snapshot(c)) for c, role in participants]
    if rows:
        RulingCharacter.insert_many(rows).execute()
    return record


def charge(character: Character, game_session: GameSession, record: Ruling, category: str,
           traits: Iterable[str] = (), abilities: Iterable[tuple[str, int]] = (), willpower: int = 0) -> Character:
    """Write what a ruling costs a character (inside the use case's transaction, which locked
    the character first with :func:`lock_characters`, so the Traits and Ability levels its
    caller found left are still left: each is spent exactly once, on both engines).

    Traits lost and Ability levels expended are recorded against the game session
    (the sheet is not touched, so the next game session restores them), never the
    Intensity pseudo-Trait "Potence"; Willpower spent comes off the character with
    its version checked.

    Args:
        traits: the names of the Traits lost (one row per Trait, repeated for x2).
        abilities: (Ability name, levels expended) pairs.
        willpower: temporary Willpower Traits spent.

    Returns:
        The character as stored afterwards (its version moved on if Willpower was spent).

    Raises:
        Conflict: 409 when the character changed since it was read (the use case is retried).
    """
    from larp.models import AbilitySpend, TraitLoss
    from larp.rules.challenge import POTENCE_TRAIT
    from larp.services.health import Conflict

    for trait in traits:
        if trait != POTENCE_TRAIT:
            TraitLoss.create(character=character, game_session=game_session, category=category, name=trait,
                             count=1, ruling=record)
    for name, levels in abilities:
        AbilitySpend.create(character=character, game_session=game_session, name=name, levels=levels, ruling=record)
    if willpower:
        rows = (Character.update(willpower_current=Character.willpower_current - willpower,
                                 version=Character.version + 1, updated_at=utcnow())
                .where((Character.id == character.id) & (Character.version == character.version)
                       & (Character.willpower_current >= willpower))
                .execute())
        if rows != 1:
            raise Conflict(character.name)
        character = Character.get_by_id(character.id)
    return character
