"""Damage in the live game: what a strike inflicts and what the target takes.

Two steps, each a pure function with its explanation:

1. :func:`strike_damage`: the attack's damage from the armory card, bare hands
   or a bite, and the additions (Puissance, Mass-Trauma, Full-Auto,
   High-Caliber), and whether a stake went home (Staking).
2. :func:`damage_taken`: what the target takes: the damage type against his
   kind (firearms against vampires, aggravated against mortals), vampires'
   halving of bashing damage, Fortitude's Resilience and Resistance, and armor.

Then :meth:`DamageRuling.apply_to` marks it on the track with
:func:`larp.rules.health.apply_damage`. The tabletop soak roll is in
:mod:`larp.rules.soak`.

Weapons and armor are data (``data/armory.toml``): the LotNR cards for the
live game, the 000 charts for the tabletop profile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from larp.rules.calls import StrikeCalls
from larp.rules.challenge import RandomSource
from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, article, damage_list, phrase_step
from larp.rules.explain import levels as levels_of
from larp.rules.fortitude import FortitudeTest, resilience, resist
from larp.rules.health import DAMAGE_TYPES, HealthRuling, HealthTrack, apply_damage
from larp.rules.settings import ChronicleSettings
from larp.rules.simple_test import SimpleTest

from larp.rules.armory import (  # noqa: F401 - the armory's names are importable from here too
    ARMOR_COVERS,
    CREATURES,
    PROFILES,
    SOURCES,
    WEAPON_SPECIALS,
    Armor,
    Armory,
    Weapon,
    armor,
    armory,
    weapon,
)

_DAMAGE_RULE = '002 "Damage and Healing"'
_WEAPON_RULE = "LotNR weapons (met-reference 3.7)"

# ---------------------------------------------------------------- damage type by target

#: How firearms hurt vampires, by the setting ``firearms_against_vampires``'s readings.
FIREARM_READINGS = ("house_002", "lotnr", "tabletop_charts")
_FIREARM_RULES = {
    "house_002": _DAMAGE_RULE,
    "lotnr": "LotNR weapons (met-reference 3.7, T5)",
    "tabletop_charts": '000 "Applying Damage"; 000 "Bashing Damage"',
}


def firearm_reading(settings: ChronicleSettings | None, game: str = "live") -> str:
    """The reading of firearms against vampires in force for ``game`` ("live" or "tabletop"):
    the setting ``firearms_against_vampires``; its default ``by_profile`` keeps seed 002's rule
    in the live game and the tabletop charts' at the tabletop (000 "Applying Damage")."""
    settings = settings or ChronicleSettings.defaults()
    value = settings["firearms_against_vampires"]
    if value == "by_profile":
        return "tabletop_charts" if game == "tabletop" else "house_002"
    return value


def damage_type_against(damage_type: str, creature: str, *, bashing_vs_kindred: bool = False,
                        firearm: bool = False, head_shot: bool = False, source: str = "other",
                        who: str = "The target", firearm_rule: str = "house_002") -> tuple[str | None, tuple[Step, ...]]:
    """The type of damage ``creature`` takes from an attack of ``damage_type``.

    Rules:
        - Against vampires, firearms do bashing damage unless aimed at the head,
          then lethal (002 "Damage and Healing"; 000 "Applying Damage"); so does
          the tabletop crossbow unless aimed at the head or heart (000 "Ranged
          Weapons Chart"). Against mortals, firearms are lethal.
        - Mortals and ghouls take aggravated damage as lethal (001 "Aggravated
          Damage"; 000: fire is treated as lethal), and sunlight does not harm
          them (000 "Aggravated Damage").

    Args:
        damage_type: the attack's type (a weapon card's type against mortals).
        creature: "vampire", "ghoul" or "mortal".
        bashing_vs_kindred: the weapon is a firearm or crossbow.
        firearm: the weapon is a firearm (for the explanation).
        head_shot: the attack was aimed at the head (or the heart, for a crossbow).
        source: "other", "fire" or "sunlight".
        firearm_rule: the reading of firearms against vampires (:func:`firearm_reading`):
            ``lotnr`` keeps the card's type (bullets are lethal, met-reference 3.7).

    Returns:
        The type taken, or ``None`` when the attack cannot harm ``creature``; and the steps.

    Raises:
        RulesError: an unknown damage type, creature or source.
    """
    if damage_type not in DAMAGE_TYPES:
        raise RulesError(Phrase.message(N_("Unknown damage type %(value)s."), value=repr(damage_type)), field="damage_type")
    if creature not in CREATURES:
        raise RulesError(Phrase.message(N_("Unknown creature %(value)s."), value=repr(creature)), field="creature")
    if source not in SOURCES:
        raise RulesError(Phrase.message(N_("Unknown damage source %(source)s (%(value)s)."),
                                        source=repr(source), value=', '.join(SOURCES)), field="source")
    steps = Explanation()
    what = Phrase.message(N_("firearms") if firearm else N_("this weapon"))
    if creature == "vampire":
        if firearm and firearm_rule == "lotnr" and damage_type != "aggravated":
            steps.add(N_("Against a vampire firearms do their card's %(kind)s damage (Laws of the Night)."),
                      _FIREARM_RULES["lotnr"], setting="firearms_against_vampires", kind=Phrase.term(damage_type))
            return damage_type, steps.steps()
        if bashing_vs_kindred and damage_type != "aggravated":
            rule = _FIREARM_RULES.get(firearm_rule, _DAMAGE_RULE) if firearm else _DAMAGE_RULE
            setting = "firearms_against_vampires" if firearm else None
            if head_shot:
                steps.add(N_("Aimed at the head, %(what)s do lethal damage to a vampire."), rule, setting=setting,
                          what=what)
                return "lethal", steps.steps()
            steps.add(N_("Against a vampire %(what)s do bashing damage (not aimed at the head)."), rule,
                      setting=setting, what=what)
            return "bashing", steps.steps()
        return damage_type, steps.steps()
    if source == "sunlight":
        steps.add(N_("%(name)s is not a vampire: sunlight does no harm."), '000 "Aggravated Damage"', name=who)
        return None, steps.steps()
    if damage_type == "aggravated":
        steps.add(N_("%(name)s is not a vampire: aggravated damage is treated as lethal."), '001 "Aggravated Damage"',
                  name=who)
        return "lethal", steps.steps()
    return damage_type, steps.steps()


# ---------------------------------------------------------------- step 1: the strike

@dataclass(frozen=True)
class Strike(StrikeCalls):
    """A successful attack in the live game (the challenge was won): the attacker's
    :class:`~larp.rules.calls.StrikeCalls` and the fields below.

    Attributes:
        weapon: a live armory key; ``None`` for bare hands.
        bite: the vampire bites with his fangs (002: one level of aggravated).
        potence: the attacker's Potence level (Prowess 1, Puissance 5).
        close_range: within five feet, for Full-Auto and Mass-Trauma.
        spread: one of several targets of a Spray or a burst (Mass-Trauma needs a single target).
        stake_attempt: the attacker drives a stake at the heart (Staking).
        high_caliber_test: the simple test after a High-Caliber hit (drawn from
            the random source if omitted).
        staking_tests: the two simple tests after a staking hit (drawn if omitted).
    """

    weapon: str | None = None
    bite: bool = False
    potence: int = 0
    close_range: bool = False
    spread: bool = False
    stake_attempt: bool = False
    high_caliber_test: SimpleTest | None = None
    staking_tests: tuple[SimpleTest, ...] = ()


@dataclass(frozen=True)
class Damage:
    """Damage an attack inflicts, before the target's kind, halving, Fortitude and armor.

    Attributes:
        levels: health levels.
        damage_type: the card's type ("bashing", "lethal", "aggravated").
        bashing_vs_kindred: a firearm (or crossbow): bashing against vampires
            unless ``head_shot``.
        firearm: a firearm: its bashing damage is not halved for vampires (002).
        head_shot: aimed at the head (or heart, for a crossbow).
        source: "other", "fire" or "sunlight".
        armor_piercing: ignores armor.
        stake: a stake went through the heart (Staking succeeded).
        steps: how the damage was reached.
        tests: the simple tests made for the damage (``("high_caliber", test)``,
            ``("staking", test)``), each knowing whether the table threw it or the app drew it.
    """

    levels: int
    damage_type: str
    bashing_vs_kindred: bool = False
    firearm: bool = False
    head_shot: bool = False
    source: str = "other"
    armor_piercing: bool = False
    stake: bool = False
    steps: tuple[Step, ...] = ()
    tests: tuple[tuple[str, SimpleTest], ...] = ()

    def tests_dict(self) -> list[dict[str, Any]]:
        """The damage's simple tests as JSON-ready data (which test, the throws, drawn or thrown)."""
        return [{"test": name, **test.to_dict()} for name, test in self.tests]


def _test(given: SimpleTest | None, rng: RandomSource | None, name: str) -> SimpleTest:
    if given is not None:
        return given
    if rng is None:
        raise RulesError(Phrase.message(N_("Give the %(name)s throws, or a random source to draw them."), name=name),
                         field=name)
    return SimpleTest.drawn(rng)


def strike_damage(strike: Strike, settings: ChronicleSettings | None = None, rng: RandomSource | None = None,
                  who: str = "The attacker") -> Damage:
    """The damage of a successful strike, from the card and the additions.

    Rules:
        - Bare hands: one level of bashing; with Potence's Prowess the attacker may
          choose lethal (002 "Damage and Healing"; met-reference 3.4).
        - A bite: one level of aggravated per successful attack (002).
        - A weapon: its card's levels and type (002 "the Armory"; met-reference 3.7);
          Prowess may make a blunt weapon's bashing lethal.
        - +1 level each: Puissance on bare-handed or melee strikes; Mass-Trauma against a
          single target within five feet (never a Spray's several targets, met-reference T24);
          Full-Auto within five feet when the clip was emptied (``full_auto``; LotNR Fully
          Automatic: "+1 level at five feet, then an action to reload"); High-Caliber on a won simple test (a tie
          too under ``high_caliber_tie_counts``) (met-reference 3.4, 3.7).
        - Staking: after a hit, two simple tests in a row won or tied drive the
          stake home (met-reference 3.7).

    Args:
        strike: the attack.
        settings: the chronicle's settings (defaults if omitted).
        rng: a random source (``randint``/``choice``, like ``random.Random``) for
            tests whose throws are not given.
        who: the attacker's name.

    Raises:
        RulesError: an unknown weapon, a bite with a weapon, Prowess without
            Potence or on a bladed weapon, a head shot without a firearm, a
            staking attempt without a stake, or missing throws with no random source.
    """
    settings = settings or ChronicleSettings.defaults()
    steps = Explanation()
    card: Weapon | None = None
    if strike.bite:
        if strike.weapon is not None:
            raise RulesError(Phrase.message(N_("A bite is made with the fangs, not a weapon.")), field="weapon")
        levels, kind = 1, "aggravated"
        steps.add(N_("%(name)s bites: one level of aggravated damage."), _DAMAGE_RULE, name=who)
    elif strike.weapon is None:
        levels, kind = 1, "bashing"
        steps.add(N_("%(name)s strikes bare-handed: one level of bashing damage."), _DAMAGE_RULE, name=who)
    else:
        card = weapon(strike.weapon, "live")
        levels, kind = card.damage, card.damage_type
        hits = (N_("%(name)s hits with an %(weapon)s: %(levels)s of %(kind)s damage by its card.")
                if article(card.name).startswith("an ") else
                N_("%(name)s hits with a %(weapon)s: %(levels)s of %(kind)s damage by its card."))
        steps.add(hits, _WEAPON_RULE, name=who, weapon=Phrase.term(card.name), levels=levels_of(levels), kind=Phrase.term(kind))
    if strike.lethal_by_prowess:
        if strike.potence < 1:
            raise RulesError(Phrase.message(N_("Choosing lethal damage needs Potence's Prowess.")), field="lethal_by_prowess")
        if strike.bite or (card is not None and not card.blunt) or kind != "bashing":
            raise RulesError(Phrase.message(N_("Prowess turns only bare-handed and club bashing damage into lethal.")),
                             field="lethal_by_prowess")
        kind = "lethal"
        steps.add(N_("With Prowess, %(name)s chooses lethal damage."), _DAMAGE_RULE, name=who)
    if strike.head_shot and (card is None or not card.firearm):
        raise RulesError(Phrase.message(N_("Aiming at the head changes the damage only for firearms.")), field="head_shot")
    if strike.potence >= 5 and not strike.bite and (card is None or card.melee):
        levels += 1
        steps.add(N_("Puissance: +1 level on a strike where strength matters."), "LotNR Potence (met-reference 3.4)")
    if card is not None and card.has("Mass-Trauma"):  # one target within five feet only (met-reference T24)
        if strike.close_range and not strike.spread:
            levels += 1
            steps.add(N_("Mass-Trauma against a single target within five feet: +1 level."), _WEAPON_RULE)
        else:
            steps.add(N_("Mass-Trauma adds its level only to a single target within five feet: none here."),
                      _WEAPON_RULE)
    if strike.full_auto and (card is None or not card.has("Full-Auto")):
        raise RulesError(Phrase.message(N_("Only a weapon with Full-Auto fires on full auto.")), field="full_auto")
    if card is not None and card.has("Full-Auto") and strike.full_auto:
        if strike.close_range:
            levels += 1
            steps.add(N_("Full-Auto, the clip emptied within five feet: +1 level (then an action to reload)."),
                      _WEAPON_RULE)
        else:
            steps.add(N_("Full-Auto adds its level only within five feet: none here (the clip is empty: an action "
                         "to reload)."), _WEAPON_RULE)
    if card is not None and card.has("High-Caliber"):
        test = _test(strike.high_caliber_test, rng, "high_caliber_test")
        ties = settings["high_caliber_tie_counts"]
        if test.passes(tie_counts=ties):
            levels += 1
            steps.add(N_("High-Caliber simple test (%(test)s): +1 level."), _WEAPON_RULE,
                      setting="high_caliber_tie_counts", test=test.describe())
        else:
            steps.add(N_("High-Caliber simple test (%(test)s): no extra level."), _WEAPON_RULE,
                      setting="high_caliber_tie_counts", test=test.describe())
    made: list[tuple[str, SimpleTest]] = []
    if card is not None and card.has("High-Caliber"):
        made.append(("high_caliber", test))
    staked = False
    if strike.stake_attempt:
        if card is None or not card.has("Staking"):
            raise RulesError(Phrase.message(N_("Only a weapon with Staking can stake a vampire.")), field="stake_attempt")
        given = list(strike.staking_tests)
        if len(given) > 2:
            raise RulesError(Phrase.message(N_("Staking takes two simple tests.")), field="staking_tests")
        tests = [_test(given[i] if i < len(given) else None, rng, "staking_tests") for i in range(2)]
        made.extend(("staking", t) for t in tests)
        staked = all(t.passes(tie_counts=True) for t in tests)
        results = Phrase.message(N_("%(first)s; %(second)s"), first=tests[0].describe(), second=tests[1].describe())
        steps.add(N_("Staking: two simple tests (%(tests)s): the stake goes through the heart.") if staked
                  else N_("Staking: two simple tests (%(tests)s): the stake misses the heart."), _WEAPON_RULE,
                  tests=results)
    return Damage(
        levels=levels, damage_type=kind,
        bashing_vs_kindred=card.bashing_vs_kindred if card else False,
        firearm=card.firearm if card else False, head_shot=strike.head_shot,
        armor_piercing=card.has("Armor-Piercing") if card else False, stake=staked, steps=steps.steps(),
        tests=tuple(made),
    )


# ---------------------------------------------------------------- step 2: the target

@dataclass(frozen=True)
class Target:
    """The character taking the damage in the live game.

    Attributes:
        creature: "vampire", "ghoul" or "mortal".
        fortitude: Fortitude level (Resilience 3, Resistance 4).
        armor: a live armory key, a custom piece from the sheet (:class:`Armor`), or ``None``.
        armor_left: health levels the armor has left (``None``: its full rating).
    """

    creature: str = "vampire"
    fortitude: int = 0
    armor: str | Armor | None = None
    armor_left: int | None = None


@dataclass(frozen=True)
class DamageRuling:
    """What the target takes.

    Attributes:
        parts: (damage type, levels) to mark, in order; more than one when
            Resilience turned an aggravated level into lethal; empty when the
            attack cannot harm the target (sunlight on a mortal).
        armor_left: the armor's health levels left (``None`` without armor).
        stake: the stake went through a vampire's heart.
        steps: the explanation, from the strike to the levels taken.
    """

    parts: tuple[tuple[str, int], ...]
    armor_left: int | None
    stake: bool
    steps: tuple[Step, ...]

    @property
    def levels(self) -> int:
        """Health levels to mark, all types together."""
        return sum(n for _, n in self.parts)

    def apply_to(self, track: HealthTrack, settings: ChronicleSettings | None = None,
                 who: str = "The character", killing_blow: bool = False) -> HealthRuling:
        """Mark the damage on ``track`` (each part in order, the stake with the last).

        Raises:
            RulesError: as :func:`larp.rules.health.apply_damage`.
        """
        steps: list[Step] = list(self.steps)
        marked = overflow = 0
        parts = [p for p in self.parts if p[1] > 0]
        if not parts:
            if track.destroyed:
                apply_damage(track, "bashing", 0, who, settings)  # raises: nothing changes the destroyed
            return HealthRuling(track, tuple(steps))
        # The marking says what is taken and where it leaves the character, so the
        # summary sentence of damage_taken and each marking's opening sentence would
        # only repeat it.
        steps = steps[:-1]
        for index, (kind, levels) in enumerate(parts):
            ruling = apply_damage(track, kind, levels, who, settings,
                                  stake=self.stake and index == len(parts) - 1, killing_blow=killing_blow,
                                  opening=False)
            steps.extend(ruling.steps)
            marked += ruling.marked
            overflow += ruling.overflow
            track = ruling.track
            if track.destroyed:
                overflow += sum(n for _, n in parts[index + 1:])
                break
        return HealthRuling(track, tuple(steps), marked, overflow)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"parts": [list(p) for p in self.parts], "armor_left": self.armor_left, "stake": self.stake,
                "steps": [s.to_dict() for s in self.steps]}


def halve_bashing(levels: int, settings: ChronicleSettings, who: str = "The vampire") -> tuple[int, Step]:
    """A vampire's bashing damage halved, rounded down; at least one level under
    ``vampire_bashing_minimum_one`` (LotNR Bashing/Lethal, met-reference 3.7; 000
    "Bashing Damage" halves with no minimum)."""
    halved = levels // 2
    if settings["vampire_bashing_minimum_one"] and levels >= 1:
        result = max(1, halved)
        return result, phrase_step(N_("%(name)s is a vampire: %(n)s bashing halved, rounded down, at least one: "
                                      "%(result)s."), "LotNR Bashing/Lethal (met-reference 3.7)",
                                   "vampire_bashing_minimum_one", name=who, n=levels, result=result)
    return halved, phrase_step(N_("%(name)s is a vampire: %(n)s bashing halved, rounded down: %(result)s."),
                               '000 "Bashing Damage"', "vampire_bashing_minimum_one", name=who, n=levels,
                               result=halved)


def damage_taken(damage: Damage, target: Target, settings: ChronicleSettings | None = None, *,
                 resistance: FortitudeTest | None = None, resilience_test: FortitudeTest | None = None,
                 who: str = "The target") -> DamageRuling:
    """What ``target`` takes from ``damage``, in the live game.

    Order: the type against the target's kind (:func:`damage_type_against`);
    vampires halve bashing damage, rounding down (at least one level under
    ``vampire_bashing_minimum_one``), except bashing from firearms under seed 002's reading
    (``firearms_against_vampires``: 002 in the live game by default; the tabletop charts halve it,
    Laws of the Night's bullets are lethal);
    Resilience, then Resistance (met-reference 3.5); then armor, extra health
    levels lost first (met-reference 3.7), which does not stop fire or sunlight
    (000 "Armor") or Armor-Piercing weapons.

    Args:
        damage: from :func:`strike_damage` (or built for fire, sunlight...).
        target: the character hit.
        settings: the chronicle's settings (defaults if omitted).
        resistance: a Resistance attempt (Fortitude 4), if the player makes one.
        resilience_test: a Resilience attempt (Fortitude 3), if the player makes one.
        who: the target's name.

    Raises:
        RulesError: negative damage, unknown armor, an armor count outside
            0..rating, a Fortitude power the target lacks or that does not fit
            the damage.
    """
    settings = settings or ChronicleSettings.defaults()
    if damage.levels < 0:
        raise RulesError(Phrase.message(N_("Damage cannot be negative.")), field="levels")
    steps = Explanation()
    steps.extend(damage.steps)
    reading = firearm_reading(settings, "live")
    kind, type_steps = damage_type_against(
        damage.damage_type, target.creature, bashing_vs_kindred=damage.bashing_vs_kindred,
        firearm=damage.firearm, head_shot=damage.head_shot, source=damage.source, who=who, firearm_rule=reading)
    steps.extend(type_steps)
    worn = target.armor if isinstance(target.armor, Armor) else (armor(target.armor, "live") if target.armor else None)
    armor_left = None
    if worn is not None:
        armor_left = worn.rating if target.armor_left is None else target.armor_left
        if not 0 <= armor_left <= worn.rating:
            raise RulesError(Phrase.message(N_("%(armor)s has %(rating)s levels; %(left)s left is impossible."),
                                            armor=Phrase.term(worn.name), rating=worn.rating, left=armor_left),
                             field="armor_left")
    if kind is None:
        return DamageRuling((), armor_left, False, steps.steps())
    levels = damage.levels
    if target.creature == "vampire" and kind == "bashing" and levels:
        if damage.firearm and reading == "house_002":
            steps.add(N_("Bashing damage from firearms is not halved for vampires: %(n)s."), _DAMAGE_RULE,
                      setting="firearms_against_vampires", n=levels)
        else:
            levels, step = halve_bashing(levels, settings, who)
            steps.extend([step])
    parts: list[list[Any]] = [[kind, levels]]
    if resilience_test is not None:
        if kind != "aggravated":
            raise RulesError(Phrase.message(N_("Resilience works only against aggravated damage.")), field="resilience_test")
        left, lethal, more = resilience(levels, target.fortitude, resilience_test, who)
        steps.extend(more)
        parts = [["aggravated", left], ["lethal", lethal]]
    if resistance is not None:
        if kind == "aggravated":
            raise RulesError(Phrase.message(N_("Resistance works only against lethal or bashing damage.")), field="resistance")
        left, more = resist(levels, kind, target.fortitude, resistance, who)
        steps.extend(more)
        parts = [[kind, left]]
    if worn is not None and armor_left is not None:
        if damage.source in ("fire", "sunlight"):
            steps.add(N_("%(armor)s does not protect against fire.") if damage.source == "fire" else
                      N_("%(armor)s does not protect against sunlight."), '000 "Armor"', armor=Phrase.term(worn.name))
        elif damage.armor_piercing:
            steps.add(N_("The weapon is Armor-Piercing: %(armor)s is ignored."), _WEAPON_RULE, armor=Phrase.term(worn.name))
        elif armor_left == 0 and any(part[1] for part in parts):
            steps.add(N_("%(name)s's %(armor)s is used up: it absorbs nothing more."), "LotNR armor (met-reference 3.7)",
                      name=who, armor=Phrase.term(worn.name))
        else:
            for part in parts:
                absorbed = min(armor_left, part[1])
                if absorbed:
                    part[1] -= absorbed
                    armor_left -= absorbed
                    steps.add(N_("%(armor)s absorbs %(levels)s of %(kind)s damage (%(left)s left)."),
                              "LotNR armor (met-reference 3.7)", armor=Phrase.term(worn.name), levels=levels_of(absorbed),
                              kind=Phrase.term(part[0]),
                              left=Phrase.counted(armor_left, "%(n)s armor level", "%(n)s armor levels"))
    final = tuple((k, n) for k, n in parts if n > 0)
    taken = (damage_list(final)
             or Phrase.message(N_("no damage")))
    steps.add(N_("%(name)s takes %(damage)s."), _DAMAGE_RULE, name=who, damage=taken)
    return DamageRuling(final, armor_left, damage.stake and target.creature == "vampire", steps.steps())
