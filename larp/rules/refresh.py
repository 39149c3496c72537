"""What a character gets back between two game sessions (met-reference 5.1, 2.1).

- Traits lost and Ability levels expended come back at the next game session
  (LotNR; met-reference 5.1 and 2.1). The store keeps them per game session,
  so a new game session simply does not count them; the refresh only says so.
- Willpower comes back by ``wp_refresh``: one Willpower Trait a game session
  (LotNR, default) or one for each full week between the two game dates (Dark
  Epics p.91). Dark Epics' extra Willpower a week for satisfying one's Nature is
  not modelled: the narrator adds it by hand. Willpower never exceeds the
  permanent rating.
- Blood by ``blood_refresh``: unchanged (the organiser records the feeding a
  player reports), a full pool, or at least a starting pool. Only active,
  unconscious or incapacitated vampires are changed: a torpid vampire does not
  feed (000 "Torpor": he is "effectively in hibernation"), and ghouls and
  mortals have no pool of their own to refill.
- Destroyed characters (Final Death, dead) get nothing back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step
from larp.rules.settings import ChronicleSettings

_TRAITS = "LotNR Traits and Abilities (met-reference 2.1, 5.1)"
_WILLPOWER = {
    "lotnr_session": "LotNR Willpower (met-reference 5.1)",
    "de_weekly": "Dark Epics p.91 (met-reference 5.1)",
}
_BLOOD = "Chronicle setting (no source rule)"


@dataclass(frozen=True)
class RefreshSubject:
    """A character as the previous game session left him.

    Attributes:
        name: for the explanation.
        creature: "vampire", "ghoul" or "mortal".
        condition: "active", "unconscious", "torpor", "final_death" or "dead".
        willpower_current, willpower_permanent: Willpower Traits.
        blood_current, blood_max: blood points.
        traits_back: Traits lost in the previous game session ("Quick" ...).
        abilities_back: Ability levels expended in it ("Brawl 1" ...).
    """

    name: str
    creature: str
    condition: str
    willpower_current: int
    willpower_permanent: int
    blood_current: int
    blood_max: int
    traits_back: tuple[str, ...] = ()
    abilities_back: tuple[str, ...] = ()


@dataclass(frozen=True)
class Refresh:
    """What a character has at the start of the next game session.

    Attributes:
        willpower_current: temporary Willpower Traits.
        blood_current: blood points.
        changed: anything came back (Traits, Abilities, Willpower or blood).
        steps: the explanation.
    """

    willpower_current: int
    blood_current: int
    changed: bool
    steps: tuple[Step, ...]


def weeks_between(last: date, following: date) -> int:
    """Full weeks from the date ``last`` to the date ``following`` (13 days are one week)."""
    return max(0, (following - last).days // 7)


def refresh_for_next_session(subject: RefreshSubject, last_date: date, next_date: date,
                             settings: ChronicleSettings) -> Refresh:
    """Refresh ``subject`` from the game session on ``last_date`` to the one on ``next_date``.

    Raises:
        RulesError: ``next_date`` before ``last_date`` (``field`` "date").
    """
    if next_date < last_date:
        raise RulesError(f"The next game session ({next_date.isoformat()}) cannot be before the last one "
                         f"({last_date.isoformat()}).", field="date")
    steps = Explanation()
    who = subject.name
    if subject.condition in ("final_death", "dead"):
        steps.add(N_("%(name)s is dead: nothing comes back.") if subject.condition == "dead" else
                  N_("%(name)s is destroyed: nothing comes back."), _TRAITS, name=who)
        return Refresh(subject.willpower_current, subject.blood_current, False, steps.steps())
    changed = False
    if subject.traits_back or subject.abilities_back:
        if subject.traits_back and subject.abilities_back:
            steps.add(N_("%(name)s gets back the Traits %(traits)s and the Ability levels %(abilities)s spent last game "
                         "session."), _TRAITS, name=who, traits=list(subject.traits_back),
                      abilities=list(subject.abilities_back))
        elif subject.traits_back:
            steps.add(N_("%(name)s gets back the Traits %(traits)s spent last game session."), _TRAITS, name=who,
                      traits=list(subject.traits_back))
        else:
            steps.add(N_("%(name)s gets back the Ability levels %(abilities)s spent last game session."), _TRAITS,
                      name=who, abilities=list(subject.abilities_back))
        changed = True

    model = settings["wp_refresh"]
    gain = 1 if model == "lotnr_session" else weeks_between(last_date, next_date)
    willpower = min(subject.willpower_permanent, subject.willpower_current + gain)
    if model == "de_weekly":
        reason = Phrase.message(N_("%(weeks)s between the game dates"), weeks=Phrase.counted(
            weeks_between(last_date, next_date), "%(n)s full week", "%(n)s full weeks"))
    else:
        reason = Phrase.message(N_("one a game session"))
    if willpower > subject.willpower_current:
        steps.add(N_("Willpower %(before)s → %(after)s of %(most)s (%(reason)s). The extra Willpower for satisfying one's "
                     "Nature is not modelled.") if model == "de_weekly" else
                  N_("Willpower %(before)s → %(after)s of %(most)s (%(reason)s)."), _WILLPOWER[model],
                  setting="wp_refresh", before=subject.willpower_current, after=willpower,
                  most=subject.willpower_permanent, reason=reason)
        changed = True

    blood = subject.blood_current
    mode = settings["blood_refresh"]
    if subject.creature == "vampire" and mode != "unchanged":
        if subject.condition == "torpor":
            steps.add(N_("%(name)s is in torpor and does not feed: blood stays at %(blood)s."), '000 "Torpor"',
                      setting="blood_refresh", name=who, blood=blood)
        else:
            target = subject.blood_max if mode == "full" else min(subject.blood_max, settings["blood_starting_pool"])
            if target > blood:
                label = Phrase.message(N_("a full pool")) if mode == "full" else \
                    Phrase.message(N_("the starting pool of %(n)s"), n=settings["blood_starting_pool"])
                steps.add(N_("Blood %(before)s → %(after)s of %(most)s (%(label)s)."), _BLOOD, setting="blood_refresh",
                          before=blood, after=target, most=subject.blood_max, label=label)
                blood = target
                changed = True
    return Refresh(willpower, blood, changed, steps.steps())
