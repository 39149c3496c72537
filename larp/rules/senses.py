"""The senses a challenge depends on, and the Merit Acute Sense (LotNR Physical Merits: Acute
Sense; met-reference 1.3).

A narrator may say which sense a challenge depends on (spotting a shape in the dark: sight;
hearing footsteps: hearing). A character with Acute Sense for that sense is two Traits up on
the resolution of the test, in light as in darkness (LotNR: "In all tests with that sense, you
are two Traits up on challenge-resolution"), under the chronicle setting ``darkness_merits =
lotnr`` (the default); under ``one_trait`` the Merit gives no such bonus and only removes one
darkness penalty Trait (``data/darkness.toml``). The senses and the words for them are
``data/senses.toml``; the bonus itself is counted with the other bonus Traits by
:mod:`larp.rules.challenge.totals`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from collections.abc import Iterable, Mapping
from typing import Any

from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.settings import ChronicleSettings
from larp.tables import TableError, load_toml, require

R_ACUTE = "LotNR Acute Sense (met-reference 1.3)"


@dataclass(frozen=True)
class SenseTable:
    """``data/senses.toml``: each sense's key and the words that name it, and the Merit's bonus.

    Attributes:
        senses: the sense keys, in the file's order (sight, hearing, smell, taste, touch).
        words: a word (lower case) to the sense it names.
        acute_bonus: Traits up in tests of the Merit's sense (2).
        acute_source: where the bonus comes from.
    """

    senses: tuple[str, ...]
    words: Mapping[str, str]
    acute_bonus: int
    acute_source: str


@lru_cache(maxsize=None)
def sense_table() -> SenseTable:
    """The senses table, loaded once and validated.

    Raises:
        TableError: the file or an entry is malformed, or a word names two senses (names the entry).
    """
    raw = load_toml("senses.toml")
    where = "data/senses.toml"
    acute = raw.get("acute_sense")
    if not isinstance(acute, dict):
        raise TableError(f"{where}: missing [acute_sense]")
    bonus = require(acute, "bonus", int, f"{where} [acute_sense]")
    if bonus < 0:
        raise TableError(f"{where} [acute_sense]: bonus cannot be negative")
    words: dict[str, str] = {}
    senses = []
    for key, entry in (raw.get("sense") or {}).items():
        here = f"{where} [sense.{key}]"
        listed = require(entry, "words", list, here) if isinstance(entry, dict) else None
        if not listed or not all(isinstance(w, str) and w.strip() for w in listed) or listed[0] != key:
            raise TableError(f"{here}: 'words' must be a list of words, the key first")
        for word in listed:
            word = word.strip().lower()
            if words.get(word, key) != key:
                raise TableError(f"{here}: {word!r} already names {words[word]}")
            words[word] = key
        senses.append(key)
    if not senses:
        raise TableError(f"{where}: no [sense.*] entries")
    return SenseTable(tuple(senses), MappingProxyType(words), bonus,
                      require(acute, "source", str, f"{where} [acute_sense]"))


def sense_named(value: Any, field: str = "sense") -> str:
    """The sense ``value`` names (``"Sight"``, ``"hearing"``, ``"ears"``...), as its key; ``""`` for
    none said (``None`` or empty text).

    Raises:
        RulesError: a value that names no sense, naming ``field``.
    """
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RulesError(Phrase.message(N_("Give the sense as a word: %(senses)s."),
                                        senses=", ".join(sense_table().senses)), field=field)
    text = value.strip().lower()
    if not text:
        return ""
    sense = sense_table().words.get(text)
    if sense is None:
        raise RulesError(Phrase.message(N_("%(value)s is not a sense (one of: %(value2)s)."),
                                        value=repr(value), value2=', '.join(sense_table().senses)), field=field)
    return sense


def senses_named(values: Iterable[Any], field: str = "acute_senses") -> frozenset[str]:
    """The senses a list names (an Acute Sense Merit for each; LotNR: "You may have multiple Acute
    Senses").

    Raises:
        RulesError: not a list of sense words, naming ``field``.
    """
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise RulesError(Phrase.message(N_("Give a list of senses.")), field=field)
    return frozenset(sense for value in values if (sense := sense_named(value, field)))


def senses_in_note(note: str) -> frozenset[str]:
    """The senses a Merit's note names ("Sight", "Hearing and smell", "keen ears"); words that
    name no sense are ignored (a sheet's free text): the Merit Acute Sense's "specify which one"."""
    words = re.findall(r"[a-z]+", (note or "").lower())
    return frozenset(sense_table().words[w] for w in words if w in sense_table().words)


def acute_sense_bonus(sense: str, acute_senses: Iterable[str], settings: ChronicleSettings) -> int:
    """Bonus Traits for a test that depends on ``sense`` (its key, ``""`` for none) when the side has
    Acute Sense for it: two under ``darkness_merits = lotnr``, none under ``one_trait`` or when the
    test depends on another sense (LotNR Acute Sense, met-reference 1.3)."""
    if not sense or sense not in set(acute_senses) or settings["darkness_merits"] != "lotnr":
        return 0
    return sense_table().acute_bonus
