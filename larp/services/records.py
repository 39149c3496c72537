"""The record and the writes: a ruling with the characters it concerns, and what it changes.

Every change to a character goes through :func:`record_ruling`, which keeps
each character's changeable state as it was before the change, so that
the history can show it and an organiser can undo the last change. Then
:func:`apply_consequences` writes what the rules core computed (Traits lost,
Ability levels and Willpower spent through :func:`charge`, tracks through
:func:`store_track`), each with the version check kept as a safety net
(:class:`Conflict`, :func:`retrying`).

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
from typing import Any, Callable, Iterable, Mapping, TypeVar

from peewee import Expression, IntegrityError

from larp.db import as_id, db, for_update, is_postgres
from larp.models import AbilitySpend, Character, Chronicle, GameSession, Ruling, RulingCharacter, TraitLoss, User, utcnow
from larp.rules.challenge import POTENCE_TRAIT
from larp.rules.explain import Step
from larp.rules.health import HealthTrack
from larp.rules.rulings.consequences import Consequences
from larp.rules.torpor import TorporStart
from larp.services import ServiceError
from larp.services.torpor_records import FROM_TRACK, torpor_condition_changed
from larp.webhooks.outbox import announce_condition, announce_ruling

T = TypeVar("T")

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


class AlreadyRecorded(ServiceError):
    """The same form or API call came again: its one-time token is on ``ruling`` already (409)."""

    def __init__(self, ruling: Ruling):
        super().__init__(f"This was already recorded as ruling #{ruling.id} ({ruling.summary.rstrip('.')}). "
                         "Nothing was recorded twice.", field="request_token", status=409)
        self.ruling = ruling


class KeyReused(ServiceError):
    """The same ``Idempotency-Key`` came with another call (another body, endpoint or method) than
    the one it recorded as ``ruling`` (422): it is not a retry, and nothing was applied."""

    def __init__(self, ruling: Ruling):
        super().__init__(f"This Idempotency-Key was already used for another call (ruling #{ruling.id}); nothing "
                         "was recorded. Send a new key with each new call, and the same key only to retry the "
                         "very same call.", field="Idempotency-Key", status=422)
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
        since = f" (ruling #{latest.id}: {latest.summary})" if latest else ""
        super().__init__(f"{character.name} changed on another screen since this page was opened: "
                         f"{'; '.join(changes)}{since}. Here is how things stand now; do it again if it "
                         "still applies.", status=409)
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
    return query.order_by(Ruling.id).first()


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
    if current is not None and current.token and request_token == current.token and db.in_transaction():
        current.token_checked = True  # read once a request: the loaders' check_submission need not read it again


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
    ), token, call_hash)
    if first:
        current.ruling_id = record.id
        refuse_if_stale(participants, current.seen)  # after the token: a repeat is named as one
    rows = [dict(ruling=record, character=c, role=role, before=snapshot(c)) for c, role in participants]
    if rows:
        RulingCharacter.insert_many(rows).execute()
    announce_ruling(record, participants)  # issue 35: its webhook event, in this transaction
    return record


def _after_update(character: Character, values: Mapping[str, object]) -> Character:
    """The character as stored after an update of ``values`` that matched his version (no re-read:
    the update's own ``version + 1`` and the new values are applied to a copy)."""
    stored = type(character)(**dict(character.__data__))  # a new row object: the one loaded stays as it was
    stored.__rel__ = dict(character.__rel__)
    stored._dirty.clear()
    for name, value in values.items():
        if isinstance(value, Expression):
            continue
        setattr(stored, name, value)
    stored.version = character.version + 1
    return stored


def charge(character: Character, game_session: GameSession, record: Ruling, category: str,
           traits: Iterable[str] = (), abilities: Iterable[tuple[str, int]] = (), willpower: int = 0) -> Character:
    """Write what a ruling costs a character (inside the use case's transaction, which loaded the
    character locked, so the Traits and Ability levels its caller found left are still left:
    each is spent exactly once, on both engines).

    Traits lost and Ability levels expended are recorded against the game session
    (the sheet is not touched, so the next game session restores them), never the
    Intensity pseudo-Trait "Potence"; Willpower spent comes off the character with
    its version checked. One statement for the Traits, one for the Abilities, one
    for the Willpower, each only when there is something to write.

    Args:
        traits: the names of the Traits lost (one row per Trait, repeated for x2).
        abilities: (Ability name, levels expended) pairs.
        willpower: temporary Willpower Traits spent.

    Returns:
        The character as stored afterwards (its version moved on if Willpower was spent).

    Raises:
        Conflict: 409 when the character changed since it was read (the use case is retried).
    """
    losses = [dict(character=character, game_session=game_session, category=category, name=trait, count=1,
                   ruling=record) for trait in traits if trait != POTENCE_TRAIT]
    if losses:
        TraitLoss.insert_many(losses).execute()
    spends = [dict(character=character, game_session=game_session, name=name, levels=levels, ruling=record)
              for name, levels in abilities if levels]
    if spends:
        AbilitySpend.insert_many(spends).execute()
    if willpower:
        rows = (Character.update(willpower_current=Character.willpower_current - willpower,
                                 version=Character.version + 1, updated_at=utcnow())
                .where((Character.id == character.id) & (Character.version == character.version)
                       & (Character.willpower_current >= willpower))
                .execute())
        if rows != 1:
            raise Conflict(character.name)
        character = _after_update(character, {"willpower_current": character.willpower_current - willpower})
    return character


def apply_consequences(characters: Mapping[str, Character], game_session: GameSession, record: Ruling,
                       consequences: Consequences) -> dict[str, Character]:
    """Write everything a ruling changes, as the rules core computed it (call inside the use case's
    transaction, after :func:`record_ruling`): for each character, the Traits lost and Ability levels
    expended (:func:`charge`, by category), the Willpower spent, and the new track with its condition
    and stake, the blood gained or spent and the Blood Traits marked against an aggravated wound
    (:func:`store_state`, which stores the torpor the core worked out: cause, length, wake date).
    Nothing is decided here.

    Args:
        characters: the characters as loaded, by name (the consequences name them).

    Returns:
        The characters as stored afterwards, by name.

    Raises:
        Conflict: 409 when a character changed since it was read (the use case is retried).
    """
    out = dict(characters)
    for consequence in consequences.people:
        character = characters[consequence.name]
        categories = list(dict.fromkeys(cat for cat, _t in consequence.traits_lost)) or ["physical"]
        for index, category in enumerate(categories):
            first = index == 0
            character = charge(character, game_session, record, category, consequence.lost_in(category),
                               consequence.abilities if first else (), consequence.willpower if first else 0)
        if consequence.track is not None or consequence.blood or consequence.agg_marked is not None:
            blood = character.blood_current + consequence.blood if consequence.blood else None
            character = store_state(character, track=consequence.track, blood_current=blood, ruling=record,
                                    agg_blood_marked=consequence.agg_marked, torpor=consequence.torpor)
        out[consequence.name] = character
    return out


class Conflict(ServiceError):
    """The character changed between read and write (retried by :func:`retrying`)."""

    def __init__(self, name: str):
        super().__init__(f"{name} was changed by someone else a moment ago. Look again and retry.", status=409)


def store_track(character: Character, track: HealthTrack, *, blood_current: int | None = None,
                willpower_current: int | None = None, ruling: Ruling | None = None,
                torpor: TorporStart | None = FROM_TRACK) -> Character:
    """Write ``track`` (damage, condition, stake) and optionally blood and Willpower to
    ``character`` if nobody changed it since it was read. Call inside a transaction,
    after :func:`record_ruling`.

    A vampire whom the track newly puts in torpor gets a torpor record (cause "wounds", dated by
    the open game session, worked out by the rules core from the track: this write is no ruling of
    the core, whose rulings bring their torpor in their consequences, :func:`apply_consequences`,
    or as ``torpor``: the tabletop attack's), and one whom it takes out of torpor (Final Death) has
    his torpor ended. ``ruling`` is the ruling
    that made the change (default: the latest one touching the character).

    Raises:
        Conflict: 409 when the character changed since it was read.
    """
    return store_state(character, track=track, blood_current=blood_current,
                       willpower_current=willpower_current, ruling=ruling, torpor=torpor)


def store_state(character: Character, *, track: HealthTrack | None = None, blood_current: int | None = None,
                willpower_current: int | None = None, ruling: Ruling | None = None,
                agg_blood_marked: int | None = None, torpor: TorporStart | None = FROM_TRACK) -> Character:
    """Write a new track and/or blood pool and temporary Willpower to ``character``
    with the version check of :func:`store_track` (which see). ``torpor``: the torpor the
    rules core worked out for the ruling that put him in it (its cause, length and wake date,
    :class:`larp.rules.rulings.Consequence`), stored as it is (``None``: the core began none;
    left out, by a write that is no rules-core ruling, it is worked out from the track,
    :func:`larp.services.torpor_records.torpor_condition_changed`); ``agg_blood_marked``:
    the Blood Traits now marked against an aggravated wound.

    Raises:
        Conflict: 409 when the character changed since it was read.
    """
    values: dict[str, Any] = dict(version=Character.version + 1, updated_at=utcnow())
    if agg_blood_marked is not None:
        values["agg_blood_marked"] = agg_blood_marked
    if track is not None:
        values.update(damage_aggravated=track.aggravated, damage_lethal=track.lethal,
                      damage_bashing=track.bashing, condition=track.condition, staked=track.staked)
    if blood_current is not None:
        values["blood_current"] = blood_current
    if willpower_current is not None:
        values["willpower_current"] = willpower_current
    rows = (
        Character.update(**values)
        .where((Character.id == character.id) & (Character.version == character.version))
        .execute()
    )
    if rows != 1:
        raise Conflict(character.name)
    stored = _after_update(character, values)
    if track is not None and track.condition != character.condition and "torpor" in (track.condition,
                                                                                     character.condition):
        torpor_condition_changed(stored, character.condition, ruling, torpor)
    if track is not None and track.condition != character.condition:
        announce_condition(stored, character.condition, ruling)  # issue 35: torpor, Final Death
    return stored


def retrying(use_case: Callable[[], T], attempts: int = 5) -> T:
    """Run ``use_case`` (one transaction) again on fresh data when it hits a :class:`Conflict`."""
    for attempt in range(attempts):
        try:
            return use_case()
        except Conflict:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover
