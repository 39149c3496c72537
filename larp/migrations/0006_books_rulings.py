"""Rulings that match the books (issue 17): what a character carries between rulings.

- ``character.agg_blood_marked``: Blood Traits put toward an aggravated wound over several nights,
  marked against it until it heals at the next sunset after the last (``agg_heal_model``
  "lotnr_instalments", LotNR "Blood", met-reference 5.1);
- ``character.treated``: a mortal or ghoul receives medical treatment, so his lethal wounds past
  Hurt heal on 000's table instead of worsening a level a day (000 "Mortal's Healing Times").
"""

from peewee import BooleanField, IntegerField


def up(migrator, db):
    """Add the two columns (every existing character: nothing marked, untreated)."""
    migrator.migrate(
        migrator.add_column('character', 'agg_blood_marked', IntegerField(default=0)),
        migrator.add_column('character', 'treated', BooleanField(default=False)),
    )


def down(migrator, db):
    """Drop the two columns (their data goes with them)."""
    migrator.migrate(migrator.drop_column('character', 'agg_blood_marked'),
                     migrator.drop_column('character', 'treated'))
