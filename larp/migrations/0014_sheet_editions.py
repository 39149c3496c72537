"""Printed character sheets that know when they are out of date (issue 34).

- ``character.sheet_edition``: the edition of the sheet, 1 when the character was created, one
  more with each change of the sheet itself (never with damage, healing or another ruling);
- ``character.sheet_printed_at`` and ``character.sheet_printed_edition``: when the sheet was last
  printed and the edition printed then (null: never printed).

An existing character's edition is counted from his History so far, as the app counts it from
now on (:mod:`larp.services.editions`): 1, plus one for every sheet edit (kind ``sheet``) and
every line of his experience log written by an organiser (kind ``experience``), plus one for
every undo of either (the sheet changed back is a new edition too). A Grapevine import that
rewrote a sheet before this migration is not in his History, so it is not counted; imports
count from now on. No sheet was printed with an edition yet, so the print columns stay empty.
"""

import json

from peewee import DateTimeField, IntegerField

#: The History's kinds of entry that change the sheet itself (larp.services.editions.EDITION_KINDS).
EDITION_KINDS = ("sheet", "experience")


def _outcome(value):
    if isinstance(value, (bytes, str)):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


def up(migrator, db):
    """Add the three columns and set each character's edition from his History."""
    migrator.migrate(
        migrator.add_column("character", "sheet_edition", IntegerField(default=1)),
        migrator.add_column("character", "sheet_printed_at", DateTimeField(null=True)),
        migrator.add_column("character", "sheet_printed_edition", IntegerField(null=True)),
    )
    kinds = dict(db.execute_sql("SELECT id, kind FROM ruling").fetchall())
    links = db.execute_sql(
        "SELECT rc.character_id, r.kind, r.outcome FROM rulingcharacter rc JOIN ruling r ON r.id = rc.ruling_id "
        "WHERE r.kind IN ('sheet', 'experience', 'undo')").fetchall()
    editions: dict[int, int] = {}
    for character_id, kind, outcome in links:
        if kind == "undo":
            undone = _outcome(outcome).get("undone")
            if kinds.get(undone) not in EDITION_KINDS:
                continue
        editions[character_id] = editions.get(character_id, 1) + 1
    by_edition: dict[int, list[int]] = {}
    for character_id, edition in editions.items():
        by_edition.setdefault(edition, []).append(character_id)
    for edition, ids in sorted(by_edition.items()):
        for start in range(0, len(ids), 500):
            batch = ids[start:start + 500]
            db.execute_sql(f'UPDATE "character" SET sheet_edition = {db.param} WHERE id IN '
                           f'({", ".join([db.param] * len(batch))})', (edition, *batch))
