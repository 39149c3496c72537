"""A character's experience log (issue 14): reading it, and writing its lines as rulings.

Every line is written by :func:`write_experience_line` (the log's form, attendance at a game session
from :mod:`larp.services.checkins`), as a ruling of kind "experience" so undoing it removes the line,
and the printed sheet gets a new edition (issue 34). The sums are the rules core's
(:mod:`larp.rules.experience`, LotNR Experience).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from larp.db import as_id, db
from larp.i18n import format_number
from larp.models import Character, Chronicle, ExperienceEntry, GameSession, User
from larp.rules import experience as experience_rules
from larp.rules.explain import N_, Phrase, phrase_step
from larp.services import ServiceError
from larp.services.characters import get_character
from larp.services.chronicles import open_game_session
from larp.services.editions import EDITION_KEY, next_edition, raise_edition
from larp.services.records import record_ruling, refuse_if_recorded
from larp.services.sheets import may_edit


@dataclass(frozen=True)
class ExperienceLog:
    """A character's experience log, newest first, with the totals in experience points (exact
    decimals; :func:`larp.rules.experience.running_totals` runs them in the order recorded)."""

    entries: list[ExperienceEntry]
    earned: Decimal
    unspent: Decimal

    @property
    def spent(self) -> Decimal:
        """Experience earned and no longer unspent."""
        return self.earned - self.unspent

    def shown(self, entry: ExperienceEntry) -> str:
        """How a line's points read on the sheet (``+0.5``, ``unspent set to 3``...); an earned or spent line's
        number in the reader's way (``+0,5`` in Portuguese and Spanish)."""
        return shown_points(entry.kind, entry.amount)

    def points(self, amount: Decimal) -> str:
        """A total as the reader writes it (``12.5`` in English, ``12,5`` in Portuguese and Spanish; ``3``)."""
        return format_number(Decimal(amount))


def shown_points(kind: str, amount: Decimal | int) -> str:
    """A log line's points as the sheet shows them (:func:`larp.rules.experience.shown`), its numbers in the
    reader's way (``+0,5`` in Portuguese and Spanish)."""
    return experience_rules.shown(kind, amount, number=format_number)


def experience_log(character: Character) -> ExperienceLog:
    """The log of ``character`` (earned and spent, on what, in which game session, by whom)."""
    recorded = list(ExperienceEntry.select().where(ExperienceEntry.character == character)
                    .order_by(ExperienceEntry.id))
    earned, unspent = experience_rules.totals(experience_rules.Line(e.kind, e.amount) for e in recorded)
    entries = sorted(recorded, key=lambda e: (e.created_at, e.id), reverse=True)
    return ExperienceLog(entries, earned, unspent)


def record_experience(chronicle: Chronicle, user: User | None, character_id: Any, kind: str, amount: Any,
                      what: str, game_session_number: Any = None, past_unspent: bool = False) -> ExperienceEntry:
    """Write a line of the experience log: ``amount`` points ``kind`` ("earned" or "spent") on
    ``what``, in game session ``game_session_number`` (default: the open one), recorded as a
    ruling of kind "experience" (undoing it removes the line).

    A character spends the experience he has (LotNR Experience): a spend past his unspent points is
    refused unless ``past_unspent`` says the organiser means it (a correction, a debt the chronicle
    allows). The check reads the log with the character locked (:func:`get_character`: ``FOR NO KEY
    UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), so two spends at once cannot both pass it.

    Raises:
        ServiceError: 404 unknown character or game session; 422 an unknown kind, an
            amount outside 1..1000 (field ``amount``), a spend past the unspent points (field
            ``amount``), an empty or too long ``what``.
    """
    may_edit(user, chronicle, ["experience"])
    if kind not in ("earned", "spent"):
        raise ServiceError(Phrase.message(N_("Experience is earned or spent.")), field="kind")
    try:
        points = experience_rules.experience_points(amount, "amount", low=Decimal("0.01"), high=1000)
    except experience_rules.ExperienceError as exc:
        raise ServiceError(exc.message, field="amount") from None
    text = (what or "").strip()
    if not text or len(text) > 200:
        raise ServiceError(Phrase.message(N_("Say what the experience was for (at most 200 "
                                             "characters).")), field="what")
    with db.atomic():
        refuse_if_recorded()
        character = get_character(chronicle, character_id)
        if kind == "spent" and not past_unspent:
            unspent = experience_log(character).unspent
            if points > unspent:
                raise ServiceError(Phrase.message(N_(
                    "%(name)s has %(unspent)s experience unspent: spending %(points)s would leave %(after)s. Tick "
                    "“Spend past what is left” to log it anyway."), name=character.name,
                    unspent=experience_rules.points_said(unspent), points=experience_rules.points_said(points),
                    after=experience_rules.points_said(unspent - points)), field="amount")
        if game_session_number in (None, ""):
            session = open_game_session(chronicle)
        else:
            number = as_id(game_session_number) or -1
            session = GameSession.get_or_none((GameSession.chronicle == chronicle) & (GameSession.number == number))
            if session is None:
                raise ServiceError(Phrase.message(N_("There is no such game "
                                                     "session.")), field="game_session", status=404)
        return write_experience_line(chronicle, user, character, session, kind, points, text)


def write_experience_line(chronicle: Chronicle, user: User | None, character: Character,
                          session: GameSession | None, kind: str, points: Any, text: str,
                          steps: list[dict] | None = None, what_said: Phrase | None = None) -> ExperienceEntry:
    """Write one line of ``character``'s experience log inside the caller's transaction: the app's one
    writer of a line as a ruling of kind "experience" (the log's form, attendance at a game session),
    so the line shows in his History, undoing its ruling removes it, and his printed sheet gets a new
    edition (issue 34). The line is checked as every stored line is
    (:func:`larp.rules.experience.check_line`).

    Args:
        points: experience points (exact, at most two places).
        steps: the ruling's explanation (default: "X earned N experience on WHAT", LotNR Experience).
        what_said: ``text`` as a phrase, when the app wrote it (attendance): the record then says it in the
            reader's language; a person's own words are kept as written.

    Raises:
        ServiceError: 422 a line the log may not hold (naming ``kind``, ``amount`` or ``what``).
    """
    try:
        kind, points, text = experience_rules.check_line(kind, points, text)
    except experience_rules.ExperienceError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    said = experience_rules.points_text(points)
    what = what_said if what_said is not None and str(what_said) == text else text
    summary = Phrase.message(N_("%(name)s earned %(points)s experience: %(what)s") if kind == "earned" else
                             N_("%(name)s spent %(points)s experience: %(what)s"), name=character.name,
                             points=experience_rules.points_said(points), what=what)
    default = phrase_step(N_("%(name)s earned %(points)s experience on %(what)s.") if kind == "earned" else
                          N_("%(name)s spent %(points)s experience on %(what)s."), "LotNR Experience",
                          name=character.name, points=experience_rules.points_said(points), what=what)
    record = record_ruling(chronicle, user, "experience", summary,
                           steps or [default], [(character, "subject")], game_session=session,
                           inputs={"kind": kind, "amount": said, "what": text},
                           outcome={EDITION_KEY: next_edition(character)})
    raise_edition([character.id])  # the printed sheet's experience totals change (issue 34)
    return ExperienceEntry.create(character=character, game_session=session, ruling=record, user=user, kind=kind,
                                  amount=points, what=text, what_said=what.data() if isinstance(what, Phrase) else None)
