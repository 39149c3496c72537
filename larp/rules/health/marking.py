"""Changes to a health track: marking damage (aggravated above normal damage), what
lies below Incapacitated (unconsciousness, torpor, Final Death, a mortal's death),
destruction, stakes and waking (002 "Damage and Healing"; 000 "Applying Damage";
met-reference 4.1, 5.2, 5.3). Part of :mod:`larp.rules.health`.
"""

from __future__ import annotations


from dataclasses import dataclass, replace
from typing import Any

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, both
from larp.rules.explain import levels as levels_of
from larp.rules.settings import ChronicleSettings
from larp.rules.health.track import (
    DAMAGE_TYPES,
    SEVERITY,
    CONDITION_LABELS,
    DESTRUCTION,
    _APPLYING,
    _MARKING,
    HealthTrack,
)

# ---------------------------------------------------------------- rulings

@dataclass(frozen=True)
class HealthRuling:
    """The result of a change to a health track.

    Attributes:
        track: the new track (the old one is unchanged).
        steps: the explanation.
        marked: levels of the damage that changed the track (a new mark, or a
            lesser mark made worse).
        overflow: levels that changed nothing (the track was full, or the
            character was destroyed part-way through).
    """

    track: HealthTrack
    steps: tuple[Step, ...]
    marked: int = 0
    overflow: int = 0

    @property
    def condition(self) -> str:
        """The character's condition after the ruling."""
        return self.track.condition

    @property
    def staked(self) -> bool:
        """Whether a stake paralyses the character after the ruling."""
        return self.track.staked

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data for the record and the API."""
        return {
            "track": self.track.to_dict(), "condition": self.condition, "staked": self.staked,
            "level": self.track.state(), "marked": self.marked, "overflow": self.overflow,
            "steps": [s.to_dict() for s in self.steps],
        }


class _Notes(Explanation):
    """An explanation that records each sentence once (damage is applied level by level)."""

    def add(self, text: str, rule: str, setting: str | None = None, **params: Any) -> None:
        """Append the step unless the same sentence is already there (``params``: as
        :meth:`Explanation.add`)."""
        if params:
            text = Phrase.message(text, **params)
        if all(step.text != text for step in self._steps):
            super().add(text, rule, setting)


def _refuse_destroyed(track: HealthTrack, who: str) -> None:
    if track.condition == "final_death":
        raise RulesError(Phrase.message(N_("%(name)s has met Final Death; Final Death is final and nothing changes the "
                                        "track."), name=who),
                         field="track")
    if track.condition == "dead":
        raise RulesError(Phrase.message(N_("%(name)s is dead; nothing changes the track of the dead."), name=who), field="track")


GAMES = ("live", "tabletop")


def below_incapacitated_reading(settings: ChronicleSettings, game: str = "live") -> str:
    """The reading of damage below Incapacitated in force for ``game`` ("live" or "tabletop"): the setting
    ``below_incapacitated_model``; its default ``by_profile`` keeps seed 002's rule in the live game
    ("house_002") and 000's at the tabletop ("tabletop": 000 "Bashing Damage", "Lethal Damage", "Final
    Death"), as ``firearms_against_vampires`` does for bullets.

    Raises:
        RulesError: an unknown game.
    """
    if game not in GAMES:
        raise RulesError(Phrase.message(N_("The game is live or tabletop.")), field="game")
    value = settings["below_incapacitated_model"]
    if value == "by_profile":
        return "tabletop" if game == "tabletop" else "house_002"
    return value


def _below_incapacitated_vampire(kind: str, condition: str, settings: ChronicleSettings,
                                 who: str, steps: Explanation, incapacitated_before: bool = False,
                                 game: str = "live") -> str:
    """The condition of a vampire whom a level of ``kind`` puts (again) below Incapacitated.

    ``incapacitated_before``: the vampire was already at Incapacitated before
    this attack (not brought there by its earlier levels). ``game``: the live game or the
    tabletop (:func:`below_incapacitated_reading`).
    """
    model = below_incapacitated_reading(settings, game)
    if kind == "bashing":
        if model == "tabletop":
            steps.add(N_("Bashing damage past Incapacitated: %(name)s enters torpor."),
                      '000 "Bashing Damage"', setting="below_incapacitated_model", name=who)
            return "torpor"
        if condition == "unconscious":
            steps.add(N_("%(name)s is already unconscious; the beating keeps %(name)s down "
                         "(the narrator may rule torpor after a savage beating)."),
                      "LotNR Health (met-reference 4.1)", setting="below_incapacitated_model", name=who)
            return "unconscious"
        steps.add(N_("Bashing damage puts %(name)s below Incapacitated: unconscious for one scene or one hour "
                     "(the narrator's choice)."), '002 "Damage and Healing"', setting="below_incapacitated_model",
                  name=who)
        return "unconscious"
    if kind == "lethal":
        steps.add(N_("Lethal damage puts %(name)s below Incapacitated: %(name)s enters torpor."),
                  '002 "Damage and Healing"', setting="below_incapacitated_model", name=who)
        return "torpor"
    if settings["dark_epics_killing_blow"]:
        steps.add(N_("Aggravated damage puts %(name)s below Incapacitated: torpor. Under the Dark Epics rule a "
                     "vampire meets Final Death only from a killing blow once in torpor."),
                  "Dark Epics killing blow (met-reference 4.1)", setting="dark_epics_killing_blow", name=who)
        return "torpor"
    if model == "house_002":
        if incapacitated_before:
            steps.add(N_("%(name)s was already Incapacitated when the aggravated damage struck: Final Death."),
                      "LotNR Health (met-reference 4.1, T9); 002 \"Damage and Healing\"",
                      setting="below_incapacitated_model", name=who)
            return "final_death"
        steps.add(N_("Aggravated damage puts %(name)s below Incapacitated: %(name)s enters torpor "
                     "(seed 002: a vampire put below Incapacitated by aggravated damage enters torpor; "
                     "aggravated damage once a vampire is Incapacitated or in torpor is Final Death)."),
                  '002 "Damage and Healing"', setting="below_incapacitated_model", name=who)
        return "torpor"
    rule = '000 "Final Death"' if model == "tabletop" else "LotNR Health (met-reference 4.1)"
    steps.add(N_("Aggravated damage to %(name)s at Incapacitated: Final Death."), rule,
              setting="below_incapacitated_model", name=who)
    return "final_death"


def apply_damage(track: HealthTrack, damage_type: str, levels: int, who: str = "The character",
                 settings: ChronicleSettings | None = None, *, stake: bool = False,
                 killing_blow: bool = False, opening: bool = True, game: str = "live") -> HealthRuling:
    """Mark ``levels`` health levels of ``damage_type`` on ``track``, one level at a time.

    ``levels`` is the damage the character takes, after soak, halving, armor
    and Fortitude (see :mod:`larp.rules.damage` and :mod:`larp.rules.soak`).

    Rules:
        - Marks: aggravated above normal damage, so normal damage moves down
          (000 "Applying Damage").
        - Mortals and ghouls take aggravated damage as lethal (001 "Aggravated
          Damage"). At Incapacitated, further bashing damage is X'd over a
          bashing mark, making it lethal, and leaves them unconscious (000
          "Mortal's Healing Times"); a wound with no bashing mark left to X
          over, or any lethal wound, kills them (000 "Health": mortals have no torpor).
        - A vampire put below Incapacitated: by the chronicle setting
          ``below_incapacitated_model`` for ``game`` (by default seed 002 in the live game
          and 000 at the tabletop; seed 002: bashing leaves him
          unconscious for a scene or an hour, lethal or aggravated sends him into
          torpor, aggravated damage once in torpor is Final Death; LotNR and
          000 make aggravated damage at Incapacitated Final Death; 000 sends
          bashing past Incapacitated into torpor). ``dark_epics_killing_blow``
          requires a declared killing blow to destroy a torpid vampire.
        - On a full track a worse wound replaces the lowest lesser mark (000);
          otherwise the level overflows.

    Args:
        track: the track before the damage.
        damage_type: "bashing", "lethal" or "aggravated".
        levels: health levels to mark, at least 0.
        who: the character's name, for the explanation.
        settings: the chronicle's settings (defaults if omitted).
        stake: the attack drove a stake through the heart; a vampire is
            paralysed until it is removed (000 "Stake Through Heart").
        killing_blow: the attacker declared a killing blow and won the Physical
            Challenge (only read under ``dark_epics_killing_blow``).
        opening: the steps open with where the character stands and what he takes; ``False`` for a
            caller that has said it already (:meth:`larp.rules.damage.DamageRuling.apply_to`).
        game: "live" (default) or "tabletop": whose rule for damage below Incapacitated holds
            (:func:`below_incapacitated_reading`).

    Returns:
        A :class:`HealthRuling` with the new track, its condition and staked flag.

    Raises:
        RulesError: an unknown damage type, negative levels, or a destroyed character.
    """
    settings = settings or ChronicleSettings.defaults()
    if damage_type not in DAMAGE_TYPES:
        raise RulesError(Phrase.message(N_("Unknown damage type %(damage_type)s (bashing, lethal or aggravated)."),
                                        damage_type=repr(damage_type)),
                         field="damage_type")
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 0:
        raise RulesError(Phrase.message(N_("Damage must be a whole number of health levels, at least 0.")), field="levels")
    _refuse_destroyed(track, who)
    steps = _Notes()
    kind = damage_type
    if kind == "aggravated" and not track.is_vampire:
        kind = "lethal"
        steps.add(N_("%(name)s is not a vampire: aggravated damage is treated as lethal."), '001 "Aggravated Damage"',
                  name=who)

    counts = {"aggravated": track.aggravated, "lethal": track.lethal, "bashing": track.bashing}
    condition = track.condition
    size = track.size
    changed = overflow = 0

    def place(mark: str) -> bool:
        """Mark a free box, or make the lowest lesser mark worse; False if neither is possible."""
        if sum(counts.values()) < size:
            counts[mark] += 1
            return True
        for lesser in ("bashing", "lethal"):
            if SEVERITY[lesser] < SEVERITY[mark] and counts[lesser] > 0:
                counts[lesser] -= 1
                counts[mark] += 1
                steps.add(N_("The track is full: the %(kind)s level replaces a %(lesser)s mark."), _MARKING,
                          kind=Phrase.term(mark), lesser=Phrase.term(lesser))
                return True
        return False

    for index in range(levels):
        if condition in ("final_death", "dead"):
            overflow += levels - index
            break
        marked = sum(counts.values())
        if track.is_vampire and condition == "torpor" and kind == "aggravated":
            if settings["dark_epics_killing_blow"] and not killing_blow:
                steps.add(N_("%(name)s is in torpor, but without a declared killing blow the aggravated level "
                             "does not destroy %(name)s."), "Dark Epics killing blow (met-reference 4.1)",
                          setting="dark_epics_killing_blow", name=who)
            else:
                condition = "final_death"
                steps.add(N_("Aggravated damage to %(name)s in torpor: Final Death."), '002 "Damage and Healing"',
                          name=who)
            if place(kind):
                changed += 1
            else:
                overflow += 1
            continue
        if marked < size - 1:
            counts[kind] += 1
            changed += 1
            continue
        if track.is_vampire:
            if condition != "torpor":
                condition = _below_incapacitated_vampire(kind, condition, settings, who, steps,
                                                         incapacitated_before=track.marked >= size - 1, game=game)
            else:
                steps.add(N_("%(name)s is in torpor; further %(kind)s damage does not destroy %(name)s "
                             "(destruction is a narrator action)."), '002 "Damage and Healing"', name=who,
                          kind=Phrase.term(kind))
            if place(kind):
                changed += 1
            else:
                overflow += 1
            continue
        # a mortal or ghoul at (or, after X-ing over, still at) Incapacitated
        if kind == "bashing" and marked == size - 1 and counts["bashing"] > 0:
            counts["bashing"] -= 1
            counts["lethal"] += 1
            changed += 1
            condition = "unconscious"
            steps.add(N_("%(name)s is at Incapacitated: the bashing level is X'd over a bashing mark, making it "
                         "lethal, and %(name)s is unconscious."), '000 "Mortal\'s Healing Times"', name=who)
            continue
        if place(kind):
            changed += 1
        else:
            overflow += 1
        condition = "dead"
        steps.add(N_("A further wound past Incapacitated kills %(name)s: mortals have no torpor."), '000 "Health"',
                  name=who)

    new = replace(track, condition=condition, **counts)
    summary = Phrase.message(N_("%(name)s takes %(levels)s of %(kind)s damage"), name=who, levels=levels_of(changed),
                             kind=Phrase.term(kind))
    if overflow:
        summary = Phrase.message(N_("%(taken)s (%(n)s more had no further effect)"), taken=summary, n=overflow)
    marked = _boxes_marked(track, new)
    if marked and new.condition == "active" and track.condition == "active":
        lighter = [light for light in _LIGHTER.get(kind, ()) if getattr(track, light) > 0]
        if lighter:
            # The boxes newly filled are at the end of the marks, but the worse wound took the first ones: said
            # first, so that the words match the track (new user 9: "the first to the second Bruised levels are
            # marked" read as the lethal itself on the Bruised boxes).
            steps.add(N_("The %(kind)s damage is marked before the %(lighter)s already on the track, which moves "
                         "down to the next boxes."), _APPLYING, kind=Phrase.term(kind),
                      lighter=both([Phrase.term(light) for light in lighter]))
            # The box newly filled holds a lighter mark moved down, not the new wound (new user 10: "the first
            # Wounded level is marked" beside a lethal mark on the second Bruised box): say how far the marks run.
            marked = Phrase.message(N_("the marks now run to %(box)s"), box=_box(new, min(new.marked, len(new.levels)) - 1))
        if new.state() == track.state():
            steps.add(N_("%(taken)s: %(marked)s; %(name)s is still %(where)s."), _APPLYING, taken=summary,
                      marked=marked, name=who, where=_where(new))
        else:
            steps.add(N_("%(taken)s: %(marked)s; %(name)s is now %(where)s."), _APPLYING, taken=summary,
                      marked=marked, name=who, where=_where(new))
    else:
        steps.add(N_("%(taken)s and is now %(where)s."), _APPLYING, taken=summary, where=_where(new))
    if stake and not new.destroyed:
        if new.is_vampire:
            new = replace(new, staked=True)
            steps.add(N_("The stake through the heart paralyses %(name)s until it is removed: %(name)s is conscious "
                         "but may not move or spend blood points."), '000 "Stake Through Heart"', name=who)
        else:
            steps.add(N_("A stake paralyses only vampires; %(name)s simply takes the wound."),
                      '000 "Stake Through Heart"', name=who)
    if not opening:
        return HealthRuling(new, steps.steps(), changed, overflow)
    said = Phrase.message(N_("%(name)s is %(where)s and takes %(levels)s of %(kind)s damage."), name=who,
                          where=_where(track), levels=levels_of(levels), kind=Phrase.term(damage_type))
    first = Step(str(said), _APPLYING, said=said.data())
    return HealthRuling(new, (first,) + steps.steps(), changed, overflow)


#: The marks a worse kind of damage goes before on the track (the track lists the worst first).
_LIGHTER = {"aggravated": ("lethal", "bashing"), "lethal": ("bashing",)}

_ORDINALS = (N_("the first %(level)s level"), N_("the second %(level)s level"), N_("the third %(level)s level"),
             N_("the fourth %(level)s level"), N_("the fifth %(level)s level"), N_("the sixth %(level)s level"),
             N_("the seventh %(level)s level"), N_("the eighth %(level)s level"), N_("the ninth %(level)s level"),
             N_("the tenth %(level)s level"))
_ORDINAL_WORDS_SAID = (N_("first"), N_("second"), N_("third"), N_("fourth"), N_("fifth"), N_("sixth"),
                       N_("seventh"), N_("eighth"), N_("ninth"), N_("tenth"))


def _nth(track: HealthTrack, index: int) -> int:
    """The box at ``index``'s place among the boxes of its name: 2 for the second."""
    return track.levels[:index + 1].count(track.levels[index])


def _box(track: HealthTrack, index: int) -> Phrase:
    """The box at ``index`` as a narrator names it: "the second Healthy level"."""
    nth, level = _nth(track, index), Phrase.term(track.levels[index])
    if nth <= len(_ORDINALS):
        return Phrase.message(_ORDINALS[nth - 1], level=level)
    return Phrase.message(N_("the %(n)sth %(level)s level"), n=nth, level=level)


def _boxes_marked(before: HealthTrack, after: HealthTrack) -> str:
    """Which boxes a marking filled, in words ("the first Healthy level is marked", "the second
    Healthy to the first Bruised level are marked"), so that two hits that leave a character on the
    same level read as two marks, not as a level that did not change (met-reference 4.1, T9); ``""``
    when no new box was filled (a mark made worse on a full track)."""
    if after.marked <= before.marked or after.levels != before.levels:
        return ""
    first, last = before.marked, min(after.marked, len(after.levels)) - 1
    if first > last:
        return ""
    if first == last:
        return Phrase.message(N_("%(box)s is marked"), box=_box(after, first))
    if after.levels[first] == after.levels[last] and max(_nth(after, first), _nth(after, last)) <= len(_ORDINALS):
        return Phrase.message(N_("the %(first)s to the %(last)s %(level)s levels are marked"),
                              first=Phrase.message(_ORDINAL_WORDS_SAID[_nth(after, first) - 1]),
                              last=Phrase.message(_ORDINAL_WORDS_SAID[_nth(after, last) - 1]),
                              level=Phrase.term(after.levels[first]))
    return Phrase.message(N_("%(first)s to %(last)s are marked"), first=_box(after, first), last=_box(after, last))


def standing(track: HealthTrack) -> str:
    """Where the character stands, in words: "Bruised", "in torpor", "destroyed (Final Death)"..."""
    return _where(track)


def _where(track: HealthTrack) -> Phrase:
    """Where the character stands, for explanation steps ("Bruised", "in torpor"...)."""
    if track.condition == "final_death":
        return Phrase.message(N_("destroyed (Final Death)"))
    if track.condition == "dead":
        return Phrase.message(N_("dead"))
    if track.condition == "torpor":
        return Phrase.message(N_("in torpor"))
    if track.condition == "unconscious":
        return Phrase.message(N_("unconscious (%(level)s)"), level=Phrase.term(track.state()))
    return Phrase.term(track.state())


def destroy(track: HealthTrack, means: str, who: str = "The character") -> HealthRuling:
    """A narrator destroys the character outright: Final Death for a vampire, death for a mortal.

    Args:
        means: "beheading" or "heart_torn_out" (002 "Damage and Healing": two of
            the three ways to destroy a vampire), or "massive_trauma" (000 "Final
            Death": only an incapacitated or torpid vampire, or a mortal).

    Raises:
        RulesError: an unknown means, massive trauma on a vampire who is not
            incapacitated or in torpor, or a character already destroyed.
    """
    if means not in DESTRUCTION:
        raise RulesError(Phrase.message(N_("Unknown means of destruction %(means)s (%(value)s)."),
                                        means=repr(means), value=', '.join(DESTRUCTION)), field="means")
    _refuse_destroyed(track, who)
    if (means == "massive_trauma" and track.is_vampire and track.condition != "torpor"
            and track.marked < track.size - 1):
        raise RulesError(Phrase.message(N_("Massive trauma destroys only an incapacitated or torpid vampire; "
                                           "%(who)s is %(value)s."), who=who, value=track.state()), field="means")
    _verb, rule = DESTRUCTION[means]
    condition = "final_death" if track.is_vampire else "dead"
    steps = Explanation()
    steps.add(_DESTROYS[means], rule, name=who, condition=Phrase.term(CONDITION_LABELS[condition]))
    return HealthRuling(replace(track, condition=condition, staked=False), steps.steps())


#: The narrator's destruction of a character, by means (DESTRUCTION's verbs, as whole sentences).
_DESTROYS = {
    "beheading": N_("The narrator chops off the head of %(name)s: %(condition)s."),
    "heart_torn_out": N_("The narrator tears out the heart of %(name)s: %(condition)s."),
    "massive_trauma": N_("The narrator destroys beyond repair the body of %(name)s: %(condition)s."),
}


def stake(track: HealthTrack, who: str = "The character") -> HealthRuling:
    """Drive a stake through a vampire's heart: paralysed until it is removed.

    Source: 000 "Stake Through Heart" (the staking attack itself is in
    :mod:`larp.rules.damage` and :mod:`larp.rules.soak`).

    Raises:
        RulesError: the character is not a vampire, or is destroyed.
    """
    _refuse_destroyed(track, who)
    if not track.is_vampire:
        raise RulesError(Phrase.message(N_("A stake paralyses only vampires; %(who)s is a %(creature)s."),
                                        who=who, creature=track.creature), field="creature")
    steps = Explanation()
    steps.add(N_("%(name)s is staked: conscious, but may not move or spend blood points until the stake is removed."),
              '000 "Stake Through Heart"', name=who)
    return HealthRuling(replace(track, staked=True), steps.steps())


def remove_stake(track: HealthTrack, who: str = "The character") -> HealthRuling:
    """Pull the stake out: the vampire is no longer paralysed (000 "Stake Through Heart").

    Raises:
        RulesError: the character is not staked, or is destroyed.
    """
    _refuse_destroyed(track, who)
    if not track.staked:
        raise RulesError(Phrase.message(N_("%(name)s is not staked."), name=who), field="staked")
    steps = Explanation()
    steps.add(N_("The stake is removed: %(name)s may move and spend blood points again."), '000 "Stake Through Heart"',
              name=who)
    return HealthRuling(replace(track, staked=False), steps.steps())


def regain_consciousness(track: HealthTrack, who: str = "The character") -> HealthRuling:
    """The scene or hour has passed: an unconscious character wakes (002 "Damage and Healing").

    Raises:
        RulesError: the character is not unconscious, or is still below
            Incapacitated (he must heal a level first).
    """
    _refuse_destroyed(track, who)
    if track.condition != "unconscious":
        raise RulesError(Phrase.message(N_("%(name)s is not unconscious."), name=who), field="condition")
    if track.below_incapacitated:
        raise RulesError(Phrase.message(N_("%(name)s is still below Incapacitated and must heal a level before waking."),
                                        name=who),
                         field="condition")
    steps = Explanation()
    steps.add(N_("A scene or an hour has passed: %(name)s regains consciousness at %(level)s."),
              '002 "Damage and Healing"', name=who, level=Phrase.term(track.state()))
    return HealthRuling(replace(track, condition="active"), steps.steps())


