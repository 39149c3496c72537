"""Tests of the health track (000/001 "Applying Damage", "Health"; 002 "Damage and Healing"; met-reference 4)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from larp.rules.explain import RulesError
from larp.rules.health import (
    DAMAGE_TYPES,
    HealthTrack,
    apply_damage,
    destroy,
    extra_levels,
    health_views,
    live_levels,
    live_view,
    new_track,
    regain_consciousness,
    remove_stake,
    stake,
    tabletop_chart,
    tabletop_dice_penalty,
    tabletop_view,
    track_for_sheet,
)
from larp.rules.settings import ChronicleSettings
from larp.sheet import CharacterSheet

DEFAULT = ChronicleSettings.defaults()


def model(name):
    """Settings with below_incapacitated_model ``name``."""
    return ChronicleSettings.from_overrides({"below_incapacitated_model": name})


def hit(track, kind, levels, settings=DEFAULT, **kw):
    """Apply damage to Dracos."""
    return apply_damage(track, kind, levels, "Dracos", settings, **kw)


def dracos_incapacitated():
    """met-reference T9: kick 1 bashing, shot 2 lethal, shot 2 lethal, knife with Potence 2 lethal."""
    track = new_track()
    for kind, levels in (("bashing", 1), ("lethal", 2), ("lethal", 2), ("lethal", 2)):
        track = hit(track, kind, levels).track
    return track


# ---------------------------------------------------------------- the tracks

def test_live_track_default_levels():
    """met-reference 4.1 (LotNR Health): Healthy x2, Bruised x3, Wounded x2, Incapacitated."""
    assert live_levels(DEFAULT) == ("Healthy", "Healthy", "Bruised", "Bruised", "Bruised",
                                    "Wounded", "Wounded", "Incapacitated")


def test_bruised_levels_setting_changes_the_track():
    """met-reference 8.2 #1: the number of Bruised levels is the chronicle setting bruised_levels."""
    levels = live_levels(ChronicleSettings.from_overrides({"bruised_levels": 2}))
    assert levels.count("Bruised") == 2 and len(levels) == 7


def test_mettle_adds_a_healthy_level():
    """met-reference 3.5: Mettle adds one health level that works like an extra Healthy box."""
    sheet = CharacterSheet.from_dict({"name": "Liselle", "powers": [
        {"discipline": "Fortitude", "power": "Endurance", "level": 1},
        {"discipline": "Fortitude", "power": "Mettle", "level": 2}]})
    track = track_for_sheet(sheet)
    assert track.levels.count("Healthy") == 3 and track.size == 9
    track = hit(track, "lethal", 7).track
    assert track.state() == "Wounded"  # without Mettle 7 levels would be Incapacitated


def test_tabletop_chart_data():
    """000 "Health Chart": seven levels, dice penalties 0, -1, -1, -2, -2, -5, and none at Incapacitated."""
    chart = tabletop_chart()
    assert [r.name for r in chart.levels] == ["Bruised", "Hurt", "Injured", "Wounded", "Mauled", "Crippled",
                                              "Incapacitated"]
    assert [r.penalty for r in chart.levels] == [0, -1, -1, -2, -2, -5, None]
    assert "crawl" in chart.levels[5].movement


def test_extras_have_four_levels():
    """000 "Optional Rule: Extras": Hurt -1, Maimed -3, Incapacitated and Dead."""
    track = new_track("mortal", extra=True)
    assert track.levels == extra_levels() == ("Healthy", "Hurt", "Maimed", "Incapacitated")
    track = hit(track, "lethal", 2).track
    view = tabletop_view(track)
    assert view["level"] == "Maimed" and view["dice_penalty"] == -3
    track = hit(track, "lethal", 1).track
    assert track.state() == "Incapacitated" and track.condition == "active"
    ruling = hit(track, "lethal", 1)
    assert ruling.condition == "dead"
    assert tabletop_view(ruling.track)["level"] == "Dead"


# ---------------------------------------------------------------- marking

def test_veronica_aggravated_marked_above_normal():
    """000 "Applying Damage" (Veronica): "/" in Bruised, then 3 aggravated: X in Bruised, Hurt and
    Injured, "/" moved down to Wounded; -2 dice."""
    track = hit(new_track(), "bashing", 1).track
    assert [b["mark"] for b in tabletop_view(track)["boxes"]][:2] == ["/", ""]
    track = hit(track, "aggravated", 3).track
    view = tabletop_view(track)
    assert [(b["level"], b["mark"]) for b in view["boxes"]][:5] == [
        ("Bruised", "X"), ("Hurt", "X"), ("Injured", "X"), ("Wounded", "/"), ("Mauled", "")]
    assert view["level"] == "Wounded" and view["dice_penalty"] == -2 == tabletop_dice_penalty(track)
    assert not view["approximate"]
    assert [m for _, m in track.marks()][:5] == ["X", "X", "X", "/", ""]


def test_t9_dracos_levels_after_each_hit():
    """met-reference T9: after each hit Dracos is on the 2nd Healthy, 2nd Bruised, 1st Wounded, Incapacitated."""
    track = new_track()
    seen = []
    for kind, levels in (("bashing", 1), ("lethal", 2), ("lethal", 2), ("lethal", 2)):
        track = hit(track, kind, levels).track
        current = [i for i, b in enumerate(live_view(track)["boxes"]) if b["current"]]
        seen.append((track.state(), current))
    assert seen == [("Healthy", [1]), ("Bruised", [3]), ("Wounded", [5]), ("Incapacitated", [7])]
    assert track.incapacitated and track.condition == "active"


def test_t9_next_lethal_torpor():
    """met-reference T9; 002 "Damage and Healing": lethal damage below Incapacitated sends a vampire into torpor."""
    for name in ("house_002", "lotnr", "tabletop"):
        ruling = hit(dracos_incapacitated(), "lethal", 1, model(name))
        assert ruling.condition == "torpor"
        assert ruling.track.below_incapacitated


def test_t9_next_bashing_unconscious():
    """met-reference T9; 002 "Damage and Healing": bashing below Incapacitated: unconscious for a scene or an hour."""
    ruling = hit(dracos_incapacitated(), "bashing", 1)
    assert ruling.condition == "unconscious"
    assert any(s.rule == '002 "Damage and Healing"' and s.setting == "below_incapacitated_model"
               for s in ruling.steps)


def test_tabletop_model_bashing_past_incapacitated_is_torpor():
    """000 "Bashing Damage": Incapacitated by bashing, then another level of bashing: torpor."""
    assert hit(dracos_incapacitated(), "bashing", 1, model("tabletop")).condition == "torpor"


def test_t9_next_aggravated_final_death_under_lotnr():
    """met-reference T9 (LotNR): aggravated damage at Incapacitated is Final Death."""
    ruling = hit(dracos_incapacitated(), "aggravated", 1, model("lotnr"))
    assert ruling.condition == "final_death"
    assert ruling.steps[-2].setting == "below_incapacitated_model"


def test_t9_next_aggravated_final_death_by_default():
    """met-reference T9 and issue 5: aggravated damage to a vampire who is already Incapacitated is Final
    Death under the default model too."""
    ruling = hit(dracos_incapacitated(), "aggravated", 1)
    assert ruling.condition == "final_death"
    assert any(step.setting == "below_incapacitated_model" and "already Incapacitated" in step.text
               for step in ruling.steps)


def test_002_aggravated_that_carries_a_vampire_past_incapacitated_is_torpor_then_final_death():
    """002 "Damage and Healing": a vampire put below Incapacitated by aggravated damage enters torpor;
    one level of aggravated damage after he is in torpor destroys him (the default model)."""
    track = new_track()
    track = hit(track, "lethal", 5).track  # Wounded
    ruling = hit(track, "aggravated", 3)  # two levels to Incapacitated, the third carries him past it
    assert ruling.condition == "torpor"
    assert ruling.marked == 3
    ruling = hit(ruling.track, "aggravated", 1)
    assert ruling.condition == "final_death"


def test_unconscious_vampire_then_lethal_goes_to_torpor():
    """002 "Damage and Healing": below Incapacitated by lethal damage: torpor (the lethal level replaces a
    bashing mark on the full track, 000)."""
    track = hit(dracos_incapacitated(), "bashing", 1).track
    ruling = hit(track, "lethal", 1)
    assert ruling.condition == "torpor"
    assert (ruling.track.lethal, ruling.track.bashing) == (track.lethal + 1, track.bashing - 1)


def test_torpid_vampire_more_lethal_overflows():
    """000 "Final Death": bashing or lethal damage does not destroy a torpid vampire (a narrator action does);
    on the full track the first lethal level replaces the kick's bashing mark (000), the rest overflow."""
    track = hit(dracos_incapacitated(), "lethal", 1).track
    assert (track.lethal, track.bashing) == (7, 1)
    ruling = hit(track, "lethal", 3)
    assert ruling.condition == "torpor" and (ruling.marked, ruling.overflow) == (1, 2)
    assert (ruling.track.lethal, ruling.track.bashing) == (8, 0)
    again = hit(ruling.track, "lethal", 2)
    assert again.overflow == 2 and again.track == ruling.track


def test_dark_epics_killing_blow():
    """met-reference 4.1 (Dark Epics): aggravated damage at Incapacitated gives torpor; a torpid vampire meets
    Final Death only from a declared killing blow."""
    de = ChronicleSettings.from_overrides({"dark_epics_killing_blow": True, "below_incapacitated_model": "lotnr"})
    torpid = hit(dracos_incapacitated(), "aggravated", 1, de)
    assert torpid.condition == "torpor"
    assert hit(torpid.track, "aggravated", 1, de).condition == "torpor"
    assert hit(torpid.track, "aggravated", 1, de, killing_blow=True).condition == "final_death"


def test_mortal_aggravated_is_lethal():
    """001 "Aggravated Damage": mortals do not receive aggravated damage; it is lethal to them."""
    ruling = apply_damage(new_track("mortal"), "aggravated", 2, "Hunter")
    assert (ruling.track.aggravated, ruling.track.lethal) == (0, 2)
    assert ruling.steps[1].rule == '001 "Aggravated Damage"'


def test_mortal_below_incapacitated_by_lethal_dies():
    """000 "Health": mortals have no torpor; reduced below Incapacitated they die."""
    track = apply_damage(new_track("mortal"), "lethal", 7, "Hunter").track
    assert track.incapacitated
    assert apply_damage(track, "lethal", 1, "Hunter").condition == "dead"


def test_mortal_beaten_to_death_slowly():
    """000 "Healing Bashing Damage": at Incapacitated, further bashing is X'd over bashing, making it lethal
    (unconscious); when none is left, one more wound kills."""
    track = apply_damage(new_track("mortal"), "bashing", 7, "Hunter").track
    ruling = apply_damage(track, "bashing", 1, "Hunter")
    assert ruling.condition == "unconscious"
    assert (ruling.track.lethal, ruling.track.bashing, ruling.track.marked) == (1, 6, 7)
    ruling = apply_damage(ruling.track, "bashing", 6, "Hunter")
    assert (ruling.condition, ruling.track.lethal) == ("unconscious", 7)
    assert apply_damage(ruling.track, "bashing", 1, "Hunter").condition == "dead"


# ---------------------------------------------------------------- Final Death, stakes, narrator actions

def test_final_death_is_final():
    """002 "Damage and Healing"; 000 "Final Death": nothing changes a destroyed character's track."""
    gone = destroy(new_track(), "beheading", "Dracos").track
    assert gone.condition == "final_death"
    for call in (lambda: apply_damage(gone, "bashing", 1), lambda: destroy(gone, "heart_torn_out"),
                 lambda: stake(gone), lambda: regain_consciousness(gone)):
        with pytest.raises(RulesError) as err:
            call()
        assert err.value.field == "track"


def test_destroy_by_beheading_or_heart():
    """002 "Damage and Healing": chopping off the head or tearing out the heart destroys a vampire."""
    for means in ("beheading", "heart_torn_out"):
        ruling = destroy(new_track(), means, "Dracos")
        assert ruling.condition == "final_death" and ruling.steps[0].rule == '002 "Damage and Healing"'
    assert destroy(new_track("mortal"), "beheading").condition == "dead"


def test_massive_trauma_only_when_incapacitated_or_torpid():
    """000 "Final Death": massive trauma destroys an incapacitated or torpid vampire."""
    with pytest.raises(RulesError) as err:
        destroy(new_track(), "massive_trauma")
    assert err.value.field == "means"
    assert destroy(dracos_incapacitated(), "massive_trauma").condition == "final_death"


def test_stake_paralyses_until_removed():
    """000 "Stake Through Heart": a staked vampire is paralysed until the stake is removed."""
    ruling = hit(new_track(), "lethal", 1, stake=True)
    assert ruling.staked and ruling.condition == "active"
    assert not remove_stake(ruling.track).staked
    with pytest.raises(RulesError):
        stake(new_track("mortal"))
    assert not apply_damage(new_track("mortal"), "lethal", 1, stake=True).staked


def test_regain_consciousness():
    """002 "Damage and Healing": unconscious for one scene or hour; he wakes once above Incapacitated."""
    track = hit(dracos_incapacitated(), "bashing", 1).track
    with pytest.raises(RulesError):
        regain_consciousness(track)
    healed = HealthTrack(track.levels, track.aggravated, track.lethal, track.bashing - 1, "unconscious")
    assert regain_consciousness(healed).condition == "active"


def test_bad_input_names_the_field():
    """House style: bad input raises RulesError naming the field."""
    with pytest.raises(RulesError) as err:
        apply_damage(new_track(), "fire", 1)
    assert err.value.field == "damage_type"
    with pytest.raises(RulesError) as err:
        apply_damage(new_track(), "lethal", -1)
    assert err.value.field == "levels"
    with pytest.raises(RulesError) as err:
        HealthTrack(live_levels(DEFAULT), lethal=9)
    assert err.value.field == "levels"


# ---------------------------------------------------------------- the views

def test_views_side_by_side_default_track_one_to_one():
    """met-reference 4.3: tabletop boxes 1 Healthy, 2-4 Bruised, 5-6 Wounded, 7 Incapacitated."""
    expected = {1: ("Healthy", "Bruised"), 2: ("Bruised", "Hurt"), 4: ("Bruised", "Wounded"),
                5: ("Wounded", "Mauled"), 6: ("Wounded", "Crippled"), 7: ("Incapacitated", "Incapacitated")}
    for levels, (live, table) in expected.items():
        views = health_views(hit(new_track(), "lethal", levels).track)
        assert (views["live"]["level"], views["tabletop"]["level"]) == (live, table)
        assert sum(1 for b in views["tabletop"]["boxes"] if b["mark"]) == levels


def test_view_below_incapacitated_shows_the_condition():
    """000 "Health Chart": below Incapacitated lie torpor and Final Death."""
    views = health_views(hit(dracos_incapacitated(), "lethal", 1).track)
    assert views["condition"] == "torpor" and views["tabletop"]["level"] == "Torpor"
    assert views["tabletop"]["below"]["mark"] == "/" and views["tabletop"]["dice_penalty"] is None
    assert all(b["mark"] for b in views["live"]["boxes"])


def test_view_with_mettle_is_approximate_but_keeps_the_level():
    """met-reference 4.3: the tracks match one to one only at the default; the character keeps his level."""
    track = HealthTrack(("Healthy",) + live_levels(DEFAULT), lethal=2)
    view = tabletop_view(track)
    assert track.state() == "Healthy" and view["level"] == "Bruised" and view["approximate"]
    assert tabletop_view(HealthTrack(track.levels, lethal=8))["level"] == "Incapacitated"


# ---------------------------------------------------------------- properties

damage_steps = st.lists(st.tuples(st.sampled_from(DAMAGE_TYPES), st.integers(0, 4)), max_size=12)


@given(st.sampled_from(["vampire", "mortal", "ghoul"]), st.sampled_from(["house_002", "lotnr", "tabletop"]),
       st.booleans(), damage_steps)
def test_property_never_more_marks_than_levels(creature, name, extra, steps):
    """000 "Health": a track never holds more marks than it has levels, whatever damage it takes."""
    track = new_track(creature, extra=extra)
    for kind, levels in steps:
        if track.destroyed:
            break
        ruling = apply_damage(track, kind, levels, "X", model(name))
        track = ruling.track
        assert 0 <= track.marked <= track.size
        assert ruling.marked + ruling.overflow == levels


@given(damage_steps, st.sampled_from(DAMAGE_TYPES), st.integers(0, 5))
def test_property_final_death_is_final(steps, kind, levels):
    """002 "Damage and Healing": once destroyed, any further damage is refused and the track never changes."""
    track = new_track()
    for k, n in steps:
        track = apply_damage(track, k, n).track
        if track.destroyed:
            break
    if not track.destroyed:
        track = destroy(track, "beheading").track
    before = track
    with pytest.raises(RulesError):
        apply_damage(track, kind, levels)
    assert track == before


def test_each_marking_says_which_level_it_marked():
    """Issue 30 (oddities); LotNR Health (met-reference 4.1, T9: "2nd Healthy, then 2nd Bruised"): two hits of one
    bashing level read as two marks, not as "Healthy" then "Bruised" with nothing between: the first marks the
    first Healthy level and leaves her still Healthy, the second marks the second and leaves her Bruised; three
    lethal then go before the bashing, and the marks run to the third Bruised level (new user 10: the boxes newly
    filled hold the bashing moved down, so the step says how far the marks run, not that the lethal is there)."""
    first = apply_damage(new_track(), "bashing", 1, "Dana")
    assert first.steps[-1].text == ("Dana takes 1 level of bashing damage: the first Healthy level is marked; "
                                    "Dana is still Healthy.")
    second = apply_damage(first.track, "bashing", 1, "Dana")
    assert second.steps[-1].text == ("Dana takes 1 level of bashing damage: the second Healthy level is marked; "
                                     "Dana is now Bruised.")
    third = apply_damage(second.track, "lethal", 3, "Dana")
    assert third.steps[-1].text.endswith("3 levels of lethal damage: the marks now run to the third Bruised level; Dana is "
                                         "now Wounded.")


def test_a_worse_wound_says_it_goes_before_the_lighter_marks():
    """met-reference 4.1 (LotNR "Applying Damage"): 2 lethal on a vampire with 2 bashing take the first two boxes and
    the bashing moves down to the Bruised ones; the steps say so, not only which boxes were newly filled (new user 9)."""
    from larp.rules.health.marking import apply_damage
    from larp.rules.health.track import HealthTrack

    track = HealthTrack(levels=("Healthy", "Healthy", "Bruised", "Bruised", "Wounded", "Wounded", "Incapacitated"),
                        bashing=2, creature="vampire")
    ruling = apply_damage(track, "lethal", 2, "Vivienne", ChronicleSettings())
    assert (ruling.track.lethal, ruling.track.bashing) == (2, 2)
    texts = [step.text for step in ruling.steps]
    assert ("The lethal damage is marked before the bashing already on the track, which moves down to the next "
            "boxes.") in texts
    assert texts[-1].startswith("Vivienne takes 2 levels of lethal damage: the marks now run to the second Bruised level")
    plain = apply_damage(HealthTrack(levels=track.levels, lethal=1, creature="vampire"), "bashing", 1, "Vivienne",
                         ChronicleSettings())
    assert not any("marked before" in step.text for step in plain.steps)  # a lighter wound goes after: nothing to say


def test_an_incapacitated_mortal_is_not_told_to_spend_blood_points():
    """000 "Health Chart": at Incapacitated a character may do nothing except spend blood points; a mortal has none,
    so his chart says he may do nothing (new user 10), a vampire's says what the book says."""
    from larp.rules.health import HealthTrack
    from larp.rules.health.views import tabletop_view

    levels = ("Healthy", "Healthy", "Bruised", "Bruised", "Bruised", "Wounded", "Wounded", "Incapacitated")
    mortal = tabletop_view(HealthTrack(levels=levels, lethal=7, creature="mortal"))
    vampire = tabletop_view(HealthTrack(levels=levels, lethal=7, creature="vampire"))
    assert mortal["level"] == vampire["level"] == "Incapacitated"
    assert mortal["movement"] == "Incapable of movement, likely unconscious: may do nothing."
    assert vampire["movement"] == "Incapable of movement, likely unconscious: may do nothing except spend blood points."
    assert "blood" not in mortal["boxes"][-1]["movement"]
