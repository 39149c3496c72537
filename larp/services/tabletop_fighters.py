"""A stored character as a tabletop fighter, and the gear he may carry (issues 9 and 37).

:func:`fighter_for` builds the rules core's :class:`~larp.rules.tabletop.combat.Fighter` from the sheet;
:func:`gear_choices` and :func:`check_gear` are the tabletop armory as the narrator picks from it.
The combat turn itself is :mod:`larp.services.tabletop`.
"""

from __future__ import annotations

from typing import Any, Mapping

from larp.models import Character
from larp.rules.conversion import tabletop_ratings
from larp.rules.damage import armory
from larp.rules.explain import N_, Phrase
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.combat import Fighter
from larp.services import ServiceError
from larp.services.characters import CharacterState, character_state
from larp.services.torpor_records import tabletop_morality


def fighter_for(character: Character, settings: ChronicleSettings, gear: Mapping[str, Any] | None = None,
                state: CharacterState | None = None) -> Fighter:
    """The stored ``character`` as a tabletop :class:`Fighter` (tabletop dots, the same
    Abilities, Disciplines and health track as the live game).

    Discipline dots are the highest power level held. Attributes and Willpower are the sheet's
    tabletop dots; those it lacks are converted from his Traits by the rules core
    (:func:`larp.rules.conversion.tabletop_ratings`, LotNR Converting Characters,
    met-reference 4.3) and the fighter says which (``converted``). His Humanity or Path (MET Traits,
    and dots when the sheet has them) sets the length of a torpor an attack begins (met-reference 5.2).
    ``state``: his state as the caller loaded it (default: read now).
    """
    state = state or character_state(character, None, settings)
    gear = gear or {}
    ratings = tabletop_ratings(dict(character.tabletop or {}), {cat: state.total(cat) for cat in state.traits},
                               character.morality_rating, character.willpower_permanent, character.morality_name)
    return Fighter(
        key=str(character.id), name=character.name, track=state.health,
        attributes=ratings.attributes, abilities={a.name: a.level for a in state.abilities},
        disciplines={d: state.discipline_level(d) for d in state.powers},
        powers=tuple(name for held in state.powers.values() for _, name in held),
        weapon=gear.get("weapon") or None, armor=gear.get("armor") or None,
        helmet=gear.get("helmet") or None, shield=gear.get("shield") or None,
        generation=character.generation, blood=character.blood_current if state.health.is_vampire else None,
        willpower=ratings.willpower, willpower_points=character.willpower_current,
        converted=tuple(c for c in ratings.converted if not c.startswith(character.morality_name)),
        morality=character.morality_rating, tabletop_morality=tabletop_morality(character),
    )


def gear_choices() -> dict[str, list[tuple[str, str]]]:
    """The tabletop weapons, body armor, helmets and shields to choose from: key and name
    (helmets and shields apart from body armor, 004 "Armor")."""
    arms = armory("tabletop")
    return {"weapons": [(k, w.name) for k, w in arms.weapons.items()],
            "armor": [(k, a.name) for k, a in arms.armor.items()],
            "helmets": [(k, a.name) for k, a in arms.helmets.items()],
            "shields": [(k, a.name) for k, a in arms.shields.items()]}


#: The gear a tabletop fighter carries, in the order it is checked: the key chosen, the armory's list of it,
#: the refusal when the armory lacks it (with its placeholder's name) and the field that refusal names.
_GEAR_PARTS = (
    ("weapon", "weapons", N_("There is no tabletop weapon %(weapon)s."), "weapon", "weapon"),
    ("armor", "armor", N_("There is no tabletop armor %(worn)s."), "worn", "armor"),
    ("helmet", "helmets", N_("There is no tabletop helmet %(helmet)s."), "helmet", "armor"),
    ("shield", "shields", N_("There is no tabletop shield %(shield)s."), "shield", "armor"),
)


def check_gear(gear: Mapping[str, Any], key: str) -> dict[str, str | None]:
    """The gear a narrator chose for fighter ``key`` (weapon, body armor, helmet, shield: keys of the
    tabletop armory, 004 "Weapons" and "Armor"), checked; a helmet or shield only when chosen.

    Raises:
        ServiceError: 422 naming ``<key>.weapon`` or ``<key>.armor`` for gear the armory lacks.
    """
    arms = armory("tabletop")
    chosen = {}
    for part, kind, refusal, said_as, field in _GEAR_PARTS:
        value = (gear.get(part) or "").strip() or None
        if value is not None and value not in getattr(arms, kind):
            raise ServiceError(Phrase.message(refusal, **{said_as: repr(value)}), field=f"{key}.{field}")
        chosen[part] = value
    return {part: value for part, value in chosen.items() if value or part in ("weapon", "armor")}
