"""Chronicles, their settings and their game sessions."""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any
from zoneinfo import ZoneInfo

from larp.db import db
from larp.models import Chronicle, ChronicleSetting, GameSession
from larp.rules.explain import RulesError
from larp.rules.settings import ChronicleSettings, setting_definitions
from larp.services import ServiceError


def get_chronicle(chronicle_id: int | None = None) -> Chronicle:
    """The chronicle ``chronicle_id``, or the first one when ``None``.

    Raises:
        ServiceError: 404 when there is no such chronicle (or none at all).
    """
    query = Chronicle.select().order_by(Chronicle.id)
    if chronicle_id is not None:
        query = query.where(Chronicle.id == chronicle_id)
    chronicle = query.first()
    if chronicle is None:
        raise ServiceError("There is no chronicle yet: start the app with the demo or import one.", status=404)
    return chronicle


def chronicle_settings(chronicle: Chronicle) -> ChronicleSettings:
    """The settings in force for ``chronicle``: defaults plus its stored overrides.

    A stored override that is no longer valid (a setting removed or changed
    type) is ignored rather than breaking every ruling.
    """
    overrides: dict[str, Any] = {}
    for row in ChronicleSetting.select().where(ChronicleSetting.chronicle == chronicle):
        try:
            ChronicleSettings.from_overrides({row.key: row.value})
        except RulesError:
            continue
        overrides[row.key] = row.value
    return ChronicleSettings.from_overrides(overrides)


def local_time(moment: datetime, zone_name: str) -> datetime:
    """``moment`` (as stored: naive UTC) in the time zone ``zone_name`` (chronicle setting
    ``time_zone``, data/settings/record.toml); "" is the computer's own time zone, with its
    daylight-saving rule for that moment."""
    aware = moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment
    return aware.astimezone(ZoneInfo(zone_name)) if zone_name else aware.astimezone()


def current_game_session(chronicle: Chronicle) -> GameSession:
    """The chronicle's open game session.

    Raises:
        ServiceError: 409 when no game session is open.
    """
    session = (
        GameSession.select()
        .where((GameSession.chronicle == chronicle) & (GameSession.closed_at.is_null()))
        .order_by(GameSession.number.desc())
        .first()
    )
    if session is None:
        raise ServiceError("No game session is open: an organiser opens the next one.", status=409)
    return session


def open_game_session(chronicle: Chronicle) -> GameSession | None:
    """The chronicle's open game session, or ``None`` when none is open (for reads and records
    that may happen between game sessions)."""
    try:
        return current_game_session(chronicle)
    except ServiceError:
        return None


def open_first_game_session(chronicle: Chronicle, on: date) -> GameSession:
    """Open game session 1 of a new chronicle, dated ``on``."""
    with db.atomic():
        return GameSession.create(chronicle=chronicle, number=1, date=on)


def set_setting(chronicle: Chronicle, key: str, raw: Any) -> Any:
    """Store ``chronicle``'s value for the setting ``key`` from form text or JSON ``raw``.

    The value is checked against the setting's definition in
    ``data/settings/*.toml``; the default value removes the override.
    Returns the value now in force.

    Raises:
        ServiceError: 404 for an unknown setting; 422 naming ``key`` when
            ``raw`` is not a valid value (the definition's message, e.g.
            "not a valid url value (a full address such as ...)").
    """
    definition = setting_definitions().get(key)
    if definition is None:
        raise ServiceError(f"There is no chronicle setting called {key}.", field=key, status=404)
    try:
        value = definition.coerce(raw)
    except RulesError as exc:
        raise ServiceError(exc.message, field=key) from None
    with db.atomic():
        ChronicleSetting.delete().where(
            (ChronicleSetting.chronicle == chronicle) & (ChronicleSetting.key == key)
        ).execute()
        if value != definition.coerce(definition.default):
            ChronicleSetting.create(chronicle=chronicle, key=key, value=value)
    return value
