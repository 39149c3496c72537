"""Experience spends with approval (issue 33 item 2): ``spendrequest``, a player's request to spend
experience on his character's sheet, its state (asked, approved, refused, change_asked, withdrawn,
undone), the organiser's answer, the ruling that spent it and the one that took it back.

Nothing existing changes: no request was ever asked before this migration.
"""

from peewee import CharField, DateTimeField, DecimalField, ForeignKeyField, JSONField, TextField

from larp.migrations import frozen


def up(migrator, db):
    """Create ``spendrequest``."""

    Chronicle, Character, User, Ruling = (frozen(db, "chronicle"), frozen(db, "character"), frozen(db, "user"),
                                           frozen(db, "ruling"))

    SpendRequest = frozen(db, "spendrequest",
                          chronicle=ForeignKeyField(Chronicle, backref="spend_requests", on_delete="CASCADE"),
                          character=ForeignKeyField(Character, backref="spend_requests", on_delete="CASCADE"),
                          asked_by=ForeignKeyField(User, backref="spend_requests", null=True, on_delete="SET NULL"),
                          asked_by_name=CharField(max_length=120, default=""),
                          request=JSONField(default=dict),
                          what=CharField(max_length=300, default=""),
                          cost=DecimalField(max_digits=10, decimal_places=2, default=0),
                          note=TextField(default=""),
                          state=CharField(max_length=20, default="asked", index=True),
                          answer=TextField(default=""),
                          answered_by=ForeignKeyField(User, backref="spend_answers", null=True, on_delete="SET NULL"),
                          answered_by_name=CharField(max_length=120, default=""),
                          asked_at=DateTimeField(),
                          answered_at=DateTimeField(null=True),
                          ruling=ForeignKeyField(Ruling, backref="spend_requests", null=True, on_delete="SET NULL"),
                          undo_ruling=ForeignKeyField(Ruling, backref="spend_undos", null=True, on_delete="SET NULL"),
                          bought=JSONField(default=dict),
                          before=JSONField(default=dict))

    db.create_tables([SpendRequest])


def down(migrator, db):
    """Drop ``spendrequest`` (the sheets and the experience log keep what was approved)."""
    db.execute_sql('DROP TABLE IF EXISTS "spendrequest"')
