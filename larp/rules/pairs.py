"""Several challenges that share one character, played in order: a mass challenge's pairs,
a firer's tests against bystanders (002 "Mass Combat", "Firing Guns into Groups of
People"; LotNR Mob Scene, met-reference 3.2: retests counted per pair).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from larp.rules.challenge import (
    Challenge,
    ChallengeOptions,
    ChallengeRuling,
    Contestant,
    Outcome,
    RandomSource,
    play_challenge,
)
from larp.rules.explain import N_, Phrase, RulesError, Step
from larp.rules.health import HealthTrack
from larp.rules.hits import Hit
from larp.rules.settings import ChronicleSettings


@dataclass(frozen=True)
class Spending:
    """What one character spent: Ability levels, Willpower and Merit uses."""

    abilities: Mapping[str, int] = field(default_factory=dict)
    willpower: int = 0
    merits: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"abilities": dict(self.abilities), "willpower": self.willpower, "merits": dict(self.merits)}




@dataclass
class Shared:
    """What the character in every pair has spent so far (Ability levels, Willpower, Merit uses):
    retests are counted per pair (LotNR Mob Scene: retesting against five attackers needs
    five levels), so what he spends in one pair is gone for the next ones."""

    side: Outcome
    abilities: Counter = field(default_factory=Counter)
    merits: Counter = field(default_factory=Counter)
    willpower: int = 0

    def before(self, challenge: Challenge) -> Challenge:
        """``challenge`` with his Ability levels, Merit uses and Willpower reduced by what he spent."""
        attr = "challenger" if self.side is Outcome.CHALLENGER else "defender"
        con: Contestant = getattr(challenge, attr)
        con = replace(con, abilities={k: v - self.abilities[k] for k, v in con.abilities.items()},
                      merits={k: v - self.merits[k] for k, v in con.merits.items()},
                      willpower=con.willpower - self.willpower)
        return replace(challenge, **{attr: con})

    def after(self, ruling: ChallengeRuling) -> None:
        """Count what he spent in ``ruling``."""
        spent = ruling.spent_by(self.side)
        self.abilities.update(dict(spent.abilities))
        self.merits.update(dict(spent.merits))
        self.willpower += spent.willpower


def play_pair(challenge: Challenge, shared: Shared, settings: ChronicleSettings, rng: RandomSource | None,
              where: str) -> tuple[Challenge, ChallengeOptions, ChallengeRuling | None]:
    """Play one pair's challenge after the earlier pairs (:class:`Shared`): the challenge as
    played, what may follow, and the ruling (``None`` while a forced darkness retest of
    002 "Darkness" is due: the pair waits for its throws).

    Raises:
        RulesError: the pair's script is illegal; ``field`` is ``where`` plus the pair's own field.
    """
    challenge = shared.before(challenge)
    try:
        options, ruling, _steps = play_challenge(challenge, settings, rng)
    except RulesError as exc:
        raise RulesError(exc.message, field=f"{where}.{exc.field}" if exc.field else where) from None
    if ruling is not None:
        shared.after(ruling)
    return challenge, options, ruling


def play_pairs(challenges: Sequence[Challenge], shared: Outcome, settings: ChronicleSettings,
               rng: RandomSource | None, where: Callable[[int], str]
               ) -> list[tuple[ChallengeOptions, ChallengeRuling]]:
    """Play each pair's challenge in order, one character (``shared``) being in all of them
    (:func:`play_pair`; retests counted per pair).

    Raises:
        RulesError: a pair's script is illegal or incomplete (a forced darkness
            retest is due); ``field`` is ``where(index)`` plus the pair's own field.
    """
    spent = Shared(shared)
    out = []
    for index, challenge in enumerate(challenges):
        _played, options, ruling = play_pair(challenge, spent, settings, rng, where(index))
        if ruling is None:
            raise RulesError(Phrase.message(N_("A forced darkness retest is due in this pair: add its throws.")),
                             field=f"{where(index)}.tests")
        out.append((options, ruling))
    return out


def add_spending(totals: dict[str, dict[str, Any]], name: str, ruling: ChallengeRuling, side: Outcome) -> None:
    """Add what ``side`` spent in ``ruling`` to ``totals[name]`` (abilities, willpower, merits)."""
    spent = ruling.spent_by(side)
    entry = totals.setdefault(name, {"abilities": Counter(), "willpower": 0, "merits": Counter()})
    entry["abilities"].update(dict(spent.abilities))
    entry["merits"].update(dict(spent.merits))
    entry["willpower"] += spent.willpower


def spendings(totals: Mapping[str, Mapping[str, Any]]) -> dict[str, Spending]:
    """The totals as :class:`Spending`, leaving out those who spent nothing."""
    out = {}
    for name, entry in totals.items():
        if +entry["abilities"] or entry["willpower"] or +entry["merits"]:
            out[name] = Spending(dict(+entry["abilities"]), entry["willpower"], dict(+entry["merits"]))
    return out


def party_name(con: Contestant, where: str, missing: str) -> str:
    """The name the narrator gave ``con``, one party to a group challenge (a firer, a target, an attacker,
    a bystander), stripped.

    Args:
        where: where the party stands in the request (``firer``, ``attackers[2]``): a refusal names
            ``<where>.name``.
        missing: the refusal (marked with ``N_``) when he has no name.

    Raises:
        RulesError: ``missing``.
    """
    name = con.name.strip() if isinstance(con.name, str) else ""
    if not name:
        raise RulesError(Phrase.message(missing), field=f"{where}.name")
    return name


def member_name(con: Contestant, where: str, missing: str, target: str, is_target: str,
                listed: Container[str], again: str) -> str:
    """The name of one of a group challenge's several (an attacker, a bystander): :func:`party_name`, and
    neither the target's nor one already ``listed``; ``is_target`` and ``again`` (marked with ``N_``,
    filled with ``name``) are the refusals of those two.

    Raises:
        RulesError: naming ``<where>.name``.
    """
    name = party_name(con, where, missing)
    for clash, message in ((name == target, is_target), (name in listed, again)):
        if clash:
            raise RulesError(Phrase.message(message, name=name), field=f"{where}.name")
    return name


def check_bid_names(con: Contestant, traits: Sequence[str], name: str, where: str) -> None:
    """Check that ``con`` still has every Trait in ``traits`` to risk (all together).

    Without ``held`` only the count is checked.

    Raises:
        RulesError: a Trait not held or lost earlier this game session, or too many.
    """
    if len(traits) > con.traits:
        raise RulesError(Phrase.message(N_("%(name)s has only %(traits)s Traits left and cannot risk %(value)s."),
                                        name=name, traits=con.traits, value=len(traits)), field=where)
    if not (con.held or con.lost_earlier):
        return
    free = Counter(con.held) - Counter(con.lost_earlier)
    for trait in traits:
        if free[trait] < 1:
            why = "lost earlier this game session" if trait in con.lost_earlier else "not a Trait left to risk"
            raise RulesError(Phrase.message(N_("%(name)s cannot risk %(trait)s: %(why)s."),
                                            name=name, trait=trait, why=why), field=where)
        free[trait] -= 1


@dataclass(frozen=True)
class SeveralRuling:
    """What a ruling over several challenges carries, a mass challenge's
    (:class:`~larp.rules.mass_challenge.MassRuling`) or a missed shot's
    (:class:`~larp.rules.firing_into_groups.ShotIntoGroupRuling`), each adding its own challenges.

    Attributes:
        hits: the hits, in the order they were applied, with the damage marked.
        tracks: the health tracks afterwards, by name.
        traits_lost: the Traits each character loses for the game session, by name.
        spent: what each character spent (Ability levels, Willpower, Merits), by name (only those who spent).
        steps: the whole explanation.
        summary: one sentence.
        pending: the names whose challenge waits for its forced darkness retest (002 "Darkness"):
            the ruling cannot be recorded before it is thrown.
        armor_left: the armor that absorbed damage, by name: (armory key, levels left).
    """

    hits: tuple[Hit, ...]
    tracks: Mapping[str, HealthTrack]
    traits_lost: Mapping[str, tuple[str, ...]]
    spent: Mapping[str, Spending]
    steps: tuple[Step, ...]
    summary: str
    pending: tuple[str, ...] = ()
    armor_left: Mapping[str, tuple[str, int]] = field(default_factory=dict)

    def several_dict(self, head: Mapping[str, Any], extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The ruling as JSON-ready data: its summary, ``head`` (its own challenges), the hits, tracks,
        Traits lost and spendings by name, ``extra``, then the tests pending, the armor left and the steps.
        The record and the API keep and answer it."""
        return {
            "summary": self.summary,
            **head,
            "hits": [h.to_dict() for h in self.hits],
            "tracks": {name: t.to_dict() for name, t in self.tracks.items()},
            "traits_lost": {name: list(t) for name, t in self.traits_lost.items()},
            "spent": {name: s.to_dict() for name, s in self.spent.items()},
            **(extra or {}),
            "pending": list(self.pending),
            "armor_left": {name: dict([a]) for name, a in self.armor_left.items()},
            "steps": [s.to_dict() for s in self.steps],
        }
