"""More kinds of ruling in the reader's language (issue 36 item 1): the combat board's mass challenge, the
stray shot and the other rulings whose steps and summary the rules core writes as phrases
(larp.rules.explain.Phrase). Each is recorded, then read on its page with ``Accept-Language: pt-BR``:
the summary and the steps in Portuguese, no English word left (names and Traits are the chronicle's).

Requests are made outside any app context the test opens for the database: Flask-Babel keeps a request's
locale on its app context, which an outer one would share.
"""

from __future__ import annotations

import html
import re

import pytest

from larp.db import db
from larp.models import Character, Ruling
from tests.web.test_i18n_pages import pseudo_app  # noqa: F401 - the pseudo-locale app fixture
from tests.i18n_support import PSEUDO_HEADERS, bare_english
from tests.support import AuthActions, make_test_app

PT = {"Accept-Language": "pt-BR"}
EN = {"Accept-Language": "en"}




def ruling_words(page: str) -> tuple[str, list[str]]:
    """The summary and the steps' texts of a ruling's page."""
    summary = html.unescape(re.search(r'<h2 class="ruling-summary">(.*?)</h2>', page, re.S).group(1))
    steps = [html.unescape(text) for text in re.findall(r'<span class="step-text">(.*?)</span>', page, re.S)]
    return summary, steps


def ids_by_first_name(app) -> dict[str, int]:
    """The demo chronicle's characters' ids by first name (read in an app context of its own)."""
    with app.app_context(), db.connection_context():
        return {c.name.split()[0]: c.id for c in Character.select()}


def english_left(texts: list[str], allowed: list[str]) -> list[str]:
    """The texts with a bare English word in the pseudo-locale (names and Traits ``allowed``)."""
    return [text for text in texts if bare_english(f"<p>{html.escape(text)}</p>", allow=allowed)]


def record(client, path: str, body: dict) -> int:
    """Record a ruling through the stored API; its id."""
    response = client.post(path, json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["ruling_id"]


def recorded(app, path: str, body) -> tuple:
    """A narrator's client that recorded a ruling through the stored API at ``path`` (``body``: a function of the
    demo's ids by first name, or the body), and the ruling as stored."""
    client = app.test_client()
    AuthActions(client).login()
    ruling_id = record(client, path, body(ids_by_first_name(app)) if callable(body) else body)
    with app.app_context(), db.connection_context():
        return client, Ruling.get_by_id(ruling_id)


def read(client, ruling_id: int, headers: dict) -> tuple[str, list[str]]:
    """The summary and the steps of a ruling's record page read with ``headers``."""
    return ruling_words(client.get(f"/rulings/{ruling_id}", headers=headers).get_data(as_text=True))


NAMES = ["Konrad", "Vale", "Teodor", "Lys", "Moreau", "Pim", "Ruth", "Calder"]


#: A mass challenge on the combat board (002 "Mass Combat"; LotNR Mob Scene): Teodor (a knife) and Lys attack
#: Konrad, who throws Scissors: Teodor's Rock beats him, his Scissors beat Lys's Paper.
MASS = {"attackers": [{"first": "Teodor", "throw": "rock", "weapon": "knife"}, {"first": "Lys", "throw": "paper"}]}


def mass_body(ids: dict[str, int], weapon: bool = True) -> dict:
    """:data:`MASS` on the demo chronicle's characters, as the stored API takes it."""
    attackers = [{"character_id": ids[a["first"]], "throw": a["throw"],
                  **({"weapon": a["weapon"]} if weapon and "weapon" in a else {})} for a in MASS["attackers"]]
    return {"target": {"character_id": ids["Konrad"], "throw": "scissors"}, "attackers": attackers}


def test_a_mass_challenge_reads_in_portuguese(app):
    client, ruling = recorded(app, "/api/v1/mass-challenges", mass_body)
    ruling_id = ruling.id
    assert ruling.summary == ("Konrad Vale against 2: Teodor Brandt wins; Lys Moreau loses. Konrad Vale is hit once "
                              "and is Bruised.")
    assert ruling.summary_said and ruling.steps[0].get("said")
    summary, steps = read(client, ruling_id, PT)
    assert summary == ("Konrad Vale contra 2: Teodor Brandt vence; Lys Moreau perde. Acertam Konrad Vale uma vez; "
                       "estado: Escoriado."), summary
    assert steps[0] == "2 atacam Konrad Vale: 2 corpo a corpo, 0 à distância (no máximo 5 de cada)."
    assert "Konrad Vale se defende de 2 de 2 atacantes e aposta 2 Características." in steps, steps
    assert "Teodor Brandt: 11 Características." in steps, steps
    assert not any(re.search(r"\b(attacks?|attackers?|Traits?|against|wins|loses|hit|order|pair)\b", step)
                   for step in steps), steps
    summary, steps = read(client, ruling_id, EN)
    assert summary == ruling.summary and steps == [step["text"] for step in ruling.steps]


def test_a_mass_challenge_leaves_no_english_bare_in_the_pseudo_locale(pseudo_app):
    client = pseudo_app.test_client()
    AuthActions(client).login("nar", "narrator")
    ruling_id = record(client, "/api/v1/mass-challenges", mass_body(ids_by_first_name(pseudo_app), weapon=False))
    summary, steps = ruling_words(client.get(f"/rulings/{ruling_id}", headers=PSEUDO_HEADERS).get_data(as_text=True))
    assert len(steps) >= 10
    assert not english_left([summary, *steps], NAMES + ["Brandt", "Brawny", "Quick", "Ferocious"])


def stray_body(ids: dict[str, int]) -> dict:
    """Ruth's pistol shot at Konrad misses; Lys (Scissors against Rock) and Pim (Paper against Scissors) stand near."""
    return {"firer": {"character_id": ids["Ruth"], "weapon": "pistol"}, "target_id": ids["Konrad"],
            "bystanders": [{"character_id": ids["Lys"], "throw": "scissors", "firer_throw": "rock"},
                           {"character_id": ids["Pim"], "throw": "paper", "firer_throw": "scissors"}]}


def test_a_stray_shot_reads_in_portuguese(app):
    """002 "Firing into Groups": the missed shot, the tests near the target, the hit and its damage."""
    client, ruling = recorded(app, "/api/v1/firing-into-groups", stray_body)
    ruling_id = ruling.id
    assert ruling.summary == "Ruth Calder's stray round hits Lys Moreau."
    summary, steps = read(client, ruling_id, PT)
    assert summary == "A bala perdida de Ruth Calder atinge Lys Moreau.", summary
    assert steps[0] == ("O tiro de Ruth Calder em Konrad Vale errou; perto do alvo, do mais próximo ao mais distante: "
                        "Lys Moreau, Pim Halloran. Ruth Calder é testado contra cada um deles nessa ordem."), steps
    assert "Ruth Calder vence o teste: a bala perdida atinge Lys Moreau." in steps, steps
    # The settings' labels a step names in brackets ("(A bystander who is hit loses a Trait: no)") have no
    # translation yet (the chronicle settings' words, not this issue's part): left out of the check.
    told = [re.sub(r"\([^()]*: [^()]*\)", "", step) for step in steps]
    assert not any(re.search(r"\b(shot|missed|tests?|risks?|Traits?|wins|hits?|stray|round|people|person)\b", step)
                   for step in told), told
    summary, steps = read(client, ruling_id, EN)
    assert summary == ruling.summary and steps == [step["text"] for step in ruling.steps]


def test_blood_called_for_and_feeding_read_in_portuguese(app):
    """LotNR generation table and "Blood" (met-reference 5.1, 3.7): blood spent for rising at sunset, and a
    vampire draining a mortal (her lethal damage marked), each summary and step in Portuguese."""
    client = app.test_client()
    AuthActions(client).login()
    ids = ids_by_first_name(app)
    called = record(client, f"/api/v1/characters/{ids['Konrad']}/blood", {"blood": 1, "reason": "rising"})
    record(client, f"/api/v1/characters/{ids['Konrad']}/blood", {"blood": 1, "reason": "discipline"})  # room for 2
    fed = record(client, f"/api/v1/characters/{ids['Konrad']}/feed-on", {"victim": ids["Ruth"], "blood": 2})
    with app.app_context(), db.connection_context():
        english = {ruling.id: ruling for ruling in Ruling.select().where(Ruling.id.in_([called, fed]))}
    assert english[called].summary == "Konrad Vale spends 1 blood point for rising at sunset."
    summary, steps = ruling_words(client.get(f"/rulings/{called}", headers=PT).get_data(as_text=True))
    assert summary == "Konrad Vale gasta 1 ponto de sangue: despertar ao pôr do sol.", summary
    assert steps[0].startswith("Despertar ao pôr do sol: custo de 1 ponto de sangue; Konrad Vale tem "), steps
    summary, steps = ruling_words(client.get(f"/rulings/{fed}", headers=PT).get_data(as_text=True))
    assert summary.startswith("Konrad Vale drena 2 Características de Sangue de Ruth Calder, que sofre 2 de dano letal e "
                              "agora está no nível "), summary
    assert steps[0] == "Konrad Vale drena 2 Características de Sangue de Ruth Calder: no máximo 3 por turno, 1 turno."
    for ruling_id in (called, fed):
        _summary, steps = read(client, ruling_id, PT)
        assert not any(re.search(r"\b(blood|points?|spends|drains|pool|turns?|takes|level|lethal|now)\b", step)
                       for step in steps), steps
        summary, steps = read(client, ruling_id, EN)
        assert summary == english[ruling_id].summary and steps == [s["text"] for s in english[ruling_id].steps]


def test_torpor_reads_in_portuguese(app):
    """000 "Torpor"; LotNR Torpor (met-reference 5.2): damage past Incapacitated puts a vampire into torpor, and
    the ruling's steps give its length from the chronicle's table and its wake date, in Portuguese."""
    client = app.test_client()
    AuthActions(client).login()
    konrad = ids_by_first_name(app)["Konrad"]
    response = client.post(f"/characters/{konrad}/damage", data={"damage_type": "lethal", "levels": "9"})
    assert response.status_code in (200, 303)
    with app.app_context(), db.connection_context():
        ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    _summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True))
    entered = next(i for i, step in enumerate(steps) if step.startswith("Konrad Vale entra em torpor em "))
    assert steps[entered].endswith(" (ferimentos).")
    assert steps[entered + 1:entered + 3] == ["Características de Humanidade ou Trilha (MET): 3.",
                                              "Torpor na pontuação 3: um ano."], steps
    assert any(re.fullmatch(r"São 36\d noites em torpor, de [\d-]+ a [\d-]+\.", step) for step in steps), steps
    assert not any(re.search(r"\b(enters|wounds|Traits|year|night|nights|wake|Calendar|from|rating)\b", step)
                   for step in steps), steps
    _summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=EN).get_data(as_text=True))
    assert steps == [step["text"] for step in ruling.steps]


def test_a_virtue_test_reads_in_portuguese(app):
    """LotNR Virtue Tests and Courage (met-reference 1.6, T26): a lost Courage test against a torch sends a vampire
    into Rötschreck with a permanent Negative Trait (his sheet's words, kept), the steps in Portuguese."""
    konrad = ids_by_first_name(app)["Konrad"]
    client, ruling = recorded(app, f"/api/v1/characters/{konrad}/virtue-test",
                              {"virtue": "courage", "stimulus": "torch", "throw": "rock", "narrator_throw": "paper"})
    ruling_id = ruling.id
    assert ruling.summary == "Konrad Vale enters Rötschreck; Cowardly or Submissive."
    summary, steps = read(client, ruling_id, PT)
    assert summary == "Konrad Vale entra em Rötschreck; Cowardly ou Submissive.", summary
    assert steps[0] == ("Konrad Vale faz um teste estático de Coragem contra tocha (2 Características): nenhuma "
                        "Característica é arriscada e não se permite sobrelance."), steps
    assert steps[-1] == ("Konrad Vale entra em Rötschreck e ganha a Característica Negativa permanente Cowardly ou "
                         "Submissive (físico ou mental; o jogador escolhe)."), steps
    assert not any(re.search(r"\b(makes|static|test|against|Traits?|torch|enters|gains|player|Wound)\b", step)
                   for step in steps), steps
    summary, steps = read(client, ruling_id, EN)
    assert summary == ruling.summary and steps == [step["text"] for step in ruling.steps]


def test_sunlight_reads_in_portuguese(app):
    """LotNR Sunlight (met-reference 3.7, T26): two turns of indirect sunlight on the health panel, its aggravated
    levels and the Courage test it calls for, in Portuguese."""
    client = app.test_client()
    AuthActions(client).login()
    vivienne = ids_by_first_name(app)["Vivienne"]
    response = client.post(f"/characters/{vivienne}/damage", data={
        "damage_type": "lethal", "levels": "5", "source": "sunlight", "exposure": "indirect", "turns": "2"})
    assert response.status_code == 303
    with app.app_context(), db.connection_context():
        ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    _summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True))
    assert ("Luz do sol indireta (através de cortinas grossas, nuvens pesadas): 1 nível de dano agravado por turno; "
            "2 turnos: 2 níveis.") in steps, steps
    assert ("Vivienne Ashcombe também deve fazer um teste estático de Coragem contra 2 Características (luz do sol "
            "encoberta) ou entrar em Rötschreck.") in steps, steps
    assert not any(re.search(r"\b(sunlight|turns?|levels?|must|Courage|Traits?)\b", step) for step in steps), steps
    _summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=EN).get_data(as_text=True))
    assert steps == [step["text"] for step in ruling.steps]
