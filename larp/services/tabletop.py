"""The tabletop combat turn on stored characters (issue 9): one transaction per step.

The narrator's screen keeps a :class:`~larp.models.TabletopCombat` (the turn
state as JSON, so a reload loses nothing). Each use case loads it with its
characters, calls the pure rules (:mod:`larp.rules.tabletop`), writes the
changed health tracks with :func:`larp.services.consequences.store_track`, records
the ruling (kind "tabletop") and saves the new state, all or nothing; a stale
``version`` (another screen, a double tap) is refused with 409.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from larp.db import as_id, db, for_update
from larp.models import Character, Chronicle, Ruling, TabletopCombat, User, utcnow
from larp.rules.damage import armory
from larp.rules.conversion import semicolons
from larp.rules.explain import N_, Phrase, RulesError, phrase_step, Step
from larp.rules.settings import ChronicleSettings
from larp.rules.soak import DiceSource
from larp.rules.tabletop import aiming, ammunition, blood_use, holds, shared_dodge, turn_end
from larp.rules.tabletop import turn as turn_rules
from larp.rules.tabletop.combat import (
    Attack,
    AttackRuling,
    Circumstances,
    DefenseChoice,
    Fighter,
    resolve_attack,
    resolve_escape,
)
from larp.rules.tabletop.dice import DiceNeeded
from larp.rules.tabletop.initiative import Entrant, roll_initiative
from larp.rules.tabletop.maneuvers import Profile, profile_for
from larp.rules.tabletop.declarations import declare
from larp.rules.tabletop.turn import Combat, Declaration
from larp.services import ServiceError
from larp.services.characters import CharacterState, character_states, get_character
from larp.services.chronicles import chronicle_settings, game_night, open_game_session
from larp.services.consequences import store_track
from larp.services.records import check_submission, lock_characters, record_ruling
from larp.services.tabletop_fighters import check_gear, fighter_for

KIND = "tabletop"


def _rules_error(exc: RulesError) -> ServiceError:
    return ServiceError(exc.message, field=exc.field)


class DiceRequest(ServiceError):
    """A roll rolled at the table is still to be entered (nothing was changed).

    Attributes:
        roll: the roll's name ("damage"...); pool, difficulty: what to roll;
        steps: the ruling so far, to show while the dice are rolled.
    """

    def __init__(self, exc: DiceNeeded):
        super().__init__(exc.message, field=exc.field, status=422)
        self.roll, self.pool, self.difficulty, self.steps = exc.roll, exc.pool, exc.difficulty, exc.steps


# ---------------------------------------------------------------- loading

@dataclass
class Loaded:
    """A combat with everything a step needs, loaded in the transaction."""

    row: TabletopCombat
    combat: Combat
    settings: ChronicleSettings
    profile: Profile
    characters: dict[str, Character] = field(default_factory=dict)
    fighters: dict[str, Fighter] = field(default_factory=dict)
    states: dict[str, CharacterState] = field(default_factory=dict)

    def able(self) -> list[str]:
        """Keys of fighters who can act now."""
        return [k for k, f in self.fighters.items() if f.wound_penalty is not None]


def open_combat(chronicle: Chronicle, narrator: User) -> TabletopCombat | None:
    """The narrator's combat in progress in ``chronicle``, if any."""
    return (TabletopCombat.select()
            .where((TabletopCombat.chronicle == chronicle) & (TabletopCombat.narrator == narrator)
                   & TabletopCombat.ended_at.is_null())
            .order_by(TabletopCombat.id.desc()).first())


def end_combats_of(chronicle: Chronicle, character_ids: Sequence[int]) -> int:
    """End every tabletop combat in progress that one of ``character_ids`` fights in (they are being
    deleted: such a combat cannot go on). Call inside the caller's transaction; returns how many."""
    keys = {str(i) for i in character_ids}
    broken = [row.id for row in TabletopCombat.select().where((TabletopCombat.chronicle == chronicle)
                                                              & TabletopCombat.ended_at.is_null())
              if keys & {str(k) for k in (row.state or {}).get("fighters", [])}]
    if broken:
        TabletopCombat.update(ended_at=utcnow(), version=TabletopCombat.version + 1).where(
            TabletopCombat.id.in_(broken)).execute()
    return len(broken)


def load(chronicle: Chronicle, row: TabletopCombat) -> Loaded:
    """The combat ``row`` with its fighters as they stand now.

    Raises:
        ServiceError: the stored state cannot be read, or a fighter is gone (404).
    """
    settings = chronicle_settings(chronicle)
    try:
        combat = Combat.from_dict(row.state)
    except RulesError as exc:
        raise _rules_error(exc) from None
    loaded = Loaded(row, combat, settings, profile_for(settings))
    # The fighters in two queries (their rows, locked in a transaction, then their sheets), checked as
    # get_character checks each.
    ids = {key: as_id(key) for key in combat.fighters}
    wanted = sorted({i for i in ids.values() if i is not None})
    found = {c.id: c for c in for_update(Character.select().where(
        Character.id.in_(wanted) & (Character.chronicle == chronicle)).order_by(Character.id))}
    if any(cid not in found for cid in ids.values()):
        raise ServiceError(Phrase.message(N_("There is no such character in "
                                             "this chronicle.")), field="characters", status=404)
    check_submission(found.values())
    states = character_states(list(found.values()), None, settings)
    for key, cid in ids.items():
        character = loaded.characters[key] = found[cid]
        loaded.states[key] = states[cid]
        loaded.fighters[key] = replace(fighter_for(character, settings, (row.gear or {}).get(key), states[cid]),
                                       ignore_wounds=key in combat.willpower)
    return loaded


def _get(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any) -> Loaded:
    cid, ver = as_id(combat_id), as_id(version)
    if cid is None or ver is None:
        raise ServiceError(Phrase.message(N_("Reload the tabletop screen: the form "
                                             "lost track of the combat.")), field="combat") from None
    # Check-then-write: lock the combat (its version is checked below, on the locked row), then
    # its fighters in id order before they are loaded (FOR NO KEY UPDATE on PostgreSQL; SQLite
    # serialises writers).
    row = for_update(TabletopCombat.select().where((TabletopCombat.id == cid)
                                                   & (TabletopCombat.chronicle == chronicle))).first()
    if row is not None:
        lock_characters((row.state or {}).get("fighters") or ())
        check_submission(())  # the same form again is named as such, before the version says "changed"
    if row is None or row.ended_at is not None:
        raise ServiceError(Phrase.message(N_("That combat is over or does not exist.")), field="combat", status=404)
    if row.narrator_id != narrator.id:
        raise ServiceError(Phrase.message(N_("Another narrator runs that combat.")), field="combat", status=403)
    if row.version != ver:
        raise ServiceError(Phrase.message(N_("The combat changed on another screen a moment ago: look again and "
                                             "retry.")),
                           field="combat", status=409)
    return load(chronicle, row)


def _save(loaded: Loaded, combat: Combat, last: list[int] | None = None, gear: dict | None = None) -> TabletopCombat:
    values: dict[str, Any] = {"state": combat.to_dict(), "version": TabletopCombat.version + 1, "updated_at": utcnow()}
    if last is not None:
        values["last"] = last
    if gear is not None:
        values["gear"] = gear
    rows = (TabletopCombat.update(**values)
            .where((TabletopCombat.id == loaded.row.id) & (TabletopCombat.version == loaded.row.version)).execute())
    if rows != 1:
        raise ServiceError(Phrase.message(N_("The combat changed on another screen a moment ago: look again and "
                                             "retry.")),
                           field="combat", status=409)
    return TabletopCombat.get_by_id(loaded.row.id)


# ---------------------------------------------------------------- use cases

def start_combat(chronicle: Chronicle, narrator: User, character_ids: Sequence[Any],
                 gear: Mapping[str, Mapping[str, Any]] | None = None) -> TabletopCombat:
    """Start a tabletop combat between 2 and 6 characters of ``chronicle``.

    A character without tabletop dots fights with ratings converted from his Traits
    (:func:`larp.services.tabletop_fighters.fighter_for`), shown as converted.

    Raises:
        ServiceError: 409 the narrator already runs one; 422 too few or too many
            characters, unknown gear; 404 an unknown character.
    """
    with db.atomic():
        running = open_combat(chronicle, narrator)
        if running is not None:
            try:
                load(chronicle, running)
            except ServiceError:  # it cannot be shown any more (a fighter was deleted): this one replaces it
                TabletopCombat.update(ended_at=utcnow(), version=TabletopCombat.version + 1).where(
                    TabletopCombat.id == running.id).execute()
            else:
                raise ServiceError(Phrase.message(N_("You already run a tabletop "
                                                     "combat: end it first.")), field="combat", status=409)
        lock_characters(character_ids)  # in id order, before they are loaded one by one
        characters = [get_character(chronicle, cid, "characters") for cid in character_ids]
        try:
            combat = turn_rules.new_combat([(str(c.id), c.name) for c in characters])
        except RulesError as exc:
            raise _rules_error(exc) from None
        chosen = {str(c.id): check_gear((gear or {}).get(str(c.id), {}), str(c.id)) for c in characters}
        return TabletopCombat.create(chronicle=chronicle, narrator=narrator, state=combat.to_dict(), gear=chosen)


def change_gear(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any,
                gear: Mapping[str, Mapping[str, Any]]) -> TabletopCombat:
    """Change the weapons and armor the fighters use (a drawn blade, a dropped gun).

    Raises:
        ServiceError: as :func:`_get`; unknown gear (422).
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        chosen = dict(loaded.row.gear or {})
        for key in loaded.combat.fighters:
            if key in gear:
                chosen[key] = check_gear(gear[key], key)
        return _save(loaded, loaded.combat, gear=chosen)


def roll_combat_initiative(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any,
                           dice: Mapping[str, int] | None, rng: DiceSource | None,
                           willpower: Sequence[str] = ()) -> Ruling:
    """Roll initiative for every fighter (dice entered at the table, or drawn) and record it.

    ``willpower``: the fighters who spend a Willpower point now to ignore their wound penalties
    this turn, Incapacitated included (LotNR Willpower, met-reference 2.1): they roll without the
    penalty, act this turn, and the point is spent and recorded.

    Raises:
        ServiceError: as :func:`_get`; initiative already rolled; a bad die (422); a fighter with
            no Willpower point left (422), or one changed meanwhile (409).
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        combat = loaded.combat
        modifiers = turn_rules.initiative_modifiers(combat)
        spending = [str(k) for k in willpower if str(k) in loaded.fighters]
        for key in spending:
            if (loaded.characters[key].willpower_current or 0) < 1:
                raise ServiceError(Phrase.message(N_("%(name)s has no Willpower point left to spend."),
                                                  name=combat.name(key)),
                                   field=f"willpower-{key}")
            loaded.fighters[key] = replace(loaded.fighters[key], ignore_wounds=True)
        entrants = []
        for key in combat.fighters:
            f = loaded.fighters[key]
            mod, why = modifiers.get(key, (0, ""))
            entrants.append(Entrant(key, f.name, f.attribute("Dexterity"), f.attribute("Wits"), f.wound_penalty,
                                    mod, why))
        try:
            initiative = roll_initiative(entrants, dice=dice, rng=rng, settings=loaded.settings)
            combat, steps = turn_rules.begin_turn(combat, initiative, spending)
        except RulesError as exc:
            raise _rules_error(exc) from None
        converted = [phrase_step(N_("%(name)s's tabletop dots converted from the live sheet (approximate): %(converted)s."),
                                 "LotNR Converting Characters (met-reference 4.3)", name=loaded.fighters[key].name,
                                 converted=semicolons(list(loaded.fighters[key].converted)))
                     for key in combat.fighters if loaded.fighters[key].converted]
        all_steps = converted + list(initiative.steps) + list(steps)
        record = record_ruling(
            chronicle, narrator, KIND, Phrase.message(N_("Tabletop turn %(turn)s: initiative"), turn=combat.turn), all_steps,
            [(loaded.characters[k], "fighter") for k in combat.fighters], game_session=open_game_session(chronicle),
            inputs={"turn": combat.turn, "dice": dict(dice or {}), "willpower": spending},
            outcome=initiative.to_dict(),
        )
        for key in spending:
            _spend_willpower(loaded.characters[key], field=f"willpower-{key}")
        _save(loaded, combat, last=[record.id])
        return record


def declare_actions(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any,
                    declarations: Mapping[str, Declaration]) -> TabletopCombat:
    """Take every fighter's declaration and start the actions. Celerity's extra actions cost the
    blood the chronicle's setting says (004 "Activate Celerity", ``tabletop_celerity_blood``), paid
    now from each vampire's pool and recorded.

    Raises:
        ServiceError: as :func:`_get`; an impossible declaration (422 naming it).
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        celerity = {k: f.discipline("Celerity") for k, f in loaded.fighters.items()}
        pools = {k: c.blood_current for k, c in loaded.characters.items() if loaded.fighters[k].track.is_vampire}
        try:
            combat, steps = declare(loaded.combat, declarations, celerity, loaded.profile,
                                               blood=pools, settings=loaded.settings)
        except RulesError as exc:
            raise _rules_error(exc) from None
        paid = {k: n for k, n in combat.carried.celerity_paid.items() if n}
        if not paid:
            return _save(loaded, combat, last=[])  # nothing ruled: the last step's rulings are no longer the latest
        # Celerity's extra actions cost blood, paid now (004 "Activate Celerity"; setting
        # tabletop_celerity_blood): recorded, and taken off each pool with a version check.
        record = record_ruling(chronicle, narrator, KIND, Phrase.message(
                                   N_("Celerity's blood: %(paid)s."), paid=[f"{combat.name(k)} {n}" for k, n in paid.items()]),
                               [step for step in steps if "blood" in step.text.lower()],
                               [(loaded.characters[k], "fighter") for k in paid],
                               game_session=open_game_session(chronicle),
                               inputs={"turn": combat.turn, "combat": loaded.row.id, "celerity_blood": paid},
                               outcome={"paid": paid})
        for key, cost in paid.items():
            spend_blood(loaded.characters[key], cost, field=f"{key}.celerity")
        return _save(loaded, combat, last=[record.id])


@dataclass(frozen=True)
class AttackOrder:
    """An attack as the narrator enters it on the screen.

    Attributes:
        attacker, target: character ids (text).
        maneuver: a maneuver key of the chronicle's profile.
        circumstances: the situation; ``prior_hold``, ``target_held`` and
            ``unbalanced`` are filled in from the combat.
        defense: "dodge", "block", "parry", Dark Ages "passive_parry" (no roll, no action spent, 004) or
            ``None``.
        with_shield: the target parries with his shield (004 "Parrying").
        shared: Dark Ages: the successes of his one dodge roll this turn he gives this attack
            (:func:`larp.rules.tabletop.shared_dodge.dodge_against`, 004 "Dodging"); ``None``: not so.
        abort: ``None`` (a kept defense), "roll" or "point".
        attackers: attackers the target defends against this turn.
        dodge_modifiers: Dark Ages dodge modifier keys.
    """

    attacker: str
    target: str
    maneuver: str
    circumstances: Circumstances = Circumstances()
    defense: str | None = None
    abort: str | None = None
    attackers: int = 1
    dodge_modifiers: tuple[str, ...] = ()
    with_shield: bool = False
    shared: int | None = None


def resolve_combat_attack(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, order: AttackOrder,
                          dice: Mapping[str, Sequence[int]] | None, rng: DiceSource | None) -> tuple[Ruling, AttackRuling]:
    """Resolve the attacker's next action as an attack, apply it and record it.

    The attacker must be the next in the order, or a delayer acting now. The
    target's defense uses one of his actions (a kept defense, or an abort by
    Willpower). Damage goes on the same health tracks as the live game.

    Raises:
        ServiceError: as :func:`_get`; 422 for anything the rules refuse (naming
            the field; nothing is changed); 409 a character changed meanwhile.
            A missing roll (dice entered at the table) is a 422 on ``dice.<roll>``.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        combat = loaded.combat
        able = loaded.able()
        slot = combat.next_slot(able)
        a_key, t_key = str(order.attacker), str(order.target)
        if a_key not in loaded.fighters:
            raise ServiceError(Phrase.message(N_("The attacker is not in this fight.")), field="attacker")
        if t_key not in loaded.fighters:
            raise ServiceError(Phrase.message(N_("Choose a target from this fight.")), field="target")
        if (slot is None or slot.who != a_key) and a_key not in combat.waiting(able):
            whose = f"It is {combat.name(slot.who)}'s action." if slot else "Every action of this turn is done."
            raise ServiceError(Phrase.message(N_("%(name)s cannot act now. %(whose)s"),
                                              name=combat.name(a_key), whose=whose), field="attacker")
        attacker, target = loaded.fighters[a_key], loaded.fighters[t_key]
        try:
            # the Physical Attributes blood raised this scene count in every roll (004 "Spend Blood")
            attacker = blood_use.boosted(attacker, combat)
            target = blood_use.boosted(target, combat)
            c = order.circumstances
            gun = _gun(loaded, combat, a_key, order.maneuver)
            if gun is not None:  # rounds and rate counted through the turn (000 "Ranged Weapons Chart")
                c = replace(c, gun=gun)
            aimed, scoped = aiming.aim_for(combat, a_key, t_key)
            if aimed:  # the turns aimed on the screen, not typed (000 "Aiming")
                c = replace(c, aim_turns=aimed, scope=scoped)
            # a held fighter may only break free, one in a clinch go on with it (000 "Hold", "Clinch")
            carried_on = holds.check_action(combat, a_key, order.maneuver, t_key, loaded.profile)
            c = Circumstances(**{**c.__dict__, "prior_hold": carried_on or combat.prior_hold(a_key, t_key),
                                 "target_held": c.target_held or bool(combat.held_by(t_key)),
                                 "unbalanced": combat.has_condition(a_key, "unbalanced")})
            defense = None
            if order.defense or order.shared is not None:
                holds.check_defense(combat, t_key, loaded.profile)  # held: no defense but breaking free
            if order.shared is not None:  # a share of his one dodge roll this turn (004 "Dodging")
                defense = replace(shared_dodge.dodge_against(combat, t_key, order.shared), attackers=order.attackers)
            elif order.defense == "passive_parry":  # no roll and no action spent (004 "Parrying")
                defense = DefenseChoice(order.defense, attackers=order.attackers, with_shield=order.with_shield)
            elif order.defense:
                defense = DefenseChoice(order.defense, combat.action_slot(t_key, defense=True), order.abort,
                                        order.attackers, tuple(order.dodge_modifiers), with_shield=order.with_shield)
                combat = turn_rules.use_defense(combat, t_key, bool(order.abort), loaded.profile)
            game_session = open_game_session(chronicle)
            ruling = resolve_attack(Attack(order.maneuver, attacker, target, c, combat.action_slot(a_key), defense),
                                    loaded.settings, dice=dice, rng=rng, night=game_night(game_session))
        except DiceNeeded as exc:
            raise DiceRequest(exc) from None
        except RulesError as exc:
            raise _rules_error(exc) from None
        combat = turn_rules.take_action(combat, a_key, ruling.summary)
        combat = turn_rules.apply_effects(combat, ruling.effects)
        for key, track in ((t_key, ruling.target_track), (a_key, ruling.attacker_track)):
            if track.condition != "active" or track.staked:
                combat = turn_rules.drop_fighter(combat, key)
        record = record_ruling(
            chronicle, narrator, KIND, ruling.summary, ruling.steps,
            [(loaded.characters[a_key], "attacker"), (loaded.characters[t_key], "target")],
            game_session=game_session,
            inputs={"turn": combat.turn, "combat": loaded.row.id, "maneuver": order.maneuver, "attacker": a_key,
                    "target": t_key,
                    "circumstances": {k: (v.to_dict() if k == "gun" else v) for k, v in c.__dict__.items()
                                      if v != getattr(Circumstances(), k)},
                    "defense": order.defense, "abort": order.abort, "with_shield": order.with_shield,
                    "shared": order.shared, "dice": {k: list(v) for k, v in ruling.dice.items()},
                    "gear": {k: loaded.row.gear.get(k) for k in (a_key, t_key)}},
            outcome=ruling.to_dict(),
        )
        for key, track, before in ((t_key, ruling.target_track, target.track),
                                   (a_key, ruling.attacker_track, attacker.track)):
            if track != before:
                loaded.characters[key] = store_track(loaded.characters[key], track, torpor=ruling.torpor.get(key))
        if ruling.has("willpower_spent"):
            _spend_willpower(loaded.characters[t_key])
        _save(loaded, combat, last=[record.id])
        return record, ruling


def _gun(loaded: Loaded, combat: Combat, key: str, maneuver: str):
    """``key``'s gun as the combat carries it, for a ranged maneuver with a weapon that has a clip
    (:func:`larp.rules.tabletop.ammunition.gun_for`); ``None`` otherwise (bows, thrown, close)."""
    weapon = loaded.fighters[key].weapon
    m = loaded.profile.maneuvers.get(maneuver)
    if not weapon or m is None or m.kind != "ranged":
        return None
    card = armory("tabletop").weapons.get(weapon)
    if card is None or card.clip is None or not card.reload_turns:
        return None
    return ammunition.gun_for(combat, key, card)


def spend_blood(character: Character, cost: int, field: str) -> None:
    """Take ``cost`` blood points off ``character``'s pool with the version check (a 409 naming
    ``field`` if he changed meanwhile or has not that much)."""
    rows = (Character.update(blood_current=Character.blood_current - cost, version=Character.version + 1,
                             updated_at=utcnow())
            .where((Character.id == character.id) & (Character.version == character.version)
                   & (Character.blood_current >= cost)).execute())
    if rows != 1:
        raise ServiceError(Phrase.message(N_("%(name)s has not that much blood left, or was changed a moment ago."),
                                          name=character.name),
                           field=field, status=409)


def _spend_willpower(character: Character, field: str = "defense.abort") -> None:
    """Spend one Willpower point of ``character`` with the version check (a 409 if he changed)."""
    rows = (Character.update(willpower_current=Character.willpower_current - 1, version=Character.version + 1,
                             updated_at=utcnow())
            .where((Character.id == character.id) & (Character.version == character.version)
                   & (Character.willpower_current > 0)).execute())
    if rows != 1:
        raise ServiceError(Phrase.message(N_("%(name)s has no Willpower point left, or was changed a moment ago."),
                                          name=character.name),
                           field=field, status=409)


def acting(loaded: Loaded, who: Any) -> str:
    """The key of ``who`` if he may take an action now (the next in the order, or a delayer).

    Raises:
        ServiceError: 422 on ``character`` otherwise.
    """
    key, combat, able = str(who), loaded.combat, loaded.able()
    slot = combat.next_slot(able)
    if key not in loaded.fighters or ((slot is None or slot.who != key) and key not in combat.waiting(able)):
        raise ServiceError(Phrase.message(N_("%(name)s cannot act now."), name=combat.name(key)) if key in loaded.fighters
                           else Phrase.message(N_("He cannot act now.")),
                           field="character")
    return key


def other_action(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any,
                 note: str = "") -> TabletopCombat:
    """The next fighter takes an action that is not an attack (movement, a Discipline,
    reloading...): the narrator rules it; the order moves on.

    Raises:
        ServiceError: as :func:`_get`; the fighter cannot act now (422).
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        combat = loaded.combat
        key = acting(loaded, who)
        text = (f"{combat.name(key)}: {note.strip()[:200]}." if note.strip() else
                Phrase.message(N_("%(name)s: another action, ruled by the narrator."), name=combat.name(key)))
        try:
            combat = turn_rules.take_action(combat, key, text)
        except RulesError as exc:
            raise _rules_error(exc) from None
        return _save(loaded, combat, last=[])


def break_free(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any,
               dice: Mapping[str, Sequence[int]] | None, rng: DiceSource | None) -> Ruling:
    """The next fighter, held, tries to break free (resisted Strength + Brawl) as his action; recorded.

    Raises:
        ServiceError: as :func:`_get`; he is not held or cannot act now (422).
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        combat = loaded.combat
        key = acting(loaded, who)
        holds = combat.held_by(key)
        if not holds:
            raise ServiceError(Phrase.message(N_("%(name)s is not held."), name=combat.name(key)), field="character")
        hold = holds[0]
        try:
            escape = resolve_escape(loaded.fighters[key], loaded.fighters[hold.holder], hold.maneuver,
                                    loaded.settings, dice=dice, rng=rng)
        except DiceNeeded as exc:
            raise DiceRequest(exc) from None
        except RulesError as exc:
            raise _rules_error(exc) from None
        summary = Phrase.message(N_("%(name)s breaks free of %(holder)s.") if escape.freed else
                                 N_("%(name)s fails to break free of %(holder)s."), name=combat.name(key),
                                 holder=combat.name(hold.holder))
        combat = turn_rules.take_action(combat, key, summary)
        if escape.freed:
            combat = turn_rules.release(combat, key)
        record = record_ruling(
            chronicle, narrator, KIND, summary, escape.steps,
            [(loaded.characters[key], "escaper"), (loaded.characters[hold.holder], "holder")],
            game_session=open_game_session(chronicle), inputs={"turn": combat.turn, "hold": hold.to_dict()},
            outcome=escape.to_dict(),
        )
        _save(loaded, combat, last=[record.id])
        return record


def next_combat_turn(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any) -> TabletopCombat:
    """End this turn: the extended and delayed effects due take effect (recorded, when there are
    any), then the next turn starts with initiative (:func:`larp.rules.tabletop.turn_end.end_turn`;
    004 "Extended and Delayed Effects").

    Raises:
        ServiceError: as :func:`_get`.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        ending = loaded.combat.turn
        try:
            combat, steps, due = turn_end.end_turn(loaded.combat)
        except RulesError as exc:
            raise _rules_error(exc) from None
        if not due:
            return _save(loaded, combat, last=[])
        who = list(dict.fromkeys(p.who for p in due))
        record = record_ruling(chronicle, narrator, KIND, Phrase.counted(
                                   len(due), "End of tabletop turn %(turn)s: %(n)s effect takes effect.",
                                   "End of tabletop turn %(turn)s: %(n)s effects take effect.", turn=ending),
                               steps, [(loaded.characters[k], "fighter") for k in who if k in loaded.characters],
                               game_session=open_game_session(chronicle),
                               inputs={"turn": ending, "combat": loaded.row.id, "end_of_turn": True},
                               outcome={"due": [p.to_dict() for p in due]})
        return _save(loaded, combat, last=[record.id])


def end_combat(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any) -> None:
    """End the combat (the health tracks keep their damage; the rulings stay in the record).

    Raises:
        ServiceError: as :func:`_get`.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        TabletopCombat.update(ended_at=utcnow(), version=TabletopCombat.version + 1).where(
            TabletopCombat.id == loaded.row.id).execute()


def last_rulings(row: TabletopCombat) -> list[Ruling]:
    """The rulings of the latest step, to show under the turn."""
    ids = [int(i) for i in (row.last or [])]
    if not ids:
        return []
    return list(Ruling.select().where(Ruling.id.in_(ids)).order_by(Ruling.id))
