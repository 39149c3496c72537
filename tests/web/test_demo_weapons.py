"""The demo chronicle's fighters carry weapons on their sheets (s7): the detective a pistol, the bodyguard a heavy
pistol, the brawler a knife, so a new narrator trying the combat board or the stray-shot screen finds a gun."""

from __future__ import annotations

import re

from larp.models import Character, Equipment
from larp.services.demo import demo_sheets


def test_the_demo_sheets_carry_armory_weapons():
    """data/demo/chronicle.toml: three characters carry a live armory weapon (met-reference 3.7), by key."""
    _, sheets = demo_sheets()
    carried = {sheet.name: [(w.key, w.name, w.damage_type) for w in sheet.weapons] for sheet in sheets if sheet.weapons}
    assert carried == {"Ruth Calder": [("pistol", "Pistol", "lethal")],
                       "Marcus Hale": [("heavy_pistol", "Heavy pistol", "lethal")],
                       "Teodor Brandt": [("knife", "Knife", "lethal")]}


def test_the_stored_demo_fires_with_its_own_guns(client, auth, dbconn):
    """The stored demo: each weapon is a row of its character's sheet, and the stray-shot screen's firer picked
    (Marcus) comes with his heavy pistol chosen, no "choose the gun" first."""
    rows = {(row.character.name, row.key) for row in Equipment.select().where(Equipment.kind == "weapon")}
    assert rows == {("Ruth Calder", "pistol"), ("Marcus Hale", "heavy_pistol"), ("Teodor Brandt", "knife")}
    auth.login()
    marcus = Character.get(Character.name == "Marcus Hale")
    firer = client.post("/combat/bystanders", data={"step": f"set:firer:{marcus.id}"},
                        headers={"HX-Request": "true"}).get_data(as_text=True)
    assert re.search(r'name="firer_weapon"[^>]*>.*?<option value="heavy_pistol"\s+selected', firer, re.S)
