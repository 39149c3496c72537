"""The first schema: exactly the tables that commit 676dabd's ``create_tables`` made.

A database made by that commit (before migrations existed) is recognised as being at
this version without being rebuilt (see :func:`larp.schema.upgrade`). The models here
are frozen copies, deliberately independent of :mod:`larp.models`: later migrations
change the schema, never this file. Python-side defaults (``utcnow``) are left out
because they are not part of the schema.
"""

from peewee import *  # noqa: F403 - a frozen migration names peewee's fields directly

from larp.migrations import frozen


def frozen_models(db):
    """The 676dabd tables as peewee models bound to ``db``, in creation order."""
    Chronicle = frozen(db, 'chronicle',
                       name=CharField(unique=True, max_length=120),
                       created_at=DateTimeField())

    Character = frozen(db, 'character', indexes=((('chronicle', 'name'), True),),
                       chronicle=ForeignKeyField(Chronicle, on_delete='CASCADE'),
                       name=CharField(max_length=120),
                       player_name=CharField(max_length=120, default=''),
                       creature=CharField(max_length=20, default='vampire'),
                       clan=CharField(max_length=80, default=''),
                       sect=CharField(max_length=80, default=''),
                       title=CharField(max_length=120, default=''),
                       generation=IntegerField(null=True),
                       morality_name=CharField(max_length=80, default='Humanity'),
                       morality_rating=IntegerField(default=0),
                       willpower_permanent=IntegerField(default=0),
                       willpower_current=IntegerField(default=0),
                       blood_max=IntegerField(default=0),
                       blood_current=IntegerField(default=0),
                       blood_per_turn=IntegerField(default=0),
                       damage_aggravated=IntegerField(default=0),
                       damage_lethal=IntegerField(default=0),
                       damage_bashing=IntegerField(default=0),
                       condition=CharField(max_length=20, default='active'),
                       staked=BooleanField(default=False),
                       weapon=CharField(max_length=40, default=''),
                       health_levels=JSONField(null=True),
                       tabletop=JSONField(default=dict),
                       notes=TextField(default=''),
                       narrator_notes=TextField(default=''),
                       player_contact=TextField(default=''),
                       short_code=CharField(unique=True, max_length=12),
                       card_token=CharField(unique=True, null=True, max_length=64),
                       version=IntegerField(default=1),
                       created_at=DateTimeField(),
                       updated_at=DateTimeField())

    Ability = frozen(db, 'ability', indexes=((('character', 'name'), True),),
                     character=ForeignKeyField(Character, on_delete='CASCADE'),
                     name=CharField(max_length=80),
                     level=IntegerField(default=1))

    GameSession = frozen(db, 'gamesession', indexes=((('chronicle', 'number'), True),),
                         chronicle=ForeignKeyField(Chronicle, on_delete='CASCADE'),
                         number=IntegerField(),
                         date=DateField(),
                         opened_at=DateTimeField(),
                         closed_at=DateTimeField(null=True))

    User = frozen(db, 'user',
                  username=CharField(unique=True, max_length=60),
                  display_name=CharField(max_length=120),
                  role=CharField(max_length=20),
                  password_hash=CharField(null=True),
                  active=BooleanField(default=True),
                  created_at=DateTimeField())

    Ruling = frozen(db, 'ruling',
                    chronicle=ForeignKeyField(Chronicle, on_delete='CASCADE'),
                    game_session=ForeignKeyField(GameSession, null=True, on_delete='SET NULL'),
                    narrator=ForeignKeyField(User, null=True, on_delete='SET NULL'),
                    kind=CharField(max_length=40),
                    created_at=DateTimeField(index=True),
                    summary=TextField(default=''),
                    inputs=JSONField(default=dict),
                    outcome=JSONField(default=dict),
                    steps=JSONField(default=list),
                    undone_at=DateTimeField(null=True),
                    undone_by=ForeignKeyField(User, null=True, on_delete='SET NULL'),
                    request_token=CharField(unique=True, null=True, max_length=64))

    AbilitySpend = frozen(db, 'abilityspend',
                          character=ForeignKeyField(Character, on_delete='CASCADE'),
                          game_session=ForeignKeyField(GameSession, on_delete='CASCADE'),
                          name=CharField(max_length=80),
                          levels=IntegerField(default=1),
                          ruling=ForeignKeyField(Ruling, null=True, on_delete='SET NULL'),
                          created_at=DateTimeField(),
                          restored_at=DateTimeField(null=True))

    ChronicleSetting = frozen(db, 'chroniclesetting', indexes=((('chronicle', 'key'), True),),
                              chronicle=ForeignKeyField(Chronicle, on_delete='CASCADE'),
                              key=CharField(max_length=80),
                              value=JSONField())

    LoginFailure = frozen(db, 'loginfailure',
                          username=CharField(index=True, max_length=60),
                          at=DateTimeField())

    LoginLink = frozen(db, 'loginlink',
                       user=ForeignKeyField(User, on_delete='CASCADE'),
                       token_hash=CharField(unique=True, max_length=64),
                       created_at=DateTimeField(),
                       expires_at=DateTimeField(),
                       used_at=DateTimeField(null=True))

    PendingImport = frozen(db, 'pendingimport',
                           token=CharField(unique=True, max_length=64),
                           user=ForeignKeyField(User, on_delete='CASCADE'),
                           chronicle=ForeignKeyField(Chronicle, on_delete='CASCADE'),
                           filename=CharField(),
                           data=BlobField(),
                           include_contact=BooleanField(default=False),
                           created_at=DateTimeField())

    Power = frozen(db, 'power', indexes=((('character', 'discipline', 'name'), True),),
                   character=ForeignKeyField(Character, on_delete='CASCADE'),
                   discipline=CharField(max_length=80),
                   name=CharField(max_length=80),
                   level=IntegerField(default=1))

    RulingCharacter = frozen(db, 'rulingcharacter',
                             ruling=ForeignKeyField(Ruling, on_delete='CASCADE'),
                             character=ForeignKeyField(Character, on_delete='CASCADE'),
                             role=CharField(max_length=40),
                             before=JSONField(null=True))

    TabletopCombat = frozen(db, 'tabletopcombat',
                            chronicle=ForeignKeyField(Chronicle, on_delete='CASCADE'),
                            narrator=ForeignKeyField(User, null=True, on_delete='SET NULL'),
                            state=JSONField(default=dict),
                            gear=JSONField(default=dict),
                            last=JSONField(default=list),
                            version=IntegerField(default=1),
                            created_at=DateTimeField(),
                            updated_at=DateTimeField(),
                            ended_at=DateTimeField(null=True))

    Torpor = frozen(db, 'torpor',
                    character=ForeignKeyField(Character, on_delete='CASCADE'),
                    game_session=ForeignKeyField(GameSession, null=True, on_delete='SET NULL'),
                    ruling=ForeignKeyField(Ruling, null=True, on_delete='SET NULL'),
                    cause=CharField(max_length=20),
                    started_on=DateField(),
                    table=CharField(max_length=20),
                    rating=IntegerField(),
                    length=CharField(max_length=80),
                    wake_on=DateField(null=True),
                    wake_session=IntegerField(null=True),
                    ended_on=DateField(null=True),
                    end_reason=CharField(max_length=20, default=''),
                    ended_by=ForeignKeyField(Ruling, null=True, on_delete='SET NULL'),
                    created_at=DateTimeField())

    Trait = frozen(db, 'trait', indexes=((('character', 'category', 'name', 'negative'), True),),
                   character=ForeignKeyField(Character, on_delete='CASCADE'),
                   category=CharField(max_length=10),
                   name=CharField(max_length=80),
                   count=IntegerField(default=1),
                   negative=BooleanField(default=False))

    TraitLoss = frozen(db, 'traitloss',
                       character=ForeignKeyField(Character, on_delete='CASCADE'),
                       game_session=ForeignKeyField(GameSession, on_delete='CASCADE'),
                       category=CharField(max_length=10),
                       name=CharField(max_length=80),
                       count=IntegerField(default=1),
                       ruling=ForeignKeyField(Ruling, null=True, on_delete='SET NULL'),
                       created_at=DateTimeField(),
                       restored_at=DateTimeField(null=True))
    return [Chronicle, Character, Ability, GameSession, User, Ruling, AbilitySpend, ChronicleSetting, LoginFailure, LoginLink, PendingImport, Power, RulingCharacter, TabletopCombat, Torpor, Trait, TraitLoss]


def up(migrator, db):
    """Create the 676dabd tables."""
    db.create_tables(frozen_models(db))


def down(migrator, db):
    """Drop every table (only for an empty chronicle: the data goes with them)."""
    db.drop_tables(list(reversed(frozen_models(db))))
