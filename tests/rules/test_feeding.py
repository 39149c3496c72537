"""Feeding on a victim drinks no more than the drinker's pool holds (new-user test 8, finding 3: "Drain" took 5
Blood Traits from Ruth Calder into a pool with room for 3, and wounded Marcus Hale for 2 drunk into a full pool).

The rules: LotNR "Blood" (met-reference 3.7): each Blood Trait drained costs a mortal or ghoul a level of lethal
damage, at most three a turn; LotNR generation table (met-reference 5.1): a 9th-generation vampire's pool holds at
most 14 blood points. The books do not let a vampire drain more than he drinks, so by default (setting
``drain_past_full_pool`` off) the victim loses, and is wounded for, only what fits in the pool, and a full pool
drinks nothing; with the setting on he drains all that was asked and the rest is lost.
"""

from __future__ import annotations

import pytest

from larp.rules.explain import RulesError
from larp.rules.rulings import Person, rule_feeding
from larp.rules.settings import ChronicleSettings

DEFAULTS = ChronicleSettings.defaults()
SPILL = ChronicleSettings.from_overrides({"drain_past_full_pool": True})


def konrad(blood: int) -> Person:
    """Konrad Vale, 9th generation: 14 blood points at most (LotNR generation table, met-reference 5.1)."""
    return Person("Konrad Vale", "vampire", generation=9, blood=blood, blood_max=14)


RUTH = Person("Ruth Calder", "mortal")


def applied(ruling, name: str):
    """What the ruling applies to ``name``: his blood's change (blood points) and his lethal levels after."""
    change = ruling.consequences.of(name)
    track = change.track
    return change.blood, (track.lethal if track else 0)


def test_the_setting_is_off_by_default():
    assert DEFAULTS["drain_past_full_pool"] is False


def test_asked_for_more_than_fits_he_drinks_what_fits_and_the_victim_loses_only_that():
    """Konrad at 11 of 14 drains "5" from Ruth: room for 3, so he drinks 3 (one turn, three a turn), ends at
    14 of 14, and Ruth takes 3 lethal, not 5."""
    ruling = rule_feeding(konrad(11), RUTH, 5, DEFAULTS)
    assert applied(ruling, "Konrad Vale") == (3, 0)
    assert applied(ruling, "Ruth Calder") == (0, 3)
    assert (ruling.outcome["asked"], ruling.outcome["drained"], ruling.outcome["taken"], ruling.outcome["turns"]) \
        == (5, 3, 3, 1)
    assert ruling.outcome["victim_track"]["lethal"] == 3
    assert "all the pool holds" in str(ruling.summary)
    assert [s.setting for s in ruling.steps][0] == "drain_past_full_pool"
    assert "not the 5 asked" in ruling.steps[0].text


def test_what_fits_is_drunk_whole():
    """Konrad at 6 of 14 drains 5 from Ruth: all of it fits (11 of 14), two turns, 5 lethal."""
    ruling = rule_feeding(konrad(6), RUTH, 5, DEFAULTS)
    assert applied(ruling, "Konrad Vale") == (5, 0)
    assert applied(ruling, "Ruth Calder") == (0, 5)
    assert ruling.outcome["turns"] == 2
    assert "all the pool holds" not in str(ruling.summary)


def test_a_full_pool_drinks_nothing_and_is_refused():
    """Konrad at 14 of 14 drains 2 from Marcus: refused, so nothing is applied to either."""
    marcus = Person("Marcus Hale", "ghoul", blood=3, blood_max=3)
    with pytest.raises(RulesError) as refused:
        rule_feeding(konrad(14), marcus, 2, DEFAULTS)
    assert refused.value.field == "blood"
    assert "already full (14 blood points)" in str(refused.value.message)


def test_a_ghoul_loses_from_his_pool_only_what_is_drunk():
    """Konrad at 13 of 14 drains 3 from Marcus, a ghoul holding 3: one fits, so Marcus keeps 2 and takes 1
    lethal."""
    marcus = Person("Marcus Hale", "ghoul", blood=3, blood_max=3)
    ruling = rule_feeding(konrad(13), marcus, 3, DEFAULTS)
    assert applied(ruling, "Konrad Vale") == (1, 0)
    assert applied(ruling, "Marcus Hale") == (-1, 1)


def test_a_vampire_victim_loses_only_what_is_drunk():
    """Konrad at 12 of 14 drains 4 from Lys (6 in her pool): 2 fit, Lys keeps 4 and takes no wound."""
    lys = Person("Lys Moreau", "vampire", generation=11, blood=6, blood_max=12)
    ruling = rule_feeding(konrad(12), lys, 4, DEFAULTS)
    assert applied(ruling, "Konrad Vale") == (2, 0)
    assert applied(ruling, "Lys Moreau") == (-2, 0)


def test_with_the_setting_on_he_drains_all_and_the_rest_is_lost():
    """The chronicle lets him drain past a full pool: Konrad at 11 of 14 drains 5 from Ruth, who takes 5 lethal;
    his pool holds 3 and 2 are lost; at 14 of 14 a drain of 2 still wounds Marcus for 2."""
    ruling = rule_feeding(konrad(11), RUTH, 5, SPILL)
    assert applied(ruling, "Konrad Vale") == (3, 0)
    assert applied(ruling, "Ruth Calder") == (0, 5)
    assert (ruling.outcome["drained"], ruling.outcome["taken"]) == (5, 3)
    assert any(s.setting == "drain_past_full_pool" and "are lost" in s.text for s in ruling.steps)
    full = rule_feeding(konrad(14), Person("Marcus Hale", "mortal"), 2, SPILL)
    assert applied(full, "Konrad Vale") == (0, 0)
    assert applied(full, "Marcus Hale") == (0, 2)



def test_the_drain_that_kills_is_the_first_that_does():
    """LotNR "Blood", 000 "Health": the fewest Blood Traits whose drain kills a mortal is the first count whose lethal
    levels take her past Incapacitated (one fewer leaves her alive); none for a vampire."""
    from larp.rules.blood import drain_that_kills
    from larp.rules.health import HealthTrack, apply_damage

    levels = ("Healthy", "Bruised", "Bruised", "Wounded", "Wounded", "Incapacitated")
    for marked in range(0, 5):
        mortal = HealthTrack(levels=levels, lethal=marked, creature="mortal")
        kills = drain_that_kills(mortal)
        assert apply_damage(mortal, "lethal", kills).track.condition == "dead"
        assert apply_damage(mortal, "lethal", kills - 1).track.condition != "dead"
    assert drain_that_kills(HealthTrack(levels=levels, lethal=2, creature="vampire")) is None
