"""The demo chronicle, loaded from ``data/demo/chronicle.toml`` on first start."""

from __future__ import annotations

from datetime import date

from larp.db import db
from larp.models import Chronicle
from larp.rules.explain import RulesError
from larp.services.characters import create_character
from larp.services.chronicles import open_first_game_session
from larp.sheet import CharacterSheet
from larp.tables import TableError, load_toml


def demo_sheets() -> tuple[str, list[CharacterSheet]]:
    """The demo chronicle's name and its character sheets.

    Raises:
        TableError: the demo file is malformed (names the character).
    """
    raw = load_toml("demo/chronicle.toml")
    name = raw.get("chronicle", {}).get("name")
    if not isinstance(name, str) or not name:
        raise TableError("data/demo/chronicle.toml [chronicle]: missing 'name'")
    sheets = []
    for index, entry in enumerate(raw.get("character", [])):
        entry = dict(entry)
        entry["abilities"] = {k.replace("_", " "): v for k, v in (entry.get("abilities") or {}).items()}
        try:
            sheets.append(CharacterSheet.from_dict(entry))
        except RulesError as exc:
            raise TableError(f"data/demo/chronicle.toml character[{index}]: {exc.message}") from None
    return name, sheets


def ensure_demo_chronicle(today: date | None = None) -> Chronicle | None:
    """Create the demo chronicle, its characters and game session 1 if the
    database has no chronicle yet; return it (``None`` if a chronicle exists).

    ``today`` dates the first game session (default: the server's date).
    """
    if Chronicle.select().exists():
        return None
    name, sheets = demo_sheets()
    with db.atomic():
        chronicle = Chronicle.create(name=name)
        for sheet in sheets:
            create_character(chronicle, sheet)
        open_first_game_session(chronicle, today or date.today())
    return chronicle
