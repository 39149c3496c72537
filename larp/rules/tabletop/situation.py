"""The situations of a tabletop attack that issue 37 adds to its phases: moving before the
attack, weapon length, the gun's rounds and rate, blind fighting and the sight powers, the Dark
Ages blindside roll and passive parry, targeting an unprotected part, blunt blows at a vital
part, and the armor, helmet and shield that count in the soak (000 "General Maneuvers",
"Close Combat Maneuvers", "Ranged Combat Maneuvers", "Armor Chart", "Lethal Damage"; 004
"Basic Modifiers", "Armor", "Step-By-Step Combat Turn").

Part of :mod:`larp.rules.tabletop.combat`: the phases in :mod:`.attack`, :mod:`.defense` and
:mod:`.resolution` call these functions over the :class:`.attack_state.AttackState`.
"""

from __future__ import annotations

from dataclasses import replace

from larp.rules.armory import ARMOR_COVERS
from larp.rules.damage import armor as armor_card
from larp.rules.explain import N_, Phrase, RulesError, plural
from larp.rules.tabletop.ammunition import check_fire
from larp.rules.tabletop.attack_state import AttackState
from larp.rules.tabletop.carried import Gun
from larp.rules.tabletop.combatants import Attack, Effect, Fighter, add_dice, check_count, tabletop_level
from larp.rules.tabletop.maneuvers import Profile
from larp.rules.tabletop.movement import movement_allowance
from larp.rules.tabletop.dice import roll_step

R_LENGTH = '000 "Weapon Length"'
R_BLIND = '000 "Blind Fighting/Fire"'
R_BLINDED = '000 "Blinded"'
R_BLINDSIDE = '004 "Blindsiding"'
R_ARMOR_CHART = '000 "Armor Chart"'
R_VITAL = '000 "Lethal Damage"'
#: 004 "Blindsiding": the target's Wits + Perception difficulty by where the attack comes from.
BLINDSIDE_DIFFICULTY = {"flank": 6, "rear": 8}
#: The targeting row an aim at a body part takes when no size is given (000 "Armor Chart": the
#: narrator assigns "typically +1 or +2"): a limb or the body +1, the head as a head shot.
PART_SIZE = {"arms": "medium", "legs": "medium", "torso": "medium"}


def normalized(attack: Attack, profile: Profile) -> Attack:
    """The attack with an aim at a body part given its targeting row when no size or called shot is
    given (000 "Armor Chart", "Targeting"), so every phase reads one targeting.

    Raises:
        RulesError: an unknown body part (field ``aimed_part``).
    """
    c = attack.circumstances
    if c.aimed_part is None:
        return attack
    if c.aimed_part not in ARMOR_COVERS:
        raise RulesError(Phrase.message(N_("Aim at one of %(value)s."), value=', '.join(ARMOR_COVERS)),
                         field="aimed_part")
    if c.called_shot or c.target_size:
        if c.called_shot and body_part(c.called_shot) != c.aimed_part:
            raise RulesError(Phrase.message(N_("A called shot at the %(called_shot)s hits the %(value)s."),
                                            called_shot=c.called_shot, value=body_part(c.called_shot)),
                             field="aimed_part")
        return attack
    if c.aimed_part == "head":
        return replace(attack, circumstances=replace(c, called_shot="head"))
    return replace(attack, circumstances=replace(c, target_size=PART_SIZE[c.aimed_part]))


def body_part(called_shot: str | None) -> str | None:
    """The part of the body a called shot hits: the head, or the torso for the heart."""
    return {"head": "head", "heart": "torso"}.get(called_shot or "")


# ---------------------------------------------------------------- declared: movement and rounds

def check_move(state: AttackState) -> None:
    """Moving before the attack: up to half the running distance (Dark Ages: the walking distance)
    and still attack; farther, or from Wounded down, the move is an action of its own, so the
    attack must be one of a multiple action (000, 003, 004 "Movement"; 001 "Damage Explained":
    a Wounded character "always loses dice when moving and attacking in the same turn").

    Raises:
        RulesError: a move the allowance does not reach, or one that needs a multiple action
            (field ``moved_yards``).
    """
    c, a, slot = state.attack.circumstances, state.attack.attacker, state.attack.slot
    check_count(c.moved_yards, "moved_yards", 0, 200)
    if not c.moved_yards:
        return
    allowance = movement_allowance(a, state.settings)
    own_action = slot.total >= 2 or slot.celerity
    if c.moved_yards > allowance.run:
        raise RulesError(Phrase.message(N_("%(name)s can move at most %(yards)s this turn (%(limit)s).") if allowance.limit
                                        else N_("%(name)s can move at most %(yards)s this turn."), name=a.name,
                                        yards=Phrase.counted(allowance.run, "%(n)s yard", "%(n)s yards"),
                                        limit=Phrase.term(allowance.limit or "")), field="moved_yards")
    free = allowance.moves_and_attacks and c.moved_yards <= allowance.with_action
    if free:
        state.steps.add(N_("%(name)s moves %(yards)s (at most %(most)s) and still attacks."),
                        '004 "Movement"' if state.profile.key == "dark_ages" else '000 "Movement"', name=a.name,
                        yards=_yards(c.moved_yards), most=allowance.with_action)
        return
    if not own_action:
        if not allowance.moves_and_attacks:
            raise RulesError(Phrase.message(N_("%(name)s is %(limit)s: moving and then attacking loses dice, the "
                                               "move is an action of its own (001 \"Damage Explained\"): declare a "
                                               "multiple action."), name=a.name, limit=allowance.limit),
                             field="moved_yards")
        raise RulesError(Phrase.message(N_("%(name)s may move at most %(most)s and still attack; %(moved)s is an "
                                           "action of its own: declare a multiple action."), name=a.name,
                                        most=Phrase.counted(allowance.with_action, "%(n)s yard", "%(n)s yards"),
                                        moved=Phrase.counted(c.moved_yards, "%(n)s yard", "%(n)s yards")),
                         field="moved_yards")
    why = (Phrase.message(N_("%(name)s is %(limit)s"), name=a.name, limit=Phrase.term(allowance.limit))
           if not allowance.moves_and_attacks else
           Phrase.message(N_("%(yards)s is more than %(most)s"), yards=_yards(c.moved_yards), most=allowance.with_action))
    state.steps.add(N_("%(name)s moved %(yards)s as an action of its own (%(why)s): the attack is one of his actions and "
                       "loses dice as such."),
                    '001 "Damage Explained"' if not allowance.moves_and_attacks else '000 "Movement"', name=a.name,
                    yards=_yards(c.moved_yards), why=why)


def _yards(count: int) -> Phrase:
    """"1 yard", "3 yards", in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s yard", "%(n)s yards")


def fire(state: AttackState) -> None:
    """The rounds and rate of the gun's state given (``Circumstances.gun``): the shot is checked and
    an effect "fired" says what it spends (000 "Ranged Weapons Chart"; 003 "Multiple Shots").

    Raises:
        RulesError: as :func:`larp.rules.tabletop.ammunition.check_fire`.
    """
    c, card, m = state.attack.circumstances, state.card, state.maneuver
    if c.gun is not None and not isinstance(c.gun, Gun):
        raise RulesError(Phrase.message(N_("The gun's state is its weapon, rounds and shots this turn, as the "
                                           "combat carries it.")),
                         field="gun")
    if c.gun is None or card is None or m.kind != "ranged" or m.has("thrown"):
        return
    if c.gun.weapon != card.key:
        raise RulesError(Phrase.message(N_("The gun's state given is a %(weapon)s's, not the %(name)s's."),
                                        weapon=c.gun.weapon, name=card.name), field="gun")
    a, t = state.attack.attacker, state.attack.target
    firing = check_fire(c.gun, card, m, t.key, state.profile, a.name)
    state.steps.extend(firing.steps)
    state.effects.append(Effect(a.key, "fired", firing.steps[-1].text, target=t.key, maneuver=m.key,
                                weapon=card.key, count=firing.rounds, shots=firing.shots))


def clip_half_full(state: AttackState) -> bool:
    """Whether the clip is at least half full: from the gun's state when given, else as the narrator
    says (000 "Automatic Fire")."""
    c, card = state.attack.circumstances, state.card
    if c.gun is not None and c.gun.rounds is not None and card is not None and card.clip:
        return c.gun.rounds * 2 >= card.clip
    return c.clip_half_full


# ---------------------------------------------------------------- Stage Two: dice

def reach_dice(state: AttackState, pool: int) -> int:
    """Against a longer weapon the attacker closes in a yard, then strikes, losing a die (000, 003
    "Weapon Length"): a close attack with a shorter weapon (or bare hands) on a target who holds a
    longer melee weapon and can fend him off (not held, immobilized or staked), unless he is already
    inside its reach (``inside_reach``) or holds the target."""
    m, a, t, c = state.maneuver, state.attack.attacker, state.attack.target, state.attack.circumstances
    if m.kind != "close" or c.inside_reach or c.prior_hold or c.target_held or c.target_immobilized:
        return pool
    if t.track.staked or t.wound_penalty is None:
        return pool
    theirs = t.weapon_card()
    if theirs is None or not theirs.melee:
        return pool
    mine = state.card.length if state.card is not None and state.card.melee else 0
    if theirs.length <= mine:
        return pool
    said = dict(name=a.name, target=t.name, theirs=Phrase.term(theirs.name.lower()))
    closes = (Phrase.message(N_("%(name)s closes in a yard on %(target)s's longer %(theirs)s with a %(weapon)s"),
                             weapon=Phrase.term(state.card.name.lower()), **said) if state.card is not None else
              Phrase.message(N_("%(name)s closes in a yard on %(target)s's longer %(theirs)s with bare hands"), **said))
    return add_dice(state.steps, pool, -1, closes, R_LENGTH)


def blindside_dice(state: AttackState, pool: int) -> int:
    """Dark Ages: a flank or rear attack gains a die unless the target avoids being blindsided: by
    setting ``tabletop_blindside_roll``, a Wits + Perception roll (difficulty 6 from the flank, 8
    from the rear) with as many successes as the attacker's Stealth, at least one; or the
    narrator's word; or never (004 "Blindsiding").

    Raises:
        DiceNeeded: the roll "blindside" has no faces and there is no random source.
    """
    a, t, c, steps = state.attack.attacker, state.attack.target, state.attack.circumstances, state.steps
    sit = state.profile.situation
    model = state.settings["tabletop_blindside_roll"]
    if model == "narrator":
        if c.blindside_spotted:
            steps.add(Phrase.message(N_("%(name)s spotted the blindside: no extra die."), name=t.name), R_BLINDSIDE,
                      setting="tabletop_blindside_roll")
            return pool
    elif model == "roll":
        where = "rear" if c.rear else "flank"
        need = max(1, a.ability("Stealth"))
        dice = t.attribute("Wits") + t.attribute("Perception")
        roll = state.roller.roll("blindside", dice, BLINDSIDE_DIFFICULTY[where], who=t.name)
        avoid = (N_("%(name)s's Wits + Perception to avoid the blindside from the rear (needs %(need)s, %(attacker)s's "
                    "Stealth)") if c.rear else
                 N_("%(name)s's Wits + Perception to avoid the blindside from the flank (needs %(need)s, %(attacker)s's "
                    "Stealth)"))
        roll_step(roll, Phrase.message(avoid, name=t.name, need=need, attacker=a.name), steps, R_BLINDSIDE)
        if roll.net >= need:
            steps.add(Phrase.message(N_("%(name)s is not blindsided: no extra die."), name=t.name), R_BLINDSIDE,
                      setting="tabletop_blindside_roll")
            return pool
    return add_dice(steps, pool, sit.flank_dice, Phrase.message(N_("Blindsiding (flank or rear)")), R_BLINDSIDE,
                    setting="tabletop_blindside_roll")


def sight(fighter: Fighter, state: AttackState) -> tuple[int, str]:
    """What ``fighter``'s powers take off the +2 of fighting blind, and the power (000 "Blind
    Fighting/Fire"; 004 "Blind Fighting"; the profile's ``sight`` table)."""
    return state.profile.sight_reduction(fighter.powers)


def blind_difficulty(state: AttackState) -> tuple[int, str, str]:
    """The attacker's difficulty for fighting blind, less what his sight powers remove (000 "Blind
    Fighting/Fire": +2, "Heightened Senses and Eyes of the Beast partly or fully negate this
    penalty"; 004 "Blind Fighting": +2 on Brawl and Melee attacks)."""
    a = state.attack.attacker
    base = state.profile.situation.blind_difficulty
    cut, power = sight(a, state)
    left = max(0, base - cut)
    text = (Phrase.message(N_("Fighting blind (%(power)s removes %(n)s)"), power=power, n=min(cut, base)) if cut else
            Phrase.message(N_("Fighting blind")))
    rule = '004 "Blind Fighting"' if state.profile.key == "dark_ages" else R_BLIND
    return left, text, rule


def check_blind_ranged(state: AttackState) -> None:
    """No ranged attack blind, unless a sight power negates the blindness (000 "Blind Fighting/Fire";
    004 "Blind Fighting").

    Raises:
        RulesError: a ranged attack by a blind attacker (field ``blind``).
    """
    if state.maneuver.kind == "ranged" and state.attack.circumstances.blind:
        if blind_difficulty(state)[0] > 0:
            raise RulesError(Phrase.message(N_("Ranged attacks cannot be made blind or in pitch darkness (000 "
                                               "\"Blind Fighting/Fire\"; 004 \"Blind Fighting\").")), field="blind")


def blinded_target_dice(state: AttackState, pool: int) -> int:
    """+2 attack dice against a blinded target, unless his sight powers negate the blindness (000
    "Blinded")."""
    t, c = state.attack.target, state.attack.circumstances
    if not c.target_blinded:
        return pool
    base = state.profile.situation.blind_difficulty
    cut, power = sight(t, state)
    if cut >= base:
        state.steps.add(N_("%(name)s's %(power)s sees through the dark: not blinded."), R_BLINDED, name=t.name, power=power)
        return pool
    return add_dice(state.steps, pool, state.profile.situation.blinded_target_dice,
                    Phrase.message(N_("%(name)s is blinded"), name=t.name), R_BLINDED)


def blinded_defense(state: AttackState) -> tuple[int, str, str]:
    """The difficulty a blinded target adds to his defense: blind characters are at +2 on all
    actions, less what his sight powers remove (000 "Blinded", "Blind Fighting/Fire")."""
    t, c = state.attack.target, state.attack.circumstances
    if not c.target_blinded:
        return 0, "", R_BLINDED
    base = state.profile.situation.blind_difficulty
    cut, power = sight(t, state)
    left = max(0, base - cut)
    blind = (Phrase.message(N_("%(name)s defends blind (%(power)s removes %(n)s)"), name=t.name, power=power,
                            n=min(cut, base)) if cut else Phrase.message(N_("%(name)s defends blind"), name=t.name))
    return left, blind, R_BLINDED


# ---------------------------------------------------------------- Stage Two: difficulty

def passive_parry(state: AttackState) -> tuple[int, str, str] | None:
    """Dark Ages: a target who parries passively (a melee weapon or shield held ready, no action
    spent) raises a close attack's difficulty by the setting ``tabletop_passive_parry_difficulty``
    (004 "Target Announces Active or Passive Parry", "Fastest Character Takes First Action").

    Raises:
        RulesError: outside the Dark Ages profile, against a ranged attack, or with nothing to parry
            with (field ``defense.maneuver``).
    """
    d, t, m = state.attack.defense, state.attack.target, state.maneuver
    if d is None or d.maneuver != "passive_parry":
        return None
    if state.profile.key != "dark_ages":
        raise RulesError(Phrase.message(N_("A passive parry is a Dark Ages defense (004).")), field="defense.maneuver")
    if m.kind != "close":
        raise RulesError(Phrase.message(N_("Missile attacks cannot be parried (004 \"Parrying\").")),
                         field="defense.maneuver")
    blade = t.weapon_card()
    if t.shield is None and (blade is None or not blade.melee):
        raise RulesError(Phrase.message(N_("%(name)s has no melee weapon or shield to parry with."), name=t.name),
                         field="defense.maneuver")
    value = state.settings["tabletop_passive_parry_difficulty"]
    return value, Phrase.message(N_("%(name)s parries passively"), name=t.name), '004 "Step-By-Step Combat Turn"'


# ---------------------------------------------------------------- Stage Three

def vital_blow_type(state: AttackState, kind: str) -> str:
    """A blunt blow (bare hands, a kick, a club) aimed at a vital part (the head, the heart:
    difficulty 8 or 9 to target) does lethal damage at the narrator's option, the setting
    ``tabletop_blunt_vital_lethal`` (000, 001 "Lethal Damage"): by default only a blunt weapon at the
    head does, as the melee chart says (:func:`larp.rules.tabletop.wounds.attack_damage_type`)."""
    c, m, card, t = state.attack.circumstances, state.maneuver, state.card, state.attack.target
    model = state.settings["tabletop_blunt_vital_lethal"]
    if model == "weapons_at_head" or kind != "bashing" or m.kind != "close":
        return kind
    if card is not None and not card.blunt:
        return kind
    size_key = state.profile.called_shots[c.called_shot] if c.called_shot else c.target_size
    if not size_key or state.profile.target_sizes[size_key].difficulty < 2:
        return kind
    if model == "mortals" and t.creature == "vampire":
        return kind
    state.steps.add(Phrase.message(N_("A blunt blow aimed at a vital part does lethal damage to a mortal.") if model == "mortals"
                                   else N_("A blunt blow aimed at a vital part does lethal damage.")), R_VITAL,
                    setting="tabletop_blunt_vital_lethal")
    return "lethal"


def soaking_target(state: AttackState) -> Fighter:
    """The target as his protection counts against this hit: body armor unless the attack is aimed
    at a part it does not cover (000 "Armor Chart": targeting rolls "ignore the armor"); the helmet
    only for a blow aimed at the head or at no part; the shield from the front and the flank it
    covers, never from the rear (004 "Blindsiding": "Shields provide no protection against rear
    attacks and only protect one flank")."""
    t, c, steps = state.attack.target, state.attack.circumstances, state.steps
    part = c.aimed_part or body_part(c.called_shot)
    rule = '004 "Armor"' if state.profile.key == "dark_ages" else R_ARMOR_CHART
    changes: dict[str, None] = {}
    if t.armor and part:
        worn = armor_card(t.armor, "tabletop")
        if worn.covers and part not in worn.covers:
            steps.add(N_("Aimed at the %(part)s, which %(name)s's %(armor)s does not cover: the armor is ignored."), rule,
                      part=Phrase.term(part), name=t.name, armor=Phrase.term(worn.name))
            changes["armor"] = None
    if t.helmet and part and part != "head":
        changes["helmet"] = None
    if t.shield:
        shield = armor_card(t.shield, "tabletop", "shield")
        if c.rear or (c.flank and not c.shield_side):
            steps.add(N_("%(name)s's %(shield)s does not cover the rear.") if c.rear else
                      N_("%(name)s's %(shield)s does not cover the other flank."), R_BLINDSIDE, name=t.name,
                      shield=Phrase.term(shield.name.lower()))
            changes["shield"] = None
    return replace(t, **changes) if changes else t


def lasting_injury(state: AttackState) -> None:
    """Optional rule (setting ``mortal_bashing_aftereffects``): a mortal or ghoul beaten past Wounded
    may keep a lasting effect (sight or hearing altered by a concussion, pain from internal
    bruising) until adequate medical attention (000 "Healing Bashing Damage")."""
    t = state.attack.target
    if not state.settings["mortal_bashing_aftereffects"] or t.creature == "vampire" or not state.levels:
        return
    if state.soak is None or state.soak.damage_type != "bashing":
        return
    level = tabletop_level(state.target_track)
    if level not in ("Mauled", "Crippled", "Incapacitated"):
        return
    text = Phrase.message(N_("%(name)s is beaten past Wounded (%(level)s): a lasting effect (a concussion, internal "
                             "bruising) until adequate medical attention; the narrator describes it."), name=t.name,
                          level=Phrase.term(level))
    state.steps.add(text, '000 "Healing Bashing Damage"', setting="mortal_bashing_aftereffects")
    state.effects.append(Effect(t.key, "lasting_injury", text))
