"""What the combat screens put into their address is checked against its choices (issue 28 item 5).

The stray-shot screen (and the combat board, which reads its form the same way) copied any
``darkness`` or ``range`` value into the address it redirects to: a 70,000-character value gave a
70 kB ``Location`` header, which proxies refuse. Every value that goes into the address is now one
of its field's choices (a bid: no longer than a Trait name); anything else is refused naming the
field, or, read from an address, left out.
"""

from __future__ import annotations

import re

import pytest

from larp.models import Character, Ruling
from larp.web.people_form import refusal

HUGE = "x" * 70_000


@pytest.fixture
def narrator(client, auth):
    auth.login("narrator1", "narrator")
    return client


def ids(*names: str) -> list[int]:
    return [Character.get(Character.name == name).id for name in names]


def screens() -> list[tuple[str, dict]]:
    """Each screen with a form that edits (a no-op move: answered with a redirect to the new address)."""
    viv, kon, aldous = ids("Vivienne Ashcombe", "Konrad Vale", "Aldous Whitmore")
    return [("/combat/bystanders", {"firer": viv, "target": kon, "b": aldous, "step": f"up:{aldous}"}),
            ("/combat", {"target": viv, "a": kon, "step": f"up:{kon}"})]


@pytest.mark.parametrize("field", ["darkness", "range", "row darkness", "row throw", "row bid", "weapon"])
def test_a_value_that_is_not_a_choice_never_reaches_the_address(narrator, dbconn, field):
    """Issue 28 item 5: 70,000 characters in the scene's darkness or range, a row's darkness, sign or
    bid, or a weapon: a 422 naming the field on both screens, no redirect carrying it, nothing recorded."""
    rulings = Ruling.select().count()
    for path, form in screens():
        prefix, row = ("b", form["b"]) if "b" in form else ("a", form["a"])
        name = {"darkness": "darkness", "range": "range", "row darkness": f"{prefix}{row}_darkness",
                "row throw": f"{prefix}{row}_throw", "row bid": f"{prefix}{row}_bid",
                "weapon": "firer_weapon" if prefix == "b" else f"a{row}_weapon"}[field]
        response = narrator.post(path, data={**form, name: HUGE})
        assert response.status_code == 422, (path, name, response.status_code)
        assert len(response.headers.get("Location", "")) < 2_000
        assert f"“{name}”" in response.get_data(as_text=True)
        assert HUGE not in response.get_data(as_text=True).replace(f'value="{HUGE}"', "")  # only kept in its box, if at all
    assert Ruling.select().count() == rulings


def test_the_choices_still_go_into_the_address(narrator, dbconn):
    """The check refuses only what is not a choice: a stray shot with the scene's darkness, the range,
    a gun, a bystander's darkness and sign goes on to an address that keeps them all."""
    path, form = screens()[0]
    b = form["b"]
    choices = {"darkness": "partial", "range": "far", "firer_weapon": "shotgun", f"b{b}_darkness": "total",
               f"b{b}_throw": "rock", f"b{b}_bid": "Quick"}
    response = narrator.post(path, data={**form, **choices})
    assert response.status_code == 303
    for name, value in choices.items():
        assert f"{name}={value}" in response.headers["Location"], name


def test_an_address_with_values_that_are_not_choices_is_drawn_without_them(narrator, dbconn):
    """Issue 28 item 5: the screen opened at an address holding such values is drawn (200) with them
    left out of every address it shows."""
    path, form = screens()[0]
    response = narrator.get(path, query_string={k: v for k, v in form.items() if k != "step"}
                            | {"range": HUGE, "darkness": "<nowhere>"})
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert HUGE not in text and "nowhere" not in text


def test_every_choice_the_screens_offer_is_taken(narrator, dbconn):
    """The choices checked are the screens' own: every option and chip of both screens' forms that goes
    into the address is accepted by the check (so a new choice on a screen is not refused)."""
    checked = 0
    for path, form in screens():
        page = narrator.get(path, query_string={k: v for k, v in form.items() if k != "step"}).get_data(as_text=True)
        for select in re.finditer(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
            name = select.group(1)
            values = re.findall(r'<option value="([^"]*)"', select.group(2))
            checked += _check(name, values)
        for name, value in re.findall(r'<input type="radio" name="([^"]+)" value="([^"]*)"', page):
            checked += _check(name, [value])
    assert checked > 60


def _check(name: str, values: list[str]) -> int:
    """Check the values of the screen's field ``name`` (one the address keeps); returns how many."""
    match = re.fullmatch(r"(?:[ab]\d+_)?(?:(target|firer)_)?(\w+)", name)
    if not match or name in ("step",):
        return 0
    in_row = bool(re.match(r"[ab]\d+_", name))
    base = match.group(2)
    if base not in ("range", "darkness", "throw", "firer_throw", "counter", "weapon", "armor", "armor_left"):
        return 0
    for value in values:
        if value:
            assert refusal(name, base.removeprefix("firer_"), value, in_row) is None, (name, value)
    return len(values)


def test_a_pickers_text_longer_than_any_name_stays_out_of_the_address(narrator, dbconn):
    """Issue 28 item 5: the pickers' text (a name or card code typed) is not a choice, but a text
    longer than any character's name finds nobody and never goes into the address."""
    path, form = screens()[0]
    response = narrator.post(path, data={k: v for k, v in form.items() if k != "target"} | {"target_q": HUGE})
    assert response.status_code == 303 and len(response.headers["Location"]) < 2_000
    response = narrator.post(path, data={k: v for k, v in form.items() if k != "target"} | {"target_q": "Konrad"})
    assert "target_q=Konrad" in response.headers["Location"]
