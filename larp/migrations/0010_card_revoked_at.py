"""When a character's card was revoked (numbered after 0009_several_chronicles; a new user's try): the printed card sheet
said "revoked" for cards never issued. ``character.card_revoked_at`` (null) tells the two apart;
existing characters without a card token cannot be told apart and stay "not issued yet".
"""

from peewee import DateTimeField


def up(migrator, db):
    """Add ``character.card_revoked_at`` (null: never revoked, or issued again since)."""
    migrator.migrate(migrator.add_column("character", "card_revoked_at", DateTimeField(null=True)))
