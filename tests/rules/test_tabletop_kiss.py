"""The Kiss at the tabletop (issue 37 item 12): resolved as a bite, with the same prior hold, but
no health levels of damage (000 "Close Combat Maneuvers": Bite; 003; 004 "Bite")."""

from __future__ import annotations

import pytest

from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings
from larp.rules.tabletop.combat import Attack, Circumstances, resolve_attack
from tests.rules.test_tabletop_combat import hits, kincaid, veronica

DARK_AGES = ChronicleSettings.from_overrides({"tabletop_profile": "dark_ages"})


@pytest.mark.parametrize("settings, hold", [(None, "hold"), (DARK_AGES, "grapple")])
def test_a_kiss_connects_as_a_bite_and_does_no_damage(settings, hold):
    """The bite's pool (Dexterity 4 + Brawl 2 + 1) and its hold; a hit marks no health level."""
    ruling = resolve_attack(Attack("kiss", kincaid(), veronica(), Circumstances(prior_hold=hold)), settings,
                            dice={"attack": hits(3, 7)})
    assert ruling.hit and ruling.attack_pool == 4 + 2 + 1
    assert ruling.levels == 0 and ruling.target_track.marked == 0
    bite = resolve_attack(Attack("bite", kincaid(), veronica(), Circumstances(prior_hold=hold)), settings,
                          dice={"attack": hits(3, 7), "damage": hits(2, 7)})
    assert bite.target_track.marked > 0  # the combat bite, for contrast


def test_a_kiss_needs_the_bites_prior_hold():
    with pytest.raises(RulesError) as err:
        resolve_attack(Attack("kiss", kincaid(), veronica()), dice={"attack": hits(3, 7)})
    assert err.value.field == "prior_hold"


def test_the_maker_of_a_clinch_may_kiss_as_he_may_bite():
    """000 "Clinch", "Bite": in a clinch only its maker may bite, and the Kiss is a bite."""
    from larp.rules.tabletop.holds import check_action
    from larp.rules.tabletop.maneuvers import profile_for
    from larp.rules.tabletop.turn import Hold, new_combat
    from dataclasses import replace

    combat = replace(new_combat([("a", "Anselm"), ("b", "Berit")]), holds=(Hold("a", "b", "clinch", 1),))
    profile = profile_for(ChronicleSettings.defaults())
    assert check_action(combat, "a", "kiss", "b", profile) is None
    with pytest.raises(RulesError):
        check_action(combat, "b", "kiss", "a", profile)
