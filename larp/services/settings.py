"""Changing a chronicle's settings (organisers), recorded like any other change."""

from __future__ import annotations

from typing import Any, Mapping

from larp.db import db
from larp.models import Chronicle, ChronicleSetting, Ruling, User
from larp.i18n import N_
from larp.rules.explain import Phrase, RulesError
from larp.rules.settings import SettingDef, setting_definitions
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
        steps = []
        for k, (old, new) in changes.items():
            said = Phrase.message(N_("%(setting)s: %(before)s → %(after)s."),
                                  setting=Phrase.term(definitions[k].label),
                                  before=_value(definitions[k], old), after=_value(definitions[k], new))
            steps.append({"text": str(said), "rule": definitions[k].source, "setting": k, "said": said.data()})
        summary = Phrase.message(N_("Chronicle settings changed: %(settings)s"),
                                 settings=[Phrase.term(definitions[k].label) for k in changes])
        return Ruling.create(
            chronicle=chronicle,
            game_session=game_session,
            narrator=organiser,
            kind="settings",
            summary=str(summary),
            summary_said=summary.data(),
            inputs={k: new for k, (_old, new) in changes.items()},
            outcome={k: {"from": old, "to": new} for k, (old, new) in changes.items()},
            steps=steps,
        )


#: A yes/no setting's values as a settings change's step says them.
_YES_NO = {True: N_("yes"), False: N_("no")}


def _value(definition: SettingDef, value: Any) -> Phrase | str:
    """A setting's value in a settings change's step (issue 36): a choice's label and yes/no through the
    catalogue (the same English as :meth:`SettingDef.describe`), a number, date or time zone as written."""
    if definition.type == "choice":
        return Phrase.term(definition.describe(value))
    if definition.type == "bool":
        return Phrase.message(_YES_NO[bool(value)])
    return definition.describe(value)
