"""Between-game actions (issue 33 item 3), the service: the coming game session, the per-session limit,
the cutoff before the night, edits and withdrawals, answers, and two writes for one character at once.

Runs on the demo chronicle; game session 1 (open) is moved a week ahead, so it is coming and its
actions are open (the default cutoff is 48 hours before the game day begins)."""

from __future__ import annotations

import threading
from datetime import date, timedelta

import pytest

from larp.db import db
from larp.models import BetweenGameAction, Character, GameSession, User, utcnow
from larp.services import ServiceError
from larp.services.between_game_actions import (action_window, answer_action, closes_at, coming_game_session,
                                                edit_action, player_notices, session_actions, pending_count,
                                                withdraw_action, write_action)
from larp.services.chronicles import get_chronicle, set_setting


def char(name: str) -> Character:
    """The stored character called ``name``, read now."""
    return Character.get(Character.name == name)


@pytest.fixture
def chronicle(app):
    """The demo chronicle, its open game session a week ahead, inside a request and a connection."""
    with app.test_request_context(), db.connection_context():
        GameSession.update(date=date.today() + timedelta(days=7)).execute()
        yield get_chronicle()


@pytest.fixture
def organiser(chronicle):
    """An organiser's account."""
    from larp.services.accounts import create_user

    return create_user("org1", "Olga Organiser", "organiser", "correct horse")


def test_the_coming_game_session_is_the_open_one_not_yet_held(chronicle):
    """Issue 33 item 3: the coming game session is the open one while its date is today or later; once its
    night has passed (and nobody closed it) none is coming, and the window says so."""
    session = GameSession.get()
    assert coming_game_session(chronicle) == session
    GameSession.update(date=date.today()).execute()
    assert coming_game_session(chronicle) is not None  # tonight is still coming
    GameSession.update(date=date.today() - timedelta(days=1)).execute()
    assert coming_game_session(chronicle) is None
    window = action_window(chronicle)
    assert not window.open and "Game session 1" in window.reason and "was held" in window.reason
    with pytest.raises(ServiceError) as refused:
        write_action(chronicle, char("Konrad Vale"), None, "I hunt in the docks.")
    assert refused.value.status == 409 and BetweenGameAction.select().count() == 0


def test_the_limit_per_character_and_game_session(chronicle):
    """Setting between_game_actions_per_session (default 3, ours): a fourth action is refused with why;
    a withdrawn one no longer counts; another character has his own three."""
    konrad = char("Konrad Vale")
    written = [write_action(chronicle, konrad, None, f"Action {n}")[0] for n in range(3)]
    with pytest.raises(ServiceError) as refused:
        write_action(chronicle, konrad, None, "Action 4")
    assert refused.value.status == 409
    assert "Konrad Vale has 3 between-game actions for Game session 1" in refused.value.message
    assert "limit (3)" in refused.value.message
    write_action(chronicle, char("Lys Moreau"), None, "Lys's first")
    withdraw_action(chronicle, konrad, written[0].id, written[0].version)
    fourth, created = write_action(chronicle, konrad, None, "Action 4")
    assert created and fourth.text == "Action 4"
    assert BetweenGameAction.select().where(BetweenGameAction.character == konrad).count() == 4  # kept: withdrawn too
    set_setting(chronicle, "between_game_actions_per_session", "1")
    with pytest.raises(ServiceError, match=r"limit \(1\)"):
        write_action(chronicle, char("Lys Moreau"), None, "Lys's second")


def test_the_cutoff_before_the_night(chronicle, organiser):
    """Setting between_game_actions_cutoff_hours (default 48, ours): players write, edit and withdraw until
    48 hours before the game day begins; after it they are refused, saying when it closed; an organiser
    may still enter a late one."""
    session = GameSession.get()
    closing = closes_at(session, 48, "")
    konrad = char("Konrad Vale")
    before = closing - timedelta(minutes=1)
    action, _ = write_action(chronicle, konrad, None, "Before the cutoff", now=before)
    assert action_window(chronicle, before).open
    after = closing + timedelta(minutes=1)
    window = action_window(chronicle, after)
    assert not window.open and "closed at" in window.reason
    for attempt in (lambda: write_action(chronicle, konrad, None, "Too late", now=after),
                    lambda: edit_action(chronicle, konrad, action.id, "Rewritten", action.version, now=after),
                    lambda: withdraw_action(chronicle, konrad, action.id, action.version, now=after)):
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert refused.value.status == 409 and "closed at" in refused.value.message
    late, created = write_action(chronicle, konrad, organiser, "Handed in on paper", organiser=True, now=after)
    assert created and late.author_name == "Olga Organiser"
    assert BetweenGameAction.get_by_id(action.id).text == "Before the cutoff"
    # 24 hours before, in the chronicle's own time zone: the cutoff moves with the setting.
    set_setting(chronicle, "between_game_actions_cutoff_hours", "24")
    assert action_window(chronicle, after).open


def test_edit_withdraw_and_answer_with_their_versions(chronicle, organiser):
    """An organiser's answer is refused when the player edited since the page showed it; an answered
    action is no longer edited nor withdrawn; two answers on one version: the second is refused."""
    konrad = char("Konrad Vale")
    action, _ = write_action(chronicle, konrad, None, "I look for the Prince's ghoul.")
    edited = edit_action(chronicle, konrad, action.id, "I look for the Prince's ghoul at the opera.", action.version)
    assert edited.version == action.version + 1 and edited.edited_at is not None
    with pytest.raises(ServiceError) as stale:
        answer_action(chronicle, organiser, action.id, "You find nothing.", action.version)
    assert stale.value.status == 409 and "changed since" in stale.value.message
    answered = answer_action(chronicle, organiser, action.id, "He sits in box 5.", edited.version)
    assert answered.answer == "He sits in box 5." and answered.answered_by_name == "Olga Organiser"
    with pytest.raises(ServiceError, match="changed since"):
        answer_action(chronicle, organiser, action.id, "Another answer", edited.version)
    for attempt in (lambda: edit_action(chronicle, konrad, action.id, "Changed", answered.version),
                    lambda: withdraw_action(chronicle, konrad, action.id, answered.version)):
        with pytest.raises(ServiceError, match="answered"):
            attempt()
    with pytest.raises(ServiceError) as other:  # Lys's player cannot reach Konrad's action
        edit_action(chronicle, char("Lys Moreau"), action.id, "Mine now", answered.version)
    assert other.value.status == 404


def test_texts_are_checked_and_a_double_tap_writes_once(chronicle):
    """An empty or too long action is refused naming the field; the same form's token twice writes one."""
    konrad = char("Konrad Vale")
    for text, words in (("   ", "empty"), ("x" * 2001, "2001 characters")):
        with pytest.raises(ServiceError) as refused:
            write_action(chronicle, konrad, None, text)
        assert refused.value.field == "text" and words in refused.value.message
    first, created = write_action(chronicle, konrad, None, "Feed at the docks", request_token="tap-1")
    again, created_again = write_action(chronicle, konrad, None, "Feed at the docks", request_token="tap-1")
    assert created and not created_again and again.id == first.id
    assert BetweenGameAction.select().count() == 1


def test_the_organisers_list_and_count(chronicle, organiser):
    """The organisers' list of a game session shows those waiting first; the count of unanswered actions
    (issue 33 item 5) counts the open game session's, not the withdrawn nor the answered."""
    a, _ = write_action(chronicle, char("Konrad Vale"), None, "A")
    b, _ = write_action(chronicle, char("Lys Moreau"), None, "B")
    c, _ = write_action(chronicle, char("Aldous Whitmore"), None, "C")
    assert pending_count(chronicle) == 3
    answer_action(chronicle, organiser, a.id, "Done.", a.version)
    withdraw_action(chronicle, char("Lys Moreau"), b.id, b.version)
    assert pending_count(chronicle) == 1
    assert [x.id for x in session_actions(chronicle, GameSession.get())] == [c.id, a.id, b.id]
    assert player_notices(char("Konrad Vale")) == [("Between-game action “A”: answered", "answered")]
    assert player_notices(char("Lys Moreau")) == []  # withdrawn
    assert player_notices(char("Aldous Whitmore")) == [("Between-game action “C”: waiting for an answer", "waiting")]


def test_two_writes_for_one_character_at_once_keep_the_limit(app, chronicle):
    """The per-session limit's check-then-write under concurrency: with a limit of 2, four writes for the
    same character at the same moment (four threads, each its own connection) store exactly two; the
    other two are refused with the limit (409), none fails otherwise (on SQLite and PostgreSQL)."""
    set_setting(chronicle, "between_game_actions_per_session", "2")
    konrad_id = char("Konrad Vale").id
    start = threading.Barrier(4)
    outcomes: list[str] = []
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            with app.test_request_context(), db.connection_context():
                start.wait(timeout=10)
                write_action(get_chronicle(), Character.get_by_id(konrad_id), None, f"At once {n}")
                outcomes.append("written")
        except ServiceError as exc:
            outcomes.append("limit" if exc.status == 409 and "limit (2)" in exc.message else exc.message)
        except BaseException as exc:  # noqa: BLE001 - any other failure fails the test
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert sorted(outcomes) == ["limit", "limit", "written", "written"]
    with db.connection_context():
        assert BetweenGameAction.select().where(BetweenGameAction.character == konrad_id).count() == 2


def test_a_character_in_final_death_takes_no_between_game_actions(chronicle, organiser):
    """A character in Final Death (or a dead mortal) writes no between-game action, and the organisers'
    late-action picker does not offer him."""
    Character.update(condition="final_death").where(Character.name == "Konrad Vale").execute()
    with pytest.raises(ServiceError, match="met Final Death") as refused:
        write_action(chronicle, char("Konrad Vale"), organiser, "I walk again.")
    assert refused.value.status == 409 and BetweenGameAction.select().count() == 0
