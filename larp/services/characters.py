"""Characters: finding them, their state tonight, and what they wear and carry.

Storing a sheet is :mod:`larp.services.sheet_store`; editing one is :mod:`larp.services.sheets`.
"""

from __future__ import annotations

import base64
import secrets
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable

from peewee import Case, Value, fn

from larp.db import as_id, for_update
from larp.models import (
    Ability,
    AbilitySpend,
    Character,
    Chronicle,
    Equipment,
    GameSession,
    MeritFlaw,
    Power,
    Trait,
    TraitLoss,
    utcnow,
)
from larp.rules.explain import N_, Phrase, Step
from larp.rules.damage import Armor, Weapon, armory
from larp.rules.explain import N_, Phrase
from larp.rules.health import HealthTrack
from larp.rules.rulings.people import Person, add_levels, person_track
from larp.rules.scene import Worn
from larp.rules.senses import senses_in_note
from larp.rules.settings import ChronicleSettings
from larp.services import ServiceError
from larp.services.tonight import picker_order
from larp.services.torpor_records import tabletop_morality
from larp.sheet_entries import CATEGORIES, QualityEntry

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


def get_character(chronicle: Chronicle, character_id: int | str | None, field_name: str = "character") -> Character:
    """The character ``character_id`` of ``chronicle``.

    Inside a use case's transaction he is read locked, and the form being handled is checked
    against him (see :func:`load_characters`).

    Raises:
        ServiceError: 404 naming ``field_name`` when it is missing, not a
            number, or not a character of this chronicle.
        larp.services.records.AlreadyRecorded, larp.services.records.StaleForm: 409 (see
            :func:`larp.services.records.check_submission`).
    """
    from larp.services.records import check_submission

    if character_id in (None, ""):
        raise ServiceError(Phrase.message(N_("Choose a character.")), field=field_name, status=404)
    cid = as_id(character_id)
    # Check-then-write: locked until the use case commits (FOR NO KEY UPDATE on PostgreSQL inside
    # a transaction; SQLite's BEGIN IMMEDIATE already serialises writers).
    character = for_update(Character.select().where((Character.id == cid) & (Character.chronicle == chronicle))
                           ).first() if cid else None
    if character is None:
        raise ServiceError(Phrase.message(N_("There is no such character in this "
                                             "chronicle.")), field=field_name, status=404)
    check_submission([character])
    return character


def find_characters(chronicle: Chronicle, query: str, limit: int = 12, retired: bool = False,
                    tonight: bool = False) -> list[Character]:
    """Characters whose name (or player's name) contains ``query``, accents and case aside, or whose short
    code is ``query``.

    An exact short-code match comes first; then the names that begin with ``query``, then those with a
    word that begins with it, then the rest, then those whose player's name holds it, each by name. An empty query lists the first
    ``limit`` characters by name. Retired characters (the player left) are left
    out of every picker unless ``retired`` asks for them instead. A NUL character,
    which no name holds and PostgreSQL refuses in a query, is dropped. A query longer
    than a name can be matches nothing (and never reaches the database, whose
    pattern matching has a length limit).

    ``tonight`` (the pickers, issue 32): once the door has checked anyone in for the open game
    session, the characters checked in come first, and each character found carries
    ``here_tonight`` (1 or 0) for the pickers' mark; with the setting ``pickers_tonight_only``
    only they are found (:func:`larp.services.tonight.picker_order`).
    """
    text = (query or "").replace("\x00", "").strip()
    base = Character.select().where((Character.chronicle == chronicle)
                                    & (Character.retired_at.is_null(not retired)))
    order: list[Any] = [Character.name]
    if tonight:
        picker = picker_order(chronicle)
        if picker.here is not None:
            base = base.select_extend(picker.here.alias("here_tonight"))
            base = base.where(picker.here == 1) if picker.only_tonight else base
            order = [picker.here.desc(), Character.name]
    if not text:
        return list(base.order_by(*order).limit(limit))
    if len(text) > Character.name.max_length:
        return []
    code = normalise_code(text)
    by_code = list(base.where(Character.short_code == code)) if code else []
    needle = folded(text)
    # "the first letters of a name": a name that starts with the text, then one with a word that does,
    # before a name that only holds it inside a word ("an" finds Anna and Bianca Anders before Diana), then
    # a character whose player's name holds it. Matched here, not in SQL, with accents and case folded alike
    # on both engines (new-user test 12: "avila" finds "Ávila"); one query of the chronicle's characters.
    found = []
    for character in base.order_by(*order):
        name = folded(character.name)
        if name.startswith(needle):
            rank = 0
        elif " " + needle in name:
            rank = 1
        elif needle in name:
            rank = 2
        elif needle in folded(character.player_name or ""):
            rank = 3
        else:
            continue
        here = -(getattr(character, "here_tonight", 0) or 0) if len(order) > 1 else 0
        found.append(((here, rank, name, character.name), character))
    by_name = [c for _key, c in sorted(found, key=lambda pair: pair[0])]
    seen = {c.id for c in by_code}
    return by_code + [c for c in by_name if c.id not in seen][: limit - len(by_code)]


def folded(text: str) -> str:
    """``text`` as names are compared when searched (:func:`find_characters`): accents removed (Unicode
    NFKD, combining marks dropped) and case folded, so "avila" matches "Ávila" and "STRASSE" "Straße"."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)).casefold()


def has_mettle(powers: dict[str, list[tuple[int, str]]]) -> bool:
    """Whether Fortitude's Mettle (level 2) is among ``powers`` (it adds a Healthy level, met-reference 3.5)."""
    return any(name.lower() == "mettle" or (discipline.lower() == "fortitude" and level >= 2)
               for discipline, held in powers.items() for level, name in held)


def merit_health_levels(qualities: Iterable[tuple[str, str]] | None = None,
                        character: Character | None = None) -> tuple[str, ...]:
    """The health levels the character's Merits and Flaws add (``health_levels`` in
    ``data/merits_flaws.toml``: Huge Size's extra Healthy level, LotNR), from
    ``qualities`` as (kind, catalogue key) pairs or, when ``None``, from
    ``character``'s stored rows (one query)."""
    from larp.catalogues import merit_flaw

    if qualities is None:
        qualities = MeritFlaw.select(MeritFlaw.kind, MeritFlaw.key).where(
            (MeritFlaw.character == character) & (MeritFlaw.key != "")).tuples()
    levels: list[str] = []
    for kind, key in qualities:
        entry = merit_flaw(kind, key) if key else None
        if entry is not None:
            levels.extend(entry.health_levels)
    return tuple(levels)


def add_health_levels(levels: tuple[str, ...], extra: tuple[str, ...]) -> tuple[str, ...]:
    """``levels`` with each of ``extra`` put before the first level of its name (the rules core's
    :func:`larp.rules.rulings.people.add_levels`: one more Healthy level for Huge Size, as Mettle's)."""
    return add_levels(levels, extra)


def health_track(character: Character, settings: ChronicleSettings, mettle: bool = False,
                 extra_levels: tuple[str, ...] | None = None) -> HealthTrack:
    """``character``'s live health track with the damage marked on it and its condition: the rules
    core's :func:`larp.rules.rulings.people.person_track` (his own levels or the chronicle's, Mettle's
    Healthy level, met-reference 3.5, each level a Merit or Flaw adds, the lightest marks dropped
    from a track too small), ``extra_levels`` read from the sheet's Merits when ``None``
    (:func:`merit_health_levels`: Huge Size, LotNR).
    """
    if extra_levels is None:
        extra_levels = merit_health_levels(character=character)
    return person_track(_body_person(character, mettle, extra_levels), settings)


def _body_person(character: Character, mettle: bool, extra_levels: tuple[str, ...] = ()) -> Person:
    return Person(name=character.name, creature=character.creature,
                  levels=tuple(character.health_levels) if character.health_levels else None,
                  extra_levels=tuple(extra_levels), powers=frozenset({"mettle"}) if mettle else frozenset(),
                  aggravated=character.damage_aggravated, lethal=character.damage_lethal,
                  bashing=character.damage_bashing, condition=character.condition, staked=character.staked)


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
    """An Ability tonight: ``level`` on the sheet, ``spent`` levels expended this game session,
    and its ``specialisations`` (each one bonus Trait in ties where it applies, LotNR)."""

    name: str
    level: int
    spent: int
    specialisations: tuple[str, ...] = ()

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
        health: the live health track with damage marked (Mettle's and Merits'
            extra levels on it).
        merits, flaws: the sheet's Merits and Flaws; ``key`` is the catalogue id
            the rules read (``data/merits_flaws.toml``: "ambidextrous",
            "acute_sense", "concentration", "one_eye"...).
        armor: the armor he wears (:func:`worn_armor`).
    """

    character: Character
    game_session: GameSession | None
    traits: dict[str, list[TraitLine]] = field(default_factory=dict)
    negative_traits: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    abilities: list[AbilityLine] = field(default_factory=list)
    powers: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    health: HealthTrack | None = None
    merits: list[QualityEntry] = field(default_factory=list)
    flaws: list[QualityEntry] = field(default_factory=list)
    armor: list[Armor] = field(default_factory=list)

    def has_merit(self, key: str) -> bool:
        """Whether the sheet holds the catalogue Merit ``key`` ("ambidextrous")."""
        return any(m.key == key for m in self.merits)

    def has_flaw(self, key: str) -> bool:
        """Whether the sheet holds the catalogue Flaw ``key`` ("one_eye")."""
        return any(f.key == key for f in self.flaws)

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


def character_state(character: Character, game_session: GameSession | None, settings: ChronicleSettings) -> CharacterState:
    """Build ``character``'s :class:`CharacterState` for ``game_session`` (one query for his sheet rows,
    tonight's losses and spends, his Merits and the armor he wears: :func:`character_states`)."""
    return character_states([character], game_session, settings)[character.id]


def _sheet_rows(ids: list[int], game_session: GameSession | None):
    """Every sheet row the rules read, and tonight's losses and spends, of the characters ``ids``, in
    ONE query (a UNION ALL): Traits, Abilities (with their specialisations), powers, Merits and Flaws,
    the armor worn and, in a game session, the sums of Traits lost and Ability levels expended not
    restored. Each row is ``(kind, character id, group, name, number, more, row id)``: the group is
    a category, a Discipline or a catalogue key; ``more`` a JSON list or a note; the row id orders
    Merits and armor as the sheet lists them."""
    negative = Case(None, [(Trait.negative == True, "negative")], "trait")  # noqa: E712
    query = (Trait.select(negative, Trait.character, Trait.category, Trait.name, Trait.count, Value(""), Value(0))
             .where(Trait.character.in_(ids))
             + Ability.select(Value("ability"), Ability.character, Value(""), Ability.name, Ability.level,
                              Ability.specialisations.cast("text"), Value(0))
             .where(Ability.character.in_(ids))
             + Power.select(Value("power"), Power.character, Power.discipline, Power.name, Power.level, Value(""), Value(0))
             .where(Power.character.in_(ids))
             + MeritFlaw.select(MeritFlaw.kind, MeritFlaw.character, MeritFlaw.key, MeritFlaw.name, MeritFlaw.cost,
                                MeritFlaw.note, MeritFlaw.id)
             .where(MeritFlaw.character.in_(ids))
             + Equipment.select(Value("armor"), Equipment.character, Equipment.key, Equipment.name, Equipment.rating,
                                Equipment.covers.cast("text"), Equipment.id)
             .where(Equipment.character.in_(ids) & (Equipment.kind == "armor")))
    if game_session is not None:
        query = (query
                 + TraitLoss.select(Value("loss"), TraitLoss.character, TraitLoss.category, TraitLoss.name,
                                    fn.SUM(TraitLoss.count), Value(""), Value(0))
                 .where(TraitLoss.character.in_(ids) & (TraitLoss.game_session == game_session)
                        & TraitLoss.restored_at.is_null())
                 .group_by(TraitLoss.character, TraitLoss.category, TraitLoss.name)
                 + AbilitySpend.select(Value("spend"), AbilitySpend.character, Value(""), AbilitySpend.name,
                                       fn.SUM(AbilitySpend.levels), Value(""), Value(0))
                 .where(AbilitySpend.character.in_(ids) & (AbilitySpend.game_session == game_session)
                        & AbilitySpend.restored_at.is_null())
                 .group_by(AbilitySpend.character, AbilitySpend.name))
    return query.tuples()


def _json_list(text) -> tuple[str, ...]:
    import json

    if isinstance(text, (list, tuple)):
        return tuple(text)
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return ()
    return tuple(value) if isinstance(value, list) else ()


def character_states(characters: list[Character], game_session: GameSession | None,
                     settings: ChronicleSettings) -> dict[int, CharacterState]:
    """The :class:`CharacterState` of each of ``characters`` for ``game_session``, by id, in ONE query
    (:func:`_sheet_rows`): Traits with what is left of each, Negative Traits, Abilities with the
    levels left and their specialisations, powers, Merits and Flaws, the armor worn, and the live track."""
    kinds = ("trait", "negative", "ability", "power", "merit", "flaw", "armor", "loss", "spend")
    ids = [c.id for c in characters]
    rows: dict[int, dict[str, list]] = {cid: {k: [] for k in kinds} for cid in ids}
    if ids:
        for kind, cid, group, name, number, more, row_id in _sheet_rows(ids, game_session):
            rows[int(cid)][kind].append((group, name, int(number or 0), more, int(row_id or 0)))
    pieces = armory("live").armor
    out = {}
    for character in characters:
        got = rows[character.id]
        losses = {(group, name): n for group, name, n, _m, _i in got["loss"]}
        spends = {name: n for _g, name, n, _m, _i in got["spend"]}
        state = CharacterState(character=character, game_session=game_session,
                               traits={c: [] for c in CATEGORIES}, negative_traits={c: [] for c in CATEGORIES})
        for category, name, count, _m, _i in sorted(got["negative"]):
            state.negative_traits.setdefault(category, []).append((name, count))
        for category, name, count, _m, _i in sorted(got["trait"]):
            state.traits.setdefault(category, []).append(TraitLine(name, count, losses.get((category, name), 0)))
        state.abilities = [AbilityLine(name, level, spends.get(name, 0), _json_list(more))
                           for _g, name, level, more, _i in sorted(got["ability"], key=lambda row: row[1])]
        for discipline, name, level, _m, _i in sorted(got["power"], key=lambda row: (row[0], row[2], row[1])):
            state.powers.setdefault(discipline, []).append((level, name))
        for kind in ("merit", "flaw"):
            for key, name, cost, note, _i in sorted(got[kind], key=lambda row: row[4]):
                (state.merits if kind == "merit" else state.flaws).append(QualityEntry(name, cost, key, note or ""))
        for key, name, rating, more, row_id in sorted(got["armor"], key=lambda row: row[4]):
            piece = pieces.get(key) if key else None
            if piece is None:  # as worn_armor builds a custom piece
                piece = Armor(key=f"custom-{row_id}", name=name, profile="live", rating=max(rating, 1), penalty=0,
                              negative_traits=(), source="the character sheet", covers=_json_list(more))
            state.armor.append(piece)
        extra = merit_health_levels([("merit", m.key) for m in state.merits] + [("flaw", f.key) for f in state.flaws])
        state.health = health_track(character, settings, mettle=has_mettle(state.powers), extra_levels=extra)
        out[character.id] = state
    return out


def person_of(state: CharacterState) -> Person:
    """The stored character as the rules core's :class:`~larp.rules.rulings.people.Person`: his
    Traits and those lost tonight by name, Negative Traits, Abilities with the levels left,
    powers and Discipline levels, Willpower, generation, damage, condition and stake, the levels
    his Merits add, the armor he wears, the weapon in his hand, his Merits' and Flaws' catalogue
    keys (Ambidextrous, Acute Sense, Concentration...), his Abilities' specialisations, his blood
    pool and the Blood Traits marked against an aggravated wound, his Humanity or Path (MET Traits,
    and tabletop dots when the sheet has them: how long a torpor lasts, met-reference 5.2)."""
    character = state.character
    traits = {cat: tuple(line.name for line in lines for _ in range(line.count)) for cat, lines in state.traits.items()}
    lost = {cat: tuple(line.name for line in lines for _ in range(min(line.lost, line.count)))
            for cat, lines in state.traits.items()}
    extra = merit_health_levels([("merit", m.key) for m in state.merits] + [("flaw", f.key) for f in state.flaws])
    return Person(
        name=character.name, creature=character.creature, generation=character.generation,
        traits={k: v for k, v in traits.items() if v}, lost={k: v for k, v in lost.items() if v},
        negative_traits={cat: tuple(name for name, _n in items) for cat, items in state.negative_traits.items() if items},
        abilities={a.name: a.left for a in state.abilities},
        powers=frozenset(name.lower() for held in state.powers.values() for _lvl, name in held),
        disciplines={d: max(level for level, _n in held) for d, held in state.powers.items() if held},
        willpower=character.willpower_current, willpower_max=character.willpower_permanent,
        blood=character.blood_current, blood_max=character.blood_max,
        blood_per_turn=max(character.blood_per_turn or 0, 1), agg_marked=character.agg_blood_marked or 0,
        levels=tuple(character.health_levels) if character.health_levels else None, extra_levels=extra,
        aggravated=character.damage_aggravated, lethal=character.damage_lethal, bashing=character.damage_bashing,
        condition=character.condition, staked=character.staked,
        armor=tuple(Worn(a.key, piece=None if a.key in armory("live").armor else a) for a in state.armor),
        weapon=character.weapon or "",
        qualities=frozenset(q.key for q in state.merits + state.flaws if q.key),
        specialisations={a.name: tuple(a.specialisations) for a in state.abilities if a.specialisations},
        morality=character.morality_rating, tabletop_morality=tabletop_morality(character),
        acute_senses=acute_senses_of(state), frenzy=character.frenzy or "",
    )


def acute_senses_of(state: CharacterState) -> frozenset[str]:
    """The senses of the character's Acute Sense Merits, read from each Merit's name and note ("Acute Sense",
    note "Hearing"; "Acute Sense (smell)"): LotNR Acute Sense, "specify which one" (met-reference 1.3). A Merit
    whose note names no sense gives none: the narrator's sheet must say which."""
    return frozenset().union(*(senses_in_note(f"{m.name} {m.note}") for m in state.merits if m.key == "acute_sense"))


def load_characters(chronicle: Chronicle, wanted: list[tuple[str, Any]], game_session: GameSession | None,
                    settings: ChronicleSettings) -> list[CharacterState]:
    """The characters ``wanted`` (``(field, id)`` pairs, in that order) with their state tonight,
    in TWO queries whatever their number (the characters, then :func:`_sheet_rows`).

    Check-then-write: inside a use case's transaction the characters are read locked until it
    commits (``FOR NO KEY UPDATE`` in id order on PostgreSQL, by the same statement; SQLite's
    ``BEGIN IMMEDIATE`` already serialises writers), so the Traits, Ability levels and track read
    here are still true when the use case writes; then the form being handled is checked against
    them (:func:`larp.services.records.check_submission`: a repeat, or a page that showed one of
    them otherwise).

    Raises:
        ServiceError: 404 naming the field of a missing id or one not of this chronicle.
        larp.services.records.AlreadyRecorded, larp.services.records.StaleForm: 409.
    """
    from larp.services.records import check_submission

    ids = {}
    for field_name, raw in wanted:
        if raw in (None, ""):
            raise ServiceError(Phrase.message(N_("Choose a character.")), field=field_name, status=404)
        cid = as_id(raw)
        if cid is None:
            raise ServiceError(Phrase.message(N_("There is no such character in "
                                                 "this chronicle.")), field=field_name, status=404)
        ids[field_name] = cid
    found = {c.id: c for c in for_update(Character.select().where(
        (Character.id.in_(list(set(ids.values())))) & (Character.chronicle == chronicle)).order_by(Character.id))
             } if ids else {}
    for field_name, cid in ids.items():
        if cid not in found:
            raise ServiceError(Phrase.message(N_("There is no such character in "
                                                 "this chronicle.")), field=field_name, status=404)
    check_submission(found.values())
    states = character_states(list(found.values()), game_session, settings)
    return [states[ids[field_name]] for field_name, _raw in wanted]


def worn_armor(character: Character) -> tuple[Armor, ...]:
    """The armor ``character`` wears, as the rules core's :class:`larp.rules.damage.Armor` (live profile);
    a ruling reads the same pieces from :attr:`CharacterState.armor` (:func:`character_states`).

    A piece from the armory (``data/armory.toml``) is the armory's own ``Armor``;
    a custom piece is built from the sheet: ``key`` ``"custom-<row id>"``,
    ``rating`` its extra health levels (lost before the track, met-reference
    3.7), ``covers`` what it protects, ``penalty`` 0, ``source`` "the character
    sheet". A key no longer in the armory is treated as custom with the numbers
    stored. In the order the sheet lists them (one query).
    """
    pieces = armory("live").armor
    out = []
    for row in _equipment(character, "armor"):
        piece = pieces.get(row.key) if row.key else None
        if piece is None:
            piece = Armor(key=f"custom-{row.id}", name=row.name, profile="live", rating=max(row.rating, 1),
                          penalty=0, negative_traits=tuple(row.negative_traits or ()),
                          source="the character sheet", covers=tuple(row.covers or ()))
        out.append(piece)
    return tuple(out)


def _equipment(character: Character, kind: str):
    """``character``'s equipment rows of ``kind`` (armor, weapon) in the order the sheet lists them (one query)."""
    return Equipment.select().where((Equipment.character == character) & (Equipment.kind == kind)).order_by(Equipment.id)


def carried_weapons(character: Character) -> tuple[Weapon, ...]:
    """The weapons ``character`` carries, as the rules core's :class:`larp.rules.damage.Weapon` (live profile).

    An armory weapon is the armory's own card (``key`` its armory key); a custom
    weapon is built from the sheet: ``key`` ``"custom-<row id>"``, its bonus
    Traits (never bid), damage in health levels, damage type, Negative Traits and
    specials; its kind decides ``melee`` (blade, blunt: Puissance applies),
    ``blunt`` (Prowess may make it lethal) and ``firearm`` (seed 002's firearm
    rule against vampires) (met-reference 3.4, 3.7); a Spray reaches 3 adjacent
    targets, as the shotgun's card. In the order the sheet lists them (one
    query). ``Character.weapon`` is the one in hand (pre-filled on the challenge screen).
    """
    cards = armory("live").weapons
    out = []
    for row in _equipment(character, "weapon"):
        card = cards.get(row.key) if row.key else None
        if card is None:
            specials = tuple(row.specials or ())
            firearm = row.weapon_kind == "firearm"
            card = Weapon(key=f"custom-{row.id}", name=row.name, profile="live",
                          damage_type=row.damage_type or "bashing", damage=max(row.damage, 1), strength_bonus=None,
                          bonus_traits=row.bonus_traits, negative_traits=tuple(row.negative_traits or ()),
                          specials=specials, firearm=firearm, bashing_vs_kindred=firearm,
                          blunt=row.weapon_kind == "blunt", melee=row.weapon_kind in ("blade", "blunt"),
                          spray=3 if "Spray" in specials else 0, details={}, source="the character sheet")
        out.append(card)
    return tuple(out)


def weapon_for_range(character: Character, ranged: bool) -> str:
    """The armory weapon ``character`` attacks with at this range when a screen adds him (``""``: bare
    hands, or none fits): the one in hand (``Character.weapon``) when it fits the range, else, at range,
    the first gun or bow his sheet carries that the armory knows (met-reference 3.7: a ranged attack
    needs a ranged weapon). A melee weapon in hand is not swapped for anything at hand to hand."""
    weapons = armory("live").weapons
    held = weapons.get(character.weapon or "")
    if held is not None and held.melee != ranged:
        return held.key
    if not ranged:
        return ""
    return next((w.key for w in carried_weapons(character) if w.key in weapons and not w.melee), "")


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
        raise ServiceError(Phrase.message(N_("There is no weapon %(key)s in the armory."),
                                          key=repr(key)), field="weapon")
    with db.atomic():
        character = get_character(chronicle, character_id)
        label = weapons[key].name if key else Phrase.message(N_("bare hands"))
        carries = Phrase.message(N_("%(name)s now carries %(weapon)s."), name=character.name, weapon=label)
        record_ruling(chronicle, narrator, "edit", carries,
                      [Step(str(carries), "LotNR weapons (met-reference 3.7)", said=carries.data())],
                      [(character, "edited")], inputs={"weapon": key})
        Character.update(weapon=key, version=Character.version + 1, updated_at=utcnow()).where(
            Character.id == character.id).execute()
        return Character.get_by_id(character.id)

