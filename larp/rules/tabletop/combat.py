"""One tabletop attack, from the dice pool to the health track (000 "Combat Turns" to "Applying Damage";
004 "Step-By-Step Combat Turn").

:func:`resolve_attack` takes the attacker, the target, the maneuver, the
situation and the target's defense, and returns an :class:`AttackRuling`: the
attack pool and difficulty, every die of every roll, the defense's successes
subtracted first, the damage pool (base plus net successes beyond the first,
never below one die once the attack hits), the damage roll (it cannot botch),
the soak roll and the levels marked on the target's health track through
:mod:`larp.rules.soak` and :func:`larp.rules.health.apply_damage`; and what
follows: dazed, knocked down, held, staked, disarmed, armor destroyed.

Dice come from ``dice`` (by roll name: attack, abort, defense, damage, soak,
knockdown, rise, knockdown_attacker, rise_attacker, riposte_damage,
riposte_soak) or from ``rng``; with neither, the roll raises
:class:`~larp.rules.tabletop.dice.DiceNeeded` naming it, and nothing is decided.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from larp.rules.damage import Weapon, armor as armor_card, damage_type_against, weapon as weapon_card
from larp.rules.explain import Explanation, RulesError, Step
from larp.rules.numbers import whole_number
from larp.rules.health import CONDITION_LABELS, HealthTrack, apply_damage, tabletop_dice_penalty, tabletop_view
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import Defender, DiceSource, SoakRuling, soak_damage, soak_difficulty, soak_pool
from larp.rules.tabletop.actions import ActionSlot, slot_dice
from larp.rules.tabletop.dice import (
    DEFAULT_DIFFICULTY,
    DiceNeeded,
    DiceRoll,
    bounded_difficulty,
    check_difficulty,
    check_faces,
    roll_dice,
    roll_step,
)
from larp.rules.tabletop.maneuvers import Maneuver, Profile, profile_for

DICE_KEYS = ("attack", "abort", "defense", "damage", "soak", "knockdown", "rise", "knockdown_attacker",
             "rise_attacker", "riposte_damage", "riposte_soak")
RANGES = ("point_blank", "short", "long")
CALLED_SHOTS = ("head", "heart")

_ATTACK = '000 "Stage Two: Attack"'
_RESOLUTION = '000 "Stage Three: Resolution"'
_DEFENSE = '000 "Defensive Maneuvers"'
_DAMAGE = '000 "Damage Types"'
_HEALTH = '000 "Health Chart"'
_KNOCKDOWN = '000 "Knockdown"'
#: Under the Dark Ages profile, the general steps cite 004, which states the same rules.
DARK_AGES_CITATIONS = {
    _ATTACK: '004 "Stage Two: Attack"',
    _RESOLUTION: '004 "Stage Three: Resolution"',
    _DAMAGE: '004 "Stage Three: Resolution"',
    _DEFENSE: '004 "Target Defends"',
    '000 "Maneuver Characteristics"': '004 "Combat Complications"',
    '000 "Multiple Actions"': '004 "Multiple Actions"',
    '000 "Soak"': '004 "Soak"',
    '000 "Range"': '004 "Ranged Combat"',
    '000 "Multiple Opponents"': '004 "Multiple Opponents"',
    '000 "Blind Fighting/Fire"': '004 "Blind Fighting"',
    '000 "Dazed"': '004 "Apply Attack Damage"',
}


# ---------------------------------------------------------------- inputs

def _dots(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10:
        raise RulesError("A rating is a whole number of dots from 0 to 10.", field=field)
    return value


def _norm(name: str) -> str:
    return name.replace("_", " ").strip().lower()


@dataclass(frozen=True)
class Fighter:
    """A character in a tabletop fight, in tabletop dots.

    Attributes:
        key: a unique key (the character's id as text).
        name: as shown.
        track: his health track (creature, damage, condition, stake).
        attributes: the nine Attributes in dots ({"Strength": 3, ...}).
        abilities: Abilities in dots (missing ones are 0: the roll defaults to the Attribute).
        disciplines: Discipline dots ({"Potence": 2, "Fortitude": 1, "Celerity": 2}).
        powers: power names held ("Feral Claws"), for claws.
        weapon: the tabletop armory key he fights with, or ``None`` (bare hands).
        armor: the tabletop armory key he wears, or ``None``.
        willpower: Willpower dots (the abort roll).
        willpower_points: Willpower points left (``None`` when unknown).
        ambidextrous: no off-hand penalty with two weapons.
    """

    key: str
    name: str
    track: HealthTrack
    attributes: Mapping[str, int]
    abilities: Mapping[str, int] = field(default_factory=dict)
    disciplines: Mapping[str, int] = field(default_factory=dict)
    powers: tuple[str, ...] = ()
    weapon: str | None = None
    armor: str | None = None
    willpower: int = 0
    willpower_points: int | None = None
    ambidextrous: bool = False

    @property
    def creature(self) -> str:
        """"vampire", "ghoul" or "mortal" (from the track)."""
        return self.track.creature

    def attribute(self, name: str) -> int:
        """Dots in the Attribute ``name``.

        Raises:
            RulesError: the sheet has no tabletop rating for it (field ``<key>.attributes.<name>``).
        """
        for key, value in self.attributes.items():
            if _norm(key) == _norm(name):
                return _dots(value, f"{self.key}.attributes.{name}")
        raise RulesError(f"{self.name} has no tabletop {name} rating: add the tabletop Attributes to the sheet.",
                         field=f"{self.key}.attributes.{name}")

    def ability(self, name: str) -> int:
        """Dots in the Ability ``name`` (0 if none)."""
        for key, value in self.abilities.items():
            if _norm(key) == _norm(name):
                return _dots(value, f"{self.key}.abilities.{name}")
        return 0

    def discipline(self, name: str) -> int:
        """Dots in the Discipline ``name`` (0 if none)."""
        for key, value in self.disciplines.items():
            if _norm(key) == _norm(name):
                return _dots(value, f"{self.key}.disciplines.{name}")
        return 0

    def has_power(self, name: str) -> bool:
        """Whether he holds the power ``name``."""
        return any(_norm(p) == _norm(name) for p in self.powers)

    @property
    def wound_penalty(self) -> int | None:
        """Dice his health subtracts from action pools, ``None`` when he can take no
        action (000 "Health Chart"; unconscious, torpor, Final Death)."""
        if self.track.condition != "active" or self.track.staked:
            return None
        penalty = tabletop_dice_penalty(self.track)
        return None if penalty is None else abs(penalty)

    def weapon_card(self) -> Weapon | None:
        """His tabletop weapon, or ``None``.

        Raises:
            RulesError: an unknown weapon key.
        """
        if not self.weapon:
            return None
        try:
            return weapon_card(self.weapon, "tabletop")
        except RulesError:
            raise RulesError(f"{self.name}: there is no tabletop weapon {self.weapon!r}.",
                             field=f"{self.key}.weapon") from None

    def armor_penalty(self, profile: Profile) -> tuple[int, str]:
        """Dice his armor takes from Dexterity-based pools, and the reason (000 "Armor Chart";
        004 "Armor": Melee 3 or more halves it, rounding down)."""
        if not self.armor:
            return 0, ""
        card = armor_card(self.armor, "tabletop")
        penalty = card.penalty
        at = profile.situation.armor_penalty_halved_at_melee
        if penalty and at and self.ability("Melee") >= at:
            return penalty // 2, f"{card.name}: penalty {penalty} halved for Melee {self.ability('Melee')}"
        return penalty, card.name


@dataclass(frozen=True)
class Circumstances:
    """The situation of one attack (all optional; the defaults are a plain attack at short range).

    Attributes:
        range: ranged attacks: "point_blank" (4), "short" (6) or "long" (8) (000 "Range").
        cover: the target's cover ("light", "good", "superior"; ranged attacks, 000 "Cover").
        attacker_cover: the attacker fires back from this cover (one lower than listed).
        target_size: a targeting row of the profile ("medium", "small", "precise"/"tiny", "large").
        called_shot: "head" or "heart" (sets the size; head shots make firearms and
            blunt weapons lethal, the heart is needed to stake).
        stake: a staking attempt (a weapon with Staking, at the heart).
        flank, rear: attacking from the flank or rear (000; 004 "Blindsiding").
        blindside_spotted: Dark Ages: the target made his roll and is not blindsided.
        opponents: opponents the attacker faces (+1 difficulty per extra, at most +4).
        blind: the attacker cannot see (+2; no ranged attacks).
        target_blinded: the target cannot see (+2 attack dice).
        target_held: the target is held but struggling (+2 attack dice).
        target_immobilized: the target is completely immobilized (tied up, staked).
        aim_turns: turns spent aiming (+1 die each, at most Perception; single shots).
        scope: a scope (+2 dice on the first turn of aiming, revised).
        off_hand: the shot from the off hand (two weapons: +1 unless ambidextrous).
        strafe_targets: targets in the strafed area (1 to 10); strafe_extra:
            leftover successes the attacker assigns to this target.
        clip_half_full: automatic fire needs a clip at least half full.
        ambush_dice: extra successes from a won ambush (000 "Ambush").
        unbalanced: the attacker was tackled last turn (+1 difficulty).
        prior_hold: the maneuver by which the attacker has held the target since
            an earlier turn ("clinch", "hold", "tackle"...), if any.
        extra_dice, extra_difficulty: the narrator's own modifiers.
        difficulty: the narrator sets the difficulty outright (2 to 10).
    """

    range: str = "short"
    cover: str | None = None
    attacker_cover: str | None = None
    target_size: str | None = None
    called_shot: str | None = None
    stake: bool = False
    flank: bool = False
    rear: bool = False
    blindside_spotted: bool = False
    opponents: int = 1
    blind: bool = False
    target_blinded: bool = False
    target_held: bool = False
    target_immobilized: bool = False
    aim_turns: int = 0
    scope: bool = False
    off_hand: bool = False
    strafe_targets: int = 1
    strafe_extra: int = 0
    clip_half_full: bool = True
    ambush_dice: int = 0
    unbalanced: bool = False
    prior_hold: str | None = None
    extra_dice: int = 0
    extra_difficulty: int = 0
    difficulty: int | None = None


@dataclass(frozen=True)
class DefenseChoice:
    """The target's defense against this attack.

    Attributes:
        maneuver: "dodge", "block" or "parry".
        slot: which of his actions it uses (multiple actions, full defense).
        abort: ``None`` (a declared defense), "roll" (abort by a Willpower roll,
            difficulty 6) or "point" (abort by spending a Willpower point).
        attackers: attackers he defends against this turn (+1 per extra, at most +4).
        dodge_modifiers: Dark Ages dodge modifier keys (004 "Dodge Modifiers").
        difficulty: the narrator sets the difficulty outright.
    """

    maneuver: str
    slot: ActionSlot = ActionSlot()
    abort: str | None = None
    attackers: int = 1
    dodge_modifiers: tuple[str, ...] = ()
    difficulty: int | None = None


@dataclass(frozen=True)
class Attack:
    """One attack: who, on whom, how, in which situation, and the defense."""

    maneuver: str
    attacker: Fighter
    target: Fighter
    circumstances: Circumstances = Circumstances()
    slot: ActionSlot = ActionSlot()
    defense: DefenseChoice | None = None


# ---------------------------------------------------------------- output

@dataclass(frozen=True)
class Effect:
    """Something that follows from the attack.

    Attributes:
        who: the fighter's key.
        kind: "dazed", "knocked_down", "rising", "slowed", "unbalanced", "holds",
            "hold_broken", "staked", "disarmed", "armor_destroyed", "botch",
            "willpower_spent", "empties_clip".
        text: what it means, for the narrator.
        target: for "holds": the key of the character held; maneuver: the holding maneuver.
    """

    who: str
    kind: str
    text: str
    target: str | None = None
    maneuver: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        data = {"who": self.who, "kind": self.kind, "text": self.text}
        if self.target:
            data.update(target=self.target, maneuver=self.maneuver)
        return data


@dataclass(frozen=True)
class AttackRuling:
    """The outcome of one attack.

    Attributes:
        maneuver: the maneuver key.
        attack_pool, attack_difficulty: the attack roll's dice and difficulty.
        attack_roll: the roll (``None`` when the attack hit automatically).
        defense_roll: the target's defense roll, if he defended.
        net_successes: attack successes left after the defense.
        hit: the attack struck.
        damage_pool: damage dice (0 when it missed or does no damage).
        damage_roll: the damage roll (``None`` with no roll).
        soak: the soak ruling (levels past soak, dazed, armor destroyed, stake).
        levels: health levels marked on the target.
        target_track, attacker_track: the tracks after the attack.
        effects: what follows.
        steps: the explanation, with every die.
        summary: one sentence.
        dice: every roll made, by name (send it back as ``dice`` to replay the ruling).
    """

    maneuver: str
    attacker: str
    target: str
    attack_pool: int
    attack_difficulty: int
    attack_roll: DiceRoll | None
    defense_roll: DiceRoll | None
    net_successes: int
    hit: bool
    damage_pool: int
    damage_roll: DiceRoll | None
    soak: SoakRuling | None
    levels: int
    target_track: HealthTrack
    attacker_track: HealthTrack
    effects: tuple[Effect, ...]
    steps: tuple[Step, ...]
    summary: str
    dice: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def has(self, kind: str, who: str | None = None) -> bool:
        """Whether an effect of ``kind`` (on ``who``, if given) follows."""
        return any(e.kind == kind and (who is None or e.who == who) for e in self.effects)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the API answer and the stored outcome)."""
        return {
            "maneuver": self.maneuver, "attacker": self.attacker, "target": self.target,
            "attack_pool": self.attack_pool, "attack_difficulty": self.attack_difficulty,
            "attack_roll": self.attack_roll.to_dict() if self.attack_roll else None,
            "defense_roll": self.defense_roll.to_dict() if self.defense_roll else None,
            "net_successes": self.net_successes, "hit": self.hit, "damage_pool": self.damage_pool,
            "damage_roll": self.damage_roll.to_dict() if self.damage_roll else None,
            "soak": self.soak.to_dict() if self.soak else None, "levels": self.levels,
            "target_track": self.target_track.to_dict(), "attacker_track": self.attacker_track.to_dict(),
            "effects": [e.to_dict() for e in self.effects], "summary": self.summary,
            "steps": [s.to_dict() for s in self.steps], "dice": {k: list(v) for k, v in self.dice.items()},
        }


# ---------------------------------------------------------------- helpers

class _Dice:
    """Rolls by name from the given faces or the random source."""

    def __init__(self, given: Mapping[str, Sequence[int]] | None, rng: DiceSource | None,
                 settings: ChronicleSettings, steps: Explanation):
        given = dict(given or {})
        unknown = sorted(set(given) - set(DICE_KEYS))
        if unknown:
            raise RulesError(f"There is no roll called {unknown[0]!r} ({', '.join(DICE_KEYS)}).",
                             field=f"dice.{unknown[0]}")
        self.given, self.rng, self.settings, self.steps = given, rng, settings, steps
        self.made: dict[str, tuple[int, ...]] = {}

    def roll(self, name: str, pool: int, difficulty: int, *, can_botch: bool = True, automatic: int = 0,
             who: str = "") -> DiceRoll:
        """Roll ``name`` from its given faces or the random source, and remember the faces."""
        result = roll_dice(pool, difficulty, dice=self.given.get(name), rng=self.rng, can_botch=can_botch,
                           automatic=automatic, settings=self.settings, roll=name, who=who,
                           steps=self.steps.steps())
        self.made[name] = result.dice
        return result


def _plus(steps: Explanation, pool: int, dice: int, text: str, rule: str, setting: str | None = None) -> int:
    if dice:
        steps.add(f"{text}: {dice:+d} dice ({pool + dice}).", rule, setting)
    return pool + dice


def _count(value: Any, field: str, low: int, high: int) -> int:
    return whole_number(value, field, low=low, high=high, text=False)


def _maneuver_weapon(m: Maneuver, fighter: Fighter) -> Weapon | None:
    """The weapon the maneuver is made with (``None`` bare-handed), checked against the maneuver."""
    card = fighter.weapon_card()
    if m.weapon == "none":
        return None
    if m.weapon in ("melee", "thrown"):
        if card is None or not card.melee:
            what = "throw" if m.weapon == "thrown" else "use"
            raise RulesError(f"{m.name} needs a melee weapon to {what}; {fighter.name} has "
                             f"{card.name if card else 'none'}.", field="weapon")
        return card
    if m.weapon == "ranged":
        if card is None or card.melee:
            raise RulesError(f"{m.name} needs a ranged weapon; {fighter.name} has "
                             f"{card.name if card else 'none'}.", field="weapon")
        if m.weapon_special and not card.has(m.weapon_special):
            raise RulesError(f"A {card.name} cannot do that: {m.name} needs a weapon capable of "
                             f"{m.weapon_special} (000 \"Ranged Weapons Chart\").", field="weapon")
        return card
    # optional: bare-handed, or with a melee weapon (the sweep)
    if card is not None and not card.melee:
        raise RulesError(f"{m.name} is made bare-handed or with a melee weapon, not a {card.name}.", field="weapon")
    return card


def _check_attack(attack: Attack, profile: Profile, m: Maneuver) -> None:
    a, t, c = attack.attacker, attack.target, attack.circumstances
    if m.kind == "defensive":
        raise RulesError(f"{m.name} is a defense: choose it as the target's defense, not as an attack.",
                         field="maneuver")
    if a.key == t.key:
        raise RulesError(f"{a.name} cannot attack themself: choose another target.", field="target")
    if a.wound_penalty is None:
        raise RulesError(f"{a.name} can take no action ({_state(a.track)}).", field="attacker")
    if t.track.destroyed:
        raise RulesError(f"{t.name} is {CONDITION_LABELS[t.track.condition].lower()}: nothing left to attack.",
                         field="target")
    if m.has("vampire_only") and a.creature != "vampire":
        raise RulesError(f"Only vampires can use {m.name}: {a.name} is a {a.creature}.", field="maneuver")
    if m.needs_hold and c.prior_hold not in m.needs_hold:
        held = [profile.maneuvers[k].name.lower() for k in m.needs_hold]
        names = ", ".join(held[:-1]) + f" or {held[-1]}" if len(held) > 1 else held[0]
        raise RulesError(f"{m.name} needs a successful {names} on {t.name} in an earlier turn first "
                         f"({m.source}).", field="prior_hold")
    if c.range not in RANGES:
        raise RulesError("Range is point_blank, short or long.", field="range")
    for name, value in (("cover", c.cover), ("attacker_cover", c.attacker_cover)):
        if value is not None and value not in profile.cover:
            raise RulesError(f"Cover is one of {', '.join(profile.cover)}.", field=name)
    if c.target_size is not None and c.target_size not in profile.target_sizes:
        raise RulesError(f"Target size is one of {', '.join(profile.target_sizes)}.", field="target_size")
    if c.called_shot is not None and c.called_shot not in CALLED_SHOTS:
        raise RulesError("A called shot is at the head or the heart.", field="called_shot")
    if c.called_shot and c.target_size:
        raise RulesError("Give a called shot or a target size, not both.", field="target_size")
    if m.has("no_targeting") and (c.called_shot or c.target_size):
        raise RulesError(f"{m.name} cannot target a specific part of the body ({m.source}).", field="called_shot")
    if m.kind == "ranged" and c.blind:
        raise RulesError("Ranged attacks cannot be made blind or in pitch darkness "
                         "(000 \"Blind Fighting/Fire\"; 004 \"Blind Fighting\").", field="blind")
    if m.kind == "close" and (c.cover or c.attacker_cover):
        raise RulesError("Cover changes ranged attacks only (000 \"Cover\").", field="cover")
    if m.has("needs_clip_half_full") and not c.clip_half_full:
        raise RulesError(f"{m.name} needs a clip at least half full ({m.source}).", field="clip_half_full")
    _count(c.opponents, "opponents", 1, 20)
    _count(c.aim_turns, "aim_turns", 0, 10)
    _count(c.strafe_targets, "strafe_targets", 1, 10)
    _count(c.strafe_extra, "strafe_extra", 0, 10)
    _count(c.ambush_dice, "ambush_dice", 0, 20)
    _count(c.extra_dice, "extra_dice", -20, 20)
    _count(c.extra_difficulty, "extra_difficulty", -8, 8)
    if c.difficulty is not None:
        check_difficulty(c.difficulty)
    if c.aim_turns and not m.has("single_shot"):
        raise RulesError(f"Aiming adds dice to a single shot, not to {m.name.lower()} (000 \"Aiming\").",
                         field="aim_turns")
    if c.scope and not c.aim_turns:
        raise RulesError("A scope adds dice on the first turn of aiming: aim at least one turn.", field="scope")
    if (c.strafe_targets > 1 or c.strafe_extra) and not m.has("strafing"):
        raise RulesError("Targets in the area are for strafing only.", field="strafe_targets")
    if c.off_hand and not m.has("off_hand"):
        raise RulesError("The off hand's penalty is for firing two weapons.", field="off_hand")
    slot = attack.slot
    slot.check()
    if m.has("multiple") and slot.total < 2 and not slot.celerity:
        raise RulesError(f"{m.name} is a multiple action: declare at least two actions ({m.source}).",
                         field="actions.total")


def _state(track: HealthTrack) -> str:
    if track.condition != "active":
        return CONDITION_LABELS[track.condition].lower()
    if track.staked:
        return "staked"
    return _level(track)


def _level(track: HealthTrack) -> str:
    """The tabletop health level he stands on ("Hurt", "Incapacitated"...)."""
    return tabletop_view(track)["level"]


def _claw_type(m: Maneuver, fighter: Fighter) -> tuple[str, str]:
    for power, kind in m.powers.items():
        if fighter.has_power(power):
            return kind, power
    raise RulesError(f"{fighter.name} has no power that grows claws ({', '.join(m.powers)}).", field="maneuver")


# ---------------------------------------------------------------- the attack

def resolve_attack(attack: Attack, settings: ChronicleSettings | None = None, *,
                   dice: Mapping[str, Sequence[int]] | None = None, rng: DiceSource | None = None) -> AttackRuling:
    """Resolve one tabletop attack and mark its damage.

    Rules, in order (profile by ``tabletop_profile``):
        - The pool: Attribute + Ability (000 "Stage Two: Attack"; no Ability:
          the Attribute alone), the multiple-action rule
          (:func:`~larp.rules.tabletop.actions.slot_dice`), the maneuver's
          accuracy, flank or rear, a held or blinded target, aiming, the wound
          penalty (000 "Health Chart") and armor's Dexterity penalty (000
          "Armor Chart"). A pool at zero or below cannot act (004).
        - The difficulty: 6, or the range's (point blank 4, short 6, long 8),
          plus the maneuver, target size, cover, multiple opponents (+1 each
          after the first, at most +4), blindness, the off hand; kept within 2..10.
        - The roll: 1s cancel successes; a botch fails with something nasty
          (the narrator describes it). A completely immobilized target is hit
          automatically (000) or takes +2 damage dice (004).
        - The defense (block, dodge, parry; aborting by Willpower) subtracts its
          successes first; the attack must keep at least one (000 "Defensive Maneuvers").
          A parry that beats a Brawl attack with a lethal weapon hurts the attacker.
        - Damage: the base (Strength + bonus, or the weapon's dice) plus the net
          successes beyond the first (004: not for thrown weapons), never below
          one die once the attack hits; Potence adds automatic successes to
          Strength damage (000 "Bashing Damage"); the roll cannot botch.
        - Soak and the health track: :func:`larp.rules.soak.soak_damage` and
          :func:`larp.rules.health.apply_damage`; dazed, armor destroyed, staking.
        - Knockdown (sweep, tackle: 000 "Knockdown"), holds (clinch, hold,
          tackle, bear hug, grapple), disarm.

    Args:
        dice: faces by roll name (see ``DICE_KEYS``); rolls not given come from ``rng``.

    Raises:
        RulesError: input the rules cannot adjudicate, naming the field (a
            maneuver the attacker cannot use, a bite without a prior hold, a
            difficulty outside 2..10, a wrong number of dice...).
        DiceNeeded: a roll has no faces and there is no random source.
    """
    settings = settings or ChronicleSettings.defaults()
    steps = Explanation()
    roller = _Dice(dice, rng, settings, steps)
    ruling = _resolve(attack, settings, roller, steps)
    cited = ruling.steps
    if profile_for(settings).key == "dark_ages":
        cited = tuple(replace(s, rule=DARK_AGES_CITATIONS.get(s.rule, s.rule)) for s in cited)
    return replace(ruling, steps=cited, dice=MappingProxyType(dict(roller.made)))


def _resolve(attack: Attack, settings: ChronicleSettings, roller: _Dice, steps: Explanation) -> AttackRuling:
    profile = profile_for(settings)
    m = profile.maneuver(attack.maneuver)
    a, t, c = attack.attacker, attack.target, attack.circumstances
    _check_attack(attack, profile, m)
    card = _maneuver_weapon(m, a)
    sit = profile.situation
    effects: list[Effect] = []

    # -- damage type and claws first: a character without claws cannot claw
    claw_power = None
    if m.damage_type == "power":
        base_type, claw_power = _claw_type(m, a)
    elif m.damage_type == "weapon" or (m.weapon == "optional" and card is not None):
        base_type = card.damage_type if card else "bashing"
    else:
        base_type = m.damage_type
    if m.has("multiple") and m.key == "multiple_shots" and card is not None:
        rate = card.details.get("rate")
        if isinstance(rate, int) and attack.slot.total > rate:
            raise RulesError(f"A {card.name} fires at most {rate} shots a turn (000 \"Multiple Shots\").",
                             field="actions.total")
    if c.stake and (card is None or not card.has("Staking") or c.called_shot != "heart"):
        raise RulesError("Staking needs a stake (or crossbow) aimed at the heart (000 \"Stake Through Heart\").",
                         field="stake")

    # -- the attack pool
    ability = m.abilities[0]
    if len(m.abilities) > 1:
        ability = m.abilities[1] if card is not None else m.abilities[0]
    attr_dots = a.attribute(m.attribute)
    ability_dots = a.ability(ability)
    base = attr_dots + ability_dots
    what = f" ({card.name})" if card else ""
    steps.add(f"{a.name} uses {m.name}{what} against {t.name}.", m.source)
    if ability_dots:
        steps.add(f"Attack pool: {m.attribute} {attr_dots} + {ability} {ability_dots} = {base} dice.", _ATTACK)
    else:
        steps.add(f"Attack pool: no {ability}, so {m.attribute} alone: {base} dice.", _ATTACK)
    pool, slot_step = slot_dice(base, attack.slot, settings, a.name)
    if slot_step:
        steps.extend([slot_step])
    pool = _plus(steps, pool, m.accuracy, f"{m.name}'s accuracy", m.source)
    if c.flank or c.rear:
        if profile.key == "dark_ages":
            if c.blindside_spotted:
                steps.add(f"{t.name} spotted the blindside: no extra die.", '004 "Blindsiding"')
            else:
                pool = _plus(steps, pool, sit.flank_dice, "Blindsiding (flank or rear)", '004 "Blindsiding"')
        else:
            extra = sit.rear_dice if c.rear else sit.flank_dice
            pool = _plus(steps, pool, extra, "Attack from the rear" if c.rear else "Attack from the flank",
                         '000 "Flank and Rear Attacks"')
    if c.target_held:
        pool = _plus(steps, pool, sit.held_target_dice, f"{t.name} is held but struggling",
                     '000 "Immobilization"' if profile.key == "revised" else '004 "Immobilized Targets"')
    if c.target_blinded:
        pool = _plus(steps, pool, sit.blinded_target_dice, f"{t.name} is blinded", '000 "Blinded"')
    if c.aim_turns:
        perception = a.attribute("Perception")
        if ability_dots < 1:
            raise RulesError(f"Aiming needs {ability} 1 or better; {a.name} has none (000 \"Aiming\").",
                             field="aim_turns")
        aimed = min(c.aim_turns, perception)
        pool = _plus(steps, pool, aimed, f"{c.aim_turns} turn(s) aiming, at most Perception {perception}",
                     '000 "Aiming"')
        if c.scope:
            if not sit.scope_dice:
                raise RulesError("This profile has no scopes.", field="scope")
            pool = _plus(steps, pool, sit.scope_dice, "A scope on the first turn of aiming", '000 "Aiming"')
    pool = _plus(steps, pool, c.ambush_dice, "Extra successes from the ambush", '000 "Ambush"')
    pool = _plus(steps, pool, c.extra_dice, "The narrator's modifier", "Narrator")
    penalty = a.wound_penalty or 0
    if penalty:
        pool -= penalty
        steps.add(f"{a.name} is {_level(a.track)}: wound penalty -{penalty} ({pool}).", _HEALTH)
    if m.attribute == "Dexterity":
        armor_dice, why = a.armor_penalty(profile)
        if armor_dice:
            pool -= armor_dice
            steps.add(f"Armor ({why}): -{armor_dice} from a Dexterity pool ({pool}).",
                      '000 "Armor Chart"' if profile.key == "revised" else '004 "Armor"')
    if pool <= 0:
        raise RulesError(f"{a.name}'s attack pool comes to {pool} dice: the action cannot be attempted "
                         f"(004 \"Multiple Actions\").", field="actions")

    # -- the difficulty
    if c.difficulty is not None:
        difficulty = c.difficulty
        steps.add(f"The narrator sets the difficulty: {difficulty}.", "Narrator")
    else:
        difficulty = _attack_difficulty(m, a, c, profile, steps)

    # -- the target completely immobilized, or a clinch going on
    continuing = m.has("carries_over") and c.prior_hold == m.key and m.damage != "none"
    automatic = False
    if (c.target_immobilized or t.track.staked) and sit.immobilized == "automatic_hit":
        automatic = True
        steps.add(f"{t.name} is completely immobilized: the attack hits automatically.", '000 "Immobilization"')
    elif continuing and profile.key == "revised":
        automatic = True
        steps.add(f"The {m.name.lower()} goes on: {a.name} inflicts Strength damage automatically.", m.source)

    # -- abort to a defense: the Willpower roll comes before the attack roll
    defense = attack.defense
    if continuing and profile.key == "dark_ages":
        if defense is not None:
            raise RulesError(f"Against a {m.name.lower()} that goes on, {t.name} resists with Strength + Brawl, "
                             f"not a {defense.maneuver}.", field="defense.maneuver")
        defense = DefenseChoice("escape")
    plan = None
    if defense is not None and not automatic:
        plan = _plan_defense(defense, attack, m, card, profile, settings)
    willpower_spent = False
    if defense is not None and defense.abort:
        if defense.abort not in ("roll", "point"):
            raise RulesError("Abort by a Willpower roll or by spending a Willpower point.", field="defense.abort")
        defense, willpower_spent = _abort(defense, t, profile, roller, steps)
        if willpower_spent:
            effects.append(Effect(t.key, "willpower_spent", f"{t.name} spends a Willpower point to abort."))

    if automatic:
        attack_roll = None
        net = 1
    else:
        attack_roll = roller.roll("attack", pool, difficulty, who=a.name)
        roll_step(attack_roll, f"{a.name}'s attack roll", steps, _ATTACK)
    if attack_roll is not None and attack_roll.botch:
        steps.add("A botch: the attack fails and something nasty happens (a jam, a broken blade, an ally "
                  "hit): the narrator describes it.", _ATTACK, setting="tabletop_botch")
        effects.append(Effect(a.key, "botch", f"{a.name} botched the attack: the narrator describes what goes wrong."))
        return _miss(attack, m, pool, difficulty, attack_roll, None, 0, effects, steps,
                     f"{a.name} botches {m.name.lower()} against {t.name}.")
    if attack_roll is not None:
        net = attack_roll.net
        if net == 0:
            steps.add(f"No successes: {a.name} misses.", _ATTACK)
            return _miss(attack, m, pool, difficulty, attack_roll, None, 0, effects, steps,
                         f"{a.name}'s {m.name.lower()} misses {t.name}.")

    # -- the defense subtracts first
    defense_roll = None
    attacker_track = a.track
    if defense is not None and plan is not None:
        defense_roll = _defend(plan, t, roller, steps)
        if defense_roll is not None:
            left = net - defense_roll.net
            if defense.maneuver == "escape":
                if left < 0:
                    steps.add(f"{t.name} breaks the {m.name.lower()}.", m.source)
                    effects.append(Effect(t.key, "hold_broken", f"{t.name} breaks free of {a.name}'s {m.name.lower()}."))
                    return _miss(attack, m, pool, difficulty, attack_roll, defense_roll, 0, effects, steps,
                                 f"{t.name} breaks free of {a.name}'s {m.name.lower()}.")
            if left <= 0:
                steps.add(f"{t.name}'s {defense_roll.net} defense success(es) cancel the attack's {net}: "
                          f"the attack misses.", _DEFENSE)
                if defense.maneuver == "parry" and left < 0:
                    attacker_track = _riposte(attack, card, -left, roller, settings, steps)
                return _miss(attack, m, pool, difficulty, attack_roll, defense_roll, 0, effects, steps,
                             f"{t.name} avoids {a.name}'s {m.name.lower()}.", attacker_track)
            steps.add(f"{t.name}'s {defense_roll.net} defense success(es) leave {left} of {net}.", _DEFENSE)
            net = left

    # -- strafing divides the successes among the targets
    if m.has("strafing"):
        net = _strafe_share(net, c, steps, m)
        if net == 0:
            return _miss(attack, m, pool, difficulty, attack_roll, defense_roll, 0, effects, steps,
                         f"{a.name}'s strafing leaves {t.name} unhurt.")

    steps.add(f"The attack hits with {net} net success(es).", _RESOLUTION)
    if m.has("holds"):
        verb = {"hold": "holds", "grapple": "grapples", "clinch": "clinches with", "bear_hug": "crushes",
                "tackle": "tackles"}.get(m.key, "holds")
        effects.append(Effect(a.key, "holds", f"{a.name} {verb} {t.name}: a bite may follow next turn.",
                              target=t.key, maneuver=m.key))
        if m.damage == "none":
            steps.add(f"{t.name} is held until his next action, then both roll resisted Strength + Brawl; he stays "
                      f"immobilized until he rolls more successes.", m.source)
    if m.has("empties_clip"):
        effects.append(Effect(a.key, "empties_clip", f"{a.name}'s clip is empty."))

    # -- damage
    target_track = t.track
    damage_pool = 0
    damage_roll = None
    soak = None
    levels = 0
    if m.damage == "none":
        steps.add(f"{m.name} does no damage.", m.source)
    else:
        damage_pool, automatic_successes, levels_direct = _damage_pool(m, a, t, c, card, net, profile, settings,
                                                                       steps, claw_power)
        if levels_direct is not None:
            inflicted = levels_direct
        else:
            damage_roll = roller.roll("damage", damage_pool, DEFAULT_DIFFICULTY, can_botch=False,
                                      automatic=automatic_successes, who=a.name)
            roll_step(damage_roll, "Damage roll", steps, _DAMAGE)
            if damage_roll.net == 0 and damage_roll.ones and not damage_roll.successes:
                steps.add("Damage rolls cannot botch: the attack glances harmlessly off.", _DAMAGE)
            inflicted = damage_roll.net
        if m.has("disarm") and inflicted > t.attribute("Strength"):
            steps.add(f"{inflicted} damage success(es) exceed {t.name}'s Strength ({t.attribute('Strength')}): "
                      f"{t.name} is disarmed and takes no damage.", m.source)
            effects.append(Effect(t.key, "disarmed", f"{t.name} is disarmed."))
            inflicted = 0
        kind = _damage_type(base_type, card, c, steps)
        soak, target_track, levels = _soak_and_mark(inflicted, kind, t, card, c, roller, settings, steps)
        if soak is not None:
            if soak.dazed:
                effects.append(Effect(t.key, "dazed", f"{t.name} is dazed and spends the next turn shaking it off."))
            if soak.armor_destroyed:
                effects.append(Effect(t.key, "armor_destroyed", f"{t.name}'s armor is destroyed."))
            if soak.staked:
                effects.append(Effect(t.key, "staked", f"{t.name} is staked: paralysed until the stake is removed."))

    # -- knockdown
    if m.has("knockdown") and not target_track.destroyed:
        target_track = _knockdown(t, target_track, m, "knockdown", "rise", roller, settings, steps, effects,
                                  unbalance=m.has("unbalances"))
    if m.has("both_knockdown") and not attacker_track.destroyed:
        attacker_track = _knockdown(a, attacker_track, m, "knockdown_attacker", "rise_attacker", roller, settings,
                                    steps, effects)

    summary = f"{a.name}'s {m.name.lower()} hits {t.name}"
    if m.damage != "none":
        summary += f": {levels} level(s) marked" if levels else ": no damage gets through"
    return AttackRuling(m.key, a.key, t.key, pool, difficulty, attack_roll, defense_roll, net, True, damage_pool,
                        damage_roll, soak, levels, target_track, attacker_track, tuple(effects), steps.steps(),
                        summary + ".")


def _miss(attack: Attack, m: Maneuver, pool: int, difficulty: int, attack_roll: DiceRoll | None,
          defense_roll: DiceRoll | None, net: int, effects: list[Effect], steps: Explanation, summary: str,
          attacker_track: HealthTrack | None = None) -> AttackRuling:
    return AttackRuling(m.key, attack.attacker.key, attack.target.key, pool, difficulty, attack_roll, defense_roll,
                        net, False, 0, None, None, 0, attack.target.track, attacker_track or attack.attacker.track,
                        tuple(effects), steps.steps(), summary)


def _attack_difficulty(m: Maneuver, a: Fighter, c: Circumstances, profile: Profile, steps: Explanation) -> int:
    """The attack's difficulty from the base, the range and the modifiers (000 "Maneuver Characteristics")."""
    sit = profile.situation
    if m.kind == "ranged":
        difficulty = profile.ranges[c.range]
        steps.add(f"{c.range.replace('_', ' ').capitalize()} range: difficulty {difficulty}.", '000 "Range"')
    else:
        difficulty = DEFAULT_DIFFICULTY
        steps.add(f"Base difficulty {difficulty}.", '000 "Maneuver Characteristics"')
    parts: list[tuple[int, str, str]] = [(m.difficulty, m.name, m.source)]
    size_key = profile.called_shots[c.called_shot] if c.called_shot else c.target_size
    if size_key:
        size = profile.target_sizes[size_key]
        aim = f"aimed at the {c.called_shot}" if c.called_shot else "targeting"
        parts.append((size.difficulty, f"{size.label}, {aim}",
                      '000 "Targeting"' if profile.key == "revised" else '004 "Targeting"'))
    if c.cover:
        parts.append((profile.cover[c.cover], f"{c.cover.capitalize()} cover", '000 "Cover"'))
    if c.attacker_cover:
        parts.append((max(0, profile.cover[c.attacker_cover] - 1), f"Firing back from {c.attacker_cover} cover",
                      '000 "Cover"'))
    if c.opponents > 1:
        extra = min(c.opponents - 1, sit.opponents_max)
        parts.append((extra, f"{c.opponents} opponents (at most +{sit.opponents_max})", '000 "Multiple Opponents"'))
    if c.blind:
        parts.append((sit.blind_difficulty, "Fighting blind", '000 "Blind Fighting/Fire"'))
    if c.off_hand and not a.ambidextrous:
        parts.append((sit.off_hand_difficulty, "The off hand", '000 "Two Weapons"'))
    if c.unbalanced:
        parts.append((1, "Unbalanced by last turn's tackle", '000 "Tackle"'))
    if c.extra_difficulty:
        parts.append((c.extra_difficulty, "The narrator's modifier", "Narrator"))
    for value, text, rule in parts:
        if value:
            difficulty += value
            steps.add(f"{text}: {value:+d} difficulty ({difficulty}).", rule)
    return bounded_difficulty(difficulty, steps, "The attack's difficulty")


def _abort(defense: DefenseChoice, t: Fighter, profile: Profile, roller: _Dice,
           steps: Explanation) -> tuple[DefenseChoice | None, bool]:
    """The Willpower roll or point to abort to a defense (000 "Aborting Actions"; 004 "Aborting to Defense")."""
    rule = '000 "Aborting Actions"' if profile.key == "revised" else '004 "Aborting to Defense"'
    if defense.abort == "point":
        if t.willpower_points is not None and t.willpower_points < 1:
            raise RulesError(f"{t.name} has no Willpower point left to spend.", field="defense.abort")
        steps.add(f"{t.name} spends a Willpower point to abort to a {defense.maneuver}.", rule)
        return defense, True
    wp = roller.roll("abort", t.willpower, DEFAULT_DIFFICULTY, who=t.name)
    roll_step(wp, f"{t.name}'s Willpower roll to abort", steps, rule)
    if wp.net == 0:
        steps.add(f"The Willpower roll fails: {t.name} must carry out the declared action and cannot "
                  f"{defense.maneuver}.", rule)
        return None, False
    return defense, False


@dataclass
class _DefensePlan:
    """A defense checked before the attack roll, rolled only if the attack succeeds."""

    name: str
    source: str
    pool: int
    difficulty: int
    steps: Explanation


def _plan_defense(defense: DefenseChoice, attack: Attack, m: Maneuver, card: Weapon | None, profile: Profile,
                  settings: ChronicleSettings) -> _DefensePlan:
    """Check the target's defense and work out its pool and difficulty (000 "Defensive Maneuvers"; 004
    "Defensive Maneuvers"), before any die is rolled, so bad input changes nothing."""
    t = attack.target
    sit = profile.situation
    if t.wound_penalty is None:
        raise RulesError(f"{t.name} can take no action and cannot defend.", field="defense.maneuver")
    if defense.maneuver == "escape":
        attr, ability, d_name, d_source = "Strength", "Brawl", "resisted Strength + Brawl", m.source
    else:
        d = profile.maneuver(defense.maneuver, "defense.maneuver")
        if d.kind != "defensive":
            raise RulesError(f"{d.name} is not a defense (block, dodge or parry).", field="defense.maneuver")
        attr, ability, d_name, d_source = d.attribute, d.abilities[0], d.name.lower(), d.source
        if m.kind not in d.against:
            raise RulesError(f"A {d_name} cannot stop a {m.kind} attack ({d_source}).", field="defense.maneuver")
    attack_type = card.damage_type if card and m.damage_type == "weapon" else m.damage_type
    uses_weapon = card is not None and m.kind == "close"
    extra: list[tuple[int, str, str]] = []
    if defense.maneuver == "block":
        protected = t.discipline("Fortitude") > 0 or bool(t.armor)
        if attack_type in ("lethal", "aggravated", "power") and not protected:
            raise RulesError(f"{t.name} cannot block a lethal or aggravated attack without Fortitude or armor "
                             f"({d_source}).", field="defense.maneuver")
        if uses_weapon and sit.block_melee_at_brawl and t.ability("Brawl") < sit.block_melee_at_brawl:
            raise RulesError(f"Only brawling attacks can be blocked; Brawl {sit.block_melee_at_brawl} or more "
                             f"may block a melee weapon ({d_source}).", field="defense.maneuver")
    if defense.maneuver == "parry":
        blade = t.weapon_card()
        if blade is None or not blade.melee:
            raise RulesError(f"{t.name} has no melee weapon to parry with.", field="defense.maneuver")
        if not uses_weapon and sit.parry_brawl_difficulty:
            extra.append((sit.parry_brawl_difficulty, "A weapon parrying a brawling attack", d_source))
    if defense.dodge_modifiers:
        if defense.maneuver != "dodge" or not profile.dodge_modifiers:
            raise RulesError("Dodge modifiers are the Dark Ages dodge table's.", field="defense.dodge_modifiers")
        for key in defense.dodge_modifiers:
            row = profile.dodge_modifiers.get(key)
            if row is None:
                raise RulesError(f"There is no dodge modifier {key!r} ({', '.join(profile.dodge_modifiers)}).",
                                 field="defense.dodge_modifiers")
            if row.kind != m.kind:
                raise RulesError(f"\"{row.label}\" applies to {row.kind} attacks only.",
                                 field="defense.dodge_modifiers")
            extra.append((row.difficulty, row.label, '004 "Dodge Modifiers"'))
    _count(defense.attackers, "defense.attackers", 1, 20)
    if defense.attackers > 1:
        extra.append((min(defense.attackers - 1, sit.opponents_max), f"{defense.attackers} attackers",
                      '000 "Multiple Opponents"'))
    if m.has("strafing") and defense.maneuver == "dodge":
        extra.append((sit.strafing_dodge_difficulty, "Dodging strafing", '000 "Strafing"'))
    steps = Explanation()
    attr_dots, ability_dots = t.attribute(attr), t.ability(ability)
    pool = attr_dots + ability_dots
    steps.add(f"{t.name} defends with a {d_name}: {attr} {attr_dots} + {ability} {ability_dots} = {pool} dice.",
              d_source)
    pool, slot_step = slot_dice(pool, defense.slot, settings, t.name)
    if slot_step:
        steps.extend([slot_step])
    if t.wound_penalty:
        pool -= t.wound_penalty
        steps.add(f"{t.name} is {_level(t.track)}: wound penalty -{t.wound_penalty} ({pool}).", _HEALTH)
    if attr == "Dexterity":
        armor_dice, why = t.armor_penalty(profile)
        if armor_dice:
            pool -= armor_dice
            steps.add(f"Armor ({why}): -{armor_dice} from a Dexterity pool ({pool}).", '000 "Armor Chart"')
    difficulty = DEFAULT_DIFFICULTY
    if defense.difficulty is not None:
        difficulty = check_difficulty(defense.difficulty, "defense.difficulty")
        steps.add(f"The narrator sets the defense difficulty: {difficulty}.", "Narrator")
    else:
        for value, text, rule in extra:
            if value:
                difficulty += value
                steps.add(f"{text}: {value:+d} defense difficulty ({difficulty}).", rule)
        difficulty = bounded_difficulty(difficulty, steps, "The defense difficulty")
    return _DefensePlan(d_name, d_source, pool, difficulty, steps)


def _defend(plan: _DefensePlan, t: Fighter, roller: _Dice, steps: Explanation) -> DiceRoll | None:
    """Roll the planned defense (after an attack that succeeded)."""
    steps.extend(plan.steps.steps())
    if plan.pool <= 0:
        steps.add(f"{t.name} has no dice left to {plan.name}: the defense fails.", _DEFENSE)
        return None
    result = roller.roll("defense", plan.pool, plan.difficulty, who=t.name)
    roll_step(result, f"{t.name}'s {plan.name} roll", steps, plan.source)
    return result


def _riposte(attack: Attack, card: Weapon | None, margin: int, roller: _Dice, settings: ChronicleSettings,
             steps: Explanation) -> HealthTrack:
    """A parry that beats a Brawl attack with a lethal weapon hurts the attacker (000, 003 "Parry")."""
    a, t = attack.attacker, attack.target
    weapon = t.weapon_card()
    if card is not None or weapon is None or weapon.damage_type != "lethal" or weapon.strength_bonus is None:
        return a.track
    strength = t.attribute("Strength")
    pool = strength + weapon.strength_bonus + margin
    steps.add(f"{t.name} parries a Brawl attack with a {weapon.name} and rolls {margin} more success(es): "
              f"{a.name} is hurt: Strength {strength} + {weapon.strength_bonus} + {margin} = {pool} damage dice.",
              '000 "Parry"')
    roll = roller.roll("riposte_damage", pool, DEFAULT_DIFFICULTY, can_botch=False, who=t.name)
    roll_step(roll, "Damage roll", steps, _DAMAGE)
    _, track, _ = _soak_and_mark(roll.net, weapon.damage_type, a, weapon, Circumstances(), roller, settings, steps,
                                 soak_roll="riposte_soak")
    return track


def _strafe_share(net: int, c: Circumstances, steps: Explanation, m: Maneuver) -> int:
    """This target's share of strafing successes (000 "Strafing")."""
    if c.strafe_targets == 1:
        share = net // 2
        steps.add(f"Only one target in the strafed area: half the {net} success(es) affect him: {share}.", m.source)
        return share
    leftover = net % c.strafe_targets
    if c.strafe_extra > leftover:
        raise RulesError(f"Only {leftover} leftover success(es) to assign.", field="strafe_extra")
    share = net // c.strafe_targets + c.strafe_extra
    steps.add(f"{net} success(es) divided evenly among {c.strafe_targets} targets"
              + (f", plus {c.strafe_extra} leftover" if c.strafe_extra else "") + f": {share} for this one.",
              m.source)
    return share


def _damage_pool(m: Maneuver, a: Fighter, t: Fighter, c: Circumstances, card: Weapon | None, net: int,
                 profile: Profile, settings: ChronicleSettings, steps: Explanation,
                 claw_power: str | None) -> tuple[int, int, int | None]:
    """The damage dice, automatic successes (Potence) and, for firearms read as levels, the levels."""
    sit = profile.situation
    strength_based = m.damage == "strength" or (card is not None and card.strength_bonus is not None)
    if card is not None and card.strength_bonus is not None and (m.damage == "weapon" or m.weapon == "optional"):
        strength = a.attribute("Strength")
        pool = strength + card.strength_bonus
        steps.add(f"Damage: Strength {strength} + {card.strength_bonus} ({card.name}) = {pool} dice.",
                  '000 "Melee Weapons Chart"')
    elif card is not None and m.damage == "weapon":
        pool = card.damage
        if card.firearm and settings["tabletop_firearm_damage"] == "levels":
            steps.add(f"Damage: the {card.name}'s rating, {pool}, is applied as health levels without a roll.",
                      '001 "Quick Combat Summary Chart"', setting="tabletop_firearm_damage")
            return 0, 0, pool
        steps.add(f"Damage: the {card.name}'s {pool} dice.", '000 "Ranged Weapons Chart"',
                  setting="tabletop_firearm_damage" if card.firearm else None)
    else:
        strength = a.attribute("Strength")
        pool = strength + m.damage_bonus
        bonus = f" + {m.damage_bonus}" if m.damage_bonus else ""
        how = f" ({claw_power})" if claw_power else ""
        steps.add(f"Damage: Strength {strength}{bonus} = {pool} dice{how}.", m.source)
    extra = net - 1
    if extra > 0:
        if m.has("thrown") and not sit.thrown_extra_successes:
            steps.add(f"Thrown weapon: the {extra} extra success(es) add no damage.", '004 "Determine Damage"')
        else:
            pool += extra
            steps.add(f"{extra} success(es) beyond the first: +{extra} damage dice ({pool}).", _RESOLUTION)
    size_key = profile.called_shots[c.called_shot] if c.called_shot else c.target_size
    if size_key:
        size = profile.target_sizes[size_key]
        if size.damage and c.stake and size.no_stake_damage:
            steps.add("The targeting bonus to damage does not apply to a staking attempt.", '004 "Targeting"')
        elif size.damage:
            pool += size.damage
            steps.add(f"{size.label}: +{size.damage} damage dice ({pool}).",
                      '000 "Targeting"' if profile.key == "revised" else '004 "Targeting"')
    if (c.target_immobilized or t.track.staked) and sit.immobilized == "damage_dice":
        pool += sit.immobilized_damage_dice
        steps.add(f"{t.name} is completely immobilized: +{sit.immobilized_damage_dice} damage dice ({pool}).",
                  '004 "Immobilized Targets"')
    if strength_based and a.wound_penalty:
        pool -= a.wound_penalty
        steps.add(f"Wound penalties apply to Strength damage: -{a.wound_penalty} ({pool}).", '001 "Note"')
    if pool < 1:
        steps.add("A damage pool is never below one die once the attack hits: 1 die.", _DAMAGE)
        pool = 1
    potence = a.discipline("Potence") if strength_based else 0
    if potence:
        steps.add(f"Potence {potence}: {potence} automatic success(es) on the damage roll.", '000 "Bashing Damage"')
    return pool, potence, None


def _damage_type(base_type: str, card: Weapon | None, c: Circumstances, steps: Explanation) -> str:
    """Blunt weapons aimed at the head do lethal damage (000 "Melee Weapons Chart")."""
    if card is not None and card.blunt and base_type == "bashing" and c.called_shot == "head":
        steps.add("A blunt weapon aimed at the head does lethal damage.", '000 "Melee Weapons Chart"')
        return "lethal"
    return base_type


def _soak_and_mark(levels: int, kind: str, t: Fighter, card: Weapon | None, c: Circumstances, roller: _Dice,
                   settings: ChronicleSettings, steps: Explanation,
                   soak_roll: str = "soak") -> tuple[SoakRuling | None, HealthTrack, int]:
    """Soak ``levels`` of ``kind`` and mark what is left on ``t``'s track."""
    head_shot = c.called_shot == "head" or (c.called_shot == "heart" and card is not None
                                            and card.bashing_vs_kindred and not card.firearm)
    weapon_key = card.key if card is not None else None
    defender = Defender(creature=t.creature, stamina=t.attribute("Stamina"), fortitude=t.discipline("Fortitude"),
                        armor=t.armor)
    faces = roller.given.get(soak_roll)
    if levels and faces is None and roller.rng is None:
        taken, _ = damage_type_against(kind, t.creature, bashing_vs_kindred=bool(card and card.bashing_vs_kindred),
                                       firearm=bool(card and card.firearm), head_shot=head_shot)
        pool = soak_pool(defender, taken)[0] if taken else 0
        if pool:
            raise DiceNeeded(soak_roll, pool, soak_difficulty(), steps.steps(), t.name)
    if faces is not None:
        check_faces(faces, len(faces), f"dice.{soak_roll}")
    try:
        soak = soak_damage(levels, kind, defender, weapon_key=weapon_key, head_shot=head_shot,
                           stake_at_heart=c.stake, dice=faces, rng=roller.rng, who=t.name)
    except RulesError as exc:
        if exc.field == "dice":
            raise RulesError(exc.message, field=f"dice.{soak_roll}") from None
        raise
    if soak.roll is not None:
        roller.made[soak_roll] = soak.roll.dice
    if soak.levels == 0 and not soak.staked:
        steps.extend(soak.steps)
        return soak, t.track, 0
    health = soak.apply_to(t.track, settings, t.name)
    steps.extend(health.steps)
    if health.marked:
        view = tabletop_view(health.track)
        penalty = view["dice_penalty"]
        dice_text = "no action possible" if penalty is None else f"-{abs(penalty)} dice to actions" if penalty else "no dice penalty"
        steps.add(f"On the tabletop Health chart {t.name} is now {view['level']} ({dice_text}).", _HEALTH)
    return soak, health.track, health.marked


def _knockdown(who: Fighter, track: HealthTrack, m: Maneuver, avoid_roll: str, rise_roll: str, roller: _Dice,
               settings: ChronicleSettings, steps: Explanation, effects: list[Effect],
               unbalance: bool = False) -> HealthTrack:
    """Dexterity + Athletics to stay up, then to rise (000 "Sweep", "Tackle", "Knockdown")."""
    if track.condition != "active":
        return track
    pool = who.attribute("Dexterity") + who.ability("Athletics")
    stay = roller.roll(avoid_roll, pool, m.knockdown_difficulty, can_botch=False, who=who.name)
    roll_step(stay, f"{who.name}'s Dexterity + Athletics to stay up", steps, m.source)
    if stay.net:
        steps.add(f"{who.name} keeps his feet.", m.source)
        if unbalance:
            steps.add(f"{who.name} is unbalanced: +1 difficulty to his actions next turn.", '000 "Tackle"')
            effects.append(Effect(who.key, "unbalanced", f"{who.name} is unbalanced: +1 difficulty next turn."))
        return track
    steps.add(f"{who.name} is knocked down.", _KNOCKDOWN)
    effects.append(Effect(who.key, "knocked_down", f"{who.name} is knocked down."))
    rise = roller.roll(rise_roll, pool, DEFAULT_DIFFICULTY, who=who.name)
    roll_step(rise, f"{who.name}'s Dexterity + Athletics to get up", steps, _KNOCKDOWN)
    if rise.net:
        steps.add(f"{who.name} is back on his feet at once, his initiative reduced by two next turn.", _KNOCKDOWN)
        effects.append(Effect(who.key, "slowed", f"{who.name}: initiative -2 next turn (rose from a knockdown)."))
        return track
    steps.add(f"{who.name} spends his next action climbing to his feet, if he chooses to rise.", _KNOCKDOWN)
    effects.append(Effect(who.key, "rising", f"{who.name} spends his next action getting up."))
    if rise.botch:
        steps.add(f"A botch: {who.name} lands hard and takes an automatic level of bashing damage.",
                  '003 "Knockdown"', setting="tabletop_botch")
        health = apply_damage(track, "bashing", 1, who.name, settings)
        steps.extend(health.steps)
        return health.track
    return track


# ---------------------------------------------------------------- breaking free

@dataclass(frozen=True)
class EscapeRuling:
    """A held character's attempt to break free.

    Attributes:
        freed: he rolled more successes than the holder.
        escaper_roll, holder_roll: the resisted Strength + Brawl rolls.
        steps: the explanation.
    """

    freed: bool
    escaper_roll: DiceRoll
    holder_roll: DiceRoll
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"freed": self.freed, "escaper_roll": self.escaper_roll.to_dict(),
                "holder_roll": self.holder_roll.to_dict(), "steps": [s.to_dict() for s in self.steps]}


def resolve_escape(escaper: Fighter, holder: Fighter, maneuver: str, settings: ChronicleSettings | None = None, *,
                   dice: Mapping[str, Sequence[int]] | None = None, rng: DiceSource | None = None) -> EscapeRuling:
    """Resisted Strength + Brawl to break a hold, clinch, bear hug or grapple: the
    escaper must roll more successes (000 "Hold", "Clinch"; 004 "Bear Hug/Clinch").

    Args:
        maneuver: the holding maneuver's key.
        dice: faces for "escaper" and "holder".

    Raises:
        RulesError: the maneuver does not hold, or the escaper cannot act; DiceNeeded.
    """
    settings = settings or ChronicleSettings.defaults()
    m = profile_for(settings).maneuver(maneuver)
    if not m.has("holds"):
        raise RulesError(f"{m.name} holds no one.", field="maneuver")
    if escaper.wound_penalty is None:
        raise RulesError(f"{escaper.name} can take no action.", field="character")
    steps = Explanation()
    given = dict(dice or {})
    pools = []
    for who in (escaper, holder):
        pool = max(0, who.attribute("Strength") + who.ability("Brawl") - (who.wound_penalty or 0))
        pools.append(pool)
    steps.add(f"{escaper.name} tries to break {holder.name}'s {m.name.lower()}: resisted Strength + Brawl "
              f"({pools[0]} dice against {pools[1]}).", m.source)
    rolls = []
    for name, pool, who in (("escaper", pools[0], escaper), ("holder", pools[1], holder)):
        r = roll_dice(pool, DEFAULT_DIFFICULTY, dice=given.get(name), rng=rng, settings=settings, roll=name,
                      who=who.name, steps=steps.steps())
        roll_step(r, f"{who.name}'s roll", steps, m.source)
        rolls.append(r)
    freed = rolls[0].net > rolls[1].net
    steps.add(f"{escaper.name} breaks free." if freed else f"{escaper.name} stays held.", m.source)
    return EscapeRuling(freed, rolls[0], rolls[1], steps.steps())


# ---------------------------------------------------------------- ambush

@dataclass(frozen=True)
class AmbushRuling:
    """An ambush (000 "Ambush"; 004 "Ambush").

    Attributes:
        outcome: revised: "free_attack", "first_strike" (a tie: the target may defend)
            or "spotted"; dark_ages: "ambushed" (the attacker wins initiative).
        attack_dice: extra dice for the free attack (revised: the extra successes).
        target_dice: dark_ages: the dice the target has that first turn.
        rolls: each roll by name.
        steps: the explanation.
    """

    outcome: str
    attack_dice: int
    target_dice: int | None
    rolls: Mapping[str, DiceRoll]
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"outcome": self.outcome, "attack_dice": self.attack_dice, "target_dice": self.target_dice,
                "rolls": {k: v.to_dict() for k, v in self.rolls.items()}, "steps": [s.to_dict() for s in self.steps]}


def resolve_ambush(attacker: Fighter, target: Fighter, settings: ChronicleSettings | None = None, *,
                   dice: Mapping[str, Sequence[int]] | None = None, rng: DiceSource | None = None) -> AmbushRuling:
    """Resolve an ambush by the chronicle's profile.

    Revised (000 "Ambush"): Dexterity + Stealth resisted by Perception + Alertness;
    more successes: a free attack with the extra successes added to its pool; a
    tie: the attacker still strikes first, the target may defend; fewer: spotted,
    initiative as usual. Dark Ages (004 "Ambush"): the attacker wins initiative;
    the target rolls Perception + Alertness (difficulty 8) and has that many dice
    the first turn.

    Args:
        dice: faces for "stealth" and "alertness".

    Raises:
        RulesError, DiceNeeded: as :func:`roll_dice`.
    """
    settings = settings or ChronicleSettings.defaults()
    profile = profile_for(settings)
    given = dict(dice or {})
    steps = Explanation()
    alert_pool = target.attribute("Perception") + target.ability("Alertness")
    if profile.key == "dark_ages":
        steps.add(f"{attacker.name} ambushes {target.name} and wins initiative.", '004 "Ambush"')
        alert = roll_dice(alert_pool, 8, dice=given.get("alertness"), rng=rng, settings=settings, roll="alertness",
                          who=target.name)
        roll_step(alert, f"{target.name}'s Perception + Alertness", steps, '004 "Ambush"')
        steps.add(f"{target.name} has {alert.net} dice to act with this first turn.", '004 "Ambush"')
        return AmbushRuling("ambushed", 0, alert.net, {"alertness": alert}, steps.steps())
    stealth_pool = attacker.attribute("Dexterity") + attacker.ability("Stealth")
    stealth = roll_dice(stealth_pool, DEFAULT_DIFFICULTY, dice=given.get("stealth"), rng=rng, settings=settings,
                        roll="stealth", who=attacker.name)
    roll_step(stealth, f"{attacker.name}'s Dexterity + Stealth", steps, '000 "Ambush"')
    alert = roll_dice(alert_pool, DEFAULT_DIFFICULTY, dice=given.get("alertness"), rng=rng, settings=settings,
                      roll="alertness", who=target.name)
    roll_step(alert, f"{target.name}'s Perception + Alertness", steps, '000 "Ambush"')
    margin = stealth.net - alert.net
    if margin > 0:
        steps.add(f"{attacker.name} stages one free attack, with {margin} extra dice.", '000 "Ambush"')
        outcome = "free_attack"
    elif margin == 0:
        steps.add(f"A tie: {attacker.name} still attacks first, but {target.name} may defend.", '000 "Ambush"')
        outcome = "first_strike"
    else:
        steps.add(f"{target.name} spots the ambush: both roll initiative as usual.", '000 "Ambush"')
        outcome = "spotted"
    return AmbushRuling(outcome, max(0, margin), None, {"stealth": stealth, "alertness": alert}, steps.steps())
