"""Mass combat: several attackers against one target (seed 002 "Mass Combat";
LotNR Mob Scene, met-reference 3.2).

Plain data in, a :class:`MassRuling` out. A :class:`MassChallenge` is the
defender (his Traits bid, one per attacker he defends against, his sign, whom
he relents to, his counter-attack) and up to five attackers hand to hand plus
five at range (each with his bid, sign, weapon and any retests of his pair).
:func:`rule_mass_challenge` rules on it and applies the results in order to
the health tracks; :func:`mass_challenge_from_dict` reads it from JSON.

The rules, from 002 "Mass Combat" with LotNR where 002 is silent:

1. At most five characters engage one target hand to hand and five more with
   ranged weapons (002). A sixth of either kind is refused.
2. The defender bids a number of Traits equal to the number of attackers he
   defends against, one fewer with Potence's Intensity (the "Potence"
   pseudo-Trait stands for one of them in a strength challenge). Lacking the
   Traits, he chooses whom he defends against and to whom he relents (002).
   Each pair is otherwise a normal challenge (:mod:`larp.rules.challenge`), so
   a Wounded defender risks one more Trait in each (LotNR Health).
3. The relented challenges are resolved first (the relenting defender loses
   them and no Traits); if he survives them, he and all remaining attackers
   engage in one simultaneous challenge: his sign is compared with each
   attacker's, each pair by the normal tie rules (002 "Ties"), and then
   retests, counted per attacker (Might against each hand-to-hand attacker in
   a strength challenge) (002; LotNR Mob Scene).
4. A defender throwing the strength Bomb (Vigor) against a mixed group: it
   counts as Paper against the ranged attackers and the hand-to-hand
   attackers it does not apply to, unless he also has the speed Bomb
   (Rapidity) with Celerity active this round (002).
5. Traits are lost for each loss. Unless he has extra actions (Celerity's
   Swiftness and Legerity), the defender may injure only one attacker who
   lost (LotNR Mob Scene).
6. Results are applied in initiative order (:func:`larp.rules.order.order_of_actions`:
   pre-empts, then more Traits first, equal counts at the same time), the
   defender's extra actions after everyone's; the defender may drop (torpor,
   unconscious, Final Death) before the last of them, and results against a
   dropped defender, or by him, are then not applied (LotNR Mob Scene).

Damage goes through the damage rules (:mod:`larp.rules.damage`): the weapon's
card, Potence, firearms against vampires, halving, armor, then the health track.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import groupby
from typing import Any

from larp.rules.challenge import (
    ACTIONS,
    POTENCE_TRAIT,
    Call,
    Category,
    Challenge,
    ChallengeOptions,
    ChallengeRuling,
    Contestant,
    Lead,
    Outcome,
    Power,
    RandomSource,
    TestCall,
    Throw,
    Weapon,
    bids_required,
    contestant_from_dict,
    parse_throw,
    play_challenge,
    test_calls_from_list,
)
from larp.rules.damage import CREATURES, Strike, Target, damage_taken, strike_damage
from larp.rules.damage import weapon as armory_weapon
from larp.rules.explain import Explanation, RulesError, Step
from larp.rules.health import HealthTrack, new_track
from larp.rules.order import LEGERITY, SWIFTNESS, Participant, order_of_actions
from larp.rules.order import R_MASS as ORDER_MASS
from larp.rules.settings import ChronicleSettings

R_MASS = '002 "Mass Combat"'
R_MOB = "LotNR Mob Scene (met-reference 3.2)"
R_INTENSITY = '002 "Mass Combat"; LotNR Potence: Intensity (met-reference 3.4)'

#: 002 "Mass Combat": "a maximum of five characters can engage the same target in hand
#: to hand combat and another 5 ... with range weapons".
MAX_PER_RANGE = 5


class Range(StrEnum):
    """How an attacker engages the target (002 "Mass Combat")."""

    HAND_TO_HAND = "hand_to_hand"
    RANGED = "ranged"

    @property
    def label(self) -> str:
        """"hand to hand" or "at range", for the explanation."""
        return "hand to hand" if self is Range.HAND_TO_HAND else "at range"


@dataclass(frozen=True)
class Attack:
    """How a fighter's successful attack does damage (002 "Damage and Healing").

    Attributes:
        action: ``"strike"`` (bare hands), ``"bite"`` or ``"weapon"``.
        weapon: a live armory key (``"knife"``, ``"pistol"``...), for ``"weapon"``.
        potence: the attacker's Potence level (Prowess 1; Puissance 5 adds a level).
        lethal_by_prowess: with Prowess, a bare-handed or club strike does lethal damage.
        head_shot: a firearm aimed at the head (lethal against vampires, 002).
        close_range: within five feet (Full-Auto adds a level).
    """

    action: str = "strike"
    weapon: str | None = None
    potence: int = 0
    lethal_by_prowess: bool = False
    head_shot: bool = False
    close_range: bool = False

    def strike(self) -> Strike:
        """The damage rules' :class:`~larp.rules.damage.Strike` for a hit."""
        return Strike(weapon=self.weapon if self.action == "weapon" else None, bite=self.action == "bite",
                      potence=self.potence, lethal_by_prowess=self.lethal_by_prowess,
                      head_shot=self.head_shot, close_range=self.close_range)


@dataclass(frozen=True)
class Body:
    """What damage does to a character (met-reference 3.5, 3.7, 4.1).

    Attributes:
        creature: ``"vampire"``, ``"ghoul"`` or ``"mortal"``.
        fortitude: Fortitude level (the damage rules read it).
        armor: a live armory key, or ``None``.
        armor_left: health levels the armor has left (``None``: its full rating).
        track: the live health track with the damage already marked; ``None``
            for an unhurt character on the chronicle's track.
    """

    creature: str = "vampire"
    fortitude: int = 0
    armor: str | None = None
    armor_left: int | None = None
    track: HealthTrack | None = None


@dataclass(frozen=True)
class Attacker:
    """One attacker in a mass challenge.

    Attributes:
        side: the attacker as a challenger: name, current Traits, his bid (one
            Trait, more if Wounded), powers, lead, Ability levels left...
            ``side.weapon`` is filled from ``attack.weapon`` when left out.
        range: hand to hand or ranged (five of each at most).
        attack: how his hit does damage; a ranged attacker needs a ranged weapon.
        throw: his sign; not needed when the defender relents to him.
        tests: the later tests of his pair, in order (overbids, retests), as in
            :class:`~larp.rules.challenge.TestCall`: challenger = this attacker,
            defender = the target.
        strength: hand to hand: the pair is a challenge of strength for the
            defender, so Might, Puissance and the strength Bomb apply (the
            narrator judges; never at range).
        celerity: the Celerity level he has active this round (0: none):
            Alacrity pre-empts; Rapidity's Bomb needs at least 3.
        body: what damage does to him.
    """

    side: Contestant
    range: Range = Range.HAND_TO_HAND
    attack: Attack = Attack()
    throw: Throw | None = None
    tests: tuple[TestCall, ...] = ()
    strength: bool = True
    celerity: int = 0
    body: Body = Body()


@dataclass(frozen=True)
class Defender:
    """The target of a mass challenge.

    Attributes:
        side: the target as the defender of every pair. ``side.bid`` holds
            every Trait he risks, in the order of the attackers he defends
            against (one each, more if Wounded; ``"Potence"`` once with Intensity).
        throw: his one sign, compared with every attacker's.
        relents_to: names of the attackers he relents to (he must, when he
            lacks the Traits to defend against all of them).
        attack: his counter-attack on an attacker who loses; ``None`` to defend only.
        injures: names of the losing attackers he injures (at most one per
            action); empty: the first losers in initiative order.
        celerity: the Celerity level he has active this round (0: none):
            Swiftness (2) and Legerity (4) give extra actions, Rapidity (3) the
            speed Bomb, Alacrity (1) pre-empts.
        body: what damage does to him.
    """

    side: Contestant
    throw: Throw | None = None
    relents_to: tuple[str, ...] = ()
    attack: Attack | None = None
    injures: tuple[str, ...] = ()
    celerity: int = 0
    body: Body = Body()


@dataclass(frozen=True)
class MassChallenge:
    """A mass challenge: one defender, up to five attackers hand to hand and five at range.

    Attributes:
        defender: the target.
        attackers: the attackers, in the order the narrator lists them (that
            order breaks ties of initiative and assigns the defender's bids).
        category: the Traits' category (Physical for combat).
    """

    defender: Defender
    attackers: tuple[Attacker, ...]
    category: Category = Category.PHYSICAL


@dataclass(frozen=True)
class Hit:
    """A successful attack and what it did.

    Attributes:
        by, target: the names of the attacker and the one hit.
        action: ``"strike"``, ``"bite"`` or ``"weapon"``.
        weapon: the weapon card's name (``None`` bare-handed or biting).
        damage_type, levels: the damage dealt (card, bare hands, bite, plus
            Potence, Mass-Trauma...), before the target's kind, halving and armor.
        taken: the (damage type, levels) marked on the track.
        applied: ``False`` when the target (or the attacker) had dropped before
            this result came in the order; nothing was marked.
        condition: the target's condition afterwards.
        state: the target's health level afterwards.
        note: why a result was not applied.
        steps: how the damage was reached and marked.
    """

    by: str
    target: str
    action: str
    weapon: str | None
    damage_type: str
    levels: int
    taken: tuple[tuple[str, int], ...]
    applied: bool
    condition: str
    state: str
    note: str = ""
    steps: tuple[Step, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"by": self.by, "target": self.target, "action": self.action, "weapon": self.weapon,
                "damage_type": self.damage_type, "levels": self.levels, "taken": [list(t) for t in self.taken],
                "applied": self.applied, "condition": self.condition, "state": self.state, "note": self.note,
                "steps": [s.to_dict() for s in self.steps]}


@dataclass(frozen=True)
class PairResult:
    """One attacker's challenge against the defender.

    Attributes:
        attacker: his name.
        range: hand to hand or ranged.
        relented: the defender relented to him.
        made: ``False`` when the defender dropped before the simultaneous challenge.
        outcome: ``CHALLENGER`` (the attacker won), ``DEFENDER`` or ``DRAW``;
            ``None`` when not made.
        attacker_throw: his first sign.
        defender_throw: the defender's sign as it counts against him (the
            strength Bomb may count as Paper).
        injured: the defender's counter-attack lands on him.
        ruling: the pair's challenge ruling (``None`` when not made).
        options: what each side of the pair may still call (retests, overbids).
    """

    attacker: str
    range: Range
    relented: bool
    made: bool
    outcome: Outcome | None
    attacker_throw: Throw | None = None
    defender_throw: Throw | None = None
    injured: bool = False
    ruling: ChallengeRuling | None = None
    options: ChallengeOptions | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"attacker": self.attacker, "range": self.range.value, "relented": self.relented,
                "made": self.made, "outcome": self.outcome.value if self.outcome else None,
                "attacker_throw": self.attacker_throw.value if self.attacker_throw else None,
                "defender_throw": self.defender_throw.value if self.defender_throw else None,
                "injured": self.injured, "ruling": self.ruling.to_dict() if self.ruling else None,
                "options": self.options.to_dict() if self.options else None}


@dataclass(frozen=True)
class Spending:
    """What one character spent: Ability levels, Willpower and Merit uses."""

    abilities: Mapping[str, int] = field(default_factory=dict)
    willpower: int = 0
    merits: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"abilities": dict(self.abilities), "willpower": self.willpower, "merits": dict(self.merits)}


@dataclass(frozen=True)
class MassRuling:
    """The ruling on a mass challenge.

    Attributes:
        pairs: each attacker's challenge, in the attackers' order.
        hits: every successful attack in the order it was applied.
        tracks: each character's health track afterwards, by name.
        traits_lost: the Traits each character loses for the game session, by name.
        spent: what each character spent, by name (only those who spent).
        actions: the defender's actions this turn (how many he may injure).
        steps: the whole explanation.
        summary: one sentence.
    """

    pairs: tuple[PairResult, ...]
    hits: tuple[Hit, ...]
    tracks: Mapping[str, HealthTrack]
    traits_lost: Mapping[str, tuple[str, ...]]
    spent: Mapping[str, Spending]
    actions: int
    steps: tuple[Step, ...]
    summary: str

    def pair(self, attacker: str) -> PairResult:
        """The result of ``attacker``'s challenge."""
        return next(p for p in self.pairs if p.attacker == attacker)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the record and the API use this)."""
        return {
            "summary": self.summary,
            "pairs": [p.to_dict() for p in self.pairs],
            "hits": [h.to_dict() for h in self.hits],
            "tracks": {name: t.to_dict() for name, t in self.tracks.items()},
            "traits_lost": {name: list(t) for name, t in self.traits_lost.items()},
            "spent": {name: s.to_dict() for name, s in self.spent.items()},
            "actions": self.actions,
            "steps": [s.to_dict() for s in self.steps],
        }


# ----- shared with firing into groups ---------------------------------------


def actions_of(celerity: int) -> int:
    """A character's actions this turn: one, plus one each for Swiftness (Celerity 2)
    and Legerity (Celerity 4) when Celerity is active (LotNR Celerity, met-reference 3.3)."""
    return 1 + (celerity >= SWIFTNESS) + (celerity >= LEGERITY)


def weapon_card(key: str, where: str) -> Weapon:
    """The challenge's weapon card (bonus Traits, damage) for the live armory key ``key``.

    Raises:
        RulesError: no such weapon; ``field`` is ``where``.
    """
    try:
        card = armory_weapon(key, "live")
    except RulesError:
        raise RulesError(f"There is no weapon {key!r} in the armory.", field=where) from None
    return Weapon(card.name, card.bonus_traits, card.damage_type, card.damage)


def track_of(body: Body, settings: ChronicleSettings, name: str, where: str) -> HealthTrack:
    """``body``'s track, or an unhurt one on the chronicle's levels.

    Raises:
        RulesError: an unknown creature, or a track whose creature differs.
    """
    if body.creature not in CREATURES:
        raise RulesError(f"{name}: unknown creature {body.creature!r} (vampire, ghoul or mortal).",
                         field=f"{where}.creature")
    if body.track is None:
        return new_track(body.creature, settings)
    if body.track.creature != body.creature:
        raise RulesError(f"{name}'s track is a {body.track.creature}'s, not a {body.creature}'s.",
                         field=f"{where}.creature")
    return body.track


def can_fight(track: HealthTrack) -> bool:
    """Still in the fight: active and above Incapacitated (LotNR Health, met-reference 4.1)."""
    return track.condition == "active" and track.marked < track.size - 1


def land_hit(by: str, attack: Attack, target: str, body: Body, track: HealthTrack, armor_left: int | None,
             settings: ChronicleSettings, rng: RandomSource | None) -> tuple[Hit, HealthTrack, int | None]:
    """Apply one successful attack: the damage rules, then the health track.

    :func:`~larp.rules.damage.strike_damage` (card, bare hands, bite, Potence,
    Mass-Trauma, Full-Auto, High-Caliber), :func:`~larp.rules.damage.damage_taken`
    (firearms against vampires, halving, armor) and the track (002 "Damage and
    Healing"; met-reference 3.7, 4.1).

    Returns:
        The hit, the new track and the armor levels left.

    Raises:
        RulesError: an impossible attack (Prowess without Potence...).
    """
    damage = strike_damage(attack.strike(), settings, rng, who=by)
    taken = damage_taken(damage, Target(body.creature, body.fortitude, body.armor, armor_left), settings,
                         who=target)
    applied = taken.apply_to(track, settings, target)
    name = armory_weapon(attack.weapon, "live").name if attack.action == "weapon" and attack.weapon else None
    hit = Hit(by, target, attack.action, name, damage.damage_type, damage.levels, taken.parts, True,
              applied.track.condition, applied.track.state(), "", applied.steps)
    return hit, applied.track, taken.armor_left


def missed_hit(by: str, attack: Attack, target: str, track: HealthTrack, note: str) -> Hit:
    """A result that is not applied (``note`` says why), for the record."""
    name = armory_weapon(attack.weapon, "live").name if attack.action == "weapon" and attack.weapon else None
    return Hit(by, target, attack.action, name, "", 0, (), False, track.condition, track.state(), note,
               (Step(note, R_MOB),))


def play_pairs(challenges: Sequence[Challenge], shared: Outcome, settings: ChronicleSettings,
               rng: RandomSource | None, where: Callable[[int], str]
               ) -> list[tuple[ChallengeOptions, ChallengeRuling]]:
    """Play each pair's challenge in order, one character (``shared``) being in all of them.

    Retests are counted per pair (LotNR Mob Scene: retesting against five
    attackers needs five levels), so the Ability levels, Willpower and Merit
    uses the shared character spends in one pair are gone for the next ones.

    Raises:
        RulesError: a pair's script is illegal or incomplete (a forced darkness
            retest is due); ``field`` is ``where(index)`` plus the pair's own field.
    """
    spent_abilities: Counter = Counter()
    spent_merits: Counter = Counter()
    spent_willpower = 0
    out = []
    for index, challenge in enumerate(challenges):
        attr = "challenger" if shared is Outcome.CHALLENGER else "defender"
        con: Contestant = getattr(challenge, attr)
        con = replace(con, abilities={k: v - spent_abilities[k] for k, v in con.abilities.items()},
                      merits={k: v - spent_merits[k] for k, v in con.merits.items()},
                      willpower=con.willpower - spent_willpower)
        challenge = replace(challenge, **{attr: con})
        try:
            options, ruling, _steps = play_challenge(challenge, settings, rng)
        except RulesError as exc:
            raise RulesError(exc.message, field=f"{where(index)}.{exc.field}" if exc.field else where(index)) \
                from None
        if ruling is None:
            raise RulesError("A forced darkness retest is due in this pair: add its throws.",
                             field=f"{where(index)}.tests")
        spent = ruling.spent_by(shared)
        spent_abilities.update(dict(spent.abilities))
        spent_merits.update(dict(spent.merits))
        spent_willpower += spent.willpower
        out.append((options, ruling))
    return out


def add_spending(totals: dict[str, dict[str, Any]], name: str, ruling: ChallengeRuling, side: Outcome) -> None:
    """Add what ``side`` spent in ``ruling`` to ``totals[name]`` (abilities, willpower, merits)."""
    spent = ruling.spent_by(side)
    entry = totals.setdefault(name, {"abilities": Counter(), "willpower": 0, "merits": Counter()})
    entry["abilities"].update(dict(spent.abilities))
    entry["merits"].update(dict(spent.merits))
    entry["willpower"] += spent.willpower


def spendings(totals: Mapping[str, Mapping[str, Any]]) -> dict[str, Spending]:
    """The totals as :class:`Spending`, leaving out those who spent nothing."""
    out = {}
    for name, entry in totals.items():
        if +entry["abilities"] or entry["willpower"] or +entry["merits"]:
            out[name] = Spending(dict(+entry["abilities"]), entry["willpower"], dict(+entry["merits"]))
    return out


def check_bid_names(con: Contestant, traits: Sequence[str], name: str, where: str) -> None:
    """Check that ``con`` still has every Trait in ``traits`` to risk (all together).

    Without ``held`` only the count is checked.

    Raises:
        RulesError: a Trait not held or lost earlier this game session, or too many.
    """
    if len(traits) > con.traits:
        raise RulesError(f"{name} has only {con.traits} Traits left and cannot risk {len(traits)}.", field=where)
    if not (con.held or con.lost_earlier):
        return
    free = Counter(con.held) - Counter(con.lost_earlier)
    for trait in traits:
        if free[trait] < 1:
            why = "lost earlier this game session" if trait in con.lost_earlier else "not a Trait left to risk"
            raise RulesError(f"{name} cannot risk {trait}: {why}.", field=where)
        free[trait] -= 1


# ----- the mass challenge ----------------------------------------------------


def _check(mass: MassChallenge) -> None:
    if not isinstance(mass.defender, Defender):
        raise RulesError("Give the target.", field="defender")
    if not mass.attackers:
        raise RulesError("Add at least one attacker.", field="attackers")
    d = mass.defender
    if not isinstance(d.side, Contestant):
        raise RulesError("Give the target.", field="defender")
    target = d.side.name.strip() if isinstance(d.side.name, str) else ""
    if not target:
        raise RulesError("The target needs a name.", field="defender.name")
    names: dict[str, int] = {}
    for index, a in enumerate(mass.attackers):
        where = f"attackers[{index}]"
        if not isinstance(a, Attacker) or not isinstance(a.side, Contestant):
            raise RulesError("Give the attacker.", field=where)
        if not isinstance(a.range, Range):
            raise RulesError("An attacker fights hand to hand or at range.", field=f"{where}.range")
        name = a.side.name.strip() if isinstance(a.side.name, str) else ""
        if not name:
            raise RulesError("Each attacker needs a name.", field=f"{where}.name")
        if name == target:
            raise RulesError(f"{name} cannot attack himself: the target cannot also be an attacker.",
                             field=f"{where}.name")
        if name in names:
            raise RulesError(f"{name} is already an attacker.", field=f"{where}.name")
        names[name] = index
        for attr in ("celerity",):
            value = getattr(a, attr)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
                raise RulesError(f"{name}: Celerity is a level from 0 to 5.", field=f"{where}.celerity")
    for rng_kind in Range:
        group = [a for a in mass.attackers if a.range is rng_kind]
        if len(group) > MAX_PER_RANGE:
            sixth = group[MAX_PER_RANGE]
            raise RulesError(
                f"At most {MAX_PER_RANGE} characters can engage one target {rng_kind.label} (002 \"Mass "
                f"Combat\"): {sixth.side.name} would be the {len(group)}th. Resolve that attack in another challenge.",
                field=f"attackers[{mass.attackers.index(sixth)}].range")
    if isinstance(d.celerity, bool) or not isinstance(d.celerity, int) or not 0 <= d.celerity <= 5:
        raise RulesError(f"{d.side.name}: Celerity is a level from 0 to 5.", field="defender.celerity")
    for key in ("relents_to", "injures"):
        seen = set()
        for name in getattr(d, key):
            if name not in names:
                raise RulesError(f"{name} is not one of the attackers.", field=f"defender.{key}")
            if name in seen:
                raise RulesError(f"{name} is named twice.", field=f"defender.{key}")
            seen.add(name)


def _attack_card(attack: Attack, rng_kind: Range | None, name: str, where: str) -> Weapon | None:
    if attack.action not in ACTIONS or not ACTIONS[attack.action]["attack"]:
        raise RulesError(f"{name}: an attack is a strike, a bite or a weapon.", field=f"{where}.action")
    if attack.action != "weapon":
        if attack.weapon:
            raise RulesError(f"{name}: a weapon is used with the action 'weapon'.", field=f"{where}.weapon")
        if rng_kind is Range.RANGED:
            raise RulesError(f"{name} attacks at range: choose his ranged weapon.", field=f"{where}.weapon")
        return None
    if not attack.weapon:
        raise RulesError(f"{name} attacks with a weapon: choose it.", field=f"{where}.weapon")
    card = armory_weapon(attack.weapon, "live") if attack.weapon else None
    card_weapon = weapon_card(attack.weapon, f"{where}.weapon")
    assert card is not None
    if rng_kind is Range.RANGED and card.melee:
        raise RulesError(f"{name}: a {card.name} is a hand-to-hand weapon; mark him hand to hand.",
                         field=f"{where}.weapon")
    if rng_kind is Range.HAND_TO_HAND and card.firearm:
        raise RulesError(f"{name}: a {card.name} is a ranged weapon; mark him as ranged.", field=f"{where}.weapon")
    return card_weapon


def _without_rapidity(con: Contestant, celerity: int) -> Contestant:
    """Rapidity's Bomb needs Celerity active this round (LotNR Rapidity; 002)."""
    if Power.RAPIDITY in con.powers and celerity < 3:
        return replace(con, powers=con.powers - {Power.RAPIDITY})
    return con


class _Mass:
    """Rules on one mass challenge (internal; see :func:`rule_mass_challenge`)."""

    def __init__(self, mass: MassChallenge, settings: ChronicleSettings, rng: RandomSource | None):
        self.mass, self.settings, self.rng = mass, settings, rng
        self.steps = Explanation()
        self.d = mass.defender
        self.name = self.d.side.name.strip()
        self.relented = set(self.d.relents_to)
        self.tracks: dict[str, HealthTrack] = {}
        self.armor: dict[str, int | None] = {}
        self.bodies: dict[str, Body] = {}
        self.attacks: dict[str, Attack] = {}

    # ----- setup -------------------------------------------------------------

    def setup(self) -> None:
        """Check the category and the attacks, load every track (RulesError for someone out of the fight)."""
        mass, d = self.mass, self.d
        if not isinstance(mass.category, Category) or mass.category is Category.VIRTUE:
            raise RulesError("A mass challenge is Physical, Social or Mental.", field="category")
        self.d_card = _attack_card(d.attack, None, self.name, "defender.attack") if d.attack is not None else None
        for index, a in enumerate(mass.attackers):
            self.attacks[a.side.name] = a.attack
            self.bodies[a.side.name] = a.body
        self.bodies[self.name] = d.body
        for index, (name, body) in enumerate(self.bodies.items()):
            where = "defender.body" if name == self.name else f"attackers[{self._index(name)}].body"
            track = track_of(body, self.settings, name, where)
            if not can_fight(track):
                raise RulesError(f"{name} is {track.state().lower() if track.condition == 'active' else track.condition.replace('_', ' ')} "
                                 f"and takes part in no challenge.", field=where)
            self.tracks[name] = track
            self.armor[name] = body.armor_left
        hand = sum(a.range is Range.HAND_TO_HAND for a in mass.attackers)
        ranged = len(mass.attackers) - hand
        self.steps.add(f"{len(mass.attackers)} attack {self.name}: {hand} hand to hand, {ranged} at range "
                       f"(at most {MAX_PER_RANGE} of each).", R_MASS)

    def _index(self, name: str) -> int:
        return next(i for i, a in enumerate(self.mass.attackers) if a.side.name == name)

    def _strength_pair(self, a: Attacker) -> bool:
        return (self.mass.category is Category.PHYSICAL and a.range is Range.HAND_TO_HAND and a.strength
                and self.d.side.lead is Lead.STRENGTH)

    def _pair_lead(self, a: Attacker) -> Lead:
        lead = self.d.side.lead
        if lead is Lead.STRENGTH and not self._strength_pair(a):
            return Lead.OTHER  # no Might, Puissance or strength Bomb against him (002; LotNR Might)
        return lead

    def _bomb(self, a: Attacker, lead: Lead, powers: frozenset[Power]) -> tuple[Lead, Throw | None]:
        """The pair's lead and what the defender's Bomb counts as against ``a`` (002 "Mass Combat")."""
        physical = self.mass.category is Category.PHYSICAL
        if physical and Power.VIGOR in powers and lead is Lead.STRENGTH:
            return lead, Throw.BOMB
        if physical and Power.RAPIDITY in powers:
            return Lead.SPEED, Throw.BOMB  # the speed Bomb applies against everyone
        if physical and Power.VIGOR in powers and self.d.side.lead is Lead.STRENGTH:
            return lead, Throw.PAPER
        return lead, Throw.BOMB  # no Bomb at all: the challenge refuses it

    def _defender_throws_bomb(self, a: Attacker) -> bool:
        if self.d.throw is Throw.BOMB:
            return True
        return any(t.defender_throw is Throw.BOMB for t in a.tests)

    # ----- bids --------------------------------------------------------------

    def pairs(self) -> tuple[list[Challenge], dict[str, Throw | None]]:
        """Each attacker's challenge, with the defender's bids assigned and throws mapped."""
        mass, d = self.mass, self.d
        d_side = _without_rapidity(d.side, d.celerity)
        if self.d_card is not None and d_side.weapon is None:
            d_side = replace(d_side, weapon=self.d_card)
        defender_action = d.attack.action if d.attack is not None else "defend"
        built: list[Challenge] = []
        counts_as: dict[str, Throw | None] = {}
        for index, a in enumerate(mass.attackers):
            where = f"attackers[{index}]"
            name = a.side.name
            card = _attack_card(a.attack, a.range, name, f"{where}.attack")
            side = _without_rapidity(a.side, a.celerity)
            if card is not None and side.weapon is None:
                side = replace(side, weapon=card)
            lead = self._pair_lead(a)
            mapped: Throw | None = None
            if self._defender_throws_bomb(a):
                lead, mapped = self._bomb(a, lead, d_side.powers)
            pair_d = replace(d_side, bid=(), held=(), lost_earlier=(), lead=lead, relent=name in self.relented)
            counts_as[name] = mapped
            built.append(Challenge(category=mass.category, challenger=side, defender=pair_d,
                                   action=a.attack.action, defender_action=defender_action))
        return built, counts_as

    def required(self, built: list[Challenge]) -> list[int]:
        """The Traits the defender must risk in each pair: one (more if Wounded), none when he relents."""
        required: list[int] = []
        for index, ch in enumerate(built):
            try:
                need = bids_required(ch, self.settings)[Outcome.DEFENDER]
            except RulesError as exc:
                raise RulesError(exc.message, field=f"attackers[{index}].{exc.field}" if exc.field else None) \
                    from None
            required.append(need or 0)
        return required

    def assign_bids(self, built: list[Challenge]) -> list[Challenge]:
        """Give each defended pair its share of the defender's bid (002: one Trait per attacker)."""
        d = self.d
        required = self.required(built)
        defended = [i for i, ch in enumerate(built) if not ch.defender.relent]
        total = sum(required)
        bid = [b.strip() if isinstance(b, str) else b for b in d.side.bid]
        if any(not isinstance(b, str) or not b for b in bid):
            raise RulesError(f"{self.name}: a Trait bid has no name.", field="defender.bid")
        potence = bid.count(POTENCE_TRAIT)
        strength_pairs = [i for i in defended if built[i].defender.lead is Lead.STRENGTH]
        intensity = (Power.INTENSITY in d.side.powers and self.mass.category is Category.PHYSICAL
                     and d.side.lead is Lead.STRENGTH and bool(strength_pairs))
        if potence > 1:
            raise RulesError(f"{self.name} may bid {POTENCE_TRAIT} once.", field="defender.bid")
        if potence and not intensity:
            raise RulesError(f"{self.name} may bid {POTENCE_TRAIT} only with Intensity, against an attacker in a "
                             f"strength challenge (LotNR Potence).", field="defender.bid")
        real_need = total - (1 if intensity else 0)
        others = len(self.mass.attackers) - len(defended)
        if real_need > d.side.traits:
            raise RulesError(
                f"{self.name} has {d.side.traits} {self.mass.category.label} Traits left and cannot defend against "
                f"{len(defended)} attackers ({real_need} Traits). Choose whom the target defends against and to whom it "
                f"relents (002 \"Mass Combat\").", field="defender.relents_to")
        if len(bid) != total:
            fewer = " (or one fewer with Intensity, bidding Potence)" if intensity else ""
            raise RulesError(f"{self.name} must bid {total} Traits{fewer}: one per attacker he defends against"
                             + (" (a Wounded defender risks one more in each)" if total > len(defended) else "")
                             + f", not {len(bid)}.", field="defender.bid")
        real = [b for b in bid if b != POTENCE_TRAIT]
        check_bid_names(d.side, real, self.name, "defender.bid")
        self.real_bid = real
        text = f"{self.name} defends against {len(defended)} of {len(built)} attackers and bids {len(bid)} Traits"
        if potence:
            text += f", {POTENCE_TRAIT} among them with Intensity: it is never lost, so he risks {len(real)}"
        self.steps.add(text + (f"; he relents to {others}." if others else "."),
                       R_INTENSITY if potence else R_MASS)
        if potence:
            self.steps.add(f"{POTENCE_TRAIT} stands for his bid against "
                           f"{built[strength_pairs[0]].challenger.name} (a strength challenge).", R_INTENSITY)
        queue = list(real)
        out = []
        for i, ch in enumerate(built):
            if ch.defender.relent:
                out.append(ch)
                continue
            share: list[str] = []
            if potence and i == strength_pairs[0]:
                share.append(POTENCE_TRAIT)
            while len(share) < required[i]:
                share.append(queue.pop(0))
            out.append(replace(ch, defender=replace(ch.defender, bid=tuple(share))))
        return out

    # ----- the ruling --------------------------------------------------------

    def run(self) -> MassRuling:
        """The whole ruling: relented challenges first, then the simultaneous one (module docstring)."""
        _check(self.mass)
        self.setup()
        mass, d, settings = self.mass, self.d, self.settings
        built, counts_as = self.pairs()
        built = self.assign_bids(built)
        hits: list[Hit] = []
        results: dict[str, PairResult] = {}
        lost: dict[str, list[str]] = {}
        spent: dict[str, dict[str, Any]] = {}

        # 1. Relented challenges first (002 "Mass Combat"; LotNR Mob Scene).
        relented = [i for i, ch in enumerate(built) if ch.defender.relent]
        if relented:
            self.steps.add(f"{self.name} relents to {', '.join(built[i].challenger.name for i in relented)}: those "
                           f"challenges are resolved before any others.", R_MASS)
        played = play_pairs([built[i] for i in relented], Outcome.DEFENDER, settings, self.rng,
                            lambda k: f"attackers[{relented[k]}]")
        for k, i in enumerate(relented):
            options, ruling = played[k]
            name = mass.attackers[i].side.name
            results[name] = PairResult(name, mass.attackers[i].range, True, True, ruling.outcome, ruling=ruling,
                                       options=options)
            self._record(ruling, name, lost, spent)
            self.steps.extend(ruling.steps)
        if relented:
            order = self._order([], explain=len(relented) > 1)
            hits += self._apply([(order[built[i].challenger.name], built[i].challenger.name, self.name)
                                 for i in relented])

        # 2. If he survives them, one simultaneous challenge against all the others.
        defended = [i for i, ch in enumerate(built) if not ch.defender.relent]
        if defended and not can_fight(self.tracks[self.name]):
            self.steps.add(f"{self.name} is {self._fallen(self.tracks[self.name])} after the relented challenges: "
                           f"the simultaneous challenge is not made, nor the other attackers' challenges with it.",
                           R_MASS)
            for i in defended:
                a = mass.attackers[i]
                results[a.side.name] = PairResult(a.side.name, a.range, False, False, None)
        elif defended:
            hits += self._simultaneous(built, counts_as, defended, results, lost, spent)
        pairs = tuple(results[a.side.name] for a in mass.attackers)
        traits_lost = {name: tuple(t) for name, t in lost.items() if t}
        return MassRuling(pairs, tuple(hits), dict(self.tracks), traits_lost, spendings(spent),
                          actions_of(d.celerity), self.steps.steps(), self._summary(pairs, hits))

    def _simultaneous(self, built: list[Challenge], counts_as: Mapping[str, Throw | None], defended: list[int],
                      results: dict[str, PairResult], lost: dict[str, list[str]],
                      spent: dict[str, dict[str, Any]]) -> list[Hit]:
        """The one simultaneous challenge: each pair by the normal rules, then the results in order."""
        mass, d, settings = self.mass, self.d, self.settings
        if d.throw is None:
            raise RulesError(f"Choose {self.name}'s sign.", field="defender.throw")
        scripts = []
        for i in defended:
            a, ch = mass.attackers[i], built[i]
            where = f"attackers[{i}]"
            if a.throw is None:
                raise RulesError(f"Choose {a.side.name}'s sign.", field=f"{where}.throw")
            mapped = counts_as[a.side.name]
            later = tuple(replace(t, defender_throw=self._as(t.defender_throw, mapped)) for t in a.tests)
            if later and later[0].call is Call.TEST:
                raise RulesError("The first test is the simultaneous one: later tests are overbids or retests.",
                                 field=f"{where}.tests[0].call")
            scripts.append(replace(ch, tests=(TestCall(Call.TEST, a.throw, self._as(d.throw, mapped)),) + later))
        self.steps.add(f"{self.name} and {len(defended)} attacker(s) engage in one simultaneous challenge: "
                       f"{self.name}'s {d.throw.label} is compared with each attacker's sign, each pair by the normal "
                       f"tie rules, then retests, counted per attacker.", R_MASS)
        for k, i in enumerate(defended):
            a = mass.attackers[i]
            mapped = counts_as[a.side.name]
            if mapped is Throw.PAPER:
                why = "at range" if a.range is Range.RANGED else "hand to hand, but not a challenge of strength"
                self.steps.add(f"{self.name}'s strength Bomb (Vigor) counts as Paper against {a.side.name} ({why}).",
                               R_MASS)
            elif mapped is Throw.BOMB and scripts[k].defender.lead is Lead.SPEED and d.side.lead is not Lead.SPEED:
                self.steps.add(f"{self.name} also has the speed Bomb (Rapidity, Celerity active this round): his Bomb "
                               f"stands against {a.side.name}.", R_MASS)
        where = lambda k: f"attackers[{defended[k]}]"
        first = play_pairs(scripts, Outcome.DEFENDER, settings, self.rng, where)
        losers = [mass.attackers[i].side.name for k, i in enumerate(defended) if first[k][1].outcome is Outcome.DEFENDER]
        injured, injured_text = self._injured(losers)
        final = first
        if d.attack is not None and settings["combat_resolution"] == "simultaneous":
            again = [replace(s, defender_action=s.defender_action if s.challenger.name in injured else "defend")
                     for s in scripts]
            try:
                final = play_pairs(again, Outcome.DEFENDER, settings, self.rng, where)
            except RulesError:
                final = first  # an attacker's Dodge retest needed the declared counter-attack: keep it
        for k, i in enumerate(defended):
            a = mass.attackers[i]
            options, ruling = final[k]
            results[a.side.name] = PairResult(a.side.name, a.range, False, True, ruling.outcome,
                                              ruling.challenger_throw, ruling.defender_throw,
                                              a.side.name in injured, ruling, options)
            self._record(ruling, a.side.name, lost, spent)
            self.steps.extend(ruling.steps)
        self._check_overbids(scripts)
        if injured_text:
            self.steps.add(injured_text, R_MOB)
        events = [(name, self.name) for k, i in enumerate(defended)
                  if final[k][1].outcome is Outcome.CHALLENGER for name in (mass.attackers[i].side.name,)]
        events += [((self.name, n), name) for n, name in enumerate(injured)]
        order = self._order(injured, explain=len(events) > 1)
        return self._apply([(order[key], key if isinstance(key, str) else self.name, target)
                            for key, target in events])

    @staticmethod
    def _as(throw: Throw | None, mapped: Throw | None) -> Throw | None:
        return mapped if throw is Throw.BOMB and mapped is not None else throw

    @staticmethod
    def _fallen(track: HealthTrack) -> str:
        return track.condition.replace("_", " ") if track.condition != "active" else track.state()

    def _record(self, ruling: ChallengeRuling, attacker: str, lost: dict[str, list[str]],
                spent: dict[str, dict[str, Any]]) -> None:
        lost.setdefault(attacker, []).extend(ruling.lost_by(Outcome.CHALLENGER))
        lost.setdefault(self.name, []).extend(t for t in ruling.lost_by(Outcome.DEFENDER) if t != POTENCE_TRAIT)
        add_spending(spent, attacker, ruling, Outcome.CHALLENGER)
        add_spending(spent, self.name, ruling, Outcome.DEFENDER)

    def _check_overbids(self, scripts: Sequence[Challenge]) -> None:
        """The defender's overbid Traits come from what is left after all his bids (one pool)."""
        traits = [t.trait for s in scripts for t in s.tests if t.call is Call.OVERBID and t.by is Outcome.DEFENDER
                  and t.trait]
        if traits:
            check_bid_names(self.d.side, self.real_bid + traits, self.name, "defender.bid")

    def _injured(self, losers: list[str]) -> tuple[list[str], str]:
        """Whom the defender's counter-attack injures (LotNR Mob Scene: one per action, only
        attackers who lost), and the step saying so."""
        d = self.d
        actions = actions_of(d.celerity)
        if d.attack is None:
            if d.injures:
                raise RulesError(f"{self.name} only defends: he injures nobody. Choose his counter-attack first.",
                                 field="defender.injures")
            return [], ""
        if self.settings["combat_resolution"] != "simultaneous":
            if d.injures:
                raise RulesError(f"A counter-attack is its own challenge here "
                                 f"({self.settings.label('combat_resolution')}).", field="defender.injures")
            return [], ""
        for name in d.injures:
            if name not in losers:
                raise RulesError(f"{name} did not lose to {self.name}: he may injure only an attacker who lost "
                                 f"(LotNR Mob Scene).", field="defender.injures")
        if len(d.injures) > actions:
            raise RulesError(f"{self.name} has {actions} action(s) this turn and may injure at most {actions} "
                             f"attacker(s) (LotNR Mob Scene).", field="defender.injures")
        order = self._order([], explain=False)
        ordered = sorted(losers, key=lambda n: order[n])
        chosen = list(d.injures) if d.injures else ordered[:actions]
        if not losers:
            return [], ""
        extra = "" if actions == 1 else f" (he has {actions} actions, Celerity {d.celerity})"
        text = (f"{self.name} beats {', '.join(ordered)} and may injure {min(actions, len(losers))} of them"
                f"{extra}: he injures {', '.join(chosen)}.")
        spared = [n for n in ordered if n not in chosen]
        if spared:
            text += f" {', '.join(spared)} {'is' if len(spared) == 1 else 'are'} not hurt."
        return chosen, text

    def _order(self, injured: Sequence[str], explain: bool) -> dict[Any, tuple[int, int]]:
        """Each result's place in the turn: (position, tie-break), from the order of challenges.

        Keys: an attacker's name for his attack; ``(defender, n)`` for the
        defender's n-th counter-attack (0: his normal action, then Swiftness, Legerity).
        """
        mass, d = self.mass, self.d
        participants = [Participant(self.name, d.side.traits, d.celerity, injured[0] if injured else "")]
        participants += [Participant(a.side.name, a.side.traits, a.celerity, self.name) for a in mass.attackers]
        turn = order_of_actions(participants)
        if explain:
            self.steps.add("The results are applied in the order of challenges; equal positions at the same time, "
                           "and a character who has dropped neither acts nor is hit again.", R_MOB)
            # order.py's note that mass combat has no simultaneous *answer* (002 "Challenges") would only
            # confuse here, where the one simultaneous challenge is 002 "Mass Combat"'s own.
            self.steps.extend(step for step in turn.steps if step.rule != ORDER_MASS)
        listed = {p.name: i for i, p in enumerate(participants)}
        places: dict[Any, tuple[int, int]] = {}
        defender_slots = []
        for slot in turn.slots:
            if slot.actor == self.name:
                if slot.kind in ("pre-empt", "normal", "Swiftness", "Legerity") and (slot.target or slot.kind in (
                        "Swiftness", "Legerity")):
                    defender_slots.append(slot.position)
            elif slot.kind in ("pre-empt", "normal") and slot.actor not in places:
                places[slot.actor] = (slot.position, listed[slot.actor])
        for n, position in enumerate(defender_slots):
            places[(self.name, n)] = (position, 0)
        return places

    def _apply(self, events: list[tuple[tuple[int, int], str, str]]) -> list[Hit]:
        """Apply the hits in order; equal positions are simultaneous (LotNR order of challenges).

        A result by or against someone who dropped before its position is not applied.
        """
        out: list[Hit] = []
        for _position, tier in groupby(sorted(events, key=lambda e: e[0]), key=lambda e: e[0][0]):
            tier = list(tier)
            # A target has dropped once he is unconscious, torpid or dead; an actor must still be able to fight
            # (an Incapacitated character acts no more, LotNR Health).
            standing = {name: track.condition == "active" for name, track in self.tracks.items()}
            acting = {name: can_fight(track) for name, track in self.tracks.items()}
            for _place, by, target in tier:
                attack = self.attacks.get(by) if by != self.name else self.d.attack
                assert attack is not None
                track = self.tracks[target]
                if not standing[target]:
                    out.append(missed_hit(by, attack, target, track,
                                          f"{target} had already dropped ({self._fallen(track)}) when {by}'s result "
                                          f"came: it is not applied."))
                    continue
                if not acting[by]:
                    out.append(missed_hit(by, attack, target, track,
                                          f"{by} was out of the fight ({self._fallen(self.tracks[by])}) before his "
                                          f"action: his hit on {target} is not applied."))
                    continue
                hit, new, armor_left = land_hit(by, attack, target, self.bodies[target], track, self.armor[target],
                                                self.settings, self.rng)
                self.tracks[target] = new
                self.armor[target] = armor_left
                out.append(hit)
        for hit in out:
            self.steps.extend(hit.steps)
        return out

    def _summary(self, pairs: Sequence[PairResult], hits: Sequence[Hit]) -> str:
        parts = []
        for p in pairs:
            if not p.made:
                parts.append(f"{p.attacker}: not made")
            elif p.relented:
                parts.append(f"{p.attacker}: relented to")
            elif p.outcome is Outcome.CHALLENGER:
                parts.append(f"{p.attacker} wins")
            elif p.outcome is Outcome.DEFENDER:
                parts.append(f"{p.attacker} loses" + (" and is hurt" if p.injured else ""))
            else:
                parts.append(f"{p.attacker}: draw")
        track = self.tracks[self.name]
        landed = sum(1 for h in hits if h.applied and h.target == self.name)
        times = {1: "once", 2: "twice"}.get(landed, f"{landed} times")
        end = f"{self.name} is hit {times} and is {self._fallen(track)}" if landed else f"{self.name} is not hit"
        return f"{self.name} against {len(pairs)}: " + "; ".join(parts) + f". {end}."


def rule_mass_challenge(mass: MassChallenge, settings: ChronicleSettings | None = None,
                        rng: RandomSource | None = None) -> MassRuling:
    """Rule on a mass challenge and apply its results in order (rules in the module docstring).

    Each attacker's pair is a normal challenge (:func:`larp.rules.challenge.play_challenge`):
    the attacker challenges, the defender defends with his share of the bid
    and the one sign he threw, and the pair's own overbids and retests follow.

    Args:
        mass: the defender, the attackers and their scripts.
        settings: the chronicle's settings (defaults if ``None``): the challenge
            and damage settings apply as usual (``combat_resolution`` decides
            whether the defender's win can injure).
        rng: a random source for the damage rules' simple tests (High-Caliber).

    Returns:
        The ruling: each pair, the hits in the order applied (and those not
        applied), the health tracks afterwards, Traits lost and resources spent.

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field: a sixth
            attacker hand to hand or at range, an attacker twice, the target as
            an attacker, the wrong number of Traits bid, too few Traits without
            relenting, a Bomb the defender does not have, injuring a winner or
            more attackers than he has actions, a pair's illegal retest...
    """
    return _Mass(mass, settings or ChronicleSettings.defaults(), rng).run()


def defender_bid_count(mass: MassChallenge, settings: ChronicleSettings | None = None) -> int:
    """How many Traits the defender must bid (the ``Potence`` pseudo-Trait counts as one):
    one per attacker he does not relent to, more in each pair if he is Wounded (002 "Mass
    Combat"; LotNR Health). The narrator's screen uses it to pick his Traits.

    Raises:
        RulesError: a mass challenge the rules refuse before any bid (a sixth attacker...).
    """
    run = _Mass(mass, settings or ChronicleSettings.defaults(), None)
    _check(mass)
    run.setup()
    built, _ = run.pairs()
    return sum(run.required(built))


# ----- JSON-like data in -----------------------------------------------------


def _flag(data: Mapping[str, Any], key: str, where: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise RulesError("Give true or false.", field=f"{where}.{key}")
    return value


def _level(data: Mapping[str, Any], key: str, where: str, high: int = 10) -> int:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise RulesError(f"Give a whole number from 0 to {high}.", field=f"{where}.{key}")
    return value


def _names(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RulesError("Give a list of names.", field=f"{where}.{key}")
    return tuple(v.strip() for v in value)


def _throw(data: Mapping[str, Any], key: str, where: str) -> Throw | None:
    return None if data.get(key) is None else parse_throw(data[key], f"{where}.{key}")


def attack_from_dict(data: Any, where: str) -> Attack:
    """Read an :class:`Attack` (keys as its attributes).

    Raises:
        RulesError: a malformed value, naming the field.
    """
    if not isinstance(data, Mapping):
        raise RulesError("Give the attack as an object (action, weapon...).", field=where)
    unknown = sorted(set(data) - set(Attack.__dataclass_fields__))
    if unknown:
        raise RulesError(f"Unknown field {unknown[0]!r}.", field=f"{where}.{unknown[0]}")
    weapon = data.get("weapon")
    if weapon is not None and (not isinstance(weapon, str) or not weapon.strip()):
        raise RulesError("Give a live armory key (knife, pistol...).", field=f"{where}.weapon")
    action = data.get("action", "weapon" if weapon else "strike")
    if not isinstance(action, str):
        raise RulesError("The action is strike, bite or weapon.", field=f"{where}.action")
    return Attack(action=action.strip().lower(), weapon=weapon.strip() if weapon else None,
                  potence=_level(data, "potence", where, 10),
                  lethal_by_prowess=_flag(data, "lethal_by_prowess", where),
                  head_shot=_flag(data, "head_shot", where), close_range=_flag(data, "close_range", where))


def body_from_dict(data: Any, where: str, settings: ChronicleSettings | None = None) -> Body:
    """Read a :class:`Body`: ``creature``, ``fortitude``, ``armor``, ``armor_left`` and the
    damage already marked (``bashing``, ``lethal``, ``aggravated``) on the chronicle's track.

    Raises:
        RulesError: a malformed value, or more damage than the track holds.
    """
    if data is None:
        return Body()
    if not isinstance(data, Mapping):
        raise RulesError("Give the body as an object (creature, damage...).", field=where)
    known = {"creature", "fortitude", "armor", "armor_left", "bashing", "lethal", "aggravated"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise RulesError(f"Unknown field {unknown[0]!r}.", field=f"{where}.{unknown[0]}")
    creature = data.get("creature", "vampire")
    if creature not in CREATURES:
        raise RulesError("The creature is vampire, ghoul or mortal.", field=f"{where}.creature")
    armor = data.get("armor")
    if armor is not None and not isinstance(armor, str):
        raise RulesError("Give a live armory key.", field=f"{where}.armor")
    armor_left = data.get("armor_left")
    if armor_left is not None and (isinstance(armor_left, bool) or not isinstance(armor_left, int)):
        raise RulesError("Give a whole number.", field=f"{where}.armor_left")
    counts = {k: _level(data, k, where, 20) for k in ("bashing", "lethal", "aggravated")}
    track = None
    if any(counts.values()):
        try:
            track = replace(new_track(creature, settings), **counts)
        except RulesError as exc:
            raise RulesError(exc.message, field=f"{where}.{exc.field}") from None
    return Body(creature, _level(data, "fortitude", where, 5), armor, armor_left, track)


_ATTACKER_KEYS = {"range", "attack", "throw", "tests", "strength", "celerity", "body"}
_DEFENDER_KEYS = {"throw", "relents_to", "attack", "injures", "celerity", "body"}


def mass_challenge_from_dict(data: Mapping[str, Any], settings: ChronicleSettings | None = None) -> MassChallenge:
    """Read a mass challenge from JSON-like data (the stateless API's input).

    ``defender`` and each of ``attackers`` are objects with the keys of
    :class:`~larp.rules.challenge.Contestant` (``name``, ``traits``, ``bid``,
    ``powers``, ``lead``, ``abilities``...) plus their own: a defender's
    ``throw``, ``relents_to``, ``attack``, ``injures``, ``celerity``, ``body``;
    an attacker's ``range``, ``attack``, ``throw``, ``tests``, ``strength``,
    ``celerity``, ``body``. ``attack`` is ``{"action": "weapon", "weapon":
    "pistol"}``; ``body`` is ``{"creature": "vampire", "lethal": 2}``.
    met-reference T8 as an example::

        {"defender": {"name": "Dana", "traits": 9, "bid": ["Quick", "Wiry", "Tough", "Brawny"],
                      "throw": "scissors", "attack": {"action": "strike"}},
         "attackers": [{"name": "A1", "traits": 7, "bid": ["Brawny"], "throw": "rock"},
                       {"name": "A2", "traits": 7, "bid": ["Brawny"], "throw": "scissors"},
                       {"name": "A3", "traits": 7, "bid": ["Brawny"], "throw": "paper"},
                       {"name": "A4", "traits": 7, "bid": ["Brawny"], "throw": "paper"}]}

    Raises:
        RulesError: a missing or malformed value, naming the field
            (``attackers[2].throw``, ``defender.bid``...).
    """
    if not isinstance(data, Mapping):
        raise RulesError("The mass challenge must be an object.", field="mass")
    unknown = sorted(set(data) - {"defender", "attackers", "category"})
    if unknown:
        raise RulesError(f"Unknown field {unknown[0]!r}.", field=unknown[0])
    raw_d = data.get("defender")
    if not isinstance(raw_d, Mapping):
        raise RulesError("Give the defender (the target) as an object.", field="defender")
    raw_a = data.get("attackers")
    if not isinstance(raw_a, list) or not raw_a:
        raise RulesError("Give the attackers as a list.", field="attackers")
    try:
        category = Category(str(data.get("category", "physical")).strip().lower())
    except ValueError:
        raise RulesError("The category is physical, social or mental.", field="category") from None
    d_side = contestant_from_dict({k: v for k, v in raw_d.items() if k not in _DEFENDER_KEYS}, "defender")
    defender = Defender(
        side=d_side, throw=_throw(raw_d, "throw", "defender"),
        relents_to=_names(raw_d, "relents_to", "defender"),
        attack=None if raw_d.get("attack") is None else attack_from_dict(raw_d["attack"], "defender.attack"),
        injures=_names(raw_d, "injures", "defender"), celerity=_level(raw_d, "celerity", "defender", 5),
        body=body_from_dict(raw_d.get("body"), "defender.body", settings),
    )
    attackers = []
    for index, raw in enumerate(raw_a):
        where = f"attackers[{index}]"
        if not isinstance(raw, Mapping):
            raise RulesError("An attacker must be an object.", field=where)
        side = contestant_from_dict({k: v for k, v in raw.items() if k not in _ATTACKER_KEYS}, where)
        try:
            rng_kind = Range(str(raw.get("range", "hand_to_hand")).strip().lower())
        except ValueError:
            raise RulesError("The range is hand_to_hand or ranged.", field=f"{where}.range") from None
        attackers.append(Attacker(
            side=side, range=rng_kind,
            attack=attack_from_dict(raw.get("attack", {}), f"{where}.attack"),
            throw=_throw(raw, "throw", where), tests=test_calls_from_list(raw.get("tests", []), f"{where}.tests"),
            strength=_flag(raw, "strength", where, True), celerity=_level(raw, "celerity", where, 5),
            body=body_from_dict(raw.get("body"), f"{where}.body", settings),
        ))
    return MassChallenge(defender=defender, attackers=tuple(attackers), category=category)
