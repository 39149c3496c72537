"""Game night (issue 32): who checked in at the door for each game session, and the attendance
experience each one was given.

- ``checkin``: one row per character and game session (unique), with who checked him in, when,
  how (card, code, name, API) and the ruling that recorded it;
- ``attendanceaward``: at most one per character and game session (unique: the check that makes
  "never twice" exact when two desks or two processes close a game session at once), with the
  experience points given and the line of the experience log written.

Nothing existing changes: no character was ever checked in before this migration.
"""

from peewee import CharField, DateTimeField, DecimalField, ForeignKeyField

from larp.migrations import frozen


def up(migrator, db):
    """Create ``checkin`` and ``attendanceaward``."""

    Chronicle, GameSession, Character = frozen(db, "chronicle"), frozen(db, "gamesession"), frozen(db, "character")
    User, Ruling, ExperienceEntry = frozen(db, "user"), frozen(db, "ruling"), frozen(db, "experienceentry")

    CheckIn = frozen(db, "checkin", indexes=((("game_session", "character"), True),),
                     chronicle=ForeignKeyField(Chronicle, backref="check_ins", on_delete="CASCADE"),
                     game_session=ForeignKeyField(GameSession, backref="check_ins", on_delete="CASCADE"),
                     character=ForeignKeyField(Character, backref="check_ins", on_delete="CASCADE"),
                     checked_in_at=DateTimeField(),
                     user=ForeignKeyField(User, backref="check_ins", null=True, on_delete="SET NULL"),
                     user_name=CharField(max_length=120, default=""),
                     how=CharField(max_length=10, default="name"),
                     ruling=ForeignKeyField(Ruling, backref="check_ins", null=True, on_delete="SET NULL"))

    AttendanceAward = frozen(db, "attendanceaward", indexes=((("game_session", "character"), True),),
                             chronicle=ForeignKeyField(Chronicle, backref="attendance_awards", on_delete="CASCADE"),
                             game_session=ForeignKeyField(GameSession, backref="attendance_awards", on_delete="CASCADE"),
                             character=ForeignKeyField(Character, backref="attendance_awards", on_delete="CASCADE"),
                             amount=DecimalField(max_digits=10, decimal_places=2),
                             entry=ForeignKeyField(ExperienceEntry, backref="attendance_award", null=True, on_delete="SET NULL"),
                             awarded_at=DateTimeField())

    db.create_tables([CheckIn, AttendanceAward])


def down(migrator, db):
    """Drop both tables (the check-ins and the record of attendance experience given)."""
    db.execute_sql('DROP TABLE IF EXISTS "attendanceaward"')
    db.execute_sql('DROP TABLE IF EXISTS "checkin"')
