"""The words of a character sheet's change records as phrases (issue 36 item 1): each field's label,
each value as the editor shows it ("×2", "—", "level 3 (custom)", "3 Traits") and the change sentence
"Ability Brawl: 2 → 3", written in English and kept with their message ids and parameters, so that a
character's history reads in whoever's language opens it. Names, Traits, notes and every other word the
chronicle typed stay as written (parameters, never translated).
"""

from __future__ import annotations

from typing import Any, Iterable

from larp.rules.explain import N_, Phrase, levels, traits

#: "—": a field or entry that is absent (before it was added, after it was removed).
ABSENT = "—"

#: The label of one entry of a keyed field, by the field's key ("Ability Brawl", "Merit Ally").
ENTRY_LABELS = {
    "abilities": N_("Ability %(name)s"), "backgrounds": N_("Background %(name)s"), "virtues": N_("Virtue %(name)s"),
    "tabletop": N_("Tabletop %(name)s"), "specialisations": N_("Specialisations of %(name)s"),
    "powers": N_("Power %(name)s"), "merits": N_("Merit %(name)s"), "flaws": N_("Flaw %(name)s"),
    "weapons": N_("Weapon %(name)s"), "armor": N_("Armor %(name)s"),
}
#: "Order of powers" and its kin: the same entries in another order.
ORDER_LABELS = {
    "powers": N_("Order of powers"), "merits": N_("Order of merits"), "flaws": N_("Order of flaws"),
    "weapons": N_("Order of weapons"), "armor": N_("Order of armor"),
}


#: A Trait's label by sheet key and category ("Physical Trait Brawny"), each whole so that a language can
#: agree the category's word with its word for Trait.
TRAIT_LABELS = {
    ("traits", "physical"): N_("Physical Trait %(name)s"), ("traits", "social"): N_("Social Trait %(name)s"),
    ("traits", "mental"): N_("Mental Trait %(name)s"),
    ("negative_traits", "physical"): N_("Negative Physical Trait %(name)s"),
    ("negative_traits", "social"): N_("Negative Social Trait %(name)s"),
    ("negative_traits", "mental"): N_("Negative Mental Trait %(name)s"),
}
#: How many Traits of a category a new character has ("3 Physical").
TRAIT_TOTALS = {"physical": N_("%(count)s Physical"), "social": N_("%(count)s Social"),
                "mental": N_("%(count)s Mental")}


def trait_label(key: str, category: str, name: str) -> Phrase:
    """"Physical Trait Brawny", "Negative Social Trait Naive" (``key`` "traits" or "negative_traits")."""
    return Phrase.message(TRAIT_LABELS[(key, category)], name=name)


def trait_total(category: str, count: int) -> Phrase:
    """"3 Physical": a category's Traits."""
    return Phrase.message(TRAIT_TOTALS[category], count=count)


def entry_label(key: str, name: str) -> Phrase:
    """"Ability Brawl", "Power Celerity: Rapidity", "Armor Ballistic vest"."""
    return Phrase.message(ENTRY_LABELS[key], name=name)


def order_label(key: str) -> Phrase:
    """"Order of weapons"."""
    return Phrase.message(ORDER_LABELS[key])


def field_label(key: str, label: str) -> str:
    """A plain field's label (:data:`larp.sheet_checks.FIELD_LABELS`, marked for the catalogues): "Blood
    pool"; a field without one keeps its English name."""
    return Phrase.message(label) if label else key.replace("_", " ").capitalize()


def count(number: int) -> Phrase:
    """"×2": how many times a Trait is held."""
    return Phrase.message(N_("×%(count)s"), count=number)


def listed(items: Iterable[Any]) -> Phrase:
    """Several values joined with ", " (health levels said with the glossary's words; a chronicle's own
    words as written)."""
    return Phrase({"msg": "%(items)s", "params": {"items": [Phrase.term(str(item)).data() for item in items]}})


def yes_no(value: bool) -> Phrase:
    """"yes" or "no"."""
    return Phrase.message(N_("yes") if value else N_("no"))


def power(level: Any, custom: bool) -> Phrase:
    """"level 3", "level 3 (custom)": a Discipline power's entry."""
    return Phrase.message(N_("level %(level)s (custom)") if custom else N_("level %(level)s"), level=level)


def quality(cost: int) -> Phrase:
    """"3 Traits": a Merit's or Flaw's cost."""
    return traits(cost)


def weapon(entry: dict[str, Any]) -> Phrase:
    """"+2, 2 lethal, Concealable (note)": a weapon card's bonus, damage and specials (the card's own
    words as written)."""
    said = Phrase.message(N_("+%(bonus)s, %(damage)s %(kind)s"), bonus=entry["bonus_traits"], damage=entry["damage"],
                          kind=Phrase.term(entry["damage_type"]))
    if entry.get("specials"):
        said = Phrase.message(N_("%(card)s, %(specials)s"), card=said, specials=", ".join(entry["specials"]))
    return noted(said, entry.get("note"))


def armor(entry: dict[str, Any]) -> Phrase:
    """"2 levels, torso, arms (patched)": an armor's rating and what it covers."""
    said = levels(entry["rating"])
    if entry.get("covers"):
        said = Phrase.message(N_("%(rating)s, %(covers)s"), rating=said, covers=", ".join(entry["covers"]))
    return noted(said, entry.get("note"))


def noted(said: Phrase, note: str | None) -> Phrase:
    """``said`` with the chronicle's note in brackets, when there is one."""
    return Phrase.message(N_("%(entry)s (%(note)s)"), entry=said, note=note) if note else said


def change(label: str, before: str, after: str) -> Phrase:
    """"Ability Brawl: 2 → 3": one field before and after."""
    return Phrase.message(N_("%(label)s: %(before)s → %(after)s"), label=label, before=before, after=after)


def joined(phrases: list[Phrase]) -> Phrase:
    """Changes joined with "; " (their order kept)."""
    said = phrases[0]
    for phrase in phrases[1:]:
        said = Phrase.message(N_("%(first)s; %(second)s"), first=said, second=phrase)
    return said


def sheet_summary(name: str, changes: list[Phrase]) -> Phrase:
    """"Konrad Vale's sheet: Physical Trait Brawny: ×2 → ×3", the first three changes and how many more."""
    if len(changes) <= 3:
        return Phrase.message(N_("%(name)s's sheet: %(changes)s"), name=name, changes=joined(changes))
    return Phrase.message(N_("%(name)s's sheet: %(changes)s and %(more)s more"), name=name,
                          changes=joined(changes[:3]), more=len(changes) - 3)


def experience_spent(points: str, what: str | Phrase) -> Phrase:
    """"6 experience spent: Ability Brawl: 2 → 3." (``points`` as a person writes them)."""
    return Phrase.message(N_("%(points)s experience spent: %(what)s."), points=points, what=what)


#: "the sheet": what experience was spent on when the edit names nothing.
THE_SHEET = N_("the sheet")
#: The two sides of a change of order only.
AS_BEFORE, CHANGED = Phrase.message(N_("as before")), Phrase.message(N_("changed"))


def copies(count: int, original: str, names: list[str], scene_extra: bool, extra_track: bool) -> Phrase:
    """"2 copies of Konrad Vale: Thug 1 to Thug 2 (scene extras), each with an extra's health track."."""
    label = names[0] if count == 1 else Phrase.message(N_("%(first)s to %(last)s"), first=names[0], last=names[-1])
    if scene_extra and extra_track:
        return Phrase.counted(
            count, "%(n)s copy of %(original)s: %(names)s (scene extras), each with an extra's health track.",
            "%(n)s copies of %(original)s: %(names)s (scene extras), each with an extra's health track.",
            original=original, names=label)
    if scene_extra:
        return Phrase.counted(count, "%(n)s copy of %(original)s: %(names)s (scene extras).",
                              "%(n)s copies of %(original)s: %(names)s (scene extras).", original=original, names=label)
    if extra_track:
        return Phrase.counted(count, "%(n)s copy of %(original)s: %(names)s, each with an extra's health track.",
                              "%(n)s copies of %(original)s: %(names)s, each with an extra's health track.",
                              original=original, names=label)
    return Phrase.counted(count, "%(n)s copy of %(original)s: %(names)s.", "%(n)s copies of %(original)s: %(names)s.",
                          original=original, names=label)


def deleted(count: int, names: str, alone: int, shared: int, extras: bool) -> tuple[Phrase, Phrase]:
    """The summary and step of characters deleted (``extras``: scene extras removed): "1 character
    deleted: Lys Moreau." and "Lys Moreau deleted; 0 rulings that concerned only them deleted, 0 shared
    rulings kept without them."."""
    if extras:
        summary = Phrase.counted(count, "%(n)s character removed as scene extras: %(names)s.",
                                 "%(n)s characters removed as scene extras: %(names)s.", names=names)
        what = N_("%(names)s removed as scene extras; %(alone)s, %(shared)s.")
    else:
        summary = Phrase.counted(count, "%(n)s character deleted: %(names)s.", "%(n)s characters deleted: %(names)s.",
                                 names=names)
        what = N_("%(names)s deleted; %(alone)s, %(shared)s.")
    step = Phrase.message(what, names=names, alone=Phrase.counted(
        alone, "%(n)s ruling that concerned only them deleted", "%(n)s rulings that concerned only them deleted"),
        shared=Phrase.counted(shared, "%(n)s shared ruling kept without them", "%(n)s shared rulings kept without them"))
    return summary, step
