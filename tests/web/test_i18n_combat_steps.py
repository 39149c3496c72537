"""The combat board's and the stray-shot screen's own lines of a ruling in the reader's language (issue 36,
new-user test 7 items 1, 2, 7, 7b and 8): each pair's and bystander's "Why" steps before and after recording,
the "no test" note of a bystander the round did not reach, the folded lines' "change"/"close", the target's
Celerity label and the weapon names of a stray shot.

Read in Portuguese (the pseudo-locale would accent a step's English text too): no English sentence of the
rules core's steps is left.
"""

from __future__ import annotations

import html as markup
import re

from tests.support import AuthActions


def step_texts(html: str, within: str) -> list[str]:
    """The texts of the steps inside the parts of ``html`` of class ``within`` (a pair's or bystander's result)."""
    parts = re.findall(rf'<div class="{within}[^"]*">(.*?)</div>', html, re.S)
    return [t for part in parts for t in re.findall(r'<span class="step-text">(.*?)</span>', part, re.S)]


PT = {"Accept-Language": "pt-BR"}
#: Words of the core's English steps on these screens (names aside), none of them Portuguese.
ENGLISH = re.compile(r"\b(challenges|bids|beats|wins the test|loses|hits|misses|throw|risks|the rest of)\b")


def assert_said(texts: list[str]) -> None:
    assert texts, "no step shown"
    left = [markup.unescape(t) for t in texts if ENGLISH.search(markup.unescape(t))]
    assert not left, f"English steps: {left}"


def a_narrator(app):
    client = app.test_client()
    AuthActions(client).login()
    return client


def ids_of(app) -> dict[str, int]:
    from larp.db import db
    from larp.models import Character

    with app.app_context(), db.connection_context():
        return {name.split()[0]: Character.get(Character.name == name).id
                for name in ("Konrad Vale", "Vivienne Ashcombe", "Lys Moreau", "Ruth Calder")}


def test_a_pairs_steps_are_said_before_and_after_recording(app):
    client = a_narrator(app)
    ids = ids_of(app)
    fight = {"target": ids["Konrad"], "a": [ids["Vivienne"], ids["Lys"]], "target_throw": "rock",
             f"a{ids['Vivienne']}_throw": "paper", f"a{ids['Lys']}_throw": "rock"}
    so_far = client.post("/combat", data={**fight, "step": "resolve"}, headers=PT)
    assert so_far.status_code == 200
    assert_said(step_texts(so_far.get_data(as_text=True), "pair-result"))
    found = re.search(r"name=\"tests_json\" value='([^']*)'", so_far.get_data(as_text=True))
    data = {**fight, "step": "record"}
    if found:
        data["tests_json"] = markup.unescape(found.group(1))
    recorded = client.post("/combat", data=data, headers=PT, follow_redirects=True)
    assert recorded.status_code == 200 and "ruling-meta" in recorded.get_data(as_text=True)
    assert_said(step_texts(recorded.get_data(as_text=True), "pair-result"))


def test_a_bystanders_steps_and_note_are_said(app):
    client = a_narrator(app)
    ids = ids_of(app)
    shot = {"firer": ids["Ruth"], "target": ids["Konrad"], "b": [ids["Lys"], ids["Vivienne"]],
            "firer_weapon": "pistol", f"b{ids['Lys']}_throw": "scissors", f"b{ids['Lys']}_firer_throw": "rock",
            f"b{ids['Vivienne']}_throw": "scissors", f"b{ids['Vivienne']}_firer_throw": "rock"}
    recorded = client.post("/combat/bystanders", data={**shot, "step": "record"}, headers=PT,
                           follow_redirects=True)
    page = recorded.get_data(as_text=True)
    assert recorded.status_code == 200 and "ruling-meta" in page
    assert_said(step_texts(page, "pair-result"))
    lines = " ".join(re.findall(r'<p class="pair-line">(.*?)</p>', page, re.S))
    assert "Sem teste" in lines and "the round stopped" not in lines, lines


def test_a_stray_shots_weapon_is_named_in_portuguese(app):
    """The armory's names through the catalogue: the hit's line ("com pistola") and the step naming the weapon
    (``Phrase.term``), not the armory's English."""
    client = a_narrator(app)
    ids = ids_of(app)
    shot = {"firer": ids["Ruth"], "target": ids["Konrad"], "b": [ids["Lys"]], "firer_weapon": "pistol",
            f"b{ids['Lys']}_throw": "scissors", f"b{ids['Lys']}_firer_throw": "rock"}
    recorded = client.post("/combat/bystanders", data={**shot, "step": "record"}, headers=PT, follow_redirects=True)
    page = markup.unescape(recorded.get_data(as_text=True))
    assert recorded.status_code == 200 and "ruling-meta" in page
    hits = " ".join(re.findall(r'<li class="hit">(.*?)</li>', page, re.S))
    assert "pistola" in hits and "pistol:" not in hits, hits
    steps = " ".join(re.findall(r'<span class="step-text">(.*?)</span>', page, re.S))
    assert "Pistola" in steps and not re.search(r"\bPistol\b", steps), steps
