"""The order of challenges in a turn (seed 002 "Order of Challenges", "Challenges";
LotNR order of challenges and Celerity, met-reference 3.1 and 3.3).

Given who acts this turn, :func:`order_of_actions` says in which order their
actions resolve, with the steps that explain it:

1. Those who can pre-empt act first: Celerity's Alacrity pre-empts any
   physical action the character is aware of; between pre-empters the highest
   Celerity goes first, and equal pre-empts cancel each other out, so the
   ordinary order decides between them (002 "Order of Challenges"; LotNR
   Alacrity).
2. Then everyone else: the higher current Traits in the category used acts
   first; equal counts act at the same time (or the narrator picks); actions
   with no challenge go last (LotNR order of challenges).
3. A defender who is attacked may answer with a simultaneous attack, one test
   in which the winner hits and the loser misses, when neither side can
   pre-empt the other (or their pre-empts cancel out) and it is not mass
   combat (002 "Challenges"); his own action is then used up (LotNR).
4. Extra actions come after everyone's normal action: Swiftness actions
   (Celerity 2) together, then Legerity actions (Celerity 4) together
   (002 "Order of Challenges"; LotNR Swiftness, Legerity).
5. A surprised character cannot use Celerity in the first challenge, so he
   cannot pre-empt or answer with a simultaneous attack in it (LotNR Surprise);
   his extra actions later in the turn are not affected.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from collections.abc import Mapping, Sequence
from typing import Any

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.plain_fields import PlainFields

R_ORDER = '002 "Order of Challenges"'
R_ORDER_LOTNR = "LotNR order of challenges (met-reference 3.1)"
R_ALACRITY = "LotNR Celerity: Alacrity (met-reference 3.3)"
R_EXTRA = '002 "Order of Challenges"; LotNR Swiftness and Legerity (met-reference 3.3)'
R_SIMULTANEOUS = '002 "Challenges"'
R_SURPRISE = "LotNR Surprise (met-reference 3.1)"
R_MASS = '002 "Mass Combat"'

#: Celerity levels of the powers that change the order (LotNR Celerity, met-reference 3.3).
ALACRITY, SWIFTNESS, LEGERITY = 1, 2, 4
#: The Celerity level of Rapidity: the Bomb in speed challenges (LotNR Celerity, met-reference 3.3).
RAPIDITY = 3


def celerity_note(celerity: int) -> str:
    """What Celerity at ``celerity`` (0 to 5) adds when it is active this round, in the screens' words:
    ``"extra actions"`` from Swiftness (2), ``"speed Bomb"`` from Rapidity (3), joined by commas;
    ``""`` for neither (LotNR Celerity, met-reference 3.3)."""
    return ", ".join((["extra actions"] if celerity >= SWIFTNESS else []) +
                     (["speed Bomb"] if celerity >= RAPIDITY else []))


def alacrity_level(celerity: int, surprised: bool = False) -> int:
    """The Celerity with which a character pre-empts (0: he cannot pre-empt).

    Alacrity (Celerity 1) pre-empts any physical action the character is aware of; between
    pre-empters the higher Celerity acts first and equal levels cancel out (002 "Order of
    Challenges", "Challenges"; LotNR Alacrity, met-reference 3.3). A surprised character cannot
    use Celerity in the first challenge (LotNR Surprise, met-reference 3.1).

    Args:
        celerity: the Celerity level active this turn (blood spent), 0 to 5.
        surprised: he is surprised in this first challenge.
    """
    return 0 if surprised or celerity < ALACRITY else celerity


@dataclass(frozen=True)
class Participant:
    """Someone acting in this turn.

    Attributes:
        name: the character's name (unique in the turn).
        traits: current Traits in the category of the action (for the order).
        celerity: the Celerity level active this turn (Blood spent), 0 to 5.
        target: whom the action challenges; empty for an action with no challenge.
        surprised: unaware of the coming attack (the first challenge).
        simultaneous: when attacked, answers with a simultaneous attack instead
            of acting on his own (002 "Challenges").
    """

    name: str
    traits: int
    celerity: int = 0
    target: str = ""
    surprised: bool = False
    simultaneous: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "participant") -> "Participant":
        """Read a participant from JSON-like data (keys as the attributes).

        Raises:
            RulesError: a missing or malformed value, naming the field.
        """
        if not isinstance(data, Mapping):
            raise RulesError(Phrase.message(N_("A participant must be an object.")), field=where)
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise RulesError(Phrase.message(N_("Unknown field %(value)s."), value=repr(unknown[0])),
                             field=f"{where}.{unknown[0]}")
        return cls(
            name=data.get("name", ""),
            traits=data.get("traits", -1),
            celerity=data.get("celerity", 0),
            target=data.get("target", "") or "",
            surprised=data.get("surprised", False),
            simultaneous=data.get("simultaneous", False),
        )


@dataclass(frozen=True)
class ActionSlot:
    """One action in the turn's order.

    Attributes:
        position: 1 for the first to resolve; slots with the same position
            resolve at the same time.
        actor: who acts.
        kind: ``"pre-empt"``, ``"normal"``, ``"no challenge"``, ``"Swiftness"``
            or ``"Legerity"``.
        target: whom the action challenges ("" for none).
        answered_by: defenders who answer this action with a simultaneous
            attack (one test, the winner hits).
    """

    position: int
    actor: str
    kind: str
    target: str = ""
    answered_by: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"position": self.position, "actor": self.actor, "kind": self.kind, "target": self.target,
                "answered_by": list(self.answered_by)}


@dataclass(frozen=True)
class TurnOrder:
    """The order of the turn's actions, with the steps that explain it."""

    slots: tuple[ActionSlot, ...]
    steps: tuple[Step, ...]

    def actors(self) -> list[tuple[int, str, str]]:
        """``(position, actor, kind)`` for each slot, in order."""
        return [(s.position, s.actor, s.kind) for s in self.slots]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"slots": [s.to_dict() for s in self.slots], "steps": [s.to_dict() for s in self.steps]}


def _check(participants: Sequence[Participant]) -> None:
    by_name: dict[str, Participant] = {}
    for index, p in enumerate(participants):
        where = f"participants[{index}]"
        if not isinstance(p, Participant):
            raise RulesError(Phrase.message(N_("A participant must be given.")), field=where)
        if not isinstance(p.name, str) or not p.name.strip():
            raise RulesError(Phrase.message(N_("A participant needs a name.")), field=f"{where}.name")
        if p.name in by_name:
            raise RulesError(Phrase.message(N_("%(name)s appears twice."), name=p.name), field=f"{where}.name")
        if isinstance(p.traits, bool) or not isinstance(p.traits, int) or p.traits < 0:
            raise RulesError(Phrase.message(N_("%(name)s: give the current Traits (0 or more)."), name=p.name),
                             field=f"{where}.traits")
        if isinstance(p.celerity, bool) or not isinstance(p.celerity, int) or not 0 <= p.celerity <= 5:
            raise RulesError(Phrase.message(N_("%(name)s: Celerity is a level from 0 to 5."), name=p.name),
                             field=f"{where}.celerity")
        if not isinstance(p.target, str):
            raise RulesError(Phrase.message(N_("%(name)s: the target is a name."), name=p.name),
                             field=f"{where}.target")
        for flag in ("surprised", "simultaneous"):
            if not isinstance(getattr(p, flag), bool):
                raise RulesError(Phrase.message(N_("%(name)s: %(flag)s is true or false."), name=p.name, flag=flag),
                                 field=f"{where}.{flag}")
        by_name[p.name] = p
    for index, p in enumerate(participants):
        if p.target and p.target not in by_name:
            raise RulesError(Phrase.message(N_("%(name)s targets %(target)s, who is not in this turn."),
                                            name=p.name, target=p.target),
                             field=f"participants[{index}].target")
        if p.target == p.name:
            raise RulesError(Phrase.message(N_("%(name)s cannot challenge %(name)s."), name=p.name),
                             field=f"participants[{index}].target")


def order_of_actions(participants: Sequence[Participant]) -> TurnOrder:
    """The order in which this turn's actions resolve (rules in the module docstring).

    Args:
        participants: everyone acting this turn, with their current Traits,
            active Celerity, target and surprise; ``simultaneous`` marks a
            defender who answers the attack on him with a simultaneous attack.

    Returns:
        The slots in order (equal positions resolve together) and the steps.

    Raises:
        RulesError: a duplicate or unknown name, a bad number, or a
            simultaneous answer the rules do not allow (no attacker, several
            attackers (mass combat), a pre-empt between the two, surprise).
    """
    _check(participants)
    steps = Explanation()
    attackers: dict[str, list[Participant]] = {}
    for p in participants:
        if p.target:
            attackers.setdefault(p.target, []).append(p)

    def pre_empt(p: Participant) -> int:
        return alacrity_level(p.celerity, p.surprised)

    for p in participants:
        if p.surprised and p.celerity >= ALACRITY:
            steps.add(N_("%(name)s is surprised and cannot use Celerity in the first challenge."), R_SURPRISE,
                      name=p.name)
    for target, group in attackers.items():
        if len(group) > 1:
            steps.add(N_("%(name)s is attacked by %(names)s: mass combat, so no simultaneous answer."), R_MASS,
                      name=target, names=[a.name for a in group])

    answers: dict[str, list[str]] = {}
    for index, p in enumerate(participants):
        if not p.simultaneous:
            continue
        where = f"participants[{index}].simultaneous"
        group = attackers.get(p.name, [])
        if not group:
            raise RulesError(Phrase.message(N_("%(name)s is not attacked, so there is nothing to answer."),
                                            name=p.name), field=where)
        if len(group) > 1:
            raise RulesError(Phrase.message(N_("%(name)s faces several attackers (mass combat): no simultaneous "
                                               "attack."), name=p.name), field=where)
        attacker = group[0]
        if p.surprised:
            raise RulesError(Phrase.message(N_("%(name)s is surprised: the first challenge can only harm %(name)s."),
                                            name=p.name), field=where)
        if pre_empt(attacker) != pre_empt(p):
            faster = attacker if pre_empt(attacker) > pre_empt(p) else p
            raise RulesError(Phrase.message(N_("%(name)s pre-empts with Celerity, so there is no simultaneous "
                                               "attack."), name=faster.name),
                             field=where)
        if p.target not in ("", attacker.name):
            raise RulesError(Phrase.message(N_("%(name)s can answer only %(name2)s's attack with a simultaneous "
                                               "attack."), name=p.name, name2=attacker.name),
                             field=where)
        answers.setdefault(attacker.name, []).append(p.name)
        why = Phrase.message(N_("their pre-empts cancel out") if pre_empt(p) else N_("neither can pre-empt"))
        steps.add(N_("%(name)s answers %(attacker)s's attack with a simultaneous attack (%(why)s; not mass combat): "
                     "one test, the winner hits and the loser misses. %(name)s's own action is used up."),
                  R_SIMULTANEOUS, name=p.name, attacker=attacker.name, why=why)

    answering = {name for names in answers.values() for name in names}
    acting = [p for p in participants if p.name not in answering]
    challengers = [p for p in acting if p.target]
    quiet = [p for p in acting if not p.target]

    def key(p: Participant) -> tuple[int, int]:
        return (-pre_empt(p), -p.traits)

    def names(group: Sequence[Participant]) -> list[str]:
        return [p.name for p in group]

    slots: list[ActionSlot] = []
    position = 0
    for celerity, same in groupby(sorted(challengers, key=key), key=pre_empt):
        same = list(same)
        if celerity >= ALACRITY:
            steps.add(N_("%(names)s: Celerity %(celerity)s (Alacrity) pre-empts; the highest Celerity acts first."),
                      R_ALACRITY, names=names(same), celerity=celerity)
            if len(same) > 1:
                steps.add(N_("Equal pre-empts cancel out: %(names)s act in the ordinary order."), R_ORDER,
                          names=names(same))
        for traits, tier in groupby(same, key=lambda p: p.traits):
            tier = list(tier)
            position += 1
            steps.add(N_("%(names)s: %(traits)s Traits, at the same time (or as the narrator picks).") if len(tier) > 1
                      else N_("%(names)s: %(traits)s Traits."), R_ORDER_LOTNR, names=names(tier), traits=traits)
            kind = "pre-empt" if celerity >= ALACRITY else "normal"
            slots.extend(ActionSlot(position, p.name, kind, p.target, tuple(answers.get(p.name, ()))) for p in tier)
    if quiet:
        position += 1
        steps.add(N_("%(names)s: actions with no challenge go last."), R_ORDER_LOTNR, names=names(quiet))
        slots.extend(ActionSlot(position, p.name, "no challenge") for p in quiet)
    for level, kind in ((SWIFTNESS, "Swiftness"), (LEGERITY, "Legerity")):
        extra = [p for p in participants if p.celerity >= level]
        if extra:
            position += 1
            steps.add(N_("%(names)s: %(power)s gives an extra action after everyone's normal action, resolved "
                         "together.") if len(extra) > 1
                      else N_("%(names)s: %(power)s gives an extra action after everyone's normal action."),
                      R_EXTRA, names=names(extra), power=kind)
            slots.extend(ActionSlot(position, p.name, kind, p.target) for p in extra)
    return TurnOrder(tuple(slots), steps.steps())


R_TWO_HANDS = "LotNR Two-Gun Mojo (met-reference 3.3, T23)"


@dataclass(frozen=True)
class HandActions(PlainFields):
    """A character's actions this turn and how they split between his hands.

    Attributes:
        total: every action this turn: his normal one, Celerity's (Swiftness and Legerity),
            and one for the second hand when he fights with both.
        other: the actions he takes doing other things.
        main_hand, off_hand: the actions each hand takes.
        steps: the explanation.
    """

    total: int
    other: int
    main_hand: int
    off_hand: int
    steps: tuple[Step, ...]


def hand_actions(celerity: int, both_hands: bool = True, other: int = 0, who: str = "The character") -> HandActions:
    """How many actions a character has this turn and how they fall between his hands.

    His normal action, one more for Swiftness (Celerity 2) and one for Legerity (Celerity 4) when
    Celerity is active (LotNR Celerity, met-reference 3.3); using both hands gives "only one extra
    action, regardless of Celerity". The actions left after those taken doing other things are
    split evenly between the hands, a leftover one to the primary hand (LotNR "Two-Gun Mojo";
    met-reference T23: Legerity and both hands, four actions, two a hand).

    Args:
        celerity: the Celerity level active this turn (0 to 5).
        both_hands: he fights with a weapon in each hand.
        other: actions he spends on other things (0 or more, at most his actions).
        who: his name, for the explanation.

    Raises:
        RulesError: a Celerity level outside 0 to 5 (``celerity``), or more other actions than he has
            (``other``).
    """
    if isinstance(celerity, bool) or not isinstance(celerity, int) or not 0 <= celerity <= 5:
        raise RulesError(Phrase.message(N_("Celerity is a level from 0 to 5.")), field="celerity")
    steps = Explanation()
    speed = (celerity >= SWIFTNESS) + (celerity >= LEGERITY)
    total = 1 + speed + (1 if both_hands else 0)
    if isinstance(other, bool) or not isinstance(other, int) or not 0 <= other <= total:
        raise RulesError(Phrase.message(N_("%(who)s has %(total)s actions this turn: at most %(total)s go to other "
                                           "things."), who=who, total=total), field="other")
    parts = ["his normal action"] + (["Swiftness's"] if celerity >= SWIFTNESS else []) + \
        (["Legerity's"] if celerity >= LEGERITY else [])
    if not both_hands:
        steps.add(f"{who} has {total} action{'s' if total != 1 else ''} this turn: {', '.join(parts)}.", R_EXTRA)
        return HandActions(total, other, total - other, 0, steps.steps())
    steps.add(f"{who} fights with both hands: {', '.join(parts)} and one for the second hand, only one whatever "
              f"his Celerity: {total} actions.", R_TWO_HANDS)
    left = total - other
    main, off = left - left // 2, left // 2
    said = f"{other} to other things; " if other else ""
    steps.add(f"{said}the {left} left split evenly between the hands, a leftover one to the primary hand: "
              f"{main} with the primary hand, {off} with the other.", R_TWO_HANDS)
    return HandActions(total, other, main, off, steps.steps())
