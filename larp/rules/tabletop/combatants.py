"""A tabletop attack's inputs and outputs: the fighters, the circumstances, the target's
defense, the attack, its effects and its ruling (000 "Combat Turns"; 004 "Step-By-Step
Combat Turn"), and the helpers every stage of :mod:`larp.rules.tabletop.combat` shares
(the dice roller, the health level names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from larp.rules.damage import Weapon, armor as armor_card, weapon as weapon_card
from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.numbers import whole_number
from larp.rules.health import CONDITION_LABELS, HealthTrack, tabletop_dice_penalty, tabletop_view
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import DiceSource, SoakRuling
from larp.rules.tabletop.actions import ActionSlot
from larp.rules.torpor import TorporStart
from larp.rules.tabletop.carried import Gun
from larp.rules.tabletop.dice import (
    DiceRoll,
    roll_dice,
)
from larp.rules.tabletop.maneuvers import Maneuver, Profile


DICE_KEYS = ("attack", "abort", "defense", "damage", "soak", "knockdown", "rise", "knockdown_attacker",
             "rise_attacker", "riposte_damage", "riposte_soak", "blindside")
RANGES = ("point_blank", "short", "long")
CALLED_SHOTS = ("head", "heart")

R_ATTACK = '000 "Stage Two: Attack"'
R_RESOLUTION = '000 "Stage Three: Resolution"'
R_DEFENSE = '000 "Defensive Maneuvers"'
R_DAMAGE = '000 "Damage Types"'
R_HEALTH = '000 "Health Chart"'
R_KNOCKDOWN = '000 "Knockdown"'
#: Under the Dark Ages profile, the general steps cite 004, which states the same rules.
DARK_AGES_CITATIONS = {
    R_ATTACK: '004 "Stage Two: Attack"',
    R_RESOLUTION: '004 "Stage Three: Resolution"',
    R_DAMAGE: '004 "Stage Three: Resolution"',
    R_DEFENSE: '004 "Target Defends"',
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
        raise RulesError(Phrase.message(N_("A rating is a whole number of dots from 0 to 10.")), field=field)
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
        ignore_wounds: he spent a Willpower point to ignore his wound penalties this turn, up to
            and including Incapacitated (LotNR Willpower, met-reference 2.1, 4.1).
        converted: the ratings converted from his live Traits because the sheet has no tabletop
            dots for them (LotNR Converting Characters, met-reference 4.3), in words.
        helmet, shield: the tabletop armory keys of his helmet and shield, or ``None`` (004 "Armor",
            "Blindsiding", "Parrying").
        generation: a vampire's generation (his limit on blood a turn and on Attributes; ``None``:
            13th), and blood: blood points in his pool (``None``: not counted) (004 "Spend Blood").
        morality: his Humanity or Path in MET Traits, and tabletop_morality: in dots when the sheet
            has them (how long a torpor the attack begins lasts, met-reference 5.2; ``None``: not known).
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
    ignore_wounds: bool = False
    converted: tuple[str, ...] = ()
    helmet: str | None = None
    shield: str | None = None
    generation: int | None = None
    blood: int | None = None
    morality: int | None = None
    tabletop_morality: int | None = None

    @property
    def creature(self) -> str:
        """"vampire", "ghoul" or "mortal" (from the track; 000 "Damage Types" differ by creature)."""
        return self.track.creature

    def attribute(self, name: str) -> int:
        """Dots in the Attribute ``name`` (000 "Stage Two: Attack": Attribute + Ability).

        Raises:
            RulesError: the sheet has no tabletop rating for it (field ``<key>.attributes.<name>``).
        """
        for key, value in self.attributes.items():
            if _norm(key) == _norm(name):
                return _dots(value, f"{self.key}.attributes.{name}")
        raise RulesError(Phrase.message(N_("%(name)s has no tabletop %(name2)s rating: add the tabletop Attributes "
                                           "to the sheet."), name=self.name, name2=name),
                         field=f"{self.key}.attributes.{name}")

    def ability(self, name: str) -> int:
        """Dots in the Ability ``name`` (0 if none: the roll defaults to the Attribute, 000 "Stage Two: Attack")."""
        for key, value in self.abilities.items():
            if _norm(key) == _norm(name):
                return _dots(value, f"{self.key}.abilities.{name}")
        return 0

    def discipline(self, name: str) -> int:
        """Dots in the Discipline ``name`` (0 if none; Potence and Fortitude, 000 "Bashing Damage", "Soak")."""
        for key, value in self.disciplines.items():
            if _norm(key) == _norm(name):
                return _dots(value, f"{self.key}.disciplines.{name}")
        return 0

    def has_power(self, name: str) -> bool:
        """Whether he holds the power ``name`` (Feral Claws..., 000 "Close Combat Maneuvers")."""
        return any(_norm(p) == _norm(name) for p in self.powers)

    @property
    def wound_penalty(self) -> int | None:
        """Dice his health subtracts from action pools, ``None`` when he can take no
        action (000 "Health Chart"; unconscious, torpor, Final Death); 0 this turn when he
        spent Willpower against his wounds (LotNR Willpower, met-reference 2.1, 4.1)."""
        if self.track.condition != "active" or self.track.staked:
            return None
        if self.ignore_wounds:
            return 0
        penalty = tabletop_dice_penalty(self.track)
        return None if penalty is None else abs(penalty)

    def weapon_card(self) -> Weapon | None:
        """His tabletop weapon, or ``None`` (000 "Melee Weapons Chart", "Ranged Weapons Chart").

        Raises:
            RulesError: an unknown weapon key.
        """
        if not self.weapon:
            return None
        try:
            return weapon_card(self.weapon, "tabletop")
        except RulesError:
            raise RulesError(Phrase.message(N_("%(name)s: there is no tabletop weapon %(weapon)s."),
                                            name=self.name, weapon=repr(self.weapon)),
                             field=f"{self.key}.weapon") from None

    def armor_penalty(self, profile: Profile) -> tuple[int, str]:
        """Dice his armor takes from Dexterity-based pools, and the reason (000 "Armor Chart";
        004 "Armor": Melee 3 or more, or Strength (+ Potence) twice what the armor requires, halves
        it, rounding down)."""
        if not self.armor:
            return 0, ""
        card = armor_card(self.armor, "tabletop")
        penalty = card.penalty
        at = profile.situation.armor_penalty_halved_at_melee
        if penalty and at and self.ability("Melee") >= at:
            return penalty // 2, f"{card.name}: penalty {penalty} halved for Melee {self.ability('Melee')}"
        if penalty and at and card.strength:
            strength, potence = self.attribute("Strength"), self.discipline("Potence")
            if strength + potence >= 2 * card.strength:
                why = f"Strength {strength}" + (f" + Potence {potence}" if potence else "")
                return penalty // 2, (f"{card.name}: penalty {penalty} halved for {why}, twice the Strength "
                                      f"{card.strength} it needs")
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
        moved_yards: yards the attacker moved this turn before attacking (000, 004 "Movement").
        inside_reach: the attacker is already inside the target's longer weapon (000 "Weapon Length").
        aimed_part: the part of the body aimed at ("head", "torso", "arms", "legs") to get round the
            armor (000 "Armor Chart"); its targeting difficulty is a limb's or the head's unless a
            size or called shot is given.
        shield_side: a flank attack comes from the side the target's shield covers (004 "Blindsiding").
        gun: the attacker's gun as the combat carries it (rounds, shots this turn; 000 "Ranged
            Weapons Chart"); ``None``: rounds and rate through the turn are not counted.
        source: what the damage is: ``"other"``, ``"fire"`` (a torch, a burning brand) or
            ``"sunlight"``: fire and sunlight are aggravated to a vampire, only Fortitude soaks them
            and armor does not protect (000 "Damage Types", "Soak", "Armor").
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
    moved_yards: int = 0
    inside_reach: bool = False
    aimed_part: str | None = None
    shield_side: bool = False
    gun: Gun | None = None
    source: str = "other"


@dataclass(frozen=True)
class DefenseChoice:
    """The target's defense against this attack.

    Attributes:
        maneuver: "dodge", "block" or "parry"; Dark Ages also "passive_parry" (no roll, no action:
            the attack's difficulty rises, 004).
        slot: which of his actions it uses (multiple actions, full defense).
        abort: ``None`` (a declared defense), "roll" (abort by a Willpower roll,
            difficulty 6) or "point" (abort by spending a Willpower point).
        attackers: attackers he defends against this turn (+1 per extra, at most +4).
        dodge_modifiers: Dark Ages dodge modifier keys (004 "Dodge Modifiers").
        difficulty: the narrator sets the difficulty outright.
        shared: Dark Ages: the successes of his one dodge roll this turn that he gives this attack
            (no roll of its own, 004 "Dodging"); ``None``: a roll of its own.
        with_shield: he parries with his shield rather than his weapon (004 "Parrying").
    """

    maneuver: str
    slot: ActionSlot = ActionSlot()
    abort: str | None = None
    attackers: int = 1
    dodge_modifiers: tuple[str, ...] = ()
    difficulty: int | None = None
    shared: int | None = None
    with_shield: bool = False


@dataclass(frozen=True)
class Attack:
    """One attack: who, on whom, how, in which situation, and the defense (000 "Combat Turns";
    004 "Step-By-Step Combat Turn")."""

    maneuver: str
    attacker: Fighter
    target: Fighter
    circumstances: Circumstances = Circumstances()
    slot: ActionSlot = ActionSlot()
    defense: DefenseChoice | None = None


# ---------------------------------------------------------------- output

@dataclass(frozen=True)
class Effect:
    """Something that follows from the attack (000 "Stage Three: Resolution", "Knockdown",
    "Soak"; 004 "Apply Attack Damage").

    Attributes:
        who: the fighter's key.
        kind: "dazed", "knocked_down", "rising", "slowed", "unbalanced", "holds",
            "hold_broken", "staked", "disarmed", "armor_destroyed", "botch",
            "willpower_spent", "empties_clip", "fired" (rounds spent), "lasting_injury" (a
            mortal's bashing past Wounded, setting ``mortal_bashing_aftereffects``), "dodge_shared"
            (``count`` successes of his one Dark Ages dodge roll given to this attack).
        text: what it means, for the narrator.
        target: for "holds": the key of the character held (for "fired": shot at); maneuver: the
            holding (or firing) maneuver.
        weapon, count, shots: for "fired": the weapon's key, the rounds spent and the shots counted
            against its rate (000 "Ranged Weapons Chart").
    """

    who: str
    kind: str
    text: str
    target: str | None = None
    maneuver: str | None = None
    weapon: str | None = None
    count: int = 0
    shots: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        data: dict[str, Any] = {"who": self.who, "kind": self.kind, "text": self.text}
        if self.target:
            data.update(target=self.target, maneuver=self.maneuver)
        if self.kind == "fired":
            data.update(weapon=self.weapon, count=self.count, shots=self.shots)
        elif self.kind == "dodge_shared":
            data.update(count=self.count)
        return data


@dataclass(frozen=True)
class AttackRuling:
    """The outcome of one attack (000 "Stage Two: Attack", "Stage Three: Resolution"; 004
    "Step-By-Step Combat Turn").

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
        torpor: the torpors the attack begins, by fighter key: a vampire whose track it puts in
            torpor, worked out by the rules core from the game session's date (met-reference 5.2).
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
    torpor: Mapping[str, TorporStart] = field(default_factory=dict)

    def has(self, kind: str, who: str | None = None) -> bool:
        """Whether an effect of ``kind`` (on ``who``, if given) follows (000 "Stage Three: Resolution")."""
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
            "torpor": {k: start.to_dict() for k, start in self.torpor.items()},
        }


# ---------------------------------------------------------------- helpers

class DiceRoller:
    """Rolls by name from the given faces or the random source, and remembers the faces so a
    ruling can be replayed (000 "Combat Turns"; the roll names are ``DICE_KEYS``).

    Raises:
        RulesError: a roll name that is not one of ``DICE_KEYS`` (field ``dice.<name>``).
    """

    def __init__(self, given: Mapping[str, Sequence[int]] | None, rng: DiceSource | None,
                 settings: ChronicleSettings, steps: Explanation):
        given = dict(given or {})
        unknown = sorted(set(given) - set(DICE_KEYS))
        if unknown:
            raise RulesError(Phrase.message(N_("There is no roll called %(value)s (%(value2)s)."),
                                            value=repr(unknown[0]), value2=', '.join(DICE_KEYS)),
                             field=f"dice.{unknown[0]}")
        self.given, self.rng, self.settings, self.steps = given, rng, settings, steps
        self.made: dict[str, tuple[int, ...]] = {}

    def roll(self, name: str, pool: int, difficulty: int, *, can_botch: bool = True, automatic: int = 0,
             who: str = "") -> DiceRoll:
        """Roll ``name`` from its given faces or the random source, and remember the faces
        (:func:`larp.rules.tabletop.dice.roll_dice`: 1s cancel successes, 000 "Stage Two: Attack").

        Raises:
            DiceNeeded: no faces given and no random source.
        """
        result = roll_dice(pool, difficulty, dice=self.given.get(name), rng=self.rng, can_botch=can_botch,
                           automatic=automatic, settings=self.settings, roll=name, who=who,
                           steps=self.steps.steps())
        self.made[name] = result.dice
        return result


def add_dice(steps: Explanation, pool: int, dice: int, text: str, rule: str, setting: str | None = None) -> int:
    """``pool`` plus ``dice`` (may be negative), told as a step citing ``rule`` when not zero
    (000 "Stage Two: Attack": the modifiers to a pool)."""
    if dice:
        steps.add(N_("%(what)s: %(change)s dice (%(pool)s)."), rule, setting, what=text, change=f"{dice:+d}", pool=pool + dice)
    return pool + dice


def check_count(value: Any, field: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (opponents, turns aiming, dice...;
    000 "Maneuver Characteristics").

    Raises:
        RulesError: not a whole number in range (``field`` names it).
    """
    return whole_number(value, field, low=low, high=high, text=False)


def maneuver_weapon(m: Maneuver, fighter: Fighter) -> Weapon | None:
    """The weapon the maneuver is made with (``None`` bare-handed), checked against the maneuver
    (000 "Melee Weapons Chart", "Ranged Weapons Chart").

    Raises:
        RulesError: the maneuver needs another weapon (field ``weapon``).
    """
    card = fighter.weapon_card()
    if m.weapon == "none":
        return None
    if m.weapon in ("melee", "thrown"):
        if card is None or not card.melee:
            raise RulesError(Phrase.message(N_("%(maneuver)s needs a melee weapon to throw; %(name)s has %(weapon)s.")
                                            if m.weapon == "thrown" else
                                            N_("%(maneuver)s needs a melee weapon to use; %(name)s has %(weapon)s."),
                                            maneuver=m.name, name=fighter.name,
                                            weapon=card.name if card else Phrase.message(N_("none"))), field="weapon")
        return card
    if m.weapon == "ranged":
        if card is None or card.melee:
            raise RulesError(Phrase.message(N_("%(maneuver)s needs a ranged weapon; %(name)s has %(weapon)s."),
                                            maneuver=m.name, name=fighter.name,
                                            weapon=card.name if card else Phrase.message(N_("none"))), field="weapon")
        if m.weapon_special and not card.has(m.weapon_special):
            raise RulesError(Phrase.message(N_("A %(name)s cannot do that: %(name2)s needs a weapon capable of "
                                               "%(weapon_special)s (000 \"Ranged Weapons Chart\")."),
                                            name=card.name, name2=m.name, weapon_special=m.weapon_special),
                             field="weapon")
        return card
    # optional: bare-handed, or with a melee weapon (the sweep)
    if card is not None and not card.melee:
        raise RulesError(Phrase.message(N_("%(name)s is made bare-handed or with a melee weapon, not a %(name2)s."),
                                        name=m.name, name2=card.name), field="weapon")
    return card


def fighter_state(track: HealthTrack) -> str:
    """Why he cannot act, in words: his condition (torpor, Final Death...), "staked", or his
    tabletop health level (000 "Health Chart")."""
    if track.condition != "active":
        return CONDITION_LABELS[track.condition].lower()
    if track.staked:
        return "staked"
    return tabletop_level(track)


def tabletop_level(track: HealthTrack) -> str:
    """The tabletop health level he stands on ("Hurt", "Incapacitated"...; 000 "Health Chart")."""
    return tabletop_view(track)["level"]


def claw_type(m: Maneuver, fighter: Fighter) -> tuple[str, str]:
    """(damage type, power) of a claw attack: the first of the maneuver's powers he holds (000
    "Close Combat Maneuvers": Claw, Feral Claws or Bonecraft).

    Raises:
        RulesError: he has no power that grows claws (field ``maneuver``).
    """
    for power, kind in m.powers.items():
        if fighter.has_power(power):
            return kind, power
    raise RulesError(Phrase.message(N_("%(name)s has no power that grows claws (%(value)s)."),
                                    name=fighter.name, value=', '.join(m.powers)), field="maneuver")


