"""Characters in the app (issue 14): the whole sheet the editor builds, retirement, scene
extras, the experience log, and which chronicle is the demo.

- ``chronicle``: ``is_demo`` (the chronicle the first ``larp serve`` loaded; an existing
  chronicle named like the demo is marked as it), ``needs_name`` (an empty chronicle
  the organiser names on the first page);
- ``character``: ``nature``, ``demeanor``, ``virtues``, ``derangements``, ``retired_at``,
  ``scene_extra``;
- ``ability.specialisations``, ``power.custom``;
- new tables ``background``, ``meritflaw``, ``equipment``, ``experienceentry``.

The tables are frozen copies (never import ``larp.models`` here).
"""

from peewee import *  # noqa: F403 - a frozen migration names peewee's fields directly

from larp.migrations import frozen

#: The demo chronicle's name in ``data/demo/chronicle.toml`` when this migration was written.
DEMO_NAME = "Nights of Ashford (demo)"


def frozen_models(db):
    """The four new tables as peewee models bound to ``db``, in creation order."""
    Chronicle = frozen(db, "chronicle")
    User = frozen(db, "user")
    GameSession = frozen(db, "gamesession")
    Character = frozen(db, "character")
    Ruling = frozen(db, "ruling")

    Background = frozen(db, 'background', indexes=((('character', 'name'), True),),
                        character=ForeignKeyField(Character, on_delete='CASCADE'),
                        name=CharField(max_length=80),
                        rating=IntegerField(default=1))

    MeritFlaw = frozen(db, 'meritflaw',
                       character=ForeignKeyField(Character, on_delete='CASCADE'),
                       kind=CharField(max_length=10),
                       key=CharField(max_length=80, default=''),
                       name=CharField(max_length=80),
                       cost=IntegerField(default=1),
                       note=CharField(max_length=80, default=''))

    Equipment = frozen(db, 'equipment',
                       character=ForeignKeyField(Character, on_delete='CASCADE'),
                       kind=CharField(max_length=10),
                       key=CharField(max_length=40, default=''),
                       name=CharField(max_length=80),
                       bonus_traits=IntegerField(default=0),
                       damage=IntegerField(default=0),
                       damage_type=CharField(max_length=20, default=''),
                       weapon_kind=CharField(max_length=20, default=''),
                       specials=JSONField(default=list),
                       rating=IntegerField(default=0),
                       covers=JSONField(default=list),
                       negative_traits=JSONField(default=list),
                       note=CharField(max_length=80, default=''))

    ExperienceEntry = frozen(db, 'experienceentry',
                             character=ForeignKeyField(Character, on_delete='CASCADE'),
                             game_session=ForeignKeyField(GameSession, null=True, on_delete='SET NULL'),
                             ruling=ForeignKeyField(Ruling, null=True, on_delete='SET NULL'),
                             user=ForeignKeyField(User, null=True, on_delete='SET NULL'),
                             kind=CharField(max_length=10),
                             amount=IntegerField(),
                             what=CharField(max_length=200, default=''),
                             created_at=DateTimeField())

    return [Background, MeritFlaw, Equipment, ExperienceEntry]


def up(migrator, db):
    """Add the columns and tables, and mark an existing demo chronicle as the demo."""
    migrator.migrate(
        migrator.add_column('chronicle', 'is_demo', BooleanField(default=False)),
        migrator.add_column('chronicle', 'needs_name', BooleanField(default=False)),
        migrator.add_column('character', 'nature', CharField(max_length=80, default='')),
        migrator.add_column('character', 'demeanor', CharField(max_length=80, default='')),
        migrator.add_column('character', 'virtues', JSONField(default='{}')),  # bound as text: peewee binds a default as it is
        migrator.add_column('character', 'derangements', JSONField(default='[]')),
        migrator.add_column('character', 'retired_at', DateTimeField(null=True)),
        migrator.add_column('character', 'scene_extra', BooleanField(default=False)),
        migrator.add_column('ability', 'specialisations', JSONField(default='[]')),
        migrator.add_column('power', 'custom', BooleanField(default=False)),
    )
    db.create_tables(frozen_models(db))

    Chronicle = frozen(db, 'chronicle',
                       name=CharField(max_length=120),
                       is_demo=BooleanField(default=False))

    Chronicle.update(is_demo=True).where(Chronicle.name == DEMO_NAME).execute()


def down(migrator, db):
    """Drop the new tables and columns (their data goes with them)."""
    db.drop_tables(list(reversed(frozen_models(db))))
    migrator.migrate(*[migrator.drop_column(table, column) for table, column in (
        ('chronicle', 'is_demo'), ('chronicle', 'needs_name'), ('character', 'nature'), ('character', 'demeanor'),
        ('character', 'virtues'), ('character', 'derangements'), ('character', 'retired_at'),
        ('character', 'scene_extra'), ('ability', 'specialisations'), ('power', 'custom'))])
