"""A missed shot into a group of stored characters (issue 4): the stray-shot screen and the stateful API.

The narrator names the firer, his gun, the target he missed and the people
near the target closest first, with the signs, the firer's options (extra
Traits naming the bystanders they exclude, or careful aim) and the scene; this
module loads the characters (two queries), calls the rules core once
(:func:`larp.rules.rulings.rule_firing_into_groups`), and in one transaction
(:func:`adjudicate_firing_into_groups`, one call a tap) either returns the ruling so far or
records ONE ruling (kind ``firing_into_group``) naming every character and writes
the consequences the core computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from larp.models import Character, Chronicle, GameSession, User
from larp.rules.challenge import RandomSource
from larp.rules.explain import N_, Phrase
from larp.rules.firing_into_groups import ShotIntoGroup
from larp.rules.rulings import BystanderSide, Choice, Side, FiringIntoGroupsCall, FiringIntoGroupsRuling, rule_firing_into_groups
from larp.rules.scene import SideScene
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError
from larp.services.characters import CharacterState, load_characters, person_of
from larp.services.chronicles import game_night
from larp.services.mass_challenge import Fighter, FighterRequest, fighter_scene, fighter_side
from larp.services.consequences import apply_consequences
from larp.services.one_tap import StoredTap, one_tap, states_after
from larp.services.records import record_ruling
from larp.services.scenes import scene_of
from larp.services.stored_scenes import scene_turn_for


@dataclass(frozen=True)
class BystanderRequest:
    """One person near the target, as the narrator entered him.

    Attributes:
        character_id: the stored character.
        throw: his sign (``random`` draws one).
        firer_throw: single shots: the firer's sign in this person's test.
        saw_it_coming: he could see the attack coming (Dodge retest allowed).
        excluded: the firer paid an extra Trait to keep him out of harm.
        bid: his lead Trait (``""``: the one he has most of).
        tests: later tests of his pair (Dodge, Firearms retests), JSON-like dicts.
        scene: his part of the scene (his own darkness, cover, the armor he wears...).
    """

    character_id: Any
    throw: str = ""
    firer_throw: str = ""
    saw_it_coming: bool = False
    excluded: bool = False
    bid: str = ""
    tests: tuple[dict, ...] = ()
    scene: SideScene = SideScene()


@dataclass(frozen=True)
class FiringIntoGroupsRequest:
    """A missed shot as the narrator (or the stateful API) describes it.

    Attributes:
        firer: the firer (``weapon`` his gun; ``throw`` his one sign against a group).
        target_id: the character he missed.
        bystanders: the people near the target, closest first.
        bursts: an automatic weapon fires bursts (``False``: one shot at a time).
        careful_aim: he took careful aim (every other round).
        close_range: within five feet (Full-Auto).
        deliberate_spray: he sprays the group on purpose (LotNR Spray: its distances apply,
            met-reference 6.2, T24); ``False``: a missed shot (002: a blast or burst is one mass
            challenge at any range).
        scene_fields: the scene (``darkness``, ``darkness_source``, ``range`` or a ``scene`` object).
    """

    firer: FighterRequest
    target_id: Any
    bystanders: tuple[BystanderRequest, ...]
    bursts: bool = True
    careful_aim: bool = False
    close_range: bool = False
    deliberate_spray: bool = False
    scene_fields: Mapping[str, Any] = field(default_factory=dict)
    scene_id: Any = None


@dataclass
class StoredFiringIntoGroups(StoredTap):
    """A missed shot ruled on stored characters (not yet applied, or applied): a :class:`StoredTap` whose
    result is the core's :class:`larp.rules.rulings.FiringIntoGroupsRuling` (its ``ruling`` a
    :class:`larp.rules.firing_into_groups.ShotIntoGroupRuling`; ``needs_decision``: a bystander or the
    firer may still retest, or a forced retest is due).

    Attributes:
        firer, target, bystanders: the loaded characters.
        throws: the signs used, by bystander id (``throw``, ``firer_throw``) and ``"firer"``.
        loaded: every character as the tap loaded him (firer, target, bystanders).
    """

    result: FiringIntoGroupsRuling
    firer: Fighter
    target: Character
    bystanders: list[Fighter]
    throws: dict[str, dict[str, str]] = field(default_factory=dict)
    loaded: list[CharacterState] = field(default_factory=list)

    @property
    def shot(self) -> ShotIntoGroup:
        """The stray shot as the core built it."""
        return self.result.shot


def _build(chronicle: Chronicle, request: FiringIntoGroupsRequest, game_session: GameSession | None,
           settings: ChronicleSettings, rng: RandomSource) -> StoredFiringIntoGroups:
    """Load the characters, call the rules core ONCE, and return its ruling (nothing written)."""
    if not request.firer.weapon:
        raise ServiceError(Phrase.message(N_("Choose the gun that fired.")), field="firer_weapon")
    if request.target_id in (None, ""):
        raise ServiceError(Phrase.message(N_("Choose the target the shot missed.")), field="target")
    if not request.bystanders:
        raise ServiceError(Phrase.message(N_("Add the people near the target, closest first.")), field="bystanders")
    wanted = [("firer", request.firer.character_id), ("target", request.target_id)]
    wanted += [(f"bystanders[{i}]", b.character_id) for i, b in enumerate(request.bystanders)]
    states = load_characters(chronicle, wanted, game_session, settings)
    firer = Fighter(states[0].character, states[0], request.firer)
    target = states[1].character
    if target.id == firer.character.id:
        raise ServiceError(Phrase.message(N_("%(name)s fired the shot and cannot be its target."),
                                          name=target.name), field="target")
    people: list[Fighter] = []
    seen: set[int] = set()
    for index, (state, b) in enumerate(zip(states[2:], request.bystanders)):
        where = f"bystanders[{index}]"
        character = state.character
        if character.id in seen:
            raise ServiceError(Phrase.message(N_("%(name)s is already listed as a bystander."),
                                              name=character.name), field=where)
        if character.id == target.id:
            raise ServiceError(Phrase.message(N_("%(name)s is the target, not a bystander."),
                                              name=character.name), field=where)
        if character.id == firer.character.id:
            raise ServiceError(Phrase.message(N_("%(name)s fired the shot and cannot be a bystander to it."),
                                              name=character.name), field=where)
        seen.add(character.id)
        people.append(Fighter(character, state, FighterRequest(b.character_id, bid=b.bid, scene=b.scene)))
    bystanders = tuple(
        BystanderSide(side=Side(person_of(f.state), Choice(bid=(b.bid,) if b.bid else ())), throw=b.throw,
                      firer_throw=b.firer_throw, saw_it_coming=b.saw_it_coming, excluded=b.excluded,
                      tests=tuple(b.tests))
        for f, b in zip(people, request.bystanders))
    core = FiringIntoGroupsCall(firer=fighter_side(firer), target=target.name, bystanders=bystanders,
                      firer_throw=request.firer.throw, bursts=request.bursts, careful_aim=request.careful_aim,
                      close_range=request.close_range, deliberate_spray=request.deliberate_spray)
    sides = {firer.character.name: fighter_scene(firer)}
    sides.update({f.character.name: f.request.scene for f in people})
    scene = scene_of(request.scene_fields, sides)
    result = rule_firing_into_groups(core, scene, settings, rng, night=game_night(game_session))
    throws = {str(f.character.id): dict(result.throws.get(f.character.name, {})) for f in people}
    if "firer" in result.throws:
        throws["firer"] = dict(result.throws["firer"])
    return StoredFiringIntoGroups(result, firer, target, people, throws, scene=scene, loaded=states)


def adjudicate_firing_into_groups(chronicle: Chronicle, narrator: User | None, request: FiringIntoGroupsRequest,
                                  rng: RandomSource, record: str = "settled",
                                  request_token: str | None = None) -> StoredFiringIntoGroups:
    """One tap on the stray-shot screen (issue 29: one service call a tap): one transaction that loads the
    characters once (two queries), calls the rules core once (:func:`larp.rules.rulings.rule_firing_into_groups`:
    002 "Firing Guns into Groups of People") and, when ``record`` says so, records ONE ruling of kind
    ``firing_into_group`` with every character as a participant (``firer``, ``missed target``, ``bystander``)
    and writes the consequences the core computed (Traits lost, the extra Traits among them, Dodge and
    Firearms levels expended, the bystanders' tracks after armor). Otherwise the ruling so far is returned
    with the retests still open, nothing written.

    Random signs are drawn once, by that one rules call, and recorded as drawn; a retry after a conflicting
    change rules again on the same signs. ``request_token``: the form's one-time token (never recorded twice).

    Args:
        record: "settled" (record when no one may retest and no forced retest is due), "always" (record the
            shot as it stands), "unless_forced" (as it stands, unless a forced retest is due: then the shot so
            far), "never" (a preview).

    Raises:
        ServiceError: 404 unknown character; 409 no open game session to record in, a forced darkness retest
            still due (recording as it stands), a repeated form, or a character changed meanwhile; 422
            anything the rules refuse (a bystander twice, excluded bystanders not near the target, extra
            Traits with a shotgun...), naming the field.
    """
    asked: list[FiringIntoGroupsRequest] = [request]

    def rule(game_session: GameSession | None, settings: ChronicleSettings) -> StoredFiringIntoGroups:
        firing = _build(chronicle, asked[0], game_session, settings, rng)
        asked[0] = _with_signs(asked[0], firing)  # a retry rules on the same signs
        firing.settings, firing.game_session = settings, game_session
        firing.after = states_after(firing.loaded, {}, None, settings)
        return firing

    return one_tap(chronicle, record, request_token, rule, lambda firing: not firing.needs_decision,
                   lambda firing, game_session, settings: _record(chronicle, narrator, asked[0], firing, game_session,
                                                                  settings, request_token),
                   forced=lambda firing: bool(firing.ruling.pending))


def _with_signs(request: FiringIntoGroupsRequest, firing: StoredFiringIntoGroups) -> FiringIntoGroupsRequest:
    """``request`` with the signs the core used (random ones drawn) in place of what was asked."""
    signs = firing.throws
    firer = replace(request.firer, throw=signs["firer"]["throw"]) if "firer" in signs else request.firer
    bystanders = tuple(replace(b, **signs.get(str(f.character.id), {}))
                       for b, f in zip(request.bystanders, firing.bystanders))
    return replace(request, firer=firer, bystanders=bystanders)


def preview_firing_into_groups(chronicle: Chronicle, request: FiringIntoGroupsRequest, rng: RandomSource) -> StoredFiringIntoGroups:
    """Rule on the missed shot without writing anything (:func:`adjudicate_firing_into_groups` with
    ``record="never"``).

    Raises:
        ServiceError: as :func:`adjudicate_firing_into_groups`.
    """
    return adjudicate_firing_into_groups(chronicle, None, request, rng, record="never")


def run_firing_into_groups(chronicle: Chronicle, narrator: User | None, request: FiringIntoGroupsRequest, rng: RandomSource,
                   request_token: str | None = None) -> StoredFiringIntoGroups:
    """Rule on a missed shot into a group of stored characters and record it as it stands, in one transaction
    (:func:`adjudicate_firing_into_groups` with ``record="always"``, which see: 002 "Firing Guns into Groups
    of People").

    Raises:
        ServiceError: as :func:`adjudicate_firing_into_groups`.
    """
    return adjudicate_firing_into_groups(chronicle, narrator, request, rng, record="always",
                                         request_token=request_token)


def _record(chronicle: Chronicle, narrator: User | None, request: FiringIntoGroupsRequest,
            firing: StoredFiringIntoGroups, game_session: GameSession, settings: ChronicleSettings,
            request_token: str | None) -> None:
    """Record ``firing`` and write its consequences (inside :func:`adjudicate_firing_into_groups`'s transaction)."""
    ruling, shot = firing.ruling, firing.shot
    if ruling.pending:
        raise ServiceError(Phrase.message(N_("The forced darkness retest in %(names)s's test is due: make it "
                                             "before recording."),
                                          names=', '.join(ruling.pending)), field="retest", status=409)
    roles = [(firing.firer.character, "firer"), (firing.target, "missed target")]
    roles += [(f.character, "bystander") for f in firing.bystanders]
    inputs = {
        "firer": {"id": firing.firer.character.id, "name": firing.firer.character.name,
                  "bid": list(shot.firer.bid), "traits": shot.firer.traits},
        "weapon": shot.weapon, "fire": ruling.fire.value, "target": {"id": firing.target.id,
                                                                      "name": firing.target.name},
        "bystanders": [{"id": f.character.id, "name": f.character.name, "bid": list(b.side.bid),
                        "saw_it_coming": b.saw_it_coming, "throws": firing.throws.get(str(f.character.id), {}),
                        "tests": list(r.tests)}
                       for f, b, r in zip(firing.bystanders, shot.bystanders, request.bystanders)],
        "firer_throw": shot.firer_throw.value if shot.firer_throw else None,
        "extra_traits": list(shot.extra_traits), "excluded": list(shot.excluded),
        "careful_aim": shot.careful_aim, "bursts": shot.bursts,
        **({"deliberate_spray": True} if shot.deliberate_spray else {}),
        "scene": firing.scene.to_dict() if firing.scene is not None else None,
    }
    # The stored scene and its turn (bystander tests are tests, not challenges: no turn rule).
    in_scene = scene_turn_for(chronicle, request.scene_id, game_session, settings)
    if in_scene is not None:
        inputs["stored_scene"] = {"id": in_scene.scene.id, "name": in_scene.scene.name, "turn": in_scene.turn}
    record = record_ruling(chronicle, narrator, "firing_into_group", ruling.summary, ruling.steps, roles,
                           request_token=request_token,
                           game_session=game_session, inputs=inputs, outcome=firing.result.to_dict())
    if in_scene is not None:
        in_scene.link(record)
    stored = apply_consequences({f.character.name: f.character for f in [firing.firer, *firing.bystanders]},
                                game_session, record, firing.result.consequences)
    firing.record = record
    firing.after = states_after(firing.loaded, stored, firing.result.consequences, settings)
