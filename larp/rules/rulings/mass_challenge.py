"""The mass challenge ruling: one target against up to five attackers hand to hand and
five at range, each pair built like a one-on-one challenge from the people as they
stand tonight and the scene, judged in order, with every consequence (002 "Mass
Combat"; LotNR Mob Scene, met-reference 3.2).

:func:`rule_mass_challenge` builds each side (:mod:`larp.rules.rulings.people`: Traits, powers,
lead, wound level, darkness and sight powers, armor, weapon, Potence, Fortitude),
draws the signs asked for at random, completes the bids (one Trait per attacker the
target defends against, the extra Traits a Wounded side risks), and rules with
:func:`larp.rules.mass_challenge.play_mass_challenge`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from larp.rules.challenge import (
    Category,
    Outcome,
    RandomSource,
    TestCall,
    Throw,
    parse_throw,
    random_throw,
    test_calls_from_list,
)
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.mass_challenge import (
    Attacker,
    Defender,
    MassChallenge,
    MassRuling,
    Range,
    defender_bid_count,
    play_mass_challenge,
)
from larp.rules.rulings.consequences import Consequences, Tally
from larp.rules.rulings.people import (
    Side,
    bid_for,
    carried_weapon,
    check_can_act,
    choose_bid,
    contestant_for,
    default_lead,
    person_track,
)
from larp.rules.rulings.strikes import attack_of, body_of
from larp.rules.rulings.retest_fit import retests_behind, suitable_abilities, with_suitable
from larp.rules.scene import Scene
from larp.rules.settings import ChronicleSettings
from larp.rules.torpor import GameNight, TorporClock

RANDOM = "random"
COUNTERS = ("defend", "strike", "bite", "weapon")


@dataclass(frozen=True)
class MassAttacker:
    """One attacker of a mass challenge.

    Attributes:
        side: who he is tonight and what he does (his bid's lead Trait first; none:
            the Trait he has most of).
        range: hand to hand or ranged (a ranged attacker needs a ranged weapon).
        action: ``strike``, ``bite`` or ``weapon`` (the weapon he carries: the scene's or the sheet's).
        throw: his sign (``"random"``: drawn, rock, paper or scissors); not needed when the
            target relents to him.
        tests: his pair's later tests (retests, overbids), :class:`TestCall` values or JSON-like dicts.
        strength: hand to hand, a challenge of strength for the target (Might, Puissance, the Bomb).
        relented: the target relents to him.
    """

    side: Side
    range: Range = Range.HAND_TO_HAND
    action: str = "strike"
    throw: Throw | str | None = None
    tests: tuple[Any, ...] = ()
    strength: bool = True
    relented: bool = False


@dataclass(frozen=True)
class MassTarget:
    """The target of a mass challenge.

    Attributes:
        side: who he is tonight and what he does (his lead Trait first; the tool adds one
            per attacker he defends against, from the Traits he has most of).
        throw: his one sign against every attacker (``"random"``: drawn).
        counter: ``defend``, or a counter-attack: ``strike``, ``bite`` or ``weapon``.
        injures: the names of the losing attackers he injures (empty: the first in order).
    """

    side: Side
    throw: Throw | str | None = None
    counter: str = "defend"
    injures: tuple[str, ...] = ()


@dataclass(frozen=True)
class MassChallengeCall:
    """A mass challenge as the narrator describes it: the target, the attackers in the
    narrator's order (it breaks ties of initiative and shares out the target's bid), the category."""

    target: MassTarget
    attackers: tuple[MassAttacker, ...]
    category: Category = Category.PHYSICAL


class GroupRuling:
    """What a ruling over several tests shares, a mass challenge's pairs or a missed shot's bystanders
    (:class:`MassChallengeRuling`, :class:`larp.rules.rulings.firing_into_groups.FiringIntoGroupsRuling`):
    the engine's ruling in ``ruling``, the signs used in ``throws`` and what changes in ``consequences``."""

    ruling: Any
    throws: Mapping[str, Any]
    consequences: Consequences

    @property
    def summary(self) -> str:
        """One sentence."""
        return self.ruling.summary

    def to_dict(self) -> dict[str, Any]:
        """The ruling as JSON-ready data: the record keeps it, the API answers with it."""
        throws = {k: dict(v) if isinstance(v, Mapping) else v for k, v in self.throws.items()}
        return {**self.ruling.to_dict(), "throws": throws, "consequences": self.consequences.to_dict()}


@dataclass(frozen=True)
class MassChallengeRuling(GroupRuling):
    """A mass challenge ruled, with everything it changes.

    Attributes:
        mass: the mass challenge as the core built it.
        ruling: the engine's ruling (each pair, the hits in order, the tracks).
        throws: each character's first sign, by name (random ones drawn).
        drawn: the names whose sign was drawn at random.
        consequences: what changes for each character.
        suitable: per attacker, the Abilities that suit each side's retest in his pair.
    """

    mass: MassChallenge
    ruling: MassRuling
    throws: Mapping[str, str]
    drawn: frozenset[str]
    consequences: Consequences
    suitable: Mapping[str, Mapping[Outcome, set[str] | None]] = field(default_factory=dict)

    def retests(self, attacker: str) -> list[tuple[str, str]]:
        """The retests the side behind in ``attacker``'s pair may call now, as ``(by, source)``
        (``by`` challenger: the attacker; defender: the target), or the forced darkness retest."""
        pair = self.ruling.pair(attacker)
        if pair.relented:
            return []
        return retests_behind(pair.options, pair.outcome, pair.made, dict(self.suitable.get(attacker, {})))

    def injure_choice(self) -> list[str]:
        """The losing attackers the target may choose among, when he counter-attacks and more
        lost than he has actions (LotNR Mob Scene); empty otherwise."""
        losers = [p.attacker for p in self.ruling.pairs if p.made and p.outcome is Outcome.DEFENDER]
        if self.mass.defender.attack is None or len(losers) <= self.ruling.actions:
            return []
        return losers

    @property
    def needs_decision(self) -> bool:
        """A pair's side behind may still retest, a forced retest is due, or the target may choose whom
        he injures: the narrator decides before the ruling is recorded."""
        return bool(self.ruling.pending) or any(self.retests(a.side.name) for a in self.mass.attackers) \
            or bool(self.injure_choice())


def draw_sign(value: Any, field_name: str, rng: RandomSource | None) -> tuple[Throw | None, bool]:
    """A sign: ``"random"`` is drawn from ``rng`` (rock, paper or scissors); empty is ``None``.

    Raises:
        RulesError: not a sign, or ``"random"`` without a random source, naming ``field_name``.
    """
    if value is None or isinstance(value, Throw):
        return value, False
    text = str(value).strip().lower()
    if not text:
        return None, False
    if text == RANDOM:
        if rng is None:
            raise RulesError(Phrase.message(N_("A random sign needs a random source.")), field=field_name)
        return random_throw(rng), True
    return parse_throw(text, field_name), False


def later_tests(raw: tuple[Any, ...], where: str) -> tuple[TestCall, ...]:
    """A pair's later tests: :class:`TestCall` values as they are, JSON-like dicts read
    (:func:`larp.rules.challenge.test_calls_from_list`).

    Raises:
        RulesError: a malformed test, naming ``<where>[i].<key>``.
    """
    if all(isinstance(t, TestCall) for t in raw):
        return tuple(raw)
    return test_calls_from_list([t for t in raw], where)


def lead_bid(side: Side, category: Category) -> Side:
    """The side with his lead Trait chosen: his own, else the one he has most of tonight."""
    if side.choice.bid:
        return side
    cat = (side.choice.bid_category or category).value
    lead = default_lead(side.person, cat)
    return replace(side, choice=replace(side.choice, bid=(lead,) if lead else ()))


def build_mass_challenge(mass_call: MassChallengeCall, scene: Scene, settings: ChronicleSettings, rng: RandomSource | None
              ) -> tuple[MassChallenge, dict[str, str], set[str]]:
    """The mass challenge the engine rules on, the signs by name (random ones drawn) and the
    names whose sign was drawn.

    Raises:
        RulesError: someone who cannot act, an unknown counter-attack, a malformed sign or
            test, naming the field (``target``, ``attackers[2].throw``...).
    """
    category = mass_call.category
    if not mass_call.attackers:
        raise RulesError(Phrase.message(N_("Add at least one attacker.")), field="attackers")
    if mass_call.target.counter not in COUNTERS:
        raise RulesError(Phrase.message(N_("The target defends, strikes, bites or uses a weapon.")),
                         field="target_counter")
    people = [("target", mass_call.target.side)] + [(f"attackers[{i}]", a.side) for i, a in enumerate(mass_call.attackers)]
    for where, side in people:
        check_can_act(side.person, person_track(side.person, settings), where)
    throws: dict[str, str] = {}
    drawn: set[str] = set()
    built = []
    for index, a in enumerate(mass_call.attackers):
        where = f"attackers[{index}]"
        side = lead_bid(a.side, category)
        con = contestant_for(side, category, scene, settings, f"{where}.")
        con = replace(con, bid=bid_for(side, con, category, settings))
        throw = None
        if not a.relented:
            throw, was_drawn = draw_sign(a.throw, f"{where}.throw", rng)
            if throw is not None:
                throws[side.name] = throw.value
            if was_drawn:
                drawn.add(side.name)
        attack = attack_of(side, a.action, scene)
        built.append(Attacker(side=con, range=a.range, attack=attack, throw=throw,
                              tests=later_tests(tuple(a.tests), f"{where}.tests"), strength=a.strength,
                              celerity=side.choice.celerity or 0, body=body_of(side.person, scene, settings)))
    t = mass_call.target
    t_side = lead_bid(t.side, category)
    d_con = contestant_for(t_side, category, scene, settings, "target_")
    d_throw = None
    if any(not a.relented for a in mass_call.attackers):
        d_throw, was_drawn = draw_sign(t.throw, "target_throw", rng)
        if d_throw is not None:
            throws[t_side.name] = d_throw.value
        if was_drawn:
            drawn.add(t_side.name)
    defender = Defender(
        side=d_con, throw=d_throw, relents_to=tuple(a.side.name for a in mass_call.attackers if a.relented),
        attack=None if t.counter == "defend" else attack_of(t_side, t.counter, scene), injures=tuple(t.injures),
        celerity=t_side.choice.celerity or 0, body=body_of(t_side.person, scene, settings))
    mass = MassChallenge(defender, tuple(built), category, sense=scene.sense)
    cat = (t_side.choice.bid_category or category).value
    if t_side.person.names_known(cat) and len(d_con.bid) == 1:
        count = defender_bid_count(mass, settings)
        bid = choose_bid(t_side.person, cat, d_con.bid[0], count) if count else ()
        mass = replace(mass, defender=replace(defender, side=replace(d_con, bid=bid)))
    return mass, throws, drawn


def group_consequences(sides: Sequence[Side], category: str, played: Any, settings: ChronicleSettings,
                       night: GameNight | None) -> Consequences:
    """The consequences of a ruling over several tests, a mass challenge's pairs or a missed shot's
    bystanders alike: each side's Traits lost in ``category``, what he spent, his track as the tests left
    it and the armor that absorbed damage (``played``: the engine's ruling, with ``traits_lost``,
    ``spent``, ``tracks`` and ``armor_left`` by name), then the torpors it begins dated by ``night``
    (met-reference 3.7, 5.2)."""
    tally = Tally()
    for side in sides:
        tally.person(side.name, person_track(side.person, settings))
    for side in sides:
        tally.lose(side.name, category, played.traits_lost.get(side.name, ()))
        spent = played.spent.get(side.name)
        if spent is not None:
            tally.spend(side.name, spent.abilities, spent.willpower, spent.merits)
        if side.name in played.tracks:
            armor, left = played.armor_left.get(side.name, (None, None))
            tally.hurt(side.name, played.tracks[side.name], armor, left)
    return tally.consequences(TorporClock.of(settings, night, [s.person for s in sides]))


def rule_mass_challenge(mass_call: MassChallengeCall, scene: Scene | None = None, settings: ChronicleSettings | None = None,
             rng: RandomSource | None = None, *, night: GameNight | None = None) -> MassChallengeRuling:
    """Rule on a mass challenge and compute everything it changes.

    Each pair is a challenge built like a one-on-one (:func:`larp.rules.rulings.people.contestant_for`:
    darkness per side with the sight powers, cover, weapons, wound levels, Mettle), judged in
    the order of challenges on the target as the results before it left him (002 "Mass
    Combat"; LotNR Mob Scene; :mod:`larp.rules.mass_challenge.engine`), every hit landing through
    the damage rules and the armor each wears (met-reference 3.7). Consequences: Traits lost,
    Ability levels and Willpower spent, new tracks and conditions, armor left.

    Args:
        mass_call: the target and the attackers as they stand tonight, their signs and later tests.
        scene: darkness per side, sight powers, range, cover, armor, weapons.
        settings: the chronicle's settings (defaults if ``None``).
        rng: a random source for the signs asked for at random and the damage rules' tests.
        night: the game session the ruling happens in (its date and number, :class:`larp.rules.torpor.GameNight`):
            a vampire it puts in torpor gets the torpor's length and wake date in the consequences and
            at the end of the steps (met-reference 5.2); ``None``: not known, the cause only.

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field.
    """
    scene = scene or Scene()
    settings = settings or ChronicleSettings.defaults()
    mass, throws, drawn = build_mass_challenge(mass_call, scene, settings, rng)
    ruling = play_mass_challenge(mass, settings, rng)
    consequences = group_consequences([mass_call.target.side] + [a.side for a in mass_call.attackers],
                                      mass.category.value, ruling, settings, night)
    suitable = {}
    for a, built in zip(mass_call.attackers, mass.attackers):
        weapon = carried_weapon(a.side.person, scene) if a.action == "weapon" else ""
        t_weapon = carried_weapon(mass_call.target.side.person, scene) if mass_call.target.counter == "weapon" else ""
        suitable[a.side.name] = {
            Outcome.CHALLENGER: suitable_abilities(mass.category, weapon, False,
                                                   built.side.darkness.level.value != "none"),
            Outcome.DEFENDER: suitable_abilities(mass.category, t_weapon, True,
                                                 mass.defender.side.darkness.level.value != "none"),
        }
    ruling = replace(ruling, steps=tuple(ruling.steps) + consequences.steps,  # the torpors it begins
                     pairs=tuple(replace(p, options=with_suitable(p.options, suitable[p.attacker]))
                                 if p.options and p.attacker in suitable else p
                                 for p in ruling.pairs))  # each pair's options say what suits
    return MassChallengeRuling(mass, ruling, throws, frozenset(drawn), consequences, suitable)
