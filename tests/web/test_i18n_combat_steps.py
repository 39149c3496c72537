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


def stray_shot_page(app, headers: dict[str, str]) -> str:
    """The stray-shot screen after Ruth fires a pistol at Konrad and misses, Lys the one bystander (her scissors
    against Ruth's rock), recorded, as a narrator reading ``headers``' language sees it (entities unescaped)."""
    client = a_narrator(app)
    ids = ids_of(app)
    shot = {"firer": ids["Ruth"], "target": ids["Konrad"], "b": [ids["Lys"]], "firer_weapon": "pistol",
            f"b{ids['Lys']}_throw": "scissors", f"b{ids['Lys']}_firer_throw": "rock"}
    recorded = client.post("/combat/bystanders", data={**shot, "step": "record"}, headers=headers, follow_redirects=True)
    page = markup.unescape(recorded.get_data(as_text=True))
    assert recorded.status_code == 200 and "ruling-meta" in page
    return page


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
    page = stray_shot_page(app, PT)
    hits = " ".join(re.findall(r'<li class="hit">(.*?)</li>', page, re.S))
    assert "pistola" in hits and "pistol:" not in hits, hits
    steps = " ".join(re.findall(r'<span class="step-text">(.*?)</span>', page, re.S))
    assert "Pistola" in steps and not re.search(r"\bPistol\b", steps), steps


def fold_words(page: str) -> list[tuple[str, str]]:
    """Each folded line's "change" and "close" as its summary carries them for the style sheet."""
    return re.findall(r'<summary data-open="([^"]*)" data-close="([^"]*)">', page)


def test_the_folded_lines_say_change_and_close_in_the_readers_language(app):
    """The challenge screen's settings line, the combat board's scene and target lines and the stray-shot
    screen's scene line: the words of their "▸ change" / "▾ close" come from the page (CSS ``attr()``), not from
    the style sheet's English."""
    client = a_narrator(app)
    ids = ids_of(app)
    pages = {"/challenge": 1, f"/combat?target={ids['Konrad']}": 3, "/combat/bystanders": 1}
    for address, count in pages.items():
        page = client.get(address, headers=PT).get_data(as_text=True)
        assert fold_words(page) == [("alterar", "fechar")] * count, (address, fold_words(page))
        english = client.get(address, headers={"Accept-Language": "en"}).get_data(as_text=True)
        assert fold_words(english) == [("change", "close")] * count, address
    from pathlib import Path

    for sheet in ("app.css", "combat.css"):
        css = (Path(app.root_path).parent / "static" / "css" / sheet).read_text()
        for rule in re.findall(r"details\.(?:screen-settings|fold-narrow)[^{]*summary\[[^{]*\{[^}]*\}", css):
            assert "attr(data-" in rule
        for rule in re.findall(r"details\.fold(?:\[open\])? > summary::after\s*\{[^}]*\}", css):
            assert "attr(data-" in rule


def test_every_folded_line_of_the_combat_screens_closes_the_same_way(app):
    """A new user's finding (wave 9): the board's folded lines closed in different ways ("▸ change"/"▾ close" on
    some, a bare "▾" on an attacker's range and weapon, nothing on "More…"). Every fold of the board (the target's
    answer and scene, each attacker's range and weapon and More) and of the stray-shot screen (the firer's and
    each bystander's scene) is one ``details.fold`` whose summary carries the reader's "change" and "close"; only
    the result's "Why" and "Every step" lists are not folds of the board."""
    client = a_narrator(app)
    ids = ids_of(app)
    board = (f"/combat?target={ids['Konrad']}&a={ids['Vivienne']}&a={ids['Lys']}")
    stray = (f"/combat/bystanders?firer={ids['Ruth']}&target={ids['Konrad']}&b={ids['Lys']}&b={ids['Vivienne']}"
             "&firer_weapon=pistol")
    for address, folds in ((board, 2 + 2 * 2), (stray, 1 + 2)):
        page = client.get(address, headers={"Accept-Language": "es"}).get_data(as_text=True)
        opened = re.findall(r'<details class="([^"]*)"[^>]*>\s*<summary([^>]*)>', page)
        board_folds = [(cls, attrs) for cls, attrs in opened if "screen-settings" not in cls and "why" not in cls
                       and "menu" not in cls]
        assert len(board_folds) == folds, (address, board_folds)
        for cls, attrs in board_folds:
            assert "fold" in cls.split() and attrs == ' data-open="cambiar" data-close="cerrar"', (address, cls, attrs)


def test_the_targets_celerity_is_said_and_its_box_drawn_as_the_others(app):
    """Teodor Brandt's Celerity 3 (Swiftness, Rapidity) on the combat board's target options, in Portuguese;
    a checkbox beside a label that wraps keeps its size (no flex shrinking)."""
    client = a_narrator(app)
    with app.app_context():
        from larp.db import db
        from larp.models import Character

        with db.connection_context():
            teodor = Character.get(Character.name == "Teodor Brandt").id
    page = client.get(f"/combat?target={teodor}", headers=PT).get_data(as_text=True)
    label = re.search(r'name="target_celerity"[^>]*>(.*?)</label>', page, re.S).group(1)
    assert "ações extras" in label and "Bomba em desafios de velocidade" in label, label
    english = client.get(f"/combat?target={teodor}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "(level 3: extra actions, speed Bomb)" in english
    from pathlib import Path

    css = (Path(app.root_path).parent / "static" / "css" / "app.css").read_text()
    rule = re.search(r"label\.check input \{([^}]*)\}", css).group(1)
    assert "flex: none" in rule
