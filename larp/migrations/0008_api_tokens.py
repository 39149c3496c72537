"""Personal API tokens (issue 21): ``apitoken``, one row per token, only its SHA-256 kept."""

from peewee import CharField, DateTimeField, ForeignKeyField

from larp.migrations import frozen


def up(migrator, db):
    """Create ``apitoken``."""

    User = frozen(db, "user")

    ApiToken = frozen(db, "apitoken",
                      user=ForeignKeyField(User, backref="api_tokens", on_delete="CASCADE"),
                      name=CharField(max_length=60),
                      role=CharField(max_length=20),
                      token_hash=CharField(unique=True, max_length=64),
                      created_at=DateTimeField(),
                      expires_at=DateTimeField(null=True),
                      last_used_at=DateTimeField(null=True),
                      revoked_at=DateTimeField(null=True))

    db.create_tables([ApiToken])


def down(migrator, db):
    """Drop ``apitoken`` (every token stops working)."""
    db.execute_sql('DROP TABLE IF EXISTS "apitoken"')
