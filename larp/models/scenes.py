"""Stored scenes (issue 30 item 4): a game session's scenes shared by every narrator, the turn each is
at, and the rulings made in them at their turn."""

from __future__ import annotations

from peewee import DateTimeField, ForeignKeyField, IntegerField

from larp.models.base import CharField, utcnow, BaseModel
from larp.models.chronicles import Chronicle, GameSession
from larp.models.characters import Character
from larp.models.record import Ruling


class StoredScene(BaseModel):
    """A scene of a game session, shared by every narrator of the chronicle (issue 30 item 4): its name
    and the turn it is at, which any narrator in it advances ("next turn"). A ruling made in it is
    recorded with the scene and the turn (:class:`SceneRuling`), so the one-challenge-per-turn rule
    (met-reference 3.1, DE p.71) sees every narrator's challenges."""

    chronicle = ForeignKeyField(Chronicle, backref="stored_scenes", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="stored_scenes", on_delete="CASCADE")
    name = CharField(max_length=80)
    turn = IntegerField(default=1)
    created_at = DateTimeField(default=utcnow)
    closed_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("game_session", "name"), True),)


class SceneRuling(BaseModel):
    """A ruling made in a stored scene, at its turn; for a challenge, the character it was against
    (the defender, a mass challenge's target) and its category, which the one-challenge-per-turn
    rule counts (met-reference 3.1)."""

    ruling = ForeignKeyField(Ruling, backref="scene_links", on_delete="CASCADE", unique=True)
    scene = ForeignKeyField(StoredScene, backref="rulings", on_delete="CASCADE")
    turn = IntegerField()
    target = ForeignKeyField(Character, backref="scene_challenges", null=True, on_delete="CASCADE")
    category = CharField(max_length=10, default="")

    class Meta:
        indexes = ((("scene", "turn", "target"), False),)
