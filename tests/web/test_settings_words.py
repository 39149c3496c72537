"""The settings page in an organiser's words (new-user test 8): each setting's label, choices, help and
source name the book and section it follows, or say it is this app's default and why, in every language;
no developer's note (an issue number, a file of the repository) reaches the page. Its one Save stays at
the bottom of the screen (a sticky bar inside the form), so that no organiser scrolls 40,000 characters
to save."""

from __future__ import annotations

import html
import re

import pytest

from larp.i18n import catalogue
from larp.rules.settings import setting_definitions

#: What only a developer would write: an issue's number, a repository path or file, "the tool's reading".
DEVELOPER_NOTE = re.compile(
    r"\bissues?\s*(?:#\s*)?\d+|\.\./|\b(?:real-)?data/|\b[\w-]+\.(?:toml|py|json|gvm|md)\b|"
    r"tool's reading|\bours\b|\bour choice\b|\bseeds\b|leitura da ferramenta|lectura de la herramienta|"
    r"nossa escolha|decisión nuestra", re.I)
LANGUAGES = {"en": "en", "pt_BR": "pt-BR,pt;q=0.9", "es": "es"}


def _shown_texts():
    """Every text of every setting the page shows: (setting key, text)."""
    for d in setting_definitions().values():
        for text in (d.label, d.help, d.source, *(label for _v, label in d.choices)):
            if text:
                yield d.key, text


@pytest.mark.parametrize("locale", ["en", "pt_BR", "es"])
def test_no_setting_names_an_issue_or_a_path(locale):
    found = []
    for key, text in _shown_texts():
        if locale != "en":
            entry = catalogue(locale).get(text)
            assert entry is not None and entry.string, (locale, key, text)
            text = entry.string
        if DEVELOPER_NOTE.search(text):
            found.append(f"{key}: {text}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("locale", ["en", "pt_BR", "es"])
def test_the_page_shows_no_developer_note_and_keeps_save_in_view(client, auth, dbconn, locale):
    auth.login("boss", "organiser")
    page = client.get("/settings", headers={"Accept-Language": LANGUAGES[locale]}).get_data(as_text=True)
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    assert not DEVELOPER_NOTE.search(text), DEVELOPER_NOTE.search(text)
    for title in re.findall(r'title="([^"]*)"', page):  # the darkness lists' sources, in their fields' titles
        assert not DEVELOPER_NOTE.search(html.unescape(title)), title
    # The one Save sits in the sticky bar, inside the form, after every section.
    form = page[page.index('<form method="post" class="settings-form">'):]
    form = form[:form.index("</form>")]
    assert form.count('type="submit"') == 1
    assert form.rindex('class="settings-save-bar"') > form.rindex("settings-family")


def test_between_game_actions_is_spelled_one_way(client, auth, dbconn):
    auth.login("boss", "organiser")
    page = client.get("/settings").get_data(as_text=True)
    assert "<h2>Between-game actions</h2>" in page
    assert "Between game actions" not in page
