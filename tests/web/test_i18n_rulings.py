"""A ruling in the reader's language (issue 36 item 1): the rules core writes each step and the summary
as a message id with its parameters (larp.rules.explain.Phrase); the record keeps them, and the edge says
them in whoever's language opens the ruling. Rulings recorded before keep their English.

Done for the one-on-one challenge (larp/rules/challenge): "A ruling resolved in pt_BR reads entirely in
Portuguese, steps included, and the same ruling opened by an English-speaking organiser reads in English."
"""

from __future__ import annotations

import html
import re

import pytest

from larp.db import db
from larp.models import Character, Ruling
from larp.rules.explain import ENGLISH, Explanation, N_, Phrase, Speaker, Step, say, traits
from tests.web.test_i18n_pages import pseudo_app  # noqa: F401 - the pseudo-locale app fixture
from tests.i18n_support import PSEUDO_HEADERS, bare_english
from tests.support import AuthActions, make_test_app

PT = {"Accept-Language": "pt-BR"}
ES = {"Accept-Language": "es"}
EN = {"Accept-Language": "en"}

#: Konrad intimidates Vivienne (Social), Rock against Scissors: Konrad wins the test and Vivienne loses
#: her bid Trait (the demo chronicle's characters and Traits).
CHALLENGE = dict(category="social", challenger_bid="Intimidating", defender_bid="Alluring",
                 challenger_throw="rock", defender_throw="scissors")


def the_two() -> tuple[int, int]:
    """Konrad's and Vivienne's ids (the demo chronicle's)."""
    return (Character.get(Character.name == "Konrad Vale").id, Character.get(Character.name == "Vivienne Ashcombe").id)


def post(client, ids: tuple[int, int], **fields) -> None:
    """Resolve a one-on-one on the challenge screen and record it as it stands (a retest could follow)."""
    data = {"challenger": ids[0], "defender": ids[1], **CHALLENGE, **fields}
    response = client.post("/challenge", data=data)
    match = re.search(r"name=\"tests_json\" value='([^']*)'", response.get_data(as_text=True))
    if match:
        response = client.post("/challenge", data={**data, "step": "record",
                                                   "tests_json": html.unescape(match.group(1))})
    assert response.status_code in (200, 303), response.get_data(as_text=True)[:400]


def last_ruling() -> Ruling:
    return Ruling.select().order_by(Ruling.id.desc()).get()


def resolve(client, **fields) -> Ruling:
    """:func:`post` Konrad against Vivienne, and the ruling recorded."""
    post(client, the_two(), **fields)
    return last_ruling()


def ruling_words(page: str) -> tuple[str, list[str]]:
    """The summary and the steps' texts of a ruling's page."""
    summary = html.unescape(re.search(r'<h2 class="ruling-summary">(.*?)</h2>', page, re.S).group(1))
    steps = [html.unescape(text) for text in re.findall(r'<span class="step-text">(.*?)</span>', page, re.S)]
    return summary, steps


def test_a_challenge_recorded_in_portuguese_reads_in_each_readers_language(client, auth, dbconn):
    auth.login()
    ruling = resolve(client)
    english_steps = [step["text"] for step in ruling.steps]
    assert ruling.summary == "Konrad Vale wins: Vivienne Ashcombe loses Alluring."
    assert all(step.get("said") for step in ruling.steps), "each step of a one-on-one is a message with parameters"
    assert ruling.summary_said["msg"] == "%(head)s: %(parts)s."

    summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True))
    assert summary == "Konrad Vale vence: Vivienne Ashcombe perde Alluring."
    assert steps[0] == ("Konrad Vale desafia Vivienne Ashcombe (Social): outro resultado declarado. "
                        "Konrad Vale aposta Intimidating; Vivienne Ashcombe aposta Alluring.")
    assert steps[1] == "Pedra vence Tesoura: Konrad Vale vence o teste."
    assert "Vivienne Ashcombe perde Alluring pelo resto da sessão de jogo." in steps

    summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=ES).get_data(as_text=True))
    assert summary == "Konrad Vale gana: Vivienne Ashcombe pierde Alluring."
    assert steps[1] == "Piedra vence a Tijera: Konrad Vale gana la prueba."

    summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=EN).get_data(as_text=True))
    assert summary == ruling.summary and steps == english_steps


def test_a_tie_decided_on_traits_reads_in_portuguese_with_its_numbers(client, auth, dbconn):
    """002 "Ties": the counted Traits (numbers as the locale writes them) and the glossary's words."""
    auth.login()
    ruling = resolve(client, defender_throw="rock")
    _summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True))
    assert any(step.startswith("Os dois fazem a jogada Pedra: empate. Comparem as Características atuais (Social)")
               for step in steps), steps
    assert not any(re.search(r"\b(tie|Traits|wins|loses|challenges)\b", step) for step in steps), steps


def test_a_ruling_recorded_before_keeps_its_english(client, auth, dbconn):
    """Rulings recorded before (and exports of earlier versions) have no phrase data: their words stand."""
    auth.login()
    ruling = resolve(client)
    Ruling.update(summary_said=None, steps=[{"text": s["text"], "rule": s["rule"]} for s in ruling.steps]).where(
        Ruling.id == ruling.id).execute()
    summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True))
    assert summary == ruling.summary and steps == [s["text"] for s in ruling.steps]


def test_the_api_answers_in_english_unless_asked(client, auth, dbconn):
    auth.login()
    ruling = resolve(client)
    english = client.get(f"/api/v1/rulings/{ruling.id}").get_json()
    assert english["summary"] == ruling.summary
    assert [s["text"] for s in english["steps"]] == [s["text"] for s in ruling.steps]
    assert all(set(s) <= {"text", "rule", "setting"} for s in english["steps"]), "the API's step shape is unchanged"
    portuguese = client.get(f"/api/v1/rulings/{ruling.id}", headers=PT).get_json()
    assert portuguese["summary"] == "Konrad Vale vence: Vivienne Ashcombe perde Alluring."
    assert [s["rule"] for s in portuguese["steps"]] == [s["rule"] for s in ruling.steps]


def test_the_export_carries_the_phrases(client, auth, dbconn):
    """Issue 27's round trip: a chronicle's export keeps each ruling's phrase data, so an import reads alike."""
    from larp.services.chronicles import get_chronicle
    from larp.services.transfer import export_chronicle

    auth.login()
    ruling = resolve(client)
    data = export_chronicle(get_chronicle())
    exported = next(r for r in data["rulings"] if r["summary"] == ruling.summary)
    assert exported["summary_said"] == ruling.summary_said
    assert exported["steps"] == ruling.steps




def test_a_ruling_leaves_no_english_bare_in_the_pseudo_locale(pseudo_app):
    """Every word of a one-on-one's summary and steps comes from a catalogue message, but the names and Traits
    (the chronicle's words) — a tie decided on Traits, with a retest by an Ability, to reach many steps."""
    client = pseudo_app.test_client()
    AuthActions(client).login("nar", "narrator")
    # Each request outside the app context the test opens for the database: Flask-Babel keeps a
    # request's locale on its app context, which an outer one would share.
    with pseudo_app.app_context(), db.connection_context():
        ids = the_two()
    post(client, ids, defender_throw="rock")
    with pseudo_app.app_context(), db.connection_context():
        ruling_id = last_ruling().id
    page = client.get(f"/rulings/{ruling_id}", headers=PSEUDO_HEADERS).get_data(as_text=True)
    allowed = ["Konrad", "Vale", "Vivienne", "Ashcombe", "Intimidating", "Alluring"]
    summary, steps = ruling_words(page)
    assert len(steps) >= 4
    for text in [summary, *steps]:
        assert not bare_english(f"<p>{html.escape(text)}</p>", allow=allowed), text


def test_a_phrase_is_said_in_each_language_and_stays_english_in_the_core():
    """The pure part: a step keeps its template and parameters; English is what the core always wrote;
    a counted phrase follows the language's plural rule; a game word goes through the glossary's word."""
    steps = Explanation()
    steps.add(N_("%(name)s risks %(traits)s more (%(kind)s)."), "R", name="Ann", traits=traits(2),
              kind=Phrase.term("lethal"))
    steps.add("A fixed sentence.", "R")
    first, second = steps.steps()
    assert first.text == "Ann risks 2 Traits more (lethal)." and second.said is None
    assert Step.from_dict(first.to_record()) == first and "said" not in first.to_dict()
    loud = Speaker(gettext=lambda message: message.replace("risks", "RISKS"),
                   ngettext=lambda one, many, n: (one if n == 1 else many).replace("Trait", "TRAIT"),
                   term=lambda word: f"<{word}>", number=lambda n: f"#{n}")
    assert say(first.said, loud) == "Ann RISKS #2 TRAITs more (<lethal>)."
    assert say(first.said, ENGLISH) == first.text


def test_damage_by_hand_reads_in_portuguese(client, auth, dbconn):
    """Damage marked by hand (LotNR Health, met-reference 4.1): the summary and the marking's steps in the
    reader's language; a mortal's aggravated damage is treated as lethal (001 "Aggravated Damage")."""
    auth.login()
    konrad = Character.get(Character.name == "Konrad Vale")
    response = client.post(f"/characters/{konrad.id}/damage", data={"damage_type": "lethal", "levels": "2"})
    assert response.status_code in (200, 303)
    ruling = last_ruling()
    assert ruling.kind == "damage" and ruling.summary_said
    summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True))
    assert summary.startswith("Konrad Vale sofre 2 níveis letais; estado agora: "), summary
    assert ("Konrad Vale sofre 2 níveis de dano (letal): os níveis Saudável do primeiro ao segundo estão marcados; "
            "estado de Konrad Vale agora: Escoriado.") in steps, steps
    assert not any(re.search(r"\b(takes|levels|damage|marked|now)\b", step) for step in steps), steps
    summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=EN).get_data(as_text=True))
    assert summary == ruling.summary and steps == [s["text"] for s in ruling.steps]


def test_a_blow_and_its_damage_read_in_portuguese(client, auth, dbconn):
    """A Physical challenge won with a bare-handed strike (002 "Damage and Healing"): the challenge's steps, the
    strike's damage, a vampire's bashing halved (LotNR Bashing/Lethal) and the marking, all in Portuguese."""
    auth.login()
    ruling = resolve(client, category="physical", action="strike", challenger_bid="Brawny", defender_bid="Quick")
    _summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True))
    assert "Konrad Vale golpeia desarmado: um nível de dano por contusão." in steps, steps
    assert "Konrad Vale atinge Vivienne Ashcombe: golpe desarmado." in steps, steps
    assert not any(re.search(r"\b(takes|levels?|damage|marked|now|strikes|wins|is)\b", step) for step in steps), steps


def test_healing_with_blood_reads_in_portuguese(client, auth, dbconn):
    """A vampire heals lethal damage with blood (002 "Damage and Healing"; LotNR ch.3 Blood Traits): the
    summary and the steps in Portuguese, with the blood points counted in the language's plural."""
    auth.login()
    konrad = Character.get(Character.name == "Konrad Vale")
    client.post(f"/characters/{konrad.id}/damage", data={"damage_type": "lethal", "levels": "2"})
    response = client.post(f"/characters/{konrad.id}/heal", data={"kind": "lethal", "levels": "1"})
    assert response.status_code in (200, 303)
    ruling = last_ruling()
    assert ruling.kind == "healing", ruling.kind
    summary, steps = ruling_words(client.get(f"/rulings/{ruling.id}", headers=PT).get_data(as_text=True))
    assert summary == "Konrad Vale cura 1 nível letal por 1 ponto de sangue.", summary
    assert "Konrad Vale agora está no nível Saudável." in steps, steps
    assert not any(re.search(r"\b(heals?|spends|blood|points?|level|now)\b", step) for step in steps), steps


def test_the_challenge_so_far_reads_in_portuguese(client, auth, dbconn):
    """The result before it is recorded (a side may still retest: LotNR Retests, met-reference 1.7): the summary
    so far, the calls, the buttons and every step in the reader's language (a new user found it in English)."""
    auth.login()
    ids = the_two()
    data = {"challenger": ids[0], "defender": ids[1], **CHALLENGE, "defender_throw": "rock"}
    page = client.post("/challenge", data=data, headers=PT).get_data(as_text=True)
    box = re.search(r'<article class="ruling in-progress".*?</article>', page, re.S).group(0)
    text = html.unescape(re.sub(r"<[^>]+>", " ", box))
    assert "Até agora: Vivienne Ashcombe vence: Konrad Vale perde Intimidating." in text, text
    assert "Registrar como está" in text and "Ainda não registrado" in text
    assert not re.search(r"\b(So far|may|Record|Retest|Not recorded|wins|loses|tie|Traits)\b", text), text


def test_an_undone_ruling_says_so_in_the_record(client, auth, dbconn):
    """A ruling undone (its Undo) is marked undone on the record's list and its page (a new user read an undone
    hit as a second hit)."""
    from larp.models import utcnow

    auth.login()
    ruling = resolve(client)
    listed = client.get("/rulings").get_data(as_text=True)
    assert 'class="undone-tag"' not in listed
    Ruling.update(undone_at=utcnow()).where(Ruling.id == ruling.id).execute()
    listed = client.get("/rulings").get_data(as_text=True)
    assert re.search(rf'#{ruling.id} .*?<span class="undone-tag">undone</span>', listed, re.S)
    page = client.get(f"/rulings/{ruling.id}").get_data(as_text=True)
    assert '<span class="undone-tag">undone</span>' in page and "everyone is as before it." in page
