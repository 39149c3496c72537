"""The tabletop screen, the tabletop conversion, the Virtue Test and the armory's names in the readers'
languages (issue 36 items 1 and 5, wave 7).

Pages are rendered in the pseudo-locale (``PSEUDO_LOCALE=True``, ``Accept-Language: en-XA``) and must leave no
English word bare (tests/i18n_support.py) but the data's (characters' names and sheets); one page in Brazilian
Portuguese checks real phrases.
"""

from __future__ import annotations

import re

from larp.db import db
from larp.models import Character
from larp.rules.armory import armory
from tests.i18n_support import PSEUDO_HEADERS, bare_english
from tests.support import AuthActions
from tests.web.test_i18n_pages import pseudo_app, sheet_words  # noqa: F401 - the pseudo-locale app (a fixture)
from tests.web.test_i18n_screens import MONTHS, main_of

PORTUGUESE = {"Accept-Language": "pt-BR"}
NAMES = ("Konrad Vale", "Vivienne Ashcombe", "Lys Moreau", "Ruth Calder")


def people(app) -> tuple[dict[str, int], list[str]]:
    """The demo fighters' ids by first name, and the words their sheets and the chronicle may show as written."""
    with app.app_context(), db.connection_context():
        found = {name: Character.get(Character.name == name) for name in NAMES}
        allowed = [word for c in found.values() for word in sheet_words(c)]
        allowed += [c.short_code for c in Character.select()] + [c.name for c in Character.select()]
        return {name.split()[0]: c.id for name, c in found.items()}, allowed


def narrator(app):
    client = app.test_client()
    AuthActions(client).login("nar", "narrator")
    return client


def assert_no_bare_english(html: str, allowed) -> None:
    left = bare_english(html, allow=list(allowed) + ["larp", "Nar"] + MONTHS)
    assert not left, f"English left bare: {sorted(set(left))}"


def test_the_armorys_names_are_said_in_the_readers_language(pseudo_app):
    """The challenge screen's weapon and armor pickers say the armory's names through the catalogue (none
    allowed as written here), and in Portuguese they are the Portuguese names; the value sent stays the key."""
    ids, allowed = people(pseudo_app)
    client = narrator(pseudo_app)
    page = client.get("/challenge", query_string={"challenger": ids["Ruth"], "defender": ids["Konrad"]},
                      headers=PSEUDO_HEADERS)
    assert page.status_code == 200
    html = main_of(page)
    pickers = re.findall(r'<select name="(?:challenger|defender)_(?:weapon|armor)".*?</select>', html, re.S)
    assert len(pickers) >= 2, "the challenge screen shows no weapon or armor picker"
    assert_no_bare_english(" ".join(pickers), allowed)
    assert_no_bare_english(html, allowed)
    live = armory("live")
    portuguese = client.get("/challenge", query_string={"challenger": ids["Ruth"], "defender": ids["Konrad"]},
                            headers=PORTUGUESE).get_data(as_text=True)
    assert '<option value="heavy_pistol"' in portuguese and "Pistola pesada (+" in portuguese
    assert "Colete balístico (" in portuguese and "Faca (+" in portuguese
    assert live.weapons["heavy_pistol"].name == "Heavy pistol" and "Heavy pistol (+" not in portuguese


def without_citations(html: str) -> str:
    """``html`` without the rules' citations (the books' and seeds' names, as the sources are named:
    "LotNR Converting Characters (met-reference 4.3)")."""
    html = re.sub(r'<(small|cite) class="rule">.*?</\1>', "", html, flags=re.S)
    return re.sub(r'<(span|small) class="(?:rule|step-rule|source)[^"]*">.*?</\1>', "", html, flags=re.S)


def demo_character(app, with_tabletop: bool = False) -> tuple[int, list[str]]:
    """A demo character's id (one with tabletop ratings when asked) and the words of his sheet."""
    with app.app_context(), db.connection_context():
        for character in Character.select().order_by(Character.id):
            if not with_tabletop or (character.tabletop or {}):
                return character.id, sheet_words(character) + [c.short_code for c in Character.select()]
    raise AssertionError("no demo character fits")


def test_a_virtue_test_reads_in_the_readers_language(pseudo_app):
    """The Virtue Test's page (its choices, the usual stimuli) and the ruling it records (its summary and steps)
    leave no English bare in the pseudo-locale."""
    cid, allowed = demo_character(pseudo_app)
    client = narrator(pseudo_app)
    page = client.get(f"/characters/{cid}/virtue-test", headers=PSEUDO_HEADERS)
    assert page.status_code == 200 and 'name="stimulus"' in page.get_data(as_text=True)
    assert_no_bare_english(main_of(page), allowed)
    refused = client.post(f"/characters/{cid}/virtue-test", headers=PSEUDO_HEADERS,
                          data={"purpose": "resist", "virtue": "self_control", "stimulus": "no such stimulus"})
    assert refused.status_code == 422
    answer = client.post(f"/characters/{cid}/virtue-test", headers=PSEUDO_HEADERS, follow_redirects=True,
                         data={"purpose": "resist", "virtue": "self_control", "stimulus": "harassed", "throw": "rock",
                               "narrator_throw": "scissors"})
    assert answer.status_code == 200
    ruling = re.search(r'href="/rulings/(\d+)"', answer.get_data(as_text=True)).group(1)
    shown = client.get(f"/rulings/{ruling}", headers=PSEUDO_HEADERS)
    assert shown.status_code == 200 and 'class="steps"' in shown.get_data(as_text=True)
    # "Tested" is the participant's label (the record's part words: another change's, issue 36's i36-steps).
    assert_no_bare_english(without_citations(main_of(shown)), allowed + ["Tested"])


def test_the_tabletop_conversion_reads_in_the_readers_language(pseudo_app):
    """The conversion's preview (its table, its steps, what is approximate) in the pseudo-locale, and in
    Portuguese with real phrases; the save answers with the sheet editor."""
    cid, allowed = demo_character(pseudo_app, with_tabletop=True)
    client = pseudo_app.test_client()
    AuthActions(client).login("boss", "organiser")
    page = client.get(f"/characters/{cid}/convert-tabletop", headers=PSEUDO_HEADERS)
    assert page.status_code == 200 and 'class="steps"' in page.get_data(as_text=True)
    assert_no_bare_english(without_citations(main_of(page)), allowed + ["Boss"])
    portuguese = client.get(f"/characters/{cid}/convert-tabletop", headers=PORTUGUESE).get_data(as_text=True)
    assert "Valores convertidos" in portuguese and "o primeiro ponto cai" in portuguese
    assert "Características Físicas" in portuguese and "the first dot drops" not in portuguese
    version = re.search(r'name="version" value="(\d+)"', portuguese).group(1)
    saved = client.post(f"/characters/{cid}/convert-tabletop", data={"version": version}, headers=PSEUDO_HEADERS)
    assert saved.status_code == 303 and "#tabletop" in saved.headers["Location"]


HX = {"HX-Request": "true"}


def tabletop_step(app, client, path: str, headers, **fields):
    """One tap on the running combat's screen (an htmx request: the screen's panel answers)."""
    from larp.models import TabletopCombat

    with app.app_context(), db.connection_context():
        row = TabletopCombat.select().order_by(TabletopCombat.id.desc()).get()
    return client.post(f"/tabletop/{row.id}/{path}", data={"version": row.version, **fields}, headers={**headers, **HX})


def screen_words(html: str) -> str:
    """The tabletop panel without the rules core's rulings and the steps of a roll asked for
    (:func:`test_a_tabletop_attack_reads_in_portuguese` checks those: in the pseudo-locale a step recorded as
    plain English would still come out wrapped, as a message id of its own) and the profile's label (a
    setting's text). The turn's log stays: its lines are the steps' phrases."""
    html = without_citations(html)
    html = re.sub(r'<section class="results" id="latest-ruling".*?</section>', "", html, flags=re.S)
    html = re.sub(r'<ol class="steps">.*?</ol>', "", html, flags=re.S)
    return re.sub(r'<p class="session-line">.*?</p>', "", html, flags=re.S)


def test_the_tabletop_screen_leaves_no_english_bare_after_each_action(pseudo_app):
    """Initiative rolled, the declarations' form, the actions' form (every maneuver, defense, situation, the
    dice), the fighters' cards after a strike (damage, a condition), a roll asked for at the table, the gear
    panel: the screen's own words in the pseudo-locale."""
    ids, allowed = people(pseudo_app)
    client = narrator(pseudo_app)
    kon, viv = str(ids["Konrad"]), str(ids["Vivienne"])
    assert client.post("/tabletop/start", data={"characters": [kon, viv]}, headers={**PSEUDO_HEADERS, **HX}).status_code == 200
    declare = tabletop_step(pseudo_app, client, "initiative", PSEUDO_HEADERS, **{f"die-{kon}": "9", f"die-{viv}": "1"})
    assert declare.status_code == 200 and f'name="{kon}-maneuver"' in declare.get_data(as_text=True)
    assert_no_bare_english(screen_words(declare.get_data(as_text=True)), allowed)
    act = tabletop_step(pseudo_app, client, "declare", PSEUDO_HEADERS, fighter=[viv, kon], **{
        f"{kon}-actions": "1", f"{kon}-maneuver": "strike", f"{kon}-target": viv, f"{viv}-actions": "1"})
    assert act.status_code == 200 and 'id="attack-form"' in act.get_data(as_text=True)
    assert_no_bare_english(screen_words(act.get_data(as_text=True)), allowed)
    hit = tabletop_step(pseudo_app, client, "attack", PSEUDO_HEADERS, attacker=kon, target=viv, maneuver="strike",
                        **{"dice-attack": "8 2 2 2 2 2 2", "dice-damage": "8 6 7 9", "dice-soak": "3 8"})
    assert hit.status_code == 200 and 'id="latest-ruling"' in hit.get_data(as_text=True)
    assert_no_bare_english(screen_words(hit.get_data(as_text=True)), allowed)
    asked = tabletop_step(pseudo_app, client, "attack", PSEUDO_HEADERS, attacker=viv, target=kon, maneuver="strike",
                          dice_mode="table")
    assert asked.status_code == 422 and 'class="dice-request"' in asked.get_data(as_text=True)
    assert_no_bare_english(screen_words(asked.get_data(as_text=True)), allowed)


def test_a_tabletop_attack_reads_in_portuguese(pseudo_app):
    """A strike recorded on the tabletop screen, its ruling opened in Brazilian Portuguese: the summary and the
    attack's own steps (the pool, the difficulty, the rolls die by die, the damage dice, where the damage leaves
    her) read in Portuguese, and the same ruling in English reads exactly as the rules core wrote it."""
    import html as markup

    from larp.models import Ruling

    ids, _allowed = people(pseudo_app)
    client = narrator(pseudo_app)
    kon, viv = str(ids["Konrad"]), str(ids["Vivienne"])
    client.post("/tabletop/start", data={"characters": [kon, viv]}, headers={**PORTUGUESE, **HX})
    tabletop_step(pseudo_app, client, "initiative", PORTUGUESE, **{f"die-{kon}": "9", f"die-{viv}": "1"})
    tabletop_step(pseudo_app, client, "declare", PORTUGUESE, fighter=[viv, kon], **{
        f"{kon}-actions": "1", f"{kon}-maneuver": "strike", f"{kon}-target": viv, f"{viv}-actions": "1"})
    hit = tabletop_step(pseudo_app, client, "attack", PORTUGUESE, attacker=kon, target=viv, maneuver="strike",
                        **{"dice-attack": "8 2 2 2 2 2 2", "dice-damage": "8 6 7 9", "dice-soak": "3 8"})
    assert hit.status_code == 200
    with pseudo_app.app_context(), db.connection_context():
        ruling = Ruling.select().order_by(Ruling.id.desc()).get()
    page = markup.unescape(client.get(f"/rulings/{ruling.id}", headers=PORTUGUESE).get_data(as_text=True))
    said = re.search(r'<h2 class="ruling-summary">.*?</ol>', page, re.S).group(0)
    for phrase in ("Konrad Vale acerta Vivienne Ashcombe (golpe): 2 níveis marcado(s).",
                   "Konrad Vale usa Golpe contra Vivienne Ashcombe.", "Parada de ataque: Destreza 4 + Brawl 3 = 7 dados.",
                   "Dificuldade básica 6.", "Rolagem de ataque de Konrad Vale 8, 2, 2, 2, 2, 2, 2 contra dificuldade 6",
                   "O ataque acerta com 1 sucesso(s) líquido(s).", "Dano: Força 4 = 4 dados.",
                   "Potence 2: 2 sucesso(s) automático(s) na rolagem de dano.", "Rolagem de dano 8, 6, 7, 9",
                   "(rolados na mesa).", "Vivienne Ashcombe agora está no nível ", " na tabela de Vitalidade de mesa ("):
        assert phrase in said, phrase
    english = [step["text"] for step in ruling.steps if step["rule"] in (
        '000 "Stage Two: Attack"', '000 "Maneuver Characteristics"', '000 "Stage Three: Resolution"',
        '000 "Damage"', '000 "Bashing Damage"', 'LotNR Health (met-reference 4.1)')]
    assert english and not [text for text in english if text in said]
    with pseudo_app.app_context(), db.connection_context():
        rulings = list(Ruling.select().order_by(Ruling.id))
    initiative = markup.unescape(client.get(f"/rulings/{rulings[0].id}", headers=PORTUGUESE).get_data(as_text=True))
    for phrase in ("Turno de mesa 1: iniciativa", "Konrad Vale: Destreza 4 + Raciocínio 3 = índice 7; dado 9: iniciativa 16.",
                   "Ordem de ação: Konrad Vale (16), Vivienne Ashcombe (7)."):
        assert phrase in initiative, phrase
    log = re.search(r'<details class="panel turn-log">.*?</details>', hit.get_data(as_text=True), re.S).group(0)
    log = markup.unescape(log)
    assert "Turno 1: Konrad Vale 16, Vivienne Ashcombe 7" in log and "(golpe)" in log
    assert "Konrad Vale declara 1 ação; primeira: golpe em Vivienne Ashcombe." in log
    in_english = markup.unescape(client.get(f"/rulings/{ruling.id}").get_data(as_text=True))
    assert "Konrad Vale&#39;s strike hits Vivienne Ashcombe: 2 levels marked.".replace("&#39;", "'") in in_english
    assert all(step["text"] in in_english for step in ruling.steps)
