"""Game night (issue 32): who was checked in at the door for a game session, and the attendance
experience each was given."""

from __future__ import annotations

from peewee import DateTimeField, DecimalField, ForeignKeyField

from larp.models.base import CharField, utcnow, BaseModel
from larp.models.chronicles import Chronicle, GameSession, User
from larp.models.characters import Character
from larp.models.record import ExperienceEntry, Ruling


class CheckIn(BaseModel):
    """A character checked in at the door for a game session (issue 32): his player is here tonight.

    One row per character and game session (the unique index makes a second check-in, from another
    desk at the same moment, impossible on both engines). ``user`` is who checked him in and
    ``user_name`` his name as it was then (kept when the account is gone, or for an imported
    chronicle); ``how`` is "card" (a scanned card), "code", "name", "api" or "self" (his player, from
    his own page, issue 33); ``ruling`` is the
    record of the check-in (kind ``check_in``). Undoing a check-in deletes the row and records a
    ruling of kind ``check_in_undone``.
    """

    HOW = ("card", "code", "name", "api", "self")

    chronicle = ForeignKeyField(Chronicle, backref="check_ins", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="check_ins", on_delete="CASCADE")
    character = ForeignKeyField(Character, backref="check_ins", on_delete="CASCADE")
    checked_in_at = DateTimeField(default=utcnow)
    user = ForeignKeyField(User, backref="check_ins", null=True, on_delete="SET NULL")
    user_name = CharField(max_length=120, default="")
    how = CharField(max_length=10, default="name")
    ruling = ForeignKeyField(Ruling, backref="check_ins", null=True, on_delete="SET NULL")

    class Meta:
        indexes = ((("game_session", "character"), True),)


class AttendanceAward(BaseModel):
    """The attendance experience a character was given for a game session (issue 32): at most one
    per character and game session, whoever closes the session or presses "award now", however
    many at once (the unique index is the check, :mod:`larp.services.checkins`).

    ``amount`` is the experience points given (the chronicle setting ``attendance_experience`` at
    the time); ``entry`` the line it wrote in the experience log (``None`` once that line was taken
    back by undoing its ruling: the award stays, so it is never given twice).
    """

    chronicle = ForeignKeyField(Chronicle, backref="attendance_awards", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="attendance_awards", on_delete="CASCADE")
    character = ForeignKeyField(Character, backref="attendance_awards", on_delete="CASCADE")
    amount = DecimalField(max_digits=10, decimal_places=2)
    entry = ForeignKeyField(ExperienceEntry, backref="attendance_award", null=True, on_delete="SET NULL")
    awarded_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("game_session", "character"), True),)
