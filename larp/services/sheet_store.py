"""Storing character sheets: a :class:`larp.sheet.CharacterSheet` in, rows out, and back.

One sheet is a ``Character`` row and its ``Trait``, ``Ability``, ``Power``,
``Background``, ``MeritFlaw`` and ``Equipment`` rows. These functions run inside the
caller's transaction and record nothing; the use cases that record a change
(create, edit, copy, undo) are in :mod:`larp.services.sheets`.
"""

from __future__ import annotations

from peewee import IntegrityError, chunked, fn

from larp.db import bulk_insert
from larp.models import (Ability, Background, Character, Chronicle, Equipment, MeritFlaw, Power, Trait, UnstorableText,
                         utcnow)
from larp.rules.damage import Armor, Weapon, armory
from larp.rules.explain import N_, Phrase
from larp.services import ServiceError, refuse_name_taken
from larp.services.characters import new_card_token, new_short_code
from larp.sheet import CharacterSheet
from larp.sheet_entries import ArmorEntry, PowerEntry, QualityEntry, TraitEntry, WeaponEntry


def refuse_duplicate_name(chronicle: Chronicle, name: str, other_than: int | None = None) -> None:
    """Refuse a name another character of ``chronicle`` already has (case-insensitive).

    Raises:
        ServiceError: 409 naming the field ``name``.
    """
    # The exact name too: SQLite's LOWER folds ASCII letters only.
    query = Character.select().where((Character.chronicle == chronicle) & (
        (Character.name == name) | (fn.LOWER(Character.name) == name.lower())))
    refuse_name_taken(query, other_than, Phrase.message(N_("The chronicle already has a character called "
                                                           "%(name)s: choose another name."), name=name))


def create_character(chronicle: Chronicle, sheet: CharacterSheet, card: bool = True) -> Character:
    """Store ``sheet`` as a new character of ``chronicle`` (call inside a transaction).

    ``card``: issue a card token now (a copy gets its own when its card is issued).

    Raises:
        ServiceError: 409 when the chronicle already has a character of that name
            (also when another save made one at the same moment).
    """
    refuse_duplicate_name(chronicle, sheet.name)
    try:
        character = Character.create(
            chronicle=chronicle,
            short_code=new_short_code(),
            card_token=new_card_token() if card else None,
            **scalar_fields(sheet),
        )
    except IntegrityError:
        raise _clash(sheet.name) from None
    write_sheet_rows(character, sheet)
    return character


def _clash(name: str) -> ServiceError:
    """Two saves at the same moment (PostgreSQL at READ COMMITTED lets both pass the name check;
    the unique index refuses the second): the caller's transaction is rolled back."""
    return ServiceError(Phrase.message(N_("Another screen saved a character called %(name)s at the same moment: "
                                          "choose another name."), name=name), field="name", status=409)


def update_character(character: Character, sheet: CharacterSheet) -> Character:
    """Replace ``character``'s sheet with ``sheet`` (call inside a transaction).

    Damage, condition, card token and short code stay; the Traits, Abilities,
    powers, Backgrounds, Merits and Flaws, weapons and armor are rewritten.
    Current Willpower and blood are kept unless they exceed the new maxima; a character who
    was full (at or above the old rating) is full at the new one.

    Raises:
        ServiceError: 409 when another save gave another character this name at the same moment.
    """
    update_characters([(character, sheet)])
    return Character.get_by_id(character.id)


def scalar_fields(sheet: CharacterSheet) -> dict:
    """The ``Character`` columns that ``sheet`` gives (current Willpower and blood default to their maxima)."""
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
        nature=sheet.nature,
        demeanor=sheet.demeanor,
        virtues=dict(sheet.virtues),
        derangements=list(sheet.derangements),
        scene_extra=sheet.scene_extra,
    )


def write_sheet_rows(character: Character, sheet: CharacterSheet) -> None:
    """Insert ``sheet``'s Traits, Abilities, powers, Backgrounds, Merits and Flaws, weapons and
    armor as rows of ``character`` (who has none yet), a few statements in all."""
    write_rows([sheet_rows(character.id, sheet)])


def sheet_rows(character_id: int, sheet: CharacterSheet) -> dict[type, list[dict]]:
    """The rows of ``sheet`` for ``character_id``, by model: a Trait listed twice is one row with
    the counts added, a power listed twice one row."""
    rows: dict[type, list[dict]] = {model: [] for model in (Trait, Ability, Power, Background, MeritFlaw, Equipment)}
    for negative, groups in ((False, sheet.traits), (True, sheet.negative_traits)):
        for category, entries in groups.items():
            merged: dict[str, int] = {}
            for entry in entries:
                merged[entry.name] = merged.get(entry.name, 0) + entry.count
            rows[Trait].extend(dict(character=character_id, category=category, name=name, count=count,
                                    negative=negative) for name, count in merged.items())
    rows[Ability] = [dict(character=character_id, name=name, level=level,
                          specialisations=list(sheet.specialisations.get(name, [])))
                     for name, level in sheet.abilities.items()]
    seen = set()
    for p in sheet.powers:
        if (p.discipline, p.power) not in seen:
            seen.add((p.discipline, p.power))
            rows[Power].append(dict(character=character_id, discipline=p.discipline, name=p.power, level=p.level,
                                    custom=p.custom))
    rows[Background] = [dict(character=character_id, name=name, rating=rating)
                        for name, rating in sheet.backgrounds.items()]
    rows[MeritFlaw] = [dict(character=character_id, kind=kind, key=q.key, name=q.name, cost=q.cost, note=q.note)
                       for kind, entries in (("merit", sheet.merits), ("flaw", sheet.flaws)) for q in entries]
    # Every row carries every column; an armory piece keeps only its key, name and note: its
    # numbers come from the card.
    blank = dict(bonus_traits=0, damage=0, damage_type="", weapon_kind="", specials=[], rating=0, covers=[],
                 negative_traits=[])
    rows[Equipment] = [dict(blank, character=character_id, kind="weapon", key=w.key, name=w.name, note=w.note,
                            **({} if w.key else dict(bonus_traits=w.bonus_traits, damage=w.damage,
                                                     damage_type=w.damage_type, weapon_kind=w.kind,
                                                     specials=list(w.specials),
                                                     negative_traits=list(w.negative_traits))))
                       for w in sheet.weapons]
    rows[Equipment] += [dict(blank, character=character_id, kind="armor", key=a.key, name=a.name, note=a.note,
                             **({} if a.key else dict(rating=a.rating, covers=list(a.covers),
                                                      negative_traits=list(a.negative_traits))))
                        for a in sheet.armor]
    return rows


def write_rows(per_character: list[dict[type, list[dict]]]) -> None:
    """Insert the :func:`sheet_rows` of many characters, a few statements per table
    (:func:`larp.db.bulk_insert`)."""
    for model in (Trait, Ability, Power, Background, MeritFlaw, Equipment):
        rows = [row for rows in per_character for row in rows[model]]
        if rows:
            names = list(rows[0])
            bulk_insert(model, names, [tuple(row[name] for name in names) for row in rows])


def create_characters(chronicle: Chronicle, sheets: list[CharacterSheet],
                      conditions: dict[str, str] | None = None,
                      imported_unused: dict[str, dict] | None = None) -> list[int]:
    """Store ``sheets`` as new characters of ``chronicle`` in a few statements (call inside a
    transaction): an import of a thousand characters is some 60,000 rows, written in bulk so that
    the transaction, and the write lock it holds, lasts well under a second (issue 19 item 3).

    Args:
        conditions: a character's ``condition`` by name, where it is not "active".
        imported_unused: by name, what an imported file held that the sheet has no place for
            (``Character.imported_unused``).

    Returns:
        The new characters' ids, in the order of ``sheets``.

    Raises:
        ServiceError: 409 when the chronicle already has a character of one of the names, or a name
            comes twice (case-insensitive, as :func:`refuse_duplicate_name`).
    """
    if not sheets:
        return []
    taken_names = {name.lower() for (name,) in
                   Character.select(Character.name).where(Character.chronicle == chronicle).tuples()}
    for sheet in sheets:
        if sheet.name.lower() in taken_names:
            raise ServiceError(Phrase.message(N_("The chronicle already has a character called %(name)s: choose "
                                                 "another name."), name=sheet.name),
                               field="name", status=409)
        taken_names.add(sheet.name.lower())
    taken = {code for (code,) in Character.select(Character.short_code).tuples()}
    codes = []
    for _ in sheets:
        codes.append(new_short_code(taken))
        taken.add(codes[-1])
    now = utcnow()
    names = [*scalar_fields(sheets[0]), "chronicle", "short_code", "card_token", "condition", "created_at",
             "updated_at", "imported_unused"]
    try:
        bulk_insert(Character, names, [
            (*scalar_fields(sheet).values(), chronicle.id, code, new_card_token(),
             (conditions or {}).get(sheet.name, "active"), now, now, (imported_unused or {}).get(sheet.name, {}))
            for sheet, code in zip(sheets, codes)])
    except IntegrityError:
        raise _clash(sheets[0].name) from None
    ids = dict(Character.select(Character.short_code, Character.id).where(Character.chronicle == chronicle).tuples())
    write_rows([sheet_rows(ids[code], sheet) for sheet, code in zip(sheets, codes)])
    return [ids[code] for code in codes]


def update_characters(pairs: list[tuple[Character, CharacterSheet]], columns: dict[int, dict] | None = None) -> None:
    """:func:`update_character` for many characters, their rows rewritten in a few statements
    (call inside a transaction; an import updating a thousand characters stays short).

    ``columns``: other ``Character`` columns to set, by character id (an import's condition and
    ``imported_unused``).

    Raises:
        ServiceError: 409 when another save gave another character one of these names at the same moment.
    """
    now = utcnow()
    for character, sheet in pairs:
        values = scalar_fields(sheet)
        # Tonight's Willpower and blood stay as they are, within the new ratings; a character who
        # was full stays full when a rating rises (a new sheet's Willpower or generation filled in
        # after its creation, Willpower bought with experience): no empty pool out of a sheet edit.
        values["willpower_current"] = current_after(character.willpower_current, character.willpower_permanent,
                                                    values["willpower_permanent"])
        values["blood_current"] = current_after(character.blood_current, character.blood_max, values["blood_max"])
        values["version"] = Character.version + 1
        # Every rewrite of a sheet (an edit, an undo putting one back, an import) is a new edition of
        # the printed sheet (issue 34, larp.services.editions), in this same transaction.
        values["sheet_edition"] = Character.sheet_edition + 1
        values["updated_at"] = now
        values.update((columns or {}).get(character.id, {}))
        try:
            Character.update(**values).where(Character.id == character.id).execute()
        except IntegrityError:
            raise _clash(sheet.name) from None
    for batch in chunked([character.id for character, _ in pairs], 500):
        for model in (Trait, Ability, Power, Background, MeritFlaw, Equipment):
            model.delete().where(model.character.in_(batch)).execute()
    write_rows([sheet_rows(character.id, sheet) for character, sheet in pairs])


def current_after(current: int, rating: int, new_rating: int) -> int:
    """Tonight's Willpower or blood (``current``, of ``rating``) when the sheet's rating becomes
    ``new_rating``: within a lowered rating; a character who was full is full at a raised one; one
    above his rating (Grapevine allows it, an import keeps it: issue 27) keeps what he has while the
    rating stays, and is never brought down by a raised one."""
    if current < rating:
        return min(current, new_rating)
    if new_rating == rating:
        return current
    return max(current, new_rating) if new_rating > rating else new_rating


def unstorable_parts(sheet: CharacterSheet) -> list[str]:
    """What of ``sheet`` the database would refuse (each text checked against its column, on every
    engine: see :class:`larp.models.UnstorableText`), one sentence each; empty when it can be stored."""
    problems: list[str] = []

    def check(field, value, where: str = "") -> None:
        try:
            if hasattr(field, "checked"):
                field.checked(value)
        except UnstorableText as exc:
            problems.append(f"{where}{exc.message}")

    for name, value in scalar_fields(sheet).items():
        check(Character._meta.fields[name], value)
    for model, rows in sheet_rows(0, sheet).items():
        for row in rows:
            for name, value in row.items():
                check(model._meta.fields[name], value, f"{model.__name__}: ")
    return problems


def sheet_of(character: Character) -> CharacterSheet:
    """The stored character as a :class:`CharacterSheet` (the sheet, not tonight's losses)."""
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
        nature=character.nature,
        demeanor=character.demeanor,
        virtues=dict(character.virtues or {}),
        derangements=list(character.derangements or []),
        tabletop=dict(character.tabletop or {}),
        health_levels=list(character.health_levels or []),
        notes=character.notes,
        narrator_notes=character.narrator_notes,
        player_contact=character.player_contact,
        scene_extra=character.scene_extra,
    )
    for trait in Trait.select().where(Trait.character == character).order_by(Trait.id):
        target = sheet.negative_traits if trait.negative else sheet.traits
        target.setdefault(trait.category, []).append(TraitEntry(trait.name, trait.count))
    for ability in Ability.select().where(Ability.character == character).order_by(Ability.id):
        sheet.abilities[ability.name] = ability.level
        if ability.specialisations:
            sheet.specialisations[ability.name] = list(ability.specialisations)
    sheet.powers = [
        PowerEntry(p.discipline, p.name, p.level, p.custom)
        for p in Power.select().where(Power.character == character).order_by(Power.id)
    ]
    sheet.backgrounds = {b.name: b.rating for b in
                         Background.select().where(Background.character == character).order_by(Background.id)}
    for row in MeritFlaw.select().where(MeritFlaw.character == character).order_by(MeritFlaw.id):
        (sheet.merits if row.kind == "merit" else sheet.flaws).append(QualityEntry(row.name, row.cost, row.key,
                                                                                   row.note))
    for row in Equipment.select().where(Equipment.character == character).order_by(Equipment.id):
        if row.kind == "weapon":
            card = armory("live").weapons.get(row.key) if row.key else None
            sheet.weapons.append(_weapon_entry(row, card))
        else:
            piece = armory("live").armor.get(row.key) if row.key else None
            sheet.armor.append(_armor_entry(row, piece))
    return sheet


def _weapon_entry(row: Equipment, card: Weapon | None) -> WeaponEntry:
    if card is None:
        return WeaponEntry(name=row.name, key="", bonus_traits=row.bonus_traits, damage=row.damage,
                           damage_type=row.damage_type, negative_traits=list(row.negative_traits or []),
                           specials=list(row.specials or []), kind=row.weapon_kind, note=row.note)
    from larp.sheet_checks import weapon_kind_of

    return WeaponEntry(name=card.name, key=card.key, bonus_traits=card.bonus_traits, damage=card.damage,
                       damage_type=card.damage_type, negative_traits=list(card.negative_traits),
                       specials=list(card.specials), kind=weapon_kind_of(card), note=row.note)


def _armor_entry(row: Equipment, piece: Armor | None) -> ArmorEntry:
    if piece is None:
        return ArmorEntry(name=row.name, key="", rating=row.rating, negative_traits=list(row.negative_traits or []),
                          covers=list(row.covers or []), note=row.note)
    return ArmorEntry(name=piece.name, key=piece.key, rating=piece.rating, negative_traits=list(piece.negative_traits),
                      covers=list(piece.covers), note=row.note)
