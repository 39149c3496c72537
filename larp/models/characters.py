"""Characters and their sheets (Traits, Abilities, powers, Backgrounds, Merits and Flaws, equipment) and Grapevine files waiting for their preview to be confirmed."""

from __future__ import annotations

from peewee import BlobField, BooleanField, DateTimeField, ForeignKeyField, IntegerField, JSONField

from larp.models.base import NOTES_MAX_CHARS, CharField, TextField, utcnow, BaseModel
from larp.models.chronicles import Chronicle, User


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
    ``weapon_kind`` (:data:`larp.sheet_entries.WEAPON_KINDS`); armor's ``rating`` (extra
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
