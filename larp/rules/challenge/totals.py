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
    terms = [f"{base} {side.category.label}" + (f" (declared of {con.traits})" if con.declared is not None else "")]
    total = base
    for mod in con.bonuses:
        total += mod.traits
        terms.append(f"+{mod.traits} {mod.source}")
    if con.weapon is not None and con.weapon.bonus:
        total += con.weapon.bonus
        terms.append(f"+{con.weapon.bonus} {con.weapon.name}")
    if _specialisation(state, side):
        total += 1
        terms.append("+1 specialisation" + (f" ({con.specialisation})" if isinstance(con.specialisation, str) else ""))
    if _speed_bonus(state, side):
        total += 1
        terms.append("+1 Speed")
        state.steps.add(f"{side.name}'s {con.weapon.name} has Speed and {side.name} has Melee: one bonus Trait "
                        f"({settings.label('speed_weapon_model')}).", R_SPEED_DE, "speed_weapon_model")
    acute = acute_sense_bonus(ch.sense, con.acute_senses, settings)
    if acute:
        total += acute
        terms.append(f"+{acute} Acute Sense ({ch.sense})")
        state.steps.add(f"The challenge depends on {ch.sense} and {side.name} has Acute Sense ({ch.sense}): "
                        f"{side.name} is {acute} Traits up ({settings.label('darkness_merits')}).", R_ACUTE,
                        "darkness_merits")
    if side.neg_bonus:
        total += side.neg_bonus
        terms.append(f"+{side.neg_bonus} unmatched Negative Traits")
    for mod in con.penalties:
        total -= mod.traits
        terms.append(f"-{mod.traits} {mod.source}")
    if any(b.traits for b in con.bonuses) or (con.weapon is not None and con.weapon.bonus) or \
            any(t.startswith("+1 specialisation") for t in terms):
        state.steps.add(f"{side.name}'s bonus Traits count in ties and overbids but are never bid.", R_BONUS)
    if settings["wound_penalty_model"] == "lotnr" and side.health is Health.BRUISED \
            and ch.category is not Category.VIRTUE:
        total -= 1
        terms.append("-1 Bruised")
        state.steps.add(f"{side.name} is Bruised: one Trait down on ties.", R_HEALTH, "wound_penalty_model")
    if ch.category is Category.PHYSICAL and con.steps_moved >= 2:
        total -= 1
        terms.append("-1 moved")
        state.steps.add(f"{side.name} moved {con.steps_moved} steps: one Trait down.", R_MOVE)
    if side.dark is not None and side.dark.penalty:
        total -= side.dark.penalty
        terms.append(f"-{side.dark.penalty} darkness")
    if settings["trait_total_cap"] and con.generation is not None:
        row = generation_row(con.generation)
        if row is not None and total > 2 * row.max_traits:
            total = 2 * row.max_traits
            terms.append(f"capped at {total}")
            state.steps.add(f"{side.name} may claim at most twice the generation's Trait maximum: {total}.",
                            R_CAP, "trait_total_cap")
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
        state.steps.add(f"{side.name} has no level of {spec} left tonight: the {spec} specialisation gives no "
                        f"bonus Trait.", R_SPECIALISATION)
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
        side.standing_why.append(f"{side.name} wins ties in tests of strength (Puissance)")
    surprised = side.key is Outcome.DEFENDER and ch.surprised and not state.surprise_over
    if Power.FLEETNESS in con.powers and physical and con.lead is Lead.SPEED and not surprised:
        side.standing += 1
        side.standing_why.append(f"{side.name} wins ties in speed challenges (Fleetness)")
    if side.health is Health.WOUNDED and ch.category is not Category.VIRTUE:
        side.standing -= 1
        side.standing_why.append(f"{side.name} is Wounded and loses all ties")


def tell_totals(state: ChallengeState) -> None:
    """Explain, once, the Traits each character counts in ties and overbids, when its count is
    more than its Traits alone (002 "Ties")."""
    if state.totals_told:
        return
    state.totals_told = True
    for side in state.characters():
        if len(side.terms) > 1:
            state.steps.add(f"{side.name} counts {side.total} Traits for ties and overbids: "
                            f"{', '.join(side.terms)}.", R_TIES)
