"""The pseudo-locale ``en_XA`` (issue 36 item 5): every marked string said accented and bracketed
(``"%(n)s Traits"`` -> ``"⟦%(n)s Ţŕáíţš⟧"``), so that a page rendered in it shows any English word no catalogue
message produced as plain ASCII letters (tests/i18n_support.py finds them). Only an app built with
``PSEUDO_LOCALE`` (as in tests) offers it (:mod:`larp.i18n`).
"""

from __future__ import annotations

import re

from babel.support import NullTranslations

#: Each ASCII letter's accented look-alike: a bare English letter on a pseudo-locale page is one
#: that no catalogue message produced.
_ACCENTED = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                     "áƀçđéƒĝĥíĵķĺɱñóƥʠŕšţúʋŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤɊŔŠŢÚṼŴẊÝŽ"))
#: What a message keeps as it is: placeholders (``%(name)s``, ``%s``, ``{name}``), HTML tags and
#: entities.
_KEEP = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr%]|\{[^{}]*\}|<[^>]*>|&#?\w+;")
#: The pseudo-locale's brackets around every message.
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


def pseudo(text: str) -> str:
    """``text`` as the pseudo-locale renders it: letters accented, placeholders, tags and entities
    kept, the whole bracketed (``"%(n)s Traits"`` -> ``"⟦%(n)s Ţŕáíţš⟧"``)."""
    out, last = [], 0
    for match in _KEEP.finditer(text):
        out.append("".join(_ACCENTED.get(c, c) for c in text[last:match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append("".join(_ACCENTED.get(c, c) for c in text[last:]))
    return PSEUDO_OPEN + "".join(out) + PSEUDO_CLOSE


class PseudoTranslations(NullTranslations):
    """The pseudo-locale: every message, singular or plural, with or without context, through
    :func:`pseudo`."""

    def gettext(self, message):
        """``message`` in the pseudo-locale."""
        return pseudo(message)

    def ngettext(self, msgid1, msgid2, n):
        """The singular or plural message (English rules) in the pseudo-locale."""
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context, message):
        """``message`` (whatever its context) in the pseudo-locale."""
        return pseudo(message)

    def npgettext(self, context, msgid1, msgid2, n):
        """The singular or plural message (whatever its context) in the pseudo-locale."""
        return pseudo(msgid1 if n == 1 else msgid2)

    ugettext, ungettext, upgettext, unpgettext = gettext, ngettext, pgettext, npgettext
