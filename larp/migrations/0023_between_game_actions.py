"""Between-game actions (issue 33 item 3): ``betweengameaction``, a character's action for a game
session and the organisers' private answer, with its author, times, a version for the check that two
changes never overwrite each other, and the one-time token of the form that wrote it (unique per
character: a double tap writes one action).

Nothing existing changes.
"""

from peewee import CharField, DateTimeField, ForeignKeyField, IntegerField, TextField

from larp.migrations import frozen


def up(migrator, db):
    """Create ``betweengameaction``."""

    Chronicle, GameSession = frozen(db, "chronicle"), frozen(db, "gamesession")
    Character, User = frozen(db, "character"), frozen(db, "user")

    BetweenGameAction = frozen(db, "betweengameaction", indexes=((("game_session", "character"), False), (("character", "request_token"), True)),
                               chronicle=ForeignKeyField(Chronicle, backref="between_game_actions", on_delete="CASCADE"),
                               game_session=ForeignKeyField(GameSession, backref="between_game_actions", on_delete="CASCADE"),
                               character=ForeignKeyField(Character, backref="between_game_actions", on_delete="CASCADE"),
                               author=ForeignKeyField(User, backref="between_game_actions", null=True, on_delete="SET NULL"),
                               author_name=CharField(max_length=120, default=""),
                               text=TextField(),
                               written_at=DateTimeField(),
                               edited_at=DateTimeField(null=True),
                               withdrawn_at=DateTimeField(null=True),
                               answer=TextField(default=""),
                               answered_by=ForeignKeyField(User, backref="between_game_answers", null=True, on_delete="SET NULL"),
                               answered_by_name=CharField(max_length=120, default=""),
                               answered_at=DateTimeField(null=True),
                               version=IntegerField(default=1),
                               request_token=CharField(max_length=64, null=True))

    db.create_tables([BetweenGameAction])


def down(migrator, db):
    """Drop ``betweengameaction`` (every between-game action and answer goes with it)."""
    db.execute_sql('DROP TABLE IF EXISTS "betweengameaction"')
