"""Portuguese and Spanish that read as a narrator or organiser would write them (new-user test 8, items 7, 10
and 16): a stray shot's steps in Spanish do not call a test "not a challenge" beside a challenge, a ruling is a
"resolución" (never a "fallo", a failure), no sentence needs the character's gender (a health level is named
as a level, "no nível Ferido gravemente", not used as an adjective; an invitation is received), and a game
session takes its article ("para a Sessão de jogo 1")."""

from __future__ import annotations

import html as markup
import re

import pytest

from larp.i18n import catalogue
from tests.web.test_i18n_combat_steps import stray_shot_page

ES = {"Accept-Language": "es"}
#: A health level or state said as an adjective right after "is" (its gender is the character's).
STATE_AS_ADJECTIVE = re.compile(r"\b(?:está|estava|estaba|é|es) %\((?:level|where|limit|standing|value)\)s")
#: A participle that agrees with the character named just before it.
GENDERED = re.compile(r"(?<!de )%\(name\)s(?: \(%\(user\)s\))?[^.;:]{0,20}"
                      r"\b(?:foi|é|es|está|estava|estaba|ya está|já está)? ?"
                      r"(?:convidad[oa]|invitad[oa]|credenciad[oa]|acreditad[oa]|atingid[oa]|golpead[oa]|"
                      r"destruíd[oa]|destruid[oa]|mort[oa]|(?<!ha )muert[oa]|renovad[oa]|estaquead[oa]|estacad[oa])\b")


def _translations(locale):
    for message in catalogue(locale):
        if message.id and isinstance(message.id, str) and isinstance(message.string, str):
            yield message.id, message.string


@pytest.mark.parametrize("locale", ["pt_BR", "es"])
def test_no_sentence_needs_the_characters_gender(locale):
    wrong = [f"{mid!r}: {text}" for mid, text in _translations(locale)
             if STATE_AS_ADJECTIVE.search(text) or GENDERED.search(text)]
    assert not wrong, "\n".join(wrong)


def test_the_invitation_and_the_drain_read_without_gender():
    pt = dict(_translations("pt_BR"))
    assert pt["%(name)s (%(user)s) is invited to play %(character)s."] == (
        "%(name)s (%(user)s) recebeu o convite para jogar com %(character)s.")
    assert pt["%(name)s drains %(blood)s from %(victim)s, who takes %(n)s lethal and is now %(level)s."].endswith(
        "agora está no nível %(level)s.")


@pytest.mark.parametrize("locale, article", [("pt_BR", "a"), ("es", "la")])
def test_a_game_session_takes_its_article(locale, article):
    """A game session is said "Sessão de jogo 3 (…)" / "Sesión de juego 3 (…)": feminine, with its article."""
    bare = re.compile(r"\b(?:[Pp]ara|por|de|Fechar|Cerrar) %\(session\)s")
    wrong = [f"{mid!r}: {text}" for mid, text in _translations(locale) if bare.search(text)]
    assert not wrong, "\n".join(wrong)
    texts = dict(_translations(locale))
    assert texts["For %(session)s: %(count)s of %(most)s written."].startswith(f"Para {article} %(session)s")


def test_a_ruling_is_never_a_failure_in_spanish():
    wrong = [f"{mid!r}: {text}" for mid, text in _translations("es")
             if re.search(r"\brulings?\b", mid) and re.search(r"\bfallos?\b", text)]
    assert not wrong, "\n".join(wrong)


def test_a_stray_shot_in_spanish_says_test_and_weapon_one_way(app):
    """The stray shot's bystander tests, in Spanish (002 "Firing Guns into Groups of People", setting
    stray_tests_cost_firer off): no step calls them "not a challenge" (the pair's step still says who challenges
    whom), the weapon is not a capitalised noun in the middle of a sentence, the setting in brackets reads as a
    setting with its value, and the steps' heading names the ruling, not a failure."""
    page = stray_shot_page(app, ES)
    steps = " ".join(re.findall(r'<span class="step-text">(.*?)</span>', page, re.S))
    assert "no arriesga ningún Rasgo en estas pruebas" in steps, steps
    assert "no un desafío" not in steps and "con Pistola" not in steps, steps
    assert "(Pistola)" in steps, steps
    assert "Coste en Rasgos para quien dispara en las pruebas de transeúntes: no" in steps, steps
    assert "Cada paso de la resolución" in page and "fallo" not in page


def test_a_logged_experience_line_is_said_in_the_experience_section(client, auth, dbconn):
    """The sheet editor's "Log it" lands on #experience: the message says what was logged (points and what
    for) inside that section, above the new line, not at the page's top out of view; in Portuguese too."""
    from larp.models import Character

    auth.login("boss", "organiser")
    lys = Character.get(Character.name == "Lys Moreau")
    answer = client.post(f"/characters/{lys.id}/experience",
                         data={"kind": "earned", "amount": "3", "what": "attendance"},
                         headers={"Accept-Language": "pt-BR"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("#experience")
    page = client.get(answer.headers["Location"].split("#")[0], headers={"Accept-Language": "pt-BR"}).get_data(
        as_text=True)
    section = page[page.index('id="experience"'):]
    section = section[:section.index("</section>")]
    said = re.search(r'<p class="flash" role="status" id="experience-done">(.*?)</p>', section)
    assert said and markup.unescape(said.group(1)) == "Anotado: +3 (attendance).", section[:600]
    assert section.index("experience-done") < section.index("xp-log")  # above the log, whose newest line is first
    assert page.count("Anotado:") == 1  # not repeated at the page's top
