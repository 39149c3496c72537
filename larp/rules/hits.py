"""A successful attack landing on a character in the live game: how the attacker's hit
does damage (:class:`Attack`), what damage does to the one hit (:class:`Body`), and
:func:`land_hit`, which runs the damage rules (card, Potence, firearms against vampires,
halving, Fortitude, armor) and marks the track (002 "Damage and Healing";
met-reference 3.5, 3.7, 4.1). Shared by every ruling that hurts someone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from larp.rules.calls import StrikeCalls
from larp.rules.challenge import (
    ChallengeRuling,
    Outcome,
    RandomSource,
    Weapon,
)
from larp.rules.damage import CREATURES, Armor, Damage, Strike, Target, damage_taken, strike_damage
from larp.rules.damage import weapon as armory_weapon
from larp.rules.explain import N_, Phrase, RulesError, Step, article, levels, phrase_step
from larp.rules.health import HealthTrack, new_track
from larp.rules.settings import ChronicleSettings
from larp.rules.simple_test import SimpleTest, simple_test_from_dict

_WEAPON_RULE = "LotNR weapons (met-reference 3.7)"


@dataclass(frozen=True)
class Attack(StrikeCalls):
    """How a fighter's successful attack does damage (002 "Damage and Healing"): his
    :class:`~larp.rules.calls.StrikeCalls` and the fields below.

    Attributes:
        action: ``"strike"`` (bare hands), ``"bite"`` or ``"weapon"``.
        weapon: a live armory key (``"knife"``, ``"pistol"``...), for ``"weapon"``.
        potence: the attacker's Potence level (Prowess 1; Puissance 5 adds a level).
        close_range: within five feet (Full-Auto adds a level; Mass-Trauma too, against one target).
        spread: the hit is one of a Spray's or a burst's several targets (no Mass-Trauma level).
        card: a weapon card given outright instead of an armory key (the stateless
            API's card): its levels and type are the damage, with no specials.
        stake: the attacker drives his Staking weapon at the heart: two simple tests won
            or tied after the hit stake a vampire (met-reference 3.7).
        high_caliber_test, staking_tests: those simple tests as thrown at the table
            (``None``, or fewer than two: drawn by the app, and recorded as drawn).
    """

    action: str = "strike"
    weapon: str | None = None
    potence: int = 0
    close_range: bool = False
    card: Weapon | None = None
    spread: bool = False
    stake: bool = False
    high_caliber_test: SimpleTest | None = None
    staking_tests: tuple[SimpleTest, ...] = ()

    def strike(self) -> Strike:
        """The damage rules' :class:`~larp.rules.damage.Strike` for a hit."""
        weapon = self.action == "weapon"
        return Strike(weapon=self.weapon if weapon else None, bite=self.action == "bite",
                      potence=self.potence, lethal_by_prowess=self.lethal_by_prowess,
                      head_shot=self.head_shot, close_range=self.close_range, spread=self.spread,
                      full_auto=self.full_auto and weapon, stake_attempt=self.stake and weapon, high_caliber_test=self.high_caliber_test,
                      staking_tests=tuple(self.staking_tests))


@dataclass(frozen=True)
class Body:
    """What damage does to a character (met-reference 3.5, 3.7, 4.1).

    Attributes:
        creature: ``"vampire"``, ``"ghoul"`` or ``"mortal"``.
        fortitude: Fortitude level (the damage rules read it).
        armor: a live armory key, a custom piece from the sheet, or ``None``.
        armor_left: health levels the armor has left (``None``: its full rating).
        track: the live health track with the damage already marked; ``None``
            for an unhurt character on the chronicle's track.
    """

    creature: str = "vampire"
    fortitude: int = 0
    armor: str | Armor | None = None
    armor_left: int | None = None
    track: HealthTrack | None = None




@dataclass(frozen=True)
class Hit:
    """A successful attack and what it did.

    Attributes:
        by, target: the names of the attacker and the one hit.
        action: ``"strike"``, ``"bite"`` or ``"weapon"``.
        weapon: the weapon card's name (``None`` bare-handed or biting).
        damage_type, levels: the damage dealt (card, bare hands, bite, plus
            Potence, Mass-Trauma...), before the target's kind, halving and armor.
        taken: the (damage type, levels) marked on the track.
        applied: ``False`` when the target (or the attacker) had dropped before
            this result came in the order; nothing was marked.
        condition: the target's condition afterwards.
        state: the target's health level afterwards.
        note: why a result was not applied.
        steps: how the damage was reached and marked.
        tests: the damage's simple tests (High-Caliber, Staking), drawn or thrown at the table.
    """

    by: str
    target: str
    action: str
    weapon: str | None
    damage_type: str
    levels: int
    taken: tuple[tuple[str, int], ...]
    applied: bool
    condition: str
    state: str
    note: str = ""
    steps: tuple[Step, ...] = ()
    tests: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"by": self.by, "target": self.target, "action": self.action, "weapon": self.weapon,
                "damage_type": self.damage_type, "levels": self.levels, "taken": [list(t) for t in self.taken],
                "applied": self.applied, "condition": self.condition, "state": self.state, "note": self.note,
                "steps": [s.to_dict() for s in self.steps], "tests": list(self.tests)}




def armor_key(armor: str | Armor | None) -> str | None:
    """The key of the armor worn (a custom piece's own key), for the consequences."""
    return armor.key if isinstance(armor, Armor) else armor


def weapon_card(key: str, where: str) -> Weapon:
    """The challenge's weapon card for the live armory key ``key``: bonus Traits, damage, whether
    it is fired or thrown (anything not a melee weapon), its specials and Negative Traits
    (met-reference 3.7).

    Raises:
        RulesError: no such weapon; ``field`` is ``where``.
    """
    try:
        card = armory_weapon(key, "live")
    except RulesError:
        raise RulesError(Phrase.message(N_("There is no weapon %(key)s in the armory."), key=repr(key)),
                         field=where) from None
    return Weapon(card.name, card.bonus_traits, card.damage_type, card.damage, ranged=not card.melee,
                  specials=tuple(card.specials), negative_traits=tuple(card.negative_traits))


def track_of(body: Body, settings: ChronicleSettings, name: str, where: str) -> HealthTrack:
    """``body``'s track, or an unhurt one on the chronicle's levels.

    Raises:
        RulesError: an unknown creature, or a track whose creature differs.
    """
    if body.creature not in CREATURES:
        raise RulesError(Phrase.message(N_("%(name)s: unknown creature %(creature)s (vampire, ghoul or mortal)."),
                                        name=name, creature=repr(body.creature)),
                         field=f"{where}.creature")
    if body.track is None:
        return new_track(body.creature, settings)
    if body.track.creature != body.creature:
        raise RulesError(Phrase.message(N_("%(name)s's track is a %(creature)s's, not a %(creature2)s's."),
                                        name=name, creature=body.track.creature, creature2=body.creature),
                         field=f"{where}.creature")
    return body.track


def can_fight(track: HealthTrack) -> bool:
    """Still in the fight: active and above Incapacitated (LotNR Health, met-reference 4.1)."""
    return track.condition == "active" and track.marked < track.size - 1


def damage_as_dealt(ruling: ChallengeRuling, dealt: Mapping[Outcome, Hit]) -> ChallengeRuling:
    """``ruling`` with each ``damage`` entry giving the levels its hit dealt (``dealt``: the hit on
    each side): the card with its additions (Puissance, Mass-Trauma, Full-Auto, High-Caliber), the
    number the ruling's hits show, never the bare card beside it (met-reference 3.4, 3.7). A hit that
    was not applied (the target had dropped) leaves the entry as the card says."""
    damage = []
    for entry in ruling.damage:
        hit = dealt.get(entry.target)
        if hit is None or not hit.applied or hit.levels == entry.levels:
            damage.append(entry)
        else:
            damage.append(replace(entry, levels=hit.levels, rule=f"{entry.rule} with its additions"))
    return replace(ruling, damage=tuple(damage))


def land_hit(by: str, attack: Attack, target: str, body: Body, track: HealthTrack, armor_left: int | None,
             settings: ChronicleSettings, rng: RandomSource | None) -> tuple[Hit, HealthTrack, int | None]:
    """Apply one successful attack: the damage rules, then the health track.

    :func:`~larp.rules.damage.strike_damage` (card, bare hands, bite, Potence,
    Mass-Trauma, Full-Auto, High-Caliber), :func:`~larp.rules.damage.damage_taken`
    (firearms against vampires, halving, armor) and the track (002 "Damage and
    Healing"; met-reference 3.7, 4.1).

    Returns:
        The hit, the new track and the armor levels left.

    Raises:
        RulesError: an impossible attack (Prowess without Potence...).
    """
    if attack.action == "weapon" and attack.weapon is None and attack.card is not None:
        card = attack.card
        template = (N_("%(name)s hits with an %(weapon)s: %(levels)s of %(kind)s damage by its card.")
                    if article(card.name).startswith("an ") else
                    N_("%(name)s hits with a %(weapon)s: %(levels)s of %(kind)s damage by its card."))
        damage = Damage(levels=card.levels, damage_type=card.damage_type, steps=(phrase_step(
            template, _WEAPON_RULE, name=by, weapon=Phrase.term(card.name), levels=levels(card.levels),
            kind=Phrase.term(card.damage_type)),))
        name = card.name
    else:
        damage = strike_damage(attack.strike(), settings, rng, who=by)
        name = armory_weapon(attack.weapon, "live").name if attack.action == "weapon" and attack.weapon else None
    taken = damage_taken(damage, Target(body.creature, body.fortitude, body.armor, armor_left), settings,
                         who=target)
    applied = taken.apply_to(track, settings, target)
    hit = Hit(by, target, attack.action, name, damage.damage_type, damage.levels, taken.parts, True,
              applied.track.condition, applied.track.state(), "", applied.steps, tuple(damage.tests_dict()))
    return hit, applied.track, taken.armor_left


def _flag(data: Mapping[str, Any], key: str, where: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise RulesError(Phrase.message(N_("Give true or false.")), field=f"{where}.{key}")
    return value


def _level(data: Mapping[str, Any], key: str, where: str, high: int = 10) -> int:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise RulesError(Phrase.message(N_("Give a whole number from 0 to %(high)s."), high=high),
                         field=f"{where}.{key}")
    return value




def attack_from_dict(data: Any, where: str, rng: RandomSource | None = None) -> Attack:
    """Read an :class:`Attack` (keys as its attributes; the simple tests as objects
    ``{"player": "rock", "narrator": "random"}``, a throw left out drawn from ``rng``).

    Raises:
        RulesError: a malformed value, naming the field.
    """
    if not isinstance(data, Mapping):
        raise RulesError(Phrase.message(N_("Give the attack as an object (action, weapon...).")), field=where)
    unknown = sorted(set(data) - (set(Attack.__dataclass_fields__) - {"card"}))
    if unknown:
        raise RulesError(Phrase.message(N_("Unknown field %(value)s."), value=repr(unknown[0])),
                         field=f"{where}.{unknown[0]}")
    staking = data.get("staking_tests") or []
    if not isinstance(staking, list) or len(staking) > 2:
        raise RulesError(Phrase.message(N_("Give at most the two staking tests, as objects {player, narrator}.")),
                         field=f"{where}.staking_tests")
    weapon = data.get("weapon")
    if weapon is not None and (not isinstance(weapon, str) or not weapon.strip()):
        raise RulesError(Phrase.message(N_("Give a live armory key (knife, pistol...).")), field=f"{where}.weapon")
    action = data.get("action", "weapon" if weapon else "strike")
    if not isinstance(action, str):
        raise RulesError(Phrase.message(N_("The action is strike, bite or weapon.")), field=f"{where}.action")
    return Attack(action=action.strip().lower(), weapon=weapon.strip() if weapon else None,
                  potence=_level(data, "potence", where, 10),
                  lethal_by_prowess=_flag(data, "lethal_by_prowess", where),
                  head_shot=_flag(data, "head_shot", where), close_range=_flag(data, "close_range", where),
                  stake=_flag(data, "stake", where), full_auto=_flag(data, "full_auto", where),
                  high_caliber_test=simple_test_from_dict(data.get("high_caliber_test"),
                                                          f"{where}.high_caliber_test", rng),
                  staking_tests=tuple(simple_test_from_dict(t, f"{where}.staking_tests[{i}]", rng)
                                      for i, t in enumerate(staking)))


def body_from_dict(data: Any, where: str, settings: ChronicleSettings | None = None) -> Body:
    """Read a :class:`Body`: ``creature``, ``fortitude``, ``armor``, ``armor_left`` and the
    damage already marked (``bashing``, ``lethal``, ``aggravated``) on the chronicle's track.

    Raises:
        RulesError: a malformed value, or more damage than the track holds.
    """
    if data is None:
        return Body()
    if not isinstance(data, Mapping):
        raise RulesError(Phrase.message(N_("Give the body as an object (creature, damage...).")), field=where)
    known = {"creature", "fortitude", "armor", "armor_left", "bashing", "lethal", "aggravated"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise RulesError(Phrase.message(N_("Unknown field %(value)s."), value=repr(unknown[0])),
                         field=f"{where}.{unknown[0]}")
    creature = data.get("creature", "vampire")
    if creature not in CREATURES:
        raise RulesError(Phrase.message(N_("The creature is vampire, ghoul or mortal.")), field=f"{where}.creature")
    armor = data.get("armor")
    if armor is not None and not isinstance(armor, str):
        raise RulesError(Phrase.message(N_("Give a live armory key.")), field=f"{where}.armor")
    armor_left = data.get("armor_left")
    if armor_left is not None and (isinstance(armor_left, bool) or not isinstance(armor_left, int)):
        raise RulesError(Phrase.message(N_("Give a whole number.")), field=f"{where}.armor_left")
    counts = {k: _level(data, k, where, 20) for k in ("bashing", "lethal", "aggravated")}
    track = None
    if any(counts.values()):
        try:
            track = replace(new_track(creature, settings), **counts)
        except RulesError as exc:
            raise RulesError(exc.message, field=f"{where}.{exc.field}") from None
    return Body(creature, _level(data, "fortitude", where, 5), armor, armor_left, track)


