"""Running a challenge between stored characters (issues 2, 3 and 15).

The narrator's form (or the stateful API) names the characters, the bids,
the throws, the circumstances and the scene; this module loads the characters
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
from typing import Any, Mapping

from larp.db import db
from larp.models import Character, Chronicle, GameSession, Ruling, User
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
    RandomSource,
)
from larp.rules.explain import RulesError, Step
from larp.rules.rulings import Choice, OneOnOne, OneOnOneRuling, Side, rule_one_on_one, rule_static
from larp.rules.rulings.people import CHALLENGE_POWERS, lead_of  # noqa: F401 - the screens read them from here
from larp.rules.rulings.people import check_can_act as _can_act
from larp.rules.rulings.people import Person
from larp.rules.rulings.retest_fit import suitable_abilities
from larp.rules.scene import Scene, SideScene
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError, read_number
from larp.services.characters import CharacterState, load_characters, person_of
from larp.services.chronicles import chronicle_settings, current_game_session, game_night, open_game_session
from larp.services.records import apply_consequences, record_ruling, refuse_if_recorded, retrying
from larp.services.scenes import SCENE_KEYS, scene_of, side_scene
from larp.services.stored_scenes import scene_turn_for
from larp.services.table_results import DAMAGE_TESTS, entered_test, throws_from

RANDOM = "random"

def _flag(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "on", "yes") if value is not None else False


def _specialisation(value: Any) -> bool | str:
    """A side's specialisation as a form or the stored API gives it: a tick (``on``, ``true``...:
    the sheet's specialised Ability), nothing (none), or the Ability's name (LotNR Abilities)."""
    if isinstance(value, bool) or value is None:
        return bool(value)
    text = str(value).strip()
    if text.lower() in ("", "0", "false", "off", "no"):
        return False
    return True if text.lower() in ("1", "true", "on", "yes") else text


def _number(value: Any, field: str, low: int = 0, high: int | None = None, default: int = 0) -> int:
    return read_number(value, field, low=low, high=high, default=default)


@dataclass(frozen=True)
class SideRequest:
    """What the narrator entered for one side.

    Attributes:
        character_id: the stored character.
        bid: the lead Trait bid (the extra Traits a side must risk are picked
            by the tool from what it has most of), or ``"Potence"`` with Intensity.
        weapon: a live armory key (``"knife"``, ``"pistol"``...) or ``""``.
        lead: ``strength``/``speed``/``stamina``/``other``; ``""`` means "from the
            lead Trait" (``data/trait_leads.toml``).
        steps_moved: 0 to 3 steps taken before acting (LotNR three-step rule).
        off_hand: attacking with the off hand.
        relent: the side relents before the test.
        cover: cover Traits claimed (bonus Traits, never bid).
        specialisation: an Ability specialisation applies (+1 bonus Trait).
        calls_negative: a Negative Trait this side calls on the other.
        celerity_active: Celerity is active this turn (Rapidity's Bomb in speed challenges).
        waive_darkness: expend a Blindfighting level to skip the forced retest of total darkness.
        lethal_by_prowess: with Prowess, the strike does lethal damage.
        head_shot: a firearm aimed at the head.
        shroud_caster: this side cast the Shroud of Night (sees through it).
        bomb_announced: the side announced the Bomb before the challenge (LotNR Vigor: the Bomb
            exists only when announced).
        both_hands: the side fights with a weapon in each hand this turn (met-reference 3.8).
        bid_category: the category the side bids from when it differs from the challenge's
            (a shooter with a firearm may bid Mental Traits, LotNR Bidding Weapon Traits);
            ``""``: the challenge's. A form bid ``"mental:Clever"`` says the same.
        situation: the narrator's bonus (+) or penalty (-) Traits for the situation, -3 to 3,
            counted in ties and overbids, never bid (LotNR Bonus Traits, met-reference 1.3).
        stake: this side drives his Staking weapon at the heart (met-reference 3.7).
        ignore_wounds: this side spends a Willpower Trait to ignore his wound penalties, up to and
            including Incapacitated, for this turn (LotNR Willpower, met-reference 2.1).
        damage_throws: the simple tests after this side's hit as thrown at the table, by test
            (``high_caliber``, ``staking1``, ``staking2``) as (player, narrator) throws; a throw
            left out or ``random`` is drawn by the app, and the record says so.
        scene: this side's part of the scene (:mod:`larp.services.scenes`: his own darkness,
            sight powers turned off, cover, the armor worn for this ruling, the weapon).
    """

    character_id: Any
    bid: str = ""
    weapon: str = ""
    lead: str = ""
    steps_moved: int = 0
    off_hand: bool = False
    relent: bool = False
    cover: int = 0
    specialisation: bool | str = False
    calls_negative: str = ""
    celerity_active: bool = False
    waive_darkness: bool = False
    lethal_by_prowess: bool = False
    head_shot: bool = False
    shroud_caster: bool = False
    bomb_announced: bool = False
    both_hands: bool = False
    bid_category: str = ""
    situation: int = 0
    stake: bool = False
    ignore_wounds: bool = False
    full_auto: bool = False
    damage_throws: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    scene: SideScene = SideScene()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], prefix: str = "") -> "SideRequest":
        """Read a side from form fields (``prefix`` ``"challenger_"``) or a JSON object (no prefix).

        Raises:
            ServiceError: 422 naming the field of a malformed number.
        """
        def get(key: str, default: Any = "") -> Any:
            return data.get(prefix + key, default)

        weapon = str(get("weapon") or "").strip()
        bid = str(get("bid") or "").strip()
        bid_category = str(get("bid_category") or "").strip().lower()
        kind, sep, name = bid.partition(":")
        if sep and kind.strip().lower() in ("physical", "social", "mental"):
            bid_category, bid = kind.strip().lower(), name.strip()
        return cls(
            character_id=get("character_id", None) if not prefix else data.get(prefix.rstrip("_")),
            bid=bid,
            bid_category=bid_category,
            situation=_number(get("situation"), prefix + "situation", -3, 3),
            bomb_announced=_flag(get("bomb_announced", False)),
            both_hands=_flag(get("both_hands", False)),
            weapon=weapon,
            lead=str(get("lead") or "").strip().lower(),
            steps_moved=_number(get("steps_moved"), prefix + "steps_moved", 0, 3),
            off_hand=_flag(get("off_hand", False)),
            relent=_flag(get("relent", False)),
            cover=_number(get("cover"), prefix + "cover", 0, 6),
            specialisation=_specialisation(get("specialisation", False)),
            calls_negative=str(get("calls_negative") or "").strip(),
            celerity_active=_flag(get("celerity_active", False)),
            waive_darkness=_flag(get("waive_darkness", False)),
            lethal_by_prowess=_flag(get("lethal_by_prowess", False)),
            head_shot=_flag(get("head_shot", False)),
            shroud_caster=_flag(get("shroud_caster", False)),
            stake=_flag(get("stake", False)),
            ignore_wounds=_flag(get("ignore_wounds", False)),
            full_auto=_flag(get("full_auto", False)),
            damage_throws={test: pair for test in DAMAGE_TESTS
                           if (pair := throws_from({k: get(k, None) for k in (f"{test}_player", f"{test}_narrator")},
                                                   test)) is not None},
            scene=side_scene(lambda key: get(key, None), prefix, weapon=weapon),
        )


@dataclass(frozen=True)
class ChallengeRequest:
    """A challenge as the narrator (or the stateful API) describes it.

    Attributes:
        kind: ``contested``, ``static`` or ``simple``.
        category: ``physical``, ``social`` or ``mental``.
        challenger, defender: the sides (no defender in static and simple).
        action: what the challenger attempts (a key of ``ACTIONS``).
        defender_action: ``defend``, or a counter-attack (``strike``...).
        difficulty: a static challenge's difficulty, in Traits.
        extra_bid: extra Traits the narrator's difficulty makes the challenger risk.
        needs_win: a simple test whose effect needs an outright win.
        darkness: the scene's darkness: ``none``, ``partial`` or ``total``.
        darkness_source: ``natural`` or ``shroud`` (Obtenebration's Shroud of Night).
        scene_fields: the scene as the form or the call gave it (``darkness``,
            ``darkness_source``, ``range``, or a ``scene`` object; :func:`larp.services.scenes.scene_of`).
        surprised: the defender is surprised.
        tests: the tests, first throws first, as JSON-like dicts
            (``{"call": "retest", "by": "challenger", "source": "ability:Brawl",
            "challenger_throw": "rock", "defender_throw": "paper"}``); a throw
            of ``"random"`` is drawn from the random source and recorded.
    """

    category: str
    challenger: SideRequest
    defender: SideRequest | None = None
    kind: str = "contested"
    action: str = "strike"
    defender_action: str = "defend"
    difficulty: int | None = None
    extra_bid: int = 0
    needs_win: bool = False
    darkness: str = "none"
    darkness_source: str = "natural"
    surprised: bool = False
    tests: tuple[dict, ...] = ()
    request_token: str = ""
    scene_fields: Mapping[str, Any] = field(default_factory=dict)
    scene_id: Any = None


def parse_category(value: str) -> Category:
    """The category named by ``value`` (Physical, Social or Mental).

    Raises:
        ServiceError: 422 naming ``category``.
    """
    try:
        category = Category((value or "").strip().lower())
    except ValueError:
        category = None
    if category is None or category is Category.VIRTUE:
        raise ServiceError("Choose Physical, Social or Mental.", field="category")
    return category


def _kind(value: str) -> Kind:
    try:
        return Kind((value or "contested").strip().lower())
    except ValueError:
        raise ServiceError("Choose a contested challenge, a static challenge or a simple test.", field="kind") from None


def check_can_act(character: Character, state: CharacterState, field: str, ignore_wounds: bool = False) -> None:
    """Refuse a character who cannot take part in a challenge (the rules core's check:
    LotNR Health, met-reference 4.1; 000 "Stake Through Heart"; an Incapacitated character
    may act this turn by spending Willpower, ``ignore_wounds``, LotNR Willpower).

    Raises:
        ServiceError: 422 naming ``field``: unconscious, in torpor, dead or
            Incapacitated (no challenges until a level is healed), or staked.
    """
    try:
        _can_act(person_of(state), state.health, field, ignore_wounds)
    except RulesError as exc:
        raise ServiceError(exc.message, field=exc.field) from None


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
        raise ServiceError("Bid from Physical, Social or Mental Traits.", field="bid_category")
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
    return Choice(bid=(side.bid,) if side.bid else (), lead=lead, specialisation=side.specialisation,
                  bid_category=bid_category_of(side), bomb_announced=side.bomb_announced,
                  both_hands=side.both_hands,
                  bonuses=(call,) if side.situation > 0 else (), penalties=(call,) if side.situation < 0 else (),
                  steps_moved=side.steps_moved, off_hand=side.off_hand, relent=side.relent,
                  calls_negative=side.calls_negative,
                  celerity=person.discipline("Celerity") if side.celerity_active else 0,
                  waive_darkness=side.waive_darkness, lethal_by_prowess=side.lethal_by_prowess,
                  head_shot=side.head_shot, stake=side.stake, ignore_wounds=side.ignore_wounds,
                  full_auto=side.full_auto,
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
    """

    result: OneOnOneRuling
    loaded: _Loaded
    request: ChallengeRequest | None = None
    record: Ruling | None = None
    settings: ChronicleSettings | None = None
    scene: Scene | None = None
    game_session: GameSession | None = None

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
        """The Traits ``side`` could still risk in an overbid or a second challenge: those left
        tonight in the category it bids from that are not already at risk in this challenge (its
        bids, earlier overbids and a second challenge)."""
        state = self.loaded[f"{side}_state"]
        con = self.challenge.challenger if side == "challenger" else self.challenge.defender
        if state is None or con is None:
            return []
        category = (con.category or self.challenge.category).value
        left = Counter({line.name: line.available for line in state.traits.get(category, [])})
        left -= Counter(con.bid)
        left -= Counter(t.get("trait") for t in self.tests
                        if t.get("call") in ("overbid", "second_challenge") and t.get("by") == side)
        return sorted(name for name, count in left.items() if count > 0)

    def suitable_abilities(self, side: str) -> set[str] | None:
        """The Abilities (lower case) that suit a retest for ``side`` here, or ``None`` for "any"
        (:func:`larp.rules.rulings.retest_fit.suitable_abilities`, ``data/retests.toml``)."""
        if self.request is None:
            return None
        state = self.loaded[f"{side}_state"]
        con = self.challenge.challenger if side == "challenger" else self.challenge.defender
        action = self.request.action if side == "challenger" else self.request.defender_action
        side_request = self.request.challenger if side == "challenger" else self.request.defender
        weapon = side_request.weapon if side_request is not None else ""
        dark = con is not None and con.darkness.level.value != "none"
        defending = side == "defender" or not ACTIONS.get(action, {}).get("attack")
        return suitable_abilities(self.challenge.category, weapon, defending, dark,
                                  [a.name for a in state.abilities] if state is not None else None)


def _build(chronicle: Chronicle, request: ChallengeRequest, game_session: GameSession | None,
           settings: ChronicleSettings, rng: RandomSource) -> Adjudication:
    """Load the characters, call the rules core ONCE, and return its ruling (nothing written)."""
    kind = _kind(request.kind)
    category = parse_category(request.category)
    if request.action not in ACTIONS:
        raise ServiceError("Choose what the challenger attempts.", field="action")
    if request.defender_action not in ACTIONS:
        raise ServiceError("Choose what the defender does.", field="defender_action")
    wanted = [("challenger", request.challenger.character_id)]
    if kind is Kind.CONTESTED:
        if request.defender is None:
            raise ServiceError("Choose the defender.", field="defender")
        wanted.append(("defender", request.defender.character_id))
    states = load_characters(chronicle, wanted, game_session, settings)
    c_state = states[0]
    loaded = _Loaded(c_state.character, c_state)
    if kind is Kind.CONTESTED:
        d_state = states[1]
        if d_state.character.id == c_state.character.id:
            raise ServiceError(f"{c_state.character.name} cannot challenge themself: choose another defender.",
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
            raise ServiceError(f"Choose the Trait {character.name} bids.", field=prefix + "bid")
        if side.bid == POTENCE_TRAIT:
            continue
        cat = bid_category_of(side) or category
        if not state.trait_left(cat.value, side.bid):  # the form went stale: another challenge took it
            had = any(line.name == side.bid for line in state.traits[cat.value])
            if had:
                raise ServiceError(
                    f"{character.name} has no {side.bid} left: it was lost earlier this game session. "
                    "Choose another Trait.", field=prefix + "bid", status=409)
            raise ServiceError(f"{character.name} has no {cat.label} Trait called {side.bid}.",
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
    try:
        rule = rule_one_on_one if kind is Kind.CONTESTED else rule_static
        result = rule(one, scene, settings, rng, night=game_night(game_session))
    except RulesError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    return Adjudication(result, loaded, request=request, settings=settings, scene=scene, game_session=game_session)


#: When :func:`adjudicate_challenge` records the ruling: when nothing is left for the narrator to decide
#: ("settled": the screen's resolve and call taps), as it stands ("always": the record tap, the stored API),
#: or never (a preview).
RECORD_WHEN = ("settled", "always", "never")


def adjudicate_challenge(chronicle: Chronicle, narrator: User | None, request: ChallengeRequest, rng: RandomSource,
                         record: str = "settled") -> Adjudication:
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

    Raises:
        ServiceError: 404 unknown character; 409 a bid Trait no longer available, no open
            game session to record in, a repeated form, or a character changed meanwhile;
            422 anything the rules refuse (a character challenging itself, an unknown throw,
            the Bomb without its power, a retest the character cannot pay for, a challenge
            recorded before its first test...), naming the field.
    """
    if record not in RECORD_WHEN:
        raise ValueError(record)
    settings = chronicle_settings(chronicle)
    drawn: list[ChallengeRequest] = [request]

    def use_case() -> Adjudication:
        with db.atomic():
            refuse_if_recorded(request.request_token)
            game_session = open_game_session(chronicle)
            result = _build(chronicle, drawn[0], game_session, settings, rng)
            drawn[0] = replace(drawn[0], tests=tuple(result.tests))  # a retry rules on the same throws
            settled = result.ruling is not None and not result.needs_decision
            if record == "never" or (record == "settled" and not settled):
                if result.result is not None:  # the one challenge a turn is told at Resolve (met-reference 3.1)
                    scene_turn_for(chronicle, drawn[0].scene_id, game_session, settings,
                                   target=result.loaded.defender, category=result.result.challenge.category.value)
                return result
            if game_session is None:
                current_game_session(chronicle)  # raises its 409
            _record(chronicle, narrator, drawn[0], result, game_session, settings)
            return result

    return retrying(use_case)


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
    apply_consequences({c.name: c for c, _r in by_side.values()}, game_session, record, core.consequences)
    result.record = record


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


def _is_physical(category: Any) -> bool:
    return str(category or "").strip().lower() == Category.PHYSICAL.value


def request_from_form(form: Mapping[str, Any], script: list[dict] | None = None) -> ChallengeRequest:
    """The challenge request a narrator's form describes (see ``templates/challenges``).

    The first test comes from ``challenger_throw``/``defender_throw``, unless
    ``script`` (the hidden tests of a challenge in progress, random throws
    already drawn) gives every test.

    Raises:
        ServiceError: 422 naming a malformed number.
    """
    kind = (form.get("kind") or "contested").strip().lower()
    first = {"call": "test", "challenger_throw": form.get("challenger_throw") or None,
             "defender_throw": form.get("defender_throw") or None}
    if kind != "contested" and not first["defender_throw"]:
        first["defender_throw"] = RANDOM  # the narrator's throw
    relent = any(_flag(form.get(f"{side}_relent")) for side in ("challenger", "defender"))
    if kind == "static" and (form.get("difficulty") in (None, "") and not script):
        raise ServiceError("Give the difficulty: the number of Traits the narrator sets.", field="difficulty")
    difficulty = _number(form.get("difficulty"), "difficulty", 0, 30) if kind == "static" else None
    return ChallengeRequest(
        category=form.get("category", ""),
        kind=kind,
        challenger=SideRequest.from_mapping(form, "challenger_"),
        defender=SideRequest.from_mapping(form, "defender_") if kind == "contested" else None,
        action=form.get("action") or ("strike" if kind == "contested" and _is_physical(form.get("category")) else "other"),
        defender_action=form.get("defender_action") or "defend",
        difficulty=difficulty,
        extra_bid=_number(form.get("extra_bid"), "extra_bid", 0, 5),
        needs_win=_flag(form.get("needs_win")),
        darkness=form.get("darkness") or "none",
        darkness_source=form.get("darkness_source") or "natural",
        surprised=_flag(form.get("surprised")),
        tests=tuple(script) if script else (() if relent else (first,)),
        request_token=str(form.get("request_token") or "")[:64],
        scene_fields={k: form.get(k) for k in ("darkness", "darkness_source", "range", "sense") if form.get(k)},
        scene_id=form.get("scene_id") or None,
    )


def request_from_json(data: Mapping[str, Any]) -> ChallengeRequest:
    """The stateful API's challenge between stored characters.

    ``{"category": "physical", "challenger": {"character_id": 1, "bid": "Quick"},
    "defender": {"character_id": 2, "bid": "Brawny"}, "tests": [{"call": "test",
    "challenger_throw": "rock", "defender_throw": "scissors"}]}`` plus the
    optional fields of :class:`ChallengeRequest` and :class:`SideRequest`.

    Raises:
        ServiceError: 422 naming a missing or malformed field.
    """
    if not isinstance(data.get("challenger"), Mapping):
        raise ServiceError("Give the challenger as an object with character_id and bid.", field="challenger")
    kind = str(data.get("kind") or "contested").strip().lower()
    defender = None
    if kind == "contested":
        if not isinstance(data.get("defender"), Mapping):
            raise ServiceError("Give the defender as an object with character_id and bid.", field="defender")
        defender = SideRequest.from_mapping(data["defender"])
    tests = data.get("tests")
    if not isinstance(tests, list) or not tests:
        raise ServiceError("Give the tests, first throws first.", field="tests")
    return ChallengeRequest(
        category=str(data.get("category") or ""),
        kind=kind,
        challenger=SideRequest.from_mapping(data["challenger"]),
        defender=defender,
        action=str(data.get("action") or ("strike" if kind == "contested" and _is_physical(data.get("category")) else "other")),
        defender_action=str(data.get("defender_action") or "defend"),
        difficulty=_number(data.get("difficulty"), "difficulty", 0, 30) if kind == "static" else None,
        extra_bid=_number(data.get("extra_bid"), "extra_bid", 0, 5),
        needs_win=bool(data.get("needs_win", False)),
        darkness=str(data.get("darkness") or "none"),
        darkness_source=str(data.get("darkness_source") or "natural"),
        surprised=bool(data.get("surprised", False)),
        tests=tuple(tests),
        request_token=str(data.get("request_token") or "")[:64],
        scene_fields={k: data.get(k) for k in SCENE_KEYS if data.get(k) not in (None, "")},
        scene_id=data.get("scene_id"),
    )
