"""The rulings of the live game, each with every consequence: one entry point per kind.

The one composition path (``../shared/engineering/house-style.md``): a service
loads the characters as they stand tonight (:class:`Person`), says what each side
does (:class:`Choice`) and in what scene (:class:`larp.rules.scene.Scene`), calls ONE
entry point, and writes the :class:`Consequences` it returns. The stateless API
builds the same inputs from JSON (:mod:`.parsing`) and calls the same entry point,
so a rule fixed here is fixed for every screen and endpoint.

- :func:`rule_one_on_one`: a contested challenge between two characters;
- :func:`rule_static`: a static challenge or a simple test against a narrator;
- :func:`rule_mass_challenge`: a mass challenge, each pair judged in order;
- :func:`rule_firing_into_groups`: a missed shot, each bystander's test;
- :func:`rule_damage_by_hand`: damage a narrator applies by hand;
- :func:`rule_healing`: a vampire heals with blood (live game or tabletop);
- :func:`rule_feeding`, :func:`rule_given_blood`, :func:`rule_blood_called_for`: a vampire feeds on a
  victim, is given blood, or the rules call for blood he may not have.
"""

from __future__ import annotations

from larp.rules.rulings.blood import BloodRuling, rule_blood_called_for, rule_feeding, rule_given_blood
from larp.rules.rulings.by_hand import DamageEntered, HandDamage, HandRuling, rule_damage_by_hand
from larp.rules.rulings.firing_into_groups import BystanderSide, FiringIntoGroupsCall, FiringIntoGroupsRuling, rule_firing_into_groups
from larp.rules.rulings.consequences import Consequence, Consequences
from larp.rules.rulings.healing import rule_healing
from larp.rules.rulings.mass_challenge import MassChallengeCall, MassAttacker, MassChallengeRuling, MassTarget, rule_mass_challenge
from larp.rules.rulings.one_on_one import OneOnOne, OneOnOneRuling, rule_one_on_one, rule_static
from larp.rules.rulings.people import Choice, Person, Side

__all__ = [
    "BloodRuling", "rule_blood_called_for", "rule_feeding", "rule_given_blood", "rule_healing",
    "BystanderSide", "Choice", "Consequence", "Consequences", "DamageEntered", "HandDamage", "HandRuling", "MassChallengeCall", "MassAttacker",
    "MassChallengeRuling", "MassTarget", "OneOnOne", "OneOnOneRuling", "Person", "Side", "FiringIntoGroupsCall", "FiringIntoGroupsRuling",
    "rule_firing_into_groups", "rule_damage_by_hand", "rule_mass_challenge", "rule_one_on_one", "rule_static",
]
