"""The state of a tabletop combat, turn by turn, as plain data (000 "Combat Turns"; 004 "Step-By-Step Combat Turn").

A :class:`Combat` is what the narrator's screen keeps between requests (as
JSON, :meth:`Combat.to_dict`): the fighters, the turn, its phase
("initiative", "declare", "act"), the initiative order, each fighter's
declaration, how many actions each has used, the holds that carry over and the
conditions that last into the next turn (dazed, getting up, slowed, unbalanced).

Sequencing (000 "Stage One: Initiative"; 004 "Multiple Actions"):
    - first actions in order of initiative; a character who delays acts when
      he chooses, and delayers acting together go by initiative score;
    - then every second action in order of initiative, then every third...
      (multiple actions and Celerity's extra actions come at the end of the turn);
    - defensive actions at any time with an action left: a defense declared
      as one of the actions, or a turn spent defending, or an abort by
      Willpower (000: only before the character has acted; 004: while he has
      an action left).

Every function here is pure: it returns a new :class:`Combat`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.tabletop.actions import ActionSlot
from larp.rules.damage import weapon as weapon_card
from larp.rules.tabletop.carried import Carried, Gun
from larp.rules.tabletop.initiative import Initiative, InitiativeEntry, delayed_order
from larp.rules.tabletop.maneuvers import Profile

PHASES = ("initiative", "declare", "act")
MIN_FIGHTERS, MAX_FIGHTERS = 2, 6
MAX_ACTIONS = 6
#: Conditions that last into the next turn (000 "Dazed", "Knockdown", "Tackle").
CONDITIONS = {
    "dazed": N_("dazed: spends this turn shaking it off"),
    "rising": N_("knocked down: the first action goes to getting up"),
    "slowed": N_("rose from a knockdown: initiative -2"),
    "unbalanced": N_("unbalanced by a tackle: +1 difficulty"),
}
#: The rule of a turn's first stage (initiative, declarations), cited by its steps.
STAGE_ONE = '000 "Stage One: Initiative"'


@dataclass(frozen=True)
class Declaration:
    """What a character declares for the turn (000 "Stage One: Initiative"; 004 "Preliminaries", "Declaration").

    Attributes:
        actions: ordinary actions (1 to 6); more than one is a multiple action.
        celerity: Celerity's extra actions (at most his Celerity).
        defenses: of all his actions, how many he keeps for block, dodge or parry.
        full_defense: he spends the whole turn defending.
        delay: he delays his first action.
        maneuver, target: his first action, as declared (prefills the screen).
        split_dice: with the V20 split pool, the smallest of his pools.
        shares: with the pool split freely, the dice he gives each action, in order.
    """

    actions: int = 1
    celerity: int = 0
    defenses: int = 0
    full_defense: bool = False
    delay: bool = False
    maneuver: str | None = None
    target: str | None = None
    split_dice: int | None = None
    shares: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        """All his actions this turn, Celerity's included."""
        return self.actions + self.celerity

    @property
    def offense(self) -> int:
        """Actions that are staged in the order (not kept for defense)."""
        return 0 if self.full_defense else max(0, self.total - self.defenses)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"actions": self.actions, "celerity": self.celerity, "defenses": self.defenses,
                "full_defense": self.full_defense, "delay": self.delay, "maneuver": self.maneuver,
                "target": self.target, "split_dice": self.split_dice, "shares": list(self.shares)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Declaration":
        """Rebuild from :meth:`to_dict` output."""
        values = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        if "shares" in values:
            values["shares"] = tuple(values["shares"])
        return cls(**values)


@dataclass(frozen=True)
class Hold:
    """``holder`` has held ``target`` by ``maneuver`` since ``turn`` (clinch, hold, tackle, bear hug, grapple)."""

    holder: str
    target: str
    maneuver: str
    turn: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"holder": self.holder, "target": self.target, "maneuver": self.maneuver, "turn": self.turn}


@dataclass(frozen=True)
class Condition:
    """A condition on ``who`` during turn ``turn`` (see ``CONDITIONS``)."""

    who: str
    kind: str
    turn: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"who": self.who, "kind": self.kind, "turn": self.turn}


@dataclass(frozen=True)
class Slot:
    """The next staged action: ``who`` takes his action number ``number`` (1-based, of those staged)."""

    who: str
    number: int


@dataclass(frozen=True)
class Combat:
    """A tabletop combat between 2 and 6 fighters, as plain data.

    Attributes:
        fighters: the fighters' keys, as chosen.
        names: key -> name.
        turn: the turn number, from 1.
        phase: "initiative", "declare" or "act".
        initiative: this turn's order (highest first).
        out: keys who cannot act this turn (no place in the order, or dazed).
        declarations: key -> this turn's declaration.
        used: key -> actions used this turn (staged actions and defenses).
        taken: key -> staged actions taken this turn.
        defended: key -> defenses made this turn.
        aborted: key -> staged actions given up for a defense by aborting.
        holds: the holds in force.
        conditions: conditions on fighters, by the turn they apply to.
        log: one line per thing that happened this turn (newest last).
        willpower: keys who spent a Willpower point this turn to ignore their wound penalties
            (LotNR Willpower, met-reference 2.1, 4.1).
        carried: guns, aims, blood, the Dark Ages dodge and the effects due at the end of a turn
            (:class:`~larp.rules.tabletop.carried.Carried`, issue 37).
    """

    fighters: tuple[str, ...]
    names: Mapping[str, str]
    turn: int = 1
    phase: str = "initiative"
    initiative: tuple[InitiativeEntry, ...] = ()
    out: tuple[str, ...] = ()
    declarations: Mapping[str, Declaration] = field(default_factory=dict)
    used: Mapping[str, int] = field(default_factory=dict)
    taken: Mapping[str, int] = field(default_factory=dict)
    defended: Mapping[str, int] = field(default_factory=dict)
    aborted: Mapping[str, int] = field(default_factory=dict)
    holds: tuple[Hold, ...] = ()
    conditions: tuple[Condition, ...] = ()
    log: tuple[str, ...] = ()
    willpower: tuple[str, ...] = ()
    carried: Carried = field(default_factory=Carried)

    # -------------------------------------------------------------- reading

    def name(self, key: str) -> str:
        """The fighter's name."""
        return self.names.get(key, key)

    def declaration(self, key: str) -> Declaration:
        """This turn's declaration of ``key`` (a single action if none)."""
        return self.declarations.get(key, Declaration())

    def has_condition(self, key: str, kind: str, turn: int | None = None) -> bool:
        """Whether ``key`` has ``kind`` this turn (or in ``turn``)."""
        turn = self.turn if turn is None else turn
        return any(c.who == key and c.kind == kind and c.turn == turn for c in self.conditions)

    def conditions_of(self, key: str) -> list[str]:
        """This turn's conditions of ``key``, as words."""
        return [CONDITIONS[c.kind] for c in self.conditions if c.who == key and c.turn == self.turn]

    def offense_left(self, key: str) -> int:
        """Staged actions ``key`` has not taken yet this turn."""
        if key in self.out or self.phase != "act":
            return 0
        d = self.declaration(key)
        return max(0, d.offense - self.aborted.get(key, 0) - self.taken.get(key, 0))

    def actions_left(self, key: str) -> int:
        """Actions of any kind ``key`` has left this turn."""
        if key in self.out or self.phase != "act":
            return 0
        return max(0, self.declaration(key).total - self.used.get(key, 0))

    def prior_hold(self, holder: str, target: str) -> str | None:
        """The maneuver by which ``holder`` has held ``target`` since an earlier turn, if any
        (a bite follows "on the turn following the successful attack", 000 "Bite")."""
        for h in self.holds:
            if h.holder == holder and h.target == target and h.turn < self.turn:
                return h.maneuver
        return None

    def held_by(self, target: str) -> list[Hold]:
        """Holds on ``target``."""
        return [h for h in self.holds if h.target == target]

    def queue(self, able: Iterable[str] | None = None) -> list[Slot]:
        """The staged actions still to come, in order.

        Round 1: first actions by initiative (delayers wait, see :meth:`waiting`),
        then delayers who have not acted, by initiative score; round 2: second
        actions by initiative; and so on (000 "Stage One: Initiative"; 004
        "Multiple Actions": all second actions before any third).

        Args:
            able: keys who can act now (others are skipped); all if ``None``.
        """
        if self.phase != "act":
            return []
        able_set = set(self.fighters if able is None else able)
        order = [e.key for e in self.initiative if e.key in able_set and e.key not in self.out]
        slots: list[Slot] = []
        rounds = max((self.declaration(k).offense for k in order), default=0)
        for number in range(1, rounds + 1):
            delayers = []
            for key in order:
                done = self.taken.get(key, 0) + self.aborted.get(key, 0)
                if self.declaration(key).offense < number or done >= number:
                    continue
                if number == 1 and self.declaration(key).delay:
                    delayers.append(key)
                    continue
                slots.append(Slot(key, number))
            if delayers:
                by_score = delayed_order(delayers, Initiative(self.initiative, (), ()))
                slots.extend(Slot(k, 1) for k in by_score)
        return slots

    def waiting(self, able: Iterable[str] | None = None) -> list[str]:
        """Delayers who have not yet taken their first action (they may act at any time)."""
        able_set = set(self.fighters if able is None else able)
        return [e.key for e in self.initiative
                if e.key in able_set and e.key not in self.out and self.declaration(e.key).delay
                and self.declaration(e.key).offense and not self.taken.get(e.key, 0) and not self.aborted.get(e.key, 0)]

    def next_slot(self, able: Iterable[str] | None = None) -> Slot | None:
        """The next staged action, or ``None`` when the turn is over."""
        queue = self.queue(able)
        return queue[0] if queue else None

    def action_slot(self, key: str, defense: bool = False) -> ActionSlot:
        """The :class:`ActionSlot` for ``key``'s next action (which action it is, for the dice pool).

        Raises:
            RulesError: ``key`` has no action left.
        """
        d = self.declaration(key)
        if d.full_defense and defense:
            return ActionSlot(total=1, number=self.defended.get(key, 0) + 1, full_defense=True)
        number = self.used.get(key, 0) + 1
        if number > d.total:
            raise RulesError(Phrase.message(N_("%(value)s has no action left this turn."), value=self.name(key)),
                             field="character")
        if number > d.actions:
            return ActionSlot(total=d.actions, number=1, celerity=True)
        return ActionSlot(total=d.actions, number=number, split_dice=d.split_dice, shares=d.shares)

    def defense_options(self, key: str, profile: Profile) -> dict[str, bool]:
        """How ``key`` may defend now.

        Returns:
            ``declared``: a defense kept for it (or a turn spent defending);
            ``abort``: he may abort to a defense by Willpower (000: he has not
            acted yet and has an action left; 004: he has an action left).
        """
        if key in self.out or self.phase != "act":
            return {"declared": False, "abort": False}
        d = self.declaration(key)
        kept = d.full_defense or (d.defenses - self.defended.get(key, 0) + self.aborted.get(key, 0)) > 0
        if d.full_defense:
            return {"declared": True, "abort": False}
        offense_left = self.offense_left(key)
        if profile.situation.abort == "not_acted":
            abort = offense_left > 0 and self.taken.get(key, 0) == 0
        else:
            abort = offense_left > 0
        return {"declared": kept and self.actions_left(key) > 0, "abort": abort}

    # -------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return {
            "fighters": list(self.fighters), "names": dict(self.names), "turn": self.turn, "phase": self.phase,
            "initiative": [e.to_dict() for e in self.initiative], "out": list(self.out),
            "declarations": {k: d.to_dict() for k, d in self.declarations.items()},
            "used": dict(self.used), "taken": dict(self.taken), "defended": dict(self.defended),
            "aborted": dict(self.aborted), "holds": [h.to_dict() for h in self.holds],
            "conditions": [c.to_dict() for c in self.conditions],
            "log": [line.data() if isinstance(line, Phrase) else line for line in self.log],
            "willpower": list(self.willpower), "carried": self.carried.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Combat":
        """Rebuild from :meth:`to_dict` output.

        Raises:
            RulesError: the data is not a combat state.
        """
        try:
            return cls(
                fighters=tuple(str(k) for k in data["fighters"]), names=MappingProxyType(dict(data["names"])),
                turn=int(data["turn"]), phase=str(data["phase"]),
                initiative=tuple(InitiativeEntry.from_dict(e) for e in data.get("initiative", [])),
                out=tuple(data.get("out", [])),
                declarations=MappingProxyType({k: Declaration.from_dict(v)
                                               for k, v in data.get("declarations", {}).items()}),
                used=MappingProxyType(dict(data.get("used", {}))), taken=MappingProxyType(dict(data.get("taken", {}))),
                defended=MappingProxyType(dict(data.get("defended", {}))),
                aborted=MappingProxyType(dict(data.get("aborted", {}))),
                holds=tuple(Hold(**h) for h in data.get("holds", [])),
                conditions=tuple(Condition(**c) for c in data.get("conditions", [])),
                log=tuple(Phrase(line) if isinstance(line, dict) else str(line) for line in data.get("log", [])),
                willpower=tuple(str(k) for k in data.get("willpower", [])),
                carried=Carried.from_dict(data.get("carried")),
            )
        except (KeyError, TypeError, ValueError):
            raise RulesError(Phrase.message(N_("The stored combat cannot be read; end it and start again.")),
                             field="combat") from None


# ---------------------------------------------------------------- changes

def new_combat(fighters: Sequence[tuple[str, str]]) -> Combat:
    """A combat between ``fighters`` ((key, name) pairs), at turn 1 before initiative.

    Raises:
        RulesError: fewer than 2 or more than 6 fighters, or one listed twice (field ``characters``).
    """
    keys = [k for k, _ in fighters]
    if len(set(keys)) != len(keys):
        raise RulesError(Phrase.message(N_("A character is chosen twice.")), field="characters")
    if not MIN_FIGHTERS <= len(keys) <= MAX_FIGHTERS:
        raise RulesError(Phrase.message(N_("Choose %(min_fighters)s to %(max_fighters)s characters for a tabletop "
                                           "combat (%(value)s chosen)."),
                                        min_fighters=MIN_FIGHTERS, max_fighters=MAX_FIGHTERS, value=len(keys)),
                         field="characters")
    return Combat(fighters=tuple(keys), names=MappingProxyType(dict(fighters)))


def initiative_modifiers(combat: Combat) -> dict[str, tuple[int, str]]:
    """Initiative modifiers for the turn about to be rolled: -2 after rising from a knockdown (000 "Knockdown")."""
    return {c.who: (-2, Phrase.message(N_("rose from a knockdown"))) for c in combat.conditions
            if c.kind == "slowed" and c.turn == combat.turn}


def begin_turn(combat: Combat, initiative: Initiative, willpower: Iterable[str] = ()) -> tuple[Combat, tuple[Step, ...]]:
    """Set this turn's initiative and open the declarations.

    A dazed fighter spends the turn shaking it off and takes no action (000 "Dazed").
    ``willpower``: fighters who spend a Willpower point now to ignore their wound penalties,
    up to and including Incapacitated, for the whole turn (LotNR Willpower, met-reference 2.1;
    declared before the roll, 004 "Preliminaries").

    Raises:
        RulesError: the turn is not waiting for initiative, or the order names someone not in the fight.
    """
    if combat.phase != "initiative":
        raise RulesError(Phrase.message(N_("Initiative has already been rolled this turn.")), field="phase")
    unknown = [e.key for e in initiative.entries if e.key not in combat.fighters]
    if unknown:
        raise RulesError(Phrase.message(N_("The initiative names someone who is not in the fight.")),
                         field="characters")
    steps = Explanation()
    out = [k for k, _ in initiative.out]
    for e in initiative.entries:
        if combat.has_condition(e.key, "dazed"):
            out.append(e.key)
            steps.add(N_("%(name)s is dazed and spends this turn shaking off the blow."), '000 "Dazed"', name=e.name)
    spent = tuple(dict.fromkeys(k for k in willpower if k in combat.fighters))
    for key in spent:
        steps.add(N_("%(name)s spends a Willpower point: no wound penalties this turn, Incapacitated included."),
                  "LotNR Willpower (met-reference 2.1, 4.1); 004 \"Preliminaries\"", name=combat.name(key))
    placed = {e.key for e in initiative.entries}
    out.extend(k for k in combat.fighters if k not in placed and k not in out)
    new = replace(combat, phase="declare", initiative=initiative.entries, out=tuple(dict.fromkeys(out)), willpower=spent,
                  declarations=MappingProxyType({}), used=MappingProxyType({}), taken=MappingProxyType({}),
                  defended=MappingProxyType({}), aborted=MappingProxyType({}),
                  log=(Phrase.message(N_("Turn %(turn)s: %(order)s"), turn=combat.turn,
                                      order=[f"{e.name} {e.score}" for e in initiative.entries]),))
    return new, steps.steps()


def said_text(step: Step) -> str:
    """A step's words for the turn's log: its phrase when it has one (the log then says it in the reader's
    language), else its text."""
    return Phrase(step.said) if step.said else step.text


def _bump(mapping: Mapping[str, int], key: str, by: int = 1) -> Mapping[str, int]:
    data = dict(mapping)
    data[key] = data.get(key, 0) + by
    return MappingProxyType(data)


def take_action(combat: Combat, key: str, summary: str) -> Combat:
    """``key`` takes his next staged action (an attack or anything else).

    Raises:
        RulesError: not the action phase, or ``key`` has no staged action left.
    """
    if combat.phase != "act":
        raise RulesError(Phrase.message(N_("Declare the actions first.")), field="phase")
    if combat.offense_left(key) < 1:
        raise RulesError(Phrase.message(N_("%(value)s has no action left to take this turn."), value=combat.name(key)),
                         field="character")
    # anything else he does ends his aim, and the aimed shot spends it (000 "Aiming")
    return replace(combat, used=_bump(combat.used, key), taken=_bump(combat.taken, key), log=combat.log + (summary,),
                   carried=combat.carried.with_aim(key, None))


def use_defense(combat: Combat, key: str, abort: bool, profile: Profile) -> Combat:
    """``key`` spends an action defending: a kept defense, or (``abort``) his next staged action.

    Raises:
        RulesError: he may not defend that way now (field ``defense.abort`` or ``defense.maneuver``).
    """
    options = combat.defense_options(key, profile)
    if abort:
        if not options["abort"]:
            rule = "has already acted" if profile.situation.abort == "not_acted" else "has no action left"
            raise RulesError(Phrase.message(N_("%(value)s %(rule_name)s this turn and cannot abort to a defense."),
                                            value=combat.name(key), rule_name=rule),
                             field="defense.abort")
        combat = replace(combat, aborted=_bump(combat.aborted, key))
    elif not options["declared"]:
        raise RulesError(Phrase.message(N_("%(value)s kept no defense for this turn: abort by Willpower instead."),
                                        value=combat.name(key)),
                         field="defense.maneuver")
    used = combat.used if combat.declaration(key).full_defense else _bump(combat.used, key)
    return replace(combat, used=used, defended=_bump(combat.defended, key),
                   carried=combat.carried.with_aim(key, None))


def apply_effects(combat: Combat, effects: Iterable[Any]) -> Combat:
    """Carry an attack's effects into the combat: holds made or broken, the
    conditions that last into the next turn (dazed, getting up, slowed, unbalanced), and the
    rounds and shots a gun fired (000 "Ranged Weapons Chart").

    Args:
        effects: :class:`~larp.rules.tabletop.combat.Effect` values.
    """
    holds = list(combat.holds)
    conditions = list(combat.conditions)
    carried = combat.carried
    for e in effects:
        if e.kind == "fired":  # rounds and shots through the turn (000 "Ranged Weapons Chart")
            gun = carried.gun(e.who, e.weapon) or Gun(e.weapon, weapon_card(e.weapon, "tabletop").clip)
            carried = carried.with_gun(e.who, gun.fired(e.count, e.target, e.shots))
        elif e.kind == "dodge_shared":  # successes of the one Dark Ages dodge roll given (004 "Dodging")
            left = max(0, carried.dodges.get(e.who, 0) - e.count)
            carried = replace(carried, dodges=MappingProxyType({**carried.dodges, e.who: left}))
        elif e.kind == "holds":
            holds = [h for h in holds if not (h.holder == e.who and h.target == e.target)]
            holds.append(Hold(e.who, e.target, e.maneuver, combat.turn))
        elif e.kind == "hold_broken":
            holds = [h for h in holds if h.target != e.who]
        elif e.kind in CONDITIONS:
            conditions.append(Condition(e.who, e.kind, combat.turn + 1))
    return replace(combat, holds=tuple(holds), conditions=tuple(conditions), carried=carried)


def release(combat: Combat, target: str) -> Combat:
    """``target`` breaks free: every hold on him ends (000 "Hold", "Clinch")."""
    return replace(combat, holds=tuple(h for h in combat.holds if h.target != target))


def drop_fighter(combat: Combat, key: str) -> Combat:
    """A fighter who can no longer act or be held (Final Death, torpor...) holds no one."""
    return replace(combat, holds=tuple(h for h in combat.holds if h.holder != key))


def next_turn(combat: Combat) -> Combat:
    """End the turn: the next one starts with initiative; conditions for it are kept."""
    if combat.phase == "initiative":
        raise RulesError(Phrase.message(N_("This turn has not started yet.")), field="phase")
    conditions = tuple(c for c in combat.conditions if c.turn > combat.turn)
    return replace(combat, turn=combat.turn + 1, phase="initiative", initiative=(), out=(),
                   declarations=MappingProxyType({}), used=MappingProxyType({}), taken=MappingProxyType({}),
                   defended=MappingProxyType({}), aborted=MappingProxyType({}), conditions=conditions,
                   log=combat.log[-1:] if combat.log else (), willpower=(), carried=combat.carried.new_turn())
