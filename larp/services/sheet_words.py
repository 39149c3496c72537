"""The words a sheet's change is said with in the reader's language (issue 36): how a change names a Trait, an
entry of a list, a list put in another order, and changes joined with "; ". Part of :mod:`larp.services.sheets`."""

from __future__ import annotations

from larp.rules.explain import N_, Phrase

#: How a change names a Trait (by list and category) and another entry (by list), for the reader's language.
TRAIT_LABELS = {
    ("traits", "physical"): N_("Physical Trait %(name)s"), ("traits", "social"): N_("Social Trait %(name)s"),
    ("traits", "mental"): N_("Mental Trait %(name)s"),
    ("negative_traits", "physical"): N_("Negative Physical Trait %(name)s"),
    ("negative_traits", "social"): N_("Negative Social Trait %(name)s"),
    ("negative_traits", "mental"): N_("Negative Mental Trait %(name)s"),
}
ENTRY_LABELS = {
    "abilities": N_("Ability %(name)s"), "backgrounds": N_("Background %(name)s"), "virtues": N_("Virtue %(name)s"),
    "tabletop": N_("Tabletop %(name)s"), "specialisations": N_("Specialisations of %(name)s"),
    "powers": N_("Power %(name)s"), "merits": N_("Merit %(name)s"), "flaws": N_("Flaw %(name)s"),
    "weapons": N_("Weapon %(name)s"), "armor": N_("Armor %(name)s"),
}
ORDER_LABELS = {"powers": N_("Order of powers"), "merits": N_("Order of merits"), "flaws": N_("Order of flaws"),
                "weapons": N_("Order of weapons"), "armor": N_("Order of armor")}


def joined(texts: list[Phrase]) -> Phrase | str:
    """``texts`` joined with "; " in the reader's language ("" for none)."""
    if not texts:
        return ""
    said = texts[0]
    for text in texts[1:]:
        said = Phrase.message(N_("%(first)s; %(second)s"), first=said, second=text)
    return said
