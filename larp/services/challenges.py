"""Running a challenge between stored characters (issues 2, 3 and 15).

The narrator's form (or the stateful API) names the characters, the bids,
the throws, the circumstances and the scene (read by
:mod:`larp.services.challenge_requests`); this module loads the characters
as they stand tonight (two queries), says what the narrator chose for each
side, and calls the rules core once (:func:`larp.rules.rulings.rule_one_on_one`,
:func:`larp.rules.rulings.rule_static`), which builds the challenge (leads,
extra Traits risked, darkness and sight powers, armor) and computes every
consequence. Then either

- :func:`preview_challenge`: the ruling on the tests so far and what each
  side may still call (retests it can pay for, overbids), writing nothing; or
- :func:`run_challenge`: records the ruling and writes its consequences in one
  transaction (Traits lost and Ability levels expended against the game
  session, Willpower spent, the tracks after armor and Fortitude).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from larp.models import Character, Chronicle, GameSession, Ruling, User
from larp.rules.calls import side_calls
from larp.rules.challenge import (
    ACTIONS,
    POTENCE_TRAIT,
    Category,
    Challenge,
    ChallengeOptions,
    ChallengeRuling,
    Kind,
    Lead,
    Modifier,
    Outcome,
    RandomSource,
)
from larp.rules.explain import N_, Phrase, Step
from larp.rules.rulings import Choice, OneOnOne, OneOnOneRuling, Side, rule_one_on_one, rule_static
from larp.rules.rulings.people import CHALLENGE_POWERS, lead_of  # noqa: F401 - the screens read them from here
from larp.rules.rulings.people import check_can_act as _can_act
from larp.rules.rulings.people import Person
from larp.rules.scene import Scene
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError
from larp.services.challenge_requests import ChallengeRequest, SideRequest, parse_category, parse_kind
from larp.services.characters import CharacterState, load_characters, person_of
from larp.services.chronicles import game_night
from larp.services.consequences import apply_consequences
from larp.services.live import seen_several_in_chronicle
from larp.services.one_tap import one_tap, states_after
from larp.services.records import record_ruling
from larp.services.scenes import scene_of
from larp.services.stored_scenes import scene_turn_for
from larp.services.table_results import DAMAGE_TESTS, entered_test


def check_can_act(character: Character, state: CharacterState, field: str, ignore_wounds: bool = False) -> None:
    """Refuse a character who cannot take part in a challenge (the rules core's check:
    LotNR Health, met-reference 4.1; 000 "Stake Through Heart"; an Incapacitated character
    may act this turn by spending Willpower, ``ignore_wounds``, LotNR Willpower).

    Raises:
        ServiceError: 422 naming ``field``: unconscious, in torpor, dead or
            Incapacitated (no challenges until a level is healed), or staked.
    """
    _can_act(person_of(state), state.health, field, ignore_wounds)


@dataclass
class _Loaded:
    """Characters and their states for a request (inside the transaction)."""

    challenger: Character
    challenger_state: CharacterState
    defender: Character | None = None
    defender_state: CharacterState | None = None

    def __getitem__(self, key: str) -> Any:
        """``loaded["challenger"]``, ``loaded["defender_state"]``... for templates."""
        return getattr(self, key)


def bid_category_of(side: SideRequest) -> Category | None:
    """The category ``side`` bids from when the narrator chose another than the challenge's.

    Raises:
        ServiceError: 422 naming the side's ``bid_category``: not Physical, Social or Mental.
    """
    if not side.bid_category:
        return None
    try:
        category = Category(side.bid_category)
    except ValueError:
        category = None
    if category is None or category is Category.VIRTUE:
        raise ServiceError(Phrase.message(N_("Bid from Physical, Social or Mental Traits.")), field="bid_category")
    return category


def choice_of(side: SideRequest, person: Person, rng: RandomSource | None = None, prefix: str = "") -> Choice:
    """What the narrator chose for one side, as the rules core's :class:`Choice` (no rule here:
    the core infers the lead from the Trait unless one is given, and picks the extra Traits).

    Raises:
        ServiceError: 422 a malformed throw entered for a simple test after the hit, or a
            ``bid_category`` that is not Physical, Social or Mental.
    """
    try:
        lead = Lead(side.lead) if side.lead else None
    except ValueError:
        lead = None
    call = Modifier("the narrator's call for the situation", abs(side.situation))
    tests = {name: entered_test(side.damage_throws.get(name), f"{prefix}{name}_player", rng) for name in DAMAGE_TESTS}
    return Choice(bid=(side.bid,) if side.bid else (), lead=lead, bid_category=bid_category_of(side),
                  bonuses=(call,) if side.situation > 0 else (), penalties=(call,) if side.situation < 0 else (),
                  celerity=person.discipline("Celerity") if side.celerity_active else 0,
                  **side_calls(side),
                  high_caliber_test=tests["high_caliber"],
                  staking_tests=tuple(t for t in (tests["staking1"], tests["staking2"]) if t is not None))


@dataclass
class Adjudication:
    """A challenge ruled on stored characters (not yet applied, or applied).

    Attributes:
        result: the rules core's ruling with every consequence (:func:`larp.rules.rulings.rule_one_on_one`).
        loaded: the characters.
        request: what the narrator asked.
        record: the stored ruling once applied.
        settings: the chronicle's settings it was ruled with.
        scene: the scene it was ruled in.
        game_session: the open game session it was ruled in (``None``: none open, a preview).
        after: the sides as they stand after the tap, by character id (loaded in its transaction, and what it
            wrote: :func:`larp.services.one_tap.states_after`), for the screen to draw without reading again.
        seen: each side's live fingerprint (:mod:`larp.services.live`), by character id, read in the tap's
            transaction after its writes (only when the screen asked: ``fingerprints``).
    """

    result: OneOnOneRuling
    loaded: _Loaded
    request: ChallengeRequest | None = None
    record: Ruling | None = None
    settings: ChronicleSettings | None = None
    scene: Scene | None = None
    game_session: GameSession | None = None
    after: dict[int, CharacterState] = field(default_factory=dict)
    seen: dict[int, str] = field(default_factory=dict)

    @property
    def states(self) -> list[CharacterState]:
        """The sides' states as the tap loaded them."""
        return [state for state in (self.loaded.challenger_state, self.loaded.defender_state) if state is not None]

    @property
    def challenge(self) -> Challenge:
        """The rules core's script, built from the request and the characters."""
        return self.result.challenge

    @property
    def ruling(self) -> ChallengeRuling | None:
        """The core's ruling on the tests so far (``None`` until the script can end)."""
        return self.result.ruling

    @property
    def options(self) -> ChallengeOptions:
        """What each side may still call."""
        return self.result.options

    @property
    def tests(self) -> list[dict]:
        """The tests as recorded (random throws drawn, flagged)."""
        return list(self.result.tests)

    @property
    def needs_decision(self) -> bool:
        """The side behind may still retest or overbid (or a forced retest is due): the narrator decides."""
        return self.result.needs_decision

    @property
    def steps(self) -> tuple[Step, ...]:
        """The explanation so far, the damage included."""
        return self.result.steps

    @property
    def health_steps(self) -> list[Step]:
        """The damage's steps (after armor and Fortitude)."""
        return [step for hit in self.result.hits for step in hit.steps]

    @property
    def summary(self) -> str:
        """One line on where the challenge stands."""
        return self.result.summary

    def overbid_traits(self, side: str) -> list[str]:
        """The Traits ``side`` could still risk in an overbid or a second challenge, as the rules core's
        options give them (:attr:`larp.rules.challenge.SideOptions.overbid_traits`: those left tonight in
        the category it bids from that are not already at risk in this challenge)."""
        return list(self.options.side(Outcome(side)).overbid_traits or ())

    def suitable_abilities(self, side: str) -> set[str] | None:
        """The Abilities (lower case) that suit a retest for ``side`` here, or ``None`` for "any", as the
        rules core's options give them (:attr:`larp.rules.challenge.SideOptions.suitable_abilities`,
        ``data/retests.toml``)."""
        fit = self.options.side(Outcome(side)).suitable_abilities
        return set(fit) if fit is not None else None


def _build(chronicle: Chronicle, request: ChallengeRequest, game_session: GameSession | None,
           settings: ChronicleSettings, rng: RandomSource) -> Adjudication:
    """Load the characters, call the rules core ONCE, and return its ruling (nothing written)."""
    kind = parse_kind(request.kind)
    category = parse_category(request.category)
    if request.action not in ACTIONS:
        raise ServiceError(Phrase.message(N_("Choose what the challenger attempts.")), field="action")
    if request.defender_action not in ACTIONS:
        raise ServiceError(Phrase.message(N_("Choose what the defender does.")), field="defender_action")
    wanted = [("challenger", request.challenger.character_id)]
    if kind is Kind.CONTESTED:
        if request.defender is None:
            raise ServiceError(Phrase.message(N_("Choose the defender.")), field="defender")
        wanted.append(("defender", request.defender.character_id))
    states = load_characters(chronicle, wanted, game_session, settings)
    c_state = states[0]
    loaded = _Loaded(c_state.character, c_state)
    if kind is Kind.CONTESTED:
        d_state = states[1]
        if d_state.character.id == c_state.character.id:
            raise ServiceError(Phrase.message(N_("%(name)s cannot challenge themself: choose another defender."),
                                              name=c_state.character.name),
                               field="defender")
        loaded.defender, loaded.defender_state = d_state.character, d_state
    sides = [("challenger_", request.challenger, c_state)]
    if kind is Kind.CONTESTED:
        sides.append(("defender_", request.defender, loaded.defender_state))
    for prefix, side, state in sides:
        check_can_act(state.character, state, prefix.rstrip("_"), side.ignore_wounds)
        if side.relent or kind is Kind.SIMPLE:
            continue
        character = state.character
        if not side.bid:
            raise ServiceError(Phrase.message(N_("Choose the Trait %(name)s bids."),
                                              name=character.name), field=prefix + "bid")
        if side.bid == POTENCE_TRAIT:
            continue
        cat = bid_category_of(side) or category
        if not state.trait_left(cat.value, side.bid):  # the form went stale: another challenge took it
            had = any(line.name == side.bid for line in state.traits[cat.value])
            if had:
                raise ServiceError(
                    Phrase.message(N_("%(name)s has no %(bid)s left: it was lost earlier this game session. Choose "
                                      "another Trait."),
                                   name=character.name, bid=side.bid), field=prefix + "bid", status=409)
            raise ServiceError(Phrase.message(N_("%(name)s has no %(label)s Trait called %(bid)s."),
                                              name=character.name, label=Phrase.term(cat.label), bid=side.bid),
                               field=prefix + "bid")
    people = {}
    for prefix, side, state in sides:
        person = person_of(state)
        people[prefix] = Side(person, choice_of(side, person, rng, prefix))
    scene = scene_of(request.scene_fields, {people[prefix].name: side.scene for prefix, side, _s in sides})
    one = OneOnOne(
        category=category, challenger=people["challenger_"], defender=people.get("defender_"), kind=kind,
        action=request.action, defender_action=request.defender_action,
        difficulty=request.difficulty, needs_win=request.needs_win, surprised=request.surprised,
        tests=tuple(request.tests),
    )
    if request.extra_bid:
        one = OneOnOne(**{**one.__dict__, "challenger": Side(one.challenger.person, Choice(
            **{**one.challenger.choice.__dict__, "extra_bid": request.extra_bid}))})
    rule = rule_one_on_one if kind is Kind.CONTESTED else rule_static
    result = rule(one, scene, settings, rng, night=game_night(game_session))
    return Adjudication(result, loaded, request=request, settings=settings, scene=scene, game_session=game_session)


def adjudicate_challenge(chronicle: Chronicle, narrator: User | None, request: ChallengeRequest, rng: RandomSource,
                         record: str = "settled", fingerprints: bool = False) -> Adjudication:
    """One tap on a challenge between stored characters (issue 29: one service call a tap): one
    transaction that loads the characters once (two queries), calls the rules core once
    (:func:`larp.rules.rulings.rule_one_on_one`: 002 "Challenges", "Ties", "Darkness", "Damage and
    Healing"; LotNR via met-reference 1-3) and, when ``record`` says so, records the ruling and
    writes the consequences it computed (Traits lost, Ability levels and Willpower spent, the
    tracks after armor and Fortitude, a torpor begun). Otherwise the ruling so far is returned,
    pending, with what each side may still call, and nothing is written.

    Random throws are drawn once, by that one rules call, and the ruling records exactly those
    (``result.tests``); a retry after a conflict rules again on the same throws.

    Args:
        record: "settled" (record when no side may retest or overbid any more and no forced
            retest is due), "always" (record the challenge as it stands), "never" (a preview).
        fingerprints: also read each side's live fingerprint (``seen``) for the screen that draws them.
            Check-then-write made safe: it is read at the end of the tap's transaction, after its writes
            and under its locks (SQLite's ``BEGIN IMMEDIATE`` lets no other writer in; on PostgreSQL the
            sides are loaded ``FOR NO KEY UPDATE`` and every writer of a character's rows, rulings and the
            sheet editor, locks him first), so it is the fingerprint of exactly the sides drawn from
            ``after``: a change made after the commit moves it and shows at the screen's first poll.

    Raises:
        ServiceError: 404 unknown character; 409 a bid Trait no longer available, no open
            game session to record in, a repeated form, or a character changed meanwhile;
            422 anything the rules refuse (a character challenging itself, an unknown throw,
            the Bomb without its power, a retest the character cannot pay for, a challenge
            recorded before its first test...), naming the field.
    """
    drawn: list[ChallengeRequest] = [request]

    def rule(game_session: GameSession | None, settings: ChronicleSettings) -> Adjudication:
        result = _build(chronicle, drawn[0], game_session, settings, rng)
        drawn[0] = replace(drawn[0], tests=tuple(result.tests))  # a retry rules on the same throws
        return result

    def told_at_resolve(result: Adjudication, game_session: GameSession | None, settings: ChronicleSettings) -> None:
        # The one challenge a turn is told at Resolve (met-reference 3.1).
        scene_turn_for(chronicle, drawn[0].scene_id, game_session, settings,
                       target=result.loaded.defender, category=result.result.challenge.category.value)
        result.after = states_after(result.states, {}, None, settings)
        _seen(chronicle, result, fingerprints)

    def write(result: Adjudication, game_session: GameSession, settings: ChronicleSettings) -> None:
        _record(chronicle, narrator, drawn[0], result, game_session, settings)
        _seen(chronicle, result, fingerprints)

    return one_tap(chronicle, record, request.request_token, rule,
                   lambda result: result.ruling is not None and not result.needs_decision, write, told_at_resolve)


def _seen(chronicle: Chronicle, result: Adjudication, fingerprints: bool) -> None:
    """The sides' live fingerprints, read last in the tap's transaction (see :func:`adjudicate_challenge`)."""
    if fingerprints:
        seen = seen_several_in_chronicle(chronicle.id, [state.character.id for state in result.states])
        result.seen.update({cid: one.fingerprint if one is not None else "" for cid, one in seen.items()})


def preview_challenge(chronicle: Chronicle, request: ChallengeRequest, rng: RandomSource) -> Adjudication:
    """Rule on the tests so far without writing anything, and say what may follow
    (:func:`adjudicate_challenge` with ``record="never"``).

    Raises:
        ServiceError: as :func:`adjudicate_challenge`.
    """
    return adjudicate_challenge(chronicle, None, request, rng, record="never")


def run_challenge(
    chronicle: Chronicle, narrator: User | None, request: ChallengeRequest, rng: RandomSource
) -> Adjudication:
    """Adjudicate ``request`` on the stored characters and record it as it stands, in one transaction
    (:func:`adjudicate_challenge` with ``record="always"``, which see).

    Raises:
        ServiceError: as :func:`adjudicate_challenge`.
    """
    return adjudicate_challenge(chronicle, narrator, request, rng, record="always")


def _record(chronicle: Chronicle, narrator: User | None, request: ChallengeRequest, result: Adjudication,
            game_session: GameSession, settings: ChronicleSettings) -> None:
    """Record ``result`` and write its consequences (inside :func:`adjudicate_challenge`'s transaction)."""
    ruling, loaded, core = result.ruling, result.loaded, result.result
    if ruling is None:
        raise ServiceError(result.summary + " Make it before recording.", field="tests")
    by_side = {"challenger": (loaded.challenger, request.challenger)}
    if loaded.defender is not None:
        by_side["defender"] = (loaded.defender, request.defender)
    inputs: dict[str, Any] = {
        "kind": ruling.kind.value,
        "category": core.challenge.category.value,
        "action": request.action,
        "defender_action": request.defender_action,
        "darkness": request.darkness,
        "tests": list(core.tests),
        "scene": result.scene.to_dict() if result.scene is not None else None,
    }
    for side, (character, side_request) in by_side.items():
        con = core.challenge.challenger if side == "challenger" else core.challenge.defender
        inputs[side] = {
            "id": character.id, "name": character.name, "bid": list(con.bid), "traits": con.traits,
            "weapon": side_request.weapon or None, "lead": con.lead.value, "health": con.health.value,
            "relent": con.relent, "bomb_announced": con.bomb_announced,
            "bid_category": (con.category or core.challenge.category).value,
            "situation": side_request.situation,
            "throw": core.tests[0].get(f"{side}_throw") if core.tests else None,
            "random_throw": bool(core.tests) and side in core.tests[0].get("random", []),
        }
    if request.kind == "static":
        inputs["difficulty"] = request.difficulty
    # The stored scene and its turn, the one-challenge-per-turn rule checked against every narrator's
    # challenges of the turn (after the characters were loaded locked: larp.services.stored_scenes).
    in_scene = scene_turn_for(chronicle, request.scene_id, game_session, settings,
                              target=loaded.defender if loaded.defender is not None else None,
                              category=core.challenge.category.value)
    if in_scene is not None:
        inputs["stored_scene"] = {"id": in_scene.scene.id, "name": in_scene.scene.name, "turn": in_scene.turn}
    record = record_ruling(
        chronicle, narrator, "challenge", core.summary, core.steps,
        [(c, side) for side, (c, _r) in by_side.items()],
        game_session=game_session, inputs=inputs, outcome=core.to_dict(),
        request_token=request.request_token or None,
    )
    if in_scene is not None:
        in_scene.link(record)
    stored = apply_consequences({c.name: c for c, _r in by_side.values()}, game_session, record, core.consequences)
    result.record = record
    result.after = states_after(result.states, stored, core.consequences, settings)


def characters_after(result: Adjudication) -> dict[str, dict[str, Any]]:
    """Each character as the applied ruling left him (the API's answer), from the loaded state and the
    consequences, without reading the database again: his track, level, Willpower and Traits left."""
    out = {}
    for side in ("challenger", "defender"):
        state = result.loaded[f"{side}_state"]
        if state is None:
            continue
        character = state.character
        consequence = result.result.consequences.of(character.name)
        track = consequence.track if consequence.track is not None else state.health
        lost = Counter(cat for cat, _t in consequence.traits_lost)
        out[side] = {
            "id": character.id, "name": character.name, "health": track.to_dict(), "level": track.state(),
            "willpower": character.willpower_current - consequence.willpower,
            "traits_left": {c: state.available(c) - lost.get(c, 0) for c in ("physical", "social", "mental")},
        }
    return out
