"""The outbox (issue 35): events written with what caused them, and their deliveries claimed one at a time.

**Writing.** :func:`emit` is the one function that puts an event into the outbox; the
``announce_*`` functions build each kind's payload and call it. It runs inside the caller's
transaction (a savepoint), so the event exists exactly when what caused it does. A chronicle
without a webhook that wants the event costs one indexed read and writes nothing.

**Order per webhook.** A webhook's deliveries are sent in the order of ``(seq, id)``, one at a
time: only the oldest pending delivery (its *head*) may be claimed, and the next one only once the
head is delivered, failed for good or dropped.

- SQLite: every writer commits one at a time (``BEGIN IMMEDIATE``), so ids are given in commit
  order; ``seq`` is 0.
- PostgreSQL: two transactions may take ids in one order and commit in the other, so a worker
  could see delivery 11 before delivery 10 is committed. ``seq`` is the emitting transaction's
  id (``txid_current()``), and a head is sent only when its ``seq`` is below the oldest
  transaction still running (``txid_snapshot_xmin(txid_current_snapshot())``): every transaction
  that could still add an earlier delivery has then ended. No lock is taken in the narrator's
  transaction. A long transaction (a big import) delays deliveries until it ends; it loses none.

**One worker per delivery.** A worker claims the head with one conditional ``UPDATE`` (``state =
'pending'`` and no live lease): on SQLite the write lock makes it atomic; on PostgreSQL the second of
two concurrent ``UPDATE``\\ s of the row waits for the first and then re-checks the ``WHERE`` on the
row as the first left it (READ COMMITTED), finds the lease taken and changes nothing. Each sees
``rowcount`` 1 or 0: exactly one wins, on both engines, without ``SELECT ... FOR UPDATE`` (which
SQLite lacks). A claim carries a lease (:attr:`Policy.lease`, longer than a delivery can take): if
its process dies, another worker takes the delivery over once the lease has run out, and sends it
again (at least once: the first may have arrived, its answer lost). A result is written only by
the worker that still holds the claim.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Mapping

from peewee import JOIN, fn

from larp.db import db, is_postgres
from larp.models import Character, Chronicle, GameSession, Ruling, RulingCharacter, User, Webhook, WebhookDelivery, WebhookEvent, utcnow
from larp.webhooks.kinds import ADJUDICATIONS, EVENTS, sent_at, shaped
from larp.webhooks.messages import (DELIVERED, FAILED, RATE_LIMITED, STOPPED, Outcome, absolute_links, backoff,
                                    build_request, sends_as)

PENDING, DROPPED = "pending", "dropped"

#: Events wake this process's worker after their commit (it polls for other processes' events).
_WAKE: set[threading.Event] = set()


def wake_workers() -> None:
    """Wake this process's delivery workers now (an event was committed)."""
    for event in list(_WAKE):
        event.set()


def register_waker(event: threading.Event) -> None:
    """Have :func:`wake_workers` set ``event`` (a worker's)."""
    _WAKE.add(event)


def unregister_waker(event: threading.Event) -> None:
    """Stop waking ``event``."""
    _WAKE.discard(event)


def iso(moment: datetime | None) -> str | None:
    """A stored (naive UTC) time as the API writes it: ISO 8601 to the second, with a Z."""
    return moment.isoformat(timespec="seconds") + "Z" if moment else None


def ruling_path(chronicle_id: int, ruling_id: int) -> str:
    """The path of a ruling's page that opens it in its own chronicle (``/chronicles/<id>/rulings/<id>``)."""
    return f"/chronicles/{chronicle_id}/rulings/{ruling_id}"


def ruling_json(ruling: Ruling, characters: Iterable[tuple[int, str, str]]) -> dict[str, Any]:
    """``ruling`` as ``GET /api/v1/rulings/{id}`` shapes it (with inputs, outcome and steps), its
    ``url`` the path of its page in its chronicle. ``characters``: (id, name, role) of each."""
    return {"id": ruling.id, "kind": ruling.kind, "summary": ruling.summary, "created_at": iso(ruling.created_at),
            "narrator": ruling.narrator_label,
            "game_session": ruling.game_session.number if ruling.game_session_id else None,
            "undone_at": iso(ruling.undone_at),
            "characters": [{"id": cid, "name": name, "role": role} for cid, name, role in characters],
            "url": ruling_path(ruling.chronicle_id, ruling.id),
            "inputs": ruling.inputs or {}, "outcome": ruling.outcome or {}, "steps": list(ruling.steps or [])}


def stored_ruling_json(ruling: Ruling) -> dict[str, Any]:
    """:func:`ruling_json` of a stored ruling, its characters read from the record."""
    links = (RulingCharacter.select(RulingCharacter.role, Character.id, Character.name).join(Character)
             .where(RulingCharacter.ruling == ruling).order_by(RulingCharacter.id))
    return ruling_json(ruling, [(link.character.id, link.character.name, link.role) for link in links])


def ruling_link(ruling: Ruling | None) -> dict[str, Any] | None:
    """The short form of the ruling behind an event: id, summary and its page's path (``None``: none)."""
    if ruling is None:
        return None
    return {"id": ruling.id, "summary": ruling.summary, "url": ruling_path(ruling.chronicle_id, ruling.id)}


def _subscribers(chronicle_id: int, kind: str) -> list[Webhook]:
    hooks = Webhook.select(Webhook.id, Webhook.events, Webhook.privacy).where(
        (Webhook.chronicle == chronicle_id) & (Webhook.enabled == True))  # noqa: E712
    return [hook for hook in hooks if kind in (hook.events or []) and sent_at(kind, hook.privacy)]


def emit(chronicle_id: int, kind: str, data: Mapping[str, Any] | Callable[[], Mapping[str, Any]], *,
         ruling: Ruling | None = None, occurred_at: datetime | None = None) -> WebhookEvent | None:
    """Put one event into the outbox for every enabled webhook of the chronicle that wants ``kind``
    (the one function that does; call it inside the transaction of what caused the event).

    Args:
        chronicle_id: the chronicle the event belongs to.
        kind: a key of :data:`larp.webhooks.kinds.EVENTS`.
        data: the event's fields at the staff level (:mod:`larp.webhooks.kinds`), or a function
            giving them (called only when some webhook wants the event, so a chronicle without
            webhooks pays nothing to build them). Links are paths of this app (``/chronicles/…``).
        ruling: the ruling the event reports (its JSON is taken again when the event is first
            sent: see :class:`larp.models.WebhookEvent`).
        occurred_at: when it happened (default: now, UTC).

    Returns:
        The event written, or ``None`` when no webhook wants it.

    Raises:
        ValueError: an unknown ``kind``.
    """
    if kind not in EVENTS:
        raise ValueError(f"Unknown webhook event {kind!r}")
    hooks = _subscribers(chronicle_id, kind)
    if not hooks:
        return None
    fields = dict(data() if callable(data) else data)
    moment = occurred_at or utcnow()
    event_id = str(uuid.uuid4())
    payload = {"event_id": event_id, "event": kind, "occurred_at": iso(moment), "chronicle": {"id": chronicle_id},
               "privacy": "staff", "test": False, **fields}
    with db.atomic():
        event = WebhookEvent.create(chronicle=chronicle_id, kind=kind, uuid=event_id, payload=payload, ruling=ruling,
                                    sealed=ruling is None, created_at=moment)
        seq = db.execute_sql("SELECT txid_current()").fetchone()[0] if is_postgres() else 0
        WebhookDelivery.insert_many([dict(webhook=hook.id, event=event.id, seq=seq, next_attempt_at=moment,
                                          created_at=moment) for hook in hooks]).execute()
    db.after_commit(wake_workers)
    return event


def announce_ruling(record: Ruling, participants: Iterable[tuple[Character, str]]) -> WebhookEvent | None:
    """The event of a ruling just recorded (:func:`larp.services.records.record_ruling`): "ruling
    recorded" for an adjudication (:data:`larp.webhooks.kinds.ADJUDICATIONS`), "ruling undone" for
    an undo; nothing for any other kind."""
    if record.kind == "undo":
        kind = "ruling_undone"
    elif record.kind in ADJUDICATIONS:
        kind = "ruling_recorded"
    else:
        return None
    people = [(character.id, character.name, role) for character, role in participants]

    def data() -> dict[str, Any]:
        fields: dict[str, Any] = {"ruling": ruling_json(record, people)}
        if kind == "ruling_undone":
            undone = Ruling.get_or_none(Ruling.id == (record.outcome or {}).get("undone"))
            fields["undone_ruling"] = ({"id": undone.id, "kind": undone.kind, "summary": undone.summary,
                                        "url": ruling_path(undone.chronicle_id, undone.id)} if undone else None)
        return fields

    return emit(record.chronicle_id, kind, data, ruling=record, occurred_at=record.created_at)


def announce_condition(character: Character, before: str, ruling: Ruling | None) -> WebhookEvent | None:
    """The event of a character's condition changed by a ruling (:func:`larp.services.consequences.store_state`):
    "torpor" when he falls into torpor, "final_death" when he meets Final Death (a vampire) or
    dies (a mortal or ghoul); nothing otherwise. Call after the torpor record is kept in step."""
    if character.condition == before or character.condition not in ("torpor", "final_death", "dead"):
        return None
    session = ruling.game_session.number if ruling is not None and ruling.game_session_id else None
    who = {"id": character.id, "name": character.name}
    if character.condition == "torpor":
        def torpor() -> dict[str, Any]:
            from larp.services.torpor_records import open_torpor

            row = open_torpor(character)
            return {"character": who, "cause": row.cause if row else None, "length": row.length if row else None,
                    "wake_on": row.wake_on.isoformat() if row and row.wake_on else None,
                    "wake_session": row.wake_session if row else None, "game_session": session,
                    "ruling": ruling_link(ruling)}

        return emit(character.chronicle_id, "torpor", torpor)
    return emit(character.chronicle_id, "final_death", lambda: {
        "character": who, "condition": character.condition, "game_session": session, "ruling": ruling_link(ruling)})


def announce_game_session(chronicle: Chronicle, closed: GameSession | None, opened: GameSession,
                          ruling: Ruling | None) -> WebhookEvent | None:
    """The event of a game session closed (``closed``, or ``None`` when none was open) and the next opened."""
    def session(row: GameSession | None) -> dict[str, Any] | None:
        return {"number": row.number, "date": row.date.isoformat()} if row is not None else None

    return emit(chronicle.id, "game_session", lambda: {"closed": session(closed), "opened": session(opened),
                                                       "ruling": ruling_link(ruling)})


def announce_check_in(character: Character, game_session: GameSession | None, by: User | None,
                      occurred_at: datetime | None = None) -> WebhookEvent | None:
    """The event of a character checked in at the door (issue 32 calls it inside its check-in's transaction).

    Args:
        game_session: the game session he checked in to.
        by: who checked him in (the record's name for him), if anyone.
    """
    return emit(character.chronicle_id, "check_in", lambda: {
        "character": {"id": character.id, "name": character.name}, "player_name": character.player_name,
        "game_session": game_session.number if game_session is not None else None,
        "checked_in_by": by.display_name if by is not None else None}, occurred_at=occurred_at)


def announce_experience_approved(character: Character, amount: Any, what: str, game_session: GameSession | None,
                                 by: User | None, ruling: Ruling | None = None) -> WebhookEvent | None:
    """The event of a player's request to spend experience approved (issue 33 calls it inside the
    approval's transaction).

    Args:
        amount: the experience points spent (a number or decimal text; sent as text, "2.5").
        what: what they were spent on ("Dominate 2").
        game_session: the game session it belongs to, if any.
        by: the organiser who approved it.
        ruling: the ruling that recorded it, if any.
    """
    return emit(character.chronicle_id, "experience_approved", lambda: {
        "character": {"id": character.id, "name": character.name}, "amount": str(amount), "what": what,
        "game_session": game_session.number if game_session is not None else None,
        "approved_by": by.display_name if by is not None else None, "ruling": ruling_link(ruling)})


# --- Delivery (the worker's side) -------------------------------------------------------------


@dataclass(frozen=True)
class Policy:
    """How deliveries are tried (``app.config``'s ``WEBHOOK_*``; seconds unless said).

    Attributes:
        lease: how long a claim holds before another worker may take the delivery over.
        retry_first: the wait after a first failure (doubling after each).
        retry_most: the longest wait between two tries.
        give_up: how long after the event a failing delivery is given up (marked failed; a day).
        timeout: each socket operation's timeout (the whole exchange gets twice that).
        max_body: the largest body sent (bytes).
        max_answer: the most of an answer read (bytes).
        local_network: whether this install lets a webhook allow the local network at all.
    """

    lease: float = 60.0
    retry_first: float = 10.0
    retry_most: float = 900.0
    give_up: float = 86400.0
    timeout: float = 5.0
    max_body: int = 128 * 1024
    max_answer: int = 64 * 1024
    local_network: bool = True

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> "Policy":
        """The policy an app's configuration sets (``WEBHOOK_LEASE_SECONDS`` ... ``WEBHOOKS_LOCAL_NETWORK``)."""
        base = cls()
        return cls(lease=float(config.get("WEBHOOK_LEASE_SECONDS", base.lease)),
                   retry_first=float(config.get("WEBHOOK_RETRY_SECONDS", base.retry_first)),
                   retry_most=float(config.get("WEBHOOK_RETRY_MAX_SECONDS", base.retry_most)),
                   give_up=float(config.get("WEBHOOK_GIVE_UP_SECONDS", base.give_up)),
                   timeout=float(config.get("WEBHOOK_TIMEOUT_SECONDS", base.timeout)),
                   max_body=int(config.get("WEBHOOK_MAX_BODY_BYTES", base.max_body)),
                   max_answer=int(config.get("WEBHOOK_MAX_ANSWER_BYTES", base.max_answer)),
                   local_network=bool(config.get("WEBHOOKS_LOCAL_NETWORK", base.local_network)))


@dataclass(frozen=True)
class Job:
    """One claimed delivery, ready to send (plain data: the sending thread touches no database).

    ``url`` is the webhook's secret address: never logged."""

    delivery_id: int
    webhook_id: int
    webhook_name: str
    event_id: str
    kind: str
    url: str
    body: bytes
    headers: dict[str, str]
    local_network: bool


def _watermark() -> int | None:
    """PostgreSQL: the oldest transaction id still running (a delivery whose ``seq`` is below it can
    have no earlier one still to come); ``None`` on SQLite."""
    if not is_postgres():
        return None
    return db.execute_sql("SELECT txid_snapshot_xmin(txid_current_snapshot())").fetchone()[0]


def heads(now: datetime, skip: Iterable[int] = ()) -> list[WebhookDelivery]:
    """Each enabled webhook's oldest pending delivery that may be tried now: not waiting for its next
    try or its webhook's rate limit, not under another worker's live lease, and (PostgreSQL) with no
    earlier one still to come. ``skip``: webhooks this worker is sending to already."""
    watermark = _watermark()
    # One index seek per enabled webhook (not a pass over every waiting delivery: a webhook down for a
    # day may have thousands), then those heads read whole.
    first = (WebhookDelivery.select(WebhookDelivery.id)
             .where((WebhookDelivery.webhook == Webhook.id) & (WebhookDelivery.state == PENDING))
             .order_by(WebhookDelivery.seq, WebhookDelivery.id).limit(1))
    found = [head for (head,) in Webhook.select(first).where(Webhook.enabled == True).tuples() if head]  # noqa: E712
    query = (WebhookDelivery.select(WebhookDelivery, Webhook).join(Webhook)
             .where(WebhookDelivery.id.in_(found) & (WebhookDelivery.state == PENDING)))
    skipped = set(skip)
    out = []
    for delivery in query:
        hook = delivery.webhook
        if hook.id in skipped or delivery.next_attempt_at > now or (hook.hold_until and hook.hold_until > now):
            continue
        if delivery.lease_until is not None and delivery.lease_until > now:
            continue
        if watermark is not None and delivery.seq >= watermark:
            continue
        out.append(delivery)
    return out


def claim(delivery: WebhookDelivery, worker: str, now: datetime, policy: Policy) -> bool:
    """Claim ``delivery`` for ``worker`` (see the module docstring: one conditional UPDATE, so one
    worker wins on either engine). Returns whether this worker got it."""
    free = WebhookDelivery.lease_until.is_null() | (WebhookDelivery.lease_until <= now)
    with db.atomic():
        rows = (WebhookDelivery.update(claimed_by=worker, lease_until=now + timedelta(seconds=policy.lease))
                .where((WebhookDelivery.id == delivery.id) & (WebhookDelivery.state == PENDING) & free
                       & (WebhookDelivery.next_attempt_at <= now))
                .execute())
    return rows == 1


def _sealed_payload(event: WebhookEvent) -> dict[str, Any]:
    """The event's payload, its ruling's JSON taken again the first time it is sent (then kept)."""
    if event.sealed:
        return dict(event.payload)
    payload = dict(event.payload)
    ruling = Ruling.get_or_none(Ruling.id == event.ruling_id) if event.ruling_id else None
    if ruling is not None:
        payload["ruling"] = stored_ruling_json(ruling)
    with db.atomic():
        if WebhookEvent.update(payload=payload, sealed=True).where(
                (WebhookEvent.id == event.id) & (WebhookEvent.sealed == False)).execute() == 0:  # noqa: E712
            return dict(WebhookEvent.get_by_id(event.id).payload)  # another worker sealed it first
    return payload


def link_base(webhook: Webhook) -> str:
    """Where the links in ``webhook``'s messages point: the chronicle setting ``card_base_url`` (the
    address phones reach at the event), else the address the webhook was made from."""
    from larp.services.chronicles import chronicle_settings

    return (chronicle_settings(webhook.chronicle)["card_base_url"] or webhook.site_url or "").rstrip("/")


def message_for(webhook: Webhook, payload: Mapping[str, Any], policy: Policy) -> tuple[bytes, dict[str, str]] | None:
    """The body and headers of ``payload`` (an event at the staff level) for ``webhook``: shaped for its
    privacy, links absolute, in its format; ``None`` when its privacy level does not get this event."""
    chronicle = webhook.chronicle
    event = shaped({**payload, "chronicle": {"id": chronicle.id, "name": chronicle.name}}, webhook.privacy)
    if event is None:
        return None
    event = absolute_links(event, link_base(webhook))
    return build_request(event, format_=sends_as(webhook.format, webhook.url), secret=webhook.secret,
                         chronicle_name=chronicle.name, max_bytes=policy.max_body)


def claim_jobs(worker: str, now: datetime, policy: Policy, skip: Iterable[int] = (), limit: int = 8) -> list[Job]:
    """Claim up to ``limit`` heads (:func:`heads`), one per webhook, and make each a :class:`Job`. A
    delivery its webhook's privacy no longer allows (it became public) is dropped, never sent."""
    jobs = []
    for delivery in heads(now, skip):
        if len(jobs) >= limit:
            break
        if not claim(delivery, worker, now, policy):
            continue
        hook = Webhook.select(Webhook, Chronicle).join(Chronicle).where(Webhook.id == delivery.webhook_id).get()
        event = WebhookEvent.get_by_id(delivery.event_id)
        try:
            message = message_for(hook, _sealed_payload(event), policy)
        except Exception as exc:  # noqa: BLE001 - an event that cannot be made into a message must not block the rest
            error = f"Not sent: this event could not be made into a message ({type(exc).__name__})."
            WebhookDelivery.update(state=FAILED, claimed_by=None, lease_until=None, last_error=error).where(
                WebhookDelivery.id == delivery.id).execute()
            Webhook.update(last_error=error, last_error_at=now).where(Webhook.id == hook.id).execute()
            continue
        if message is None:
            WebhookDelivery.update(state=DROPPED, claimed_by=None, lease_until=None,
                                   last_error="Not sent: the webhook is public now, and this event is for staff.").where(
                WebhookDelivery.id == delivery.id).execute()
            continue
        body, headers = message
        jobs.append(Job(delivery.id, hook.id, hook.name, event.uuid, event.kind, hook.url, body, headers,
                        hook.local_network and policy.local_network))
    return jobs


def finish(job: Job, outcome: Outcome, status: int | None, worker: str, now: datetime, policy: Policy) -> str:
    """Write what the answer to ``job`` means (``outcome``, :func:`larp.webhooks.messages.classify`), if
    ``worker`` still holds its claim: delivered; a wait as asked after a 429 (not a failure, the order
    kept); a failure tried again after :func:`larp.webhooks.messages.backoff`, or given up (failed)
    once the event is older than :attr:`Policy.give_up`, or at once when the same body would fail
    again; a stopped webhook (404, a redirect) is disabled. The webhook keeps its last error for the
    settings page. Returns the delivery's state afterwards ("pending" when it will be tried again, or
    when the claim was lost and the answer ignored)."""
    mine = (WebhookDelivery.id == job.delivery_id) & (WebhookDelivery.claimed_by == worker) & (
        WebhookDelivery.state == PENDING)
    released = dict(claimed_by=None, lease_until=None, last_status=status)
    this_webhook = Webhook.id == job.webhook_id
    with db.atomic():
        delivery = WebhookDelivery.select(WebhookDelivery, WebhookEvent.created_at).join(WebhookEvent).where(mine).first()
        if delivery is None:
            return PENDING
        if outcome.state == DELIVERED:
            WebhookDelivery.update(state=DELIVERED, delivered_at=now, **released).where(mine).execute()
            Webhook.update(last_delivered_at=now).where(this_webhook).execute()
            return DELIVERED
        if outcome.state == RATE_LIMITED:
            until = now + timedelta(seconds=min(max(outcome.wait, 0.0), policy.give_up))
            WebhookDelivery.update(next_attempt_at=until, **released).where(mine).execute()
            Webhook.update(hold_until=until).where(this_webhook).execute()
            return PENDING
        attempts = delivery.attempts + 1
        error = outcome.error[:500]
        expired = (now - delivery.event.created_at).total_seconds() >= policy.give_up
        if outcome.state in (FAILED, STOPPED) or expired:
            WebhookDelivery.update(state=FAILED, attempts=attempts, last_error=error, **released).where(mine).execute()
            state = FAILED
        else:
            wait = backoff(attempts, policy.retry_first, policy.retry_most)
            WebhookDelivery.update(attempts=attempts, last_error=error, next_attempt_at=now + timedelta(seconds=wait),
                                   **released).where(mine).execute()
            state = PENDING
        changes: dict[str, Any] = dict(last_error=error, last_error_at=now)
        if outcome.state == STOPPED:
            changes.update(enabled=False, stopped_reason=error)
        Webhook.update(**changes).where(this_webhook).execute()
        return state


def purge(now: datetime, keep_days: float = 7.0, keep_failed_days: float = 30.0) -> int:
    """Delete deliveries delivered or dropped more than ``keep_days`` ago and failed ones older than
    ``keep_failed_days``, then events left without a delivery. Returns the deliveries deleted."""
    done = now - timedelta(days=keep_days)
    failed = now - timedelta(days=keep_failed_days)
    with db.atomic():
        count = WebhookDelivery.delete().where(
            ((WebhookDelivery.state.in_([DELIVERED, DROPPED])) & (WebhookDelivery.created_at < done))
            | ((WebhookDelivery.state == FAILED) & (WebhookDelivery.created_at < failed))).execute()
        kept = WebhookDelivery.select(WebhookDelivery.event)
        WebhookEvent.delete().where(WebhookEvent.id.not_in(kept) & (WebhookEvent.created_at < done)).execute()
    return count


def counts(chronicle: Chronicle) -> dict[int, dict[str, int]]:
    """For each of ``chronicle``'s webhooks, how many deliveries are in each state."""
    out: dict[int, dict[str, int]] = {}
    rows = (WebhookDelivery.select(WebhookDelivery.webhook, WebhookDelivery.state, fn.COUNT(WebhookDelivery.id))
            .join(Webhook, JOIN.INNER).where(Webhook.chronicle == chronicle)
            .group_by(WebhookDelivery.webhook, WebhookDelivery.state).tuples())
    for webhook_id, state, count in rows:
        out.setdefault(webhook_id, {})[state] = count
    return out
