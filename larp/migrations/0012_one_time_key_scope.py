"""One-time keys belong to their sender in their chronicle (issue 28 item 1).

``ruling.request_token`` was unique across the install, so a key used in one chronicle refused
(and named) the call of someone in another. It becomes unique per chronicle and narrator (the
person who sent it), and ``ruling.request_hash`` keeps the SHA-256 of the API call that carried
the key, so the same key sent with another body is told apart from a retry. Existing tokens were
unique install-wide, so they are unique in the narrower scope too.
"""

from peewee import CharField


def up(migrator, db):
    """Replace the install-wide unique index on ``request_token`` and add ``request_hash``."""
    migrator.migrate(
        migrator.drop_index("ruling", "ruling_request_token"),
        migrator.add_column("ruling", "request_hash", CharField(max_length=64, null=True)),
        migrator.add_index("ruling", ("chronicle_id", "narrator_id", "request_token"), True),
    )
