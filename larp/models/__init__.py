"""Stored data (peewee models).

The character sheet is kept as it was written; what happens during a game
session (Traits lost, Ability levels expended) is recorded against that game
session in :class:`TraitLoss` and :class:`AbilitySpend`, so the next session
restores it by simply not counting it, and the history shows it. Damage is
kept as three counts on the character (aggravated, lethal, bashing: the
marks are derived, aggravated always above normal damage), changed with a
version check so two narrators never overwrite each other.

The models live by area: :mod:`larp.models.base` (the base model and checked texts),
:mod:`~larp.models.chronicles`, :mod:`~larp.models.characters`, :mod:`~larp.models.record`,
:mod:`~larp.models.webhooks`, :mod:`~larp.models.check_ins` and :mod:`~larp.models.scenes`; every name is importable from :mod:`larp.models` as before.
"""

from __future__ import annotations

from larp.models.base import (NOTES_MAX_CHARS, UnstorableText, unstorable_reason, first_unstorable, CharField, TextField, utcnow, BaseModel)  # noqa: F401
from larp.models.chronicles import (Chronicle, ChronicleSetting, User, Membership, LoginLink, LoginFailure, GameSession, ApiToken)  # noqa: F401
from larp.models.characters import (Character, Trait, Ability, Power, Background, MeritFlaw, Equipment, PendingImport)  # noqa: F401
from larp.models.record import (Ruling, RulingCharacter, TraitLoss, AbilitySpend, Torpor, ExperienceEntry, TabletopCombat)  # noqa: F401
from larp.models.webhooks import (Webhook, WebhookEvent, WebhookDelivery)  # noqa: F401
from larp.models.check_ins import (CheckIn, AttendanceAward)  # noqa: F401
from larp.models.scenes import (StoredScene, SceneRuling)  # noqa: F401
from larp.models.players import (CharacterPlayer, ClaimCode)  # noqa: F401
from larp.models.spends import SpendRequest  # noqa: F401
from larp.models.between_game_actions import (BetweenGameAction, ACTION_MAX_CHARS)  # noqa: F401

#: Every model, in the order the tables are created (a table after those it refers to).
MODELS = [
    Chronicle,
    ChronicleSetting,
    User,
    LoginLink,
    LoginFailure,
    GameSession,
    Character,
    Trait,
    Ability,
    Power,
    Background,
    MeritFlaw,
    Equipment,
    Ruling,
    RulingCharacter,
    TraitLoss,
    AbilitySpend,
    Torpor,
    ExperienceEntry,
    PendingImport,
    TabletopCombat,
    ApiToken,
    Membership,
    Webhook,
    WebhookEvent,
    WebhookDelivery,
    CheckIn,
    AttendanceAward,
    StoredScene,
    SceneRuling,
    CharacterPlayer,
    ClaimCode,
    SpendRequest,
    BetweenGameAction,
]
