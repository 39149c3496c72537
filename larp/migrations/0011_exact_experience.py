"""Experience as Grapevine keeps it (issue 27): exact half points and its "set" entries.

- ``experienceentry.amount`` becomes ``DECIMAL(10, 2)``: Grapevine's history holds 0.5 XP, which
  the whole-number column turned into 0 (and the chronicle export then refused to restore);
- ``experienceentry.kind`` widens to 20 characters for ``set_earned`` and ``set_unspent``
  (Grapevine's entry types 2 and 5, kept as what they are).

Existing amounts are whole numbers and stay what they were.
"""

from peewee import CharField, DecimalField


def up(migrator, db):
    """Make ``experienceentry.amount`` a decimal of two places and widen ``experienceentry.kind``."""
    migrator.migrate(
        migrator.alter_column_type("experienceentry", "amount", DecimalField(max_digits=10, decimal_places=2)),
        migrator.alter_column_type("experienceentry", "kind", CharField(max_length=20)),
    )
