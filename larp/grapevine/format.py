"""Grapevine 3's XML exchange format as data: the names the reader expects and the writer writes.

Read off the real files in ``../shared/real-data/grapevine/`` (the NPC library, ``one_of_each``,
``value_for_everything``, ``vampire_default_categories``; its README says where they come from)
and Grapevine 3.0's stock menus (``grapevine-menus-vampire-subset.json``: tiers, costs, play
statuses). Nothing here is copied from the menus beyond these names.

A file is ``<?xml version="1.0"?>`` (our export adds ``encoding="windows-1252"``) then ``<grapevine version="3">`` holding one element per
character, named after its creature. A character is attributes (scalars) and children in this
order: ``<experience>`` (with ``<entry>`` lines), the ``<traitlist>``s (each holding ``<trait
name val note>``), ``<boon>``s, ``<biography>`` and ``<notes>`` (CDATA). Grapevine writes
Windows-1252 without declaring it, CRLF line ends and two spaces of indent per level.

``larpclan`` is larp's own attribute, not Grapevine's: the free-text clan of a ghoul written as
Grapevine writes ghouls (``<vampire clan="Ghoul">``), which has no place for it. Grapevine 3's
reader (``XMLReaderClass``) files every attribute of a tag and asks only for the names it knows,
so it ignores the attribute; a mortal's is Grapevine's own ``association``.
"""

from __future__ import annotations

#: Grapevine's creature elements (Grapevine 3.0 writes these twelve).
CREATURE_ELEMENTS = (
    "vampire", "mortal", "werewolf", "mage", "changeling", "wraith",
    "mummy", "kueijin", "fera", "hunter", "demon", "various",
)
#: The creature elements read into sheets (the rules here are for vampires, ghouls and mortals).
SHEET_ELEMENTS = ("vampire", "mortal")
CREATURE_LABELS = {"kueijin": "kuei-jin"}

#: A character's attributes in the order Grapevine writes them (``value_for_everything.gex`` has
#: every vampire attribute; the NPC library's mortals every mortal one). ``temp*`` is written only
#: where the temporary value differs from the permanent one.
ATTRIBUTE_ORDER = {
    "vampire": (
        "name", "nature", "demeanor", "clan", "larpclan", "sect", "coterie", "sire", "generation", "title", "blood",
        "tempblood", "willpower", "tempwillpower", "conscience", "tempconscience", "selfcontrol",
        "tempselfcontrol", "courage", "tempcourage", "path", "pathtraits", "temppathtraits", "aura",
        "physicalmax", "player", "status", "id", "startdate", "narrator", "npc", "lastmodified",
    ),
    "mortal": (
        "name", "nature", "demeanor", "motivation", "association", "willpower", "tempwillpower", "humanity",
        "temphumanity", "conscience", "tempconscience", "selfcontrol", "tempselfcontrol", "courage",
        "tempcourage", "blood", "tempblood", "truefaith", "temptruefaith", "physicalmax", "player", "status",
        "id", "startdate", "narrator", "npc", "lastmodified",
    ),
}

#: Each list Grapevine writes, with the attributes it gives it (every real file agrees).
LIST_ATTRIBUTES = {
    "Physical": {"abc": "yes", "display": "1"},
    "Social": {"abc": "yes", "display": "1"},
    "Mental": {"abc": "yes", "display": "1"},
    "Negative Physical": {"abc": "yes", "negative": "yes", "display": "1"},
    "Negative Social": {"abc": "yes", "negative": "yes", "display": "1"},
    "Negative Mental": {"abc": "yes", "negative": "yes", "display": "1"},
    "Status": {"abc": "yes", "display": "1"},
    "Abilities": {"abc": "yes", "display": "1"},
    "Influences": {"abc": "yes", "display": "1"},
    "Backgrounds": {"abc": "yes", "display": "1"},
    "Health Levels": {"abc": "no", "display": "1"},
    "Bonds": {"abc": "yes", "display": "1"},
    "Miscellaneous": {"abc": "no", "display": "1"},
    "Beast Traits": {"abc": "no", "negative": "yes", "display": "1"},
    "Humanity": {"abc": "yes", "display": "1"},
    "Derangements": {"abc": "yes", "atomic": "yes", "negative": "yes", "display": "5"},
    "Disciplines": {"abc": "no", "atomic": "yes", "display": "5"},
    "Numina": {"abc": "no", "atomic": "yes", "display": "5"},
    "Rituals": {"abc": "no", "atomic": "yes", "display": "5"},
    "Merits": {"abc": "yes", "atomic": "yes", "display": "4"},
    "Flaws": {"abc": "yes", "atomic": "yes", "negative": "yes", "display": "4"},
    "Equipment": {"abc": "yes", "display": "1"},
    "Locations": {"abc": "yes", "atomic": "yes", "display": "5"},
}
#: A list's attributes in the order Grapevine writes them.
LIST_ATTRIBUTE_ORDER = ("name", "abc", "atomic", "negative", "display")
#: The lists of a vampire and of a mortal, in Grapevine's order (written even when empty).
LIST_ORDER = {
    "vampire": (
        "Physical", "Social", "Mental", "Negative Physical", "Negative Social", "Negative Mental", "Status",
        "Abilities", "Influences", "Backgrounds", "Health Levels", "Bonds", "Miscellaneous", "Derangements",
        "Disciplines", "Rituals", "Merits", "Flaws", "Equipment", "Locations",
    ),
    "mortal": (
        "Physical", "Social", "Mental", "Negative Physical", "Negative Social", "Negative Mental", "Abilities",
        "Influences", "Backgrounds", "Health Levels", "Humanity", "Derangements", "Numina", "Merits", "Flaws",
        "Equipment", "Locations",
    ),
}
#: The list holding Discipline powers: a vampire's Disciplines, a mortal's (a ghoul's) Numina.
POWER_LIST = {"vampire": "Disciplines", "mortal": "Numina"}
ADJECTIVE_LISTS = {"Physical": "physical", "Social": "social", "Mental": "mental"}
NEGATIVE_LISTS = {"Negative Physical": "physical", "Negative Social": "social", "Negative Mental": "mental"}
#: An entry's attributes in the order Grapevine writes them.
ENTRY_ATTRIBUTE_ORDER = ("name", "val", "note")

#: Health chart entries that are states after the last box, not boxes; the state each element ends with.
HEALTH_STATES = ("torpor", "mortally wounded", "dead", "destroyed", "dissipated")
DEFAULT_HEALTH_STATES = {"vampire": ("Torpor",), "mortal": ("Mortally Wounded",)}

#: A power's tier by its level (1 to 9): Grapevine's note for it and its experience cost (stock menus).
TIER_BY_LEVEL = {1: ("basic", 3), 2: ("basic", 3), 3: ("int.", 6), 4: ("int.", 6), 5: ("adv.", 9),
                 6: ("elder", 12), 7: ("master", 15), 8: ("asc.", 18), 9: ("meth.", 21)}

#: Grapevine's play statuses (stock menu "Character play status").
PLAY_STATUSES = ("Absent", "Active", "Dead", "Destroyed", "Harrowing", "Inactive", "Torpor", "Withering")

#: Experience history entry types (real-data README; Grapevine 3's ExperienceClass): the log's kind
#: for each, both ways. 2 (set earned) and 5 (set unspent) are kinds of their own (issue 27).
EXPERIENCE_KINDS = {0: "earned", 1: "lost", 2: "set_earned", 3: "spent", 4: "refunded", 5: "set_unspent",
                    6: "comment"}
EXPERIENCE_TYPES = {kind: number for number, kind in EXPERIENCE_KINDS.items()}
ENTRY_ATTRIBUTES = ("date", "change", "type", "reason", "earned", "unspent")
