"""The simple test: one throw against a narrator's (LotNR, met-reference 1.6).

A simple test normally succeeds on a win or a tie; some effects need an outright
win (High-Caliber in LotNR, Fortitude's Resilience and Resistance unless a
stamina Trait is spent). The throws are injected: give both throws, or draw them
from a random source with :meth:`SimpleTest.drawn`, so a ruling can be replayed.
"""

from __future__ import annotations

from dataclasses import dataclass

from larp.rules.challenge import BASIC_THROWS, RandomSource, Throw, compare_throws, random_throw


@dataclass(frozen=True)
class SimpleTest:
    """A simple test: the player's throw against the narrator's.

    Attributes:
        player: the throw of the character making the test.
        narrator: the narrator's throw.
    """

    player: Throw
    narrator: Throw

    @property
    def outcome(self) -> str:
        """``"win"``, ``"tie"`` or ``"loss"`` for the player (met-reference 1.2)."""
        result = compare_throws(self.player, self.narrator)
        return "win" if result > 0 else "loss" if result < 0 else "tie"

    def passes(self, tie_counts: bool) -> bool:
        """Whether the test succeeds: a win always, a tie only if ``tie_counts``."""
        return self.outcome == "win" or (tie_counts and self.outcome == "tie")

    def describe(self) -> str:
        """The throws and outcome, for explanation steps."""
        return f"{self.player.label} against the narrator's {self.narrator.label}: a {self.outcome}"

    @classmethod
    def drawn(cls, rng: RandomSource) -> "SimpleTest":
        """Both throws drawn from ``rng`` (``random.Random(seed)`` in tests and replays)."""
        return cls(random_throw(rng, BASIC_THROWS), random_throw(rng, BASIC_THROWS))
