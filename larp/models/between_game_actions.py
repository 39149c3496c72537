"""Between-game actions (issue 33 item 3): what a player's character does between two game sessions,
written for the coming game session, and the organisers' private answer to each."""

from __future__ import annotations

from peewee import DateTimeField, ForeignKeyField, IntegerField

from larp.models.base import CharField, TextField, utcnow, BaseModel
from larp.models.chronicles import Chronicle, GameSession, User
from larp.models.characters import Character

#: The most characters one between-game action (or its answer) may hold: "a few lines", with room.
ACTION_MAX_CHARS = 2000


class BetweenGameAction(BaseModel):
    """One between-game action of a character for a game session, and the organisers' answer.

    Only the character's player(s) and the chronicle's organisers ever see it (narrators do not:
    it is not a ruling and is not in the record of rulings). It stays on the record of its game
    session and character: a withdrawn action keeps its text, marked ``withdrawn_at``; nothing is
    deleted but with its character or game session.

    ``author``/``author_name`` is who wrote it (the player, or an organiser who entered one handed in
    on paper), the name kept as it was then; ``answer``/``answered_by``/``answered_at`` the organiser's
    answer ("" until answered). ``version`` grows with every change (an edit, a withdrawal, an
    answer): a change made on a page that showed an older version is refused, so a player's late edit
    never slips under an organiser's answer, nor two organisers' answers under each other.
    ``request_token`` is the one-time token of the form (or the API call's ``Idempotency-Key``) that
    wrote it: unique per character, so a double tap writes one action, not two.
    """

    chronicle = ForeignKeyField(Chronicle, backref="between_game_actions", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="between_game_actions", on_delete="CASCADE")
    character = ForeignKeyField(Character, backref="between_game_actions", on_delete="CASCADE")
    author = ForeignKeyField(User, backref="between_game_actions", null=True, on_delete="SET NULL")
    author_name = CharField(max_length=120, default="")
    text = TextField(max_length=ACTION_MAX_CHARS)
    written_at = DateTimeField(default=utcnow)
    edited_at = DateTimeField(null=True)
    withdrawn_at = DateTimeField(null=True)
    answer = TextField(default="", max_length=ACTION_MAX_CHARS)
    answered_by = ForeignKeyField(User, backref="between_game_answers", null=True, on_delete="SET NULL")
    answered_by_name = CharField(max_length=120, default="")
    answered_at = DateTimeField(null=True)
    version = IntegerField(default=1)
    request_token = CharField(max_length=64, null=True)

    class Meta:
        indexes = (
            (("game_session", "character"), False),
            (("character", "request_token"), True),
        )

    @property
    def state(self) -> str:
        """"withdrawn", "answered" or "waiting" (for an answer)."""
        if self.withdrawn_at is not None:
            return "withdrawn"
        return "answered" if self.answered_at is not None else "waiting"
