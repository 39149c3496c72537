"""Game sessions: closing one and opening the next, with what each character gets back
(issue 7; rules in :mod:`larp.rules.refresh`)."""

from __future__ import annotations

from datetime import date

from peewee import fn

from larp.db import db, for_update
from larp.models import AbilitySpend, Character, Chronicle, GameSession, Ruling, TraitLoss, User, utcnow
from larp.rules.explain import N_, Phrase, RulesError, Step, phrase_step, plural
from larp.rules.refresh import RefreshSubject, refresh_for_next_session
from larp.services import ServiceError
from larp.services.checkins import attendance_closing_step, award_attendance
from larp.services.chronicles import chronicle_settings
from larp.services.consequences import store_state
from larp.services.records import check_submission, record_ruling
from larp.services.sheets import delete_scene_extras
from larp.webhooks.outbox import announce_game_session


def session_label(game_session: GameSession) -> Phrase:
    """"Game session 3 (2026-11-29)" (:attr:`GameSession.label`) as a phrase, for the record."""
    return Phrase.message(N_("Game session %(number)s (%(date)s)"), number=game_session.number,
                          date=Phrase.day(game_session.date))


def latest_game_session(chronicle: Chronicle) -> GameSession | None:
    """The chronicle's game session with the highest number (open or closed), if any."""
    return (GameSession.select().where(GameSession.chronicle == chronicle)
            .order_by(GameSession.number.desc()).first())


def previous_game_session(session: GameSession) -> GameSession | None:
    """The game session before ``session``, if any."""
    return (GameSession.select().where((GameSession.chronicle == session.chronicle_id)
                                       & (GameSession.number < session.number))
            .order_by(GameSession.number.desc()).first())


def nights_before(session: GameSession) -> int:
    """Nights between the previous game session's date and ``session``'s (0 for the first)."""
    previous = previous_game_session(session)
    return max(0, (session.date - previous.date).days) if previous else 0


def _spent_in(character: Character, session: GameSession) -> tuple[tuple[str, ...], tuple[str, ...]]:
    traits = [
        f"{name}" + (f" ×{n}" if n > 1 else "")
        for name, n in (TraitLoss.select(TraitLoss.name, fn.SUM(TraitLoss.count))
                        .where((TraitLoss.character == character) & (TraitLoss.game_session == session))
                        .group_by(TraitLoss.name).order_by(TraitLoss.name).tuples())
    ]
    abilities = [
        f"{name} {n}"
        for name, n in (AbilitySpend.select(AbilitySpend.name, fn.SUM(AbilitySpend.levels))
                        .where((AbilitySpend.character == character) & (AbilitySpend.game_session == session))
                        .group_by(AbilitySpend.name).order_by(AbilitySpend.name).tuples())
    ]
    return tuple(traits), tuple(abilities)


def extras_removed_opening(session: GameSession) -> list[str]:
    """The names of the scene extras removed when the game session before ``session`` closed."""
    opened = (Ruling.select().where((Ruling.game_session == session) & (Ruling.kind == "session"))
              .order_by(Ruling.id).first())
    return list((opened.outcome or {}).get("extras_removed") or []) if opened else []


def close_and_open(chronicle: Chronicle, organiser: User | None, next_date: date,
                   closing: int | None = None) -> tuple[GameSession, list[Ruling]]:
    """Close the open game session and open the next one, dated ``next_date``, in one transaction.

    Every character gets back what the new game session gives back
    (:func:`larp.rules.refresh.refresh_for_next_session`): lost Traits and
    expended Ability levels simply stop counting (their rows stay for the
    history, marked restored), Willpower by ``wp_refresh``, blood by
    ``blood_refresh``. Each character something came back to gets a ruling of
    kind "refresh" with the steps, in the new game session; the closing itself
    is a ruling of kind "session" (it carries the form's one-time token). With no
    open game session, the next one is opened after the latest. ``closing`` is the
    number of the game session the form showed open: if another has been opened
    since, nothing is done. Closing an open game session removes the scene extras
    (:func:`larp.services.sheets.delete_scene_extras`, with the rulings only they were in);
    the session ruling's outcome lists them as ``extras_removed``.

    Returns:
        The new game session and the refresh rulings.

    Raises:
        AlreadyRecorded: 409 naming the first ruling when the form's one-time token (the call's
            Idempotency-Key) was recorded already, checked first.
        ServiceError: 422 (field "date") when ``next_date`` is before the last
            game session's date; 409 when game session ``closing`` is no longer the
            open one; nothing is changed.
    """
    settings = chronicle_settings(chronicle)
    with db.atomic():
        # Check-then-write: the chronicle row guards its game sessions (two organisers closing
        # at once: the second waits, then finds the session closed), and every character is
        # refreshed, so all are locked, in id order like every other use case (FOR NO KEY UPDATE on
        # PostgreSQL; on SQLite the BEGIN IMMEDIATE transaction already serialises).
        list(for_update(Chronicle.select(Chronicle.id).where(Chronicle.id == chronicle.id)))
        list(for_update(Character.select(Character.id).where(Character.chronicle == chronicle).order_by(Character.id)))
        # The same form or call again (its one-time key recorded) is named as such before anything
        # else is checked: its own first closing would otherwise read as "already closed".
        check_submission([])
        last = latest_game_session(chronicle)
        current = last if last is not None and last.closed_at is None else None
        if closing is not None and (current is None or current.number != closing):
            raise ServiceError(Phrase.message(N_("Game session %(number)s was already closed; %(session)s is open. "
                                                 "Nothing was changed."), number=closing,
                                              session=Phrase.message(N_("Game session %(number)s (%(date)s)"),
                                                                     number=current.number, date=Phrase.day(current.date)))
                               if current else Phrase.message(N_("Game session %(number)s was already closed. Nothing "
                                                                 "was changed."), number=closing),
                               field="session", status=409)
        if last is not None and next_date < last.date:
            raise ServiceError(Phrase.message(N_("The next game session cannot be dated %(date)s, before the last one "
                                                 "(%(session)s). Choose %(earliest)s or later."),
                                              date=Phrase.day(next_date),
                                              session=Phrase.message(N_("Game session %(number)s (%(date)s)"),
                                                                     number=last.number, date=Phrase.day(last.date)),
                                              earliest=Phrase.day(last.date)), field="date")
        # Scene extras last one game session (README, "From an empty install"): they go as it closes,
        # recorded in it, before anyone is refreshed for the next.
        extras = delete_scene_extras(chronicle, organiser) if current is not None else []
        now = utcnow()
        if last is not None and last.closed_at is None:
            last.closed_at = now
            last.save()
        new = GameSession.create(chronicle=chronicle, number=(last.number if last else 0) + 1, date=next_date,
                                 opened_at=now)
        closed = (Phrase.message(N_("Game session %(closed)s closed; %(opened)s opened"), closed=last.number,
                                 opened=session_label(new)) if last else
                  Phrase.message(N_("%(opened)s opened"), opened=session_label(new)))
        session_ruling = record_ruling(chronicle, organiser, "session", closed, [], [], game_session=new,
                                       inputs={"date": next_date.isoformat()})
        # Attendance experience for those checked in at the door, once each (issue 32).
        attended = award_attendance(chronicle, organiser, current) if current is not None else []
        rulings: list[Ruling] = []
        if last is not None:
            for character in Character.select().where(Character.chronicle == chronicle).order_by(Character.name):
                traits, abilities = _spent_in(character, last)
                subject = RefreshSubject(character.name, character.creature, character.condition,
                                         character.willpower_current, character.willpower_permanent,
                                         character.blood_current, character.blood_max, traits, abilities)
                try:
                    refresh = refresh_for_next_session(subject, last.date, next_date, settings)
                except RulesError as exc:
                    raise ServiceError(exc.message, field=exc.field) from None
                if not refresh.changed:
                    continue
                record = record_ruling(
                    chronicle, organiser, "refresh", Phrase.message(N_("%(name)s: refreshed for %(session)s"),
                                                                    name=character.name, session=session_label(new)),
                    refresh.steps,
                    [(character, "subject")], game_session=new,
                    inputs={"from_session": last.number, "to_session": new.number},
                    outcome={"willpower_current": refresh.willpower_current, "blood_current": refresh.blood_current,
                             "traits_back": list(traits), "abilities_back": list(abilities)})
                store_state(character, blood_current=refresh.blood_current,
                            willpower_current=refresh.willpower_current, ruling=record)
                rulings.append(record)
            TraitLoss.update(restored_at=now).where(
                (TraitLoss.game_session == last) & TraitLoss.restored_at.is_null()).execute()
            AbilitySpend.update(restored_at=now).where(
                (AbilitySpend.game_session == last) & AbilitySpend.restored_at.is_null()).execute()
        session_ruling.outcome = {"closed": last.number if last else None, "opened": new.number,
                                  "refreshed": len(rulings), "extras_removed": extras}
        refreshed = Phrase.counted(len(rulings), "%(n)s character refreshed.", "%(n)s characters refreshed.")
        session_ruling.steps = [Step(str(refreshed), "LotNR (met-reference 5.1)", said=refreshed.data()).to_record()]
        if attended:
            session_ruling.steps.append(attendance_closing_step(attended))
        if extras:
            session_ruling.steps.append(phrase_step(N_("Scene extras removed as the game session closed: %(names)s."),
                                                    "Scene extras (README, From an empty install, step 4)",
                                                    names=", ".join(extras)).to_record())
        session_ruling.save()
        announce_game_session(chronicle, current, new, session_ruling)  # issue 35: its webhook event
        return new, rulings
