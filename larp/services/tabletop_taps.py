"""The tabletop screen's taps besides the attack (issue 37): the ambush, the Kiss's drink, healing with
blood, a move, a turn of aiming, reloading, blood for Physical Attributes, the Dark Ages shared dodge and clinch
turn, and the effects noted for the end of the turn.

Each tap is one service call, as in :mod:`larp.services.tabletop`: load the combat once (version
checked, fighters locked), call the rules core once, record the ruling and save, in one transaction.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from larp.db import db
from larp.models import Chronicle, Ruling, TabletopCombat, User
from larp.rules.damage import armory
from larp.rules.explain import N_, Phrase, RulesError, Step
from larp.rules.soak import DiceSource
from larp.rules.tabletop import aiming, ammunition, blood_use, holds, movement, shared_dodge, turn_end
from larp.rules.tabletop import turn as turn_rules
from larp.rules.tabletop.combat import resolve_ambush
from larp.rules.tabletop.dice import DiceNeeded
from larp.rules.tabletop.turn import Combat
from larp.services import ServiceError
from larp.services.adjudicate import Feeding, Healing, adjudicate_loaded
from larp.services.chronicles import open_game_session
from larp.services.consequences import store_track
from larp.services.records import record_ruling
from larp.services.tabletop import KIND, Loaded, _get, _rules_error, _save, acting, spend_blood


def reload_weapon(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any) -> Ruling:
    """The acting fighter reloads his weapon as his action (:func:`larp.rules.tabletop.ammunition.reload`;
    000, 003 "Reloading": one turn; the crossbow five, one a turn). Recorded; the order moves on.

    Raises:
        ServiceError: as :func:`_get`; 422 (``reload``) no weapon, one that needs no reloading, full,
            or reloaded this turn already.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        key = acting(loaded, who)
        weapon = loaded.fighters[key].weapon
        if not weapon:
            raise ServiceError(Phrase.message(N_("%(name)s has no weapon to reload."),
                                              name=loaded.combat.name(key)), field="reload")
        try:
            combat, ruling = ammunition.reload(loaded.combat, key, weapon)
        except RulesError as exc:
            raise ServiceError(exc.message, field="reload") from None
        return _acted(chronicle, narrator, loaded, combat, key, turn_rules.said_text(ruling.steps[-1]), ruling.steps,
                      {"reload": weapon}, ruling.to_dict())


def rounds_left(loaded: Loaded, key: str) -> tuple[int, int] | None:
    """(rounds in the clip, the clip) of ``key``'s gun, or ``None`` if he carries none that is counted."""
    weapon = loaded.fighters[key].weapon
    card = armory("tabletop").weapons.get(weapon) if weapon else None
    if card is None or card.clip is None or not card.reload_turns:
        return None
    gun = ammunition.gun_for(loaded.combat, key, card)
    return (gun.rounds if gun.rounds is not None else card.clip), card.clip


def ambush(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, ambusher: Any, target: Any,
           cover: bool, in_combat: bool, dice: Mapping[str, Sequence[int]] | None,
           rng: DiceSource | None) -> Ruling:
    """One fighter ambushes another, by the chronicle's profile
    (:func:`larp.rules.tabletop.combat.resolve_ambush`; 000 "Ambush", 004 "Ambush"); recorded.

    Revised: Dexterity + Stealth against Perception + Alertness; the extra successes are the
    free attack's extra dice (the attack form takes them as "Ambush dice"). Dark Ages: preparing it
    takes ``cover`` and Wits + Stealth (6); the target then rolls Perception + Alertness (8) for
    the dice he has the first turn. A target already ``in_combat`` cannot be ambushed. The combat's
    turn is unchanged (no action is spent: the ambush comes before the fight).

    Raises:
        ServiceError: as :func:`_get`; 422 on ``ambush.<field>`` for a fighter not in this combat,
            the same fighter twice, or what the rules refuse (no cover under Dark Ages, a target
            in combat); :class:`DiceRequest` for a roll to be entered at the table.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        a_key, t_key = str(ambusher), str(target)
        if a_key not in loaded.fighters:
            raise ServiceError(Phrase.message(N_("Choose the ambusher from this fight.")), field="ambush.ambusher")
        if t_key not in loaded.fighters or t_key == a_key:
            raise ServiceError(Phrase.message(N_("Choose someone else of this fight as "
                                                 "the ambush's target.")), field="ambush.target")
        try:
            result = resolve_ambush(loaded.fighters[a_key], loaded.fighters[t_key], loaded.settings, dice=dice,
                                    rng=rng, cover=cover, in_combat=in_combat)
        except DiceNeeded as exc:
            raise ServiceError(Phrase.message(N_("%(message)s (the ambush's dice: %(pool)s dice, difficulty "
                                                 "%(difficulty)s)."),
                                              message=exc.message, pool=exc.pool, difficulty=exc.difficulty),
                               field=f"ambush.dice.{exc.roll}") from None
        except RulesError as exc:
            raise ServiceError(exc.message, field=f"ambush.{exc.field or 'target'}") from None
        combat = loaded.combat
        summary = Phrase.message({
            "free_attack": N_("%(name)s ambushes %(target)s: a free attack with %(dice)s extra dice."),
            "first_strike": N_("%(name)s ambushes %(target)s: strikes first, the target may defend."),
            "spotted": N_("%(name)s ambushes %(target)s: spotted, initiative as usual."),
            "ambushed": N_("%(name)s ambushes %(target)s: wins initiative; %(target)s has %(target_dice)s dice the first "
                           "turn."),
            "not_prepared": N_("%(name)s ambushes %(target)s: not prepared, initiative as usual.")}[result.outcome],
            name=combat.name(a_key), target=combat.name(t_key), dice=result.attack_dice, target_dice=result.target_dice)
        record = record_ruling(
            chronicle, narrator, KIND, summary, result.steps,
            [(loaded.characters[a_key], "ambusher"), (loaded.characters[t_key], "target")],
            game_session=open_game_session(chronicle),
            inputs={"turn": combat.turn, "combat": loaded.row.id, "ambush": True, "ambusher": a_key, "target": t_key, "cover": cover,
                    "in_combat": in_combat, "dice": {k: list(v.dice) for k, v in result.rolls.items()}},
            outcome=result.to_dict(),
        )
        _save(loaded, combat, last=[record.id])
        return record


def kissed(row: TabletopCombat, drinker: str | None) -> list[str]:
    """The fighters ``drinker`` has connected with a Kiss in this combat (000, 004 "Bite": the Kiss),
    whom he may drain: their keys, latest first."""
    if drinker is None:
        return []
    found: list[str] = []
    recent = (Ruling.select().where((Ruling.chronicle == row.chronicle) & (Ruling.kind == KIND)
                                    & (Ruling.created_at >= row.created_at) & Ruling.undone_at.is_null())
              .order_by(Ruling.id.desc()).limit(200))
    for ruling in recent:
        inputs, outcome = ruling.inputs or {}, ruling.outcome or {}
        if (inputs.get("combat") == row.id and inputs.get("maneuver") == "kiss" and inputs.get("attacker") == drinker
                and outcome.get("hit") and inputs.get("target") not in found):
            found.append(str(inputs.get("target")))
    return found


def drink(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, drinker: Any, victim: Any,
          blood: Any) -> Ruling:
    """After a Kiss that connected, the vampire drains his victim's blood as his action (000 "Close
    Combat Maneuvers": Bite, "the vampire may begin to drain the victim's blood at the normal rate";
    004 "Bite": the Kiss). The feeding itself is the feeding rule every screen uses
    (:class:`larp.services.adjudicate.Feeding`, as :func:`larp.services.health.feed_on_victim`: each blood
    point costs a mortal or ghoul a level of lethal damage, at most three a turn; LotNR "Blood",
    met-reference 3.7), on the combat's one load of its fighters; recorded, and the order moves on.

    Raises:
        ServiceError: as :func:`_get`; 422 on ``drink``: the drinker cannot act now, has not Kissed
            that victim in this combat, or what the feeding rule refuses.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        combat = loaded.combat
        key, prey = str(drinker), str(victim)
        able = loaded.able()
        slot = combat.next_slot(able)
        if key not in loaded.fighters or ((slot is None or slot.who != key) and key not in combat.waiting(able)):
            raise ServiceError(Phrase.message(N_("The drinker cannot act now.")), field="drink")
        if prey not in kissed(loaded.row, key):
            raise ServiceError(Phrase.message(N_("%(name)s has not connected with a Kiss on that victim in this "
                                                 'fight: the Kiss comes first (000 "Bite").'),
                                              name=combat.name(key)), field="drink")
        try:
            combat = turn_rules.take_action(combat, key, Phrase.message(N_("%(name)s drinks from %(prey)s."),
                                                                        name=combat.name(key), prey=combat.name(prey)))
        except RulesError as exc:
            raise ServiceError(exc.message, field="drink") from None
        try:
            record = adjudicate_loaded(chronicle, narrator, Feeding(loaded.characters[key].id,
                                                                    loaded.characters[prey].id, blood),
                                       [loaded.states[key], loaded.states[prey]], loaded.settings).ruling
        except ServiceError as exc:
            raise ServiceError(exc.message, field="drink", status=exc.status) from None
        _save(loaded, combat, last=[record.id])
        return record


def fighter_key(loaded: Loaded, who: Any, field_name: str, refusal: str = "Choose a fighter of this combat.") -> str:
    """The key of ``who``, a fighter of the loaded combat.

    Raises:
        ServiceError: 422 ``refusal`` on ``field_name`` for anyone else.
    """
    key = str(who)
    if key not in loaded.fighters:
        raise ServiceError(refusal, field=field_name)
    return key


def heal_fighter(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any, kind: str,
                 levels: Any) -> Ruling:
    """A fighter spends blood to heal, reflexively (004 "Preliminaries"), at the tabletop profile's rate:
    one blood point a level of bashing or lethal (:func:`larp.rules.rulings.rule_healing` with the
    tabletop game). Recorded; the combat's version moves on.

    Raises:
        ServiceError: as :func:`_get`; a fighter not in this combat (422 "fighter"); what the
            healing rules refuse.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        key = fighter_key(loaded, who, "fighter")
        try:
            record = adjudicate_loaded(chronicle, narrator, Healing(loaded.characters[key].id, kind, levels,
                                                                    game="tabletop"),
                                       [loaded.states[key]], loaded.settings).ruling
        except ServiceError as exc:
            raise ServiceError(exc.message, field="heal", status=exc.status) from None
        _save(loaded, loaded.combat, last=[record.id])
        return record


def _acted(chronicle: Chronicle, narrator: User, loaded: Loaded, combat: Combat, key: str, summary: str,
           steps: Sequence[Step], inputs: dict[str, Any], outcome: dict[str, Any]) -> Ruling:
    """Record one rules call of ``key``'s (a move, an aim) and save the combat after it."""
    record = record_ruling(chronicle, narrator, KIND, summary, steps, [(loaded.characters[key], "fighter")],
                           game_session=open_game_session(chronicle),
                           inputs={"turn": loaded.combat.turn, "combat": loaded.row.id, "fighter": key, **inputs},
                           outcome=outcome)
    _save(loaded, combat, last=[record.id])
    return record


def move_fighter(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any,
                 yards: int) -> Ruling:
    """The acting fighter spends his action moving ``yards`` yards, checked against his allowance
    and his wounds (:func:`larp.rules.tabletop.movement.move`; 000, 003, 004 "Movement", 000 "Health
    Chart"); aims at a runner break. Recorded; the order moves on.

    Raises:
        ServiceError: as :func:`_get`; 422 he cannot act now (``character``) or cannot move that far
            (``yards``).
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        key = acting(loaded, who)
        try:
            combat, ruling = movement.move(loaded.combat, loaded.fighters[key], yards, loaded.settings)
        except RulesError as exc:
            raise _rules_error(exc) from None
        summary = turn_rules.said_text(ruling.steps[-1]) if ruling.steps else Phrase.message(N_("%(name)s moves."), name=loaded.combat.name(key))
        return _acted(chronicle, narrator, loaded, combat, key, summary, ruling.steps, {"yards": yards},
                      ruling.to_dict())


def aim_fighter(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any, target: Any,
                scope: bool = False, target_pace: str = "walk") -> Ruling:
    """The acting fighter spends the turn aiming at ``target`` (:func:`larp.rules.tabletop.aiming.aim`;
    000, 003 "Aiming": +1 die a turn up to Perception, a scope +2 the first turn). His later shot at
    that target takes the turns aimed (:func:`larp.rules.tabletop.aiming.aim_for`). Recorded.

    Raises:
        ServiceError: as :func:`_get`; 422 what the rules refuse (he acted already this turn, no ranged
            weapon or Firearms, a target faster than a walk...).
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        key = acting(loaded, who)
        aimed = str(target)
        if aimed not in loaded.fighters or aimed == key:
            raise ServiceError(Phrase.message(N_("Choose whom he aims at, in this fight.")), field="aim_target")
        try:
            combat, ruling = aiming.aim(loaded.combat, loaded.fighters[key], aimed, loaded.settings, scope=scope,
                                        target_pace=target_pace)
        except RulesError as exc:
            raise _rules_error(exc) from None
        summary = turn_rules.said_text(ruling.steps[-1]) if ruling.steps else Phrase.message(N_("%(name)s aims."), name=loaded.combat.name(key))
        return _acted(chronicle, narrator, loaded, combat, key, summary, ruling.steps,
                      {"target": aimed, "scope": scope, "target_pace": target_pace}, ruling.to_dict())


def burn_blood(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any,
               raises: Mapping[str, int]) -> Ruling:
    """A vampire burns blood to raise Physical Attributes for the scene, one dot a blood point, within
    his generation's limit a turn and its Attribute maximum
    (:func:`larp.rules.tabletop.blood_use.spend_blood_on_attributes`; 004 "Spend Blood"). Reflexive:
    no action spent. The blood comes off his pool; recorded.

    Raises:
        ServiceError: as :func:`_get`; 422 (``blood``) a fighter not in this combat, not a vampire,
            nothing raised, more than his pool or his generation allows; 409 he changed meanwhile.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        key = fighter_key(loaded, who, "blood")
        try:
            combat, ruling = blood_use.spend_blood_on_attributes(loaded.combat, loaded.fighters[key],
                                                                 {k: v for k, v in raises.items() if v})
        except RulesError as exc:
            raise ServiceError(exc.message, field="blood") from None
        spend_blood(loaded.characters[key], ruling.blood, field="blood")
        summary = Phrase.message(N_("%(name)s burns %(n)s blood: %(raised)s for the scene."), name=combat.name(key),
                                 n=ruling.blood, raised=[Phrase.message(N_("%(what)s %(n)s"), what=Phrase.term(a), n=v)
                                                         for a, v in ruling.raised.items()])
        return _acted(chronicle, narrator, loaded, combat, key, summary, ruling.steps,
                      {"raises": dict(raises)}, ruling.to_dict())


def shared_dodge_roll(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any,
                      attackers: int, modifiers: Sequence[str], dice: Mapping[str, Sequence[int]] | None,
                      rng: DiceSource | None) -> Ruling:
    """Dark Ages: a fighter spends a defense he kept on one dodge roll against several attackers, whose
    successes he then divides among their attacks (:func:`larp.rules.tabletop.shared_dodge.roll_shared_dodge`;
    004 "Dodging"). Recorded.

    Raises:
        ServiceError: as :func:`_get`; 422 (``dodge``) not Dark Ages, a fighter not in the fight, no
            defense kept, a bad count; a roll still to be entered at the table (``dice.dodge``).
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        key = fighter_key(loaded, who, "dodge", "Choose who dodges, in this fight.")
        try:
            combat, ruling = shared_dodge.roll_shared_dodge(loaded.combat, loaded.fighters[key], attackers,
                                                            loaded.settings, modifiers=tuple(modifiers), dice=dice,
                                                            rng=rng)
        except DiceNeeded as exc:
            raise ServiceError(exc.message, field="dodge") from None
        except RulesError as exc:
            raise ServiceError(exc.message, field="dodge") from None
        return _acted(chronicle, narrator, loaded, combat, key, turn_rules.said_text(ruling.steps[-1]), ruling.steps,
                      {"attackers": attackers, "modifiers": list(modifiers),
                       "dice": {"dodge": list(ruling.roll.dice) if ruling.roll else []}}, ruling.to_dict())


def clinch_turn(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any, end: bool,
                dice: Mapping[str, Sequence[int]] | None, rng: DiceSource | None) -> Ruling:
    """A later turn of 004's clinch in which both crush each other, as the acting fighter's action:
    resisted Strength + Brawl, both take Strength damage, and the one with more successes decides
    whether it goes on (:func:`larp.rules.tabletop.holds.resolve_clinch_turn`; 004 "Bear Hug/Clinch",
    variant). With ``end`` the winner ends it (a tie goes on). Damage goes on both tracks; recorded.

    Raises:
        ServiceError: as :func:`_get`; 422 (``clinch``) he cannot act now, is in no clinch, not Dark
            Ages, a roll to enter at the table; 409 a character changed meanwhile.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        key = acting(loaded, who)
        combat = loaded.combat
        hold = next((h for h in combat.holds if h.maneuver == "clinch" and key in (h.holder, h.target)), None)
        if hold is None:
            raise ServiceError(Phrase.message(N_("%(name)s is in no clinch."), name=combat.name(key)), field="clinch")
        a, b = loaded.fighters[hold.holder], loaded.fighters[hold.target]
        try:
            ruling = holds.resolve_clinch_turn(a, b, loaded.settings, dice=dice, rng=rng)
            combat = turn_rules.take_action(combat, key, turn_rules.said_text(ruling.steps[-1]))
        except DiceNeeded as exc:
            raise ServiceError(exc.message, field="clinch") from None
        except RulesError as exc:
            raise ServiceError(exc.message, field="clinch") from None
        ended = bool(end and ruling.decides is not None)
        if ended:
            combat = turn_rules.release(combat, hold.target)
        for k, track in ruling.tracks.items():
            if track.condition != "active" or track.staked:
                combat = turn_rules.drop_fighter(combat, k)
        said = dict(holder=combat.name(hold.holder), target=combat.name(hold.target),
                    decides=combat.name(ruling.decides) if ruling.decides else "")
        summary = Phrase.message(N_("%(holder)s and %(target)s crush each other: %(decides)s ends the clinch.") if ended else
                                 N_("%(holder)s and %(target)s crush each other: %(decides)s decides.") if ruling.decides else
                                 N_("%(holder)s and %(target)s crush each other: the clinch goes on."), **said)
        record = record_ruling(chronicle, narrator, KIND, summary, ruling.steps,
                               [(loaded.characters[hold.holder], "holder"), (loaded.characters[hold.target], "target")],
                               game_session=open_game_session(chronicle),
                               inputs={"turn": combat.turn, "combat": loaded.row.id, "clinch": hold.to_dict(),
                                       "end": end, "dice": {k: list(v) for k, v in ruling.dice.items()}},
                               outcome=ruling.to_dict())
        for k, track in ruling.tracks.items():
            if track != loaded.fighters[k].track:
                loaded.characters[k] = store_track(loaded.characters[k], track)
        _save(loaded, combat, last=[record.id])
        return record


def schedule_effect(chronicle: Chronicle, narrator: User, combat_id: Any, version: Any, who: Any, text: str,
                    turns: Any) -> TabletopCombat:
    """Note an effect that takes effect on ``who`` at the end of this turn, or ``turns`` turns later (an
    extended action) (:func:`larp.rules.tabletop.turn_end.schedule`; 004 "Extended and Delayed
    Effects"). It is ruled when the turn ends.

    Raises:
        ServiceError: as :func:`_get`; 422 a fighter not in the fight, an empty text, turns outside 0..20.
    """
    with db.atomic():
        loaded = _get(chronicle, narrator, combat_id, version)
        try:
            combat = turn_end.schedule(loaded.combat, str(who), (text or "")[:200], turns)
        except RulesError as exc:
            raise ServiceError(exc.message, field="schedule") from None
        return _save(loaded, combat, last=[])  # nothing ruled yet: it is ruled when the turn ends


def ambush_dice(row: TabletopCombat, combat: Combat, actor: str | None) -> int:
    """The extra dice of the free attack ``actor`` won by an ambush in this combat's turn, until his
    first action of it (000 "Ambush": "one free attack"), else 0."""
    if actor is None or combat.taken.get(actor):
        return 0
    recent = (Ruling.select().where((Ruling.chronicle == row.chronicle) & (Ruling.kind == KIND)
                                    & (Ruling.created_at >= row.created_at) & Ruling.undone_at.is_null())
              .order_by(Ruling.id.desc()).limit(20))
    for ruling in recent:
        inputs, outcome = ruling.inputs or {}, ruling.outcome or {}
        if (inputs.get("ambush") and inputs.get("combat") == row.id and inputs.get("ambusher") == actor
                and inputs.get("turn") == combat.turn and outcome.get("outcome") == "free_attack"):
            return int(outcome.get("attack_dice") or 0)
    return 0
