"""Webhooks (issue 35): where a chronicle's events go, the events, and their deliveries."""

from __future__ import annotations

from peewee import BigIntegerField, BooleanField, DateTimeField, ForeignKeyField, IntegerField, JSONField

from larp.models.base import CharField, TextField, utcnow, BaseModel
from larp.models.chronicles import Chronicle, User
from larp.models.record import Ruling


class Webhook(BaseModel):
    """A chronicle's webhook (issue 35): where its game-night events are sent, and which.

    ``url`` is a secret (anyone holding a Discord webhook URL can post to its channel): shown
    masked, never logged, never exported. ``secret`` signs the signed-JSON format's bodies
    (HMAC-SHA256), shown to the organiser once. ``format``: "auto" (Discord's message format for
    a Discord URL, else signed JSON), "discord" or "json". ``privacy``: "staff" or "public"
    (:mod:`larp.webhooks.kinds` lists what each event carries at each). ``events``: the event kinds
    sent. ``local_network``: the organiser allows a loopback, private or link-local address (a bot
    on the event's LAN). ``site_url``: where the links in messages point when the chronicle setting
    ``card_base_url`` is empty (the address the webhook was made from). ``enabled``: false while
    paused by an organiser or stopped (``stopped_reason``: a 404, a redirect); nothing is queued for
    it then. ``hold_until``: the receiver's rate limit (a 429's ``retry_after``).
    """

    PRIVACY = ("staff", "public")
    FORMATS = ("auto", "discord", "json")

    chronicle = ForeignKeyField(Chronicle, backref="webhooks", on_delete="CASCADE")
    name = CharField(max_length=60)
    url = TextField(max_length=2000)
    secret = CharField(max_length=64)
    format = CharField(max_length=10, default="auto")
    privacy = CharField(max_length=10, default="staff")
    events = JSONField(default=list)
    local_network = BooleanField(default=False)
    enabled = BooleanField(default=True)
    stopped_reason = TextField(default="", max_length=500)
    site_url = CharField(max_length=300, default="")
    created_by = ForeignKeyField(User, null=True, on_delete="SET NULL", backref="webhooks_made")
    created_at = DateTimeField(default=utcnow)
    hold_until = DateTimeField(null=True)
    last_delivered_at = DateTimeField(null=True)
    last_error = TextField(default="", max_length=500)
    last_error_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("chronicle", "name"), True),)


class WebhookEvent(BaseModel):
    """One game-night event in the outbox (issue 35), written in the transaction of what caused it.

    ``uuid`` is the event id every delivery carries (the same on a retry and for every webhook).
    ``payload`` is the event at the staff level (:mod:`larp.webhooks.kinds`); each webhook gets it
    shaped for its own privacy level. ``ruling``: the ruling it reports, whose JSON is taken again
    the first time the event is sent (``sealed`` then), so a ruling completed later in its
    transaction is sent whole; the payload written with the event stands if the ruling is gone.
    """

    chronicle = ForeignKeyField(Chronicle, backref="webhook_events", on_delete="CASCADE")
    kind = CharField(max_length=30)
    uuid = CharField(max_length=36, unique=True)
    payload = JSONField(default=dict)
    ruling = ForeignKeyField(Ruling, null=True, on_delete="SET NULL", backref="webhook_events")
    sealed = BooleanField(default=True)
    created_at = DateTimeField(default=utcnow)


class WebhookDelivery(BaseModel):
    """One event to send to one webhook (issue 35), in the order of ``(seq, id)`` per webhook.

    ``state``: "pending", "delivered" or "failed". ``seq`` is the emitting transaction's id on
    PostgreSQL (0 on SQLite, whose writers commit one at a time): see :mod:`larp.webhooks.outbox`
    for why the order is safe. ``claimed_by``/``lease_until``: the worker sending it now; a claim
    whose lease has run out (its process died) is taken over. ``attempts`` counts the answers that
    were failures (a 429 is not one); ``last_status``/``last_error`` the last of them.
    """

    STATES = ("pending", "delivered", "failed")

    webhook = ForeignKeyField(Webhook, backref="deliveries", on_delete="CASCADE")
    event = ForeignKeyField(WebhookEvent, backref="deliveries", on_delete="CASCADE")
    seq = BigIntegerField(default=0)
    state = CharField(max_length=10, default="pending")
    attempts = IntegerField(default=0)
    next_attempt_at = DateTimeField(default=utcnow)
    claimed_by = CharField(max_length=64, null=True)
    lease_until = DateTimeField(null=True)
    last_status = IntegerField(null=True)
    last_error = TextField(default="", max_length=500)
    delivered_at = DateTimeField(null=True)
    created_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("webhook", "state", "seq"), False),)
