"""Players in the app (issue 33): which account plays which character, and the one-time claim
codes an organiser shows so that a player can claim his character from its card."""

from __future__ import annotations

from peewee import DateTimeField, ForeignKeyField

from larp.models.base import CharField, utcnow, BaseModel
from larp.models.chronicles import User
from larp.models.characters import Character


class CharacterPlayer(BaseModel):
    """``user`` plays ``character`` (issue 33 item 1): he reads that character's whole sheet, health
    track, experience log, cards and rulings on his own pages (``/my``), and nothing of any other.

    One row per (user, character): the unique index makes a second link of the same pair (two
    organisers, or a claim and a link at the same moment) impossible on both engines. A character
    may have several players (a shared character), a player several characters. ``linked_by`` is the
    organiser who linked him (``None`` for a claim by card, or once that account is gone); ``how`` is
    "link" (an organiser, from the character's page), "invite" (a one-time invitation link) or
    "claim" (the card and a one-time claim code).
    """

    HOW = ("link", "invite", "claim")

    user = ForeignKeyField(User, backref="played_characters", on_delete="CASCADE")
    character = ForeignKeyField(Character, backref="players", on_delete="CASCADE")
    linked_at = DateTimeField(default=utcnow)
    linked_by = ForeignKeyField(User, backref="players_linked", null=True, on_delete="SET NULL")
    how = CharField(max_length=10, default="link")

    class Meta:
        indexes = ((("user", "character"), True),)


class ClaimCode(BaseModel):
    """A one-time code an organiser shows a player so that he can claim ``character`` from its card
    (issue 33 item 1). Only the SHA-256 of the code is stored; it works once (``used_at``, and
    ``used_by`` the account that claimed with it) and until ``expires_at``."""

    character = ForeignKeyField(Character, backref="claim_codes", on_delete="CASCADE")
    code_hash = CharField(unique=True, max_length=64)
    created_at = DateTimeField(default=utcnow)
    expires_at = DateTimeField()
    made_by = ForeignKeyField(User, backref="claim_codes_made", null=True, on_delete="SET NULL")
    used_at = DateTimeField(null=True)
    used_by = ForeignKeyField(User, backref="claim_codes_used", null=True, on_delete="SET NULL")
