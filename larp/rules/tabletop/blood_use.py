"""Blood burnt in a tabletop combat to raise Physical Attributes (issue 37 item 8; 004 "Spend
Blood"). Celerity's blood is :func:`larp.rules.tabletop.actions.celerity_blood`, paid when the
actions are declared.

Rules:
    - A vampire burns blood reflexively, up to his generation's limit of blood points a turn, to
      raise his Physical Attributes (Strength, Dexterity, Stamina), one dot a blood point (004
      "Spend Blood"), for the scene, so for the rest of the combat; no Attribute goes above his
      generation's maximum (``data/tabletop_generation.toml``: the generation chart the seeds name
      without reproducing it).
    - Blood for Celerity ignores the generation's limit (004 "Activate Celerity") and is not counted
      against it. Healing with blood in the same turn counts against the same limit (004): the
      combat's ``carried.blood_spent`` is where a tabletop healing step adds it (wiring pending).
    - Ghouls and mortals burn no blood for Attributes here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, blood_points
from larp.rules.tabletop.carried import PHYSICAL
from larp.rules.tabletop.combatants import Fighter
from larp.rules.tabletop.turn import Combat, said_text
from larp.tables import TableError, load_toml, require

R_BLOOD = '004 "Spend Blood"'
DEFAULT_GENERATION = 13


@dataclass(frozen=True)
class GenerationLimits:
    """A generation's limits at the tabletop: blood points a turn and the highest an Attribute
    may reach (``data/tabletop_generation.toml``)."""

    generation: int
    blood_per_turn: int
    attribute_max: int


@lru_cache(maxsize=None)
def generation_limits_table() -> Mapping[int, GenerationLimits]:
    """The tabletop generation chart, loaded once from ``data/tabletop_generation.toml``.

    Raises:
        TableError: a malformed row (names the file and the row).
    """
    rows: dict[int, GenerationLimits] = {}
    for index, entry in enumerate(load_toml("tabletop_generation.toml").get("generation", [])):
        where = f"data/tabletop_generation.toml generation[{index}]"
        row = GenerationLimits(require(entry, "generation", int, where), require(entry, "blood_per_turn", int, where),
                               require(entry, "attribute_max", int, where))
        if row.blood_per_turn < 1 or not 5 <= row.attribute_max <= 10:
            raise TableError(f"{where}: blood_per_turn at least 1, attribute_max 5 to 10")
        rows[row.generation] = row
    if DEFAULT_GENERATION not in rows:
        raise TableError(f"data/tabletop_generation.toml: no row for the {DEFAULT_GENERATION}th generation")
    return MappingProxyType(rows)


def generation_limits(generation: int | None) -> GenerationLimits:
    """The limits of ``generation`` (``None``: the 13th, a vampire's generation when none is given;
    past the chart's last row, its last row).

    Raises:
        RulesError: a generation below the chart's first row (field ``generation``).
    """
    table = generation_limits_table()
    generation = DEFAULT_GENERATION if generation is None else generation
    if generation in table:
        return table[generation]
    if generation > max(table):
        return table[max(table)]
    raise RulesError(Phrase.message(N_("The tabletop generation chart starts at the %(value)srd generation."),
                                    value=min(table)), field="generation")


@dataclass(frozen=True)
class BloodRuling:
    """Blood burnt to raise Physical Attributes.

    Attributes:
        blood: blood points burnt now.
        raised: Attribute -> its rating now, blood included.
        steps: the explanation.
    """

    blood: int
    raised: Mapping[str, int]
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"blood": self.blood, "raised": dict(self.raised), "steps": [s.to_dict() for s in self.steps]}


def spend_blood_on_attributes(combat: Combat, fighter: Fighter,
                              raises: Mapping[str, int]) -> tuple[Combat, BloodRuling]:
    """``fighter`` burns blood to raise Physical Attributes for the rest of the scene, one dot a blood
    point, within his generation's limit a turn and its Attribute maximum (004 "Spend Blood").

    Args:
        raises: Attribute ("Strength", "Dexterity", "Stamina") -> dots to add now.

    Raises:
        RulesError: not a vampire; an Attribute that is not Physical or a raise below 1; more blood
            than he has, or than his generation lets him spend this turn; an Attribute above his
            generation's maximum (fields ``raises.<Attribute>``, ``blood``).
    """
    if fighter.creature != "vampire":
        raise RulesError(Phrase.message(N_("%(name)s is a %(creature)s: only vampires burn blood for their "
                                           "Attributes."), name=fighter.name, creature=fighter.creature),
                         field="raises")
    if not raises:
        raise RulesError(Phrase.message(N_("Say which Physical Attributes to raise, and by how much.")),
                         field="raises")
    limits = generation_limits(fighter.generation)
    steps = Explanation()
    raised: dict[str, int] = {}
    boosts = dict(combat.carried.boosts.get(fighter.key, {}))
    total = 0
    for name, dots in raises.items():
        attribute = next((a for a in PHYSICAL if a.lower() == str(name).strip().lower()), None)
        if attribute is None:
            raise RulesError(Phrase.message(N_("Blood raises only Physical Attributes (%(value)s)."),
                                            value=', '.join(PHYSICAL)), field=f"raises.{name}")
        if isinstance(dots, bool) or not isinstance(dots, int) or dots < 1:
            raise RulesError(Phrase.message(N_("Raise an Attribute by a whole number of dots, at least 1.")),
                             field=f"raises.{name}")
        base = fighter.attribute(attribute) + boosts.get(attribute, 0)
        if base + dots > limits.attribute_max:
            raise RulesError(Phrase.message(N_("%(name)s's %(attribute)s would reach %(value)s; the "
                                               "%(generation)sth generation's maximum is %(attribute_max)s "
                                               "(%(cited)s)."),
                                            name=fighter.name, attribute=attribute, value=base + dots, generation=limits.generation, attribute_max=limits.attribute_max, cited=R_BLOOD),
                             field=f"raises.{name}")
        boosts[attribute] = boosts.get(attribute, 0) + dots
        raised[attribute] = base + dots
        total += dots
        steps.add(N_("%(name)s burns %(blood)s: %(attribute)s %(before)s -> %(after)s for the scene."), R_BLOOD,
                  name=fighter.name, blood=blood_points(dots), attribute=Phrase.term(attribute), before=base,
                  after=base + dots)
    spent = combat.carried.blood_spent.get(fighter.key, 0)
    if spent + total > limits.blood_per_turn:
        raise RulesError(Phrase.message(N_("The %(generation)sth generation burns at most %(blood)s a turn; %(name)s "
                                           "has burnt %(spent)s this turn (%(cited)s)."), generation=limits.generation,
                                        blood=Phrase.counted(limits.blood_per_turn, "%(n)s blood point",
                                                             "%(n)s blood points"),
                                        name=fighter.name, spent=spent, cited=R_BLOOD), field="blood")
    if fighter.blood is not None and total > fighter.blood:
        raise RulesError(Phrase.message(N_("%(name)s has %(blood)s, not %(total)s."), name=fighter.name,
                                        blood=Phrase.counted(fighter.blood, "%(n)s blood point", "%(n)s blood points"),
                                        total=total), field="blood")
    carried = combat.carried
    carried = replace(carried, boosts=MappingProxyType({**carried.boosts, fighter.key: MappingProxyType(boosts)}),
                      blood_spent=MappingProxyType({**carried.blood_spent, fighter.key: spent + total}))
    combat = replace(combat, carried=carried, log=combat.log + tuple(said_text(s) for s in steps.steps()))
    return combat, BloodRuling(total, MappingProxyType(raised), steps.steps())


def boosted(fighter: Fighter, combat: Combat) -> Fighter:
    """``fighter`` with the Physical Attributes his blood raised this scene (004 "Spend Blood"), as
    every roll of the combat counts them."""
    boosts = combat.carried.boosts.get(fighter.key)
    if not boosts:
        return fighter
    attributes = dict(fighter.attributes)
    for name, dots in boosts.items():
        key = next((k for k in attributes if k.lower() == name.lower()), name)
        attributes[key] = attributes.get(key, 0) + dots
    return replace(fighter, attributes=MappingProxyType(attributes))
