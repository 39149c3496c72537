"""One tap, one service call (issue 29 item 1): the path every ruling on stored characters takes — the
ones that may be left open, the one-on-one challenge (:mod:`larp.services.challenges`), the combat board
(:mod:`larp.services.mass_challenge`) and the stray-shot screen (:mod:`larp.services.firing_into_groups`),
and the single shots (damage by hand, healing, feeding, blood, the narrator's actions:
:func:`larp.services.adjudicate.adjudicate`).

In one transaction: refuse a form or API call already recorded, find the open game session, load the
characters and call the rules core once (the caller's ``rule``), then either return the ruling so far
(pending: a side may still retest or overbid, a forced retest is due, or a preview was asked) or record
it and write its consequences (the caller's ``write``). A conflicting change made meanwhile runs the
whole again on fresh data (:func:`larp.services.consequences.retrying`); the caller's ``rule`` keeps the
random throws it drew so that the retry rules on the same ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, TypeVar

from larp.db import db
from larp.models import Character, Chronicle, GameSession, Ruling
from larp.rules.challenge import POTENCE_TRAIT
from larp.rules.rulings.consequences import Consequences
from larp.rules.scene import Scene
from larp.rules.settings import ChronicleSettings
from larp.services.characters import (
    AbilityLine,
    CharacterState,
    TraitLine,
    has_mettle,
    health_track,
    merit_health_levels,
)
from larp.services.chronicles import chronicle_settings, current_game_session
from larp.services.consequences import retrying
from larp.services.records import game_session_unless_recorded

T = TypeVar("T")

#: When a tap records its ruling: when nothing is left for the narrator to decide ("settled": the screens'
#: resolve, call and retest taps), as it stands ("always": the record tap, the stored API), as it stands unless a
#: forced darkness retest is due ("unless_forced": "Make the retests and record", whose retest may bring the next
#: forced retest, which must be made first, 002 "Darkness"), or never (a preview).
RECORD_WHEN = ("settled", "always", "unless_forced", "never")
#: What a tap needs of the open game session: one to record in (refused at the write, "to_record"), one
#: before anything else is checked ("first": a ruling between game sessions), or none ("optional").
GAME_SESSION = ("to_record", "first", "optional")


def one_tap(chronicle: Chronicle, record: str, request_token: str | None,
            rule: Callable[[GameSession | None, ChronicleSettings], T], settled: Callable[[T], bool],
            write: Callable[[T, GameSession, ChronicleSettings], None],
            pending: Callable[[T, GameSession | None, ChronicleSettings], None] | None = None,
            game_session_needed: str = "to_record", forced: Callable[[T], bool] | None = None) -> T:
    """Run one tap: ``rule`` (load once, call the rules core once) inside one transaction, then ``write``
    (record and apply) when ``record`` says so, else ``pending`` (a check told before anyone throws for
    nothing, such as the one challenge a turn, met-reference 3.1) and the ruling so far.

    Args:
        record: "settled" (write when ``settled(result)``), "always" (write as it stands), "unless_forced" (write
            as it stands unless ``forced(result)``: a forced retest is due), "never" (a preview).
        request_token: the form's one-time token or the API's key (``None``: the one the request declared).
        rule: ``(game_session or None, settings) -> result``; raises :class:`larp.services.ServiceError`.
        settled: no decision is left in ``result``.
        write: ``(result, game_session, settings)``: records the ruling and writes its consequences.
        pending: ``(result, game_session or None, settings)``: checks made when nothing is written.
        game_session_needed: one of :data:`GAME_SESSION`.
        forced: whether a forced retest is due in ``result`` (for "unless_forced"; default: never).

    Raises:
        ValueError: an unknown ``record`` or ``game_session_needed``.
        ServiceError: what ``rule``, ``write`` or ``pending`` raise; 409 a repeated form or API call, or no
            game session open to record in.
    """
    if record not in RECORD_WHEN or game_session_needed not in GAME_SESSION:
        raise ValueError(record if record not in RECORD_WHEN else game_session_needed)
    settings = chronicle_settings(chronicle)

    def use_case() -> T:
        with db.atomic():
            game_session = game_session_unless_recorded(chronicle, request_token)
            if game_session is None and game_session_needed == "first":
                current_game_session(chronicle)  # raises its 409
            result = rule(game_session, settings)
            if (record == "never" or (record == "settled" and not settled(result))
                    or (record == "unless_forced" and forced is not None and forced(result))):
                if pending is not None:
                    pending(result, game_session, settings)
                return result
            if game_session is None and game_session_needed == "to_record":
                current_game_session(chronicle)  # raises its 409
            write(result, game_session, settings)
            return result

    return retrying(use_case)


@dataclass(kw_only=True)
class StoredTap:
    """A tap on the combat board or the stray-shot screen, ruled on stored characters (not yet applied, or
    applied): what the tap kept beside the rules core's result. A subclass holds that result as ``result``
    (the core's ruling with every consequence, its ``needs_decision`` and ``retests``), first, with the
    characters it loaded.

    Attributes:
        record: the stored ruling once applied.
        scene: the scene it was ruled in.
        settings, game_session: the chronicle's settings and the open game session the tap ruled with.
        after: the characters as they stand after the tap, by character id (loaded in its transaction, and
            what it wrote: :func:`states_after`), for the screen to draw without reading them again.
    """

    record: Ruling | None = None
    scene: Scene | None = None
    settings: ChronicleSettings | None = None
    game_session: GameSession | None = None
    after: dict[int, CharacterState] = field(default_factory=dict)

    @property
    def ruling(self) -> Any:
        """The core's ruling (the engine's, inside the result)."""
        return self.result.ruling

    @property
    def needs_decision(self) -> bool:
        """The narrator decides before the ruling is recorded: a side behind may still retest, a forced
        retest is due, or (a mass challenge) the target may choose whom he injures."""
        return self.result.needs_decision

    def retests(self, name: str) -> list[tuple[str, str]]:
        """The retests the side behind in ``name``'s test or pair may call now, as ``(by, source)``
        (the core's ``retests``)."""
        return self.result.retests(name)


def states_after(states: Iterable[CharacterState], stored: Mapping[str, Character],
                 consequences: Consequences | None, settings: ChronicleSettings) -> dict[int, CharacterState]:
    """The characters of a tap as they stand after it, by id, told from what the tap loaded and wrote
    (no read again: issue 29 item 6, at most 12 statements a tap, its redraw included).

    ``states`` were loaded inside the tap's transaction (the characters locked, the game session's losses
    and spends read there), so they are what was stored when it committed, but for what the tap wrote:
    ``stored``, the characters' rows as :func:`larp.services.consequences.apply_consequences` returned them
    (track, condition, stake, blood, Willpower, version), and ``consequences``' Traits lost and Ability
    levels expended this game session (as :func:`larp.services.consequences.charge` writes them: the
    Intensity pseudo-Trait never). The health track is worked out from the row as
    :func:`larp.services.characters.character_states` does. ``consequences`` ``None``: nothing was written.
    """
    out = {}
    for state in states:
        name = state.character.name
        if consequences is None:
            out[state.character.id] = state
            continue
        mine = consequences.of(name)
        character = stored.get(name, state.character)
        lost: dict[tuple[str, str], int] = {}
        for category, trait in mine.traits_lost:
            if trait != POTENCE_TRAIT:
                lost[(category, trait)] = lost.get((category, trait), 0) + 1
        spent: dict[str, int] = {}
        for ability, levels in mine.abilities:
            spent[ability] = spent.get(ability, 0) + levels
        traits = {category: [TraitLine(line.name, line.count, line.lost + lost.get((category, line.name), 0))
                             for line in lines] for category, lines in state.traits.items()}
        abilities = [replace(line, spent=line.spent + spent.get(line.name, 0)) for line in state.abilities]
        extra = merit_health_levels([("merit", m.key) for m in state.merits] + [("flaw", f.key) for f in state.flaws])
        out[state.character.id] = replace(state, character=character, traits=traits, abilities=abilities,
                                          health=health_track(character, settings, mettle=has_mettle(state.powers),
                                                              extra_levels=extra))
    return out
