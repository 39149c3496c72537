"""Seed 002's two darkness lists as chronicle settings (issue 37 item 13): 002 "Darkness" announces what reduces
the penalty of partial and total darkness and gives neither list; data/darkness.toml fills them from met-reference
6.1, and each value is a chronicle setting (data/settings/darkness_lists.toml) a chronicle sets for itself."""

from __future__ import annotations

import pytest

from larp.rules.darkness import Darkness, DarknessLevel, DarknessSource, darkness_effect, darkness_table
from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings, setting_definitions


def test_every_value_of_the_lists_is_a_setting_with_the_tables_default():
    """The settings' defaults are the table's values (met-reference 6.1), so a chronicle that sets nothing rules as
    before; each is a number of penalty Traits from 0 to 4 (4 removes every penalty of total darkness). The two
    Merits are read by the choice setting darkness_merits (issue 30 item 3), not by a number each."""
    definitions = setting_definitions()
    named = 0
    for row in darkness_table().reductions.values():
        for setting, value in ((row.natural_setting, row.natural), (row.shroud_setting, row.shroud)):
            if not setting:
                continue
            named += 1
            d = definitions[setting]
            assert d.type == "int" and (d.minimum, d.maximum) == (0, 4), setting
            assert d.default == value, setting
    assert named >= 11  # the Merits Acute Sense and Concentration follow darkness_merits instead (issue 30)
    assert {k for k, d in definitions.items() if d.family == "darkness_lists"} <= {
        s for row in darkness_table().reductions.values() for s in (row.natural_setting, row.shroud_setting)}


def test_a_chronicle_sets_its_own_natural_darkness_list():
    """002 "Darkness": the chronicle says Tongue of the Asp removes both penalty Traits in natural darkness (the
    table says one): the side is no longer down, and the step names the setting."""
    dark = Darkness(DarknessLevel.PARTIAL, reductions=("tongue_of_the_asp",))
    default = darkness_effect(dark, {}, ChronicleSettings.defaults())
    assert default.penalty == 1
    ours = darkness_effect(dark, {}, ChronicleSettings.from_overrides({"darkness_tongue_of_the_asp_natural": 2}))
    assert ours.penalty == 0
    assert any(s.setting == "darkness_tongue_of_the_asp_natural" for s in ours.steps)


def test_a_chronicle_sets_its_own_shroud_list_and_per_level_values():
    """LotNR Shroud of Night (met-reference 6.1): Heightened Senses removes one penalty Trait inside another's Shroud;
    a chronicle may make it two; Blindfighting's value per level is a setting too (Dark Epics p.49)."""
    shroud = Darkness(DarknessLevel.TOTAL, DarknessSource.SHROUD, reductions=("heightened_senses",))
    settings = ChronicleSettings.from_overrides({"darkness_heightened_senses_shroud": 2})
    assert darkness_effect(shroud, {}, ChronicleSettings.defaults()).penalty == 1
    effect = darkness_effect(shroud, {}, settings)
    assert effect.penalty == 0 and effect.forced_retest
    assert any(s.setting == "darkness_heightened_senses_shroud" for s in effect.steps)
    blind = Darkness(DarknessLevel.TOTAL)
    two = ChronicleSettings.from_overrides({"darkness_blindfighting_natural": 2})
    assert darkness_effect(blind, {"Blindfighting": 2}, two).reduction == 4
    assert not darkness_effect(blind, {"Blindfighting": 2}, two).forced_retest


def test_a_value_outside_the_list_is_refused():
    """A darkness list value is a number of penalty Traits from 0 to 4, naming the setting when it is not."""
    with pytest.raises(RulesError) as err:
        ChronicleSettings.from_overrides({"darkness_eyes_of_the_beast_natural": 5})
    assert err.value.field == "darkness_eyes_of_the_beast_natural"
