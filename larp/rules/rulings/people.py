"""The people in a ruling, as plain data: each character as he stands tonight
(:class:`Person`) and what he does in this ruling (:class:`Choice`), and how the
rules core turns them into a challenge's side, an attack and a body.

A stored character and a character described to the stateless API become the
same :class:`Person`, so every ruling treats them alike: the live health track
with Fortitude's Mettle (met-reference 3.5), the challenge powers he holds
(Rapidity only with Celerity active, LotNR Celerity), the lead inferred from the
bid Trait unless given (``data/trait_leads.toml``; met-reference 1.1), the extra
Traits a side must risk picked from what he has most of, the sight powers the
sheet gives him in darkness (``data/darkness.toml``), the armor he wears
(met-reference 3.7), his Potence and Fortitude for damage.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Mapping

from larp.rules.calls import SideCalls
from larp.rules.challenge import (
    POTENCE_TRAIT,
    Category,
    Challenge,
    Outcome,
    bids_required,
    Contestant,
    Health,
    Lead,
    Modifier,
    Power,
    Weapon,
)
from larp.rules.darkness import Darkness, darkness_table
from larp.rules.explain import N_, Phrase, RulesError, Step, phrase_step
from larp.rules.health import HealthTrack, live_levels
from larp.rules.hits import weapon_card
from larp.rules.scene import Scene, SideScene, Worn
from larp.rules.settings import ChronicleSettings
from larp.rules.simple_test import SimpleTest
from larp.tables import discipline_table, trait_leads

R_HEALTH = "LotNR Health (met-reference 4.1)"
R_STAKE = '000 "Stake Through Heart"'
R_WILLPOWER = "LotNR Willpower (met-reference 2.1, 4.1)"

#: Discipline powers (as sheets name them, lower case) that change a challenge (met-reference 3.3-3.5).
CHALLENGE_POWERS: dict[str, Power] = {
    "vigor": Power.VIGOR,
    "rapidity": Power.RAPIDITY,
    "puissance": Power.PUISSANCE,
    "fleetness": Power.FLEETNESS,
    "might": Power.MIGHT,
    "endurance": Power.ENDURANCE,
    "intensity": Power.INTENSITY,
}

#: Celerity's Rapidity: the Bomb in speed challenges needs Celerity 3 active this turn (LotNR Celerity).
RAPIDITY_LEVEL = 3


@lru_cache(maxsize=256)
def powers_of_levels(disciplines: tuple[tuple[str, int], ...]) -> frozenset[str]:
    """The powers, lower case, that Discipline levels hold: a level holds its power and every power
    below it, because LotNR orders each Discipline's powers Basic, Basic, Intermediate, Intermediate,
    Advanced and they are learned in that order (``data/disciplines.toml``; met-reference 3.3-3.5).
    ``disciplines``: (Discipline name, highest level held) pairs; a name not in the table holds
    nothing by level (paths of Thaumaturgy and Necromancy are named power by power)."""
    by_name = {name.lower(): row for (name, path), row in discipline_table().items() if not path}
    held: set[str] = set()
    for name, level in disciplines:
        row = by_name.get(name.lower())
        if row is not None:
            held.update(power.lower() for power, at in row.levels.items() if at <= level)
    return frozenset(held)


@dataclass(frozen=True)
class Person:
    """A character as he stands tonight.

    Attributes:
        name: his name (unique among the people of one ruling).
        creature: ``"vampire"``, ``"ghoul"`` or ``"mortal"``.
        generation: a vampire's generation (the cap on Trait totals); ``None``: none.
        traits: per category (``"physical"``...), the names of the Traits on the
            sheet, a name repeated for "x2".
        lost: per category, the names of the Traits lost earlier this game session.
        counts: per category, the Traits left, for a person described without
            names (the stateless API); names win when both are given.
        negative_traits: per category, the names of his Negative Traits.
        abilities: Ability name to levels left this game session.
        merits: retest Merit name to uses left.
        powers: the Discipline powers he holds, by name, lower case (``"vigor"``,
            ``"mettle"``, ``"eyes of the beast"``).
        disciplines: Discipline name to the highest level held (``{"Potence": 2}``).
        willpower: temporary Willpower Traits left.
        levels: his own track's levels (an extra's, an imported chart); ``None``:
            the chronicle's live track.
        extra_levels: levels his Merits or Flaws add (Huge Size's Healthy level, LotNR;
            ``data/merits_flaws.toml``).
        aggravated, lethal, bashing: health levels of damage marked.
        condition: ``active``, ``unconscious``, ``torpor``, ``final_death`` or ``dead``.
        staked: a stake paralyses him (000 "Stake Through Heart").
        health: a wound level given outright, for a person described without
            his damage (the stateless API); ``None``: from the track.
        armor: the armor he wears, from the sheet.
        weapon: the live armory key of the weapon he carries, from the sheet (``""``: none).
        whole_track: ``levels`` is the whole track as it stands (Mettle's level already in
            it, as a stateless caller gives back a track the API returned).
        qualities: the catalogue keys of his Merits and Flaws (``data/merits_flaws.toml``:
            ``"ambidextrous"``, ``"acute_sense"``, ``"concentration"``...).
        specialisations: Ability name to its specialisations (``{"Melee": ("Two-Weapon (Florentine)",)}``).
        blood, blood_max, blood_per_turn: his blood pool, its maximum and the blood points he
            may spend a turn (LotNR generation table, met-reference 5.1).
        agg_marked: Blood Traits already put toward his aggravated wounds (``agg_heal_model``
            "lotnr_instalments", met-reference 5.1).
        willpower_max: his permanent Willpower.
        frenzy: he is in ``"frenzy"`` or ``"rotschreck"`` (``""``: neither), as the Virtue Test left him
            (:mod:`larp.rules.frenzy`; the stored state comes later): in frenzy no wound penalty, not
            even Incapacitated's, holds him back until torpor (LotNR Frenzy).
        acute_senses: the senses of his Acute Sense Merits (keys of ``data/senses.toml``; the
            Merit's note says which, :func:`larp.rules.senses.senses_in_note`): two Traits up in a
            challenge that depends on one of them (LotNR Acute Sense, met-reference 1.3).
        morality: his Humanity or Path in MET Traits (0-5), which sets how long a torpor lasts
            (met-reference 5.2); ``None``: not known (a stateless caller who left it out).
        tabletop_morality: his Humanity or Path dots (0-10) when the sheet has them (the tabletop
            torpor table, ``torpor_table``); ``None``: converted from ``morality``.
    """

    name: str
    creature: str = "vampire"
    generation: int | None = None
    traits: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    lost: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    counts: Mapping[str, int] = field(default_factory=dict)
    negative_traits: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    abilities: Mapping[str, int] = field(default_factory=dict)
    merits: Mapping[str, int] = field(default_factory=dict)
    powers: frozenset[str] = frozenset()
    disciplines: Mapping[str, int] = field(default_factory=dict)
    willpower: int = 0
    levels: tuple[str, ...] | None = None
    extra_levels: tuple[str, ...] = ()
    aggravated: int = 0
    lethal: int = 0
    bashing: int = 0
    condition: str = "active"
    staked: bool = False
    health: Health | None = None
    armor: tuple[Worn, ...] = ()
    weapon: str = ""
    whole_track: bool = False
    qualities: frozenset[str] = frozenset()
    specialisations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def two_weapon(self) -> bool:
        """The Two-Weapon (Florentine) specialisation, in any Ability (met-reference 3.8)."""
        return any("two-weapon" in spec.lower() or "florentine" in spec.lower()
                   for specs in self.specialisations.values() for spec in specs)
    blood: int = 0
    blood_max: int = 0
    blood_per_turn: int = 1
    agg_marked: int = 0
    willpower_max: int = 0
    acute_senses: frozenset[str] = frozenset()
    frenzy: str = ""
    morality: int | None = None
    tabletop_morality: int | None = None

    def names_known(self, category: str) -> bool:
        """Whether his Traits in ``category`` are known by name (bids are then checked by name)."""
        return bool(self.traits.get(category) or self.lost.get(category))

    def traits_left(self, category: str) -> int:
        """Traits left tonight in ``category`` (a tie compares these)."""
        if self.names_known(category):
            return sum((Counter(self.traits.get(category, ())) - Counter(self.lost.get(category, ()))).values())
        return self.counts.get(category, 0)

    def free(self, category: str) -> Counter:
        """The Traits in ``category`` he may still risk tonight, by name."""
        return Counter(self.traits.get(category, ())) - Counter(self.lost.get(category, ()))

    def discipline(self, name: str) -> int:
        """His highest level in the Discipline ``name`` (0 without it)."""
        return next((level for key, level in self.disciplines.items() if key.lower() == name.lower()), 0)

    def holds(self, power: str) -> bool:
        """Whether he holds the power ``power`` (any case): named among his powers, or implied by his
        level in its Discipline (:func:`powers_of_levels`: Potence 5 holds Puissance, Fortitude 1
        Endurance, as Fortitude 2 already held Mettle)."""
        low = power.lower()
        return low in self.powers or low in powers_of_levels(tuple(sorted(self.disciplines.items())))

    @property
    def mettle(self) -> bool:
        """Fortitude's Mettle (level 2): one more Healthy level (met-reference 3.5)."""
        return self.holds("mettle") or self.discipline("Fortitude") >= 2


@dataclass(frozen=True)
class Choice(SideCalls):
    """What one side does in a ruling: the narrator's taps for him, his calls
    (:class:`~larp.rules.calls.SideCalls`; a specialisation given as ``True`` is the one his sheet
    specialises, :func:`specialised_ability`) and the fields below.

    Attributes:
        bid: the Traits bid, the lead Trait first (``"Potence"`` with Intensity).
            When it holds fewer than the side must risk (Wounded, Negative Traits,
            the off hand...), the rest are picked from the Traits he has most of.
        lead: what the lead Trait tests; ``None``: from the Trait (``data/trait_leads.toml``).
        bid_category: the category he bids from when it differs from the
            challenge's (a shooter with Firearms may bid Mental Traits); ``None``: the challenge's.
        card: a weapon card given outright (the stateless API's ``weapon`` object);
            ``None``: the card of the weapon he carries (the scene or the sheet).
        declared: Traits declared in ties and overbids, if he under-declares.
        bonuses, penalties: other bonus and penalty Traits (Merits, One Eye...).
        extra_bid: extra Traits a narrator's difficulty makes him risk.
        celerity: the Celerity level active this turn (0: none); ``None``: the
            powers he holds count as active (a person described by the powers in play).
        waived_this_turn: a level was already expended this turn (Dark Epics p.49).
        ambidextrous, two_weapon: the Merit and the specialisation given in the request; ``None``:
            as his sheet says (``Person.qualities``, ``Person.specialisations``).
        high_caliber_test, staking_tests: the simple tests after his hit, as thrown at the
            table (``None`` or left out: drawn by the app, and the record says so).
    """

    bid: tuple[str, ...] = ()
    lead: Lead | None = None
    bid_category: Category | None = None
    card: Weapon | None = None
    declared: int | None = None
    bonuses: tuple[Modifier, ...] = ()
    penalties: tuple[Modifier, ...] = ()
    extra_bid: int = 0
    celerity: int | None = None
    waived_this_turn: bool = False
    ambidextrous: bool | None = None
    two_weapon: bool | None = None
    high_caliber_test: SimpleTest | None = None
    staking_tests: tuple[SimpleTest, ...] = ()


@dataclass(frozen=True)
class Side:
    """One side of a ruling: who he is tonight and what he does."""

    person: Person
    choice: Choice = Choice()

    @property
    def name(self) -> str:
        """The character's name."""
        return self.person.name


# ----- the track, and who can act ---------------------------------------------


def person_track(person: Person, settings: ChronicleSettings) -> HealthTrack:
    """The person's live health track with his damage marked and his condition.

    His own levels replace the chronicle's (``bruised_levels``); Fortitude's
    Mettle adds a Healthy level at the top (met-reference 3.5), and so does each level his
    Merits add (Huge Size, LotNR). If a smaller
    track than the damage would overflow (a setting changed), the lightest
    marks are dropped from the track, never from the stored counts.

    Raises:
        RulesError: an unknown creature or condition.
    """
    levels = tuple(person.levels) if person.levels else live_levels(settings)
    if not (person.whole_track and person.levels):
        if person.mettle:
            levels = ("Healthy",) + levels
        levels = add_levels(levels, person.extra_levels)
    counts = {"aggravated": person.aggravated, "lethal": person.lethal, "bashing": person.bashing}
    for kind in ("bashing", "lethal", "aggravated"):
        excess = sum(counts.values()) - len(levels)
        if excess > 0:
            counts[kind] -= min(excess, counts[kind])
    return HealthTrack(levels=levels, condition=person.condition, staked=person.staked, creature=person.creature,
                       **counts)


def add_levels(levels: tuple[str, ...], extra: tuple[str, ...]) -> tuple[str, ...]:
    """``levels`` with each of ``extra`` put before the first level of its name (at the front when the
    track has none): one more Healthy level for Huge Size, as Mettle's (LotNR; met-reference 3.5)."""
    out = list(levels)
    for name in extra:
        out.insert(out.index(name) if name in out else 0, name)
    return tuple(out)


def wound_level(person: Person, track: HealthTrack) -> Health:
    """Healthy, Bruised, Wounded or Incapacitated: the level given outright, else the
    track's (LotNR Health, met-reference 4.1)."""
    if person.health is not None:
        return person.health
    if track.incapacitated or track.below_incapacitated:
        return Health.INCAPACITATED
    return {"bruised": Health.BRUISED, "wounded": Health.WOUNDED}.get(track.state().lower(), Health.HEALTHY)


def check_can_act(person: Person, track: HealthTrack, field: str, ignore_wounds: bool = False) -> None:
    """Refuse a character who cannot take part in a challenge.

    ``ignore_wounds``: he spends a Willpower Trait to ignore wound penalties up to and including
    Incapacitated for this turn (LotNR Willpower, met-reference 2.1, 4.1), so Incapacitated does
    not stop him; he must have the Willpower Trait.

    Raises:
        RulesError: naming ``field`` (a phrase): unconscious, in torpor, dead or Incapacitated (no challenges
            until a level is healed, LotNR Health, met-reference 4.1; unless he spends Willpower, is in frenzy,
            or has Endurance, which leaves him only the Bruised penalty, met-reference 3.5), staked and
            paralysed (000 "Stake Through Heart"), or no Willpower left to spend.
    """
    if ignore_wounds and person.willpower < 1:
        raise RulesError(Phrase.message(N_("%(name)s has no Willpower left to spend against his wounds."),
                                        name=person.name), field=f"{field}_ignore_wounds")
    if track.condition != "active":
        reason = {"unconscious": N_("is unconscious"), "torpor": N_("is in torpor"), "dead": N_("is dead"),
                  "final_death": N_("has met Final Death")}.get(track.condition, track.condition)
        raise RulesError(Phrase.message(N_("%(name)s %(reason)s and cannot take part in a challenge."),
                                        name=person.name, reason=Phrase.message(reason)), field=field)
    if not ignore_wounds and person.frenzy != "frenzy" and not person.holds("endurance") and (
            person.health is Health.INCAPACITATED
                              or (person.health is None and track.marked >= track.size - 1)):
        raise RulesError(Phrase.message(N_("%(name)s is Incapacitated: no challenges until one level is healed, unless he "
                                           "spends a Willpower Trait to ignore his wounds for this turn (%(cited)s)."),
                                        name=person.name, cited=R_WILLPOWER), field=field)
    if track.staked:
        raise RulesError(Phrase.message(N_("%(name)s is staked and paralysed until the stake is removed (%(cited)s): "
                                           "no challenges."), name=person.name, cited=R_STAKE), field=field)


def ignore_wounds_step(side: Side, settings: ChronicleSettings) -> Step | None:
    """The step for a side who spends Willpower against his wounds, naming the level he ignores
    (LotNR Willpower, met-reference 2.1, 4.1); ``None`` when he does not."""
    if not side.choice.ignore_wounds:
        return None
    level = wound_level(side.person, person_track(side.person, settings))
    wounds = Phrase.term(level.value.capitalize())  # unused by the first sentence (a healthy side)
    return phrase_step(N_("%(name)s spends a Willpower Trait: he ignores any wound penalty for this turn, up to and "
                          "including Incapacitated.") if level is Health.HEALTHY else
                       N_("%(name)s spends a Willpower Trait: he ignores his wound penalties (%(level)s) for this "
                          "turn, up to and including Incapacitated."), R_WILLPOWER, name=side.name, level=wounds)


# ----- bids and leads -----------------------------------------------------------


def lead_of(trait: str) -> Lead:
    """What a lead Trait tests (``data/trait_leads.toml``); ``other`` if not listed (met-reference 1.1)."""
    return Lead(trait_leads().get(trait.strip().lower(), "other"))


def lead_for(choice: Choice, category: Category) -> Lead:
    """The side's lead: an explicit one wins; else Intensity's ``Potence`` bid tests strength,
    and any other first Trait tests what ``data/trait_leads.toml`` says, in Physical
    challenges only (met-reference 1.1, 3.4)."""
    if choice.lead is not None:
        return choice.lead
    if category is not Category.PHYSICAL or not choice.bid:
        return Lead.OTHER
    if choice.bid[0] == POTENCE_TRAIT:
        return Lead.STRENGTH
    return lead_of(choice.bid[0])


def default_lead(person: Person, category: str) -> str:
    """The Trait he has most of tonight (alphabetical on equal counts), or ``""``."""
    free = person.free(category)
    return min(free, key=lambda name: (-free[name], name)) if free else ""


def choose_bid(person: Person, category: str, lead: str, count: int) -> tuple[str, ...]:
    """The lead Trait plus ``count - 1`` more, from the Traits he has most of tonight
    (equal counts alphabetically): how the tool picks the extra Traits a side must risk
    (a Wounded side's second Trait, a mass challenge's defender's one per attacker)."""
    left = person.free(category)
    bid = [lead]
    if lead != POTENCE_TRAIT:
        left[lead] -= 1
    for name, _n in sorted(left.items(), key=lambda item: (-item[1], item[0])):
        while len(bid) < count and left[name] > 0:
            bid.append(name)
            left[name] -= 1
    return tuple(bid)


def challenge_powers(person: Person, celerity: int | None) -> frozenset[Power]:
    """The powers that change his challenges (met-reference 3.3-3.5). Rapidity's Bomb
    needs Celerity active this turn (``celerity`` at least 3; ``None``: the powers held count
    as active)."""
    powers = {power for name, power in CHALLENGE_POWERS.items() if person.holds(name)}
    if celerity is not None and celerity < RAPIDITY_LEVEL:
        powers.discard(Power.RAPIDITY)
    return frozenset(powers)


def active_celerity(person: Person, celerity: int | None) -> int:
    """The Celerity level he has active this turn, for Alacrity's pre-empt (LotNR Alacrity,
    met-reference 3.3; 002 "Challenges"): as given; ``None``: the powers he holds count as active,
    so his Celerity level (a person described by the powers in play)."""
    if celerity is not None:
        return celerity
    level = person.discipline("Celerity")
    return max(level, 1) if person.holds("alacrity") else level


def sight_reductions(person: Person, side: SideScene) -> tuple[str, ...]:
    """The darkness reductions he has active (``data/darkness.toml`` keys): each sight power
    and Merit (Acute Sense, Concentration) he holds unless the narrator turned it off for this
    ruling, each one turned on, and the caster's own Shroud of Night (LotNR Shroud;
    met-reference 6.1; 002 "Darkness")."""
    keys = []
    for row in darkness_table().reductions.values():
        if row.per_level_of:
            continue  # counted from his Ability levels by the darkness rules
        held = (bool(row.power) and person.holds(row.power)) or (bool(row.merit) and row.merit in person.qualities)
        if side.sight.get(row.key, held):
            keys.append(row.key)
    if side.shroud_caster and "own_shroud" not in keys:
        keys.append("own_shroud")
    return tuple(keys)


def carried_weapon(person: Person, scene: Scene) -> str:
    """The live armory key of the weapon he carries and uses: the scene's choice, else the sheet's."""
    chosen = scene.side(person.name).weapon
    return person.weapon if chosen is None else chosen


def weapon_card_for(side: Side, scene: Scene, field: str) -> Weapon | None:
    """The challenge's weapon card for what he uses: the card given outright, else the
    armory's card of the weapon he carries (bonus Traits, damage; met-reference 3.7).

    Raises:
        RulesError: a weapon not in the armory, naming ``field``.
    """
    if side.choice.card is not None:
        return side.choice.card
    key = carried_weapon(side.person, scene)
    if not key:
        return None
    return weapon_card(key, field)


def contestant_for(side: Side, category: Category, scene: Scene, settings: ChronicleSettings,
                   prefix: str, track: HealthTrack | None = None) -> Contestant:
    """The side as the challenge engine sees it (:class:`~larp.rules.challenge.Contestant`).

    His Traits left in the bid's category (names when known), the challenge powers he
    holds (:func:`challenge_powers`), the lead (:func:`lead_for`), cover (the scene) and
    specialisation bonus Traits, the weapon card, his wound level from the track (Mettle
    included), Ability levels, Willpower and Merits left, his generation (vampires), and
    the darkness the scene puts on him with his active sight powers (002 "Darkness"). ``track``: his
    track (:func:`person_track`) when the caller has already read it.

    Raises:
        RulesError: naming ``prefix`` + the field: an unknown weapon; Blindfighting to
            expend that he does not have.
    """
    person, choice = side.person, side.choice
    own = scene.side(person.name)
    cat = choice.bid_category or category
    named = person.names_known(cat.value)
    held = tuple(person.traits.get(cat.value, ())) if named else ()
    lost = tuple(t for t in person.lost.get(cat.value, ()) if t in held) if named else ()
    bonuses = []
    if own.cover:
        bonuses.append(Modifier("cover", own.cover))
    bonuses.extend(choice.bonuses)
    waiver = ""
    if choice.waive_darkness:
        waiver = next((name for name in person.abilities if name.lower() == "blindfighting"), "")
        if not waiver:
            raise RulesError(Phrase.message(N_("%(name)s has no Blindfighting to expend."), name=person.name),
                             field=prefix + "waive_darkness")
    level, source = scene.darkness_for(person.name)
    track = person_track(person, settings) if track is None else track
    return Contestant(
        name=person.name,
        traits=person.traits_left(cat.value),
        bid=tuple(choice.bid),
        held=held,
        lost_earlier=lost,
        declared=choice.declared,
        bonuses=tuple(bonuses),
        penalties=tuple(choice.penalties),
        weapon=weapon_card_for(side, scene, prefix + "weapon"),
        health=Health.HEALTHY if choice.ignore_wounds else wound_level(person, track),
        powers=challenge_powers(person, choice.celerity),
        lead=lead_for(choice, category),
        category=choice.bid_category,
        abilities=dict(person.abilities),
        willpower=person.willpower - (1 if choice.ignore_wounds else 0),
        merits=dict(person.merits),
        generation=person.generation if person.creature == "vampire" else None,
        steps_moved=choice.steps_moved,
        off_hand=choice.off_hand,
        extra_bid=choice.extra_bid,
        relent=choice.relent,
        darkness=Darkness(level=level, source=source, reductions=sight_reductions(person, own),
                          waive_retest=waiver, waived_this_turn=choice.waived_this_turn),
        ambidextrous="ambidextrous" in person.qualities if choice.ambidextrous is None else choice.ambidextrous,
        two_weapon=person.two_weapon if choice.two_weapon is None else choice.two_weapon,
        both_hands=choice.both_hands,
        bomb_announced=choice.bomb_announced,
        celerity=active_celerity(person, choice.celerity),
        acute_senses=frozenset(person.acute_senses),
        specialisation=specialised_ability(person, choice.specialisation),
        frenzy=person.frenzy,
    )


def specialised_ability(person: Person, chosen: bool | str) -> str | bool:
    """The Ability whose specialisation the narrator applies (LotNR Abilities, met-reference 1.3): the one
    named; with ``True``, the Ability his sheet specialises (the one with a level left tonight first,
    then alphabetically), or ``True`` itself when the sheet names none (the narrator's word); ``""`` for
    none."""
    if not chosen:
        return ""
    if isinstance(chosen, str):
        return chosen.strip()
    specialised = sorted(name for name, specs in person.specialisations.items() if specs)
    if not specialised:
        return True
    left = [name for name in specialised if person.abilities.get(name, 0) > 0]
    return (left or specialised)[0]


def filled_bid(side: Side, category: Category, count: int | None) -> tuple[str, ...]:
    """His bid with the extra Traits he must risk added (``count`` in all), picked from the
    Traits he has most of when his Traits are known by name; as chosen otherwise."""
    bid = tuple(side.choice.bid)
    cat = (side.choice.bid_category or category).value
    if not count or not bid or len(bid) >= count or not side.person.names_known(cat):
        return bid
    return bid + choose_bid(side.person, cat, bid[0], count)[len(bid):]


def bid_for(side: Side, con: Contestant, category: Category, settings: ChronicleSettings, extra: int = 0
         ) -> tuple[str, ...]:
    """An attacker's (or a bystander's) bid: his lead Trait (the one he has most of tonight when
    none is chosen), plus what a challenge requires of him (a Wounded side risks one more), plus
    ``extra``, picked from the Traits he has most of; as given when his Traits are not known by name."""
    cat = (side.choice.bid_category or category).value
    if not side.person.names_known(cat):
        return con.bid
    lead = con.bid[0] if con.bid else default_lead(side.person, cat)
    if not lead:
        return con.bid
    if len(con.bid) > 1:
        return con.bid
    other = Contestant("the other side", 1, ("a Trait",))
    count = bids_required(Challenge(category, replace(con, bid=(lead,)), other), settings)[Outcome.CHALLENGER]
    return choose_bid(side.person, cat, lead, (count or 1) + extra)
