"""What happens to characters: rulings and the characters they name, Traits lost and Ability levels expended in a game session, torpor, the Experience log, and tabletop combats in progress."""

from __future__ import annotations

from peewee import DateField, DateTimeField, DecimalField, ForeignKeyField, IntegerField, JSONField

from larp.models.base import NOTES_MAX_CHARS, CharField, TextField, utcnow, BaseModel
from larp.models.chronicles import Chronicle, User, GameSession
from larp.models.characters import Character


class Ruling(BaseModel):
    """The record of one adjudication: when, which narrator, inputs, outcome, explanation."""

    chronicle = ForeignKeyField(Chronicle, backref="rulings", on_delete="CASCADE")
    game_session = ForeignKeyField(GameSession, backref="rulings", null=True, on_delete="SET NULL")
    narrator = ForeignKeyField(User, backref="rulings", null=True, on_delete="SET NULL")
    kind = CharField(max_length=40)
    created_at = DateTimeField(default=utcnow, index=True)
    summary = TextField(default="")
    #: The summary as a phrase (message id and parameters, :class:`larp.rules.explain.Phrase`), so that it
    #: reads in the reader's language (issue 36); ``None`` for a summary written as plain English.
    summary_said = JSONField(null=True)
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


class SpentInSession(BaseModel):
    """What a game session spent of a character, given back when the next one opens: the base of
    :class:`TraitLoss` and :class:`AbilitySpend` (it has no table of its own).

    Each has the columns ``character`` and ``game_session`` (deleted with either), its own columns,
    then ``ruling`` (the ruling that spent it; the row stays when that ruling is deleted),
    ``created_at`` and ``restored_at`` (when the next game session gave it back; ``None``: still
    spent). :meth:`by_whom` and :meth:`how` make those columns in the subclass's body, where they
    stand, so that they keep their place among its columns (a peewee field's place is the order it
    was made in; an inherited field would come first). Its index, inherited: one character's rows
    in one game session, found without reading the session's others (the live poll, issue 29: a
    game night of a thousand characters has thousands).
    """

    class Meta:
        indexes = ((("character", "game_session"), False),)

    @staticmethod
    def by_whom(backref: str) -> tuple[ForeignKeyField, ForeignKeyField]:
        """The columns ``character`` and ``game_session``, each of which lists the rows as ``backref``."""
        return (ForeignKeyField(Character, backref=backref, on_delete="CASCADE"),
                ForeignKeyField(GameSession, backref=backref, on_delete="CASCADE"))

    @staticmethod
    def how(backref: str) -> tuple[ForeignKeyField, DateTimeField, DateTimeField]:
        """The columns ``ruling`` (which lists the rows as ``backref``), ``created_at`` and ``restored_at``."""
        return (ForeignKeyField(Ruling, backref=backref, null=True, on_delete="SET NULL"),
                DateTimeField(default=utcnow), DateTimeField(null=True))


class TraitLoss(SpentInSession):
    """A Trait lost during a game session (counted out of the sheet until the session ends)."""

    character, game_session = SpentInSession.by_whom("trait_losses")
    category = CharField(max_length=10)
    name = CharField(max_length=80)
    count = IntegerField(default=1)
    ruling, created_at, restored_at = SpentInSession.how("trait_losses")


class AbilitySpend(SpentInSession):
    """Ability levels expended during a game session (for retests and the like)."""

    character, game_session = SpentInSession.by_whom("ability_spends")
    name = CharField(max_length=80)
    levels = IntegerField(default=1)
    ruling, created_at, restored_at = SpentInSession.how("ability_spends")


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
    what_said = JSONField(null=True)  # ``what`` as a phrase when the app wrote it (issue 36); an organiser's own: none
    created_at = DateTimeField(default=utcnow)


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
