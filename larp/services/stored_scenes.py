"""Stored scenes (issue 30 item 4): a scene of the open game session that every narrator of the chronicle
shares, the turn it is at, and the rulings made in it, each with its turn.

A narrator opens a scene (``Main hall``) or joins one; the challenge screen, the combat board and the
stray-shot screen then send its id (``scene_id``) with each ruling, and the stored APIs take it too. A
ruling made in a scene is recorded with the scene and the turn (:class:`larp.models.SceneRuling`);
any narrator in the scene says "next turn". With the setting ``one_physical_challenge_per_turn`` on,
a second challenge of a category against the same character in the same turn is refused with the rule
(:func:`larp.rules.turns.check_one_challenge_per_turn`, met-reference 3.1, DE p.71).

Check-then-write (two narrators starting challenges on one target at once; "next turn" pressed while a
challenge is recorded): :func:`scene_turn_for` is called inside the use case's transaction AFTER the
characters were loaded locked (:func:`larp.services.characters.load_characters`: ``FOR NO KEY UPDATE``
in id order on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` serialises every writer). It locks the scene's
row (``FOR NO KEY UPDATE`` on PostgreSQL), then reads the turn's earlier challenges. So on PostgreSQL
the second of two challenges against one target waits for the first's lock on the target's row, and
once the first commits its statements see the first's :class:`SceneRuling` (READ COMMITTED reads
what is committed at each statement) and are refused; "next turn" locks the same scene row, so a
ruling records the turn that was current when it was written. Locks are always taken characters
first, then the scene, so two use cases never wait on each other in a circle. On SQLite only one
writer runs at a time, so the read and the write cannot interleave.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import peewee

from larp.db import as_id, db, for_update
from larp.models import Character, Chronicle, GameSession, Ruling, SceneRuling, StoredScene
from larp.rules.explain import N_, Phrase, RulesError, Step
from larp.rules.settings import ChronicleSettings
from larp.rules.turns import check_one_challenge_per_turn
from larp.services import ServiceError, refuse_direction_controls
from larp.services.chronicles import current_game_session, open_game_session

#: The longest scene name (``StoredScene.name``).
LONGEST_NAME = 80


def open_scenes(chronicle: Chronicle) -> list[StoredScene]:
    """The scenes of the chronicle's open game session that are not closed, oldest first (none between
    game sessions)."""
    game_session = open_game_session(chronicle)
    if game_session is None:
        return []
    return list(StoredScene.select().where((StoredScene.game_session == game_session)
                                           & StoredScene.closed_at.is_null()).order_by(StoredScene.id))


def create_scene(chronicle: Chronicle, name: Any) -> StoredScene:
    """Open a scene called ``name`` in the open game session, at turn 1.

    Raises:
        ServiceError: 422 (field ``name``) no name, or longer than 80 characters; 409 no game session is
            open, or the game session already has a scene of that name.
    """
    text = " ".join(str(name or "").split())
    if not text:
        raise ServiceError(Phrase.message(N_("Give the scene a name (where it happens: “Main hall”).")), field="name")
    if len(text) > LONGEST_NAME:
        raise ServiceError(Phrase.message(N_("A scene's name has at most %(LONGEST_NAME)s characters."),
                                          LONGEST_NAME=LONGEST_NAME), field="name")
    refuse_direction_controls(text, Phrase.message(N_("Where it happens")))
    with db.atomic():
        game_session = current_game_session(chronicle)
        # Check-then-write on the name: the unique index (game session, name) refuses the second of two
        # narrators opening the same name at once, on both engines.
        if StoredScene.select().where((StoredScene.game_session == game_session)
                                      & (StoredScene.name == text)).exists():
            raise ServiceError(Phrase.message(N_("This game session already has a scene called “%(words)s”: join "
                                                 "it."), words=text), field="name",
                               status=409)
        try:
            with db.atomic():
                return StoredScene.create(chronicle=chronicle, game_session=game_session, name=text)
        except peewee.IntegrityError:
            raise ServiceError(Phrase.message(N_("This game session already has a scene called “%(words)s”: join "
                                                 "it."), words=text), field="name",
                               status=409) from None


def get_scene(chronicle: Chronicle, scene_id: Any, field: str = "scene_id") -> StoredScene:
    """The open scene ``scene_id`` of the chronicle's open game session.

    Raises:
        ServiceError: 404 no such scene in this chronicle; 409 the scene is closed, or belongs to an
            earlier game session.
    """
    sid = as_id(scene_id)
    scene = StoredScene.get_or_none((StoredScene.id == sid) & (StoredScene.chronicle == chronicle)) \
        if sid is not None else None
    if scene is None:
        raise ServiceError(Phrase.message(N_("There is no such scene in this chronicle.")), field=field, status=404)
    current = open_game_session(chronicle)
    if scene.closed_at is not None or current is None or scene.game_session_id != current.id:
        raise ServiceError(Phrase.message(N_("The scene “%(name)s” is over (closed, or of an earlier game "
                                             "session): open or join a scene of tonight's."),
                                          name=scene.name), field=field, status=409)
    return scene


def next_turn(chronicle: Chronicle, scene_id: Any, seen: Any = None) -> tuple[StoredScene, bool]:
    """Advance the scene to its next turn ("next turn", said by any narrator in it).

    Args:
        seen: the turn the narrator saw when pressing it (a form's hidden field); when another narrator
            has advanced the scene since, nothing changes, so two presses at once make one turn.

    Returns:
        The scene, and whether this call advanced it.

    Raises:
        ServiceError: as :func:`get_scene`; 422 ``seen`` is not a whole number.
    """
    with db.atomic():
        get_scene(chronicle, scene_id)
        # The scene's row locked (FOR NO KEY UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE) until
        # the commit: a ruling being recorded in it holds the same lock, so it keeps the turn it read.
        scene = for_update(StoredScene.select().where(StoredScene.id == as_id(scene_id))).get()
        if seen not in (None, ""):
            seen_turn = as_id(seen)
            if seen_turn is None:
                raise ServiceError(Phrase.message(N_("The turn seen must be a whole "
                                                     "number.")), field="turn", status=422)
            if seen_turn != scene.turn:
                return scene, False
        StoredScene.update(turn=StoredScene.turn + 1).where(StoredScene.id == scene.id).execute()
        scene.turn += 1
        return scene, True


def close_scene(chronicle: Chronicle, scene_id: Any) -> StoredScene:
    """Close the scene (the narrators leave it; its rulings keep their scene and turn).

    Raises:
        ServiceError: as :func:`get_scene`.
    """
    from larp.models import utcnow

    with db.atomic():
        scene = get_scene(chronicle, scene_id)
        StoredScene.update(closed_at=utcnow()).where(StoredScene.id == scene.id).execute()
        return scene


@dataclass
class SceneTurn:
    """The scene a ruling is made in, locked, at its turn, and what the turn rule said."""

    scene: StoredScene
    turn: int
    target: Character | None = None
    category: str = ""
    step: Step | None = None

    def link(self, ruling: Ruling) -> SceneRuling:
        """Record ``ruling`` with its scene and turn (in the use case's transaction)."""
        return SceneRuling.create(ruling=ruling, scene=self.scene, turn=self.turn, target=self.target,
                                  category=self.category)


def scene_turn_for(chronicle: Chronicle, scene_id: Any, game_session: GameSession | None, settings: ChronicleSettings,
                   target: Character | None = None, category: str = "") -> SceneTurn | None:
    """The scene a ruling is made in, at its current turn, with the one-challenge-per-turn rule checked
    for a challenge against ``target`` of ``category`` (the module docstring says how the check and the
    write are safe together). Call inside the use case's transaction, after its characters are loaded.

    Returns:
        ``None`` when no scene is given (the ruling is recorded without one, and the rule cannot be
        checked: it needs every narrator's challenges of the turn).

    Raises:
        ServiceError: as :func:`get_scene`; 409 (field ``scene_id``) a second challenge of the category
            against ``target`` this turn while the setting is on, with the rule's reason.
    """
    if scene_id in (None, ""):
        return None
    scene = get_scene(chronicle, scene_id)
    if game_session is not None and scene.game_session_id != game_session.id:
        raise ServiceError(Phrase.message(N_("The scene “%(name)s” is of another game session."),
                                          name=scene.name), field="scene_id", status=409)
    scene = for_update(StoredScene.select().where(StoredScene.id == scene.id)).get()
    step = None
    if target is not None:
        earlier = [row.category for row in SceneRuling.select(SceneRuling.category).join(Ruling).where(
            (SceneRuling.scene == scene) & (SceneRuling.turn == scene.turn) & (SceneRuling.target == target)
            & Ruling.undone_at.is_null())]
        try:
            step = check_one_challenge_per_turn(target.name, category, earlier, scene.turn, settings)
        except RulesError as exc:
            raise ServiceError(exc.message, field=exc.field, status=409) from None
    return SceneTurn(scene, scene.turn, target, category if target is not None else "", step)


def scene_of_ruling(ruling: Ruling) -> dict[str, Any] | None:
    """The scene and turn a ruling was made in (``{"id", "name", "turn"}``), or ``None``."""
    link = SceneRuling.select(SceneRuling, StoredScene).join(StoredScene).where(SceneRuling.ruling == ruling).first()
    if link is None:
        return None
    return {"id": link.scene.id, "name": link.scene.name, "turn": link.turn}
