"""A stale sheet form rebuilt on the stored sheet (new-user test 12, finding 2):
:func:`larp.services.sheet_merge.rebase_form`, entry by entry."""

from __future__ import annotations

from larp.services.sheet_merge import rebase_form


def test_abilities_and_powers_keep_both_screens_entries_and_name_a_collision():
    """Each screen's own entries survive; an entry both changed apart shows the stored value and is
    listed with this screen's value."""
    seen = {"abilities": {"Brawl": 2, "Melee": 1},
            "powers": [{"discipline": "Celerity", "power": "Alacrity", "level": 1, "custom": False}]}
    theirs = {"abilities": {"Brawl": 3, "Melee": 1, "Dodge": 1},
              "powers": [{"discipline": "Celerity", "power": "Alacrity", "level": 1, "custom": False},
                         {"discipline": "Potence", "power": "Prowess", "level": 1, "custom": False}]}
    mine = {"abilities": {"Brawl": "4", "Melee": "1", "Occult": "2"},
            "powers": [{"discipline": "Celerity", "power": "Alacrity", "level": "1", "custom": False},
                       {"discipline": "Presence", "power": "Awe", "level": "1", "custom": False}]}
    out = rebase_form(seen, mine, theirs)
    assert out.data["abilities"] == {"Brawl": 3, "Melee": 1, "Dodge": 1, "Occult": "2"}
    assert [p["power"] for p in out.data["powers"]] == ["Alacrity", "Prowess", "Awe"]
    assert out.collisions == ["abilities"] and out.yours["abilities"]["Brawl"] == "4"


def test_a_removal_on_one_screen_is_kept_when_the_other_did_not_touch_the_entry():
    """A Trait this screen removed stays removed; one the other screen removed is not put back."""
    seen = {"traits": {"physical": [{"name": "Quick", "count": 1}, {"name": "Lithe", "count": 1}]}}
    theirs = {"traits": {"physical": [{"name": "Quick", "count": 1}]}}
    mine = {"traits": {"physical": [{"name": "Lithe", "count": "1"}], "social": [], "mental": []}}
    out = rebase_form(seen, mine, theirs)
    assert out.data["traits"]["physical"] == [] and not out.collisions
