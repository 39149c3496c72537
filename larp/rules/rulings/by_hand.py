"""Damage a narrator applies by hand, with every consequence (002 "Damage and Healing";
000 "Applying Damage"; met-reference 3.5, 3.7, 4.1).

:func:`rule_damage_by_hand` takes the character as he stands tonight, the damage
(type and levels, or a weapon card, a bite, Potence's additions; a firearm, a head
shot, fire or sunlight; armor-piercing rounds) and the scene (the armor he wears for
this ruling), and returns what he takes after his kind, halving, Fortitude's
Resilience and Resistance and his armor, his new track and condition, and the
stamina Trait a Fortitude test spent.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from larp.rules.challenge import RandomSource
from larp.rules.damage import Damage, DamageRuling, Strike, Target, damage_taken, strike_damage
from larp.rules.explain import N_, Phrase, RulesError, Step, damage_list, phrase_step
from larp.rules.fortitude import FortitudeTest
from larp.rules.health import HealthRuling, HealthTrack, standing
from larp.rules.hits import armor_key
from larp.rules.rulings.consequences import Consequences, Tally
from larp.rules.rulings.people import Person, person_track
from larp.rules.rulings.strikes import body_of
from larp.rules.scene import Scene
from larp.rules.settings import ChronicleSettings
from larp.rules.simple_test import SimpleTest
from larp.rules.sunlight import SunlightExposure, sunlight_exposure
from larp.rules.torpor import GameNight, TorporClock
from larp.tables import trait_leads

R_FORTITUDE = "LotNR Fortitude (met-reference 3.5)"
R_KILLING_BLOW = "Dark Epics killing blow (met-reference 4.1, 5.3)"
R_FIRE = "LotNR Aggravated Wounds: Fire (met-reference 3.7)"


@dataclass(frozen=True)
class DamageEntered:
    """Damage as a narrator enters it by hand, before any test is thrown for it: the fields the screen's
    form and the API share (:class:`larp.services.health.DamageRequest` reads them, :class:`HandDamage`
    adds the tests; 002 "Damage and Healing"; met-reference 3.5, 3.7, 4.1).

    Attributes:
        damage_type: bashing, lethal or aggravated (ignored with a weapon card or a bite).
        levels: health levels before halving, Fortitude and armor (ignored with a weapon card).
        weapon: a live armory key; its card gives the damage.
        bite: a vampire's bite (one level of aggravated).
        firearm: the damage comes from a firearm (002: bashing against vampires unless
            aimed at the head, and not halved).
        head_shot: aimed at the head.
        source: ``other``, ``fire`` or ``sunlight`` (armor stops neither fire nor sunlight); fire and
            sunlight are aggravated whatever ``damage_type`` says (LotNR Aggravated Wounds).
        exposure: sunlight's exposure, ``indirect`` (one level a turn) or ``direct`` (three): sunlight's
            levels come from it and ``turns``, not from ``levels`` (LotNR Sunlight, met-reference T26).
        turns: turns of sunlight.
        attacker_potence: the attacker's Potence (Puissance adds a level to bare hands and melee).
        lethal_by_prowess: Prowess makes a bare-handed or club strike lethal.
        armor_piercing: armor-piercing rounds: armor is ignored (met-reference 3.7).
        killing_blow: the attacker declared a killing blow on a vampire in torpor and won the
            Physical Challenge (Dark Epics; read under ``dark_epics_killing_blow``).
    """

    damage_type: str = "bashing"
    levels: int = 1
    weapon: str = ""
    bite: bool = False
    firearm: bool = False
    head_shot: bool = False
    source: str = "other"
    exposure: str = ""
    turns: int = 1
    attacker_potence: int = 0
    lethal_by_prowess: bool = False
    armor_piercing: bool = False
    killing_blow: bool = False

    def entered(self) -> dict[str, Any]:
        """The entered fields by name (what a :class:`HandDamage` is built from)."""
        return {f.name: getattr(self, f.name) for f in fields(DamageEntered)}


@dataclass(frozen=True)
class HandDamage(DamageEntered):
    """Damage a narrator applies by hand: :class:`DamageEntered` with the tests thrown for it
    (002 "Damage and Healing"; met-reference 3.5, 3.7).

    Attributes:
        resistance, resilience: Fortitude's Resistance and Resilience tests, if the player makes them.
        stamina: the player spends a stamina-related Physical Trait on the test.
        high_caliber_test: the High-Caliber simple test as thrown at the table (``None``: drawn
            by the app, and the ruling says so).
    """

    resistance: FortitudeTest | None = None
    resilience: FortitudeTest | None = None
    stamina: bool = False
    high_caliber_test: SimpleTest | None = None

    def sunlight(self, who: str = "The vampire") -> SunlightExposure | None:
        """Sunlight's levels and Courage test, for a ``sunlight`` source (LotNR Sunlight, met-reference T26).

        Raises:
            RulesError: sunlight without its exposure (``exposure``), or exposure without sunlight.
        """
        if self.source != "sunlight":
            if self.exposure:
                raise RulesError(Phrase.message(N_("An exposure is sunlight's: choose sunlight as the source.")), field="exposure")
            return None
        return sunlight_exposure(self.exposure, self.turns, who)

    def damage(self, settings: ChronicleSettings, rng: RandomSource | None, close_range: bool = False) -> Damage:
        """The damage the attack inflicts (002 "Damage and Healing"; met-reference 3.7); ``close_range``:
        the attacker was within five feet (Full-Auto's and, against one target, Mass-Trauma's level).

        Raises:
            RulesError: an unknown weapon, an impossible combination, no damage.
        """
        if self.weapon or self.bite or self.lethal_by_prowess or self.attacker_potence:
            damage = strike_damage(Strike(weapon=self.weapon or None, bite=self.bite, potence=self.attacker_potence,
                                          lethal_by_prowess=self.lethal_by_prowess, head_shot=self.head_shot,
                                          close_range=close_range, high_caliber_test=self.high_caliber_test),
                                   settings, rng)
            return replace(damage, armor_piercing=damage.armor_piercing or self.armor_piercing)
        sun = self.sunlight()
        if sun is not None:
            return Damage(levels=sun.levels, damage_type="aggravated", source="sunlight", steps=sun.steps[:1])
        if self.levels < 1:
            raise RulesError(Phrase.message(N_("No damage to apply: give at least one health level.")), field="levels")
        if self.source == "fire":
            fire = (Step(N_("Fire does aggravated damage."), R_FIRE),) if self.damage_type != "aggravated" else ()
            return Damage(levels=self.levels, damage_type="aggravated", source="fire", steps=fire,
                          armor_piercing=self.armor_piercing)
        return Damage(levels=self.levels, damage_type=self.damage_type, bashing_vs_kindred=self.firearm,
                      firearm=self.firearm, head_shot=self.head_shot, source=self.source,
                      armor_piercing=self.armor_piercing)


@dataclass(frozen=True)
class HandRuling:
    """Damage by hand ruled, with everything it changes.

    Attributes:
        taken: what he takes (parts after his kind, halving, Fortitude, armor; armor left).
        health: the track afterwards, with the marking's steps.
        stamina_trait: the stamina-related Physical Trait spent on a Fortitude test, if any.
        consequences: what changes for him.
        summary: one sentence.
        courage_difficulty: the Traits of the static Courage test against Rötschreck the damage calls
            for (sunlight on a vampire, LotNR Sunlight); ``None`` when none is due.
    """

    taken: DamageRuling
    health: HealthRuling
    stamina_trait: str | None
    consequences: Consequences
    summary: str
    steps: tuple[Step, ...] = field(default_factory=tuple)
    courage_difficulty: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the record keeps it, the API answers with it."""
        return {"taken": self.taken.to_dict(), "health": self.health.to_dict(), "stamina_trait": self.stamina_trait,
                "summary": self.summary, "consequences": self.consequences.to_dict(),
                "courage_difficulty": self.courage_difficulty}


def stamina_trait(person: Person) -> str | None:
    """A stamina-related Physical Trait he still has tonight, the one he has most of
    (``data/trait_leads.toml``), for a Fortitude test (met-reference 3.5)."""
    leads = trait_leads()
    free = person.free("physical")
    left = [name for name, n in free.items() if n > 0 and leads.get(name.lower()) == "stamina"]
    return max(left, key=lambda name: (free[name], name)) if left else None


def killing_blow_steps(person: Person, track: HealthTrack, hand: HandDamage, settings: ChronicleSettings
                       ) -> tuple[Step, ...]:
    """The steps of a declared killing blow, checked (Dark Epics, met-reference 4.1, 5.3): the victim
    must be a vampire in torpor; under ``dark_epics_killing_blow`` only aggravated damage (the fangs,
    fire) then destroys him; without it, aggravated damage in torpor is Final Death anyway.

    Raises:
        RulesError: a killing blow on a character who is not a vampire in torpor (``killing_blow``).
    """
    if not hand.killing_blow:
        return ()
    if person.creature != "vampire" or track.condition != "torpor":
        raise RulesError(Phrase.message(N_("A killing blow is declared on a vampire in torpor; %(name)s is not one "
                                           "(%(cited)s)."), name=person.name, cited=R_KILLING_BLOW),
                         field="killing_blow")
    if not settings["dark_epics_killing_blow"]:
        return (phrase_step(N_("A killing blow is declared on %(name)s; without the Dark Epics rule none is needed: "
                               "aggravated damage to a vampire in torpor destroys him."), '002 "Damage and Healing"',
                            "dark_epics_killing_blow", name=person.name),)
    return (phrase_step(N_("A killing blow is declared on %(name)s, in torpor, and the Physical Challenge is won: "
                           "aggravated damage (fangs, fire) now destroys him; other damage does not."), R_KILLING_BLOW,
                        "dark_epics_killing_blow", name=person.name),)


def rule_damage_by_hand(person: Person, hand: HandDamage, scene: Scene | None = None,
                        settings: ChronicleSettings | None = None, rng: RandomSource | None = None, *,
                        night: GameNight | None = None) -> HandRuling:
    """Apply damage by hand to one character and compute everything it changes.

    Rules: the damage type against his kind (firearms against vampires, aggravated against
    mortals), vampires halving bashing damage (not from firearms), Fortitude's Resilience
    and Resistance when the player tests, then his armor (the scene's choice, else what the
    sheet says he wears; used up armor absorbs nothing, armor-piercing rounds and fire or
    sunlight ignore it), then his track with Mettle's level: below Incapacitated a vampire
    falls unconscious (bashing) or into torpor (lethal, aggravated), aggravated damage to an
    Incapacitated or torpid vampire is Final Death, a mortal dies (002 "Damage and
    Healing"; 000 "Applying Damage", "Armor"; met-reference 3.5, 3.7, 4.1). A declared killing
    blow on a vampire in torpor lets aggravated damage destroy him under ``dark_epics_killing_blow``
    (Dark Epics, met-reference 4.1).

    Args:
        night: the game session the ruling happens in (its date and number, :class:`larp.rules.torpor.GameNight`):
            a vampire it puts in torpor gets the torpor's length and wake date in the consequences and
            at the end of the steps (met-reference 5.2); ``None``: not known, the cause only.

    Raises:
        RulesError: bad input or a character nothing can harm any more (Final Death is final),
            a Fortitude power he lacks, no stamina Trait left to spend, a killing blow on a
            character not in torpor.
    """
    scene = scene or Scene()
    settings = settings or ChronicleSettings.defaults()
    track = person_track(person, settings)
    body = body_of(person, scene, settings)
    band = scene.range_for(person.name)
    damage = hand.damage(settings, rng, close_range=band is not None and band.within_five_feet)
    taken = damage_taken(damage, Target(body.creature, body.fortitude, body.armor, body.armor_left), settings,
                         resistance=hand.resistance, resilience_test=hand.resilience, who=person.name)
    killing_steps = killing_blow_steps(person, track, hand, settings)
    result = taken.apply_to(track, settings, person.name, killing_blow=hand.killing_blow)
    spent = None
    if hand.stamina and (hand.resistance is not None or hand.resilience is not None):
        spent = stamina_trait(person)
        if spent is None:
            raise RulesError(Phrase.message(N_("%(name)s has no stamina-related Physical Trait left to spend."),
                                            name=person.name), field="stamina")
    tally = Tally()
    tally.person(person.name, track)
    if spent:
        tally.lose(person.name, "physical", (spent,))
    tally.hurt(person.name, result.track, armor_key(body.armor), taken.armor_left)
    text = (damage_list(taken.parts)
            or Phrase.message(N_("no damage")))
    summary = Phrase.message(N_("%(name)s takes %(damage)s and is now %(where)s."), name=person.name, damage=text,
                             where=standing(result.track))
    steps = killing_steps + tuple(result.steps)
    if spent:
        steps += (phrase_step(N_("%(name)s spends %(trait)s, a stamina-related Physical Trait, on the Fortitude test."),
                              R_FORTITUDE, name=person.name, trait=spent),)
    sun = hand.sunlight(person.name)
    courage = None
    if sun is not None and person.creature == "vampire" and not result.track.destroyed:
        courage = sun.courage_difficulty
        steps += sun.steps[1:]
        summary = Phrase.message(N_("%(name)s takes %(damage)s and is now %(where)s; a Courage test against %(n)s "
                                    "Traits or Rötschreck."), name=person.name, damage=text,
                                 where=standing(result.track), n=courage)
    consequences = tally.consequences(TorporClock.of(settings, night, [person]))
    return HandRuling(taken, result, spent, consequences, summary, steps + consequences.steps, courage)
