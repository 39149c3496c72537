"""What is sent to a webhook and what its answer means (issue 35): pure functions, no network, no database.

Two formats:

- **Discord** (a Discord channel webhook's URL, or chosen): :func:`larp.webhooks.discord.discord_message`.
- **Signed JSON** (any other URL): the event as :func:`larp.webhooks.kinds.shaped` gives it, its
  links absolute, as UTF-8 JSON, with the headers ``X-Larp-Event`` (the kind), ``X-Larp-Event-Id``
  (the event id, the same on a retry) and ``X-Larp-Signature-256: sha256=<hex>``, the
  HMAC-SHA256 of the exact body with the webhook's secret. A receiver computes the same over the
  bytes it got and compares (``hmac.compare_digest``), and skips an event id it has seen.

A body is bounded (:data:`MAX_BODY_BYTES` by default): a ruling too long for it is sent without its
inputs, outcome and steps (``"truncated": true``; its ``url`` and the API have it whole).

The answer decides what happens next (:func:`classify`): 2xx delivered; 429 wait as long as
``retry_after`` (or ``Retry-After``) says, which is not a failure; 401, 404 and 410 (a deleted
webhook) and any redirect stop the webhook; 400, 413 and 422 fail this event only (the same body
would fail again); anything else, or no answer, is retried with back-off.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

from larp.i18n import N_
from larp.webhooks.discord import discord_message, is_discord_url
from larp.webhooks.kinds import EVENTS, PUBLIC, sent_at
from larp.webhooks.sending import Answer, AddressRefused, parse_target

SIGNATURE_HEADER = "X-Larp-Signature-256"
EVENT_HEADER = "X-Larp-Event"
EVENT_ID_HEADER = "X-Larp-Event-Id"
#: The largest body sent (bytes); see the module docstring.
MAX_BODY_BYTES = 128 * 1024
#: How long to wait after a 429 that says nothing (seconds).
DEFAULT_RETRY_AFTER = 5.0
#: Why a webhook was stopped (``Webhook.stopped_reason`` keeps them in English, as the API gives them;
#: the pages say them in the reader's language, :func:`stopped_reason_parts`). ``said``: "HTTP 404 Not Found".
REDIRECTED = N_("%(said)s: it answered with a redirect, which is never followed. Paste the address it now lives at.")
GONE = N_("%(said)s: the webhook was deleted or its address is wrong (for Discord: make a new one and paste its URL).")
#: What the receiver answered, after the reason (its own words, not translated).
IT_SAID = N_("It said: %(excerpt)s")

DELIVERED, RETRY, RATE_LIMITED, FAILED, STOPPED = "delivered", "retry", "rate_limited", "failed", "stopped"


def sends_as(format_: str, url: str) -> str:
    """The format a webhook's messages take: "discord" or "json" (``format_`` "auto": Discord's for
    a Discord channel webhook's URL, signed JSON for any other)."""
    if format_ in ("discord", "json"):
        return format_
    try:
        target = parse_target(url)
    except AddressRefused:
        return "json"
    return "discord" if is_discord_url(target.host, target.path.split("?", 1)[0]) else "json"


def mask_url(url: str) -> str:
    """``url`` as the screen may show it: scheme and host, then only its last four characters
    ("https://discord.com/…/••••x9Zq"), since the rest is the secret that lets anyone post."""
    try:
        target = parse_target(url)
    except AddressRefused:
        return "••••"
    port = "" if target.port in (80, 443) else f":{target.port}"
    tail = url.strip()[-4:] if len(target.path) > 8 else ""
    return f"{target.scheme}://{target.host}{port}/…/••••{tail}"


def absolute_links(value: Any, base: str) -> Any:
    """``value`` (an event's JSON) with every ``url`` that is a path of this app made absolute on ``base``."""
    if isinstance(value, Mapping):
        return {k: (base.rstrip("/") + v if k == "url" and isinstance(v, str) and v.startswith("/") and base
                    else absolute_links(v, base)) for k, v in value.items()}
    if isinstance(value, list):
        return [absolute_links(item, base) for item in value]
    return value


def sign(secret: str, body: bytes) -> str:
    """The ``X-Larp-Signature-256`` value of ``body``: ``sha256=`` and the hex HMAC-SHA256 with ``secret``."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def _dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def json_body(event: Mapping[str, Any], max_bytes: int = MAX_BODY_BYTES) -> bytes:
    """``event`` as the signed-JSON body, within ``max_bytes``: a ruling that does not fit loses its
    inputs, outcome and steps (``"truncated": true``), and if it still does not fit only the envelope
    and the ruling's id and address are sent."""
    body = _dumps(event)
    if len(body) <= max_bytes:
        return body
    smaller = dict(event, truncated=True)
    for key in ("ruling", "undone_ruling"):
        if isinstance(smaller.get(key), Mapping):
            smaller[key] = {k: v for k, v in smaller[key].items() if k not in ("inputs", "outcome", "steps")}
    body = _dumps(smaller)
    if len(body) <= max_bytes:
        return body
    least = {k: event[k] for k in ("event_id", "event", "occurred_at", "privacy", "test") if k in event}
    least["truncated"] = True
    if isinstance(event.get("ruling"), Mapping):
        least["ruling"] = {k: event["ruling"][k] for k in ("id", "url") if k in event["ruling"]}
    return _dumps(least)


def build_request(event: Mapping[str, Any], *, format_: str, secret: str, chronicle_name: str,
                  max_bytes: int = MAX_BODY_BYTES) -> tuple[bytes, dict[str, str]]:
    """The body and headers of one delivery of ``event`` (already shaped for the webhook's privacy,
    links absolute) in the webhook's format ("discord" or "json"; see the module docstring)."""
    headers = {"Content-Type": "application/json", EVENT_HEADER: str(event.get("event", "")),
               EVENT_ID_HEADER: str(event.get("event_id", ""))}
    if format_ == "discord":
        return _dumps(discord_message(event, chronicle_name)), headers
    body = json_body(event, max_bytes)
    headers[SIGNATURE_HEADER] = sign(secret, body)
    return body, headers


@dataclass(frozen=True)
class Outcome:
    """What an answer means for the delivery: ``state`` (delivered, retry, rate_limited, failed,
    stopped), ``wait`` seconds before the next try (rate_limited), ``error`` in words (not delivered)."""

    state: str
    wait: float = 0.0
    error: str = ""


def _excerpt(answer: Answer, most: int = 200) -> str:
    text = answer.body[: most * 4].decode("utf-8", "replace")
    text = re.sub(r"[\x00-\x1f\x7f]+", " ", text).strip()
    return text[:most] + ("…" if len(text) > most else "")


def _retry_after(answer: Answer) -> float:
    """Seconds a 429 asks to wait: Discord's JSON ``retry_after``, else ``Retry-After`` (seconds)."""
    try:
        data = json.loads(answer.body.decode("utf-8"))
        if isinstance(data, dict) and isinstance(data.get("retry_after"), (int, float)) and data["retry_after"] >= 0:
            return float(data["retry_after"])
    except (ValueError, UnicodeDecodeError):
        pass
    try:
        return max(0.0, float(answer.headers.get("retry-after", "")))
    except ValueError:
        return DEFAULT_RETRY_AFTER


def classify(answer: Answer) -> Outcome:
    """What ``answer`` means (see the module docstring)."""
    if answer.status is None:
        return Outcome(RETRY, error=answer.error or "No answer.")
    said = f"HTTP {answer.status} {answer.reason}".strip()
    excerpt = _excerpt(answer)
    if 200 <= answer.status < 300:
        return Outcome(DELIVERED)
    if answer.status == 429:
        return Outcome(RATE_LIMITED, wait=_retry_after(answer), error=f"{said} (rate limited)")
    if 300 <= answer.status < 400:
        return Outcome(STOPPED, error=REDIRECTED % {"said": said})
    if answer.status in (401, 404, 410):
        return Outcome(STOPPED, error=GONE % {"said": said} + (" " + IT_SAID % {"excerpt": excerpt} if excerpt else ""))
    if answer.status in (400, 413, 422):
        return Outcome(FAILED, error=f"{said}: it refused this event." + (f" It said: {excerpt}" if excerpt else ""))
    return Outcome(RETRY, error=said + (f": {excerpt}" if excerpt else ""))


def _pattern(message: str) -> str:
    """A regular expression matching ``message`` with any text in its ``%(name)s`` placeholders."""
    return re.sub(r"%\\\((\w+)\\\)s", r"(?P<\1>.*?)", re.escape(message))


_STOPPED = [(message, re.compile(_pattern(message) + "(?: " + _pattern(IT_SAID) + ")?", re.S))
            for message in (REDIRECTED, GONE)]


def stopped_reason_parts(reason: str) -> list[tuple[str, dict[str, str]]] | None:
    """The messages (message id, parameters) that ``reason`` (a ``Webhook.stopped_reason`` written by
    :func:`classify`) is made of, for a page to say in its reader's language; ``None`` for a reason in
    other words (written by an earlier version), shown as it is."""
    for message, pattern in _STOPPED:
        found = pattern.fullmatch(reason)
        if found:
            parts = [(message, {"said": found["said"]})]
            if found["excerpt"] is not None:
                parts.append((IT_SAID, {"excerpt": found["excerpt"]}))
            return parts
    return None


def backoff(attempts: int, first: float, most: float) -> float:
    """Seconds before try ``attempts + 1`` after ``attempts`` failures: ``first``, doubling, at most ``most``."""
    return min(most, first * (2 ** max(0, attempts - 1)))


#: A sample of each event for the test button, as the outbox would write it (staff level).
_SAMPLE_RULING = {
    "id": 0, "kind": "challenge", "summary": "Test: Konrad Vale wins the physical challenge against Teodor Brandt.",
    "created_at": None, "narrator": "larp", "game_session": None, "undone_at": None,
    "characters": [{"id": 0, "name": "Konrad Vale", "role": "challenger"},
                   {"id": 0, "name": "Teodor Brandt", "role": "defender"}],
    "url": None, "inputs": {}, "outcome": {},
    "steps": [{"text": "A sample step: this is what a ruling's explanation looks like.", "rule": "002 \"Challenges\""}],
}
_SAMPLES: dict[str, dict[str, Any]] = {
    "ruling_recorded": {"ruling": _SAMPLE_RULING},
    "ruling_undone": {"ruling": dict(_SAMPLE_RULING, kind="undo", summary="Test: undo of a sample ruling."),
                      "undone_ruling": {"id": 0, "kind": "challenge", "summary": _SAMPLE_RULING["summary"], "url": None}},
    "torpor": {"character": {"id": 0, "name": "Konrad Vale"}, "cause": "wounds", "length": "a week", "wake_on": None,
               "wake_session": None, "game_session": None, "ruling": {"id": 0, "summary": "Test", "url": None}},
    "final_death": {"character": {"id": 0, "name": "Konrad Vale"}, "condition": "final_death", "game_session": None,
                    "ruling": {"id": 0, "summary": "Test", "url": None}},
    "game_session": {"closed": {"number": 1, "date": "2026-01-01"}, "opened": {"number": 2, "date": "2026-01-15"},
                     "ruling": {"id": 0, "summary": "Test", "url": None}},
    "check_in": {"character": {"id": 0, "name": "Konrad Vale"}, "player_name": "A player", "game_session": None,
                 "checked_in_by": "larp"},
    "experience_approved": {"character": {"id": 0, "name": "Konrad Vale"}, "amount": "3", "what": "Test: Dominate 2",
                            "game_session": None, "approved_by": "larp", "ruling": {"id": 0, "summary": "Test", "url": None}},
}


def sample_event(events: list[str], level: str) -> tuple[str, dict[str, Any]]:
    """The kind and staff-level payload (without envelope) of the test button's event: the first
    of ``events`` sent at ``level`` (a ruling recorded for staff, a game session for public, when none is)."""
    for kind in events:
        if kind in _SAMPLES and sent_at(kind, level):
            return kind, _SAMPLES[kind]
    kind = "game_session" if level == PUBLIC else "ruling_recorded"
    assert kind in EVENTS
    return kind, _SAMPLES[kind]
