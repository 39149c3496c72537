"""A chronicle's webhooks (issue 35), as organisers keep them on the settings page and in the API.

Each change is one transaction recorded as a ruling (``webhook_made``, ``webhook_changed``,
``webhook_deleted``, ``webhook_secret``) that carries the form's one-time token or the API call's
``Idempotency-Key``, so the same form sent twice changes nothing twice. The record never holds a
webhook's URL or secret: a Discord URL lets anyone who reads it post to the channel.

A webhook's address is checked here as far as it can be without the network (http or https, a
host, no credentials, a literal IP address that is not public only with "Local network"); its
host name is resolved and checked at every delivery (:mod:`larp.webhooks.sending`), since an event
laptop may have no internet when the organiser sets it up.
"""

from __future__ import annotations

import ipaddress
import secrets
import uuid
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from larp.db import as_id, db, for_update
from larp.i18n import N_
from larp.models import Chronicle, Ruling, User, Webhook, WebhookDelivery, utcnow
from larp.rules.explain import Phrase, Step, phrase_step, N_
from larp.services import ServiceError, refuse_name_taken
from larp.services.records import check_submission, record_ruling
from larp.webhooks.kinds import EVENTS, LEVELS, PUBLIC, STAFF, public_kinds, sent_at
from larp.webhooks.messages import classify, mask_url, sample_event, sends_as
from larp.webhooks.outbox import Policy, counts, iso, message_for
from larp.webhooks.sending import AddressRefused, Answer, address_refusal, parse_target, post

#: The longest webhook name and URL.
MAX_NAME_LENGTH = 60
MAX_URL_LENGTH = 2000
#: The formats an organiser may choose, with their words.
FORMAT_WORDS = {"auto": N_("Automatic (Discord's for a Discord URL, else signed JSON)"), "discord": N_("Discord"),
                "json": N_("Signed JSON")}
#: The privacy levels with their words (marked: the settings page shows them in the reader's language).
PRIVACY_WORDS = {"staff": N_("Staff: everything but narrator notes and players' contact details"),
                 "public": N_("Public: only what a player could see of another character")}
RULE = "Webhooks (issue 35)"


def new_secret() -> str:
    """A webhook's signing secret: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def webhooks_of(chronicle: Chronicle) -> list[Webhook]:
    """``chronicle``'s webhooks, by name."""
    return list(Webhook.select().where(Webhook.chronicle == chronicle).order_by(Webhook.name))


def get_webhook(chronicle: Chronicle, webhook_id: Any) -> Webhook:
    """Webhook ``webhook_id`` of ``chronicle``.

    Raises:
        ServiceError: 404 when ``chronicle`` has no such webhook.
    """
    wanted = as_id(webhook_id)
    hook = Webhook.get_or_none((Webhook.id == wanted) & (Webhook.chronicle == chronicle)) if wanted else None
    if hook is None:
        raise ServiceError(Phrase.message(N_("There is no such webhook in this "
                                             "chronicle.")), field="webhook", status=404)
    return hook


def _name(value: Any) -> str:
    name = value.strip() if isinstance(value, str) else ""
    if not name or len(name) > MAX_NAME_LENGTH:
        raise ServiceError(Phrase.message(N_("Give the webhook a name of 1 to %(MAX_NAME_LENGTH)s characters "
                                             "(“Staff channel”)."), MAX_NAME_LENGTH=MAX_NAME_LENGTH),
                           field="name")
    return name


def _url(value: Any, local_network: bool) -> str:
    url = value.strip() if isinstance(value, str) else ""
    if len(url) > MAX_URL_LENGTH:
        raise ServiceError(Phrase.message(N_("That address is longer than %(MAX_URL_LENGTH)s characters: is it the "
                                             "webhook's?"), MAX_URL_LENGTH=format(MAX_URL_LENGTH, ',')),
                           field="url")
    try:
        target = parse_target(url)
    except AddressRefused as exc:
        raise ServiceError(exc.message, field="url") from None
    try:
        literal = ipaddress.ip_address(target.host)
    except ValueError:
        return url  # a host name: resolved and checked at each delivery
    reason = address_refusal(str(literal), local_network)
    if reason:
        raise ServiceError(Phrase.message(N_("Not taken: %(reason)s."), reason=reason), field="url")
    return url


def _events(value: Any, privacy: str) -> list[str]:
    chosen = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else None
    if chosen is None or not all(isinstance(kind, str) for kind in chosen):
        raise ServiceError(Phrase.message(N_("The events are a list of event names: %(names)s."),
                                          names=", ".join(EVENTS)), field="events")
    unknown = [kind for kind in chosen if kind not in EVENTS]
    if unknown:
        raise ServiceError(Phrase.message(N_("“%(unknown)s” is not an event; choose from: %(names)s."),
                                          unknown=unknown[0][:40], names=', '.join(EVENTS)), field="events")
    kinds = [kind for kind in EVENTS if kind in chosen]  # in the documented order, each once
    if not kinds:
        raise ServiceError(Phrase.message(N_("Choose at least one event to send.")), field="events")
    if privacy == PUBLIC:
        staff_only = [EVENTS[kind].label for kind in kinds if not sent_at(kind, PUBLIC)]
        if staff_only:
            raise ServiceError(Phrase.message(N_("A public webhook gets only what a player could see of another "
                                                 "character (%(names)s): untick %(names_2)s, or make it a staff "
                                                 "webhook."),
                                              names=[Phrase.message(EVENTS[k].label) for k in public_kinds()],
                                              names_2=[Phrase.message(label) for label in staff_only]), field="events")
    return kinds


def _choice(value: Any, allowed: Iterable[str], field: str, words: str) -> str:
    if value not in tuple(allowed):
        said = N_("Choose the privacy level: %(names)s.") if field == "privacy" else N_("Choose the format: %(names)s.")
        raise ServiceError(Phrase.message(said, names=', '.join(allowed)), field=field)
    return value


def _flag(value: Any, field: str) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("on", "1", "true", "yes"):
        return True
    if value in ("off", "0", "false", "no", ""):
        return False
    raise ServiceError(Phrase.message(N_("“%(field_name)s” is yes or no."), field_name=field.replace('_', ' ')), field=field)


def _local(value: Any, allow_local: bool) -> bool:
    wanted = _flag(value, "local_network")
    if wanted and not allow_local:
        raise ServiceError(Phrase.message(N_("This server does not post to local "
                                             "network addresses (its administrator "
                                             "turned that off: "
                                             "LARP_WEBHOOKS_LOCAL_NETWORK).")), field="local_network")
    return wanted


def _lock(chronicle: Chronicle) -> None:
    # Check-then-write (a name taken? the webhook still there?) made safe by locking the chronicle
    # row first (PostgreSQL FOR NO KEY UPDATE: a second change waits, then sees the first; SQLite's
    # BEGIN IMMEDIATE already serialises every writer). The unique index on (chronicle, name) stays.
    list(for_update(Chronicle.select(Chronicle.id).where(Chronicle.id == chronicle.id)))


def _name_taken(chronicle: Chronicle, name: str, other_than: int | None = None) -> None:
    query = Webhook.select().where((Webhook.chronicle == chronicle) & (Webhook.name == name))
    refuse_name_taken(query, other_than, Phrase.message(N_("This chronicle has a webhook named “%(name)s” already: "
                                                           "choose another name."), name=name))


#: The events as a webhook's record names them mid-sentence (lower case).
EVENT_WORDS = {
    "ruling_recorded": N_("ruling recorded"), "ruling_undone": N_("ruling undone"), "torpor": N_("torpor"),
    "final_death": N_("final death"), "game_session": N_("game session opened or closed"),
    "check_in": N_("check-in"), "experience_approved": N_("experience request approved"),
}
#: The privacy levels as the record names them.
PRIVACY_WORDS = {STAFF: N_("staff"), PUBLIC: N_("public")}
#: The fields of a webhook its record names as changed (the address only as "address").
CHANGED_WORDS = {
    "name": N_("name"), "url": N_("address"), "events": N_("events"), "privacy": N_("privacy"),
    "format": N_("format"), "local_network": N_("local network"),
}


def _summary(hook: Webhook) -> Phrase:
    """"staff: ruling recorded, final death": the privacy level and the events sent."""
    events = [Phrase.message(EVENT_WORDS[kind]) if kind in EVENT_WORDS else EVENTS[kind].label.lower()
              for kind in hook.events]
    return Phrase.message(N_("%(privacy)s: %(events)s"), privacy=Phrase.message(PRIVACY_WORDS[hook.privacy]) if hook.privacy in PRIVACY_WORDS else hook.privacy, events=events)


def _changed(key: str, enabled: bool) -> Phrase | str:
    """One changed field as the record names it ("resumed" or "paused" for ``enabled``)."""
    if key == "enabled":
        return Phrase.message(N_("resumed") if enabled else N_("paused"))
    return Phrase.message(CHANGED_WORDS[key]) if key in CHANGED_WORDS else key


def create_webhook(chronicle: Chronicle, user: User | None, data: Mapping[str, Any], *, site_url: str = "",
                   allow_local: bool = True) -> tuple[Webhook, str]:
    """Make a webhook for ``chronicle``; returns it and its signing secret (to show once).

    Args:
        data: ``name``, ``url``, ``events`` (event kinds), ``privacy`` ("staff" or "public", default
            staff), ``format`` ("auto", "discord", "json"; default auto), ``local_network`` (yes/no).
        site_url: this app's address as the organiser reached it (where links in messages point
            when the chronicle setting ``card_base_url`` is empty).
        allow_local: whether this install lets a webhook allow the local network.

    Raises:
        ServiceError: 422 naming the field at fault; 409 (``name``) a name the chronicle uses already.
        AlreadyRecorded: 409 naming the first ruling when this form or call made its webhook already.
    """
    privacy = _choice(data.get("privacy", "staff"), LEVELS, "privacy", "privacy level")
    local_network = _local(data.get("local_network", False), allow_local)
    values = dict(name=_name(data.get("name")), url=_url(data.get("url"), local_network),
                  events=_events(data.get("events", []), privacy), privacy=privacy,
                  format=_choice(data.get("format", "auto"), FORMAT_WORDS, "format", "format"),
                  local_network=local_network)
    secret = new_secret()
    with db.atomic():
        check_submission([])  # a repeated form is refused before a second webhook exists
        _lock(chronicle)
        _name_taken(chronicle, values["name"])
        hook = Webhook.create(chronicle=chronicle, secret=secret, site_url=site_url[:300], created_by=user,
                              created_at=utcnow(), **values)
        record_ruling(chronicle, user, "webhook_made",
                      Phrase.message(N_("Webhook “%(name)s” made (%(summary)s)"), name=hook.name, summary=_summary(hook)),
                      [phrase_step(N_("Events go to it as they happen, in order; its address and secret are not "
                                      "kept in the record."), RULE)], [],
                      inputs={"name": hook.name, "events": hook.events, "privacy": hook.privacy,
                              "format": hook.format, "local_network": hook.local_network},
                      outcome={"webhook_id": hook.id})
    return hook, secret


def update_webhook(chronicle: Chronicle, user: User | None, webhook_id: Any, data: Mapping[str, Any], *,
                   allow_local: bool = True) -> Webhook:
    """Change a webhook: any of ``name``, ``url`` (empty or missing: kept), ``events``, ``privacy``,
    ``format``, ``local_network``, ``enabled`` (resume a paused or stopped webhook: its waiting
    events go on; pause it: nothing is queued for it meanwhile). Recorded as ``webhook_changed``
    naming what changed (never the address).

    Raises:
        ServiceError: 404 no such webhook; 422 naming the field at fault; 409 a name taken.
        AlreadyRecorded: 409 when this form or call changed it already.
    """
    with db.atomic():
        check_submission([])
        _lock(chronicle)
        hook = get_webhook(chronicle, webhook_id)
        privacy = _choice(data.get("privacy", hook.privacy), LEVELS, "privacy", "privacy level")
        local_network = _local(data.get("local_network", hook.local_network), allow_local)
        new = dict(name=_name(data.get("name", hook.name)), privacy=privacy, local_network=local_network,
                   events=_events(data.get("events", hook.events), privacy),
                   format=_choice(data.get("format", hook.format), FORMAT_WORDS, "format", "format"),
                   enabled=_flag(data.get("enabled", hook.enabled), "enabled"))
        url = data.get("url")
        new["url"] = _url(url, local_network) if isinstance(url, str) and url.strip() else _url(hook.url, local_network)
        _name_taken(chronicle, new["name"], hook.id)
        changed = [key for key, value in new.items() if getattr(hook, key) != value]
        if not changed:
            return hook
        if new["enabled"] and (not hook.enabled or "url" in changed):
            # Resumed, or a new address: what stopped it is behind it (the failed events keep their errors).
            new.update(stopped_reason="", hold_until=None, last_error="", last_error_at=None)
        Webhook.update(**new).where(Webhook.id == hook.id).execute()
        what = [_changed(key, new["enabled"]) for key in changed]
        record_ruling(chronicle, user, "webhook_changed",
                      Phrase.message(N_("Webhook “%(name)s” changed: %(fields)s"), name=new["name"], fields=what),
                      [phrase_step(N_("Changed: %(fields)s."), RULE, fields=what)], [],
                      inputs={k: new[k] for k in changed if k != "url"}, outcome={"webhook_id": hook.id})
        return Webhook.get_by_id(hook.id)


def delete_webhook(chronicle: Chronicle, user: User | None, webhook_id: Any) -> Ruling:
    """Delete a webhook with its events not yet sent (recorded as ``webhook_deleted``).

    Raises:
        ServiceError: 404 no such webhook.
        AlreadyRecorded: 409 when this form or call deleted it already.
    """
    with db.atomic():
        check_submission([])
        _lock(chronicle)
        hook = get_webhook(chronicle, webhook_id)
        waiting = WebhookDelivery.select().where((WebhookDelivery.webhook == hook)
                                                 & (WebhookDelivery.state == "pending")).count()
        hook.delete_instance(recursive=True)
        went = Phrase.counted(waiting, "%(n)s event not yet sent went with it.",
                              "%(n)s events not yet sent went with it.")
        return record_ruling(chronicle, user, "webhook_deleted",
                             Phrase.message(N_("Webhook “%(name)s” deleted"), name=hook.name),
                             [Step(str(went), RULE, said=went.data())], [], inputs={"name": hook.name}, outcome={"webhook_id": hook.id})


def change_secret(chronicle: Chronicle, user: User | None, webhook_id: Any) -> tuple[Webhook, str]:
    """Give a webhook a new signing secret (the old one stops signing at once); returns it to show once.

    Raises:
        ServiceError: 404 no such webhook.
        AlreadyRecorded: 409 when this form or call changed it already (the new secret is not shown again).
    """
    secret = new_secret()
    with db.atomic():
        check_submission([])
        _lock(chronicle)
        hook = get_webhook(chronicle, webhook_id)
        Webhook.update(secret=secret).where(Webhook.id == hook.id).execute()
        record_ruling(chronicle, user, "webhook_secret",
                      Phrase.message(N_("Webhook “%(name)s”: new signing secret"), name=hook.name),
                      [phrase_step(N_("Deliveries are signed with the new secret from now on."), RULE)], [],
                      inputs={"webhook_id": hook.id}, outcome={"webhook_id": hook.id})
    return Webhook.get_by_id(hook.id), secret


#: What an answer to the test would mean for the events (by :func:`larp.webhooks.messages.classify`'s state).
TEST_MEANINGS = {
    "delivered": N_("it works."),
    "rate_limited": N_("it asks to slow down: events wait as long as it says (not a failure)."),
    "retry": N_("events would be tried again with growing waits for a day."),
    "failed": N_("it refuses this event: an event it refuses is not tried again."),
    "stopped": N_("events would stop here until the webhook is fixed and resumed."),
}


@dataclass
class TestResult:
    """The answer to "Send a test": the HTTP status (``None``: no answer, ``error`` says why), what it
    would mean for the events (``meaning``), the start of what the receiver said, how long it took."""

    status: int | None
    reason: str
    ok: bool
    said: str
    error: str
    seconds: float
    sent_as: str
    meaning: str = ""

    def to_dict(self) -> dict[str, Any]:
        """As the API answers it."""
        return {"ok": self.ok, "status": self.status, "reason": self.reason, "answer": self.said,
                "error": self.error or None, "seconds": round(self.seconds, 3), "format": self.sent_as,
                "meaning": self.meaning}


def send_test(chronicle: Chronicle, webhook_id: Any, policy: Policy, poster=post) -> TestResult:
    """Send ``webhook_id`` a sample event now (marked ``"test": true``), with every check a delivery
    has, and say what it answered. Nothing is queued or recorded; the narrator's events are not held.

    Raises:
        ServiceError: 404 no such webhook.
    """
    hook = get_webhook(chronicle, webhook_id)
    kind, fields = sample_event(list(hook.events), hook.privacy)
    payload = {"event_id": str(uuid.uuid4()), "event": kind, "occurred_at": iso(utcnow()),
               "chronicle": {"id": chronicle.id}, "privacy": "staff", "test": True, **fields}
    message = message_for(hook, payload, policy)
    assert message is not None  # sample_event picks an event this privacy level gets
    body, headers = message
    answer: Answer = poster(hook.url, body, headers, local_network=hook.local_network and policy.local_network,
                            timeout=policy.timeout, max_answer=min(policy.max_answer, 4096))
    outcome = classify(answer)
    said = answer.body[:600].decode("utf-8", "replace")
    return TestResult(answer.status, answer.reason, outcome.state == "delivered", said[:500],
                      "" if outcome.state == "delivered" else outcome.error, answer.seconds,
                      sends_as(hook.format, hook.url), TEST_MEANINGS[outcome.state])


@dataclass
class WebhookView:
    """A webhook as the settings page and the API show it: never its URL, only :func:`mask_url`'s form."""

    hook: Webhook
    pending: int
    failed: int
    sent: int

    @property
    def masked_url(self) -> str:
        """The URL as shown (scheme, host and the last four characters)."""
        return mask_url(self.hook.url)

    @property
    def sent_as(self) -> str:
        """"discord" or "json"."""
        return sends_as(self.hook.format, self.hook.url)

    @property
    def status(self) -> str:
        """"stopped", "paused", "failing" (its last try failed, or an event failed for good), "waiting"
        (events to send) or "ok"."""
        hook = self.hook
        if not hook.enabled:
            return "stopped" if hook.stopped_reason else "paused"
        recent_error = hook.last_error_at is not None and (hook.last_delivered_at is None
                                                           or hook.last_error_at > hook.last_delivered_at)
        if recent_error:
            return "failing"
        return "waiting" if self.pending else "ok"

    def to_dict(self) -> dict[str, Any]:
        """As the API answers it (no URL, no secret)."""
        hook = self.hook
        return {"id": hook.id, "name": hook.name, "url": self.masked_url, "format": hook.format,
                "sends_as": self.sent_as, "privacy": hook.privacy, "events": list(hook.events),
                "local_network": hook.local_network, "enabled": hook.enabled, "status": self.status,
                "stopped_reason": hook.stopped_reason or None, "pending": self.pending, "failed": self.failed,
                "delivered": self.sent, "last_delivered_at": iso(hook.last_delivered_at),
                "last_error": hook.last_error or None, "last_error_at": iso(hook.last_error_at),
                "created_at": iso(hook.created_at)}


def webhook_views(chronicle: Chronicle, only: Webhook | None = None) -> list[WebhookView]:
    """``chronicle``'s webhooks (or ``only``) with how many of their events wait, failed and went out."""
    tally = counts(chronicle)
    hooks = [only] if only is not None else webhooks_of(chronicle)
    return [WebhookView(h, tally.get(h.id, {}).get("pending", 0), tally.get(h.id, {}).get("failed", 0),
                        tally.get(h.id, {}).get("delivered", 0)) for h in hooks]
