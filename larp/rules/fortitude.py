"""Fortitude in the live game: Endurance, Mettle, Resilience, Resistance, Aegis (LotNR; met-reference 3.5).

- Endurance (1): no wound penalties beyond Bruised until torpor or Final Death.
- Mettle (2): one more Healthy level (see :func:`larp.rules.health.live_levels`).
- Resilience (3): on taking aggravated damage, a simple test; a win turns one
  level of it into lethal. After spending a stamina-related Physical Trait a win
  or a tie is enough. Reflexive, once per attack, one level only.
- Resistance (4): on taking lethal or bashing damage, a simple test; success
  removes one level (win, or win or tie after spending a stamina Trait). Once per
  attack (met-reference: derived).
- Aegis (5): at any point in the turn, spend 1 permanent Willpower or 3
  permanent Physical Traits: all damage taken this turn is cancelled and none is
  taken for the rest of the turn, even after being "killed" in that turn.

Retests on Fortitude powers use Survival; the simple test's throws are injected
(:class:`larp.rules.simple_test.SimpleTest`).
"""

from __future__ import annotations

from dataclasses import dataclass

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, levels as levels_of
from larp.rules.health import HealthTrack
from larp.rules.simple_test import SimpleTest

_RULE = "LotNR Fortitude (met-reference 3.5)"
#: Aegis's price: one of these, spent permanently (met-reference 3.5).
AEGIS_PAYMENTS = {"willpower": "1 permanent Willpower Trait", "physical_traits": "3 permanent Physical Traits"}
#: The same costs as a ruling says them in the reader's language.
_AEGIS_COSTS = {"willpower": N_("1 permanent Willpower Trait"), "physical_traits": N_("3 permanent Physical Traits")}
#: The Fortitude level each power needs (LotNR Fortitude, met-reference 3.5).
RESILIENCE_LEVEL, RESISTANCE_LEVEL, AEGIS_LEVEL = 3, 4, 5


@dataclass(frozen=True)
class FortitudePowers:
    """What a character's Fortitude lets him call on when damage lands, for the screens to offer
    (LotNR Fortitude, met-reference 3.5).

    Attributes:
        level: his Fortitude (the highest power held, 0 to 5).
        resilience: Resilience (3): a simple test turns one aggravated level into lethal.
        resistance: Resistance (4): a simple test removes one lethal or bashing level.
        aegis: Aegis (5): the turn's damage cancelled for a permanent price.
    """

    level: int
    resilience: bool
    resistance: bool
    aegis: bool

    @property
    def tests(self) -> tuple[str, ...]:
        """The simple tests he may make against the damage (``"resistance"``, ``"resilience"``)."""
        return (("resistance",) if self.resistance else ()) + (("resilience",) if self.resilience else ())

    @property
    def stamina(self) -> bool:
        """He may spend a stamina-related Physical Trait first so that a tie succeeds (with either test)."""
        return bool(self.tests)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready data."""
        return {"level": self.level, "resilience": self.resilience, "resistance": self.resistance,
                "aegis": self.aegis, "tests": list(self.tests), "stamina": self.stamina}


def fortitude_powers(fortitude: int) -> FortitudePowers:
    """The Fortitude powers a character at ``fortitude`` (0 to 5) may call on (LotNR Fortitude,
    met-reference 3.5: Resilience at 3, Resistance at 4, Aegis at 5)."""
    return FortitudePowers(fortitude, fortitude >= RESILIENCE_LEVEL, fortitude >= RESISTANCE_LEVEL,
                           fortitude >= AEGIS_LEVEL)


@dataclass(frozen=True)
class FortitudeTest:
    """A Resilience or Resistance attempt.

    Attributes:
        test: the simple test's throws.
        stamina_trait_spent: the player spent a stamina-related Physical Trait
            first, so a tie also succeeds (the service removes the Trait).
    """

    test: SimpleTest
    stamina_trait_spent: bool = False

    def succeeds(self) -> bool:
        """A win, or a tie after spending a stamina Trait."""
        return self.test.passes(tie_counts=self.stamina_trait_spent)

    def describe(self) -> Phrase:
        """The throws, and the stamina Trait if one was spent."""
        if self.stamina_trait_spent:
            return Phrase.message(N_("%(test)s after spending a stamina Trait"), test=self.test.describe())
        return self.test.describe()


def _need(fortitude: int, level: int, power: str) -> None:
    if fortitude < level:
        raise RulesError(Phrase.message(N_("%(power)s needs Fortitude %(level)s; the character has %(fortitude)s."),
                                        power=power, level=level, fortitude=fortitude), field="fortitude")


def endurance_level(track: HealthTrack, fortitude: int) -> str:
    """The level whose wound penalties apply: with Endurance, a Wounded or
    Incapacitated character takes only the Bruised penalty (met-reference 3.5, T11)."""
    level = track.state()
    if fortitude >= 1 and level in ("Wounded", "Incapacitated") and track.condition == "active":
        return "Bruised"
    return level


def resist(levels: int, damage_type: str, fortitude: int, attempt: FortitudeTest,
           who: str = "The character") -> tuple[int, tuple[Step, ...]]:
    """Resistance: a successful simple test removes one level of lethal or bashing damage.

    Args:
        levels: health levels of the attack about to be marked.
        damage_type: "bashing" or "lethal".
        fortitude: the character's Fortitude level (4 or more needed).
        attempt: the simple test, and whether a stamina Trait was spent.

    Returns:
        The levels left, and the steps.

    Raises:
        RulesError: Fortitude below 4, aggravated damage, or no damage to resist.
    """
    _need(fortitude, RESISTANCE_LEVEL, "Resistance")
    if damage_type not in ("bashing", "lethal"):
        raise RulesError(Phrase.message(N_("Resistance works only against lethal or bashing damage.")), field="damage_type")
    if levels < 1:
        raise RulesError(Phrase.message(N_("There is no damage to resist.")), field="levels")
    steps = Explanation()
    if attempt.succeeds():
        steps.add(N_("Resistance: %(name)s tests (%(test)s) and ignores one level of %(kind)s damage."), _RULE,
                  name=who, test=attempt.describe(), kind=Phrase.term(damage_type))
        return levels - 1, steps.steps()
    steps.add(N_("Resistance: %(name)s tests (%(test)s) and fails; the damage stands."), _RULE, name=who,
              test=attempt.describe())
    return levels, steps.steps()


def resilience(aggravated: int, fortitude: int, attempt: FortitudeTest,
               who: str = "The character") -> tuple[int, int, tuple[Step, ...]]:
    """Resilience: a successful simple test turns one level of aggravated damage into lethal.

    Args:
        aggravated: levels of aggravated damage in the attack.
        fortitude: the character's Fortitude level (3 or more needed).
        attempt: the simple test, and whether a stamina Trait was spent.

    Returns:
        Aggravated levels left, lethal levels made from them (0 or 1), and the steps.

    Raises:
        RulesError: Fortitude below 3, or no aggravated damage.
    """
    _need(fortitude, RESILIENCE_LEVEL, "Resilience")
    if aggravated < 1:
        raise RulesError(Phrase.message(N_("Resilience needs aggravated damage to reduce.")), field="levels")
    steps = Explanation()
    if attempt.succeeds():
        steps.add(N_("Resilience: %(name)s tests (%(test)s); one level of the aggravated damage becomes lethal."),
                  _RULE, name=who, test=attempt.describe())
        return aggravated - 1, 1, steps.steps()
    steps.add(N_("Resilience: %(name)s tests (%(test)s) and fails; the damage stays aggravated."), _RULE, name=who,
              test=attempt.describe())
    return aggravated, 0, steps.steps()


@dataclass(frozen=True)
class AegisRuling:
    """The result of Aegis.

    Attributes:
        track: the track as it was at the start of the turn.
        payment: "willpower" or "physical_traits" (the service removes them permanently).
        cost: the price in words.
        immune_for_rest_of_turn: always True; the service must refuse further
            damage to the character this turn.
        steps: the explanation.
    """

    track: HealthTrack
    payment: str
    cost: str
    immune_for_rest_of_turn: bool
    steps: tuple[Step, ...]


def invoke_aegis(turn_start: HealthTrack, current: HealthTrack, fortitude: int, payment: str,
                 who: str = "The character") -> AegisRuling:
    """Aegis: cancel all damage taken this turn, even a "killing" turn's (met-reference 3.5, T22).

    Aegis is the one thing that undoes damage marked in the current turn, Final
    Death included: the destroyed track is not changed, it is replaced by the
    track as it stood when the turn began. The service layer must pass the
    start of the *current* turn; once the turn is over, Final Death is final.

    Args:
        turn_start: the character's track when the turn began.
        current: the track now (possibly Final Death).
        fortitude: the character's Fortitude level (5 needed).
        payment: "willpower" (1 permanent Willpower) or "physical_traits"
            (3 permanent Physical Traits).

    Raises:
        RulesError: Fortitude below 5, an unknown payment, tracks that are not
            the same character's, or a character already destroyed when the turn began.
    """
    _need(fortitude, AEGIS_LEVEL, "Aegis")
    if payment not in AEGIS_PAYMENTS:
        raise RulesError(Phrase.message(N_("Aegis is paid with %(value)s."), value=' or '.join(AEGIS_PAYMENTS)),
                         field="payment")
    if turn_start.levels != current.levels or turn_start.creature != current.creature:
        raise RulesError(Phrase.message(N_("The two tracks are not the same character's.")), field="turn_start")
    if turn_start.destroyed:
        raise RulesError(Phrase.message(N_("%(name)s was already destroyed before this turn; Final Death is final."),
                                        name=who), field="turn_start")
    steps = Explanation()
    cost = Phrase.message(_AEGIS_COSTS[payment])
    steps.add(N_("Aegis: %(name)s spends %(cost)s. All damage taken this turn is cancelled (%(levels)s marked now, "
                 "%(before)s at the start of the turn) and %(name)s takes no damage for the rest of the turn."), _RULE,
              name=who, cost=cost, levels=levels_of(current.marked), before=turn_start.marked)
    return AegisRuling(turn_start, payment, cost, True, steps.steps())
