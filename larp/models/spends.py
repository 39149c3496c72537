"""Experience spends with approval (issue 33 item 2): a player's request to spend experience on his
sheet, and what became of it."""

from __future__ import annotations

from peewee import DateTimeField, DecimalField, ForeignKeyField, JSONField

from larp.models.base import CharField, TextField, utcnow, BaseModel
from larp.models.chronicles import Chronicle, User
from larp.models.characters import Character
from larp.models.record import Ruling


class SpendRequest(BaseModel):
    """A request to spend experience on a character's sheet (issue 33 item 2).

    ``request`` is what is asked (:class:`larp.rules.experience_purchase.PurchaseRequest` as data),
    ``what`` its words and ``cost`` its price in experience points when it was last priced (asked,
    then approved). ``state`` moves: asked -> approved | refused | change_asked | withdrawn; an
    approved one -> undone; a change_asked one is asked again when the player changes it.
    ``asked_by``/``asked_by_name`` is the player (kept by name when the account is gone);
    ``answered_by``/``answered_by_name`` the organiser who answered last; ``answer`` his reason (a
    refusal, a change asked, an undo). ``ruling`` is the sheet's change that spent it (kind "sheet");
    ``undo_ruling`` the change that took it back. ``bought`` and ``before`` are the sheet fields the
    approval wrote, after and before (the undo puts ``before`` back while ``bought`` is still there).

    Two organisers approving at once: the approval is a conditional UPDATE ... WHERE state='asked'
    whose row count decides (:func:`larp.services.spend_requests.approve_request`).
    """

    STATES = ("asked", "approved", "refused", "change_asked", "withdrawn", "undone")

    chronicle = ForeignKeyField(Chronicle, backref="spend_requests", on_delete="CASCADE")
    character = ForeignKeyField(Character, backref="spend_requests", on_delete="CASCADE")
    asked_by = ForeignKeyField(User, backref="spend_requests", null=True, on_delete="SET NULL")
    asked_by_name = CharField(max_length=120, default="")
    request = JSONField(default=dict)
    what = CharField(max_length=300, default="")
    what_said = JSONField(null=True)  # ``what`` as a phrase (issue 36): said in the reader's language
    cost = DecimalField(max_digits=10, decimal_places=2, default=0)
    note = TextField(default="")
    state = CharField(max_length=20, default="asked", index=True)
    answer = TextField(default="")
    answered_by = ForeignKeyField(User, backref="spend_answers", null=True, on_delete="SET NULL")
    answered_by_name = CharField(max_length=120, default="")
    asked_at = DateTimeField(default=utcnow)
    answered_at = DateTimeField(null=True)
    ruling = ForeignKeyField(Ruling, backref="spend_requests", null=True, on_delete="SET NULL")
    undo_ruling = ForeignKeyField(Ruling, backref="spend_undos", null=True, on_delete="SET NULL")
    bought = JSONField(default=dict)
    before = JSONField(default=dict)
