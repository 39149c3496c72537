"""A side's strike and the body it lands on, for the rulings that apply damage (002 "Damage and Healing";
met-reference 3.4, 3.7): :func:`attack_of` is how his successful attack does damage, :func:`body_of` what damage
does to him. Read from a :class:`~larp.rules.rulings.people.Side` or :class:`~larp.rules.rulings.people.Person`
and the scene, as the one-on-one, the combat board, the stray shot and damage by hand all need them.
"""

from __future__ import annotations

from larp.rules.health import HealthTrack
from larp.rules.hits import Attack, Body
from larp.rules.rulings.people import Person, Side, carried_weapon, person_track
from larp.rules.scene import Scene, best_armor
from larp.rules.settings import ChronicleSettings


def attack_of(side: Side, action: str, scene: Scene) -> Attack:
    """How his successful attack does damage: the weapon he carries (or the card given),
    bare hands or a bite, with his Potence, Prowess's lethal choice, a head shot, the
    scene's range for Full-Auto, and a staking attempt with the simple tests thrown at the
    table (002 "Damage and Healing"; met-reference 3.4, 3.7)."""
    person, choice = side.person, side.choice
    key = carried_weapon(person, scene) if action == "weapon" else ""
    band = scene.range_for(person.name)
    return Attack(action=action, weapon=key or None, potence=person.discipline("Potence"),
                  lethal_by_prowess=choice.lethal_by_prowess and action in ("strike", "weapon"),
                  head_shot=choice.head_shot and action == "weapon",
                  close_range=band is not None and band.within_five_feet,
                  card=choice.card if action == "weapon" and not key else None,
                  stake=choice.stake and action == "weapon", high_caliber_test=choice.high_caliber_test,
                  staking_tests=tuple(choice.staking_tests), full_auto=choice.full_auto and action == "weapon")


def body_of(person: Person, scene: Scene, settings: ChronicleSettings, track: HealthTrack | None = None) -> Body:
    """What damage does to him: his kind, Fortitude, live track (``track`` when the caller has already
    read it with :func:`~larp.rules.rulings.people.person_track`), and the armor that counts (the scene's
    choice for this ruling, else what the sheet says he wears; armor does not stack, met-reference 3.7).

    Raises:
        RulesError: an unknown armor, or an impossible number of levels left.
    """
    worn = scene.side(person.name).armor
    piece = best_armor(person.armor if worn is None else worn)
    return Body(creature=person.creature, fortitude=person.discipline("Fortitude"),
                armor=(piece.piece or piece.armor) if piece else None,
                armor_left=piece.levels_left() if piece else None,
                track=person_track(person, settings) if track is None else track)
