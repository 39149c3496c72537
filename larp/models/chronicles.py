"""Chronicles, their settings and game sessions, and the accounts that reach them (users, memberships, login links, the login lockout, API tokens)."""

from __future__ import annotations

from peewee import BooleanField, DateField, DateTimeField, ForeignKeyField, IntegerField, JSONField

from larp.models.base import CharField, utcnow, BaseModel


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
    (everything), a narrator (adjudicates) or a player (reads and asks for his own characters only,
    issue 33: :mod:`larp.services.players`); an administrator (``is_admin``) keeps the chronicles.

    A player without an account still opens his character's card page by its link.
    ``password_hash`` is werkzeug's hash; ``None`` until a password is set
    (the first organiser logs in through a one-time console link).
    """

    #: The roles of the people who run a chronicle (appointed by an administrator, listed on the
    #: Users page, given to API tokens of the whole chronicle).
    STAFF_ROLES = ("organiser", "narrator")
    #: Every role in a chronicle: a player (issue 33) sees only the characters linked to him.
    ROLES = STAFF_ROLES + ("player",)

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
    #: The language he reads the app in (a locale of ``larp.i18n.LANGUAGES``, issue 36), chosen on his
    #: account page; "" for none of his own: the chronicle's default language, else his browser's.
    language = CharField(max_length=10, default="")


class Membership(BaseModel):
    """A user's role in one chronicle (issue 22): ``organiser`` (everything in it), ``narrator`` or
    ``player`` (issue 33: his own characters only, :class:`larp.models.players.CharacterPlayer`).

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
