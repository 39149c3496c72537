"""Several chronicles on one server (issue 22).

- ``membership``: a user's role in one chronicle (unique per user and chronicle);
- ``user.is_admin``: an administrator of the install; ``user.current_chronicle_id``: the chronicle
  the user last worked in;
- ``chronicle.archived_at``: archived by an administrator;
- card codes (``character.short_code``) become unique within a chronicle instead of the install.

An existing install keeps everything: every user becomes a member, with his role, of every
chronicle already there (one, in practice), and its organisers become administrators.
"""

from peewee import BooleanField, CharField, DateTimeField, ForeignKeyField

from larp.migrations import frozen


def up(migrator, db):
    """Create ``membership``, add the columns, move the card-code index, and make the members."""

    Chronicle = frozen(db, "chronicle")
    User = frozen(db, "user", role=CharField(max_length=20))

    Membership = frozen(db, "membership", indexes=((("user", "chronicle"), True),),
                        user=ForeignKeyField(User, backref="memberships", on_delete="CASCADE"),
                        chronicle=ForeignKeyField(Chronicle, backref="memberships", on_delete="CASCADE"),
                        role=CharField(max_length=20),
                        created_at=DateTimeField())

    db.create_tables([Membership])
    current = ForeignKeyField(Chronicle, null=True, on_delete="SET NULL", field=Chronicle.id)
    migrator.migrate(
        migrator.add_column("user", "is_admin", BooleanField(default=False)),
        migrator.add_column("user", "current_chronicle_id", current),
        migrator.add_column("chronicle", "archived_at", DateTimeField(null=True)),
        migrator.drop_index("character", "character_short_code"),
        migrator.add_index("character", ("chronicle_id", "short_code"), True),
    )
    from datetime import datetime, timezone

    now = datetime.now(timezone.utc).replace(tzinfo=None)
    chronicles = [c.id for c in Chronicle.select(Chronicle.id).order_by(Chronicle.id)]
    rows = [{"user": u.id, "chronicle": c, "role": u.role, "created_at": now}
            for u in User.select(User.id, User.role).order_by(User.id) for c in chronicles]
    if rows:
        Membership.insert_many(rows).execute()
    db.execute_sql('UPDATE "user" SET is_admin = %s WHERE role = %s'.replace("%s", db.param), (True, "organiser"))
