"""Darkness: Traits down for ties and overbids, and the forced retest (seed 002 "Darkness").

002 "Darkness": in partial darkness a character is two Traits down for
resolving ties and overbids, but risks no extra Traits; in total darkness the
same, and every successful action must be retested once (unless an appropriate
Ability is expended). What reduces the penalty is the table
``data/darkness.toml``: 002 announces two lists and both are missing from its
text, so the defaults are met-reference 6.1 (Dark Epics, LotNR Shroud of
Night). Reductions worth four Traits remove every total-darkness penalty, the
forced retest included.

This module computes one side's :class:`DarknessEffect`; whether darkness
applies to a challenge at all (setting ``darkness_scope``) and whether the
opponent suffers the same darkness (no forced retest then, Dark Epics p.71)
is decided by :mod:`larp.rules.challenge`, which sees both sides.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, traits as traits_of
from larp.rules.settings import ChronicleSettings
from larp.tables import TableError, load_toml, require

RULE = '002 "Darkness"'
TABLE_RULE = "002 \"Darkness\" (its lists are missing: met-reference 6.1 defaults)"


class DarknessLevel(StrEnum):
    """How dark it is for one side, as the narrator announces it (002 "Darkness")."""

    NONE = "none"
    PARTIAL = "partial"
    TOTAL = "total"


class DarknessSource(StrEnum):
    """Natural (mundane) darkness, or Obtenebration's Shroud of Night (LotNR, met-reference 6.1)."""

    NATURAL = "natural"
    SHROUD = "shroud"


@dataclass(frozen=True)
class Darkness:
    """The darkness one side suffers in a challenge.

    Attributes:
        level: none, partial or total (002 "Darkness").
        source: natural darkness or someone's Shroud of Night.
        reductions: keys of ``data/darkness.toml`` ``[reductions]`` the side
            has active (``"heightened_senses"``, ``"eyes_of_the_beast"``...).
            Entries counted per Ability level (Blindfighting) apply by
            themselves from the side's Ability levels and need not be listed.
        waive_retest: the Ability the side expends (one level) to skip the
            forced retest of total darkness, e.g. ``"Blindfighting"``; empty
            if none. Only spent if a forced retest would otherwise happen.
        waived_this_turn: a level was already expended this turn, so the
            forced retest is skipped without spending another (Dark Epics p.49:
            one level covers the turn).
    """

    level: DarknessLevel = DarknessLevel.NONE
    source: DarknessSource = DarknessSource.NATURAL
    reductions: tuple[str, ...] = ()
    waive_retest: str = ""
    waived_this_turn: bool = False


@dataclass(frozen=True)
class Reduction:
    """One row of ``data/darkness.toml`` ``[reductions]``: what it removes, in Traits, and what
    gives it (a Discipline ``power``, a ``merit`` key, or a level of the Ability ``per_level_of``;
    ``unless_setting`` names a chronicle setting that turns it off; ``natural_setting`` and
    ``shroud_setting`` the chronicle settings that hold its values, so a chronicle sets 002's
    missing lists itself, ``data/settings/darkness_lists.toml``).

    ``all_penalty``: in natural darkness it removes every penalty Trait (LotNR Concentration: "none
    of the penalty"). ``penalty_only``: it removes penalty Traits but does not count toward the
    total that removes the forced retest too (002 "Darkness": the retest is no penalty Trait).
    ``choice_setting`` and ``choices``: a chronicle choice setting whose value picks overrides of
    ``natural``, ``shroud``, ``all_penalty`` and ``penalty_only`` (see :meth:`under`).
    """

    key: str
    label: str
    natural: int
    shroud: int
    source: str
    natural_setting: str = ""
    per_level_of: str = ""
    power: str = ""
    merit: str = ""
    unless_setting: str = ""
    shroud_setting: str = ""
    all_penalty: bool = False
    penalty_only: bool = False
    choice_setting: str = ""
    choices: Mapping[str, Mapping[str, object]] = field(default_factory=dict)

    def setting(self, source: DarknessSource) -> str | None:
        """The chronicle setting that holds its value in ``source`` darkness, if any."""
        return (self.shroud_setting if source is DarknessSource.SHROUD else self.natural_setting) or None

    def under(self, settings: ChronicleSettings) -> "Reduction":
        """The row as the chronicle's ``choice_setting`` reads it (the overrides of its value's
        ``choices`` table applied; the row itself when it has none)."""
        if not self.choice_setting:
            return self
        return replace(self, **dict(self.choices.get(settings[self.choice_setting], {})))

    def traits(self, source: DarknessSource, settings: ChronicleSettings, penalty: int = 0) -> int:
        """Penalty Traits removed in ``source`` darkness (per level for per-level rows): the
        chronicle's setting when the row names one, else the table's value (002 "Darkness");
        ``penalty``: the darkness's penalty, all of which an ``all_penalty`` row removes in
        natural darkness."""
        if source is DarknessSource.SHROUD:
            return int(settings[self.shroud_setting]) if self.shroud_setting else self.shroud
        if self.all_penalty:
            return penalty
        if self.natural_setting:
            return int(settings[self.natural_setting])
        return self.natural


@dataclass(frozen=True)
class DarknessTable:
    """``data/darkness.toml``: the penalties and what reduces them.

    Attributes:
        partial, total: Traits down in partial and total darkness (2 and 2).
        full_negation: reductions worth this many Traits remove every penalty
            of total darkness, the forced retest included (4).
        waiver_abilities: Abilities that may be expended to skip the forced retest.
        reductions: key to :class:`Reduction`.
    """

    partial: int
    total: int
    full_negation: int
    waiver_abilities: tuple[str, ...]
    reductions: Mapping[str, Reduction]


@lru_cache(maxsize=None)
def darkness_table() -> DarknessTable:
    """The darkness table, loaded once and validated.

    Raises:
        TableError: the file or an entry is malformed (names the entry).
    """
    raw = load_toml("darkness.toml")
    where = "data/darkness.toml"
    penalty = raw.get("penalty")
    if not isinstance(penalty, dict):
        raise TableError(f"{where}: missing [penalty]")
    forced = raw.get("forced_retest")
    if not isinstance(forced, dict):
        raise TableError(f"{where}: missing [forced_retest]")
    waivers = require(forced, "waiver_abilities", list, f"{where} [forced_retest]")
    if not all(isinstance(w, str) and w for w in waivers):
        raise TableError(f"{where} [forced_retest]: waiver_abilities must be Ability names")
    rows: dict[str, Reduction] = {}
    overridable = {"natural": int, "shroud": int, "all_penalty": bool, "penalty_only": bool}
    for key, entry in (raw.get("reductions") or {}).items():
        here = f"{where} [reductions.{key}]"
        if not isinstance(entry, dict):
            raise TableError(f"{here}: must be a table")
        choices = entry.get("choices", {})
        if not isinstance(choices, dict) or (choices and not entry.get("choice_setting")):
            raise TableError(f"{here}: 'choices' must be tables of overrides, with a 'choice_setting'")
        for value, override in choices.items():
            unknown = sorted(set(override) - set(overridable)) if isinstance(override, dict) else ["?"]
            if unknown:
                raise TableError(f"{here} choices.{value}: only {', '.join(overridable)} may be overridden")
            for name, kind in overridable.items():
                if name in override and (not isinstance(override[name], kind)
                                         or (kind is int and isinstance(override[name], bool))):
                    raise TableError(f"{here} choices.{value}: '{name}' has the wrong type")
        flags = {}
        for name in ("all_penalty", "penalty_only"):
            flags[name] = entry.get(name, False)
            if not isinstance(flags[name], bool):
                raise TableError(f"{here}: '{name}' must be true or false")
        row = Reduction(
            key=key,
            label=require(entry, "label", str, here),
            natural=require(entry, "natural", int, here),
            shroud=require(entry, "shroud", int, here),
            source=require(entry, "source", str, here),
            natural_setting=entry.get("natural_setting", ""),
            per_level_of=entry.get("per_level_of", ""),
            power=entry.get("power", ""),
            merit=entry.get("merit", ""),
            unless_setting=entry.get("unless_setting", ""),
            shroud_setting=entry.get("shroud_setting", ""),
            choice_setting=entry.get("choice_setting", ""),
            choices=MappingProxyType({str(v): MappingProxyType(dict(o)) for v, o in choices.items()}),
            **flags,
        )
        if row.natural < 0 or row.shroud < 0 or any(
                isinstance(o.get(n), int) and not isinstance(o.get(n), bool) and o[n] < 0
                for o in row.choices.values() for n in ("natural", "shroud")):
            raise TableError(f"{here}: reductions cannot be negative")
        rows[key] = row
    if not rows:
        raise TableError(f"{where}: no [reductions.*] entries")
    return DarknessTable(
        partial=require(penalty, "partial", int, f"{where} [penalty]"),
        total=require(penalty, "total", int, f"{where} [penalty]"),
        full_negation=require(penalty, "full_negation", int, f"{where} [penalty]"),
        waiver_abilities=tuple(waivers),
        reductions=MappingProxyType(rows),
    )


def ability_named(abilities: Mapping[str, int], name: str) -> str | None:
    """The key of ``abilities`` that names ``name`` (case-insensitive), or ``None``.

    Sheets write "Brawl", JSON may say "brawl"; both mean the same Ability.
    """
    wanted = name.strip().lower()
    return next((key for key in abilities if key.lower() == wanted), None)


def waiver_allowed(ability: str) -> bool:
    """Whether expending a level of ``ability`` skips the forced retest of total
    darkness (``data/darkness.toml`` ``[forced_retest]``; 002 "Darkness")."""
    return ability.strip().lower() in {a.lower() for a in darkness_table().waiver_abilities}


@dataclass(frozen=True)
class DarknessEffect:
    """What darkness does to one side in one challenge.

    Attributes:
        level: the darkness suffered.
        penalty: Traits down for ties and overbids (0 to 2).
        reduction: penalty Traits removed by the side's reductions, in total.
        forced_retest: in total darkness, whether the side must retest every
            test it wins once (before checking the opponent's darkness and any
            waiver, which :mod:`larp.rules.challenge` decides).
        steps: the explanation.
    """

    level: DarknessLevel
    penalty: int
    reduction: int
    forced_retest: bool
    steps: tuple[Step, ...]


def darkness_effect(
    darkness: Darkness,
    abilities: Mapping[str, int],
    settings: ChronicleSettings,
    who: str = "This side",
    field: str = "darkness",
) -> DarknessEffect:
    """The penalty and the forced retest darkness puts on one side.

    Args:
        darkness: the side's darkness and active reductions.
        abilities: the side's Ability levels left this game session (Blindfighting
            counts one penalty Trait per level still held, Dark Epics p.49).
        settings: the chronicle's settings (``hs_dark_reduction``).
        who: the character's name, for the explanation.
        field: the input field named in errors.

    Rules: 002 "Darkness" (two Traits down for ties and overbids; total darkness
    also forces one retest of each success; reductions worth four Traits remove
    every total-darkness penalty); the reductions table ``data/darkness.toml``
    (met-reference 6.1, because 002's two lists are missing).

    Raises:
        RulesError: an unknown reduction key, or a waiver Ability that cannot
            skip the forced retest.
    """
    table = darkness_table()
    steps = Explanation()
    if darkness.level is DarknessLevel.NONE:
        return DarknessEffect(darkness.level, 0, 0, False, ())
    base = table.partial if darkness.level is DarknessLevel.PARTIAL else table.total
    where = Phrase.message(N_("Shroud of Night") if darkness.source is DarknessSource.SHROUD else
                           N_("natural darkness"))
    steps.add(N_("%(name)s is in partial darkness (%(where)s): %(n)s Traits down for ties and overbids, no extra "
                 "Traits risked.") if darkness.level is DarknessLevel.PARTIAL else
              N_("%(name)s is in total darkness (%(where)s): %(n)s Traits down for ties and overbids, no extra "
                 "Traits risked."), RULE, name=who, where=where, n=base)
    reduction = 0   # counts toward full negation (the forced retest too)
    penalty_cut = 0  # removes penalty Traits only (Concentration under LotNR)
    for key in darkness.reductions:
        row = table.reductions.get(key)
        if row is None:
            raise RulesError(f"{who}: {key!r} is not in the darkness table (known: "
                             f"{', '.join(sorted(table.reductions))}).", field=field)
        if row.per_level_of:
            continue  # counted below from the Ability levels
        row = row.under(settings)
        value = row.traits(darkness.source, settings, base)
        setting = row.setting(darkness.source)
        if row.choice_setting:
            if not value:
                continue  # this reading gives it no darkness value (Acute Sense's +2 is its sense's)
            setting = row.choice_setting
        if row.penalty_only:
            penalty_cut += value
            if row.choice_setting:
                steps.add(N_("%(power)s removes %(penalty)s in %(where)s, but not the forced retest of total darkness "
                             "(%(setting_said)s)."), f"{TABLE_RULE}; {row.source}", setting,
                          power=Phrase.term(row.label), penalty=_penalty(value), where=where,
                          setting_said=Phrase.term(settings.label(setting)))
            else:
                steps.add(N_("%(power)s removes %(penalty)s in %(where)s, but not the forced retest of total "
                             "darkness."), f"{TABLE_RULE}; {row.source}", setting, power=Phrase.term(row.label),
                          penalty=_penalty(value), where=where)
            continue
        reduction += value
        if row.choice_setting:
            steps.add(N_("%(power)s removes %(penalty)s in %(where)s (%(setting_said)s)."), f"{TABLE_RULE}; {row.source}",
                      setting, power=Phrase.term(row.label), penalty=_penalty(value), where=where,
                      setting_said=Phrase.term(settings.label(setting)))
        else:
            steps.add(N_("%(power)s removes %(penalty)s in %(where)s."), f"{TABLE_RULE}; {row.source}", setting,
                      power=Phrase.term(row.label), penalty=_penalty(value), where=where)
    for row in table.reductions.values():
        if not row.per_level_of:
            continue
        key = ability_named(abilities, row.per_level_of)
        levels = abilities.get(key, 0) if key else 0
        if levels > 0 and row.unless_setting and settings[row.unless_setting]:
            steps.add(N_("%(power)s removes no penalty Trait (%(setting_said)s)."), f"{TABLE_RULE}; {row.source}",
                      row.unless_setting, power=Phrase.term(row.label),
                      setting_said=Phrase.term(settings.label(row.unless_setting)))
            continue
        if levels > 0:
            value = row.traits(darkness.source, settings, base) * levels
            reduction += value
            steps.add(N_("%(power)s x%(levels)s removes %(penalty)s."), f"{TABLE_RULE}; {row.source}",
                      row.setting(darkness.source), power=Phrase.term(row.label), levels=levels,
                      penalty=_penalty(value))
    if darkness.waive_retest and not waiver_allowed(darkness.waive_retest):
        raise RulesError(f"{who}: expending {darkness.waive_retest} does not skip the forced retest of total "
                         f"darkness (allowed: {', '.join(table.waiver_abilities)}).", field=field)
    penalty = max(0, base - reduction - penalty_cut)
    forced = darkness.level is DarknessLevel.TOTAL and reduction < table.full_negation
    if darkness.level is DarknessLevel.TOTAL and not forced:
        steps.add(N_("Reductions worth %(n)s Traits (at least %(least)s): no penalty for total darkness, no forced "
                     "retest."), RULE, n=reduction, least=table.full_negation)
    elif reduction or penalty_cut:
        steps.add(N_("%(name)s is %(traits)s down for darkness."), RULE, name=who, traits=traits_of(penalty))
    return DarknessEffect(darkness.level, penalty, reduction + penalty_cut, forced, steps.steps())


def _penalty(count: int) -> Phrase:
    """"1 penalty Trait", "2 penalty Traits", in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s penalty Trait", "%(n)s penalty Traits")
