"""The demo chronicle, loaded from ``data/demo/chronicle.toml`` on first start."""

from __future__ import annotations

from datetime import date

from larp.db import db, lock_name
from larp.models import Chronicle
from larp.rules.explain import RulesError
from larp.services.chronicles import open_first_game_session
from larp.services.sheet_store import create_character
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
    """Create the demo chronicle (marked ``is_demo``), its characters and game session 1
    if the database has no chronicle yet; return it (``None`` if a chronicle exists).

    ``today`` dates the first game session (default: the server's date). An
    install whose demo was removed has its empty chronicle instead, so the demo
    never comes back by itself. Two servers starting at once on one new database
    make one demo chronicle.
    """
    if Chronicle.select().exists():
        return None
    name, sheets = demo_sheets()
    with db.atomic():
        # Check-then-write: look again under a lock (an advisory lock on PostgreSQL, as there is no
        # row yet; SQLite's BEGIN IMMEDIATE serialises the two servers already).
        lock_name("demo chronicle")
        if Chronicle.select().exists():
            return None
        chronicle = Chronicle.create(name=name, is_demo=True)
        for sheet in sheets:
            create_character(chronicle, sheet)
        open_first_game_session(chronicle, today or date.today())
    return chronicle


#: The demo's between-sessions state (issue 7): who is hurt, how, and who enters torpor.
DOWNTIME_DAYS = 14


def apply_downtime_demo(chronicle: Chronicle, today: date) -> None:
    """Play out a fortnight on the fresh demo chronicle, so the organiser's board has something to show.

    Game session 1 is dated ``today`` minus 14 days; in it Pim Halloran is
    driven into torpor by lethal wounds (Humanity 4: a week, so he may try to
    wake tonight), Ines Castellano spends her last blood and falls into torpor
    from blood loss, Aldous Whitmore takes two aggravated levels from fire and
    is left with 4 blood points, Marcus Hale (a ghoul) takes two lethal and one
    bashing, and Vivienne Ashcombe spends two Willpower. Then game session 1 is
    closed and game session 2 opened on ``today``. Every change is a recorded
    ruling, as if a narrator had made it. Vivienne, Konrad, Lys, Ruth, Sister
    Agathe and Teodor stay at full health.

    Raises:
        ServiceError: 409 when the chronicle has rulings or more than one game session already.
    """
    from datetime import timedelta

    from larp.models import Character, GameSession, Ruling
    from larp.rules.explain import N_, Phrase, phrase_step
    from larp.rules.health import apply_damage
    from larp.services import ServiceError
    from larp.services.characters import character_state
    from larp.services.chronicles import chronicle_settings
    from larp.services.consequences import store_state
    from larp.services.records import record_ruling
    from larp.services.sessions import close_and_open
    from larp.services.torpor import record_torpor

    sessions = list(GameSession.select().where(GameSession.chronicle == chronicle))
    if len(sessions) != 1 or Ruling.select().where(Ruling.chronicle == chronicle).exists():
        raise ServiceError("The between-sessions demo needs a fresh demo chronicle (one game session, no rulings).",
                           status=409)
    first = sessions[0]
    first.date = today - timedelta(days=DOWNTIME_DAYS)
    first.save()
    settings = chronicle_settings(chronicle)

    def hurt(name: str, damage: list[tuple[str, int]], what: str, kind: str = "damage", step: str | None = None,
             **state: int) -> None:
        # ``what``: the summary's message (``%(name)s`` the character); ``step``: the step's, when no damage says it.
        character = Character.get((Character.chronicle == chronicle) & (Character.name == name))
        track = character_state(character, first, settings).health
        steps: list = [phrase_step(step, "LotNR Willpower (met-reference 5.1)", name=name)] if step else []
        for damage_type, levels in damage:
            result = apply_damage(track, damage_type, levels, name, settings)
            track = result.track
            steps.extend(result.steps)
        with db.atomic():
            record = record_ruling(chronicle, None, kind, Phrase.message(what, name=name), steps, [(character, "target")],
                                   game_session=first, inputs={"damage": damage}, outcome={"track": track.to_dict()})
            store_state(character, track=track, ruling=record, **state)

    hurt("Pim Halloran", [("lethal", 8)], N_("%(name)s is cut down by a Sabbat pack"))
    hurt("Aldous Whitmore", [("aggravated", 2)], N_("%(name)s is burned escaping a fire"), blood_current=4)
    hurt("Vivienne Ashcombe", [], N_("%(name)s spends two Willpower holding her tongue"), "willpower",
         N_("%(name)s spends two Willpower holding her tongue."), willpower_current=2)
    hurt("Marcus Hale", [("lethal", 2), ("bashing", 1)], N_("%(name)s is beaten and stabbed"))
    ines = Character.get((Character.chronicle == chronicle) & (Character.name == "Ines Castellano"))
    with db.atomic():
        record = record_ruling(chronicle, None, "blood",
                               Phrase.message(N_("%(name)s spends her last blood"), name=ines.name),
                               [phrase_step(N_("%(name)s spends every blood point she has left."), '000 "Torpor"',
                                            name=ines.name)], [(ines, "subject")], game_session=first)
        store_state(ines, blood_current=0, ruling=record)
    record_torpor(chronicle, None, ines.id, "blood_loss", first.date)
    close_and_open(chronicle, None, today)
