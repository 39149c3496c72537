"""Webhooks (issue 35): ``webhook`` (a chronicle's Discord channel or other address), ``webhookevent``
(the outbox: one row per game-night event, written in the transaction of what caused it) and
``webhookdelivery`` (one event to send to one webhook, with its state, attempts and claim)."""

from peewee import (BigIntegerField, BooleanField, CharField, DateTimeField, ForeignKeyField, IntegerField, JSONField,
                    TextField)

from larp.migrations import frozen


def up(migrator, db):
    """Create ``webhook``, ``webhookevent`` and ``webhookdelivery``."""

    Chronicle = frozen(db, "chronicle")
    User = frozen(db, "user")
    Ruling = frozen(db, "ruling")

    Webhook = frozen(db, "webhook", indexes=((("chronicle", "name"), True),),
                     chronicle=ForeignKeyField(Chronicle, backref="webhooks", on_delete="CASCADE"),
                     name=CharField(max_length=60),
                     url=TextField(),
                     secret=CharField(max_length=64),
                     format=CharField(max_length=10, default="auto"),
                     privacy=CharField(max_length=10, default="staff"),
                     events=JSONField(default=list),
                     local_network=BooleanField(default=False),
                     enabled=BooleanField(default=True),
                     stopped_reason=TextField(default=""),
                     site_url=CharField(max_length=300, default=""),
                     created_by=ForeignKeyField(User, null=True, on_delete="SET NULL", backref="webhooks_made"),
                     created_at=DateTimeField(),
                     hold_until=DateTimeField(null=True),
                     last_delivered_at=DateTimeField(null=True),
                     last_error=TextField(default=""),
                     last_error_at=DateTimeField(null=True))

    WebhookEvent = frozen(db, "webhookevent",
                          chronicle=ForeignKeyField(Chronicle, backref="webhook_events", on_delete="CASCADE"),
                          kind=CharField(max_length=30),
                          uuid=CharField(max_length=36, unique=True),
                          payload=JSONField(default=dict),
                          ruling=ForeignKeyField(Ruling, null=True, on_delete="SET NULL", backref="webhook_events"),
                          sealed=BooleanField(default=True),
                          created_at=DateTimeField())

    WebhookDelivery = frozen(db, "webhookdelivery", indexes=((("webhook", "state", "seq"), False),),
                             webhook=ForeignKeyField(Webhook, backref="deliveries", on_delete="CASCADE"),
                             event=ForeignKeyField(WebhookEvent, backref="deliveries", on_delete="CASCADE"),
                             seq=BigIntegerField(default=0),
                             state=CharField(max_length=10, default="pending"),
                             attempts=IntegerField(default=0),
                             next_attempt_at=DateTimeField(),
                             claimed_by=CharField(max_length=64, null=True),
                             lease_until=DateTimeField(null=True),
                             last_status=IntegerField(null=True),
                             last_error=TextField(default=""),
                             delivered_at=DateTimeField(null=True),
                             created_at=DateTimeField())

    db.create_tables([Webhook, WebhookEvent, WebhookDelivery])


def down(migrator, db):
    """Drop the three tables (every webhook and every event not yet sent is gone)."""
    for table in ("webhookdelivery", "webhookevent", "webhook"):
        db.execute_sql(f'DROP TABLE IF EXISTS "{table}"')
