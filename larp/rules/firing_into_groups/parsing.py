"""A missed shot into a group from JSON-like data (the stateless API's input):
:func:`shot_into_group_from_dict`. Part of :mod:`larp.rules.firing_into_groups`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from larp.rules.senses import sense_named
from larp.rules.challenge import (
    contestant_from_dict,
    test_calls_from_list,
)
from larp.rules.challenge.parsing import flag_of, names_of, refuse_unknown, throw_at
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.numbers import enum_value
from larp.rules.scene import RangeBand
from larp.rules.mass_challenge import (
    body_from_dict,
)
from larp.rules.settings import ChronicleSettings

from larp.rules.firing_into_groups.types import (
    Bystander,
    ShotIntoGroup,
)

def shot_into_group_from_dict(data: Mapping[str, Any], settings: ChronicleSettings | None = None) -> ShotIntoGroup:
    """Read a missed shot into a group from JSON-like data (the stateless API's input).

    Keys as :class:`ShotIntoGroup`; ``firer`` and each bystander are objects with
    the keys of :class:`~larp.rules.challenge.Contestant`, a bystander adding
    ``throw``, ``firer_throw``, ``saw_it_coming``, ``tests`` and ``body``
    (``{"creature": "mortal", "lethal": 1}``). Example, a pistol's stray round::

        {"firer": {"name": "Ruth", "traits": 3, "bid": ["Steady", "Quick"]},
         "weapon": "pistol", "target": "Konrad",
         "bystanders": [{"name": "Pim", "traits": 2, "bid": ["Nimble"], "throw": "paper",
                         "firer_throw": "rock"},
                        {"name": "Lys", "traits": 7, "bid": ["Quick"], "throw": "rock",
                         "firer_throw": "paper", "saw_it_coming": true}]}

    Raises:
        RulesError: a missing or malformed value, naming the field.
    """
    if not isinstance(data, Mapping):
        raise RulesError(Phrase.message(N_("The shot must be an object.")), field="shot")
    refuse_unknown(data, ShotIntoGroup.__dataclass_fields__)
    if not isinstance(data.get("firer"), Mapping):
        raise RulesError(Phrase.message(N_("Give the firer as an object.")), field="firer")
    raw_b = data.get("bystanders")
    if not isinstance(raw_b, list) or not raw_b:
        raise RulesError(Phrase.message(N_("Give the people near the target as a list, closest first.")),
                         field="bystanders")
    bystanders = []
    own = {"throw", "firer_throw", "saw_it_coming", "tests", "body"}
    for index, raw in enumerate(raw_b):
        where = f"bystanders[{index}]"
        if not isinstance(raw, Mapping):
            raise RulesError(Phrase.message(N_("A bystander must be an object.")), field=where)
        saw = flag_of(raw.get("saw_it_coming", False), f"{where}.saw_it_coming")
        bystanders.append(Bystander(
            side=contestant_from_dict({k: v for k, v in raw.items() if k not in own}, where),
            throw=throw_at(raw, "throw", f"{where}.throw"),
            firer_throw=throw_at(raw, "firer_throw", f"{where}.firer_throw"),
            saw_it_coming=saw,
            tests=test_calls_from_list(raw.get("tests", []), f"{where}.tests"),
            body=body_from_dict(raw.get("body"), f"{where}.body", settings),
        ))
    flags = {key: flag_of(data.get(key, default), key)
             for key, default in (("bursts", True), ("careful_aim", False), ("close_range", False),
                                  ("deliberate_spray", False))}
    names = {key: names_of(data.get(key, []), key) for key in ("extra_traits", "excluded")}
    weapon = data.get("weapon")
    if not isinstance(weapon, str) or not weapon.strip():
        raise RulesError(Phrase.message(N_("Give the gun's live armory key (pistol, shotgun, smg...).")), field="weapon")
    target = data.get("target")
    if not isinstance(target, str):
        raise RulesError(Phrase.message(N_("Name the target the shot missed.")), field="target")
    band = None if data.get("range") in (None, "") else enum_value(RangeBand, data["range"], "range")
    return ShotIntoGroup(
        firer=contestant_from_dict(data["firer"], "firer"), weapon=weapon.strip(), target=target,
        bystanders=tuple(bystanders),
        firer_throw=throw_at(data, "firer_throw", "firer_throw"),
        range=band, sense=sense_named(data.get("sense"), "sense"), **flags, **names,
    )
