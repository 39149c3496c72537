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
