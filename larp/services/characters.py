"""Characters: creating them from sheets, finding them, and their state tonight."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from peewee import chunked, fn

from larp.db import as_id, bulk_insert
from larp.models import (
    Ability,
    AbilitySpend,
    Character,
    Chronicle,
    GameSession,
    Power,
    Trait,
    TraitLoss,
    UnstorableText,
    utcnow,
)
from larp.rules.health import HealthTrack, live_levels
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError
from larp.sheet import CATEGORIES, CharacterSheet

#: Letters and digits a person can type from a printed card without doubt:
#: no 0/O, no 1/I/L (issue 6).
SHORT_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
SHORT_CODE_LENGTH = 6


def new_short_code(taken: set[str] | None = None) -> str:
    """A fresh, unused short code (6 characters of :data:`SHORT_CODE_ALPHABET`).

    ``taken``: the codes already used, when the caller has them (else each guess is looked up).
    """
    while True:
        code = "".join(secrets.choice(SHORT_CODE_ALPHABET) for _ in range(SHORT_CODE_LENGTH))
        if taken is not None:
            if code not in taken:
                return code
        elif not Character.select().where(Character.short_code == code).exists():
            return code


def new_card_token() -> str:
    """A random card token: 160 bits as 32 upper-case base32 characters (A-Z, 2-7)."""
    return base64.b32encode(secrets.token_bytes(20)).decode("ascii")


def normalise_code(text: str) -> str:
    """A typed short code, upper-cased, with spaces and dashes removed."""
    return "".join(ch for ch in (text or "").upper() if ch.isalnum())


def create_character(chronicle: Chronicle, sheet: CharacterSheet) -> Character:
    """Store ``sheet`` as a new character of ``chronicle`` (call inside a transaction).

    Raises:
        ServiceError: 409 when the chronicle already has a character of that name.
    """
    if Character.select().where((Character.chronicle == chronicle) & (Character.name == sheet.name)).exists():
        raise ServiceError(f"The chronicle already has a character called {sheet.name}.", field="name", status=409)
    character = Character.create(
        chronicle=chronicle,
        short_code=new_short_code(),
        card_token=new_card_token(),
        **_scalar_fields(sheet),
    )
    _write_sheet_rows(character, sheet)
    return character


def update_character(character: Character, sheet: CharacterSheet) -> Character:
    """Replace ``character``'s sheet with ``sheet`` (call inside a transaction).

    Damage, condition, card token and short code stay; the Traits, Abilities
    and powers are rewritten. Current Willpower and blood are kept unless
    they exceed the new maxima.
    """
    update_characters([(character, sheet)])
    return Character.get_by_id(character.id)


def update_characters(pairs: list[tuple[Character, CharacterSheet]]) -> None:
    """:func:`update_character` for many characters, their rows rewritten in a few statements
    (call inside a transaction; an import updating a thousand characters stays short)."""
    now = utcnow()
    for character, sheet in pairs:
        values = _scalar_fields(sheet)
        values["willpower_current"] = min(character.willpower_current, values["willpower_permanent"])
        values["blood_current"] = min(character.blood_current, values["blood_max"])
        values["version"] = Character.version + 1
        values["updated_at"] = now
        Character.update(**values).where(Character.id == character.id).execute()
    ids = [character.id for character, _ in pairs]
    for batch in chunked(ids, 500):
        for model in (Trait, Ability, Power):
            model.delete().where(model.character.in_(batch)).execute()
    _write_rows([_sheet_rows(character.id, sheet) for character, sheet in pairs])


def _scalar_fields(sheet: CharacterSheet) -> dict:
    return dict(
        name=sheet.name,
        player_name=sheet.player_name,
        creature=sheet.creature,
        clan=sheet.clan,
        sect=sheet.sect,
        title=sheet.title,
        generation=sheet.generation,
        morality_name=sheet.morality_name,
        morality_rating=sheet.morality_rating,
        willpower_permanent=sheet.willpower_permanent,
        willpower_current=sheet.willpower_current if sheet.willpower_current is not None else sheet.willpower_permanent,
        blood_max=sheet.blood_max,
        blood_current=sheet.blood_current if sheet.blood_current is not None else sheet.blood_max,
        blood_per_turn=sheet.blood_per_turn,
        health_levels=list(sheet.health_levels) or None,
        tabletop=dict(sheet.tabletop),
        notes=sheet.notes,
        narrator_notes=sheet.narrator_notes,
        player_contact=sheet.player_contact,
    )


def unstorable_parts(sheet: CharacterSheet) -> list[str]:
    """What of ``sheet`` the database would refuse (each text checked against its column, on every
    engine: see :class:`larp.models.UnstorableText`), one sentence each; empty when it can be stored."""
    problems: list[str] = []

    def check(field, value: Any, where: str = "") -> None:
        try:
            if hasattr(field, "checked"):
                field.checked(value)
        except UnstorableText as exc:
            problems.append(f"{where}{exc.message}")

    for name, value in _scalar_fields(sheet).items():
        check(Character._meta.fields[name], value)
    for groups in (sheet.traits, sheet.negative_traits):
        for entries in groups.values():
            for entry in entries:
                check(Trait.name, entry.name, "A Trait: ")
    for name in sheet.abilities:
        check(Ability.name, name, "An Ability: ")
    for power in sheet.powers:
        check(Power.discipline, power.discipline, "A Discipline: ")
        check(Power.name, power.power, "A power: ")
    return problems


#: The columns of the sheet's rows, in the order :func:`_sheet_rows` gives their values.
TRAIT_COLUMNS = (Trait.character, Trait.category, Trait.name, Trait.count, Trait.negative)
ABILITY_COLUMNS = (Ability.character, Ability.name, Ability.level)
POWER_COLUMNS = (Power.character, Power.discipline, Power.name, Power.level)


def _sheet_rows(character_id: int, sheet: CharacterSheet) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """The Trait, Ability and power rows of ``sheet`` for ``character_id`` (a Trait listed twice is
    one row with the counts added; a power listed twice is one row)."""
    traits = []
    for negative, groups in ((False, sheet.traits), (True, sheet.negative_traits)):
        for category, entries in groups.items():
            merged: dict[str, int] = {}
            for entry in entries:
                merged[entry.name] = merged.get(entry.name, 0) + entry.count
            traits.extend((character_id, category, name, count, negative) for name, count in merged.items())
    abilities = [(character_id, name, level) for name, level in sheet.abilities.items()]
    seen = set()
    powers = []
    for p in sheet.powers:
        if (p.discipline, p.power) not in seen:
            seen.add((p.discipline, p.power))
            powers.append((character_id, p.discipline, p.power, p.level))
    return traits, abilities, powers


def _write_sheet_rows(character: Character, sheet: CharacterSheet) -> None:
    _write_rows([_sheet_rows(character.id, sheet)])


def _write_rows(per_character: list[tuple[list[tuple], list[tuple], list[tuple]]]) -> None:
    """Insert the :func:`_sheet_rows` of many characters in a few statements."""
    for columns, index in ((TRAIT_COLUMNS, 0), (ABILITY_COLUMNS, 1), (POWER_COLUMNS, 2)):
        bulk_insert(columns[0].model, [column.name for column in columns],
                    [row for rows in per_character for row in rows[index]])


def create_characters(chronicle: Chronicle, sheets: list[CharacterSheet],
                      conditions: dict[str, str] | None = None) -> list[int]:
    """Store ``sheets`` as new characters of ``chronicle`` in a few statements (call inside a
    transaction): an import of a thousand characters is a few thousand rows, written in bulk
    so that the transaction, and the write lock it holds, lasts well under a second.

    Args:
        conditions: a character's ``condition`` by name, where it is not "active".

    Returns:
        The new characters' ids, in the order of ``sheets``.

    Raises:
        ServiceError: 409 when the chronicle already has a character of one of the names (or a
            name comes twice).
    """
    names = [sheet.name for sheet in sheets]
    clash = next((n for n in names if names.count(n) > 1), None) if len(set(names)) != len(names) else None
    if clash is None:
        existing = {c.name for batch in chunked(names, 500) for c in
                    Character.select(Character.name).where((Character.chronicle == chronicle)
                                                           & Character.name.in_(batch))}
        clash = next((n for n in names if n in existing), None)
    if clash is not None:
        raise ServiceError(f"The chronicle already has a character called {clash}.", field="name", status=409)
    taken = {code for (code,) in Character.select(Character.short_code).tuples()}
    codes = []
    for _ in sheets:
        code = new_short_code(taken)
        taken.add(code)
        codes.append(code)
    if not sheets:
        return []
    now = utcnow()
    names = [*_scalar_fields(sheets[0]), "chronicle", "short_code", "card_token", "condition", "created_at",
             "updated_at"]
    bulk_insert(Character, names, [
        (*_scalar_fields(sheet).values(), chronicle.id, code, new_card_token(),
         (conditions or {}).get(sheet.name, "active"), now, now) for sheet, code in zip(sheets, codes)])
    ids = dict(Character.select(Character.short_code, Character.id).where(Character.chronicle == chronicle).tuples())
    _write_rows([_sheet_rows(ids[code], sheet) for sheet, code in zip(sheets, codes)])
    return [ids[code] for code in codes]


def get_character(chronicle: Chronicle, character_id: int | str | None, field_name: str = "character") -> Character:
    """The character ``character_id`` of ``chronicle``.

    Raises:
        ServiceError: 404 naming ``field_name`` when it is missing, not a
            number, or not a character of this chronicle.
    """
    if character_id in (None, ""):
        raise ServiceError("Choose a character.", field=field_name, status=404)
    cid = as_id(character_id)
    character = Character.get_or_none((Character.id == cid) & (Character.chronicle == chronicle)) if cid else None
    if character is None:
        raise ServiceError("There is no such character in this chronicle.", field=field_name, status=404)
    return character


def find_characters(chronicle: Chronicle, query: str, limit: int = 12) -> list[Character]:
    """Characters whose name contains ``query`` or whose short code is ``query``.

    An exact short-code match comes first. An empty query lists the first
    ``limit`` characters by name; a query longer than a name can be matches nothing
    (and never reaches the database, whose pattern matching has a length limit).
    """
    text = (query or "").strip()
    base = Character.select().where(Character.chronicle == chronicle)
    if not text:
        return list(base.order_by(Character.name).limit(limit))
    if len(text) > Character.name.max_length:
        return []
    code = normalise_code(text)
    by_code = list(base.where(Character.short_code == code)) if code else []
    by_name = list(
        base.where(fn.LOWER(Character.name).contains(text.lower()))
        .order_by(Character.name)
        .limit(limit)
    )
    seen = {c.id for c in by_code}
    return by_code + [c for c in by_name if c.id not in seen][: limit - len(by_code)]


def has_mettle(powers: dict[str, list[tuple[int, str]]]) -> bool:
    """Whether Fortitude's Mettle (level 2) is among ``powers`` (it adds a Healthy level, met-reference 3.5)."""
    return any(name.lower() == "mettle" or (discipline.lower() == "fortitude" and level >= 2)
               for discipline, held in powers.items() for level, name in held)


def health_track(character: Character, settings: ChronicleSettings, mettle: bool = False) -> HealthTrack:
    """``character``'s live health track with the damage marked on it and its condition.

    The character's own levels (extras, imported charts) replace the
    chronicle's; Mettle adds a Healthy level. If a smaller track than the
    damage (a setting changed) would overflow, the lightest marks are dropped
    from the view, never from the stored counts.
    """
    levels = tuple(character.health_levels) if character.health_levels else live_levels(settings)
    if mettle:
        levels = ("Healthy",) + levels
    counts = {"aggravated": character.damage_aggravated, "lethal": character.damage_lethal,
              "bashing": character.damage_bashing}
    for kind in ("bashing", "lethal", "aggravated"):
        excess = sum(counts.values()) - len(levels)
        if excess > 0:
            counts[kind] -= min(excess, counts[kind])
    return HealthTrack(levels=levels, condition=character.condition, staked=character.staked,
                       creature=character.creature, **counts)


@dataclass(frozen=True)
class TraitLine:
    """A Trait tonight: ``count`` on the sheet, ``lost`` this game session."""

    name: str
    count: int
    lost: int

    @property
    def available(self) -> int:
        """How many of this Trait can still be bid this game session."""
        return max(self.count - self.lost, 0)


@dataclass(frozen=True)
class AbilityLine:
    """An Ability tonight: ``level`` on the sheet, ``spent`` levels expended this game session."""

    name: str
    level: int
    spent: int

    @property
    def left(self) -> int:
        """Levels still available for retests this game session."""
        return max(self.level - self.spent, 0)


@dataclass
class CharacterState:
    """A character as it stands in the current game session (plain data for views).

    Attributes:
        traits: per category, the Traits with what is left of each.
        negative_traits: per category, (name, count).
        abilities: Abilities with levels left.
        powers: Discipline name to its powers ``[(level, name)]``, lowest first.
        health: the live health track with damage marked.
    """

    character: Character
    game_session: GameSession | None
    traits: dict[str, list[TraitLine]] = field(default_factory=dict)
    negative_traits: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    abilities: list[AbilityLine] = field(default_factory=list)
    powers: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    health: HealthTrack | None = None

    def available(self, category: str) -> int:
        """Traits left in ``category`` this game session (a tie compares these)."""
        return sum(line.available for line in self.traits.get(category, []))

    def total(self, category: str) -> int:
        """Traits on the sheet in ``category``."""
        return sum(line.count for line in self.traits.get(category, []))

    def trait_left(self, category: str, name: str) -> bool:
        """Whether ``name`` can still be bid in ``category`` tonight."""
        return any(line.name == name and line.available > 0 for line in self.traits.get(category, []))

    def ability(self, name: str) -> AbilityLine | None:
        """The Ability called ``name`` (case-insensitive), if the character has it."""
        return next((a for a in self.abilities if a.name.lower() == name.lower()), None)

    def discipline_level(self, discipline: str) -> int:
        """Highest power level held in ``discipline``."""
        return max((lvl for lvl, _ in self.powers.get(discipline, [])), default=0)

    def fingerprint(self) -> str:
        """A short digest of everything a screen shows of the character tonight (health, blood,
        Willpower, condition, Traits and Ability levels left, the game session): it changes whenever
        any of that changes, so an open screen can ask "still this?" and be told 204 (issue 18)."""
        ch = self.character
        shown = (
            ch.id, ch.version, ch.name, ch.condition, ch.staked, ch.damage_bashing, ch.damage_lethal,
            ch.damage_aggravated, ch.blood_current, ch.blood_max, ch.blood_per_turn, ch.willpower_current,
            ch.willpower_permanent, ch.morality_name, ch.morality_rating,
            self.game_session.id if self.game_session else None,
            sorted((c, t.name, t.count, t.lost) for c, lines in self.traits.items() for t in lines),
            sorted((c, n, k) for c, lines in self.negative_traits.items() for n, k in lines),
            [(a.name, a.level, a.spent) for a in self.abilities],
            sorted(self.powers.items()),
            (self.health.kinds(), self.health.marks(), self.health.state()) if self.health else None,
        )
        return hashlib.sha256(repr(shown).encode("utf-8")).hexdigest()[:16]


def character_state(character: Character, game_session: GameSession | None, settings: ChronicleSettings) -> CharacterState:
    """Build ``character``'s :class:`CharacterState` for ``game_session`` (5 queries)."""
    losses: dict[tuple[str, str], int] = {}
    spends: dict[str, int] = {}
    if game_session is not None:
        for row in (
            TraitLoss.select(TraitLoss.category, TraitLoss.name, fn.SUM(TraitLoss.count).alias("n"))
            .where(
                (TraitLoss.character == character)
                & (TraitLoss.game_session == game_session)
                & TraitLoss.restored_at.is_null()
            )
            .group_by(TraitLoss.category, TraitLoss.name)
            .tuples()
        ):
            losses[(row[0], row[1])] = int(row[2])
        for name, levels in (
            AbilitySpend.select(AbilitySpend.name, fn.SUM(AbilitySpend.levels))
            .where(
                (AbilitySpend.character == character)
                & (AbilitySpend.game_session == game_session)
                & AbilitySpend.restored_at.is_null()
            )
            .group_by(AbilitySpend.name)
            .tuples()
        ):
            spends[name] = int(levels)
    state = CharacterState(
        character=character,
        game_session=game_session,
        traits={c: [] for c in CATEGORIES},
        negative_traits={c: [] for c in CATEGORIES},
    )
    for trait in Trait.select().where(Trait.character == character).order_by(Trait.category, Trait.name):
        if trait.negative:
            state.negative_traits.setdefault(trait.category, []).append((trait.name, trait.count))
        else:
            state.traits.setdefault(trait.category, []).append(
                TraitLine(trait.name, trait.count, losses.get((trait.category, trait.name), 0))
            )
    state.abilities = [
        AbilityLine(a.name, a.level, spends.get(a.name, 0))
        for a in Ability.select().where(Ability.character == character).order_by(Ability.name)
    ]
    for power in Power.select().where(Power.character == character).order_by(Power.discipline, Power.level):
        state.powers.setdefault(power.discipline, []).append((power.level, power.name))
    state.health = health_track(character, settings, mettle=has_mettle(state.powers))
    return state


def sheet_of(character: Character) -> CharacterSheet:
    """The stored character as a :class:`CharacterSheet` (the sheet, not tonight's losses)."""
    from larp.sheet import PowerEntry, TraitEntry

    sheet = CharacterSheet(
        name=character.name,
        creature=character.creature,
        player_name=character.player_name,
        clan=character.clan,
        sect=character.sect,
        title=character.title,
        generation=character.generation,
        morality_name=character.morality_name,
        morality_rating=character.morality_rating,
        willpower_permanent=character.willpower_permanent,
        willpower_current=character.willpower_current,
        blood_max=character.blood_max,
        blood_current=character.blood_current,
        blood_per_turn=character.blood_per_turn,
        tabletop=dict(character.tabletop or {}),
        health_levels=list(character.health_levels or []),
        notes=character.notes,
        narrator_notes=character.narrator_notes,
        player_contact=character.player_contact,
    )
    for trait in Trait.select().where(Trait.character == character).order_by(Trait.id):
        target = sheet.negative_traits if trait.negative else sheet.traits
        target.setdefault(trait.category, []).append(TraitEntry(trait.name, trait.count))
    sheet.abilities = {a.name: a.level for a in Ability.select().where(Ability.character == character).order_by(Ability.id)}
    sheet.powers = [
        PowerEntry(p.discipline, p.name, p.level)
        for p in Power.select().where(Power.character == character).order_by(Power.id)
    ]
    return sheet


def equip_weapon(chronicle: Chronicle, narrator, character_id: Any, weapon_key: str) -> Character:
    """Set the weapon ``character_id`` carries (a live armory key, ``""`` for bare hands), recorded.

    The challenge screen pre-fills the weapon and its bonus Traits from it
    (met-reference 3.7).

    Raises:
        ServiceError: 404 unknown character; 422 a weapon not in the armory.
    """
    from larp.db import db
    from larp.rules.damage import armory
    from larp.services.records import record_ruling

    key = (weapon_key or "").strip()
    weapons = armory("live").weapons
    if key and key not in weapons:
        raise ServiceError(f"There is no weapon {key!r} in the armory.", field="weapon")
    with db.atomic():
        character = get_character(chronicle, character_id)
        label = weapons[key].name if key else "bare hands"
        record_ruling(chronicle, narrator, "edit", f"{character.name} now carries {label}.",
                      [{"text": f"{character.name} now carries {label}.", "rule": "LotNR weapons (met-reference 3.7)"}],
                      [(character, "edited")], inputs={"weapon": key})
        Character.update(weapon=key, version=Character.version + 1, updated_at=utcnow()).where(
            Character.id == character.id).execute()
        return Character.get_by_id(character.id)


def check_unchanged(chronicle: Chronicle, character_id: Any, seen_version: Any) -> None:
    """Refuse a form that was filled in on an out-of-date page (another tablet changed the character).

    ``seen_version`` is the character's ``version`` the page showed; a form without one is not checked.

    Raises:
        ServiceError: 409 naming the character and the change made meanwhile.
    """
    if seen_version in (None, ""):
        return
    character = get_character(chronicle, character_id)
    seen = as_id(seen_version) or -1
    if character.version != seen:
        from larp.models import Ruling, RulingCharacter

        latest = (Ruling.select().join(RulingCharacter).where(RulingCharacter.character == character)
                  .order_by(Ruling.id.desc()).first())
        since = f" (ruling #{latest.id}: {latest.summary})" if latest else ""
        raise ServiceError(f"{character.name} changed on another screen since this page was opened{since}. "
                           "Here is how things stand now; do it again if it still applies.", status=409)
