"""Explanations: every ruling says how it was reached, one step at a time.

A step is a short sentence plus the rule it applies, quoted the way the rules
sources are named in ``../shared/seeds/README.md`` (``002 "Ties"``,
``LotNR Overbidding``, ``000 Soak``). When a chronicle setting decided the
step, the setting's key is named too, so a narrator can see which house rule
was in force. The UI, the stored record and the JSON API all show the same
steps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections.abc import Iterable, Mapping
from typing import Any, Callable


def N_(message: str) -> str:  # noqa: N802 - gettext's name for it
    """Mark ``message`` (a step's or a phrase's template) for the translation catalogues without
    translating it: the core stays pure and English; the edge says it in the reader's language
    (issue 36 item 1). Babel's extraction finds ``N_`` by default."""
    return message


#: The side of a static challenge or simple test that is no character (LotNR Static Challenges): the name the
#: core gives it and stores in a phrase's parameters. A phrase says it "The narrator" where a sentence starts
#: with it and "the narrator" inside one (:func:`_narrator_placed`), in every language.
NARRATOR = "The narrator"
#: The narrator's name inside a sentence: a message of its own, so each language says it.
NARRATOR_INSIDE = N_("the narrator")


#: A placeholder with the word before it, if any ("de %(other)s").
_PLACEHOLDER = re.compile(r"(\w+ )?%\((\w+)\)s")


def _narrator_placed(template: str, keys: Iterable[str], start: str, inside: str,
                     contractions: Mapping[str, str]) -> str:
    """``template`` with each ``%(key)s`` of ``keys`` (parameters naming :data:`NARRATOR`) written out: ``start``
    where a sentence starts with it (the template's start, or after ". ", "! ", "? "), else ``inside``
    ("Paper beats Rock: the narrator wins the test."). ``contractions`` joins the word before it with ``inside``'s
    first word as the language does ("de o" -> "do" in Portuguese, "de el" -> "del" in Spanish)."""
    keys = frozenset(keys)
    first, _, rest = inside.partition(" ")

    def placed(match: re.Match) -> str:
        word, key = match.group(1), match.group(2)
        if key not in keys:
            return match.group(0)
        before = template[:match.start()].rstrip()
        if not word and (not before or before.endswith((".", "!", "?"))):
            return start.replace("%", "%%")
        if not word:
            return inside.replace("%", "%%")
        joined = contractions.get(f"{word[:-1].lower()} {first.lower()}")
        if joined is None:
            return word + inside.replace("%", "%%")
        joined = joined[:1].upper() + joined[1:] if word[:1].isupper() else joined
        return (f"{joined} {rest}" if rest else joined).replace("%", "%%")

    return _PLACEHOLDER.sub(placed, template)


class Phrase(str):
    """Words of a ruling, in English (the string itself), that also keep their message id and
    parameters, so that the edge can say them in another language (issue 36 item 1).

    A phrase is a message (``%(name)s`` placeholders filled from ``params``), a counted message
    (singular and plural templates and the count ``n``), or a game word (``term``: "lethal", "Social")
    said with the glossary's word. A parameter may be a number, a plain string (a name, a Trait: the
    chronicle's own words, never translated), another phrase, or a list of those (joined with ", ").
    :meth:`data` is its JSON-ready form, stored with the ruling; :func:`say` reads it back.
    """

    data_: dict[str, Any]

    def __new__(cls, data: dict[str, Any], english: str | None = None) -> "Phrase":
        phrase = super().__new__(cls, say(data, ENGLISH) if english is None else english)
        phrase.data_ = data
        return phrase

    @classmethod
    def message(cls, template: str, **params: Any) -> "Phrase":
        """``template`` (marked with :func:`N_`) filled with ``params``."""
        return cls._filled(template, params)

    @classmethod
    def _filled(cls, template: str, params: Mapping[str, Any]) -> "Phrase":
        """:meth:`message` with the parameters as one mapping (an :class:`Explanation` passes on its own)."""
        # Made here rather than through __new__, in one pass over the parameters (each one's data and its
        # English): a ruling writes about fifty phrases (issue 29 item 6, a light ruling).
        if not params:
            phrase = str.__new__(cls, template)
            phrase.data_ = {"msg": template, "params": {}}
            return phrase
        stored, english, narrator = {}, {}, None
        for key, value in params.items():
            kind = type(value)
            if kind is str:
                stored[key] = english[key] = value
                if value == NARRATOR:
                    narrator = (narrator or []) + [key]
            elif kind is Phrase:
                stored[key], english[key] = value.data_, str.__str__(value)
            elif kind is int:
                stored[key], english[key] = value, str(value)
            else:
                stored[key], english[key] = _data(value), _english_value(value)
        said = _narrator_placed(template, narrator, NARRATOR, NARRATOR_INSIDE, {}) if narrator else template
        phrase = str.__new__(cls, said % english)
        phrase.data_ = {"msg": template, "params": stored}
        return phrase

    @classmethod
    def counted(cls, count: int, one: str, many: str, **params: Any) -> "Phrase":
        """``one`` or ``many`` (each with a ``%(n)s`` placeholder for ``count``) as the reader's language
        chooses for ``count`` (its plural rule)."""
        if params:
            data = {"msg": one, "plural": many, "n": count, "params": {key: _data(value) for key, value in params.items()}}
            return cls(data, _english(one if count == 1 else many, {"n": count, **params}))
        # The usual case ("2 Traits"), made in one step: the count alone fills the template.
        phrase = str.__new__(cls, (one if count == 1 else many) % {"n": _english_value(count)})
        phrase.data_ = {"msg": one, "plural": many, "n": count, "params": {}}
        return phrase

    @classmethod
    def term(cls, word: str) -> "Phrase":
        """A game word as the core and the tables spell it ("lethal", "Wounded", "Social"), said with the
        glossary's word in the reader's language (unknown words as written)."""
        word = word if type(word) is str else str(word)
        phrase = str.__new__(cls, word)  # as ENGLISH says a term: the word as written
        phrase.data_ = {"term": word}
        return phrase

    @classmethod
    def day(cls, day: Any) -> "Phrase":
        """A calendar day (a :class:`datetime.date`, or its ISO text), ISO in English ("2026-12-05"),
        said in the reader's locale's way ("05/12/2026" in pt_BR)."""
        return cls({"day": day.isoformat() if hasattr(day, "isoformat") else str(day)})

    def data(self) -> dict[str, Any]:
        """The phrase as JSON-ready data (what a record stores)."""
        return self.data_


def _english(template: str, params: Mapping[str, Any]) -> str:
    """``template`` filled with ``params`` in English, as :func:`say` with :data:`ENGLISH` would (a nested phrase
    by its own English, already made: not said again from its data)."""
    if not params:
        return template
    narrator = [key for key, value in params.items() if value == NARRATOR]
    if narrator:
        template = _narrator_placed(template, narrator, NARRATOR, NARRATOR_INSIDE, {})
    return template % {key: _english_value(value) for key, value in params.items()}


def _english_value(value: Any) -> str:
    if isinstance(value, Phrase):
        return str.__str__(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_english_value(item) for item in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g}" if isinstance(value, float) else f"{value}"
    return str(value)


def _data(value: Any) -> Any:
    """A phrase parameter as JSON-ready data."""
    if isinstance(value, Phrase):
        return value.data()
    if isinstance(value, (list, tuple)):
        return [_data(item) for item in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return str(value)


@dataclass(frozen=True)
class Speaker:
    """How the edge says a phrase in one language: each function takes and gives plain strings.

    Attributes:
        gettext: a message id -> its translation.
        ngettext: (singular, plural, count) -> the translation for that count.
        term: a game word -> the glossary's word.
        number: a number -> as the language writes it.
        day: a calendar day's ISO text -> as the language writes it (ISO unless told).
        contractions: a word and the next as the language joins them ("de o" -> "do"), for the narrator's
            name inside a sentence (:func:`_narrator_placed`); none in English.
        text: a text given as written (a name) -> as it is put inside the sentence (the edge isolates a
            right-to-left name for bidirectional text: :func:`larp.bidi.isolated`); as it is by default.
    """

    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    term: Callable[[str], str]
    number: Callable[[int | float], str]
    day: Callable[[str], str] = field(default=lambda iso: iso)
    contractions: Mapping[str, str] = field(default_factory=dict)
    text: Callable[[str], str] = field(default=lambda given: given)


#: English, the core's own language: every phrase as written.
ENGLISH = Speaker(gettext=lambda message: message, ngettext=lambda one, many, n: one if n == 1 else many,
                  term=lambda word: word, number=lambda value: f"{value:g}" if isinstance(value, float) else f"{value}")


def say(data: Mapping[str, Any], speaker: Speaker = ENGLISH) -> str:
    """The phrase ``data`` (:meth:`Phrase.data`) in ``speaker``'s language.

    Raises:
        KeyError, TypeError, ValueError: ``data`` is not a phrase's data, or a translation lacks a
            placeholder its message fills (the catalogue check of tests/test_catalogues.py prevents it).
    """
    if "term" in data:
        return speaker.term(data["term"])
    if "day" in data:
        return speaker.day(str(data["day"]))
    given = data.get("params", {})
    params = {key: _said(value, speaker) for key, value in given.items()}
    if "plural" in data:
        params.setdefault("n", speaker.number(data["n"]))
        template = speaker.ngettext(data["msg"], data["plural"], data["n"])
    else:
        template = speaker.gettext(data["msg"])
    narrator = [key for key, value in given.items() if value == NARRATOR]
    if narrator:  # "The narrator" starting a sentence, "the narrator" inside one (LotNR Static Challenges)
        template = _narrator_placed(template, narrator, speaker.gettext(NARRATOR), speaker.gettext(NARRATOR_INSIDE),
                                    speaker.contractions)
    text = template % params if params else template
    return text.rstrip(data["trim"]) if "trim" in data else text


def without_stop(phrase: str) -> str:
    """``phrase`` without its closing full stop, in every language (a summary quoted inside another
    sentence: "Undo of #3: Konrad Vale wins"); a plain string loses its stop too."""
    if isinstance(phrase, Phrase) and "term" not in phrase.data():
        return Phrase({**phrase.data(), "trim": "."})
    return str(phrase).rstrip(".")


def _said(value: Any, speaker: Speaker) -> str:
    if isinstance(value, Mapping):
        return say(value, speaker)
    if isinstance(value, list):
        return ", ".join(_said(item, speaker) for item in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return speaker.number(value)
    return speaker.text(str(value))


@dataclass(frozen=True)
class Step:
    """One sentence of a ruling's explanation.

    Attributes:
        text: what was decided, as a short sentence a narrator reads aloud (in English).
        rule: the rule applied, e.g. ``'002 "Ties"'`` or ``"LotNR Overbidding"``.
        setting: the chronicle setting key that decided this step, if any.
        said: the sentence as a phrase's data (:class:`Phrase`), when it was written as a message with
            parameters, so that the edge can say it in the reader's language; ``None`` when ``text``
            itself is the message (a fixed sentence) or the step was written before (issue 36).
    """

    text: str
    rule: str
    setting: str | None = None
    said: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The step as plain JSON-ready data (the API's shape: its English text, its rule, its setting)."""
        data: dict[str, Any] = {"text": self.text, "rule": self.rule}
        if self.setting:
            data["setting"] = self.setting
        return data

    def to_record(self) -> dict[str, Any]:
        """The step as a record stores it: :meth:`to_dict` and, for a phrase, its data (``said``)."""
        data = self.to_dict()
        if self.said:
            data["said"] = self.said
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Step":
        """Rebuild a step from :meth:`to_dict` or :meth:`to_record` output (stored records)."""
        return cls(text=data["text"], rule=data["rule"], setting=data.get("setting"), said=data.get("said"))


def phrase_step(template: str, rule: str, setting: str | None = None, **params: Any) -> Step:
    """One step written as a phrase (``template`` marked with :func:`N_`, filled with ``params``), for the
    rules that build a step alone rather than through an :class:`Explanation`."""
    text = Phrase.message(template, **params)
    return Step(str(text), rule, setting, text.data())


@dataclass
class Explanation:
    """An ordered, growing list of steps, built while a rule is applied.

    Rules functions create one, ``add`` to it as they decide, and freeze it
    into their ruling with :meth:`steps`.
    """

    _steps: list[Step] = field(default_factory=list)

    def add(self, text: str, rule: str, setting: str | None = None, **params: Any) -> None:
        """Append a step (``text`` decided by ``rule``, optionally by ``setting``).

        ``text`` is a sentence, a :class:`Phrase`, or a template marked with :func:`N_` whose
        ``%(name)s`` placeholders ``params`` fill (numbers, names, phrases): the step then keeps the
        template and its parameters for the reader's language (issue 36 item 1).
        """
        if params:
            text = Phrase._filled(text, params)
        if isinstance(text, Phrase):
            self._steps.append(Step(str.__str__(text), rule, setting, text.data_))
        else:
            self._steps.append(Step(str(text), rule, setting, None))

    def extend(self, steps: Iterable[Step]) -> None:
        """Append steps produced by another rule function."""
        self._steps.extend(steps)

    def steps(self) -> tuple[Step, ...]:
        """The steps so far, as an immutable tuple."""
        return tuple(self._steps)


def count_of(count: int, one: str, many: str) -> Phrase:
    """``count`` with ``one`` or ``many`` (templates each with ``%(n)s``; the catalogues' extraction
    reads ``count_of`` and ``Phrase.counted`` as plural messages, pyproject.toml ``[tool.babel]``):
    ``count_of(2, "%(n)s Trait", "%(n)s Traits")`` is "2 Traits" in English."""
    return Phrase.counted(count, one, many)


def both(phrases: list[Phrase]) -> Phrase:
    """``phrases`` joined with "and" in the reader's language ("loses Brawny and takes 1 lethal")."""
    joined = phrases[0]
    for phrase in phrases[1:]:
        joined = Phrase.message(N_("%(first)s and %(second)s"), first=joined, second=phrase)
    return joined


def blood_points(count: int) -> Phrase:
    """"1 blood point", "3 blood points", in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s blood point", "%(n)s blood points")


def blood_traits(count: int) -> Phrase:
    """"1 Blood Trait", "3 Blood Traits" (the live game's blood), in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s Blood Trait", "%(n)s Blood Traits")


def turns(count: int) -> Phrase:
    """"1 turn", "2 turns", in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s turn", "%(n)s turns")


def damage_levels(kind: str, count: int) -> Phrase:
    """"2 lethal", "1 bashing": levels of one kind of damage, a counted phrase of its own for each kind (so a
    language says "2 níveis letais", "1 nível de contusão" as its grammar and the count want)."""
    if kind == "bashing":
        return Phrase.counted(count, "%(n)s bashing", "%(n)s bashing")
    if kind == "lethal":
        return Phrase.counted(count, "%(n)s lethal", "%(n)s lethal")
    if kind == "aggravated":
        return Phrase.counted(count, "%(n)s aggravated", "%(n)s aggravated")
    return Phrase.message(N_("%(levels)s %(kind)s"), levels=count, kind=Phrase.term(kind))


def damage_list(parts: Iterable[tuple[str, int]]) -> list[Phrase]:
    """Levels by kind of damage ("2 lethal, 1 bashing"), each kind said with the glossary's word."""
    return [damage_levels(kind, n) for kind, n in parts if n]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun`` as a narrator says them: "1 Trait", "2 Traits", "1 level", "3 levels"."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def levels(count: int) -> Phrase:
    """"1 level", "2 levels" (health levels of damage), in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s level", "%(n)s levels")


def traits(count: int) -> Phrase:
    """"1 Trait", "2 Traits", in the reader's language at the edge."""
    return Phrase.counted(count, "%(n)s Trait", "%(n)s Traits")


def times(count: int) -> Phrase:
    """"once", "twice", "3 times", in the reader's language at the edge."""
    if count == 1:
        return Phrase.message(N_("once"))
    if count == 2:
        return Phrase.message(N_("twice"))
    return Phrase.counted(count, "%(n)s time", "%(n)s times")


def article(name: str) -> str:
    """``name`` with its indefinite article: "a Pistol", "an Ax" (a vowel letter takes "an")."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


class Refusal(Exception):
    """A request refused, with a message for the person at the screen (issue 29 item 4: the one
    refusal type the screens and the API catch, whether the rules core or a service refuses; the
    services name it ``larp.services.ServiceError``).

    Attributes:
        message: what is wrong and what to do, in the narrator's words: a plain sentence, or a
            :class:`Phrase` (a ``str`` too, its English) that the edge says in the reader's language
            (issue 36 item 1: ``Phrase.message(N_(...), ...)`` writes one; ``larp.i18n.said_if_phrase``
            says it).
        field: the form or JSON field at fault, if any.
        status: the kind of refusal as an HTTP status (400 bad input, 403 forbidden, 404 unknown,
            409 stale or conflicting, 422 invalid: the default).
    """

    def __init__(self, message: str, field: str | None = None, status: int = 422):
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status


class RulesError(Refusal, ValueError):
    """Input that the rules cannot adjudicate (an impossible or illegal request): a
    :class:`Refusal` of status 422, so a screen or the API shows it like any other refusal,
    with no translation by hand.

    ``field`` names the input at fault (for a 4xx answer naming the bad
    field); ``message`` says what is wrong in the narrator's words.
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message, field)

