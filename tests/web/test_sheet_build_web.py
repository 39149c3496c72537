"""Building a character (issue 31 item 6), without a browser: the books' powers are one tap each, grouped by
Discipline and level (no list of 200 and no "Save disciplines" to tap after), a vampire without a generation
starts on the 13th in the editor as on the new-character form, and "Save traits" is marked to show only once
something changed."""

from __future__ import annotations

import re

import pytest

from larp.models import Character
from larp.services.sheet_store import sheet_of
from tests.web.test_sheet_editor import create, save


@pytest.fixture
def organiser(client, auth):
    auth.login("boss", "organiser")
    return client


def test_a_power_is_one_tap_and_its_group_stays_open(organiser, dbconn):
    character = create(organiser)
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    powers = page[page.index('id="powers"'):page.index("</section>", page.index('id="powers"'))]
    assert "<select name=\"powers.add\"" not in powers and "data/" not in powers
    groups = re.findall(r'<details class="more power-group" data-group( open)?>\s*<summary>([^<]+)', powers)
    assert ("", "Celerity ") in groups and len(groups) > 10
    celerity = powers[powers.index("<summary>Celerity "):]
    celerity = celerity[:celerity.index("</details>")]
    # By level within the Discipline: the basic powers first.
    assert celerity.index("Alacrity (1)") < celerity.index("Swiftness (2)") < celerity.index("(3)")
    assert 'name="powers.add" value="Celerity|Alacrity"' in celerity

    response = save(organiser, character, "powers", {"powers.add": "Celerity|Alacrity"}, htmx=True)
    assert response.status_code == 200
    assert [(p.discipline, p.power) for p in sheet_of(Character.get_by_id(character.id)).powers] == [
        ("Celerity", "Alacrity")]
    section = response.get_data(as_text=True)
    assert '<details class="more power-group" data-group open>\n    <summary>Celerity ' in section
    assert 'class="chip held" data-name="Alacrity (1)"' in section.replace('value="Celerity|Alacrity" ', "")
    assert "save-when-changed" in section


def test_a_vampire_without_a_generation_starts_on_the_13th(organiser, dbconn):
    vampire = create(organiser, name="Ida Noor", generation="")
    assert sheet_of(Character.get_by_id(vampire.id)).generation is None
    page = organiser.get(f"/characters/{vampire.id}/edit").get_data(as_text=True)
    assert re.search(r'<option value="13"\s+selected>13th</option>', page)
    ghoul = create(organiser, name="Hob Carter", creature="ghoul", generation="")
    page = organiser.get(f"/characters/{ghoul.id}/edit").get_data(as_text=True)
    assert not re.search(r'<option value="\d+"\s+selected>\d+th</option>', page)


def test_a_power_tapped_twice_is_held_once(organiser, dbconn):
    character = create(organiser)
    save(organiser, character, "powers", {"powers.add": "Celerity|Alacrity"})
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    rows = {k: v for k, v in re.findall(r'name="(powers\.\d+\.\w+)" value="([^"]*)"', page)}
    response = save(organiser, character, "powers", {**rows, "powers.add": "Celerity|Alacrity"})
    assert response.status_code in (200, 303, 400, 409)
    assert [(p.discipline, p.power) for p in sheet_of(Character.get_by_id(character.id)).powers] == [
        ("Celerity", "Alacrity")]


def test_an_ability_is_one_tap_and_a_second_tap_raises_it(organiser, dbconn):
    """Issue 31 item 6, the Abilities as the powers: the books' Abilities are one-tap chips in the section's form
    (no typing and no Save to tap after); a tap adds one at level 1 and says so, a tap on one held raises it by
    one level, and an Ability not in the list is still typed in the row below."""
    character = create(organiser)
    page = organiser.get(f"/characters/{character.id}/edit").get_data(as_text=True)
    abilities = page[page.index('id="abilities"'):page.index("</section>", page.index('id="abilities"'))]
    assert 'name="abilities.add" value="Brawl"' in abilities and 'name="abilities.add" value="Occult"' in abilities
    assert "Add an Ability by name" in abilities

    first = save(organiser, character, "abilities", {"abilities.add": "Brawl"}, htmx=True)
    assert first.status_code == 200 and "Added Brawl 1." in first.get_data(as_text=True)
    assert sheet_of(Character.get_by_id(character.id)).abilities == {"Brawl": 1}
    held = save(organiser, character, "abilities", {"abilities.0.name": "Brawl", "abilities.0.level": "1",
                                                     "abilities.add": "brawl"}, htmx=True)
    assert held.status_code == 200 and "Added Brawl 2." in held.get_data(as_text=True)
    assert sheet_of(Character.get_by_id(character.id)).abilities == {"Brawl": 2}
    assert 'class="chip held">Brawl (2)</button>' in held.get_data(as_text=True)
