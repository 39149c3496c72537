"""The schema migrations, applied in order by :func:`larp.schema.upgrade`.

Each file ``NNNN_what_it_does.py`` defines ``up(migrator, db)`` (peewee's
``playhouse.migrations`` runner; ``migrator`` is a ``playhouse.migrate.SchemaMigrator``).
All pending files run in one transaction, so a failing file undoes the whole upgrade.
Never edit a file that has been released: add the next one.

Adding a migration, step by step:

1. Change the model in ``larp/models.py``.
2. Write ``larp/migrations/NNNN_<what>.py`` with the next number. To have peewee write a
   first draft from the difference between a database at the current schema and the models::

       .venv/bin/larp --instance /tmp/mig serve   # once, Ctrl-C: a database at the current schema
       .venv/bin/python -m playhouse.migrations /tmp/mig/larp.sqlite3 generate <what> \\
           larp.models:MODELS -d larp/migrations

   Check the draft: a rename comes out as add + drop (make it ``rename_column``); a new
   NOT NULL column needs a default; a new table is a frozen copy of the model, declared
   inside the file (never import ``larp.models`` from a migration: it changes later).
3. Run ``tests/web/test_migrations.py``: ``test_the_models_and_the_migrations_agree`` fails
   until the models and the migrations describe the same schema, on SQLite and on PostgreSQL.
4. Commit the model change and the migration together.
"""

from typing import Any

from peewee import Model


def frozen(db: Any, table_name: str, *, indexes: tuple = (), **fields: Any) -> type[Model]:
    """A frozen model of the table ``table_name`` bound to ``db``, as a migration declares it: with no
    ``fields``, a table the migration only points at (a foreign key needs its ``id``, nothing else); with
    ``fields``, the columns a migration reads, writes or creates (and ``indexes``, peewee's ``Meta.indexes``,
    for a table it creates). It is the same as the ``class <table>(Model)`` with an inner ``Meta``
    (``database``, ``table_name``, ``indexes``) the migrations wrote out each time, and must stay so: released
    migrations use it, and a change here would change what they did (the whole chain's schema was compared,
    ``sqlite_master`` line by line, when the migrations' classes became ``frozen`` calls)."""
    meta = type("Meta", (), {"database": db, "table_name": table_name, **({"indexes": indexes} if indexes else {})})
    # Named after its table: peewee names a table's indexes after its model ("character_chronicle_id").
    return type(table_name, (Model,), {"Meta": meta, "__module__": __name__, **fields})
