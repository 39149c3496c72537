"""The narrator's side of a static challenge in a ruling's sentences (LotNR Static Challenges): "The narrator"
where a sentence starts with it, "the narrator" inside one, in English and as each language joins its words."""

from __future__ import annotations

from larp.rules.challenge import Call, Category, Challenge, Contestant, Kind, Throw, rule_challenge
from larp.rules.challenge import TestCall as TCall
from larp.rules.explain import ENGLISH, NARRATOR, Phrase, Speaker, say


def _static(traits: int, difficulty: int, mine: Throw, narrators: Throw):
    """Ann's static Physical challenge against a difficulty of ``difficulty`` Traits, one test."""
    return rule_challenge(Challenge(Category.PHYSICAL, Contestant("Ann", traits, ("Quick",)), kind=Kind.STATIC,
                                    difficulty=difficulty, action="other", tests=(TCall(Call.TEST, mine, narrators),)))


def _texts(ruling) -> list[str]:
    return [step.text for step in ruling.steps] + [str(ruling.summary)]


def test_the_narrator_inside_a_sentence_is_not_capitalised():
    """LotNR Static Challenges: the narrator wins with Paper ("Paper beats Rock: the narrator wins the test."), and
    Ann with more Traits on a tie ("against the narrator's 8"); each step said again from its stored data reads
    the same."""
    lost = _static(3, 8, Throw.ROCK, Throw.PAPER)
    assert "Paper beats Rock: the narrator wins the test." in _texts(lost)
    tie = _static(12, 8, Throw.ROCK, Throw.ROCK)
    assert "Ann has 12 Traits against the narrator's 8: Ann wins the tie." in _texts(tie)
    for step in list(lost.steps) + list(tie.steps):
        if step.said:
            assert say(step.said, ENGLISH) == step.text
    assert not [t for t in _texts(lost) + _texts(tie) if "The narrator" in t[1:]]


def test_a_sentence_that_starts_with_the_narrator_keeps_its_capital():
    """LotNR Static Challenges: a difficulty of 12 against 3 Traits on a tie: "The narrator has 12 Traits against
    Ann's 3: the narrator wins the tie." (capital at the start, not inside)."""
    assert "The narrator has 12 Traits against Ann's 3: the narrator wins the tie." in _texts(
        _static(3, 12, Throw.ROCK, Throw.ROCK))


def test_another_language_says_it_with_its_own_words_and_contractions():
    """A reader's language: the catalogue's two forms of the name, and "de o" joined into "do" as Portuguese
    writes it (the edge's contractions); the start of a sentence keeps its capital."""
    words = {NARRATOR: "O narrador", "the narrator": "o narrador",
             "%(name)s has %(n)s Traits against %(other)s's %(other_n)s: %(name)s wins the tie.":
             "%(name)s tem %(n)s Características contra %(other_n)s de %(other)s: %(name)s vence o empate."}
    portuguese = Speaker(gettext=lambda m: words.get(m, m), ngettext=lambda one, many, n: one if n == 1 else many,
                         term=lambda w: w, number=str, contractions={"de o": "do"})
    template = "%(name)s has %(n)s Traits against %(other)s's %(other_n)s: %(name)s wins the tie."
    ann_wins = Phrase.message(template, name="Ann", n=12, other=NARRATOR, other_n=8)
    assert say(ann_wins.data(), portuguese) == "Ann tem 12 Características contra 8 do narrador: Ann vence o empate."
    narrator_wins = Phrase.message(template, name=NARRATOR, n=12, other="Ann", other_n=3)
    assert say(narrator_wins.data(), portuguese) == \
        "O narrador tem 12 Características contra 3 de Ann: o narrador vence o empate."
