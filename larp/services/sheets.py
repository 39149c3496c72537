"""Building and keeping character sheets (issue 14): create, edit, copy, retire, restore,
delete and scene extras (the experience log is :mod:`larp.services.experience`).

Every use case is one transaction and records a ruling in the chronicle's record, so a
character's history shows each change (who, when, each field before and after) and
the last edit can be undone (:mod:`larp.services.history`). An edit's ruling keeps the
whole sheet as it was before (``before["sheet"]`` of its :class:`RulingCharacter`), and
its ``outcome["changes"]`` lists each field that changed.

Values are checked by :meth:`larp.sheet.CharacterSheet.from_dict` (the one validator);
an invalid value changes nothing. A stale form (another organiser changed a field this
form showed) is refused inside the write transaction: the form sends the values it
showed (``seen``), and they are compared with the stored sheet under the write lock
(:func:`larp.services.chronicles.lock_chronicle` explains how on each engine).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from peewee import PostgresqlDatabase

from larp.db import db
from larp.rules import experience as experience_rules
from larp.rules.explain import N_, Phrase, Step, phrase_step, plural
from larp.rules.health import extra_levels
from larp.services.tabletop import end_combats_of
from larp.models import (
    Character,
    Chronicle,
    ExperienceEntry,
    Ruling,
    RulingCharacter,
    User,
    utcnow,
)
from larp.services import ServiceError
from larp.services.characters import get_character
from larp.services.chronicles import open_game_session
from larp.services.editions import EDITION_KEY, next_edition
from larp.services import sheet_words as words
from larp.services.records import record_ruling, refuse_if_recorded, snapshot
from larp.services.sheet_store import (create_character, current_after, refuse_duplicate_name, sheet_of,
                                      update_character)
from larp.sheet import CharacterSheet
from larp.sheet_entries import CATEGORIES
from larp.sheet_checks import FIELD_LABELS, TEXT_LIMITS, SheetError
from larp.tables import generation_row

#: Ruling kinds written here. ``created``, ``retire``, ``restore`` and ``deleted`` are not
#: undone by the undo button (delete, retire and restore undo each other).
SHEET_KINDS = ("sheet", "created", "retire", "restore", "deleted", "experience", "edit")
#: The sheet fields a narrator may change when ``narrators_edit_equipment`` allows it.
NARRATOR_FIELDS = ("weapons", "armor", "narrator_notes")
#: Sheet fields the editor never takes from a form: tonight's state, changed by rulings.
STATE_FIELDS = ("willpower_current", "blood_current")
_RULE = "Character sheet (issue 14)"

_LABELS = FIELD_LABELS


@dataclass(frozen=True)
class Change:
    """One field of a sheet before and after an edit, as a person reads it.

    ``field`` is the sheet's dotted path ("traits.physical.Quick", "abilities.Brawl",
    "powers"); ``label``, ``before`` and ``after`` are texts ("—" when absent), phrases where
    they are the app's words (:mod:`larp.services.sheet_words`).
    """

    field: str
    label: str
    before: str
    after: str

    def text(self) -> str:
        """"Brawl: 2 → 3"."""
        return f"{self.label}: {self.before} → {self.after}"

    def phrase(self) -> Phrase:
        """:meth:`text` as a phrase, to be said in the reader's language (issue 36)."""
        return words.change(self.label, self.before, self.after)

    def to_dict(self) -> dict[str, str]:
        """JSON-ready (stored in the ruling's outcome, in English, with the phrase's data as ``said``)."""
        return {"field": self.field, "label": str(self.label), "before": str(self.before), "after": str(self.after),
                "said": self.phrase().data()}


class StaleForm(ServiceError):
    """The form showed values another screen has changed since: nothing was saved.

    ``changes`` says what changed meanwhile (what the form showed → what is stored now);
    ``current``, the whole stored sheet as read under the write lock (:meth:`CharacterSheet.to_dict`),
    on which the form shown again is rebuilt (:func:`larp.services.sheet_merge.rebase_form`).
    """

    def __init__(self, name: str, changes: list[Change], current: Mapping[str, Any] | None = None):
        listed = "; ".join(c.text() for c in changes)
        super().__init__(Phrase.message(N_("%(name)s was changed on another screen since this form was opened "
                                           "(%(listed)s). Nothing was saved: your entries are kept below; look at "
                                           "the change and save again."), name=name, listed=listed),
                         field=changes[0].field.split(".")[0] if changes else None, status=409)
        self.changes = changes
        self.current = dict(current or {})


# ---------------------------------------------------------------- describing changes

def _shown(value: Any) -> str:
    if value in (None, "", [], {}):
        return words.ABSENT
    if isinstance(value, bool):
        return words.yes_no(value)
    if isinstance(value, list):
        return words.listed(value)
    text = str(value)
    return text if len(text) <= 80 else text[:77] + "…"


def _entries(data: Mapping[str, Any], key: str) -> dict[str, str]:
    """A list field of :meth:`CharacterSheet.to_dict` as {identity: description} (descriptions as
    phrases, :mod:`larp.services.sheet_words`)."""
    out: dict[str, str] = {}
    for entry in data.get(key) or []:
        if key == "powers":
            out[f"{entry['discipline']}: {entry['power']}"] = words.power(entry["level"], bool(entry.get("custom")))
        elif key in ("merits", "flaws"):
            ident = entry["name"] + (f" ({entry['note']})" if entry.get("note") else "")
            out[ident] = words.quality(entry["cost"])
        elif key == "weapons":
            out[entry["name"]] = words.weapon(entry)
        elif key == "armor":
            out[entry["name"]] = words.armor(entry)
    return out


def describe_changes(before: Mapping[str, Any], after: Mapping[str, Any],
                     keys: Iterable[str] | None = None) -> list[Change]:
    """Each field that differs between two :meth:`CharacterSheet.to_dict` results (only ``keys``
    when given), entry by entry: "Physical Trait Quick: ×1 → ×2", "Ability Brawl: 2 → 3"."""
    changes: list[Change] = []
    wanted = list(keys) if keys is not None else list(after)
    for key in wanted:
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        if key in ("traits", "negative_traits"):
            for category in CATEGORIES:
                a = {t["name"]: t["count"] for t in (old or {}).get(category, [])}
                b = {t["name"]: t["count"] for t in (new or {}).get(category, [])}
                for name in list(a) + [n for n in b if n not in a]:
                    if a.get(name) != b.get(name):
                        changes.append(Change(f"{key}.{category}.{name}", words.trait_label(key, category, name),
                                              words.count(a[name]) if name in a else words.ABSENT,
                                              words.count(b[name]) if name in b else words.ABSENT))
        elif key in ("abilities", "backgrounds", "virtues", "tabletop", "specialisations"):
            a, b = old or {}, new or {}
            for name in list(a) + [n for n in b if n not in a]:
                if a.get(name) != b.get(name):
                    changes.append(Change(f"{key}.{name}", words.entry_label(key, name), _shown(a.get(name)),
                                          _shown(b.get(name))))
        elif key in ("powers", "merits", "flaws", "weapons", "armor"):
            a, b = _entries(before, key), _entries(after, key)
            found = len(changes)
            for name in list(a) + [n for n in b if n not in a]:
                if a.get(name) != b.get(name):
                    changes.append(Change(f"{key}", words.entry_label(key, name), a.get(name, words.ABSENT),
                                          b.get(name, words.ABSENT)))
            if len(changes) == found:  # the same entries in another order
                changes.append(Change(key, words.order_label(key), words.AS_BEFORE, words.CHANGED))
        else:
            changes.append(Change(key, words.field_label(key, _LABELS.get(key)), _shown(old), _shown(new)))
    return changes


# ---------------------------------------------------------------- create and edit

def _lock(character: Character) -> Character:
    """The character re-read under a write lock (PostgreSQL ``FOR UPDATE``; SQLite's
    ``BEGIN IMMEDIATE`` already serialises writers), so the stale check and the write
    see the same row."""
    query = Character.select().where(Character.id == character.id)
    if isinstance(db.obj, PostgresqlDatabase):
        query = query.for_update()
    return query.get()


def may_edit(user: User | None, chronicle: Chronicle, keys: Iterable[str]) -> None:
    """Organisers edit everything; narrators only weapons, armor and narrator notes, and only when
    the chronicle setting ``narrators_edit_equipment`` allows it.

    Raises:
        ServiceError: 403 when ``user`` may not change the sheet's ``keys``.
    """
    from larp.services.chronicles import chronicle_settings

    if user is None or user.role == "organiser":
        return
    outside = [k for k in keys if k not in NARRATOR_FIELDS]
    if outside or not chronicle_settings(chronicle)["narrators_edit_equipment"]:
        raise ServiceError(Phrase.message(N_("Only an organiser changes this part of a sheet.")) if outside
                           else Phrase.message(N_("Only an organiser changes this part of a sheet (chronicle setting "
                                                  "narrators_edit_equipment).")), status=403)


#: The generation of a new vampire when none is given (LotNR character creation: the 13th, lower
#: only with the Generation Background); the new-character form preselects it.
NEW_VAMPIRE_GENERATION = 13


def new_character(chronicle: Chronicle, user: User | None, data: Mapping[str, Any],
                  request_token: str | None = None) -> tuple[Character, Ruling]:
    """Create a character from ``data`` (sheet fields, as :meth:`CharacterSheet.from_dict` reads
    them), with a new card code and card token, recorded as a ruling of kind "created". A vampire
    whose ``data`` has no ``generation`` key is of the 13th (:data:`NEW_VAMPIRE_GENERATION`).

    Raises:
        larp.sheet_checks.SheetError: invalid values (each with its field).
        ServiceError: 409 a name another character has (field ``name``) or a form
            already recorded (``request_token``); 403 for a narrator.
    """
    if user is not None and user.role != "organiser":
        raise ServiceError(Phrase.message(N_("Only an organiser creates characters.")), status=403)
    data = dict(data)
    if data.get("creature", "vampire") == "vampire" and "generation" not in data:
        # A vampire described without a generation is of the 13th (LotNR character creation), as
        # the new-character form preselects: never an empty blood pool unawares. An explicit
        # empty generation (the form's "none") stays none.
        data["generation"] = NEW_VAMPIRE_GENERATION
    sheet = CharacterSheet.from_dict(data)
    with db.atomic():
        refuse_if_recorded(request_token)
        character = create_character(chronicle, sheet)
        record = record_ruling(chronicle, user, "created", Phrase.message(N_("%(name)s created."), name=sheet.name),
                               [phrase_step(N_("%(name)s is created: %(sheet)s."), _RULE, name=sheet.name,
                                            sheet=_summary(sheet))],
                               [(character, "created")], game_session=open_game_session(chronicle),
                               inputs={"sheet": sheet.to_dict()}, request_token=request_token)
        return character, record


def _summary(sheet: CharacterSheet) -> Phrase:
    """"vampire; Brujah; 3 Physical, 2 Social, 3 Mental" (the clan is the chronicle's word)."""
    totals = [words.trait_total(c, sheet.trait_total(c)) for c in CATEGORIES]
    parts: list[Any] = [Phrase.term(sheet.creature)] + ([sheet.clan] if sheet.clan else []) + [totals]
    return words.joined(parts)


def _merge(current: dict[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """The stored sheet with ``data``'s fields put in (never tonight's Willpower and blood); a
    blood pool and blood per turn that were the old generation's table values follow the new
    generation (LotNR generation table)."""
    merged = dict(current)
    merged.update({k: v for k, v in data.items() if k not in STATE_FIELDS})
    if "generation" in data and str(data.get("generation") or "") != str(current.get("generation") or ""):
        old_row = generation_row(current.get("generation")) if current.get("creature") == "vampire" else None
        for key in ("blood_max", "blood_per_turn"):
            if key not in data and old_row is not None and current.get(key) == getattr(old_row, key):
                merged[key] = 0  # filled from the new generation's row
    return merged


def edit_character(chronicle: Chronicle, user: User | None, character_id: Any, data: Mapping[str, Any], *,
                   seen: Mapping[str, Any] | None = None, expected_version: int | None = None,
                   xp_spent: Any = 0, xp_what: str = "",
                   request_token: str | None = None) -> tuple[Character, Ruling | None]:
    """Change the sheet fields in ``data`` (the others stay), in one transaction, recorded as a
    ruling of kind "sheet" with each field before and after.

    Args:
        data: sheet fields as :meth:`CharacterSheet.from_dict` reads them; tonight's
            state (current Willpower and blood) is never taken from a form.
        seen: the values of the fields the form showed, as it showed them; when
            one of them changed meanwhile the edit is refused as stale.
        expected_version: the character's ``version`` the caller read (the API);
            any change since refuses the edit as stale.
        xp_spent: experience points this change cost (0 to 1000, exact to two places: ``2``,
            ``"0.5"``), logged on the sheet with ``xp_what`` (default: the changes themselves) in
            the open game session.
        request_token: the form's one-time token (never recorded twice).

    Returns:
        The character as stored and the ruling (``None`` when nothing changed).

    Raises:
        larp.sheet_checks.SheetError: invalid values; nothing was saved.
        StaleForm: 409, a field the form showed was changed on another screen.
        ServiceError: 404 unknown character; 409 a duplicate name or a form
            already recorded; 403 a narrator changing what only organisers may;
            422 an experience cost that is not a number from 0 to 1000 of at most two places.
    """
    may_edit(user, chronicle, list(data))
    try:
        xp_spent = experience_rules.experience_points(
            0 if xp_spent in (None, "") else xp_spent, "xp_spent", high=1000)
    except experience_rules.ExperienceError:
        raise ServiceError(Phrase.message(N_("Experience spent must be a number from 0 to 1000 (such as 2 or 0.5).")),
                           field="xp_spent") from None
    with db.atomic():
        refuse_if_recorded(request_token)
        character = _lock(get_character(chronicle, character_id))
        before = sheet_of(character)
        current = before.to_dict()
        if expected_version is not None and character.version != expected_version:
            raise ServiceError(Phrase.message(N_("%(name)s changed since version %(expected_version)s (now version "
                                                 "%(version)s): read it again, then send the change."),
                                              name=character.name, expected_version=expected_version,
                                              version=character.version), field="version",
                               status=409)
        if seen:
            # Check-then-write made safe: ``_lock`` holds the character's row (PostgreSQL FOR UPDATE;
            # SQLite's BEGIN IMMEDIATE serialises writers) from this comparison to the write below, so
            # no other save lands between them. The refusal carries the sheet read here, and the form
            # shown again is rebuilt on it (the other screen's change kept, this one's on top) with
            # ``seen`` set to it: saving that form passes this same check, under the lock again.
            shown = {k: v for k, v in seen.items() if k in current}
            changed = describe_changes(shown, current, [k for k in shown if shown[k] != current[k]])
            if changed:
                raise StaleForm(character.name, changed, current)
        merged = _merge(current, data)
        # Tonight's Willpower and blood stay as they are, within the new maxima.
        willpower, blood = merged.pop("willpower_current", None), merged.pop("blood_current", None)
        sheet = CharacterSheet.from_dict(merged)
        # Within the new maxima, except a value above its rating that the edit leaves alone (an
        # import keeps Grapevine's 7 of 4, issue 27); update_character then fills a full pool.
        if isinstance(willpower, int):
            sheet.willpower_current = min(willpower, max(sheet.willpower_permanent, current_after(
                willpower, before.willpower_permanent, sheet.willpower_permanent)))
        if isinstance(blood, int):
            sheet.blood_current = min(blood, max(sheet.blood_max, current_after(blood, before.blood_max,
                                                                                sheet.blood_max)))
        if sheet.name != character.name:
            refuse_duplicate_name(chronicle, sheet.name, other_than=character.id)
        changes = describe_changes(current, sheet.to_dict())
        if not changes and not xp_spent:
            return character, None
        said = [c.phrase() for c in changes]
        summary = words.sheet_summary(character.name, said) if said else Phrase.message(
            N_("%(name)s's sheet: %(changes)s"), name=character.name, changes="")
        game_session = open_game_session(chronicle)
        steps = [Step(str(text), _RULE, said=text.data()) for text in said]
        if xp_spent:
            spent = words.experience_spent(experience_rules.points_text(xp_spent),
                                           xp_what or (words.joined(said) if said else Phrase.message(words.THE_SHEET)))
            steps.append(Step(str(spent), "LotNR Experience", said=spent.data()))
        summary = summary if len(summary) <= 500 else summary[:500]  # a cut phrase is kept as English
        record = record_ruling(chronicle, user, "sheet", summary, steps, [(character, "edited")],
                               game_session=game_session, inputs={"fields": sorted(data)},
                               outcome={"changes": [c.to_dict() for c in changes],
                                        EDITION_KEY: next_edition(character)},  # update_character raises it
                               request_token=request_token)
        RulingCharacter.update(before={**snapshot(character), "sheet": current}).where(
            RulingCharacter.ruling == record).execute()
        stored = update_character(character, sheet)
        if "weapons" in data:
            _keep_weapon_in_hand(stored, sheet)
        if xp_spent:
            what = xp_what or "; ".join(c.text() for c in changes) or "the sheet"
            ExperienceEntry.create(character=character, game_session=game_session, ruling=record, user=user,
                                   kind="spent", amount=xp_spent, what=what[:200],
                                   what_said=what.data() if isinstance(what, Phrase) and len(what) <= 200 else None)
        return Character.get_by_id(character.id), record


def _keep_weapon_in_hand(character: Character, sheet: CharacterSheet) -> None:
    """The weapon in hand (pre-filled on the challenge screen) stays one the sheet carries: when
    the weapons change and it is no longer carried, the first armory weapon carried takes its place."""
    carried = [w.key for w in sheet.weapons if w.key]
    if character.weapon in carried or (not character.weapon and not carried):
        return
    Character.update(weapon=carried[0] if carried else "").where(Character.id == character.id).execute()


def restore_sheet(character: Character, saved: Mapping[str, Any]) -> None:
    """Put back a sheet saved in an edit's ruling (for the undo; inside its transaction).

    Raises:
        ServiceError: 409 when the saved sheet no longer passes the sheet's checks
            (a catalogue changed since), naming the first problem.
    """
    try:
        sheet = CharacterSheet.from_dict(dict(saved))
    except SheetError as exc:
        raise ServiceError(Phrase.message(N_("The sheet before this change no longer passes the checks "
                                             "(%(message)s); change it back by hand."),
                                          message=exc.message), status=409) from None
    update_character(character, sheet)


# ---------------------------------------------------------------- copies and scene extras

def copy_character(chronicle: Chronicle, user: User | None, character_id: Any, name: str, count: int = 1,
                   scene_extra: bool = False, request_token: str | None = None,
                   extra_track: bool = False) -> list[Character]:
    """Make ``count`` copies of a character's sheet: one named ``name``, or ``name 1`` to
    ``name N`` ("make 5 copies named Thug 1 to Thug 5"). Each copy has its own card code and no
    card token (an organiser issues its card on the card list), no damage, full Willpower
    and blood, and is marked a scene extra when ``scene_extra``. With ``extra_track`` each copy has
    the extras' four-level health track (000 "Optional Rule: Extras": Hurt -1, Maimed -3,
    Incapacitated, then dead). One ruling records them all.

    Raises:
        ServiceError: 404 unknown character; 422 a count outside 1..30 or an empty
            name (field ``name``); 409 a name already taken (the message names it).
        larp.sheet_checks.SheetError: a name too long.
    """
    may_edit(user, chronicle, ["name"])
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 30:
        raise ServiceError(Phrase.message(N_("Make 1 to 30 copies at a time.")), field="count")
    base = (name or "").strip()
    if not base:
        raise ServiceError(Phrase.message(N_("Give the copies a name (“Thug” makes Thug 1, Thug 2...).")), field="name")
    names = [base] if count == 1 else [f"{base} {i}" for i in range(1, count + 1)]
    longest, most = max(names, key=len), TEXT_LIMITS["name"]
    if len(base) <= most < len(longest):  # the number added makes it too long (new user 12: "not 122" for 119 typed)
        raise ServiceError(Phrase.message(N_("With its number the last copy's name, “%(name)s”, would be %(length)s "
                                             "characters, and a name holds at most %(most)s: shorten the name to "
                                             "%(room)s characters."), name=longest, length=len(longest), most=most,
                                          room=most - (len(longest) - len(base))), field="name")
    with db.atomic():
        refuse_if_recorded(request_token)
        original = get_character(chronicle, character_id)
        data = sheet_of(original).to_dict()
        copies = []
        for copy_name in names:
            sheet = CharacterSheet.from_dict({**data, "name": copy_name, "scene_extra": scene_extra,
                                              "willpower_current": None, "blood_current": None,
                                              **({"health_levels": list(extra_levels())} if extra_track else {})})
            copies.append(create_character(chronicle, sheet, card=False))
        record = record_ruling(chronicle, user, "created", words.copies(count, original.name, names, scene_extra,
                                                                      extra_track),
                               [phrase_step(N_("%(name)s is a copy of %(original)s, card code %(code)s."), _RULE,
                                            name=c.name, original=original.name, code=c.short_code) for c in copies],
                               [(c, "created") for c in copies], game_session=open_game_session(chronicle),
                               inputs={"original": original.id, "count": count, "name": base,
                                       "scene_extra": scene_extra, "extra_track": extra_track},
                               request_token=request_token)
        del record
        return copies


def scene_extras(chronicle: Chronicle) -> list[Character]:
    """The chronicle's scene extras (retired or not), by name."""
    return list(Character.select().where((Character.chronicle == chronicle) & Character.scene_extra)
                .order_by(Character.name))


def remove_scene_extras(chronicle: Chronicle, user: User | None, confirmed: bool) -> int:
    """Delete every scene extra with the rulings that concerned only them (after the game
    session); rulings shared with other characters stay in the record without them.
    Returns how many were removed.

    Raises:
        ServiceError: 422 (field ``confirm``) without the confirmation; 409 none to remove.
    """
    may_edit(user, chronicle, ["name"])
    if not confirmed:
        raise ServiceError(Phrase.message(N_("Tick the box to confirm that the scene extras "
                                             "and their rulings go.")), field="confirm")
    with db.atomic():
        removed = delete_scene_extras(chronicle, user)
        if not removed:
            raise ServiceError(Phrase.message(N_("There are no scene extras to remove.")), status=409)
        return len(removed)


def delete_scene_extras(chronicle: Chronicle, user: User | None) -> list[str]:
    """Inside the caller's transaction (its characters locked), delete every scene extra with the
    rulings only they were in, recorded as one ruling; the names removed (none: nothing recorded).
    Used by :func:`remove_scene_extras` and when a game session closes
    (:func:`larp.services.sessions.close_and_open`)."""
    extras = scene_extras(chronicle)
    if extras:
        _delete(chronicle, user, extras, extras=True)
    return [c.name for c in extras]


# ---------------------------------------------------------------- retire, restore, delete

def retire_character(chronicle: Chronicle, user: User | None, character_id: Any) -> Character:
    """Retire a character (the player left): hidden from pickers, the board and the card
    sheet, kept in the record and history; :func:`restore_character` brings him back.

    Raises:
        ServiceError: 404 unknown character; 409 already retired.
    """
    return _set_retired(chronicle, user, character_id, True)


def restore_character(chronicle: Chronicle, user: User | None, character_id: Any) -> Character:
    """Bring a retired character back into play (pickers, board, cards).

    Raises:
        ServiceError: 404 unknown character; 409 not retired.
    """
    return _set_retired(chronicle, user, character_id, False)


def _set_retired(chronicle: Chronicle, user: User | None, character_id: Any, retire: bool) -> Character:
    may_edit(user, chronicle, ["name"])
    with db.atomic():
        refuse_if_recorded()  # a repeated retire names the first one, not "already retired"
        character = _lock(get_character(chronicle, character_id))
        if (character.retired_at is not None) == retire:
            said = N_("%(name)s is already retired.") if retire else N_("%(name)s is not retired.")
            raise ServiceError(Phrase.message(said, name=character.name),
                               status=409)
        summary = N_("%(name)s retired.") if retire else N_("%(name)s back in play.")
        step = (N_("%(name)s is retired: hidden from pickers, the board and the card sheet.") if retire
                else N_("%(name)s is back in play."))
        record_ruling(chronicle, user, "retire" if retire else "restore",
                      Phrase.message(summary, name=character.name),
                      [phrase_step(step, _RULE, name=character.name)], [(character, "subject")],
                      game_session=open_game_session(chronicle))
        Character.update(retired_at=utcnow() if retire else None, version=Character.version + 1,
                         updated_at=utcnow()).where(Character.id == character.id).execute()
        return Character.get_by_id(character.id)


def adjudications(character: Character) -> int:
    """How many rulings about ``character`` are adjudications (challenges, damage, healing...),
    not the keeping of his sheet (created, edited, retired...)."""
    return (RulingCharacter.select().join(Ruling)
            .where((RulingCharacter.character == character) & Ruling.kind.not_in(SHEET_KINDS)).count())


def delete_character(chronicle: Chronicle, user: User | None, character_id: Any, confirm_name: str | None = None,
                     confirmed: bool = False) -> str:
    """Delete a character. One without rulings (beyond his sheet's keeping) goes after a plain
    confirmation; one with rulings only after his name is typed to confirm that they go too: the
    rulings that concerned only him are deleted, rulings shared with others stay in the record
    without him. Recorded in the chronicle's record. Returns the deleted name.

    Raises:
        ServiceError: 404 unknown character; 422 (field ``confirm``) without the
            confirmation, (field ``confirm_name``) the name not typed as it is.
    """
    may_edit(user, chronicle, ["name"])
    with db.atomic():
        character = _lock(get_character(chronicle, character_id))
        count = adjudications(character)
        if count:
            if (confirm_name or "").strip() != character.name:
                raise ServiceError(Phrase.counted(count, "%(name)s is in %(n)s ruling: type the name exactly to delete "
                                                  "the character and that ruling.",
                                                  "%(name)s is in %(n)s rulings: type the name exactly to delete the "
                                                  "character and those rulings.", name=character.name), field="confirm_name")
        elif not confirmed and (confirm_name or "").strip() != character.name:
            raise ServiceError(Phrase.message(N_("Tick the box to confirm the deletion.")), field="confirm")
        _delete(chronicle, user, [character], extras=False)
        return character.name


def _delete(chronicle: Chronicle, user: User | None, characters: list[Character], extras: bool) -> int:
    """Delete ``characters`` (scene extras removed when ``extras``) and the rulings only they were in;
    record it (inside a transaction)."""
    ids = [c.id for c in characters]
    own = [row.ruling_id for row in RulingCharacter.select(RulingCharacter.ruling)
           .where(RulingCharacter.character.in_(ids)).distinct()]
    shared = {row.ruling_id for row in RulingCharacter.select(RulingCharacter.ruling)
              .where(RulingCharacter.ruling.in_(own) & RulingCharacter.character.not_in(ids))} if own else set()
    alone = [rid for rid in own if rid not in shared]
    names = ", ".join(c.name for c in characters)
    for character in characters:
        character.delete_instance(recursive=True)
    end_combats_of(chronicle, ids)
    if alone:
        for ruling in Ruling.select().where(Ruling.id.in_(alone)):
            ruling.delete_instance(recursive=True)
    summary, step = words.deleted(len(characters), names, len(alone), len(shared), extras)
    record_ruling(chronicle, user, "deleted", summary if len(summary) <= 500 else summary[:500],
                  [Step(str(step), _RULE, said=step.data())], [],
                  game_session=open_game_session(chronicle), inputs={"characters": names})
    return len(characters)
