"""The values of a chronicle export's characters, checked before anything is imported (issue 14).

A character's sheet is checked by the editor's own validator
(:meth:`larp.sheet.CharacterSheet.from_dict`), so ``larp import`` refuses what the
editor and the API refuse; its state (condition, damage, stake, the weapon in
hand, current Willpower and blood, card code and token, dates) is checked here
against what the pages that show it can read. A refused file names the
character and the field, and nothing is imported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from larp.grapevine.kept import problems_with
from larp.rules import experience as experience_rules
from larp.models import Character
from larp.rules.damage import armory
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError
from larp.sheet import CharacterSheet
from larp.sheet_entries import CATEGORIES
from larp.sheet_checks import LIMITS, SheetError, known_power

#: The sheet fields of an export's character entry (the rest is state or bookkeeping).
SHEET_SCALARS = (
    "name", "player_name", "creature", "clan", "sect", "title", "generation", "morality_name", "morality_rating",
    "willpower_permanent", "blood_max", "blood_per_turn", "notes", "narrator_notes", "player_contact", "tabletop",
    "health_levels", "nature", "demeanor", "virtues", "derangements", "scene_extra",
)
#: Most health levels of damage of one type a stored character may carry (a track is at most 20 levels).
MOST_DAMAGE = 20
_CODE = re.compile(r"[A-Z0-9]{1,12}")
_TOKEN = re.compile(r"[A-Z2-7]{32}")


@dataclass(frozen=True)
class ImportedCharacter:
    """An export's character, checked: its sheet and the state columns to store."""

    sheet: CharacterSheet
    state: dict[str, Any]


def _fail(index: int, name: str, field: str, message: str) -> ServiceError:
    who = Phrase.message(N_("Character %(n)s (%(name)s)"), n=index + 1, name=name) if name \
        else Phrase.message(N_("Character %(n)s"), n=index + 1)
    return ServiceError(Phrase.message(N_("%(who)s: %(message)s Nothing was imported."),
                                       who=who, message=message), field=f"characters.{index}.{field}")


def _sheet_data(entry: dict[str, Any], version: int) -> dict[str, Any]:
    """The entry's sheet in :meth:`CharacterSheet.from_dict`'s shape (export format 1 or 2)."""
    data: dict[str, Any] = {k: entry[k] for k in SHEET_SCALARS if k in entry}
    traits: dict[str, list] = {c: [] for c in CATEGORIES}
    negative: dict[str, list] = {c: [] for c in CATEGORIES}
    for row in entry.get("traits") or []:
        category, name, count, is_negative = row
        target = negative if is_negative else traits
        if category not in target:
            raise ValueError(f"unknown Trait category {category!r}")
        target[category].append({"name": name, "count": count})
    data["traits"], data["negative_traits"] = traits, negative
    data["abilities"], data["specialisations"] = {}, {}
    for row in entry.get("abilities") or []:
        data["abilities"][row[0]] = row[1]
        if len(row) > 2 and row[2]:
            data["specialisations"][row[0]] = row[2]
    data["powers"] = []
    for row in entry.get("powers") or []:
        discipline, power, level = row[:3]
        # Format 1 has no custom flag: a power outside the table was imported as written then.
        custom = row[3] if len(row) > 3 else known_power(str(discipline), str(power)) is None
        data["powers"].append({"discipline": discipline, "power": power, "level": level, "custom": custom})
    data["backgrounds"] = {row[0]: row[1] for row in entry.get("backgrounds") or []}
    data["merits"], data["flaws"] = [], []
    for kind, key, name, cost, note in entry.get("merits_flaws") or []:
        if kind not in ("merit", "flaw"):
            raise ValueError(f"unknown kind {kind!r} of Merit or Flaw")
        data["merits" if kind == "merit" else "flaws"].append({"key": key, "name": name, "cost": cost, "note": note})
    data["weapons"], data["armor"] = [], []
    for row in entry.get("equipment") or []:
        if row.get("kind") == "weapon":
            data["weapons"].append({**row, "kind": row.get("weapon_kind", "blade")})
        elif row.get("kind") == "armor":
            data["armor"].append(row)
        else:
            raise ValueError(f"unknown kind {row.get('kind')!r} of equipment")
    return data


def _count(value: Any, index: int, name: str, field: str, low: int, high: int, label: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(index, name, field, f"{label} must be a whole number from {low} to {high}, not {value!r}.")
    return value


def check_character(entry: Any, index: int, version: int) -> ImportedCharacter:
    """Check one character entry of an export (format ``version``) and return what to store.

    Raises:
        ServiceError: 422 naming the character and the field: a sheet value the
            editor refuses (an unknown creature, a count out of range, a generation
            outside the table...), an unknown condition, negative or impossible
            damage, a stake on a non-vampire, a weapon not in the armory, current
            Willpower or blood outside the sheet's limits, a malformed card code,
            card token, version or date, data kept from a Grapevine import of
            the wrong shape or size (:func:`larp.grapevine.kept.problems_with`).
    """
    if not isinstance(entry, dict):
        raise ServiceError(Phrase.message(N_("Character %(n)s is not a table of fields. Nothing was imported."),
                                          n=index + 1),
                           field=f"characters.{index}")
    name = entry.get("name") if isinstance(entry.get("name"), str) else ""
    try:
        sheet = CharacterSheet.from_dict(_sheet_data(entry, version))
    except SheetError as exc:
        raise _fail(index, name, exc.field or "sheet", exc.message) from None
    except (TypeError, ValueError, KeyError, IndexError) as exc:
        raise _fail(index, name, "sheet", f"cannot read the sheet ({exc}).") from None
    state: dict[str, Any] = {}
    condition = entry.get("condition", "active")
    if condition not in Character.CONDITIONS:
        raise _fail(index, name, "condition", f"unknown condition {condition!r} ({', '.join(Character.CONDITIONS)}).")
    state["condition"] = condition
    for key in ("damage_aggravated", "damage_lethal", "damage_bashing"):
        state[key] = _count(entry.get(key, 0), index, name, key, 0, MOST_DAMAGE,
                            key.replace("damage_", "").capitalize() + " damage")
    staked = entry.get("staked", False)
    if not isinstance(staked, bool):
        raise _fail(index, name, "staked", "staked must be true or false.")
    if staked and sheet.creature != "vampire":
        raise _fail(index, name, "staked", "only a vampire can be staked.")
    state["staked"] = staked
    weapon = entry.get("weapon", "") or ""
    if not isinstance(weapon, str) or (weapon and weapon not in armory("live").weapons):
        raise _fail(index, name, "weapon", f"there is no weapon {weapon!r} in the armory.")
    state["weapon"] = weapon
    for key, full, label in (("willpower_current", sheet.willpower_permanent, "Current Willpower"),
                             ("blood_current", sheet.blood_max, "Current blood")):
        value = entry.get(key)
        state[key] = full if value is None else _count(value, index, name, key, 0, LIMITS[key][1], label)
    code = entry.get("short_code")
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        raise _fail(index, name, "short_code", f"the card code {code!r} is not 1 to 12 capital letters and digits.")
    state["short_code"] = code
    token = entry.get("card_token")
    if token is not None and (not isinstance(token, str) or not _TOKEN.fullmatch(token)):
        raise _fail(index, name, "card_token", "the card token is not 32 base32 characters.")
    state["card_token"] = token
    state["version"] = _count(entry.get("version", 1), index, name, "version", 1, 2**31 - 1, "The version")
    # The printed sheet's edition and its last print (issue 34); an export from before editions has
    # none, and the import counts it from the History (larp.services.editions.editions_from_history).
    if "sheet_edition" in entry:
        state["sheet_edition"] = _count(entry["sheet_edition"], index, name, "sheet_edition", 1, 2**31 - 1,
                                        "The sheet's edition")
    printed = entry.get("sheet_printed_edition")
    if printed is not None:
        state["sheet_printed_edition"] = _count(printed, index, name, "sheet_printed_edition", 1, 2**31 - 1,
                                                "The edition last printed")
    kept = entry.get("imported_unused") or {}
    refused = problems_with(kept)  # what a Grapevine import kept unused (larp.grapevine.kept)
    if refused:
        raise _fail(index, name, "imported_unused", f"{refused[0][0].upper()}{refused[0][1:]}.")
    state["imported_unused"] = kept
    marked = entry.get("agg_blood_marked", 0)
    state["agg_blood_marked"] = _count(marked if marked is not None else 0, index, name, "agg_blood_marked", 0,
                                       LIMITS["blood_max"][1], "Blood marked toward an aggravated wound")
    treated = entry.get("treated", False)
    if not isinstance(treated, bool):
        raise _fail(index, name, "treated", "treated (under medical care) must be true or false.")
    state["treated"] = treated
    frenzy = entry.get("frenzy", "")
    if frenzy not in ("", "frenzy", "rotschreck"):
        raise _fail(index, name, "frenzy", "frenzy must be \"frenzy\", \"rotschreck\" or \"\" (neither).")
    state["frenzy"] = frenzy
    for key in ("created_at", "updated_at", "retired_at", "card_revoked_at", "sheet_printed_at"):
        value = entry.get(key)
        if value is None:
            continue
        try:
            state[key] = datetime.fromisoformat(value)
        except (TypeError, ValueError):
            raise _fail(index, name, key, f"{key} {value!r} is not a date and time.") from None
    return ImportedCharacter(sheet, state)


def check_experience(entry: Any, index: int, version: int) -> tuple[str, Any, str]:
    """One line of an export's experience log, checked with the rules every writer of the log uses
    (:func:`larp.rules.experience.check_line`: a kind of the log, an exact amount, a reason kept
    whole): a zero-point comment, half a point, a "set unspent" line and a 600-character reason all
    come back. Format 3 writes amounts as decimal texts (``"0.5"``); formats 1 and 2 as whole numbers.

    Returns:
        ``(kind, amount, reason)`` to store.

    Raises:
        ServiceError: 422 naming the line and what is wrong with it; nothing is imported.
    """
    if not isinstance(entry, dict):
        raise ServiceError(Phrase.message(N_("Experience line %(n)s is not a table of fields. Nothing was imported."),
                                          n=index + 1),
                           field=f"experience.{index}")
    amount = entry.get("amount")
    if version < 3 and isinstance(amount, str):
        amount = None  # formats 1 and 2 wrote whole numbers
    try:
        return experience_rules.check_line(entry.get("kind"), amount, entry.get("what", ""), text=version >= 3)
    except experience_rules.ExperienceError as exc:
        raise ServiceError(Phrase.message(N_("Experience line %(n)s: %(message)s Nothing was imported."),
                                          n=index + 1, message=exc.message),
                           field=f"experience.{index}.{exc.field}") from None
