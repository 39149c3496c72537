"""Contrast of the screens' text, computed from the colours in static/css/app.css (WCAG 2.x relative
luminance; the developers' guide asks at least 4.5:1 for a dim room; issue 18 found the brand and the
lost-Trait chips below it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[1] / "static" / "css" / "app.css").read_text(encoding="utf-8")


def top_level_rules(css: str) -> list[tuple[list[str], dict[str, str]]]:
    """(selectors, declarations) of the rules outside any @media block, in file order."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules, depth, start, prelude = [], 0, 0, ""
    for i, ch in enumerate(css):
        if ch == "{":
            if depth == 0:
                prelude = css[start:i].strip()
                start = i + 1
            depth += 1
        elif ch == "}":
            depth -= 1
            assert depth >= 0, f"a stray '}}' in app.css near {css[max(0, i - 60):i]!r}"
            if depth == 0:
                if not prelude.startswith("@"):
                    body = css[start:i]
                    decls = dict((k.strip(), v.strip()) for k, _, v in
                                 (d.partition(":") for d in body.split(";") if ":" in d))
                    rules.append(([s.strip() for s in prelude.split(",")], decls))
                start = i + 1
    assert depth == 0, "unbalanced braces in app.css"
    return rules


RULES = top_level_rules(CSS)


def declared(selector: str, prop: str) -> str | None:
    """The last value of ``prop`` in a top-level rule that lists exactly ``selector``, vars resolved."""
    value = None
    for selectors, decls in RULES:
        if selector in selectors and prop in decls:
            value = decls[prop]
    return resolve(value) if value else None


def resolve(value: str) -> str:
    for _ in range(5):
        match = re.search(r"var\((--[\w-]+)\)", value)
        if not match:
            break
        value = value.replace(match.group(0), declared(":root", match.group(1)))
    return value


def first_colour(value: str) -> tuple[float, float, float]:
    match = re.search(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b", value)
    assert match, f"no colour in {value!r}"
    hexa = match.group(1)
    if len(hexa) == 3:
        hexa = "".join(c * 2 for c in hexa)
    return tuple(int(hexa[i:i + 2], 16) / 255 for i in (0, 2, 4))


def luminance(rgb: tuple[float, float, float]) -> float:
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(fg, bg) -> float:
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def blend(top, under, alpha: float):
    return tuple(alpha * t + (1 - alpha) * u for t, u in zip(top, under))


def painted(selector: str, fallback: str, behind: str):
    """The text and background colours of ``selector`` as painted over the ``behind`` element's
    background, with the element's own opacity blended in (missing values come from ``fallback``; the
    text colour is inherited from ``body`` when neither sets one)."""
    under = first_colour(declared(behind, "background"))
    text = first_colour(declared(selector, "color") or declared(fallback, "color") or declared("body", "color"))
    own = declared(selector, "background") or declared(fallback, "background")
    bg = under if own in (None, "transparent") else first_colour(own)
    opacity = float(declared(selector, "opacity") or 1)
    return blend(text, under, opacity), blend(bg, under, opacity)


@pytest.mark.parametrize("selector, fallback, behind", [
    (".brand", ".brand", ".topbar"),              # issue 18: #c0443a on the top bar was 3.9:1
    (".chip.lost", ".chip", ".panel"),            # issue 18: a lost Trait's bid chip at 45 % opacity
    (".trait-list li.lost", ".trait-list li", ".panel"),  # the character page's and the card's lost Traits
    (".chip", ".chip", ".panel"),
    (".mainnav a", ".mainnav a", ".topbar"),
    (".hint", ".hint", ".panel"),
    (".rule", ".rule", ".panel"),
    (".who-meta", ".who-meta", ".panel"),
    (".box .lvl", ".box .lvl", ".box"),
])
def test_text_is_at_least_4_5_to_1(selector, fallback, behind):
    """Developers' guide "The UI is for touch and the dark": text at least 4.5:1 against what it sits on."""
    text, bg = painted(selector, fallback, behind)
    ratio = contrast(text, bg)
    assert ratio >= 4.5, f"{selector}: {ratio:.2f}:1"


def test_the_css_has_no_stray_brace():
    """A stray '}' at the top level makes the browser drop the next rule (CSS Syntax 3 error recovery):
    app.css lost ``.link-button`` that way."""
    assert any(".link-button" in selectors for selectors, _ in RULES)
