"""Changing a chronicle's settings (organisers), recorded like any other change."""

from __future__ import annotations

from typing import Any, Mapping

from larp.db import db
from larp.models import Chronicle, ChronicleSetting, Ruling, User
from larp.rules.explain import RulesError
from larp.rules.settings import setting_definitions
from larp.services import ServiceError
from larp.services.chronicles import chronicle_settings, open_game_session


def update_settings(chronicle: Chronicle, organiser: User | None, submitted: Mapping[str, Any]) -> Ruling | None:
    """Apply the organiser's setting values in one transaction and record what changed.

    ``submitted`` maps setting keys to raw values (form text or JSON). Only
    keys that are defined are considered; a value equal to the default removes
    the override. Returns the record, or ``None`` when nothing changed.

    Raises:
        ServiceError: 422 naming the first invalid setting (nothing is saved).
    """
    definitions = setting_definitions()
    current = chronicle_settings(chronicle)
    changes: dict[str, tuple[Any, Any]] = {}
    for key, raw in submitted.items():
        if key not in definitions:
            continue
        try:
            value = definitions[key].coerce(raw)
        except RulesError as exc:
            raise ServiceError(exc.message, field=key) from None
        if value != current[key]:
            changes[key] = (current[key], value)
    if not changes:
        return None
    with db.atomic():
        for key, (_old, new) in changes.items():
            ChronicleSetting.delete().where(
                (ChronicleSetting.chronicle == chronicle) & (ChronicleSetting.key == key)
            ).execute()
            if new != definitions[key].default:
                ChronicleSetting.create(chronicle=chronicle, key=key, value=new)
        game_session = open_game_session(chronicle)
        steps = [
            {
                "text": f"{definitions[k].label}: {definitions[k].describe(old)} → {definitions[k].describe(new)}.",
                "rule": definitions[k].source,
                "setting": k,
            }
            for k, (old, new) in changes.items()
        ]
        return Ruling.create(
            chronicle=chronicle,
            game_session=game_session,
            narrator=organiser,
            kind="settings",
            summary="Chronicle settings changed: " + ", ".join(definitions[k].label for k in changes),
            inputs={k: new for k, (_old, new) in changes.items()},
            outcome={k: {"from": old, "to": new} for k, (old, new) in changes.items()},
            steps=steps,
        )
