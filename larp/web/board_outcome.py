"""What the combat board and the stray-shot screen show of a ruling (issue 36, new-user test 7): its data
as the record and the API keep it (``to_dict``: each step's English text and rule), with each step's phrase
data (``said``) put back beside its text so that the ``step_text`` filter says a pair's, a bystander's and a
hit's steps in the reader's language, and each hit's armor steps picked out.

The ``said`` data comes from the ruling's own steps: the live ruling's objects before it is recorded, the
record's steps (which keep it) after; a step found in neither stays in English.
"""

from __future__ import annotations

from typing import Any, Iterable

from larp.i18n import step_text


def _said_by_text(steps: Iterable[Any]) -> dict[str, dict[str, Any]]:
    """Each step's phrase data by its English text (the first one written wins)."""
    found: dict[str, dict[str, Any]] = {}
    for step in steps:
        data = step.to_record() if hasattr(step, "to_record") else step
        if isinstance(data, dict) and data.get("said"):
            found.setdefault(data["text"], data["said"])
    return found


def live_steps(ruling: Any) -> list[Any]:
    """Every step a live ruling holds: its own, its pairs' or bystanders' and its hits'."""
    steps = list(ruling.steps)
    for part in list(getattr(ruling, "pairs", ())) + list(getattr(ruling, "bystanders", ())):
        if part.ruling is not None:
            steps += list(part.ruling.steps)
    for hit in ruling.hits:
        steps += list(hit.steps)
    return steps


def _with_said(steps: list[dict[str, Any]], said: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """``steps`` (stored dicts) with the phrase data of those ``said`` knows."""
    return [dict(s, said=said[s["text"]]) if not s.get("said") and s.get("text") in said else s for s in steps]


def board_outcome(data: dict[str, Any], steps: Iterable[Any], key: str, name: str) -> dict[str, Any]:
    """``data`` (a ruling's ``to_dict``, or a record's outcome) with its steps' phrase data from ``steps``,
    ``by_name`` (its ``key`` list — ``pairs`` or ``bystanders`` — by each one's ``name`` field) and each hit's
    ``armor_steps`` (what the armor absorbed, or why it did not: used up, armor-piercing, fire), in the
    reader's language."""
    said = _said_by_text(steps)
    parts = []
    for part in data.get(key, []):
        if part.get("ruling"):
            part = dict(part, ruling=dict(part["ruling"], steps=_with_said(part["ruling"].get("steps", []), said)))
        parts.append(part)
    hits = []
    for hit in data.get("hits", []):
        hit_steps = _with_said(hit.get("steps", []), said)
        armor = [step_text(s) for s in hit_steps
                 if "armor" in s.get("rule", "").lower() or "Armor-Piercing" in s.get("text", "")]
        hits.append(dict(hit, steps=hit_steps, armor_steps=armor))
    return {**data, key: parts, "hits": hits, "by_name": {p[name]: p for p in parts},
            "forced": forced_retests(parts, name, data.get("steps", []), said)}


#: Where the forced retest of total darkness is ruled (seed 002 "Darkness").
DARKNESS_RULE = '002 "Darkness"'


def forced_retests(parts: list[dict[str, Any]], name: str, steps: Iterable[dict[str, Any]],
                   said: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The tests (a missed shot's bystanders) or pairs (a mass challenge's) whose forced darkness retest is due
    (seed 002 "Darkness": the winner in total darkness must retest), as the rules core says it: each part whose
    ``options.forced_retest`` names the side that must retest (``challenger``: the firer or the attacker;
    ``defender``: the bystander or the target), with ``part`` its name and ``steps`` the ruling's own steps
    about it (the core's words and rule). Empty when none is due: the screen then offers Record as it stands."""
    out = []
    for part in parts:
        by = (part.get("options") or {}).get("forced_retest")
        if not by or part.get("outcome"):
            continue
        mine = [s for s in steps if s.get("rule") == DARKNESS_RULE and part[name] in s.get("text", "")]
        out.append({"part": part[name], "by": by, "steps": _with_said(mine, said)})
    return out
