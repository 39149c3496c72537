"""Pricing a player's request to spend experience, and the change it makes to his sheet (issue 33).

One composition path: :func:`price_request` takes the character's sheet (plain
:class:`larp.sheet.CharacterSheet`), his experience totals (:func:`larp.rules.experience.totals`
over his log: fractions and Grapevine's "set" lines included), the request and the chronicle's cost
table (:func:`larp.rules.experience_costs.cost_table`), and returns the cost, the unspent total after
it, the sheet fields the purchase changes, and every refusal with why (unaffordable, prerequisite
missing, already held, at the highest rating). The player's form, the organisers' queue, the approval
and the API all call it. :func:`reverse_change` gives the sheet back for an undo, and
:func:`depends_on` says whether a later purchase needs an earlier one (then the earlier is not undone).

Pure: no Flask, no peewee, no clock.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from larp.rules.experience import points_said, points_text
from larp.rules.explain import N_, Phrase, traits as traits_of
from larp.rules.experience_costs import (POWER_TIERS, RITUAL_NEEDS_LEVEL, RITUAL_TIERS, TIER_LABELS, TIER_LEVELS,
                                         CostTable, in_clan, tier_of)
from larp.sheet import CharacterSheet
from larp.sheet_checks import known_power
from larp.sheet_entries import CATEGORIES, PowerEntry, QualityEntry, TraitEntry
from larp.tables import discipline_table, generation_row
from larp.rules.explain import N_, Phrase

#: The kinds of purchase a player may ask for, with the words a person reads.
KINDS = {
    "trait": "A Physical, Social or Mental Trait",
    "ability": "An Ability level",
    "power": "A Discipline power",
    "ritual": "A Ritual",
    "background": "A Background Trait",
    "willpower": "A permanent Willpower Trait",
    "morality": "A Humanity or Path Trait",
    "merit": "A Merit",
    "remove_flaw": "Removing a Flaw",
    "remove_negative_trait": "Removing a Negative Trait",
    "remove_derangement": "Removing a Derangement",
}
#: The highest Background rating bought with experience (data/sheet_lists.toml's Background maximum).
BACKGROUND_MAX = 5
#: A Trait bought, by category, as the reader's language names it.
_TRAIT_WHAT = {"physical": N_("Physical Trait %(name)s"), "social": N_("Social Trait %(name)s"),
               "mental": N_("Mental Trait %(name)s")}
#: A Ritual's price step, by tier.
_RITUAL_STEPS = {"basic": N_("a Basic Ritual: %(points)s experience."),
                 "intermediate": N_("an Intermediate Ritual: %(points)s experience."),
                 "advanced": N_("an Advanced Ritual: %(points)s experience."),
                 "master": N_("a Master Ritual: %(points)s experience.")}
#: Where the request's rules come from, for the steps.
RULE = "Issue 33 experience spends; costs: chronicle settings (data/settings/experience_costs.toml)"


@dataclass(frozen=True)
class PurchaseRequest:
    """What a player asks to buy, as plain data.

    Attributes:
        kind: one of :data:`KINDS`.
        name: the Trait, Ability, Background, Merit, Flaw, Negative Trait, Derangement or Ritual
            named; for a power, the power (a path's power as ``"Path of Blood: Blood Rage"``).
        category: "physical", "social" or "mental" (a Trait or a Negative Trait).
        discipline: a power's or a Ritual's Discipline ("Dominate", "Thaumaturgy").
        level: a power's level (1..9) when it is not in data/disciplines.toml (Elder and above).
        tier: a Ritual's tier ("basic", "intermediate", "advanced", "master").
        traits: a Merit's cost in Traits (the catalogue's, or the one chosen in its range).
        key: a Merit's catalogue id (data/merits_flaws.toml), "" for a custom one.
    """

    kind: str
    name: str = ""
    category: str = ""
    discipline: str = ""
    level: int | None = None
    tier: str = ""
    traits: int = 0
    key: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the stored request and the API)."""
        return {"kind": self.kind, "name": self.name, "category": self.category, "discipline": self.discipline,
                "level": self.level, "tier": self.tier, "traits": self.traits, "key": self.key}

    @classmethod
    def from_dict(cls, data: Any) -> "PurchaseRequest":
        """Read a request from stored or sent data.

        Raises:
            PurchaseError: not an object, an unknown kind, a text or number of the wrong type.
        """
        if not isinstance(data, dict):
            raise PurchaseError(Phrase.message(N_("A request to spend experience is an object with a kind.")), "kind")
        kind = data.get("kind")
        if kind not in KINDS:
            raise PurchaseError(Phrase.message(N_("Choose what to buy: one of %(value)s."), value=', '.join(KINDS)),
                                "kind")
        texts = {}
        for key in ("name", "category", "discipline", "tier", "key"):
            value = data.get(key) or ""
            if not isinstance(value, str) or len(value) > 160:
                raise PurchaseError(Phrase.message(N_("The request's %(key)s must be text of at most 160 "
                                                      "characters."), key=key), key)
            texts[key] = value.strip()
        numbers = {}
        for key in ("level", "traits"):
            value = data.get(key)
            if value in (None, ""):
                numbers[key] = None
                continue
            if isinstance(value, str) and value.strip().isdigit():
                value = int(value.strip())
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
                raise PurchaseError(Phrase.message(N_("The request's %(key)s must be a whole number from 0 to 9."),
                                                   key=key), key)
            numbers[key] = value
        return cls(kind=kind, level=numbers["level"], traits=numbers["traits"] or 0, **texts)


class PurchaseError(ValueError):
    """A request that is not readable at all (not a refusal: a malformed request); ``field`` names it."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused: ``code`` ("unaffordable", "prerequisite", "out_of_range", "held",
    "not_held", "unknown") and the words for the player."""

    code: str
    text: str


@dataclass(frozen=True)
class Pricing:
    """A request priced against a sheet and its experience.

    Attributes:
        what: the purchase in words ("Dominate: Forgetful Mind (Intermediate, in-clan)").
        cost: experience points (exact).
        cost_setting: the chronicle settings that priced it (their keys).
        unspent: the unspent total before it; ``unspent_after`` after it.
        refusals: every reason it cannot be bought now (empty: it can).
        change: the sheet fields the purchase changes, as :meth:`CharacterSheet.to_dict` writes them.
        steps: the explanation, each ``{"text", "rule"}``.
        in_clan: for a power, whether its Discipline is one of the clan's; else ``None``.
    """

    what: str
    cost: Decimal
    cost_setting: tuple[str, ...]
    unspent: Decimal
    unspent_after: Decimal
    refusals: tuple[Refusal, ...]
    change: dict[str, Any] = field(default_factory=dict)
    steps: tuple[dict[str, str], ...] = ()
    in_clan: bool | None = None

    @property
    def allowed(self) -> bool:
        """Whether nothing refuses it."""
        return not self.refusals

    def reasons(self) -> str:
        """The refusals in one sentence each."""
        return " ".join(r.text for r in self.refusals)


def _find(entries: list, name: str) -> Any:
    return next((e for e in entries if e.name.strip().lower() == name.strip().lower()), None)


def _key_of(mapping: dict[str, int], name: str) -> str | None:
    return next((k for k in mapping if k.strip().lower() == name.strip().lower()), None)


def _power_path(power: str) -> str:
    path, _, _name = power.rpartition(": ")
    return path.strip().lower()


def _listed_power(discipline: str, power: str) -> tuple[str, str, int, dict[str, int]] | None:
    """The table's ``(discipline, power, level, levels of its Discipline or path)``, if listed
    (:func:`larp.sheet_checks.known_power` finds it, as the sheet editor does)."""
    known = known_power(discipline, power)
    if known is None and not discipline.strip():
        # A power named without its Discipline (the player's "Something else" form): the one Discipline or
        # path of the table that lists a power of that name, if only one does.
        found = {(disc, path) for (disc, path), row in discipline_table().items()
                 if any(p.lower() == power.strip().lower() for p in row.levels)}
        if len(found) == 1:
            disc, path = found.pop()
            known = known_power(disc, f"{path}: {power.strip()}" if path else power.strip())
    if known is None:
        return None
    disc, shown, level = known
    path = shown.rpartition(": ")[0]
    row = discipline_table()[(disc, path)]
    return disc, shown, level, {(f"{path}: {p}" if path else p): lv for p, lv in row.levels.items()}


def _same_line(entry: PowerEntry, discipline: str, power: str) -> bool:
    """Whether ``entry`` is a power of the same Discipline (and path) as ``power``."""
    return (entry.discipline.strip().lower() == discipline.strip().lower()
            and _power_path(entry.power) == _power_path(power))


def _a(word: str) -> str:
    """``word`` with its article: "a Basic", "an Intermediate"."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _previous_tier(tier: str) -> str | None:
    index = POWER_TIERS.index(tier)
    return POWER_TIERS[index - 1] if index else None


def price_request(sheet: CharacterSheet, earned: Decimal, unspent: Decimal, request: PurchaseRequest,
                  table: CostTable) -> Pricing:
    """Price ``request`` for the character of ``sheet`` with ``unspent`` experience points.

    Costs are the chronicle's (``table``): a Discipline power by its tier (Basic levels 1-2,
    Intermediate 3-4, Advanced 5, Elder 6...), plus the out-of-clan surcharge when its Discipline is
    not one of the clan's (data/clan_disciplines.toml); a Ritual by its tier; a Merit per Trait of
    its cost; removing a Flaw per Trait of its value; a Derangement, a Trait, an Ability level, a
    Background, Willpower, Humanity or Path, a Negative Trait at their one price.
    Prerequisites: a power needs one of the tier below in the same Discipline or path (setting
    ``power_prerequisite`` "tier_below"; "every_lower": every power listed below it); a Ritual needs
    a power of its tier in its Discipline; what is bought is not already held, what is removed is on
    the sheet, and a rating stays within its highest (generation's Traits and Willpower,
    ``ability_max``, ``morality_max``, Backgrounds 5).

    Args:
        earned, unspent: the character's totals in experience points (exact).

    Returns:
        The :class:`Pricing`; refused requests are priced too (the player sees the cost and why).
    """
    pricer = _PRICERS[request.kind]
    after = copy.deepcopy(sheet)
    what, cost, settings, refusals, steps, clan_side = pricer(after, request, table)
    cost = Decimal(cost)
    refusals = list(refusals)
    if cost > unspent and not any(r.code in ("unknown",) for r in refusals):
        refusals.append(Refusal("unaffordable", Phrase.message(N_("%(what)s costs %(value)s experience and "
                                                                  "%(value2)s has %(value3)s unspent."),
                                                               what=what, value=points_text(cost), value2=sheet.name or 'the character', value3=points_text(unspent))))
    before_dict, after_dict = sheet.to_dict(), after.to_dict()
    change = {k: v for k, v in after_dict.items() if v != before_dict[k]} if not refusals else {}
    steps = list(steps) + [_said(Phrase.message(N_("%(cost)s experience spent: %(unspent)s unspent before, %(after)s "
                                                   "after (earned %(earned)s)."), cost=points_said(cost),
                                                unspent=points_said(unspent), after=points_said(unspent - cost),
                                                earned=points_said(earned)), "LotNR Experience")]
    return Pricing(what, cost, tuple(settings), unspent, unspent - cost, tuple(refusals), change,
                   tuple(steps), clan_side)


# ---------------------------------------------------------------- one pricer per kind
# Each takes the sheet to change (a copy), the request and the table; returns
# (what, cost, settings, refusals, steps, in_clan).

def _step(text: str, setting: str, table: CostTable) -> dict[str, Any]:
    return _said(text, f"Chronicle setting {setting}")


def _said(text: str, rule: str) -> dict[str, Any]:
    """A step as a record keeps it: its English ``text``, its ``rule`` and, for a phrase, its data (``said``: the
    reader's language at the edge, issue 36)."""
    step = {"text": str(text), "rule": rule}
    if isinstance(text, Phrase):
        step["said"] = text.data()
    return step


def _priced(what: str, cost: Any, setting: str, refusals: list[Refusal], table: CostTable):
    """A pricer's answer for a purchase at the one price ``cost`` that the setting ``setting`` names."""
    return what, cost, (setting,), refusals, [_step(Phrase.message(N_("%(what)s: %(points)s experience."), what=what,
                                                                   points=points_said(cost)), setting, table)], None


def _category(request: PurchaseRequest) -> tuple[str, list[Refusal]]:
    category = request.category.strip().lower()
    if category not in CATEGORIES:
        return category, [Refusal("unknown", Phrase.message(N_("Choose Physical, Social or Mental.")))]
    return category, []


def _trait(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
    category, refusals = _category(request)
    name = request.name.strip()
    what = Phrase.message(_TRAIT_WHAT[category], name=name) if category in _TRAIT_WHAT else \
        f"{category.capitalize()} Trait {name}"
    cost = table.cost("trait")
    if not name:
        refusals.append(Refusal("unknown", Phrase.message(N_("Name the Trait to buy."))))
    row = generation_row(sheet.generation) if sheet.creature == "vampire" else None
    if not refusals:
        if row is not None and sheet.trait_total(category) >= row.max_traits:
            refusals.append(Refusal("out_of_range", Phrase.message(N_("%(name)s has %(value)s %(category)s Traits, "
                                                                      "the most of the %(generation)sth generation "
                                                                      "(LotNR generation table)."),
                                                                   name=sheet.name, value=sheet.trait_total(category), category=category.capitalize(), generation=sheet.generation)))
        entry = _find(sheet.traits[category], name)
        if entry is not None:
            entry.count += 1
        else:
            sheet.traits[category].append(TraitEntry(name, 1))
    return _priced(what, cost, "xp_trait", refusals, table)


def _rating(label: str, setting: str, cost_name: str):
    """A pricer for one more level of a named rating (Ability, Background)."""

    def pricer(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
        name = request.name.strip()
        mapping = sheet.abilities if cost_name == "ability" else sheet.backgrounds
        highest = table.ability_max if cost_name == "ability" else BACKGROUND_MAX
        key = _key_of(mapping, name) or name
        level = mapping.get(key, 0)
        what = Phrase.message(N_("Ability %(name)s %(level)s") if cost_name == "ability" else
                              N_("Background %(name)s %(level)s"), name=key, level=level + 1)
        refusals = [] if name else [Refusal("unknown", Phrase.message(N_("Name the %(label)s to raise."), label=label))]
        if name and level >= highest:
            refusals.append(Refusal("out_of_range", Phrase.message(
                N_("%(key)s is at %(level)s: the most bought with experience is %(highest)s (setting ability_max).")
                if cost_name == "ability" else
                N_("%(key)s is at %(level)s: the most bought with experience is %(highest)s (Backgrounds)."),
                key=key, level=level, highest=highest)))
        if not refusals:
            mapping[key] = level + 1
        cost = table.cost(cost_name)
        return _priced(what, cost, setting, refusals, table)

    return pricer


def _willpower(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
    row = generation_row(sheet.generation) if sheet.creature == "vampire" else None
    what = Phrase.message(N_("Permanent Willpower %(n)s"), n=sheet.willpower_permanent + 1)
    refusals = []
    highest = row.willpower_max if row is not None else 10
    if sheet.willpower_permanent >= highest:
        refusals.append(Refusal("out_of_range", Phrase.message(
            N_("%(name)s has %(willpower)s Willpower, the most of the generation (%(highest)s).") if row else
            N_("%(name)s has %(willpower)s Willpower, the most kept (%(highest)s)."),
            name=sheet.name, willpower=sheet.willpower_permanent, highest=highest)))
    else:
        sheet.willpower_permanent += 1
    return _priced(what, table.cost("willpower"), "xp_willpower", refusals, table)


def _morality(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
    name = sheet.morality_name or "Humanity"
    what = Phrase.message(N_("%(morality)s %(n)s"), morality=Phrase.term(name), n=sheet.morality_rating + 1)
    refusals = []
    if sheet.morality_rating >= table.morality_max:
        refusals.append(Refusal("out_of_range", Phrase.message(N_("%(name)s is at %(morality_rating)s: the most "
                                                                  "bought with experience is %(morality_max)s "
                                                                  "(setting morality_max)."),
                                                               name=name, morality_rating=sheet.morality_rating, morality_max=table.morality_max)))
    else:
        sheet.morality_rating += 1
    return _priced(what, table.cost("morality"), "xp_morality", refusals, table)


def _power(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
    listed = _listed_power(request.discipline, request.name)
    refusals: list[Refusal] = []
    if listed is not None:
        discipline, power, level, levels = listed
        custom = False
    else:
        discipline, power, level, levels = request.discipline.strip(), request.name.strip(), request.level, {}
        custom = True
        if not discipline or not power:
            refusals.append(Refusal("unknown", Phrase.message(N_("Name the Discipline and the power."))))
        if level is None or not 1 <= level <= 9:
            refusals.append(Refusal("unknown", Phrase.message(N_("%(value)s is not in the Disciplines table: give "
                                                                 "its level (6 Elder to 9 Methuselah)."),
                                                              value=power or 'This power')))
            level = 1
    tier = tier_of(level)
    clan_side = in_clan(sheet.clan, discipline)
    cost = table.cost(f"power_{tier}") + (0 if clan_side else table.cost("out_of_clan_extra"))
    settings = (f"xp_power_{tier}",) + (() if clan_side else ("xp_out_of_clan_extra",))
    tier_said = Phrase.term(TIER_LABELS[tier])
    what = Phrase.message(N_("%(discipline)s: %(power)s (%(tier)s, in-clan)") if clan_side else
                          N_("%(discipline)s: %(power)s (%(tier)s, out-of-clan)"), discipline=discipline, power=power,
                          tier=tier_said)
    steps = [_step(Phrase.message(N_("%(power)s is a %(tier)s power of %(discipline)s (level %(level)s): %(points)s "
                                     "experience."), power=power, tier=tier_said, discipline=discipline, level=level,
                                  points=points_said(table.cost(f"power_{tier}"))), f"xp_power_{tier}", table)]
    if not clan_side:
        extra = points_said(table.cost("out_of_clan_extra"))
        steps.append(_step(Phrase.message(N_("%(discipline)s is not a Discipline of %(clan)s's "
                                             "(data/clan_disciplines.toml): %(points)s more."), discipline=discipline,
                                          clan=sheet.clan, points=extra) if sheet.clan else
                           Phrase.message(N_("%(discipline)s is not a Discipline of no clan's "
                                             "(data/clan_disciplines.toml): %(points)s more."), discipline=discipline,
                                          points=extra), "xp_out_of_clan_extra", table))
    held = [p for p in sheet.powers if _same_line(p, discipline, power)]
    if any(p.power.strip().lower() == power.lower() for p in held):
        refusals.append(Refusal("held", Phrase.message(N_("%(name)s already has %(discipline)s: %(power)s."),
                                                       name=sheet.name, discipline=discipline, power=power)))
    previous = _previous_tier(tier)
    if previous is not None and not refusals:
        if table.power_prerequisite == "every_lower" and levels:
            missing = [p for p, lv in sorted(levels.items(), key=lambda kv: kv[1])
                       if lv < level and not any(h.power.lower() == p.lower() for h in held)]
            if missing:
                refusals.append(Refusal("prerequisite", Phrase.message(N_("%(power)s needs every power of "
                                                                          "%(discipline)s below it first: "
                                                                          "%(value)s (setting power_prerequisite)."),
                                                                       power=power, discipline=discipline, value=', '.join(missing))))
        elif not any(p.level in TIER_LEVELS[previous] for p in held):
            line = _power_path(power)
            refusals.append(Refusal("prerequisite", Phrase.message(
                N_("%(power)s is %(tier)s: %(name)s needs %(previous)s power of %(discipline)s (%(line)s) first (setting "
                   "power_prerequisite).") if line else
                N_("%(power)s is %(tier)s: %(name)s needs %(previous)s power of %(discipline)s first (setting "
                   "power_prerequisite)."), power=power, tier=TIER_LABELS[tier], name=sheet.name,
                previous=_a(TIER_LABELS[previous]), discipline=discipline, line=line.title() if line else "")))
    if not refusals:
        sheet.powers.append(PowerEntry(discipline, power, level, custom))
    return what, cost, settings, refusals, steps, clan_side


def _ritual(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
    tier = request.tier.strip().lower()
    discipline = request.discipline.strip() or "Thaumaturgy"
    name = request.name.strip()
    refusals: list[Refusal] = []
    if tier not in RITUAL_TIERS:
        refusals.append(Refusal("unknown", Phrase.message(N_("Choose the Ritual's tier: %(value)s."),
                                                          value=', '.join(RITUAL_TIERS))))
        tier = "basic"
    if not name:
        refusals.append(Refusal("unknown", Phrase.message(N_("Name the Ritual."))))
    book = f"{discipline} Rituals"
    what = Phrase.message(N_("%(discipline)s Rituals: %(name)s (%(tier)s)"), discipline=discipline, name=name,
                          tier=Phrase.term(TIER_LABELS[tier]))
    cost = table.cost(f"ritual_{tier}")
    needs = RITUAL_NEEDS_LEVEL[tier]
    if any(p.discipline.lower() == book.lower() and p.power.lower() == name.lower() for p in sheet.powers):
        refusals.append(Refusal("held", Phrase.message(N_("%(name)s already knows %(name2)s."),
                                                       name=sheet.name, name2=name)))
    elif not refusals and sheet.discipline_level(discipline) < needs:
        refusals.append(Refusal("prerequisite", Phrase.message(N_("%(value)s Ritual needs %(value2)s power of "
                                                                  "%(discipline)s (level %(needs)s or more) first."),
                                                               value=_a(TIER_LABELS[tier]), value2=_a(TIER_LABELS[tier_of(needs)]), discipline=discipline, needs=needs)))
    if not refusals:
        sheet.powers.append(PowerEntry(book, name, needs, True))
    return what, cost, (f"xp_ritual_{tier}",), refusals, [_step(Phrase.message(_RITUAL_STEPS[tier],
                                                                               points=points_said(cost)),
                                                                f"xp_ritual_{tier}", table)], None


def _merit(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
    name = request.name.strip()
    traits = request.traits
    refusals = [] if name else [Refusal("unknown", Phrase.message(N_("Name the Merit.")))]
    if not 1 <= traits <= 7:
        refusals.append(Refusal("unknown", Phrase.message(N_("Give the Merit's cost in Traits (1 to 7)."))))
    what = Phrase.message(N_("Merit %(name)s (%(traits)s)"), name=name, traits=traits_of(traits))
    if _find(sheet.merits, name) is not None:
        refusals.append(Refusal("held", Phrase.message(N_("%(name)s already has the Merit %(name2)s."),
                                                       name=sheet.name, name2=name)))
    if not refusals:
        sheet.merits.append(QualityEntry(name, traits, request.key))
    cost = table.cost("merit_per_trait") * traits
    return what, cost, ("xp_merit_per_trait",), refusals, [_step(
        Phrase.message(N_("%(what)s: %(per)s per Trait, %(points)s experience."), what=what,
                       per=points_said(table.cost("merit_per_trait")), points=points_said(cost)),
        "xp_merit_per_trait", table)], None


def _struck_off(entries: list, entry: Any, refusal: Refusal) -> list[Refusal]:
    """``entry`` struck off the sheet's list ``entries``, or, when he has none (``None``), ``refusal``
    (that says so)."""
    if entry is None:
        return [refusal]
    entries.remove(entry)
    return []


def _remove_flaw(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
    flaw = _find(sheet.flaws, request.name)
    traits = flaw.cost if flaw is not None else 0
    what = Phrase.message(N_("Removing the Flaw %(name)s"), name=flaw.name if flaw else request.name.strip())
    refusals = _struck_off(sheet.flaws, flaw, Refusal("not_held", Phrase.message(
        N_("%(name)s has no Flaw %(value)s."), name=sheet.name, value=repr(request.name.strip()))))
    cost = table.cost("flaw_per_trait") * traits
    return what, cost, ("xp_flaw_per_trait",), refusals, [_step(
        Phrase.message(N_("%(what)s (%(n)s Traits): %(points)s experience."), what=what, n=traits,
                       points=points_said(cost)), "xp_flaw_per_trait", table)], None


def _remove_negative_trait(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
    category, refusals = _category(request)
    name = request.name.strip()
    what = Phrase.message(N_("Removing the Negative Trait %(name)s"), name=name)
    if not refusals:
        entry = _find(sheet.negative_traits[category], name)
        if entry is None:
            refusals.append(Refusal("not_held", Phrase.message(N_("%(name)s has no %(category)s Negative Trait "
                                                                  "%(name2)s."),
                                                               name=sheet.name, category=category.capitalize(), name2=repr(name))))
        elif entry.count > 1:
            entry.count -= 1
        else:
            sheet.negative_traits[category].remove(entry)
    return _priced(what, table.cost("remove_negative_trait"), "xp_remove_negative_trait", refusals, table)


def _remove_derangement(sheet: CharacterSheet, request: PurchaseRequest, table: CostTable):
    name = next((d for d in sheet.derangements if d.strip().lower() == request.name.strip().lower()), None)
    what = Phrase.message(N_("Removing the Derangement %(name)s"), name=name or request.name.strip())
    refusals = _struck_off(sheet.derangements, name, Refusal("not_held", Phrase.message(
        N_("%(name)s has no Derangement %(value)s."), name=sheet.name, value=repr(request.name.strip()))))
    return _priced(what, table.cost("derangement"), "xp_derangement", refusals, table)


_PRICERS = {
    "trait": _trait,
    "ability": _rating("Ability", "xp_ability", "ability"),
    "background": _rating("Background", "xp_background", "background"),
    "willpower": _willpower,
    "morality": _morality,
    "power": _power,
    "ritual": _ritual,
    "merit": _merit,
    "remove_flaw": _remove_flaw,
    "remove_negative_trait": _remove_negative_trait,
    "remove_derangement": _remove_derangement,
}


# ---------------------------------------------------------------- undo

def reverse_change(sheet: CharacterSheet, request: PurchaseRequest, bought: dict[str, Any],
                   before: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The sheet fields that take back an approved purchase: each field the approval changed
    (``bought``, its values after the approval; ``before``, its values before) is put back, provided
    the sheet still holds what the approval left there.

    Returns:
        ``(fields, refusal)``: the fields to write, or ``({}, why)`` when the sheet changed since
        (the organiser then changes the sheet by hand).
    """
    current = sheet.to_dict()
    for key, value in bought.items():
        if current.get(key) != value:
            return {}, (f"{sheet.name}'s sheet changed since the approval ({key.replace('_', ' ')}): "
                        "change it by hand in the sheet editor.")
    return {key: before[key] for key in bought if key in before}, None


def depends_on(later: PurchaseRequest, earlier: PurchaseRequest) -> bool:
    """Whether the approved purchase ``later`` needs ``earlier`` (so ``earlier`` is not undone while
    ``later`` stands): a further level of the same Trait, Ability, Background, Willpower or Humanity;
    a power of the same Discipline and path, or a Ritual of the same Discipline, bought after a power."""
    if earlier.kind == "power":
        if later.kind == "power":
            return (later.discipline.strip().lower() == earlier.discipline.strip().lower()
                    and _power_path(later.name) == _power_path(earlier.name))
        return later.kind == "ritual" and later.discipline.strip().lower() == earlier.discipline.strip().lower()
    if earlier.kind in ("willpower", "morality"):
        return later.kind == earlier.kind
    if earlier.kind in ("trait", "ability", "background"):
        return (later.kind == earlier.kind and later.name.strip().lower() == earlier.name.strip().lower()
                and later.category.strip().lower() == earlier.category.strip().lower())
    return False
