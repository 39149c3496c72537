"""A ruling's summary in the reader's language (issue 36 item 1): ``ruling.summary_said``.

The rules core now writes a ruling's summary as a message with its parameters
(:class:`larp.rules.explain.Phrase`); the record keeps that beside the English ``summary``, so a ruling
reads in whoever's language opens it. Rulings recorded before have none (``NULL``): they keep their
English summary, as exports of earlier versions do.
"""

from peewee import JSONField


def up(migrator, db):
    """Add ``ruling.summary_said`` (the summary's phrase data, JSON; ``NULL`` for none)."""
    migrator.migrate(migrator.add_column("ruling", "summary_said", JSONField(null=True)))
