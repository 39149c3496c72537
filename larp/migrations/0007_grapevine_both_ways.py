"""Grapevine both ways (issue 20, numbered after main's 0006): what an import keeps unused, and the whole experience history.

- ``character.imported_unused``: a JSON object of what an imported Grapevine record held that the
  sheet has no place for (``larp.grapevine.kept``), default ``{}``;
- ``experienceentry.what`` becomes TEXT: Grapevine's reasons ("Purchased ..." with every Trait
  bought) run past the 200 characters of the log's form. The new kinds (lost, refunded, comment)
  fit the existing column.
"""

from peewee import JSONField, TextField


def up(migrator, db):
    """Add ``character.imported_unused``; widen ``experienceentry.what`` to TEXT."""
    migrator.migrate(
        migrator.add_column("character", "imported_unused", JSONField(default="{}")),  # bound as text, as 0002 does
        migrator.alter_column_type("experienceentry", "what", TextField(default="")),
    )
