"""Initiative, declarations and delayed actions (000 "Stage One: Initiative"; 001; 004 "Stage One").

Each character rolls one die and adds it to his initiative rating (Dexterity +
Wits, wound penalties subtracted directly from it). The highest score acts
first; on equal scores the higher rating goes first; on equal ratings too, the
characters act simultaneously (they share a rank). Characters declare in
reverse order, so the faster can react to the slower. Two characters who
delayed and act at the same moment go in order of initiative score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.plain_fields import PlainFields
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import DiceSource
from larp.rules.tabletop.dice import check_faces

_INITIATIVE = '000 "Stage One: Initiative"'
_FIXED = 'Chronicle house rule: fixed initiative (000 "Stage One: Initiative" with 6 for the die)'


@dataclass(frozen=True)
class Entrant:
    """A character about to roll initiative.

    Attributes:
        key: a unique key (the character's id as text).
        name: as shown.
        dexterity, wits: dots.
        wound_penalty: dice the health chart subtracts (0, 1, 2, 5), or
            ``None`` when he can take no action (Incapacitated, unconscious...).
        modifier: other dice added to the score (-2 the turn after rising from
            a knockdown, 000 "Knockdown").
        modifier_reason: why, for the step.
    """

    key: str
    name: str
    dexterity: int
    wits: int
    wound_penalty: int | None = 0
    modifier: int = 0
    modifier_reason: str = ""


@dataclass(frozen=True)
class InitiativeEntry(PlainFields):
    """One character's place in the order (its JSON: its fields in order, :class:`PlainFields`).

    Attributes:
        rating: Dexterity + Wits minus the wound penalty (the tie-breaker).
        die: the die rolled, 1 to 10.
        score: rating + die + modifier.
        rank: 1 for the first to act; characters acting simultaneously share a rank.
        rolled: who rolled the die: "app", "table" (entered as rolled), or "fixed" (no roll:
            the setting ``tabletop_initiative``).
    """

    key: str
    name: str
    rating: int
    penalty: int
    modifier: int
    die: int
    score: int
    rank: int
    rolled: str = "app"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "InitiativeEntry":
        """Rebuild from :meth:`to_dict` output."""
        return cls(str(data["key"]), data["name"], data["rating"], data["penalty"], data["modifier"],
                   data["die"], data["score"], data["rank"], str(data.get("rolled", "app")))


@dataclass(frozen=True)
class Initiative:
    """The order of a turn.

    Attributes:
        entries: highest first (the acting order).
        out: (key, name) of characters who cannot act this turn.
        steps: the explanation, with every die.
    """

    entries: tuple[InitiativeEntry, ...]
    out: tuple[tuple[str, str], ...]
    steps: tuple[Step, ...]

    def declaring_order(self) -> tuple[InitiativeEntry, ...]:
        """Reverse order of initiative: the slowest declares first (000 "Stage One: Initiative")."""
        return tuple(reversed(self.entries))

    def entry(self, key: str) -> InitiativeEntry:
        """The entry of ``key``.

        Raises:
            RulesError: ``key`` has no place in this turn's order.
        """
        for e in self.entries:
            if e.key == key:
                return e
        raise RulesError(Phrase.message(N_("That character has no place in this turn's initiative.")),
                         field="character")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"order": [e.to_dict() for e in self.entries],
                "declaring_order": [e.name for e in self.declaring_order()],
                "out": [{"key": k, "name": n} for k, n in self.out],
                "steps": [s.to_dict() for s in self.steps]}


#: The die a fixed initiative counts instead of a roll (setting ``tabletop_initiative``).
FIXED_DIE = 6


def roll_initiative(entrants: Sequence[Entrant], *, dice: Mapping[str, int] | None = None,
                    rng: DiceSource | None = None, settings: ChronicleSettings | None = None) -> Initiative:
    """Roll initiative for ``entrants`` and put them in order.

    Rules (000 "Stage One: Initiative"; 001 "Finding Initiative"; 004 "Stage One"):
    score = Dexterity + Wits - wound penalty + one die; highest first; equal
    scores: the higher rating first; equal ratings too: simultaneous (same rank).
    A character whose health allows no action has no place in the order. Under the
    setting ``tabletop_initiative`` = "fixed" nobody rolls: each counts 6 for the die
    (Dexterity + Wits + 6).

    Args:
        dice: the die rolled by each key (a replay, or rolled at the table);
            the others are drawn from ``rng``.
        settings: the chronicle's settings (``tabletop_initiative``; defaults if omitted).

    Raises:
        RulesError: no entrants, a key twice, negative dots, a die outside
            1..10, or a die missing with no random source (``field`` "dice.<key>").
    """
    if not entrants:
        raise RulesError(Phrase.message(N_("Choose the characters who fight.")), field="characters")
    keys = [e.key for e in entrants]
    if len(set(keys)) != len(keys):
        raise RulesError(Phrase.message(N_("A character is listed twice.")), field="characters")
    dice = dict(dice or {})
    unknown = set(dice) - set(keys)
    if unknown:
        raise RulesError(Phrase.message(N_("A die was given for %(value)s, who is not in the fight."),
                                        value=repr(sorted(unknown)[0])), field="dice")
    steps = Explanation()
    fixed = (settings or ChronicleSettings.defaults())["tabletop_initiative"] == "fixed"
    order: list[tuple[Entrant, int, int, int, str]] = []
    out: list[tuple[str, str]] = []
    for e in entrants:
        for name, value in (("dexterity", e.dexterity), ("wits", e.wits)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RulesError(Phrase.message(N_("%(name)s: %(name2)s is a number of dots, at least 0."),
                                                name=e.name, name2=name.capitalize()), field=name)
        if e.wound_penalty is None:
            out.append((e.key, e.name))
            steps.add(N_("%(name)s can take no action this turn and has no place in the order."), '000 "Health Chart"',
                      name=e.name)
            continue
        if fixed:
            die, rolled = FIXED_DIE, "fixed"
        elif e.key in dice:
            die, rolled = check_faces([dice[e.key]], 1, f"dice.{e.key}", "initiative roll")[0], "table"
        elif rng is None:
            raise RulesError(Phrase.message(N_("Roll %(name)s's initiative die and enter it."), name=e.name),
                             field=f"dice.{e.key}")
        else:
            die, rolled = rng.randint(1, 10), "app"
        rating = e.dexterity + e.wits - e.wound_penalty
        score = rating + die + e.modifier
        text = Phrase.message(N_("%(name)s: Dexterity %(dexterity)s + Wits %(wits)s"), name=e.name, dexterity=e.dexterity,
                              wits=e.wits)
        if e.wound_penalty:
            text = Phrase.message(N_("%(text_so_far)s - wound penalty %(penalty)s"), text_so_far=text,
                                  penalty=e.wound_penalty)
        text = Phrase.message(N_("%(text_so_far)s = rating %(rating)s; fixed %(die)s, no roll") if fixed else
                              N_("%(text_so_far)s = rating %(rating)s; die %(die)s"), text_so_far=text, rating=rating,
                              die=die)
        if e.modifier:
            text = Phrase.message(N_("%(text_so_far)s; %(change)s (%(why)s)"), text_so_far=text, change=f"{e.modifier:+d}",
                                  why=e.modifier_reason or Phrase.message(N_("modifier")))
        steps.add(N_("%(text_so_far)s: initiative %(score)s."), _FIXED if fixed else _INITIATIVE,
                  "tabletop_initiative" if fixed else None, text_so_far=text, score=score)
        order.append((e, rating, die, score, rolled))
    order.sort(key=lambda r: (-r[3], -r[1]))
    entries: list[InitiativeEntry] = []
    rank = 0
    previous: tuple[int, int] | None = None
    for position, (e, rating, die, score, rolled) in enumerate(order, start=1):
        if (score, rating) != previous:
            rank = position
            previous = (score, rating)
        entries.append(InitiativeEntry(e.key, e.name, rating, e.wound_penalty or 0, e.modifier, die, score, rank,
                                       rolled))
    for a, b in zip(entries, entries[1:]):
        if a.score == b.score:
            if a.rank == b.rank:
                steps.add(N_("%(name)s and %(other)s tie at %(score)s with equal ratings (%(rating)s): they act "
                             "simultaneously."), _INITIATIVE, name=a.name, other=b.name, score=a.score, rating=a.rating)
            else:
                steps.add(N_("%(name)s and %(other)s tie at %(score)s; %(name)s's higher rating (%(rating)s to "
                             "%(other_rating)s) goes first."), _INITIATIVE, name=a.name, other=b.name, score=a.score,
                          rating=a.rating, other_rating=b.rating)
    for how, words in (("table", N_("Initiative dice rolled at the table: %(names)s.")),
                       ("app", N_("Initiative dice rolled by the app: %(names)s."))):
        names = [e.name for e, _r, _d, _s, r in order if r == how]
        if names:
            steps.add(words, _INITIATIVE, names=names)
    if entries:
        steps.add(N_("Acting order: %(order)s."), _INITIATIVE,
                  order=[Phrase.message(N_("%(name)s (%(score)s)"), name=e.name, score=e.score) for e in entries])
        steps.add(N_("Declarations in reverse order: %(names)s."), _INITIATIVE, names=[e.name for e in reversed(entries)])
    return Initiative(tuple(entries), tuple(out), steps.steps())


def delayed_order(keys: Sequence[str], initiative: Initiative) -> tuple[str, ...]:
    """Characters who delayed and act at the same moment, in the order they act:
    the higher initiative score first (000 "Stage One: Initiative"; 004 "Delayed action").

    Raises:
        RulesError: a key not in the order.
    """
    return tuple(sorted(keys, key=lambda k: (-initiative.entry(k).score, -initiative.entry(k).rating)))
