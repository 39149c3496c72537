"""Movement at the tabletop: how far a fighter may move in a turn, by his Dexterity, his
profile and his wounds, and movement as an action with its distance (issue 37 item 2).

Rules:
    - A character may move half of his running distance and still take an action (000, 003
      "Movement"); under Dark Ages his walking distance (004 "Action", "Movement"). Moving
      farther is an action of its own.
    - The distances: walking 7 yards a turn, jogging 12 + Dexterity, running 20 + 3 x Dexterity
      (``data/movement.toml``; the rulebook page 000 and 003 cite).
    - Wounds (000 "Health Chart"; 001 "Damage Explained"): Injured halves the running speed;
      Wounded may not run but may walk, and may not move and then attack without losing dice;
      Mauled hobbles three yards a turn; Crippled crawls one; Incapacitated does not move.
    - 001's "he always loses dice when moving and attacking in the same turn" is read as the
      multiple-action rule: the move is an action of its own, so the attack is one of two actions
      and loses dice by 000 "Multiple Actions" (the only rule of the books that takes dice for
      doing two things in a turn).
    - A Willpower point spent against wound penalties removes dice penalties only: the chart lists
      the movement limits apart.

No map: a move is a distance in yards, checked against the allowance.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, phrase_step
from larp.rules.plain_fields import PlainFields
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.combatants import Fighter, tabletop_level
from larp.rules.tabletop.maneuvers import PROFILES, profile_for
from larp.rules.tabletop.turn import Combat, said_text, take_action
from larp.tables import TableError, load_toml, require

R_MOVE = '000 "Movement"'
R_MOVE_DA = '004 "Movement"'
R_WOUNDS = '000 "Health Chart"; 001 "Damage Explained"'
_FILE = "data/movement.toml"


@dataclass(frozen=True)
class Pace:
    """A profile's distances (``data/movement.toml``): yards a turn at a walk, a jog and a run, and
    how far a character moves and still acts ("half_run" or "walk")."""

    walk: int
    jog_base: int
    jog_per_dexterity: int
    run_base: int
    run_per_dexterity: int
    with_action: str
    source: str


@dataclass(frozen=True)
class WoundLimit:
    """What a tabletop health level does to movement: ``run`` ("half", "none" or ""), ``most``
    yards a turn (``None``: no cap), ``no_free_move`` (no move and then attack without losing dice)."""

    run: str
    most: int | None
    no_free_move: bool


@lru_cache(maxsize=None)
def movement_table() -> tuple[Mapping[str, Pace], Mapping[str, WoundLimit]]:
    """The distances by profile and the limits by health level, loaded once from ``data/movement.toml``.

    Raises:
        TableError: a missing profile or a malformed entry (names the file and the entry).
    """
    raw = load_toml("movement.toml")
    paces: dict[str, Pace] = {}
    for key in PROFILES:
        entry = raw.get(key)
        where = f"{_FILE} [{key}]"
        if not isinstance(entry, dict):
            raise TableError(f"{where}: missing")
        values = {name: require(entry, name, int, where)
                  for name in ("walk", "jog_base", "jog_per_dexterity", "run_base", "run_per_dexterity")}
        with_action = require(entry, "with_action", str, where)
        if with_action not in ("half_run", "walk"):
            raise TableError(f"{where}: with_action is half_run or walk")
        paces[key] = Pace(**values, with_action=with_action, source=require(entry, "source", str, where))
    limits: dict[str, WoundLimit] = {}
    for level, entry in (raw.get("wounds") or {}).items():
        where = f"{_FILE} [wounds.{level}]"
        run = entry.get("run", "")
        most = entry.get("most")
        if run not in ("", "half", "none") or (most is not None and (not isinstance(most, int) or most < 0)):
            raise TableError(f"{where}: run is half or none; most is a number of yards")
        limits[level] = WoundLimit(run, most, bool(entry.get("no_free_move", False)))
    return MappingProxyType(paces), MappingProxyType(limits)


@dataclass(frozen=True)
class Allowance(PlainFields):
    """How far a fighter may move this turn, in yards.

    Attributes:
        walk, jog, run: the most at each pace after his wounds (a Wounded character's jog and run
            are his walk; a Mauled or Crippled character's all three are his hobble or crawl).
        with_action: how far he may move and still take an action.
        moves_and_attacks: he may move that far and then attack without losing dice (not from
            Wounded down, 001).
        limit: the health level that limits him, or "".
        steps: the explanation.
    """

    walk: int
    jog: int
    run: int
    with_action: int
    moves_and_attacks: bool
    limit: str
    steps: tuple[Step, ...]
#: A pace as a move's step names it, marked for the translators (the step's word is the key).
_PACES = {"crawl": N_("crawl"), "hobble": N_("hobble"), "walk": N_("walk"), "jog": N_("jog"), "run": N_("run")}


def _yards(count: int) -> Phrase:
    """"1 yard", "3 yards", in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s yard", "%(n)s yards")


def movement_allowance(fighter: Fighter, settings: ChronicleSettings | None = None) -> Allowance:
    """How far ``fighter`` may move this turn: walking, jogging and running distances by his
    Dexterity, the part he may move and still act (half his running distance; Dark Ages: his
    walking distance), and what his wounds allow (000, 003, 004 "Movement"; 000 "Health Chart";
    001 "Damage Explained").

    Raises:
        RulesError: he has no tabletop Dexterity (field ``<key>.attributes.Dexterity``).
    """
    profile = profile_for(settings)
    paces, limits = movement_table()
    pace = paces[profile.key]
    steps = Explanation()
    dexterity = fighter.attribute("Dexterity")
    walk = pace.walk
    jog = pace.jog_base + pace.jog_per_dexterity * dexterity
    run = pace.run_base + pace.run_per_dexterity * dexterity
    rule = R_MOVE_DA if profile.key == "dark_ages" else R_MOVE
    steps.add(N_("%(name)s (Dexterity %(dexterity)s) walks %(walk)s yards a turn, jogs %(jog)s, runs %(run)s."),
              f"{rule}; {pace.source}", name=fighter.name, dexterity=dexterity, walk=walk, jog=jog, run=run)
    level = tabletop_level(fighter.track) if fighter.track.condition == "active" else "Incapacitated"
    if fighter.track.staked:
        level = "Incapacitated"
    limit = limits.get(level)
    if limit is not None:
        if limit.run == "half":
            run = run // 2
            jog = min(jog, run)
            steps.add(N_("%(name)s is %(level)s: the running speed is halved, to %(run)s yards."), R_WOUNDS,
                      name=fighter.name, level=Phrase.term(level), run=run)
        elif limit.run == "none":
            jog = run = walk
            steps.add(N_("%(name)s is %(level)s: no running, walking only (%(walk)s yards)."), R_WOUNDS, name=fighter.name,
                      level=Phrase.term(level), walk=walk)
        if limit.most is not None:
            walk, jog, run = (min(walk, limit.most), min(jog, limit.most), min(run, limit.most))
            if limit.most == 0:
                steps.add(N_("%(name)s is %(level)s and cannot move."), R_WOUNDS, name=fighter.name, level=Phrase.term(level))
            else:
                steps.add(N_("%(name)s is %(level)s and moves at most %(yards)s a turn."), R_WOUNDS, name=fighter.name,
                          level=Phrase.term(level), yards=_yards(limit.most))
    with_action = walk if pace.with_action == "walk" else run // 2
    steps.add(N_("%(name)s may move %(yards)s and still act (the walking distance).") if pace.with_action == "walk" else
              N_("%(name)s may move %(yards)s and still act (half the running distance)."), rule, name=fighter.name,
              yards=_yards(with_action))
    moves_and_attacks = not (limit and limit.no_free_move)
    if not moves_and_attacks and with_action:
        steps.add(N_("%(name)s is %(level)s: moving and then attacking in the same turn loses dice; the move is an action "
                     "of its own."), '001 "Damage Explained" (Wounded)', name=fighter.name, level=Phrase.term(level))
    return Allowance(walk, jog, run, with_action, moves_and_attacks, level if limit else "", steps.steps())


@dataclass(frozen=True)
class MoveRuling:
    """A move of ``yards`` in a turn.

    Attributes:
        yards: the distance.
        pace: "walk", "jog", "run" ("hobble" or "crawl" when the wounds cap it; "none" for 0).
        own_action: the move is an action of its own (not the part of a move that comes with an action).
        allowance: the allowance it was checked against.
        steps: the explanation.
    """

    yards: int
    pace: str
    own_action: bool
    allowance: Allowance
    steps: tuple[Step, ...]

    @property
    def faster_than_walk(self) -> bool:
        """Whether he moved faster than a walk (no one can aim at him then, 000 "Aiming")."""
        return self.pace in ("jog", "run")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"yards": self.yards, "pace": self.pace, "own_action": self.own_action,
                "allowance": self.allowance.to_dict(), "steps": [s.to_dict() for s in self.steps]}


def plan_move(fighter: Fighter, yards: int, settings: ChronicleSettings | None = None, *,
              with_action: bool = False, field: str = "yards") -> MoveRuling:
    """Check a move of ``yards`` yards against ``fighter``'s allowance (000, 003, 004 "Movement";
    000 "Health Chart"; 001 "Damage Explained").

    Args:
        yards: the distance, 0 to 200 yards.
        with_action: the move comes with another action this turn (then at most half the running
            distance, Dark Ages the walking distance); otherwise it is an action of its own (at most
            the running distance).
        field: the input field named in errors.

    Raises:
        RulesError: a distance his allowance does not reach, or not a whole number of yards.
    """
    if isinstance(yards, bool) or not isinstance(yards, int) or not 0 <= yards <= 200:
        raise RulesError(Phrase.message(N_("A move is a whole number of yards from 0 to 200.")), field=field)
    allowance = movement_allowance(fighter, settings)
    steps = Explanation()
    steps.extend(allowance.steps)
    if yards == 0:
        return MoveRuling(0, "none", False, allowance, steps.steps())
    most = allowance.with_action if with_action else allowance.run
    if yards > most:
        if with_action and yards <= allowance.run:
            raise RulesError(Phrase.message(N_("%(name)s may move at most %(most)s and still act; %(yards)s is an action "
                                               "of its own."), name=fighter.name,
                                            most=Phrase.counted(most, "%(n)s yard", "%(n)s yards"),
                                            yards=Phrase.counted(yards, "%(n)s yard", "%(n)s yards")), field=field)
        raise RulesError(Phrase.message(N_("%(name)s can move at most %(yards)s this turn (%(limit)s).") if allowance.limit
                                        else N_("%(name)s can move at most %(yards)s this turn."), name=fighter.name,
                                        yards=Phrase.counted(allowance.run, "%(n)s yard", "%(n)s yards"),
                                        limit=Phrase.term(allowance.limit or "")), field=field)
    capped = allowance.limit in ("Mauled", "Maimed", "Crippled")
    pace = ("crawl" if allowance.run <= 1 else "hobble") if capped else (
        "walk" if yards <= allowance.walk else "jog" if yards <= allowance.jog else "run")
    steps.add(N_("%(name)s moves %(yards)s (%(pace)s) and still acts.") if with_action else
              N_("%(name)s moves %(yards)s (%(pace)s), an action of its own."), R_MOVE, name=fighter.name,
              yards=_yards(yards), pace=Phrase.term(_PACES.get(pace, pace)))
    return MoveRuling(yards, pace, not with_action, allowance, steps.steps())


def move(combat: Combat, fighter: Fighter, yards: int,
         settings: ChronicleSettings | None = None) -> tuple[Combat, MoveRuling]:
    """``fighter`` spends his next staged action moving ``yards`` yards (000 "Movement": moving
    farther than the part that comes with an action is an action of its own). Aims at him break
    when he moves faster than a walk (000 "Aiming").

    Raises:
        RulesError: as :func:`plan_move`, or he has no action left (:func:`~.turn.take_action`).
    """
    ruling = plan_move(fighter, yards, settings)
    combat = take_action(combat, fighter.key, said_text(ruling.steps[-1]) if ruling.steps else "")
    if ruling.faster_than_walk:
        broken = [k for k, aim in combat.carried.aims.items() if aim.target == fighter.key]
        carried = combat.carried
        for key in broken:
            carried = carried.with_aim(key, None)
        if broken:
            extra = phrase_step(N_("%(name)s moves faster than a walk: %(aimers)s can no longer aim at him."),
                                '000 "Aiming"', name=fighter.name, aimers=[combat.name(k) for k in broken])
            ruling = replace(ruling, steps=ruling.steps + (extra,))
        combat = replace(combat, carried=carried)
    return combat, ruling
