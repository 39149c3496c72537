"""The narrator's name on each ruling (issue 19 item 9).

`larp import` into another installation drops the link to a narrator who has no account there;
the name kept on the ruling survives that, and a deleted account. Existing rulings get their
narrator's display name.
"""

from peewee import CharField


def up(migrator, db):
    """Add ``ruling.narrator_name`` (default "") and fill it from the narrator's account."""
    migrator.migrate(migrator.add_column("ruling", "narrator_name", CharField(max_length=120, default="")))
    db.execute_sql('UPDATE ruling SET narrator_name = (SELECT display_name FROM "user" '
                   'WHERE "user".id = ruling.narrator_id) WHERE narrator_id IS NOT NULL')
