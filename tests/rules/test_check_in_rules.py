"""Who the door may check in, and the attendance experience it earns (issue 32, larp.rules.check_in)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from larp.rules.check_in import Arrival, at_the_door, attendance_amount, attendance_step
from larp.rules.explain import RulesError


@pytest.mark.parametrize(("arrival", "words"), [
    (Arrival("Lys", "active", retired=True), "is retired"),
    (Arrival("Extra", "active", scene_extra=True), "scene extra"),
    (Arrival("Teodor", "final_death"), "Final Death"),
    (Arrival("Ruth", "dead", creature="mortal"), "is dead"),
])
def test_the_door_refuses_and_says_why(arrival, words):
    decision = at_the_door(arrival)
    assert not decision.allowed and words in decision.refusal and arrival.name in decision.refusal


def test_torpor_is_checked_in_and_marked_and_the_wounded_are_checked_in():
    torpid = at_the_door(Arrival("Pim", "torpor"))
    assert torpid.allowed and torpid.marks == ("in torpor",)
    assert at_the_door(Arrival("Konrad", "unconscious")).allowed


@pytest.mark.parametrize(("setting", "amount"), [(1.0, Decimal(1)), (0, Decimal(0)), ("0.5", Decimal("0.5")),
                                                 (0.125, Decimal("0.13"))])
def test_attendance_amount(setting, amount):
    assert attendance_amount(setting) == amount


@pytest.mark.parametrize("setting", [-1, 101, "lots"])
def test_attendance_amount_refuses_what_is_not_an_amount(setting):
    with pytest.raises(RulesError):
        attendance_amount(setting)


def test_attendance_step_cites_the_setting():
    step = attendance_step("Konrad Vale", Decimal(1), 3)
    assert step.text == "Konrad Vale earned 1 experience for attending game session 3."
    assert step.setting == "attendance_experience"
