"""A mass challenge's pairs: the checks, each attacker's challenge against the defender
(leads, the strength Bomb counting as Paper, Rapidity), and the defender's bid shared
out, one Trait per attacker he defends against (002 "Mass Combat"; LotNR Mob Scene,
met-reference 3.2; LotNR Potence: Intensity). Part of :mod:`larp.rules.mass_challenge`.
"""

from __future__ import annotations

from dataclasses import replace

from larp.rules.challenge import (
    ACTIONS,
    POTENCE_TRAIT,
    Category,
    Challenge,
    Contestant,
    Lead,
    Outcome,
    Power,
    RandomSource,
    Throw,
    Weapon,
    bids_required,
)
from larp.rules.damage import weapon as armory_weapon
from larp.rules.explain import N_, Explanation, Phrase, RulesError, article
from larp.rules.explain import traits as traits_said
from larp.rules.health import HealthTrack
from larp.rules.hits import Attack, Body, can_fight, track_of, weapon_card
from larp.rules.mass_challenge.types import (
    MAX_PER_RANGE,
    R_INTENSITY,
    R_MASS,
    Attacker,
    Defender,
    MassChallenge,
    Range,
)
from larp.rules.pairs import check_bid_names, member_name, party_name
from larp.rules.settings import ChronicleSettings


def _ordinal(n: int) -> str:
    """"6th", "7th"... (a mob has at most 10 people in it)."""
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10 if n % 100 not in (11, 12, 13) else 0, 'th')}"


def _check(mass: MassChallenge, settings: ChronicleSettings) -> None:
    if not isinstance(mass.defender, Defender):
        raise RulesError(Phrase.message(N_("Give the target.")), field="defender")
    if not mass.attackers:
        raise RulesError(Phrase.message(N_("Add at least one attacker.")), field="attackers")
    d = mass.defender
    if not isinstance(d.side, Contestant):
        raise RulesError(Phrase.message(N_("Give the target.")), field="defender")
    target = party_name(d.side, "defender", N_("The target needs a name."))
    names: dict[str, int] = {}
    for index, a in enumerate(mass.attackers):
        where = f"attackers[{index}]"
        if not isinstance(a, Attacker) or not isinstance(a.side, Contestant):
            raise RulesError(Phrase.message(N_("Give the attacker.")), field=where)
        if not isinstance(a.range, Range):
            raise RulesError(Phrase.message(N_("An attacker fights hand to hand or at range.")),
                             field=f"{where}.range")
        name = member_name(a.side, where, N_("Each attacker needs a name."),
                           target, N_("%(name)s is the target and cannot also be an attacker."),
                           names, N_("%(name)s is already an attacker."))
        names[name] = index
        for attr in ("celerity",):
            value = getattr(a, attr)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
                raise RulesError(Phrase.message(N_("%(name)s: Celerity is a level from 0 to 5."), name=name),
                                 field=f"{where}.celerity")
    for rng_kind in Range:
        group = [a for a in mass.attackers if a.range is rng_kind]
        if len(group) > MAX_PER_RANGE:
            sixth = group[MAX_PER_RANGE]
            if settings["one_physical_challenge_per_turn"]:
                then = Phrase.message(N_("%(name)s waits for the next turn, when %(target)s faces a new Physical "
                                         "challenge, or picks another target (%(label)s)"), name=sixth.side.name,
                                      target=target, label=settings.label('one_physical_challenge_per_turn'))
            else:
                then = Phrase.message(N_("%(name)s waits, or picks another target"), name=sixth.side.name)
            nth = (Phrase.message(N_("%(number)sth"), number=len(group)) if _ordinal(len(group)).endswith("th")
                   else _ordinal(len(group)))
            raise RulesError(
                Phrase.message(N_("At most %(max_per_range)s characters can engage one target %(label)s (002 "
                                  "\"Mass Combat\"): %(name)s would be the %(nth)s. %(then)s."),
                               max_per_range=MAX_PER_RANGE, label=Phrase.message(rng_kind.label), name=sixth.side.name,
                               nth=nth, then=then),
                field=f"attackers[{mass.attackers.index(sixth)}].range")
    if isinstance(d.celerity, bool) or not isinstance(d.celerity, int) or not 0 <= d.celerity <= 5:
        raise RulesError(Phrase.message(N_("%(name)s: Celerity is a level from 0 to 5."), name=d.side.name),
                         field="defender.celerity")
    for key in ("relents_to", "injures"):
        seen = set()
        for name in getattr(d, key):
            if name not in names:
                raise RulesError(Phrase.message(N_("%(name)s is not one of the attackers."), name=name),
                                 field=f"defender.{key}")
            if name in seen:
                raise RulesError(Phrase.message(N_("%(name)s is named twice."), name=name), field=f"defender.{key}")
            seen.add(name)


def _attack_card(attack: Attack, rng_kind: Range | None, name: str, where: str) -> Weapon | None:
    if attack.action not in ACTIONS or not ACTIONS[attack.action]["attack"]:
        raise RulesError(Phrase.message(N_("%(name)s: an attack is a strike, a bite or a weapon."), name=name),
                         field=f"{where}.action")
    if attack.action != "weapon":
        if attack.weapon:
            raise RulesError(Phrase.message(N_("%(name)s: a weapon is used with the action 'weapon'."), name=name),
                             field=f"{where}.weapon")
        if rng_kind is Range.RANGED:
            raise RulesError(Phrase.message(N_("%(name)s attacks at range: choose the ranged weapon."), name=name),
                             field=f"{where}.weapon")
        return None
    if not attack.weapon:
        raise RulesError(Phrase.message(N_("%(name)s attacks with a weapon: choose it."), name=name),
                         field=f"{where}.weapon")
    card = armory_weapon(attack.weapon, "live") if attack.weapon else None
    card_weapon = weapon_card(attack.weapon, f"{where}.weapon")
    assert card is not None
    if rng_kind is Range.RANGED and card.melee:
        raise RulesError(Phrase.message(N_("%(name)s: %(value)s is a hand-to-hand weapon; mark %(name)s hand to "
                                           "hand."), name=name, value=article(card.name)),
                         field=f"{where}.weapon")
    if rng_kind is Range.HAND_TO_HAND and card.firearm:
        raise RulesError(Phrase.message(N_("%(name)s: %(value)s is a ranged weapon; mark %(name)s as ranged."),
                                        name=name, value=article(card.name)),
                         field=f"{where}.weapon")
    return card_weapon


def _without_rapidity(con: Contestant, celerity: int) -> Contestant:
    """Rapidity's Bomb needs Celerity active this round (LotNR Rapidity; 002)."""
    if Power.RAPIDITY in con.powers and celerity < 3:
        return replace(con, powers=con.powers - {Power.RAPIDITY})
    return con


class _Pairs:
    """A mass challenge's pairs and the defender's bids (internal; the first half of
    :class:`larp.rules.mass_challenge.engine._Mass`)."""

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
            raise RulesError(Phrase.message(N_("A mass challenge is Physical, Social or Mental.")), field="category")
        self.d_card = _attack_card(d.attack, None, self.name, "defender.attack") if d.attack is not None else None
        for index, a in enumerate(mass.attackers):
            self.attacks[a.side.name] = a.attack
            self.bodies[a.side.name] = a.body
        self.bodies[self.name] = d.body
        for index, (name, body) in enumerate(self.bodies.items()):
            where = "defender.body" if name == self.name else f"attackers[{self._index(name)}].body"
            track = track_of(body, self.settings, name, where)
            if not can_fight(track):
                state = track.state().lower() if track.condition == 'active' else track.condition.replace('_', ' ')
                raise RulesError(Phrase.message(N_("%(name)s is %(state)s and takes part in no challenge."), name=name,
                                                state=Phrase.term(state)), field=where)
            self.tracks[name] = track
            self.armor[name] = body.armor_left
        hand = sum(a.range is Range.HAND_TO_HAND for a in mass.attackers)
        ranged = len(mass.attackers) - hand
        self.steps.add(N_("%(n)s attack %(name)s: %(hand)s hand to hand, %(ranged)s at range (at most %(most)s of "
                          "each)."), R_MASS, n=len(mass.attackers), name=self.name, hand=hand, ranged=ranged,
                       most=MAX_PER_RANGE)

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
                                   action=a.attack.action, defender_action=defender_action, mass=True,
                                   sense=mass.sense))
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
            raise RulesError(Phrase.message(N_("%(name)s: a Trait bid has no name."), name=self.name),
                             field="defender.bid")
        potence = bid.count(POTENCE_TRAIT)
        any_lead = self.settings["intensity_in_mobs"] == "any"
        strength_pairs = [i for i in defended if any_lead or built[i].defender.lead is Lead.STRENGTH]
        intensity = (Power.INTENSITY in d.side.powers and self.mass.category is Category.PHYSICAL
                     and (any_lead or d.side.lead is Lead.STRENGTH) and bool(strength_pairs))
        if potence > 1:
            raise RulesError(Phrase.message(N_("%(name)s may bid %(potence_trait)s once."),
                                            name=self.name, potence_trait=POTENCE_TRAIT), field="defender.bid")
        if potence and not intensity:
            where = "" if any_lead else N_(", against an attacker in a strength challenge (LotNR Potence)")
            raise RulesError(Phrase.message(N_("%(name)s may bid %(potence_trait)s only with Intensity%(where)s "
                                               "(%(value)s)."),
                                            name=self.name, potence_trait=POTENCE_TRAIT, where=Phrase.message(where) if where else "",
                                            value=self.settings.label('intensity_in_mobs')),
                             field="defender.bid")
        real_need = total - (1 if intensity else 0)
        others = len(self.mass.attackers) - len(defended)
        if real_need > d.side.traits:
            raise RulesError(
                Phrase.message(N_("%(name)s has %(traits)s %(label)s Traits left and cannot defend against "
                                  "%(value)s attackers (%(real_need)s Traits). Choose whom the target defends "
                                  "against and to whom it relents (002 \"Mass Combat\")."),
                               name=self.name, traits=d.side.traits, label=Phrase.term(self.mass.category.label),
                               value=len(defended), real_need=real_need),
                field="defender.relents_to")
        if len(bid) != total:
            fewer = Phrase.message(N_(" (or one fewer with Intensity, bidding Potence)")) if intensity else ""
            wounded = Phrase.message(N_(" (a Wounded defender risks one more in each)")) if total > len(defended) else ""
            raise RulesError(Phrase.message(N_("%(name)s must bid %(total)s Traits%(fewer)s: one per attacker defended "
                                               "against%(wounded)s, not %(bid)s."), name=self.name, total=total,
                                            fewer=fewer, wounded=wounded, bid=len(bid)), field="defender.bid")
        real = [b for b in bid if b != POTENCE_TRAIT]
        check_bid_names(d.side, real, self.name, "defender.bid")
        self.real_bid = real
        said = dict(name=self.name, defended=len(defended), all=len(built), traits=traits_said(len(bid)))
        if potence and others:
            text = N_("%(name)s defends against %(defended)s of %(all)s attackers and bids %(traits)s, %(potence)s "
                      "among them with Intensity: it is never lost, so %(name)s risks %(real)s; %(name)s relents to "
                      "%(others)s.")
        elif potence:
            text = N_("%(name)s defends against %(defended)s of %(all)s attackers and bids %(traits)s, %(potence)s "
                      "among them with Intensity: it is never lost, so %(name)s risks %(real)s.")
        elif others:
            text = N_("%(name)s defends against %(defended)s of %(all)s attackers and bids %(traits)s; %(name)s "
                      "relents to %(others)s.")
        else:
            text = N_("%(name)s defends against %(defended)s of %(all)s attackers and bids %(traits)s.")
        if potence:
            said.update(potence=POTENCE_TRAIT, real=len(real))
        if others:
            said.update(others=others)
        self.steps.add(text, R_INTENSITY if potence else R_MASS, **said)
        if potence:
            against = built[strength_pairs[0]].challenger.name
            if any_lead:
                self.steps.add(N_("%(potence)s stands for %(name)s's bid against %(against)s: against a mob, "
                                  "Intensity works whatever the attackers do (%(choice)s)."), R_INTENSITY,
                               "intensity_in_mobs", potence=POTENCE_TRAIT, name=self.name, against=against,
                               choice=Phrase.term(self.settings.label("intensity_in_mobs")))
            else:
                self.steps.add(N_("%(potence)s stands for %(name)s's bid against %(against)s (a strength "
                                  "challenge; %(choice)s)."), R_INTENSITY, "intensity_in_mobs",
                               potence=POTENCE_TRAIT, name=self.name, against=against,
                               choice=Phrase.term(self.settings.label("intensity_in_mobs")))
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
