"""Refusals in the reader's language (issue 36 item 1: "every ... refusal"): the rules core writes a
refusal's message as a phrase (larp.rules.explain.Phrase: its English, with its message id and
parameters); the screens say it in the reader's language through the templates' ``finalize`` hook
(larp.i18n.said_if_phrase), and the API's error answer in English unless ``Accept-Language`` asks for
another, its field names unchanged."""

from __future__ import annotations

import html
import re

import pytest
from flask import render_template_string

from larp.db import db
from larp.models import Character
from larp.rules.challenge.parsing import challenge_from_dict
from larp.rules.challenge import rule_challenge
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.settings import ChronicleSettings
from tests.i18n_support import PSEUDO_HEADERS, bare_english
from tests.support import AuthActions, make_test_app

PT = {"Accept-Language": "pt-BR"}
ES = {"Accept-Language": "es"}
EN = {"Accept-Language": "en"}

#: Konrad intimidates Vivienne (Social), both bids made, and no throws given: the rules refuse.
NO_THROWS = dict(category="social", challenger_bid="Intimidating", defender_bid="Alluring")

#: met-reference T5's first test (Daron's pistol against Michael), without Daron's throw.
T5 = {"category": "physical", "action": "weapon",
      "challenger": {"name": "Daron", "traits": 7, "bid": ["Wily"], "category": "mental",
                     "weapon": {"name": "pistol", "bonus": 2, "damage_type": "lethal", "levels": 2},
                     "abilities": {"Firearms": 2}},
      "defender": {"name": "Michael", "traits": 8, "bid": ["Quick"]},
      "tests": [{"call": "test", "defender_throw": "paper"}]}


def the_two() -> tuple[int, int]:
    """Konrad's and Vivienne's ids (the demo chronicle's)."""
    return (Character.get(Character.name == "Konrad Vale").id, Character.get(Character.name == "Vivienne Ashcombe").id)


def alerts(page: str) -> list[str]:
    """The texts of a page's inline refusals (``role="alert"``), unescaped."""
    return [html.unescape(re.sub(r"<[^>]+>", "", text)).strip()
            for text in re.findall(r'role="alert"[^>]*>(.*?)</(?:p|div)>', page, re.S)]


def test_a_refused_challenge_reads_in_the_readers_language_on_the_challenge_screen(client, auth, dbconn):
    auth.login()
    ids = the_two()
    data = {"challenger": ids[0], "defender": ids[1], **NO_THROWS}
    refused = client.post("/challenge", data=data, headers=PT)
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "Falta a jogada de Konrad Vale." in alerts(page)
    assert "throw is missing" not in page
    english = client.post("/challenge", data=data, headers=EN)
    assert english.status_code == 422
    assert "Konrad Vale's throw is missing." in alerts(english.get_data(as_text=True))
    spanish = client.post("/challenge", data=data, headers=ES).get_data(as_text=True)
    assert "Falta la jugada de Konrad Vale." in alerts(spanish)


def test_a_bad_throw_is_refused_in_portuguese_beside_the_side(client, auth, dbconn):
    auth.login()
    ids = the_two()
    data = {"challenger": ids[0], "defender": ids[1], **NO_THROWS, "challenger_throw": "rock",
            "defender_throw": "stone"}
    refused = client.post("/challenge", data=data, headers=PT)
    assert refused.status_code == 422
    assert "'stone' não é uma jogada: use pedra, papel, tesoura ou bomba." in alerts(refused.get_data(as_text=True))


def test_the_apis_refusal_is_english_unless_accept_language_asks(client, auth, dbconn):
    auth.login()
    default = client.post("/api/v1/challenges/rule", json=T5)
    assert default.status_code == 422
    assert default.get_json() == {"error": "Daron's throw is missing.", "field": "tests[0].challenger_throw"}
    portuguese = client.post("/api/v1/challenges/rule", json=T5, headers=PT)
    assert portuguese.status_code == 422
    assert portuguese.get_json() == {"error": "Falta a jogada de Daron.", "field": "tests[0].challenger_throw"}
    overbid = {**T5, "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
                               {"call": "overbid", "by": "defender", "trait": "Quick"}]}
    refused = client.post("/api/v1/challenges/rule", json=overbid, headers=PT).get_json()
    assert refused["field"] == "tests[1].by"
    assert refused["error"] == "Michael venceu o último teste; só o lado que o perdeu pode chamar isto."


def test_a_refusal_keeps_its_english_in_the_core():
    """The pure part: what the core raises compares equal to the English it always wrote, and keeps its
    message id and parameters for the edge."""
    with pytest.raises(RulesError) as raised:
        rule_challenge(challenge_from_dict(T5), ChronicleSettings.defaults())
    message = raised.value.message
    assert message == "Daron's throw is missing." and str(raised.value) == "Daron's throw is missing."
    assert isinstance(message, Phrase)
    assert message.data() == {"msg": "%(name)s's throw is missing.", "params": {"name": "Daron"}}


def test_a_phrase_in_a_template_is_said_and_escaped_once(app):
    message = Phrase.message(N_("%(name)s's throw is missing."), name="<b>Tom & Jerry</b>")
    with app.test_request_context("/", headers=PT):
        shown = render_template_string("<p>{{ message }}</p>{{ plain }}", message=message, plain="a < b")
    assert shown == "<p>Falta a jogada de &lt;b&gt;Tom &amp; Jerry&lt;/b&gt;.</p>a &lt; b"


@pytest.fixture
def narrator_in_pseudo_locale(tmp_path):
    """A narrator's client of an app that knows the pseudo-locale (tests only)."""
    client = make_test_app(tmp_path, PSEUDO_LOCALE=True).test_client()
    AuthActions(client).login("nar", "narrator")
    yield client
    if not db.is_closed():
        db.close()


@pytest.mark.parametrize("tests, field", [
    ([{"call": "test", "defender_throw": "paper"}], "tests[0].challenger_throw"),
    ([{"call": "test", "challenger_throw": "stone", "defender_throw": "paper"}], "tests[0].challenger_throw"),
    ([{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
      {"call": "overbid", "by": "defender", "trait": "Quick"}], "tests[1].by"),
    ([{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"},
      {"call": "retest", "by": "challenger", "source": "merit:Lucky", "challenger_throw": "rock",
       "defender_throw": "paper"}], "tests[1].source"),
    ([{"call": "overbid", "by": "challenger", "trait": "Wily"}], "tests[0].call"),
])
def test_refusals_leave_no_english_bare_in_the_pseudo_locale(narrator_in_pseudo_locale, tests, field):
    """Every word of these refusals comes from a catalogue message, but the names and the chronicle's words."""
    answer = narrator_in_pseudo_locale.post("/api/v1/challenges/rule", json={**T5, "tests": tests}, headers=PSEUDO_HEADERS)
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["field"] == field
    assert body["error"].startswith("⟦")
    assert not bare_english(f"<p>{html.escape(body['error'])}</p>", allow=["Daron", "Michael", "stone", "Lucky"]), \
        body["error"]
