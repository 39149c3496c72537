"""The field's words in each language (issue 36 item 3): ``data/glossary.toml``.

Each game term (Trait, bid, throw, tie, overbid, retest, health level, bashing, lethal, aggravated,
torpor, Final Death, narrator, chronicle, game session, check-in...) in English, Brazilian Portuguese
and Spanish, with where the Portuguese and Spanish words come from: the published translations of
the tabletop game where one was found, else why we chose the word. The catalogues under
``larp/translations`` use these words; the file is loaded and checked at start-up
(:data:`larp.table_check.TABLE_LOADERS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from larp.i18n import LANGUAGES
from larp.tables import TableError, load_toml, require

GLOSSARY_FILE = "glossary.toml"


@dataclass(frozen=True)
class Term:
    """One game term: its word in each language of :data:`larp.i18n.LANGUAGES` (``words``) and the
    source of each translation (``sources``, keyed by language, English left out)."""

    key: str
    words: Mapping[str, str]
    sources: Mapping[str, str]

    def word(self, language: str) -> str:
        """The term in ``language`` (a locale such as ``pt_BR``), English for one we do not speak."""
        return self.words.get(language, self.words[LANGUAGES[0]])


@lru_cache(maxsize=1)
def glossary() -> Mapping[str, Term]:
    """Every term of ``data/glossary.toml``, by key, read and checked once a process.

    Raises:
        TableError: the file is missing or malformed, a term lacks a language or its source, or
            two terms give the same English word (naming the file and the term).
    """
    data = load_toml(GLOSSARY_FILE)
    if not data:
        raise TableError(f"data/{GLOSSARY_FILE}: no term")
    terms: dict[str, Term] = {}
    english: dict[str, str] = {}
    for key, entry in data.items():
        where = f"data/{GLOSSARY_FILE} [{key}]"
        if not isinstance(entry, dict):
            raise TableError(f"{where}: a term is a table of words and sources")
        words = {language: require(entry, language, str, where).strip() for language in LANGUAGES}
        sources = {language: require(entry, f"source_{language}", str, where).strip() for language in LANGUAGES[1:]}
        blank = [name for name, text in {**words, **{f"source_{k}": v for k, v in sources.items()}}.items() if not text]
        if blank:
            raise TableError(f"{where}: empty {', '.join(blank)}")
        unknown = set(entry) - set(LANGUAGES) - {f"source_{language}" for language in LANGUAGES[1:]}
        if unknown:
            raise TableError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        folded = words[LANGUAGES[0]].casefold()
        if folded in english:
            raise TableError(f"{where}: the English word “{words[LANGUAGES[0]]}” is already term [{english[folded]}]")
        english[folded] = key
        terms[key] = Term(key, MappingProxyType(words), MappingProxyType(sources))
    return MappingProxyType(terms)


__all__ = ["GLOSSARY_FILE", "Term", "glossary"]
