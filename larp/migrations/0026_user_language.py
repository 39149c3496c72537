"""The language a user reads the app in (issue 36 item 2): his own choice on his account page.

Existing users have none ("" ): they read the chronicle's default language, else their browser's.
Users are not part of a chronicle export, so nothing else carries it.
"""

from peewee import CharField


def up(migrator, db):
    """Add ``user.language`` (a locale such as ``pt_BR``; "" for none of his own)."""
    migrator.migrate(migrator.add_column("user", "language", CharField(max_length=10, default="")))
