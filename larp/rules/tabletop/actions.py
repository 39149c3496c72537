"""Multiple actions, Celerity and full defense (000 "Multiple Actions", "Defensive Maneuvers";
003 "Multiple Actions"; 004 "Multiple Actions").

- Revised and Dark Ages (000, 004; chronicle setting ``tabletop_multiple_actions``
  = "cumulative"): the first action's pool loses as many dice as there are
  actions, each later action one die more, cumulative. A pool at zero or below
  cannot act (004).
- V20 (003; "split_pool"): the smallest of the actions' pools is divided among them, evenly;
  "split_free": divided as the player chooses (003 "divide that number of dice between all of your
  actions" says no more).
- A house reading ("smallest_cumulative"): every action of the turn starts from the smallest of its
  pools and loses dice as 000 says (pools of 7 and 9, two actions: 5 dice, then 4).
- Celerity's extra actions cost no dice (000; 004: they are not themselves split); they cost
  blood (004 "Activate Celerity": one blood point each; setting ``tabletop_celerity_blood``).
- Full defense: the whole turn spent defending: the full pool for the first
  defense, one die fewer, cumulative, for each further one (000, 003).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from larp.rules.explain import N_, Phrase, RulesError, Step, blood_points, phrase_step
from larp.rules.settings import ChronicleSettings

_MULTIPLE = '000 "Multiple Actions"'
_FULL_DEFENSE = '000 "Defensive Maneuvers"'
_SPLIT = '003 "Multiple Actions"'
_CELERITY = '000 "Multiple Actions" (Celerity)'


@dataclass(frozen=True)
class ActionSlot:
    """Which of a character's actions this turn a roll is for.

    Attributes:
        total: ordinary actions declared this turn (at least 1), Celerity's not counted.
        number: this action's place, 1-based (for a full defense: which defense).
        celerity: one of Celerity's extra actions (no dice lost).
        full_defense: the character spends the whole turn defending.
        split_dice: with the V20 split pool, the smallest pool of the declared
            actions (``None``: this action's own pool).
        shares: with ``split_free``, the dice the player gives each ordinary action, in order.
    """

    total: int = 1
    number: int = 1
    celerity: bool = False
    full_defense: bool = False
    split_dice: int | None = None
    shares: tuple[int, ...] = ()

    def check(self) -> None:
        """Raises RulesError (field ``actions``) for an impossible slot."""
        for name, value in (("total", self.total), ("number", self.number)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RulesError(Phrase.message(N_("The number of actions and the action's place are whole numbers "
                                                   "from 1.")),
                                 field=f"actions.{name}")
        if not self.full_defense and not self.celerity and self.number > self.total:
            raise RulesError(Phrase.message(N_("Action %(number)s of %(total)s: there are only %(actions)s declared."),
                                            number=self.number, total=self.total,
                                            actions=Phrase.counted(self.total, "%(n)s action", "%(n)s actions")),
                             field="actions.number")
        if self.split_dice is not None and (isinstance(self.split_dice, bool) or not isinstance(self.split_dice, int)
                                            or self.split_dice < 0):
            raise RulesError(Phrase.message(N_("The split pool is a number of dice, at least 0.")),
                             field="actions.split_dice")
        if self.shares and (len(self.shares) != self.total or any(
                isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in self.shares)):
            raise RulesError(Phrase.message(N_("Give the dice of each of the %(total)s actions, whole numbers of "
                                               "at least 0."), total=self.total),
                             field="actions.shares")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"total": self.total, "number": self.number, "celerity": self.celerity,
                "full_defense": self.full_defense, "split_dice": self.split_dice, "shares": list(self.shares)}


def slot_dice(base: int, slot: ActionSlot, settings: ChronicleSettings | None = None,
              who: str = "The character") -> tuple[int, Step | None]:
    """The dice left of ``base`` (Attribute + Ability) for the action ``slot``.

    The result may be zero or negative (then the action cannot be attempted,
    004); the caller adds accuracy and other dice and then decides.

    Returns:
        The dice, and the step that explains the change (``None`` for a single action).

    Raises:
        RulesError: an impossible slot.
    """
    slot.check()
    settings = settings or ChronicleSettings.defaults()
    if slot.celerity:
        return base, phrase_step(N_("%(name)s takes this action through Celerity: no dice lost."), _CELERITY, name=who)
    if slot.full_defense:
        lost = slot.number - 1
        if not lost:
            return base, phrase_step(N_("%(name)s spends the whole turn defending: the full pool (%(pool)s) for the first "
                                        "defense."), _FULL_DEFENSE, name=who, pool=base)
        return base - lost, phrase_step(N_("%(name)s spends the whole turn defending: defense %(number)s loses %(dice)s: "
                                           "%(pool)s - %(lost)s = %(left)s."), _FULL_DEFENSE, name=who, number=slot.number,
                                        dice=Phrase.counted(lost, "%(n)s die", "%(n)s dice"), pool=base, lost=lost,
                                        left=base - lost)
    if slot.total == 1:
        return base, None
    model = settings["tabletop_multiple_actions"]
    smallest = base if slot.split_dice is None else min(slot.split_dice, base)
    if model == "split_free" and slot.shares:
        if sum(slot.shares) > smallest:
            raise RulesError(Phrase.message(N_("%(who)s's shares (%(value)s = %(value2)s) are more than the "
                                               "smallest pool, %(smallest)s dice."),
                                            who=who, value=' + '.join(map(str, slot.shares)), value2=sum(slot.shares), smallest=smallest),
                             field="actions.shares")
        share = slot.shares[slot.number - 1]
        return share, phrase_step(N_("%(name)s takes %(total)s actions and divides the smallest pool (%(smallest)s) as he "
                                     "chooses (%(shares)s): action %(number)s gets %(n)s dice."), _SPLIT,
                                  "tabletop_multiple_actions", name=who, total=slot.total, smallest=smallest,
                                  shares=" / ".join(map(str, slot.shares)), number=slot.number, n=share)
    if model in ("split_pool", "split_free"):
        share = smallest // slot.total + (1 if slot.number <= smallest % slot.total else 0)
        return share, phrase_step(N_("%(name)s takes %(total)s actions: the smallest pool (%(smallest)s) is divided among "
                                     "them; action %(number)s gets %(n)s dice."), _SPLIT, "tabletop_multiple_actions",
                                  name=who, total=slot.total, smallest=smallest, number=slot.number, n=share)
    if model == "smallest_cumulative":
        lost = slot.total + slot.number - 1
        return smallest - lost, phrase_step(
            N_("%(name)s takes %(total)s actions: every action starts from the smallest pool (%(smallest)s); action "
               "%(number)s loses %(total)s + %(earlier)s = %(lost)s dice: %(smallest)s - %(lost)s = %(left)s."),
            "House reading of 000 \"Multiple Actions\" with 003's smallest pool", "tabletop_multiple_actions", name=who,
            total=slot.total, smallest=smallest, number=slot.number, earlier=slot.number - 1, lost=lost,
            left=smallest - lost)
    lost = slot.total + slot.number - 1
    return base - lost, phrase_step(N_("%(name)s takes %(total)s actions: action %(number)s loses %(total)s + %(earlier)s = "
                                       "%(lost)s dice: %(pool)s - %(lost)s = %(left)s."), _MULTIPLE,
                                    "tabletop_multiple_actions", name=who, total=slot.total, number=slot.number,
                                    earlier=slot.number - 1, lost=lost, pool=base, left=base - lost)


@dataclass(frozen=True)
class ActionPool:
    """One action's pool after the multiple-action rule.

    Attributes:
        base: the pool before.
        dice: the pool after, never below 0.
        can_act: False when the rule left no dice (004: the action cannot be attempted).
        celerity: a Celerity action.
        step: the explanation.
    """

    base: int
    dice: int
    can_act: bool
    celerity: bool
    step: Step | None


def multiple_action_pools(pools: Sequence[int], settings: ChronicleSettings | None = None, *,
                          celerity: Sequence[int] = (), who: str = "The character",
                          shares: Sequence[int] = ()) -> tuple[ActionPool, ...]:
    """The pools of the actions a character declares this turn, in order.

    Args:
        pools: each ordinary action's pool (Attribute + Ability, before the rule), in order.
        celerity: the pools of Celerity's extra actions (no dice lost).
        shares: with ``split_free``, the dice the player gives each action.

    Rules: 000 and 004 "Multiple Actions" (cumulative), 003 (split pool, evenly or as chosen), the
    house reading (every action from the smallest pool, cumulative); Celerity 000, 004.

    Raises:
        RulesError: no actions, or a negative pool.
    """
    if not pools:
        raise RulesError(Phrase.message(N_("Declare at least one action.")), field="actions")
    if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in (*pools, *celerity)):
        raise RulesError(Phrase.message(N_("A dice pool is a whole number of dice, at least 0.")), field="pools")
    smallest = min(pools)
    result = []
    for number, base in enumerate(pools, start=1):
        dice, step = slot_dice(base, ActionSlot(len(pools), number, split_dice=smallest, shares=tuple(shares)),
                               settings, who)
        result.append(ActionPool(base, max(0, dice), dice > 0, False, step))
    for base in celerity:
        dice, step = slot_dice(base, ActionSlot(len(pools), 1, celerity=True), settings, who)
        result.append(ActionPool(base, dice, dice > 0, True, step))
    return tuple(result)


def full_defense_pools(pool: int, attacks: int) -> tuple[int, ...]:
    """The dice for each of ``attacks`` defenses in a turn spent defending:
    the full pool, then one die fewer each time, never below 0 (000, 003 "Defensive Maneuvers").

    Raises:
        RulesError: a negative pool or number of attacks.
    """
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise RulesError(Phrase.message(N_("A dice pool is a whole number of dice, at least 0.")), field="pool")
    if isinstance(attacks, bool) or not isinstance(attacks, int) or attacks < 0:
        raise RulesError(Phrase.message(N_("The number of attacks is a whole number, at least 0.")), field="attacks")
    return tuple(max(0, pool - i) for i in range(attacks))


def celerity_blood(extra: int, profile: str, settings: ChronicleSettings | None = None,
                   who: str = "The character") -> tuple[int, Step]:
    """Blood points Celerity's ``extra`` actions cost this turn, and the step that says so.

    Rules (setting ``tabletop_celerity_blood``): Dark Ages, one blood point for each extra action,
    ignoring the generation's limit (004 "Activate Celerity"); the revised and V20 profiles, one
    blood point for all of them (000 refers to the Discipline's text, which it does not reproduce:
    the Laws of the Night rule, met-reference 3.3); or none (the narrator keeps count).

    Args:
        extra: Celerity's extra actions declared this turn (at least 1).
        profile: the tabletop profile's key ("revised", "dark_ages", "v20").
    """
    settings = settings or ChronicleSettings.defaults()
    model = settings["tabletop_celerity_blood"]
    if model == "by_profile":
        model = "per_action" if profile == "dark_ages" else "per_turn"
    if model == "none":
        return 0, phrase_step(N_("%(name)s's Celerity costs no blood here: the narrator keeps count."),
                              '004 "Activate Celerity"', "tabletop_celerity_blood", name=who)
    if model == "per_action":
        return extra, phrase_step(N_("%(name)s burns %(blood)s for Celerity's %(actions)s, one each, whatever the "
                                     "generation's limit."), '004 "Activate Celerity"', "tabletop_celerity_blood",
                                  name=who, blood=blood_points(extra), actions=_extra_actions(extra))
    return 1, phrase_step(N_("%(name)s burns 1 blood point: Celerity is active for the turn (%(actions)s)."),
                          "LotNR Celerity (met-reference 3.3); 000 \"Multiple Actions\"", "tabletop_celerity_blood",
                          name=who, actions=_extra_actions(extra))


def _extra_actions(count: int) -> Phrase:
    """"1 extra action", "2 extra actions", in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s extra action", "%(n)s extra actions")
