"""The trait-bid challenge: bids, throws, ties, overbids, retests, cancels
(seed 002 "Challenges", "Ties", "Darkness"; met-reference 1, 2, 3 and 8).

Plain data in, a :class:`ChallengeRuling` out. A :class:`Challenge` is a
complete script: the setup (category; contested, static or simple; both sides
with their current Traits, bid, bonus and penalty Traits, health, powers,
Ability levels and Willpower left this game session, darkness, relenting)
plus the ordered list of tests (:class:`TestCall`): the first throws, then
each overbid, retest (with any cancel) and forced darkness retest, with their
throws and who called them. :func:`rule_challenge` validates every step
against the rules (who may call it, whether they can pay, the limits) and
rules on the whole challenge; :func:`challenge_options` tells the UI what each
side may still do after the tests so far; :func:`challenge_from_dict` reads
the script from JSON-like data for the stateless API.

The rules in brief. Each side bids one Trait of the category, plus the extra
Traits it must risk (Wounded, Negative Trait calls, the off hand, a narrator's
difficulty); a side may relent before the test and loses the challenge but no
Traits. Rock, paper, scissors; the Bomb where Vigor (strength) or Rapidity
(speed) allows it. A tied throw compares the Traits each side has now, plus
bonus Traits (never bid), minus penalties (Bruised, moving, darkness); Traits
bid still count until the challenge is resolved; win-ties powers and wounds
come first; equal counts are a draw and both lose their bids (002 "Ties").
The loser of a test may overbid (risking a new Trait, at the chronicle's ratio,
counting his Traits without the bid Trait he just lost) or retest (an Ability
level, Willpower, Might in feats of strength, a Merit); either way the Trait lost
on that test stays lost. A challenger who surprised the defender and lost may
risk another Trait for a second challenge, after which the normal rules resume.
The Bomb exists only when announced before the challenge. The final loser loses
the Traits still at risk.

Randomness is injected: the script carries the throws, and the narrator's
throws in static challenges and simple tests may be drawn from a random source
passed in, so a stored ruling can be replayed from its inputs.

What is where:

- :mod:`.types`: the words (categories, throws, outcomes, powers, leads, calls) and
  how the explanation cites its sources;
- :mod:`.script`: the challenge as described (:class:`Contestant`, :class:`TestCall`,
  :class:`Challenge`, :data:`ACTIONS`);
- :mod:`.ruling`: what the ruling says (:class:`ChallengeRuling`, :class:`ChallengeOptions`);
- :mod:`.state`: where a challenge stands while it is played (:class:`ChallengeState`,
  :class:`SideState`), the one object every phase reads and changes;
- the phases, plain functions over that state, each in the module named for it:
  :mod:`.bids` (the setup and what each side risks; :mod:`.totals`, what each side counts
  in ties and overbids), :mod:`.test` (the throws, ties, the forced darkness retest),
  :mod:`.overbid`, :mod:`.retest` (and its cancel), :mod:`.surprise` (the second
  challenge) and :mod:`.outcome` (Traits lost, damage); :mod:`.options` reads from the
  state what each side may still call, without playing the challenge again;
- :mod:`.engine`: plays a script through the phases (:func:`play_script`) and the public
  functions; a caller that needs both the ruling and the options still open plays once
  (``state = play_script(...)``) and reads both from the state (:func:`rule_outcome`,
  :func:`open_options`);
- :mod:`.parsing`: the script as JSON-like data (the stateless API's input).

Every public name is importable from ``larp.rules.challenge`` itself.
"""

from __future__ import annotations

from larp.rules.challenge.types import *  # noqa: F403 - each module's __all__ names what it gives the package
from larp.rules.challenge.script import *  # noqa: F403
from larp.rules.challenge.ruling import *  # noqa: F403
from larp.rules.challenge.state import *  # noqa: F403
from larp.rules.challenge.options import *  # noqa: F403
from larp.rules.challenge.outcome import *  # noqa: F403
from larp.rules.challenge.engine import *  # noqa: F403
from larp.rules.challenge.parsing import *  # noqa: F403
from larp.rules.challenge import engine, options, outcome, parsing, ruling, script, state, types

__all__ = [*types.__all__, *script.__all__, *ruling.__all__, *state.__all__, *options.__all__, *outcome.__all__,
           *engine.__all__, *parsing.__all__]
