"""Running a challenge between stored characters (issues 2 and 3).

The narrator's form (or the stateful API) names the characters, the bids,
the throws and the circumstances; this module builds the rules core's
:class:`~larp.rules.challenge.Challenge` from what the tool knows about the
characters tonight (Traits left, wound level, powers, Ability levels and
Willpower left, darkness reductions), pre-filling everything the narrator
should not have to type, and then either

- :func:`preview_challenge`: rules on the tests so far and says what each
  side may still call (retests it can pay for, overbids), writing nothing; or
- :func:`run_challenge`: rules on the complete script and applies it in one
  transaction: Traits lost and Ability levels expended are recorded against
  the game session, Willpower is spent, damage goes through the damage rules
  onto the health track, and the ruling is recorded with its explanation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from larp.db import db
from larp.models import Character, Chronicle, GameSession, Ruling, User
from larp.rules.challenge import (
    ACTIONS,
    POTENCE_TRAIT,
    Call,
    Category,
    Challenge,
    ChallengeOptions,
    ChallengeRuling,
    Contestant,
    Health,
    Kind,
    Lead,
    Modifier,
    NegativeCall,
    Outcome,
    Power,
    RandomSource,
    TestCall,
    Throw,
    Weapon,
    bids_required,
    parse_throw,
    random_throw,
    play_challenge,
)
from larp.rules.damage import Strike, Target, damage_taken, strike_damage, weapon as armory_weapon
from larp.rules.darkness import Darkness, DarknessLevel, DarknessSource, darkness_table
from larp.rules.explain import RulesError, Step
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError, read_number
from larp.services.characters import CharacterState, character_state, get_character
from larp.services.chronicles import chronicle_settings, current_game_session, open_game_session
from larp.services.health import retrying, store_track
from larp.services.records import charge, record_ruling, refuse_if_recorded
from larp.tables import physical_retests, trait_leads

RANDOM = "random"

#: Discipline power names (as on sheets) that change a challenge (met-reference 3.3-3.5).
CHALLENGE_POWERS: dict[str, Power] = {
    "vigor": Power.VIGOR,
    "rapidity": Power.RAPIDITY,
    "puissance": Power.PUISSANCE,
    "fleetness": Power.FLEETNESS,
    "might": Power.MIGHT,
    "endurance": Power.ENDURANCE,
    "intensity": Power.INTENSITY,
}


def _flag(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "on", "yes") if value is not None else False


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
    """

    character_id: Any
    bid: str = ""
    weapon: str = ""
    lead: str = ""
    steps_moved: int = 0
    off_hand: bool = False
    relent: bool = False
    cover: int = 0
    specialisation: bool = False
    calls_negative: str = ""
    celerity_active: bool = False
    waive_darkness: bool = False
    lethal_by_prowess: bool = False
    head_shot: bool = False
    shroud_caster: bool = False

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], prefix: str = "") -> "SideRequest":
        """Read a side from form fields (``prefix`` ``"challenger_"``) or a JSON object (no prefix).

        Raises:
            ServiceError: 422 naming the field of a malformed number.
        """
        def get(key: str, default: Any = "") -> Any:
            return data.get(prefix + key, default)

        return cls(
            character_id=get("character_id", None) if not prefix else data.get(prefix.rstrip("_")),
            bid=str(get("bid") or "").strip(),
            weapon=str(get("weapon") or "").strip(),
            lead=str(get("lead") or "").strip().lower(),
            steps_moved=_number(get("steps_moved"), prefix + "steps_moved", 0, 3),
            off_hand=_flag(get("off_hand", False)),
            relent=_flag(get("relent", False)),
            cover=_number(get("cover"), prefix + "cover", 0, 6),
            specialisation=_flag(get("specialisation", False)),
            calls_negative=str(get("calls_negative") or "").strip(),
            celerity_active=_flag(get("celerity_active", False)),
            waive_darkness=_flag(get("waive_darkness", False)),
            lethal_by_prowess=_flag(get("lethal_by_prowess", False)),
            head_shot=_flag(get("head_shot", False)),
            shroud_caster=_flag(get("shroud_caster", False)),
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


def _darkness_level(value: str) -> DarknessLevel:
    try:
        return DarknessLevel((value or "none").strip().lower())
    except ValueError:
        raise ServiceError("Darkness is none, partial or total.", field="darkness") from None


def lead_of(trait: str) -> Lead:
    """What a lead Trait tests (``data/trait_leads.toml``); ``other`` if not listed."""
    return Lead(trait_leads().get(trait.strip().lower(), "other"))


def _powers(state: CharacterState) -> set[str]:
    return {name.lower() for held in state.powers.values() for _level, name in held}


def _reductions_for(state: CharacterState, caster: bool) -> tuple[str, ...]:
    held = _powers(state)
    keys = [row.key for row in darkness_table().reductions.values() if row.power and row.power.lower() in held]
    if caster:
        keys.append("own_shroud")
    return tuple(keys)


def _health(state: CharacterState) -> Health:
    level = state.health.state().lower() if state.health is not None else "healthy"
    return {"bruised": Health.BRUISED, "wounded": Health.WOUNDED}.get(level, Health.HEALTHY)


def _abilities_left(state: CharacterState) -> dict[str, int]:
    return {a.name: a.left for a in state.abilities}


def choose_bid(state: CharacterState, category: str, lead: str, count: int) -> tuple[str, ...]:
    """The lead Trait plus ``count - 1`` more, from the Traits the side has most of tonight.

    Used wherever the tool picks the extra Traits a side must risk (a Wounded
    side's second Trait, a mass challenge's defender's one per attacker).
    """
    left = Counter({line.name: line.available for line in state.traits.get(category, []) if line.available})
    bid = [lead]
    if lead != POTENCE_TRAIT:
        left[lead] -= 1
    for name, _n in sorted(left.items(), key=lambda item: (-item[1], item[0])):
        while len(bid) < count and left[name] > 0:
            bid.append(name)
            left[name] -= 1
    return tuple(bid)


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


def check_can_act(character: Character, state: CharacterState, field: str) -> None:
    """Refuse a character who cannot take part in a challenge (LotNR Health, met-reference 4.1).

    Raises:
        ServiceError: 422 naming ``field``: unconscious, in torpor, dead or
            Incapacitated (no challenges until a level is healed), or staked.
    """
    if character.condition != "active":
        reason = {
            "unconscious": "is unconscious",
            "torpor": "is in torpor",
            "final_death": "has met Final Death",
            "dead": "is dead",
        }.get(character.condition, character.condition)
        raise ServiceError(f"{character.name} {reason} and cannot take part in a challenge.", field=field)
    if state.health is not None and state.health.marked >= state.health.size - 1:
        raise ServiceError(
            f"{character.name} is Incapacitated: no challenges until one level is healed.", field=field
        )
    if character.staked:
        raise ServiceError(f"{character.name} is staked and paralysed until the stake is removed "
                           "(000 \"Stake Through Heart\"): no challenges.", field=field)


def _weapon(key: str, field: str) -> Weapon | None:
    if not key:
        return None
    try:
        card = armory_weapon(key, "live")
    except RulesError:
        raise ServiceError(f"There is no weapon {key!r} in the armory.", field=field) from None
    return Weapon(card.name, card.bonus_traits, card.damage_type, card.damage)


def build_contestant(
    character: Character, state: CharacterState, side: SideRequest, prefix: str, category: Category,
    darkness: DarknessLevel, source: DarknessSource, settings: ChronicleSettings,
) -> Contestant:
    """The rules core's :class:`Contestant` for a stored character tonight.

    Traits held and lost this game session, the challenge powers he has
    (Rapidity only with Celerity active), the lead from his bid Trait
    (``data/trait_leads.toml``), cover and specialisation bonuses, the weapon
    card, his wound level, Ability levels and Willpower left, and the darkness
    reductions of his powers. ``side.bid`` becomes the first Trait of the bid.

    Raises:
        ServiceError: 422 naming ``prefix`` + the field: an unknown lead or
            weapon, Blindfighting to expend that he does not have.
    """
    lines = state.traits.get(category.value, [])
    held = tuple(line.name for line in lines for _ in range(line.count))
    lost = tuple(line.name for line in lines for _ in range(min(line.lost, line.count)))
    powers = {CHALLENGE_POWERS[p] for p in _powers(state) if p in CHALLENGE_POWERS}
    if Power.RAPIDITY in powers and not side.celerity_active:
        powers.discard(Power.RAPIDITY)  # Rapidity's Bomb needs Celerity activated this turn
    if side.lead:
        try:
            lead = Lead(side.lead)
        except ValueError:
            raise ServiceError("The lead is strength, speed, stamina or other.", field=prefix + "lead") from None
    else:
        lead = lead_of(side.bid) if category is Category.PHYSICAL else Lead.OTHER
    bonuses = []
    if side.cover:
        bonuses.append(Modifier("cover", side.cover))
    if side.specialisation:
        bonuses.append(Modifier("specialisation", 1))
    abilities = _abilities_left(state)
    waiver = ""
    if side.waive_darkness:
        waiver = next((name for name in abilities if name.lower() == "blindfighting"), "")
        if not waiver:
            raise ServiceError(f"{character.name} has no Blindfighting to expend.", field=prefix + "waive_darkness")
    return Contestant(
        name=character.name,
        traits=state.available(category.value),
        bid=(side.bid,) if side.bid else (),
        held=held,
        lost_earlier=lost,
        bonuses=tuple(bonuses),
        weapon=_weapon(side.weapon, prefix + "weapon"),
        health=_health(state),
        powers=frozenset(powers),
        lead=lead,
        abilities=abilities,
        willpower=character.willpower_current,
        generation=character.generation if character.creature == "vampire" else None,
        steps_moved=side.steps_moved,
        off_hand=side.off_hand,
        relent=side.relent,
        darkness=Darkness(level=darkness, source=source,
                          reductions=_reductions_for(state, side.shroud_caster), waive_retest=waiver),
    )


def _throw(value: Any, field: str, rng: RandomSource, allowed: tuple[Throw, ...]) -> tuple[Throw | None, bool]:
    if value is None or value == "":
        return None, False
    if str(value).strip().lower() == RANDOM:
        return random_throw(rng, [t for t in allowed if t is not Throw.BOMB] or allowed), True
    try:
        return parse_throw(value, field), False
    except RulesError as exc:
        raise ServiceError(exc.message, field=field) from None


def _tests(request: ChallengeRequest, challenge: Challenge, rng: RandomSource) -> tuple[tuple[TestCall, ...], list[dict]]:
    from larp.rules.challenge import allowed_throws

    calls, recorded = [], []
    for index, raw in enumerate(request.tests):
        if not isinstance(raw, Mapping):
            raise ServiceError("Each test is an object.", field=f"tests[{index}]")
        where = f"tests[{index}]"
        try:
            call = Call((raw.get("call") or "test").strip().lower())
        except (ValueError, AttributeError):
            raise ServiceError("A call is test, overbid, retest or forced_retest.", field=f"{where}.call") from None
        by = None
        if raw.get("by"):
            try:
                by = Outcome(str(raw["by"]).strip().lower())
            except ValueError:
                by = None
            if by not in (Outcome.CHALLENGER, Outcome.DEFENDER):
                raise ServiceError("Give challenger or defender.", field=f"{where}.by")
        ct, c_random = _throw(raw.get("challenger_throw"), f"{where}.challenger_throw", rng,
                              allowed_throws(challenge, Outcome.CHALLENGER))
        d_allowed = allowed_throws(challenge, Outcome.DEFENDER) if challenge.defender else (Throw.ROCK, Throw.PAPER, Throw.SCISSORS)
        dt, d_random = _throw(raw.get("defender_throw"), f"{where}.defender_throw", rng, d_allowed)
        calls.append(TestCall(call=call, challenger_throw=ct, defender_throw=dt, by=by,
                              source=str(raw.get("source") or "").strip(), cancel=str(raw.get("cancel") or "").strip(),
                              trait=str(raw.get("trait") or "").strip()))
        earlier_random = [s for s in (raw.get("random") or []) if s in ("challenger", "defender")]
        recorded.append({
            "call": call.value, "by": by.value if by else None,
            "challenger_throw": ct.value if ct else None, "defender_throw": dt.value if dt else None,
            "random": sorted(set(earlier_random) | {side for side, flag in (("challenger", c_random),
                                                                               ("defender", d_random)) if flag}),
            "source": calls[-1].source, "cancel": calls[-1].cancel, "trait": calls[-1].trait,
        })
    relenting = challenge.challenger.relent or (challenge.defender is not None and challenge.defender.relent)
    if not calls and not relenting:
        raise ServiceError("Choose both throws.", field="challenger_throw")
    return tuple(calls), recorded


@dataclass
class Adjudication:
    """A challenge ruled on stored characters (not yet applied, or applied).

    Attributes:
        challenge: the rules core's script, built from the request and the characters.
        ruling: the core's ruling on the tests so far.
        options: what each side may still call.
        tests: the tests as recorded (random throws drawn, flagged).
        loaded: the characters.
        needs_decision: the side behind may still retest or overbid, so the
            narrator decides before the ruling is recorded.
        record: the stored ruling once applied.
    """

    challenge: Challenge
    ruling: ChallengeRuling | None
    options: ChallengeOptions
    tests: list[dict]
    loaded: _Loaded
    needs_decision: bool
    record: Ruling | None = None
    health_steps: list[Step] = field(default_factory=list)
    request: ChallengeRequest | None = None
    steps: tuple[Step, ...] = ()

    @property
    def summary(self) -> str:
        """One line on where the challenge stands."""
        if self.ruling is not None:
            return self.ruling.summary
        if self.options.forced_retest is not None:
            return f"{self.loaded[self.options.forced_retest.value].name} won, in total darkness: the retest is due."
        return "The first test is due."

    def overbid_traits(self, side: str) -> list[str]:
        """The Traits ``side`` could still risk in an overbid: those left tonight that are not
        already at risk in this challenge (its bids and earlier overbids)."""
        state = self.loaded[f"{side}_state"]
        con = self.challenge.challenger if side == "challenger" else self.challenge.defender
        if state is None or con is None:
            return []
        left = Counter({line.name: line.available for line in state.traits.get(self.challenge.category.value, [])})
        left -= Counter(con.bid)
        left -= Counter(t.get("trait") for t in self.tests if t.get("call") == "overbid" and t.get("by") == side)
        return sorted(name for name, count in left.items() if count > 0)

    def suitable_abilities(self, side: str) -> set[str] | None:
        """The Abilities (lower case) that suit a retest for ``side`` here, or ``None`` for "any".

        Physical challenges use ``data/retests.toml``: Brawl bare-handed, Melee
        with a hand weapon, Firearms shooting, Dodge defending, Blindfighting in
        darkness (met-reference 2.1, 3.6, 6.1). Social and Mental: any Ability but
        the purely physical ones.
        """
        if self.request is None:
            return None
        table = physical_retests()
        if self.challenge.category is not Category.PHYSICAL:
            state = self.loaded[f"{side}_state"]
            physical = {n.lower() for n in table["physical_only"]}
            return {a.name.lower() for a in state.abilities} - physical if state is not None else None
        side_request = self.request.challenger if side == "challenger" else self.request.defender
        action = self.request.action if side == "challenger" else self.request.defender_action
        names: list[str] = []
        # Strike or block with what is in hand; a defender may also dodge.
        if side_request is not None and side_request.weapon:
            card = armory_weapon(side_request.weapon, "live")
            names += table["firearm"] if card.firearm else table["melee_weapon"] if card.melee else table["thrown"]
        else:
            names += table["bare_hands"]
        if side == "defender" or not ACTIONS.get(action, {}).get("attack"):
            names += table["defending"]
        if self.request.darkness != "none":
            names += table["darkness"]
        return {n.lower() for n in names}


def _build(chronicle: Chronicle, request: ChallengeRequest, game_session: GameSession | None,
           settings: ChronicleSettings, rng: RandomSource) -> Adjudication:
    kind = _kind(request.kind)
    category = parse_category(request.category)
    darkness = _darkness_level(request.darkness)
    try:
        source = DarknessSource((request.darkness_source or "natural").strip().lower())
    except ValueError:
        raise ServiceError("The darkness is natural or a Shroud of Night.", field="darkness_source") from None
    if request.action not in ACTIONS:
        raise ServiceError("Choose what the challenger attempts.", field="action")
    if request.defender_action not in ACTIONS:
        raise ServiceError("Choose what the defender does.", field="defender_action")
    if category is not Category.PHYSICAL:
        for key, value in (("action", request.action), ("defender_action", request.defender_action)):
            if ACTIONS[value]["attack"]:
                raise ServiceError(f"Only a Physical challenge is an attack; a {category.label} challenge has a "
                                   f"stated outcome instead (action 'other').", field=key)
    challenger = get_character(chronicle, request.challenger.character_id, "challenger")
    c_state = character_state(challenger, game_session, settings)
    check_can_act(challenger, c_state, "challenger")
    loaded = _Loaded(challenger, c_state)
    if kind is Kind.CONTESTED:
        if request.defender is None:
            raise ServiceError("Choose the defender.", field="defender")
        defender = get_character(chronicle, request.defender.character_id, "defender")
        if defender.id == challenger.id:
            raise ServiceError(f"{challenger.name} cannot challenge themself: choose another defender.",
                               field="defender")
        d_state = character_state(defender, game_session, settings)
        check_can_act(defender, d_state, "defender")
        loaded.defender, loaded.defender_state = defender, d_state
    for prefix, side, state, character in (
        ("challenger_", request.challenger, c_state, challenger),
        ("defender_", request.defender, loaded.defender_state, loaded.defender),
    ):
        if character is None or side is None or side.relent or kind is Kind.SIMPLE:
            continue
        if not side.bid:
            raise ServiceError(f"Choose the Trait {character.name} bids.", field=prefix + "bid")
        if side.bid == POTENCE_TRAIT:
            continue
        if not state.trait_left(category.value, side.bid):
            had = any(line.name == side.bid for line in state.traits[category.value])
            if had:
                raise ServiceError(
                    f"{character.name} has no {side.bid} left: it was lost earlier this game session. "
                    "Choose another Trait.", field=prefix + "bid", status=409)
            raise ServiceError(f"{character.name} has no {category.label} Trait called {side.bid}.",
                               field=prefix + "bid")
    c_con = build_contestant(challenger, c_state, request.challenger, "challenger_", category, darkness, source, settings)
    d_con = None
    if loaded.defender is not None:
        d_con = build_contestant(loaded.defender, loaded.defender_state, request.defender, "defender_", category,
                            darkness, source, settings)
    negative_calls = []
    if kind is Kind.CONTESTED:
        for by, side, target_state in ((Outcome.CHALLENGER, request.challenger, loaded.defender_state),
                                       (Outcome.DEFENDER, request.defender, c_state)):
            if side.calls_negative:
                has = {name.lower() for items in target_state.negative_traits.values() for name, _ in items}
                negative_calls.append(NegativeCall(by, side.calls_negative, side.calls_negative.lower() in has))
    challenge = Challenge(
        category=category, challenger=c_con, defender=d_con, action=request.action, kind=kind,
        defender_action=request.defender_action if kind is Kind.CONTESTED else "defend",
        difficulty=request.difficulty if kind is Kind.STATIC else None,
        needs_win=request.needs_win if kind is Kind.SIMPLE else False,
        surprised=request.surprised if kind is Kind.CONTESTED else False,
        negative_calls=tuple(negative_calls),
    )
    if request.extra_bid:
        from dataclasses import replace

        challenge = replace(challenge, challenger=replace(c_con, extra_bid=request.extra_bid))
    try:
        required = bids_required(challenge, settings)
    except RulesError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    from dataclasses import replace

    for key, state, attr in ((Outcome.CHALLENGER, c_state, "challenger"), (Outcome.DEFENDER, loaded.defender_state, "defender")):
        con = getattr(challenge, attr)
        count = required.get(key)
        if con is None or not count or not con.bid:
            continue
        challenge = replace(challenge, **{attr: replace(con, bid=choose_bid(state, category.value, con.bid[0], count))})
    calls, recorded = _tests(request, challenge, rng)
    challenge = replace(challenge, tests=calls)
    try:
        options, ruling, steps = play_challenge(challenge, settings, rng)
    except RulesError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    behind = options.current if options.current in (Outcome.CHALLENGER, Outcome.DEFENDER) else None
    loser = Outcome.DEFENDER if behind is Outcome.CHALLENGER else Outcome.CHALLENGER if behind is Outcome.DEFENDER else None
    needs = False
    if not options.finished:
        if options.forced_retest is not None:
            needs = True
        elif loser is not None:
            side_options = options.side(loser)
            needs = bool(side_options.retests or side_options.may_overbid)
        elif options.current is Outcome.DRAW:
            needs = any(s.retests or s.may_overbid for s in options.sides)
    return Adjudication(challenge, ruling, options, recorded, loaded, needs, request=request, steps=steps)


def preview_challenge(chronicle: Chronicle, request: ChallengeRequest, rng: RandomSource) -> Adjudication:
    """Rule on the tests so far without writing anything, and say what may follow.

    Raises:
        ServiceError: as :func:`run_challenge`.
    """
    refuse_if_recorded(request.request_token)
    settings = chronicle_settings(chronicle)
    game_session = open_game_session(chronicle)
    return _build(chronicle, request, game_session, settings, rng)


def _strike_for(action: str, side: SideRequest, state: CharacterState) -> Strike:
    potence = state.discipline_level("Potence")
    weapon = side.weapon or None if action == "weapon" else None
    return Strike(weapon=weapon, bite=action == "bite", potence=potence,
                  lethal_by_prowess=side.lethal_by_prowess and action in ("strike", "weapon"),
                  head_shot=side.head_shot and action == "weapon")


def run_challenge(
    chronicle: Chronicle, narrator: User | None, request: ChallengeRequest, rng: RandomSource
) -> Adjudication:
    """Adjudicate ``request`` on the stored characters and apply it, in one transaction.

    Loads the characters, checks each bid Trait is still available in the
    open game session (a form goes stale when the Trait was lost in another
    challenge meanwhile), rules with the rules core (002 "Challenges",
    "Ties", "Darkness"; LotNR via met-reference 1-3), and applies the ruling:
    Traits lost and Ability levels expended are recorded against the game
    session, Willpower spent comes off the character, the winner's attack goes
    through the damage rules (002 "Damage and Healing": bare hands, bites,
    weapon cards, halving, Potence) onto the loser's health track, and the
    ruling is recorded with its inputs and explanation. Nothing is written if
    anything fails.

    Raises:
        ServiceError: 404 unknown character; 409 a bid Trait no longer
            available, no open game session, or a character changed meanwhile;
            422 anything the rules refuse (a character challenging itself, an
            unknown throw, the Bomb without its power, a retest the character
            cannot pay for or does not have...), naming the field.
    """
    settings = chronicle_settings(chronicle)
    return retrying(lambda: _apply(chronicle, narrator, request, rng, settings))


def _apply(chronicle: Chronicle, narrator: User | None, request: ChallengeRequest, rng: RandomSource,
           settings: ChronicleSettings) -> Adjudication:
    with db.atomic():
        refuse_if_recorded(request.request_token)
        game_session = current_game_session(chronicle)
        result = _build(chronicle, request, game_session, settings, rng)
        ruling, loaded = result.ruling, result.loaded
        if ruling is None:
            raise ServiceError(result.summary + " Make it before recording.", field="tests")
        by_side = {Outcome.CHALLENGER: (loaded.challenger, loaded.challenger_state, request.challenger)}
        if loaded.defender is not None:
            by_side[Outcome.DEFENDER] = (loaded.defender, loaded.defender_state, request.defender)

        tracks = {side: state.health for side, (_c, state, _r) in by_side.items()}
        health_steps: list[Step] = []
        for hit in ruling.damage:
            attacker_side = Outcome.DEFENDER if hit.target is Outcome.CHALLENGER else Outcome.CHALLENGER
            _attacker, a_state, a_request = by_side[attacker_side]
            target, t_state, _t = by_side[hit.target]
            action = request.action if attacker_side is Outcome.CHALLENGER else request.defender_action
            try:
                damage = strike_damage(_strike_for(action, a_request, a_state), settings, rng, who=_attacker.name)
                taken = damage_taken(damage, Target(creature=target.creature,
                                                    fortitude=t_state.discipline_level("Fortitude")),
                                     settings, who=target.name)
                applied = taken.apply_to(tracks[hit.target], settings, target.name)
            except RulesError as exc:
                raise ServiceError(exc.message, field=exc.field) from None
            tracks[hit.target] = applied.track
            health_steps.extend(applied.steps)
        all_steps = [*ruling.steps, *health_steps]
        inputs = {
            "kind": ruling.kind.value,
            "category": result.challenge.category.value,
            "action": request.action,
            "defender_action": request.defender_action,
            "darkness": request.darkness,
            "tests": result.tests,
        }
        for side, (character, state, side_request) in by_side.items():
            con = result.challenge.challenger if side is Outcome.CHALLENGER else result.challenge.defender
            inputs[side.value] = {
                "id": character.id, "name": character.name, "bid": list(con.bid), "traits": con.traits,
                "weapon": side_request.weapon or None, "lead": con.lead.value, "health": con.health.value,
                "relent": con.relent,
                "throw": result.tests[0].get(f"{side.value}_throw") if result.tests else None,
                "random_throw": bool(result.tests) and side.value in result.tests[0].get("random", []),
            }
        if request.kind == "static":
            inputs["difficulty"] = request.difficulty
        record = record_ruling(
            chronicle, narrator, "challenge", ruling.summary, all_steps,
            [(c, side.value) for side, (c, _s, _r) in by_side.items()],
            game_session=game_session, inputs=inputs,
            outcome={**ruling.to_dict(), "steps": [s.to_dict() for s in all_steps]},
            request_token=request.request_token or None,
        )
        category = result.challenge.category.value
        for side, (character, state, _r) in by_side.items():
            spent = ruling.spent_by(side)
            character = charge(character, game_session, record, category, ruling.lost_by(side),
                               spent.abilities, spent.willpower)
            by_side[side] = (character, state, _r)
            if tracks[side] is not state.health:
                store_track(character, tracks[side], ruling=record)
        result.record = record
        result.health_steps = health_steps
        return result


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
    )
