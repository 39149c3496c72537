"""A character's history and undoing the last change to a character (issue 7).

Every change to a character is a ruling linked to him by a
:class:`larp.models.RulingCharacter` that keeps his state just before it
(:func:`larp.services.records.record_ruling`). Undoing a ruling puts that state
back, on every character it touched, provided it is still the latest change
to each of them; the undo is recorded as a ruling of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext

from larp.db import as_id, db, for_update
from larp.i18n import N_
from larp.models import (
    AbilitySpend,
    Character,
    Chronicle,
    ExperienceEntry,
    GameSession,
    Ruling,
    SpendRequest,
    RulingCharacter,
    Torpor,
    TraitLoss,
    User,
    utcnow,
)
from larp.rules.explain import N_, Phrase, phrase_step, without_stop
from larp.services import ServiceError
from larp.services.chronicles import open_game_session
from larp.services.editions import EDITION_KEY, EDITION_KINDS, next_edition, raise_edition
from larp.services.records import SNAPSHOT_FIELDS, lock_characters, record_ruling

#: Rulings whose changes are not (only) character state, so an undo would be incomplete; a
#: character created, retired, restored or deleted is undone by deleting, restoring or retiring it.
NOT_UNDOABLE = ("undo", "import", "settings", "session", "created", "retire", "restore", "deleted",
                "card_rotated", "card_revoked", "api_token_made", "api_token_revoked",
                "check_in", "check_in_undone")  # the door's own undo (issue 32, larp.services.checkins)
#: Rulings that touch a character's record but not his state (an undo; a card's link issued or
#: revoked): they never stand between an organiser and undoing the character's last change.
NOT_CHANGES = ("undo", "card_rotated", "card_revoked", "check_in", "check_in_undone")
#: The field's words for each kind of ruling the record holds (``record_ruling``'s ``kind``).
KIND_LABELS = {
    "challenge": N_("Challenge"), "damage": N_("Damage"), "healing": N_("Healing"), "refresh": N_("Refresh"),
    "torpor": N_("Torpor"), "wake": N_("Waking"), "feeding": N_("Feeding"), "undo": N_("Undo"), "edit": N_("Edit"),
    "sheet": N_("Sheet"), "created": N_("Created"), "retire": N_("Retired"), "restore": N_("Restored"),
    "deleted": N_("Deleted"), "experience": N_("Experience"), "card_rotated": N_("New card link"),
    "card_revoked": N_("Card revoked"), "api_token_made": N_("API token made"), "api_token_revoked": N_("API token revoked"),
    "mass_combat": N_("Mass combat"),
    "firing_into_group": N_("Firing into a group"), "tabletop": N_("Tabletop combat"), "session": N_("Game session"),
    "narrator": N_("Narrator's ruling"), "aegis": N_("Aegis"), "treatment": N_("Treatment"), "blood": N_("Blood"),
    "import": N_("Import"), "settings": N_("Settings"),
    "webhook_made": N_("Webhook made"), "webhook_changed": N_("Webhook changed"), "webhook_deleted": N_("Webhook deleted"),
    "webhook_secret": N_("Webhook's new secret"),
    "check_in": N_("Check-in"), "check_in_undone": N_("Check-in undone"),
}
KIND_LABELS["virtue_test"] = N_("Virtue Test")  # issue 30 item 8 (larp/services/frenzy_state.py)
KIND_LABELS["willpower"] = N_("Willpower")  # a Willpower Trait spent or given back (larp/services/adjudicate.py)


def kind_label(kind: str) -> str:
    """The words a user reads for a ruling's ``kind`` ("mass_combat" → "Mass combat")."""
    label = KIND_LABELS.get(kind)
    return gettext(label) if label else kind.replace("_", " ").capitalize()


_FIELD_LABELS = {
    "damage_aggravated": "aggravated", "damage_lethal": "lethal", "damage_bashing": "bashing",
    "condition": "condition", "staked": "staked", "willpower_current": "Willpower",
    "willpower_permanent": "permanent Willpower", "blood_current": "blood",
}
#: The same labels as an undo's step says them in the reader's language (the kinds of damage are game words).
_FIELD_WORDS = {
    "damage_aggravated": Phrase.term("aggravated"), "damage_lethal": Phrase.term("lethal"),
    "damage_bashing": Phrase.term("bashing"), "condition": Phrase.message(N_("condition")),
    "staked": Phrase.message(N_("staked")), "willpower_current": Phrase.message(N_("Willpower")),
    "willpower_permanent": Phrase.message(N_("permanent Willpower")), "blood_current": Phrase.message(N_("blood")),
}


@dataclass
class TimelineEntry:
    """One ruling in a character's history.

    Attributes:
        ruling: the ruling.
        role: the character's part in it ("challenger", "subject"...).
        changes: what changed on the character, as "blood 4 → 3" texts
            (from his state before this ruling to the state before the next).
        undoable: this is the change an organiser can undo now.
    """

    ruling: Ruling
    role: str
    changes: list[str]
    undoable: bool = False

    @property
    def kind_label(self) -> str:
        """The kind of ruling, as a person reads it."""
        return kind_label(self.ruling.kind)


def _latest_change(character: Character) -> RulingCharacter | None:
    """The latest not-undone ruling that changed ``character`` (undo rulings aside)."""
    return (RulingCharacter.select(RulingCharacter, Ruling).join(Ruling)
            .where((RulingCharacter.character == character) & Ruling.undone_at.is_null()
                   & Ruling.kind.not_in(NOT_CHANGES))
            .order_by(Ruling.id.desc()).first())


def _describe(before: dict | None, after: dict | None) -> list[Phrase]:
    """What a ruling changed on a character ("lethal 0 → 2"), each change a phrase said in the reader's language
    (the same words as an undo's step, :func:`_restored`)."""
    if not before or not after:
        return []
    return [Phrase.message(N_("%(label)s %(before)s → %(after)s"), label=_FIELD_WORDS[key],
                           before=_value_said(before[key]), after=_value_said(after[key]))
            for key in _FIELD_LABELS if key in before and key in after and before[key] != after[key]]


def _value_said(value: Any) -> Any:
    """A snapshot's value as an undo's step says it: a number as it is, a condition as a game word,
    true or false in the reader's language ("True" in English, as the step always said it)."""
    if isinstance(value, bool):
        return Phrase.message(N_("True")) if value else Phrase.message(N_("False"))
    if isinstance(value, (int, float)) or value is None:
        return "None" if value is None else value
    return Phrase.term(str(value))


def _restored(before: dict, after: dict) -> Phrase:
    """What an undo puts back ("aggravated 2 → 0; condition torpor → active", else "no state to restore"),
    in the reader's language; the English is :func:`_describe`'s, joined with "; "."""
    parts = [Phrase.message(N_("%(label)s %(before)s → %(after)s"), label=_FIELD_WORDS[key],
                            before=_value_said(before[key]), after=_value_said(after[key]))
             for key in _FIELD_LABELS if key in before and key in after and before[key] != after[key]]
    if not parts:
        return Phrase.message(N_("no state to restore"))
    joined = parts[0]
    for part in parts[1:]:
        joined = Phrase.message(N_("%(first)s; %(second)s"), first=joined, second=part)
    return joined


def timeline(character: Character) -> list[TimelineEntry]:
    """Every ruling that touched ``character``, newest first, with what it changed and
    which one (if any) an organiser may undo now."""

    links = list(RulingCharacter.select(RulingCharacter, Ruling).join(Ruling)
                 .where(RulingCharacter.character == character).order_by(Ruling.id.desc()))
    current = {name: getattr(character, name) for name in SNAPSHOT_FIELDS}
    latest = _latest_change(character)
    entries = []
    after = current
    for link in links:
        changes = _describe(link.before, after)
        if isinstance(link.ruling.outcome, dict) and link.ruling.outcome.get("changes"):
            changes = [Phrase(c["said"]) if c.get("said") else f"{c['label']}: {c['before']} → {c['after']}"
                       for c in link.ruling.outcome["changes"]]  # a phrase is said in the reader's language
        entries.append(TimelineEntry(link.ruling, link.role, changes,
                                     undoable=bool(latest and latest.id == link.id
                                                   and link.ruling.kind not in NOT_UNDOABLE
                                                   and link.before is not None)))
        if link.before is not None:
            after = link.before
    return entries


def find_rulings(chronicle: Chronicle, character_id: Any = None, game_session: Any = None,
                 before_id: Any = None, limit: int = 200) -> list[Ruling]:
    """The chronicle's rulings, newest first: those touching character ``character_id``, in the
    game session numbered ``game_session``, older than ruling ``before_id`` (a page further),
    at most ``limit``. An id or number that is not one matches nothing."""
    query = Ruling.select().where(Ruling.chronicle == chronicle)
    if character_id is not None:
        query = query.where(Ruling.id.in_(RulingCharacter.select(RulingCharacter.ruling)
                                          .where(RulingCharacter.character == as_id(character_id))))
    if game_session is not None:
        query = query.where(Ruling.game_session.in_(GameSession.select(GameSession.id).where(
            (GameSession.chronicle == chronicle) & (GameSession.number == as_id(game_session)))))
    if before_id is not None:
        query = query.where(Ruling.id < as_id(before_id))
    return list(query.order_by(Ruling.id.desc()).limit(limit))


def undo_ruling(chronicle: Chronicle, organiser: User | None, ruling_id: Any) -> Ruling:
    """Undo ruling ``ruling_id``: put back every character it touched as he was
    before it, delete the Traits lost and Ability levels expended in it, delete the
    torpor records it started and reopen those it ended, put back the sheet a
    sheet edit changed and remove the experience it logged, mark an experience spend it approved
    undone (issue 33), and mark it undone.
    Recorded as a ruling of kind "undo".

    Raises:
        ServiceError: 404 no such ruling; 409 already undone, not undoable (an
            undo, an import, settings, a game session), recorded without the
            state before it, or not the latest change to one of its characters
            (the message names the later change).
    """
    rid = as_id(ruling_id)
    if rid is None:
        raise ServiceError(Phrase.message(N_("Choose a ruling to undo.")), field="ruling", status=404)
    with db.atomic():
        # Check-then-write: lock the ruling (two organisers undoing it at once: the second finds it
        # undone), then its characters, before "is it their last change?" is asked (FOR NO KEY UPDATE on
        # PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises).
        ruling = for_update(Ruling.select().where((Ruling.id == rid) & (Ruling.chronicle == chronicle))).first()
        if ruling is not None:
            lock_characters(c for (c,) in RulingCharacter.select(RulingCharacter.character)
                            .where(RulingCharacter.ruling == ruling).tuples())
        if ruling is None:
            raise ServiceError(Phrase.message(N_("There is no such ruling in this "
                                                 "chronicle.")), field="ruling", status=404)
        if ruling.undone_at is not None:
            who = ruling.undone_by.display_name if ruling.undone_by else "someone"
            raise ServiceError(Phrase.message(N_("Ruling #%(id)s was already undone by %(who)s (%(undone_at)s UTC)."),
                                              id=str(ruling.id), who=who,
                                              undone_at=format(ruling.undone_at, '%Y-%m-%d %H:%M')),
                               field="ruling", status=409)
        if ruling.kind in NOT_UNDOABLE:
            reason = ("An undo cannot itself be undone: make the change again." if ruling.kind == "undo"
                      else f"A ruling of kind “{kind_label(ruling.kind)}” cannot be undone here.")
            raise ServiceError(reason, field="ruling", status=409)
        links = list(RulingCharacter.select().where(RulingCharacter.ruling == ruling))
        if not links:
            raise ServiceError(Phrase.message(N_("This ruling changed no character, so there "
                                                 "is nothing to undo.")), field="ruling",
                               status=409)
        for link in links:
            if link.before is None:
                raise ServiceError(Phrase.message(N_("Ruling #%(id)s was recorded without %(name)s's state before "
                                                     "it, so it cannot be undone."),
                                                  id=str(ruling.id), name=link.character.name), field="ruling", status=409)
            latest = _latest_change(link.character)
            if latest is None or latest.ruling_id != ruling.id:
                raise ServiceError(_not_last(ruling, link.character.name, latest.ruling if latest else None,
                                             organiser), field="ruling", status=409)
        game_session = open_game_session(chronicle) or ruling.game_session
        characters = [Character.get_by_id(link.character_id) for link in links]
        steps = []
        for link, character in zip(links, characters):
            restored = {key: value for key, value in link.before.items() if key in SNAPSHOT_FIELDS and key != "version"}
            steps.append(phrase_step(N_("%(name)s put back as before ruling #%(id)s: %(changes)s."), "Undo (issue 7)",
                                     name=character.name, id=ruling.id,
                                     changes=_restored({k: getattr(character, k) for k in restored}, restored)))
        # The undo of a change of the sheet itself is a new edition of the printed sheet (issue 34).
        new_edition = ruling.kind in EDITION_KINDS
        undone = Phrase(ruling.summary_said) if ruling.summary_said else ruling.summary
        record = record_ruling(chronicle, organiser, "undo", Phrase.message(N_("Undo of #%(id)s: %(summary)s"), id=ruling.id,
                                                                           summary=without_stop(undone)), steps,
                               [(c, "subject") for c in characters], game_session=game_session,
                               inputs={"ruling": ruling.id},
                               outcome={"undone": ruling.id, **({EDITION_KEY: next_edition(characters[0])}
                                                                if new_edition and len(characters) == 1 else {})})
        for link, character in zip(links, characters):
            restored = {key: value for key, value in link.before.items() if key in SNAPSHOT_FIELDS and key != "version"}
            # The version moves on (never back), so a form read before the undo is still stale.
            Character.update(**restored, version=Character.version + 1, updated_at=utcnow()).where(
                Character.id == character.id).execute()
            if "sheet" in link.before:
                from larp.services.sheets import restore_sheet

                restore_sheet(Character.get_by_id(character.id), link.before["sheet"])  # raises the edition
            elif new_edition:
                raise_edition([character.id])  # an experience line taken back
        ExperienceEntry.delete().where(ExperienceEntry.ruling == ruling).execute()
        TraitLoss.delete().where(TraitLoss.ruling == ruling).execute()
        AbilitySpend.delete().where(AbilitySpend.ruling == ruling).execute()
        Torpor.delete().where(Torpor.ruling == ruling).execute()
        Torpor.update(ended_on=None, end_reason="", ended_by=None).where(Torpor.ended_by == ruling).execute()
        # An approved experience spend whose ruling this is (issue 33) is undone with it: the queue and the
        # player's page say so, instead of "approved" over a sheet that no longer holds the purchase.
        SpendRequest.update(state="undone", undo_ruling=record, answered_by=organiser, answered_at=utcnow(),
                            answered_by_name=organiser.display_name if organiser else "",
                            answer=f"Approval undone in History (ruling #{ruling.id}).").where(
            (SpendRequest.ruling == ruling) & (SpendRequest.state == "approved")).execute()
        ruling.undone_at = utcnow()
        ruling.undone_by = organiser
        ruling.save()
        return record


def _not_last(ruling: Ruling, name: str, later: Ruling | None, user: User | None) -> Phrase:
    """Why ``ruling`` cannot be undone while ``later`` (a later change to ``name``) stands: undo it first, or,
    when ``user`` (not an organiser) did not record it and so cannot undo it, ask an organiser (wave 9)."""
    if later is None:
        return Phrase.message(N_("Ruling #%(id)s is not the last change to %(name)s."), id=str(ruling.id), name=name)
    summary = Phrase(later.summary_said) if later.summary_said else later.summary
    if user is not None and user.role != "organiser" and later.narrator_id != user.id:
        return Phrase.message(N_("Ruling #%(id)s is not the last change to %(name)s: #%(later)s (%(summary)s) came "
                                 "after it. Ask an organiser to undo #%(later)s first."),
                              id=str(ruling.id), name=name, later=str(later.id), summary=without_stop(summary))
    return Phrase.message(N_("Ruling #%(id)s is not the last change to %(name)s: undo #%(later)s (%(summary)s) "
                             "first."), id=str(ruling.id), name=name, later=str(later.id),
                          summary=without_stop(summary))


def too_late(ruling: Ruling) -> Phrase:
    """Why the screen's Undo no longer takes ``ruling`` back: recorded more than :data:`UNDO_WINDOW_SECONDS`
    ago (said from the constant), and where an organiser undoes it then (History, on the character's page)."""
    return Phrase.message(N_("Ruling #%(id)s is more than %(seconds)s seconds old: an organiser can undo it "
                             "with History, on the character's page."), id=str(ruling.id),
                          seconds=UNDO_WINDOW_SECONDS)


#: How long after recording it a narrator may undo his own challenge from the challenge screen (issue 18:
#: "undo in view for a minute"); the screen shows the button for 60 s, the server allows a slow tap 30 s more.
UNDO_WINDOW_SECONDS = 90
#: The rulings a screen's Undo button takes back within :data:`UNDO_WINDOW_SECONDS`: a one-on-one challenge,
#: a mass challenge (the combat board) and a stray shot (the stray-shot screen).
SCREEN_UNDO_KINDS = ("challenge", "mass_combat", "firing_into_group")


def undo_own_recent(chronicle: Chronicle, user: User, ruling_id: Any, now: datetime) -> Ruling:
    """Undo a challenge ``user`` recorded himself less than :data:`UNDO_WINDOW_SECONDS` before ``now``
    (UTC), as :func:`undo_ruling` does (the Undo button of the challenge screen, issue 18, of the combat
    board and of the stray-shot screen: :data:`SCREEN_UNDO_KINDS`); an organiser may undo any of them in
    that time.

    Raises:
        ServiceError: 404 no such ruling; 403 another narrator's ruling; 409 too late (undo it from
            the character's history then) or refused by :func:`undo_ruling`.
    """
    rid = as_id(ruling_id)
    ruling = Ruling.get_or_none((Ruling.id == rid) & (Ruling.chronicle == chronicle)) if rid is not None else None
    if ruling is None or ruling.kind not in SCREEN_UNDO_KINDS:
        raise ServiceError(Phrase.message(N_("There is no such challenge in this "
                                             "chronicle.")), field="ruling", status=404)
    if user.role != "organiser" and ruling.narrator_id != user.id:
        raise ServiceError(Phrase.message(N_("Ruling #%(id)s was recorded by another narrator: ask an organiser to "
                                             "undo it."), id=str(ruling.id)),
                           field="ruling", status=403)
    if (now - ruling.created_at).total_seconds() > UNDO_WINDOW_SECONDS:
        raise ServiceError(too_late(ruling), field="ruling", status=409)
    return undo_ruling(chronicle, user, ruling.id)
