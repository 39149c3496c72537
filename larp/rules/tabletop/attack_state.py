"""Where one tabletop attack stands while it is resolved: the state its phases read and change
(:class:`AttackState`), and the target's defense as planned before any die is rolled
(:class:`DefensePlan`) (000 "Combat Turns"; 004 "Step-By-Step Combat Turn").

Part of :mod:`larp.rules.tabletop.combat`. The phases are plain functions over this state, in
the modules named for the stages of the turn: :mod:`.attack` (Stage Two: the maneuver
checked, the pool, the difficulty, the roll), :mod:`.defense` (the target's abort and
defense) and :mod:`.resolution` (Stage Three: strafing, holds, damage, soak, knockdown, and
the ruling). :func:`larp.rules.tabletop.combat.resolve_attack` runs them in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from larp.rules.damage import Weapon
from larp.rules.explain import Explanation
from larp.rules.health import HealthTrack
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import SoakRuling
from larp.rules.tabletop.combatants import Attack, DefenseChoice, DiceRoller, Effect
from larp.rules.tabletop.dice import DiceRoll
from larp.rules.tabletop.maneuvers import Maneuver, Profile


@dataclass
class DefensePlan:
    """A defense checked before the attack roll, rolled only if the attack succeeds (000
    "Defensive Maneuvers"; 004 "Target Defends").

    Attributes:
        name: the defense as the steps say it ("dodge", "resisted Strength + Brawl").
        source: the rule it follows.
        pool, difficulty: its dice and difficulty.
        steps: how the pool and difficulty were reached, told when it is rolled.
    """

    name: str
    source: str
    pool: int
    difficulty: int
    steps: Explanation


@dataclass
class AttackState:
    """One tabletop attack while it is resolved (000 "Stage Two: Attack", "Stage Three:
    Resolution"; 004 "Step-By-Step Combat Turn").

    Attributes:
        attack: who attacks whom, how, and the defense declared.
        settings: the chronicle's settings.
        profile: the tabletop profile (``tabletop_profile``).
        maneuver: the attack's maneuver.
        roller: the dice, given or drawn, remembered by roll name.
        steps: the explanation so far.
        attacker_track, target_track: the tracks as the attack leaves them (a riposte, a
            knockdown, the damage marked).
        defense: the defense still standing (``None`` after a failed Willpower roll to abort).
        card: the weapon the maneuver is made with (``None`` bare-handed).
        base_type: the damage type before a head shot ("bashing", "lethal", "aggravated").
        claw_power: the power that grows the claws of a claw attack.
        effects: what follows so far (held, dazed, knocked down...).
        pool, difficulty: the attack roll's dice and difficulty.
        automatic: the attack hits without a roll (an immobilized target, a hold that goes on).
        continuing: a clinch or hold from an earlier turn goes on.
        plan: the defense checked before the roll.
        attack_roll, defense_roll: the rolls made.
        net: the attack's successes left (after the defense and strafing).
        damage_pool, damage_roll, soak, levels: the damage dice, roll, soak and levels marked.
        missed: the summary, once the attack has ended without hitting (a botch, no successes,
            the defense, a hold broken, strafing leaving this target unhurt).
    """

    attack: Attack
    settings: ChronicleSettings
    profile: Profile
    maneuver: Maneuver
    roller: DiceRoller
    steps: Explanation
    attacker_track: HealthTrack
    target_track: HealthTrack
    defense: DefenseChoice | None
    card: Weapon | None = None
    base_type: str = "bashing"
    claw_power: str | None = None
    effects: list[Effect] = field(default_factory=list)
    pool: int = 0
    difficulty: int = 0
    automatic: bool = False
    continuing: bool = False
    plan: DefensePlan | None = None
    attack_roll: DiceRoll | None = None
    defense_roll: DiceRoll | None = None
    net: int = 0
    damage_pool: int = 0
    damage_roll: DiceRoll | None = None
    soak: SoakRuling | None = None
    levels: int = 0
    missed: str | None = None
