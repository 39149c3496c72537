"""Discord's message format for an event (issue 35; stack-notes 8.2), within Discord's limits.

One embed per message: a title, the ruling's outcome line and its steps (as many whole steps as
the limits leave room for, then how many more the record holds), the record's address as the
title's link, a footer with the chronicle, the game session and the narrator, and the time.
Pure functions over the event as :func:`larp.webhooks.kinds.shaped` gives it (links already
absolute); no network, no database.

Text typed by people (names, summaries, steps) is escaped for Discord's markdown where Discord
renders it (the description), so a character called ``[Click](http://…)`` is not a link, and no
message may ping anyone (``allowed_mentions`` parses nothing, so ``@everyone`` in a name is text).
"""

from __future__ import annotations

import re
from typing import Any, Mapping

#: Discord's documented limits (stack-notes 8.2), in characters.
LIMITS = {"content": 2000, "embeds": 10, "title": 256, "description": 4096, "fields": 25, "field_name": 256,
          "field_value": 1024, "footer": 2048, "author": 256, "total": 6000}
#: The longest step line kept whole; a longer one is cut.
STEP_LINE_MAX = 1000

#: The embed's colour per event (Discord takes an RGB integer).
COLOURS = {"ruling_recorded": 0x5865F2, "ruling_undone": 0xE67E22, "torpor": 0x8E44AD, "final_death": 0x992D22,
           "game_session": 0x95A5A6, "check_in": 0x2ECC71, "experience_approved": 0xF1C40F}

#: What Discord's hosts for webhooks are called (a URL of one of them gets this format by default).
DISCORD_HOSTS = frozenset({"discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com",
                           "ptb.discordapp.com", "canary.discordapp.com"})
_WEBHOOK_PATH = re.compile(r"^/api(/v\d+)?/webhooks/\d+/[^/]+/?$")

_MARKDOWN = re.compile(r"([\\*_~`|>\[\]()#<:-])")

_KIND_WORDS = {
    "challenge": "Challenge", "mass_combat": "Mass combat", "firing_into_group": "Firing into a group",
    "tabletop": "Tabletop combat", "damage": "Damage", "healing": "Healing", "feeding": "Feeding", "blood": "Blood",
    "narrator": "Narrator's ruling", "aegis": "Aegis", "torpor": "Torpor", "wake": "Waking",
    "treatment": "Treatment", "undo": "Undo",
}


def is_discord_url(host: str, path: str) -> bool:
    """Whether ``host`` and ``path`` are a Discord channel webhook's (``/api/webhooks/<id>/<token>``)."""
    return host.lower().rstrip(".") in DISCORD_HOSTS and bool(_WEBHOOK_PATH.match(path))


def length(text: str) -> int:
    """``text``'s length as Discord counts it, or more: in UTF-16 code units (an emoji counts two),
    so that a message measured here is never longer there."""
    return len(text.encode("utf-16-le")) // 2


def escape(text: str) -> str:
    """``text`` with Discord's markdown characters escaped (a backslash before each), so names and
    steps show as typed and can make no link, heading or mention."""
    return _MARKDOWN.sub(r"\\\1", str(text))


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters (:func:`length`), ending in "…" when cut, never in the
    middle of an escape (a lone backslash would escape the "…")."""
    if length(text) <= limit:
        return text
    out = text[: max(0, limit - 1)]
    while out and length(out) > limit - 1:  # a character beyond the Basic Multilingual Plane counts two
        out = out[:-1]
    if (len(out) - len(out.rstrip("\\"))) % 2 == 1:  # an escape cut in two
        out = out[:-1]
    return out + "…"


def embed_length(embed: Mapping[str, Any]) -> int:
    """The characters of ``embed`` that count toward Discord's 6,000 per message: title, description,
    field names and values, footer text and author name."""
    total = length(embed.get("title", "")) + length(embed.get("description", ""))
    for item in embed.get("fields", []):
        total += length(item.get("name", "")) + length(item.get("value", ""))
    total += length(embed.get("footer", {}).get("text", "")) + length(embed.get("author", {}).get("name", ""))
    return total


def limit_problems(message: Mapping[str, Any]) -> list[str]:
    """Every way ``message`` breaks Discord's documented limits (:data:`LIMITS`), as sentences
    (empty when it keeps them all)."""
    problems = []
    if length(message.get("content") or "") > LIMITS["content"]:
        problems.append("content is longer than 2,000")
    embeds = message.get("embeds", [])
    if len(embeds) > LIMITS["embeds"]:
        problems.append("more than 10 embeds")
    for embed in embeds:
        for key, limit in (("title", "title"), ("description", "description")):
            if length(embed.get(key, "")) > LIMITS[limit]:
                problems.append(f"{key} is longer than {LIMITS[limit]:,}")
        if len(embed.get("fields", [])) > LIMITS["fields"]:
            problems.append("more than 25 fields")
        for item in embed.get("fields", []):
            if length(item.get("name", "")) > LIMITS["field_name"] or length(item.get("value", "")) > LIMITS["field_value"]:
                problems.append("a field is too long")
        if length(embed.get("footer", {}).get("text", "")) > LIMITS["footer"]:
            problems.append("footer is longer than 2,048")
        if length(embed.get("author", {}).get("name", "")) > LIMITS["author"]:
            problems.append("author is longer than 256")
    if sum(embed_length(e) for e in embeds) > LIMITS["total"]:
        problems.append("the embeds hold more than 6,000 characters")
    return problems


def _session(number: Any) -> str:
    return f"Game session {number}" if number is not None else ""


def _names(ruling: Mapping[str, Any]) -> str:
    return ", ".join(dict.fromkeys(c.get("name", "") for c in ruling.get("characters") or []))


def _steps(ruling: Mapping[str, Any]) -> list[str]:
    lines = []
    for step in ruling.get("steps") or []:
        text, rule = escape(step.get("text", "")), escape(step.get("rule", ""))
        lines.append(cut(f"• {text}" + (f" — *{rule}*" if rule else ""), STEP_LINE_MAX))
    return lines


def _parts(event: Mapping[str, Any]) -> tuple[str, list[str], list[str], str | None, list[str]]:
    """(title, description lines, step lines, link, footer parts) of one event."""
    kind = event.get("event")
    ruling = event.get("ruling") or {}
    character = (event.get("character") or {}).get("name", "")
    session = event.get("game_session")
    if kind in ("ruling_recorded", "ruling_undone"):
        label = _KIND_WORDS.get(ruling.get("kind", ""), str(ruling.get("kind", "")).replace("_", " ").capitalize())
        names = _names(ruling)
        if kind == "ruling_undone":
            undone = event.get("undone_ruling") or {}
            title = f"Undone: ruling #{undone.get('id', '?')}" + (f" ({names})" if names else "")
            link = undone.get("url") or ruling.get("url")
        else:
            title = f"{label}: {names}" if names else label
            link = ruling.get("url")
        lines = [f"**{escape(ruling.get('summary', ''))}**"]
        if ruling.get("undone_at") and kind == "ruling_recorded":
            lines.append("*(since undone)*")
        footer = [f"Ruling #{ruling.get('id')}", _session(ruling.get("game_session")), ruling.get("narrator") or ""]
        return title, lines, _steps(ruling), link, footer
    if kind == "torpor":
        wake = (f"May try to wake from {event['wake_on']}." if event.get("wake_on") else
                f"May try to wake at game session {event['wake_session']}." if event.get("wake_session") else "")
        lines = [f"Cause: {escape(str(event.get('cause') or 'not recorded').replace('_', ' '))}."]
        if event.get("length"):
            lines.append(f"Length: {escape(event['length'])}.")
        if wake:
            lines.append(wake)
        if (event.get("ruling") or {}).get("summary"):
            lines.append(escape(event["ruling"]["summary"]))
        return f"{character} falls into torpor", lines, [], (event.get("ruling") or {}).get("url"), [_session(session)]
    if kind == "final_death":
        died = "has met Final Death" if event.get("condition") == "final_death" else "is dead"
        lines = [escape(event["ruling"]["summary"])] if (event.get("ruling") or {}).get("summary") else []
        return f"{character} {died}", lines, [], (event.get("ruling") or {}).get("url"), [_session(session)]
    if kind == "game_session":
        opened, closed = event.get("opened") or {}, event.get("closed")
        title = f"Game session {opened.get('number')} opened ({opened.get('date')})"
        lines = [f"Game session {closed.get('number')} ({closed.get('date')}) is closed."] if closed else []
        return title, lines, [], (event.get("ruling") or {}).get("url"), []
    if kind == "check_in":
        lines = [f"Player: {escape(event['player_name'])}"] if event.get("player_name") else []
        if event.get("checked_in_by"):
            lines.append(f"Checked in by {escape(event['checked_in_by'])}.")
        return f"{character} checked in", lines, [], None, [_session(session)]
    if kind == "experience_approved":
        lines = [escape(event.get("what") or "")]
        if event.get("approved_by"):
            lines.append(f"Approved by {escape(event['approved_by'])}.")
        return (f"{character}: {event.get('amount')} experience approved", lines, [],
                (event.get("ruling") or {}).get("url"), [_session(session)])
    return str(kind), [], [], None, []


def discord_message(event: Mapping[str, Any], chronicle_name: str) -> dict[str, Any]:
    """The Discord message for ``event`` (shaped for the webhook's privacy, links absolute): one embed
    within every limit of :data:`LIMITS`, whatever the lengths of its names, summary and steps."""
    title, lines, steps, link, footer_parts = _parts(event)
    if event.get("test"):
        title = "Test from larp: " + title
    footer = cut(" · ".join(p for p in [chronicle_name, *footer_parts] if p), 300)
    embed: dict[str, Any] = {"title": cut(title, LIMITS["title"]), "color": COLOURS.get(event.get("event", ""), 0)}
    budget = min(LIMITS["description"], LIMITS["total"] - length(embed["title"]) - length(footer))
    head = cut("\n".join(line for line in lines if line), min(budget, 1500))
    description = head
    more = "\n… {} more step{} in the record."
    for index, line in enumerate(steps):
        left = len(steps) - index - 1
        room = budget - length(description) - 1 - (length(more.format(left, "s")) if left else 0)
        if length(line) > room:
            rest = len(steps) - index
            description += more.format(rest, "" if rest == 1 else "s")
            break
        description += "\n" + line
    if description:
        embed["description"] = description.lstrip("\n")
    if link and str(link).startswith(("http://", "https://")):
        embed["url"] = link
    if footer:
        embed["footer"] = {"text": footer}
    if event.get("occurred_at"):
        embed["timestamp"] = event["occurred_at"]
    return {"embeds": [embed], "allowed_mentions": {"parse": []}}
