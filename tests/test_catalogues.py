"""Nothing left behind (issue 36 item 5): every message marked in the code and the templates has a
translation in each language's catalogue, with the same placeholders.

The messages are extracted afresh from ``larp/`` and ``templates/`` with the extraction settings of
``pyproject.toml`` (``[tool.babel...]``, what ``pybabel extract`` reads), so a string marked today
and not translated fails here, in CI, before anyone reads English on a Portuguese page.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords

from larp.i18n import LANGUAGES, catalogue

ROOT = Path(__file__).resolve().parents[1]


def source_messages() -> dict[tuple[str | None, str | tuple[str, ...]], str]:
    """Every marked message of the sources, as (context, message) -> where it is first marked;
    a plural message is its (singular, plural) pair."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["babel"]
    options = config["extract_messages"]
    method_map = [(entry["pattern"], entry["method"]) for entry in config["mappings"]]
    keywords = dict(DEFAULT_KEYWORDS)
    keywords.update(parse_keywords(options["keywords"].split()))
    found: dict = {}
    for folder in options["input_paths"]:
        for filename, line, message, _comments, context in extract_from_dir(
                str(ROOT / folder), method_map, keywords=keywords, strip_comment_tags=True):
            key = (context, message if isinstance(message, str) else tuple(message))
            found.setdefault(key, f"{folder}/{filename}:{line}")
    return found


def untranslated(messages: dict, translated: Catalog) -> list[str]:
    """What ``translated`` lacks of ``messages`` (:func:`source_messages`): each message with no
    entry, a fuzzy entry, or an empty translation (any plural form), named with where it is marked."""
    missing = []
    for (context, message), where in messages.items():
        msgid = message if isinstance(message, str) else message[0]
        entry = translated.get(msgid, context=context)
        strings = () if entry is None else (entry.string if isinstance(entry.string, tuple) else (entry.string,))
        if entry is None or entry.fuzzy or not strings or not all(strings):
            missing.append(f"{where}: {msgid!r}")
    return missing


@pytest.fixture(scope="module")
def messages():
    return source_messages()


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_marked_message_is_translated(messages, language):
    missing = untranslated(messages, catalogue(language))
    assert messages, "no marked message found: the extraction settings in pyproject.toml find nothing"
    assert not missing, (f"{len(missing)} message(s) without a {language} translation (README \"Adding a language\": "
                         "pybabel extract, pybabel update, translate):\n" + "\n".join(missing))


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_translation_keeps_the_placeholders_of_its_message(language):
    """Babel's checks: a translation's ``%(name)s`` placeholders are the message's (else the page
    would raise, or say a number without its noun), and a plural has every form its language has."""
    problems = [f"{message.id!r}: {'; '.join(str(error) for error in errors)}"
                for message, errors in catalogue(language).check()]
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_message_without_translation():
    """The check above can fail: a catalogue lacking one message, or holding it fuzzy or half of
    a plural, is caught."""
    messages = {(None, "Bid"): "a.py:1", (None, ("%(n)s Trait", "%(n)s Traits")): "a.py:2",
                ("button", "Throw"): "a.html:3"}
    translated = Catalog(locale="pt_BR")
    translated.add("Bid", "Aposta")
    translated.add(("%(n)s Trait", "%(n)s Traits"), ("%(n)s Traço", ""))
    translated.add("Throw", "Jogar", context="button", flags=["fuzzy"])
    assert untranslated(messages, translated) == ["a.py:2: '%(n)s Trait'", "a.html:3: 'Throw'"]
    complete = Catalog(locale="pt_BR")
    complete.add("Bid", "Aposta")
    complete.add(("%(n)s Trait", "%(n)s Traits"), ("%(n)s Traço", "%(n)s Traços", "%(n)s Traços"))
    complete.add("Throw", "Jogar", context="button")
    assert untranslated(messages, complete) == []


#: The flag a translator puts on an entry whose English word is not the game term there ("tie a
#: knot"): the glossary check below leaves it alone.
NOT_THE_TERM = "not-the-game-term"
#: A message's placeholders (``%(name)s``), which are not words of it.
PLACEHOLDER = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdifr]")


def glossary_misses(translated: Catalog, language: str) -> list[str]:
    """The entries of ``translated`` whose English names a game term of data/glossary.toml (the
    word, or its plural in s) and whose translation does not use the glossary's word for it. A
    word is found by its stem (all but its last two letters, for words of four letters or more),
    so that plurals and genders pass: "Característica" finds "Características"."""
    from larp.glossary import glossary

    misses = []
    for term in glossary().values():
        english = re.compile(r"\b" + re.escape(term.words["en"]) + r"s?\b", re.IGNORECASE)
        stems = [word[:-2].casefold() for word in term.word(language).split() if len(word) >= 4]
        for message in translated:
            if not message.id or NOT_THE_TERM in message.flags:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            words = [PLACEHOLDER.sub(" ", text) for text in ids]  # "%(player)s" names no player
            if any(english.search(text) for text in words) and strings and all(strings):
                said = " ".join(strings).casefold()
                if not all(stem in said for stem in stems):
                    misses.append(f"{ids[0]!r} -> {strings[0]!r}: the glossary says “{term.word(language)}” "
                                  f"for “{term.words['en']}”")
    return misses


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_the_catalogues_use_the_glossarys_words(language):
    """Issue 36 item 3: the catalogues say the game's words as data/glossary.toml does (a message
    that uses the word otherwise is flagged ``#, not-the-game-term`` in its catalogue)."""
    misses = glossary_misses(catalogue(language), language)
    assert not misses, "\n".join(misses)


def test_the_glossary_check_finds_another_word_for_a_term():
    translated = Catalog(locale="pt_BR")
    translated.add("Spend 2 Traits", "Gaste 2 Traços")
    translated.add("Tie the knot", "Dê o nó", flags=[NOT_THE_TERM])
    translated.add("Bid 3 Traits", "Aposte 3 Características")
    assert glossary_misses(translated, "pt_BR") == [
        "'Spend 2 Traits' -> 'Gaste 2 Traços': the glossary says “Característica” for “Trait”"]


def entered_twice(po_text: str) -> list[str]:
    """The messages a ``.po`` file's text enters more than once (the same ``msgctxt`` and ``msgid``):
    a merge that keeps both sides of two appended blocks (``.gitattributes``: ``merge=union``) can
    leave one, and Babel would silently keep only the last."""
    seen: set[tuple[str | None, str]] = set()
    twice = []
    context = None
    lines = po_text.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("msgctxt "):
            context = line[len("msgctxt "):]
        elif line.startswith("msgid "):
            msgid = [line[len("msgid "):].strip()[1:-1]]
            for following in lines[number + 1:]:
                if not following.startswith('"'):
                    break
                msgid.append(following.strip()[1:-1])
            key = (context, "".join(msgid))
            if key != (None, "") and key in seen:
                twice.append(f"line {number + 1}: {key[1][:60]}")
            seen.add(key)
            context = None
    return twice


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_no_message_is_entered_twice(language):
    from larp.i18n import catalogue_path

    twice = entered_twice(catalogue_path(language).read_text(encoding="utf-8"))
    assert not twice, f"{language}: messages entered twice (keep one):\n" + "\n".join(twice)


def test_the_twice_check_finds_a_repeated_entry():
    text = ('msgid ""\nmsgstr ""\n\nmsgid "Bid"\nmsgstr "Aposta"\n\nmsgctxt "button"\nmsgid "Bid"\n'
            'msgstr "Apostar"\n\nmsgid ""\n"Bid"\nmsgstr "Lance"\n')
    assert entered_twice(text) == ["line 11: Bid"]


def malformed(po_text: str) -> list[str]:
    """Where a ``.po`` file's text breaks its shape (comments, ``msgctxt``, ``msgid``, ``msgid_plural``,
    ``msgstr`` lines in that order, entries apart by a blank line): a union merge of two appended blocks
    can glue one entry to the next, and Babel would then read a wrong translation without complaint."""
    allowed = {"between": {"blank", "comment", "ctxt", "id"}, "comment": {"comment", "ctxt", "id"},
               "ctxt": {"cont", "id"}, "id": {"cont", "plural", "str"}, "plural": {"cont", "strn"},
               "str": {"cont", "blank"}, "strn": {"cont", "strn", "blank"}}
    problems, state = [], "between"
    for number, line in enumerate(po_text.split("\n"), 1):
        kind = ("blank" if not line.strip() else "comment" if line.startswith("#") else
                "ctxt" if line.startswith("msgctxt") else "plural" if line.startswith("msgid_plural") else
                "id" if line.startswith("msgid ") else "strn" if line.startswith("msgstr[") else
                "str" if line.startswith("msgstr") else "cont" if line.startswith('"') else "other")
        if kind not in allowed[state]:
            problems.append(f"line {number}: {kind} after {state}: {line[:60]}")
        state = "between" if kind == "blank" else (state if kind == "cont" else kind)
    return problems


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_entry_is_well_formed(language):
    from larp.i18n import catalogue_path

    problems = malformed(catalogue_path(language).read_text(encoding="utf-8"))
    assert not problems, f"{language}:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_no_translation_names_a_placeholder_its_message_lacks(language):
    """A translation's ``%(name)s`` placeholders are its message's, flagged python-format or not (a glued
    entry's translation carries the next message's placeholders)."""
    wrong = []
    for message in catalogue(language):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        named = set(re.findall(r"%\((\w+)\)", " ".join(i for i in ids if i)))
        for text in strings:
            extra = set(re.findall(r"%\((\w+)\)", text or "")) - named - {"num"}
            if message.id and extra:
                wrong.append(f"{ids[0]!r}: {sorted(extra)}")
    assert not wrong, "\n".join(wrong)


def test_the_shape_check_finds_a_glued_entry():
    glued = 'msgid "Burn"\nmsgstr "Queimar"\nmsgid ""\n"%(n)s attack"\nmsgstr "%(n)s atacam"\n'
    assert malformed(glued) == ['line 3: id after str: msgid ""']
    assert malformed('msgid "Burn"\nmsgstr "Queimar"\n\nmsgid "Bite"\nmsgstr "Mordida"\n') == []
    # The id line of the next entry lost (a union merge keeps one of two identical ``msgid ""`` lines): its
    # text reads as the translation's continuation, then its own translation follows.
    lost = 'msgid "It said"\nmsgstr "Disse"\n"How Bruised change a challenge."\nmsgstr ""\n"Como Escoriado muda."\n'
    assert malformed(lost) == ['line 4: str after str: msgstr ""']
    plural = 'msgid "%(n)s Trait"\nmsgid_plural "%(n)s Traits"\nmsgstr[0] "a"\nmsgstr[1] ""\n"b"\n\n'
    assert malformed(plural) == []
