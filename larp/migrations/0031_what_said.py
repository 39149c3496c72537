"""What a request to spend experience buys, and what an experience line is for, in the reader's language
(issue 36 item 1): ``spendrequest.what_said`` and ``experienceentry.what_said``.

The price of a purchase now says what it buys as a message with its parameters ("Ability %(name)s
%(level)s", :class:`larp.rules.explain.Phrase`); the request keeps that beside its English ``what``, and the
experience line an approval or its undo writes keeps its own, so the organisers' queue, the player's list
and the experience log read in whoever's language opens them. Rows written before, and lines typed by an
organiser (his own words), have none (``NULL``): they read as written.
"""

from peewee import JSONField


def up(migrator, db):
    """Add ``what_said`` (the phrase data, JSON; ``NULL`` for none) to ``spendrequest`` and ``experienceentry``."""
    migrator.migrate(migrator.add_column("spendrequest", "what_said", JSONField(null=True)),
                     migrator.add_column("experienceentry", "what_said", JSONField(null=True)))
