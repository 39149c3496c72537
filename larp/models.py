"""Stored data (peewee models).

The character sheet is kept as it was written; what happens during a game
session (Traits lost, Ability levels expended) is recorded against that game
session in :class:`TraitLoss` and :class:`AbilitySpend`, so the next session
restores it by simply not counting it, and the history shows it. Damage is
kept as three counts on the character (aggravated, lethal, bashing: the
marks are derived, aggravated always above normal damage), changed with a
version check so two narrators never overwrite each other.
"""

from __future__ import annotations

from datetime import datetime, timezone

import peewee
from peewee import (
    BigIntegerField,
    BlobField,
    BooleanField,
    DateField,
    DateTimeField,
    DecimalField,
    ForeignKeyField,
    IntegerField,
    JSONField,
    Model,
)

from larp.db import db

#: The most characters a free text of a character (notes, narrator notes, contact) may hold.
NOTES_MAX_CHARS = 20_000


class UnstorableText(ValueError):
    """A text the database must not store: longer than its column allows, or holding a NUL
    character or an unpaired surrogate (which PostgreSQL and SQLite's UTF-8 refuse).

    Raised before anything is sent, so the transaction around the write is rolled back and
    both engines refuse the same texts (SQLite does not enforce ``VARCHAR`` lengths itself).
    ``field`` is the model field's name, ``message`` says what is wrong.
    """

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message = message
        self.field = field


def unstorable_reason(text: str) -> str | None:
    """Why no database may be given ``text`` even to compare with (PostgreSQL refuses a NUL in any
    query, and text that is not valid Unicode), or ``None``."""
    if "\x00" in text:
        return "holds a NUL character"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "holds characters that are not valid text"
    return None


def first_unstorable(value, where: str = "") -> tuple[str, str] | None:
    """The first text inside ``value`` (JSON data: objects, arrays, texts) that :func:`unstorable_reason`
    refuses, as ``(where, why)`` (``where`` like ``challenger.name`` or ``tests[2].by``), else ``None``."""
    stack = [(where, value)]
    while stack:
        place, item = stack.pop()
        if isinstance(item, str):
            why = unstorable_reason(item)
            if why:
                return place or "body", why
        elif isinstance(item, dict):
            for key, child in item.items():
                why = unstorable_reason(str(key))
                if why:
                    return f"{place}.{key}".strip(".") or "body", why
                stack.append((f"{place}.{key}".strip("."), child))
        elif isinstance(item, list):
            stack.extend((f"{place}[{i}]", child) for i, child in enumerate(item))
    return None


class _CheckedText:
    """Mixed into the text fields of every model: what is written is refused as
    :class:`UnstorableText` describes (by :class:`BaseModel`, on every insert and update).
    A comparison (``WHERE name = ...``) is not checked: a text too long for the column
    simply matches nothing."""

    def checked(self, value):
        """``value`` when it may be stored in this field.

        Raises:
            UnstorableText: a text too long for ``max_length``, or with a NUL or unpaired surrogate inside.
        """
        if isinstance(value, str):
            limit = getattr(self, "max_length", None)
            if (not limit or len(value) <= limit) and "\x00" not in value and value.isascii():
                return value
            label = self.verbose_name or self.name.replace("_", " ")
            if limit and len(value) > limit:
                raise UnstorableText(f"The {label} is too long: at most {limit:,} characters "
                                     f"(this one has {len(value):,}).", self.name)
            why = unstorable_reason(value)
            if why:
                raise UnstorableText(f"The {label} {why}, which cannot be stored.", self.name)
        return value


class CharField(_CheckedText, peewee.CharField):
    """A ``VARCHAR(max_length)`` whose length is enforced on every engine."""


class TextField(_CheckedText, peewee.TextField):
    """A ``TEXT`` column, with an optional ``max_length`` enforced on every engine."""

    def __init__(self, *args, max_length: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_length = max_length


def utcnow() -> datetime:
    """The current time in UTC, naive (stored as UTC everywhere)."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


class BaseModel(Model):
    """Base of every model: bound to the app's database proxy. Every text written (``create``,
    ``save``, ``insert``, ``insert_many``, ``update``) is checked by its field first, so both engines
    refuse the same texts (:class:`UnstorableText`)."""

    class Meta:
        database = db

    @classmethod
    def _normalize_data(cls, data, kwargs):
        normalized = super()._normalize_data(data, kwargs)
        if isinstance(normalized, dict):
            for field, value in normalized.items():
                if isinstance(field, _CheckedText):
                    field.checked(value)
        return normalized

    @classmethod
    def insert_many(cls, rows, fields=None):
        """Insert ``rows`` (dicts, or tuples of ``fields``), their texts checked first.

        Raises:
            UnstorableText: a text the database must not store.
        """
        rows = list(rows)
        for row in rows:
            if isinstance(row, dict):
                cls._normalize_data(row, {})
            elif fields is not None:
                for field, value in zip(fields, row):
                    field = cls._meta.fields[field] if isinstance(field, str) else field
                    if isinstance(field, _CheckedText):
                        field.checked(value)
        return super().insert_many(rows, fields=fields)


class Chronicle(BaseModel):
    """A chronicle: one game world, its characters, game sessions and settings.

    ``is_demo``: loaded from ``data/demo/`` by the first ``larp serve`` (an
    untouched demo may be replaced by an import, :func:`larp.services.chronicles.untouched_demo`).
    ``needs_name``: made empty (``larp serve --empty``, or the demo removed); the
    first page asks an organiser to name it.
    """

    name = CharField(unique=True, max_length=120)
    created_at = DateTimeField(default=utcnow)
    is_demo = BooleanField(default=False)
    needs_name = BooleanField(default=False)
    #: Archived by an administrator: off every switcher and refused to its members (kept, restorable).
    archived_at = DateTimeField(null=True)


class ChronicleSetting(BaseModel):
    """One overridden chronicle setting (defaults live in ``data/settings/``)."""

    chronicle = ForeignKeyField(Chronicle, backref="setting_rows", on_delete="CASCADE")
    key = CharField(max_length=80)
    value = JSONField()

    class Meta:
        indexes = ((("chronicle", "key"), True),)


class User(BaseModel):
    """A person who logs in: in each chronicle of his (:class:`Membership`) an organiser
    (everything) or a narrator (adjudicates); an administrator (``is_admin``) keeps the chronicles.

    Players never log in: their card's link opens their own character.
    ``password_hash`` is werkzeug's hash; ``None`` until a password is set
    (the first organiser logs in through a one-time console link).
    """

    ROLES = ("organiser", "narrator")

    username = CharField(unique=True, max_length=60)
    display_name = CharField(max_length=120)
    role = CharField(max_length=20, choices=[(r, r) for r in ROLES])
    password_hash = CharField(null=True, max_length=255)
    active = BooleanField(default=True)
    created_at = DateTimeField(default=utcnow)
    #: Every session cookie carries the generation it was issued in; logging out, a new
    #: password and deactivation move it on, which ends every session issued before.
    session_generation = IntegerField(default=0)
    #: An administrator of the install: creates, renames, archives and deletes chronicles and
    #: appoints their organisers (issue 22). Being one gives no role inside a chronicle.
    is_admin = BooleanField(default=False)
    #: The chronicle this user last worked in, opened by the paths that name none.
    current_chronicle = ForeignKeyField(Chronicle, null=True, on_delete="SET NULL", backref="current_for")


class Membership(BaseModel):
    """A user's role in one chronicle (issue 22): ``organiser`` (everything in it) or ``narrator``.

    A user sees and acts in exactly the chronicles he has a membership of; ``User.role`` is only
    the role the account was made with.
    """

    user = ForeignKeyField(User, backref="memberships", on_delete="CASCADE")
    chronicle = ForeignKeyField(Chronicle, backref="memberships", on_delete="CASCADE")
    role = CharField(max_length=20, choices=[(r, r) for r in User.ROLES])
    created_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("user", "chronicle"), True),)


class LoginLink(BaseModel):
    """A one-time login link. Only the SHA-256 of the token is stored."""

    user = ForeignKeyField(User, backref="login_links", on_delete="CASCADE")
    token_hash = CharField(unique=True, max_length=64)
    created_at = DateTimeField(default=utcnow)
    expires_at = DateTimeField()
    used_at = DateTimeField(null=True)


class LoginFailure(BaseModel):
    """Wrong passwords within one attempt window: one row per client address (``scope``
    "address", ``key`` the address) and one per account (``scope`` "user", ``key`` its id).
    See :mod:`larp.services.lockout`.

    ``failures`` counts the window's wrong passwords; an address row's ``names`` counts them per
    made-up name typed from it, an account row's ``devices`` per trusted browser.
    """

    scope = CharField(max_length=10)
    key = CharField(max_length=64)
    failures = IntegerField(default=0)
    names = JSONField(default=dict)
    devices = JSONField(default=dict)
    window_start = DateTimeField(default=utcnow)
    last_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("scope", "key"), True),)


class GameSession(BaseModel):
    """A dated game session of a chronicle. At most one is open at a time."""

    chronicle = ForeignKeyField(Chronicle, backref="game_sessions", on_delete="CASCADE")
    number = IntegerField()
    date = DateField()
    opened_at = DateTimeField(default=utcnow)
    closed_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("chronicle", "number"), True),)

    @property
    def label(self) -> str:
        """"Game session 3 (2026-11-29)"."""
        return f"Game session {self.number} ({self.date.isoformat()})"


class Character(BaseModel):
    """A character of a chronicle (vampire, ghoul or mortal).

    Units: Willpower in Willpower Traits; blood in blood points; damage in
    health levels; generation as a number (``None`` for ghouls and mortals).
    ``condition`` is one of ``CONDITIONS``; ``weapon`` is the live armory key
    of the weapon the character has in hand ("" for bare hands), pre-filled on
    the challenge screen (the weapons carried are :class:`Equipment` rows).
    ``virtues`` maps a Virtue's name to its rating in Traits; ``derangements``
    is a list of names. ``retired_at``: the player left (hidden from pickers,
    the board and the card sheet; kept in the record, can be restored).
    ``scene_extra``: made for one scene, removed with the other extras when
    the game session closes. ``card_revoked_at``: when the card token was taken away
    (``None``: never revoked, or issued again since), so a character without a card
    token says whether his card was never issued or revoked. ``agg_blood_marked``: blood points put toward an aggravated
    wound over several nights (``agg_heal_model`` "lotnr_instalments").
    ``treated``: a mortal or ghoul under medical care (000 "Mortal's Healing Times").
    ``imported_unused``: what an imported file held that the sheet has no place for,
    kept as written (``larp.grapevine.kept``): shown on the character's page, written
    back by the Grapevine export, read by no rule.
    """

    CONDITIONS = ("active", "unconscious", "torpor", "final_death", "dead")

    chronicle = ForeignKeyField(Chronicle, backref="characters", on_delete="CASCADE")
    name = CharField(max_length=120)
    player_name = CharField(max_length=120, default="")
    creature = CharField(max_length=20, default="vampire")
    clan = CharField(max_length=80, default="")
    sect = CharField(max_length=80, default="")
    title = CharField(max_length=120, default="")
    generation = IntegerField(null=True)
    morality_name = CharField(max_length=80, default="Humanity")
    morality_rating = IntegerField(default=0)
    willpower_permanent = IntegerField(default=0)
    willpower_current = IntegerField(default=0)
    blood_max = IntegerField(default=0)
    blood_current = IntegerField(default=0)
    blood_per_turn = IntegerField(default=0)
    damage_aggravated = IntegerField(default=0)
    damage_lethal = IntegerField(default=0)
    damage_bashing = IntegerField(default=0)
    condition = CharField(max_length=20, default="active")
    staked = BooleanField(default=False)
    weapon = CharField(max_length=40, default="")
    health_levels = JSONField(null=True)
    tabletop = JSONField(default=dict)
    notes = TextField(default="", max_length=NOTES_MAX_CHARS)
    narrator_notes = TextField(default="", max_length=NOTES_MAX_CHARS)
    player_contact = TextField(default="", max_length=NOTES_MAX_CHARS)
    short_code = CharField(max_length=12)
    card_token = CharField(max_length=64, unique=True, null=True)
    version = IntegerField(default=1)
    created_at = DateTimeField(default=utcnow)
    updated_at = DateTimeField(default=utcnow)
    nature = CharField(max_length=80, default="")
    demeanor = CharField(max_length=80, default="")
    virtues = JSONField(default=dict)
    derangements = JSONField(default=list)
    retired_at = DateTimeField(null=True)
    scene_extra = BooleanField(default=False)
    agg_blood_marked = IntegerField(default=0)
    treated = BooleanField(default=False)
    imported_unused = JSONField(default=dict)
    card_revoked_at = DateTimeField(null=True)
    #: The printed sheet's edition (issue 34): 1 when created, one more with each change of the sheet
    #: itself (:mod:`larp.services.editions`); damage, healing and other rulings leave it alone.
    sheet_edition = IntegerField(default=1)
    #: When the sheet was last printed, and the edition printed then (``None``: never printed).
    sheet_printed_at = DateTimeField(null=True)
    sheet_printed_edition = IntegerField(null=True)
    #: The condition the last Virtue Test left him in (issue 30 item 8; larp/rules/frenzy.py): "frenzy",
    #: "rotschreck" or "" (neither); later challenges read it (no wound penalty in frenzy, LotNR Frenzy).
    frenzy = CharField(max_length=12, default="")

    class Meta:
        # Card codes are unique within a chronicle (issue 22): two chronicles may both hold a VIV-1.
        indexes = ((("chronicle", "name"), True), (("chronicle", "short_code"), True))


class Trait(BaseModel):
    """An adjective Trait on the sheet, with its count ("Quick x2")."""

    character = ForeignKeyField(Character, backref="trait_rows", on_delete="CASCADE")
    category = CharField(max_length=10)
    name = CharField(max_length=80)
    count = IntegerField(default=1)
    negative = BooleanField(default=False)

    class Meta:
        indexes = ((("character", "category", "name", "negative"), True),)


class Ability(BaseModel):
    """An Ability on the sheet with its level (each level is one retest a session) and its
    specialisations (a list of names; each adds one bonus Trait in ties, LotNR)."""

    character = ForeignKeyField(Character, backref="ability_rows", on_delete="CASCADE")
    name = CharField(max_length=80)
    level = IntegerField(default=1)
    specialisations = JSONField(default=list)

    class Meta:
        indexes = ((("character", "name"), True),)


class Power(BaseModel):
    """A Discipline power held (``level`` 1 Basic ... 5); ``custom``: not in ``data/disciplines.toml``."""

    character = ForeignKeyField(Character, backref="power_rows", on_delete="CASCADE")
    discipline = CharField(max_length=80)
    name = CharField(max_length=80)
    level = IntegerField(default=1)
    custom = BooleanField(default=False)

    class Meta:
        indexes = ((("character", "discipline", "name"), True),)


class Background(BaseModel):
    """A Background on the sheet with its rating in Traits (Allies 2, Resources 3)."""

    character = ForeignKeyField(Character, backref="background_rows", on_delete="CASCADE")
    name = CharField(max_length=80)
    rating = IntegerField(default=1)

    class Meta:
        indexes = ((("character", "name"), True),)


class MeritFlaw(BaseModel):
    """A Merit or Flaw on the sheet (``kind`` "merit" or "flaw").

    ``key`` is the catalogue's id in ``data/merits_flaws.toml`` (the rules read
    it: "ambidextrous", "huge_size"), "" for a custom one; ``cost`` in Traits;
    ``note`` what the sheet says with it (which sense, whose boon).
    """

    KINDS = ("merit", "flaw")

    character = ForeignKeyField(Character, backref="merit_flaw_rows", on_delete="CASCADE")
    kind = CharField(max_length=10)
    key = CharField(max_length=80, default="")
    name = CharField(max_length=80)
    cost = IntegerField(default=1)
    note = CharField(max_length=80, default="")


class Equipment(BaseModel):
    """A weapon carried or armor worn (``kind`` "weapon" or "armor").

    ``key`` is the live armory key (``data/armory.toml``), whose card gives the
    numbers; "" for a custom piece, whose numbers are stored here: a weapon's
    ``bonus_traits``, ``damage`` (health levels), ``damage_type``, ``specials``,
    ``weapon_kind`` (:data:`larp.sheet.WEAPON_KINDS`); armor's ``rating`` (extra
    health levels) and ``covers`` (what it protects). Both may have Negative
    Traits and a note.
    """

    KINDS = ("weapon", "armor")

    character = ForeignKeyField(Character, backref="equipment_rows", on_delete="CASCADE")
    kind = CharField(max_length=10)
    key = CharField(max_length=40, default="")
    name = CharField(max_length=80)
    bonus_traits = IntegerField(default=0)
    damage = IntegerField(default=0)
    damage_type = CharField(max_length=20, default="")
    weapon_kind = CharField(max_length=20, default="")
    specials = JSONField(default=list)
    rating = IntegerField(default=0)
    covers = JSONField(default=list)
    negative_traits = JSONField(default=list)
    note = CharField(max_length=80, default="")


class Ruling(BaseModel):
    """The record of one adjudication: when, which narrator, inputs, outcome, explanation."""

    chronicle = ForeignKeyField(Chronicle, backref="rulings", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="rulings", null=True, on_delete="SET NULL")
    narrator = ForeignKeyField(User, backref="rulings", null=True, on_delete="SET NULL")
    kind = CharField(max_length=40)
    created_at = DateTimeField(default=utcnow, index=True)
    summary = TextField(default="")
    inputs = JSONField(default=dict)
    outcome = JSONField(default=dict)
    steps = JSONField(default=list)
    undone_at = DateTimeField(null=True)
    undone_by = ForeignKeyField(User, null=True, on_delete="SET NULL", backref="undone_rulings")
    #: The one-time token of the form (or the API call's ``Idempotency-Key``) that asked for this
    #: ruling: the same form posted twice (a double tap, a replayed request) cannot record it twice.
    #: Unique per chronicle and narrator (the person who sent it: an API token's owner), so two
    #: chronicles' programs may number their keys alike (issue 28 item 1).
    request_token = CharField(max_length=64, null=True)
    #: The SHA-256 of the API call that carried the key (method, path and body), so the same key
    #: sent with another call is told apart from a retry (``None``: a form's token, drawn per form).
    request_hash = CharField(max_length=64, null=True)
    #: The narrator's name as it was when the ruling was made: kept when the account is gone or
    #: was never on this installation (a chronicle imported from another one).
    narrator_name = CharField(max_length=120, default="")

    def save(self, *args, **kwargs):
        """Save, writing down the narrator's name if it is not set yet."""
        if not self.narrator_name and self.narrator_id is not None:
            self.narrator_name = self.narrator.display_name
        return super().save(*args, **kwargs)

    @property
    def narrator_label(self) -> str:
        """Who made the ruling, for the screen ("" when no narrator was recorded)."""
        return self.narrator_name or (self.narrator.display_name if self.narrator_id is not None else "")

    class Meta:
        indexes = ((("chronicle", "narrator", "request_token"), True),)


class RulingCharacter(BaseModel):
    """Which characters a ruling concerns, and as what (challenger, defender...).

    ``before`` is the character's changeable state just before the ruling
    (see :func:`larp.services.records.snapshot`), so the last change to a
    character can be undone.
    """

    ruling = ForeignKeyField(Ruling, backref="participants", on_delete="CASCADE")
    character = ForeignKeyField(Character, backref="ruling_links", on_delete="CASCADE")
    role = CharField(max_length=40)
    before = JSONField(null=True)


class TraitLoss(BaseModel):
    """A Trait lost during a game session (counted out of the sheet until the session ends)."""

    character = ForeignKeyField(Character, backref="trait_losses", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="trait_losses", on_delete="CASCADE")
    category = CharField(max_length=10)
    name = CharField(max_length=80)
    count = IntegerField(default=1)
    ruling = ForeignKeyField(Ruling, backref="trait_losses", null=True, on_delete="SET NULL")
    created_at = DateTimeField(default=utcnow)
    restored_at = DateTimeField(null=True)

    class Meta:
        # One character's losses in one game session, found without reading the session's others
        # (the live poll, issue 29: a game night of a thousand characters has thousands).
        indexes = ((("character", "game_session"), False),)


class AbilitySpend(BaseModel):
    """Ability levels expended during a game session (for retests and the like)."""

    character = ForeignKeyField(Character, backref="ability_spends", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="ability_spends", on_delete="CASCADE")
    name = CharField(max_length=80)
    levels = IntegerField(default=1)
    ruling = ForeignKeyField(Ruling, backref="ability_spends", null=True, on_delete="SET NULL")
    created_at = DateTimeField(default=utcnow)
    restored_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("character", "game_session"), False),)  # as TraitLoss's


class Torpor(BaseModel):
    """A torpor: when and why it began, when the vampire may try to wake, how it ended.

    ``wake_on`` is the first night of a wake attempt under calendar time;
    ``wake_session`` the first game session number under the game-session
    scale (the other is ``None``). ``ruling`` is the ruling that recorded it
    and ``ended_by`` the one that ended it (an undo deletes or reopens it).
    """

    CAUSES = ("wounds", "blood_loss", "voluntary")

    character = ForeignKeyField(Character, backref="torpors", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="torpors", null=True, on_delete="SET NULL")
    ruling = ForeignKeyField(Ruling, backref="torpors_started", null=True, on_delete="SET NULL")
    cause = CharField(max_length=20)
    started_on = DateField()
    table = CharField(max_length=20)
    rating = IntegerField()
    length = CharField(max_length=80)
    wake_on = DateField(null=True)
    wake_session = IntegerField(null=True)
    ended_on = DateField(null=True)
    end_reason = CharField(max_length=20, default="")
    ended_by = ForeignKeyField(Ruling, backref="torpors_ended", null=True, on_delete="SET NULL")
    created_at = DateTimeField(default=utcnow)


class ExperienceEntry(BaseModel):
    """One line of a character's experience log: ``amount`` experience points ``earned`` or
    ``spent`` (``kind``), on what, in which game session, by whom. ``ruling`` is the sheet
    edit that recorded it (undoing the edit removes the line), or the import that brought it.

    Grapevine's history also ``lost`` points (taken from earned), ``refunded`` them (taken
    from spent), ``set_earned`` and ``set_unspent`` a total, and wrote a ``comment``; an import
    keeps those kinds (:mod:`larp.rules.experience` says what each does to the totals), and its
    reasons may be long (``what`` up to :data:`NOTES_MAX_CHARS`; the log's form takes 200).
    ``amount`` is exact (a decimal of two places: Grapevine keeps half points), 0 or more.
    """

    KINDS = ("earned", "spent", "lost", "refunded", "comment", "set_earned", "set_unspent")

    character = ForeignKeyField(Character, backref="experience_rows", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="experience_rows", null=True, on_delete="SET NULL")
    ruling = ForeignKeyField(Ruling, backref="experience_rows", null=True, on_delete="SET NULL")
    user = ForeignKeyField(User, backref="experience_rows", null=True, on_delete="SET NULL")
    kind = CharField(max_length=20)
    amount = DecimalField(max_digits=10, decimal_places=2)
    what = TextField(default="", max_length=NOTES_MAX_CHARS)
    created_at = DateTimeField(default=utcnow)


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
]


class PendingImport(BaseModel):
    """An uploaded file waiting for the organiser to confirm its preview.

    The bytes are kept so that the import applies exactly what was previewed,
    without uploading again; the row is deleted when applied.
    """

    token = CharField(unique=True, max_length=64)
    user = ForeignKeyField(User, backref="pending_imports", on_delete="CASCADE")
    chronicle = ForeignKeyField(Chronicle, backref="pending_imports", on_delete="CASCADE")
    filename = CharField(max_length=255)
    data = BlobField()
    include_contact = BooleanField(default=False)
    created_at = DateTimeField(default=utcnow)


MODELS.append(PendingImport)


class TabletopCombat(BaseModel):
    """A tabletop combat run on the narrator's tabletop screen (issue 9).

    ``state`` is :meth:`larp.rules.tabletop.turn.Combat.to_dict` (the turn,
    initiative, declarations, holds...); ``gear`` maps a character id to the
    tabletop weapon and armor he fights with; ``last`` lists the ruling ids of
    the latest results shown. ``version`` guards against two screens (or a
    double tap) changing it at once.
    """

    chronicle = ForeignKeyField(Chronicle, backref="tabletop_combats", on_delete="CASCADE")
    narrator = ForeignKeyField(User, backref="tabletop_combats", null=True, on_delete="SET NULL")
    state = JSONField(default=dict)
    gear = JSONField(default=dict)
    last = JSONField(default=list)
    version = IntegerField(default=1)
    created_at = DateTimeField(default=utcnow)
    updated_at = DateTimeField(default=utcnow)
    ended_at = DateTimeField(null=True)


MODELS.append(TabletopCombat)


class ApiToken(BaseModel):
    """A personal API token (issue 21): a program calls ``/api/v1`` with ``Authorization: Bearer``.

    Only the SHA-256 of the token is stored (it is a ``secrets.token_urlsafe(32)``, so a plain hash
    suffices: nothing to brute-force). ``role`` is at most the owner's role; ``name`` is what the
    record shows as the narrator of every ruling the token makes. Revoked or past ``expires_at``:
    refused (401).
    """

    user = ForeignKeyField(User, backref="api_tokens", on_delete="CASCADE")
    name = CharField(max_length=60)
    role = CharField(max_length=20, choices=[(r, r) for r in User.ROLES])
    token_hash = CharField(unique=True, max_length=64)
    created_at = DateTimeField(default=utcnow)
    expires_at = DateTimeField(null=True)
    last_used_at = DateTimeField(null=True)
    revoked_at = DateTimeField(null=True)


MODELS.append(ApiToken)
MODELS.append(Membership)


class Webhook(BaseModel):
    """A chronicle's webhook (issue 35): where its game-night events are sent, and which.

    ``url`` is a secret (anyone holding a Discord webhook URL can post to its channel): shown
    masked, never logged, never exported. ``secret`` signs the signed-JSON format's bodies
    (HMAC-SHA256), shown to the organiser once. ``format``: "auto" (Discord's message format for
    a Discord URL, else signed JSON), "discord" or "json". ``privacy``: "staff" or "public"
    (:mod:`larp.webhooks.kinds` lists what each event carries at each). ``events``: the event kinds
    sent. ``local_network``: the organiser allows a loopback, private or link-local address (a bot
    on the event's LAN). ``site_url``: where the links in messages point when the chronicle setting
    ``card_base_url`` is empty (the address the webhook was made from). ``enabled``: false while
    paused by an organiser or stopped (``stopped_reason``: a 404, a redirect); nothing is queued for
    it then. ``hold_until``: the receiver's rate limit (a 429's ``retry_after``).
    """

    PRIVACY = ("staff", "public")
    FORMATS = ("auto", "discord", "json")

    chronicle = ForeignKeyField(Chronicle, backref="webhooks", on_delete="CASCADE")
    name = CharField(max_length=60)
    url = TextField(max_length=2000)
    secret = CharField(max_length=64)
    format = CharField(max_length=10, default="auto")
    privacy = CharField(max_length=10, default="staff")
    events = JSONField(default=list)
    local_network = BooleanField(default=False)
    enabled = BooleanField(default=True)
    stopped_reason = TextField(default="", max_length=500)
    site_url = CharField(max_length=300, default="")
    created_by = ForeignKeyField(User, null=True, on_delete="SET NULL", backref="webhooks_made")
    created_at = DateTimeField(default=utcnow)
    hold_until = DateTimeField(null=True)
    last_delivered_at = DateTimeField(null=True)
    last_error = TextField(default="", max_length=500)
    last_error_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("chronicle", "name"), True),)


class WebhookEvent(BaseModel):
    """One game-night event in the outbox (issue 35), written in the transaction of what caused it.

    ``uuid`` is the event id every delivery carries (the same on a retry and for every webhook).
    ``payload`` is the event at the staff level (:mod:`larp.webhooks.kinds`); each webhook gets it
    shaped for its own privacy level. ``ruling``: the ruling it reports, whose JSON is taken again
    the first time the event is sent (``sealed`` then), so a ruling completed later in its
    transaction is sent whole; the payload written with the event stands if the ruling is gone.
    """

    chronicle = ForeignKeyField(Chronicle, backref="webhook_events", on_delete="CASCADE")
    kind = CharField(max_length=30)
    uuid = CharField(max_length=36, unique=True)
    payload = JSONField(default=dict)
    ruling = ForeignKeyField(Ruling, null=True, on_delete="SET NULL", backref="webhook_events")
    sealed = BooleanField(default=True)
    created_at = DateTimeField(default=utcnow)


class WebhookDelivery(BaseModel):
    """One event to send to one webhook (issue 35), in the order of ``(seq, id)`` per webhook.

    ``state``: "pending", "delivered" or "failed". ``seq`` is the emitting transaction's id on
    PostgreSQL (0 on SQLite, whose writers commit one at a time): see :mod:`larp.webhooks.outbox`
    for why the order is safe. ``claimed_by``/``lease_until``: the worker sending it now; a claim
    whose lease has run out (its process died) is taken over. ``attempts`` counts the answers that
    were failures (a 429 is not one); ``last_status``/``last_error`` the last of them.
    """

    STATES = ("pending", "delivered", "failed")

    webhook = ForeignKeyField(Webhook, backref="deliveries", on_delete="CASCADE")
    event = ForeignKeyField(WebhookEvent, backref="deliveries", on_delete="CASCADE")
    seq = BigIntegerField(default=0)
    state = CharField(max_length=10, default="pending")
    attempts = IntegerField(default=0)
    next_attempt_at = DateTimeField(default=utcnow)
    claimed_by = CharField(max_length=64, null=True)
    lease_until = DateTimeField(null=True)
    last_status = IntegerField(null=True)
    last_error = TextField(default="", max_length=500)
    delivered_at = DateTimeField(null=True)
    created_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("webhook", "state", "seq"), False),)


MODELS.extend([Webhook, WebhookEvent, WebhookDelivery])


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


MODELS.extend([StoredScene, SceneRuling])
