"""A new user's findings on the "why" steps' words in Spanish and Portuguese (wave 9, item 11): a winner's Trait
lost on an earlier test agrees with the count ("perdido", "perdidos"), and the throw is called by the glossary's
one word ("jugada", "jogada"), never "signo"/"sinal" beside it."""

from __future__ import annotations

from larp.models import Character, Ruling
from tests.web.test_combat_board_web import board_fields, cast, post  # noqa: F401 - cast: a fixture


def retest_won(client) -> Ruling:
    """Konrad loses the first test (Brawny lost), retests with Brawl and wins: one Trait lost on an earlier test."""
    viv = Character.get(Character.name == "Vivienne Ashcombe")
    kon = Character.get(Character.name == "Konrad Vale")
    response = client.post("/api/v1/challenges", json={
        "category": "physical", "challenger": {"character_id": viv.id, "bid": "Quick"},
        "defender": {"character_id": kon.id, "bid": "Brawny"}, "defender_action": "strike",
        "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "scissors"},
                  {"call": "retest", "by": "defender", "source": "ability:Brawl",
                   "challenger_throw": "rock", "defender_throw": "paper"}]})
    assert response.status_code == 201, response.get_json()
    return Ruling.select().order_by(Ruling.id.desc()).get()


def test_one_trait_lost_on_an_earlier_test_is_singular(client, auth, dbconn):
    auth.login()
    ruling = retest_won(client)
    english = client.get(f"/rulings/{ruling.id}").get_data(as_text=True)
    assert ("Konrad Vale wins but still loses Brawny for the rest of the game session (lost on an earlier test "
            "of this challenge).") in english
    spanish = client.get(f"/rulings/{ruling.id}", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Konrad Vale gana, pero aun así pierde Brawny" in spanish
    assert "(perdido en una prueba anterior de este desafío)." in spanish and "(perdidos" not in spanish
    portuguese = client.get(f"/rulings/{ruling.id}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "(perdida num teste anterior deste desafio)." in portuguese and "(perdidas" not in portuguese


def test_the_mass_challenges_step_calls_the_throw_by_one_word(client, auth, cast, dbconn):
    auth.login()
    konrad, viv, ruth = cast["Konrad"], cast["Vivienne"], cast["Ruth"]
    post(client, {**board_fields(konrad[0], [viv[0], ruth[0]], throws={viv[0]: "paper", ruth[0]: "paper"}),
                  "step": "record"})
    ruling = Ruling.get(Ruling.kind == "mass_combat")
    spanish = client.get(f"/rulings/{ruling.id}", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "se compara con la jugada de cada atacante" in spanish and "signo" not in spanish
    portuguese = client.get(f"/rulings/{ruling.id}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "é comparada com a jogada de cada atacante" in portuguese and "sinal" not in portuguese
