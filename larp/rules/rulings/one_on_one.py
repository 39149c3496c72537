"""The one-on-one ruling: a contested challenge between two characters, a static
challenge or a simple test, with every consequence (met-reference 1-3, 6.1; seed 002
"Challenges", "Ties", "Darkness", "Damage and Healing").

:func:`rule_one_on_one` builds the challenge from the two sides as they stand
tonight and the scene (:mod:`larp.rules.rulings.people`), rules on the tests so far
(:func:`larp.rules.challenge.play_challenge`), lands the winner's attack through the
damage rules (card, Potence, firearms against vampires, halving, Fortitude, armor)
onto the loser's track (:func:`larp.rules.hits.land_hit`), and returns the ruling
with its :class:`~larp.rules.rulings.consequences.Consequences`. :func:`rule_static`
is the same for a static challenge or a simple test against a narrator.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Mapping, Sequence
from typing import Any

from larp.rules.challenge import (
    ACTIONS,
    SIDES,
    Call,
    Category,
    Challenge,
    ChallengeOptions,
    ChallengeRuling,
    Kind,
    SideOptions,
    NegativeCall,
    Spent,
    Outcome,
    RandomSource,
    TestCall,
    Throw,
    allowed_throws,
    bids_required,
    parse_throw,
    play_challenge,
    random_throw,
)
from larp.rules.explain import N_, Phrase, RulesError, Step, both, damage_list
from larp.rules.health import HealthTrack
from larp.rules.hits import Hit, armor_key, damage_as_dealt, land_hit
from larp.rules.rulings.consequences import Consequences, Tally
from larp.rules.rulings.retest_fit import suitable_abilities, with_suitable
from larp.rules.rulings.people import (
    Side,
    carried_weapon,
    check_can_act,
    contestant_for,
    filled_bid,
    ignore_wounds_step,
    person_track,
)
from larp.rules.rulings.strikes import attack_of, body_of
from larp.rules.scene import Scene
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import GameNight, TorporClock

RANDOM = "random"


@dataclass(frozen=True)
class OneOnOne:
    """A challenge between two characters, or one against a narrator.

    Attributes:
        category: Physical, Social or Mental (Virtue for a Virtue Test).
        challenger: the side that challenges (the player in static and simple).
        defender: the other side; ``None`` in a static challenge or a simple test.
        kind: contested, static or simple.
        action: what the challenger attempts (a key of :data:`larp.rules.challenge.ACTIONS`).
        defender_action: ``defend``, or a counter-attack (``strike``...).
        difficulty: a static challenge's difficulty in Traits.
        needs_win: a simple test whose effect needs an outright win.
        needs_sight: the challenge needs sight (setting ``darkness_scope``).
        surprised: the defender is surprised (LotNR Surprise).
        at_range: the narrator says the sides are beyond reach of each other (more than five
            feet: no Might whatever the card, LotNR Might), as a scene range of near, mid or far does.
        negative_calls: Negative Trait calls given outright (with whether they are
            right); the sides' own ``calls_negative`` are added, judged against the
            other's Negative Traits.
        tests: the tests so far, first throws first: :class:`TestCall` values or
            JSON-like dicts, where a throw of ``"random"`` is drawn from the random
            source (never the Bomb) and recorded as drawn.
    """

    category: Category
    challenger: Side
    defender: Side | None = None
    kind: Kind = Kind.CONTESTED
    action: str = "strike"
    defender_action: str = "defend"
    difficulty: int | None = None
    needs_win: bool = False
    needs_sight: bool = True
    surprised: bool = False
    negative_calls: tuple[NegativeCall, ...] = ()
    tests: tuple[Any, ...] = ()
    at_range: bool = False


@dataclass(frozen=True)
class OneOnOneRuling:
    """A one-on-one ruling with everything it changes.

    Attributes:
        challenge: the challenge as the core built it (bids completed, leads, darkness).
        options: what each side may still call after the tests so far.
        ruling: the challenge's ruling; ``None`` while the script cannot end yet
            (the first test or a forced darkness retest is missing).
        tests: the tests as recorded (random throws drawn, flagged in ``random``).
        hits: the damage landed, after the target's kind, halving, Fortitude and armor.
        steps: the whole explanation (the challenge, then the damage).
        consequences: what changes for each character.
        summary: one sentence.
        needs_decision: a side behind may still retest or overbid, or a forced
            retest is due: the narrator decides before the ruling is recorded.
    """

    challenge: Challenge
    options: ChallengeOptions
    ruling: ChallengeRuling | None
    tests: tuple[dict, ...]
    hits: tuple[Hit, ...] = ()
    steps: tuple[Step, ...] = ()
    consequences: Consequences = field(default_factory=Consequences)
    summary: str = ""
    needs_decision: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The ruling as JSON-ready data: the record keeps it, the API answers with it."""
        if self.ruling is None:
            return {"outcome": None, "summary": self.summary, "steps": [s.to_dict() for s in self.steps],
                    "options": self.options.to_dict()}
        return {**self.ruling.to_dict(), "summary": self.summary, "steps": [s.to_dict() for s in self.steps],
                "hits": [h.to_dict() for h in self.hits], "consequences": self.consequences.to_dict()}


def tests_from_data(raw: Sequence[Any], challenge: Challenge, rng: RandomSource | None
                    ) -> tuple[tuple[TestCall, ...], tuple[dict, ...]]:
    """The tests as :class:`TestCall` values, a ``"random"`` throw drawn from ``rng``
    among the throws the side may make, the Bomb excepted; and the tests as recorded,
    each with ``random`` naming the sides whose throw was drawn (earlier draws kept).

    Raises:
        RulesError: a test that is not an object, an unknown call or side, an unknown throw.
    """
    calls, recorded = [], []
    for index, item in enumerate(raw):
        read = _read_already(item)
        if read is not None:  # the stateless API's reader made it: nothing to read again, nothing drawn
            calls.append(read)
            recorded.append(_recorded(read, []))
            continue
        where = f"tests[{index}]"
        if isinstance(item, TestCall):
            item = {"call": item.call.value, "by": item.by.value if item.by else None,
                    "challenger_throw": item.challenger_throw, "defender_throw": item.defender_throw,
                    "source": item.source, "cancel": item.cancel, "trait": item.trait}
        if not isinstance(item, Mapping):
            raise RulesError(Phrase.message(N_("Each test is an object.")), field=where)
        try:
            call = Call(str(item.get("call") or "test").strip().lower())
        except ValueError:
            raise RulesError(Phrase.message(N_("A call is test, overbid, retest or forced_retest.")), field=f"{where}.call") from None
        by = None
        if item.get("by"):
            try:
                by = Outcome(str(item["by"]).strip().lower())
            except ValueError:
                by = None
            if by not in SIDES:
                raise RulesError(Phrase.message(N_("Give challenger or defender.")), field=f"{where}.by")
        drawn = []
        throws = {}
        for side in SIDES:
            key = f"{side.value}_throw"
            value = item.get(key)
            if value is None or value == "":
                throws[key] = None
                continue
            if isinstance(value, str) and value.strip().lower() == RANDOM:
                if side is Outcome.DEFENDER and challenge.defender is None:
                    allowed = (Throw.ROCK, Throw.PAPER, Throw.SCISSORS)
                else:
                    allowed = allowed_throws(challenge, side)
                if rng is None:
                    raise RulesError(Phrase.message(N_("A random throw needs a random source.")), field=f"{where}.{key}")
                throws[key] = random_throw(rng, [t for t in allowed if t is not Throw.BOMB] or allowed)
                drawn.append(side.value)
            else:
                throws[key] = parse_throw(value, f"{where}.{key}")
        call_value = TestCall(call=call, by=by, source=str(item.get("source") or "").strip(),
                              cancel=str(item.get("cancel") or "").strip(),
                              trait=str(item.get("trait") or "").strip(), **throws)
        calls.append(call_value)
        earlier = [s for s in (item.get("random") or []) if s in ("challenger", "defender")]
        recorded.append(_recorded(call_value, sorted(set(earlier) | set(drawn))))
    return tuple(calls), tuple(recorded)


def _read_already(item: Any) -> TestCall | None:
    """``item`` itself when it is a :class:`TestCall` that reading it again would give back unchanged (a
    known call, no side or one of the two, each throw given or left out, texts trimmed), else ``None``."""
    if not isinstance(item, TestCall) or type(item.call) is not Call or not (item.by is None or item.by in SIDES):
        return None
    for throw in (item.challenger_throw, item.defender_throw):
        if throw is not None and type(throw) is not Throw:
            return None
    for text in (item.source, item.cancel, item.trait):
        if type(text) is not str or text != text.strip():
            return None
    return item


def _recorded(call: TestCall, drawn: list[str]) -> dict[str, Any]:
    """The test as the record keeps it, ``random`` naming the sides whose throw was drawn."""
    return {
        "call": call.call.value, "by": call.by.value if call.by else None,
        "challenger_throw": call.challenger_throw.value if call.challenger_throw else None,
        "defender_throw": call.defender_throw.value if call.defender_throw else None,
        "random": drawn, "source": call.source, "cancel": call.cancel, "trait": call.trait,
    }


def build_challenge(one: OneOnOne, scene: Scene, settings: ChronicleSettings) -> Challenge:
    """The challenge the engine rules on, built from the sides as they stand tonight and the
    scene (no tests yet): each side's contestant (:func:`~larp.rules.rulings.people.contestant_for`),
    the Negative Trait calls judged against the other side's Negative Traits, and each bid
    completed with the extra Traits the side must risk (LotNR Initial Bid, met-reference 1.1).
    Only a Physical challenge is an attack (002 "Challenges"; met-reference 3.1).

    Raises:
        RulesError: a side who cannot act, or a setup the rules refuse, naming the field.
    """
    return _build(one, scene, settings)[0]


def _build(one: OneOnOne, scene: Scene, settings: ChronicleSettings
           ) -> tuple[Challenge, dict[Outcome, HealthTrack]]:
    """:func:`build_challenge`, with each side's track before the ruling (:func:`person_track`, read
    once for the whole ruling)."""
    if one.category is not Category.PHYSICAL:
        for key, value in (("action", one.action), ("defender_action", one.defender_action)):
            if ACTIONS.get(value, {}).get("attack"):
                raise RulesError(Phrase.message(N_("Only a Physical challenge is an attack; a %(category)s challenge "
                                                   "has a stated outcome instead (action 'other')."),
                                                category=Phrase.term(one.category.label)), field=key)
    sides = [(Outcome.CHALLENGER, one.challenger)]
    if one.defender is not None:
        sides.append((Outcome.DEFENDER, one.defender))
    tracks = {}
    for key, side in sides:
        tracks[key] = person_track(side.person, settings)
        check_can_act(side.person, tracks[key], key.value, side.choice.ignore_wounds)
    c = contestant_for(one.challenger, one.category, scene, settings, "challenger_", tracks[Outcome.CHALLENGER])
    d = (contestant_for(one.defender, one.category, scene, settings, "defender_", tracks[Outcome.DEFENDER])
         if one.defender else None)
    calls = list(one.negative_calls)
    if one.kind is Kind.CONTESTED and one.defender is not None:
        for by, side, target in ((Outcome.CHALLENGER, one.challenger, one.defender),
                                 (Outcome.DEFENDER, one.defender, one.challenger)):
            trait = side.choice.calls_negative.strip()
            if trait:
                has = {name.lower() for names in target.person.negative_traits.values() for name in names}
                calls.append(NegativeCall(by, trait, trait.lower() in has))
    challenge = Challenge(
        category=one.category, challenger=c, defender=d, action=one.action, kind=one.kind,
        defender_action=one.defender_action if one.kind is Kind.CONTESTED else "defend",
        difficulty=one.difficulty if one.kind is Kind.STATIC else None,
        needs_win=one.needs_win if one.kind is Kind.SIMPLE else False,
        needs_sight=one.needs_sight, surprised=one.surprised if one.kind is Kind.CONTESTED else False,
        negative_calls=tuple(calls), sense=scene.sense, at_range=one.at_range or _at_range(one, scene),
    )
    required = bids_required(challenge, settings)
    for key, side in sides:
        attr = key.value
        con = getattr(challenge, attr)
        bid = filled_bid(side, one.category, required.get(key))
        if bid != con.bid:
            challenge = replace(challenge, **{attr: replace(con, bid=bid)})
    return challenge, tracks


def _at_range(one: OneOnOne, scene: Scene) -> bool:
    """Whether the scene puts the two sides beyond reach of each other (more than five feet)."""
    if one.kind is not Kind.CONTESTED or one.defender is None:
        return False
    bands = (scene.range_for(one.challenger.name), scene.range_for(one.defender.name))
    return any(band is not None and band.beyond_reach for band in bands)


def decision_left(options: ChallengeOptions) -> bool:
    """Whether the narrator still has a choice to make before recording: a forced darkness
    retest is due, or the side behind (either side on a draw) may still retest, overbid or (a
    challenger who surprised) call a second challenge."""
    if options.finished:
        return False
    if options.forced_retest is not None:
        return True
    if options.current in SIDES:
        behind = options.side(Outcome.DEFENDER if options.current is Outcome.CHALLENGER else Outcome.CHALLENGER)
        return _may_call(behind)
    if options.current is Outcome.DRAW:
        return any(_may_call(s) for s in options.sides)
    return False


def _may_call(side: SideOptions) -> bool:
    """A call the side may still make: a retest, a second challenge after a lost surprise, or an
    overbid that would make a new test (LotNR Overbidding: without the ratio, or a Wounded caller
    where the chronicle allows it, an overbid makes no test and changes nothing, so it is no
    decision to wait for; the narrator of a static challenge alike)."""
    overbid = side.may_overbid and side.overbid_makes_test
    if side.narrator:
        return overbid
    return bool(side.retests or overbid or side.may_second_challenge)


def _summary(ruling: ChallengeRuling, challenge: Challenge, hits: Sequence[Hit]) -> Phrase:
    """The ruling's sentence with the damage actually taken (after halving, Fortitude, armor), as a phrase
    said in the reader's language at the edge (issue 36)."""
    names = {Outcome.CHALLENGER: challenge.challenger.name}
    if challenge.defender is not None:
        names[Outcome.DEFENDER] = challenge.defender.name
    if ruling.outcome is Outcome.DRAW:
        head = Phrase.message(N_("Draw"))
    elif ruling.outcome in SIDES:
        head = Phrase.message(N_("%(name)s wins"), name=names[ruling.outcome])
    else:
        head = Phrase.message(N_("%(name)s succeeds") if ruling.outcome is Outcome.SUCCESS else N_("%(name)s fails"),
                              name=names[Outcome.CHALLENGER])
    parts = []
    for side, name in names.items():
        said = ([Phrase.message(N_("loses %(traits)s"), traits=", ".join(ruling.lost_by(side)))]
                if ruling.lost_by(side) else [])
        for hit in hits:
            if hit.target == name:
                taken = damage_list(hit.taken)
                said.append(Phrase.message(N_("takes %(damage)s"), damage=taken) if taken
                            else Phrase.message(N_("is hit but takes no damage")))
        if said:
            parts.append(Phrase.message(N_("%(name)s %(what)s"), name=name, what=both(said)))
    if parts:
        return Phrase.message(N_("%(head)s: %(parts)s."), head=head, parts=parts)
    return Phrase.message(N_("%(head)s."), head=head)


def rule_one_on_one(one: OneOnOne, scene: Scene | None = None, settings: ChronicleSettings | None = None,
                    rng: RandomSource | None = None, *, night: GameNight | None = None) -> OneOnOneRuling:
    """Rule on a one-on-one challenge (or a static challenge or simple test) and compute
    everything it changes.

    The challenge is built by :func:`build_challenge` and ruled by the engine
    (:func:`larp.rules.challenge.rule_challenge` has the rules: bids, throws, ties,
    overbids, retests, darkness). A won attack lands through
    :func:`larp.rules.hits.land_hit`: the weapon the winner carries (its card,
    High-Caliber, Mass-Trauma, Full-Auto within five feet), bare hands or a bite, his
    Potence; then the target's kind (firearms against vampires), halving, Fortitude and
    the armor he wears, and his track (002 "Damage and Healing"; met-reference 3.4-3.7,
    4.1). The consequences: Traits lost, Ability levels, Willpower and Merits spent, the
    new tracks and conditions, the armor's levels left.

    Args:
        one: the two sides as they stand tonight, what they do, and the tests so far.
        scene: darkness per side, sight powers, range, cover, armor and weapons
            (an empty scene if ``None``).
        settings: the chronicle's settings (defaults if ``None``).
        rng: a random source for ``"random"`` throws, the narrator's throws left out
            of a static challenge or simple test, and the damage rules' simple tests.
        night: the game session the ruling happens in (its date and number, :class:`larp.rules.torpor.GameNight`):
            a vampire it puts in torpor gets the torpor's length and wake date in the consequences and
            at the end of the steps (met-reference 5.2); ``None``: not known, the cause only.

    Returns:
        The ruling so far (``ruling`` is ``None`` until the script can end).

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field (a side
            who cannot act, an unknown throw or weapon, a retest he cannot pay for...).
    """
    scene = scene or Scene()
    settings = settings or ChronicleSettings.defaults()
    challenge, start = _build(one, scene, settings)
    calls, recorded = tests_from_data(one.tests, challenge, rng)
    relenting = challenge.challenger.relent or (challenge.defender is not None and challenge.defender.relent)
    if not calls and not relenting:
        raise RulesError(Phrase.message(N_("Choose both throws.")), field="challenger_throw")
    challenge = replace(challenge, tests=calls)
    options, ruling, steps = play_challenge(challenge, settings, rng)
    options = with_suitable(options, _suitable(one, challenge, scene))
    needs = decision_left(options)
    if ruling is None:
        summary = (Phrase.message(N_("The first test is due.")) if options.forced_retest is None else
                   Phrase.message(N_("%(name)s won, in total darkness: the retest is due."),
                                  name=(challenge.challenger if options.forced_retest is Outcome.CHALLENGER
                                        else challenge.defender).name))
        return OneOnOneRuling(challenge, options, None, recorded, steps=steps, summary=summary, needs_decision=needs)
    sides = {Outcome.CHALLENGER: one.challenger}
    if one.defender is not None:
        sides[Outcome.DEFENDER] = one.defender
    tally = Tally()
    for key, side in sides.items():
        tally.person(side.name, start[key])
    cons = {Outcome.CHALLENGER: challenge.challenger, Outcome.DEFENDER: challenge.defender}
    tally.challenge(ruling, {k: s.name for k, s in sides.items()},
                    {k: (cons[k].category or challenge.category).value for k in sides})
    willpower_steps = []
    for side in sides.values():
        step = ignore_wounds_step(side, settings)
        if step is not None:
            tally.spend(side.name, willpower=1)
            willpower_steps.append(step)
    hits: list[Hit] = []
    damage_steps: list[Step] = []
    for dealt in ruling.damage:
        by = Outcome.DEFENDER if dealt.target is Outcome.CHALLENGER else Outcome.CHALLENGER
        attacker, target = sides[by], sides[dealt.target]
        action = challenge.action if by is Outcome.CHALLENGER else challenge.defender_action
        body = body_of(target.person, scene, settings, start[dealt.target])
        armor_left = tally.armor.get(target.name, (body.armor, body.armor_left))[1]
        hit, track, left = land_hit(attacker.name, attack_of(attacker, action, scene), target.name, body,
                                    tally.tracks[target.name], armor_left, settings, rng)
        tally.hurt(target.name, track, armor_key(body.armor), left)
        hits.append(hit)
        damage_steps.extend(hit.steps)
    consequences = tally.consequences(TorporClock.of(settings, night, [s.person for s in sides.values()]))
    all_steps = tuple(willpower_steps) + tuple(ruling.steps) + tuple(damage_steps) + consequences.steps
    willpower = {key: 1 for key, side in sides.items() if side.choice.ignore_wounds}
    ruling = as_applied(ruling, hits, {k: s.name for k, s in sides.items()}, willpower)
    return OneOnOneRuling(challenge, options, ruling, recorded, tuple(hits), all_steps, consequences,
                          _summary(ruling, challenge, hits), needs)


def _suitable(one: OneOnOne, challenge: Challenge, scene: Scene) -> dict[Outcome, set[str] | None]:
    """By side, the Abilities that suit its retest here (:func:`larp.rules.rulings.retest_fit.suitable_abilities`,
    ``data/retests.toml``; LotNR Retests, met-reference 2.1, 3.6): what it fights with (the scene's weapon,
    else the sheet's), whether it defends against an attack, and its darkness."""
    out: dict[Outcome, set[str] | None] = {}
    for key, side, con, action in ((Outcome.CHALLENGER, one.challenger, challenge.challenger, one.action),
                                   (Outcome.DEFENDER, one.defender, challenge.defender, one.defender_action)):
        if side is None or con is None:
            continue
        defending = key is Outcome.DEFENDER or not ACTIONS.get(action, {}).get("attack")
        out[key] = suitable_abilities(challenge.category, carried_weapon(side.person, scene), defending,
                                      con.darkness.level.value != "none", side.person.abilities)
    return out


def as_applied(ruling: ChallengeRuling, hits: Sequence[Hit], names: Mapping[Outcome, str],
               willpower: Mapping[Outcome, int]) -> ChallengeRuling:
    """The challenge's ruling saying what the ruling as a whole did: each ``damage`` entry gives the
    levels the hit dealt (the card with its additions: Puissance, Mass-Trauma, Full-Auto, High-Caliber),
    the number ``hits`` shows, not the bare card; and ``spent`` counts the Willpower Trait a side spent
    to ignore his wounds this turn beside what the challenge spent (met-reference 2.1, 3.4, 3.7, 4.1).
    """
    by_target = {hit.target: hit for hit in hits}
    ruling = damage_as_dealt(ruling, {side: by_target[name] for side, name in names.items() if name in by_target})
    spent = {s.side: s for s in ruling.spent}
    for side, wp in willpower.items():
        if wp:
            old = spent.get(side, Spent(side))
            spent[side] = replace(old, willpower=old.willpower + wp)
    return replace(ruling, spent=tuple(spent[s] for s in SIDES if s in spent))


def rule_static(one: OneOnOne, scene: Scene | None = None, settings: ChronicleSettings | None = None,
                rng: RandomSource | None = None, *, night: GameNight | None = None) -> OneOnOneRuling:
    """Rule on a static challenge or a simple test against a narrator (LotNR Static
    Challenges and Simple Tests, met-reference 1.6): the narrator's difficulty in Traits
    decides a tie in a static challenge, a simple test compares no Traits; the narrator's
    throw is drawn from ``rng`` when left out. Otherwise as :func:`rule_one_on_one`.

    Raises:
        RulesError: a defender given, a contested kind, or anything :func:`rule_one_on_one` refuses.
    """
    if one.kind is Kind.CONTESTED:
        raise RulesError(Phrase.message(N_("A static challenge or a simple test is against a narrator.")), field="kind")
    if one.defender is not None:
        raise RulesError(Phrase.message(N_("A %(kind)s challenge is against a narrator: leave out the defender."),
                                        kind=one.kind.value),
                         field="defender")
    return rule_one_on_one(one, scene, settings, rng, night=night)
