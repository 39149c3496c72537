"""The shape of a chronicle export (``larp export``), checked before anything of it is imported.

:func:`check_shape` walks the whole file once and refuses, naming the place
(``characters[3].traits[1]``), anything that is not the shape
:func:`larp.services.transfer.export_chronicle` writes: a missing key, a value of the wrong
JSON type (a text where a number goes, a number past what the database holds, ``NaN``), a
text longer than its column, a date that is not ISO 8601, nesting deeper than
:data:`MAX_DEPTH`. The types come from the models' fields, so a new column is checked as
soon as it is exported. What the values mean (a condition, a creature, a damage count that
makes sense) is checked by the import itself.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime
from typing import Any, Callable

import peewee

from larp.models import (
    Ability,
    AbilitySpend,
    AttendanceAward,
    Background,
    Character,
    CheckIn,
    Equipment,
    ExperienceEntry,
    MeritFlaw,
    GameSession,
    Power,
    Ruling,
    RulingCharacter,
    SceneRuling,
    SpendRequest,
    StoredScene,
    Torpor,
    Trait,
    TraitLoss,
    UnstorableText,
    BetweenGameAction,
)
from larp.rules.explain import N_, Phrase
from larp.rules.numbers import NumberError, whole_number
from larp.services import ServiceError

#: How deep the file's arrays and objects may nest (an export nests about 10 deep).
MAX_DEPTH = 64
#: The range of the databases' INTEGER columns (32-bit on PostgreSQL).
INT_RANGE = (-(2**31), 2**31 - 1)


class _Bad(Exception):
    def __init__(self, where: str, message: str):
        super().__init__(message)
        self.where, self.message = where, message


def _refuse(where: str, message: str):
    raise _Bad(where, message)


def _of_field(field: peewee.Field) -> Callable[[Any, str], None]:
    """The check of one value against a model field (its JSON type, range, length)."""

    def check(value: Any, where: str) -> None:
        if value is None:
            if not field.null:
                _refuse(where, "needs a value")
            return
        if isinstance(field, peewee.BooleanField):
            if not isinstance(value, bool):
                _refuse(where, "must be true or false")
        elif isinstance(field, (peewee.IntegerField, peewee.ForeignKeyField)):
            try:
                whole_number(value, where, low=INT_RANGE[0], high=INT_RANGE[1], text=False)
            except NumberError:
                _refuse(where, "must be a whole number that the database can hold")
        elif isinstance(field, peewee.DecimalField):
            # An exact amount: a decimal text ("0.5", format 3) or a number (formats 1 and 2); what it
            # may be is checked by the import (larp.rules.experience.check_line).
            if isinstance(value, bool) or not isinstance(value, (int, float, str)) or (
                    isinstance(value, str) and len(value) > 40):
                _refuse(where, "must be a number or a decimal text such as \"0.5\"")
        elif isinstance(field, (peewee.DateTimeField, peewee.DateField)):
            kind = datetime if isinstance(field, peewee.DateTimeField) else date
            try:
                kind.fromisoformat(value)
            except (TypeError, ValueError):
                _refuse(where, "must be a date in ISO 8601 (2026-11-29 or 2026-11-29T20:00:00)")
        elif isinstance(field, (peewee.CharField, peewee.TextField)):
            if not isinstance(value, str):
                _refuse(where, "must be a text")
            try:
                field.checked(value)
            except UnstorableText as exc:
                _refuse(where, exc.message)
        # JSONField: any JSON (its depth is checked for the whole file).

    return check


def _text(value: Any, where: str) -> None:
    if not isinstance(value, str):
        _refuse(where, "must be a text")


def _reference(value: Any, where: str) -> None:
    """A short code, a game-session number or a ruling's place: a text or a whole number, or nothing."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int))):
        _refuse(where, "must be a card code, a number or null")


def _record(model: type[peewee.Model], required: tuple[str, ...], extra: dict[str, Callable] | None = None):
    """The check of one object whose keys are ``model`` fields (plus ``extra`` keys)."""
    fields = model._meta.fields
    extra = extra or {}

    def check(entry: Any, where: str) -> None:
        if not isinstance(entry, dict):
            _refuse(where, "must be an object")
        for key in required:
            if key not in entry:
                _refuse(f"{where}.{key}", "is missing")
        for key, value in entry.items():
            if key in extra:
                extra[key](value, f"{where}.{key}")
            elif key in fields:
                _of_field(fields[key])(value, f"{where}.{key}")

    return check


def _row(*fields: peewee.Field, shortest: int | None = None):
    """The check of an array row such as a Trait ``[category, name, count, negative]`` (the last
    fields may be left out down to ``shortest``: format 1 rows are shorter)."""
    checks = [_of_field(f) for f in fields]
    names = ", ".join(f.name for f in fields)
    shortest = len(fields) if shortest is None else shortest

    def check(entry: Any, where: str) -> None:
        if not isinstance(entry, list) or not shortest <= len(entry) <= len(fields):
            _refuse(where, f"must be [{names}]")
        for value, field_check, field in zip(entry, checks, fields):
            field_check(value, f"{where}.{field.name}")

    return check


def _each(check: Callable[[Any, str], None]):
    def every(value: Any, where: str) -> None:
        if not isinstance(value, list):
            _refuse(where, "must be an array")
        for i, entry in enumerate(value):
            check(entry, f"{where}[{i}]")

    return every


_REFERENCES = {"character": _reference, "game_session": _reference, "ruling": _reference, "ended_by": _reference}
_PEOPLE = {"narrator": _reference, "undone_by": _reference, "narrator_name": _text}

SHAPE: dict[str, Callable[[Any, str], None]] = {
    "game_sessions": _each(_record(GameSession, ("number", "date"))),
    "characters": _each(_record(Character, ("name", "short_code"), {
        "traits": _each(_row(Trait.category, Trait.name, Trait.count, Trait.negative)),
        "abilities": _each(_row(Ability.name, Ability.level, Ability.specialisations, shortest=2)),
        "powers": _each(_row(Power.discipline, Power.name, Power.level, Power.custom, shortest=3)),
        "backgrounds": _each(_row(Background.name, Background.rating)),
        "merits_flaws": _each(_row(MeritFlaw.kind, MeritFlaw.key, MeritFlaw.name, MeritFlaw.cost, MeritFlaw.note)),
        "equipment": _each(_record(Equipment, ("kind", "name"))),
    })),
    "rulings": _each(_record(Ruling, ("kind", "created_at"), {
        **_REFERENCES, **_PEOPLE,
        "participants": _each(_record(RulingCharacter, ("character", "role"), _REFERENCES)),
    })),
    "trait_losses": _each(_record(TraitLoss, ("character", "game_session", "category", "name", "count",
                                              "created_at"), _REFERENCES)),
    "ability_spends": _each(_record(AbilitySpend, ("character", "game_session", "name", "levels", "created_at"),
                                    _REFERENCES)),
    "torpors": _each(_record(Torpor, ("character", "cause", "started_on", "table", "rating", "length"),
                             _REFERENCES)),
    "experience": _each(_record(ExperienceEntry, ("character", "kind", "amount", "created_at"),
                                {**_REFERENCES, "user": _reference})),
    # Game night at the door (issue 32).
    "check_ins": _each(_record(CheckIn, ("character", "game_session", "checked_in_at"),
                               {**_REFERENCES, "user": _reference})),
    "attendance": _each(_record(AttendanceAward, ("character", "game_session", "amount"),
                                {**_REFERENCES, "entry": _reference})),
    "scenes": _each(_record(StoredScene, ("game_session", "name", "turn", "created_at"), _REFERENCES)),
    "scene_rulings": _each(_record(SceneRuling, ("scene", "ruling", "turn"),
                                   {**_REFERENCES, "scene": _reference, "target": _reference})),
    # Requests to spend experience (issue 33): their rulings by place, their people by user name.
    "spend_requests": _each(_record(SpendRequest, ("character", "request", "state", "asked_at"),
                                    {**_REFERENCES, "undo_ruling": _reference, "asked_by": _reference,
                                     "answered_by": _reference})),
}
SHAPE["between_game_actions"] = _each(_record(  # issue 33 item 3 (larp.services.between_game_actions_export)
    BetweenGameAction, ("character", "game_session", "text", "written_at"),
    {**_REFERENCES, "author": _reference, "answered_by": _reference}))


def depth(value: Any) -> int:
    """How deep ``value``'s arrays and objects nest (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            if isinstance(item, float) and not math.isfinite(item):
                raise ServiceError(Phrase.message(N_("This chronicle export holds NaN or Infinity, which is not "
                                                     "JSON a larp export writes; nothing was imported.")), field="file")
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, level + 1) for child in children)
    return deepest


def check_shape(data: dict[str, Any]) -> None:
    """Refuse an export (already past the format check) that is not shaped as larp writes it.

    Raises:
        ServiceError: 422 (field ``file``) naming the first place at fault and what it must be;
            nothing has been imported.
    """
    if depth(data) > MAX_DEPTH:
        raise ServiceError(Phrase.message(N_("This chronicle export nests deeper than %(MAX_DEPTH)s levels, which "
                                             "no larp export does; nothing was imported."),
                                          MAX_DEPTH=MAX_DEPTH), field="file")
    try:
        if not isinstance(data.get("settings") or {}, dict):
            _refuse("settings", "must be an object")
        for key, check in SHAPE.items():
            if key in data:
                check(data[key], key)
    except _Bad as bad:
        raise ServiceError(Phrase.message(N_("%(who)sThis chronicle export is damaged at %(where)s: it "
                                             "%(message)s. Nothing was imported."),
                                          who=_who(data, bad.where), where=bad.where, message=bad.message), field="file") from None


def _who(data: dict[str, Any], where: str) -> str:
    """"Character 3 (Lys Moreau): " when ``where`` is inside a character entry (as the value checks say it)."""
    match = re.match(r"characters\[(\d+)\]", where)
    if not match:
        return ""
    index = int(match.group(1))
    entry = data["characters"][index]
    name = entry.get("name") if isinstance(entry, dict) and isinstance(entry.get("name"), str) else ""
    return f"Character {index + 1}" + (f" ({name[:60]})" if name else "") + ": "
