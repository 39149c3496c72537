"""Bidirectional text in names (new-user test 12, finding 4).

A name is shown inside lines of other text (the check-in roster, the record, the combat board), so a
control that overrides or opens a direction (U+202A–U+202E: LRE, RLE, PDF, LRO, RLO; U+2066–U+2069: LRI,
RLI, FSI, PDI) would reorder what follows it: a stored "evil" shown as "live", a time landing inside a
name, a name that cannot be typed back ("type the name exactly" to delete). Such controls are refused in
names (character, player, user, chronicle, scene) and stripped, with a note, from imported files.

The two marks U+200E (LEFT-TO-RIGHT MARK) and U+200F (RIGHT-TO-LEFT MARK) are allowed: each is an
invisible strong letter, reorders nothing outside the name once the name is isolated (the pages wrap
names in ``<bdi>``, the ``bdi`` filter), and a name in Hebrew or Arabic may need one to end right.
"""

from __future__ import annotations

#: The embedding, override and isolate controls (Unicode Bidirectional Algorithm, UAX #9, 2.1-2.4).
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def direction_controls_in(text: str) -> list[str]:
    """The direction controls in ``text`` as their code points ("U+202E"), each once, in order."""
    found: list[str] = []
    for ch in text:
        code = f"U+{ord(ch):04X}"
        if ch in DIRECTION_CONTROLS and code not in found:
            found.append(code)
    return found


def without_direction_controls(text: str) -> tuple[str, int]:
    """``text`` with its direction controls taken out, and how many there were."""
    kept = "".join(ch for ch in text if ch not in DIRECTION_CONTROLS)
    return kept, len(text) - len(kept)


def needs_isolation(text: str) -> bool:
    """Whether ``text`` shown inside a left-to-right line could reorder it: it holds a right-to-left
    letter (bidirectional class R or AL: Hebrew, Arabic, Syriac, Thaana, N'Ko...) or a direction control.

    A text of left-to-right letters, digits and punctuation only cannot move the words around it on the
    app's pages (English, Portuguese and Spanish are all left to right), so it is left as it is, and the
    pages' words stay as they were; a right-to-left language for the pages would isolate every name."""
    if text.isascii():
        return False
    from unicodedata import bidirectional

    return any(ch in DIRECTION_CONTROLS or bidirectional(ch) in ("R", "AL") for ch in text)


def isolated(text: str) -> str:
    """``text`` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (U+2068, U+2069) when
    :func:`needs_isolation`, for a name inside a sentence written as plain text (a ruling's step said
    on a page); else ``text`` as it is."""
    return f"\u2068{text}\u2069" if needs_isolation(text) else text
