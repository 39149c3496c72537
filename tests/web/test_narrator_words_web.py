"""The narrator's side of a static challenge said in Portuguese and Spanish (LotNR Static Challenges): the
catalogue's "o narrador" / "el narrador" inside a sentence, joined with the preposition before it as each
language writes it, and a capital where a sentence starts."""

from __future__ import annotations

from larp.i18n import step_text
from larp.rules.challenge import Call, Category, Challenge, Contestant, Kind, Throw, rule_challenge
from larp.rules.challenge import TestCall as TCall


def _steps(traits: int, difficulty: int, mine: Throw, narrators: Throw) -> tuple:
    return rule_challenge(Challenge(Category.PHYSICAL, Contestant("Ann", traits, ("Quick",)), kind=Kind.STATIC,
                                    difficulty=difficulty, action="other",
                                    tests=(TCall(Call.TEST, mine, narrators),))).steps


def _said(app, language: str, steps) -> list[str]:
    with app.test_request_context(headers={"Accept-Language": language}):
        return [step_text(step) for step in steps]


def test_the_narrator_reads_right_in_portuguese_and_spanish(app):
    """Ann ties with 12 Traits against a difficulty of 8 and wins; the narrator wins a test with Paper."""
    tie, lost = _steps(12, 8, Throw.ROCK, Throw.ROCK), _steps(3, 8, Throw.ROCK, Throw.PAPER)
    pt = _said(app, "pt-BR", tie) + _said(app, "pt-BR", lost)
    assert "Ann tem 12 Características contra 8 do narrador: Ann vence o empate." in pt
    assert any(line.endswith(": o narrador vence o teste.") for line in pt)
    es = _said(app, "es", tie) + _said(app, "es", lost)
    assert any("contra 8 del narrador" in line for line in es), es
    assert any(line.endswith(": el narrador gana la prueba.") for line in es)
    assert not [line for line in pt + es if "The narrator" in line or "the narrator" in line]
    narrator_first = _said(app, "pt-BR", _steps(3, 12, Throw.ROCK, Throw.ROCK))
    assert any(line.startswith("O narrador tem 12") for line in narrator_first), narrator_first
