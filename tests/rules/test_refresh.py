"""Tests of what comes back between game sessions (met-reference 5.1, 2.1, 8.2 #8)."""

from datetime import date

import pytest

from larp.rules.explain import RulesError
from larp.rules.refresh import RefreshSubject, refresh_for_next_session, weeks_between
from larp.rules.settings import ChronicleSettings

LAST = date(2026, 11, 29)
NEXT = date(2026, 12, 20)  # three weeks later


def settings(**overrides):
    """Default settings with ``overrides``."""
    return ChronicleSettings.from_overrides(overrides)


def subject(**changes) -> RefreshSubject:
    """A vampire who spent Willpower and blood last game session."""
    values = dict(name="Teodor", creature="vampire", condition="active", willpower_current=2,
                  willpower_permanent=6, blood_current=3, blood_max=12)
    values.update(changes)
    return RefreshSubject(**values)


def test_lotnr_one_willpower_a_game_session():
    """met-reference 5.1 (LotNR, default wp_refresh): Willpower comes back one a game session."""
    refresh = refresh_for_next_session(subject(), LAST, NEXT, ChronicleSettings.defaults())
    assert refresh.willpower_current == 3 and refresh.changed
    assert refresh.steps[-1].setting == "wp_refresh"


def test_dark_epics_one_willpower_a_full_week():
    """met-reference 5.1 (Dark Epics p.91): one Willpower a week; 21 days are three weeks; the
    explanation says Nature is not modelled."""
    refresh = refresh_for_next_session(subject(), LAST, NEXT, settings(wp_refresh="de_weekly"))
    assert refresh.willpower_current == 5
    assert "Nature is not modelled" in refresh.steps[-1].text
    assert weeks_between(LAST, date(2026, 12, 12)) == 1  # 13 days: one full week


def test_willpower_never_exceeds_the_permanent_rating():
    """met-reference 5.1: temporary Willpower comes back up to the permanent rating."""
    full = refresh_for_next_session(subject(willpower_current=6), LAST, NEXT, settings(wp_refresh="de_weekly"))
    assert full.willpower_current == 6 and not full.changed
    assert refresh_for_next_session(subject(willpower_current=5), LAST, NEXT,
                                    settings(wp_refresh="de_weekly")).willpower_current == 6


@pytest.mark.parametrize("mode,expected", [("unchanged", 3), ("full", 12), ("starting_pool", 5)])
def test_blood_by_the_chronicle_setting(mode, expected):
    """Chronicle setting blood_refresh: unchanged (feeding reported by the player), a full pool,
    or at least the starting pool (default 5)."""
    refresh = refresh_for_next_session(subject(), LAST, NEXT, settings(blood_refresh=mode))
    assert refresh.blood_current == expected
    if mode != "unchanged":
        assert any(s.setting == "blood_refresh" for s in refresh.steps)


def test_starting_pool_keeps_a_fuller_pool_and_respects_the_maximum():
    """blood_refresh starting_pool: a pool above the starting pool is kept; the maximum caps it."""
    rules = settings(blood_refresh="starting_pool", blood_starting_pool=8)
    assert refresh_for_next_session(subject(blood_current=10), LAST, NEXT, rules).blood_current == 10
    assert refresh_for_next_session(subject(blood_max=6), LAST, NEXT, rules).blood_current == 6


def test_a_torpid_vampire_does_not_feed_and_ghouls_keep_their_blood():
    """000 "Torpor": a torpid vampire is in hibernation and does not feed; a ghoul's blood comes
    from his domitor, not from the refresh."""
    rules = settings(blood_refresh="full")
    torpid = refresh_for_next_session(subject(condition="torpor"), LAST, NEXT, rules)
    assert torpid.blood_current == 3 and "in torpor" in torpid.steps[-1].text
    ghoul = refresh_for_next_session(subject(creature="ghoul", blood_max=3, blood_current=1), LAST, NEXT, rules)
    assert ghoul.blood_current == 1


def test_traits_and_abilities_come_back_and_the_dead_get_nothing():
    """met-reference 5.1 and 2.1: lost Traits and expended Ability levels come back at the next
    game session; Final Death is final."""
    refresh = refresh_for_next_session(subject(willpower_current=6, traits_back=("Quick", "Brawny"),
                                               abilities_back=("Brawl 1",)), LAST, NEXT,
                                       ChronicleSettings.defaults())
    assert refresh.changed and "Quick, Brawny" in refresh.steps[0].text and "Brawl 1" in refresh.steps[0].text
    dead = refresh_for_next_session(subject(condition="final_death"), LAST, NEXT, settings(blood_refresh="full"))
    assert (dead.willpower_current, dead.blood_current, dead.changed) == (2, 3, False)


def test_a_date_before_the_last_game_is_refused():
    """Game sessions follow each other: the next cannot be dated before the last."""
    with pytest.raises(RulesError) as err:
        refresh_for_next_session(subject(), NEXT, LAST, ChronicleSettings.defaults())
    assert err.value.field == "date"
