"""Tabletop dice: pools of ten-sided dice against a difficulty (000 "Combat Systems").

A roll counts the dice at or above the difficulty (successes); each 1 cancels
a success (000 "Soak", the Liselle example). Action rolls can botch (000
"Stage Two: Attack"; when, is the chronicle setting ``tabletop_botch``);
damage and soak rolls never botch (000 "Damage Types", "Soak"). Automatic
successes (Potence on a Strength damage roll, 000 "Bashing Damage") are added
after the 1s cancel.

Every die comes from the caller: faces given (a replay, or dice rolled at the
table) or a random source with ``randint(a, b)`` such as ``random.Random``.
When neither is given the roll raises :class:`DiceNeeded`, which says how many
dice to roll, so a screen can ask for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, plural
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import DiceSource

DIFFICULTY_MIN = 2
DIFFICULTY_MAX = 10
DEFAULT_DIFFICULTY = 6
_ROLLS = '000 "Combat Systems"'


#: The rolls a tabletop attack may ask for (``combatants.DICE_KEYS``), as the dice request names them mid-sentence
#: ("Roll Ann's soak: ..."): marked for the translators (a roll's key is its English word).
ROLL_WORDS = (N_("attack"), N_("abort"), N_("defense"), N_("damage"), N_("soak"), N_("knockdown"), N_("rise"),
              N_("knockdown_attacker"), N_("rise_attacker"), N_("riposte_damage"), N_("riposte_soak"), N_("blindside"),
              N_("alertness"))


class DiceNeeded(RulesError):
    """A roll was needed and neither its dice nor a random source were given.

    Attributes:
        roll: which roll ("attack", "defense", "damage", "soak", ...).
        pool: dice to roll.
        difficulty: its difficulty.
        steps: the ruling so far (what led to this roll).
    """

    def __init__(self, roll: str, pool: int, difficulty: int, steps: tuple[Step, ...] = (), who: str = ""):
        said = dict(name=who, roll=Phrase.term(roll), n=pool, difficulty=difficulty)
        super().__init__(Phrase.message(N_("Roll %(name)s's %(roll)s: %(n)s dice against difficulty %(difficulty)s, and "
                                           "enter them.") if who else
                                        N_("Roll %(roll)s: %(n)s dice against difficulty %(difficulty)s, and enter them."),
                                        **said), field=f"dice.{roll}")
        self.roll, self.pool, self.difficulty, self.steps = roll, pool, difficulty, steps


@dataclass(frozen=True)
class DiceRoll:
    """One roll, die by die.

    Attributes:
        pool: dice rolled.
        dice: each die's face, 1 to 10.
        difficulty: the target number, 2 to 10.
        successes: dice at or above the difficulty.
        ones: dice showing 1, each cancelling a success.
        automatic: automatic successes added after the 1s cancel (Potence).
        net: successes left (``max(0, successes - ones) + automatic``).
        botch: the roll botched (never for damage or soak rolls).
        by_app: the app rolled the dice; otherwise they were rolled at the table and entered
            (issue 17: the record says which).
    """

    pool: int
    dice: tuple[int, ...]
    difficulty: int
    successes: int
    ones: int
    automatic: int
    net: int
    botch: bool
    by_app: bool = False

    def describe(self, what: str) -> Phrase:
        """One sentence with every die, e.g. "Attack roll 8, 6, 1 against difficulty 6: 2 successes, ...", as a
        phrase (``what`` a name or a phrase: "Damage roll")."""
        if not self.dice:
            text = Phrase.message(N_("%(what)s: no dice"), what=what)
        else:
            text = Phrase.message(N_("%(what)s %(dice)s against difficulty %(difficulty)s: %(successes)s success(es)"),
                                  what=what, dice=", ".join(map(str, self.dice)), difficulty=self.difficulty,
                                  successes=self.successes)
            if self.ones:
                text = Phrase.message(N_("%(text_so_far)s, %(ones)s cancel %(cancelled)s"), text_so_far=text,
                                      ones=Phrase.counted(self.ones, "%(n)s one", "%(n)s ones"),
                                      cancelled=min(self.ones, self.successes))
        if self.automatic:
            text = Phrase.message(N_("%(text_so_far)s, plus %(n)s automatic success(es)"), text_so_far=text,
                                  n=self.automatic)
        text = Phrase.message(N_("%(text_so_far)s: %(n)s net success(es)"), text_so_far=text, n=self.net)
        if self.botch:
            text = Phrase.message(N_("%(text_so_far)s - a botch"), text_so_far=text)
        if not self.dice:
            return Phrase.message(N_("%(text_so_far)s."), text_so_far=text)
        return Phrase.message(N_("%(text_so_far)s (rolled by the app).") if self.by_app else
                              N_("%(text_so_far)s (rolled at the table)."), text_so_far=text)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"pool": self.pool, "dice": list(self.dice), "difficulty": self.difficulty,
                "successes": self.successes, "ones": self.ones, "automatic": self.automatic,
                "net": self.net, "botch": self.botch,
                "rolled": ("by the app" if self.by_app else "at the table") if self.dice else None}


def check_difficulty(value: Any, field: str = "difficulty") -> int:
    """A difficulty given by a person: a whole number from 2 to 10.

    Raises:
        RulesError: anything else (``field`` names it).
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(Phrase.message(N_("A difficulty is a whole number from 2 to 10.")), field=field)
    if not DIFFICULTY_MIN <= value <= DIFFICULTY_MAX:
        raise RulesError(Phrase.message(N_("Difficulty %(value)s is impossible: a difficulty is from 2 to 10."),
                                        value=value), field=field)
    return value


def bounded_difficulty(value: int, steps: Explanation, what: str | None = None) -> int:
    """A difficulty reached by adding modifiers, kept within 2..10 as the books use it.

    The step that says so cites 000 "Maneuver Characteristics" (difficulties are
    added to the base of 6; a die shows 1 to 10, so nothing above 10 can succeed). ``what`` names the
    difficulty (a phrase), "The difficulty" by default.
    """
    what = what if what is not None else Phrase.message(N_("The difficulty"))
    if value > DIFFICULTY_MAX:
        steps.add(N_("%(what)s adds up to %(value)s; a difficulty is never above %(most)s: %(most)s."),
                  '000 "Maneuver Characteristics"', what=what, value=value, most=DIFFICULTY_MAX)
        return DIFFICULTY_MAX
    if value < DIFFICULTY_MIN:
        steps.add(N_("%(what)s comes down to %(value)s; a difficulty is never below %(least)s: %(least)s."),
                  '000 "Maneuver Characteristics"', what=what, value=value, least=DIFFICULTY_MIN)
        return DIFFICULTY_MIN
    return value


def check_pool(value: Any, field: str = "pool") -> int:
    """A dice pool given by a person: a whole number of dice, at least 0 (at most 60).

    Raises:
        RulesError: anything else.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 60:
        raise RulesError(Phrase.message(N_("A dice pool is a whole number of dice from 0 to 60.")), field=field)
    return value


def check_faces(dice: Any, pool: int, field: str, what: str = "roll") -> tuple[int, ...]:
    """Faces given for a roll of ``pool`` dice: exactly ``pool`` numbers from 1 to 10.

    Raises:
        RulesError: a wrong count or a face outside 1..10 (``field`` names the roll).
    """
    if not isinstance(dice, (list, tuple)):
        raise RulesError(Phrase.message(N_("Give the %(what)s dice as a list of numbers from 1 to 10."), what=what),
                         field=field)
    faces = tuple(dice)
    if any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 10 for d in faces):
        raise RulesError(Phrase.message(N_("Each die shows a whole number from 1 to 10.")), field=field)
    if len(faces) != pool:
        raise RulesError(Phrase.counted(len(faces), "The %(what)s is %(pool)s dice; %(n)s result was given.",
                                        "The %(what)s is %(pool)s dice; %(n)s results were given.", what=what, pool=pool),
                         field=field)
    return faces


def roll_dice(pool: int, difficulty: int = DEFAULT_DIFFICULTY, *, dice: Sequence[int] | None = None,
              rng: DiceSource | None = None, can_botch: bool = True, automatic: int = 0,
              settings: ChronicleSettings | None = None, roll: str = "roll", who: str = "",
              steps: tuple[Step, ...] = ()) -> DiceRoll:
    """Roll ``pool`` dice against ``difficulty``.

    Rules: successes at or above the difficulty, each 1 cancels one (000 "Soak");
    an action roll botches per ``tabletop_botch`` (000 "Stage Two: Attack");
    damage and soak rolls cannot botch (000 "Damage Types"); automatic successes
    count after the cancelling (000 "Bashing Damage", Kincaid's Potence).

    Args:
        pool: dice, at least 0.
        difficulty: 2 to 10.
        dice: the faces, one per die; rolled from ``rng`` when omitted.
        can_botch: False for damage and soak rolls.
        automatic: automatic successes, at least 0.
        roll: the roll's name, for :class:`DiceNeeded` and error fields ("attack", "damage"...).
        steps: the ruling so far, carried by :class:`DiceNeeded`.

    Raises:
        RulesError: a bad pool, difficulty or faces (field ``dice.<roll>``).
        DiceNeeded: no faces and no random source for a pool of at least one die.
    """
    check_pool(pool)
    check_difficulty(difficulty)
    settings = settings or ChronicleSettings.defaults()
    if dice is not None:
        faces = check_faces(dice, pool, f"dice.{roll}", f"{roll} roll")
    elif pool == 0:
        faces = ()
    elif rng is None:
        raise DiceNeeded(roll, pool, difficulty, steps, who)
    else:
        faces = tuple(rng.randint(1, 10) for _ in range(pool))
    successes = sum(1 for d in faces if d >= difficulty)
    ones = sum(1 for d in faces if d == 1)
    net = max(0, successes - ones) + automatic
    botch = False
    if can_botch and automatic == 0 and ones:
        if settings["tabletop_botch"] == "more_ones":
            botch = ones > successes
        else:
            botch = successes == 0
    return DiceRoll(pool, faces, difficulty, successes, ones, automatic, net, botch, by_app=dice is None)


def roll_step(result: DiceRoll, what: str, steps: Explanation, rule: str = _ROLLS) -> None:
    """Add the step showing ``result`` die by die (with the botch setting when it botched)."""
    steps.add(result.describe(what), rule, setting="tabletop_botch" if result.botch else None)


@dataclass(frozen=True)
class ResistedRoll:
    """A resisted action: two rolls, the side with more successes wins (000 "Hold", "Clinch").

    Attributes:
        active: the acting side's roll.
        passive: the resisting side's roll.
        margin: active's net successes minus passive's.
        winner: "active", "passive" or "tie".
    """

    active: DiceRoll
    passive: DiceRoll
    margin: int
    winner: str


def resisted_roll(active_pool: int, passive_pool: int, *, active_difficulty: int = DEFAULT_DIFFICULTY,
                  passive_difficulty: int = DEFAULT_DIFFICULTY, dice: dict[str, Sequence[int]] | None = None,
                  rng: DiceSource | None = None, settings: ChronicleSettings | None = None,
                  names: tuple[str, str] = ("active", "passive")) -> ResistedRoll:
    """Roll a resisted action: each side rolls, more net successes wins.

    Args:
        dice: faces by side name (``names``), each optional.
        names: the two rolls' names (used for fields and :class:`DiceNeeded`).

    Raises:
        RulesError, DiceNeeded: as :func:`roll_dice`.
    """
    dice = dice or {}
    first = roll_dice(active_pool, active_difficulty, dice=dice.get(names[0]), rng=rng, settings=settings,
                      roll=names[0])
    second = roll_dice(passive_pool, passive_difficulty, dice=dice.get(names[1]), rng=rng, settings=settings,
                       roll=names[1])
    margin = first.net - second.net
    winner = "active" if margin > 0 else "passive" if margin < 0 else "tie"
    return ResistedRoll(first, second, margin, winner)
