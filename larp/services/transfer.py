"""Export a whole chronicle to JSON and import it back (issue 7); the SQLite backup is :mod:`larp.services.backup`.

The export holds the chronicle, its setting overrides, game sessions,
characters (sheet and state, card tokens and short codes), Traits lost and
Ability levels expended, rulings with their participants and the state each
was in before, and torpor records. It names no database ids: characters are
referred to by short code, game sessions by number, rulings by their place in
the file. Users are NOT exported (accounts and passwords stay with the
installation): a ruling names its narrator by user name and by the name shown
(``narrator_name``); an import links it to the user of that name if there is one
here, and keeps the name shown either way.

The file carries ``format_version``; a file from a newer format is refused.
Format 2 (issue 14) adds the whole sheet (Nature, Demeanor, Virtues,
Derangements, specialisations, custom powers, Backgrounds, Merits and Flaws,
weapons and armor, the weapon in hand), retirement, scene extras and the
experience log. Format 3 (issue 27) writes experience amounts as exact decimal
texts (``"0.5"``, ``"3"``), with Grapevine's kinds (``set_earned``,
``set_unspent``, comments of 0 points) and reasons whole, and adds the state
the export left out (blood marked toward an aggravated wound, medical care,
when a card was revoked, when the chronicle was archived). Issue 34 adds to format 3,
as optional keys a reader of format 3 may ignore, each character's sheet edition and
its last print (when, and the edition printed); a file without them gets the edition
counted from its History. Issue 32 adds to format 3, the same way, the check-ins at the door
(``check_ins``: character, game session, when, by whom, how, its ruling) and the attendance experience
given (``attendance``: character, game session, amount, the place of its line in ``experience``); a
file without them has none. Issue 30 adds to format 3, as optional keys, the stored scenes (``scenes``: game
session, name, turn, when opened and closed) and which ruling was made in which scene at which turn
(``scene_rulings``: the scene's and the ruling's places, the turn, the character a challenge was against
by card code, its category). Formats 1 and 2 are still read. Every value is checked with the rules the app writes it by (the
experience log's: :func:`larp.rules.experience.check_line`), so whatever the app
stored comes back.

Not exported: users and memberships (they belong to the install), the one-time
tokens of forms and API calls, a tabletop combat in progress (its state names
characters by their database ids on this install).

An install keeps several chronicles (issue 22): an import makes a new one beside the others,
unless it replaces the chronicle it is told to (``--replace NAME``), or an install's only
chronicle when that is the untouched demo or an unused empty chronicle. It never mixes two.
Every character's values are checked first (:mod:`larp.services.import_checks`, the sheet
editor's own validator).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Callable

import peewee

from larp.db import db
from larp.models import (
    Ability,
    AbilitySpend,
    AttendanceAward,
    Background,
    Character,
    CheckIn,
    Chronicle,
    ChronicleSetting,
    Equipment,
    ExperienceEntry,
    GameSession,
    Membership,
    MeritFlaw,
    Power,
    Ruling,
    RulingCharacter,
    SceneRuling,
    StoredScene,
    Torpor,
    Trait,
    TraitLoss,
    UnstorableText,
    User,
)
from larp.rules.experience import points_text
from larp.rules.explain import N_, Phrase, plural
from larp.services import ServiceError
from larp.services.between_game_actions_export import export_actions, import_actions
from larp.services.export_shape import check_shape
from larp.services.transfer_spends import export_spend_requests, import_spend_requests  # issue 33

FORMAT = "larp-chronicle"
FORMAT_VERSION = 3

#: Character columns exported as they are (besides the ids).
CHARACTER_FIELDS = (
    "name", "player_name", "creature", "clan", "sect", "title", "generation", "morality_name", "morality_rating",
    "willpower_permanent", "willpower_current", "blood_max", "blood_current", "blood_per_turn",
    "damage_aggravated", "damage_lethal", "damage_bashing", "condition", "staked", "health_levels", "tabletop",
    "notes", "narrator_notes", "player_contact", "short_code", "card_token", "version", "created_at", "updated_at",
    "weapon", "nature", "demeanor", "virtues", "derangements", "retired_at", "scene_extra",
    "imported_unused", "agg_blood_marked", "treated", "card_revoked_at",
    "sheet_edition", "sheet_printed_at", "sheet_printed_edition",
    "frenzy",  # issue 30 item 8: in frenzy or Rötschreck
)
#: Equipment columns exported as they are.
EQUIPMENT_FIELDS = ("kind", "key", "name", "bonus_traits", "damage", "damage_type", "weapon_kind", "specials",
                    "rating", "covers", "negative_traits", "note")
_DATETIMES = {"created_at", "updated_at", "opened_at", "closed_at", "undone_at", "restored_at", "retired_at",
              "card_revoked_at", "archived_at", "sheet_printed_at", "checked_in_at", "awarded_at"}
_DATES = {"date", "started_on", "wake_on", "ended_on"}


def _out(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value


def _in(key: str, value: Any) -> Any:
    if value is None:
        return None
    if key in _DATETIMES:
        return datetime.fromisoformat(value)
    if key in _DATES:
        return date.fromisoformat(value)
    return value


def export_chronicle(chronicle: Chronicle) -> dict[str, Any]:
    """The whole chronicle as JSON-ready data (see the module docstring)."""
    characters = list(Character.select().where(Character.chronicle == chronicle).order_by(Character.id))
    code = {c.id: c.short_code for c in characters}
    sessions = list(GameSession.select().where(GameSession.chronicle == chronicle).order_by(GameSession.number))
    number = {s.id: s.number for s in sessions}
    rulings = list(Ruling.select().where(Ruling.chronicle == chronicle).order_by(Ruling.id))
    index = {r.id: i for i, r in enumerate(rulings)}
    users = {u.id: u.username for u in User.select()}
    character_ids = list(code)
    lines = list(ExperienceEntry.select().where(ExperienceEntry.character.in_(character_ids)).order_by(ExperienceEntry.id))
    line_index = {e.id: i for i, e in enumerate(lines)}
    scenes = list(StoredScene.select().where(StoredScene.chronicle == chronicle).order_by(StoredScene.id))
    scene_index = {s.id: i for i, s in enumerate(scenes)}

    def sheet(c: Character) -> dict[str, Any]:
        data = {name: _out(getattr(c, name)) for name in CHARACTER_FIELDS}
        data["traits"] = [[t.category, t.name, t.count, t.negative]
                          for t in Trait.select().where(Trait.character == c).order_by(Trait.id)]
        data["abilities"] = [[a.name, a.level, list(a.specialisations or [])]
                             for a in Ability.select().where(Ability.character == c).order_by(Ability.id)]
        data["powers"] = [[p.discipline, p.name, p.level, p.custom]
                          for p in Power.select().where(Power.character == c).order_by(Power.id)]
        data["backgrounds"] = [[b.name, b.rating] for b in
                               Background.select().where(Background.character == c).order_by(Background.id)]
        data["merits_flaws"] = [[m.kind, m.key, m.name, m.cost, m.note] for m in
                                MeritFlaw.select().where(MeritFlaw.character == c).order_by(MeritFlaw.id)]
        data["equipment"] = [{name: getattr(e, name) for name in EQUIPMENT_FIELDS} for e in
                             Equipment.select().where(Equipment.character == c).order_by(Equipment.id)]
        return data

    def spent(row: TraitLoss | AbilitySpend, extra: dict[str, Any]) -> dict[str, Any]:
        return {"character": code[row.character_id], "game_session": number[row.game_session_id], **extra,
                "ruling": index.get(row.ruling_id), "created_at": _out(row.created_at),
                "restored_at": _out(row.restored_at)}

    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "users_exported": False,
        "chronicle": {"name": chronicle.name, "created_at": _out(chronicle.created_at),
                      "archived_at": _out(chronicle.archived_at)},
        "settings": {row.key: row.value for row in ChronicleSetting.select()
                     .where(ChronicleSetting.chronicle == chronicle).order_by(ChronicleSetting.key)},
        "game_sessions": [{"number": s.number, "date": _out(s.date), "opened_at": _out(s.opened_at),
                           "closed_at": _out(s.closed_at)} for s in sessions],
        "characters": [sheet(c) for c in characters],
        "rulings": [{
            "game_session": number.get(r.game_session_id), "narrator": users.get(r.narrator_id),
            "narrator_name": r.narrator_name, "kind": r.kind,
            "created_at": _out(r.created_at), "summary": r.summary,
            # issue 36: the summary's phrase, for the reader's language (rulings recorded before have none)
            **({"summary_said": r.summary_said} if r.summary_said else {}), "inputs": r.inputs, "outcome": r.outcome,
            "steps": r.steps, "undone_at": _out(r.undone_at), "undone_by": users.get(r.undone_by_id),
            "participants": [{"character": code[p.character_id], "role": p.role, "before": p.before}
                             for p in RulingCharacter.select().where(RulingCharacter.ruling == r)
                             .order_by(RulingCharacter.id)],
        } for r in rulings],
        "trait_losses": [spent(t, {"category": t.category, "name": t.name, "count": t.count})
                         for t in TraitLoss.select().where(TraitLoss.character.in_(character_ids))
                         .order_by(TraitLoss.id)],
        "ability_spends": [spent(a, {"name": a.name, "levels": a.levels})
                           for a in AbilitySpend.select().where(AbilitySpend.character.in_(character_ids))
                           .order_by(AbilitySpend.id)],
        "torpors": [{
            "character": code[t.character_id], "game_session": number.get(t.game_session_id),
            "ruling": index.get(t.ruling_id), "cause": t.cause, "started_on": _out(t.started_on), "table": t.table,
            "rating": t.rating, "length": t.length, "wake_on": _out(t.wake_on), "wake_session": t.wake_session,
            "ended_on": _out(t.ended_on), "end_reason": t.end_reason, "ended_by": index.get(t.ended_by_id),
            "created_at": _out(t.created_at),
        } for t in Torpor.select().where(Torpor.character.in_(character_ids)).order_by(Torpor.id)],
        "experience": [{
            "character": code[e.character_id], "game_session": number.get(e.game_session_id),
            "ruling": index.get(e.ruling_id), "user": users.get(e.user_id), "kind": e.kind,
            "amount": points_text(e.amount), "what": e.what, "what_said": e.what_said, "created_at": _out(e.created_at),
        } for e in lines],
        # Game night at the door (issue 32): who was checked in for each game session, and the attendance
        # experience given (``entry``: the place of its line in "experience"). Files without them: none.
        "check_ins": [{
            "character": code[c.character_id], "game_session": number[c.game_session_id],
            "checked_in_at": _out(c.checked_in_at), "user": users.get(c.user_id), "user_name": c.user_name,
            "how": c.how, "ruling": index.get(c.ruling_id),
        } for c in CheckIn.select().where(CheckIn.character.in_(character_ids)).order_by(CheckIn.id)],
        "attendance": [{
            "character": code[a.character_id], "game_session": number[a.game_session_id],
            "amount": points_text(a.amount), "entry": line_index.get(a.entry_id), "awarded_at": _out(a.awarded_at),
        } for a in AttendanceAward.select().where(AttendanceAward.character.in_(character_ids))
            .order_by(AttendanceAward.id)],
        "spend_requests": export_spend_requests(character_ids, code, index, users),  # issue 33 (transfer_spends)
        "scenes": [{"game_session": number[s.game_session_id], "name": s.name, "turn": s.turn,
                    "created_at": _out(s.created_at), "closed_at": _out(s.closed_at)} for s in scenes],
        "scene_rulings": [{"scene": scene_index[link.scene_id], "ruling": index[link.ruling_id], "turn": link.turn,
                           "target": code.get(link.target_id), "category": link.category}
                          for link in SceneRuling.select().where(SceneRuling.scene.in_(list(scene_index)))
                          .order_by(SceneRuling.id)],
        "between_game_actions": export_actions(chronicle, code, number, users),  # issue 33 item 3
    }


def _require(data: Any, key: str, kind: type, where: str = "the file") -> Any:
    if not isinstance(data, dict) or key not in data or not isinstance(data[key], kind):
        raise ServiceError(Phrase.message(N_("This is not a complete larp chronicle export: %(where)s lacks "
                                             "“%(key)s”."), where=where, key=key), field="file")
    return data[key]


def check_format(data: Any) -> None:
    """Refuse data that is not a chronicle export this version can read.

    Raises:
        ServiceError: 422 not an export; a newer ``format_version`` (the
            message says to update larp).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ServiceError(Phrase.message(N_("This file is not a larp chronicle export.")), field="file")
    version = data.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ServiceError(Phrase.message(N_("This chronicle export has no valid format version.")), field="file")
    if version > FORMAT_VERSION:
        raise ServiceError(Phrase.message(N_("This file was written in export format %(version)s by a newer larp; "
                                             "this larp reads format %(FORMAT_VERSION)s and older. Update larp, "
                                             "then import it again. Nothing was imported."),
                                          version=version, FORMAT_VERSION=FORMAT_VERSION), field="file")


def replaceable(chronicle: Chronicle) -> bool:
    """Whether an import may put a file in ``chronicle``'s place without being told to: the
    untouched demo (:func:`larp.services.chronicles.untouched_demo`), or an empty chronicle
    never used (no character, no ruling, no setting changed)."""
    from larp.services.chronicles import untouched_demo

    if untouched_demo(chronicle):
        return True
    return (not Character.select().where(Character.chronicle == chronicle).exists()
            and not Ruling.select().where(Ruling.chronicle == chronicle).exists()
            and not ChronicleSetting.select().where(ChronicleSetting.chronicle == chronicle).exists())


def chronicle_names() -> list[str]:
    """Every chronicle's name on this install, in order (for messages that ask to name one)."""
    return [c.name for c in Chronicle.select(Chronicle.name).order_by(Chronicle.name)]


def _replace_hint(name: str) -> str:
    return Phrase.message(N_("To put the file in its place, export “%(name)s” first if you want to keep it "
                             "(`larp export --chronicle \"%(name)s\" FILE`), then import with "
                             "`larp import --replace \"%(name)s\" FILE` (or, on “%(name)s”'s Organise → Import a "
                             "chronicle export page, tick Replace), which deletes it and keeps its members."), name=name)


def _target(replace: Chronicle | str | None, into: Chronicle | None) -> Chronicle | None:
    """The chronicle the import takes the place of, locked (``None``: the file is a new chronicle)."""
    from larp.services.chronicles import lock_chronicle

    if isinstance(replace, str):
        found = Chronicle.get_or_none(Chronicle.name == replace.strip())
        if found is None:
            raise ServiceError(f"There is no chronicle called “{replace.strip()}” to replace. The chronicles here: "
                               + (", ".join(f"“{n}”" for n in chronicle_names()) or "none") + ".",
                               field="replace", status=404)
        replace = found
    if replace is not None:
        return lock_chronicle(replace)
    if into is None:
        only = list(Chronicle.select().limit(2))
        into = only[0] if len(only) == 1 else None
    if into is not None:
        into = lock_chronicle(into)
        if replaceable(into):
            return into
    return None


def import_chronicle(data: dict[str, Any], replace: Chronicle | str | None = None, *,
                     into: Chronicle | None = None, organisers: list[User] | None = None,
                     may_create: bool = True) -> tuple[Chronicle, list[str]]:
    """Put the chronicle in ``data`` (an :func:`export_chronicle` result) in this install, in one transaction.

    It never mixes two chronicles (issue 22). The file becomes a NEW chronicle beside the others,
    unless it takes the place of one: ``replace`` (a chronicle or its name: deleted, the file in
    its place; restoring a backup, or starting over), or, untold, ``into`` (default: the install's
    only chronicle) when that one is the untouched demo or an unused empty chronicle
    (:func:`replaceable`). A chronicle replaced keeps its members, with their roles
    and its id: its pages keep their addresses.

    Card codes are unique within a chronicle only, so they never clash with another chronicle's.
    Card tokens open their character from any chronicle, so they are unique on the install: an
    imported character whose token another chronicle's character holds gets a new one (his
    printed card opens the other chronicle's character; the notes say whose cards to print again).

    Args:
        organisers: who organises a new chronicle (default: the install's administrators); the
            web import passes the importing administrator.
        may_create: ``False`` refuses (403) an import that would make a new chronicle (a plain
            organiser's web import: only an administrator makes chronicles).

    Returns:
        The chronicle made and notes for the person importing (what it replaced, who organises
        it, tokens reissued, users not found here).

    Raises:
        ServiceError: 422 not an export, a newer format, a malformed entry, a character value the
            sheet editor refuses (naming the character and the field); 404 ``replace`` names no
            chronicle; 409 another chronicle has the file's name (the message says how to
            replace it); 403 a new chronicle when ``may_create`` is ``False``. Nothing is changed.
    """
    from larp.db import lock_name
    from larp.services.characters import new_card_token
    from larp.services.import_checks import check_character, check_experience
    from larp.services.sheet_store import scalar_fields, write_sheet_rows

    check_format(data)
    info = _require(data, "chronicle", dict)
    name = _require(info, "name", str, "the chronicle").strip()
    for key in ("game_sessions", "characters", "rulings", "trait_losses", "ability_spends", "torpors"):
        _require(data, key, list)
    check_shape(data)
    checked = [check_character(entry, i, data["format_version"]) for i, entry in enumerate(data["characters"])]
    lines = [check_experience(entry, i, data["format_version"]) for i, entry in enumerate(data.get("experience") or [])]
    notes: list[str] = []
    try:
        with db.atomic():
            # Check-then-write on the names, the chronicle replaced and the tokens: the lock on the
            # chronicles' names (the one creating and renaming take) serialises two imports, and the
            # chronicle replaced is locked (lock_chronicle) against its writers until the commit.
            lock_name("chronicle names")
            target = _target(replace, into)
            clash = Chronicle.get_or_none((Chronicle.name == name)
                                          & (Chronicle.id != (target.id if target else 0)))
            if clash is not None:
                raise ServiceError(Phrase.message(N_("A chronicle called “%(name)s” is already on this install, and an "
                                                     "import never mixes two chronicles. %(hint)s"),
                                                  name=name, hint=_replace_hint(name)), field="file", status=409)
            if target is None and not may_create:
                raise ServiceError(
                    Phrase.message(N_("This file would become a new chronicle, “%(name)s”, beside the others, and "
                                      "only an administrator of the install makes chronicles. Ask one to import "
                                      "it, or tick Replace to put it in this chronicle's place."),
                                   name=name), field="file", status=403)
            members: list[tuple[int, str]] = []
            if target is not None:
                notes.append(f"Replaced {'the demo chronicle' if target.is_demo else 'the chronicle'} “{target.name}”"
                             " (its members keep their roles, and its pages their addresses).")
                # The chronicle replaced goes first, its members and who had it open kept aside: the file takes
                # its place under its id, so every open page and bookmark of it (/chronicles/<id>/...) still
                # leads to it (new user 12: they were a bare Not Found mid-game).
                members = list(Membership.select(Membership.user, Membership.role)
                               .where(Membership.chronicle == target.id).tuples())
                opened = [u for (u,) in User.select(User.id).where(User.current_chronicle == target.id).tuples()]
                target.delete_instance(recursive=True)
            tokens = [c.state["card_token"] for c in checked if c.state["card_token"]]
            taken = {t for batch in peewee.chunked(tokens, 500) for (t,) in Character.select(Character.card_token)
                     .where(Character.card_token.in_(batch)
                            & (Character.chronicle != (target.id if target else 0))).tuples()}
            reissued = []
            for item in checked:
                if item.state["card_token"] in taken:
                    item.state["card_token"] = new_card_token()
                    reissued.append(item.sheet.name)
            users = {u.username: u for u in User.select()}
            missing: set[str] = set()

            def user(username: str | None) -> User | None:
                if username and username not in users:
                    missing.add(username)
                return users.get(username) if username else None

            created = _in("created_at", info.get("created_at"))
            chronicle = Chronicle.create(name=name, archived_at=_in("archived_at", info.get("archived_at")),
                                         **({"created_at": created} if created else {}),
                                         **({"id": target.id} if target is not None else {}))
            if target is not None:
                for member, role in members:
                    Membership.create(user=member, chronicle=chronicle.id, role=role)
                User.update(current_chronicle=chronicle.id).where(User.id.in_(opened)).execute()
            else:
                chosen = organisers if organisers is not None else list(
                    User.select().where(User.is_admin & User.active).order_by(User.username))
                for person in chosen:
                    Membership.create(user=person.id, chronicle=chronicle.id, role="organiser")
                others = len(chronicle_names()) - 1
                notes.append(f"“{name}” is a new chronicle" + (f", beside {plural(others, 'other')}" if others else "") + ". "
                             + (("Its organisers are the install's administrators: " if organisers is None
                                 else "Its organiser: ") + ", ".join(p.username for p in chosen) + "." if chosen else
                                "No one is a member yet: an administrator appoints its organisers "
                                "(`larp create-user NAME --admin` makes one)."))
            if reissued:
                notes.append(f"{plural(len(reissued), 'card token')} of the file open a character of another chronicle here, "
                             f"so these characters got new ones: {', '.join(reissued[:10])}"
                             + (" and others" if len(reissued) > 10 else "")
                             + ". Print their cards again (Character cards).")
            for key, value in (data.get("settings") or {}).items():
                ChronicleSetting.create(chronicle=chronicle, key=key, value=value)
            sessions = {}
            for entry in data["game_sessions"]:
                sessions[entry["number"]] = GameSession.create(
                    chronicle=chronicle, **{k: _in(k, entry.get(k)) for k in ("number", "date", "opened_at",
                                                                               "closed_at")})
            characters = {}
            for item in checked:
                values = scalar_fields(item.sheet)
                values.update(item.state)
                character = Character.create(chronicle=chronicle, **values)
                characters[character.short_code] = character
                write_sheet_rows(character, item.sheet)
            rulings = []
            for entry in data["rulings"]:
                ruling = Ruling.create(
                    chronicle=chronicle, game_session=sessions.get(entry.get("game_session")),
                    narrator=user(entry.get("narrator")),
                    narrator_name=entry.get("narrator_name") or entry.get("narrator") or "", kind=entry["kind"],
                    created_at=_in("created_at", entry["created_at"]), summary=entry.get("summary", ""),
                    summary_said=entry.get("summary_said"), inputs=entry.get("inputs", {}),
                    outcome=entry.get("outcome", {}), steps=entry.get("steps", []),
                    undone_at=_in("undone_at", entry.get("undone_at")), undone_by=user(entry.get("undone_by")))
                for part in entry.get("participants", []):
                    RulingCharacter.create(ruling=ruling, character=characters[part["character"]], role=part["role"],
                                           before=part.get("before"))
                rulings.append(ruling)

            uncounted = [characters[item.state["short_code"]].id for item in checked
                         if "sheet_edition" not in item.state]
            if uncounted:  # an export from before editions (issue 34): counted from the History, as 0014 does
                from larp.services.editions import editions_from_history

                for character_id, edition in editions_from_history(uncounted).items():
                    Character.update(sheet_edition=edition).where(Character.id == character_id).execute()

            def ruling_at(position: int | None) -> Ruling | None:
                return rulings[position] if position is not None else None

            def positive(entry: dict[str, Any], key: str) -> int:
                value = entry[key]
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
                    raise ValueError(f"{key} must be a whole number from 1 to 1000, not {value!r}")
                return value

            for entry in data["trait_losses"]:
                TraitLoss.create(character=characters[entry["character"]], game_session=sessions[entry["game_session"]],
                                 category=entry["category"], name=entry["name"], count=positive(entry, "count"),
                                 ruling=ruling_at(entry.get("ruling")),
                                 created_at=_in("created_at", entry["created_at"]),
                                 restored_at=_in("restored_at", entry.get("restored_at")))
            for entry in data["ability_spends"]:
                AbilitySpend.create(character=characters[entry["character"]],
                                    game_session=sessions[entry["game_session"]], name=entry["name"],
                                    levels=positive(entry, "levels"), ruling=ruling_at(entry.get("ruling")),
                                    created_at=_in("created_at", entry["created_at"]),
                                    restored_at=_in("restored_at", entry.get("restored_at")))
            for entry in data["torpors"]:
                Torpor.create(character=characters[entry["character"]],
                              game_session=sessions.get(entry.get("game_session")),
                              ruling=ruling_at(entry.get("ruling")), ended_by=ruling_at(entry.get("ended_by")),
                              **{k: _in(k, entry.get(k)) for k in ("cause", "started_on", "table", "rating", "length",
                                                                    "wake_on", "wake_session", "ended_on",
                                                                    "end_reason", "created_at")})
            def place(items: list, position: Any, what: str) -> Any:
                if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < len(items):
                    raise ValueError(f"no {what} at place {position!r}")
                return items[position]

            def turn_of(entry: dict[str, Any]) -> int:
                value = entry["turn"]
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise ValueError(f"a scene's turn must be a whole number from 1, not {value!r}")
                return value

            stored_scenes = []
            for entry in data.get("scenes") or []:
                stored_scenes.append(StoredScene.create(
                    chronicle=chronicle, game_session=sessions[entry["game_session"]], name=entry["name"],
                    turn=turn_of(entry),
                    created_at=_in("created_at", entry["created_at"]), closed_at=_in("closed_at", entry.get("closed_at"))))
            for entry in data.get("scene_rulings") or []:
                SceneRuling.create(ruling=place(rulings, entry["ruling"], "ruling"),
                                   scene=place(stored_scenes, entry["scene"], "scene"), turn=turn_of(entry),
                                   target=characters[entry["target"]] if entry.get("target") is not None else None,
                                   category=entry.get("category") or "")
            entries = []
            for entry, (kind, amount, what) in zip(data.get("experience") or [], lines):
                entries.append(ExperienceEntry.create(character=characters[entry["character"]],
                                                      game_session=sessions.get(entry.get("game_session")),
                                                      ruling=ruling_at(entry.get("ruling")), user=user(entry.get("user")),
                                                      kind=kind, amount=amount, what=what,
                                                      what_said=entry.get("what_said") if isinstance(
                                                          entry.get("what_said"), dict) else None,
                                                      created_at=_in("created_at", entry["created_at"])))
            _import_game_nights(data, chronicle, characters, sessions, ruling_at, entries, user)
            import_spend_requests(data, chronicle, characters, ruling_at, user)
            import_actions(data, chronicle, characters, sessions, user)  # issue 33 item 3
    except UnstorableText as exc:
        raise ServiceError(Phrase.message(N_("This chronicle export holds a text the database cannot store: "
                                             "%(message)s Nothing was imported."),
                                          message=exc.message), field="file") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError, RecursionError,
            peewee.IntegrityError, peewee.DataError) as exc:
        # The shape was checked first; what is left is entries that contradict each other (a card code
        # used twice, a reference to a character or game session the file does not hold).
        raise ServiceError(Phrase.message(N_("This chronicle export is damaged (%(kind)s: %(exc)s); nothing "
                                             "was imported."),
                                          kind=type(exc).__name__, exc=str(exc)[:200]), field="file") from None
    if missing:
        notes.append("Users are not exported. No user here is called " + ", ".join(sorted(missing))
                     + ": their rulings keep the narrator's name, linked to no account.")
    return chronicle, notes


def _import_game_nights(data: dict[str, Any], chronicle: Chronicle, characters: dict, sessions: dict,
                        ruling_at: Callable[[int | None], Ruling | None], entries: list[ExperienceEntry],
                        user: Callable[[str | None], User | None]) -> None:
    """Write the file's check-ins and attendance experience given (issue 32), inside the import's
    transaction. A file without them (written before issue 32) has none.

    Raises:
        ValueError, KeyError, IndexError: an entry naming what the file does not hold, a ``how`` the
            app does not know, or an amount that is not one (the import calls the file damaged).
        peewee.IntegrityError: the same character checked in twice for one game session.
    """
    from larp.rules.check_in import attendance_amount
    from larp.rules.explain import RulesError

    for entry in data.get("check_ins") or []:
        if entry.get("how", "name") not in CheckIn.HOW:
            raise ValueError(f"how must be one of {', '.join(CheckIn.HOW)}, not {entry.get('how')!r}")
        CheckIn.create(chronicle=chronicle, character=characters[entry["character"]],
                       game_session=sessions[entry["game_session"]],
                       checked_in_at=_in("checked_in_at", entry["checked_in_at"]), user=user(entry.get("user")),
                       user_name=entry.get("user_name") or entry.get("user") or "", how=entry.get("how", "name"),
                       ruling=ruling_at(entry.get("ruling")))
    for entry in data.get("attendance") or []:
        try:
            amount = attendance_amount(entry["amount"])
        except RulesError as exc:
            raise ValueError(exc.message) from None
        line = entry.get("entry")
        if line is not None and (isinstance(line, bool) or not isinstance(line, int) or not 0 <= line < len(entries)):
            raise ValueError(f"attendance entry {line!r} is no line of the experience log")
        AttendanceAward.create(chronicle=chronicle, character=characters[entry["character"]],
                               game_session=sessions[entry["game_session"]], amount=amount,
                               entry=entries[line] if line is not None else None,
                               **({"awarded_at": _in("awarded_at", entry["awarded_at"])} if entry.get("awarded_at")
                                  else {}))
