"""Players in the app (issue 33): ``characterplayer`` (an account playing a character: unique per
account and character, with when, by whom and how it was linked) and ``claimcode`` (a one-time code,
stored as its SHA-256, with which a player claims a character from its card).

Nothing existing changes: ``user.role`` and ``membership.role`` are text and take "player" as they are.
"""

from peewee import CharField, DateTimeField, ForeignKeyField

from larp.migrations import frozen


def up(migrator, db):
    """Create ``characterplayer`` and ``claimcode``."""

    User, Character = frozen(db, "user"), frozen(db, "character")

    CharacterPlayer = frozen(db, "characterplayer", indexes=((("user", "character"), True),),
                             user=ForeignKeyField(User, backref="played_characters", on_delete="CASCADE"),
                             character=ForeignKeyField(Character, backref="players", on_delete="CASCADE"),
                             linked_at=DateTimeField(),
                             linked_by=ForeignKeyField(User, backref="players_linked", null=True, on_delete="SET NULL"),
                             how=CharField(max_length=10, default="link"))

    ClaimCode = frozen(db, "claimcode",
                       character=ForeignKeyField(Character, backref="claim_codes", on_delete="CASCADE"),
                       code_hash=CharField(unique=True, max_length=64),
                       created_at=DateTimeField(),
                       expires_at=DateTimeField(),
                       made_by=ForeignKeyField(User, backref="claim_codes_made", null=True, on_delete="SET NULL"),
                       used_at=DateTimeField(null=True),
                       used_by=ForeignKeyField(User, backref="claim_codes_used", null=True, on_delete="SET NULL"))

    db.create_tables([CharacterPlayer, ClaimCode])


def down(migrator, db):
    """Drop both tables (the accounts stay; they no longer play any character)."""
    db.execute_sql('DROP TABLE IF EXISTS "claimcode"')
    db.execute_sql('DROP TABLE IF EXISTS "characterplayer"')
