"""A mass challenge from JSON-like data (the stateless API's input):
:func:`mass_challenge_from_dict`. Part of :mod:`larp.rules.mass_challenge`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from larp.rules.senses import sense_named
from larp.rules.challenge import (
    Category,
    contestant_from_dict,
    test_calls_from_list,
)
from larp.rules.challenge.parsing import names_of, refuse_unknown, throw_at
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.settings import ChronicleSettings

from larp.rules.hits import (
    _flag,
    _level,
    attack_from_dict,
    body_from_dict,
)
from larp.rules.mass_challenge.types import (
    Range,
    Attacker,
    Defender,
    MassChallenge,
)

# ----- JSON-like data in -----------------------------------------------------


def _names(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    return names_of(data.get(key, []), f"{where}.{key}")


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
        raise RulesError(Phrase.message(N_("The mass challenge must be an object.")), field="mass")
    refuse_unknown(data, {"defender", "attackers", "category", "sense"})
    raw_d = data.get("defender")
    if not isinstance(raw_d, Mapping):
        raise RulesError(Phrase.message(N_("Give the defender (the target) as an object.")), field="defender")
    raw_a = data.get("attackers")
    if not isinstance(raw_a, list) or not raw_a:
        raise RulesError(Phrase.message(N_("Give the attackers as a list.")), field="attackers")
    try:
        category = Category(str(data.get("category", "physical")).strip().lower())
    except ValueError:
        raise RulesError(Phrase.message(N_("The category is physical, social or mental.")), field="category") from None
    d_side = contestant_from_dict({k: v for k, v in raw_d.items() if k not in _DEFENDER_KEYS}, "defender")
    defender = Defender(
        side=d_side, throw=throw_at(raw_d, "throw", "defender.throw"),
        relents_to=_names(raw_d, "relents_to", "defender"),
        attack=None if raw_d.get("attack") is None else attack_from_dict(raw_d["attack"], "defender.attack"),
        injures=_names(raw_d, "injures", "defender"), celerity=_level(raw_d, "celerity", "defender", 5),
        body=body_from_dict(raw_d.get("body"), "defender.body", settings),
    )
    attackers = []
    for index, raw in enumerate(raw_a):
        where = f"attackers[{index}]"
        if not isinstance(raw, Mapping):
            raise RulesError(Phrase.message(N_("An attacker must be an object.")), field=where)
        side = contestant_from_dict({k: v for k, v in raw.items() if k not in _ATTACKER_KEYS}, where)
        try:
            rng_kind = Range(str(raw.get("range", "hand_to_hand")).strip().lower())
        except ValueError:
            raise RulesError(Phrase.message(N_("The range is hand_to_hand or ranged.")), field=f"{where}.range") from None
        attackers.append(Attacker(
            side=side, range=rng_kind,
            attack=attack_from_dict(raw.get("attack", {}), f"{where}.attack"),
            throw=throw_at(raw, "throw", f"{where}.throw"), tests=test_calls_from_list(raw.get("tests", []), f"{where}.tests"),
            strength=_flag(raw, "strength", where, True), celerity=_level(raw, "celerity", where, 5),
            body=body_from_dict(raw.get("body"), f"{where}.body", settings),
        ))
    return MassChallenge(defender=defender, attackers=tuple(attackers), category=category,
                         sense=sense_named(data.get("sense"), "sense"))
