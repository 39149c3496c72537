"""One character's Traits lost and Ability levels expended in one game session, found by one index
(issue 29, "A light request"): the live poll and every character's state tonight read exactly
those rows, and with only the single-column indexes SQLite read every loss of the game session
(thousands on a game night of a thousand characters) to find a character's few.
"""


def up(migrator, db):
    """Add the (character, game session) indexes of ``traitloss`` and ``abilityspend``."""
    migrator.migrate(
        migrator.add_index("traitloss", ("character_id", "game_session_id"), False),
        migrator.add_index("abilityspend", ("character_id", "game_session_id"), False),
    )
