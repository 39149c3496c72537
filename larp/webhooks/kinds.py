"""The events a webhook can be sent, and what each carries at each privacy level (issue 35).

Plain data and pure functions (no Flask, no database). Two privacy levels:

- **staff**: everything but narrator notes and players' contact details (those two are taken out
  of every event, at any depth, whatever put them there);
- **public**: only what a player could see of another character: names, Final Death, game
  sessions, who is at the game. The events that would carry more (a ruling's outcome, torpor,
  experience) are not sent to a public webhook at all, and a public webhook cannot ask for them.

Every event, at both levels, carries the envelope :data:`ENVELOPE`. The README's table of event
fields is :func:`field_table` (a test keeps the two the same).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from larp.i18n import N_

#: A field list: name to its own fields (an object or a list of objects), or ``None`` for a value.
Fields = Mapping[str, "Fields | None"]

STAFF, PUBLIC = "staff", "public"
LEVELS = (STAFF, PUBLIC)

#: What is never sent, at any level and any depth (issue 35: "everything but narrator notes and
#: players' contact details").
NEVER_SENT = frozenset({"narrator_notes", "player_contact", "contact"})

#: The fields of every event at every level.
ENVELOPE: Fields = {
    "event_id": None,       # a UUID, the same on every retry and for every webhook
    "event": None,          # the kind, e.g. "ruling_recorded"
    "occurred_at": None,    # UTC, ISO 8601 with a Z
    "chronicle": {"id": None, "name": None},
    "privacy": None,        # "staff" or "public"
    "test": None,           # true only for the settings page's "Send a test"
}

#: A ruling as ``GET /api/v1/rulings/{id}`` shapes it (its ``url`` made absolute).
RULING: Fields = {
    "id": None, "kind": None, "summary": None, "created_at": None, "narrator": None, "game_session": None,
    "undone_at": None, "characters": {"id": None, "name": None, "role": None}, "url": None,
    "inputs": None, "outcome": None, "steps": {"text": None, "rule": None, "setting": None},
}
#: The ruling behind an event, in short.
RULING_LINK: Fields = {"id": None, "summary": None, "url": None}
CHARACTER: Fields = {"id": None, "name": None}
CHARACTER_NAME: Fields = {"name": None}
SESSION: Fields = {"number": None, "date": None}


@dataclass(frozen=True)
class EventKind:
    """One kind of event a webhook may be sent.

    Attributes:
        key: its name in the ``event`` field and the API (``ruling_recorded``).
        label: its name on the settings page.
        help: when it happens.
        staff: its fields (besides :data:`ENVELOPE`) at the staff level.
        public: its fields at the public level, or ``None``: never sent to a public webhook.
    """

    key: str
    label: str
    help: str
    staff: Fields
    public: Fields | None

    def fields(self, level: str) -> Fields | None:
        """The event's own fields at ``level`` (``None``: not sent at that level)."""
        return self.staff if level == STAFF else self.public


#: The rulings that are "a ruling recorded": the adjudications of a game night and its aftermath.
#: A sheet edit, an import, a setting, a card, a token, a game session (its own event) or the
#: refresh for the next game session is not one.
ADJUDICATIONS = frozenset({
    "challenge", "mass_combat", "firing_into_group", "tabletop", "damage", "healing", "feeding", "blood",
    "narrator", "aegis", "torpor", "wake", "treatment",
})

EVENTS: dict[str, EventKind] = {kind.key: kind for kind in (
    EventKind("ruling_recorded", N_("Ruling recorded"),
              N_("Every ruling of the night: challenges, combat, damage, healing, feeding, blood, torpor, waking, "
              "Aegis, medical care (not sheet edits, imports or settings)."),
              {"ruling": RULING}, None),
    EventKind("ruling_undone", N_("Ruling undone"),
              N_("An organiser or the narrator undid a ruling."),
              {"ruling": RULING, "undone_ruling": {"id": None, "kind": None, "summary": None, "url": None}}, None),
    EventKind("torpor", N_("Torpor"),
              N_("A vampire falls into torpor (wounds, blood loss, or recorded by an organiser)."),
              {"character": CHARACTER, "cause": None, "length": None, "wake_on": None, "wake_session": None,
               "game_session": None, "ruling": RULING_LINK}, None),
    EventKind("final_death", N_("Final Death"),
              N_("A vampire meets Final Death, or a mortal or ghoul dies."),
              {"character": CHARACTER, "condition": None, "game_session": None, "ruling": RULING_LINK},
              {"character": CHARACTER_NAME, "condition": None, "game_session": None}),
    EventKind("game_session", N_("Game session opened or closed"),
              N_("Between game sessions: the open game session closed and the next one opened."),
              {"closed": SESSION, "opened": SESSION, "ruling": RULING_LINK},
              {"closed": SESSION, "opened": SESSION}),
    EventKind("check_in", N_("Check-in"),
              N_("A character checked in at the door."),
              {"character": CHARACTER, "player_name": None, "game_session": None, "checked_in_by": None},
              {"character": CHARACTER_NAME, "game_session": None}),
    EventKind("experience_approved", N_("Experience request approved"),
              N_("An organiser approved a player's request to spend experience."),
              {"character": CHARACTER, "amount": None, "what": None, "game_session": None, "approved_by": None,
               "ruling": RULING_LINK}, None),
)}


def public_kinds() -> list[str]:
    """The event kinds a public webhook may be sent."""
    return [key for key, kind in EVENTS.items() if kind.public is not None]


def sent_at(kind: str, level: str) -> bool:
    """Whether an event of ``kind`` is sent to a webhook of privacy ``level``."""
    event = EVENTS.get(kind)
    return event is not None and event.fields(level) is not None


def _pick(value: Any, fields: Fields | None) -> Any:
    if fields is None:
        return without_private(value)
    if isinstance(value, list):
        return [_pick(item, fields) for item in value]
    if not isinstance(value, Mapping):
        return value  # null (no ruling, no closed game session)
    return {name: _pick(value[name], sub) for name, sub in fields.items() if name in value}


def without_private(value: Any) -> Any:
    """``value`` (JSON data) without any :data:`NEVER_SENT` key, at any depth."""
    if isinstance(value, Mapping):
        return {k: without_private(v) for k, v in value.items() if k not in NEVER_SENT}
    if isinstance(value, list):
        return [without_private(item) for item in value]
    return value


def shaped(payload: Mapping[str, Any], level: str) -> dict[str, Any] | None:
    """The event ``payload`` (as written, at the staff level, with its envelope) as a webhook of
    privacy ``level`` gets it: exactly the documented fields of its kind at that level (a field
    the payload lacks stays out), narrator notes and contact details never; ``None`` when the
    kind is not sent at that level."""
    kind = EVENTS.get(payload.get("event", ""))
    fields = kind.fields(level) if kind else None
    if fields is None:
        return None
    body = _pick(payload, {**ENVELOPE, **fields})
    body["privacy"] = level
    return body


def _describe(fields: Fields) -> str:
    parts = []
    for name, sub in fields.items():
        parts.append(f"{name} ({_describe(sub)})" if sub else name)
    return ", ".join(parts)


def field_table() -> list[tuple[str, str, str, str]]:
    """Every event as (key, label, staff fields, public fields) in words: the README's table.
    "not sent" where a public webhook does not get it."""
    return [(kind.key, kind.label, _describe(kind.staff), _describe(kind.public) if kind.public else N_("not sent"))
            for kind in EVENTS.values()]
