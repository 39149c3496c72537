"""Tests of tabletop/live conversion (LotNR "Converting Characters"; met-reference 4.3, T20, T25)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from larp.rules.conversion import (
    TabletopCharacter,
    live_to_tabletop,
    tabletop_chart_to_live,
    tabletop_to_live,
)
from larp.rules.explain import RulesError
from larp.rules.health import tabletop_view
from larp.rules.settings import ChronicleSettings


def test_t25_stamina_five_four_physical_traits():
    """met-reference T25: tabletop Stamina 5 gives 4 Physical Traits (the first dot drops)."""
    live = tabletop_to_live(TabletopCharacter(attributes={"Stamina": 5}))
    assert live.traits == {"physical": 4, "social": 0, "mental": 0}


def test_t25_appearance_zero_negative_social_trait():
    """met-reference T25: Appearance 0 calls for a Negative Social Trait (as does a rating of 1)."""
    live = tabletop_to_live(TabletopCharacter(attributes={"Appearance": 0, "Wits": 1}))
    assert live.negative_traits_owed == {"physical": (), "social": ("Appearance",), "mental": ("Wits",)}
    assert live.traits["social"] == 0


def test_t25_willpower_seven_at_tenth_generation_four_traits():
    """met-reference T25: Willpower 7 dots at 10th generation gives 4 Traits."""
    live = tabletop_to_live(TabletopCharacter(willpower=7, generation=10))
    assert live.willpower == 4
    assert any("Willpower" in a for a in live.approximate)


def test_willpower_capped_at_generation_maximum():
    """LotNR generation table (met-reference 5.1): converted Willpower stays within the generation's maximum."""
    assert tabletop_to_live(TabletopCharacter(willpower=10, generation=13)).willpower == 5
    assert tabletop_to_live(TabletopCharacter(willpower=10, generation=4)).willpower == 5


def test_t25_and_t20_humanity_halved_rounding_up():
    """met-reference T25: Humanity 7 gives 4; T20: tabletop 7 or 8 is MET Humanity 4; LotNR rounds up."""
    assert [tabletop_to_live(TabletopCharacter(morality=m)).morality for m in (7, 8, 5, 1, 0)] == [4, 4, 3, 1, 0]


def test_abilities_one_level_per_dot():
    """LotNR "Converting Tabletop Abilities" (assumed one to one): Brawl 3 is Brawl x3."""
    live = tabletop_to_live(TabletopCharacter(abilities={"Brawl": 3, "Dodge": 1}))
    assert live.abilities == {"Brawl": 3, "Dodge": 1}


def test_whole_character():
    """met-reference 4.3: nine Attributes convert per category."""
    dots = {"Strength": 3, "Dexterity": 4, "Stamina": 2, "Charisma": 2, "Manipulation": 3, "Appearance": 1,
            "Perception": 2, "Intelligence": 3, "Wits": 3}
    live = tabletop_to_live(TabletopCharacter(attributes=dots))
    assert live.traits == {"physical": 6, "social": 3, "mental": 5}


def test_bad_ratings_name_the_field():
    """House style: an unknown Attribute or impossible dots raise RulesError naming the field."""
    with pytest.raises(RulesError) as err:
        tabletop_to_live(TabletopCharacter(attributes={"Luck": 3}))
    assert err.value.field == "attributes"
    with pytest.raises(RulesError) as err:
        tabletop_to_live(TabletopCharacter(morality=11))
    assert err.value.field == "morality"


def test_back_to_tabletop_is_approximate():
    """met-reference 4.3 reversed: Traits spread over the category's Attributes, Morality and Willpower doubled."""
    tabletop = live_to_tabletop({"physical": 7, "social": 3, "mental": 0}, {"Brawl": 2}, morality=4, willpower=4)
    assert [tabletop.attributes[a] for a in ("Strength", "Dexterity", "Stamina")] == [4, 3, 3]
    assert [tabletop.attributes[a] for a in ("Perception", "Intelligence", "Wits")] == [1, 1, 1]
    assert (tabletop.morality, tabletop.willpower, tabletop.abilities) == (8, 8, {"Brawl": 2})


@given(st.integers(0, 27), st.integers(0, 27), st.integers(0, 27))
def test_property_traits_survive_the_round_trip(p, s, m):
    """met-reference 4.3: converting Traits to dots and back keeps every category's count."""
    tabletop = live_to_tabletop({"physical": p, "social": s, "mental": m})
    assert tabletop_to_live(tabletop).traits == {"physical": p, "social": s, "mental": m}


def test_tabletop_chart_to_live_one_to_one():
    """met-reference 4.3: tabletop boxes 1 Healthy, 2-4 Bruised, 5-6 Wounded, 7 Incapacitated."""
    expected = {0: "Healthy", 1: "Healthy", 2: "Bruised", 3: "Bruised", 4: "Bruised", 5: "Wounded", 6: "Wounded",
                7: "Incapacitated"}
    for boxes, level in expected.items():
        track, steps = tabletop_chart_to_live(lethal=boxes)
        assert (track.state(), track.marked) == (level, boxes)
        assert "approximately" not in steps[0].text


def test_veronica_chart_carried_to_the_live_track():
    """000 "Applying Damage" with met-reference 4.3: X in Bruised, Hurt, Injured and "/" in Wounded become three
    aggravated and one bashing on the live track, shown the same way on the tabletop view."""
    track, _ = tabletop_chart_to_live(aggravated=3, bashing=1)
    assert (track.aggravated, track.bashing, track.state()) == (3, 1, "Bruised")
    assert [b["mark"] for b in tabletop_view(track)["boxes"]][:4] == ["X", "X", "X", "/"]


def test_chart_to_a_shorter_live_track_keeps_the_level():
    """met-reference 4.3: with two Bruised levels the character keeps his level; the map is approximate."""
    two = ChronicleSettings.from_overrides({"bruised_levels": 2})
    track, steps = tabletop_chart_to_live(lethal=7, settings=two)
    assert track.state() == "Incapacitated" and track.marked == 6
    assert "approximately" in steps[0].text
    with pytest.raises(RulesError):
        tabletop_chart_to_live(lethal=8)


def test_t20_the_converted_morality_gives_the_torpor_length():
    """Issue 30 item 7; met-reference T20 and 5.2: tabletop Humanity 7 converts to MET Humanity 4, whose torpor
    from wounds lasts a week on LotNR's table (the default torpor_table); on the tabletop chart the dots
    themselves are read: two weeks. No Morality, no length."""
    live = tabletop_to_live(TabletopCharacter(morality=7))
    assert (live.morality, live.torpor) == (4, "a week")
    assert any(s.setting == "torpor_table" and "a week" in s.text for s in live.steps)
    chart = tabletop_to_live(TabletopCharacter(morality=7), ChronicleSettings.from_overrides({"torpor_table": "tabletop"}))
    assert chart.torpor == "two weeks"
    assert tabletop_to_live(TabletopCharacter(willpower=3)).torpor is None
