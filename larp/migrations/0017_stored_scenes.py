"""Stored scenes (issue 30 item 4): ``storedscene`` (a scene of a game session shared by every
narrator of the chronicle, with the turn it is at) and ``sceneruling`` (each ruling made in a scene,
with its turn, and for a challenge the character it was against and its category)."""

from peewee import CharField, DateTimeField, ForeignKeyField, IntegerField

from larp.migrations import frozen


def up(migrator, db):
    """Create ``storedscene`` and ``sceneruling``."""

    Chronicle = frozen(db, "chronicle")
    GameSession = frozen(db, "gamesession")
    Character = frozen(db, "character")
    Ruling = frozen(db, "ruling")

    StoredScene = frozen(db, "storedscene", indexes=((("game_session", "name"), True),),
                         chronicle=ForeignKeyField(Chronicle, backref="stored_scenes", on_delete="CASCADE"),
                         game_session=ForeignKeyField(GameSession, backref="stored_scenes", on_delete="CASCADE"),
                         name=CharField(max_length=80),
                         turn=IntegerField(default=1),
                         created_at=DateTimeField(),
                         closed_at=DateTimeField(null=True))

    SceneRuling = frozen(db, "sceneruling", indexes=((("scene", "turn", "target"), False),),
                         ruling=ForeignKeyField(Ruling, backref="scene_links", on_delete="CASCADE", unique=True),
                         scene=ForeignKeyField(StoredScene, backref="rulings", on_delete="CASCADE"),
                         turn=IntegerField(),
                         target=ForeignKeyField(Character, backref="scene_challenges", null=True, on_delete="CASCADE"),
                         category=CharField(max_length=10, default=""))

    db.create_tables([StoredScene, SceneRuling])


def down(migrator, db):
    """Drop the two tables (the rulings stay, without their scene and turn)."""
    for table in ("sceneruling", "storedscene"):
        db.execute_sql(f'DROP TABLE IF EXISTS "{table}"')
