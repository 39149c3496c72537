"""The field's words in each language (issue 36 item 3): data/glossary.toml is complete, sourced,
and checked when the app starts."""

from __future__ import annotations

import pytest

import larp.glossary as glossary_module
from larp.glossary import glossary
from larp.i18n import LANGUAGES
from larp.table_check import TABLE_LOADERS
from larp.tables import TableError

#: The terms issue 36 names, in English.
ISSUE_TERMS = ("Trait", "bid", "throw", "tie", "overbid", "retest", "health level", "bashing", "lethal",
               "aggravated", "torpor", "Final Death", "narrator", "chronicle", "game session", "check-in")


def test_every_term_of_the_issue_is_there_in_each_language_with_its_source():
    terms = {term.words["en"]: term for term in glossary().values()}
    assert set(ISSUE_TERMS) <= set(terms)
    for term in terms.values():
        assert set(term.words) == set(LANGUAGES) and all(term.words.values())
        assert set(term.sources) == {"pt_BR", "es"} and all(term.sources.values())
    assert terms["Trait"].word("pt_BR") == "Característica" and terms["Trait"].word("es") == "Rasgo"
    assert terms["health level"].word("pt_BR") == "nível de vitalidade"
    assert terms["Final Death"].word("fr") == "Final Death"  # a language we do not speak: English


def test_the_glossary_is_checked_at_start_up():
    assert ("larp.glossary", "glossary", ()) in TABLE_LOADERS


@pytest.mark.parametrize("broken, said", [
    ({"bid": {"en": "bid", "pt_BR": "aposta", "source_pt_BR": "x", "source_es": "y"}}, "[bid]: missing 'es'"),
    ({"bid": {"en": "bid", "pt_BR": "aposta", "es": " ", "source_pt_BR": "x", "source_es": "y"}}, "[bid]: empty es"),
    ({"bid": {"en": "bid", "pt_BR": "aposta", "es": "apuesta", "source_pt_BR": "x"}}, "[bid]: missing 'source_es'"),
    ({"bid": {"en": "bid", "pt_BR": "a", "es": "a", "source_pt_BR": "x", "source_es": "y", "fr": "mise"}},
     "[bid]: unknown key(s) fr"),
    ({"a": {"en": "Bid", "pt_BR": "a", "es": "a", "source_pt_BR": "x", "source_es": "y"},
      "b": {"en": "bid", "pt_BR": "a", "es": "a", "source_pt_BR": "x", "source_es": "y"}}, "is already term [a]"),
])
def test_a_malformed_glossary_stops_the_start_naming_the_term(monkeypatch, broken, said):
    monkeypatch.setattr(glossary_module, "load_toml", lambda name: broken)
    glossary.cache_clear()
    try:
        with pytest.raises(TableError, match="data/glossary.toml") as raised:
            glossary()
        assert said in str(raised.value)
    finally:
        monkeypatch.undo()
        glossary.cache_clear()
