"""Words that agree in Portuguese and Spanish (new-user test 7, finding 12): "none" agrees with the list it
stands for, a count of damage levels reads "2 níveis letais", a Trait lost on a retest or blood lost from a
full pool agree whatever the count, and the Spanish tabletop chart's two-letter marks differ from each other.
English reads as before (tests/rules and tests/web assert it)."""

from __future__ import annotations

import html as markup
import re

from flask_babel import force_locale

from larp.db import db
from larp.i18n import phrase_for_reader
from larp.models import Character
from larp.rules.explain import N_, Phrase, blood_traits, damage_levels, damage_list
from larp.services.chronicles import get_chronicle, set_setting
from tests.support import AuthActions, make_player

PT = {"Accept-Language": "pt-BR"}
ES = {"Accept-Language": "es"}
HX = {"HX-Request": "true"}


def said_in(app, language: str, phrase) -> str:
    with app.test_request_context(), force_locale(language):
        return phrase_for_reader(phrase)


def test_a_count_of_damage_levels_agrees_with_its_count(app):
    assert said_in(app, "pt_BR", damage_levels("lethal", 2)) == "2 níveis letais"
    assert said_in(app, "pt_BR", damage_levels("lethal", 1)) == "1 nível letal"
    assert said_in(app, "pt_BR", damage_levels("bashing", 2)) == "2 níveis de contusão"
    assert said_in(app, "es", damage_levels("bashing", 2)) == "2 niveles contundentes"
    assert said_in(app, "es", damage_levels("aggravated", 1)) == "1 nivel agravado"
    assert said_in(app, "en", damage_levels("lethal", 2)) == "2 lethal"
    takes = Phrase.message(N_("%(name)s takes %(damage)s."), name="Lys Moreau", damage=damage_list([("lethal", 2)]))
    assert said_in(app, "pt_BR", takes) == "Lys Moreau sofre 2 níveis letais."
    feeding = Phrase.message(N_("%(name)s drains %(blood)s from %(victim)s, who takes %(n)s lethal and is now "
                                "%(level)s."), name="Lys Moreau", blood=blood_traits(2), victim="Ruth Calder", n=2,
                             level=Phrase.term("Bruised"))
    assert "que sofre 2 de dano letal e agora está no nível Escoriado" in said_in(app, "pt_BR", feeding)
    assert "que sufre 2 de daño letal" in said_in(app, "es", feeding)


def test_a_trait_lost_and_blood_lost_agree_whatever_the_count(app):
    retest = Phrase.message(N_("%(retest)s %(name)s still loses %(traits)s, lost on that test."), retest="",
                            name="Konrad Vale", traits="Brawny")
    assert "Konrad Vale ainda perde Brawny, que perdeu naquele teste." in said_in(app, "pt_BR", retest)
    assert "perdidos" not in said_in(app, "es", retest)
    full = Phrase.message(N_("%(name)s's pool: %(pool)s of %(most)s blood points (full: %(lost)s more than it "
                             "holds are lost)."), name="Ines", pool=12, most=12, lost=blood_traits(1))
    pt = said_in(app, "pt_BR", full)
    assert "são perdidas" not in pt and "1 Característica de Sangue" in pt
    assert "se pierden" not in said_in(app, "es", full)


def _lys(app) -> Character:
    with app.app_context(), db.connection_context():
        return Character.get(Character.name == "Lys Moreau")


def test_none_agrees_with_the_list_on_the_players_sheet_and_the_printed_sheet(app):
    lys = _lys(app)
    with app.app_context(), db.connection_context():
        set_setting(get_chronicle(), "language", "pt_BR")
    make_player(app, lys)
    player = app.test_client()
    AuthActions(player).login("player1", "player")
    page = markup.unescape(player.get(f"/my/characters/{lys.id}").get_data(as_text=True))
    assert re.search(r"<dt>Antecedentes</dt><dd>nenhum</dd>", page), "Backgrounds: none"
    assert re.search(r"<dt>Defeitos</dt><dd>nenhum</dd>", page), "Flaws: none"
    with app.app_context(), db.connection_context():
        set_setting(get_chronicle(), "language", "es")
    organiser = app.test_client()
    AuthActions(organiser).login("boss", "organiser")
    printed = markup.unescape(organiser.get("/sheets/print", query_string={"character": lys.id}).get_data(as_text=True))
    for heading in ("Trasfondos", "Méritos", "Defectos", "Trastornos"):
        found = re.search(rf"<h3>{heading}</h3>(?:<ul.*?</ul>|<p class=\"ps-none\">(\w+)</p>)", printed, re.S)
        assert found, heading
        assert found.group(1) in (None, "ninguno"), (heading, found.group(1))


def test_the_spanish_tabletop_charts_marks_differ(app):
    client = app.test_client()
    AuthActions(client).login("nar", "narrator")
    with app.app_context(), db.connection_context():
        kon = Character.get(Character.name == "Konrad Vale").id
        teo = Character.get(Character.name == "Teodor Brandt").id
    assert client.post("/tabletop/start", data={"characters": [kon, teo]}, headers={**ES, **HX}).status_code == 200
    for headers in (ES, PT):
        page = client.get("/tabletop", headers=headers)
        assert page.status_code == 200
        card = re.search(r'<ol class="track tt-track".*?</ol>', page.get_data(as_text=True), re.S)
        assert card, "no fighter's chart on the tabletop"
        marks = re.findall(r'<span class="lvl">([^<]*)</span>', card.group(0))
        assert len(marks) == 7 and len(set(marks)) == 7, marks
