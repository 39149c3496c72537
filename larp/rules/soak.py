"""The tabletop soak roll (000 "Soak", "Armor", "Bashing Damage"; 004 "Soak"; the tabletop profile).

After an attack hits and its damage roll scores successes (health levels), the
defender rolls a soak dice pool by his kind, the damage type, Fortitude and
armor (004's table, ``data/soak.toml``) against difficulty 6. Each success
removes one level; each 1 cancels a success (000, the Liselle example); soak
cannot botch. A vampire then halves bashing damage, rounding down, with no
minimum (000, the Kincaid example: one level halves to zero) - except bashing
damage from firearms, which seed 002 never halves. Armor is destroyed when
the damage rolled reaches twice its rating; a defender is dazed when the
damage past soak exceeds his Stamina (+2 for vampires) (000 "Dazed").

Dice come from an injected source: explicit results, or an object with
``randint(a, b)`` such as ``random.Random``; every die is in the steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, Sequence

from larp.rules.damage import armor, damage_type_against, firearm_reading, weapon
from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.explain import levels as levels_of
from larp.rules.health import HealthRuling, HealthTrack, apply_damage
from larp.rules.settings import ChronicleSettings
from larp.tables import TableError, load_toml, require

_SOAK = '000 "Soak"'
_TABLE = '004 "Soak" table'


class DiceSource(Protocol):
    """What a dice source must offer: ``random.Random`` does."""

    def randint(self, a: int, b: int) -> int:  # pragma: no cover - protocol
        """A whole number from ``a`` to ``b`` inclusive (a die is ``randint(1, 10)``)."""
        ...


@dataclass(frozen=True)
class SoakRow:
    """One cell of the soak table: the ratings in the pool, and whether armor adds.

    An empty ``pool`` means the damage cannot be soaked.
    """

    pool: tuple[str, ...]
    armor: bool


@lru_cache(maxsize=None)
def soak_table() -> dict[str, dict[str, SoakRow]]:
    """The soak dice pools by creature ("vampire", "mortal") and damage
    ("bashing", "lethal", "aggravated", "aggravated_fire_sunlight"), from ``data/soak.toml``.

    Raises:
        TableError: a malformed row (names the file and entry).
    """
    raw = load_toml("soak.toml")
    table: dict[str, dict[str, SoakRow]] = {}
    for creature in ("vampire", "mortal"):
        rows = raw.get(creature)
        if not isinstance(rows, dict):
            raise TableError(f"data/soak.toml [{creature}]: missing")
        table[creature] = {}
        for kind, entry in rows.items():
            where = f"data/soak.toml [{creature}] {kind}"
            pool = require(entry, "pool", list, where)
            if not all(x in ("Stamina", "Fortitude") for x in pool):
                raise TableError(f"{where}: a pool lists only Stamina and Fortitude")
            table[creature][kind] = SoakRow(tuple(pool), require(entry, "armor", bool, where))
    return table


def soak_difficulty() -> int:
    """The standard soak difficulty (6; 000 "Soak")."""
    return require(load_toml("soak.toml"), "difficulty", int, "data/soak.toml")


@dataclass(frozen=True)
class Defender:
    """The character soaking, in tabletop dots.

    Attributes:
        creature: "vampire", "ghoul" or "mortal" (ghouls use the mortal row).
        stamina: Stamina dots.
        fortitude: Fortitude dots.
        armor: a tabletop armory key ("class_three"...), or ``None``.
        helmet, shield: tabletop helmet and shield keys, or ``None``: each adds its rating where
            armor protects (004 "Armor"; the shield only where it covers, which the caller decides).
    """

    creature: str = "vampire"
    stamina: int = 1
    fortitude: int = 0
    armor: str | None = None
    helmet: str | None = None
    shield: str | None = None


def _plus(parts: list[Phrase]) -> Phrase:
    """A soak pool's parts joined with " + " ("Stamina 2 + Kevlar vest 3")."""
    joined = parts[0]
    for part in parts[1:]:
        joined = Phrase.message(N_("%(first)s + %(second)s"), first=joined, second=part)
    return joined


def soak_pool(defender: Defender, damage_type: str, source: str = "other",
              settings: ChronicleSettings | None = None) -> tuple[int, tuple[Step, ...]]:
    """The soak dice pool of ``defender`` against ``damage_type`` (after the type
    against his kind: a mortal's aggravated damage is already lethal).

    Rules: 004 "Soak" table; Fortitude adds to Stamina against bashing and
    lethal and alone soaks aggravated damage; armor adds its rating except
    against fire and sunlight (000 "Soak", "Armor"), a helmet and a shield theirs too (004
    "Armor"). Under the Dark Ages profile, the setting ``dark_ages_fire_soak`` may read 004's
    step-by-step list instead of its table: Stamina + Fortitude against fire and sunlight for a
    vampire with Fortitude.

    Raises:
        RulesError: negative ratings, unknown armor, or a damage type the
            creature's row does not have.
    """
    if defender.stamina < 0 or defender.fortitude < 0:
        raise RulesError(Phrase.message(N_("Stamina and Fortitude are dots, at least 0.")), field="stamina")
    row_name = "vampire" if defender.creature == "vampire" else "mortal"
    kind = damage_type
    if damage_type == "aggravated" and source in ("fire", "sunlight"):
        kind = "aggravated_fire_sunlight"
    rows = soak_table()[row_name]
    if kind not in rows:
        raise RulesError(Phrase.message(N_("The soak table has no %(kind)s row for a %(row_name)s."),
                                        kind=kind, row_name=row_name), field="damage_type")
    row = rows[kind]
    steps = Explanation()
    settings = settings or ChronicleSettings.defaults()
    if (kind == "aggravated_fire_sunlight" and row_name == "vampire" and defender.fortitude
            and settings["tabletop_profile"] == "dark_ages" and settings["dark_ages_fire_soak"] == "step_by_step"):
        row = SoakRow(("Stamina", "Fortitude"), row.armor)
        steps.add(Phrase.message(N_("Dark Ages, 004's step-by-step list: a vampire with Fortitude soaks fire and sunlight "
                                    "with Stamina + Fortitude.")), '004 "Roll Soak"', setting="dark_ages_fire_soak")
    ratings = {"Stamina": defender.stamina, "Fortitude": defender.fortitude}
    parts = [Phrase.message(N_("%(what)s %(n)s"), what=Phrase.term(name), n=ratings[name])
             for name in row.pool if ratings[name] or name == "Stamina"]
    dice = sum(ratings[name] for name in row.pool)
    worn = armor(defender.armor, "tabletop") if defender.armor else None
    extra = [armor(key, "tabletop", kind) for key, kind in ((defender.helmet, "helmet"), (defender.shield, "shield"))
             if key]
    # A mortal's burn is lethal to him (001 "Aggravated Damage") but still fire: armor never stops fire (000 "Armor").
    shields = row.armor and source not in ("fire", "sunlight")
    for piece in ([worn] if worn is not None else []) + extra:
        if shields:
            dice += piece.rating
            parts.append(Phrase.message(N_("%(what)s %(n)s"), what=Phrase.term(piece.name), n=piece.rating))
        else:
            steps.add(N_("%(armor)s does not protect against fire or sunlight."), '000 "Armor"',
                      armor=Phrase.term(piece.name))
    kind_said = Phrase.term(damage_type)
    if not row.pool and not ((worn is not None or extra) and shields and dice):
        steps.add(N_("%(kind)s damage cannot be soaked by a mortal.") if row_name == "mortal" else
                  N_("%(kind)s damage cannot be soaked by a vampire."), _TABLE, kind=Phrase.term(damage_type.capitalize()))
        return 0, steps.steps()
    if dice == 0:
        steps.add(N_("No soak dice against %(kind)s damage (%(pool)s)."), _TABLE, kind=kind_said,
                  pool=_plus(parts) if parts else Phrase.message(N_("none")))
        return 0, steps.steps()
    steps.add(N_("Soak pool against %(kind)s damage: %(pool)s = %(n)s dice."), _TABLE, kind=kind_said, pool=_plus(parts),
              n=dice)
    return dice, steps.steps()


@dataclass(frozen=True)
class SoakRoll:
    """A soak roll: every die, the successes, the 1s and what is left.

    Attributes:
        dice: each die's face, 1 to 10.
        difficulty: the target number (6 unless stated).
        successes: dice at or above the difficulty.
        ones: dice showing 1, each cancelling a success.
        net: successes left (never below 0: soak cannot botch).
        by_app: the app rolled the dice (otherwise rolled at the table and entered).
    """

    dice: tuple[int, ...]
    difficulty: int
    successes: int
    ones: int
    net: int
    by_app: bool = False


def roll_soak(pool: int, *, dice: Sequence[int] | None = None, rng: DiceSource | None = None,
              difficulty: int = 6) -> SoakRoll:
    """Roll ``pool`` soak dice (000 "Soak": difficulty 6, a 1 cancels a success, no botch).

    Args:
        pool: dice to roll, at least 0.
        dice: the faces rolled, one per die (a replay or a roll at the table).
        rng: a source with ``randint(a, b)`` to roll them instead.
        difficulty: the target number, 2 to 10.

    Raises:
        RulesError: a wrong number of dice, a face outside 1..10, an
            impossible difficulty, or no dice and no random source.
    """
    if not 2 <= difficulty <= 10:
        raise RulesError(Phrase.message(N_("A difficulty is a number from 2 to 10.")), field="difficulty")
    if dice is not None:
        faces = tuple(dice)
        if len(faces) != pool:
            raise RulesError(Phrase.message(N_("The soak pool is %(pool)s dice; %(given)s results were given."), pool=pool,
                                            given=len(faces)), field="dice")
        if any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 10 for d in faces):
            raise RulesError(Phrase.message(N_("Each die shows a number from 1 to 10.")), field="dice")
    elif pool == 0:
        faces = ()
    elif rng is None:
        raise RulesError(Phrase.message(N_("Give the soak dice rolled, or a random source to roll them.")), field="dice")
    else:
        faces = tuple(rng.randint(1, 10) for _ in range(pool))
    successes = sum(1 for d in faces if d >= difficulty)
    ones = sum(1 for d in faces if d == 1)
    return SoakRoll(faces, difficulty, successes, ones, max(0, successes - ones), by_app=dice is None and bool(faces))


@dataclass(frozen=True)
class SoakRuling:
    """The damage a tabletop defender takes after soak.

    Attributes:
        damage_type: the type taken (after the type against his kind), or ``None``.
        inflicted: health levels the damage roll scored.
        pool: soak dice.
        roll: the soak roll (``None`` when nothing could be soaked).
        past_soak: levels left after soak.
        levels: levels to mark (after a vampire's halving of bashing damage).
        armor_destroyed: the damage rolled reached twice the armor's rating.
        dazed: the defender must spend his next turn shaking it off.
        staked: a stake driven at the heart did three or more levels to a vampire.
        steps: the explanation, with every die.
    """

    damage_type: str | None
    inflicted: int
    pool: int
    roll: SoakRoll | None
    past_soak: int
    levels: int
    armor_destroyed: bool
    dazed: bool
    staked: bool
    steps: tuple[Step, ...]

    def apply_to(self, track: HealthTrack, settings: ChronicleSettings | None = None,
                 who: str = "The character") -> HealthRuling:
        """Mark the levels on ``track`` (:func:`larp.rules.health.apply_damage`), with the stake, by the
        tabletop's rule for damage below Incapacitated (000; setting ``below_incapacitated_model``).

        Raises:
            RulesError: as :func:`larp.rules.health.apply_damage`.
        """
        ruling = apply_damage(track, self.damage_type or "bashing", self.levels if self.damage_type else 0,
                              who, settings, stake=self.staked, game="tabletop")
        return HealthRuling(ruling.track, self.steps + ruling.steps, ruling.marked, ruling.overflow)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "damage_type": self.damage_type, "inflicted": self.inflicted, "pool": self.pool,
            "dice": list(self.roll.dice) if self.roll else [],
            "rolled": ("by the app" if self.roll.by_app else "at the table") if self.roll and self.roll.dice else None,
            "past_soak": self.past_soak,
            "levels": self.levels, "armor_destroyed": self.armor_destroyed, "dazed": self.dazed,
            "staked": self.staked, "steps": [s.to_dict() for s in self.steps],
        }


def soak_damage(levels: int, damage_type: str, defender: Defender, *, weapon_key: str | None = None,
                head_shot: bool = False, source: str = "other", stake_at_heart: bool = False,
                dice: Sequence[int] | None = None, rng: DiceSource | None = None,
                difficulty: int | None = None, who: str = "The defender",
                settings: ChronicleSettings | None = None) -> SoakRuling:
    """Soak a hit in the tabletop profile and say what is left to mark.

    Args:
        levels: health levels the damage roll scored (its successes).
        damage_type: the attack's type (a weapon's chart type).
        defender: the character soaking.
        weapon_key: the tabletop weapon used, if any (firearms and the crossbow
            do bashing to vampires unless aimed at the head or heart; the setting
            ``firearms_against_vampires`` says whether firearms' bashing is halved:
            at the tabletop by default it is, as the charts say, 000 "Bashing Damage").
        head_shot: aimed at the head (or the heart, for a crossbow).
        source: "other", "fire" or "sunlight".
        stake_at_heart: a stake (or crossbow bolt) aimed at the heart: three
            levels past soak paralyse a vampire (000 "Stake Through Heart").
        dice, rng: the soak dice, or a source to roll them (see :func:`roll_soak`).
        difficulty: the soak difficulty (6 from the table if omitted).
        who: the defender's name.
        settings: the chronicle's settings (``firearms_against_vampires``; defaults if omitted).

    Raises:
        RulesError: negative levels, an unknown weapon or armor, a staking
            attempt with a weapon that cannot stake, or bad dice.
    """
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 0:
        raise RulesError(Phrase.message(N_("Damage is a whole number of health levels, at least 0.")), field="levels")
    steps = Explanation()
    card = weapon(weapon_key, "tabletop") if weapon_key else None
    if stake_at_heart and card is not None and not card.has("Staking"):
        raise RulesError(Phrase.message(N_("A %(name)s cannot stake a vampire."), name=card.name),
                         field="stake_at_heart")
    steps.add(N_("The attack scores %(levels)s of %(kind)s damage against %(name)s."), '000 "Damage Types"',
              levels=levels_of(levels), kind=Phrase.term(damage_type), name=who)
    reading = firearm_reading(settings, "tabletop")
    kind, type_steps = damage_type_against(
        damage_type, defender.creature, bashing_vs_kindred=bool(card and card.bashing_vs_kindred),
        firearm=bool(card and card.firearm), head_shot=head_shot, source=source, who=who, firearm_rule=reading)
    steps.extend(type_steps)
    vampire = defender.creature == "vampire"
    if kind is None:
        return SoakRuling(None, levels, 0, None, 0, 0, False, False, False, steps.steps())
    pool, pool_steps = soak_pool(defender, kind, source, settings)
    steps.extend(pool_steps)
    roll = None
    past = levels
    if pool and levels:
        roll = roll_soak(pool, dice=dice, rng=rng, difficulty=difficulty or soak_difficulty())
        said = dict(dice=", ".join(map(str, roll.dice)), difficulty=roll.difficulty, successes=roll.successes,
                    left=roll.net)
        if roll.ones:
            said.update(ones=Phrase.counted(roll.ones, "%(n)s one", "%(n)s ones"), cancelled=min(roll.ones, roll.successes))
            soak_roll = (N_("Soak roll %(dice)s against difficulty %(difficulty)s: %(successes)s success(es); %(ones)s cancel "
                            "%(cancelled)s success(es), %(left)s left (rolled by the app).") if roll.by_app else
                         N_("Soak roll %(dice)s against difficulty %(difficulty)s: %(successes)s success(es); %(ones)s cancel "
                            "%(cancelled)s success(es), %(left)s left (rolled at the table)."))
        else:
            soak_roll = (N_("Soak roll %(dice)s against difficulty %(difficulty)s: %(successes)s success(es), %(left)s left "
                            "(rolled by the app).") if roll.by_app else
                         N_("Soak roll %(dice)s against difficulty %(difficulty)s: %(successes)s success(es), %(left)s left "
                            "(rolled at the table)."))
        steps.add(soak_roll, _SOAK, **said)
        past = max(0, levels - roll.net)
        steps.add(N_("%(n)s soak success(es) remove %(levels)s: %(left)s left."), _SOAK, n=roll.net,
                  levels=levels_of(min(roll.net, levels)), left=past)
    elif levels and not pool:
        steps.add(N_("%(name)s cannot soak it: all %(levels)s stand."), _SOAK, name=who, levels=levels_of(levels))
    taken = past
    if vampire and kind == "bashing" and past:
        if card is not None and card.firearm and reading == "house_002":
            steps.add(N_("Bashing damage from firearms is not halved for vampires: %(n)s."), '002 "Damage and Healing"',
                      "firearms_against_vampires", n=past)
        else:
            taken = past // 2
            steps.add(N_("%(name)s is a vampire: %(n)s bashing halved, rounded down: %(result)s."), '000 "Bashing Damage"',
                      name=who, n=past, result=taken)
    armor_destroyed = False
    worn = armor(defender.armor, "tabletop") if defender.armor else None
    if worn is not None and source not in ("fire", "sunlight") and levels >= 2 * worn.rating:
        armor_destroyed = True
        helmet = bool(defender.helmet)
        steps.add(N_("The damage rolled (%(n)s) reaches twice the armor's rating (%(rating)s) (the helmet's bonus not "
                     "counted): %(armor)s is destroyed.") if helmet else
                  N_("The damage rolled (%(n)s) reaches twice the armor's rating (%(rating)s): %(armor)s is destroyed."),
                  '000 "Armor"' + ('; 004 "Armor"' if helmet else ""), n=levels, rating=worn.rating,
                  armor=Phrase.term(worn.name))
    threshold = defender.stamina + (2 if vampire else 0)
    dazed = past > threshold
    if dazed:
        steps.add(N_("%(levels)s past soak exceed Stamina + 2 (%(threshold)s): %(name)s is dazed and spends the next turn "
                     "shaking it off.") if vampire else
                  N_("%(levels)s past soak exceed Stamina (%(threshold)s): %(name)s is dazed and spends the next turn "
                     "shaking it off."), '000 "Dazed"', levels=levels_of(past), threshold=threshold, name=who)
    staked = False
    if stake_at_heart:
        by_successes = (settings or ChronicleSettings.defaults())["tabletop_stake_rule"] == "damage_successes"
        counted = levels if by_successes else past
        staked = vampire and counted >= 3
        if not vampire:
            steps.add(Phrase.message(N_("A stake paralyses only vampires.")), '000 "Stake Through Heart"')
        elif by_successes:
            steps.add(N_("Stake at the heart: %(n)s damage success(es) before soak - at least three: the vampire is "
                         "staked.") if staked else
                      N_("Stake at the heart: %(n)s damage success(es) before soak - fewer than three: no staking."),
                      '000 "Melee Weapons Chart" (the stake: "score three successes")', "tabletop_stake_rule", n=levels)
        else:
            steps.add(N_("Stake at the heart: %(levels)s past soak - at least three: the vampire is staked.") if staked else
                      N_("Stake at the heart: %(levels)s past soak - fewer than three: no staking."),
                      '000 "Stake Through Heart"', "tabletop_stake_rule", levels=levels_of(past))
    steps.add(N_("%(name)s takes %(levels)s of %(kind)s damage."), '000 "Applying Damage"', name=who,
              levels=levels_of(taken), kind=Phrase.term(kind))
    return SoakRuling(kind, levels, pool, roll, past, taken, armor_destroyed, dazed, staked, steps.steps())
