"""Sunlight on a vampire: the aggravated damage of each turn of exposure and the Courage test it
calls for (LotNR "Aggravated Wounds: Sunlight"; met-reference 3.7, T26; 000 "Aggravated Damage").

"Indirect sunlight such as through thick curtains or heavy cloud cover causes one automatic
aggravated wound per turn of exposure, while direct sunlight causes three automatic levels of
aggravated damage per turn. ... Vampires confronted by sunlight must also make a Static Courage
Challenge or suffer Rötschreck." The levels per turn and the Courage test's stimulus are
``data/frenzy.toml`` ``[sunlight.*]``; the test itself is :func:`larp.rules.frenzy.rule_virtue_test`.
Mortals ignore sunlight (000 "Aggravated Damage"); armor does not protect (000 "Armor"), and only
Fortitude soaks it at the tabletop (000 "Soak").
"""

from __future__ import annotations

from dataclasses import dataclass

from larp.rules.explain import N_, Phrase, RulesError, Step, levels as levels_of, phrase_step, traits, turns as turns_of
from larp.rules.frenzy import frenzy_tables

R_SUNLIGHT = "LotNR Sunlight (met-reference 3.7, T26)"
EXPOSURES = ("indirect", "direct")


@dataclass(frozen=True)
class SunlightExposure:
    """What some turns of sunlight do to a vampire.

    Attributes:
        exposure: ``"indirect"`` or ``"direct"``.
        turns: turns of exposure.
        levels: aggravated health levels: the exposure's levels per turn times the turns.
        courage_stimulus: the key of the Courage test's stimulus (``data/frenzy.toml``).
        courage_difficulty: its Traits: the Courage test against Rötschreck.
        steps: the explanation.
    """

    exposure: str
    turns: int
    levels: int
    courage_stimulus: str
    courage_difficulty: int
    steps: tuple[Step, ...]


def sunlight_exposure(exposure: str, turns: int = 1, who: str = "The vampire") -> SunlightExposure:
    """The aggravated levels and the Courage test of ``turns`` turns in ``exposure`` sunlight
    (LotNR Sunlight: indirect 1 a turn, direct 3 a turn, and a static Courage test against Rötschreck:
    obscured sunlight 2 Traits, direct sunlight 5; met-reference T26).

    Raises:
        RulesError: an exposure that is neither indirect nor direct (``exposure``), or fewer than one
            turn (``turns``).
    """
    if exposure not in EXPOSURES:
        raise RulesError(Phrase.message(N_("Say how the sunlight reaches him: indirect (one aggravated level a "
                                           "turn) or direct (three a turn).")), field="exposure")
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
        raise RulesError(Phrase.message(N_("Sunlight burns for at least one turn.")), field="turns")
    tables = frenzy_tables()
    row = tables.sunlight[exposure]
    per_turn = int(row["per_turn"])
    stimulus = str(row["courage"])
    difficulty = tables.courage.stimuli[stimulus].traits
    levels = per_turn * turns
    steps = (
        phrase_step(N_("%(exposure)s: %(rate)s of aggravated damage a turn; %(turns)s: %(levels)s."), R_SUNLIGHT,
                    exposure=Phrase.term(row["label"]), rate=levels_of(per_turn), turns=turns_of(turns),
                    levels=levels_of(levels)),
        phrase_step(N_("%(name)s must also make a static Courage test against %(traits)s (%(stimulus)s) or enter "
                       "Rötschreck."), R_SUNLIGHT, name=who, traits=traits(difficulty),
                    stimulus=Phrase.term(tables.courage.stimuli[stimulus].label.lower())),
    )
    return SunlightExposure(exposure, turns, levels, stimulus, difficulty, steps)
