"""The record and the writes: a ruling with the characters it concerns, and what it changes.

Every change to a character goes through :func:`record_ruling`, which keeps
each character's changeable state as it was before the change, so that
the history can show it and an organiser can undo the last change. Then
:func:`larp.services.consequences.apply_consequences` writes what the rules
core computed (Traits lost, Ability levels and Willpower spent, tracks), each
with the version check kept as a safety net.

Check-then-write is safe on both engines because a use case's transaction
locks the characters it loads (:func:`larp.services.characters.load_characters`
and ``get_character`` read them ``FOR NO KEY UPDATE`` on PostgreSQL inside a
transaction; SQLite's ``BEGIN IMMEDIATE`` already serialises writers): the
Traits, Ability levels and track a use case found are still there when it
writes them (:func:`lock_characters` takes the same locks up front, in id
order, for a use case that loads its characters one by one).

It also keeps the two promises a form or API call makes (issue 19, item 2;
issue 13), inside the use case's transaction:

- **once**: the form's one-time ``request_token`` (or the API call's
  ``Idempotency-Key``) is stored with the ruling under a unique index; a
  second ruling with the same token is refused with a 409 naming the first
  (:class:`AlreadyRecorded`), exactly, on both engines. A key belongs to the
  person who sent it in the chronicle he sent it in (issue 28 item 1): the
  index is on (chronicle, narrator, token), every lookup is made in that
  scope, so two chronicles' programs may number their keys alike and a
  refusal never names another chronicle's ruling. An API call's key is kept
  with the SHA-256 of the call (method, path, body): the same key sent with
  another call is a 422 (:class:`KeyReused`), not a retry;
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
from larp.rules.explain import N_, Phrase, Step, without_stop
from larp.services import ServiceError
from larp.webhooks.outbox import announce_ruling

#: The character fields a ruling may change (and an undo restores).
SNAPSHOT_FIELDS = (
    "damage_aggravated", "damage_lethal", "damage_bashing", "condition", "staked",
    "willpower_current", "willpower_permanent", "blood_current", "agg_blood_marked", "treated", "version",
)

SNAPSHOT_FIELDS += ("frenzy",)  # issue 30 item 8: the state a Virtue Test leaves him in

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
        ruling_id: the first ruling recorded for it (it carries the token).
        token_checked: whether a use case has looked for an earlier ruling with the token.
        user_id: who sent it (an API token's owner); his keys are his own (``None``: not known,
            as in a command or a test calling a service: then the chronicle's rulings are looked at).
        call_hash: the SHA-256 of the API call that carried an ``Idempotency-Key`` (``None`` for a
            form, whose token is drawn for that form alone).
    """

    token: str | None = None
    seen: dict[int, dict[str, str]] = field(default_factory=dict)
    ruling_id: int | None = None
    token_checked: bool = False
    user_id: int | None = None
    call_hash: str | None = None


_SUBMISSION: ContextVar[Submission | None] = ContextVar("larp_submission", default=None)


def one_time_token(token: str | None) -> str | None:
    """``token`` when it can be a one-time token (1 to 64 visible ASCII characters, as
    :func:`larp.web.submissions.form_promise` writes them), else ``None``: a form whose token
    is blank or mangled is handled as one that carries none, so every token stored can be
    looked up again (:func:`ruling_for_token`)."""
    if not token or len(token) > MAX_TOKEN_LENGTH or not all("!" <= ch <= "~" for ch in token):
        return None
    return token


def open_submission(token: str | None = None, seen: Mapping[int, Mapping[str, str]] | None = None, *,
                    user_id: int | None = None, call_hash: str | None = None) -> Token:
    """Declare the form or API call this thread now handles (see the module docstring and
    :class:`Submission` for the arguments); returns the handle :func:`close_submission` takes
    when the request ends."""
    return _SUBMISSION.set(Submission(token=one_time_token(token),
                                      seen={k: dict(v) for k, v in (seen or {}).items()},
                                      user_id=user_id, call_hash=call_hash))


def close_submission(handle: Token) -> None:
    """End what :func:`open_submission` declared."""
    _SUBMISSION.reset(handle)


def current_submission() -> Submission | None:
    """The form or API call being handled, if the web layer declared one."""
    return _SUBMISSION.get()


def summary_phrase(ruling: Ruling) -> str:
    """A recorded ruling's summary without its closing full stop, to be quoted inside another sentence: its phrase
    (said in the reader's language) when the core wrote one (``summary_said``), else the English it was recorded in."""
    if ruling.summary_said:
        return without_stop(Phrase(ruling.summary_said, ruling.summary))
    return ruling.summary.rstrip(".")


class AlreadyRecorded(ServiceError):
    """The same form or API call came again: its one-time token is on ``ruling`` already (409)."""

    def __init__(self, ruling: Ruling):
        super().__init__(Phrase.message(N_("This was already recorded as ruling #%(id)s (%(summary)s). Nothing was "
                                           "recorded twice."),
                                        id=str(ruling.id), summary=summary_phrase(ruling)),
                         field="request_token", status=409)
        self.ruling = ruling


class KeyReused(ServiceError):
    """The same ``Idempotency-Key`` came with another call (another body, endpoint or method) than
    the one it recorded as ``ruling`` (422): it is not a retry, and nothing was applied."""

    def __init__(self, ruling: Ruling):
        super().__init__(Phrase.message(N_("This Idempotency-Key was already used for another call (ruling "
                                           "#%(id)s); nothing was recorded. Send a new key with each new call, and "
                                           "the same key only to retry the very same call."),
                                        id=str(ruling.id)), field="Idempotency-Key", status=422)
        self.ruling = ruling


def repeat_refusal(earlier: Ruling, current: Submission | None = None) -> ServiceError:
    """The refusal of a form or call whose one-time token recorded ``earlier`` already: a 409 naming it
    (:class:`AlreadyRecorded`), or a 422 (:class:`KeyReused`) when the API call is not the one that
    recorded it."""
    current = current if current is not None else current_submission()
    if current is not None and current.call_hash and earlier.request_hash \
            and earlier.request_hash != current.call_hash:
        return KeyReused(earlier)
    return AlreadyRecorded(earlier)


class StaleForm(ServiceError):
    """The page a form came from showed something about ``character`` that has changed since (409)."""

    def __init__(self, character: Character, changes: list[str]):
        latest = (Ruling.select().join(RulingCharacter).where(RulingCharacter.character == character)
                  .order_by(Ruling.id.desc()).first())
        since = Phrase.message(N_(" (ruling #%(id)s: %(summary)s)"), id=str(latest.id),
                               summary=summary_phrase(latest)) if latest else ""
        super().__init__(Phrase.message(N_("%(name)s changed on another screen since this page was opened: "
                                           "%(names)s%(since)s. Here is how things stand now; do it again if it "
                                           "still applies."),
                                        name=character.name, names='; '.join(changes), since=since), status=409)
        self.character = character


def ruling_in(chronicle, ruling_id: int | str | None) -> Ruling | None:
    """Ruling ``ruling_id`` when it is one of ``chronicle``'s, else ``None`` (a screen showing
    "the ruling just recorded" never shows another chronicle's, issue 22)."""
    from larp.db import as_id

    wanted = as_id(ruling_id)
    if wanted is None:
        return None
    return Ruling.get_or_none((Ruling.id == wanted) & (Ruling.chronicle == chronicle))


def _scoped_chronicle_id() -> int | None:
    from larp.services.chronicles import current_chronicle, scoped_chronicle_id

    return scoped_chronicle_id() or current_chronicle().id


def ruling_for_token(token: str | None, chronicle: Chronicle | int | None = None,
                     user_id: int | None = None) -> Ruling | None:
    """The ruling recorded with the one-time token ``token`` by user ``user_id`` in ``chronicle``,
    or ``None`` when none was (yet). A token is looked up only where it belongs (issue 28 item 1):
    another chronicle's rulings, or another person's, are never found.

    This is how a screen that lost the reply to a form learns whether it was recorded.

    Args:
        chronicle: the chronicle (or its id); default, the one this request works in.
        user_id: who sent the token; default, the sender the web layer declared
            (:func:`open_submission`). When nobody is known (a command), the chronicle's rulings.
    """
    query = _token_query(token, chronicle, user_id)
    return query.first() if query is not None else None


def _token_query(token: str | None, chronicle: Chronicle | int | None = None, user_id: int | None = None):
    """The query of :func:`ruling_for_token` (the earliest first), or ``None`` when ``token`` is none."""
    token = one_time_token(token)
    if token is None:
        return None  # no token is ever stored like this (and PostgreSQL takes no NUL in a query)
    if user_id is None:
        current = current_submission()
        user_id = current.user_id if current is not None else None
    chronicle_id = as_id(chronicle.id if isinstance(chronicle, Chronicle) else chronicle) \
        if chronicle is not None else _scoped_chronicle_id()
    query = Ruling.select().where((Ruling.request_token == token) & (Ruling.chronicle == chronicle_id))
    if user_id is not None:
        query = query.where(Ruling.narrator == user_id)
    return query.order_by(Ruling.id)


def refuse_if_recorded(request_token: str | None = None) -> None:
    """Refuse a form or API call whose one-time token was already recorded (a read: the
    exact refusal is :func:`record_ruling`'s, under the unique index). Called first in a use
    case's transaction, so a repeat is named as one before any other check can refuse it
    (a repeated "create Selene" is "already recorded", not "that name is taken").

    Args:
        request_token: the token given; default, the one the web layer declared
            (:func:`open_submission`: a form's ``request_token``, an ``Idempotency-Key``).

    Raises:
        AlreadyRecorded: 409 naming the ruling that used the token.
        KeyReused: 422 when an API call's key recorded another call.
    """
    current = current_submission()
    if request_token is None and current is not None:
        if current.ruling_id is not None:
            return  # this very request recorded it (a use case writing several rulings)
        request_token = current.token
    earlier = ruling_for_token(request_token)
    if earlier is not None:
        raise repeat_refusal(earlier, current)
    _checked(request_token, current)


def _checked(request_token: str | None, current: Submission | None) -> None:
    if current is not None and current.token and request_token == current.token and db.in_transaction():
        current.token_checked = True  # read once a request: the loaders' check_submission need not read it again


def game_session_unless_recorded(chronicle: Chronicle, request_token: str | None = None) -> GameSession | None:
    """:func:`refuse_if_recorded`, then the chronicle's open game session (``None`` when none is open), in ONE
    statement when a game session is open (issue 29 item 6: at most 12 statements a tap): the game session's
    row carries whether the token recorded a ruling already (a subquery), and only then is that ruling read,
    to be named in the refusal. Called first in a tap's transaction, as :func:`refuse_if_recorded` is.

    Raises:
        AlreadyRecorded: 409 naming the ruling that used the token.
        KeyReused: 422 when an API call's key recorded another call.
    """
    current = current_submission()
    token = request_token
    if token is None and current is not None:
        token = None if current.ruling_id is not None else current.token
    earlier = _token_query(token, chronicle)
    query = GameSession.select().where((GameSession.chronicle == chronicle) & (GameSession.closed_at.is_null()))
    if earlier is not None:
        query = query.select_extend(earlier.select(Ruling.id).limit(1).alias("earlier_ruling"))
    game_session = query.order_by(GameSession.number.desc()).first()
    if earlier is not None and (game_session is None or game_session.earlier_ruling is not None):
        refuse_if_recorded(request_token)  # reads the ruling to name it (a repeat), or checks without a game session
    elif earlier is not None:
        _checked(token, current)
    return game_session


def lock_characters(character_ids: Iterable[Any]) -> None:
    """Lock the characters a use case may change, first thing in its transaction, in id order:
    for a use case that then loads them one by one (the loaders lock what they load, but in the
    order asked), so two use cases never wait on each other in a circle. ``SELECT ... FOR NO KEY
    UPDATE`` on PostgreSQL (one statement); nothing on SQLite, whose ``BEGIN IMMEDIATE``
    transaction already serialises every writer.

    ``character_ids`` may hold anything a form sent: what is not an id is skipped (the use
    case refuses it when it loads the character).
    """
    if not is_postgres():
        return
    ids = sorted({cid for cid in (as_id(value) for value in character_ids) if cid is not None})
    if ids:
        list(for_update(Character.select(Character.id).where(Character.id.in_(ids)).order_by(Character.id)))


def check_submission(characters: Iterable[Character]) -> None:
    """What the loaders call on the characters a use case loads inside its transaction (after
    the lock): before any rule is applied, the same form or call coming again is refused (one
    read by token, once per request), and so is a form whose page showed one of them otherwise
    than he now stands (:func:`refuse_if_stale`). Nothing to do outside a transaction, without
    a declared form, or once the form's ruling is recorded. The exact refusal of a repeat is
    :func:`record_ruling`'s.

    Raises:
        AlreadyRecorded: 409, that form was recorded already.
        KeyReused: 422, an API call's key recorded another call.
        StaleForm: 409, the form relied on something that has changed since.
    """
    current = current_submission()
    if current is None or current.ruling_id is not None or not db.in_transaction():
        return
    if current.token and not current.token_checked:
        earlier = ruling_for_token(current.token)
        if earlier is not None:
            raise repeat_refusal(earlier, current)
        current.token_checked = True
    if current.seen:
        refuse_if_stale([(character, "") for character in characters], current.seen)


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
                raise repeat_refusal(earlier, current)
            raise StaleForm(character, changes)


def _already_recorded(current: Submission) -> bool:
    # A use case that records several rulings puts the token on the first one only (and checks
    # the form once). A retried use case (rolled back) has lost that ruling: its retry's first
    # ruling carries the token again.
    if current.ruling_id is None:
        return False
    query = Ruling.select().where(Ruling.id == current.ruling_id)
    if current.token:
        query = query.where(Ruling.request_token == current.token)
    return query.exists()


def _create_ruling(values: dict[str, Any], token: str | None, call_hash: str | None = None) -> Ruling:
    if not token:
        return Ruling.create(**values)
    # Check-then-write made exact by the unique index on (chronicle, narrator, request_token): the
    # INSERT itself is the check. On PostgreSQL a second transaction with the same token waits on
    # the first's index entry and fails once it commits; the savepoint keeps that failure from
    # ending the transaction, so the refusal can name the earlier ruling. SQLite serialises
    # writers anyway.
    try:
        with db.atomic():
            return Ruling.create(request_token=token, request_hash=call_hash, **values)
    except IntegrityError:
        narrator = values.get("narrator")
        earlier = ruling_for_token(token, values["chronicle"], narrator.id if narrator is not None else None)
        if earlier is None:
            raise
        raise repeat_refusal(earlier) from None


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
            token by the same ``narrator`` in ``chronicle`` is refused.

    Also refuses the ruling when the form's page showed one of the ``participants``
    otherwise than he now stands (:func:`refuse_if_stale`).

    Raises:
        AlreadyRecorded: 409 when the token was already recorded (naming that ruling).
        KeyReused: 422 when an API call's key recorded another call.
        StaleForm: 409 when the form relied on something that has changed since.
    """
    participants = list(participants)
    current = current_submission()
    token = one_time_token(request_token)
    first = current is not None and not _already_recorded(current)
    call_hash = None
    if current is not None and current.user_id is None and narrator is not None:
        current.user_id = narrator.id  # the sender, for the lookups of the rest of the request
    if current is not None and current.token:
        token = current.token if first else None
        call_hash = current.call_hash if first else None
    step_dicts = [s.to_record() if isinstance(s, Step) else dict(s) for s in steps]
    record = _create_ruling(dict(
        chronicle=chronicle,
        game_session=game_session,
        narrator=narrator,
        kind=kind,
        created_at=utcnow(),
        summary=summary,
        summary_said=summary.data() if isinstance(summary, Phrase) else None,
        inputs=inputs or {},
        outcome=outcome or {},
        steps=step_dicts,
    ), token, call_hash)
    if first:
        current.ruling_id = record.id
        refuse_if_stale(participants, current.seen)  # after the token: a repeat is named as one
    rows = [dict(ruling=record, character=c, role=role, before=snapshot(c)) for c, role in participants]
    if rows:
        RulingCharacter.insert_many(rows).execute()
    announce_ruling(record, participants)  # issue 35: its webhook event, in this transaction
    return record
