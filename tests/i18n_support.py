"""Test helpers for the app's languages (issue 36 item 5): find English left bare on a page.

A page is rendered in the pseudo-locale ``en_XA`` (:data:`larp.i18n.PSEUDO_LOCALE`: the app built with
``PSEUDO_LOCALE=True`` and the request's ``Accept-Language: en-XA``), where every marked string comes
back accented and bracketed (``⟦Ţŕáíţš⟧``). Any run of plain ASCII letters left in the page's visible
text is a word no catalogue message produced: English a translator never sees. Names the page
shows from the data (a character's, a chronicle's, a user's) are passed in ``allow``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: The request headers that ask for the pseudo-locale.
PSEUDO_HEADERS = {"Accept-Language": "en-XA"}
#: A word: two or more ASCII letters (one letter alone is an initial or a unit, not a sentence).
_WORD = re.compile(r"[A-Za-z]{2,}")
#: Elements whose text is not read on screen.
_HIDDEN = {"script", "style", "template", "code", "kbd", "samp"}
#: Attributes read aloud or shown (tooltips, placeholders, screen readers).
_READ_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
#: Elements with no end tag (they do not nest).
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _VisibleText(HTMLParser):
    """The visible text of a page (or of the element with id ``within``), and what is read aloud.

    The region ends at the end tag of its own element: only that tag's name is counted, so an
    unclosed ``<p>`` or ``<li>`` inside it changes nothing."""

    def __init__(self, within: str | None):
        super().__init__(convert_charrefs=True)
        self.within = within
        self.region_tag: str | None = None
        self.depth = 0  # open elements named region_tag, the region's own included
        self.hidden = 0
        self.parts: list[str] = []

    def _inside(self) -> bool:
        return self.within is None or self.depth > 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if self.within and self.depth == 0 and attributes.get("id") == self.within and tag not in _VOID:
            self.region_tag, self.depth = tag, 1
        elif self.depth and tag == self.region_tag:
            self.depth += 1
        if tag in _HIDDEN:
            self.hidden += 1
        if self._inside():
            if tag == "input" and attributes.get("type") in ("submit", "button") and attributes.get("value"):
                self.parts.append(attributes["value"])
            self.parts.extend(attributes[name] for name in _READ_ATTRIBUTES if attributes.get(name))

    def handle_endtag(self, tag):
        if tag in _HIDDEN and self.hidden:
            self.hidden -= 1
        if self.depth and tag == self.region_tag:
            self.depth -= 1

    def handle_data(self, data):
        if self._inside() and not self.hidden:
            self.parts.append(data)


def visible_text(html: str, within: str | None = None) -> str:
    """The text of ``html`` a reader sees or hears (buttons' values, titles, placeholders, labels
    for screen readers), of the element with id ``within`` only when given."""
    parser = _VisibleText(within)
    parser.feed(html)
    parser.close()
    return " ".join(parser.parts)


def bare_english(html: str, *, allow=(), within: str | None = None) -> list[str]:
    """The words of ``html``'s visible text (in the element ``within`` when given) left in plain
    ASCII letters, but those in ``allow`` (names from the data): on a pseudo-locale page, English
    that no catalogue message produced."""
    allowed = {word for text in allow for word in _WORD.findall(text)}
    return [word for word in _WORD.findall(visible_text(html, within)) if word not in allowed]


def assert_translated(response, *, allow=(), within: str | None = None) -> None:
    """Fail naming every bare English word of ``response`` (a pseudo-locale page)."""
    html = response.get_data(as_text=True)
    left = bare_english(html, allow=allow, within=within)
    assert not left, f"English left bare on {within or 'the page'}: {sorted(set(left))}"
