"""The rules core's refusals in the reader's language (issue 36 item 1, "every ... refusal"): the
refusals of larp/rules/ that were English f-strings are phrases now (larp.rules.explain.Phrase), and
reach the reader said in his language: the API's error answer with ``Accept-Language`` (English
unless asked), and every screen through the templates' ``finalize`` hook (larp.i18n.said_if_phrase).

Two kinds of check:
- a sample of refusals asked of the API, one or more per screen a user meets them on (the challenge,
  the combat board, the stray shot, healing, blood, feeding, the tabletop combat...), in the pseudo-locale
  (no English word left bare but the names) and a few read in Portuguese and Spanish;
- every refusal message of every module of larp/rules/ (but the parsing modules another branch owns),
  taken from the code itself, said at the edge in the pseudo-locale: no word of it is left in English,
  so a refusal that a test cannot reach by a request is covered too.
"""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest

from larp.db import db
from larp.i18n import said_if_phrase
from larp.rules.explain import Phrase
from tests.i18n_support import PSEUDO_HEADERS, bare_english
from tests.support import make_test_app
from tests.web.test_i18n_refusals import narrator_in_pseudo_locale  # noqa: F401 - the fixture, one copy

ROOT = Path(__file__).resolve().parents[2]
PT = {"Accept-Language": "pt-BR"}
ES = {"Accept-Language": "es"}

#: The T8 mass challenge of the API's examples (Dana against four attackers).
T8 = {"defender": {"name": "Dana", "traits": 7, "bid": ["Quick", "Wiry", "Tough", "Brawny"], "throw": "scissors",
                   "attack": {"action": "strike"}},
      "attackers": [{"name": f"A{i}", "traits": 7, "bid": ["Brawny"], "throw": t}
                    for i, t in enumerate(("rock", "scissors", "paper", "paper"), 1)]}
#: The stray shot of the API's examples (a shotgun fired at Konrad near three bystanders).
SHOT = {"firer": {"name": "Shooter", "traits": 8, "bid": ["Steady", "Quick", "Alert"]}, "weapon": "shotgun",
        "target": "Konrad", "firer_throw": "rock", "range": "far",
        "bystanders": [{"name": n, "traits": 5, "bid": ["Quick"], "throw": t}
                       for n, t in (("Ada", "scissors"), ("Bea", "scissors"), ("Cy", "paper"))]}
#: met-reference T5's first test (Daron's pistol against Michael).
T5 = {"category": "physical", "action": "weapon",
      "challenger": {"name": "Daron", "traits": 7, "bid": ["Wily"], "category": "mental",
                     "weapon": {"name": "pistol", "bonus": 2, "damage_type": "lethal", "levels": 2},
                     "abilities": {"Firearms": 2}},
      "defender": {"name": "Michael", "traits": 8, "bid": ["Quick"]},
      "tests": [{"call": "test", "challenger_throw": "rock", "defender_throw": "paper"}]}

#: (endpoint, body, the English refusal) for refusals converted to phrases, one or more a screen.
REFUSED = [
    pytest.param("/api/v1/challenges/rule",
                 {**T5, "challenger": {key: value for key, value in T5["challenger"].items() if key != "weapon"}},
                 "Daron attacks with a weapon: give its card.", id="challenge"),
    pytest.param("/api/v1/mass-challenges/rule", {**T8, "attackers": T8["attackers"] + [T8["attackers"][0]]},
                 "A1 is already an attacker.", id="combat-board"),
    pytest.param("/api/v1/firing-into-groups/rule",
                 {**SHOT, "bystanders": SHOT["bystanders"] + [{"name": "Konrad", "traits": 5, "bid": ["Quick"],
                                                              "throw": "rock"}]},
                 "Konrad is the target, not a bystander.", id="stray-shot"),
    pytest.param("/api/v1/healing", {"name": "Dana", "track": {"bashing": 2}, "kind": "bashing", "levels": 3,
                                     "blood": 5},
                 "Dana has only 2 levels of bashing damage to heal.", id="healing-counted"),
    pytest.param("/api/v1/feeding", {"drinker": {"name": "Anselm", "blood": 3, "blood_max": 10},
                                     "victim": {"name": "Walter", "track": {"creature": "vampire"}, "blood": 1},
                                     "blood": 3},
                 "Walter has only 1 blood point to drink.", id="feeding-counted"),
    pytest.param("/api/v1/feeding", {"drinker": {"name": "Anselm", "blood": 3, "blood_max": 10},
                                     "victim": {"name": "Walter", "track": {"creature": "mortal", "condition": "dead"}},
                                     "blood": 3},
                 "Walter is dead: there is no blood to drink.", id="feeding-dead"),
    pytest.param("/api/v1/blood", {"name": "Anselm", "track": {"lethal": 3, "condition": "torpor"}, "blood": 2,
                                   "reason": "rising"},
                 "Anselm is in torpor: she needs no blood and may spend none (000 \"Torpor\").", id="blood"),
]


NAMES = ["Daron", "Michael", "Dana", "Konrad", "Anselm", "Walter", "Shooter", "Ada", "Bea", "Cy"]


@pytest.mark.parametrize("endpoint, body, english", REFUSED)
def test_the_rules_refusals_reach_the_api_in_the_readers_language(narrator_in_pseudo_locale, endpoint, body, english):
    """English by default, exactly as before; in the pseudo-locale every word comes from a catalogue."""
    default = narrator_in_pseudo_locale.post(endpoint, json=body)
    assert default.status_code == 422, default.get_json()
    assert default.get_json()["error"] == english
    pseudo = narrator_in_pseudo_locale.post(endpoint, json=body, headers=PSEUDO_HEADERS)
    assert pseudo.status_code == 422
    said = pseudo.get_json()["error"]
    assert pseudo.get_json()["field"] == default.get_json()["field"]
    assert said != english and "⟦" in said
    assert not bare_english(f"<p>{html.escape(said)}</p>", allow=NAMES), said


def test_refusals_read_in_portuguese_and_spanish(client, auth, dbconn):
    auth.login()
    healing = {"name": "Dana", "track": {"bashing": 2}, "kind": "bashing", "levels": 3, "blood": 5}
    assert client.post("/api/v1/healing", json=healing, headers=PT).get_json()["error"] == \
        "Dana tem só 2 níveis de dano (contusão) para curar."
    assert client.post("/api/v1/healing", json=healing, headers=ES).get_json()["error"] == \
        "Dana solo tiene 2 niveles de daño contundente que curar."
    mob = {**T8, "attackers": T8["attackers"] + [T8["attackers"][0]]}
    assert client.post("/api/v1/mass-challenges/rule", json=mob, headers=PT).get_json()["error"] == \
        "A1 já é um atacante."
    assert client.post("/api/v1/mass-challenges/rule", json=mob, headers=ES).get_json()["error"] == \
        "A1 ya es un atacante."
    feeding = {"drinker": {"name": "Anselm", "blood": 3, "blood_max": 10},
               "victim": {"name": "Walter", "track": {"creature": "vampire"}, "blood": 2}, "blood": 3}
    assert client.post("/api/v1/feeding", json=feeding, headers=PT).get_json()["error"] == \
        "Walter tem só 2 pontos de sangue para beber."
    assert client.post("/api/v1/feeding", json=feeding, headers=ES).get_json()["error"] == \
        "Walter solo tiene 2 puntos de sangre que beber."


#: The modules another branch owns wholesale (issue 29's input readers), their refusals included.
NOT_MINE: set[str] = set()
#: The exceptions the rules core refuses with (larp.rules.explain.RulesError and its kinds), and the
#: experience purchases' Refusal (its message is the second argument).
REFUSALS = {"RulesError", "ExperienceError", "NumberError", "DiceNeeded", "PurchaseError"}


#: The API's own words a refusal quotes, that the pseudo-locale keeps as they are (JSON keys, a syntax).
API_WORDS = ["player", "narrator", "Name"]


def refusal_phrases() -> list[tuple[str, int, dict]]:
    """Every refusal written as a phrase in larp/rules/ (a ``Phrase.message(N_("..."), ...)`` or
    ``Phrase.counted(...)`` raised, or given to the experience purchases' Refusal), as
    (module, line, the phrase's data with every parameter a name)."""
    found = []
    for path in sorted((ROOT / "larp/rules").rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        if module in NOT_MINE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
                continue
            if node.func.id in REFUSALS:
                message = node.args[0]
            elif node.func.id == "Refusal" and len(node.args) == 2:
                message = node.args[1]
            else:
                continue
            for call in ast.walk(message):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                        and call.func.attr in ("message", "counted") and isinstance(call.func.value, ast.Name) \
                        and call.func.value.id == "Phrase":
                    templates = [s.value for s in ast.walk(call) if isinstance(s, ast.Constant)
                                 and isinstance(s.value, str) and s is not call.func]
                    for template in templates:
                        keys = set(re.findall(r"%\((\w+)\)s", template))
                        found.append((module, call.lineno, {"msg": template, "params": {k: "Konrad" for k in keys}}))
    return found


def test_every_refusal_of_the_rules_core_is_said_in_the_pseudo_locale(tmp_path):
    """Each message of every module (the N_ templates of the raises, each branch of a choice of
    templates, the counted ones' forms) said at the edge in the pseudo-locale: no English word left."""
    phrases = refusal_phrases()
    modules = {module for module, _line, _data in phrases}
    assert len(phrases) > 400 and len(modules) > 60, (len(phrases), len(modules))
    app = make_test_app(tmp_path, PSEUDO_LOCALE=True)
    bare = []
    with app.test_request_context("/", headers=PSEUDO_HEADERS):
        for module, line, data in phrases:
            said = said_if_phrase(Phrase(data))
            left = bare_english(f"<p>{html.escape(str(said))}</p>", allow=["Konrad", *API_WORDS])
            if left:
                bare.append(f"{module}:{line}: {data['msg']!r} -> {said!r}: {left}")
    if not db.is_closed():
        db.close()
    assert not bare, "\n".join(bare)
