"""The simple test: one throw against a narrator's (LotNR, met-reference 1.6).

A simple test normally succeeds on a win or a tie; some effects need an outright
win (High-Caliber in LotNR, Fortitude's Resilience and Resistance unless a
stamina Trait is spent). The throws are injected: give both throws as thrown at
the table, or draw them from a random source with :meth:`SimpleTest.drawn`, or
one of each with :func:`simple_test`; the test keeps which throws the app drew,
so the record says whether the table threw them (issue 17: the table's own results).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from larp.rules.challenge import BASIC_THROWS, RandomSource, Throw, compare_throws, random_throw
from larp.rules.explain import N_, Phrase, RulesError


@dataclass(frozen=True)
class SimpleTest:
    """A simple test: the player's throw against the narrator's.

    Attributes:
        player: the throw of the character making the test.
        narrator: the narrator's throw.
        by_app: which throws the app drew (``"player"``, ``"narrator"``); the others were
            thrown at the table and entered.
    """

    player: Throw
    narrator: Throw
    by_app: tuple[str, ...] = ()

    @property
    def outcome(self) -> str:
        """``"win"``, ``"tie"`` or ``"loss"`` for the player (met-reference 1.2)."""
        result = compare_throws(self.player, self.narrator)
        return "win" if result > 0 else "loss" if result < 0 else "tie"

    def passes(self, tie_counts: bool) -> bool:
        """Whether the test succeeds: a win always, a tie only if ``tie_counts``."""
        return self.outcome == "win" or (tie_counts and self.outcome == "tie")

    @property
    def provenance(self) -> Phrase:
        """Where the throws came from, in words: "thrown at the table", "drawn by the app"..."""
        if not self.by_app:
            return Phrase.message(N_("as thrown at the table"))
        if set(self.by_app) >= {"player", "narrator"}:
            return Phrase.message(N_("drawn by the app"))
        if self.by_app[0] == "player":
            return Phrase.message(N_("the player's throw drawn by the app"))
        return Phrase.message(N_("the narrator's throw drawn by the app"))

    def describe(self) -> Phrase:
        """The throws and outcome, for explanation steps, with where the throws came from."""
        outcome = {"win": N_("%(throw)s against the narrator's %(other)s: a win; %(how)s"),
                   "tie": N_("%(throw)s against the narrator's %(other)s: a tie; %(how)s"),
                   "loss": N_("%(throw)s against the narrator's %(other)s: a loss; %(how)s")}[self.outcome]
        return Phrase.message(outcome, throw=Phrase.term(self.player.label), other=Phrase.term(self.narrator.label),
                              how=self.provenance)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the throws, the outcome and which were drawn (the record keeps it)."""
        return {"player": self.player.value, "narrator": self.narrator.value, "outcome": self.outcome,
                "drawn": list(self.by_app)}

    @classmethod
    def drawn(cls, rng: RandomSource) -> "SimpleTest":
        """Both throws drawn from ``rng`` (``random.Random(seed)`` in tests and replays)."""
        return cls(random_throw(rng, BASIC_THROWS), random_throw(rng, BASIC_THROWS), ("player", "narrator"))


def simple_test(player: Throw | None, narrator: Throw | None, rng: RandomSource | None,
                field: str = "test") -> SimpleTest:
    """A simple test from the throws entered at the table, drawing from ``rng`` each throw left
    out (``None``) and remembering which were drawn (met-reference 1.6).

    Raises:
        RulesError: a throw left out with no random source (``field``), or the Bomb (no Bomb
            in a simple test).
    """
    throws = []
    drawn = []
    for who, throw in (("player", player), ("narrator", narrator)):
        if throw is None:
            if rng is None:
                raise RulesError(Phrase.message(N_("Give the %(who)s's throw, or a random source to draw it."),
                                                who=who), field=field)
            throw = random_throw(rng, BASIC_THROWS)
            drawn.append(who)
        elif throw not in BASIC_THROWS:
            raise RulesError(Phrase.message(N_("A simple test is rock, paper or scissors: no Bomb.")), field=field)
        throws.append(throw)
    return SimpleTest(throws[0], throws[1], tuple(drawn))


def simple_test_from_dict(data: Any, field: str, rng: RandomSource | None) -> SimpleTest | None:
    """A simple test from JSON-like ``{"player": "rock", "narrator": "random"}`` (either throw
    left out or ``"random"``: drawn from ``rng``); ``None`` when ``data`` is ``None``.

    Raises:
        RulesError: not an object, an unknown throw, naming ``field``.
    """
    from larp.rules.challenge import parse_throw

    if data is None:
        return None
    if not isinstance(data, dict):
        raise RulesError(Phrase.message(N_("Give the test as an object {player, narrator}.")), field=field)
    unknown = sorted(set(data) - {"player", "narrator"})
    if unknown:
        raise RulesError(Phrase.message(N_("Unknown field %(value)s."), value=repr(unknown[0])),
                         field=f"{field}.{unknown[0]}")
    throws = []
    for who in ("player", "narrator"):
        raw = data.get(who)
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in ("", "random")):
            throws.append(None)
        else:
            throws.append(parse_throw(raw, f"{field}.{who}"))
    return simple_test(throws[0], throws[1], rng, field)
