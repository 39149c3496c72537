"""A mass challenge between stored characters (issue 4): the narrator's combat board and the stateful API.

The board names the target and up to five attackers hand to hand and five at
range, their signs, weapons, whom the target relents to, and the scene; this
module loads the characters as they stand tonight (two queries), calls the rules
core once (:func:`larp.rules.rulings.rule_mass_challenge`: each pair built like a one-on-one
challenge, judged in order, every hit through the damage rules and armor), and
in one transaction (:func:`adjudicate_mass_challenge`, one call a tap) either

- returns the ruling and what may still be called (retests of each pair, a forced
  darkness retest, whom the target injures), writing nothing; or
- records ONE ruling (kind ``mass_combat``) with every character as a participant
  and writes the consequences the core computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from larp.models import Character, Chronicle, GameSession, User
from larp.rules.calls import StrikeCalls
from larp.rules.challenge import POTENCE_TRAIT, RandomSource
from larp.rules.explain import N_, Phrase
from larp.rules.mass_challenge import MassChallenge, Range
from larp.rules.rulings import Choice, MassChallengeCall, MassAttacker, MassChallengeRuling, MassTarget, Side, rule_mass_challenge
from larp.rules.rulings.people import default_lead as _default_lead
from larp.rules.scene import SideScene
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError
from larp.services.challenge_requests import parse_category
from larp.services.characters import CharacterState, load_characters, person_of
from larp.services.chronicles import game_night
from larp.services.consequences import apply_consequences
from larp.services.one_tap import StoredTap, one_tap, states_after
from larp.services.records import record_ruling
from larp.services.scenes import scene_of
from larp.services.stored_scenes import scene_turn_for

RANDOM = "random"
COUNTERS = ("defend", "strike", "bite", "weapon")


@dataclass(frozen=True)
class FighterRequest(StrikeCalls):
    """What the narrator entered for one character on the board: his
    :class:`~larp.rules.calls.StrikeCalls` (by the same names in the form and the API) and the fields below.

    Attributes:
        character_id: the stored character.
        bid: the lead Trait (``"Potence"`` with Intensity); ``""``: the Trait
            he has most of tonight. The tool picks the other Traits risked.
        throw: ``rock``, ``paper``, ``scissors``, ``bomb`` or ``random``.
        range: attackers: ``hand_to_hand`` or ``ranged``.
        weapon: a live armory key, or ``""`` for bare hands.
        bite: a vampire's bite instead of a strike.
        strength: attackers hand to hand: a challenge of strength for the target.
        relented: attackers: the target relents to him.
        celerity_active: Celerity is active this round (his highest power).
        counter: the target: ``defend``, or a counter-attack (``strike``, ``bite``, ``weapon``).
        tests: attackers: his pair's later tests (retests), as JSON-like dicts.
        bomb_announced: he announced the Bomb before the challenge (LotNR Vigor: only then).
        scene: his part of the scene (his own darkness, sight powers off, the armor he wears...).
    """

    character_id: Any
    bid: str = ""
    throw: str = ""
    range: str = "hand_to_hand"
    weapon: str = ""
    bite: bool = False
    strength: bool = True
    relented: bool = False
    celerity_active: bool = False
    counter: str = "defend"
    tests: tuple[dict, ...] = ()
    scene: SideScene = SideScene()
    bomb_announced: bool = False


@dataclass(frozen=True)
class MassRequest:
    """A mass challenge as the narrator (or the stateful API) describes it.

    Attributes:
        target: the character attacked.
        attackers: the attackers in the narrator's order.
        injures: the ids of the losing attackers the target injures (empty: the tool's choice).
        category: the Traits' category (``physical``).
        scene_fields: the scene (``darkness``, ``darkness_source``, ``range`` or a ``scene`` object).
    """

    target: FighterRequest
    attackers: tuple[FighterRequest, ...]
    injures: tuple[Any, ...] = ()
    category: str = "physical"
    scene_fields: Mapping[str, Any] = field(default_factory=dict)
    scene_id: Any = None


@dataclass
class Fighter:
    """A loaded character: the model, its state tonight, and what the narrator asked."""

    character: Character
    state: CharacterState
    request: FighterRequest
    random_throws: list[str] = field(default_factory=list)


@dataclass
class StoredMassChallenge(StoredTap):
    """A mass challenge ruled on stored characters (not yet applied, or applied): a :class:`StoredTap` whose
    result is the core's :class:`larp.rules.rulings.MassChallengeRuling` (its ``ruling`` a
    :class:`larp.rules.mass_challenge.MassRuling`; ``needs_decision``: a pair's loser may still retest, a
    forced retest is due, or the target may choose whom he injures; ``retests`` by attacker).

    Attributes:
        target, attackers: the loaded characters, in the board's order.
        throws: the signs used, by character id (random ones drawn).
    """

    result: MassChallengeRuling
    target: Fighter
    attackers: list[Fighter]
    throws: dict[int, str]

    @property
    def mass(self) -> MassChallenge:
        """The mass challenge as the core built it."""
        return self.result.mass

    def by_name(self, name: str) -> Fighter:
        """The fighter called ``name``."""
        return next(f for f in [self.target, *self.attackers] if f.character.name == name)

    def injure_choice(self) -> list[str]:
        """The losing attackers the target may choose among (LotNR Mob Scene); empty otherwise."""
        return self.result.injure_choice()


def default_lead(state: CharacterState, category: str) -> str:
    """The Trait the character has most of tonight (alphabetical on equal counts), or ``""``."""
    return _default_lead(person_of(state), category)


def fighter_side(f: Fighter) -> Side:
    """The loaded fighter as the rules core's side: who he is tonight and what he does."""
    r = f.request
    person = person_of(f.state)
    return Side(person, Choice(bid=(r.bid,) if r.bid else (), celerity=person.discipline("Celerity")
                               if r.celerity_active else 0, lethal_by_prowess=r.lethal_by_prowess,
                               head_shot=r.head_shot, bomb_announced=r.bomb_announced,
                               full_auto=r.full_auto))


def fighter_scene(f: Fighter) -> SideScene:
    """His part of the scene, with the weapon the board gives him."""
    r = f.request
    own = r.scene
    return SideScene(own.darkness, own.darkness_source, own.shroud_caster, own.sight, own.cover, own.armor,
                     r.weapon, own.range)


def _load(chronicle: Chronicle, request: MassRequest, game_session: GameSession | None,
          settings: ChronicleSettings) -> tuple[Fighter, list[Fighter]]:
    if not request.attackers:
        raise ServiceError(Phrase.message(N_("Add at least one attacker.")), field="attackers")
    wanted = [("target", request.target.character_id)]
    wanted += [(f"attackers[{i}]", a.character_id) for i, a in enumerate(request.attackers)]
    states = load_characters(chronicle, wanted, game_session, settings)
    target = Fighter(states[0].character, states[0], request.target)
    attackers: list[Fighter] = []
    seen: set[int] = set()
    for index, (state, a) in enumerate(zip(states[1:], request.attackers)):
        where = f"attackers[{index}]"
        character = state.character
        if character.id == target.character.id:
            raise ServiceError(Phrase.message(N_("%(name)s is the target and cannot also be an attacker."),
                                              name=character.name), field=where)
        if character.id in seen:
            raise ServiceError(Phrase.message(N_("%(name)s is already an attacker."), name=character.name), field=where)
        seen.add(character.id)
        attackers.append(Fighter(character, state, a))
    return target, attackers


def _build(chronicle: Chronicle, request: MassRequest, game_session: GameSession | None, settings: ChronicleSettings,
           rng: RandomSource) -> StoredMassChallenge:
    """Load the characters, call the rules core ONCE, and return its ruling (nothing written)."""
    category = parse_category(request.category or "physical")
    target, attackers = _load(chronicle, request, game_session, settings)
    _check_leads(target, attackers, category.value)
    if request.target.counter not in COUNTERS:
        raise ServiceError(Phrase.message(N_("The target defends, strikes, bites or "
                                             "uses a weapon.")), field="target_counter")
    built = []
    for index, f in enumerate(attackers):
        r = f.request
        try:
            band = Range((r.range or "hand_to_hand").strip().lower())
        except ValueError:
            raise ServiceError(Phrase.message(N_("An attacker fights hand to "
                                                 "hand or at range.")), field=f"attackers[{index}].range") \
                from None
        built.append(MassAttacker(side=fighter_side(f), range=band,
                                 action="weapon" if r.weapon else ("bite" if r.bite else "strike"),
                                 throw=r.throw, tests=tuple(r.tests), strength=r.strength, relented=r.relented))
    names = {f.character.id: f.character.name for f in attackers}
    injures = []
    for cid in request.injures:
        try:
            injures.append(names[int(cid)])
        except (KeyError, TypeError, ValueError):
            raise ServiceError(Phrase.message(N_("The target can injure only one of "
                                                 "the attackers.")), field="injures") from None
    mass_call = MassChallengeCall(MassTarget(fighter_side(target), request.target.throw, request.target.counter, tuple(injures)),
              tuple(built), category)
    scene = scene_of(request.scene_fields, {f.character.name: fighter_scene(f) for f in [target, *attackers]})
    result = rule_mass_challenge(mass_call, scene, settings, rng, night=game_night(game_session))
    throws = {}
    for f in [target, *attackers]:
        name = f.character.name
        if name in result.throws:
            throws[f.character.id] = result.throws[name]
        if name in result.drawn:
            f.random_throws.append(result.throws[name])
    return StoredMassChallenge(result, target, attackers, throws, scene=scene)


def adjudicate_mass_challenge(chronicle: Chronicle, narrator: User | None, request: MassRequest, rng: RandomSource,
                              record: str = "settled", request_token: str | None = None) -> StoredMassChallenge:
    """One tap on the combat board (issue 29: one service call a tap): one transaction that loads the
    characters once (two queries), calls the rules core once (:func:`larp.rules.rulings.rule_mass_challenge`:
    002 "Mass Combat"; LotNR Mob Scene: each pair judged in order on the target as he stands after the
    results before it) and, when ``record`` says so, records ONE ruling of kind ``mass_combat`` and writes
    the consequences the core computed. Otherwise the ruling so far is returned with what may still be
    called (retests of each pair, a forced darkness retest, whom the target injures), nothing written, and
    the target's one challenge of the category this turn is checked (met-reference 3.1).

    The record's outcome holds every pair, every hit (applied or not, with the weapon and damage type) and
    the tracks; every character is a participant (``target``, ``attacker, hand to hand``, ``attacker,
    ranged``). Random signs are drawn once, by that one rules call, and recorded as drawn; a retry after a
    conflicting change rules again on the same signs. ``request_token`` is the board form's one-time
    token: the same fight is never recorded twice.

    Args:
        record: "settled" (record when no pair may retest, no forced retest is due and the target has no
            choice of whom he injures), "always" (record the fight as it stands), "unless_forced" (as it
            stands, unless a forced retest is due: then the fight so far), "never" (a preview).

    Raises:
        ServiceError: 404 unknown character; 409 no open game session to record in, a lead Trait already
            lost, a forced darkness retest still due (recording as it stands), a repeated form, or a
            character changed meanwhile; 422 anything the rules refuse (a sixth attacker, an attacker
            twice, the target as an attacker, too few Traits without relenting...), naming the field.
    """
    asked: list[MassRequest] = [request]
    drawn: set[int] = set()

    def rule(game_session: GameSession | None, settings: ChronicleSettings) -> StoredMassChallenge:
        board = _build(chronicle, asked[0], game_session, settings, rng)
        _keep_signs(asked, drawn, board)  # a retry rules on the same signs
        board.settings, board.game_session = settings, game_session
        board.after = states_after([f.state for f in [board.target, *board.attackers]], {}, None, settings)
        return board

    def told_at_resolve(board: StoredMassChallenge, game_session: GameSession | None,
                        settings: ChronicleSettings) -> None:
        # The one challenge a turn (met-reference 3.1) is told at Resolve, before anyone throws for nothing;
        # the record checks it again under the scene's lock (larp.services.stored_scenes).
        scene_turn_for(chronicle, asked[0].scene_id, game_session, settings, target=board.target.character,
                       category=board.mass.category.value)

    return one_tap(chronicle, record, request_token, rule, lambda board: not board.needs_decision,
                   lambda board, game_session, settings: _record(chronicle, narrator, asked[0], board, game_session,
                                                                 settings, request_token),
                   told_at_resolve, forced=lambda board: bool(board.ruling.pending))


def _keep_signs(asked: list[MassRequest], drawn: set[int], board: StoredMassChallenge) -> None:
    """The signs the core drew, written into the request ruled again on a retry (and still told as drawn)."""
    for f in [board.target, *board.attackers]:
        if f.random_throws:
            drawn.add(f.character.id)
        elif f.character.id in drawn:
            f.random_throws.append(board.throws[f.character.id])
    request, throws = asked[0], board.throws
    asked[0] = replace(request, target=replace(request.target, throw=throws.get(board.target.character.id,
                                                                                   request.target.throw)),
                       attackers=tuple(replace(a, throw=throws.get(f.character.id, a.throw))
                                       for a, f in zip(request.attackers, board.attackers)))


def preview_mass_challenge(chronicle: Chronicle, request: MassRequest, rng: RandomSource) -> StoredMassChallenge:
    """Rule on the board without writing anything, and say whether a decision is left
    (:func:`adjudicate_mass_challenge` with ``record="never"``).

    Raises:
        ServiceError: as :func:`adjudicate_mass_challenge`.
    """
    return adjudicate_mass_challenge(chronicle, None, request, rng, record="never")


def run_mass_challenge(chronicle: Chronicle, narrator: User | None, request: MassRequest, rng: RandomSource,
                    request_token: str | None = None) -> StoredMassChallenge:
    """Rule on a mass challenge between stored characters and record it as it stands, in one transaction
    (:func:`adjudicate_mass_challenge` with ``record="always"``, which see: 002 "Mass Combat").

    Raises:
        ServiceError: as :func:`adjudicate_mass_challenge`.
    """
    return adjudicate_mass_challenge(chronicle, narrator, request, rng, record="always", request_token=request_token)


def _check_leads(target: Fighter, attackers: list[Fighter], category: str) -> None:
    """A lead Trait the form names but the character lost meanwhile makes the form stale (409)."""
    for prefix, f in [("target_", target)] + [(f"attackers[{i}].", a) for i, a in enumerate(attackers)]:
        lead = f.request.bid
        if lead and lead != POTENCE_TRAIT and not f.state.trait_left(category, lead):
            raise ServiceError(Phrase.message(N_("%(name)s has no %(lead)s left tonight: choose another Trait."),
                                              name=f.character.name, lead=lead),
                               field=prefix + "bid", status=409)


def _record(chronicle: Chronicle, narrator: User | None, request: MassRequest, board: StoredMassChallenge,
            game_session: GameSession, settings: ChronicleSettings, request_token: str | None) -> None:
    """Record ``board`` and write its consequences (inside :func:`adjudicate_mass_challenge`'s transaction)."""
    ruling = board.ruling
    if ruling.pending:
        raise ServiceError(Phrase.message(N_("The forced darkness retest of %(names)s's pair is due: make it "
                                             "before recording."),
                                          names=', '.join(ruling.pending)), field="retest", status=409)
    roles = [(board.target.character, "target")] + [
        (f.character, "attacker, ranged" if a.range is Range.RANGED else "attacker, hand to hand")
        for f, a in zip(board.attackers, board.mass.attackers)]
    inputs = {
        "category": board.mass.category.value,
        "target": _inputs(board.target, board.mass.defender.side, board.throws),
        "attackers": [dict(_inputs(f, a.side, board.throws), range=a.range.value,
                           relented=f.request.relented, strength=a.strength,
                           tests=list(f.request.tests))
                      for f, a in zip(board.attackers, board.mass.attackers)],
        "counter": request.target.counter,
        "injures": list(board.mass.defender.injures),
        "scene": board.scene.to_dict() if board.scene is not None else None,
    }
    # The stored scene and its turn; the target's one challenge of the category this turn, which the
    # attackers share (met-reference 3.1; the check-then-write: larp.services.stored_scenes).
    in_scene = scene_turn_for(chronicle, request.scene_id, game_session, settings, target=board.target.character,
                              category=board.mass.category.value)
    if in_scene is not None:
        inputs["stored_scene"] = {"id": in_scene.scene.id, "name": in_scene.scene.name, "turn": in_scene.turn}
    record = record_ruling(chronicle, narrator, "mass_combat", ruling.summary, ruling.steps, roles,
                           game_session=game_session, inputs=inputs, outcome=board.result.to_dict(),
                           request_token=request_token)
    if in_scene is not None:
        in_scene.link(record)
    stored = apply_consequences({f.character.name: f.character for f in [board.target, *board.attackers]},
                                game_session, record, board.result.consequences)
    board.record = record
    board.after = states_after([f.state for f in [board.target, *board.attackers]], stored,
                               board.result.consequences, settings)


def _inputs(f: Fighter, con, throws: Mapping[int, str]) -> dict[str, Any]:
    return {"id": f.character.id, "name": f.character.name, "bid": list(con.bid), "traits": con.traits,
            "lead": con.lead.value, "health": con.health.value, "weapon": f.request.weapon or None,
            "throw": throws.get(f.character.id), "random_throw": bool(f.random_throws)}
