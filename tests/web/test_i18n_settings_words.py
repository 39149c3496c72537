"""The chronicle settings' labels and choices in the reader's language (issue 36, wave 6): data/settings
is read for the translators (larp.settings_messages, a Babel extraction method mapped in pyproject.toml),
the settings page says each setting's label and each choice's label through the catalogue, and a ruling's
step that names a setting's chosen option in brackets (``Phrase.term(settings.label(key))``) reads it in
the reader's language. Since wave 7 the settings' long help texts and sources are translated too
(tests/web/test_i18n_settings_page.py).
"""

from __future__ import annotations

import html
import re

from larp.db import db
from larp.i18n import pseudo, step_text
from larp.rules.challenge import Call, Category, Challenge, Contestant, Kind, Outcome, Throw, rule_challenge
from larp.rules.challenge import TestCall as TCall
from larp.rules.settings import ChronicleSettings, setting_definitions
from larp.settings_messages import extract_settings
from tests.i18n_support import PSEUDO_HEADERS
from tests.support import AuthActions, make_test_app
from tests.web.test_i18n_pages import pseudo_app  # noqa: F401 - the app in the pseudo-locale (a fixture)


def test_the_extractor_yields_every_label_choice_help_and_source():
    from io import BytesIO
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "data/settings/challenge.toml").read_bytes()
    found = [message for _line, _func, message, _comments in extract_settings(BytesIO(text), None, None, {})]
    definition = setting_definitions()["static_equal_tie"]
    assert definition.label in found and all(label in found for _v, label in definition.choices)
    assert definition.help in found and definition.source in found
    darkness = (Path(__file__).resolve().parents[2] / "data/settings/darkness_lists.toml").read_bytes()
    rows = [message for _line, _func, message, _comments in extract_settings(BytesIO(darkness), None, None, {})]
    assert "Tongue of the Asp (Serpentis)" in rows  # a row of the darkness lists' table


def test_the_settings_page_says_the_labels_and_choices_in_the_pseudo_locale(pseudo_app):
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    page = html.unescape(client.get("/settings", headers=PSEUDO_HEADERS).get_data(as_text=True))
    labels = re.findall(r"<strong>(.*?)</strong>", page, re.S)
    options = re.findall(r"<option [^>]*>(.*?)</option>", page, re.S)
    with pseudo_app.app_context(), db.connection_context():
        definitions = setting_definitions().values()
    for d in definitions:
        assert d.label not in labels, f"{d.key}: its label is English on a pseudo-locale page"
        if d.family != "darkness_lists":
            assert pseudo(d.label) in labels, d.key
        for _value, label in d.choices:
            assert pseudo(label) in options and label not in options, f"{d.key}: {label}"
    tie = setting_definitions()["static_equal_tie"]
    assert pseudo(tie.describe(tie.default)) in page  # "Default: …" names the choice in force


def test_a_static_tie_names_the_chronicles_choice_in_portuguese(tmp_path):
    """A static challenge tied with the difficulty, under the house option "succeed": the step names the
    setting in force in brackets; in pt-BR the setting's label and its choice read in Portuguese."""
    challenge = Challenge(Category.PHYSICAL, Contestant("Ann", 8, ("Quick",)), kind=Kind.STATIC, difficulty=8,
                          action="other", tests=(TCall(Call.TEST, Throw.SCISSORS, Throw.SCISSORS),))
    ruling = rule_challenge(challenge, ChronicleSettings.from_overrides({"static_equal_tie": "succeed"}))
    assert ruling.outcome is Outcome.SUCCESS
    step = next(s for s in ruling.steps if s.setting == "static_equal_tie")
    app = make_test_app(tmp_path)
    with app.test_request_context(headers={"Accept-Language": "pt-BR"}):
        portuguese = step_text(step)
    with app.test_request_context(headers={"Accept-Language": "es"}):
        spanish = step_text(step)
    with app.test_request_context(headers={"Accept-Language": "en"}):
        english = step_text(step)
    if not db.is_closed():
        db.close()
    assert english == step.text
    assert english.endswith("(Equal count in a static challenge: The character succeeds and keeps the bid (house)).")
    assert portuguese.endswith("(Contagem igual num desafio estático: "
                               "O personagem tem sucesso e mantém a aposta (regra da casa)).")
    assert "Equal count" not in portuguese and "succeeds" not in portuguese
    assert spanish.endswith("(Recuento igual en un desafío estático: "
                            "El personaje tiene éxito y conserva la apuesta (regla de la casa)).")


def test_the_darkness_step_names_its_scope_in_portuguese(tmp_path):
    """A Physical challenge in partial darkness: "Darkness applies here (Darkness applies to: All actions (002
    Darkness))." names the chronicle's darkness_scope; in pt-BR its label and choice read in Portuguese."""
    from dataclasses import replace

    from larp.rules.darkness import Darkness, DarknessLevel

    dark = replace(Contestant("Ann", 8, ("Quick",)), darkness=Darkness(level=DarknessLevel.PARTIAL))
    challenge = Challenge(Category.PHYSICAL, dark, Contestant("Bea", 6, ("Brawny",)), action="other",
                          tests=(TCall(Call.TEST, Throw.ROCK, Throw.SCISSORS),))
    step = next(s for s in rule_challenge(challenge, ChronicleSettings.defaults()).steps
                if s.setting == "darkness_scope")
    app = make_test_app(tmp_path)
    with app.test_request_context(headers={"Accept-Language": "pt-BR"}):
        portuguese = step_text(step)
    if not db.is_closed():
        db.close()
    assert step.text == "Darkness applies here (Darkness applies to: All actions (002 Darkness))."
    assert portuguese.endswith("(A escuridão vale para: Todas as ações (002 Darkness)).")
