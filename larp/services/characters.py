"""Characters: creating them from sheets, finding them, and their state tonight."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from peewee import Case, Value, fn

from larp.db import as_id
from larp.models import (
    Ability,
    AbilitySpend,
    Character,
    Chronicle,
    GameSession,
    Power,
    Trait,
    TraitLoss,
    utcnow,
)
from larp.rules.damage import Armor
from larp.rules.health import HealthTrack
from larp.rules.rulings.people import Person, person_track
from larp.rules.scene import Worn
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError
from larp.sheet import CATEGORIES, CharacterSheet

#: Letters and digits a person can type from a printed card without doubt:
#: no 0/O, no 1/I/L (issue 6).
SHORT_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
SHORT_CODE_LENGTH = 6


def new_short_code() -> str:
    """A fresh, unused short code (6 characters of :data:`SHORT_CODE_ALPHABET`)."""
    while True:
        code = "".join(secrets.choice(SHORT_CODE_ALPHABET) for _ in range(SHORT_CODE_LENGTH))
        if not Character.select().where(Character.short_code == code).exists():
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
    values = _scalar_fields(sheet)
    values["willpower_current"] = min(character.willpower_current, values["willpower_permanent"])
    values["blood_current"] = min(character.blood_current, values["blood_max"])
    values["version"] = Character.version + 1
    values["updated_at"] = utcnow()
    Character.update(**values).where(Character.id == character.id).execute()
    Trait.delete().where(Trait.character == character).execute()
    Ability.delete().where(Ability.character == character).execute()
    Power.delete().where(Power.character == character).execute()
    _write_sheet_rows(character, sheet)
    return Character.get_by_id(character.id)


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


def _write_sheet_rows(character: Character, sheet: CharacterSheet) -> None:
    rows = []
    for negative, groups in ((False, sheet.traits), (True, sheet.negative_traits)):
        for category, entries in groups.items():
            merged: dict[str, int] = {}
            for entry in entries:
                merged[entry.name] = merged.get(entry.name, 0) + entry.count
            rows.extend(
                dict(character=character, category=category, name=name, count=count, negative=negative)
                for name, count in merged.items()
            )
    if rows:
        Trait.insert_many(rows).execute()
    if sheet.abilities:
        Ability.insert_many(
            [dict(character=character, name=name, level=level) for name, level in sheet.abilities.items()]
        ).execute()
    seen = set()
    powers = []
    for p in sheet.powers:
        if (p.discipline, p.power) not in seen:
            seen.add((p.discipline, p.power))
            powers.append(dict(character=character, discipline=p.discipline, name=p.power, level=p.level))
    if powers:
        Power.insert_many(powers).execute()


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
    ``limit`` characters by name.
    """
    text = (query or "").strip()
    base = Character.select().where(Character.chronicle == chronicle)
    if not text:
        return list(base.order_by(Character.name).limit(limit))
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
    """``character``'s live health track with the damage marked on it and its condition
    (the rules core's :func:`larp.rules.rulings.people.person_track`: his own levels or the
    chronicle's, Mettle's Healthy level, the lightest marks dropped from a track too small)."""
    return person_track(_body_person(character, mettle), settings)


def _body_person(character: Character, mettle: bool) -> Person:
    return Person(name=character.name, creature=character.creature,
                  levels=tuple(character.health_levels) if character.health_levels else None,
                  powers=frozenset({"mettle"}) if mettle else frozenset(),
                  aggravated=character.damage_aggravated, lethal=character.damage_lethal,
                  bashing=character.damage_bashing, condition=character.condition, staked=character.staked)


def worn_armor(character: Character) -> tuple[Armor, ...]:
    """The live armor ``character`` wears, from his sheet (met-reference 3.7).

    A placeholder until the sheet editor (issue 14) stores worn armor: it returns ``()``,
    so a ruling counts only the armor the narrator chooses for it (the scene).
    """
    return ()


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
    """Build ``character``'s :class:`CharacterState` for ``game_session`` (one query for his sheet rows
    and tonight's losses and spends, :func:`character_states`)."""
    return character_states([character], game_session, settings)[character.id]


def _sheet_rows(ids: list[int], game_session: GameSession | None):
    """Every sheet row and tonight's losses and spends of the characters ``ids``, in ONE query
    (a UNION ALL of Traits, Abilities, powers and, in a game session, the sums of Traits lost
    and Ability levels expended not restored): ``(kind, character id, category or Discipline,
    name, count or level)``."""
    negative = Case(None, [(Trait.negative == True, "negative")], "trait")  # noqa: E712
    query = (Trait.select(negative, Trait.character, Trait.category, Trait.name, Trait.count)
             .where(Trait.character.in_(ids))
             + Ability.select(Value("ability"), Ability.character, Value(""), Ability.name, Ability.level)
             .where(Ability.character.in_(ids))
             + Power.select(Value("power"), Power.character, Power.discipline, Power.name, Power.level)
             .where(Power.character.in_(ids)))
    if game_session is not None:
        query = (query
                 + TraitLoss.select(Value("loss"), TraitLoss.character, TraitLoss.category, TraitLoss.name,
                                    fn.SUM(TraitLoss.count))
                 .where(TraitLoss.character.in_(ids) & (TraitLoss.game_session == game_session)
                        & TraitLoss.restored_at.is_null())
                 .group_by(TraitLoss.character, TraitLoss.category, TraitLoss.name)
                 + AbilitySpend.select(Value("spend"), AbilitySpend.character, Value(""), AbilitySpend.name,
                                       fn.SUM(AbilitySpend.levels))
                 .where(AbilitySpend.character.in_(ids) & (AbilitySpend.game_session == game_session)
                        & AbilitySpend.restored_at.is_null())
                 .group_by(AbilitySpend.character, AbilitySpend.name))
    return query.tuples()


def character_states(characters: list[Character], game_session: GameSession | None,
                     settings: ChronicleSettings) -> dict[int, CharacterState]:
    """The :class:`CharacterState` of each of ``characters`` for ``game_session``, by id, in ONE query
    (:func:`_sheet_rows`): Traits with what is left of each, Negative Traits, Abilities with the
    levels left, powers, and the live track."""
    ids = [c.id for c in characters]
    rows: dict[int, dict[str, list]] = {cid: {"trait": [], "negative": [], "ability": [], "power": [], "loss": [],
                                             "spend": []} for cid in ids}
    if ids:
        for kind, cid, group, name, number in _sheet_rows(ids, game_session):
            rows[int(cid)][kind].append((group, name, int(number)))
    out = {}
    for character in characters:
        got = rows[character.id]
        losses = {(group, name): n for group, name, n in got["loss"]}
        spends = {name: n for _g, name, n in got["spend"]}
        state = CharacterState(character=character, game_session=game_session,
                               traits={c: [] for c in CATEGORIES}, negative_traits={c: [] for c in CATEGORIES})
        for category, name, count in sorted(got["negative"]):
            state.negative_traits.setdefault(category, []).append((name, count))
        for category, name, count in sorted(got["trait"]):
            state.traits.setdefault(category, []).append(TraitLine(name, count, losses.get((category, name), 0)))
        state.abilities = [AbilityLine(name, level, spends.get(name, 0)) for _g, name, level in
                           sorted(got["ability"], key=lambda row: row[1])]
        for discipline, name, level in sorted(got["power"], key=lambda row: (row[0], row[2], row[1])):
            state.powers.setdefault(discipline, []).append((level, name))
        state.health = health_track(character, settings, mettle=has_mettle(state.powers))
        out[character.id] = state
    return out


def person_of(state: CharacterState) -> Person:
    """The stored character as the rules core's :class:`~larp.rules.rulings.people.Person`: his
    Traits and those lost tonight by name, Negative Traits, Abilities with the levels left,
    powers and Discipline levels, Willpower, generation, damage, condition and stake, the
    armor he wears (:func:`worn_armor`) and the weapon he carries."""
    character = state.character
    traits = {cat: tuple(line.name for line in lines for _ in range(line.count)) for cat, lines in state.traits.items()}
    lost = {cat: tuple(line.name for line in lines for _ in range(min(line.lost, line.count)))
            for cat, lines in state.traits.items()}
    return Person(
        name=character.name, creature=character.creature, generation=character.generation,
        traits={k: v for k, v in traits.items() if v}, lost={k: v for k, v in lost.items() if v},
        negative_traits={cat: tuple(name for name, _n in items) for cat, items in state.negative_traits.items() if items},
        abilities={a.name: a.left for a in state.abilities},
        powers=frozenset(name.lower() for held in state.powers.values() for _lvl, name in held),
        disciplines={d: max(level for level, _n in held) for d, held in state.powers.items() if held},
        willpower=character.willpower_current,
        levels=tuple(character.health_levels) if character.health_levels else None,
        aggravated=character.damage_aggravated, lethal=character.damage_lethal, bashing=character.damage_bashing,
        condition=character.condition, staked=character.staked,
        armor=tuple(Worn(a.key) for a in worn_armor(character)), weapon=character.weapon or "",
    )


def load_characters(chronicle: Chronicle, wanted: list[tuple[str, Any]], game_session: GameSession | None,
                    settings: ChronicleSettings) -> list[CharacterState]:
    """The characters ``wanted`` (``(field, id)`` pairs, in that order) with their state tonight,
    in TWO queries whatever their number (the characters, then :func:`_sheet_rows`).

    Raises:
        ServiceError: 404 naming the field of a missing id or one not of this chronicle.
    """
    ids = {}
    for field_name, raw in wanted:
        if raw in (None, ""):
            raise ServiceError("Choose a character.", field=field_name, status=404)
        cid = as_id(raw)
        if cid is None:
            raise ServiceError("There is no such character in this chronicle.", field=field_name, status=404)
        ids[field_name] = cid
    found = {c.id: c for c in Character.select().where(
        (Character.id.in_(list(set(ids.values())))) & (Character.chronicle == chronicle))} if ids else {}
    for field_name, cid in ids.items():
        if cid not in found:
            raise ServiceError("There is no such character in this chronicle.", field=field_name, status=404)
    states = character_states(list(found.values()), game_session, settings)
    return [states[ids[field_name]] for field_name, _raw in wanted]


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
    try:
        seen = int(str(seen_version))
    except ValueError:
        seen = -1
    if character.version != seen:
        from larp.models import Ruling, RulingCharacter

        latest = (Ruling.select().join(RulingCharacter).where(RulingCharacter.character == character)
                  .order_by(Ruling.id.desc()).first())
        since = f" (ruling #{latest.id}: {latest.summary})" if latest else ""
        raise ServiceError(f"{character.name} changed on another screen since this page was opened{since}. "
                           "Here is how things stand now; do it again if it still applies.", status=409)
