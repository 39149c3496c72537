"""A Virtue Test on a stored character, and the state it leaves him in (issue 30 item 8): "in frenzy" or "in
Rötschreck" (``Character.frenzy``), set by the test's ruling (:func:`larp.rules.frenzy.rule_virtue_test`;
LotNR Virtue Tests and Frenzy, met-reference 1.6, T15, T26), shown on his sheet and read by every later
challenge (:func:`larp.services.characters.person_of` passes it as ``Person.frenzy``: no wound penalty in
frenzy, LotNR Frenzy).

One use case, one transaction: the character is read locked (:func:`larp.services.characters.get_character`
inside the transaction: ``FOR NO KEY UPDATE`` on PostgreSQL, SQLite's ``BEGIN IMMEDIATE``), his Virtue,
Willpower and Blood Traits read, the rules core called once, then his state and Willpower written and the
ruling recorded (undo restores both). What stays with the narrator and the player (the core's docstring
says why): which permanent Negative Trait the player takes, which temporary derangement, and the Virtue
Trait lost for the game session; the ruling names each, for the sheet.
"""

from __future__ import annotations

from typing import Any, Mapping

from larp.db import db
from larp.models import Character, Chronicle, Ruling, User
from larp.rules.challenge.types import RandomSource, Throw, parse_throw
from larp.rules.explain import N_, Phrase, RulesError
from larp.rules.frenzy import Purpose, Virtue, VirtueRuling, VirtueTest, rule_virtue_test
from larp.services import ServiceError, read_number
from larp.services.characters import get_character
from larp.services.chronicles import chronicle_settings, current_game_session
from larp.services.records import record_ruling, refuse_if_recorded

THROWS = ("rock", "paper", "scissors")


def _flag(value: Any) -> bool:
    return value is True or (value is not None and str(value).strip().lower() in ("1", "true", "on", "yes"))


def _throw(value: Any, field: str, rng: RandomSource) -> Throw:
    text = str(value or "").strip().lower()
    if text in ("", "random"):
        return Throw(rng.choice(THROWS))
    try:
        return parse_throw(text, field)
    except RulesError as exc:
        raise ServiceError(exc.message, field=field) from None


def virtue_test_of(character: Character, values: Mapping[str, Any], rng: RandomSource) -> VirtueTest:
    """The Virtue Test a form or an API call describes for ``character``: ``virtue`` (self_control,
    instinct, courage), ``stimulus`` (its Traits as the narrator sets them, or a key of
    ``data/frenzy.toml``), ``throw`` and ``narrator_throw`` (left out or ``random``: drawn), ``retest``
    (``on``: risk a Virtue Trait for a retest, ``retest_throw``, ``retest_narrator_throw``), ``hunger``,
    ``relent``, ``fend_off``, ``purpose`` (resist, end) and ``trigger_removed``. His Virtue Traits, Willpower
    and Blood Traits are the stored ones.

    Raises:
        ServiceError: 422 naming the field of a malformed value.
    """
    try:
        virtue = Virtue(str(values.get("virtue") or "").strip().lower())
    except ValueError:
        raise ServiceError(Phrase.message(N_("Choose the Virtue: self_control, "
                                             "instinct or courage.")), field="virtue") from None
    try:
        purpose = Purpose(str(values.get("purpose") or "resist").strip().lower())
    except ValueError:
        raise ServiceError(Phrase.message(N_("The test resists a stimulus (resist) "
                                             "or ends a frenzy (end).")), field="purpose") from None
    raw = values.get("stimulus")
    text = str(raw if raw is not None else "").strip()
    if not text and purpose is Purpose.RESIST:
        raise ServiceError(Phrase.message(N_("Give the stimulus: its Traits, or one of the "
                                             "usual stimuli.")), field="stimulus")
    stimulus: int | str = read_number(text, "stimulus", low=0, high=30, label="The stimulus") if text.isdigit() \
        else (text or 0)
    retest = None
    if _flag(values.get("retest")):
        retest = (_throw(values.get("retest_throw"), "retest_throw", rng),
                  _throw(values.get("retest_narrator_throw"), "retest_narrator_throw", rng))
    virtues = dict(character.virtues or {})
    return VirtueTest(
        name=character.name, virtue=virtue, traits=int(virtues.get(virtue.label, 0) or 0), stimulus=stimulus,
        throw=_throw(values.get("throw"), "throw", rng), narrator_throw=_throw(values.get("narrator_throw"),
                                                                              "narrator_throw", rng),
        retest=retest, blood=character.blood_current if character.creature == "vampire" else None,
        hunger=_flag(values.get("hunger")), relent=_flag(values.get("relent")),
        willpower=character.willpower_current, fend_off=_flag(values.get("fend_off")), purpose=purpose,
        trigger_removed=_flag(values.get("trigger_removed")))


def run_virtue_test(chronicle: Chronicle, narrator: User | None, character_id: Any, values: Mapping[str, Any],
                    rng: RandomSource, request_token: str | None = None) -> tuple[Character, Ruling, VirtueRuling]:
    """Rule a Virtue Test on a stored character and apply it: his frenzy state (``frenzy``,
    ``rotschreck`` or none) and the Willpower spent, recorded as one ruling of kind ``virtue_test``.

    Raises:
        ServiceError: 404 unknown character; 409 no game session is open, or the form was recorded
            already; 422 what the rules refuse (a retest without a Virtue Trait to risk, Willpower he does
            not have, an unknown stimulus...), naming the field.
    """
    settings = chronicle_settings(chronicle)
    with db.atomic():
        refuse_if_recorded(request_token)
        game_session = current_game_session(chronicle)
        character = get_character(chronicle, character_id)
        test = virtue_test_of(character, values, rng)
        ruling = rule_virtue_test(test, settings)
        record = record_ruling(chronicle, narrator, "virtue_test", ruling.summary, ruling.steps,
                               [(character, "tested")], game_session=game_session,
                               inputs={"virtue": test.virtue.value, "traits": test.traits,
                                       "stimulus": test.stimulus, "purpose": test.purpose.value,
                                       "frenzy_before": character.frenzy},
                               outcome=ruling.to_dict(), request_token=request_token)
        Character.update(frenzy=ruling.condition, willpower_current=Character.willpower_current - ruling.willpower_spent,
                         version=Character.version + 1).where(Character.id == character.id).execute()
        return Character.get_by_id(character.id), record, ruling
