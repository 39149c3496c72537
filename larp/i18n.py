"""The app in its readers' languages (issue 36): English, Brazilian Portuguese and Spanish.

Flask-Babel marks and translates; this module decides *whose* language a request is read in and
where the words come from:

* **Catalogues** are the committed ``larp/translations/<locale>/LC_MESSAGES/messages.po`` files,
  read with Babel's ``read_po`` the first time a locale is asked for in a process (cached): there is
  no compiled ``.mo`` to build, commit or forget, so a fresh clone, ``pip install`` and the README's
  commands are all it takes. (``pybabel compile`` still works for anyone who wants ``.mo`` files:
  they are ignored here.)
* **Whose language** (:func:`select_locale`): the API answers in English unless the request's
  ``Accept-Language`` asks for another language we have (its field names never change); a page is in
  the user's own choice (his account page, ``User.language``), else the chronicle's default (the
  chronicle setting ``language``), else the browser's ``Accept-Language``, else English. The
  player's card page has no user: it follows the card's chronicle (:func:`read_in_chronicle`), else
  the phone's language.
* **Dates, times and numbers** (:func:`format_moment`, :func:`format_day`, :func:`format_number`):
  in the reader's locale with Babel; English keeps the record's ISO shapes (``2026-12-05 20:30``),
  which every English-speaking chronicle reads alike.
* **The pseudo-locale** ``en_XA`` (only when ``app.config["PSEUDO_LOCALE"]``, as in tests): every
  marked string comes back accented and bracketed (``⟦Ţŕáíţ⟧``), so that a test can find English
  left bare on a page (tests/i18n_support.py).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel import dates as babel_dates
from babel import numbers as babel_numbers
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from flask import Flask, current_app, g, has_app_context, has_request_context, request
from flask_babel import Babel, Domain, get_locale, gettext, refresh
from jinja2 import pass_context

from larp.bidi import needs_isolation
from larp.rules.explain import Phrase
from larp.pseudo_locale import PseudoTranslations, pseudo  # noqa: F401 - pseudo: importable from here too

#: The languages the app speaks, as Babel locale names; the first is the source language.
LANGUAGES: tuple[str, ...] = ("en", "pt_BR", "es")
#: Each language's name in itself (the language picker shows these, never translated).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "pt_BR": "Português (Brasil)", "es": "Español"}
#: The pseudo-locale: every marked string accented and bracketed (tests only).
PSEUDO_LOCALE = "en_XA"
#: Where the committed catalogues live (inside the package, so a wheel carries them).
CATALOGUE_DIR = Path(__file__).resolve().parent / "translations"
#: The chronicle setting naming its default language (data/settings/language.toml).
LANGUAGE_SETTING = "language"
#: That setting's value meaning "each reader's own browser language".
BROWSER_LANGUAGE = "browser"


def N_(message: str) -> str:  # noqa: N802 - gettext's name for it
    """Mark ``message`` for the catalogues without translating it (a module constant, read before any
    request): the edge translates it with ``gettext(message)`` where it shows it."""
    return message


def catalogue_path(locale: str) -> Path:
    """The ``.po`` file of ``locale`` (a Babel locale name such as ``pt_BR``)."""
    return CATALOGUE_DIR / locale / "LC_MESSAGES" / "messages.po"


@lru_cache(maxsize=None)
def catalogue(locale: str):
    """The parsed catalogue (a ``babel.messages.Catalog``) of ``locale``, read once a process.

    Raises:
        FileNotFoundError: ``locale`` has no catalogue.
    """
    with catalogue_path(locale).open("rb") as handle:
        return read_po(handle, locale=locale)


@lru_cache(maxsize=None)
def translations_for(locale: str) -> NullTranslations:
    """The gettext translations of ``locale``: its catalogue compiled in memory (fuzzy entries left
    out, as ``pybabel compile`` does), the pseudo-locale's transformer, or none for English."""
    if locale == PSEUDO_LOCALE:
        return PseudoTranslations()
    if locale not in LANGUAGES[1:]:
        return NullTranslations()
    buffer = BytesIO()
    write_mo(buffer, catalogue(locale), use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer)


class CatalogueDomain(Domain):
    """Flask-Babel's message domain, with its translations from :func:`translations_for` (the
    committed ``.po`` files) instead of compiled ``.mo`` files."""

    def get_translations(self):
        """The translations of the request's locale (none outside a request)."""
        locale = get_locale()
        if locale is None:
            return NullTranslations()
        if g.get("_larp_pseudo"):
            return translations_for(PSEUDO_LOCALE)
        return translations_for(str(locale))


class LarpBabel(Babel):
    """Flask-Babel with :class:`CatalogueDomain` as its domain."""

    @property
    def domain_instance(self):
        """The one domain of the app (its catalogues: ``larp/translations``)."""
        domain = getattr(self, "_larp_domain", None)
        if domain is None:
            domain = self._larp_domain = CatalogueDomain(domain=self.domain)
        return domain


# --- whose language ----------------------------------------------------------------------------------

def available_languages() -> tuple[str, ...]:
    """The locales this app serves: :data:`LANGUAGES`, and the pseudo-locale when configured."""
    if current_app.config.get("PSEUDO_LOCALE"):
        return LANGUAGES + (PSEUDO_LOCALE,)
    return LANGUAGES


def _browser_language(available: tuple[str, ...]) -> str | None:
    """The best of ``available`` for the request's ``Accept-Language`` (``pt-BR``, ``pt``, ``es-AR``
    all find theirs), else ``None``."""
    header = request.accept_languages
    if not header:
        return None
    tags = {name.replace("_", "-").lower(): name for name in available}
    for wanted, _quality in header:  # best first
        wanted = wanted.lower()
        if wanted in tags:
            return tags[wanted]
        base = wanted.split("-")[0]
        for tag, name in tags.items():
            if tag.split("-")[0] == base and name != PSEUDO_LOCALE:
                return name
    return None


def read_in_chronicle(chronicle) -> None:
    """Read this request in ``chronicle``'s default language where no user's own choice says
    otherwise (the player's card page: no login, its chronicle found from the card); a ``larp``
    command's lines in it (:func:`console_language`)."""
    g._language_chronicle = chronicle
    refresh()
    get_locale()  # decided now, while the caller's database connection is open (a command closes it early)


def chronicle_language(chronicle) -> str | None:
    """The chronicle setting ``language`` of ``chronicle`` (a locale name), or ``None`` when it is
    "each reader's browser language" (the default) or no longer one we speak."""
    from larp.models import ChronicleSetting
    from larp.rules.settings import setting_definitions

    known = g.get("_larp_languages", {}) if g else {}  # this request's settings, already read (larp.web)
    if chronicle.id in known:
        value = known[chronicle.id]
    else:
        row = ChronicleSetting.get_or_none((ChronicleSetting.chronicle == chronicle)
                                           & (ChronicleSetting.key == LANGUAGE_SETTING))
        value = setting_definitions()[LANGUAGE_SETTING].default if row is None else row.value
    return value if value in available_languages() else None


def _request_chronicle():
    """The chronicle whose default language this request follows, else ``None``: the card's
    (:func:`read_in_chronicle`), else the request's chronicle if it has one."""
    chronicle = g.get("_language_chronicle")
    if chronicle is not None:
        return chronicle
    if g.get("chronicle_id") is None:
        return None
    from larp.services import ServiceError
    from larp.services.chronicles import get_chronicle

    try:
        return get_chronicle()
    except ServiceError:
        return None


def select_locale() -> str:
    """The locale this request is read in (Flask-Babel's locale selector): :func:`chosen_language`,
    with the pseudo-locale read as English dates and numbers and its words through :func:`pseudo`
    (Babel knows no ``en_XA``)."""
    if not has_request_context():  # a command (larp import-grapevine...): the language of its chronicle
        return console_language()
    chosen = chosen_language()
    if chosen == PSEUDO_LOCALE:
        g._larp_pseudo = True
        return LANGUAGES[0]
    return chosen


def console_language() -> str:
    """The language of a ``larp`` command's lines (issue 36): the chronicle setting ``language`` of the
    chronicle the command works on (:func:`read_in_chronicle`, called once the command has chosen it),
    else English (a command about the whole install: ``larp db status``, ``larp backup``...)."""
    chronicle = g.get("_language_chronicle") if has_app_context() else None
    return (chronicle_language(chronicle) if chronicle is not None else None) or LANGUAGES[0]


def _reads_translated() -> bool:
    """Whether words are said in a reader's language here: in a request, or in a command that chose
    its chronicle (:func:`console_language`); elsewhere (a worker, a test's direct call) as written."""
    return has_request_context() or (has_app_context() and g.get("_language_chronicle") is not None)


def _reads_english() -> bool:
    """Whether the words are read in English here (no translations: the API without ``Accept-Language``, an
    English reader, a worker), so that a phrase's stored English is said as it is."""
    if not _reads_translated():
        return True
    from flask_babel import get_translations

    return type(get_translations()) is NullTranslations


def chosen_language() -> str:
    """The locale this request is read in (Flask-Babel's locale selector; issue 36 item 2).

    The API (``/api/v1``): the ``Accept-Language`` header's best language of ours, else English;
    no account or chronicle choice applies, so a script gets the same words every time. A page:
    the logged-in user's own choice (``User.language``), else the chronicle's default language
    (setting ``language``), else the browser's ``Accept-Language``, else English.
    """
    available = available_languages()
    if request.blueprint == "api":
        return _browser_language(available) or LANGUAGES[0]
    user = g.get("user")
    own = getattr(user, "language", "") if user is not None else ""
    if own in available:
        return own
    chronicle = _request_chronicle()
    if chronicle is not None:
        chosen = chronicle_language(chronicle)
        if chosen is not None:
            return chosen
    return _browser_language(available) or LANGUAGES[0]


def html_lang() -> str:
    """The BCP 47 tag of the request's locale for ``<html lang>`` (``pt-BR``, ``es``, ``en``)."""
    locale = get_locale()
    return str(locale).replace("_", "-") if locale is not None else LANGUAGES[0]


# --- dates, times and numbers ------------------------------------------------------------------------

#: The record's strftime shapes (the ``local_time`` filter's argument), as Babel patterns or styles
#: for the other languages (English keeps the shape itself).
_MOMENT_SHAPES = {
    "%H:%M": ("time", "HH:mm"),
    "%Y-%m-%d %H:%M": ("datetime", "short"),
    "%d %b %H:%M": ("day_time", "MMMd"),
    "%a %d %b, %H:%M": ("weekday_time", "MMMEd"),
    "%Y-%m-%d": ("date", "short"),
}


def _reader_locale() -> Locale | None:
    """The request's locale, or ``None`` for English and outside a request (the ISO shapes)."""
    locale = get_locale() if g else None
    if locale is None or locale.language == "en":
        return None
    return locale


def format_moment(moment: datetime, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """``moment`` (already in the chronicle's time zone) for the reader: in English as ``fmt``
    (strftime); in another language in its own shape (``05/12/2026 20:30`` in pt_BR for the
    default ``fmt``; times in 24 hours as those locales write them)."""
    locale = _reader_locale()
    shape = _MOMENT_SHAPES.get(fmt)
    if locale is None or shape is None:
        return moment.strftime(fmt)
    kind, pattern = shape
    if kind == "time":
        return babel_dates.format_time(moment, pattern, locale=locale)
    if kind == "date":
        return babel_dates.format_date(moment, pattern, locale=locale)
    if kind == "day_time":  # the locale's own short day and month ("5 de dez."), then the time
        day = babel_dates.format_skeleton(pattern, moment, locale=locale)
        return f"{day} {babel_dates.format_time(moment, 'HH:mm', locale=locale)}"
    if kind == "weekday_time":  # the locale's short weekday, day and month ("qui., 12 de dez."), then the time
        day = babel_dates.format_skeleton(pattern, moment, locale=locale)
        return f"{day}, {babel_dates.format_time(moment, 'HH:mm', locale=locale)}"
    return babel_dates.format_datetime(moment, pattern, locale=locale)


def format_day(day: date | datetime | None, style: str = "short") -> str:
    """A calendar day for the reader: ISO (``2026-12-05``) in English, else Babel's ``style`` of the
    reader's locale (``05/12/2026`` in pt_BR, ``5/12/26`` in es); a stored moment gives its UTC day."""
    if day is None:
        return ""
    if isinstance(day, datetime):  # a stored moment: its (UTC) calendar day
        day = day.date()
    locale = _reader_locale()
    if locale is None:
        return day.isoformat()
    return babel_dates.format_date(day, style, locale=locale)


def format_long_day(day: date) -> str:
    """A day named in words for the reader: ``Saturday 05 December`` in English (strftime ``%A %d %B``),
    ``sábado, 5 de dezembro`` in pt_BR."""
    locale = _reader_locale()
    if locale is None:
        return day.strftime("%A %d %B")
    return babel_dates.format_skeleton("MMMMEEEEd", day, locale=locale)


def format_number(number: float | int | None) -> str:
    """A number for the reader (``2.5`` in English, ``2,5`` in pt_BR and es; thousands grouped)."""
    if number is None:
        return ""
    locale = _reader_locale()
    return babel_numbers.format_decimal(number, locale=locale or "en")


def session_label(session) -> str:
    """A game session as the reader says it: "Game session 3 (2026-11-29)" in English (the model's
    ``label``), "Sessão de jogo 3 (29/11/2026)" in pt_BR; "" for none."""
    if session is None:
        return ""
    return gettext("Game session %(number)s (%(date)s)", number=session.number, date=format_day(session.date))


@pass_context
def _term_filter(context, word: object) -> str:
    """The ``term`` filter (:func:`larp.web.terms.term`). It takes the template's context only so that
    Jinja never folds ``{{ "bashing"|term }}`` into the compiled template in the language of the
    first request that compiled it (Jinja evaluates a context-free filter of a constant at compile
    time, and the compiled code is cached)."""
    from larp.web.terms import term

    return term(word)


# --- a ruling's words ----------------------------------------------------------------------------------

def reader_speaker():
    """The rules core's :class:`larp.rules.explain.Speaker` for this request's reader: the catalogue's
    words, the glossary's game words, numbers in the reader's locale (English outside a request)."""
    from larp.rules.explain import ENGLISH, Speaker
    from larp.web.terms import term

    from larp.bidi import isolated

    if not _reads_translated():
        return replace(ENGLISH, text=isolated)  # a right-to-left name isolated (new-user test 12, finding 4)
    # The core's templates hold %(name)s placeholders that the core fills: Flask-Babel's gettext must
    # not fill them itself (it would with no arguments), so the raw translations are asked for.
    locale = _reader_locale()
    return Speaker(gettext=_raw_gettext, ngettext=_raw_ngettext, term=lambda word: _term_or_message(word, term),
                   number=_core_number, day=lambda iso: format_day(date.fromisoformat(iso)),
                   contractions=CONTRACTIONS.get(locale.language if locale is not None else "", {}), text=isolated)


#: A preposition and an article as each language joins them, for the narrator's name inside a ruling's sentence
#: ("contra 8 do narrador", "gana al narrador": :func:`larp.rules.explain._narrator_placed`).
CONTRACTIONS = {"pt": {"de o": "do", "a o": "ao", "em o": "no", "por o": "pelo"},
                "es": {"de el": "del", "a el": "al"}}


def _term_or_message(word: str, term) -> str:
    """A game word (larp.web.terms) in the reader's language; a word that is no game term (a chronicle
    setting's choice named in a step, "Rock-paper-scissors ties...") through the catalogue, else as written."""
    from larp.web.terms import TERMS

    if word in TERMS:
        return term(word)
    said = _raw_gettext(word)
    return _setting_in_force(word) if said == word else said


def _setting_in_force(word: str) -> str:
    """``word`` in the reader's language when it is a chronicle setting in force as the rules core names
    it (``ChronicleSettings.label``: "<the setting's label>: <its value>", the label and a choice's label
    in the catalogue, from data/settings), else as written."""
    from larp.rules.settings import setting_definitions

    for definition in setting_definitions().values():
        if word.startswith(definition.label + ": "):
            value = word[len(definition.label) + 2:]
            return f"{_raw_gettext(definition.label)}: {_raw_gettext(value)}"
    return word


def _raw_gettext(message: str) -> str:
    """``message`` translated in the request's language, its placeholders left for the caller."""
    from flask_babel import get_translations

    return get_translations().gettext(message)


def _raw_ngettext(one: str, many: str, count: int) -> str:
    """The singular or plural of a message for ``count`` in the request's language, unfilled."""
    from flask_babel import get_translations

    return get_translations().ngettext(one, many, count)


def _core_number(number: int | float) -> str:
    """A number of a ruling for the reader: as the core wrote it in English, else in the locale's way."""
    from larp.rules.explain import ENGLISH

    return ENGLISH.number(number) if _reader_locale() is None else format_number(number)


def said(text: object, data: dict | None = None) -> str:
    """Words of a ruling in the reader's language: ``data`` (a phrase's data, :class:`larp.rules.explain.Phrase`)
    said through :func:`reader_speaker`; without it, ``text`` as the catalogue translates it (a fixed
    sentence is its own message id) or as written (a sentence recorded before, issue 36 item 1: it keeps
    its English). A phrase that cannot be said (a translation missing a placeholder) falls back to ``text``."""
    from larp.rules.explain import say

    if data:
        if text and _reads_english() and not needs_isolation(str(text)):
            # The stored English is the phrase said in English: nothing to look up, unless a name in it is
            # to be isolated for bidirectional text (larp.bidi: right-to-left letters).
            return str(text)
        try:
            return say(data, reader_speaker())
        except (KeyError, TypeError, ValueError):
            return str(text or "")
    if not text:
        return ""
    return _raw_gettext(str(text)) if _reads_translated() else str(text)


def setting_label(key: str) -> str:
    """The ``setting_label`` filter: a chronicle setting named by its key (a step's ``setting``) as the settings
    page names it, in the reader's language (the catalogue's label; else the label as written; else the key)."""
    from larp.rules.settings import setting_definitions

    definition = setting_definitions().get(str(key))
    label = getattr(definition, "label", "") if definition is not None else ""
    if not label:
        return str(key)
    return _raw_gettext(label) if has_request_context() else label


def summary_text(ruling) -> str:
    """The ``summary_text`` filter: a recorded ruling's summary (``Ruling.summary``, with its phrase data
    ``summary_said`` when the core wrote one) in the reader's language."""
    return said(getattr(ruling, "summary", ""), getattr(ruling, "summary_said", None))


def step_text(step) -> str:
    """The ``step_text`` filter: a ruling's step (a :class:`larp.rules.explain.Step` or its stored
    dict) in the reader's language."""
    if isinstance(step, dict):
        return said(step.get("text"), step.get("said"))
    return said(getattr(step, "text", ""), getattr(step, "said", None))


def phrase_for_reader(text: object) -> str:
    """Words of a ruling (a :class:`larp.rules.explain.Phrase` or a plain sentence) in the reader's language."""
    from larp.rules.explain import Phrase

    return said(text, text.data() if isinstance(text, Phrase) else None)


def js_words() -> dict[str, str] | None:
    """The words the browser's scripts write (static/js: the lost-reply and retry banners, a folded summary,
    the card's "what changed" line), in the reader's language, for a JSON meta element of the page that the scripts
    read (a ``<meta name="js-words">``); ``None`` in English, whose words the scripts hold themselves (so an English page
    carries no extra bytes). ``%(name)s`` placeholders are filled by the script."""
    from larp.web.terms import term

    # The raw catalogue (placeholders left for the script): Flask-Babel's own gettext would fill them.
    gettext, ngettext = _raw_gettext, _raw_ngettext

    locale = get_locale() if has_request_context() else None
    if locale is None or (locale.language == "en" and not g.get("_larp_pseudo")):
        return None
    words = {
        "lost_asking": gettext("The answer was lost: asking the server whether it was recorded…"),
        "lost_not_recorded": gettext("Not recorded: tap again."),
        "recorded_as": gettext("Recorded as ruling #%(id)s"),
        "lost_behind": gettext(": %(summary)s. The screen is behind: open it, or reload."),
        "lost_shown_below": gettext(": the answer was lost on the way, the ruling is shown below."),
        "no_answer": gettext("No answer from the server: it is not known whether it was recorded. Check the "
                             "Wi-Fi, then tap again: the same form is never recorded twice."),
        "try_again": gettext("Try again in a moment."),
        "range_not_said": gettext("Range not said"),
        "changed": gettext("Changed: %(what)s"),
        "taken": gettext("%(n)s %(kind)s"),
        "healed": gettext("%(n)s %(kind)s healed"),
        "willpower_spent": gettext("%(n)s Willpower spent"),
        "willpower_back": gettext("%(n)s Willpower back"),
    }
    # Each counted phrase in its singular and its plural (the scripts pick by the count; a count here is never 0).
    for count, suffix in ((1, "_one"), (2, "_many")):
        words["blood_spent" + suffix] = ngettext("%(n)s blood point spent", "%(n)s blood points spent", count)
        words["blood_back" + suffix] = ngettext("%(n)s blood point back", "%(n)s blood points back", count)
        words["traits_lost" + suffix] = ngettext("%(n)s Trait lost", "%(n)s Traits lost", count)
        words["traits_back" + suffix] = ngettext("%(n)s Trait back", "%(n)s Traits back", count)
    for kind in ("aggravated", "lethal", "bashing"):
        words["kind_" + kind] = term(kind)
    return words


def said_as(text: object, data: dict | None) -> object:
    """The ``said_as`` filter: stored words with their phrase data (a spend request's ``what`` and
    ``what_said``, an experience line's) in the reader's language; without data (written before, or an
    organiser's own words), as written."""
    return said(text, data) if data else text


def said_if_phrase(value: object) -> object:
    """``value`` for the reader: a :class:`larp.rules.explain.Phrase` (a refusal's message, a ruling's
    words) said in the reader's language, anything else unchanged. It is the templates' ``finalize``
    hook (every ``{{ ... }}`` output passes here before autoescaping, so a refusal shown as
    ``{{ error.message }}`` is in the reader's language and escaped once) and the API's error answer's
    (:func:`larp.web.errors.error_response`: English unless ``Accept-Language`` asks; issue 36 item 1)."""
    if isinstance(value, Phrase):
        return phrase_for_reader(value)
    return value


def steps_for_reader(steps) -> list[dict]:
    """A ruling's steps (:class:`larp.rules.explain.Step` objects or their stored dicts) as the API gives
    them: ``text`` in the reader's language (the API's: English unless ``Accept-Language`` asks for
    another), ``rule`` and ``setting`` as written; a phrase's data stays inside the record."""
    out = []
    english = _reads_english()  # once for all the steps (issue 29: a ruling has dozens)
    for step in steps or ():
        data = step if isinstance(step, dict) else step.to_dict()
        entry = {key: value for key, value in data.items() if key != "said"}
        if not english or not entry.get("text"):
            entry["text"] = step_text(step)  # a stored step without its English text is said from its data
        out.append(entry)
    return out


def init_i18n(app: Flask) -> None:
    """Install Flask-Babel on ``app`` with :func:`select_locale`, and the template helpers:
    ``html_lang()``, ``language_names`` (locale -> its own name), the filters ``local_day``, ``number``
    and ``term`` (a game word from data in the reader's language, :mod:`larp.web.terms`); the
    ``local_time`` filter (larp.web) formats through :func:`format_moment`."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", LANGUAGES[0])
    LarpBabel(app, locale_selector=select_locale)
    # Flask-Babel's own date filters read times in its time zone (UTC here), not the chronicle's:
    # taken away, so that a template cannot show a UTC time as local (use local_time, local_day).
    for name in ("datetimeformat", "dateformat", "timeformat", "timedeltaformat"):
        app.jinja_env.filters.pop(name, None)
    app.add_template_global(html_lang, "html_lang")
    app.add_template_global(LANGUAGE_NAMES, "language_names")
    app.add_template_global(js_words, "js_words")
    from larp.rules.explain import damage_levels  # "2 lethal": counted, a message of its own for each kind

    app.add_template_global(damage_levels, "damage_levels")
    filters = {"local_day": format_day, "number": format_number, "term": _term_filter, "step_text": step_text,
               "said": phrase_for_reader, "setting_label": pass_context(lambda _, key: setting_label(key)),  # not folded (as term)
               "summary_text": summary_text,
               "session_label": session_label, "long_day": format_long_day, "said_as": said_as}
    from larp.armory_messages import gear  # the armory's names (data/armory.toml) in the reader's language

    filters["gear"] = gear
    for name, function in filters.items():
        app.add_template_filter(function, name)
    # Templates compile lazily, after this: every one then says a Phrase it outputs in the reader's language.
    app.jinja_env.finalize = said_if_phrase


__all__ = ["N_", "BROWSER_LANGUAGE", "CATALOGUE_DIR", "LANGUAGES", "LANGUAGE_NAMES", "PSEUDO_LOCALE", "catalogue",
           "catalogue_path", "chosen_language", "chronicle_language", "format_day", "format_moment", "format_number", "html_lang",
           "init_i18n", "pseudo", "read_in_chronicle", "said_if_phrase", "select_locale", "session_label", "translations_for"]
