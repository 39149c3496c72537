"""What each side counts in ties and overbids: its current Traits (bids still count), bonus
Traits, penalties (Bruised, moving, darkness), the generation cap, and the win-ties powers and
wounds that decide a tie before the Traits do (met-reference 1.3, 3.3-3.5, 3.7, 3.8, 4.1;
seed 002 "Ties", "Darkness").

Part of :mod:`larp.rules.challenge`: counted when the bids are placed (:mod:`.bids`), told when a
tie or an overbid first needs them (:mod:`.test`, :mod:`.overbid`).
"""

from __future__ import annotations

from larp.rules.challenge.state import ChallengeState, SideState
from larp.rules.challenge.types import (
    R_BONUS, R_CAP, R_HEALTH, R_MOVE, R_SPECIALISATION, R_SPEED_DE, R_TIES, Category, Health, Kind, Lead, Outcome,
    Power,
)
from larp.rules.darkness import ability_named
from larp.rules.explain import N_, Phrase
from larp.rules.senses import R_ACUTE, acute_sense_bonus
from larp.tables import generation_row


def count_traits(state: ChallengeState, side: SideState) -> None:
    """Set ``side.total``, the Traits it counts in ties and overbids, and the arithmetic.

    Current Traits (or those declared, never more; LotNR ties, met-reference 1.3), plus bonus
    Traits (cover, a weapon card, Speed under ``speed_weapon_model = dark_epics``, Acute Sense
    for the sense the challenge depends on under ``darkness_merits = lotnr``, unmatched
    Negative Traits), minus penalties (One Eye..., Bruised under ``wound_penalty_model = lotnr``,
    two or three steps moved, darkness), capped at twice the generation's Trait maximum
    (``trait_total_cap``) and never below 0 (LotNR Bonus Traits, Health, three-step rule;
    002 "Ties", "Darkness"). A simple test counts nothing.
    """
    con = side.con
    ch, settings = state.challenge, state.settings
    if ch.kind is Kind.SIMPLE:
        return
    base = con.declared if con.declared is not None else con.traits
    category = Phrase.term(side.category.label)
    if con.declared is not None:
        terms = [Phrase.message(N_("%(n)s %(category)s (declared of %(of)s)"), n=base, category=category,
                                of=con.traits)]
    else:
        terms = [Phrase.message(N_("%(n)s %(category)s"), n=base, category=category)]
    total = base
    for mod in con.bonuses:
        total += mod.traits
        terms.append(Phrase.message(N_("+%(n)s %(source)s"), n=mod.traits, source=mod.source))
    if con.weapon is not None and con.weapon.bonus:
        total += con.weapon.bonus
        terms.append(Phrase.message(N_("+%(n)s %(source)s"), n=con.weapon.bonus, source=Phrase.term(con.weapon.name)))
    if _specialisation(state, side):
        total += 1
        terms.append(Phrase.message(N_("+1 specialisation (%(name)s)"), name=con.specialisation)
                     if isinstance(con.specialisation, str) else Phrase.message(N_("+1 specialisation")))
    if _speed_bonus(state, side):
        total += 1
        terms.append(Phrase.message(N_("+1 Speed")))
        state.steps.add(N_("%(name)s's %(weapon)s has Speed and %(name)s has Melee: one bonus Trait (%(choice)s)."),
                        R_SPEED_DE, "speed_weapon_model", name=side.name, weapon=Phrase.term(con.weapon.name),
                        choice=Phrase.term(settings.label("speed_weapon_model")))
    acute = acute_sense_bonus(ch.sense, con.acute_senses, settings)
    if acute:
        total += acute
        sense = Phrase.term(ch.sense)
        terms.append(Phrase.message(N_("+%(n)s Acute Sense (%(sense)s)"), n=acute, sense=sense))
        state.steps.add(N_("The challenge depends on %(sense)s and %(name)s has Acute Sense (%(sense)s): "
                           "%(name)s is %(n)s Traits up (%(choice)s)."), R_ACUTE, "darkness_merits", sense=sense,
                        name=side.name, n=acute, choice=Phrase.term(settings.label("darkness_merits")))
    if side.neg_bonus:
        total += side.neg_bonus
        terms.append(Phrase.message(N_("+%(n)s unmatched Negative Traits"), n=side.neg_bonus))
    for mod in con.penalties:
        total -= mod.traits
        terms.append(Phrase.message(N_("-%(n)s %(source)s"), n=mod.traits, source=mod.source))
    if any(b.traits for b in con.bonuses) or (con.weapon is not None and con.weapon.bonus) or \
            any(t.startswith("+1 specialisation") for t in terms):
        state.steps.add(N_("%(name)s's bonus Traits count in ties and overbids but are never bid."), R_BONUS,
                        name=side.name)
    if settings["wound_penalty_model"] == "lotnr" and side.health is Health.BRUISED \
            and ch.category is not Category.VIRTUE:
        total -= 1
        terms.append(Phrase.message(N_("-1 Bruised")))
        state.steps.add(N_("%(name)s is Bruised: one Trait down on ties."), R_HEALTH, "wound_penalty_model",
                        name=side.name)
    if ch.category is Category.PHYSICAL and con.steps_moved >= 2:
        total -= 1
        terms.append(Phrase.message(N_("-1 moved")))
        state.steps.add(N_("%(name)s moved %(n)s steps: one Trait down."), R_MOVE, name=side.name, n=con.steps_moved)
    if side.dark is not None and side.dark.penalty:
        total -= side.dark.penalty
        terms.append(Phrase.message(N_("-%(n)s darkness"), n=side.dark.penalty))
    if settings["trait_total_cap"] and con.generation is not None:
        row = generation_row(con.generation)
        if row is not None and total > 2 * row.max_traits:
            total = 2 * row.max_traits
            terms.append(Phrase.message(N_("capped at %(n)s"), n=total))
            state.steps.add(N_("%(name)s may claim at most twice the generation's Trait maximum: %(n)s."),
                            R_CAP, "trait_total_cap", name=side.name, n=total)
    side.total = max(0, total)
    side.terms = terms


def _specialisation(state: ChallengeState, side: SideState) -> bool:
    """Whether the side's Ability specialisation gives its bonus Trait: only while it has a level of the
    Ability left tonight, since a specialisation is a use of the Ability (LotNR Abilities; met-reference
    1.3); a specialisation the narrator gives without naming the Ability always does."""
    spec = side.con.specialisation
    if not spec:
        return False
    if not isinstance(spec, str):
        return True
    key = ability_named(side.con.abilities, spec)
    if key is None or side.con.abilities[key] < 1:
        state.steps.add(N_("%(name)s has no level of %(ability)s left tonight: the %(ability)s specialisation gives "
                           "no bonus Trait."), R_SPECIALISATION, name=side.name, ability=spec)
        return False
    return True


def _speed_bonus(state: ChallengeState, side: SideState) -> bool:
    """Dark Epics' Speed: +1 bonus Trait for a Speed weapon used with Melee (setting ``speed_weapon_model``)."""
    con = side.con
    return (state.settings["speed_weapon_model"] == "dark_epics" and con.weapon is not None
            and con.weapon.has("Speed") and ability_named(con.abilities, "Melee") is not None)


def tie_standing(state: ChallengeState, side: SideState) -> None:
    """Set ``side.standing``: +1 for Puissance in a test of strength, +1 for Fleetness in a speed
    challenge (not for a surprised defender before the second challenge), -1 when Wounded; the
    side with more wins a tie without comparing Traits (LotNR Potence, Celerity, Health, Surprise;
    met-reference 3.3, 3.4, 4.1; 002 "Ties"). A simple test has none."""
    con, ch = side.con, state.challenge
    side.standing, side.standing_why = 0, []
    if ch.kind is Kind.SIMPLE:
        return
    physical = ch.category is Category.PHYSICAL
    if Power.PUISSANCE in con.powers and physical and con.lead is Lead.STRENGTH:
        side.standing += 1
        side.standing_why.append(Phrase.message(N_("%(name)s wins ties in tests of strength (Puissance)"),
                                                name=side.name))
    surprised = side.key is Outcome.DEFENDER and ch.surprised and not state.surprise_over
    if Power.FLEETNESS in con.powers and physical and con.lead is Lead.SPEED and not surprised:
        side.standing += 1
        side.standing_why.append(Phrase.message(N_("%(name)s wins ties in speed challenges (Fleetness)"),
                                                name=side.name))
    if side.health is Health.WOUNDED and ch.category is not Category.VIRTUE:
        side.standing -= 1
        side.standing_why.append(Phrase.message(N_("%(name)s is Wounded and loses all ties"), name=side.name))


def tell_totals(state: ChallengeState) -> None:
    """Explain, once, the Traits each character counts in ties and overbids, when its count is
    more than its Traits alone (002 "Ties")."""
    if state.totals_told:
        return
    state.totals_told = True
    for side in state.characters():
        if len(side.terms) > 1:
            state.steps.add(N_("%(name)s counts %(n)s Traits for ties and overbids: %(terms)s."), R_TIES,
                            name=side.name, n=side.total, terms=list(side.terms))
