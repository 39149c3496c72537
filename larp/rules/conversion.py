"""Converting characters between the tabletop game and the live game (LotNR; met-reference 4.3, T25).

Tabletop to live (LotNR "Converting Characters from Tabletop Play"):
- Attributes: drop the first dot, then one adjective Trait per remaining dot,
  in the Attribute's category; a rating of 0 or 1 calls for a Negative Trait of
  that category (T25: Stamina 5 gives 4 Physical Traits, Appearance 0 a
  Negative Social Trait). The player names the Traits; this gives the counts.
- Abilities: one level per dot (the stored LotNR text breaks off here; the
  one-to-one reading is the book's usual one and is marked as an assumption).
- Morality (Humanity or a Path): one Trait per two dots, rounded up in the
  character's favour (T25: Humanity 7 gives 4; T20: 7 or 8 give 4).
- Willpower: met-reference summarises it as "pro-rated to the generation's
  range" and gives T25: 7 dots at 10th generation are 4 Traits. Pro-rating
  to the 10th generation's table maximum (10) would give 7, so this takes one
  Trait per two dots, rounded up, capped at the generation's maximum - which
  gives T25's 4. It is marked approximate.
- Torpor: the length a torpor from wounds would last follows from the converted
  Morality on the chronicle's table (``torpor_table``: LotNR's by MET Traits, T20:
  tabletop Humanity 7 is MET 4, a week; or the tabletop chart by the dots themselves,
  two weeks), read as ``torpor_table_shift`` says (met-reference 5.2).
- Health: the tabletop chart and the live track both reach Incapacitated after
  seven levels, so the damage counts map one to one on the default track; with
  another number of Bruised levels or Mettle the character keeps his level
  (Healthy, Bruised, Wounded, Incapacitated).

Live to tabletop reverses these and is approximate throughout: a category's
Traits are spread over its three Attributes, and Morality and Willpower double.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import ceil
from typing import Any, Mapping

from larp.rules.dots import rating_to_dots
from larp.rules.explain import N_, Explanation, Phrase, RulesError, Step, levels as levels_of, phrase_step
from larp.rules.health import HealthTrack, tabletop_level_names, corresponding_position, live_levels, tabletop_chart
from larp.rules.settings import ChronicleSettings
from larp.tables import generation_row

_RULE = "LotNR Converting Characters (met-reference 4.3)"
#: Tabletop Attributes by live category (tabletop order within each).
ATTRIBUTE_CATEGORIES: dict[str, tuple[str, str, str]] = {
    "physical": ("Strength", "Dexterity", "Stamina"),
    "social": ("Charisma", "Manipulation", "Appearance"),
    "mental": ("Perception", "Intelligence", "Wits"),
}
_CATEGORY_OF = {attr: cat for cat, attrs in ATTRIBUTE_CATEGORIES.items() for attr in attrs}
#: An Attribute of 0 or 1, by its category: no Traits and a Negative Trait (a message each, for the
#: translators' agreement of gender and number).
_NEGATIVE_OWED = {
    "physical": N_("%(attribute)s %(dots)s: no Physical Traits, and a Negative Physical Trait."),
    "social": N_("%(attribute)s %(dots)s: no Social Traits, and a Negative Social Trait."),
    "mental": N_("%(attribute)s %(dots)s: no Mental Traits, and a Negative Mental Trait."),
}
#: "from 7 Physical Traits" (the live counts a tabletop dot was converted from), by category.
_FROM_TRAITS = {
    "physical": N_("%(attribute)s %(dots)s, from %(n)s Physical Traits"),
    "social": N_("%(attribute)s %(dots)s, from %(n)s Social Traits"),
    "mental": N_("%(attribute)s %(dots)s, from %(n)s Mental Traits"),
}


def _category_traits(category: str, count: int) -> Phrase:
    """"1 Physical Trait", "3 Social Traits", in the reader's language at the edge."""
    if category == "physical":
        return Phrase.counted(count, "%(n)s Physical Trait", "%(n)s Physical Traits")
    if category == "social":
        return Phrase.counted(count, "%(n)s Social Trait", "%(n)s Social Traits")
    return Phrase.counted(count, "%(n)s Mental Trait", "%(n)s Mental Traits")


def semicolons(phrases: list[Phrase]) -> Phrase:
    """``phrases`` joined with "; " (a list of what was converted)."""
    joined = phrases[0]
    for phrase in phrases[1:]:
        joined = Phrase.message(N_("%(first)s; %(second)s"), first=joined, second=phrase)
    return joined


@dataclass(frozen=True)
class TabletopCharacter:
    """A tabletop character's ratings, in dots.

    Attributes:
        attributes: Attribute name to dots (any of the nine; 0 to 10).
        abilities: Ability name to dots (1 to 10).
        morality: Humanity or Path dots (0 to 10).
        willpower: Willpower dots (0 to 10).
        generation: the vampire's generation, ``None`` for mortals and ghouls.
    """

    attributes: Mapping[str, int] = field(default_factory=dict)
    abilities: Mapping[str, int] = field(default_factory=dict)
    morality: int | None = None
    willpower: int | None = None
    generation: int | None = None


@dataclass(frozen=True)
class LiveCharacter:
    """A live character's counts, in Traits and levels.

    Attributes:
        traits: Traits per category ("physical", "social", "mental").
        negative_traits_owed: per category, the tabletop Attributes rated 0 or 1,
            each owing one Negative Trait of that category.
        abilities: Ability name to level.
        morality: Humanity or Path Traits.
        willpower: Willpower Traits.
        approximate: what the conversion could only estimate.
        steps: the explanation.
        torpor: how long a torpor from wounds lasts at the converted Morality, as the chronicle's
            torpor table says it ("a week"); ``None`` without a Morality rating.
    """

    traits: dict[str, int]
    negative_traits_owed: dict[str, tuple[str, ...]]
    abilities: dict[str, int]
    morality: int | None
    willpower: int | None
    approximate: tuple[str, ...]
    steps: tuple[Step, ...]
    torpor: str | None = None


def _dots(name: str, value: Any, low: int, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 10:
        raise RulesError(Phrase.message(N_("%(name)s must be %(low)s to 10 dots."), name=name, low=low),
                         field=field_name)
    return value


def tabletop_to_live(character: TabletopCharacter, settings: ChronicleSettings | None = None) -> LiveCharacter:
    """Convert a tabletop character's ratings to the live game's counts (LotNR; met-reference 4.3, T25),
    and say how long a torpor from wounds would last at the converted Morality (the chronicle's
    ``torpor_table`` and ``torpor_table_shift``; met-reference 5.2, T20).

    Args:
        character: the tabletop ratings, in dots.
        settings: the chronicle's settings (defaults if ``None``), for the torpor table.

    Raises:
        RulesError: an unknown Attribute, or ratings outside their range.
    """
    steps = Explanation()
    traits = {cat: 0 for cat in ATTRIBUTE_CATEGORIES}
    owed: dict[str, list[str]] = {cat: [] for cat in ATTRIBUTE_CATEGORIES}
    for name, value in character.attributes.items():
        if name not in _CATEGORY_OF:
            raise RulesError(Phrase.message(N_("%(name)s is not a tabletop Attribute."), name=repr(name)),
                             field="attributes")
        dots = _dots(name, value, 0, "attributes")
        category = _CATEGORY_OF[name]
        gained = max(0, dots - 1)
        traits[category] += gained
        if dots <= 1:
            owed[category].append(name)
            steps.add(_NEGATIVE_OWED[category], _RULE, attribute=Phrase.term(name), dots=dots)
        else:
            steps.add(N_("%(attribute)s %(dots)s: the first dot drops, %(traits)s."), _RULE, attribute=Phrase.term(name),
                      dots=dots, traits=_category_traits(category, gained))
    abilities = {}
    for name, value in character.abilities.items():
        abilities[name] = _dots(f"Ability {name}", value, 1, "abilities")
    if abilities:
        steps.add(N_("Abilities convert one level per dot (%(n)s Abilities)."), _RULE, n=len(abilities))
    approximate = [Phrase.message(N_("Abilities: one level per dot (assumed; the stored LotNR text breaks off)"))
                   ] if abilities else []
    morality = None
    torpor = None
    if character.morality is not None:
        dots = _dots("Morality", character.morality, 0, "morality")
        morality = ceil(dots / 2)
        steps.add(N_("Morality %(dots)s dots: one Trait per two dots, rounded up: %(traits)s."), _RULE, dots=dots,
                  traits=morality)
        torpor = _torpor_after(morality, dots, settings or ChronicleSettings.defaults(), steps)
    willpower = None
    if character.willpower is not None:
        dots = _dots("Willpower", character.willpower, 0, "willpower")
        willpower = ceil(dots / 2)
        row = generation_row(character.generation)
        if row is not None and willpower > row.willpower_max:
            steps.add(N_("Willpower %(dots)s dots: one Trait per two dots, rounded up: %(traits)s, capped at generation "
                         "%(generation)s's maximum of %(most)s."), _RULE, dots=dots, traits=willpower,
                      generation=character.generation, most=row.willpower_max)
            willpower = row.willpower_max
        else:
            steps.add(N_("Willpower %(dots)s dots: one Trait per two dots, rounded up: %(traits)s."), _RULE, dots=dots,
                      traits=willpower)
        approximate.append(Phrase.message(N_("Willpower: halved, rounded up, within the generation's maximum")))
    return LiveCharacter(traits, {k: tuple(v) for k, v in owed.items()}, abilities, morality, willpower,
                         tuple(approximate), steps.steps(), torpor)


def _torpor_after(met_rating: int, dots: int, settings: ChronicleSettings, steps: Explanation) -> str:
    """The length of a torpor from wounds at the converted Morality, on the chronicle's table
    (met-reference 5.2, T20): LotNR's reads the MET Traits, the tabletop chart the dots."""
    from larp.rules.torpor.lengths import torpor_row, torpor_table

    table = torpor_table(settings["torpor_table"])
    rating = met_rating if table.key == "live" else min(dots, table.highest)
    row = torpor_row(rating, table, settings["torpor_table_shift"])
    at = (N_("Torpor from wounds at %(rating)s MET Traits: %(length)s (%(table)s).") if table.key == "live" else
          N_("Torpor from wounds at %(rating)s dots: %(length)s (%(table)s)."))
    steps.add(at, table.source, "torpor_table", rating=rating, length=Phrase.term(row.text),
              table=Phrase.term(settings.label("torpor_table")))
    return row.text


def live_to_tabletop(traits: Mapping[str, int], abilities: Mapping[str, int] | None = None,
                     morality: int | None = None, willpower: int | None = None) -> TabletopCharacter:
    """Convert live counts back to tabletop dots; approximate throughout.

    Each category's Traits are spread evenly over its three Attributes (in
    tabletop order, the first ones taking any remainder), each getting the
    dropped first dot back, at most 10; Abilities keep their level, at most 10;
    Morality and Willpower double, at most 10 (the forward conversion rounds
    up, so an odd tabletop rating comes back one higher). Negative Traits are
    not converted back.

    Raises:
        RulesError: an unknown category or a negative count.
    """
    attributes: dict[str, int] = {}
    for category, count in traits.items():
        if category not in ATTRIBUTE_CATEGORIES:
            raise RulesError(Phrase.message(N_("Unknown Trait category %(category)s."), category=repr(category)),
                             field="traits")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RulesError(Phrase.message(N_("%(category)s Traits must be a count of at least 0."),
                                            category=category.capitalize()), field="traits")
        share, extra = divmod(count, 3)
        for index, name in enumerate(ATTRIBUTE_CATEGORIES[category]):
            attributes[name] = min(10, 1 + share + (1 if index < extra else 0))
    for name, value in (("morality", morality), ("willpower", willpower)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise RulesError(Phrase.message(N_("%(name)s must be a count of at least 0."), name=name.capitalize()),
                             field=name)
    levels = {}
    for name, value in (abilities or {}).items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RulesError(Phrase.message(N_("Ability %(name)s needs a level of at least 1."), name=name),
                             field="abilities")
        levels[name] = min(10, value)
    return TabletopCharacter(
        attributes=attributes, abilities=levels,
        morality=None if morality is None else rating_to_dots(morality),
        willpower=None if willpower is None else rating_to_dots(willpower),
    )


def tabletop_chart_to_live(aggravated: int = 0, lethal: int = 0, bashing: int = 0, *, creature: str = "vampire",
                           settings: ChronicleSettings | None = None, mettle: bool = False,
                           who: str = "The character") -> tuple[HealthTrack, tuple[Step, ...]]:
    """Carry marks from the tabletop Health chart to the live track (met-reference 4.3).

    The chart's boxes hold aggravated above lethal above bashing (000
    "Applying Damage"). On the default live track the counts map one to one;
    otherwise the character keeps his level and the marks are taken from the
    top of the chart (dropping, or repeating, the lowest).

    Args:
        aggravated, lethal, bashing: boxes marked on the tabletop chart (7 at most).
        creature: "vampire", "ghoul" or "mortal".
        settings: the chronicle's settings (``bruised_levels``).
        mettle: the character has Fortitude's Mettle (one more Healthy level).

    Raises:
        RulesError: negative counts or more marks than the chart's seven boxes.
    """
    settings = settings or ChronicleSettings.defaults()
    counts = (aggravated, lethal, bashing)
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        raise RulesError(Phrase.message(N_("Marks are counts of at least 0.")), field="marks")
    chart = tabletop_chart()
    total = sum(counts)
    if total > len(chart.levels):
        raise RulesError(Phrase.message(N_("The tabletop chart has %(value)s boxes; %(total)s marks do not fit."),
                                        value=len(chart.levels), total=total),
                         field="marks")
    levels = live_levels(settings, mettle=mettle)
    position, exact = corresponding_position(tabletop_level_names(chart), total, levels)
    kinds = ["aggravated"] * aggravated + ["lethal"] * lethal + ["bashing"] * bashing
    kinds = kinds[:position] + [kinds[-1]] * max(0, position - len(kinds)) if kinds else []
    track = HealthTrack(levels=levels, aggravated=kinds.count("aggravated"), lethal=kinds.count("lethal"),
                        bashing=kinds.count("bashing"), creature=creature)
    steps = Explanation()
    chart_level = chart.levels[total - 1].name if total else chart.unmarked
    said = (N_("%(name)s is %(level)s on the tabletop chart (%(boxes)s box(es)): %(live)s on the live track (%(levels)s "
               "marked).") if exact else
            N_("%(name)s is %(level)s on the tabletop chart (%(boxes)s box(es)): %(live)s on the live track (%(levels)s "
               "marked), approximately: the tracks differ."))
    steps.add(said, "met-reference 4.3", name=Phrase.message(N_("The character")) if who == "The character" else who,
              level=Phrase.term(chart_level), boxes=total, live=Phrase.term(track.state()),
              levels=levels_of(track.marked))
    return track, steps.steps()


@dataclass(frozen=True)
class TabletopRatings:
    """A character's tabletop dots for a tabletop rule: the sheet's, and what was converted from his
    live counts because the sheet has no dots for it (LotNR Converting Characters, met-reference 4.3).

    Attributes:
        attributes: the nine Attributes in dots.
        morality: Humanity or Path dots.
        willpower: Willpower dots.
        converted: what was converted, as sentences ("Dexterity 3, converted from 7 Physical Traits").
    """

    attributes: dict[str, int]
    morality: int
    willpower: int
    converted: tuple[Phrase, ...] = ()

    def steps(self, who: str) -> tuple[Step, ...]:
        """One step naming what was converted (none when the sheet had every dot)."""
        if not self.converted:
            return ()
        return (phrase_step(N_("%(name)s has no tabletop dots for these, converted from the live sheet (approximate): "
                               "%(converted)s."), _RULE, name=who, converted=semicolons(list(self.converted))),)


def tabletop_ratings(dots: Mapping[str, int], traits: Mapping[str, int], morality: int, willpower: int,
                     morality_name: str = "Humanity") -> TabletopRatings:
    """The tabletop dots a tabletop rule needs (the tabletop turn, the torpor table, the Awakening
    roll): the sheet's own dots where it has them, else converted from the live counts by
    :func:`live_to_tabletop` and said to be converted (met-reference 4.3, T25).

    Args:
        dots: the sheet's tabletop dots (Attributes, ``morality_name``, "Willpower"), maybe none.
        traits: the sheet's Traits per category (permanent, not tonight's).
        morality: Humanity or Path in MET Traits; willpower: permanent Willpower Traits.

    Raises:
        RulesError: a negative count.
    """
    live = live_to_tabletop({cat: traits.get(cat, 0) for cat in ATTRIBUTE_CATEGORIES}, None, morality, willpower)
    attributes: dict[str, int] = {}
    converted: list[Phrase] = []
    for category, names in ATTRIBUTE_CATEGORIES.items():
        for name in names:
            value = dots.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                attributes[name] = value
            else:
                attributes[name] = live.attributes[name]
                converted.append(Phrase.message(_FROM_TRAITS[category], attribute=Phrase.term(name),
                                                dots=attributes[name], n=traits.get(category, 0)))
    own_morality = dots.get(morality_name)
    if isinstance(own_morality, int) and not isinstance(own_morality, bool):
        morality_dots = own_morality
    else:
        morality_dots = live.morality or 0
        converted.append(Phrase.message(N_("%(morality)s %(dots)s, from %(n)s MET Traits"), morality=Phrase.term(morality_name),
                                        dots=morality_dots, n=morality))
    own_willpower = dots.get("Willpower")
    if isinstance(own_willpower, int) and not isinstance(own_willpower, bool):
        willpower_dots = own_willpower
    else:
        willpower_dots = live.willpower or 0
        converted.append(Phrase.message(N_("Willpower %(dots)s, from %(n)s Traits"), dots=willpower_dots, n=willpower))
    return TabletopRatings(attributes, morality_dots, willpower_dots, tuple(converted))
