"""Mass combat between stored characters (issue 4): the narrator's combat board and the stateful API.

The board names the target and up to five attackers hand to hand and five at
range, their signs, weapons, and whom the target relents to; this module
builds the rules core's :class:`~larp.rules.mass_combat.MassChallenge` from
what the tool knows about each character tonight (Traits left, wound level,
powers, Ability levels, Potence, Fortitude, Celerity, the health track),
picks the Traits each side risks, and then either

- :func:`preview_mass_combat`: rules on it and says what may still be called
  (retests of each pair, whom the target injures), writing nothing; or
- :func:`run_mass_combat`: rules on it and applies it in one transaction:
  Traits lost and Ability levels expended, Willpower, each health track in
  the order the results came, and ONE record (kind ``mass_combat``) with
  every character as a participant and the pairs in its outcome.

:func:`apply_to_characters` is shared with firing into groups.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from larp.db import db
from larp.models import (
    Character,
    Chronicle,
    GameSession,
    Ruling,
    User,
)
from larp.rules.challenge import (
    POTENCE_TRAIT,
    Category,
    Challenge,
    Contestant,
    Outcome,
    RandomSource,
    Throw,
    bids_required,
    parse_throw,
    random_throw,
    test_calls_from_list,
)
from larp.rules.damage import weapon as armory_weapon
from larp.rules.darkness import DarknessLevel, DarknessSource
from larp.rules.explain import RulesError
from larp.rules.health import HealthTrack
from larp.rules.mass_combat import (
    Attack,
    Attacker,
    Body,
    Defender,
    MassChallenge,
    MassRuling,
    Range,
    Spending,
    defender_bid_count,
    rule_mass_challenge,
)
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError
from larp.services.challenges import (
    SideRequest,
    build_contestant,
    check_can_act,
    choose_bid,
)
from larp.services.characters import CharacterState, character_state, get_character
from larp.services.chronicles import chronicle_settings, current_game_session, open_game_session
from larp.services.health import retrying, store_track
from larp.services.records import charge, lock_characters, record_ruling
from larp.tables import physical_retests

RANDOM = "random"
COUNTERS = ("defend", "strike", "bite", "weapon")


@dataclass(frozen=True)
class FighterRequest:
    """What the narrator entered for one character on the board.

    Attributes:
        character_id: the stored character.
        bid: the lead Trait (``"Potence"`` with Intensity); ``""``: the Trait
            he has most of tonight. The tool picks the other Traits risked.
        throw: ``rock``, ``paper``, ``scissors``, ``bomb`` or ``random``.
        range: attackers: ``hand_to_hand`` or ``ranged``.
        weapon: a live armory key, or ``""`` for bare hands.
        bite: a vampire's bite instead of a strike.
        lethal_by_prowess: with Prowess, bare hands or a club do lethal damage.
        head_shot: a firearm aimed at the head.
        strength: attackers hand to hand: a challenge of strength for the target.
        relented: attackers: the target relents to him.
        celerity_active: Celerity is active this round (his highest power).
        counter: the target: ``defend``, or a counter-attack (``strike``, ``bite``, ``weapon``).
        tests: attackers: his pair's later tests (retests), as JSON-like dicts.
    """

    character_id: Any
    bid: str = ""
    throw: str = ""
    range: str = "hand_to_hand"
    weapon: str = ""
    bite: bool = False
    lethal_by_prowess: bool = False
    head_shot: bool = False
    strength: bool = True
    relented: bool = False
    celerity_active: bool = False
    counter: str = "defend"
    tests: tuple[dict, ...] = ()


@dataclass(frozen=True)
class MassRequest:
    """A mass challenge as the narrator (or the stateful API) describes it.

    Attributes:
        target: the character attacked.
        attackers: the attackers in the narrator's order.
        injures: the ids of the losing attackers the target injures (empty: the tool's choice).
        category: the Traits' category (``physical``).
    """

    target: FighterRequest
    attackers: tuple[FighterRequest, ...]
    injures: tuple[Any, ...] = ()
    category: str = "physical"


@dataclass
class Fighter:
    """A loaded character: the model, its state tonight, and what the narrator asked."""

    character: Character
    state: CharacterState
    request: FighterRequest
    random_throws: list[str] = field(default_factory=list)


@dataclass
class Board:
    """A mass challenge ruled on stored characters (not yet applied, or applied).

    Attributes:
        mass: the rules core's input.
        ruling: the core's ruling.
        target, attackers: the loaded characters, in the board's order.
        throws: the signs used, by character id (random ones drawn).
        needs_decision: a pair's loser may still retest, or the target may
            choose whom he injures, so the narrator decides before recording.
        record: the stored ruling once applied.
    """

    mass: MassChallenge
    ruling: MassRuling
    target: Fighter
    attackers: list[Fighter]
    throws: dict[int, str]
    needs_decision: bool
    record: Ruling | None = None

    def by_name(self, name: str) -> Fighter:
        """The fighter called ``name``."""
        return next(f for f in [self.target, *self.attackers] if f.character.name == name)

    def retests(self, attacker: str) -> list[tuple[str, str]]:
        """The retests the side behind in ``attacker``'s pair may call now, as ``(by, source)``:
        ``by`` is ``challenger`` (the attacker) or ``defender`` (the target); the source is
        one the character can pay for and that suits what he is doing (``data/retests.toml``)."""
        pair = self.ruling.pair(attacker)
        if pair.options is None or not pair.made or pair.relented or pair.options.finished:
            return []
        behind = {Outcome.CHALLENGER: [Outcome.DEFENDER], Outcome.DEFENDER: [Outcome.CHALLENGER]}.get(
            pair.outcome, [Outcome.CHALLENGER, Outcome.DEFENDER])
        index = next(i for i, f in enumerate(self.attackers) if f.character.name == attacker)
        out = []
        for side in behind:
            fighter = self.attackers[index] if side is Outcome.CHALLENGER else self.target
            suitable = suitable_abilities(self.mass.category, fighter.request.weapon,
                                          defending=side is Outcome.DEFENDER)
            out += [(side.value, source) for source in pair.options.side(side).retests
                    if not source.startswith("ability:") or suitable is None or source[8:].lower() in suitable]
        return out

    def injure_choice(self) -> list[str]:
        """The losing attackers the target may choose among, when he counter-attacks and more
        lost than he has actions (LotNR Mob Scene); empty otherwise."""
        losers = [p.attacker for p in self.ruling.pairs if p.made and p.outcome is Outcome.DEFENDER]
        if self.mass.defender.attack is None or len(losers) <= self.ruling.actions:
            return []
        return losers


def suitable_abilities(category: Category, weapon: str, defending: bool) -> set[str] | None:
    """The Abilities (lower case) that suit a retest in a Physical challenge (``data/retests.toml``:
    Brawl bare-handed, Melee with a hand weapon, Firearms shooting, Athletics throwing, Dodge
    defending; met-reference 2.1, 3.6); ``None`` (any) in Social and Mental challenges."""
    if category is not Category.PHYSICAL:
        return None
    table = physical_retests()
    if weapon:
        card = armory_weapon(weapon, "live")
        names = list(table["firearm"] if card.firearm else table["melee_weapon"] if card.melee else table["thrown"])
    else:
        names = list(table["bare_hands"])
    if defending:
        names += table["defending"]
    return {n.lower() for n in names}


def flag(value: Any) -> bool:
    """A form or JSON flag: ``on``, ``true``, ``1``, ``yes`` or ``True``."""
    return value is True or str(value).strip().lower() in ("1", "true", "on", "yes") if value is not None else False


def draw_throw(value: str, field_name: str, rng: RandomSource) -> tuple[Throw, bool]:
    """A sign from the form: ``random`` is drawn from ``rng`` (rock, paper or scissors).

    Raises:
        ServiceError: 422 naming ``field_name``: no sign, or not a sign.
    """
    text = (value or "").strip().lower()
    if not text:
        raise ServiceError("Choose the sign.", field=field_name)
    if text == RANDOM:
        return random_throw(rng), True
    try:
        return parse_throw(text, field_name), False
    except RulesError as exc:
        raise ServiceError(exc.message, field=field_name) from None


def default_lead(state: CharacterState, category: str) -> str:
    """The Trait the character has most of tonight (alphabetical on equal counts), or ``""``."""
    lines = sorted((line for line in state.traits.get(category, []) if line.available),
                   key=lambda line: (-line.available, line.name))
    return lines[0].name if lines else ""


def celerity_level(state: CharacterState, active: bool) -> int:
    """The Celerity level active this round: his highest power if activated, else 0."""
    return state.discipline_level("Celerity") if active else 0


def load_fighter(chronicle: Chronicle, request: FighterRequest, field_name: str, game_session: GameSession | None,
                 settings: ChronicleSettings) -> Fighter:
    """Load one character and check he can fight.

    Raises:
        ServiceError: 404 unknown; 422 unconscious, in torpor, dead or Incapacitated.
    """
    character = get_character(chronicle, request.character_id, field_name)
    state = character_state(character, game_session, settings)
    check_can_act(character, state, field_name)
    return Fighter(character, state, request)


def contestant_for(fighter: Fighter, category: Category, prefix: str, settings: ChronicleSettings,
                   extra: int = 0) -> Contestant:
    """The fighter as a rules-core contestant, bidding his lead Trait plus what a challenge
    requires of him (a Wounded side risks one more, LotNR Health) plus ``extra`` Traits.

    Raises:
        ServiceError: 422 naming the field: a lead Trait he does not have left, an unknown weapon.
    """
    r = fighter.request
    lead = r.bid or default_lead(fighter.state, category.value)
    if lead and lead != POTENCE_TRAIT and not fighter.state.trait_left(category.value, lead):
        raise ServiceError(f"{fighter.character.name} has no {lead} left tonight: choose another Trait.",
                           field=prefix + "bid", status=409)
    side = SideRequest(character_id=fighter.character.id, bid=lead, weapon=r.weapon, celerity_active=r.celerity_active,
                       lethal_by_prowess=r.lethal_by_prowess, head_shot=r.head_shot,
                       lead="strength" if lead == POTENCE_TRAIT else "")
    con = build_contestant(fighter.character, fighter.state, side, prefix, category, DarknessLevel.NONE,
                           DarknessSource.NATURAL, settings)
    if not lead:
        return con
    other = Contestant("the other side", 1, ("a Trait",))
    try:
        count = bids_required(Challenge(category, replace(con, bid=(lead,)), other), settings)[Outcome.CHALLENGER]
    except RulesError as exc:
        raise ServiceError(exc.message, field=prefix + "bid") from None
    return replace(con, bid=choose_bid(fighter.state, category.value, lead, (count or 1) + extra))


def attack_for(fighter: Fighter, action: str | None = None) -> Attack:
    """How the fighter's hit does damage: his weapon card or bare hands or a bite, with his Potence."""
    r = fighter.request
    if action is None:
        action = "weapon" if r.weapon else ("bite" if r.bite else "strike")
    return Attack(action=action, weapon=r.weapon or None if action == "weapon" else None,
                  potence=fighter.state.discipline_level("Potence"),
                  lethal_by_prowess=r.lethal_by_prowess and action in ("strike", "weapon"),
                  head_shot=r.head_shot and action == "weapon")


def body_for(fighter: Fighter) -> Body:
    """What damage does to the fighter: his kind, Fortitude and live track."""
    return Body(creature=fighter.character.creature, fortitude=fighter.state.discipline_level("Fortitude"),
                track=fighter.state.health)


def _category(value: str) -> Category:
    try:
        category = Category((value or "physical").strip().lower())
    except ValueError:
        category = None
    if category is None or category is Category.VIRTUE:
        raise ServiceError("Choose Physical, Social or Mental.", field="category")
    return category


def _build(chronicle: Chronicle, request: MassRequest, game_session: GameSession | None, settings: ChronicleSettings,
           rng: RandomSource) -> Board:
    category = _category(request.category)
    if not request.attackers:
        raise ServiceError("Add at least one attacker.", field="attackers")
    target = load_fighter(chronicle, request.target, "target", game_session, settings)
    attackers: list[Fighter] = []
    seen: set[int] = set()
    for index, a in enumerate(request.attackers):
        where = f"attackers[{index}]"
        character = get_character(chronicle, a.character_id, where)
        if character.id == target.character.id:
            raise ServiceError(f"{character.name} is the target and cannot also attack himself.", field=where)
        if character.id in seen:
            raise ServiceError(f"{character.name} is already an attacker.", field=where)
        seen.add(character.id)
        attackers.append(load_fighter(chronicle, a, where, game_session, settings))
    if request.target.counter not in COUNTERS:
        raise ServiceError("The target defends, strikes, bites or uses a weapon.", field="target_counter")
    throws: dict[int, str] = {}
    built: list[Attacker] = []
    for index, f in enumerate(attackers):
        prefix = f"attackers[{index}]."
        try:
            rng_kind = Range((f.request.range or "hand_to_hand").strip().lower())
        except ValueError:
            raise ServiceError("An attacker fights hand to hand or at range.", field=prefix + "range") from None
        throw = None
        if not f.request.relented:
            throw, drawn = draw_throw(f.request.throw, prefix + "throw", rng)
            throws[f.character.id] = throw.value
            if drawn:
                f.random_throws.append(throw.value)
        try:
            tests = test_calls_from_list(list(f.request.tests), prefix + "tests")
        except RulesError as exc:
            raise ServiceError(exc.message, field=exc.field) from None
        built.append(Attacker(
            side=contestant_for(f, category, prefix, settings), range=rng_kind, attack=attack_for(f), throw=throw,
            tests=tests, strength=f.request.strength,
            celerity=celerity_level(f.state, f.request.celerity_active), body=body_for(f)))
    defended = any(not f.request.relented for f in attackers)
    d_throw = None
    if defended:
        d_throw, drawn = draw_throw(request.target.throw, "target_throw", rng)
        throws[target.character.id] = d_throw.value
        if drawn:
            target.random_throws.append(d_throw.value)
    names = {f.character.id: f.character.name for f in attackers}
    injures = []
    for cid in request.injures:
        try:
            injures.append(names[int(cid)])
        except (KeyError, TypeError, ValueError):
            raise ServiceError("The target can injure only one of his attackers.", field="injures") from None
    counter = request.target.counter
    defender = Defender(
        side=contestant_for(target, category, "target_", settings), throw=d_throw,
        relents_to=tuple(f.character.name for f in attackers if f.request.relented),
        attack=None if counter == "defend" else attack_for(target, counter), injures=tuple(injures),
        celerity=celerity_level(target.state, target.request.celerity_active), body=body_for(target))
    mass = MassChallenge(defender, tuple(built), category)
    try:
        count = defender_bid_count(mass, settings)
        lead = defender.side.bid[0] if defender.side.bid else ""
        bid = choose_bid(target.state, category.value, lead, count) if count and lead else ()
        mass = replace(mass, defender=replace(defender, side=replace(defender.side, bid=bid)))
        ruling = rule_mass_challenge(mass, settings, rng)
    except RulesError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    board = Board(mass, ruling, target, attackers, throws, False)
    board.needs_decision = any(board.retests(a.character.name) for a in attackers) or board.injure_choice()
    return board


def preview_mass_combat(chronicle: Chronicle, request: MassRequest, rng: RandomSource) -> Board:
    """Rule on the board without writing anything, and say whether a decision is left.

    Raises:
        ServiceError: as :func:`run_mass_combat`.
    """
    return _build(chronicle, request, open_game_session(chronicle), chronicle_settings(chronicle), rng)


def apply_to_characters(game_session: GameSession, record: Ruling, category: str,
                        fighters: Sequence[Fighter], traits_lost: Mapping[str, Sequence[str]],
                        spent: Mapping[str, Spending], tracks: Mapping[str, HealthTrack]) -> None:
    """Write a ruling's changes to the stored characters (inside the use case's transaction).

    Traits lost go against the game session (never the Potence pseudo-Trait),
    Ability levels expended likewise, Willpower comes off the character, and
    each health track that changed is stored with its version checked.

    Raises:
        Conflict: 409 when a character changed since it was read (the use case is retried).
    """
    for f in fighters:
        character, name = f.character, f.character.name
        spending = spent.get(name)
        character = charge(character, game_session, record, category, traits_lost.get(name, ()),
                           spending.abilities.items() if spending else (), spending.willpower if spending else 0)
        track = tracks.get(name)
        if track is not None and track != f.state.health:
            store_track(character, track, ruling=record)


def run_mass_combat(chronicle: Chronicle, narrator: User | None, request: MassRequest, rng: RandomSource,
                    request_token: str | None = None) -> Board:
    """Rule on a mass challenge between stored characters and apply it, in one transaction.

    Rules: :func:`larp.rules.mass_combat.rule_mass_challenge` (002 "Mass Combat"; LotNR
    Mob Scene). One record of kind ``mass_combat``: its outcome holds every
    pair, every hit (applied or not, with the weapon and damage type) and the
    tracks; every character is a participant (``target``, ``attacker, hand to
    hand``, ``attacker, ranged``). Retried on a conflicting change. ``request_token``
    is the board form's one-time token: the same fight is never recorded twice.

    Raises:
        ServiceError: 404 unknown character; 409 no open game session, a lead
            Trait already lost, or a character changed meanwhile; 422 anything
            the rules refuse (a sixth attacker, an attacker twice, the target as
            an attacker, too few Traits without relenting...), naming the field.
    """
    settings = chronicle_settings(chronicle)
    return retrying(lambda: _apply(chronicle, narrator, request, rng, settings, request_token))


def _apply(chronicle: Chronicle, narrator: User | None, request: MassRequest, rng: RandomSource,
           settings: ChronicleSettings, request_token: str | None = None) -> Board:
    with db.atomic():
        # Check-then-write: lock every fighter before reading their Traits and Ability levels left.
        lock_characters([request.target.character_id, *(a.character_id for a in request.attackers)])
        game_session = current_game_session(chronicle)
        board = _build(chronicle, request, game_session, settings, rng)
        ruling = board.ruling
        fighters = [board.target, *board.attackers]
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
        }
        record = record_ruling(chronicle, narrator, "mass_combat", ruling.summary, ruling.steps, roles,
                               game_session=game_session, inputs=inputs, outcome=ruling.to_dict(),
                               request_token=request_token)
        apply_to_characters(game_session, record, board.mass.category.value, fighters, ruling.traits_lost,
                            ruling.spent, ruling.tracks)
        board.record = record
        return board


def _inputs(f: Fighter, con: Contestant, throws: Mapping[int, str]) -> dict[str, Any]:
    return {"id": f.character.id, "name": f.character.name, "bid": list(con.bid), "traits": con.traits,
            "lead": con.lead.value, "health": con.health.value, "weapon": f.request.weapon or None,
            "throw": throws.get(f.character.id), "random_throw": bool(f.random_throws)}


def fighter_from_mapping(data: Mapping[str, Any], where: str) -> FighterRequest:
    """A fighter from a JSON object (the stateful API): ``character_id`` plus the optional
    fields of :class:`FighterRequest`.

    Raises:
        ServiceError: 422 naming the field of a malformed value.
    """
    if not isinstance(data, Mapping):
        raise ServiceError("Give an object with character_id.", field=where)
    unknown = sorted(set(data) - set(FighterRequest.__dataclass_fields__))
    if unknown:
        raise ServiceError(f"Unknown field {unknown[0]!r}.", field=f"{where}.{unknown[0]}")
    tests = data.get("tests", [])
    if not isinstance(tests, list) or not all(isinstance(t, Mapping) for t in tests):
        raise ServiceError("Give the pair's later tests as a list of objects.", field=f"{where}.tests")
    return FighterRequest(
        character_id=data.get("character_id"), bid=str(data.get("bid") or "").strip(),
        throw=str(data.get("throw") or "").strip(), range=str(data.get("range") or "hand_to_hand").strip(),
        weapon=str(data.get("weapon") or "").strip(), bite=flag(data.get("bite")),
        lethal_by_prowess=flag(data.get("lethal_by_prowess")), head_shot=flag(data.get("head_shot")),
        strength=data.get("strength", True) is not False, relented=flag(data.get("relented")),
        celerity_active=flag(data.get("celerity_active")), counter=str(data.get("counter") or "defend").strip(),
        tests=tuple(dict(t) for t in tests),
    )


def mass_request_from_json(data: Mapping[str, Any]) -> MassRequest:
    """The stateful API's mass challenge between stored characters.

    ``{"target": {"character_id": 2, "throw": "rock", "counter": "strike"},
    "attackers": [{"character_id": 1, "throw": "paper"}, {"character_id": 3,
    "throw": "scissors", "range": "ranged", "weapon": "pistol"}]}``.

    Raises:
        ServiceError: 422 naming a missing or malformed field.
    """
    if not isinstance(data.get("target"), Mapping):
        raise ServiceError("Give the target as an object with character_id.", field="target")
    attackers = data.get("attackers")
    if not isinstance(attackers, list) or not attackers:
        raise ServiceError("Give the attackers as a list of objects with character_id.", field="attackers")
    injures = data.get("injures", [])
    if not isinstance(injures, list):
        raise ServiceError("Give the ids of the attackers the target injures.", field="injures")
    return MassRequest(
        target=fighter_from_mapping(data["target"], "target"),
        attackers=tuple(fighter_from_mapping(a, f"attackers[{i}]") for i, a in enumerate(attackers)),
        injures=tuple(injures), category=str(data.get("category") or "physical"),
    )
