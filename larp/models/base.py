"""What every model shares: the base model bound to the app's database, and the text fields that refuse what a database must not store (both engines refuse the same texts)."""

from __future__ import annotations

from datetime import datetime, timezone

import peewee
from peewee import (
    BigIntegerField,
    BlobField,
    BooleanField,
    DateField,
    DateTimeField,
    DecimalField,
    ForeignKeyField,
    IntegerField,
    JSONField,
    Model,
)

from larp.db import db

#: The most characters a free text of a character (notes, narrator notes, contact) may hold.
NOTES_MAX_CHARS = 20_000


class UnstorableText(ValueError):
    """A text the database must not store: longer than its column allows, or holding a NUL
    character or an unpaired surrogate (which PostgreSQL and SQLite's UTF-8 refuse).

    Raised before anything is sent, so the transaction around the write is rolled back and
    both engines refuse the same texts (SQLite does not enforce ``VARCHAR`` lengths itself).
    ``field`` is the model field's name, ``message`` says what is wrong.
    """

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message = message
        self.field = field


def unstorable_reason(text: str) -> str | None:
    """Why no database may be given ``text`` even to compare with (PostgreSQL refuses a NUL in any
    query, and text that is not valid Unicode), or ``None``."""
    if "\x00" in text:
        return "holds a NUL character"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "holds characters that are not valid text"
    return None


def first_unstorable(value, where: str = "") -> tuple[str, str] | None:
    """The first text inside ``value`` (JSON data: objects, arrays, texts) that :func:`unstorable_reason`
    refuses, as ``(where, why)`` (``where`` like ``challenger.name`` or ``tests[2].by``), else ``None``."""
    stack = [(where, value)]
    while stack:
        place, item = stack.pop()
        if isinstance(item, str):
            why = unstorable_reason(item)
            if why:
                return place or "body", why
        elif isinstance(item, dict):
            for key, child in item.items():
                why = unstorable_reason(str(key))
                if why:
                    return f"{place}.{key}".strip(".") or "body", why
                stack.append((f"{place}.{key}".strip("."), child))
        elif isinstance(item, list):
            stack.extend((f"{place}[{i}]", child) for i, child in enumerate(item))
    return None


class _CheckedText:
    """Mixed into the text fields of every model: what is written is refused as
    :class:`UnstorableText` describes (by :class:`BaseModel`, on every insert and update).
    A comparison (``WHERE name = ...``) is not checked: a text too long for the column
    simply matches nothing."""

    def checked(self, value):
        """``value`` when it may be stored in this field.

        Raises:
            UnstorableText: a text too long for ``max_length``, or with a NUL or unpaired surrogate inside.
        """
        if isinstance(value, str):
            limit = getattr(self, "max_length", None)
            if (not limit or len(value) <= limit) and "\x00" not in value and value.isascii():
                return value
            label = self.verbose_name or self.name.replace("_", " ")
            if limit and len(value) > limit:
                raise UnstorableText(f"The {label} is too long: at most {limit:,} characters "
                                     f"(this one has {len(value):,}).", self.name)
            why = unstorable_reason(value)
            if why:
                raise UnstorableText(f"The {label} {why}, which cannot be stored.", self.name)
        return value


class CharField(_CheckedText, peewee.CharField):
    """A ``VARCHAR(max_length)`` whose length is enforced on every engine."""


class TextField(_CheckedText, peewee.TextField):
    """A ``TEXT`` column, with an optional ``max_length`` enforced on every engine."""

    def __init__(self, *args, max_length: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_length = max_length


def utcnow() -> datetime:
    """The current time in UTC, naive (stored as UTC everywhere)."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


class BaseModel(Model):
    """Base of every model: bound to the app's database proxy. Every text written (``create``,
    ``save``, ``insert``, ``insert_many``, ``update``) is checked by its field first, so both engines
    refuse the same texts (:class:`UnstorableText`)."""

    class Meta:
        database = db

    @classmethod
    def _normalize_data(cls, data, kwargs):
        normalized = super()._normalize_data(data, kwargs)
        if isinstance(normalized, dict):
            for field, value in normalized.items():
                if isinstance(field, _CheckedText):
                    field.checked(value)
        return normalized

    @classmethod
    def insert_many(cls, rows, fields=None):
        """Insert ``rows`` (dicts, or tuples of ``fields``), their texts checked first.

        Raises:
            UnstorableText: a text the database must not store.
        """
        rows = list(rows)
        for row in rows:
            if isinstance(row, dict):
                cls._normalize_data(row, {})
            elif fields is not None:
                for field, value in zip(fields, row):
                    field = cls._meta.fields[field] if isinstance(field, str) else field
                    if isinstance(field, _CheckedText):
                        field.checked(value)
        return super().insert_many(rows, fields=fields)
