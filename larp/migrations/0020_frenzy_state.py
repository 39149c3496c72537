"""The state a Virtue Test leaves a character in (issue 30 item 8): ``character.frenzy`` ("frenzy",
"rotschreck" or "" for neither)."""

from peewee import CharField


def up(migrator, db):
    """Add ``character.frenzy`` (every existing character: neither)."""
    migrator.migrate(migrator.add_column("character", "frenzy", CharField(max_length=12, default="")))
