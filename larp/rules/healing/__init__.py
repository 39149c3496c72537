"""Healing: vampires with blood, mortals with time (002 "Damage and Healing"; 000 "Mortal's Healing Times").

Vampires (seed 002):
- Healing is reflexive: the player chooses when, and which type, until the
  vampire is incapacitated or unconscious; then it happens automatically, in
  the order bashing, lethal, aggravated (:func:`heal_automatically`).
- One blood point heals two levels of bashing or one of lethal damage
  (:func:`heal_with_blood`); blood spent in a turn is limited by generation
  (the sheet's blood per turn), so healing may take several turns.
- Aggravated damage heals one level a night for three blood points and one
  temporary Willpower (:func:`heal_aggravated`); the chronicle setting
  ``agg_heal_model`` offers LotNR ch.3 and the tabletop rule instead.
- An incapacitated, unconscious or torpid vampire swallows blood placed in his
  mouth until his pool is full (:func:`swallow_blood`).
- A vampire in torpor may not spend blood (000 "Torpor"), nor may a staked one
  (000 "Stake Through Heart").

Mortals heal by time, each level on its own, lowest first (:func:`mortal_healing_time`).

All functions are pure: old track in, new track out.

The package: :mod:`.vampires` (blood, aggravated damage, swallowing), :mod:`.mortals` (time),
:mod:`.between` (aggravated healing between game sessions). Every public name is importable
from ``larp.rules.healing``.
"""

from __future__ import annotations

from larp.rules.healing.between import AggravatedPlan, plan_aggravated_healing
from larp.rules.healing.mortals import (
    LevelHealing,
    MortalHealing,
    heal_mortal_over,
    mortal_healing_table,
    mortal_healing_time,
)
from larp.rules.healing.vampires import (
    AGG_MODELS,
    HEALING_ORDER,
    LEVELS_PER_BLOOD,
    TABLETOP_PER_BLOOD,
    AggravatedCost,
    BloodSwallowed,
    HealingRuling,
    agg_heal_reading,
    agg_model,
    aggravated_healing_cost,
    first_to_heal,
    heal_aggravated,
    heal_automatically,
    heal_with_blood,
    mark_aggravated_blood,
    swallow_blood,
)

__all__ = [
    "AGG_MODELS", "HEALING_ORDER", "LEVELS_PER_BLOOD", "TABLETOP_PER_BLOOD", "AggravatedCost", "AggravatedPlan", "BloodSwallowed", "HealingRuling",
    "LevelHealing", "MortalHealing", "agg_heal_reading", "agg_model", "aggravated_healing_cost", "first_to_heal", "heal_aggravated", "heal_automatically",
    "heal_mortal_over", "heal_with_blood", "mark_aggravated_blood", "mortal_healing_table", "mortal_healing_time",
    "plan_aggravated_healing", "swallow_blood",
]
