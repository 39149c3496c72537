"""A session generation per user (issue 19 item 4).

Each session cookie carries its user's generation; logging out, a password change and
deactivation move it on, so a cookie copied before them stops working.
"""

from peewee import IntegerField


def up(migrator, db):
    """Add ``user.session_generation`` (default 0)."""
    migrator.migrate(migrator.add_column("user", "session_generation", IntegerField(default=0)))
