"""One challenge per turn (Dark Epics p.71, met-reference 3.1; setting ``one_physical_challenge_per_turn``).

"A character can be subject to at most one Physical, one Mental and one Social challenge per turn.
Several attackers share the one Physical challenge. Celerity actions count as turns for this purpose."
With the setting on, :func:`check_one_challenge_per_turn` refuses a second challenge of a category
against the same character in the same turn of a scene, saying why and what to do instead: several
attackers join the one challenge (a mass challenge on the combat board), and an action on Celerity
is a turn of its own (the narrator says "next turn"). The earlier challenges of the turn are the
stored scene's (:mod:`larp.services.stored_scenes`): every narrator's, not one screen's.
"""

from __future__ import annotations

from typing import Iterable

from larp.rules.explain import N_, Phrase, RulesError, Step, phrase_step
from larp.rules.settings import ChronicleSettings

R_ONE_PER_TURN = "Dark Epics p.71 (met-reference 3.1)"
#: The categories the rule counts, one challenge each a turn.
CATEGORIES = ("physical", "mental", "social")
#: The step of a target's first challenge of a category in a turn, by category.
_FIRST_OF_TURN = {"physical": N_("%(name)s's first Physical challenge in turn %(turn)s of this scene."),
                  "mental": N_("%(name)s's first Mental challenge in turn %(turn)s of this scene."),
                  "social": N_("%(name)s's first Social challenge in turn %(turn)s of this scene.")}


def check_one_challenge_per_turn(target: str, category: str, earlier: Iterable[str], turn: int,
                                 settings: ChronicleSettings) -> Step | None:
    """Whether a challenge of ``category`` may be made against ``target`` in ``turn`` of a scene.

    Args:
        target: the character the challenge is against (the defender; a mass challenge's target).
        category: the challenge's category (``physical``, ``mental``, ``social``; any other is
            not counted: a Virtue Test, a static challenge with nobody against it).
        earlier: the categories of the challenges already made against ``target`` in this turn
            of this scene (not undone).
        turn: the scene's turn (1 for the first).

    Returns:
        The step that says the rule was checked, or ``None`` when it does not apply (setting off,
        a category it does not count).

    Raises:
        RulesError: a second challenge of that category against ``target`` this turn (field
            ``scene_id``), saying the rule, that several attackers share the one challenge, and
            that Celerity's actions count as turns.
    """
    if not settings["one_physical_challenge_per_turn"] or category not in CATEGORIES:
        return None
    label = category.capitalize()
    if category in set(earlier):
        raise RulesError(
            Phrase.message(N_("%(target)s has already been the target of a %(label)s challenge in turn %(turn)s of "
                              "this scene: a character is subject to at most one Physical, one Mental and one "
                              "Social challenge a turn (%(cited)s; %(value)s). Several attackers share the one "
                              "challenge: join it as a mass challenge on the combat board. Celerity's actions "
                              "count as turns: for one, the narrator says “next turn”."),
                           target=target, label=Phrase.term(label), turn=turn, cited=R_ONE_PER_TURN,
                           value=settings.label('one_physical_challenge_per_turn')),
            field="scene_id")
    return phrase_step(_FIRST_OF_TURN[category], R_ONE_PER_TURN, "one_physical_challenge_per_turn", name=target,
                       turn=turn)
