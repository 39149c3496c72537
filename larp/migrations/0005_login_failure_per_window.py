"""The login lockout counts per address and per account, one row per attempt window (issue 19 item 6).

The old table held one row per wrong password for any name typed (real or made up); its rows
only ever mattered for 15 minutes, so it is replaced, not converted.
"""

from peewee import CharField, DateTimeField, IntegerField, JSONField

from larp.migrations import frozen


def up(migrator, db):
    """Replace ``loginfailure`` with the per-window counts."""

    LoginFailure = frozen(db, "loginfailure", indexes=((("scope", "key"), True),),
                          scope=CharField(max_length=10),
                          key=CharField(max_length=64),
                          failures=IntegerField(default=0),
                          names=JSONField(default=dict),
                          devices=JSONField(default=dict),
                          window_start=DateTimeField(),
                          last_at=DateTimeField(null=True))

    db.execute_sql('DROP TABLE IF EXISTS "loginfailure"')
    db.create_tables([LoginFailure])
