"""The one input layer (issue 29 item 4, :mod:`larp.web.inputs`): each kind of input read once, from a
form's text or a JSON body, into the core's types, and refused with one shape (field, message, 422)."""

from __future__ import annotations

from datetime import date

import pytest

from larp.rules.challenge.types import BASIC_THROWS, Category, Throw
from larp.services import ServiceError
from larp.sheet_entries import CATEGORIES
from larp.web import inputs


def refusal(call) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call()
    return caught.value


def test_a_number_is_text_in_a_form_and_a_json_number_in_a_body():
    """A form's "3" is 3; a JSON "3" is refused (a number is a JSON number), naming the field."""
    assert inputs.whole({"blood": "3"}, "blood", low=1, high=50) == 3
    assert inputs.whole({"blood": 3}, "blood", json=True) == 3
    bad = refusal(lambda: inputs.whole({"blood": "3"}, "blood", json=True))
    assert (bad.field, bad.status) == ("blood", 422)
    assert refusal(lambda: inputs.whole({"blood": "51"}, "blood", high=50)).field == "blood"
    assert inputs.whole({}, "levels", 1) == 1
    assert refusal(lambda: inputs.picked({}, json=True, required=True)).field == "character_id"
    assert refusal(lambda: inputs.picked({"character_id": 0}, json=True)).field == "character_id"
    assert refusal(lambda: inputs.whole({"limit": "x"}, "limit", status=400)).status == 400


def test_a_date_and_dice_have_one_reader_for_forms_and_bodies():
    """Dates: YYYY-MM-DD, blank gives the default; dice: a list in JSON, "8 3 1" in a form, each 1-10."""
    assert inputs.day({"on": " 2026-12-13 "}, "on") == date(2026, 12, 13)
    assert inputs.day({"on": ""}, "on", date(2026, 1, 1)) == date(2026, 1, 1)
    for bad in ({"on": "13/12/2026"}, {"on": 20261213}, {}):
        assert refusal(lambda: inputs.day(bad, "on")).message == "Give a date such as 2026-12-13."
    assert inputs.dice({"dice": "8, 3 1"}, "dice") == [8, 3, 1]
    assert inputs.dice({"dice": [8, 3]}, "dice", json=True) == [8, 3]
    assert inputs.dice({"dice": ""}, "dice") is None and inputs.dice({}, "dice", json=True) is None
    assert refusal(lambda: inputs.dice({"dice": [8, 11]}, "dice", json=True)).field == "dice[1]"
    assert refusal(lambda: inputs.dice({"dice": "1 " * 21}, "dice")).field == "dice"


def test_flags_objects_names_and_unknown_fields():
    """A JSON flag is true or false; an object is an object; a typo in a body is named."""
    assert inputs.flag({"cover": False}, "cover", default=True) is False
    assert inputs.flag({}, "cover", default=True) is True
    assert refusal(lambda: inputs.flag({"cover": "yes"}, "cover")).field == "cover"
    assert refusal(lambda: inputs.flag({}, "treated", required=True)).field == "treated"
    assert refusal(lambda: inputs.obj({"damage": [1]}, "damage")).field == "damage"
    assert inputs.name({"name": "  Dana "}, "The character") == "Dana"
    assert inputs.name({"name": "  "}, "The character") == "The character"
    assert refusal(lambda: inputs.name({"name": 3}, "The victim", field="victim.name")).field == "victim.name"
    assert refusal(lambda: inputs.only({"levles": 1}, {"levels"}, "damage")).field == "damage.levles"


def test_words_are_the_cores_vocabularies():
    """A word is a member of the core's Enum (or tuple); the schema offers the same words."""
    assert inputs.one_of({"throw": "bomb"}, "throw", Throw) is Throw.BOMB
    assert inputs.one_of({}, "game", ("live", "tabletop"), "live") == "live"
    bad = refusal(lambda: inputs.one_of({"game": "larp"}, "game", ("live", "tabletop")))
    assert (bad.field, bad.message) == ("game", "`game` is live or tabletop.")
    assert inputs.shown_choice("Social", Category, Category.PHYSICAL, only=CATEGORIES) is Category.SOCIAL
    assert inputs.shown_choice("virtue", Category, Category.PHYSICAL, only=CATEGORIES) is Category.PHYSICAL
    assert inputs.enum_schema(Throw, only=BASIC_THROWS, random=True) == {
        "type": "string", "enum": ["rock", "paper", "scissors", "random"]}
    assert inputs.enum_schema(Category, only=CATEGORIES, null=True)["enum"] == ["physical", "social", "mental", None]
