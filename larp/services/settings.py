"""Changing a chronicle's settings (organisers), recorded like any other change."""

from __future__ import annotations

from typing import Any, Mapping

from larp.db import db
from larp.models import Chronicle, ChronicleSetting, Ruling, User
from larp.rules.explain import N_, Phrase, RulesError, phrase_step
from larp.rules.settings import setting_definitions
from larp.services import ServiceError
from larp.services.chronicles import chronicle_settings, open_game_session
from larp.services import records


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
        steps = [phrase_step(N_("%(setting_name)s: %(before)s → %(after)s."), definitions[k].source, k,
                             setting_name=Phrase.term(definitions[k].label), before=_described(definitions[k], old),
                             after=_described(definitions[k], new)).to_record()
                 for k, (old, new) in changes.items()]
        summary = Phrase.message(N_("Chronicle settings changed: %(settings)s"),
                                 settings=[Phrase.term(definitions[k].label) for k in changes])
        # Written as every ruling is (records._create_ruling: no one-time token, no webhook event), with its
        # phrases, so that it reads in whoever's language opens it (issue 36).
        return records._create_ruling(dict(
            chronicle=chronicle,
            game_session=game_session,
            narrator=organiser,
            kind="settings",
            summary=summary,
            summary_said=summary.data(),
            inputs={k: new for k, (_old, new) in changes.items()},
            outcome={k: {"from": old, "to": new} for k, (old, new) in changes.items()},
            steps=steps,
        ), None)


def _described(definition: Any, value: Any) -> Phrase:
    """A setting's value as the organiser reads it (:meth:`SettingDef.describe`), as a phrase: a choice's
    label and yes/no in the reader's language, a number as written."""
    if definition.type == "bool":
        return Phrase.message(N_("yes") if value else N_("no"))
    return Phrase.term(definition.describe(value))
